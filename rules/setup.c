/*
 * setup.c - creating a game (R1) and the setup before its first round
 * (R3): the decks filled and shuffled, the Assignments and Abilities
 * dealt.
 */
#include <string.h>

#include "engine.h"

int bt_game_init(bt_game *g, int players, int first,
                 const uint8_t key[BT_KEY_BYTES], bt_error *err)
{
	if (players < BT_MIN_PLAYERS || players > BT_MAX_PLAYERS)
		return bt_fail(err, BT_ERR_SETUP, 1,
		               "a game has 2 to 6 players, not %d", players);
	if (first < 1 || first > players)
		return bt_fail(err, BT_ERR_SETUP, 1,
		               "the First Player must be a seat from 1 to %d, "
		               "not %d", players, first);
	memset(g, 0, sizeof *g);
	g->players = (uint8_t)players;
	g->first = (uint8_t)first;
	g->duty = BT_NO_CARD;
	g->status = BT_PLAYING;
	bt_rng_init(&g->rng, key);
	for (int d = 0; d < BT_DECK__MAX; d++)
		deck_fill(g, (bt_deck)d);
	return 0;
}

/* R3.1: the top five Assignments are the deck; the rest, in the order the
 * shuffle left them, are set aside for Extra Duty. */
static int deal_assignments(bt_game *g, bt_error *err)
{
	bt_pile *all = &g->assignment_deck;
	int aside = all->n - BT_ASSIGNMENT_DECK_SIZE;

	if (deck_shuffle(g, BT_DECK_ASSIGNMENT, err))
		return BT_ERR_STACK;
	memcpy(g->set_aside.c, all->c, (size_t)aside);
	g->set_aside.n = (uint8_t)aside;
	memmove(all->c, all->c + aside, BT_ASSIGNMENT_DECK_SIZE);
	all->n = BT_ASSIGNMENT_DECK_SIZE;
	return 0;
}

/* R3.2: from the First Player clockwise, two Ability cards each. */
static void deal_abilities(bt_game *g)
{
	int seat = g->first;

	for (int i = 0; i < g->players; i++) {
		for (int k = 0; k < BT_STARTING_ABILITIES && g->ability_deck.n; k++)
			hand_add(g, seat, pile_pop(&g->ability_deck));
		seat = seat_left_of(g, seat);
	}
}

int bt_game_start(bt_game *g, bt_error *err)
{
	if (g->round)
		return bt_fail(err, BT_ERR_SETUP, 3, "the game has started");
	if (deal_assignments(g, err) ||
	    deck_shuffle(g, BT_DECK_ABILITY, err))
		return BT_ERR_STACK;
	deal_abilities(g);
	if (deck_shuffle(g, BT_DECK_SIDE, err) ||
	    deck_shuffle(g, BT_DECK_SHIFT, err))
		return BT_ERR_STACK;
	g->round = 1;
	return round_start(g, err);
}

int bt_game_new(bt_game *g, int players, int first,
                const uint8_t key[BT_KEY_BYTES], bt_error *err)
{
	int rc = bt_game_init(g, players, first, key, err);
	return rc ? rc : bt_game_start(g, err);
}
