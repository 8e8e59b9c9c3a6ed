/*
 * calibration.c - is the post-game review's chance of winning honest?
 * Plays games with the search bot in every seat (as `buffertime sim
 * --policy search` does: the bots tell one another their hands), rates
 * the positions of each game afterwards as the review does (the chance
 * with the mover's best option, review_weigh_move), and compares, in bins
 * of 10 points, the mean rating with the share of those games won.
 * Prints numbers only: bad calibration is never a failure (an error is:
 * exit 1; a usage error: exit 2).
 *
 *   calibration [--games N] [--seed S] [--rollouts R]
 *               [--review-rollouts R] [--positions K] [--jobs J]
 *               [--raw FILE]
 *
 * --raw writes a line per rated position, "GAME PLAYERS SEARCH WON": the
 * search's chance before calibration, for bench/calibration_fit to fit
 * review_calibrated's coefficients on.
 *
 * Game g has 2 + g % 5 players, First Player 1 + (g / 5) % players.  Its
 * numbers come from a splitmix64 stream of its own, started at output g
 * of the seed's stream: the shuffle key, the bots' generator (a seed per
 * decision, as sim draws them), the review's seed and the generator that
 * picks the positions.  So a game depends only on its index and the
 * arguments, and the tallies are integer sums (ratings in units of 1e-9):
 * the same arguments print the same table whatever --jobs.
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

#include "args.h"
#include "game.h"
#include "interval.h"
#include "policy.h"
#include "review.h"
#include "search.h"

enum {
	CAL_BINS = 10,
	CAL_MAX_JOBS = 64,
	CAL_MAX_POSITIONS = 256,
	CAL_MAX_ACTIONS = 4000,      /* a game longer than this is a bug */
	CAL_MIN_BIN = 50             /* bins counted in the largest difference */
};
#define CAL_MAX_GAMES UINT64_C(1000000)
#define CAL_Q 1000000000.0       /* ratings are tallied in units of 1/CAL_Q */
_Static_assert(BOT_DEFAULT_ROLLOUTS == 4000 &&
               REVIEW_DEFAULT_ROLLOUTS == 2000, "the usage names the defaults");

static const char usage_text[] =
	"usage: calibration [--games N] [--seed S] [--rollouts R]\n"
	"                   [--review-rollouts R] [--positions K] [--jobs J]\n"
	"                   [--raw FILE]\n"
	"  --games N            games (1..1000000, default 1000), 2 to 6\n"
	"                       players in turn\n"
	"  --seed S             decimal 64-bit seed (default 1)\n"
	"  --rollouts R         the bots' games played out per decision\n"
	"                       (default 4000)\n"
	"  --review-rollouts R  the review's per rated position (default 2000)\n"
	"  --positions K        positions rated per game (1..256, default\n"
	"                       256: every move of a game that long)\n"
	"  --jobs J             threads (1..64, default 1); same table\n"
	"                       whatever J\n"
	"  --raw FILE           each rated position's chance before\n"
	"                       calibration, a line each (for a refit)\n";

typedef struct cal_opts {
	uint64_t games, seed;
	int rollouts, review_rollouts, positions, jobs;
	const char *raw_path;
	FILE *raw;                   /* --raw, written under the run's lock */
} cal_opts;

/* Positions rated in one group, and how they turned out.  A game's
 * positions are won or lost together, so the interval of the share won
 * counts games: sq sums, over the games with positions here, the square
 * of how many they have. */
typedef struct cell {
	uint64_t n, won;
	uint64_t rating;             /* sum of the ratings, units of 1/CAL_Q */
	uint64_t games, sq;
} cell;

typedef struct tally {
	cell bin[CAL_BINS];
	cell players[BT_MAX_PLAYERS + 1];
	uint64_t brier;              /* sum of squared errors, 1/CAL_Q units */
	uint64_t games, games_won;
} tally;

/* A job's game and scratch memory, off the stack. */
typedef struct job_buf {
	bt_game g, start;
	bt_action legal[BT_MAX_LEGAL];
	bt_action played[CAL_MAX_ACTIONS];
	int nplayed;
	bot *bot;
	double search[CAL_MAX_POSITIONS];  /* the game's, for --raw */
	int nsearch, players, won;
	char why[200];
} job_buf;

/* The run, shared by its jobs. */
typedef struct run {
	const cal_opts *o;
	atomic_uint_fast64_t next;   /* next game index to hand out */
	atomic_int failed;
	pthread_mutex_t lock;
	char why[300];               /* first failure, under lock */
	tally sum;                   /* merged, under lock */
} run;

