/*
 * engine.h - what the engine's files share and nobody else needs:
 * pile and hand primitives that keep the R5 totals current, and the
 * round machinery of R4, R7 and R8.
 */
#ifndef BT_ENGINE_H
#define BT_ENGINE_H

#include "game.h"

#if defined(__GNUC__)
#define BT_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define BT_PRINTF(f, a)
#endif

/* Fills err (if not NULL) and returns code. */
int bt_fail(bt_error *err, bt_errcode code, int rule, const char *fmt, ...)
	BT_PRINTF(4, 5);

/* --- piles: index 0 is the bottom --------------------------------------- */

static inline void pile_push(bt_pile *p, bt_card c)
{
	p->c[p->n++] = c;
}

static inline bt_card pile_pop(bt_pile *p)
{
	return p->c[--p->n];
}

static inline bt_card pile_top(const bt_pile *p)
{
	return p->c[p->n - 1];
}

void pile_push_bottom(bt_pile *p, bt_card c);

/* Index of c in a[0..n-1], or -1. */
int card_index(const bt_card *a, int n, bt_card c);

/* Removes a[i], keeping the order of the rest; returns the new count. */
uint8_t card_remove_at(bt_card *a, uint8_t n, int i);

/* --- hands: bit c of the mask ------------------------------------------- */

static inline uint64_t card_bit(bt_card c)
{
	return (uint64_t)1 << c;
}

static inline int hand_has(const bt_game *g, int seat, bt_card c)
{
	return c < BT_HANDABLE_COUNT && (g->hand[seat - 1] & card_bit(c)) != 0;
}

static inline void hand_add(bt_game *g, int seat, bt_card c)
{
	g->hand[seat - 1] |= card_bit(c);
}

static inline void hand_remove(bt_game *g, int seat, bt_card c)
{
	g->hand[seat - 1] &= ~card_bit(c);
}

/* Bits set in x; written out because the compiler's builtin becomes a
 * library call on processors without a popcount instruction. */
static inline int popcount64(uint64_t x)
{
	x = x - ((x >> 1) & 0x5555555555555555u);
	x = (x & 0x3333333333333333u) + ((x >> 2) & 0x3333333333333333u);
	x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0fu;
	return (int)((x * 0x0101010101010101u) >> 56);
}

/* The hand bits that are Side Projects / Ability cards. */
#define BT_SIDE_MASK ((((uint64_t)1) << BT_SIDE_COUNT) - 1)
#define BT_ABILITY_MASK (((((uint64_t)1) << BT_ABILITY_COUNT) - 1) \
                         << BT_ABILITY_FIRST)

static inline int seat_left_of(const bt_game *g, int seat)
{
	return seat % g->players + 1;
}

/* --- table moves that keep effort, target, officers, leisure current ---- */

void stack_push(bt_game *g, bt_card c);
void stack_remove_at(bt_game *g, int i);
void row_push(bt_game *g, bt_card c);
void row_remove_at(bt_game *g, int i);
void side_play_push(bt_game *g, bt_card c);
void side_play_remove_at(bt_game *g, int i);

/* Draws the Shift Deck's top card (deck not empty); seats' R10
 * knowledge of the top moves down with it. */
bt_card shift_draw(bt_game *g);

/* Puts c on the bottom of the Shift Deck, seen by everyone. */
void shift_put_bottom(bt_game *g, bt_card c);

/* --- decks and shuffles (R11), decks.c ------------------------------------ */

/* The pile that holds deck d's cards. */
bt_pile *deck_pile(bt_game *g, bt_deck d);

/* Puts every card of deck d in its pile, in card order (before R3). */
void deck_fill(bt_game *g, bt_deck d);

/* Shuffles deck d, then applies its waiting stack line, if any. */
int deck_shuffle(bt_game *g, bt_deck d, bt_error *err);

/* --- rounds ------------------------------------------------------------- */

/* R4: deals, reveals the duty and the first shift card, hands the turn to
 * the First Player; reprimands at once if R4.3 or STUCK call for it. */
int round_start(bt_game *g, bt_error *err);

/* R7 then R8: the crew is reprimanded; ender's action ended the round. */
int round_reprimand(bt_game *g, int ender, bt_error *err);

/* R8: the round ends after ender's action. */
int round_end(bt_game *g, int ender, bt_error *err);

/* R6: hands the turn to the next seat, reprimanding if it is STUCK. */
int turn_pass(bt_game *g, bt_error *err);

/* --- abilities (R9) ----------------------------------------------------- */

/* 0 if ability card a->card may be played by a->seat with a's choice. */
int ability_check(const bt_game *g, const bt_action *a, bt_error *err);

/* 1 if the ability card c has at least one legal use for seat. */
int ability_playable(const bt_game *g, int seat, bt_card c);

/* Carries out a checked ability action (the card is already out of the
 * hand) and puts the card where its text says. */
void ability_apply(bt_game *g, const bt_action *a);

/* Appends every legal choice of ability card c for seat to out[*n..max). */
void ability_list(const bt_game *g, int seat, bt_card c, bt_action *out,
                  int *n, int max);

/* GET TO WORK and LOG conditions (R6). */
static inline int can_work(const bt_game *g)
{
	return g->effort < g->target && g->shift_deck.n > 0;
}

static inline int can_log(const bt_game *g)
{
	return g->effort >= g->target;
}

#endif
