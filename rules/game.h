/*
 * game.h - the Buffer Time engine (RULES.md R1-R11).
 *
 * A game is a plain fixed-size struct: no pointers, no allocation, so it
 * can be copied with memcpy and compared with memcmp.  The engine does no
 * I/O.  Typical use:
 *
 *	bt_game g;
 *	bt_error err;
 *	if (bt_game_init(&g, players, first, key, &err) ||
 *	    bt_game_start(&g, &err))
 *		... err.why ...
 *	while (g.status == BT_PLAYING) {
 *		bt_action legal[BT_MAX_LEGAL];
 *		int n = bt_legal(&g, legal, BT_MAX_LEGAL);
 *		bt_apply(&g, &legal[choice], &err);
 *	}
 *
 * Piles are arrays whose index 0 is the bottom: a deck's top card is
 * c[n - 1], a stack's or row's newest card is c[n - 1].
 */
#ifndef BT_GAME_H
#define BT_GAME_H

#include <stddef.h>
#include <stdint.h>

#include "cards.h"
#include "rng.h"

enum {
	BT_MIN_PLAYERS = 2,
	BT_MAX_PLAYERS = 6,
	BT_ASSIGNMENT_DECK_SIZE = 5,  /* R3.1 */
	BT_STARTING_ABILITIES = 2,    /* R3.2 */
	BT_SIDES_IN_HAND = 2,         /* R4.1 */
	BT_REPRIMAND_OFFICERS = 4,    /* R4.3, R6 */
	BT_SWEEP_CARDS = 3,           /* R9 Sensor Sweep */
	BT_BRAINSTORM_CARDS = 2,      /* R9 Brainstorm */
	BT_MAX_LEGAL = 1024,          /* bound on bt_legal's list */
	BT_STACK_MAX = BT_SHIFT_COUNT + 3, /* shift cards and Overtimes */
	BT_ROW_MAX = BT_ASSIGN_COUNT + BT_SIDE_COUNT + 2
};

typedef enum bt_status { BT_PLAYING, BT_WON, BT_LOST } bt_status;

typedef enum bt_verb {
	BT_WORK,     /* GET TO WORK */
	BT_SIDE,     /* START A SIDE PROJECT */
	BT_SPECIAL,  /* DO SOMETHING SPECIAL */
	BT_LOG,      /* LOG A COMPLETED ASSIGNMENT */
	BT_VERB__MAX
} bt_verb;

/* The four decks that are shuffled, in the order R3 shuffles them. */
typedef enum bt_deck {
	BT_DECK_ASSIGNMENT,
	BT_DECK_ABILITY,
	BT_DECK_SIDE,
	BT_DECK_SHIFT,
	BT_DECK__MAX
} bt_deck;

/*
 * One action with its choices.  card is the side project or ability
 * played (BT_NO_CARD for work and log).  For an ability, arg[] holds the
 * choice of R9 / RECORD.md: Cover Story arg[0] = officer; Sensor Sweep
 * arg[0..nargs-1] = new order, top first; Scale Back arg[0] = side
 * project; Hand Off arg[0] = card given, arg[1] = receiving seat.
 */
typedef struct bt_action {
	uint8_t seat;
	uint8_t verb;   /* bt_verb */
	bt_card card;
	uint8_t nargs;
	uint8_t arg[BT_SWEEP_CARDS];
} bt_action;

/* Why an action or a setup step was refused. */
typedef enum bt_errcode {
	BT_OK = 0,
	BT_ERR_SETUP,          /* bad players, first seat or stack */
	BT_ERR_GAME_OVER,
	BT_ERR_NOT_YOUR_TURN,
	BT_ERR_BAD_ACTION,     /* verb/card/args of the wrong shape */
	BT_ERR_ILLEGAL,        /* well-formed, but the rules forbid it now */
	BT_ERR_STACK           /* a waiting stack line does not fit its deck */
} bt_errcode;

typedef struct bt_error {
	bt_errcode code;
	int rule;          /* R-number of RULES.md, 0 if none */
	bt_deck deck;      /* for BT_ERR_STACK: which deck's stack failed */
	char why[160];     /* one line, no trailing newline */
} bt_error;

