/*
 * page_table.c - GET PREFIX g/ID: the game from the cookie's seat (R10:
 * only its own hand; others' hand sizes), with one form per legal action
 * when it is that seat's turn, the table talk, and the nudge or "play
 * again" (table_life.c).  The drawing is table_view.c's.
 *
 * Query: at=N, the table as it was after move N (0..the moves so far),
 * read-only, from this seat's point of view (the history page links
 * there); m=stale | illegal | nudged | nudge_again | nudge_none | slow
 * | full | standin_asked | standin_started,
 * a short notice after a form (page_act, page_nudge and page_say
 * redirect here with it).
 */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "describe.h"
#include "fields.h"
#include "query.h"
#include "table.h"

/* The notices a redirect may ask for; with named, the text is before,
 * the name of the seat to move, after. */
static const struct {
	const char *m, *cls, *before, *after;
	int named;
} notices[] = {
	{ QUERY_NOTICE_STALE, "warn", "That form was out of date: the game "
	  "had moved on. Here is the current table.", "", 0 },
	{ QUERY_NOTICE_ILLEGAL, "bad", "That move is not allowed now; "
	  "nothing changed.", "", 0 },
	{ QUERY_NOTICE_NUDGED, "", "", " has been nudged: an email is on its "
	  "way.", 1 },
	{ QUERY_NOTICE_NUDGE_AGAIN, "warn", "You nudged ", " today already: "
	  "one nudge a day.", 1 },
	{ QUERY_NOTICE_NUDGE_NONE, "warn", "", " cannot be nudged: there is "
	  "no email address for them, or their emails are off.", 1 },
	{ QUERY_NOTICE_SLOW, "warn", "Slow down: at most 5 messages a minute. "
	  "Wait a moment, then say it again.", "", 0 },
	{ QUERY_NOTICE_FULL, "warn", "This game has had all the table talk "
	  "one game may have, so that message was not added.", "", 0 },
	{ QUERY_NOTICE_TAKEN_BACK, "", "Your move was taken back: it is your "
	  "turn again.", "", 0 },
	{ QUERY_NOTICE_STANDS, "warn", "That move can no longer be taken "
	  "back: the game has moved on, or it drew or showed a card.", "", 0 },
	{ QUERY_NOTICE_STANDIN_ASKED, "", "You asked for a bot to stand in "
	  "for ", ": it will once everyone else at the table has asked too.",
	  1 },
	{ QUERY_NOTICE_STANDIN_STARTED, "", "A bot now stands in for ",
	  ", who has been told by email: it will move within moments.", 1 },
};

enum { SEEN_EVERY = 60 };      /* seconds between store_touch writes */

/* The notice of ?m=, if it is one we know. */
static void notice(web *w, vals *v, char *buf, size_t cap)
{
	const char *m = field_text(&w->rq.query, FIELD_NOTICE);
	const store_game *g = &w->game;
	const char *name = "The seat to move";
	char nb[48];

	if (g->state.status == BT_PLAYING && g->state.turn >= 1)
		name = describe_seat(g, g->state.turn, nb, sizeof nb);
	for (size_t i = 0; m && i < sizeof notices / sizeof notices[0]; i++)
		if (strcmp(m, notices[i].m) == 0) {
			snprintf(buf, cap, "%s%s%s", notices[i].before,
			         notices[i].named ? name : "", notices[i].after);
			vals_show(v, K_has_notice, 1);
			vals_set(v, K_notice, buf);
			vals_set(v, K_notice_class, notices[i].cls);
		}
}

/* ?at=N: the number of record lines to show the table after, or -1 for
 * now.  A number that is no move of this game is a 400 that says so. */
static web_err at_param(web *w, int *at)
{
	static char back[STORE_ID_LEN + 8];
	int64_t n;

	*at = -1;
	if (!field_text(&w->rq.query, FIELD_AT))
		return WEB_OK;
	form_rc rc = field_int(&w->rq.query, FIELD_AT, &n);
	if (rc == FORM_OK && n <= w->game.seq) {
		*at = (int)n;
		return WEB_OK;
	}
	snprintf(back, sizeof back, "g/%s", w->game.id);
	w->back = back;
	if (rc == FORM_OK)
		snprintf(w->why, sizeof w->why, "There is no move %lld in this "
		         "game: it has %d so far.", (long long)n, w->game.seq);
	else
		snprintf(w->why, sizeof w->why, "The address asks for a move "
		         "that is not a number: ?" QUERY_AT "= takes a move "
		         "number, 0 to %d.", w->game.seq);
	return WEB_BAD_REQUEST;
}

web_err page_table(web *w)
{
	static char self[WEB_URL_MAX], text[256];
	store_error err;
	table_view tv;
	web_err e;
	vals v;
	int seat, at;

	/* on a server, what the page reads in one round trip: first only
	 * what the cheap way needs, if the browser has a copy */
	if (w->rq.if_none_match[0])
		store_read_ahead_mark(w->st, w->rq.game, TABLE_TALK_SHOWN);
	else
		store_read_ahead_table(w->st, w->rq.game, TABLE_TALK_SHOWN);
	/* the cheap way first: the browser's copy is still what this seat
	 * would see (live.c) */
	if (table_fresh(w, 1))
		return WEB_OK;
	store_read_ahead_table(w->st, w->rq.game, TABLE_TALK_SHOWN);
	/* guard */
	if ((e = seat_guard(w, &seat)))
		return e;
	/* inputs */
	if ((e = at_param(w, &at)))
		return e;
	vals_init(&v);
	notice(w, &v, text, sizeof text);
	if (store_now() - w->game.seats[seat - 1].last_seen >= SEEN_EVERY &&
	    store_touch(w->st, w->game.id, seat, &err) != STORE_OK)
		web_log(w, __func__, "store_touch: %s", err.why);
	/* render */
	snprintf(self, sizeof self, "%sg/%s", w->cf->prefix, w->game.id);
	tv = (table_view){ .seat = seat, .at = at, .lines = w->game.seq,
	                   .self = self };
	table_live(w, &tv, &v);
	return table_render(w, &tv, &v);
}
