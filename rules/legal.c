/*
 * legal.c - the legal actions of the seat to move (R6, R9).
 */
#include "engine.h"

static void push_plain(bt_action *out, int *n, int max, int seat,
                       bt_verb verb, bt_card c)
{
	if (*n >= max)
		return;
	out[(*n)++] = (bt_action){ .seat = (uint8_t)seat, .verb = (uint8_t)verb,
	                           .card = c };
}

int bt_legal(const bt_game *g, bt_action *out, int max)
{
	int n = 0;
	int seat = g->turn;

	if (g->status != BT_PLAYING || g->round == 0)
		return 0;
	if (can_work(g))
		push_plain(out, &n, max, seat, BT_WORK, BT_NO_CARD);
	if (can_log(g))
		push_plain(out, &n, max, seat, BT_LOG, BT_NO_CARD);
	uint64_t sides = g->hand[seat - 1] & BT_SIDE_MASK;
	while (sides) {
		bt_card c = (bt_card)__builtin_ctzll(sides);
		sides &= sides - 1;
		push_plain(out, &n, max, seat, BT_SIDE, c);
	}
	uint64_t abilities = g->hand[seat - 1] & BT_ABILITY_MASK;
	while (abilities) {
		bt_card c = (bt_card)__builtin_ctzll(abilities);
		abilities &= abilities - 1;
		ability_list(g, seat, c, out, &n, max);
	}
	return n;
}

int bt_has_legal(const bt_game *g)
{
	int seat = g->turn;

	if (g->status != BT_PLAYING || g->round == 0)
		return 0;
	if (can_work(g) || can_log(g) ||
	    (g->hand[seat - 1] & BT_SIDE_MASK))
		return 1;
	uint64_t abilities = g->hand[seat - 1] & BT_ABILITY_MASK;
	while (abilities) {
		bt_card c = (bt_card)__builtin_ctzll(abilities);
		abilities &= abilities - 1;
		if (ability_playable(g, seat, c))
			return 1;
	}
	return 0;
}
