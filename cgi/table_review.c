/*
 * table_review.c - on a finished game's table: where it was won or lost.
 * The worker weighs the moves after the last one (work/review_job.c);
 * until every move is in, the table says the review is being computed.
 * Then the chance of winning after each move as a chart (review_chart.c)
 * and a table of figures, and the three moves that changed it most, in
 * the table's words.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "describe.h"
#include "menu.h"
#include "review.h"
#include "review_chart.h"
#include "table.h"

/* What the walk over the game's moves gathers. */
typedef struct gather {
	review *r;
	const store_review_move *rows;
	int nrows, k;
	/* the states around each turning point, once known */
	bt_game before[REVIEW_TURNING_POINTS], after[REVIEW_TURNING_POINTS];
} gather;

static review rv;
static store_review_move rows[REVIEW_MAX_MOVES];
static gather ga;
static out chart, figures, turns;

/* The review's move k from the store's row k and the game's line. */
static int fill_move(void *ctx, int seq, int64_t created,
                     const bt_game *before, const bt_game *after,
                     const bt_action *a)
{
	gather *g = ctx;
	review_move *m;
	const store_review_move *row;
	(void)seq;
	(void)created;

	if (g->k >= g->nrows || g->k >= REVIEW_MAX_MOVES)
		return 1;
	m = &g->r->move[g->k];
	row = &g->rows[g->k];
	memset(m, 0, sizeof *m);
	m->action = *a;
	m->round = before->round;
	m->leisure_before = before->leisure;
	m->leisure_after = after->leisure;
	m->before = row->before;
	m->played = row->played;
	m->best.seat = a->seat;
	m->best.verb = (uint8_t)row->best_verb;
	m->best.card = (bt_card)row->best_card;
	m->best_sweep = row->best_sweep;
	m->best_is_played = row->best_is_played;
	m->options = row->options;
	g->k++;
	return 0;
}

/* Keeps the states around the turning points (a second walk). */
static int keep_turns(void *ctx, int seq, int64_t created,
                      const bt_game *before, const bt_game *after,
                      const bt_action *a)
{
	gather *g = ctx;
	(void)seq;
	(void)created;
	(void)a;

	for (int t = 0; t < g->r->nturning; t++)
		if (g->r->turning[t] == g->k) {
			g->before[t] = *before;
			g->after[t] = *after;
		}
	return ++g->k >= g->r->nmoves;
}

static int percent(double p)
{
	return (int)(p * 100.0 + 0.5);
}

/* One turning point in words: what happened, and what the chance did. */
static void turn_item(web *w, int t, int viewer)
{
	const review_move *m = &rv.move[rv.turning[t]];
	char what[DESCRIBE_MAX], best[128];

	describe_action(&ga.before[t], &ga.after[t], &m->action, &w->game,
	                viewer, what, sizeof what);
	size_t n = strlen(what);
	if (n > 0 && what[n - 1] == '.')
		what[n - 1] = '\0';
	out_rawf(&turns, "<li><strong>%d.</strong> Round %d, move %d: ", t + 1,
	         m->round, rv.turning[t] + 1);
	out_html(&turns, what);
	out_rawf(&turns, ". The crew's chance of winning went from %d%% to "
	         "%d%%.", percent(m->before), percent(m->after));
	if (!m->best_is_played) {
		words_action_name((bt_verb)m->best.verb, m->best.card, best,
		                  sizeof best);
		out_raws(&turns, " The bot would have chosen: ");
		out_html(&turns, best);
		out_rawf(&turns, " (%d%%, against %d%% for this move).",
		         percent(m->before), percent(m->played));
	}
	out_raws(&turns, "</li>\n");
}

/* Loads the review of w->game (over): 1 ready in rv, 0 not yet (not
 * every move is in), -1 error. */
static int load(web *w)
{
	const bt_game *end = &w->game.state;
	store_error err;
	int nrows;

	if (store_review_get(w->st, w->game.id, rows, REVIEW_MAX_MOVES, &nrows,
	                     &err) != STORE_OK) {
		web_log(w, __func__, "store_review_get: %s", err.why);
		return -1;
	}
	if (nrows == 0 || nrows != end->actions)
		return 0;
	memset(&rv, 0, sizeof rv);
	memset(&ga, 0, sizeof ga);
	ga.r = &rv;
	ga.rows = rows;
	ga.nrows = nrows;
	if (store_walk(w->st, &w->game, -1, fill_move, &ga, NULL, &err) !=
	    STORE_OK) {
		web_log(w, __func__, "store_walk: %s", err.why);
		return -1;
	}
	if (ga.k != nrows)
		return 0;
	rv.nmoves = ga.k;
	review_finish(&rv, end);
	ga.k = 0;
	if (store_walk(w->st, &w->game, -1, keep_turns, &ga, NULL, &err) !=
	    STORE_OK) {
		web_log(w, __func__, "store_walk: %s", err.why);
		return -1;
	}
	return 1;
}

/* The buffers, bounded by the page's bound, made once. */
static void buffers(void)
{
	static int made;

	if (!made) {
		out_init(&chart, WEB_PAGE_MAX);
		out_init(&figures, WEB_PAGE_MAX);
		out_init(&turns, WEB_PAGE_MAX);
		made = 1;
	}
	out_reset(&chart);
	out_reset(&figures);
	out_reset(&turns);
}

web_err table_review(web *w, const table_view *tv, vals *v)
{
	const char *names[BT_MAX_PLAYERS];
	char nb[BT_MAX_PLAYERS][16];
	int ready;

	if (w->game.state.status == BT_PLAYING || tv->at >= 0)
		return WEB_OK;
	if ((ready = load(w)) < 0)
		return WEB_INTERNAL;
	vals_show(v, K_review_pending, ready == 0);
	vals_show(v, K_has_review, ready == 1);
	if (ready == 0)
		return WEB_OK;
	for (int s = 1; s <= w->game.players && s <= BT_MAX_PLAYERS; s++)
		names[s - 1] = describe_seat(&w->game, s, nb[s - 1],
		                             sizeof nb[s - 1]);
	buffers();
	review_chart_svg(&chart, &rv, names, w->game.players);
	review_chart_table(&figures, &rv, names, w->game.players);
	for (int t = 0; t < rv.nturning; t++)
		turn_item(w, t, tv->seat);
	if (chart.failed || figures.failed || turns.failed)
		return WEB_INTERNAL;
	vals_set(v, K_review_chart, out_str(&chart));
	vals_set(v, K_review_table, out_str(&figures));
	vals_set(v, K_review_turns, out_str(&turns));
	return WEB_OK;
}
