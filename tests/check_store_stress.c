/*
 * check_store_stress.c - the store under the requirement:
 * players act whenever they like, often at the same moment and from
 * several devices, and the server may be killed at any instant; no
 * accepted action may ever be lost, duplicated or applied to a state it
 * was not chosen in.
 *
 * Real processes (fork) on real database files in a temporary directory
 * (or, with BT_UNIT_ENGINE=postgres, schemas of their own: fixture.h).
 * Each process opens its own store after the fork, and the parent holds
 * no connection to a file while it forks, since an SQLite connection (and
 * SQLite's per-process lock table) must not cross a fork.  Children never
 * return into Check: they end with _exit().
 *
 * The random choices (kill delays, crash-test moves) come from a seed
 * that failure messages print; BT_STRESS_SEED=N repeats a run.
 */
#include <dirent.h>
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <check.h>
#include <sodium.h>

#include "driver.h"
#include "fixture.h"
#include "game.h"
#include "record.h"
#include "policy.h"   /* policy_rng_next: splitmix64 */
#include "sql.h"      /* sql_pg_begin_write */
#include "store.h"

enum {
	PATH_BYTES = 600,
	CONFLICT_ROUNDS = 1000,
	CRASH_KILLS = 300,          /* kills per run, unless time runs out */
	CRASH_SECONDS = 15,         /* time budget of the kills ... */
	CRASH_SECONDS_MAX = 120,    /* ... while no append has committed */
	CRASH_DELAY_MS = 20,        /* a child lives 0..this before SIGKILL, */
	CRASH_DELAY_MAX_MS = 2560,  /* ... up to this on a slow machine */
	CRASH_STEPS_MAX = 1000000,  /* appends a child tries at most */
	CRASH_GAMES_MAX = 4096,     /* games the crash test may track */
	IO_TRIES = 1000,            /* partial reads or writes tolerated */
	SCRATCH_FILES_MAX = 10000
};

/* ---- the scratch directory (an unchecked fixture: the runner's) -------- */

static char scratch_dir[PATH_BYTES];

/* Makes the directory in the runner, so it is removed even when a test
 * fails (the test's process exits, the runner does not).  No Check
 * asserts here: a failure leaves scratch_dir empty for tests to report. */
static void scratch_setup(void)
{
	const char *tmp = getenv("TMPDIR");

	if (tmp == NULL || *tmp == '\0')
		tmp = "/tmp";
	int n = snprintf(scratch_dir, sizeof scratch_dir,
	                 "%s/bt-stress.XXXXXX", tmp);
	if (n < 0 || (size_t)n >= sizeof scratch_dir ||
	    mkdtemp(scratch_dir) == NULL) {
		fprintf(stderr, "check_store_stress: mkdtemp in %s: %s\n",
		        tmp, strerror(errno));
		scratch_dir[0] = '\0';
	}
}

/* Removes the directory's files (it has no subdirectories) and itself. */
static void scratch_teardown(void)
{
	char path[2 * PATH_BYTES], why[256];

	if (scratch_dir[0] == '\0')
		return;
	if (fixture_drop_databases(scratch_dir, why, sizeof why) != 0)
		fprintf(stderr, "check_store_stress: %s\n", why);
	DIR *d = opendir(scratch_dir);
	if (d == NULL)
		return;
	struct dirent *e;
	for (int i = 0; i < SCRATCH_FILES_MAX && (e = readdir(d)) != NULL;
	     i++) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		int n = snprintf(path, sizeof path, "%s/%s", scratch_dir,
		                 e->d_name);
		if (n > 0 && (size_t)n < sizeof path && unlink(path) != 0)
			fprintf(stderr, "check_store_stress: unlink %s: %s\n",
			        path, strerror(errno));
	}
	if (closedir(d) != 0)
		fprintf(stderr, "check_store_stress: closedir: %s\n",
		        strerror(errno));
	if (rmdir(scratch_dir) != 0)
		fprintf(stderr, "check_store_stress: rmdir %s: %s\n",
		        scratch_dir, strerror(errno));
}

/* The database name in the scratch directory: a file, or a schema. */
static void db_path(const char *name, char out[PATH_BYTES])
{
	ck_assert_msg(scratch_dir[0] != '\0', "no scratch directory");
	fixture_database(scratch_dir, name, out);
}

/* ---- small tools ---------------------------------------------------------- */

/* Seconds on the monotonic clock. */
static double now(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_MONOTONIC, &ts) != 0)
		abort();    /* cannot happen with CLOCK_MONOTONIC */
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The run's seed: BT_STRESS_SEED, else the clock and the pid. */
static uint64_t test_seed(void)
{
	const char *env = getenv("BT_STRESS_SEED");

	if (env != NULL && *env != '\0')
		return strtoull(env, NULL, 10);
	struct timespec ts;
	ck_assert_int_eq(clock_gettime(CLOCK_REALTIME, &ts), 0);
	return (uint64_t)ts.tv_nsec ^ ((uint64_t)ts.tv_sec << 20) ^
	       (uint64_t)getpid();
}

