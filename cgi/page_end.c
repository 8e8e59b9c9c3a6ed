/*
 * page_end.c - POST PREFIX g/ID/end: the cookie's seat ends the game
 * where it stands, once the crew can no longer reach its goal
 * (store_end_game); the table then says who ended it, and everyone gets
 * the game-over email.  Playing on stays just as fine.
 *
 * Guard: the seat's cookie (a bot's seat has none that works) and its
 * CSRF token; the form's seq must be the game's, so a form from before
 * the last move changes nothing (?m=stale), and a second press finds
 * the game over and changes nothing either.  A game that can still be
 * won is refused with a page that says so.
 */
#include <stdio.h>

#include "describe.h"
#include "ended.h"
#include "mail_ctx.h"
#include "query.h"
#include "web.h"

const char *ended_words(const store_game *g, char *buf, size_t cap)
{
	char n[48];

	buf[0] = '\0';
	if (g->ended_by >= 1 && g->ended_by <= g->players)
		snprintf(buf, cap, "%s ended the game: it could no longer be "
		         "won.", describe_seat(g, g->ended_by, n, sizeof n));
	return buf;
}

int ended_may(const store_game *g, int seat)
{
	return seat >= 1 && seat <= g->players && !g->seats[seat - 1].bot[0] &&
	       !g->ended_by && g->sweep_card == BT_NO_CARD &&
	       bt_out_of_reach(&g->state);
}

web_err page_end(web *w)
{
	compose_ctx mail;
	store_error err;
	web_err e;
	int seat, seq;

	/* guard */
	if ((e = seat_form_guard(w, "", &seat)))
		return e;
	/* inputs */
	if ((e = seat_form_seq(w, &seq)))
		return e;
	if (seq != w->game.seq || w->game.state.status != BT_PLAYING)
		return seat_back_to_table(w, QUERY_NOTICE_STALE);
	if (!ended_may(&w->game, seat)) {
		snprintf(w->why, sizeof w->why, "This game can still be won, "
		         "so it cannot be ended early: play on!");
		return WEB_ILLEGAL;
	}
	/* do it */
	web_compose(w, &mail);
	switch (store_end_game(w->st, w->game.id, seat, seq, compose_ended,
	                       &mail, NULL, &err)) {
	case STORE_OK: {
		char to[STORE_ID_LEN + 8];
		snprintf(to, sizeof to, "g/%s", w->game.id);
		return resp_redirect(w, to);
	}
	case STORE_CONFLICT:
		return seat_back_to_table(w, QUERY_NOTICE_STALE);
	case STORE_ILLEGAL:
		snprintf(w->why, sizeof w->why, "This game can still be won, "
		         "so it cannot be ended early: play on!");
		return WEB_ILLEGAL;
	default:
		return web_store_err(w, __func__, &err);
	}
}
