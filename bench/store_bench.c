/*
 * store_bench.c - what the SQLite store costs, next to SQLite itself in
 * the same run on the same disk.  Prints numbers and labels only; slow
 * is never a failure, an error is (exit 1).
 *
 *   store_bench [--quick] [--dir DIR] [--secs S]
 *
 * In a new directory under DIR (else TMPDIR, else /tmp), with WAL:
 *   raw    one-row transactions (BEGIN IMMEDIATE; INSERT; COMMIT) with
 *          synchronous=FULL, as the store runs, and NORMAL for comparison;
 *   append store_append with one outbox mail, and its ratio to raw FULL;
 *   load   store_load of the longest game found;
 *   8 processes appending to 8 games, then to one game (retrying a
 *          conflict with a fresh load), for S seconds (3; --quick 0.3):
 *          appends/s, the p50/p99/max latency of a successful append
 *          (retries included), the longest any move waited, and the
 *          fewest appends one process made (fairness).
 * The single-process numbers are medians of several runs.
 *
 * Every append plays a script: the longest of many random 6-player games
 * played in memory, replayed in the store from the same seed, so each
 * game is as long as games get and each move is legal by construction
 * (the store still checks it, as it must).
 */
#include <errno.h>
#include <dirent.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <sodium.h>
#include <sqlite3.h>

#include "game.h"
#include "record.h"
#include "policy.h"   /* policy_rng_next: splitmix64 */
#include "store.h"
#include "sql.h"  /* store_load_replayed: the path without snapshots */

enum {
	PATH_BYTES = 600,
	PROCS = 8,
	OPS_MAX = 100000000,      /* bound on any timed loop's iterations */
	RETRIES_MAX = 100000,     /* conflicts one move may meet */
	LAT_MAX = 1 << 20,        /* latencies one process keeps */
	POOL_MAX = 50000,         /* games made ready for the processes */
	RUNS_MAX = 16,
	FILES_MAX = 10000
};

typedef struct opts {
	int runs;              /* single-process runs, their median printed */
	double run_secs;       /* length of each */
	double multi_secs;     /* length of each many-process run */
	int search;            /* random games searched for the script */
	const char *parent;    /* where the scratch directory goes */
} opts;

/* The game every append plays. */
typedef struct script {
	char seed[BT_SEED_TEXT_MAX + 1];
	int n;
	bt_action a[BT_RECORD_MAX_ITEMS];
} script;

enum { SCRIPT_PLAYERS = 6 };

static script play;
static char dir[PATH_BYTES];
static pid_t main_pid;

/* ---- tools ---------------------------------------------------------------- */

static void cleanup(void);

/* Prints the error and ends: the main process cleans up first, a forked
 * one leaves at once (never through exit(), which would run the
 * parent's stdio and atexit state a second time). */
__attribute__((format(printf, 1, 2), noreturn))
static void die(const char *fmt, ...)
{
	va_list ap;

	fputs("store_bench: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	if (getpid() != main_pid)
		_exit(1);
	cleanup();
	exit(1);
}

/* Seconds on the monotonic clock. */
static double now(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_MONOTONIC, &ts) != 0)
		die("clock_gettime: %s", strerror(errno));
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The median of v[0..n-1] (sorts v). */
static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof *v, cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* The path of name in the scratch directory. */
static void path_of(const char *name, char out[PATH_BYTES])
{
	int n = snprintf(out, PATH_BYTES, "%s/%s", dir, name);

	if (n < 0 || n >= PATH_BYTES)
		die("path too long: %s/%s", dir, name);
}

