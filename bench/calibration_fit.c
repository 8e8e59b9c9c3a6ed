/*
 * calibration_fit.c - fits review_calibrated's coefficients (bots/
 * review.c) on what `bench/calibration --raw FILE` wrote: for small crews
 * (2 and 3 players) and large ones (REVIEW_LARGE_CREW and more), a and b
 * of logit(won) = a + b logit(search chance), by logistic regression
 * (Newton's method on the log-likelihood).
 *
 *   calibration_fit FIT [CHECK]
 *
 * Reads lines "GAME PLAYERS SEARCH WON" from FIT ("-": standard input);
 * prints one line per crew size with positions, a and b, then the table
 * as review.c spells it.  With CHECK, positions of other games (another
 * --raw file), it then prints their calibration table under those
 * coefficients, as bench/calibration does: a check out of sample.
 * Exit 0; 1 on a line it cannot read (naming it), or a fit that does not
 * settle (all won or all lost, say); 2 on a usage error.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game.h"
#include "interval.h"
#include "review.h"

enum {
	FIT_MAX_LINE = 128,
	FIT_MAX_POSITIONS = 10000000,   /* per run: more is a wrong file */
	FIT_STEPS = 100,
	FIT_BINS = 10
};

enum { CREW_SIZES = 2 };            /* small and large, as review.c */

typedef struct coefs {
	double a[CREW_SIZES], b[CREW_SIZES];
} coefs;

static int crew_size(int players)
{
	return players >= REVIEW_LARGE_CREW;
}

static int fewest_players(int size)
{
	return size ? REVIEW_LARGE_CREW : BT_MIN_PLAYERS;
}

static int most_players(int size)
{
	return size ? BT_MAX_PLAYERS : REVIEW_LARGE_CREW - 1;
}

/* One rated position. */
typedef struct position {
	double x;                    /* logit of the search's chance */
	int won;
	uint64_t game;
} position;

/* The positions of one player count. */

typedef struct sample {
	position *at;
	size_t n, cap;
} sample;

static double logit(double p)
{
	const double eps = 0.005;    /* as review_calibrated clamps */

	p = p < eps ? eps : p > 1 - eps ? 1 - eps : p;
	return log(p / (1 - p));
}

static int add(sample *s, uint64_t game, double x, int won)
{
	if (s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 1024;
		position *at = realloc(s->at, cap * sizeof *at);
		if (!at)
			return -1;
		s->at = at;
		s->cap = cap;
	}
	s->at[s->n].x = x;
	s->at[s->n].game = game;
	s->at[s->n].won = won;
	s->n++;
	return 0;
}

/* Newton's method from a = 0, b = 1 on the positions of by_players
 * from fewest to most players; 0, or -1 if it does not settle. */
static int fit(const sample *by_players, int fewest, int most, double *a,
               double *b)
{
	*a = 0;
	*b = 1;
	for (int step = 0; step < FIT_STEPS; step++) {
		double ga = 0, gb = 0, haa = 0, hab = 0, hbb = 0, det, da, db;
		for (int p = fewest; p <= most; p++)
			for (size_t i = 0; i < by_players[p].n; i++) {
				double x = by_players[p].at[i].x;
				double q = 1 / (1 + exp(-(*a + *b * x)));
				double w = q * (1 - q), d = by_players[p].at[i].won - q;
				ga += d;
				gb += d * x;
				haa += w;
				hab += w * x;
				hbb += w * x * x;
			}
		det = haa * hbb - hab * hab;
		if (!(det > 0))
			return -1;
		da = (hbb * ga - hab * gb) / det;
		db = (haa * gb - hab * ga) / det;
		*a += da;
		*b += db;
		if (fabs(da) + fabs(db) < 1e-10)
			return isfinite(*a) && isfinite(*b) ? 0 : -1;
	}
	return -1;
}

/* Reads f (named path) into per-player-count samples; 0, or -1 after
 * saying why. */
static int read_positions(FILE *f, const char *path, sample *by_players)
{
	char line[FIT_MAX_LINE];
	size_t total = 0;

	for (unsigned long no = 1; fgets(line, sizeof line, f); no++) {
		uint64_t game;
		int players, won, used = 0;
		double chance;
		if (!strchr(line, '\n') ||
		    sscanf(line, "%" SCNu64 " %d %lf %d%n", &game, &players,
		           &chance, &won, &used) != 4 ||
		    line[used] != '\n' || players < BT_MIN_PLAYERS ||
		    players > BT_MAX_PLAYERS || !(chance >= 0 && chance <= 1) ||
		    (won != 0 && won != 1)) {
			fprintf(stderr, "calibration_fit: %s: line %lu is not "
			        "\"GAME PLAYERS SEARCH WON\"\n", path, no);
			return -1;
		}
		if (++total > FIT_MAX_POSITIONS) {
			fprintf(stderr, "calibration_fit: %s: too many lines\n",
			        path);
			return -1;
		}
		if (add(&by_players[players], game, logit(chance), won)) {
			fputs("calibration_fit: out of memory\n", stderr);
			return -1;
		}
	}
	if (ferror(f)) {
		fprintf(stderr, "calibration_fit: cannot read %s\n", path);
		return -1;
	}
	return 0;
}

/* Reads path's lines into per-player-count samples; 0, or -1 after
 * saying why. */