/* ---- one game ------------------------------------------------------------ */

/* What game index draws from its stream, in this order. */
typedef struct game_seeds {
	uint8_t key[BT_KEY_BYTES];
	uint64_t bots;               /* the bots' generator: a seed a decision */
	uint64_t review;             /* the review's seed */
	uint64_t picks;              /* the generator that picks positions */
} game_seeds;

static void draw_seeds(uint64_t seed, uint64_t index, game_seeds *s)
{
	/* output index of the seed's stream, without drawing those before */
	uint64_t at = seed + index * UINT64_C(0x9e3779b97f4a7c15);
	uint64_t stream = policy_rng_next(&at);

	for (int i = 0; i < BT_KEY_BYTES; i += 8) {
		uint64_t x = policy_rng_next(&stream);
		for (int j = 0; j < 8 && i + j < BT_KEY_BYTES; j++)
			s->key[i + j] = (uint8_t)(x >> (8 * j));
	}
	s->bots = policy_rng_next(&stream);
	s->review = policy_rng_next(&stream);
	s->picks = policy_rng_next(&stream);
}

static int players_of(uint64_t index)
{
	return 2 + (int)(index % 5);
}

static int first_of(uint64_t index)
{
	return 1 + (int)((index / 5) % (uint64_t)players_of(index));
}

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static int job_fail(job_buf *b, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(b->why, sizeof b->why, fmt, ap);
	va_end(ap);
	return -1;
}

/* The search bot's action in b->g, as sim plays it: every seat told. */
static int bot_move(const cal_opts *o, job_buf *b, uint64_t *prng)
{
	bot_budget budget = { o->rollouts, 0, 0 };
	unsigned told = (1u << b->g.players) - 1;
	int n = bt_legal(&b->g, b->legal, BT_MAX_LEGAL);
	bt_action a;

	if (n <= 0)
		return job_fail(b, "no legal action while playing");
	if (bot_search(b->bot, &b->g, b->g.turn, told, &budget,
	               policy_rng_next(prng), &a, NULL))
		return job_fail(b, "the search failed on action %u",
		                (unsigned)b->g.actions + 1);
	int pick = bot_action_index(b->legal, n, &a);
	if (pick < 0)
		return job_fail(b, "the search chose an illegal action");
	return pick;
}

/* Plays game index to its end, keeping its first state in b->start and
 * its actions in b->played.  Returns 0, or -1 with b->why. */
static int play_game(const cal_opts *o, uint64_t index, const game_seeds *s,
                     job_buf *b)
{
	bt_error err;
	uint64_t prng = s->bots;

	if (bt_game_new(&b->g, players_of(index), first_of(index), s->key,
	                &err))
		return job_fail(b, "setup: %s", err.why);
	b->start = b->g;
	b->nplayed = 0;
	while (b->g.status == BT_PLAYING) {
		if (b->nplayed >= CAL_MAX_ACTIONS)
			return job_fail(b, "the game ran over %d actions",
			                CAL_MAX_ACTIONS);
		int pick = bot_move(o, b, &prng);
		if (pick < 0)
			return -1;
		b->played[b->nplayed] = b->legal[pick];
		if (bt_apply_legal(&b->g, &b->legal[pick], &err))
			return job_fail(b, "action %d: %s", b->nplayed + 1,
			                err.why);
		b->nplayed++;
	}
	return 0;
}

/* Picks want of moves 0..n-1 uniformly, without repetition, in order
 * (selection sampling); returns how many went into pick[]. */
static int pick_moves(uint64_t *rng, int n, int want, int *pick)
{
	int got = 0;

	if (want > n)
		want = n;
	for (int i = 0; i < n && got < want; i++)
		if (policy_rng_below(rng, (uint64_t)(n - i)) <
		    (uint64_t)(want - got))
			pick[got++] = i;
	return got;
}

static void cell_add(cell *c, uint64_t q, int won)
{
	c->n++;
	c->won += (uint64_t)won;
	c->rating += q;
}

/* Tallies one rated position of a game of players, won or lost. */
static void tally_position(tally *t, double rating, int players, int won)
{
	double r = rating < 0 ? 0 : rating > 1 ? 1 : rating;
	uint64_t q = (uint64_t)llround(r * CAL_Q);
	uint64_t bin = q / (uint64_t)(CAL_Q / CAL_BINS);
	double miss = won ? CAL_Q - (double)q : (double)q;

	cell_add(&t->bin[bin < CAL_BINS ? bin : CAL_BINS - 1], q, won);
	cell_add(&t->players[players], q, won);
	t->brier += (uint64_t)llround(miss * miss / CAL_Q);
}

