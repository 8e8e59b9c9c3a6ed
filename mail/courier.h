/*
 * courier.h - one email through sendmail, carried by a process of its
 * own so that killing the mailer neither loses nor duplicates it.
 *
 * The mailer forks a courier per email.  The courier leaves the
 * mailer's session, ignores SIGTERM and SIGINT, runs sendmail
 * (send_message: its timeout and process group), tells the mailer how
 * it went in one write, and waits a few seconds for one byte: the
 * mailer's word that its mark (sent, or failed) is committed.  Without
 * that word (the mailer died before or after its commit) the courier
 * makes the mark itself: it runs `buffertime worker --courier-mark` in
 * its own place, a fresh process, because SQLite's state that fork
 * copied (open files, locks, the shared-memory index) is not safe to
 * open the database with, even on a new connection.  The mailer's lock
 * file, inherited, is held until that mark is in, so a new mailer
 * cannot claim the email meanwhile.
 *
 * What still sends an email twice: the machine crashing, or the courier
 * itself being killed, after sendmail took the email and before the
 * mark.  It goes again with the same Message-ID.
 */
#ifndef BT_COURIER_H
#define BT_COURIER_H

#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "send.h"
#include "store.h"

/* The first argument of `buffertime worker` (or of its old name
 * `buffertime mailer`) that runs courier_mark_main. */
#define COURIER_MARK_FLAG "--courier-mark"

/* What a courier tells the mailer: one write of less than PIPE_BUF
 * bytes, which a pipe delivers whole or not at all. */
typedef struct courier_outcome {
	int rc;                   /* a send_rc */
	char why[SEND_WHY_MAX];
} courier_outcome;

/* What a courier needs of its mailer. */
typedef struct courier_job {
	const send_cfg *send;
	const char *self;         /* this program (/proc/self/exe), run to
	                           * mark; NULL: it cannot, a kill may resend */
	const char *db;           /* the database's path, for that mark */
	int lock_fd;              /* the mailer's lock file, or -1 */
	FILE *log;                /* where a courier's own mark is told */
} courier_job;

/* The mailer's ends of one courier. */
typedef struct courier {
	pid_t pid;
	int hear_fd;              /* its outcome comes here */
	int ack_fd;               /* a byte here: the mark is committed */
} courier;

/* Starts a courier for msg (len bytes) of the claimed email o into *k:
 * 0, or -1 with errno. */
int courier_start(const courier_job *j, const store_outmail *o,
                  const char *msg, size_t len, courier *k);

/* The longest, in seconds, from a courier's start to its mark: the
 * send's timeout, the wait for the mailer's word, and the mark's own
 * process and tries on a busy database (each the store's busy wait, 5 s
 * by default), with room to spare.  A claim holds its email this long
 * (store_set_send_hold). */
int courier_longest(const send_cfg *send);

/* Reads the courier's outcome into *out: 0, or -1 if it ended without
 * one (killed: whether sendmail took the email is not known). */
int courier_hear(const courier *k, courier_outcome *out);

/* Tells the courier that the mark is committed (if marked; else closing
 * the pipe sends it to make the mark itself), then reaps it.  Its wait
 * status, or -1. */
int courier_end(courier *k, int marked);

/* Marks email id sent on st, trying again while the database is busy.
 * STORE_NOT_FOUND: it is marked already (by the courier or its mailer,
 * whichever came second). */
store_rc courier_mark_sent(store *st, int64_t id, store_error *err);

/*
 * `buffertime worker --courier-mark DB ID sent|failed WHY` (argv[0] is
 * the flag): what a courier runs, as a fresh process, to mark email ID
 * of database DB when its mailer did not confirm the mark.  "sent" is
 * idempotent; "failed" keeps WHY as its last error.  One line on log;
 * returns the exit status: 0 once the mark is in, 1 if the store
 * failed, 2 for bad arguments.
 */
int courier_mark_main(int argc, char **argv, FILE *log);

#endif
