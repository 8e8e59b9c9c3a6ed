/*
 * risk.c - the chance that the next Shift card brings a reprimand, from
 * one seat's knowledge (R10).  The set of cards in the Shift Deck is
 * public (every shift card not in the stack); their order is not, except
 * the top cards the seat's Sensor Sweep showed and the bottom cards that
 * everyone saw put there.
 */
#include "engine.h"

void bt_risk(const bt_game *g, int seat, int *num, int *den)
{
	const bt_pile *deck = &g->shift_deck;
	int unknown = deck->n - g->known_bottom;

	*num = 0;
	*den = 0;
	if (deck->n == 0)
		return;
	if ((seat >= 1 && seat <= g->players && g->known_top[seat - 1]) ||
	    unknown <= 0) {
		*num = bt_draw_reprimands(g, pile_top(deck));
		*den = 1;
		return;
	}
	/* Any card above the known bottom ones is equally likely on top. */
	for (int i = g->known_bottom; i < deck->n; i++)
		*num += bt_draw_reprimands(g, deck->c[i]);
	*den = unknown;
}