static void cell_merge(cell *a, const cell *b)
{
	a->n += b->n;
	a->won += b->won;
	a->rating += b->rating;
	a->games += b->games;
	a->sq += b->sq;
}

/* Adds the positions one game put in c to into, as a game of its own. */
static void cell_add_game(cell *into, const cell *c)
{
	if (!c->n)
		return;
	cell_merge(into, c);
	into->games++;
	into->sq += c->n * c->n;
}

/* Adds one game's tally (game) to t. */
static void tally_game(tally *t, const tally *game)
{
	for (int i = 0; i < CAL_BINS; i++)
		cell_add_game(&t->bin[i], &game->bin[i]);
	for (int p = 0; p <= BT_MAX_PLAYERS; p++)
		cell_add_game(&t->players[p], &game->players[p]);
	t->brier += game->brier;
}

/* Replays the game b played, rating the picked moves as the review
 * does.  Returns 0, or -1 with b->why. */
static int rate_game(const cal_opts *o, const game_seeds *s, job_buf *b,
                     tally *t)
{
	tally game;
	int pick[CAL_MAX_POSITIONS], npick, next = 0;
	int won = b->g.status == BT_WON, players = b->g.players;
	uint64_t rng = s->picks;
	review_move m;
	bt_error err;

	memset(&game, 0, sizeof game);
	npick = pick_moves(&rng, b->nplayed, o->positions, pick);
	b->g = b->start;
	b->nsearch = 0;
	b->players = players;
	b->won = won;
	for (int k = 0; k < b->nplayed && next < npick; k++) {
		if (k == pick[next]) {
			if (review_weigh_move(b->bot, &b->g, &b->played[k],
			                      o->review_rollouts, s->review, k,
			                      &m))
				return job_fail(b, "the review failed on move "
				                "%d", k + 1);
			tally_position(&game, m.before, players, won);
			b->search[b->nsearch++] = m.search_before;
			next++;
		}
		if (bt_apply_legal(&b->g, &b->played[k], &err))
			return job_fail(b, "replay of action %d: %s", k + 1,
			                err.why);
	}
	tally_game(t, &game);
	t->games++;
	t->games_won += (uint64_t)won;
	return 0;
}

/* ---- jobs ------------------------------------------------------------------ */

static void tally_merge(tally *a, const tally *b)
{
	for (int i = 0; i < CAL_BINS; i++)
		cell_merge(&a->bin[i], &b->bin[i]);
	for (int p = 0; p <= BT_MAX_PLAYERS; p++)
		cell_merge(&a->players[p], &b->players[p]);
	a->brier += b->brier;
	a->games += b->games;
	a->games_won += b->games_won;
}

static void run_fail(run *r, uint64_t index, const char *why)
{
	pthread_mutex_lock(&r->lock);
	if (!atomic_load(&r->failed))
		snprintf(r->why, sizeof r->why, "game %" PRIu64 " (seed %"
		         PRIu64 "): %s", index, r->o->seed, why);
	atomic_store(&r->failed, 1);
	pthread_mutex_unlock(&r->lock);
}

/* Writes game index's rated positions to --raw, if asked. */
static void write_raw(run *r, uint64_t index, const job_buf *b)
{
	if (!r->o->raw)
		return;
	pthread_mutex_lock(&r->lock);
	for (int k = 0; k < b->nsearch; k++)
		fprintf(r->o->raw, "%" PRIu64 " %d %.6f %d\n", index,
		        b->players, b->search[k], b->won);
	pthread_mutex_unlock(&r->lock);
}

static void *job_main(void *arg)
{
	run *r = arg;
	tally t;
	job_buf *b = calloc(1, sizeof *b);

	memset(&t, 0, sizeof t);
	if (b && !(b->bot = bot_new())) {
		free(b);
		b = NULL;
	}
	if (!b)
		run_fail(r, 0, "out of memory");
	while (b && !atomic_load(&r->failed)) {
		uint64_t i = atomic_fetch_add(&r->next, 1);
		game_seeds s;
		if (i >= r->o->games)
			break;
		draw_seeds(r->o->seed, i, &s);
		if (play_game(r->o, i, &s, b) || rate_game(r->o, &s, b, &t)) {
			run_fail(r, i, b->why);
			break;
		}
		write_raw(r, i, b);
	}
	if (b)
		bot_free(b->bot);
	free(b);
	pthread_mutex_lock(&r->lock);
	tally_merge(&r->sum, &t);
	pthread_mutex_unlock(&r->lock);
	return NULL;
}