/* Writes all n bytes to fd.  Returns 0, or -1 (errno set). */
static int put(int fd, const void *p, size_t n)
{
	const char *c = p;

	for (int i = 0; n > 0 && i < IO_TRIES; i++) {
		ssize_t w = write(fd, c, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		c += w;
		n -= (size_t)w;
	}
	return n == 0 ? 0 : -1;
}

/* Reads exactly n bytes from fd.  Returns 1, 0 at end of file before
 * the first byte, or -1 on an error or a message cut short. */
static int get(int fd, void *p, size_t n)
{
	char *c = p;
	size_t got = 0;

	for (int i = 0; got < n && i < IO_TRIES; i++) {
		ssize_t r = read(fd, c + got, n - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -1;
		if (r == 0)
			return got == 0 ? 0 : -1;
		got += (size_t)r;
	}
	return got == n ? 1 : -1;
}

/* Closes fd in the test's process, which must succeed. */
static void shut(int fd)
{
	ck_assert_msg(close(fd) == 0, "close: %s", strerror(errno));
}

/* Waits for child pid; returns its wait status. */
static int reap(pid_t pid)
{
	int st = 0;
	pid_t r;

	for (int i = 0; i < IO_TRIES; i++) {
		r = waitpid(pid, &st, 0);
		if (r == pid)
			return st;
		ck_assert_msg(r < 0 && errno == EINTR, "waitpid: %s",
		              strerror(errno));
	}
	ck_abort_msg("waitpid: interrupted %d times", IO_TRIES);
	return -1;
}

/* Asserts that a child ended with exit status 0. */
static void reap_ok(pid_t pid, const char *who)
{
	int st = reap(pid);

	ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0,
	              "%s ended with %s %d (see its exit codes)", who,
	              WIFEXITED(st) ? "exit status" : "signal",
	              WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st));
}

/* ---- the engine beside the store: a connection of its own each time --- */

/* Opens path through the driver alone; NULL on failure. */
static db_conn *raw_open(const char *path)
{
	db_conn *db = NULL;
	char why[256];

	if (db_open(path, &db, why, sizeof why) != DB_OK)
		return NULL;
	db_set_busy_timeout(db, STORE_BUSY_TIMEOUT_MS);
	return db;
}

/* The first column of the first row of sql (?1 bound to arg if not
 * NULL) as text into out; 0, or -1 with the engine's message in out. */
static int raw_text(const char *path, const char *sql, const char *arg,
                    char *out, size_t cap)
{
	db_conn *db = raw_open(path);
	db_stmt *st = NULL;
	int rc = -1;

	snprintf(out, cap, "cannot open %s", path);
	if (db == NULL)
		return -1;
	st = db_prepare(db, sql);
	if (st != NULL && arg != NULL)
		db_bind_text(st, 1, arg, -1);
	if (db_step(st) != DB_ROW) {
		snprintf(out, cap, "%s: %s", sql, db_errmsg(db));
		goto out;
	}
	const char *t = db_column_text(st, 0);
	snprintf(out, cap, "%s", t ? t : "NULL");
	rc = 0;
out:
	db_finalize(st);
	db_close(db);
	return rc;
}

/* The integer sql gives (see raw_text); a failure fails the test. */
static int64_t raw_int(const char *path, const char *sql, const char *arg)
{
	char buf[512];

	ck_assert_msg(raw_text(path, sql, arg, buf, sizeof buf) == 0, "%s",
	              buf);
	return strtoll(buf, NULL, 10);
}

static int64_t outbox_rows(const char *path)
{
	return raw_int(path, "SELECT count(*) FROM outbox", NULL);
}

static int64_t game_rows(const char *path)
{
	return raw_int(path, "SELECT count(*) FROM games", NULL);
}

/* ---- the store ------------------------------------------------------------ */

static store *open_store(const char *path)
{
	store *s = NULL;
	store_error err;

	memset(&err, 0, sizeof err);
	store_rc rc = store_open(path, &s, &err);
	ck_assert_msg(rc == STORE_OK, "store_open %s: %s: %s", path,
	              store_rc_name(rc), err.why);
	return s;
}

/* Creates a 3-player game with the seed n (hex), so runs repeat. */
static store_rc new_game(store *s, uint64_t n, char id[STORE_ID_LEN + 1],
                         store_error *err)
{
	char seed[BT_SEED_TEXT_MAX + 1];
	store_new_game ng;

	memset(&ng, 0, sizeof ng);
	snprintf(seed, sizeof seed, "%016llx", (unsigned long long)n);
	ng.players = 3;
	ng.first = 1;
	ng.seed = seed;
	ng.options = "stress";
	return store_create(s, &ng, id, err);
}

/* New game in the test's process, loaded into *g. */
static void fresh_game(store *s, uint64_t n, store_game *g)
{
	char id[STORE_ID_LEN + 1];
	store_error err;

	memset(&err, 0, sizeof err);
	store_rc rc = new_game(s, n, id, &err);
	ck_assert_msg(rc == STORE_OK, "store_create: %s: %s",
	              store_rc_name(rc), err.why);
	rc = store_load(s, id, g, &err);
	ck_assert_msg(rc == STORE_OK, "store_load %s: %s: %s", id,
	              store_rc_name(rc), err.why);
	ck_assert_int_eq(g->seq, 0);
}

/* One of the legal actions of g into *a (the first if rng is NULL, else
 * a random one); returns how many there were (0: the game is over). */
static int pick(const bt_game *g, uint64_t *rng, bt_action *a)
{
	static bt_action legal[BT_MAX_LEGAL];   /* one per process */
	int n = bt_legal(g, legal, BT_MAX_LEGAL);

	if (n > 0)
		*a = legal[rng ? policy_rng_next(rng) % (uint64_t)n : 0];
	return n;
}