/* Removes the scratch directory's files and itself (main process). */
static void cleanup(void)
{
	char path[2 * PATH_BYTES];

	if (dir[0] == '\0')
		return;
	DIR *d = opendir(dir);
	struct dirent *e;
	for (int i = 0; d != NULL && i < FILES_MAX &&
	     (e = readdir(d)) != NULL; i++) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		int n = snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
		if (n > 0 && (size_t)n < sizeof path && unlink(path) != 0)
			fprintf(stderr, "store_bench: unlink %s: %s\n", path,
			        strerror(errno));
	}
	if (d != NULL && closedir(d) != 0)
		fprintf(stderr, "store_bench: closedir: %s\n", strerror(errno));
	if (rmdir(dir) != 0)
		fprintf(stderr, "store_bench: rmdir %s: %s\n", dir,
		        strerror(errno));
	dir[0] = '\0';
}

/* Writes all n bytes to fd; 0 or -1. */
static int put(int fd, const void *p, size_t n)
{
	const char *c = p;

	for (int i = 0; n > 0 && i < 1000; i++) {
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

/* ---- the script ------------------------------------------------------------ */

/* Plays g out with random legal moves (rng), recording them into out
 * (may be NULL); returns the number of moves. */
static int play_out(bt_game *g, uint64_t *rng, bt_action *out)
{
	static bt_action legal[BT_MAX_LEGAL];
	bt_error err;
	int n = 0;

	for (; n < BT_RECORD_MAX_ITEMS && g->status == BT_PLAYING; n++) {
		int k = bt_legal(g, legal, BT_MAX_LEGAL);
		if (k == 0)
			break;
		const bt_action *a = &legal[policy_rng_next(rng) % (uint64_t)k];
		if (out != NULL)
			out[n] = *a;
		if (bt_apply_legal(g, a, &err))
			die("the engine refused its own move: %s", err.why);
	}
	return n;
}

/* Game i of the search: its key and the policy's generator. */
static void search_game(int i, uint8_t key[BT_KEY_BYTES], uint64_t *rng)
{
	uint64_t s = 20240601u + (uint64_t)i;

	for (int j = 0; j < BT_KEY_BYTES; j += 8) {
		uint64_t v = policy_rng_next(&s);
		memcpy(key + j, &v, 8);
	}
	*rng = policy_rng_next(&s);
}

/* Finds the longest of o->search random games into play. */
static void find_script(const opts *o)
{
	uint8_t key[BT_KEY_BYTES];
	uint64_t rng;
	bt_game g;
	bt_error err;
	int best = -1, best_n = 0;

	for (int i = 0; i < o->search; i++) {
		search_game(i, key, &rng);
		if (bt_game_new(&g, SCRIPT_PLAYERS, 1, key, &err))
			die("bt_game_new: %s", err.why);
		int n = play_out(&g, &rng, NULL);
		if (n > best_n) {
			best = i;
			best_n = n;
		}
	}
	if (best < 0)
		die("no random game lasted a move");
	search_game(best, key, &rng);
	if (bt_game_new(&g, SCRIPT_PLAYERS, 1, key, &err))
		die("bt_game_new: %s", err.why);
	play.n = play_out(&g, &rng, play.a);
	bt_seed_hex(key, play.seed);
}

/* ---- the store ---------------------------------------------------------- */

static store *open_store(const char *path)
{
	store *s = NULL;
	store_error err;

	memset(&err, 0, sizeof err);
	if (store_open(path, &s, &err) != STORE_OK)
		die("store_open %s: %s", path, err.why);
	return s;
}

/* A new game of the script's seed. */
static void new_game(store *s, char id[STORE_ID_LEN + 1])
{
	store_new_game ng;
	store_error err;

	memset(&ng, 0, sizeof ng);
	memset(&err, 0, sizeof err);
	ng.players = SCRIPT_PLAYERS;
	ng.first = 1;
	ng.seed = play.seed;
	if (store_create(s, &ng, id, &err) != STORE_OK)
		die("store_create: %s", err.why);
}

/* A store_mail_fn: one mail per move, as the server queues. */
static int mail_one(void *ctx, const store_game *before,
                    const bt_game *after, const bt_action *a,
                    store_mail *out, int max)
{
	(void)ctx;
	if (max < 1)
		return 0;
	out->seat = a->seat;
	snprintf(out->to, sizeof out->to, "seat%d@example.org", a->seat);
	snprintf(out->subject, sizeof out->subject, "Your turn in %s",
	         before->id);
	snprintf(out->body, sizeof out->body, "Round %d, seat %d to move.\n",
	         after->round, after->turn);
	return 1;
}

/* Appends move k of the script at seq k; the store's code. */
static store_rc append(store *s, const char *id, int k, store_error *err)
{
	if (k < 0 || k >= play.n)
		die("game %s went past the script (line %d of %d)", id, k,
		    play.n);
	return store_append(s, id, k, &play.a[k], mail_one, NULL, NULL, err);
}

/* ---- raw SQLite --------------------------------------------------------- */

/* Steps st to the end and resets it; dies with SQLite's message. */
static void run(sqlite3 *db, sqlite3_stmt *st)
{
	int rc = sqlite3_step(st);

	if (rc != SQLITE_DONE)
		die("sqlite: %s", sqlite3_errmsg(db));
	if (sqlite3_reset(st) != SQLITE_OK)
		die("sqlite: %s", sqlite3_errmsg(db));
}

/* Opens path with the store's settings but synchronous=sync. */
static sqlite3 *raw_open(const char *path, const char *sync)
{
	char sql[512];
	sqlite3 *db = NULL;

	snprintf(sql, sizeof sql, "PRAGMA journal_mode=WAL;"
	         "PRAGMA synchronous=%s; PRAGMA foreign_keys=ON;"
	         "CREATE TABLE IF NOT EXISTS lines (game TEXT NOT NULL,"
	         " seq INTEGER NOT NULL, line TEXT NOT NULL,"
	         " created INTEGER NOT NULL, PRIMARY KEY (game, seq))"
	         " STRICT, WITHOUT ROWID", sync);
	if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE |
	                    SQLITE_OPEN_CREATE, NULL) != SQLITE_OK ||
	    sqlite3_busy_timeout(db, STORE_BUSY_TIMEOUT_MS) != SQLITE_OK ||
	    sqlite3_exec(db, sql, NULL, NULL, NULL) != SQLITE_OK)
		die("%s: %s", path, db ? sqlite3_errmsg(db) : "no memory");
	return db;
}