/* Plays and rates o->games games on o->jobs threads into *out.  Returns
 * 0, or -1 after printing why. */
static int run_all(const cal_opts *o, tally *out)
{
	static run r;    /* one run; kept off the stack */
	pthread_t th[CAL_MAX_JOBS];
	int started = 0, rc = 0;

	memset(&r, 0, sizeof r);
	r.o = o;
	atomic_init(&r.next, 0);
	atomic_init(&r.failed, 0);
	if (pthread_mutex_init(&r.lock, NULL)) {
		fputs("calibration: cannot make a lock\n", stderr);
		return -1;
	}
	for (; started < o->jobs; started++)
		if (pthread_create(&th[started], NULL, job_main, &r)) {
			run_fail(&r, 0, "cannot start a thread");
			break;
		}
	for (int i = 0; i < started; i++)
		pthread_join(th[i], NULL);
	if (atomic_load(&r.failed)) {
		fprintf(stderr, "calibration: %s\n", r.why);
		rc = -1;
	}
	*out = r.sum;
	pthread_mutex_destroy(&r.lock);
	return rc;
}

/* ---- the report ---------------------------------------------------------- */

static double mean_rating(const cell *c)
{
	return (double)c->rating / CAL_Q / (double)c->n;
}

static double share_won(const cell *c)
{
	return (double)c->won / (double)c->n;
}

static void print_bin(int i, const cell *c)
{
	double lo, hi;

	printf("| %d-%d%% | %" PRIu64 " | %" PRIu64 " |", 10 * i, 10 * (i + 1),
	       c->n, c->games);
	if (!c->n) {
		puts(" - | - | - | - |");
		return;
	}
	interval_by_games(c->won, c->n, c->sq, &lo, &hi);
	printf(" %.1f%% | %.1f%% | %.1f%% - %.1f%% | %+.1f |\n",
	       100 * mean_rating(c), 100 * share_won(c), 100 * lo, 100 * hi,
	       100 * (share_won(c) - mean_rating(c)));
}

static void print_summary(const tally *t)
{
	uint64_t n = 0;
	int worst = -1;
	double worst_diff = 0;

	for (int i = 0; i < CAL_BINS; i++) {
		const cell *c = &t->bin[i];
		n += c->n;
		if (c->n < CAL_MIN_BIN)
			continue;
		double d = fabs(share_won(c) - mean_rating(c));
		if (worst < 0 || d > worst_diff) {
			worst = i;
			worst_diff = d;
		}
	}
	printf("\nBrier score: %.4f over %" PRIu64 " positions\n",
	       n ? (double)t->brier / CAL_Q / (double)n : 0.0, n);
	if (worst < 0)
		printf("largest |difference|: - (no bin has %d positions)\n",
		       CAL_MIN_BIN);
	else
		printf("largest |difference| among bins of %d+ positions: "
		       "%.1f points (%d-%d%%)\n", CAL_MIN_BIN, 100 * worst_diff,
		       10 * worst, 10 * (worst + 1));
}

static void print_players(const tally *t)
{
	putchar('\n');
	for (int p = BT_MIN_PLAYERS; p <= BT_MAX_PLAYERS; p++) {
		const cell *c = &t->players[p];
		if (!c->n) {
			printf("players %d: 0 positions\n", p);
			continue;
		}
		printf("players %d: %" PRIu64 " positions, mean rating %.1f%%, "
		       "%.1f%% won\n", p, c->n, 100 * mean_rating(c),
		       100 * share_won(c));
	}
}

static void report(const cal_opts *o, const tally *t, double seconds)
{
	uint64_t n = 0;

	for (int i = 0; i < CAL_BINS; i++)
		n += t->bin[i].n;
	printf("calibration: %" PRIu64 " games, %" PRIu64 " positions (up to "
	       "%d a game), rollouts %d, review rollouts %d, seed %" PRIu64
	       ", jobs %d, wall time %.1f s\n", o->games, n, o->positions,
	       o->rollouts, o->review_rollouts, o->seed, o->jobs, seconds);
	printf("games won: %" PRIu64 " of %" PRIu64 " (%.1f%%)\n\n",
	       t->games_won, t->games,
	       t->games ? 100.0 * (double)t->games_won / (double)t->games
	                : 0.0);
	puts("| rating | positions | games | mean rating | won | 95% interval "
	     "(by games) | difference (points) |");
	puts("|---|---:|---:|---:|---:|---|---:|");
	for (int i = 0; i < CAL_BINS; i++)
		print_bin(i, &t->bin[i]);
	print_summary(t);
	print_players(t);
}

