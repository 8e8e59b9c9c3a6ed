/*
 * table_view.c - the game on the table page, as one viewer sees it (R10:
 * a seat its own hand, everyone the hand sizes), now or as it was after
 * move N.  A past table is replayed from the record (store_walk) and is
 * read-only: its forms, the nudge and the talk belong to now.
 */
#include <stdio.h>
#include <string.h>

#include "ended.h"
#include "marks.h"
#include "moves.h"
#include "names.h"
#include "offer.h"
#include "since.h"
#include "table.h"

/* Everything the rows of table.html read. */
typedef struct table_ctx {
	web *w;
	const table_view *tv;
	moves m;
	char name[48], note[64], hand[16], no[16];
	char marks[MARKS_MAX];
	char reach[OFFER_MAX];  /* "... can no longer be won", or "" */
	char ended[ENDED_MAX + 32];  /* "The crew lost. Ann ended ..." */
	char end_url[WEB_URL_MAX];
} table_ctx;

/* The last moves up to a past point: the transitions the walk saw, the
 * oldest dropped once MOVES_MAX are kept. */
typedef struct past {
	int n;
	struct {
		bt_game before, after;
		bt_action a;
	} t[MOVES_MAX];
} past;

/* Appends ", what" (or "what" to an empty note). */
static void note_add(char *note, size_t cap, const char *what)
{
	size_t n = strlen(note);

	snprintf(note + n, cap - n, "%s%s", n ? ", " : "", what);
}

static const char *row_seat(table_ctx *t, int key, int i)
{
	const store_game *g = &t->w->game;
	int s = i + 1, me = t->tv->seat, turn = g->state.status == BT_PLAYING
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
		return s == me ? (s == turn ? "you turn" : "you")
		               : (s == turn ? "turn" : "");
	case K_seat_note:
		/* the First Player is the round's: it starts it (and, at
		 * the end, the one who would have started the next) */
		snprintf(t->note, sizeof t->note, "%s", s == me ? "you" : "");
		if (s == g->state.first && g->state.status == BT_PLAYING)
			note_add(t->note, sizeof t->note, "First Player");
		if (s == turn)
			note_add(t->note, sizeof t->note, "to move");
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
		return i == 0 && t->tv->at < 0 ? "latest" : "";
	case K_pip_class:
		return i < t->w->game.state.officers ? "on" : "off";
	default:
		return row_seat(t, key, i);
	}
}

/* " for 2 days": how long the seat to move has had the turn, now. */
static void waited(const table_ctx *t, char *buf, size_t cap)
{
	const store_game *g = &t->w->game;
	char words[SINCE_MAX];

	buf[0] = '\0';
	if (t->tv->at < 0 && g->turn_since > 0)
		snprintf(buf, cap, " for %s", since_words(store_now() -
		         g->turn_since, words, sizeof words));
}

/* "Your turn", "Waiting on Brad for 2 days", a sweep under way, or the
 * end. */
static void turn_text(table_ctx *t, vals *v, char *buf, size_t cap)
{
	const store_game *g = &t->w->game;
	int me = t->tv->seat;
	char n[48], w[48];

	if (g->state.status != BT_PLAYING) {
		snprintf(buf, cap, "The game is over.");
		vals_set(v, K_turn_class, "over");
	} else if (g->sweep_card != BT_NO_CARD) {
		snprintf(buf, cap, g->sweep_seat == me
		         ? "Your turn: finish your Sensor Sweep."
		         : "%s is looking at the top of the Shift Deck (Sensor "
		           "Sweep).", describe_seat(g, g->sweep_seat, n, sizeof n));
		vals_set(v, K_turn_class, g->sweep_seat == me ? "mine" : "");
	} else if (g->state.turn == me) {
		snprintf(buf, cap, "Your turn, %s.",
		         describe_seat(g, me, n, sizeof n));
		vals_set(v, K_turn_class, t->tv->at < 0 ? "mine" : "");
	} else {
		waited(t, w, sizeof w);
		snprintf(buf, cap, "%s %s (seat %d)%s.", t->tv->at < 0
		         ? "Waiting on" : "To move:",
		         describe_seat(g, g->state.turn, n, sizeof n),
		         g->state.turn, w);
		vals_set(v, K_turn_class, "");
	}
	vals_set(v, K_turn_text, buf);
	vals_show(v, K_out_of_reach, offer_out_of_reach(&g->state,
	          t->reach, sizeof t->reach));
	vals_set(v, K_reach_text, t->reach);
	/* a person's seat may end a lost cause there (page_end.c) */
	if (TABLE_LIVE(t->tv) && ended_may(g, me)) {
		snprintf(t->end_url, sizeof t->end_url, "%sg/%s/end",
		         t->w->cf->prefix, g->id);
		vals_show(v, K_can_end, 1);
		vals_set(v, K_end_url, t->end_url);
	}
}