/* What mail_one does: ret < 0 makes it fail. */
typedef struct mailer {
	int calls;
	int ret;
} mailer;

/* A store_mail_fn queueing one mail per action (ctx: a mailer or NULL). */
static int mail_one(void *ctx, const store_game *before,
                    const bt_game *after, const bt_action *a,
                    store_mail *out, int max)
{
	mailer *m = ctx;

	if (m != NULL) {
		m->calls++;
		if (m->ret < 0)
			return m->ret;
	}
	if (max < 1)
		return 0;
	out->seat = a->seat;
	snprintf(out->to, sizeof out->to, "seat%d@example.org", a->seat);
	snprintf(out->subject, sizeof out->subject, "line %d of %s",
	         before->seq, before->id);
	snprintf(out->body, sizeof out->body, "Round %d, seat %d to move.\n",
	         after->round, after->turn);
	return 1;
}

/* ---- conflict: two writers, one expected seq, one winner ----------------- */

/* One append both racers attempt. */
typedef struct order {
	char id[STORE_ID_LEN + 1];
	int seq;
	bt_action a;
} order;

/* What a racer's append gave. */
typedef struct verdict {
	store_rc rc;
	char why[256];
} verdict;

/* A long-lived child: orders and the start signal go down cmd, the ready
 * byte and verdicts come up res. */
typedef struct racer {
	pid_t pid;
	int cmd, res;
} racer;

/*
 * A racer's life: for each order, say it is ready, wait for the go byte,
 * append, send the verdict; end at end of file.  Exit codes: 2 store_open
 * failed, 3 the handshake broke, 4 the verdict could not be sent.
 */
static _Noreturn void racer_main(const char *path, int cmd, int res)
{
	store *s = NULL;
	store_error err;

	memset(&err, 0, sizeof err);
	if (store_open(path, &s, &err) != STORE_OK)
		_exit(2);
	for (int i = 0; i < 2 * CONFLICT_ROUNDS; i++) {
		order o;
		verdict v;
		char go;
		int r = get(cmd, &o, sizeof o);
		if (r == 0)
			break;
		if (r < 0 || put(res, "r", 1) != 0 || get(cmd, &go, 1) != 1)
			_exit(3);
		memset(&err, 0, sizeof err);
		memset(&v, 0, sizeof v);
		v.rc = store_append(s, o.id, o.seq, &o.a, mail_one, NULL,
		                    NULL, &err);
		snprintf(v.why, sizeof v.why, "%s", err.why);
		if (put(res, &v, sizeof v) != 0)
			_exit(4);
	}
	store_close(s);
	_exit(0);
}

/* Forks racer r[k]; the child closes the pipes of the racers before it,
 * or they would never see end of file. */
static void racer_start(racer *r, int k, const char *path)
{
	int c[2], v[2];

	ck_assert_msg(pipe(c) == 0 && pipe(v) == 0, "pipe: %s",
	              strerror(errno));
	pid_t pid = fork();
	ck_assert_msg(pid >= 0, "fork: %s", strerror(errno));
	if (pid == 0) {
		for (int i = 0; i < k; i++) {
			(void)close(r[i].cmd);
			(void)close(r[i].res);
		}
		(void)close(c[1]);
		(void)close(v[0]);
		racer_main(path, c[0], v[1]);
	}
	shut(c[0]);
	shut(v[1]);
	r[k].pid = pid;
	r[k].cmd = c[1];
	r[k].res = v[0];
}

/* One round: both racers append the first legal action of *g at g->seq;
 * exactly one wins and the game has one more line.  *g is reloaded. */
static void conflict_round(racer r[2], store *s, store_game *g, int round)
{
	order o;
	verdict v[2];
	store_error err;
	char ready;
	int ok = 0, conflict = 0;

	memset(&o, 0, sizeof o);
	memcpy(o.id, g->id, sizeof o.id);
	o.seq = g->seq;
	ck_assert_msg(pick(&g->state, NULL, &o.a) > 0, "round %d: no legal "
	              "action", round);
	for (int i = 0; i < 2; i++)
		ck_assert_msg(put(r[i].cmd, &o, sizeof o) == 0, "round %d: "
		              "racer %d: %s", round, i, strerror(errno));
	for (int i = 0; i < 2; i++)
		ck_assert_msg(get(r[i].res, &ready, 1) == 1 && ready == 'r',
		              "round %d: racer %d is gone", round, i);
	/* Release them in turns so neither always starts first. */
	for (int k = 0; k < 2; k++)
		ck_assert_int_eq(put(r[(round + k) % 2].cmd, "g", 1), 0);
	for (int i = 0; i < 2; i++) {
		ck_assert_msg(get(r[i].res, &v[i], sizeof v[i]) == 1,
		              "round %d: racer %d sent no verdict", round, i);
		ck_assert_msg(v[i].rc != STORE_BUSY, "round %d: racer %d got "
		              "busy within the default timeout: %s", round, i,
		              v[i].why);
		ok += v[i].rc == STORE_OK;
		conflict += v[i].rc == STORE_CONFLICT;
	}
	ck_assert_msg(ok == 1 && conflict == 1, "round %d, game %s at line "
	              "%d: %s (%s) and %s (%s)", round, o.id, o.seq,
	              store_rc_name(v[0].rc), v[0].why,
	              store_rc_name(v[1].rc), v[1].why);
	memset(&err, 0, sizeof err);
	ck_assert_msg(store_load(s, o.id, g, &err) == STORE_OK, "%s",
	              err.why);
	ck_assert_msg(g->seq == o.seq + 1, "round %d: game %s has %d lines "
	              "after an append at %d", round, o.id, g->seq, o.seq);
}