/* A deck of up to 28 cards: c[n-1] is the top. */
typedef struct bt_pile {
	uint8_t n;
	bt_card c[BT_SHIFT_COUNT];
} bt_pile;

/* Names the layout of bt_game: bump it when the struct changes, so that
 * stored snapshots of the old layout are rebuilt, never misread. */
enum { BT_STATE_FORMAT = 1 };

typedef struct bt_game {
	/* seats and progress */
	uint8_t players, first, turn, round;
	uint8_t status;             /* bt_status */
	uint8_t ender;              /* seat whose action ended the last round */
	uint16_t actions;           /* actions applied */
	uint16_t reprimands;

	/* totals kept up to date by every move (R5); see bt_game_check() */
	int16_t effort, target, officers, leisure;

	/* the table */
	bt_card duty;               /* BT_NO_CARD between rounds / at the end */
	bt_pile assignment_deck;    /* at most 18 */
	bt_pile set_aside;          /* top = next for Extra Duty */
	bt_pile side_deck, shift_deck, ability_deck, ability_discard;
	uint8_t side_play_n, stack_n, row_n;
	bt_card side_play[BT_SIDE_COUNT];  /* in the order played */
	bt_card stack[BT_STACK_MAX];       /* bottom first */
	bt_card row[BT_ROW_MAX];           /* oldest first */
	uint64_t hand[BT_MAX_PLAYERS];     /* bit c set: seat holds card c */
	uint64_t box[2];                   /* cards out of the game */

	/* R10: how many top cards of the Shift Deck each seat has seen, and
	 * how many bottom cards everyone saw put there (Cover Story, Deflect) */
	uint8_t known_top[BT_MAX_PLAYERS];
	uint8_t known_any;          /* 1 if any known_top is nonzero */
	uint8_t known_bottom;

	/* R11: records' stack lines waiting for their deck's next shuffle */
	uint8_t rig_n[BT_DECK__MAX];       /* 0: none waiting */
	bt_card rig[BT_DECK__MAX][BT_SHIFT_COUNT];

	bt_rng rng;
} bt_game;

/*
 * Prepares a game for players (2..6) with First Player first (1..players)
 * and the 32-byte shuffle key.  Nothing is shuffled yet: stack lines may
 * be added with bt_game_stack() before bt_game_start().  Returns 0, or
 * BT_ERR_SETUP with err filled in.
 */
int bt_game_init(bt_game *g, int players, int first,
                 const uint8_t key[BT_KEY_BYTES], bt_error *err);

/*
 * Rigs the next shuffle of deck: after it, cards[0..n-1] go on top in
 * this order, top first (RECORD.md "stack").  Fails with BT_ERR_SETUP if
 * a card does not belong to that deck, repeats, or a stack for that deck
 * is already waiting.  Whether the cards are in the deck is checked at the
 * shuffle, which then fails with BT_ERR_STACK.
 */
int bt_game_stack(bt_game *g, bt_deck deck, const bt_card *cards, int n,
                  bt_error *err);

/* Runs setup (R3) and starts round 1 (R4).  Returns 0 or an error. */
int bt_game_start(bt_game *g, bt_error *err);

/* bt_game_init() then bt_game_start(), for games without stack lines. */
int bt_game_new(bt_game *g, int players, int first,
                const uint8_t key[BT_KEY_BYTES], bt_error *err);

/*
 * Writes the legal actions of the seat to move into out (at most max) and
 * returns how many there are; 0 once the game is over.  Each choice of an
 * ability is its own action.  Order: work, log, sides by id, specials by
 * card id then choice.
 */
int bt_legal(const bt_game *g, bt_action *out, int max);

/* 1 if the seat to move has at least one legal action, else 0. */
int bt_has_legal(const bt_game *g);

/* 0 if a is legal now; else the error, with its rule and reason. */
int bt_check(const bt_game *g, const bt_action *a, bt_error *err);

