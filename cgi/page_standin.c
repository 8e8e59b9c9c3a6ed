/*
 * page_standin.c - POST PREFIX g/ID/standin: the cookie's seat asks the
 * table for a bot to stand in for the seat to move, in a game whose
 * stand-in rule is "once the others agree", after that turn's last
 * reminder.  Once every other person at the table has asked, the bot
 * takes the turn (the worker plays it) and the absent player is told by
 * email (compose_standin), in the same transaction.
 *
 * Guard: the seat's cookie and its CSRF token; the form's seq must be
 * the game's (else ?m=stale).  Then a 303 back to the table with a
 * notice: standin_asked (the others have yet to ask) or standin_started.
 * A moment or a rule that does not allow it is a 409 saying why.
 */
#include <stdio.h>

#include "mail_ctx.h"
#include "query.h"
#include "web.h"

web_err page_standin(web *w)
{
	compose_ctx c;
	store_error err;
	web_err e;
	int seat, seq, started = 0;

	/* guard */
	if ((e = seat_form_guard(w, "", &seat)))
		return e;
	/* inputs */
	if ((e = seat_form_seq(w, &seq)))
		return e;
	if (seq != w->game.seq)
		return seat_back_to_table(w, QUERY_NOTICE_STALE);
	/* do it */
	web_compose(w, &c);
	switch (store_standin_ask(w->st, w->game.id, seq, seat,
	                          compose_standin, &c, &started, &err)) {
	case STORE_OK:
		return seat_back_to_table(w, started
		                          ? QUERY_NOTICE_STANDIN_STARTED
		                          : QUERY_NOTICE_STANDIN_ASKED);
	case STORE_INVALID:
		snprintf(w->why, sizeof w->why, "No stand-in now: %.200s.", err.why);
		return WEB_ILLEGAL;
	default:
		return web_store_err(w, __func__, &err);
	}
}