static int read_file(const char *path, sample *by_players)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "r") : stdin;
	int rc;

	if (!f) {
		fprintf(stderr, "calibration_fit: %s: %s\n", path,
		        strerror(errno));
		return -1;
	}
	rc = read_positions(f, path, by_players);
	if (f != stdin)
		fclose(f);
	return rc;
}
/* One bin of the check: positions, won, and the sum of their ratings. */
typedef struct bin {
	uint64_t n, won;
	double rating;
	uint64_t games, sq;          /* as interval_by_games counts them */
	uint64_t last_game, run;     /* the positions of the game last seen */
} bin;

static void end_run(bin *b)
{
	if (!b->run)
		return;
	b->games++;
	b->sq += b->run * b->run;
	b->run = 0;
}

/* A game's positions come together (bench/calibration writes them so). */
static void add_to_bin(bin *b, const position *at, double rating)
{
	if (b->run && b->last_game != at->game)
		end_run(b);
	b->last_game = at->game;
	b->run++;
	b->n++;
	b->won += (uint64_t)at->won;
	b->rating += rating;
}

static double calibrated(const coefs *c, int players, double x)
{
	int size = crew_size(players);

	return 1 / (1 + exp(-(c->a[size] + c->b[size] * x)));
}

/* Prints the calibration table of by_players under c, as bench/
 * calibration prints its own. */
static void print_check(const sample *by_players, const coefs *c)
{
	bin bins[FIT_BINS];
	double worst = 0;
	int worst_bin = -1;

	memset(bins, 0, sizeof bins);
	for (int p = BT_MIN_PLAYERS; p <= BT_MAX_PLAYERS; p++)
		for (size_t i = 0; i < by_players[p].n; i++) {
			double r = calibrated(c, p, by_players[p].at[i].x);
			int k = (int)(r * FIT_BINS);
			add_to_bin(&bins[k < FIT_BINS ? k : FIT_BINS - 1],
			           &by_players[p].at[i], r);
		}
	puts("\n| rating | positions | games | mean rating | won | 95% "
	     "interval (by games) | difference (points) |\n"
	     "|---|---:|---:|---:|---:|---|---:|");
	for (int k = 0; k < FIT_BINS; k++) {
		bin *b = &bins[k];
		double mean, won, lo, hi;
		end_run(b);
		if (!b->n) {
			printf("| %d-%d%% | 0 | 0 | - | - | - | - |\n", 10 * k,
			       10 * k + 10);
			continue;
		}
		mean = 100 * b->rating / (double)b->n;
		won = 100 * (double)b->won / (double)b->n;
		interval_by_games(b->won, b->n, b->sq, &lo, &hi);
		printf("| %d-%d%% | %" PRIu64 " | %" PRIu64 " | %.1f%% | %.1f%% | "
		       "%.1f%% - %.1f%% | %+.1f |\n", 10 * k, 10 * k + 10, b->n,
		       b->games, mean, won, 100 * lo, 100 * hi, won - mean);
		if (b->n >= 50 && fabs(won - mean) > worst) {
			worst = fabs(won - mean);
			worst_bin = k;
		}
	}
	if (worst_bin >= 0)
		printf("\nlargest |difference| among bins of 50+ positions: "
		       "%.1f points (%d-%d%%)\n", worst, 10 * worst_bin,
		       10 * worst_bin + 10);
}

static void free_samples(sample *by_players)
{
	for (int p = 0; p <= BT_MAX_PLAYERS; p++)
		free(by_players[p].at);
}

/* Fits c on by_players and prints it; 0, or -1 after saying why. */
static int fit_all(const sample *by_players, coefs *c)
{
	size_t n[CREW_SIZES] = { 0 };

	for (int size = 0; size < CREW_SIZES; size++) {
		int fewest = fewest_players(size), most = most_players(size);
		c->a[size] = 0;
		c->b[size] = 1;
		for (int p = fewest; p <= most; p++)
			n[size] += by_players[p].n;
		if (!n[size])
			continue;
		if (fit(by_players, fewest, most, &c->a[size], &c->b[size])) {
			fprintf(stderr, "calibration_fit: the fit for %d-%d players "
			        "does not settle\n", fewest, most);
			return -1;
		}
		printf("players %d-%d: %zu positions, a %.4f, b %.4f\n", fewest,
		       most, n[size], c->a[size], c->b[size]);
	}
	for (int size = 0; size < CREW_SIZES; size++)
		if (n[size])
			printf("\t[%d] = { %.4f, %.4f },   /* %d-%d players */\n",
			       size, c->a[size], c->b[size], fewest_players(size),
			       most_players(size));
	return 0;
}

int main(int argc, char **argv)
{
	static sample fit_set[BT_MAX_PLAYERS + 1], check_set[BT_MAX_PLAYERS + 1];
	coefs c;
	int rc = 0;

	if (argc < 2 || argc > 3) {
		fputs("usage: calibration_fit FIT [CHECK] (files from "
		      "calibration --raw; -: standard input)\n", stderr);
		return 2;
	}
	if (read_file(argv[1], fit_set) || fit_all(fit_set, &c) ||
	    (argc == 3 && read_file(argv[2], check_set)))
		rc = 1;
	if (!rc && argc == 3)
		print_check(check_set, &c);
	free_samples(fit_set);
	free_samples(check_set);
	if (!rc && (fflush(stdout) || ferror(stdout))) {
		fputs("calibration_fit: cannot write\n", stderr);
		rc = 1;
	}
	return rc;
}