/* A bar's width class: 0..100 in steps of 5. */
static long bar(int value, int whole)
{
	long pct = whole > 0 ? (long)value * 100 / whole : 0;

	pct = pct < 0 ? 0 : pct > 100 ? 100 : pct;
	return pct / 5 * 5;
}

/* The reprimand risk for seat (0: from what everyone knows); a seat in
 * the middle of its Sensor Sweep has already seen the top cards, though
 * the engine learns so only when the order is chosen. */
static void seat_risk(const store_game *sg, int seat, int *num, int *den)
{
	bt_game g = sg->state;

	if (seat > 0 && sg->sweep_card != BT_NO_CARD &&
	    sg->sweep_seat == seat) {
		g.known_top[seat - 1] = (uint8_t)(g.shift_deck.n < BT_SWEEP_CARDS
		                        ? g.shift_deck.n : BT_SWEEP_CARDS);
		g.known_any = 1;
	}
	bt_risk(&g, seat, num, den);
}

/* The risk gauge's figure and its words, true in every state: a known
 * next card (a sweep, the last card) is certain or safe, not "1 in 1". */
static void risk_words(const bt_game *g, int num, int den, char *pct,
                       size_t pcap, char *detail, size_t dcap)
{
	const char *which = g->shift_deck.n == 1
	                    ? "Only one Shift card is left"
	                    : "You know the next Shift card";

	if (den == 1) {
		snprintf(pct, pcap, "%s", num ? "Certain" : "None");
		snprintf(detail, dcap, "%s: it %s.", which, num
		         ? "brings a reprimand" : "brings no reprimand");
		return;
	}
	forms_percent(num, den, pct, pcap);
	snprintf(detail, dcap, "%d of the %d Shift cards that may come next "
	         "would bring the Officers to %d: a reprimand. From what you "
	         "know.", num, den, BT_REPRIMAND_OFFICERS);
}

static void gauges(table_ctx *t, vals *v, char *pct, size_t cap)
{
	static char detail[256];
	const bt_game *g = &t->w->game.state;
	int num, den;

	vals_show(v, K_effort_live, g->status == BT_PLAYING);
	vals_int(v, K_effort, g->effort);
	vals_int(v, K_target, g->target);
	vals_int(v, K_effort_w, bar(g->effort, g->target));
	vals_set(v, K_effort_class, g->status == BT_PLAYING && g->target > 0
	         && g->effort >= g->target ? "reached" : "");
	vals_int(v, K_officers, g->officers);
	vals_int(v, K_officers_max, BT_REPRIMAND_OFFICERS);
	vals_rows(v, K_pip, BT_REPRIMAND_OFFICERS);
	vals_int(v, K_leisure, g->leisure);
	vals_int(v, K_goal, bt_goal(g));
	vals_int(v, K_leisure_w, bar(g->leisure, bt_goal(g)));
	seat_risk(&t->w->game, t->tv->seat, &num, &den);
	vals_show(v, K_has_risk, g->status == BT_PLAYING && den > 0);
	risk_words(g, num, den, pct, cap, detail, sizeof detail);
	vals_set(v, K_risk_pct, pct);
	vals_set(v, K_risk_detail, detail);
	vals_set(v, K_risk_class, num == 0 ? "safe" : num * 4 >= den
	         ? "high" : "some");
}