START_TEST(test_store_conflict_two_writers_one_wins)
{
	char path[PATH_BYTES];
	racer r[2];
	store_game g;
	store_error err;
	uint64_t games = 1;

	db_path("conflict.db", path);
	/* The file and its schema exist before the racers open it, and no
	 * connection is open across the forks. */
	store_close(open_store(path));
	for (int k = 0; k < 2; k++)
		racer_start(r, k, path);
	store *s = open_store(path);
	fresh_game(s, games, &g);
	for (int round = 0; round < CONFLICT_ROUNDS; round++) {
		if (g.state.status != BT_PLAYING)
			fresh_game(s, ++games, &g);
		conflict_round(r, s, &g, round);
	}
	for (int k = 0; k < 2; k++) {
		shut(r[k].cmd);
		reap_ok(r[k].pid, "racer");
		shut(r[k].res);
	}
	/* Every win is one line and one mail, and nothing else landed. */
	ck_assert_int_eq(raw_int(path, "SELECT count(*) FROM actions", NULL),
	                 CONFLICT_ROUNDS);
	ck_assert_int_eq(outbox_rows(path), CONFLICT_ROUNDS);
	memset(&err, 0, sizeof err);
	ck_assert_msg(store_check(s, NULL, NULL, &err) == STORE_OK, "%s",
	              err.why);
	store_close(s);
}
END_TEST

/* ---- crash: SIGKILL at random moments loses nothing ---------------------- */

enum { NOTE_COMMIT = 1, NOTE_ERROR };

/* A child's report: line seq of game id committed, or why it failed.
 * Small enough for one atomic pipe write, so a kill never cuts one. */
typedef struct note {
	int kind;
	int seq;
	char id[STORE_ID_LEN + 1];
	char why[300];
} note;

_Static_assert(sizeof(note) <= 512, "a note must fit PIPE_BUF");

/* Reports what failed and ends the child. */
static _Noreturn void crash_fail(int out, const char *what,
                                 const store_error *err)
{
	note n;

	memset(&n, 0, sizeof n);
	n.kind = NOTE_ERROR;
	snprintf(n.why, sizeof n.why, "%s: %s: %s", what,
	         store_rc_name(err->rc), err->why);
	(void)put(out, &n, sizeof n);
	_exit(2);
}

/* store_list callback: the game still being played (there is at most
 * one: the child creates a game only when the last one ended). */
static int find_playing(void *ctx, const store_summary *g)
{
	if (g->status != BT_PLAYING)
		return 0;
	memcpy(ctx, g->id, STORE_ID_LEN + 1);
	return 1;
}

/* The child: load, choose, append at the loaded seq, report the commit;
 * a new game when one ends; until killed.  One writer, so a conflict is
 * as much a failure as an error. */
static _Noreturn void crash_child(const char *path, int out, uint64_t rng)
{
	store *s = NULL;
	store_error err;
	store_game g;
	char id[STORE_ID_LEN + 1] = "";
	note n;

	memset(&err, 0, sizeof err);
	if (store_open(path, &s, &err) != STORE_OK)
		crash_fail(out, "store_open", &err);
	if (store_list(s, find_playing, id, &err) != STORE_OK)
		crash_fail(out, "store_list", &err);
	for (int i = 0; i < CRASH_STEPS_MAX; i++) {
		bt_action a;
		if (id[0] == '\0' && new_game(s, policy_rng_next(&rng), id, &err))
			crash_fail(out, "store_create", &err);
		if (store_load(s, id, &g, &err) != STORE_OK)
			crash_fail(out, "store_load", &err);
		if (pick(&g.state, &rng, &a) == 0) {
			id[0] = '\0';
			continue;
		}
		if (store_append(s, id, g.seq, &a, mail_one, NULL, NULL,
		                 &err) != STORE_OK)
			crash_fail(out, "store_append", &err);
		memset(&n, 0, sizeof n);
		n.kind = NOTE_COMMIT;
		n.seq = g.seq;
		memcpy(n.id, id, sizeof n.id);
		if (put(out, &n, sizeof n) != 0)
			_exit(3);
	}
	store_close(s);
	_exit(0);
}

/* The highest line each game's children reported committed. */
typedef struct seen {
	char id[STORE_ID_LEN + 1];
	int seq;
} seen;

typedef struct crash_run {
	uint64_t seed;
	int nseen;
	long commits;
	seen seen[CRASH_GAMES_MAX];
} crash_run;

/* Takes in one note: a line reported twice, or a game going backwards,
 * would be a lost or duplicated action. */