/* One-row transactions per second for secs; game names the run. */
static double raw_rate(sqlite3 *db, const char *game, double secs)
{
	sqlite3_stmt *st[3] = { NULL, NULL, NULL };
	static const char *const sql[3] = {
		"BEGIN IMMEDIATE",
		"INSERT INTO lines (game, seq, line, created) "
		"VALUES (?1, ?2, '2 special X13 S05 S24 S11', 1717200000)",
		"COMMIT"
	};
	int i;

	for (i = 0; i < 3; i++)
		if (sqlite3_prepare_v2(db, sql[i], -1, &st[i], NULL) !=
		    SQLITE_OK)
			die("%s: %s", sql[i], sqlite3_errmsg(db));
	if (sqlite3_bind_text(st[1], 1, game, -1, SQLITE_STATIC) != SQLITE_OK)
		die("bind: %s", sqlite3_errmsg(db));
	double t0 = now(), t = 0;
	for (i = 0; i < OPS_MAX && t < secs; i++) {
		if (sqlite3_bind_int(st[1], 2, i) != SQLITE_OK)
			die("bind: %s", sqlite3_errmsg(db));
		run(db, st[0]);
		run(db, st[1]);
		run(db, st[2]);
		t = now() - t0;
	}
	for (int k = 0; k < 3; k++)
		sqlite3_finalize(st[k]);
	return i / t;
}

