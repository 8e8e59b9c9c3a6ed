/*
 * sim.c - `buffertime sim`: plays many games with a policy and reports
 * win rates and speed.
 *
 * Everything follows from the seed S: game i of player count p gets the
 * shuffle key made of S, p and i laid out in bytes (ChaCha20 streams of
 * distinct keys are independent, and a hash per game would cost more
 * than the game), the policy PRNG seeded from a mix of the three, and
 * First Player 1 + i % p.  Each game depends on nothing else, and the
 * tallies are sums, so the results are the same whatever --jobs is.
 * The search bot's seed for each decision is the next number of the
 * game's policy PRNG, so a budget in rollouts keeps that true (a budget
 * in milliseconds does not: it depends on the machine's speed).
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <sodium.h>

#include "cli.h"
#include "game.h"
#include "policy.h"
#include "record.h"
#include "search.h"

enum {
	SIM_MAX_JOBS = 256,
	SIM_CHUNK = 256,            /* games a job takes at a time */
	SIM_MAX_ACTIONS = 4000,     /* a game longer than this is a bug */
	SIM_PROGRESS_NS = 100000000, /* redraw progress at most 10 times/s */
	/* decision times: a histogram over log10(seconds) from 1e-7 s,
	 * HIST_STEPS buckets per decade, enough for medians within 3% */
	HIST_STEPS = 40,
	HIST_N = 10 * HIST_STEPS
};
#define SIM_MAX_GAMES UINT64_C(1000000000000)
#define SIM_MAX_REPLAY_LOOPS UINT64_C(1000000)
_Static_assert(BOT_DEFAULT_ROLLOUTS == 4000, "sim_usage names the default");

static const char sim_usage[] =
	"usage: buffertime sim --games N --players N|all\n"
	"                      --policy random|greedy|search|clairvoyant\n"
	"                      [--think MS | --rollouts N] [--detail]\n"
	"                      [--seed S] [--jobs J] [--check] [--longest FILE]\n"
	"                      [--replay-loops N]\n"
	"  --games N      games per player count (1..10^12)\n"
	"  --players N    2..6, or 'all': N games for each of 2, 3, 4, 5 and 6\n"
	"  --policy P     random: uniform among legal actions; greedy: heuristic;\n"
	"                 search: each seat thinks with what it may see (R10);\n"
	"                 clairvoyant: the search seeing every card (a bound)\n"
	"  --rollouts N   search: games played out per decision (default 4000)\n"
	"  --think MS     search: milliseconds per decision instead (results\n"
	"                 then depend on the machine's speed)\n"
	"  --variant V    search: crn (default), independent, noprune,\n"
	"                 shortlist (weigh only the greedy crew's picks, work\n"
	"                 and log), or silent (the bots do not tell one another\n"
	"                 their hands)\n"
	"  --detail       also print the Leisure margin and decision times\n"
	"  --seed S       decimal 64-bit seed (default: random); same seed,\n"
	"                 same results, whatever --jobs\n"
	"  --jobs J       threads (1..256, default 1)\n"
	"  --check        check the game's invariants after every move (slow)\n"
	"  --longest FILE write the record of the longest game to FILE\n"
	"  --replay-loops N  with --longest: replay that record N times in\n"
	"                 memory and report the median cost per action line\n";

typedef struct sim_opts {
	uint64_t games;
	int pmin, pmax;
	policy_fn policy;
	int bot_kind;                   /* bot_kind_by_name(), 0: policy */
	bot_budget budget;
	int detail;
	int budget_set;                 /* --think, --rollouts or --variant */
	int silent;                     /* the bots tell one another nothing */
	const char *policy_name;
	uint64_t seed;
	int jobs;
	int check;
	const char *longest;
	uint64_t replay_loops;
} sim_opts;

/* Sums over games, and the longest game (fewest (players, index) first
 * among equals, so it does not depend on the jobs). */
typedef struct think {
	uint64_t decisions, rollouts;   /* decisions with a choice to make */
	double seconds;
	uint64_t hist[HIST_N];
} think;

