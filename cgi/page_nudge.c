/*
 * page_nudge.c - POST PREFIX g/ID/nudge: the cookie's seat asks the seat
 * to move to hurry, by email (compose_nudge), at most once a day
 * (STORE_NUDGE_EVERY, counted by the store per nudging seat).
 *
 * Guard: the seat's cookie and its CSRF token; the form's seq must be
 * the game's (else the turn may have passed: ?m=stale, nothing sent).
 * Then a 303 back to the table with a notice: nudged, nudge_again (a
 * nudge less than a day ago), nudge_none (the seat to move gets no
 * email).  Nudging on one's own turn, or once the game is over, is a 409.
 */
#include <stdio.h>

#include "mail_ctx.h"
#include "query.h"
#include "web.h"

static web_err refuse(web *w, const char *why)
{
	snprintf(w->why, sizeof w->why, "%s", why);
	return WEB_ILLEGAL;
}

/* Composes the nudge and hands it to the store. */
static web_err send(web *w, int seat, int seq)
{
	static store_mail m;
	compose_ctx c;
	store_error err;
	int n;

	web_compose(w, &c);
	n = compose_nudge(&c, &w->game, seat, &m);

	if (n < 0) {
		web_log(w, __func__, "game %s: the nudge could not be composed",
		        w->game.id);
		return WEB_INTERNAL;
	}
	if (n == 0)
		return seat_back_to_table(w, QUERY_NOTICE_NUDGE_NONE);
	switch (store_nudge(w->st, w->game.id, seq, seat, &m, &err)) {
	case STORE_OK:
		return seat_back_to_table(w, QUERY_NOTICE_NUDGED);
	case STORE_LIMITED:
		return seat_back_to_table(w, QUERY_NOTICE_NUDGE_AGAIN);
	case STORE_CONFLICT:
		return seat_back_to_table(w, QUERY_NOTICE_STALE);
	case STORE_INVALID:
		return refuse(w, err.why);
	default:
		return web_store_err(w, __func__, &err);
	}
}

web_err page_nudge(web *w)
{
	web_err e;
	int seat, seq;

	/* guard */
	if ((e = seat_form_guard(w, "", &seat)))
		return e;
	/* inputs */
	if ((e = seat_form_seq(w, &seq)))
		return e;
	if (seq != w->game.seq)
		return seat_back_to_table(w, QUERY_NOTICE_STALE);
	if (w->game.state.status != BT_PLAYING)
		return refuse(w, "The game is over: there is nobody to nudge.");
	if (w->game.state.turn == seat)
		return refuse(w, "It is your own turn: there is nobody to "
		              "nudge.");
	/* do it */
	return send(w, seat, seq);
}