static void crash_take(crash_run *cr, const note *n)
{
	seen *e = NULL;

	ck_assert_msg(n->kind == NOTE_COMMIT, "seed %llu: the child failed: "
	              "%s", (unsigned long long)cr->seed, n->why);
	for (int i = 0; i < cr->nseen && e == NULL; i++)
		if (!strcmp(cr->seen[i].id, n->id))
			e = &cr->seen[i];
	if (e == NULL) {
		ck_assert_msg(cr->nseen < CRASH_GAMES_MAX, "too many games");
		e = &cr->seen[cr->nseen++];
		memcpy(e->id, n->id, sizeof e->id);
	} else {
		ck_assert_msg(n->seq > e->seq, "seed %llu: game %s: line %d "
		              "reported committed after line %d was: lost or "
		              "duplicated", (unsigned long long)cr->seed, n->id,
		              n->seq, e->seq);
	}
	e->seq = n->seq;
	cr->commits++;
}

/* Reads the child's notes until end of file, or until the deadline
 * unless it is negative; returns 0 at end of file, 1 at the deadline. */
static int crash_drain(crash_run *cr, int fd, double deadline)
{
	note n;

	for (int i = 0; i < CRASH_STEPS_MAX; i++) {
		if (deadline >= 0) {
			double left = deadline - now();
			if (left <= 0)
				return 1;
			struct pollfd p = { .fd = fd, .events = POLLIN };
			int r = poll(&p, 1, (int)(left * 1000) + 1);
			ck_assert_msg(r >= 0 || errno == EINTR, "poll: %s",
			              strerror(errno));
			if (r <= 0)
				continue;
		}
		int r = get(fd, &n, sizeof n);
		ck_assert_msg(r >= 0, "a note was cut short");
		if (r == 0)
			return 0;
		crash_take(cr, &n);
	}
	ck_abort_msg("more than %d notes", CRASH_STEPS_MAX);
	return 0;
}

/* One child's life: fork, let it run 0..ceiling_ms, SIGKILL, collect.
 * Returns the appends it committed. */
static long crash_once(crash_run *cr, const char *path, uint64_t *rng,
                       int ceiling_ms)
{
	int p[2];
	int delay_ms = (int)(policy_rng_next(rng) % (uint64_t)(ceiling_ms + 1));
	uint64_t child_rng = policy_rng_next(rng);
	long before = cr->commits;

	ck_assert_msg(pipe(p) == 0, "pipe: %s", strerror(errno));
	pid_t pid = fork();
	ck_assert_msg(pid >= 0, "fork: %s", strerror(errno));
	if (pid == 0) {
		(void)close(p[0]);
		crash_child(path, p[1], child_rng);
	}
	shut(p[1]);
	if (crash_drain(cr, p[0], now() + delay_ms / 1000.0))
		ck_assert_msg(kill(pid, SIGKILL) == 0, "kill: %s",
		              strerror(errno));
	int st = reap(pid);
	crash_drain(cr, p[0], -1);
	shut(p[0]);
	ck_assert_msg((WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL) ||
	              (WIFEXITED(st) && WEXITSTATUS(st) == 0),
	              "seed %llu: the child ended with status %#x",
	              (unsigned long long)cr->seed, (unsigned)st);
	return cr->commits - before;
}

/* store_check's report: keeps the first problems for the message. */
static void keep_lines(void *ctx, const char *line)
{
	char *buf = ctx;
	size_t len = strlen(buf);

	if (len + 2 < 1024)
		snprintf(buf + len, 1024 - len, "%s; ", line);
}

/* store_list callback: collects the games. */
typedef struct summaries {
	int n;
	store_summary g[CRASH_GAMES_MAX];
} summaries;

static int collect(void *ctx, const store_summary *g)
{
	summaries *all = ctx;

	ck_assert_msg(all->n < CRASH_GAMES_MAX, "too many games");
	all->g[all->n++] = *g;
	return 0;
}

/* After the kills: the file is sound, every game replays to its
 * snapshot, each reported line is there, and each game's lines, seq and
 * mails agree (an append is all or nothing). */
static void crash_verify(const crash_run *cr, const char *path)
{
	static summaries all;
	char text[1024] = "";
	store_error err;
	store_game g;

	/* the file's pages (a server was not killed: its clients were) */
	if (fixture_engine_is_sqlite())
		ck_assert_msg(raw_text(path, "PRAGMA integrity_check", NULL,
		                       text, sizeof text) == 0 &&
		              !strcmp(text, "ok"), "integrity_check: %s", text);
	store *s = open_store(path);
	text[0] = '\0';
	memset(&err, 0, sizeof err);
	ck_assert_msg(store_check(s, keep_lines, text, &err) == STORE_OK,
	              "seed %llu: store_check: %s: %s", (unsigned long
	              long)cr->seed, err.why, text);
	for (int i = 0; i < cr->nseen; i++) {
		const seen *e = &cr->seen[i];
		ck_assert_msg(store_load(s, e->id, &g, &err) == STORE_OK,
		              "game %s: %s", e->id, err.why);
		ck_assert_msg(g.seq > e->seq, "seed %llu: game %s: line %d was "
		              "reported committed, but the game has %d lines",
		              (unsigned long long)cr->seed, e->id, e->seq, g.seq);
	}
	all.n = 0;
	ck_assert_msg(store_list(s, collect, &all, &err) == STORE_OK, "%s",
	              err.why);
	for (int i = 0; i < all.n; i++) {
		const char *id = all.g[i].id;
		int64_t rows = raw_int(path, "SELECT count(*) FROM actions "
		                       "WHERE game = ?1", id);
		int64_t last = raw_int(path, "SELECT coalesce(max(seq), -1) "
		                       "FROM actions WHERE game = ?1", id);
		int64_t mails = raw_int(path, "SELECT count(*) FROM outbox "
		                        "WHERE game = ?1", id);
		ck_assert_msg(rows == all.g[i].seq && last == rows - 1 &&
		              mails == rows, "game %s: seq %d, %lld lines, the "
		              "last %lld, %lld mails", id, all.g[i].seq,
		              (long long)rows, (long long)last, (long long)mails);
	}
	store_close(s);
}