typedef struct tally {
	uint64_t games, wins, rounds, reprimands;
	unsigned longest_actions;
	int longest_players;
	uint64_t longest_index;
	int64_t margin;                 /* sum of final Leisure less goal */
	think th;
} tally;

/* One player count's run, shared by its jobs. */
typedef struct run {
	const sim_opts *o;
	int players;
	atomic_uint_fast64_t next;      /* next game index to hand out */
	atomic_uint_fast64_t done;      /* games finished */
	atomic_int failed;
	pthread_mutex_t lock;
	pthread_cond_t finished_cv;
	int finished;                   /* jobs finished, under lock */
	char why[256];                  /* first failure, under lock */
	tally sum;                      /* merged, under lock */
} run;

/* ---- one game ---------------------------------------------------------- */

/* The key and policy seed of game index of player count players:
 * key = "btsim" S p i (little-endian), zeros after. */
static void game_seed(uint64_t seed, int players, uint64_t index,
                      uint8_t key[BT_KEY_BYTES], uint64_t *prng)
{
	static const char tag[5] = { 'b', 't', 's', 'i', 'm' };
	uint64_t mix = seed;

	memset(key, 0, BT_KEY_BYTES);
	memcpy(key, tag, sizeof tag);
	for (int i = 0; i < 8; i++) {
		key[5 + i] = (uint8_t)(seed >> (8 * i));
		key[14 + i] = (uint8_t)(index >> (8 * i));
	}
	key[13] = (uint8_t)players;
	/* Each of the three goes through splitmix64 before the next. */
	mix = policy_rng_next(&mix) ^ (uint64_t)players;
	mix = policy_rng_next(&mix) ^ index;
	*prng = policy_rng_next(&mix);
}

/* Where one game writes its failure; the game itself and its legal list
 * live with the job so they are not on the stack. */
typedef struct job_buf {
	bt_game g;
	bt_action legal[BT_MAX_LEGAL];
	char why[200];
	bot *bot;                       /* for the search policies */
	think th;
} job_buf;

static double now_seconds(void);

static void think_add(think *t, double seconds, uint64_t rollouts)
{
	double x = seconds > 1e-7 ? (log10(seconds) + 7) * HIST_STEPS : 0;
	int i = x < HIST_N - 1 ? (int)x : HIST_N - 1;

	t->decisions++;
	t->rollouts += rollouts;
	t->seconds += seconds;
	t->hist[i]++;
}

/* The q-quantile of the decision times, in seconds (the bucket's
 * geometric middle). */
static double think_quantile(const think *t, double q)
{
	uint64_t want = (uint64_t)ceil(q * (double)t->decisions), sum = 0;

	for (int i = 0; i < HIST_N; i++)
		if ((sum += t->hist[i]) >= want && sum > 0)
			return pow(10, (i + 0.5) / HIST_STEPS - 7);
	return 0;
}

static void think_merge(think *a, const think *b)
{
	a->decisions += b->decisions;
	a->rollouts += b->rollouts;
	a->seconds += b->seconds;
	for (int i = 0; i < HIST_N; i++)
		a->hist[i] += b->hist[i];
}

/* The index of the action chosen in b->legal[0..n-1], or -1, with the
 * decisions that had a choice timed. */
static int choose(const sim_opts *o, job_buf *b, int n, uint64_t *prng)
{
	bt_action a;
	bot_stats st = { 0, 0, 0 };
	double t0 = n > 1 ? now_seconds() : 0;
	int pick;

	if (!o->bot_kind)
		pick = o->policy(&b->g, b->legal, n, prng);
	else if ((o->bot_kind == 1 ?
	          bot_search(b->bot, &b->g, b->g.turn,
	                     o->silent ? 0 : (1u << b->g.players) - 1, &o->budget,
	                     policy_rng_next(prng), &a, &st) :
	          bot_clairvoyant(b->bot, &b->g, &a, &st)) == 0)
		pick = bot_action_index(b->legal, n, &a);
	else
		pick = -1;
	if (n > 1)
		think_add(&b->th, now_seconds() - t0, st.rollouts);
	return pick;
}

/*
 * Plays game index of players to its end (appending the actions to rec if
 * it is not NULL).  Returns 0, or -1 with b->why describing the failure.
 */
