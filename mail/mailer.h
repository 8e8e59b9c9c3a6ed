/*
 * mailer.h - drains the outbox: a round queues the reminders and
 * digests that are due, then sends every due email in order, each one
 * claimed (its attempt counted and its retry set, committed) before it
 * is sent and marked sent right after sendmail said yes.
 *
 * The guarantee: at least once, never lost.  A failure or a crash
 * before the mark leaves the email queued for its retry; a crash after
 * sendmail took it but before the mark (a window of one SQLite commit)
 * sends it a second time, with the same Message-ID.
 */
#ifndef BT_MAILER_H
#define BT_MAILER_H

#include <stdio.h>

#include "compose.h"
#include "send.h"
#include "store.h"

enum { MAILER_ROUND_MAX = 100000 };   /* emails one round sends at most */

typedef struct mailer {
	store *st;                  /* its own connection */
	compose_ctx compose;        /* for reminders, digests and the
	                             * unsubscribe links */
	const char *mail_from;      /* a plain address (msg_addr_ok) */
	send_cfg send;
	int poll;                   /* seconds between rounds (daemon) */
	FILE *log;                  /* one line per failure; NULL: stderr */
} mailer;

/* What a round did. */
typedef struct mailer_counts {
	int reminders, digests;     /* queued */
	int sent, failed;
} mailer_counts;

/*
 * One round at store_now(): reminders, digests, then every due email
 * (at most MAILER_ROUND_MAX), stopping early after the email in hand if
 * mailer_stop() was called.  Adds to *c.  A failed send is not an error
 * (the email stays queued with why as its last_error).  Returns STORE_OK
 * or the first store error (the round goes on past a failed reminder or
 * digest pass, not past a failed claim or mark).
 */
store_rc mailer_round(mailer *m, mailer_counts *c, store_error *err);

/*
 * Rounds every m->poll seconds until SIGTERM or SIGINT (handlers are
 * installed here): the email in hand is finished, then it returns 0.
 * Store errors are logged and the next round tries again.
 */
int mailer_daemon(mailer *m);

/* Says what a round did in one line on m->log (nothing if nothing). */
void mailer_report(const mailer *m, const mailer_counts *c);

/* Catches SIGTERM and SIGINT so that they call mailer_stop(), and
 * ignores SIGPIPE (send.h).  Call before mailer_round or _daemon. */
void mailer_signals(void);

/* Asks the running round (and daemon) to stop after the email in hand;
 * async-signal-safe. */
void mailer_stop(void);

/* 1 once mailer_stop() was called. */
int mailer_stopping(void);

#endif
