/*
 * mailer.h - the worker's mail (work/worker.h runs it): queueing the
 * reminders and digests that are due, and draining the outbox: every
 * due email sent in order, each one claimed (its attempt counted and its
 * retry set, committed) before it is sent and marked sent right after
 * sendmail said yes.
 *
 * Through sendmail, each email is carried by a courier (courier.h), a
 * process that outlives a killed worker to make the mark itself.  A
 * lock file beside the database (DB-mailer.lock) is held from the claim
 * until the courier is gone, so a new worker waits for a dead one's
 * courier to finish, and one email is in flight at a time.
 *
 * The guarantee: never lost, and a kill of the worker sends nothing
 * twice.  A failure or a crash before sendmail said yes leaves the
 * email queued for its retry.  What still sends it twice: the machine
 * crashing, or the courier itself being killed, after sendmail took it
 * and before the mark; it goes again with the same Message-ID.
 *
 * With mail_dir on one box (SQLite), the worker writes the file itself:
 * a resend replaces it.  On a database server, hosts each write to a
 * folder of their own, where a resend would be a second copy: there a
 * file is written by a courier too.
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
	FILE *log;                  /* one line per failure; NULL: stderr */
	int lock_fd;                /* mailer_open's lock file, or -1 */
	int folder_by_courier;      /* mailer_open: a database server */
} mailer;

/* What a round did. */
typedef struct mailer_counts {
	int reminders, digests;     /* queued */
	int sent, failed;
} mailer_counts;

/*
 * Opens m->db's lock file (DB-mailer.lock, made if missing) into
 * m->lock_fd.  0, or -1 with why (cap bytes) saying what failed.  Call
 * before mailer_send_due; mailer_close() closes it.
 */
int mailer_open(mailer *m, char *why, size_t cap);

/* Closes what mailer_open opened (nothing if it did not). */
void mailer_close(mailer *m);

/*
 * Queues the reminders and digests due at store_now(), adding to *c.
 * Both passes run; STORE_OK or the first one's failure (err).
 */
store_rc mailer_queue_due(mailer *m, mailer_counts *c, store_error *err);

/*
 * Sends every email due at store_now() (at most MAILER_ROUND_MAX),
 * stopping early after the email in hand if mailer_stop() was called.
 * Adds to *c.  A failed send is not an error (the email stays queued
 * with why as its last_error).  Returns STORE_OK or the first store
 * error (a failed claim or mark ends it).  The lock file is held (and
 * waited for) from each claim until its email is settled.
 */
store_rc mailer_send_due(mailer *m, mailer_counts *c, store_error *err);

/* 1 if an email is due at store_now() (the outbox is worth a look). */
int mailer_due(mailer *m);

/* Says what was done in one line on m->log (nothing if nothing). */
void mailer_report(const mailer *m, const mailer_counts *c);

/* Asks the email loop (and the worker) to stop after the email in hand;
 * async-signal-safe. */
void mailer_stop(void);

/* 1 once mailer_stop() was called. */
int mailer_stopping(void);

#endif