static int play_one(const sim_opts *o, int players, uint64_t index,
                    job_buf *b, bt_record *rec)
{
	uint8_t key[BT_KEY_BYTES];
	uint64_t prng;
	bt_error err;
	bt_game *g = &b->g;
	int first = 1 + (int)(index % (uint64_t)players);

	game_seed(o->seed, players, index, key, &prng);
	if (bt_game_new(g, players, first, key, &err)) {
		snprintf(b->why, sizeof b->why, "setup: %s", err.why);
		return -1;
	}
	while (g->status == BT_PLAYING) {
		int n = bt_legal(g, b->legal, BT_MAX_LEGAL);
		if (n <= 0 || g->actions >= SIM_MAX_ACTIONS) {
			snprintf(b->why, sizeof b->why, "%s", n <= 0 ?
			         "no legal action while playing" :
			         "the game ran over its action bound");
			return -1;
		}
		/* The fast policies' path stays as lean as it was. */
		int pick = o->bot_kind || o->detail ? choose(o, b, n, &prng)
		                                    : o->policy(g, b->legal, n,
		                                                &prng);
		if (pick < 0 || pick >= n) {
			snprintf(b->why, sizeof b->why, "policy chose %d of %d",
			         pick, n);
			return -1;
		}
		if (rec && bt_record_add_action(rec, &b->legal[pick], &err)) {
			snprintf(b->why, sizeof b->why, "record: %s", err.why);
			return -1;
		}
		/* The action came from bt_legal for this state: checking it
		 * again is only worth its cost under --check. */
		if ((o->check ? bt_apply : bt_apply_legal)(g, &b->legal[pick],
		                                           &err)) {
			snprintf(b->why, sizeof b->why, "action %u: %s",
			         (unsigned)g->actions + 1, err.why);
			return -1;
		}
		if (o->check && bt_game_check(g, b->why, sizeof b->why))
			return -1;
	}
	return 0;
}

static void tally_game(tally *t, const bt_game *g, int players,
                       uint64_t index)
{
	t->games++;
	t->wins += g->status == BT_WON;
	t->rounds += g->round;
	t->reprimands += g->reprimands;
	t->margin += g->leisure - bt_goal(g);
	if (g->actions > t->longest_actions ||
	    (g->actions == t->longest_actions && index < t->longest_index)) {
		t->longest_actions = g->actions;
		t->longest_players = players;
		t->longest_index = index;
	}
}

/* Adds b into a; the longest game wins ties by its smaller index. */
static void tally_merge(tally *a, const tally *b)
{
	a->games += b->games;
	a->wins += b->wins;
	a->rounds += b->rounds;
	a->reprimands += b->reprimands;
	a->margin += b->margin;
	think_merge(&a->th, &b->th);
	if (b->games && (b->longest_actions > a->longest_actions ||
	    (b->longest_actions == a->longest_actions &&
	     (b->longest_players < a->longest_players ||
	      (b->longest_players == a->longest_players &&
	       b->longest_index < a->longest_index))))) {
		a->longest_actions = b->longest_actions;
		a->longest_players = b->longest_players;
		a->longest_index = b->longest_index;
	}
}

/* ---- jobs ---------------------------------------------------------------- */

static void run_fail(run *r, uint64_t index, const char *why)
{
	pthread_mutex_lock(&r->lock);
	if (!atomic_load(&r->failed))
		snprintf(r->why, sizeof r->why, "players %d, game %" PRIu64
		         " (seed %" PRIu64 "): %s", r->players, index,
		         r->o->seed, why);
	atomic_store(&r->failed, 1);
	pthread_mutex_unlock(&r->lock);
}

