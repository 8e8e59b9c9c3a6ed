/*
 * setup.c - creating a game (R1, R3), rigging and shuffling decks (R11),
 * and the pile primitives everything else uses.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "engine.h"

int bt_fail(bt_error *err, bt_errcode code, int rule, const char *fmt, ...)
{
	if (err) {
		va_list ap;

		err->code = code;
		err->rule = rule;
		va_start(ap, fmt);
		vsnprintf(err->why, sizeof err->why, fmt, ap);
		va_end(ap);
	}
	return (int)code;
}

void pile_push_bottom(bt_pile *p, bt_card c)
{
	memmove(p->c + 1, p->c, p->n);
	p->c[0] = c;
	p->n++;
}

int card_index(const bt_card *a, int n, bt_card c)
{
	for (int i = 0; i < n; i++)
		if (a[i] == c)
			return i;
	return -1;
}

uint8_t card_remove_at(bt_card *a, uint8_t n, int i)
{
	memmove(a + i, a + i + 1, (size_t)(n - i - 1));
	return (uint8_t)(n - 1);
}

/* Which cards each deck holds, for filling it and checking stack lines. */
static const struct {
	bt_card first;
	int count;
	const char *name;
} deck_cards[BT_DECK__MAX] = {
	[BT_DECK_ASSIGNMENT] = { BT_ASSIGN_FIRST, BT_ASSIGN_COUNT, "assignment" },
	[BT_DECK_ABILITY] = { BT_ABILITY_FIRST, BT_ABILITY_COUNT, "ability" },
	[BT_DECK_SIDE] = { BT_SIDE_FIRST, BT_SIDE_COUNT, "side" },
	[BT_DECK_SHIFT] = { BT_SHIFT_FIRST, BT_SHIFT_COUNT, "shift" },
};

bt_pile *deck_pile(bt_game *g, bt_deck d)
{
	switch (d) {
	case BT_DECK_ASSIGNMENT: return &g->assignment_deck;
	case BT_DECK_ABILITY: return &g->ability_deck;
	case BT_DECK_SIDE: return &g->side_deck;
	default: return &g->shift_deck;
	}
}

/* Moves the waiting stack line's cards to the top, first named on top,
 * keeping the shuffled order of the rest below them. */
static int apply_rig(bt_game *g, bt_deck d, bt_pile *p, bt_error *err)
{
	int n = g->rig_n[d];
	bt_card *want = g->rig[d];
	bt_card rest[BT_SHIFT_COUNT];
	uint8_t kept = 0;

	for (int i = 0; i < n; i++)
		if (card_index(p->c, p->n, want[i]) < 0)
			return bt_fail(err, BT_ERR_STACK, 11,
			               "stack %s: %s is not in the %s deck at "
			               "its shuffle", deck_cards[d].name,
			               bt_card_get(want[i])->id, deck_cards[d].name);
	for (int i = 0; i < p->n; i++)
		if (card_index(want, n, p->c[i]) < 0)
			rest[kept++] = p->c[i];
	memcpy(p->c, rest, kept);
	for (int i = n - 1; i >= 0; i--)
		p->c[kept++] = want[i];
	g->rig_n[d] = 0;
	return 0;
}

int deck_shuffle(bt_game *g, bt_deck d, bt_error *err)
{
	bt_pile *p = deck_pile(g, d);

	bt_rng_shuffle(&g->rng, p->c, p->n);
	if (d == BT_DECK_SHIFT) {
		memset(g->known_top, 0, sizeof g->known_top);
		g->known_any = 0;
		g->known_bottom = 0;
	}
	if (g->rig_n[d] == 0)
		return 0;
	if (apply_rig(g, d, p, err)) {
		if (err)
			err->deck = d;
		return BT_ERR_STACK;
	}
	return 0;
}

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
	for (int d = 0; d < BT_DECK__MAX; d++) {
		bt_pile *p = deck_pile(g, (bt_deck)d);
		for (int i = 0; i < deck_cards[d].count; i++)
			pile_push(p, (bt_card)(deck_cards[d].first + i));
	}
	return 0;
}

int bt_game_stack(bt_game *g, bt_deck deck, const bt_card *cards, int n,
                  bt_error *err)
{
	if ((unsigned)deck >= BT_DECK__MAX)
		return bt_fail(err, BT_ERR_SETUP, 11, "no such deck");
	const char *name = deck_cards[deck].name;
	if (g->rig_n[deck])
		return bt_fail(err, BT_ERR_SETUP, 11, "stack %s: an earlier "
		               "stack %s line is still waiting", name, name);
	if (n < 1 || n > deck_cards[deck].count)
		return bt_fail(err, BT_ERR_SETUP, 11,
		               "stack %s: needs 1 to %d cards", name,
		               deck_cards[deck].count);
	for (int i = 0; i < n; i++) {
		int offset = cards[i] - deck_cards[deck].first;
		if (offset < 0 || offset >= deck_cards[deck].count)
			return bt_fail(err, BT_ERR_SETUP, 11, "stack %s: "
			               "card %d is not a %s card", name, i + 1,
			               name);
		if (card_index(cards, i, cards[i]) >= 0)
			return bt_fail(err, BT_ERR_SETUP, 11, "stack %s: %s "
			               "is named twice", name,
			               bt_card_get(cards[i])->id);
	}
	memcpy(g->rig[deck], cards, (size_t)n);
	g->rig_n[deck] = (uint8_t)n;
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

/* R5: the Leisure Goal by player count. */
static const uint8_t leisure_goal[BT_MAX_PLAYERS + 1] = {
	[2] = 18, [3] = 20, [4] = 22, [5] = 24, [6] = 26
};

int bt_goal_for(int players)
{
	return players >= BT_MIN_PLAYERS && players <= BT_MAX_PLAYERS
	       ? leisure_goal[players] : 0;
}

int bt_goal(const bt_game *g)
{
	return bt_goal_for(g->players);
}

int bt_hand_size(const bt_game *g, int seat)
{
	return popcount64(g->hand[seat - 1]);
}
