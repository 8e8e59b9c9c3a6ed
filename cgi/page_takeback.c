/*
 * page_takeback.c - POST PREFIX g/ID/takeback: the cookie's seat takes
 * back its last move (a misclick), while that move showed nobody
 * anything and nothing has followed it (store_take_back).
 *
 * Guard: the seat's cookie and its CSRF token; the form's seq must be
 * the game's (a form sent twice, or after the next move, changes
 * nothing: ?m=stale).  Then a 303 back to the table with a notice:
 * taken_back, or stands (the move may not be taken back).
 */
#include <stdio.h>

#include "query.h"
#include "web.h"

web_err page_take_back(web *w)
{
	store_error err;
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
	/* do it */
	switch (store_take_back(w->st, w->game.id, seat, seq, NULL, &err)) {
	case STORE_OK:
		return seat_back_to_table(w, QUERY_NOTICE_TAKEN_BACK);
	case STORE_CONFLICT:
		return seat_back_to_table(w, QUERY_NOTICE_STALE);
	case STORE_ILLEGAL:
		return seat_back_to_table(w, QUERY_NOTICE_STANDS);
	default:
		return web_store_err(w, __func__, &err);
	}
}