/* ---- arguments ------------------------------------------------------------- */

#if defined(__GNUC__)
__attribute__((format(printf, 1, 2)))
#endif
static int usage_error(const char *fmt, ...)
{
	va_list ap;

	fputs("calibration: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	fputs(usage_text, stderr);
	return 2;
}

/* One option (is_option) with its value; 0, or 2 after a usage error. */
static int parse_option(const char *a, const char *val, cal_opts *o)
{
	uint64_t v;

	if (!strcmp(a, "--games")) {
		if (cli_parse_u64(val, 1, CAL_MAX_GAMES, &o->games))
			return usage_error("--games: '%s' is not 1..1000000", val);
	} else if (!strcmp(a, "--seed")) {
		if (cli_parse_u64(val, 0, UINT64_MAX, &o->seed))
			return usage_error("--seed: '%s' is not a decimal 64-bit "
			                   "number", val);
	} else if (!strcmp(a, "--rollouts") ||
	           !strcmp(a, "--review-rollouts")) {
		if (cli_parse_u64(val, 1, BOT_MAX_ROLLOUTS, &v))
			return usage_error("%s: '%s' is not 1..%d", a, val,
			                   BOT_MAX_ROLLOUTS);
		*(strcmp(a, "--rollouts") ? &o->review_rollouts
		                          : &o->rollouts) = (int)v;
	} else if (!strcmp(a, "--raw")) {
		o->raw_path = val;
	} else if (!strcmp(a, "--positions")) {
		if (cli_parse_u64(val, 1, CAL_MAX_POSITIONS, &v))
			return usage_error("--positions: '%s' is not 1..%d", val,
			                   CAL_MAX_POSITIONS);
		o->positions = (int)v;
	} else {    /* --jobs: parse_args took only known names */
		if (cli_parse_u64(val, 1, CAL_MAX_JOBS, &v))
			return usage_error("--jobs: '%s' is not 1..%d", val,
			                   CAL_MAX_JOBS);
		o->jobs = (int)v;
	}
	return 0;
}

static int is_option(const char *a)
{
	static const char *const names[] = {
		"--games", "--seed", "--rollouts", "--review-rollouts",
		"--positions", "--jobs", "--raw"
	};

	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (!strcmp(a, names[i]))
			return 1;
	return 0;
}

/* Fills o from argv; 0, 1 if --help was asked, or 2 on a usage error. */
static int parse_args(int argc, char **argv, cal_opts *o)
{
	for (int i = 1; i < argc; i++) {
		int rc;
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
			return 1;
		if (!is_option(argv[i]))
			return usage_error("unknown argument '%s'", argv[i]);
		if (i + 1 >= argc)
			return usage_error("%s needs a value", argv[i]);
		if ((rc = parse_option(argv[i], argv[i + 1], o)))
			return rc;
		i++;
	}
	return 0;
}

static double now_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	cal_opts o = { 1000, 1, BOT_DEFAULT_ROLLOUTS, REVIEW_DEFAULT_ROLLOUTS,
	               CAL_MAX_POSITIONS, 1, NULL, NULL };
	tally *t = calloc(1, sizeof *t);
	int rc = parse_args(argc, argv, &o);
	double t0;

	if (rc == 1)
		fputs(usage_text, stdout);
	if (rc) {
		free(t);
		return rc == 1 ? 0 : rc;
	}
	if (!t) {
		fputs("calibration: out of memory\n", stderr);
		return 1;
	}
	if (o.raw_path && !(o.raw = fopen(o.raw_path, "w"))) {
		fprintf(stderr, "calibration: %s: %s\n", o.raw_path,
		        strerror(errno));
		free(t);
		return 1;
	}
	t0 = now_seconds();
	rc = run_all(&o, t);
	if (o.raw && (fclose(o.raw) || rc)) {
		if (!rc)
			fprintf(stderr, "calibration: cannot write %s\n",
			        o.raw_path);
		free(t);
		return 1;
	}
	if (rc) {
		free(t);
		return 1;
	}
	report(&o, t, now_seconds() - t0);
	free(t);
	if (fflush(stdout) || ferror(stdout)) {
		fputs("calibration: cannot write the report\n", stderr);
		return 1;
	}
	return 0;
}
