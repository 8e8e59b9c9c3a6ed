/*
 * review.c - the crew's chance before and after every move of a recorded
 * game, and its turning points (review.h says what each figure means).
 *
 * The record is played again from its header; before each action the
 * mover's options are weighed (bot_estimate_options) from the mover's
 * observation alone, each move with a seed of its own drawn from the
 * review's, so a move's figures do not depend on the moves before it.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "review.h"

static int review_fail(bt_error *err, const char *why, int item)
{
	err->code = BT_ERR_SETUP;
	err->rule = 0;
	err->deck = BT_DECK__MAX;
	snprintf(err->why, sizeof err->why, "%s (line %d after the header)",
	         why, item + 1);
	return -1;
}

int review_set_up(const bt_record *rec, bt_game *g, bt_error *err)
{
	if (bt_game_init(g, rec->players, rec->first, rec->key, err))
		return -1;
	for (int i = 0; i < rec->header_stacks; i++) {
		const bt_stack_line *s = &rec->stacks[i];
		if (bt_game_stack(g, (bt_deck)s->deck, s->c, s->n, err))
			return -1;
	}
	return bt_game_start(g, err);
}

/* splitmix64: a seed per move from the review's. */
static uint64_t move_seed(uint64_t seed, int k)
{
	uint64_t z = seed + 0x9e3779b97f4a7c15ULL * (uint64_t)(unsigned)(k + 1);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/*
 * The search's chance is that of the greedy crew playing on, which plays
 * differently from a crew of search bots.  So the chance is mapped
 * through logit(p') = a + b logit(p), one pair for crews of 2 and 3 and
 * one for crews of 4 to 6, fitted by logistic regression on the 150,038
 * positions of 3,000 games of search bots (`bench/calibration --raw
 * FILE` with seeds 51, 61 and 71, then `bench/calibration_fit FILE`) and
 * checked on 2,000 others (seeds 81 and 91): no bin of 10 points was
 * more than 3.7 points from its share won.  Fitted on four sets of 1,000
 * games and weighed on the fifth, the pair per crew size predicted
 * better (log-loss 0.4297) than one pair for all (0.4306) or a pair per
 * player count (0.4306: some 200 games of each count in 1,000 move its
 * pair more than the counts differ).  README, "How good the estimates
 * are".
 */
static const struct {
	double a, b;
} calibration[2] = {
	[0] = { 0.0646, 1.0802 },   /* 2-3 players */
	[1] = { 0.3406, 1.1497 },   /* 4-6 players */
};

double review_calibrated(int players, double p)
{
	const double eps = 0.005;   /* all games lost or won: not certain */
	int large = players >= REVIEW_LARGE_CREW;
	double q, z;

	if (players < BT_MIN_PLAYERS || players > BT_MAX_PLAYERS)
		return p;
	q = p < eps ? eps : p > 1 - eps ? 1 - eps : p;
	z = calibration[large].a + calibration[large].b * log(q / (1 - q));
	return 1.0 / (1.0 + exp(-z));
}

int review_weigh_move(bot *b, const bt_game *g, const bt_action *a,
                      int rollouts, uint64_t seed, int k, review_move *m)
{
	bot_budget budget = { rollouts, 0, 0 };
	bot_estimate *e = malloc(sizeof *e);
	int played = -1;

	memset(m, 0, sizeof *m);
	m->action = *a;
	m->round = g->round;
	m->leisure_before = g->leisure;
	if (e && bot_estimate_options(b, g, a->seat, 0, &budget,
	                              move_seed(seed, k), e) == 0)
		played = bot_option_of(e, a);
	if (played >= 0) {
		m->search_before = e->option[e->best].chance;
		m->before = review_calibrated(g->players, m->search_before);
		m->played = review_calibrated(g->players,
		                              e->option[played].chance);
		m->best = e->option[e->best].a;
		m->best_sweep = e->option[e->best].sweep;
		m->best_is_played = played == e->best;
		m->options = e->n;
	}
	free(e);
	return played >= 0 ? 0 : -1;
}

void review_best_text(const review_move *m, char *buf, size_t cap)
{
	if (m->best_sweep)
		snprintf(buf, cap, "%d special %s", m->best.seat,
		         bt_card_get(m->best.card)->id);
	else if (bt_action_format(&m->best, buf, cap) < 0 && cap > 0)
		buf[0] = '\0';
}

static void find_turning_points(review *r)
{
	r->nturning = 0;
	for (int k = 0; k < r->nmoves; k++) {
		double swing = fabs(r->move[k].after - r->move[k].before);
		int at = r->nturning;
		while (at > 0 && swing > fabs(r->move[r->turning[at - 1]].after -
		                              r->move[r->turning[at - 1]].before))
			at--;
		if (at >= REVIEW_TURNING_POINTS)
			continue;
		if (r->nturning < REVIEW_TURNING_POINTS)
			r->nturning++;
		memmove(&r->turning[at + 1], &r->turning[at],
		        (size_t)(r->nturning - 1 - at) * sizeof r->turning[0]);
		r->turning[at] = k;
	}
}

void review_finish(review *r, const bt_game *end)
{
	for (int k = 0; k + 1 < r->nmoves; k++)
		r->move[k].after = r->move[k + 1].before;
	if (r->nmoves > 0)
		r->move[r->nmoves - 1].after =
			end->status == BT_WON ? 1.0
			: end->status == BT_LOST ? 0.0
			: r->move[r->nmoves - 1].played;
	r->won = end->status == BT_WON ? 1 : end->status == BT_LOST ? 0 : -1;
	r->leisure = end->leisure;
	r->goal = bt_goal(end);
	r->players = end->players;
	find_turning_points(r);
}

int review_record(bot *b, const bt_record *rec, int rollouts, uint64_t seed,
                  review *out, bt_error *err)
{
	bt_game g;

	memset(out, 0, sizeof *out);
	out->players = rec->players;
	if (rollouts <= 0 || rollouts > BOT_MAX_ROLLOUTS)
		return review_fail(err, "the budget is out of range", -1);
	if (review_set_up(rec, &g, err))
		return -1;
	for (int i = 0; i < rec->nitems; i++) {
		const bt_item *it = &rec->items[i];
		if (it->type == BT_ITEM_STACK) {
			const bt_stack_line *s = &rec->stacks[it->stack];
			if (bt_game_stack(&g, (bt_deck)s->deck, s->c, s->n, err))
				return -1;
			continue;
		}
		review_move *m = &out->move[out->nmoves];
		if (review_weigh_move(b, &g, &it->action, rollouts, seed,
		                      out->nmoves, m))
			return review_fail(err, "the search could not weigh "
			                   "this move", i);
		if (bt_apply(&g, &it->action, err))
			return -1;
		m->leisure_after = g.leisure;
		out->nmoves++;
	}
	review_finish(out, &g);
	return 0;
}
