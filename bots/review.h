/*
 * review.h - after the game: the crew's chance of winning before and
 * after every move, as the search estimates it from what the mover
 * could know (the public table, the mover's hand and its own Sensor
 * Sweeps: no table talk is assumed), and the moves that changed it most.
 *
 * Chances are calibrated (review_calibrated).  Before move k is the
 * chance with the mover's best option (the one that
 * won most often in the search's games: as the figures go, not the
 * search's more cautious pick); after it is the chance before the next move (its
 * luck included: the cards drawn, a reprimand), or 1 or 0 once the game
 * is over.  Each move also keeps the chance of the option played, and
 * the search's preferred option with its chance.
 *
 * Pure computation on the engine and the search (no I/O): the command
 * line, the worker and the web pages present it.  Deterministic given
 * the budget and seed.
 */
#ifndef BOT_REVIEW_H
#define BOT_REVIEW_H

#include <stddef.h>
#include <stdint.h>

#include "game.h"
#include "record.h"
#include "search.h"

enum {
	REVIEW_MAX_MOVES = BT_RECORD_MAX_ITEMS,
	REVIEW_TURNING_POINTS = 3,
	/* Games played out per move by default: those at which
	 * review_calibrated was fitted (another count would want a fit of
	 * its own); some 2 s for a 60-move game on one core.  Not the
	 * bots' budget: the review weighs every action, a bot drops the
	 * clear losers early. */
	REVIEW_DEFAULT_ROLLOUTS = 2000,
	/* review_calibrated corrects the chances of crews this large and
	 * of smaller ones apart (review.c says why) */
	REVIEW_LARGE_CREW = 4
};

typedef struct review_move {
	bt_action action;        /* as recorded */
	uint8_t round;           /* the round it was made in */
	int16_t leisure_before, leisure_after;
	double before;           /* chance with the mover's best option */
	double search_before;    /* the same before calibration: for a refit */
	double played;           /* chance of the option played */
	double after;            /* chance before the next move; 1/0 at the end */
	bt_action best;          /* the option that did best (a sweep:
	                          * the card, order left open) */
	int best_sweep;          /* best is "play this Sensor Sweep" */
	int best_is_played;      /* the move was that option */
	int options;             /* options the mover had */
} review_move;

typedef struct review {
	int players;
	int won;                 /* 1 won, 0 lost, -1 the game is not over */
	int leisure, goal;       /* at the end */
	int nmoves;
	review_move move[REVIEW_MAX_MOVES];
	/* the moves whose after - before was largest in size, largest first
	 * (fewer if the game is shorter); indices into move[] */
	int nturning;
	int turning[REVIEW_TURNING_POINTS];
} review;

/* The game as rec's header sets it up, before any line after it.
 * Returns 0, or -1 with err filled in. */
int review_set_up(const bt_record *rec, bt_game *g, bt_error *err);

/* m's best option as a record writes an action ("2 work"; a sweep to
 * play, its order left open: "2 special X04"), into buf (cap bytes). */
void review_best_text(const review_move *m, char *buf, size_t cap);

/* The chance p (0..1) the search gave an option in a game of players,
 * calibrated: as often won as it says, in games of search bots (the
 * search's own rollouts play worse; review.c says how it is fitted).
 * Increasing in p; in (0, 1). */
double review_calibrated(int players, double p);

/*
 * The figures of move k (counting from 0) of a review from seed: a about
 * to be made in g, weighed with rollouts games from the mover's
 * observation.  Fills m but its leisure_after and after (the caller
 * knows them once a is applied, and after the next move).  A move's
 * figures depend only on g, a, rollouts, seed and k, so a review may be
 * computed a few moves at a time.  Returns 0, or -1 (out of memory, or
 * the search failed on g: a bug).
 */
int review_weigh_move(bot *b, const bt_game *g, const bt_action *a,
                      int rollouts, uint64_t seed, int k, review_move *m);

/* Once r->move[0..nmoves-1] are weighed, with end the final state: links
 * each move's after to the next one's before (the last: 1 won, 0 lost),
 * sets the result and picks the turning points. */
void review_finish(review *r, const bt_game *end);

/*
 * Reviews the game rec records (a replayed record: bt_replay's rec),
 * rollouts games per move from seed.  b is a bot's scratch memory.
 * Returns 0, or -1 with err filled in (the record does not replay, or
 * the search failed on a state: a bug).
 */
int review_record(bot *b, const bt_record *rec, int rollouts, uint64_t seed,
                  review *out, bt_error *err);

#endif