/*
 * Applies a after checking it.  On error the game is unchanged (except on
 * BT_ERR_STACK, raised mid-move by a rigged shuffle: the game is then
 * unusable and must be discarded).
 */
int bt_apply(bt_game *g, const bt_action *a, bt_error *err);

/*
 * bt_apply() without the check, for bots that play millions of games: a
 * must be one of the actions bt_legal() listed for this very state.
 * Anything else (input from a person or a file) goes through bt_apply().
 */
int bt_apply_legal(bt_game *g, const bt_action *a, bt_error *err);

/* Leisure Goal for the game's player count (R5). */
int bt_goal(const bt_game *g);

/* Leisure Goal for a game of players (R5); 0 outside 2..6. */
int bt_goal_for(int players);

/* Number of cards seat holds (hand sizes are public, R10). */
int bt_hand_size(const bt_game *g, int seat);

/*
 * Checks the game's invariants: every card in exactly one place, the
 * kept totals equal their definitions (R5), piles within bounds.  Returns
 * 0, or -1 with the first broken one described in why.
 */
int bt_game_check(const bt_game *g, char *why, size_t cap);

/*
 * The chance, as a fraction num/den, that the next Shift card drawn
 * triggers a reprimand, from what seat may know (R10): the cards not in
 * the stack, and the top cards its Sensor Sweep showed.  den is 0 if the
 * Shift Deck is empty.
 */
void bt_risk(const bt_game *g, int seat, int *num, int *den);

/* What a reprimand now would cost the crew (R7; R8.2 when it ends the
 * game).  All public (R10). */
typedef struct bt_stake {
	bt_card duty;        /* the Duty Assignment, to the box; or BT_NO_CARD */
	int sides;           /* Side Projects in play, back to their deck */
	bt_card row_card;    /* the Scoring Row card to the box; or BT_NO_CARD */
	int row_leisure;     /* its Leisure */
	int leisure_after;   /* the Leisure Total after it */
	int game_lost;       /* 1: the Assignment Deck is empty, the crew loses */
} bt_stake;

void bt_reprimand_stake(const bt_game *g, bt_stake *out);

/* The index in g->row of the card a reprimand would remove (R7.3), or
 * -1 if the Scoring Row is empty. */
int bt_row_reprimand_index(const bt_game *g);

/* What logging the assignment now would bring (R6). */
typedef struct bt_gain {
	int cards;           /* the Duty Assignment and the Side Projects */
	int leisure;         /* their Leisure */
	int total;           /* the Leisure Total after it */
	int wins;            /* 1: the total reaches the goal, the crew wins */
	int game_lost;       /* 1: not a win, and no Assignment is left */
} bt_gain;

void bt_log_gain(const bt_game *g, bt_gain *out);

/*
 * The most Leisure the crew could have at its next win check if every
 * card it cannot see went its way: an upper bound from the public table
 * (R10), so any seat may be told.  Before the last round it counts every
 * card that may still reach the Scoring Row; in the last round (no
 * Assignment left to deal, and no Extra Duty that may be in a hand to
 * bring one) only what the hands, a Brainstorm's draws and the Effort
 * left could bring to the one log that remains.  The Leisure Total once
 * the game is over.
 */
int bt_leisure_ceiling(const bt_game *g);

/* 1 if the game is on and bt_leisure_ceiling() is below the goal: the
 * crew can no longer win, whatever comes. */
int bt_out_of_reach(const bt_game *g);

/* 1 if action a, which took the game from before to after, may be taken
 * back before the next action: a Side Project or an Ability that neither
 * draws, reveals, looks nor gives (Overtime, Cover Story, Extra Duty,
 * Holodeck Reservation, Scale Back), that used no chance and did not end
 * the round or the game.  Replaying the game without it then gives
 * before again, and nobody learnt anything from it (takeback.c). */
int bt_take_back_ok(const bt_game *before, const bt_action *a,
                    const bt_game *after);

/* 1 if drawing Shift card c onto the stack now brings a reprimand. */
int bt_draw_reprimands(const bt_game *g, bt_card c);

#endif
