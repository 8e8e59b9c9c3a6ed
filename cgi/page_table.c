/*
 * page_table.c - GET PREFIX g/ID: the game from the cookie's seat (R10:
 * only its own hand; others' hand sizes), with one form per legal action
 * when it is that seat's turn.
 *
 * Query: m=stale | illegal, a short notice after a form that changed
 * nothing (page_act.c redirects here with it).
 */
#include <stdio.h>
#include <string.h>

#include "moves.h"
#include "table.h"

/* The notices a redirect may ask for. */
static const struct {
	const char *m, *cls, *text;
} notices[] = {
	{ "stale", "warn", "That form was out of date: the game had moved "
	  "on. Here is the current table." },
	{ "illegal", "bad", "That move is not allowed now; nothing changed." },
};

enum { SEEN_EVERY = 60 };      /* seconds between store_touch writes */

/* Everything the rows of table.html read. */
typedef struct table_ctx {
	web *w;
	int seat;
	moves m;
	char name[48], note[64], hand[16], no[16];
} table_ctx;

static const char *row_seat(table_ctx *t, int key, int i)
{
	const store_game *g = &t->w->game;
	int s = i + 1, turn = g->state.status == BT_PLAYING
	                      ? g->state.turn : 0;

	switch (key) {
	case K_seat_no:
		snprintf(t->no, sizeof t->no, "%d", s);
		return t->no;
	case K_seat_name:
		return describe_seat(g, s, t->name, sizeof t->name);
	case K_seat_hand:
		snprintf(t->hand, sizeof t->hand, "%d",
		         bt_hand_size(&g->state, s));
		return t->hand;
	case K_seat_class:
		return s == t->seat ? (s == turn ? "you turn" : "you")
		                    : (s == turn ? "turn" : "");
	case K_seat_note:
		snprintf(t->note, sizeof t->note, "%s%s%s",
		         s == t->seat ? "you" : "",
		         s == t->seat && s == turn ? ", " : "",
		         s == turn ? "to move" : "");
		return t->note;
	default:
		return NULL;
	}
}

static const char *table_row(void *ctx, int key, int i)
{
	table_ctx *t = ctx;

	switch (key) {
	case K_move_text:
		return i < t->m.n ? t->m.text[i] : NULL;
	case K_move_class:
		return i == 0 ? "latest" : "";
	case K_pip_class:
		return i < t->w->game.state.officers ? "on" : "off";
	default:
		return row_seat(t, key, i);
	}
}

/* "Your turn", "Waiting for Brad", a sweep under way, or the end. */
static void turn_text(table_ctx *t, vals *v, char *buf, size_t cap)
{
	const store_game *g = &t->w->game;
	char n[48];

	if (g->state.status != BT_PLAYING) {
		snprintf(buf, cap, "The game is over.");
		vals_set(v, K_turn_class, "over");
	} else if (g->sweep_card != BT_NO_CARD) {
		snprintf(buf, cap, g->sweep_seat == t->seat
		         ? "Your turn: finish your Sensor Sweep."
		         : "%s is looking at the top of the Shift Deck (Sensor "
		           "Sweep).", describe_seat(g, g->sweep_seat, n, sizeof n));
		vals_set(v, K_turn_class, g->sweep_seat == t->seat ? "mine" : "");
	} else if (g->state.turn == t->seat) {
		snprintf(buf, cap, "Your turn, %s.",
		         describe_seat(g, t->seat, n, sizeof n));
		vals_set(v, K_turn_class, "mine");
	} else {
		snprintf(buf, cap, "Waiting for %s (seat %d).",
		         describe_seat(g, g->state.turn, n, sizeof n), g->state.turn);
		vals_set(v, K_turn_class, "");
	}
	vals_set(v, K_turn_text, buf);
}

/* A bar's width class: 0..100 in steps of 5. */
static long bar(int value, int whole)
{
	long pct = whole > 0 ? (long)value * 100 / whole : 100;

	pct = pct < 0 ? 0 : pct > 100 ? 100 : pct;
	return pct / 5 * 5;
}

/* The reprimand risk for seat; a seat in the middle of its Sensor Sweep
 * has already seen the top cards, though the engine learns so only when
 * the order is chosen. */
static void seat_risk(const store_game *sg, int seat, int *num, int *den)
{
	bt_game g = sg->state;

	if (sg->sweep_card != BT_NO_CARD && sg->sweep_seat == seat) {
		g.known_top[seat - 1] = (uint8_t)(g.shift_deck.n < BT_SWEEP_CARDS
		                        ? g.shift_deck.n : BT_SWEEP_CARDS);
		g.known_any = 1;
	}
	bt_risk(&g, seat, num, den);
}