START_TEST(test_store_crash_sigkill_loses_nothing)
{
	static crash_run cr;
	char path[PATH_BYTES];
	uint64_t rng;
	int kills = 0, ceiling = CRASH_DELAY_MS, widest = CRASH_DELAY_MS;

	memset(&cr, 0, sizeof cr);
	cr.seed = rng = test_seed();
	db_path("crash.db", path);
	/* No store_open first: the first kills may land in the creation of
	 * the file and its migrations, which must survive them too.  A
	 * sanitized build beside other tests may need more than 20 ms to
	 * open the file and commit once: the ceiling of a child's life
	 * doubles after each life that committed nothing and halves after
	 * one that did, and the time budget stretches until one has. */
	double t0 = now();
	for (; kills < CRASH_KILLS; kills++) {
		double spent = now() - t0;
		if (spent >= CRASH_SECONDS_MAX ||
		    (spent >= CRASH_SECONDS && cr.commits > 0))
			break;
		if (crash_once(&cr, path, &rng, ceiling) > 0) {
			if (ceiling > CRASH_DELAY_MS)
				ceiling /= 2;
		} else if (ceiling < CRASH_DELAY_MAX_MS) {
			ceiling *= 2;
		}
		if (ceiling > widest)
			widest = ceiling;
	}
	printf("crash: %d kills in %.1f s, %ld appends committed, lives up "
	       "to %d ms (seed %llu)\n", kills, now() - t0, cr.commits,
	       widest, (unsigned long long)cr.seed);
	ck_assert_msg(cr.commits > 0, "seed %llu: no append committed in %d "
	              "runs (%.1f s, lives up to %d ms)",
	              (unsigned long long)cr.seed, kills, now() - t0, widest);
	crash_verify(&cr, path);
}
END_TEST

/* ---- busy: a lock held past the timeout ---------------------------------- */

/* What another connection holds while the store appends. */
typedef struct lock_case {
	const char *name;
	const char *sql;     /* run and held until released: SQLite's */
	const char *pg_sql;  /* ... and PostgreSQL's (the writers' lock) */
	int in_child;        /* 1: by another process, 0: by this one */
	store_rc want;       /* what an append meanwhile gives */
} lock_case;

static const lock_case lock_cases[] = {
	{ "a writer in this process", "BEGIN IMMEDIATE", sql_pg_begin_write,
	  0, STORE_BUSY },
	{ "a writer in another process", "BEGIN EXCLUSIVE",
	  sql_pg_begin_write, 1, STORE_BUSY },
	/* WAL (and MVCC): a reader holding its snapshot never blocks an
	 * append. */
	{ "a reader in another process",
	  "BEGIN; SELECT count(*) FROM actions",
	  "BEGIN ISOLATION LEVEL REPEATABLE READ;"
	  " SELECT count(*) FROM actions", 1, STORE_OK },
};

static const char *lock_sql(const lock_case *lc)
{
	return fixture_engine_is_sqlite() ? lc->sql : lc->pg_sql;
}

/* A lock holder: takes the lock, says 'l', waits for a byte (or end of
 * file), rolls back, says 'u'.  Exit codes: 2 open, 3 the lock, 4 the
 * pipes, 5 the rollback. */
static _Noreturn void holder_main(const char *path, const char *sql,
                                  int ctl, int ack)
{
	db_conn *db = raw_open(path);
	char c;

	if (db == NULL)
		_exit(2);
	if (db_exec(db, sql) != DB_OK)
		_exit(3);
	if (put(ack, "l", 1) != 0 || get(ctl, &c, 1) < 0)
		_exit(4);
	if (db_exec(db, "ROLLBACK") != DB_OK)
		_exit(5);
	db_close(db);
	_exit(put(ack, "u", 1) != 0 ? 4 : 0);
}

/* The lock being held: by a child (pid, pipes) or by this process. */
typedef struct holder {
	pid_t pid;
	int ctl, ack;
	db_conn *db;
} holder;

static void hold(holder *h, const lock_case *lc, const char *path)
{
	char c;

	memset(h, 0, sizeof *h);
	if (!lc->in_child) {
		h->db = raw_open(path);
		ck_assert_msg(h->db != NULL, "cannot open %s", path);
		ck_assert_msg(db_exec(h->db, lock_sql(lc)) == DB_OK, "%s: %s",
		              lock_sql(lc), db_errmsg(h->db));
		return;
	}
	int ctl[2], ack[2];
	ck_assert_msg(pipe(ctl) == 0 && pipe(ack) == 0, "pipe: %s",
	              strerror(errno));
	h->pid = fork();
	ck_assert_msg(h->pid >= 0, "fork: %s", strerror(errno));
	if (h->pid == 0) {
		(void)close(ctl[1]);
		(void)close(ack[0]);
		holder_main(path, lock_sql(lc), ctl[0], ack[1]);
	}
	shut(ctl[0]);
	shut(ack[1]);
	h->ctl = ctl[1];
	h->ack = ack[0];
	ck_assert_msg(get(h->ack, &c, 1) == 1 && c == 'l',
	              "the lock holder failed");
}

