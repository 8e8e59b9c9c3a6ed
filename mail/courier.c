/*
 * courier.c - one email through sendmail, carried by a process of its
 * own that outlives a killed mailer (courier.h), and the "sent" mark
 * both the mailer and a courier make.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "courier.h"

enum {
	DB_PATH_BYTES = 4096 + 32,
	MARK_TRIES = 5,      /* a "sent" mark that meets a busy database is
	                      * tried again: giving up means a resend */
	ACK_WAIT_MS = 5000   /* how long a courier waits for the mailer to
	                      * say its mark is committed (one commit, or a
	                      * busy database's wait) before making it */
};

_Static_assert(sizeof(courier_outcome) <= PIPE_BUF, "an outcome is one write");

/* Marks email id sent on st.  A crash between sendmail's exit and this
 * mark sends the email twice, so nothing else happens in between; a
 * busy database (the store's handler waits in short naps for a move's
 * transaction) is tried again rather than given up.  STORE_NOT_FOUND:
 * it is marked already (by the other of a courier and its mailer). */
store_rc courier_mark_sent(store *st, int64_t id, store_error *err)
{
	store_rc rc = STORE_BUSY;

	for (int i = 0; i < MARK_TRIES && rc == STORE_BUSY; i++)
		rc = store_outbox_sent(st, id, store_now(), err);
	return rc;
}

int courier_longest(const send_cfg *send)
{
	enum { MARK_TRY_SECONDS = 10, START_SECONDS = 10 };

	return send->timeout + ACK_WAIT_MS / 1000 + START_SECONDS +
	       MARK_TRIES * MARK_TRY_SECONDS;
}

/* ---- the courier's side ------------------------------------------------ */