static void *job_main(void *arg)
{
	run *r = arg;
	tally t;
	job_buf *b = calloc(1, sizeof *b);
	/* Search games are slow: hand them out one by one. */
	uint64_t chunk = r->o->bot_kind ? 1 : SIM_CHUNK;

	memset(&t, 0, sizeof t);
	t.longest_index = UINT64_MAX;
	if (b && r->o->bot_kind && !(b->bot = bot_new())) {
		free(b);
		b = NULL;
	}
	if (!b)
		run_fail(r, 0, "out of memory");
	while (b && !atomic_load(&r->failed)) {
		uint64_t lo = atomic_fetch_add(&r->next, chunk);
		if (lo >= r->o->games)
			break;
		uint64_t hi = r->o->games - lo < chunk ? r->o->games
		                                        : lo + chunk;
		for (uint64_t i = lo; i < hi; i++) {
			if (play_one(r->o, r->players, i, b, NULL)) {
				run_fail(r, i, b->why);
				break;
			}
			tally_game(&t, &b->g, r->players, i);
		}
		atomic_fetch_add(&r->done, hi - lo);
	}
	if (b) {
		think_merge(&t.th, &b->th);
		bot_free(b->bot);
	}
	free(b);
	pthread_mutex_lock(&r->lock);
	tally_merge(&r->sum, &t);
	r->finished++;
	pthread_cond_signal(&r->finished_cv);
	pthread_mutex_unlock(&r->lock);
	return NULL;
}

static double now_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Waits for the jobs, redrawing the progress line if there is one. */
static void run_wait(run *r, int jobs, int progress)
{
	int shown = 0;

	pthread_mutex_lock(&r->lock);
	while (r->finished < jobs) {
		if (!progress) {
			pthread_cond_wait(&r->finished_cv, &r->lock);
			continue;
		}
		struct timespec until;
		clock_gettime(CLOCK_REALTIME, &until);
		until.tv_nsec += SIM_PROGRESS_NS;
		if (until.tv_nsec >= 1000000000) {
			until.tv_sec++;
			until.tv_nsec -= 1000000000;
		}
		if (pthread_cond_timedwait(&r->finished_cv, &r->lock,
		                           &until) == ETIMEDOUT) {
			uint64_t done = atomic_load(&r->done);
			fprintf(stderr, "\rsim: players %d: %" PRIu64 "/%" PRIu64
			        " games (%.0f%%)", r->players, done, r->o->games,
			        100.0 * (double)done / (double)r->o->games);
			fflush(stderr);
			shown = 1;
		}
	}
	pthread_mutex_unlock(&r->lock);
	if (shown)
		fputs("\r\033[K", stderr);
}

/*
 * Plays the games of one player count on o->jobs threads into *out.
 * Returns 0, or -1 after printing why to stderr.
 */
static int run_players(const sim_opts *o, int players, tally *out,
                       double *seconds)
{
	static run r;    /* one at a time; too big for comfort on the stack */
	pthread_t th[SIM_MAX_JOBS];
	int started = 0, rc = 0;
	double t0 = now_seconds();

	memset(&r, 0, sizeof r);
	r.o = o;
	r.players = players;
	atomic_init(&r.next, 0);
	atomic_init(&r.done, 0);
	atomic_init(&r.failed, 0);
	r.sum.longest_index = UINT64_MAX;
	pthread_mutex_init(&r.lock, NULL);
	pthread_cond_init(&r.finished_cv, NULL);
	for (; started < o->jobs; started++)
		if (pthread_create(&th[started], NULL, job_main, &r)) {
			run_fail(&r, 0, "cannot start a thread");
			break;
		}
	pthread_mutex_lock(&r.lock);
	r.finished += o->jobs - started;  /* the ones that never started */
	pthread_mutex_unlock(&r.lock);
	run_wait(&r, o->jobs, isatty(STDERR_FILENO));
	for (int i = 0; i < started; i++)
		pthread_join(th[i], NULL);
	*seconds = now_seconds() - t0;
	if (atomic_load(&r.failed)) {
		fprintf(stderr, "buffertime sim: %s\n", r.why);
		rc = -1;
	}
	*out = r.sum;
	pthread_cond_destroy(&r.finished_cv);
	pthread_mutex_destroy(&r.lock);
	return rc;
}

/* ---- reporting ------------------------------------------------------------ */

