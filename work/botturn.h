/*
 * botturn.h - the worker's bot turns, off the web request path.
 *
 * A move that gives a bot seat the turn queues a job in its own
 * transaction (store_jobs.c).  Here each due job is claimed, the seat's
 * bot chooses from what that seat may know (bots/search.h: it is given
 * the seat's observation, never the game), and the move is appended as
 * the web appends a person's: at the job's sequence number, with the
 * same emails (compose_move), marked as a bot's.  So a worker killed at
 * any instant loses no job (a claim is a lease: the job is claimed again)
 * and never makes two moves for one turn (the second append is refused
 * as a conflict, and the job found stale).
 *
 * A game's last move queues its review: its moves weighed a few at a
 * time between the other jobs (review_job.h).
 *
 * One process at a time does the jobs of a database: it holds the lock
 * file DB-worker.lock while it runs (a killed one's lock goes with it).
 * Taking the lock, it makes every unfinished job due at once: a job
 * claimed by a worker that died needs no lease to run out.
 */
#ifndef BT_BOTTURN_H
#define BT_BOTTURN_H

#include <stdio.h>

#include "compose.h"
#include "search.h"
#include "store.h"

enum {
	BOTTURN_ROUND_MAX = 10000,  /* jobs one round does at most */
	BOTTURN_ROUND_SECONDS = 2   /* and for about this long at most */
};

typedef struct botturn {
	store *st;                  /* its own connection */
	const char *db;             /* its path, for the lock file */
	compose_ctx compose;        /* the emails a bot's move causes */
	bot_budget budget;          /* how long a bot thinks per move */
	int review_rollouts;        /* games per move of a review */
	int more;                   /* the last round left jobs due */
	FILE *log;                  /* one line per move or failure */
	bot *b;                     /* botturn_open's scratch */
	int lock_fd;                /* -1 until the lock is held */
} botturn;

/*
 * What seat of g hears at the table (the seats in shown show their hand:
 * store_shown_get): a bot seat, the other bot seats' hands and sweeps
 * and the hands shown; a stand-in, which plays with its absent player's
 * knowledge, the hands shown only (the player's table shows them too).
 */
bot_heard botturn_heard(const store_game *g, unsigned shown, int seat);

/* Allocates the bot's scratch; 0, or -1 with why (cap bytes). */
int botturn_open(botturn *t, char *why, size_t cap);

/* Frees what botturn_open made and lets the lock go. */
void botturn_close(botturn *t);

/*
 * Plays every due bot turn and weighs every due turn's hints, for about
 * BOTTURN_ROUND_SECONDS at most (then t->more is 1: call again soon),
 * unless another process holds the lock (then nothing: *moved 0).
 * *moved counts the moves made.  Reviews wait for botturn_reviews.
 * STORE_OK, or the store's failure (the job stays queued for a retry).
 */
store_rc botturn_round(botturn *t, int *moved, store_error *err);

/* The due parts of reviews, for about BOTTURN_ROUND_SECONDS at most
 * (t->more as botturn_round's): the slow work, after the emails. */
store_rc botturn_reviews(botturn *t, store_error *err);

#endif
