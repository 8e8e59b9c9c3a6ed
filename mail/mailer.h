/*
 * mailer.h - drains the outbox: a round queues the reminders and
 * digests that are due, then sends every due email in order, each one
 * claimed (its attempt counted and its retry set, committed) before it
 * is sent and marked sent right after sendmail said yes.
 *
 * Through sendmail, each email is carried by a courier (courier.h), a
 * process that outlives a killed mailer to make the mark itself.  A
 * lock file beside the database (DB-mailer.lock) is held from the claim
 * until the courier is gone, so a new mailer waits for a dead one's
 * courier to finish, and one email is in flight at a time.
 *
 * The guarantee: never lost, and a kill of the mailer sends nothing
 * twice.  A failure or a crash before sendmail said yes leaves the
 * email queued for its retry.  What still sends it twice: the machine
 * crashing, or the courier itself being killed, after sendmail took it
 * and before the mark; it goes again with the same Message-ID.  With
 * mail_dir a resend replaces its file.
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
	const char *db;             /* its path, for a courier's mark */
	const char *self;           /* this program, which a courier runs to
	                             * mark an email (courier.h); NULL:
	                             * it cannot, and a kill may resend */
	compose_ctx compose;        /* for reminders, digests and the
	                             * unsubscribe links */
	const char *mail_from;      /* a plain address (msg_addr_ok) */
	send_cfg send;
	int poll;                   /* seconds between rounds (daemon) */
	FILE *log;                  /* one line per failure; NULL: stderr */
	int lock_fd;                /* mailer_open's lock file, or -1 */
	/* Other work done at the start of every round, before the emails
	 * (the worker's bot turns, whose moves queue emails), or NULL; it
	 * reports its own failures, and returns 1 if it left work due now
	 * (the daemon then does not wait before the next round). */
	int (*also)(void *ctx);
	/* 1 if the "also" work has some due now (checked each second of the
	 * daemon's wait), or NULL */
	int (*also_due)(void *ctx);
	/* Slow work done at the end of every round, after the emails (the
	 * worker's reviews), or NULL; returns as also does. */
	int (*after)(void *ctx);
	void *also_ctx;
	int also_more;              /* what it returned last */
} mailer;

/* What a round did. */
typedef struct mailer_counts {
	int reminders, digests;     /* queued */
	int sent, failed;
} mailer_counts;

/*
 * Opens m->db's lock file (DB-mailer.lock, made if missing) into
 * m->lock_fd.  0, or -1 with why (cap bytes) saying what failed.  Call
 * before mailer_round or mailer_daemon; mailer_close() closes it.
 */
int mailer_open(mailer *m, char *why, size_t cap);

/* Closes what mailer_open opened (nothing if it did not). */
void mailer_close(mailer *m);

/*
 * One round at store_now(): reminders, digests, then every due email
 * (at most MAILER_ROUND_MAX), stopping early after the email in hand if
 * mailer_stop() was called.  Adds to *c.  A failed send is not an error
 * (the email stays queued with why as its last_error).  Returns STORE_OK
 * or the first store error (the round goes on past a failed reminder or
 * digest pass, not past a failed claim or mark).  The lock file is
 * held (and waited for) from each claim until its email is settled.
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