/* The median over o->runs of raw_rate with synchronous=sync. */
static double raw_median(const opts *o, const char *sync)
{
	char path[PATH_BYTES], game[32];
	double r[RUNS_MAX];

	snprintf(game, sizeof game, "raw-%s.db", sync);
	path_of(game, path);
	sqlite3 *db = raw_open(path, sync);
	for (int i = 0; i < o->runs; i++) {
		snprintf(game, sizeof game, "run%d", i);
		r[i] = raw_rate(db, game, o->run_secs);
	}
	if (sqlite3_close(db) != SQLITE_OK)
		die("sqlite3_close: %s", sqlite3_errmsg(db));
	return median(r, o->runs);
}

/* ---- one process --------------------------------------------------------- */

/* store_append per second over secs of time spent in it (making the
 * games is not counted). */
static double append_rate(store *s, double secs)
{
	char id[STORE_ID_LEN + 1];
	store_error err;
	double spent = 0;
	long n = 0;

	for (int g = 0; g < OPS_MAX && spent < secs; g++) {
		new_game(s, id);
		for (int k = 0; k < play.n && spent < secs; k++, n++) {
			double t0 = now();
			store_rc rc = append(s, id, k, &err);
			spent += now() - t0;
			if (rc != STORE_OK)
				die("store_append: %s: %s", store_rc_name(rc),
				    err.why);
		}
	}
	return (double)n / spent;
}

typedef store_rc (*load_fn)(store *, const char *, store_game *,
                            store_error *);

/* Loads per second of game id through load, for secs. */
static double load_rate(store *s, const char *id, double secs, load_fn load)
{
	static store_game g;
	store_error err;
	double t0 = now(), t = 0;
	int i;

	for (i = 0; i < OPS_MAX && t < secs; i++) {
		if (load(s, id, &g, &err) != STORE_OK)
			die("store_load: %s", err.why);
		t = now() - t0;
	}
	if (g.seq != play.n)
		die("the loaded game has %d lines, not %d", g.seq, play.n);
	return i / t;
}

/* Appends and loads, one process; returns the append rate. */
static double single(const opts *o, double raw_full, double raw_normal)
{
	char path[PATH_BYTES], id[STORE_ID_LEN + 1];
	double r[RUNS_MAX];
	store_error err;

	path_of("single.db", path);
	store *s = open_store(path);
	for (int i = 0; i < o->runs; i++)
		r[i] = append_rate(s, o->run_secs);
	double rate = median(r, o->runs);
	printf("store_append with one mail, synchronous=FULL: %.0f appends/s"
	       " (%.2f of raw FULL)\n", rate, rate / raw_full);
	if (store_set_sync(s, STORE_SYNC_NORMAL, &err) != STORE_OK)
		die("store_set_sync: %s", err.why);
	for (int i = 0; i < o->runs; i++)
		r[i] = append_rate(s, o->run_secs);
	double normal = median(r, o->runs);
	printf("store_append with one mail, synchronous=NORMAL: %.0f appends/s"
	       " (%.2f of raw NORMAL)\n", normal, normal / raw_normal);
	if (store_set_sync(s, STORE_SYNC_FULL, &err) != STORE_OK)
		die("store_set_sync: %s", err.why);

	new_game(s, id);
	for (int k = 0; k < play.n; k++)
		if (append(s, id, k, &err) != STORE_OK)
			die("store_append: %s", err.why);
	for (int i = 0; i < o->runs; i++)
		r[i] = load_rate(s, id, o->run_secs, store_load);
	double snap = median(r, o->runs);
	printf("store_load of a %d-line game: %.0f loads/s\n", play.n, snap);
	/* The design choice: what loading would cost without the snapshot,
	 * replaying every line from the seed. */
	for (int i = 0; i < o->runs; i++)
		r[i] = load_rate(s, id, o->run_secs, store_load_replayed);
	double full = median(r, o->runs);
	printf("  the same game replayed from its seed: %.0f loads/s"
	       " (%.1f us per load, %.2f us per line; the snapshot is"
	       " %.1fx faster)\n", full, 1e6 / full, 1e6 / full / play.n,
	       snap / full);
	store_close(s);
	return rate;
}

