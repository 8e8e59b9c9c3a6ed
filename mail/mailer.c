/*
 * mailer.c - the worker's mail: queue what the clock makes due, and
 * claim, send and mark each due email in order, through a courier
 * process when sendmail carries it (mailer.h).
 */
#define _DEFAULT_SOURCE   /* flock(2) */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "compose_menu.h"
#include "compose_table.h"
#include "courier.h"
#include "mailer.h"
#include "message.h"

enum {
	URL_BYTES = 1024,
	LOCK_PATH_BYTES = 4096 + 32
};

static volatile sig_atomic_t stop_flag;

void mailer_stop(void)
{
	stop_flag = 1;
}

int mailer_stopping(void)
{
	return stop_flag != 0;
}

static FILE *log_of(const mailer *m)
{
	return m->log != NULL ? m->log : stderr;
}

void mailer_report(const mailer *m, const mailer_counts *c)
{
	if (c->sent == 0 && c->failed == 0 && c->reminders == 0 &&
	    c->digests == 0)
		return;
	fprintf(log_of(m), "buffertime worker: %d sent, %d failed; %d "
	        "reminders, %d digests queued\n", c->sent, c->failed,
	        c->reminders, c->digests);
	fflush(log_of(m));
}

/* o's game into g: 1, or 0 if o has none or it is gone. */
static int game_of(mailer *m, const store_outmail *o, store_game *g)
{
	store_error e;

	return o->game[0] != '\0' &&
	       store_load(m->st, o->game, g, &e) == STORE_OK;
}

/* The one-click unsubscribe URL of o's seat into url, or "" if o has
 * no seat or its game is gone (g NULL): the email goes out without
 * one. */
static void unsub_url(mailer *m, const store_outmail *o, const store_game *g,
                      char *url, size_t cap)
{
	url[0] = '\0';
	if (!g || o->seat < 1 || o->seat > g->players)
		return;
	if (compose_unsub_url(&m->compose, o->game, o->seat,
	                      g->seats[o->seat - 1].token_gen, url, cap) != 0)
		url[0] = '\0';
}

/* The email as it goes: o, or a copy with what could only be written
 * as it goes out.  A game-over email gets the review's biggest turning
 * point once the review is in (compose_turning_point_late).  One that
 * asks its seat to move and was queued without a menu and Reply-To gets
 * them: whichever path composed it (a program without reply_address, a
 * page that did not set it), the mailer's own setting decides
 * (compose_menu_late); the token's day is the row's, so a retry sends
 * the same message. */
static const store_outmail *as_sent(mailer *m, const store_outmail *o,
                                    const store_game *g)
{
	static store_outmail copy;
	compose_ctx c = m->compose;
	int changed;

	if (!g)
		return o;
	copy = *o;
	changed = compose_turning_point_late(m->st, g, &copy) == 1;
	if (m->compose.reply_local[0] && !o->reply_to[0]) {
		c.now_day = o->created / 86400;
		changed |= compose_menu_late(&c, g, &copy) == 1;
	}
	return changed ? &copy : o;
}

/* ---- marks -------------------------------------------------------------- */

/* One line on the log for a failed attempt at o; by says who noted it. */
static void log_failure(const mailer *m, const store_outmail *o,
                        const char *why, const char *by)
{
	fprintf(log_of(m), "buffertime worker: email %lld (%s) to %s, "
	        "attempt %d: %s%s\n", (long long)o->id, o->kind, o->to,
	        o->attempts, why, by);
	fflush(log_of(m));
}

/* Records on the mailer's connection what sending o came to: sent, or
 * failed with why (logged, and queued for the retry its claim set). */
static store_rc settle(mailer *m, const store_outmail *o, send_rc sr,
                       const char *why, mailer_counts *c, store_error *err)
{
	if (sr == SEND_OK) {
		c->sent++;
		store_rc rc = courier_mark_sent(m->st, o->id, err);
		/* its courier gave up waiting and marked it first */
		return rc == STORE_NOT_FOUND ? STORE_OK : rc;
	}
	c->failed++;
	log_failure(m, o, why, "");
	return store_outbox_failed(m->st, o->id, why, err);
}

/* Sends msg (len bytes) of the claimed email o through a courier and
 * settles it. */
static store_rc by_courier(mailer *m, const store_outmail *o,
                           const char *msg, size_t len, mailer_counts *c,
                           store_error *err)
{
	courier_job j = { &m->send, m->self, m->db, m->lock_fd, log_of(m) };
	courier_outcome out;
	courier k;

	if (courier_start(&j, o, msg, len, &k) != 0) {
		snprintf(out.why, sizeof out.why, "cannot start a courier: %s",
		         strerror(errno));
		return settle(m, o, SEND_ERROR, out.why, c, err);
	}
	if (courier_hear(&k, &out) != 0) {
		int st = courier_end(&k, 0);
		if (st != -1 && WIFSIGNALED(st))
			snprintf(out.why, sizeof out.why, "its courier was "
			         "killed by signal %d", WTERMSIG(st));
		else
			snprintf(out.why, sizeof out.why, "its courier ended "
			         "without a word");
		return settle(m, o, SEND_ERROR, out.why, c, err);
	}
	store_rc rc = settle(m, o, (send_rc)out.rc, out.why, c, err);
	courier_end(&k, rc == STORE_OK);
	return rc;
}

