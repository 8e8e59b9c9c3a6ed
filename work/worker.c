/*
 * worker.c - the worker's table of kinds of job, its round and its
 * daemon (worker.h).
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "store_bots.h"
#include "worker.h"

/* A kind of job: a row of the table. */
typedef struct worker_kind {
	const char *name;           /* in the log: "buffertime worker: NAME:
	                             * what failed" */
	/* Does a bounded amount of this kind's work at store_now(); sets
	 * *more to 1 if it left some due now.  STORE_OK, or its failure
	 * (err). */
	store_rc (*round)(worker *w, int *more, store_error *err);
	/* 1 if this kind has some due now (looked at every second between
	 * rounds), or NULL: it comes due only with the next round. */
	int (*due)(worker *w);
} worker_kind;

static FILE *log_of(const worker *w)
{
	return w->log != NULL ? w->log : stderr;
}

/* ---- the kinds ------------------------------------------------------------ */

/* Bot turns, stand-ins coming due and practice tables' hints. */
static store_rc bot_turns(worker *w, int *more, store_error *err)
{
	int moved = 0;
	store_rc rc = botturn_round(&w->bots, &moved, err);

	if (moved > 0)
		fprintf(log_of(w), "buffertime worker: %d bot move%s\n", moved,
		        moved == 1 ? "" : "s");
	w->moved += moved;
	*more = w->bots.more;
	return rc;
}

/* A bot turn, hints or a part of a review due (one table of jobs). */
static int jobs_due(worker *w)
{
	int64_t due = store_job_next_due(w->bots.st);

	return due >= 0 && due <= store_now();
}

static store_rc queue_mail(worker *w, int *more, store_error *err)
{
	*more = 0;
	return mailer_queue_due(&w->mail, &w->counts, err);
}

/* The due emails; some are left if the round reached its bound. */
static store_rc send_mail(worker *w, int *more, store_error *err)
{
	store_rc rc = mailer_send_due(&w->mail, &w->counts, err);

	*more = rc == STORE_OK && !mailer_stopping() && mailer_due(&w->mail);
	return rc;
}

static int mail_due(worker *w)
{
	return mailer_due(&w->mail);
}

/* The parts of reviews due.  A finished one lets its game-over emails
 * go, after this round's emails: they call for another round at once. */
static store_rc reviews(worker *w, int *more, store_error *err)
{
	store_rc rc = botturn_reviews(&w->bots, err);

	*more = w->bots.more || (rc == STORE_OK && mailer_due(&w->mail));
	return rc;
}

/* In the order a round does them.  The bot turns first: a bot's move
 * queues emails, which go in the same round.  The reviews last: their
 * parts are slow.  The jobs' due function is the first row's: the
 * reviews are in the same table. */
static const worker_kind kinds[] = {
	{ "bot turns and hints", bot_turns, jobs_due },
	{ "reminders and digests", queue_mail, NULL },
	{ "emails", send_mail, mail_due },
	{ "reviews", reviews, NULL },
};

enum { KINDS = sizeof kinds / sizeof kinds[0] };

/* 1 if a kind has some due now. */
static int any_due(worker *w)
{
	for (size_t k = 0; k < KINDS; k++)
		if (kinds[k].due != NULL && kinds[k].due(w))
			return 1;
	return 0;
}

int worker_round(worker *w, int *more)
{
	int failed = 0, left = 0;

	for (size_t k = 0; k < KINDS && !mailer_stopping(); k++) {
		store_error e;
		int m = 0;

		memset(&e, 0, sizeof e);
		if (kinds[k].round(w, &m, &e) != STORE_OK) {
			fprintf(log_of(w), "buffertime worker: %s: %s: %s\n",
			        kinds[k].name, store_rc_name(e.rc), e.why);
			failed++;
		}
		left |= m;
	}
	fflush(log_of(w));
	/* Only what the kinds said they left: a job due now may be another
	 * worker's (it holds the lock), and after a failure the work due
	 * waits for the next look (a full disk would spin). */
	*more = !failed && !mailer_stopping() && left;
	return failed;
}

int worker_once(worker *w)
{
	int failed = 0, more = 1;

	for (int i = 0; i < WORKER_ONCE_ROUNDS && more && !failed; i++)
		failed = worker_round(w, &more);
	mailer_report(&w->mail, &w->counts);
	return failed + (w->counts.failed > 0);
}

/* ---- the daemon ----------------------------------------------------------- */

static void on_stop(int sig)
{
	(void)sig;
	mailer_stop();
}

void worker_signals(void)
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

/* Waits w->poll seconds for the next round, or less: at once when work
 * comes due, seen within a second of its due time (a move that gave a
 * bot the turn, an email a page queued), or on a server as soon as it is
 * queued, so a bot does not wait a whole poll to move. */
static void wait_round(worker *w, const sigset_t *stops)
{
	time_t end = time(NULL) + w->poll;

	for (int s = 0; s <= w->poll; s++) {
		store_wait_second(w->bots.st, stops, mailer_stopping);
		if (mailer_stopping() || any_due(w) || time(NULL) >= end)
			return;
	}
}

int worker_daemon(worker *w)
{
	sigset_t stops;

	sigemptyset(&stops);
	sigaddset(&stops, SIGTERM);
	sigaddset(&stops, SIGINT);
	while (!mailer_stopping()) {
		int more = 0;
		memset(&w->counts, 0, sizeof w->counts);
		worker_round(w, &more);
		mailer_report(&w->mail, &w->counts);
		if (w->after_round)
			w->after_round(w->after_ctx);
		if (!more)
			wait_round(w, &stops);
	}
	return 0;
}

/* ---- opening and closing -------------------------------------------------- */

int worker_open(worker *w, char *why, size_t cap)
{
	w->mail.lock_fd = -1;
	w->bots.lock_fd = -1;
	w->bots.b = NULL;
	if (w->mail.log == NULL)
		w->mail.log = log_of(w);
	if (w->bots.log == NULL)
		w->bots.log = log_of(w);
	if (mailer_open(&w->mail, why, cap) != 0)
		return -1;
	return botturn_open(&w->bots, why, cap);
}

void worker_close(worker *w)
{
	botturn_close(&w->bots);
	mailer_close(&w->mail);
}
