/*
 * observe.h - what one seat may know of a game (R10), as data, and whole
 * games drawn at random that agree with it.
 *
 * A bot is given an observation, never the game: it cannot use what its
 * seat does not see, because it does not have it.  Typical use:
 *
 *	bt_obs o;
 *	bt_game world;
 *	bt_observe(&g, seat, &o);
 *	bt_obs_sample(&o, my_draw, my_rng, &world);   (as often as needed)
 *
 * The seat knows: its own hand, the public table (Duty Assignment, Side
 * Projects in play, Shift Stack, Scoring Row, Ability discard, the cards
 * out of the game, every total), the size of every deck and hand, the top
 * Shift Deck cards its own Sensor Sweep showed and the bottom ones that
 * everyone saw put there (Cover Story, Deflect).  It does not know the
 * other hands, the order of any deck beyond those cards, which
 * Assignments are set aside, nor the shuffle key.  R10 allows table talk;
 * an observation holds only what the seat saw itself (no other hand, no
 * other seat's Sensor Sweep) unless it is built with bt_observe_told(),
 * which adds what chosen seats told it; it has no memory of past moves:
 * it is built from the current state alone.
 */
#ifndef BT_OBSERVE_H
#define BT_OBSERVE_H

#include <stdint.h>

#include "game.h"

typedef struct bt_obs {
	uint8_t seat;                       /* 1..players */
	uint8_t players;
	uint8_t hand_size[BT_MAX_PLAYERS];  /* every seat's, public */
	uint64_t hand;                      /* the seat's own cards */
	uint8_t told;   /* bit s-1: seat s told its hand */
	/* the Shift Deck cards whose place the seat knows */
	uint8_t known_top_n;                /* top first */
	bt_card known_top[BT_SWEEP_CARDS];
	uint8_t known_bottom_n;             /* bottom first */
	bt_card known_bottom[BT_SHIFT_COUNT];
	/* bit c of unseen[c / 64]: the seat does not know where card c is
	 * (another hand, or an unknown place in a deck or the set-aside
	 * pile) */
	uint64_t unseen[2];
	/*
	 * The game as the seat sees it: other hands empty, every card whose
	 * place it does not know replaced by BT_NO_CARD (piles keep their
	 * sizes), the shuffle stream and waiting stack lines zeroed.  Not a
	 * playable game: bt_obs_sample() makes one from it.
	 */
	bt_game table;
} bt_obs;

/*
 * Fills o with what seat (1..g->players) may know of g.  Two games that
 * differ only in what the seat cannot see give byte-identical
 * observations.  Returns 0, or -1 if seat is out of range.
 */
int bt_observe(const bt_game *g, int seat, bt_obs *o);

/*
 * The observation of seat just after it plays Sensor Sweep and looks:
 * as bt_observe(), and the top cards of the Shift Deck (three, or fewer
 * if fewer remain) are known to it, in place.  This is what the seat
 * sees while it chooses the new order.  Returns 0 or -1 as bt_observe().
 */
int bt_observe_sweep(const bt_game *g, int seat, bt_obs *o);

/*
 * As bt_observe(), or bt_observe_sweep() if sweep is not 0, and the seat
 * heard at the table (R10 allows it) what the seats in told (bit s-1 for
 * seat s; its own bit and bits beyond the players are ignored) know: their
 * hands and the top cards their Sensor Sweeps showed.  Bots that play
 * together tell one another; a human's hand is never told.
 */
int bt_observe_told(const bt_game *g, int seat, unsigned told, int sweep,
                    bt_obs *o);

/*
 * As bt_observe_told(), with the hands and the sweeps told apart: the
 * seat heard the hands of the seats in hands, and the top cards that the
 * Sensor Sweeps of the seats in sweeps showed.  A person who shows the
 * crew their hand tells the hand only (o->told is hands).
 */
int bt_observe_heard(const bt_game *g, int seat, unsigned hands,
                     unsigned sweeps, int sweep, bt_obs *o);

/* Random numbers for sampling: a uniform integer in 0..bound-1 for
 * 1 <= bound <= 256, from the caller's own generator (ctx). */
typedef unsigned (*bt_draw_fn)(void *ctx, unsigned bound);

/*
 * Makes world a complete game that agrees with o: the unseen cards are
 * dealt uniformly at random (from draw) to the other hands (keeping
 * their sizes) and to the unknown places of the decks, known places are
 * kept, and the shuffle key for the future comes from draw too (never
 * the real one).  The result passes bt_game_check().  Returns 0, or -1
 * if o is not a consistent observation (world is then unspecified).
 */
int bt_obs_sample(const bt_obs *o, bt_draw_fn draw, void *ctx,
                  bt_game *world);

#endif
