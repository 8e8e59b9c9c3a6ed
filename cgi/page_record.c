/*
 * page_record.c - GET PREFIX g/ID/record: the game record as text, for
 * any seat holding a valid cookie.
 *
 * While the game runs the record has no seed (store_export), and the
 * lines that would show hidden cards (R10) to this seat are written as
 * comments without them: another seat's Sensor Sweep order (the top of
 * the Shift Deck), the card a Hand Off gave between two other seats, and
 * every stack line (an imported game's rigged deal: every seat's hand,
 * the order of the decks).  Once the game is over the record is whole,
 * seed included, and replays.
 *
 * The feed, the history page and the emails tell moves in words
 * (describe.h) and never show a stack line, so this is the one place
 * where record lines are hidden.
 */
#include <stdio.h>
#include <string.h>

#include "web.h"

/* What writing the record needs to know per line. */
typedef struct rec_ctx {
	web *w;
	int seat;
	int playing;
	int practice;           /* to say so once, after the first line */
} rec_ctx;

/* 1 if the action line s (n bytes) shows seat something hidden. */
static int hides(const rec_ctx *r, const char *s, size_t n, bt_action *a)
{
	bt_error err;
	bt_kind k;

	if (!r->playing || bt_action_parse(s, n, a, &err) ||
	    a->verb != BT_SPECIAL || a->seat == r->seat)
		return 0;
	k = bt_card_get(a->card)->kind;
	return k == BT_SENSOR_SWEEP ||
	       (k == BT_HAND_OFF && a->nargs == 2 && a->arg[1] != r->seat);
}

/* 1 if the line s (n bytes) is a stack line to hide while playing. */
static int hides_stack(const rec_ctx *r, const char *s, size_t n)
{
	return r->playing && n > 6 && memcmp(s, "stack ", 6) == 0;
}

/* Writes stack line s (n bytes) as a comment that names its deck (the
 * line's own word) and how many cards, but not them.  A line that does
 * not parse (the writer never makes one) is hidden all the same. */
static void write_hidden_stack(rec_ctx *r, const char *s, size_t n)
{
	const char *deck = s + 6;
	const char *end = memchr(deck, ' ', n - 6);
	int deck_len = (int)(end ? (size_t)(end - deck) : n - 6);
	bt_stack_line st;
	bt_error err;

	if (bt_stack_parse(s, n, &st, &err))
		out_rawf(r->w->rs.body, "# a stack line, hidden until the "
		         "game ends\n");
	else
		out_rawf(r->w->rs.body, "# stack %.*s: %d card%s, hidden "
		         "until the game ends\n", deck_len, deck, st.n,
		         st.n == 1 ? "" : "s");
}

static int emit(void *ctx, const char *s, size_t n)
{
	rec_ctx *r = ctx;
	size_t len = n && s[n - 1] == '\n' ? n - 1 : n;
	bt_action a;

	if (hides_stack(r, s, len))
		write_hidden_stack(r, s, len);
	else if (len && s[0] >= '1' && s[0] <= '9' && hides(r, s, len, &a))
		out_rawf(r->w->rs.body, "# %d special %s (its %s stays hidden "
		         "until the game ends)\n", a.seat,
		         bt_card_get(a.card)->id,
		         bt_card_get(a.card)->kind == BT_HAND_OFF ? "card"
		         : "order");
	else
		out_raw(r->w->rs.body, s, n);
	if (r->practice) {
		/* so that a practice game is never taken for a plain one */
		out_raws(r->w->rs.body, "# practice table: hints on (the player "
		         "to move saw each action's chance of winning)\n");
		r->practice = 0;
	}
	return r->w->rs.body->failed;
}

web_err page_record(web *w)
{
	static bt_record rec;
	store_error err;
	rec_ctx r;
	web_err e;
	int seat;

	/* guard */
	if ((e = seat_guard(w, &seat)))
		return e;
	/* render */
	if (store_export(w->st, w->game.id, 0, &rec, &err) != STORE_OK)
		return web_store_err(w, __func__, &err);
	r = (rec_ctx){ w, seat, w->game.state.status == BT_PLAYING,
	               w->game.practice };
	out_reset(&w->page);
	w->rs.body = &w->page;
	if (bt_record_write(&rec, emit, &r)) {
		web_log(w, __func__, "game %s: the record cannot be written",
		        w->game.id);
		return WEB_INTERNAL;
	}
	w->rs.ctype = "text/plain; charset=utf-8";
	return WEB_OK;
}
