/*
 * search.h - a crew mate that thinks, with only what its seat may know.
 *
 * The search bot is given the game and a seat, and at once reduces the
 * game to that seat's observation (observe.h, built by the engine), with
 * what the other bots at the table told it (their hands and sweeps, as
 * players may tell one another, R10): the search itself never sees the
 * game.  It then plays determinized Monte Carlo: it draws whole games
 * that agree with the observation (untold hands, deck orders and future
 * shuffles at random); in each it tries every legal action (a Sensor
 * Sweep as one "play it") and plays the game out with the greedy crew
 * (policy.h).  The same drawn
 * games serve every action (common random numbers: the differences
 * between actions are measured on the same deals), and actions that lose
 * clearly more often than the best one are dropped along the way, so the
 * budget goes to the close calls.  It picks the action that won most
 * often, Leisure margin (final Leisure less the goal) breaking ties,
 * unless it does not beat the crew's own most frequent choice by 1.5
 * standard errors (the best of many actions is often best by luck): then
 * it plays the crew's choice.
 *
 * Sensor Sweep is decided in two steps, as a player does: whether to
 * play it, without seeing the cards (its order in each drawn game is the
 * greedy crew's), then the order, with the top cards seen.
 *
 * Deterministic: the same game, seat, budget in rollouts and seed give
 * the same action on every machine.  A budget in milliseconds depends on
 * the machine's speed and load, so it is not.  The random numbers come
 * from the bot's own generator (xoshiro256**), never the game's stream.
 *
 * Typical use (e.g. a worker that plays a bot seat):
 *
 *	bot *b = bot_new();
 *	bot_budget budget = { BOT_DEFAULT_ROLLOUTS, 0, 0 };
 *	bt_action a;
 *	if (bot_search(b, &g, g.turn, 0, &budget, seed, &a, NULL) == 0)
 *		... a is one of bt_legal(&g) ...
 *	bot_free(b);
 */
#ifndef BOT_SEARCH_H
#define BOT_SEARCH_H

#include <stdint.h>

#include "game.h"
#include "observe.h"

enum {
	/* Games played out per decision by default: a median decision of
	 * 43 ms (2 players) to 87 ms (6) on one core of the development
	 * machine.  Half as many lose 3 points of wins at 3 players
	 * (bench/bots.sh; README, "How good the bots are"). */
	BOT_DEFAULT_ROLLOUTS = 4000,
	BOT_MAX_ROLLOUTS = 10000000,
	BOT_MAX_THINK_MS = 600000,
	/* Bounds of one decision's search (memory is allocated once). */
	BOT_MAX_CANDIDATES = 256,
	BOT_MAX_WORLDS = 65536
};

/* Variants, for measuring what each part of the search is worth. */
enum {
	BOT_INDEPENDENT = 1,  /* a fresh drawn game per action and trial */
	BOT_NO_PRUNE = 2,     /* never drop an action early */
	BOT_SHORTLIST = 4,    /* weigh only the greedy crew's picks, work, log */
	BOT_ESTIMATE = 8      /* (bot_estimate_options: weigh even one action) */
};

/* How much a bot may think about one decision. */
typedef struct bot_budget {
	int rollouts;     /* games played out (> 0); or 0: think_ms */
	int think_ms;     /* wall-clock milliseconds, when rollouts is 0 */
	unsigned flags;   /* BOT_INDEPENDENT, BOT_NO_PRUNE; normally 0 */
} bot_budget;

/* What one decision cost. */
typedef struct bot_stats {
	uint64_t rollouts;   /* games played out */
	uint64_t worlds;     /* games drawn */
	int candidates;      /* actions considered */
} bot_stats;

/* A bot's scratch memory: one per thread, reused across decisions. */
typedef struct bot bot;

/* A new bot, or NULL if out of memory. */
bot *bot_new(void);
void bot_free(bot *b);

/*
 * Chooses seat's action in g (seat must be g->turn, the game playing)
 * from the seat's observation only (with what the seats in told told it:
 * bt_observe_told()), within budget, deterministically
 * from seed.  *out is then one of bt_legal(g)'s actions.  st may be NULL.
 * Returns 0, or -1 if it is not seat's turn, the budget is out of range
 * or the observation is inconsistent.
 */
