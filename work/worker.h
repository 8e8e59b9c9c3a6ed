/*
 * worker.h - the worker: a server's background program (`buffertime
 * worker`).  It plays the bot seats' turns and weighs practice tables'
 * hints (botturn.h), queues the reminders and digests the clock makes
 * due, sends the emails (mailer.h) and reviews finished games.
 *
 * One table in worker.c has a row per kind of job: its name, its round
 * function, and the function that says it has some due now.  A round
 * runs every row in the table's order: the bot turns before the emails
 * (a bot's move queues emails, which then go in the same round), the
 * reviews after them (slow work that must not hold up a move's email).
 * Each round function does a bounded amount of work and says whether it
 * left some due now; a kind that fails is logged with its name, and the
 * others still run.
 */
#ifndef BT_WORKER_H
#define BT_WORKER_H

#include <stdio.h>

#include "botturn.h"
#include "mailer.h"

enum { WORKER_ONCE_ROUNDS = 100000 };   /* rounds of worker_once at most */

typedef struct worker {
	botturn bots;               /* bot turns, hints and reviews */
	mailer mail;                /* reminders, digests and emails */
	int poll;                   /* seconds between rounds at most */
	FILE *log;                  /* one line per failure; NULL: stderr */
	mailer_counts counts;       /* what the rounds did, added to */
	int moved;                  /* bot moves the rounds made */
	void (*after_round)(void *); /* worker_daemon's, after each round
	                             * (the caller's watch on what it
	                             * started beside it), or NULL */
	void *after_ctx;
} worker;

/*
 * Makes ready what the kinds need: the mailer's lock file and the bot's
 * scratch.  The kinds' logs default to w->log.  0, or -1 with why (cap
 * bytes); worker_close() undoes it either way.
 */
int worker_open(worker *w, char *why, size_t cap);

void worker_close(worker *w);

/*
 * One round: every kind of the table in order, each after the last
 * even if it failed.  Adds to w->counts and w->moved.  Returns how many
 * kinds failed; *more is 1 if none did and a kind left work due now
 * (its bound reached, or work for a kind before it), so the next round
 * should start at once.
 */
int worker_round(worker *w, int *more);

/*
 * Rounds until nothing is due now, or a kind failed (`--once`), then
 * says on the log what they did.  The failures of the kinds, plus 1 if
 * an email failed: 0 if all went well.
 */
int worker_once(worker *w);

/*
 * Rounds until SIGTERM or SIGINT (worker_signals): the email in hand is
 * finished, then it returns 0.  Between rounds it waits w->poll seconds,
 * or less: none if the round left work due, within a second once a
 * kind has some due, and on a server at once when any host queues work
 * due now (store_wake_fd).
 */
int worker_daemon(worker *w);

/* Catches SIGTERM and SIGINT so that they call mailer_stop(), and
 * ignores SIGPIPE (send.h).  Call before worker_once or _daemon. */
void worker_signals(void);

#endif
