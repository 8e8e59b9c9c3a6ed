/*
 * hints_job.c - a practice table's hints for one turn (hints_job.h).
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hints_job.h"
#include "review.h"
#include "review_job.h"

static store_rc stale(store_error *err, const char *why)
{
	err->rc = STORE_CONFLICT;
	snprintf(err->why, sizeof err->why, "%s", why);
	return STORE_CONFLICT;
}

/* Option o of a game of players as a hint row: its chance calibrated
 * as the review's (review_calibrated), counted over games drawn games. */
static void hint_of(const bot_option *o, int players, uint64_t games,
                    store_hint *h)
{
	memset(h, 0, sizeof *h);
	if (o->sweep)
		snprintf(h->action, sizeof h->action, "%d special %s", o->a.seat,
		         bt_card_get(o->a.card)->id);
	else if (bt_action_format(&o->a, h->action, sizeof h->action) < 0)
		h->action[0] = '\0';
	h->verb = o->a.verb;
	h->card = o->a.card;
	h->chance = review_calibrated(players, o->chance);
	h->games = games > INT_MAX ? INT_MAX : (int)games;
}

store_rc hints_job_do(store *st, bot *b, const bot_budget *budget,
                      const store_job *j, store_error *err)
{
	static store_game g;
	static store_hint rows[STORE_HINTS_MAX];
	store_rc rc = store_load(st, j->game, &g, err);
	bot_estimate *e;
	int n;

	if (rc == STORE_NOT_FOUND)
		return stale(err, "no such game");
	if (rc)
		return rc;
	if (g.seq != j->seq || g.state.status != BT_PLAYING ||
	    g.state.turn != j->seat || g.sweep_card != BT_NO_CARD)
		return stale(err, "the game moved on");
	if (!(e = malloc(sizeof *e))) {
		err->rc = STORE_ERROR;
		snprintf(err->why, sizeof err->why, "out of memory");
		return STORE_ERROR;
	}
	/* the turn's own seed: the same hints however often asked */
	if (bot_estimate_options(b, &g.state, j->seat, 0, budget,
	                         review_job_seed(j->game) ^ (uint64_t)j->seq,
	                         e) != 0) {
		free(e);
		err->rc = STORE_ERROR;
		snprintf(err->why, sizeof err->why, "the search could not "
		         "weigh the options");
		return STORE_ERROR;
	}
	n = e->n < STORE_HINTS_MAX ? e->n : STORE_HINTS_MAX;
	for (int i = 0; i < n; i++)
		hint_of(&e->option[i], g.state.players, e->games, &rows[i]);
	free(e);
	return store_hints_put(st, j->game, j->seq, rows, n, err);
}