static void release(holder *h)
{
	char c;

	if (h->pid == 0) {
		ck_assert_int_eq(db_exec(h->db, "ROLLBACK"), DB_OK);
		db_close(h->db);
		return;
	}
	ck_assert_int_eq(put(h->ctl, "u", 1), 0);
	ck_assert_msg(get(h->ack, &c, 1) == 1 && c == 'u',
	              "the lock holder did not release");
	reap_ok(h->pid, "the lock holder");
	shut(h->ctl);
	shut(h->ack);
}

/* An append (and a create) while the lock is held: STORE_BUSY after
 * about the timeout with a reason, nothing written. */
static void append_busy(const lock_case *lc, store *s, const store_game *g,
                        const bt_action *a)
{
	store_error err;
	char id[STORE_ID_LEN + 1];

	memset(&err, 0, sizeof err);
	double t0 = now();
	store_rc rc = store_append(s, g->id, g->seq, a, mail_one, NULL, NULL,
	                           &err);
	double took = now() - t0;
	ck_assert_msg(rc == lc->want, "%s: append gave %s (%s), wanted %s",
	              lc->name, store_rc_name(rc), err.why,
	              store_rc_name(lc->want));
	/* The bound is what tells the 200 ms timeout from the default one
	 * (STORE_BUSY_TIMEOUT_MS); a loaded machine adds to the 200 ms. */
	ck_assert_msg(took < STORE_BUSY_TIMEOUT_MS / 1000.0 - 0.5, "%s: append "
	              "took %.2f s with a 200 ms timeout", lc->name, took);
	if (lc->want != STORE_BUSY)
		return;
	ck_assert_msg(err.rc == STORE_BUSY && strlen(err.why) > 0,
	              "%s: err.rc %s, why \"%s\"", lc->name,
	              store_rc_name(err.rc), err.why);
	ck_assert_msg(took > 0.1, "%s: busy after %.3f s, before the "
	              "200 ms timeout", lc->name, took);
	memset(&err, 0, sizeof err);
	rc = new_game(s, 99, id, &err);
	ck_assert_msg(rc == STORE_BUSY && strlen(err.why) > 0, "%s: create "
	              "gave %s (%s)", lc->name, store_rc_name(rc), err.why);
}

START_TEST(test_store_busy_past_timeout)
{
	const lock_case *lc = &lock_cases[_i];
	char path[PATH_BYTES], name[64];
	store_game g, after;
	store_error err;
	holder h;
	bt_action a;

	snprintf(name, sizeof name, "busy-%d.db", _i);
	db_path(name, path);
	store *s = open_store(path);
	fresh_game(s, 7, &g);
	store_close(s);     /* no connection across the holder's fork */
	int64_t mails = outbox_rows(path), games = game_rows(path);
	hold(&h, lc, path);
	s = open_store(path);
	store_set_busy_timeout(s, 200);
	ck_assert_int_gt(pick(&g.state, NULL, &a), 0);
	append_busy(lc, s, &g, &a);
	release(&h);
	int wrote = lc->want == STORE_OK;
	memset(&err, 0, sizeof err);
	ck_assert_int_eq(store_load(s, g.id, &after, &err), STORE_OK);
	ck_assert_int_eq(after.seq, g.seq + wrote);
	ck_assert_int_eq(outbox_rows(path), mails + wrote);
	ck_assert_int_eq(game_rows(path), games);
	if (!wrote) {
		store_rc rc = store_append(s, g.id, g.seq, &a, mail_one, NULL,
		                           &after, &err);
		ck_assert_msg(rc == STORE_OK, "%s: retry: %s (%s)", lc->name,
		              store_rc_name(rc), err.why);
		ck_assert_int_eq(after.seq, g.seq + 1);
		ck_assert_int_eq(outbox_rows(path), mails + 1);
	}
	store_close(s);
}
END_TEST

/* ---- stale, illegal, failed mail: nothing written, nothing queued -------- */

/* The illegal variants of legal action a: each is refused by the engine,
 * which names a rule. */
static int illegal_variants(const bt_game *g, const bt_action *a,
                            bt_action out[3])
{
	int n = 0;

	out[n] = *a;    /* not this seat's turn */
	out[n++].seat = (uint8_t)(g->turn % g->players + 1);
	out[n] = *a;    /* work with a card is malformed */
	out[n].verb = BT_WORK;
	out[n++].card = 0;
	out[n] = *a;    /* a log below the target, or work at it */
	out[n].verb = (uint8_t)(g->effort < g->target ? BT_LOG : BT_WORK);
	out[n].card = BT_NO_CARD;
	out[n++].nargs = 0;
	return n;
}