/* "The crew lost. Ann ended the game: ..." */
static const char *ended_title(table_ctx *t)
{
	char words[ENDED_MAX];

	snprintf(t->ended, sizeof t->ended, "The crew lost. %s",
	         ended_words(&t->w->game, words, sizeof words));
	return t->ended;
}

static void status(table_ctx *t, vals *v)
{
	const bt_game *g = &t->w->game.state;
	int over = g->status != BT_PLAYING;

	vals_int(v, K_round, g->round);
	vals_int(v, K_rounds_max, g->round + (over ? 0
	         : g->assignment_deck.n));
	vals_show(v, K_over, over);
	vals_show(v, K_practice, t->w->game.practice);
	if (over) {
		game_marks_sentence(t->w, &t->w->game, t->marks,
		                    sizeof t->marks);
		vals_show(v, K_has_result_marks, t->marks[0] != '\0');
		vals_set(v, K_result_marks, t->marks);
	}
	vals_set(v, K_result_class, g->status == BT_WON ? "won" : "lost");
	vals_set(v, K_result_title, g->status == BT_WON
	         ? "The crew won: enough Leisure, and nobody noticed!"
	         : t->w->game.ended_by ? ended_title(t)
	         : "The crew lost: the Assignment Deck ran out.");
	vals_int(v, K_deck_assignment, g->assignment_deck.n);
	vals_int(v, K_deck_shift, g->shift_deck.n);
	vals_int(v, K_deck_side, g->side_deck.n);
	vals_int(v, K_deck_ability, g->ability_deck.n);
	vals_int(v, K_discard, g->ability_discard.n);
	vals_int(v, K_set_aside, g->set_aside.n);
	vals_rows(v, K_seat, g->players);
}

static int keep(void *ctx, int seq, int64_t created, const bt_game *before,
                const bt_game *after, const bt_action *a)
{
	past *p = ctx;

	(void)seq;
	(void)created;
	if (p->n == MOVES_MAX) {
		memmove(&p->t[0], &p->t[1], sizeof p->t[0] * (MOVES_MAX - 1));
		p->n--;
	}
	p->t[p->n].before = *before;
	p->t[p->n].after = *after;
	p->t[p->n].a = *a;
	p->n++;
	return 0;
}

/* Replaces w->game's state by the one after tv->at lines, and describes
 * the last moves up to there for viewer.  A pending Sensor Sweep
 * belongs to now: the past has none. */
static web_err go_back(web *w, const table_view *tv, int viewer, moves *m)
{
	static past p;
	static bt_game at;
	store_error err;

	p.n = 0;
	if (store_walk(w->st, &w->game, tv->at, keep, &p, &at, &err)
	    != STORE_OK)
		return web_store_err(w, __func__, &err);
	w->game.state = at;
	w->game.sweep_card = BT_NO_CARD;
	w->game.sweep_seat = 0;
	m->n = 0;
	for (int i = p.n - 1; i >= 0; i--)
		describe_action(&p.t[i].before, &p.t[i].after, &p.t[i].a,
		                &w->game, viewer, m->text[m->n++],
		                DESCRIBE_MAX);
	return WEB_OK;
}

/* What a view shows besides the game: who is looking, and when. */
static void viewer(table_ctx *t, vals *v, char *you, size_t ycap, char *at,
                   size_t acap)
{
	const table_view *tv = t->tv;
	web *w = t->w;

	vals_show(v, K_is_seat, tv->seat > 0);
	vals_show(v, K_watching, tv->seat == 0);
	if (tv->seat > 0) {
		vals_set(v, K_you_name, describe_seat(&w->game, tv->seat, you,
		         ycap));
		vals_int(v, K_you_seat, tv->seat);
	}
	vals_show(v, K_at_view, tv->at >= 0);
	if (tv->at == 0)
		snprintf(at, acap, "As it was at the start, before the first "
		         "move (the game has %d now)", tv->lines);
	else if (tv->at > 0)
		snprintf(at, acap, "As it was after move %d of %d", tv->at,
		         tv->lines);
	vals_set(v, K_at_text, at);
}

