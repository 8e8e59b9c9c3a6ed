/*
 * decks.c - the four decks: which cards each holds, filling them,
 * stacking (rigging) one for tests and records, and shuffling (R11).
 */
#include <string.h>

#include "engine.h"

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

void deck_fill(bt_game *g, bt_deck d)
{
	bt_pile *p = deck_pile(g, d);

	for (int i = 0; i < deck_cards[d].count; i++)
		pile_push(p, (bt_card)(deck_cards[d].first + i));
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
