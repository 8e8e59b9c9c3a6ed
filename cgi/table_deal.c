/*
 * table_deal.c - once a game is over nothing of it is secret any more
 * (its record, seed and all, is there to download): the table shows
 * every hand and what every Sensor Sweep saw, now or as it was after
 * move N, and the history shows the hands as dealt.  While the game is
 * in play nothing here is drawn: each seat sees its own hand alone
 * (R10).
 */
#include <stdio.h>
#include <string.h>

#include "describe.h"
#include "table.h"

enum { DEAL_SWEEPS_MAX = 16 };   /* sweeps listed; a deck holds fewer */

/* The Sensor Sweeps of a game, as a store walk meets them. */
typedef struct sweeps {
	int n;
	struct {
		int no, seat, nargs;
		bt_card card[BT_SWEEP_CARDS];
	} s[DEAL_SWEEPS_MAX];
} sweeps;

static int keep(void *ctx, int seq, int64_t created, const bt_game *before,
                const bt_game *after, const bt_action *a)
{
	sweeps *sw = ctx;

	(void)created;
	(void)before;
	(void)after;
	if (a->verb != BT_SPECIAL || a->card >= BT_CARD_COUNT ||
	    bt_card_get(a->card)->kind != BT_SENSOR_SWEEP ||
	    sw->n >= DEAL_SWEEPS_MAX)
		return 0;
	sw->s[sw->n].no = seq + 1;
	sw->s[sw->n].seat = a->seat;
	sw->s[sw->n].nargs = a->nargs < BT_SWEEP_CARDS ? a->nargs
	                     : BT_SWEEP_CARDS;
	for (int i = 0; i < sw->s[sw->n].nargs; i++)
		sw->s[sw->n].card[i] = (bt_card)a->arg[i];
	sw->n++;
	return 0;
}

/* "<li class="hand"><strong>Ann</strong> (seat 1): Overtime; ..." */
static void hand_item(out *o, const store_game *g, const bt_game *state,
                      int seat, int viewer)
{
	uint64_t h = state->hand[seat - 1];
	char name[48], card[96];
	int n = 0;

	out_raws(o, seat == viewer ? "<li class=\"hand you\"><strong>"
	         : "<li class=\"hand\"><strong>");
	out_html(o, describe_seat(g, seat, name, sizeof name));
	out_rawf(o, "</strong> (seat %d): ", seat);
	for (int c = 0; c < BT_HANDABLE_COUNT; c++) {
		if (!(h >> c & 1))
			continue;
		describe_card((bt_card)c, card, sizeof card);
		out_raws(o, n++ ? "; " : "");
		out_html(o, card);
	}
	out_raws(o, n ? "</li>\n" : "no cards</li>\n");
}

void deal_html(out *o, const store_game *g, const bt_game *state,
               int viewer, const char *when)
{
	out_raws(o, "<section class=\"panel deal\" aria-labelledby=\"deal-h\">"
	         "\n<h2 id=\"deal-h\">Every hand <span class=\"of\">");
	out_html(o, when);
	out_raws(o, "</span></h2>\n<ul class=\"hands\">\n");
	for (int s = 1; s <= state->players && s <= BT_MAX_PLAYERS; s++)
		hand_item(o, g, state, s, viewer);
	out_raws(o, "</ul>\n");
}

/* The sweeps' list, inside the section deal_html opened. */
static void sweeps_html(out *o, const store_game *g, const sweeps *sw)
{
	char name[48];

	if (sw->n == 0)
		return;
	out_raws(o, "<h3>What each Sensor Sweep saw <span class=\"of\">put "
	         "back in this order, top first</span></h3>\n"
	         "<ul class=\"sweeps\">\n");
	for (int i = 0; i < sw->n; i++) {
		out_rawf(o, "<li>Move %d, ", sw->s[i].no);
		out_html(o, describe_seat(g, sw->s[i].seat, name, sizeof name));
		out_raws(o, ": ");
		for (int k = 0; k < sw->s[i].nargs; k++) {
			out_raws(o, k ? ", " : "");
			out_html(o, sw->s[i].card[k] < BT_CARD_COUNT
			         ? bt_card_get(sw->s[i].card[k])->name : "a card");
		}
		out_raws(o, "</li>\n");
	}
	out_raws(o, "</ul>\n");
}

web_err table_deal(web *w, const table_view *tv, int over, vals *v)
{
	static out html;
	static int made;
	static sweeps sw;
	store_error err;
	char when[96];

	if (!over)
		return WEB_OK;
	if (!made) {
		out_init(&html, 32 * 1024);
		made = 1;
	}
	out_reset(&html);
	sw.n = 0;
	if (store_walk(w->st, &w->game, tv->at, keep, &sw, NULL, &err)
	    != STORE_OK)
		return web_store_err(w, __func__, &err);
	if (tv->at >= 0)
		snprintf(when, sizeof when, "after move %d: the game is over, "
		         "nothing is secret now", tv->at);
	else
		snprintf(when, sizeof when, "the game is over: nothing is "
		         "secret now");
	deal_html(&html, &w->game, &w->game.state, tv->seat, when);
	sweeps_html(&html, &w->game, &sw);
	out_raws(&html, "</section>\n");
	if (html.failed) {
		web_log(w, __func__, "the deal overflowed");
		return WEB_INTERNAL;
	}
	vals_show(v, K_has_deal, 1);
	vals_set(v, K_deal, out_str(&html));
	return WEB_OK;
}
