/*
 * reach.c - whether the crew can still win: the most Leisure it could
 * have at its next win check if every card it cannot see went its way
 * (game.h, bt_leisure_ceiling).  Public table only (R10), so every seat
 * may be told, and it never says "lost" of a game that could be won: it
 * is an upper bound, and a loose one until the last round, when the
 * cards that can still reach the Scoring Row are few.
 */
#include "engine.h"

/* Where c lies in plain sight: the Scoring Row, the box, in play, the
 * Shift Stack, the Ability discard pile or the Duty Assignment. */
static int in_sight(const bt_game *g, bt_card c)
{
	return card_index(g->row, g->row_n, c) >= 0 ||
	       ((g->box[c / 64] >> (c % 64)) & 1) ||
	       card_index(g->side_play, g->side_play_n, c) >= 0 ||
	       card_index(g->stack, g->stack_n, c) >= 0 ||
	       card_index(g->ability_discard.c, g->ability_discard.n, c) >= 0 ||
	       g->duty == c;
}

/* Ability cards of kind k not in sight: they may be in a hand. */
static int unseen_of_kind(const bt_game *g, bt_kind k)
{
	int n = 0;

	for (int i = 0; i < BT_ABILITY_COUNT; i++) {
		bt_card c = (bt_card)(BT_ABILITY_FIRST + i);
		n += bt_card_get(c)->kind == k && !in_sight(g, c);
	}
	return n;
}

/* The Leisure of at most max Holodeck Reservations not in sight. */
static int unseen_holodecks(const bt_game *g, int max)
{
	int sum = 0;

	for (int i = 0; i < BT_ABILITY_COUNT && max > 0; i++) {
		bt_card c = (bt_card)(BT_ABILITY_FIRST + i);
		if (bt_card_get(c)->kind != BT_HOLODECK || in_sight(g, c))
			continue;
		sum += bt_card_get(c)->leisure;
		max--;
	}
	return sum;
}

static int cards_in_hands(const bt_game *g)
{
	int n = 0;

	for (int s = 1; s <= g->players; s++)
		n += bt_hand_size(g, s);
	return n;
}

static int at_most(int a, int b)
{
	return a < b ? a : b;
}

/* The Leisure of every card that may still reach the Scoring Row,
 * however many rounds it takes: the Assignments and Side Projects
 * neither scored nor boxed, and the Holodeck Reservations. */
static int everything_left(const bt_game *g)
{
	int sum = 0;

	for (bt_card c = 0; c < BT_SHIFT_FIRST; c++) {
		const bt_card_info *k = bt_card_get(c);
		if (card_index(g->row, g->row_n, c) >= 0 ||
		    ((g->box[c / 64] >> (c % 64)) & 1))
			continue;
		if (k->type == BT_TYPE_SIDE || k->type == BT_TYPE_ASSIGNMENT ||
		    (k->type == BT_TYPE_ABILITY && k->kind == BT_HOLODECK))
			sum += k->leisure;
	}
	return sum;
}

/* 1 if this round is the last: no Assignment is left to deal, and no
 * Extra Duty can be in a hand to bring a set-aside one (a card drawn in
 * this round comes only with the log that ends it). */
static int last_round(const bt_game *g)
{
	return g->assignment_deck.n == 0 &&
	       (g->set_aside.n == 0 || cards_in_hands(g) == 0 ||
	        unseen_of_kind(g, BT_EXTRA_DUTY) == 0);
}

/* The Leisure of the k best Side Projects not in sight. */
static int best_unseen_sides(const bt_game *g, int k)
{
	int count[8] = { 0 }, sum = 0;

	for (bt_card c = BT_SIDE_FIRST; c < BT_SIDE_FIRST + BT_SIDE_COUNT; c++)
		if (!in_sight(g, c) && bt_card_get(c)->leisure < 8)
			count[bt_card_get(c)->leisure]++;
	for (int l = 7; l > 0 && k > 0; l--) {
		int take = at_most(count[l], k);
		sum += take * l;
		k -= take;
	}
	return sum;
}

/* 1 if no Side Project is worth more Leisure than its Target: then the
 * Leisure a log banks from them is at most the Effort that pays for
 * them. */
static int sides_cost_their_worth(void)
{
	for (bt_card c = BT_SIDE_FIRST; c < BT_SIDE_FIRST + BT_SIDE_COUNT; c++)
		if (bt_card_get(c)->leisure > bt_card_get(c)->target)
			return 0;
	return 1;
}

/* The most Effort the stack can reach this round: all of it now, every
 * Effort card of the Shift Deck, and the Overtimes that may be in hand. */
static int effort_ceiling(const bt_game *g, int hands)
{
	int e = g->effort;

	for (bt_card c = BT_SHIFT_FIRST; c < BT_SHIFT_FIRST + BT_SHIFT_COUNT; c++)
		if (card_index(g->stack, g->stack_n, c) < 0)
			e += bt_card_get(c)->effort;
	for (int i = 0; i < BT_ABILITY_COUNT && hands > 0; i++) {
		bt_card c = (bt_card)(BT_ABILITY_FIRST + i);
		if (bt_card_get(c)->kind != BT_OVERTIME || in_sight(g, c))
			continue;
		e += bt_card_get(c)->effort;
		hands--;
	}
	return e;
}

/* The last round: the one log left banks the Duty Assignment, the Side
 * Projects then in play (those in play now, and as many as the hands
 * could bring: one a card, two a Brainstorm), within the Effort that
 * could pay for them; and Holodeck Reservations go to the row. */
static int last_round_ceiling(const bt_game *g)
{
	const bt_card_info *duty = g->duty == BT_NO_CARD ? NULL
	                           : bt_card_get(g->duty);
	int hands = cards_in_hands(g);
	int brainstorms = at_most(unseen_of_kind(g, BT_BRAINSTORM), hands);
	int sides = 0;

	for (int i = 0; i < g->side_play_n; i++)
		sides += bt_card_get(g->side_play[i])->leisure;
	sides += best_unseen_sides(g, hands + brainstorms);
	if (sides_cost_their_worth()) {
		int budget = effort_ceiling(g, hands) - (duty ? duty->target : 0);
		sides = at_most(sides, budget > 0 ? budget : 0);
	}
	return g->leisure + (duty ? duty->leisure : 0) + sides +
	       unseen_holodecks(g, hands);
}

int bt_leisure_ceiling(const bt_game *g)
{
	if (g->status != BT_PLAYING)
		return g->leisure;
	if (last_round(g))
		return last_round_ceiling(g);
	return g->leisure + everything_left(g);
}

int bt_out_of_reach(const bt_game *g)
{
	return g->status == BT_PLAYING && bt_leisure_ceiling(g) < bt_goal(g);
}