/* An append that must give want and leave the game and outbox alone. */
static void append_refused(store *s, const char *path, const store_game *g,
                           int seq, const bt_action *a, mailer *m,
                           store_rc want, const char *what)
{
	store_error err;
	store_game now_g;
	int64_t mails = outbox_rows(path);

	memset(&err, 0, sizeof err);
	store_rc rc = store_append(s, g->id, seq, a, mail_one, m, NULL, &err);
	ck_assert_msg(rc == want, "%s: %s (%s), wanted %s", what,
	              store_rc_name(rc), err.why, store_rc_name(want));
	ck_assert_msg(strlen(err.why) > 0, "%s: no reason given", what);
	if (want == STORE_ILLEGAL) {
		bt_error e;
		memset(&e, 0, sizeof e);
		ck_assert_msg(bt_check(&g->state, a, &e) != 0, "%s is legal",
		              what);
		ck_assert_msg(err.game.rule == e.rule && e.rule != 0 &&
		              err.game.code == e.code, "%s: rule R%d code %d, "
		              "the engine says R%d code %d", what,
		              err.game.rule, (int)err.game.code, e.rule,
		              (int)e.code);
	}
	ck_assert_int_eq(outbox_rows(path), mails);
	ck_assert_int_eq(store_load(s, g->id, &now_g, &err), STORE_OK);
	ck_assert_msg(now_g.seq == g->seq, "%s: the game went from %d to %d "
	              "lines", what, g->seq, now_g.seq);
}

/* A legal append at g->seq that commits with its one mail. */
static void append_commits(store *s, const char *path, store_game *g,
                           mailer *m)
{
	store_game after;
	store_error err;
	bt_action a;
	int64_t mails = outbox_rows(path);
	int calls = m->calls;

	memset(&err, 0, sizeof err);
	ck_assert_int_gt(pick(&g->state, NULL, &a), 0);
	store_rc rc = store_append(s, g->id, g->seq, &a, mail_one, m, &after,
	                           &err);
	ck_assert_msg(rc == STORE_OK, "%s: %s", store_rc_name(rc), err.why);
	ck_assert_int_eq(after.seq, g->seq + 1);
	ck_assert_int_eq(after.state.actions, g->state.actions + 1);
	ck_assert_int_eq(m->calls, calls + 1);
	ck_assert_int_eq(outbox_rows(path), mails + 1);
	*g = after;
}

START_TEST(test_store_append_rejects_stale_state)
{
	char path[PATH_BYTES];
	store_game g, stale;
	bt_action a, bad[3];
	mailer m = { 0, 0 };

	db_path("stale.db", path);
	store *s = open_store(path);
	fresh_game(s, 11, &g);
	stale = g;
	ck_assert_int_gt(pick(&stale.state, NULL, &a), 0);
	append_commits(s, path, &g, &m);

	/* The same action on the state it was chosen in, which is gone. */
	append_refused(s, path, &g, stale.seq, &a, &m, STORE_CONFLICT,
	               "a stale seq");
	append_refused(s, path, &g, g.seq + 1, &a, &m, STORE_CONFLICT,
	               "a seq from the future");
	append_refused(s, path, &g, -1, &a, &m, STORE_CONFLICT,
	               "a negative seq");

	ck_assert_int_gt(pick(&g.state, NULL, &a), 0);
	int n = illegal_variants(&g.state, &a, bad);
	for (int i = 0; i < n; i++) {
		char what[64];
		snprintf(what, sizeof what, "illegal variant %d", i);
		append_refused(s, path, &g, g.seq, &bad[i], &m,
		               STORE_ILLEGAL, what);
	}

	/* A mail that cannot be built takes the move back with it. */
	int calls = m.calls;
	m.ret = -1;
	append_refused(s, path, &g, g.seq, &a, &m, STORE_ERROR,
	               "a failing mail_fn");
	ck_assert_int_eq(m.calls, calls + 1);
	m.ret = 0;
	append_commits(s, path, &g, &m);

	store_error err;
	memset(&err, 0, sizeof err);
	ck_assert_int_eq(store_append(s, "AAAAAAAAAAAAAAAAAAAAAA", 0, &a,
	                              mail_one, &m, NULL, &err),
	                 STORE_NOT_FOUND);
	ck_assert_int_eq(outbox_rows(path), 2);
	ck_assert_msg(store_check(s, NULL, NULL, &err) == STORE_OK, "%s",
	              err.why);
	store_close(s);
}
END_TEST

/* ---- the suite -------------------------------------------------------------- */

static TCase *stress_tcase(Suite *s, const char *name, double timeout)
{
	TCase *tc = tcase_create(name);

	tcase_add_unchecked_fixture(tc, scratch_setup, scratch_teardown);
	tcase_set_timeout(tc, timeout);
	suite_add_tcase(s, tc);
	return tc;
}

static Suite *stress_suite(void)
{
	Suite *s = suite_create("store_stress");

	tcase_add_test(stress_tcase(s, "conflict", 60),
	               test_store_conflict_two_writers_one_wins);
	tcase_add_test(stress_tcase(s, "crash", 240),
	               test_store_crash_sigkill_loses_nothing);
	tcase_add_loop_test(stress_tcase(s, "busy", 30),
	                    test_store_busy_past_timeout, 0,
	                    (int)(sizeof lock_cases / sizeof lock_cases[0]));
	tcase_add_test(stress_tcase(s, "stale", 30),
	               test_store_append_rejects_stale_state);
	return s;
}

int main(void)
{
	struct sigaction sa;

	if (sodium_init() < 0)
		return EXIT_FAILURE;
	/* A child that died must show as a failed write, not kill the
	 * test with SIGPIPE. */
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = SIG_IGN;
	if (sigemptyset(&sa.sa_mask) != 0 || sigaction(SIGPIPE, &sa, NULL))
		return EXIT_FAILURE;
	SRunner *sr = srunner_create(stress_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