/* ---- many processes -------------------------------------------------------- */

/*
 * What one process did; the latencies of its successful appends follow
 * it in its file.  A move that ends without an append (the game ended
 * while it waited: someone else's move was the last) is no success, but
 * its wait counts in wait_max: a player would have waited that long.
 */
typedef struct tally {
	long ok, conflicts, busy;
	double wait_max;  /* the longest move, landed or not */
	int ran_out;      /* 1: it played every game it was given */
	int n;            /* latencies kept */
} tally;

/* The games made ready before the processes start. */
typedef struct pool {
	int n;
	char (*id)[STORE_ID_LEN + 1];
} pool;

/*
 * One successful append to game id, retrying a conflict or busy with a
 * fresh load: 1 when a move landed, 0 if the game is over.
 */
static int move(store *s, const char *id, tally *t)
{
	static store_game g;
	store_error err;

	for (int i = 0; i < RETRIES_MAX; i++) {
		if (store_load(s, id, &g, &err) != STORE_OK)
			die("store_load: %s", err.why);
		if (g.state.status != BT_PLAYING)
			return 0;
		store_rc rc = append(s, id, g.seq, &err);
		if (rc == STORE_OK)
			return 1;
		if (rc == STORE_CONFLICT)
			t->conflicts++;
		else if (rc == STORE_BUSY)
			t->busy++;
		else
			die("store_append: %s: %s", store_rc_name(rc), err.why);
	}
	die("%d conflicts in a row on game %s", RETRIES_MAX, id);
}

/* Where process k leaves its tally. */
static void tally_path(int k, char out[PATH_BYTES])
{
	char name[32];

	snprintf(name, sizeof name, "tally-%d", k);
	path_of(name, out);
}

/* Writes t and lat[0..t->n-1] to process k's file. */
static void tally_write(int k, const tally *t, const double *lat)
{
	char path[PATH_BYTES];

	tally_path(k, path);
	FILE *f = fopen(path, "wb");
	if (f == NULL || fwrite(t, sizeof *t, 1, f) != 1 ||
	    fwrite(lat, sizeof *lat, (size_t)t->n, f) != (size_t)t->n ||
	    fclose(f) != 0)
		die("%s: %s", path, strerror(errno));
}

/* Process k of PROCS: opens the store, says ready, waits for the start
 * (end of file on go), moves for secs through its games (all of them in
 * turn if same, else every PROCS-th from k), leaves its tally. */
static _Noreturn void worker(int k, int same, const pool *p, double secs,
                             const char *db, int ready, int go)
{
	double *lat = malloc(LAT_MAX * sizeof *lat);
	tally t;
	char c;
	int g = same ? 0 : k;

	if (lat == NULL)
		die("out of memory");
	memset(&t, 0, sizeof t);
	store *s = open_store(db);
	if (put(ready, "r", 1) != 0 || read(go, &c, 1) != 0)
		die("the start signal broke");
	double end = now() + secs;
	for (int i = 0; i < OPS_MAX && t.n < LAT_MAX; i++) {
		double t0 = now();
		if (t0 >= end)
			break;
		if (g >= p->n) {
			t.ran_out = 1;
			break;
		}
		int landed = move(s, p->id[g], &t);
		double took = now() - t0;
		t.wait_max = took > t.wait_max ? took : t.wait_max;
		if (landed) {
			lat[t.n++] = took;
			t.ok++;
		} else {
			g += same ? 1 : PROCS;
		}
	}
	store_close(s);
	tally_write(k, &t, lat);
	free(lat);
	_exit(0);
}

/* Makes n games of the script in db, none open across the forks. */
static void pool_make(pool *p, const char *db, int n)
{
	p->n = n;
	p->id = calloc((size_t)n, sizeof *p->id);
	if (p->id == NULL)
		die("out of memory");
	store *s = open_store(db);
	for (int i = 0; i < n; i++)
		new_game(s, p->id[i]);
	store_close(s);
}

