/*
 * mailer.c - the outbox's rounds: queue what the clock makes due, then
 * claim, send and mark each due email in order; and the daemon that
 * repeats them until told to stop.
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/select.h>
#include <time.h>

#include "mailer.h"
#include "message.h"

enum {
	URL_BYTES = 1024,
	MARK_TRIES = 5     /* a "sent" mark that meets a busy database is
	                    * tried again: giving up means a resend */
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

static void on_stop(int sig)
{
	(void)sig;
	stop_flag = 1;
}

void mailer_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_stop;   /* no SA_RESTART: the wait between
	                            * rounds ends at once */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
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
	fprintf(log_of(m), "buffertime mailer: %d sent, %d failed; %d "
	        "reminders, %d digests queued\n", c->sent, c->failed,
	        c->reminders, c->digests);
	fflush(log_of(m));
}

/* The one-click unsubscribe URL of o's seat into url, or "" if o has
 * no seat or its game is gone: the email goes out without one. */
static void unsub_url(mailer *m, const store_outmail *o, char *url,
                      size_t cap)
{
	static store_game g;   /* large: not on the stack */
	store_error e;

	url[0] = '\0';
	if (o->seat < 1 || o->game[0] == '\0' ||
	    store_load(m->st, o->game, &g, &e) != STORE_OK ||
	    o->seat > g.players)
		return;
	if (compose_unsub_url(&m->compose, o->game, o->seat,
	                      g.seats[o->seat - 1].token_gen, url, cap) != 0)
		url[0] = '\0';
}

/* Marks email id sent.  A crash between sendmail's exit and this mark
 * sends the email twice, so nothing else happens in between; a busy
 * database (the store's handler waits in short naps for a move's
 * transaction) is tried again rather than given up. */
static store_rc mark_sent(mailer *m, int64_t id, store_error *err)
{
	store_rc rc = STORE_BUSY;

	for (int i = 0; i < MARK_TRIES && rc == STORE_BUSY; i++)
		rc = store_outbox_sent(m->st, id, store_now(), err);
	return rc;
}

/* Builds, sends and marks the claimed email o. */
static store_rc send_one(mailer *m, const store_outmail *o, int64_t now,
                         mailer_counts *c, store_error *err)
{
	static char msg[MSG_MAX];
	char url[URL_BYTES], why[SEND_WHY_MAX];
	msg_env env = { m->mail_from, url, now };
	size_t len;
	send_rc sr;

	unsub_url(m, o, url, sizeof url);
	msg_rc mr = msg_build(o, &env, msg, sizeof msg, &len);
	if (mr == MSG_OK) {
		sr = send_message(&m->send, o->id, o->created, msg, len, why,
		                  sizeof why);
		if (sr == SEND_OK) {
			c->sent++;
			return mark_sent(m, o->id, err);
		}
	} else {
		snprintf(why, sizeof why, "%s", msg_rc_text(mr));
	}
	c->failed++;
	fprintf(log_of(m), "buffertime mailer: email %lld (%s) to %s, "
	        "attempt %d: %s\n", (long long)o->id, o->kind, o->to,
	        o->attempts, why);
	fflush(log_of(m));
	return store_outbox_failed(m->st, o->id, why, err);
}

/* Says that a queueing pass failed; the round goes on to the outbox. */
static void pass_failed(const mailer *m, const char *what,
                        const store_error *e)
{
	fprintf(log_of(m), "buffertime mailer: queueing %s: %s: %s\n", what,
	        store_rc_name(e->rc), e->why);
}

store_rc mailer_round(mailer *m, mailer_counts *c, store_error *err)
{
	static store_outmail o;   /* 9 KiB */
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
	for (int i = 0; i < MAILER_ROUND_MAX && !stop_flag; i++) {
		now = store_now();
		rc = store_outbox_claim(m->st, now, &o, err);
		if (rc == STORE_NOT_FOUND)
			break;
		if (rc == STORE_OK)
			rc = send_one(m, &o, now, c, err);
		if (rc != STORE_OK)
			return rc;
	}
	return first;
}

int mailer_daemon(mailer *m)
{
	sigset_t stops, old;

	sigemptyset(&stops);
	sigaddset(&stops, SIGTERM);
	sigaddset(&stops, SIGINT);
	while (!stop_flag) {
		mailer_counts c = { 0, 0, 0, 0 };
		store_error e;
		if (mailer_round(m, &c, &e) != STORE_OK)
			fprintf(log_of(m), "buffertime mailer: %s: %s\n",
			        store_rc_name(e.rc), e.why);
		mailer_report(m, &c);
		/* The flag is read with the signals blocked and pselect
		 * unblocks them atomically: a stop that comes in between
		 * still ends the wait at once. */
		sigprocmask(SIG_BLOCK, &stops, &old);
		if (!stop_flag) {
			struct timespec ts = { m->poll, 0 };
			pselect(0, NULL, NULL, NULL, &ts, &old);
		}
		sigprocmask(SIG_SETMASK, &old, NULL);
	}
	return 0;
}