/* The 95% Wilson score interval of wins out of games. */
static void wilson(uint64_t wins, uint64_t games, double *lo, double *hi)
{
	const double z = 1.959963984540054;
	double n = (double)games, p = (double)wins / n;
	double d = 1 + z * z / n;
	double mid = (p + z * z / (2 * n)) / d;
	double half = z / d * sqrt(p * (1 - p) / n + z * z / (4 * n * n));

	*lo = mid - half < 0 ? 0 : mid - half;
	*hi = mid + half > 1 ? 1 : mid + half;
}

static void report(int players, const tally *t, double seconds, int detail)
{
	double lo, hi, n = (double)t->games;

	wilson(t->wins, t->games, &lo, &hi);
	printf("players %d: %" PRIu64 " games, %.2f%% won [%.2f%%, %.2f%%], "
	       "%.2f rounds, %.2f reprimands/game, %.0f games/s\n",
	       players, t->games, 100.0 * (double)t->wins / n, 100 * lo,
	       100 * hi, (double)t->rounds / n, (double)t->reprimands / n,
	       seconds > 0 ? n / seconds : 0.0);
	if (detail && t->th.decisions)
		printf("players %d: Leisure margin %+.2f; %" PRIu64 " decisions"
		       " with a choice: median %.4f ms, p99 %.4f ms; %.0f "
		       "rollouts/s\n", players, (double)t->margin / n,
		       t->th.decisions, 1e3 * think_quantile(&t->th, 0.5),
		       1e3 * think_quantile(&t->th, 0.99), t->th.seconds > 0 ?
		       (double)t->th.rollouts / t->th.seconds : 0.0);
	else if (detail)
		printf("players %d: Leisure margin %+.2f\n", players,
		       (double)t->margin / n);
	fflush(stdout);
}