/* Builds, sends and marks the claimed email o. */
static store_rc send_one(mailer *m, const store_outmail *o, int64_t now,
                         mailer_counts *c, store_error *err)
{
	static char msg[MSG_MAX];
	static store_game g;   /* large: not on the stack */
	char url[URL_BYTES], why[SEND_WHY_MAX];
	msg_env env = { m->mail_from, url, now };
	const store_game *game = game_of(m, o, &g) ? &g : NULL;
	size_t len;

	unsub_url(m, o, game, url, sizeof url);
	msg_rc mr = msg_build(as_sent(m, o, game), &env, msg, sizeof msg,
	                      &len);
	if (mr != MSG_OK) {
		snprintf(why, sizeof why, "%s", msg_rc_text(mr));
		return settle(m, o, SEND_ERROR, why, c, err);
	}
	/* On one box a file written again replaces itself: no courier. */
	if (m->send.mail_dir != NULL && m->send.mail_dir[0] != '\0' &&
	    !m->folder_by_courier) {
		send_rc sr = send_message(&m->send, o->id, o->created, msg,
		                          len, why, sizeof why);
		return settle(m, o, sr, why, c, err);
	}
	return by_courier(m, o, msg, len, c, err);
}

/* ---- the lock and the round ------------------------------------------------ */

int mailer_open(mailer *m, char *why, size_t cap)
{
	char path[LOCK_PATH_BYTES];

	m->lock_fd = -1;
	m->folder_by_courier = store_is_server(m->db);
	/* On a server, mailers on several hosts run at once: each email's
	 * claim (its attempt counted, its retry set, under the writers'
	 * lock) keeps the others from sending it, for as long as its
	 * courier may take (a killed worker's courier goes on). */
	if (store_is_server(m->db)) {
		store_set_send_hold(m->st, courier_longest(&m->send));
		return 0;
	}
	int n = m->db != NULL ? snprintf(path, sizeof path, "%s-mailer.lock",
	                                 m->db) : -1;
	if (n < 0 || (size_t)n >= sizeof path) {
		snprintf(why, cap, "no database path, or one too long");
		return -1;
	}
	/* Read-only is enough for flock(2), and 0644 lets the service's
	 * user open the (empty) file even if root made it. */
	m->lock_fd = open(path, O_RDONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW,
	                  0644);
	if (m->lock_fd < 0) {
		snprintf(why, cap, "%.900s: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}

void mailer_close(mailer *m)
{
	if (m->lock_fd >= 0)
		close(m->lock_fd);
	m->lock_fd = -1;
}

/* Takes the lock file, waiting while another mailer, or the courier of
 * a killed one, holds it.  flock(2), not fcntl's locks: a courier forked
 * while the lock is held shares it, and keeps it after the mailer dies,
 * until it exits.  STORE_OK; STORE_BUSY if a stop came while waiting
 * (err untouched); STORE_ERROR. */
static store_rc lock_take(mailer *m, store_error *err)
{
	if (m->lock_fd < 0)
		return STORE_OK;
	while (flock(m->lock_fd, LOCK_EX) != 0) {
		if (errno != EINTR) {
			err->rc = STORE_ERROR;
			snprintf(err->why, sizeof err->why, "locking the mailer's "
			         "lock file: %s", strerror(errno));
			return STORE_ERROR;
		}
		if (stop_flag)
			return STORE_BUSY;
	}
	return STORE_OK;
}

static void lock_drop(mailer *m)
{
	if (m->lock_fd >= 0 && flock(m->lock_fd, LOCK_UN) != 0) {
		fprintf(log_of(m), "buffertime worker: unlocking: %s\n",
		        strerror(errno));
		fflush(log_of(m));
	}
}

/* Says that a queueing pass failed; the round goes on to the outbox. */
static void pass_failed(const mailer *m, const char *what,
                        const store_error *e)
{
	fprintf(log_of(m), "buffertime worker: queueing %s: %s: %s\n", what,
	        store_rc_name(e->rc), e->why);
}

/* Claims the oldest due email, sends and settles it: STORE_NOT_FOUND if
 * none is due. */
static store_rc next_email(mailer *m, mailer_counts *c, store_error *err)
{
	static store_outmail o;   /* 9 KiB */
	int64_t now = store_now();
	store_rc rc = store_outbox_claim(m->st, now, &o, err);

	return rc == STORE_OK ? send_one(m, &o, now, c, err) : rc;
}

store_rc mailer_queue_due(mailer *m, mailer_counts *c, store_error *err)
{
	int64_t now = store_now();
	store_rc first = STORE_OK, rc;
	store_error e;
	int n = 0;

	memset(err, 0, sizeof *err);
	if ((rc = store_queue_reminders(m->st, now, compose_reminder,
	                                &m->compose, &n, &e)) != STORE_OK) {
		pass_failed(m, "reminders", &e);
		first = rc;
		*err = e;
	}
	c->reminders += n;
	n = 0;
	if ((rc = store_queue_digests(m->st, now, compose_digest,
	                              &m->compose, &n, &e)) != STORE_OK) {
		pass_failed(m, "digests", &e);
		if (first == STORE_OK) {
			first = rc;
			*err = e;
		}
	}
	c->digests += n;
	return first;
}

store_rc mailer_send_due(mailer *m, mailer_counts *c, store_error *err)
{
	store_rc rc;

	memset(err, 0, sizeof *err);
	for (int i = 0; i < MAILER_ROUND_MAX && !stop_flag; i++) {
		if ((rc = lock_take(m, err)) != STORE_OK)
			return stop_flag ? STORE_OK : rc;
		/* held from the claim until the email is settled and its
		 * courier gone: one email in flight, in the outbox's order */
		rc = next_email(m, c, err);
		lock_drop(m);
		if (rc == STORE_NOT_FOUND)
			break;
		if (rc != STORE_OK)
			return rc;
	}
	return STORE_OK;
}

int mailer_due(mailer *m)
{
	int64_t due = store_outbox_next_due(m->st);

	return due >= 0 && due <= store_now();
}
