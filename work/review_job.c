/*
 * review_job.c - weighing a finished game's moves, a slice at a time
 * (review_job.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "review.h"
#include "review_job.h"

/* Where the walk over the game's lines is. */
typedef struct slice {
	store *st;
	bot *b;
	const char *game;
	int rollouts;
	uint64_t seed;
	int have;            /* moves already in */
	int k;               /* action lines walked */
	int weighed;         /* moves weighed by this slice */
	double deadline;     /* seconds, CLOCK_MONOTONIC */
	int stopped;
	store_review_move *rows;   /* the slice's figures, kept after the
	                            * walk: see keep_rows */
	store_rc rc;
	store_error *err;
} slice;

static double now_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

uint64_t review_job_seed(const char *game)
{
	uint64_t h = 1469598103934665603ULL;

	for (const char *p = game; *p; p++)
		h = (h ^ (unsigned char)*p) * 1099511628211ULL;
	return h;
}

static int weigh_line(void *ctx, int seq, int64_t created,
                      const bt_game *before, const bt_game *after,
                      const bt_action *a)
{
	slice *sl = ctx;
	review_move m;
	(void)seq;
	(void)created;
	(void)after;

	if (sl->k < sl->have) {
		sl->k++;
		return 0;
	}
	if (sl->weighed > 0 && now_seconds() >= sl->deadline) {
		sl->stopped = 1;
		return 1;
	}
	if (review_weigh_move(sl->b, before, a, sl->rollouts, sl->seed, sl->k,
	                      &m)) {
		sl->rc = STORE_ERROR;
		snprintf(sl->err->why, sizeof sl->err->why, "the search could "
		         "not weigh move %d", sl->k + 1);
		sl->err->rc = STORE_ERROR;
		return 1;
	}
	if (sl->weighed >= REVIEW_MAX_MOVES) {
		sl->stopped = 1;
		return 1;
	}
	sl->rows[sl->weighed] = (store_review_move){
		.move = sl->k, .before = m.before, .played = m.played,
		.best_verb = m.best.verb, .best_card = m.best.card,
		.best_sweep = m.best_sweep, .best_is_played = m.best_is_played,
		.options = m.options,
	};
	sl->k++;
	sl->weighed++;
	return 0;
}

/* Keeps the slice's figures once the walk is over: a write while the
 * walk's read of the game's lines is open fails at once, without
 * waiting, whenever anyone else wrote since the walk began (its
 * snapshot is stale), and a busy mailer kept the review from ever
 * finishing. */
static store_rc keep_rows(const slice *sl, store_error *err)
{
	for (int i = 0; i < sl->weighed; i++) {
		store_rc rc = store_review_put(sl->st, sl->game, &sl->rows[i],
		                               err);
		if (rc)
			return rc;
	}
	return STORE_OK;
}

/* How many moves of game id are in already. */
static store_rc moves_in(store *st, const char *id, int *n, store_error *err)
{
	store_review_move *rows = malloc(REVIEW_MAX_MOVES * sizeof *rows);
	store_rc rc;

	if (!rows) {
		err->rc = STORE_ERROR;
		snprintf(err->why, sizeof err->why, "out of memory");
		return STORE_ERROR;
	}
	rc = store_review_get(st, id, rows, REVIEW_MAX_MOVES, n, err);
	free(rows);
	return rc;
}

store_rc review_job_step(store *st, bot *b, int rollouts, const store_job *j,
                         int *finished, store_error *err)
{
	static store_game g;
	slice sl = { .st = st, .b = b, .game = j->game, .rollouts = rollouts,
	             .seed = review_job_seed(j->game), .err = err };
	store_rc rc = store_load(st, j->game, &g, err);

	*finished = 0;
	if (rc == STORE_NOT_FOUND || (rc == STORE_OK &&
	                              g.state.status == BT_PLAYING)) {
		err->rc = STORE_CONFLICT;
		snprintf(err->why, sizeof err->why, "the game is not over");
		return STORE_CONFLICT;
	}
	if (rc || (rc = moves_in(st, j->game, &sl.have, err)))
		return rc;
	sl.rows = malloc(REVIEW_MAX_MOVES * sizeof *sl.rows);
	if (!sl.rows) {
		err->rc = STORE_ERROR;
		snprintf(err->why, sizeof err->why, "out of memory");
		return STORE_ERROR;
	}
	sl.deadline = now_seconds() + REVIEW_JOB_SLICE_MS / 1000.0;
	rc = store_walk(st, &g, -1, weigh_line, &sl, NULL, err);
	if (rc == STORE_OK)
		rc = sl.rc;
	if (rc == STORE_OK)
		rc = keep_rows(&sl, err);
	free(sl.rows);
	if (rc)
		return rc;
	*finished = !sl.stopped;
	/* the game-over emails waited for it (store_review_release) */
	return *finished ? store_review_release(st, j->game, NULL, err)
	                 : STORE_OK;
}