static void gauges(table_ctx *t, vals *v, char *pct, size_t cap)
{
	const bt_game *g = &t->w->game.state;
	int num, den;

	vals_int(v, K_effort, g->effort);
	vals_int(v, K_target, g->target);
	vals_int(v, K_effort_w, bar(g->effort, g->target));
	vals_set(v, K_effort_class, g->target > 0 && g->effort >= g->target
	         ? "reached" : "");
	vals_int(v, K_officers, g->officers);
	vals_int(v, K_officers_max, BT_REPRIMAND_OFFICERS);
	vals_rows(v, K_pip, BT_REPRIMAND_OFFICERS);
	vals_int(v, K_leisure, g->leisure);
	vals_int(v, K_goal, bt_goal(g));
	vals_int(v, K_leisure_w, bar(g->leisure, bt_goal(g)));
	seat_risk(&t->w->game, t->seat, &num, &den);
	vals_show(v, K_has_risk, g->status == BT_PLAYING && den > 0);
	forms_percent(num, den, pct, cap);
	vals_set(v, K_risk_pct, pct);
	vals_int(v, K_risk_num, num);
	vals_int(v, K_risk_den, den);
	vals_set(v, K_risk_class, num == 0 ? "safe" : num * 4 >= den
	         ? "high" : "some");
}

static void status(table_ctx *t, vals *v)
{
	const bt_game *g = &t->w->game.state;
	int over = g->status != BT_PLAYING;

	vals_int(v, K_round, g->round);
	vals_int(v, K_rounds_max, g->round + (over ? 0
	         : g->assignment_deck.n));
	vals_show(v, K_over, over);
	vals_set(v, K_result_class, g->status == BT_WON ? "won" : "lost");
	vals_set(v, K_result_title, g->status == BT_WON
	         ? "The crew won: enough Leisure, and nobody noticed!"
	         : "The crew lost: the Assignment Deck ran out.");
	vals_int(v, K_deck_assignment, g->assignment_deck.n);
	vals_int(v, K_deck_shift, g->shift_deck.n);
	vals_int(v, K_deck_side, g->side_deck.n);
	vals_int(v, K_deck_ability, g->ability_deck.n);
	vals_int(v, K_discard, g->ability_discard.n);
	vals_int(v, K_set_aside, g->set_aside.n);
	vals_rows(v, K_seat, g->players);
}

/* The notice of ?m=, if it is one we know. */
static void notice(web *w, vals *v)
{
	const char *m = form_get(&w->rq.query, "m");

	for (size_t i = 0; m && i < sizeof notices / sizeof notices[0]; i++)
		if (strcmp(m, notices[i].m) == 0) {
			vals_show(v, K_has_notice, 1);
			vals_set(v, K_notice, notices[i].text);
			vals_set(v, K_notice_class, notices[i].cls);
		}
}

web_err page_table(web *w)
{
	static table_ctx t;
	static forms f;
	char turn[160], pct[16], you[48], rec[WEB_URL_MAX], self[WEB_URL_MAX];
	store_error err;
	web_err e;
	vals v;
	tmpl_data d;
	int seat;

	/* guard */
	if ((e = seat_guard(w, &seat)))
		return e;
	/* inputs */
	vals_init(&v);
	notice(w, &v);
	if (store_now() - w->game.seats[seat - 1].last_seen >= SEEN_EVERY &&
	    store_touch(w->st, w->game.id, seat, &err) != STORE_OK)
		web_log(w, __func__, "store_touch: %s", err.why);
	/* render */
	t.w = w;
	t.seat = seat;
	if ((e = moves_recent(w, seat, &t.m)) || (e = forms_init(w, seat, &f)) ||
	    (e = table_cards(w, seat, &f, &v)))
		return e;
	status(&t, &v);
	gauges(&t, &v, pct, sizeof pct);
	turn_text(&t, &v, turn, sizeof turn);
	snprintf(rec, sizeof rec, "%sg/%s/record", w->cf->prefix, w->game.id);
	snprintf(self, sizeof self, "%sg/%s", w->cf->prefix, w->game.id);
	vals_set(&v, K_record_url, rec);
	vals_set(&v, K_table_url, self);
	vals_set(&v, K_you_name, describe_seat(&w->game, seat, you, sizeof you));
	vals_int(&v, K_you_seat, seat);
	vals_rows(&v, K_move, t.m.n);
	vals_show(&v, K_has_moves, t.m.n > 0);
	v.row = table_row;
	v.ctx = &t;
	d = vals_data(&v);
	return resp_page(w, 200, turn, TPL_TABLE, &d);
}