static int64_t mono_ms(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_MONOTONIC, &ts) != 0)
		return 0;
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Out of the mailer's session and process group, so that a signal to
 * them (a terminal's ^C, a kill of the group) passes the courier by;
 * deaf to SIGTERM and SIGINT, which would cut the send from its mark:
 * it ends by itself, within mail_timeout and ACK_WAIT_MS.  No
 * PR_SET_PDEATHSIG: outliving a killed mailer is what it is for.  Its
 * sendmail dies with it, not with the mailer (send.c). */
static void courier_detach(void)
{
	if (setsid() < 0)    /* only for a group leader: never after fork */
		(void)setpgid(0, 0);
	signal(SIGTERM, SIG_IGN);
	signal(SIGINT, SIG_IGN);
	signal(SIGPIPE, SIG_IGN);   /* a dead mailer's pipe: EPIPE */
}

/* Writes the outcome to the mailer: 0, or -1 if it is gone. */
static int courier_tell(int fd, const courier_outcome *out)
{
	ssize_t w;

	do
		w = write(fd, out, sizeof *out);
	while (w < 0 && errno == EINTR);
	return w == (ssize_t)sizeof *out ? 0 : -1;
}

/* 1 if the mailer's byte comes within ACK_WAIT_MS; 0 at its end of file
 * (it died, or did not commit), on an error or when the time is up. */
static int courier_acked(int fd)
{
	int64_t deadline = mono_ms() + ACK_WAIT_MS;
	char b;

	for (;;) {
		int64_t left = deadline - mono_ms();
		struct pollfd p = { fd, POLLIN, 0 };
		if (left <= 0)
			return 0;
		int k = poll(&p, 1, (int)left);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return 0;
		ssize_t n = read(fd, &b, 1);
		if (n < 0 && errno == EINTR)
			continue;
		return n == 1;
	}
}

/* Makes the mark the mailer did not confirm: runs `buffertime worker
 * --courier-mark` (courier_mark_main; `mailer`, the old name, runs it
 * too, for the couriers of a worker started before the rename) in place of the courier, a fresh
 * process.  Not here: SQLite's state that fork copied from the mailer
 * (its open files, locks and shared-memory index, by inode) is not
 * safe to open the database with, even on a new connection; marks so
 * made were lost once the mailer died and another process closed the
 * database.  The lock file stays open across the exec: the mark is in
 * before a new mailer can claim.  Never returns. */
_Noreturn static void courier_mark(const courier_job *j,
                                   const store_outmail *o,
                                   const courier_outcome *out)
{
	static char db[DB_PATH_BYTES], why[SEND_WHY_MAX];
	char id[24], prog[] = "buffertime", cmd[] = "worker",
	     flag[] = COURIER_MARK_FLAG, state[8];
	char *argv[] = { prog, cmd, flag, db, id, state, why, NULL };

	snprintf(db, sizeof db, "%s", j->db != NULL ? j->db : "");
	snprintf(id, sizeof id, "%lld", (long long)o->id);
	snprintf(state, sizeof state, "%s", out->rc == SEND_OK ? "sent"
	                                                       : "failed");
	snprintf(why, sizeof why, "%s", out->why);
	errno = ENOENT;
	if (j->self != NULL && j->db != NULL &&
	    (j->lock_fd < 0 || fcntl(j->lock_fd, F_SETFD, 0) == 0))
		execv(j->self, argv);
	fprintf(j->log, "buffertime worker: email %lld: its courier "
	        "cannot run %s to mark it %s: %s\n", (long long)o->id,
	        j->self != NULL ? j->self : "(none)", state, strerror(errno));
	fflush(j->log);
	_exit(1);
}

/* The courier's life: sends msg (len bytes) of the claimed email o,
 * tells the mailer how it went on tell_fd, and makes the mark itself
 * unless the mailer acknowledges its own on ack_fd.  Never returns. */
_Noreturn static void courier_run(const courier_job *j,
                                  const store_outmail *o, const char *msg,
                                  size_t len, int tell_fd, int ack_fd)
{
	courier_outcome out;

	courier_detach();
	memset(&out, 0, sizeof out);
	out.rc = (int)send_message(j->send, o->id, o->created, msg, len,
	                           out.why, sizeof out.why);
	if (courier_tell(tell_fd, &out) == 0 && courier_acked(ack_fd))
		_exit(0);
	courier_mark(j, o, &out);
}

/* A fresh process (not a fork of the mailer): its own connection is
 * safe, and a lock file inherited from the courier is held until it
 * exits. */
int courier_mark_main(int argc, char **argv, FILE *log)
{
	store *s = NULL;
	store_error e;
	char *end = NULL;
	long long id = argc == 5 && argv[2][0] >= '1' && argv[2][0] <= '9'
	               ? strtoll(argv[2], &end, 10) : 0;
	int sent = argc == 5 && strcmp(argv[3], "sent") == 0;

	if (id < 1 || id == LLONG_MAX || end == NULL || *end != '\0' ||
	    (!sent && strcmp(argv[3], "failed") != 0)) {
		fprintf(log, "usage: buffertime worker %s DB ID sent|failed "
		        "WHY\n", COURIER_MARK_FLAG);
		return 2;
	}
	store_rc rc = store_open(argv[1], &s, &e);
	if (rc == STORE_OK)
		rc = sent ? courier_mark_sent(s, id, &e)
		          : store_outbox_failed(s, id, argv[4], &e);
	if (rc == STORE_OK)
		fprintf(log, "buffertime worker: email %lld: %s by its courier "
		        "(no word from the mailer)%s%s\n", id, sent ? "marked "
		        "sent" : "failure noted", sent ? "" : ": ", argv[4]);
	else if (rc != STORE_NOT_FOUND)
		fprintf(log, "buffertime worker: email %lld: its courier could "
		        "not mark it: %s: %s\n", id, store_rc_name(e.rc), e.why);
	fflush(log);
	store_close(s);
	return rc == STORE_OK || rc == STORE_NOT_FOUND ? 0 : 1;
}

/* ---- the mailer's side ------------------------------------------------- */

/* A pipe whose ends are not inherited across exec; 0 or -1. */
static int cloexec_pipe(int fd[2])
{
	if (pipe(fd) != 0)
		return -1;
	if (fcntl(fd[0], F_SETFD, FD_CLOEXEC) != 0 ||
	    fcntl(fd[1], F_SETFD, FD_CLOEXEC) != 0) {
		int saved = errno;
		close(fd[0]);
		close(fd[1]);
		errno = saved;
		return -1;
	}
	return 0;
}

/* Starts a courier for msg (len bytes) of the claimed email o into *k:
 * 0, or -1 with errno. */
int courier_start(const courier_job *j, const store_outmail *o,
                         const char *msg, size_t len, courier *k)
{
	int hear[2], ack[2];

	if (cloexec_pipe(hear) != 0)
		return -1;
	if (cloexec_pipe(ack) != 0) {
		int saved = errno;
		close(hear[0]);
		close(hear[1]);
		errno = saved;
		return -1;
	}
	fflush(NULL);   /* nothing buffered is written twice */
	pid_t pid = fork();
	if (pid == 0) {
		/* Without the mailer's ends, its death is an end of file. */
		close(hear[0]);
		close(ack[1]);
		courier_run(j, o, msg, len, hear[1], ack[0]);
	}
	int saved = errno;
	close(hear[1]);
	close(ack[0]);
	if (pid < 0) {
		close(hear[0]);
		close(ack[1]);
		errno = saved;
		return -1;
	}
	*k = (courier){ pid, hear[0], ack[1] };
	return 0;
}

/* Reads the courier's outcome into *out: 0, or -1 if it ended without
 * one (killed: whether sendmail took the email is not known). */
int courier_hear(const courier *k, courier_outcome *out)
{
	size_t got = 0;

	while (got < sizeof *out) {
		ssize_t n = read(k->hear_fd, (char *)out + got,
		                 sizeof *out - got);
		if (n < 0 && errno == EINTR)
			continue;   /* a stop: the email in hand is finished */
		if (n <= 0)
			return -1;
		got += (size_t)n;
	}
	out->why[sizeof out->why - 1] = '\0';
	return out->rc >= SEND_OK && out->rc <= SEND_ERROR ? 0 : -1;
}

/* Tells the courier that the mark is committed (if marked; else closing
 * the pipe sends it to make the mark itself), then reaps it.  Its wait
 * status, or -1. */
int courier_end(courier *k, int marked)
{
	int st = -1;

	if (marked) {
		ssize_t w;
		do
			w = write(k->ack_fd, "y", 1);
		while (w < 0 && errno == EINTR);
		/* w < 0 (EPIPE): it stopped waiting and marked the email,
		 * which is as good */
	}
	close(k->ack_fd);
	close(k->hear_fd);
	while (waitpid(k->pid, &st, 0) < 0)
		if (errno != EINTR)
			return -1;
	return st;
}
