/*
 * botturn.c - claiming bot turns, choosing, appending (botturn.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <sys/file.h>
#include <unistd.h>

#include "botturn.h"
#include "hints_job.h"
#include "review_job.h"
#include "bot_talk.h"

enum {
	LOCK_PATH_BYTES = 4096,
	BOT_HAND_LOOKBACK = 200    /* newest lines a bot looks through */
};

int botturn_open(botturn *t, char *why, size_t cap)
{
	t->lock_fd = -1;
	if (!(t->b = bot_new())) {
		snprintf(why, cap, "out of memory for the bot");
		return -1;
	}
	return 0;
}

void botturn_close(botturn *t)
{
	if (t->lock_fd >= 0)
		close(t->lock_fd);
	t->lock_fd = -1;
	bot_free(t->b);
	t->b = NULL;
}

/* Fills err and returns rc. */
static store_rc fail(store_error *err, store_rc rc, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static store_rc fail(store_error *err, store_rc rc, const char *fmt, ...)
{
	va_list ap;

	err->rc = rc;
	va_start(ap, fmt);
	vsnprintf(err->why, sizeof err->why, fmt, ap);
	va_end(ap);
	return rc;
}

static FILE *log_of(const botturn *t)
{
	return t->log ? t->log : stderr;
}

/* Takes DB-worker.lock without waiting, once; 1 if this process holds
 * it (and, the first time, has made every unfinished job due), 0 if
 * another does, -1 on error (err). */
static int hold_lock(botturn *t, store_error *err)
{
	char path[LOCK_PATH_BYTES];
	int n;

	if (t->lock_fd >= 0)
		return 1;
	/* On a server, workers on several hosts run at once: a claimed job
	 * is leased (due again later), so one whose worker died is taken
	 * again when its lease ends, and no other takes it before. */
	if (store_is_server(t->db))
		return 1;
	n = snprintf(path, sizeof path, "%s-worker.lock", t->db);
	if (n < 0 || (size_t)n >= sizeof path) {
		fail(err, STORE_ERROR, "the database path is too long");
		return -1;
	}
	int fd = open(path, O_RDONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
	if (fd < 0) {
		fail(err, STORE_ERROR, "%.200s: %s", path, strerror(errno));
		return -1;
	}
	if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
		close(fd);
		if (errno == EWOULDBLOCK)
			return 0;
		fail(err, STORE_ERROR, "locking %.200s", path);
		return -1;
	}
	t->lock_fd = fd;
	/* no other worker runs: what is claimed was claimed by a dead one */
	if (store_job_reclaim(t->st, store_now(), err) != STORE_OK)
		return -1;
	return 1;
}

/* A seed of the job's own, so one turn always gets the same move. */
static uint64_t job_seed(const store_job *j)
{
	uint64_t h = 1469598103934665603ULL;

	for (const char *p = j->game; *p; p++)
		h = (h ^ (unsigned char)*p) * 1099511628211ULL;
	return h ^ (uint64_t)(unsigned)j->seq * 0x9e3779b97f4a7c15ULL;
}

/* The job's game, if the job is still its bot's turn: STORE_OK, or
 * STORE_CONFLICT (stale) or another failure. */
static store_rc load_turn(botturn *t, const store_job *j, store_game *g,
                          store_error *err)
{
	store_rc rc = store_load(t->st, j->game, g, err);

	if (rc == STORE_NOT_FOUND)
		return fail(err, STORE_CONFLICT, "no such game");
	if (rc)
		return rc;
	const store_seat *p = &g->seats[j->seat - 1];
	if (g->seq != j->seq || g->state.status != BT_PLAYING ||
	    g->state.turn != j->seat || (!p->bot[0] && !p->standin_since) ||
	    g->sweep_card != BT_NO_CARD)
		return fail(err, STORE_CONFLICT, "the game moved on");
	return STORE_OK;
}

bot_heard botturn_heard(const store_game *g, unsigned shown, int seat)
{
	bot_heard h = { shown, 0 };

	if (seat < 1 || seat > g->players || !g->seats[seat - 1].bot[0])
		return h;
	for (int s = 1; s <= g->state.players; s++)
		if (g->seats[s - 1].bot[0]) {
			h.hands |= 1u << (s - 1);
			h.sweeps |= 1u << (s - 1);
		}
	return h;
}

/* The newest hand line of one seat (bot_talk_hand's memory). */
typedef struct last_hand {
	int seat;
	char text[STORE_CHAT_MAX + 1];
} last_hand;

static int keep_hand(void *ctx, const store_chat *c)
{
	last_hand *l = ctx;

	if (c->seat == l->seat &&
	    !strncmp(c->text, BOT_TALK_HAND, strlen(BOT_TALK_HAND)))
		snprintf(l->text, sizeof l->text, "%s", c->text);
	return 0;
}

/* What bot seat says with move a (bot_talk.h), into say ("" for nothing). */
static store_rc talk(botturn *t, const store_game *g, int seat,
                     const bt_action *a, const bot_figures *fig,
                     char say[BOT_TALK_MAX], store_error *err)
{
	static last_hand last;
	const char *names[BT_MAX_PLAYERS];
	store_rc rc;

	for (int s = 0; s < BT_MAX_PLAYERS; s++)
		names[s] = g->seats[s].name;
	if (bot_talk_move(&g->state, a, fig, names, say, BOT_TALK_MAX) > 0)
		return STORE_OK;
	last.seat = seat;
	last.text[0] = '\0';
	/* a window of the newest talk: its last words on its hand are
	 * there, or long enough ago to say them again */
	if ((rc = store_chat_latest(t->st, g->id, BOT_HAND_LOOKBACK, keep_hand,
	                            &last, err)))
		return rc;
	bot_talk_hand(&g->state, seat, last.text, say, BOT_TALK_MAX);
	return STORE_OK;
}

/* Plays job j: STORE_OK (moved), STORE_CONFLICT (stale: done too), or
 * a failure that leaves it queued.  A bot seat says its line of table
 * talk with the move; a stand-in, speaking for a person, says nothing. */
static store_rc play(botturn *t, const store_job *j, store_error *err)
{
	static store_game g;
	char say[BOT_TALK_MAX] = "";
	bot_figures fig;
	bot_heard heard;
	unsigned shown;
	bt_action a;
	store_rc rc;

	if ((rc = load_turn(t, j, &g, err)) ||
	    (rc = store_shown_get(t->st, j->game, &shown, err)))
		return rc;
	heard = botturn_heard(&g, shown, j->seat);
	if (bot_search_heard(t->b, &g.state, j->seat, &heard, &t->budget,
	                     job_seed(j), &a, &fig) != 0)
		return fail(err, STORE_ERROR, "the bot found no move");
	int by_bot = g.seats[j->seat - 1].bot[0] != '\0';
	if (by_bot && (rc = talk(t, &g, j->seat, &a, &fig, say, err)))
		return rc;
	return store_append_saying(t->st, j->game, j->seq, &a,
	                           by_bot ? "bot" : "stand-in", say,
	                           compose_move, &t->compose, NULL, err);
}

/* A part of review job j: done once every move is weighed, else due
 * again at once (behind fresher jobs: the claim's order prefers those
 * tried less often). */
static store_rc review_step(botturn *t, const store_job *j, store_error *err)
{
	store_error e;
	int finished;
	store_rc rc = review_job_step(t->st, t->b, t->review_rollouts, j,
	                              &finished, &e);

	if (rc == STORE_OK && finished) {
		fprintf(log_of(t), "buffertime worker: game %s reviewed\n",
		        j->game);
		return store_job_done(t->st, j->id, "reviewed", err);
	}
	if (rc == STORE_OK)
		return store_job_later(t->st, j->id, store_now(), err);
	if (rc == STORE_CONFLICT)
		return store_job_done(t->st, j->id, "stale", err);
	fprintf(log_of(t), "buffertime worker: game %s review: %s: %s\n",
	        j->game, store_rc_name(e.rc), e.why);
	*err = e;
	return rc;
}

/* Hints job j: done once the seat's options are weighed and kept. */
static store_rc hints(botturn *t, const store_job *j, store_error *err)
{
	store_error e;
	store_rc rc = hints_job_do(t->st, t->b, &t->budget, j, &e);

	if (rc == STORE_OK)
		return store_job_done(t->st, j->id, "hinted", err);
	if (rc == STORE_CONFLICT)
		return store_job_done(t->st, j->id, "stale", err);
	fprintf(log_of(t), "buffertime worker: game %s hints: %s: %s\n",
	        j->game, store_rc_name(e.rc), e.why);
	*err = e;
	return rc;
}

/* Claims and does the next due job: STORE_OK (one done, *moved counted),
 * STORE_NOT_FOUND (none due), or a failure. */
static store_rc next_job(botturn *t, int reviews, int *moved,
                         store_error *err)
{
	store_job j;
	store_error e;
	store_rc rc = store_job_claim_phase(t->st, store_now(), STORE_JOB_LEASE,
	                                    reviews, &j, err);

	if (rc)
		return rc;
	/* never given up: a worker killed mid-move is no fault of the job,
	 * and a lost job would stall its game; jobs tried more often wait
	 * behind the others (store_job_claim's order) */
	if (!strcmp(j.kind, "review"))
		return review_step(t, &j, err);
	if (!strcmp(j.kind, "hints"))
		return hints(t, &j, err);
	rc = play(t, &j, &e);
	if (rc == STORE_OK) {
		(*moved)++;
		return store_job_done(t->st, j.id, "moved", err);
	}
	if (rc == STORE_CONFLICT)
		return store_job_done(t->st, j.id, "stale", err);
	fprintf(log_of(t), "buffertime worker: game %s move %d: %s: %s\n",
	        j.game, j.seq, store_rc_name(e.rc), e.why);
	if (rc == STORE_ILLEGAL || rc == STORE_INVALID)
		return store_job_done(t->st, j.id, "failed: refused", err);
	*err = e;
	return rc;      /* busy, full, I/O: claimed again once due */
}

/* The due jobs of one phase (reviews or the others), for about
 * BOTTURN_ROUND_SECONDS at most; t->more set if some are left. */
static store_rc phase(botturn *t, int reviews, int *moved, store_error *err)
{
	store_rc rc = STORE_OK;
	time_t end = time(NULL) + BOTTURN_ROUND_SECONDS;

	for (int i = 0; i < BOTTURN_ROUND_MAX; i++) {
		if ((rc = next_job(t, reviews, moved, err)) != STORE_OK)
			break;
		if (time(NULL) >= end) {
			t->more = 1;
			break;
		}
	}
	fflush(log_of(t));
	return rc == STORE_NOT_FOUND ? STORE_OK : rc;
}

store_rc botturn_round(botturn *t, int *moved, store_error *err)
{
	store_rc rc;
	int held, started = 0;

	*moved = 0;
	t->more = 0;
	if ((held = hold_lock(t, err)) <= 0)
		return held < 0 ? err->rc : STORE_OK;
	/* absent players' stand-ins come due, their turns become jobs */
	if ((rc = store_queue_standins(t->st, store_now(), compose_standin,
	                               &t->compose, &started, err)))
		return rc;
	if (started > 0)
		fprintf(log_of(t), "buffertime worker: %d stand-in%s started\n",
		        started, started == 1 ? "" : "s");
	return phase(t, 0, moved, err);
}

store_rc botturn_reviews(botturn *t, store_error *err)
{
	int held, moved = 0;

	if ((held = hold_lock(t, err)) <= 0)
		return held < 0 ? err->rc : STORE_OK;
	return phase(t, 1, &moved, err);
}
