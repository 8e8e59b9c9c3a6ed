/*
 * review_job.h - the worker's part of the post-game review: the game's
 * moves weighed a few at a time (bots/review.h), each move's figures
 * kept as soon as they are known (store_review_put), so that bot moves
 * and emails are not held up behind a review and a worker killed at any
 * instant loses at most the move it was weighing.
 */
#ifndef BT_REVIEW_JOB_H
#define BT_REVIEW_JOB_H

#include "search.h"
#include "store.h"

enum {
	REVIEW_JOB_SLICE_MS = 500    /* weighing per step, after one move */
};

/* A seed of the game's own: its review is the same whoever computes it
 * and however often. */
uint64_t review_job_seed(const char *game);

/*
 * Weighs the next moves of review job j's game with rollouts games each
 * until REVIEW_JOB_SLICE_MS have passed (one move at least), with b's
 * scratch.  STORE_OK with *finished 1 once every move is in (and then
 * the game-over emails that waited for it are due: store_review_release);
 * STORE_CONFLICT if the game is gone or not over (nothing to review);
 * else the store's failure (the job stays to do).
 */
store_rc review_job_step(store *st, bot *b, int rollouts, const store_job *j,
                         int *finished, store_error *err);

#endif