/* Forks the PROCS workers, starts them together, waits for them;
 * returns the seconds from the start to the last one's end. */
static double run_workers(int same, const pool *p, double secs,
                          const char *db)
{
	int ready[2], go[2];
	pid_t pid[PROCS];
	char c;

	if (pipe(ready) != 0 || pipe(go) != 0)
		die("pipe: %s", strerror(errno));
	if (fflush(stdout) != 0)
		die("stdout: %s", strerror(errno));
	for (int k = 0; k < PROCS; k++) {
		pid[k] = fork();
		if (pid[k] < 0)
			die("fork: %s", strerror(errno));
		if (pid[k] == 0) {
			(void)close(ready[0]);
			(void)close(go[1]);
			worker(k, same, p, secs, db, ready[1], go[0]);
		}
	}
	if (close(ready[1]) != 0 || close(go[0]) != 0)
		die("close: %s", strerror(errno));
	for (int k = 0; k < PROCS; k++)
		if (read(ready[0], &c, 1) != 1)
			die("a worker did not start");
	/* Every worker blocks reading go: closing it starts them all. */
	double t0 = now();
	if (close(go[1]) != 0 || close(ready[0]) != 0)
		die("close: %s", strerror(errno));
	for (int k = 0; k < PROCS; k++) {
		int st = 0;
		if (waitpid(pid[k], &st, 0) != pid[k])
			die("waitpid: %s", strerror(errno));
		if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
			die("worker %d failed (status %#x)", k, (unsigned)st);
	}
	return now() - t0;
}

/* Reads the workers' tallies into *sum (and the fewest appends of one
 * process into *fewest) and all their latencies into a new array (*n of
 * them). */
static double *tally_read(tally *sum, long *fewest, int *n)
{
	double *all = NULL;
	char path[PATH_BYTES];
	tally t;

	memset(sum, 0, sizeof *sum);
	*n = 0;
	for (int k = 0; k < PROCS; k++) {
		tally_path(k, path);
		FILE *f = fopen(path, "rb");
		if (f == NULL || fread(&t, sizeof t, 1, f) != 1 ||
		    t.n < 0 || t.n > LAT_MAX)
			die("%s: unreadable", path);
		double *more = realloc(all, ((size_t)*n + (size_t)t.n + 1) *
		                       sizeof *all);
		if (more == NULL)
			die("out of memory");
		all = more;
		if (fread(all + *n, sizeof *all, (size_t)t.n, f) !=
		    (size_t)t.n || fclose(f) != 0)
			die("%s: short", path);
		*n += t.n;
		*fewest = k == 0 || t.ok < *fewest ? t.ok : *fewest;
		sum->ok += t.ok;
		sum->conflicts += t.conflicts;
		sum->busy += t.busy;
		sum->ran_out |= t.ran_out;
		sum->wait_max = t.wait_max > sum->wait_max ? t.wait_max
		                                           : sum->wait_max;
	}
	return all;
}

/* The q-quantile (0..1) of sorted v[0..n-1], in ms. */
static double quantile_ms(const double *v, int n, double q)
{
	int i = (int)(q * n);

	return n == 0 ? 0 : v[i < n ? i : n - 1] * 1e3;
}

/* PROCS processes for secs on PROCS games (same = 0) or one (same = 1);
 * pool_games: how many games to make ready.  Throughput is over the
 * wall time until the last process ended (a move begun before the end
 * finishes); a process that waited through the whole run shows as
 * "fewest 0" and in the longest wait. */