/* Which of its crew's games this is, lower-case into noun ("" for a
 * crew's first game), and for the heading ("Rematch 2: round 3"). */
static void game_noun(table_ctx *t, vals *v, char *noun, size_t cap)
{
	static char heading[NAMES_NOUN_MAX];

	names_game_noun(t->w->st, &t->w->game, NULL, noun, cap);
	if (strcmp(noun, "game") == 0)
		noun[0] = '\0';
	snprintf(heading, sizeof heading, "%s", noun);
	if (heading[0] >= 'a' && heading[0] <= 'z')
		heading[0] = (char)(heading[0] - 'a' + 'A');
	vals_show(v, K_has_game_noun, noun[0] != '\0');
	vals_set(v, K_game_noun, heading);
}

/* The page's title: the turn (a past table: which move), and which of
 * its crew's games this is. */
static void page_title(const table_view *tv, const char *turn,
                       const char *noun, char *buf, size_t cap)
{
	char what[224];

	if (tv->at >= 0)
		snprintf(what, sizeof what, "Move %d of %d", tv->at, tv->lines);
	else
		snprintf(what, sizeof what, "%s%s", tv->seat ? ""
		         : "Watching: ", turn);
	snprintf(buf, cap, "%s%s%s", what, noun[0] ? " \xe2\x80\x94 " : "",
	         noun);
}

web_err table_render(web *w, const table_view *tv, vals *v)
{
	static table_ctx t;
	static forms f;
	char rules[WEB_URL_MAX];
	char turn[192], pct[16], you[48], at[128], title[288];
	char noun[NAMES_NOUN_MAX];
	/* Once over, nothing is secret: every view is told everything,
	 * the past tables too. */
	int over = w->game.state.status != BT_PLAYING;
	int reader = over ? DESCRIBE_EVERYONE : tv->seat;
	web_err e;
	tmpl_data d;

	t.w = w;
	t.tv = tv;
	memset(&f, 0, sizeof f);
	f.seat = tv->seat;
	if (tv->at >= 0)
		e = go_back(w, tv, reader, &t.m);
	else
		e = moves_recent(w, reader, &t.m);
	/* Only a seat's live view gets forms (and the CSRF token). */
	if (e == WEB_OK && TABLE_LIVE(tv))
		e = forms_init(w, tv->seat, &f);
	vals_show(v, K_hints_pending, TABLE_LIVE(tv) && f.hints_wanted &&
	          f.nhints == 0);
	if (e || (e = table_cards(w, tv->seat, &f, v)) ||
	    (e = table_life(w, tv, &f, v)) || (e = table_talk(w, tv, &f, v)) ||
	    (e = table_review(w, tv, v)) || (e = table_crew(w, tv, v)) ||
	    (e = table_since(w, tv, reader, t.m.n ? t.m.text[0] : NULL, v)) ||
	    (e = table_deal(w, tv, over, v)))
		return e;
	if ((e = table_shown(w, tv, v)))       /* hands shown to the crew */
		return e;
	status(&t, v);
	gauges(&t, v, pct, sizeof pct);
	turn_text(&t, v, turn, sizeof turn);
	viewer(&t, v, you, sizeof you, at, sizeof at);
	vals_set(v, K_table_url, tv->self);
	snprintf(rules, sizeof rules, "%srules", w->cf->prefix);
	vals_set(v, K_rules_url, rules);
	vals_rows(v, K_move, t.m.n);
	vals_show(v, K_has_moves, t.m.n > 0);
	v->row = table_row;
	v->ctx = &t;
	game_noun(&t, v, noun, sizeof noun);
	page_title(tv, turn, noun, title, sizeof title);
	d = vals_data(v);
	return resp_page(w, 200, title, TPL_TABLE, &d);
}