int bot_search(bot *b, const bt_game *g, int seat, unsigned told,
               const bot_budget *budget, uint64_t seed, bt_action *out,
               bot_stats *st);

/* What a seat heard at the table (R10 allows table talk): bit s-1 of
 * hands, seat s's hand; of sweeps, the top Shift cards seat s's Sensor
 * Sweep showed.  Bot seats tell each other both; a person who shows the
 * crew their hand tells the hand only. */
typedef struct bot_heard {
	unsigned hands, sweeps;
} bot_heard;

/* The figures behind one decision of bot_search_heard, for the bot's
 * table talk (bot_talk.h): what the crew's default would have won,
 * against the move chosen, on the same drawn games. */
typedef struct bot_figures {
	int options;          /* actions weighed (1: nothing to choose) */
	uint64_t games;       /* drawn games the choice was played in */
	double chance;        /* share of them won after the move, 0..1 */
	int crew_differs;     /* 1: the greedy crew would have played crew */
	bt_action crew;       /* its choice (a sweep: the card only) */
	double crew_chance;   /* share of games won after it */
	int risk_num, risk_den;  /* the next Shift card brings a reprimand,
	                          * as far as the bot knows the deck (told
	                          * sweeps too); den 0: the deck is empty */
	int effort_needed;    /* Target less Effort before the move */
	int swept;            /* 1: the move is a Sensor Sweep, its order
	                       * (the action's arguments) chosen seeing them */
} bot_figures;

/*
 * bot_search, with what the seat heard given as hands and sweeps apart
 * (heard may be NULL: nothing), and the figures of its decision into
 * *fig (may be NULL).  Returns 0 or -1 as bot_search.
 */
int bot_search_heard(bot *b, const bt_game *g, int seat,
                     const bot_heard *heard, const bot_budget *budget,
                     uint64_t seed, bt_action *out, bot_figures *fig);

/* The observation the bot's last decision started from (its last
 * bot_search's; after a Sensor Sweep, the one it chose the order in). */
const bt_obs *bot_observation(const bot *b);

/* One action as the search weighed it. */
typedef struct bot_option {
	bt_action a;         /* sweep: the card only, its order left open */
	int sweep;           /* "play this Sensor Sweep", the order chosen
	                      * in each drawn game as the greedy crew would */
	double chance;       /* share of the drawn games won after it, 0..1 */
	double margin;       /* their mean Leisure margin (Leisure - goal) */
} bot_option;

/* What each of a seat's actions is worth, as far as the seat can know. */
typedef struct bot_estimate {
	int n;                           /* options (1..BOT_MAX_CANDIDATES) */
	int best;                        /* the one that won most often
	                                  * (Leisure margin breaking ties) */
	int choice;                      /* the one the search would play:
	                                  * best, unless it does not beat the
	                                  * greedy crew's clearly (search.c) */
	uint64_t games;                  /* drawn games each was played in */
	bot_option option[BOT_MAX_CANDIDATES];
} bot_estimate;

/*
 * Weighs every one of seat's actions in g, even a lone one, from the
 * seat's observation (told as for bot_search), on the same drawn games:
 * budget->rollouts shared among them, none dropped early.  The chances
 * are those of the crew winning if the greedy crew plays on after the
 * action.  Deterministic as bot_search.  Returns 0, or -1 as it does.
 */
int bot_estimate_options(bot *b, const bt_game *g, int seat, unsigned told,
                         const bot_budget *budget, uint64_t seed,
                         bot_estimate *out);

/* The option of e that action a (any action of the game, a sweep with
 * its order) is, or -1. */
int bot_option_of(const bot_estimate *e, const bt_action *a);

/*
 * The same search on the true state: every hand, the deck orders and the
 * future shuffles are known, so each action needs one playout.  An upper
 * bound for honest play, for the simulator only.  Returns 0 or -1.
 */
int bot_clairvoyant(bot *b, const bt_game *g, bt_action *out,
                    bot_stats *st);

/* The index of action a in legal[0..n-1], or -1. */
int bot_action_index(const bt_action *legal, int n, const bt_action *a);

/* The policy named name's budget-aware kind: 1 for "search", 2 for
 * "clairvoyant", 0 for anything else. */
int bot_kind_by_name(const char *name);

#endif