static void multi(int same, double secs, int pool_games)
{
	char db[PATH_BYTES];
	pool p;
	tally sum;
	long fewest = 0;
	int n;

	path_of(same ? "multi-same.db" : "multi-apart.db", db);
	pool_make(&p, db, pool_games);
	double wall = run_workers(same, &p, secs, db);
	double *lat = tally_read(&sum, &fewest, &n);
	qsort(lat, (size_t)n, sizeof *lat, cmp_double);
	printf("%d processes, %s, %.1f s: %.0f appends/s, p50 %.2f ms, "
	       "p99 %.2f ms, max %.2f ms\n", PROCS,
	       same ? "1 game" : "8 games", wall, (double)sum.ok / wall,
	       quantile_ms(lat, n, 0.5), quantile_ms(lat, n, 0.99),
	       quantile_ms(lat, n, 1));
	printf("  longest wait %.2f ms; appends per process: fewest %ld, "
	       "mean %.0f; %ld conflicts, %ld busy%s\n", sum.wait_max * 1e3,
	       fewest, (double)sum.ok / PROCS, sum.conflicts, sum.busy,
	       sum.ran_out ? ", ran out of games" : "");
	free(lat);
	free(p.id);
}

/* ---- main ---------------------------------------------------------------- */

static int usage(void)
{
	fputs("usage: store_bench [--quick] [--dir DIR] [--secs S]\n",
	      stderr);
	return 2;
}

/* Parses the options into *o; 0, or -1 on a bad one. */
static int parse(int argc, char **argv, opts *o)
{
	const char *tmp = getenv("TMPDIR");

	o->runs = 5;
	o->run_secs = 0.5;
	o->multi_secs = 3;
	o->search = 20000;
	o->parent = tmp != NULL && *tmp != '\0' ? tmp : "/tmp";
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--quick")) {
			o->runs = 1;
			o->run_secs = 0.1;
			o->multi_secs = 0.3;
			o->search = 1000;
		} else if (!strcmp(argv[i], "--dir") && i + 1 < argc) {
			o->parent = argv[++i];
		} else if (!strcmp(argv[i], "--secs") && i + 1 < argc) {
			char *end;
			o->multi_secs = strtod(argv[++i], &end);
			if (*end != '\0' || !(o->multi_secs >= 0.1 &&
			                      o->multi_secs <= 600))
				return -1;
		} else {
			return -1;
		}
	}
	return 0;
}

/* Enough games that no worker runs out at rate appends/s (the one
 * process's): twice what it could play, for each process. */
static int pool_size(double rate, double secs)
{
	double per = rate * secs * 2 / play.n + 2;
	double n = per * PROCS;

	return n > POOL_MAX ? POOL_MAX : (int)n;
}

int main(int argc, char **argv)
{
	opts o;

	main_pid = getpid();
	if (parse(argc, argv, &o) != 0)
		return usage();
	if (sodium_init() < 0)
		die("sodium_init failed");
	int n = snprintf(dir, sizeof dir, "%s/bt-bench.XXXXXX", o.parent);
	if (n < 0 || n >= (int)sizeof dir || mkdtemp(dir) == NULL) {
		dir[0] = '\0';
		die("mkdtemp in %s: %s", o.parent, strerror(errno));
	}
	find_script(&o);
	printf("store bench: WAL, median of %d runs of %.1f s, in %s\n",
	       o.runs, o.run_secs, dir);
	printf("script: %d players, %d lines (the longest of %d random "
	       "games)\n", SCRIPT_PLAYERS, play.n, o.search);
	double full = raw_median(&o, "FULL");
	printf("raw one-row transactions, synchronous=FULL: %.0f tx/s\n",
	       full);
	double normal = raw_median(&o, "NORMAL");
	printf("raw one-row transactions, synchronous=NORMAL: %.0f tx/s\n",
	       normal);
	double rate = single(&o, full, normal);
	int games = pool_size(rate, o.multi_secs);
	multi(0, o.multi_secs, games);
	multi(1, o.multi_secs, games);
	cleanup();
	return fflush(stdout) == 0 ? 0 : 1;
}
