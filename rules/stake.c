/*
 * stake.c - what is at stake in the actions a player may choose: what a
 * reprimand would cost the crew now (R7, R8.2), what logging the
 * assignment would bring (R6), how a card moves the totals, and the
 * Leisure Goal (R5).
 * Everything here is public table (R10): any seat may be told it.
 */
#include "engine.h"

int bt_row_reprimand_index(const bt_game *g)
{
	int best = -1;

	/* R7.3: the highest Leisure card; ties go to the most recently
	 * placed, so the scan runs from the newest card down. */
	for (int i = g->row_n - 1; i >= 0; i--)
		if (best < 0 || bt_card_get(g->row[i])->leisure >
		                bt_card_get(g->row[best])->leisure)
			best = i;
	return best;
}

void bt_reprimand_stake(const bt_game *g, bt_stake *out)
{
	int worst = bt_row_reprimand_index(g);

	*out = (bt_stake){ .duty = g->duty, .sides = g->side_play_n,
	                   .row_card = worst < 0 ? BT_NO_CARD : g->row[worst] };
	out->row_leisure = worst < 0 ? 0
	                   : bt_card_get(g->row[worst])->leisure;
	out->leisure_after = g->leisure - out->row_leisure;
	out->game_lost = g->assignment_deck.n == 0;
}

void bt_log_gain(const bt_game *g, bt_gain *out)
{
	*out = (bt_gain){ .cards = g->side_play_n, .leisure = 0 };
	if (g->duty != BT_NO_CARD) {
		out->cards++;
		out->leisure += bt_card_get(g->duty)->leisure;
	}
	for (int i = 0; i < g->side_play_n; i++)
		out->leisure += bt_card_get(g->side_play[i])->leisure;
	out->total = g->leisure + out->leisure;
	out->wins = out->total >= bt_goal(g);
	out->game_lost = !out->wins && g->assignment_deck.n == 0;
}

int bt_draw_reprimands(const bt_game *g, bt_card c)
{
	return c < BT_CARD_COUNT &&
	       g->officers + bt_card_get(c)->officers >= BT_REPRIMAND_OFFICERS;
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