static int emit_file(void *ctx, const char *s, size_t n)
{
	return fwrite(s, 1, n, ctx) == n ? 0 : -1;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/*
 * Replays rec's text loops times in memory and prints the median cost of
 * one action line (parsing and applying it).  Returns 0 or -1.
 */
static int time_replay(const bt_record *rec, uint64_t loops)
{
	size_t len = bt_record_write_buf(rec, NULL, 0);
	char *text = NULL;
	double *us = NULL;
	bt_replay *r = malloc(sizeof *r);
	bt_error err;
	int rc = -1;

	if (len == (size_t)-1 || !r || !(text = malloc(len + 1)) ||
	    !(us = malloc((size_t)loops * sizeof *us))) {
		fputs("buffertime sim: cannot time the replay\n", stderr);
		goto out;
	}
	bt_record_write_buf(rec, text, len + 1);
	for (uint64_t i = 0; i < loops; i++) {
		double t0;
		bt_replay_init(r);
		t0 = now_seconds();
		if (bt_replay_text(r, text, len, &err)) {
			fprintf(stderr, "buffertime sim: replay: line %d: %s\n",
			        r->err_line, err.why);
			goto out;
		}
		us[i] = (now_seconds() - t0) * 1e6;
	}
	qsort(us, (size_t)loops, sizeof *us, cmp_double);
	printf("replay: %u action lines, %.3f us per action line "
	       "(median of %" PRIu64 " replays in memory)\n",
	       (unsigned)rec->nitems, us[loops / 2] / rec->nitems, loops);
	rc = 0;
out:
	free(us);
	free(text);
	free(r);
	return rc;
}

/* Plays the longest game again, recording it, and writes its record. */
static int write_longest(const sim_opts *o, const tally *t)
{
	uint8_t key[BT_KEY_BYTES];
	uint64_t prng;
	char hex[BT_SEED_TEXT_MAX + 1];
	bt_error err;
	bt_record *rec = malloc(sizeof *rec);
	job_buf *b = calloc(1, sizeof *b);
	FILE *f = NULL;
	int rc = -1;
	int p = t->longest_players;

	if (b && o->bot_kind)
		b->bot = bot_new();
	if (!rec || !b || (o->bot_kind && !b->bot)) {
		fputs("buffertime sim: out of memory\n", stderr);
		goto out;
	}
	game_seed(o->seed, p, t->longest_index, key, &prng);
	bt_seed_hex(key, hex);
	if (bt_record_init(rec, p, 1 + (int)(t->longest_index % (uint64_t)p),
	                   hex, strlen(hex), &err)) {
		fprintf(stderr, "buffertime sim: %s\n", err.why);
		goto out;
	}
	if (play_one(o, p, t->longest_index, b, rec)) {
		fprintf(stderr, "buffertime sim: longest game: %s\n", b->why);
		goto out;
	}
	if (!(f = fopen(o->longest, "w"))) {
		fprintf(stderr, "buffertime sim: %s: %s\n", o->longest,
		        strerror(errno));
		goto out;
	}
	if (bt_record_write(rec, emit_file, f) || fflush(f)) {
		fprintf(stderr, "buffertime sim: %s: cannot write\n",
		        o->longest);
		goto out;
	}
	rc = o->replay_loops ? time_replay(rec, o->replay_loops) : 0;
out:
	if (f && fclose(f) && rc == 0) {
		fprintf(stderr, "buffertime sim: %s: %s\n", o->longest,
		        strerror(errno));
		rc = -1;
	}
	if (b)
		bot_free(b->bot);
	free(b);
	free(rec);
	return rc;
}

/* ---- arguments ------------------------------------------------------------ */

#if defined(__GNUC__)
__attribute__((format(printf, 1, 2)))
#endif
static int usage_error(const char *fmt, ...)
{
	va_list ap;

	fputs("buffertime sim: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	fputs(sim_usage, stderr);
	return 2;
}

static int parse_players(const char *s, sim_opts *o)
{
	uint64_t p;

	if (!strcmp(s, "all")) {
		o->pmin = BT_MIN_PLAYERS;
		o->pmax = BT_MAX_PLAYERS;
		return 0;
	}
	if (cli_parse_u64(s, BT_MIN_PLAYERS, BT_MAX_PLAYERS, &p))
		return -1;
	o->pmin = o->pmax = (int)p;
	return 0;
}

/* The value of option argv[*i], moving *i past it; NULL if missing. */
static const char *opt_value(int argc, char **argv, int *i)
{
	return *i + 1 < argc ? argv[++*i] : NULL;
}

/* The search's budget options; 0, or 2 after a usage error. */
static int parse_budget(const char *a, const char *val, sim_opts *o)
{
	uint64_t v;

	if (!strcmp(a, "--variant")) {
		if (!strcmp(val, "independent"))
			o->budget.flags = BOT_INDEPENDENT;
		else if (!strcmp(val, "noprune"))
			o->budget.flags = BOT_NO_PRUNE;
		else if (!strcmp(val, "shortlist"))
			o->budget.flags = BOT_SHORTLIST;
		else if (!strcmp(val, "silent"))
			o->silent = 1;
		else if (strcmp(val, "crn"))
			return usage_error("--variant: '%s' is not crn, "
			                   "independent, noprune, shortlist or "
			                   "silent",
			                   val);
	} else if (o->budget_set & 1) {
		return usage_error("%s", "--think and --rollouts: one budget, "
		                   "given once");
	} else if (!strcmp(a, "--think")) {
		if (cli_parse_u64(val, 1, BOT_MAX_THINK_MS, &v))
			return usage_error("--think: '%s' is not 1..%d ms", val,
			                   BOT_MAX_THINK_MS);
		o->budget.rollouts = 0;
		o->budget.think_ms = (int)v;
	} else {
		if (cli_parse_u64(val, 1, BOT_MAX_ROLLOUTS, &v))
			return usage_error("--rollouts: '%s' is not 1..%d", val,
			                   BOT_MAX_ROLLOUTS);
		o->budget.rollouts = (int)v;
	}
	o->budget_set |= strcmp(a, "--variant") ? 1 : 2;
	return 0;
}

/* Fills o from argv; returns 0, 1 if --help was asked, or 2 on error. */
static int parse_args(int argc, char **argv, sim_opts *o)
{
	uint64_t v;
	int have_seed = 0;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *val;
		if (!strcmp(a, "--help") || !strcmp(a, "-h"))
			return 1;
		if (!strcmp(a, "--check") || !strcmp(a, "--detail")) {
			*(a[2] == 'c' ? &o->check : &o->detail) = 1;
			continue;
		}
		if (!strcmp(a, "--think") || !strcmp(a, "--rollouts") ||
		    !strcmp(a, "--variant")) {
			int rc;
			if (!(val = opt_value(argc, argv, &i)))
				return usage_error("%s needs a value", a);
			if ((rc = parse_budget(a, val, o)))
				return rc;
			continue;
		}
		if (strcmp(a, "--games") && strcmp(a, "--players") &&
		    strcmp(a, "--policy") && strcmp(a, "--seed") &&
		    strcmp(a, "--jobs") && strcmp(a, "--longest") &&
		    strcmp(a, "--replay-loops"))
			return usage_error("unknown option '%s'", a);
		if (!(val = opt_value(argc, argv, &i)))
			return usage_error("%s needs a value", a);
		if (!strcmp(a, "--games")) {
			if (cli_parse_u64(val, 1, SIM_MAX_GAMES, &o->games))
				return usage_error("--games: '%s' is not a "
				                   "number of games", val);
		} else if (!strcmp(a, "--players")) {
			if (parse_players(val, o))
				return usage_error("--players: '%s' is not 2..6 "
				                   "or all", val);
		} else if (!strcmp(a, "--policy")) {
			if (!(o->policy = policy_by_name(val)) &&
			    !(o->bot_kind = bot_kind_by_name(val)))
				return usage_error("--policy: unknown policy "
				                   "'%s'", val);
			o->policy_name = val;
		} else if (!strcmp(a, "--seed")) {
			if (cli_parse_u64(val, 0, UINT64_MAX, &o->seed))
				return usage_error("--seed: '%s' is not a "
				                   "decimal 64-bit number", val);
			have_seed = 1;
		} else if (!strcmp(a, "--jobs")) {
			if (cli_parse_u64(val, 1, SIM_MAX_JOBS, &v))
				return usage_error("--jobs: '%s' is not 1..256",
				                   val);
			o->jobs = (int)v;
		} else if (!strcmp(a, "--replay-loops")) {
			if (cli_parse_u64(val, 1, SIM_MAX_REPLAY_LOOPS,
			              &o->replay_loops))
				return usage_error("--replay-loops: '%s' is not "
				                   "1..1000000", val);
		} else {
			o->longest = val;
		}
	}
	if (o->replay_loops && !o->longest)
		return usage_error("%s", "--replay-loops needs --longest");
	if (!o->games)
		return usage_error("%s", "--games is required");
	if (!o->pmin)
		return usage_error("%s", "--players is required");
	if (!o->policy && !o->bot_kind)
		return usage_error("%s", "--policy is required");
	if (o->budget_set && o->bot_kind != 1)
		return usage_error("%s", "--think, --rollouts and --variant are "
		                   "for --policy search");
	if (!have_seed)
		randombytes_buf(&o->seed, sizeof o->seed);
	return 0;
}

int cmd_sim(int argc, char **argv)
{
	sim_opts o = { .budget = { BOT_DEFAULT_ROLLOUTS, 0, 0 }, .jobs = 1 };
	tally total = { .longest_index = UINT64_MAX };
	double t0, seconds;
	int rc = parse_args(argc, argv, &o);

	if (rc == 1) {
		fputs(sim_usage, stdout);
		return 0;
	}
	if (rc)
		return rc;
	printf("seed %" PRIu64 ", policy %s, %d job%s\n", o.seed,
	       o.policy_name, o.jobs, o.jobs == 1 ? "" : "s");
	t0 = now_seconds();
	for (int p = o.pmin; p <= o.pmax; p++) {
		tally t;
		double s;
		if (run_players(&o, p, &t, &s))
			return 1;
		report(p, &t, s, o.detail || o.bot_kind);
		tally_merge(&total, &t);
	}
	seconds = now_seconds() - t0;
	if (o.longest && write_longest(&o, &total))
		return 1;
	printf("total: %" PRIu64 " games, %" PRIu64 " wins, %" PRIu64
	       " games/s\n", total.games, total.wins, seconds > 0 ?
	       (uint64_t)((double)total.games / seconds) : total.games);
	return 0;
}
