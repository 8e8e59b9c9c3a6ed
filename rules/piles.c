/*
 * piles.c - the primitives every rule is made of: failing with a rule's
 * words, the piles and hands, and the table moves that keep the R5
 * totals (effort, officers, target, leisure) and the seats' R10
 * knowledge of the Shift Deck current.  Below every other file of the
 * engine: it calls none of them.
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

int bt_hand_size(const bt_game *g, int seat)
{
	return popcount64(g->hand[seat - 1]);
}

void stack_push(bt_game *g, bt_card c)
{
	const bt_card_info *ci = bt_card_get(c);

	g->stack[g->stack_n++] = c;
	g->effort = (int16_t)(g->effort + ci->effort);
	g->officers = (int16_t)(g->officers + ci->officers);
}

void stack_remove_at(bt_game *g, int i)
{
	const bt_card_info *ci = bt_card_get(g->stack[i]);

	g->effort = (int16_t)(g->effort - ci->effort);
	g->officers = (int16_t)(g->officers - ci->officers);
	g->stack_n = card_remove_at(g->stack, g->stack_n, i);
}

void row_push(bt_game *g, bt_card c)
{
	g->row[g->row_n++] = c;
	g->leisure = (int16_t)(g->leisure + bt_card_get(c)->leisure);
}

void row_remove_at(bt_game *g, int i)
{
	g->leisure = (int16_t)(g->leisure - bt_card_get(g->row[i])->leisure);
	g->row_n = card_remove_at(g->row, g->row_n, i);
}

void side_play_push(bt_game *g, bt_card c)
{
	g->side_play[g->side_play_n++] = c;
	g->target = (int16_t)(g->target + bt_card_get(c)->target);
}

void side_play_remove_at(bt_game *g, int i)
{
	g->target = (int16_t)(g->target - bt_card_get(g->side_play[i])->target);
	g->side_play_n = card_remove_at(g->side_play, g->side_play_n, i);
}

/* The top card leaves the deck: what each seat saw moves up by one. */
static void forget_top_card(bt_game *g)
{
	int any = 0;

	for (int s = 0; s < BT_MAX_PLAYERS; s++) {
		if (g->known_top[s])
			g->known_top[s]--;
		any |= g->known_top[s];
	}
	g->known_any = any != 0;
}

bt_card shift_draw(bt_game *g)
{
	bt_card c = pile_pop(&g->shift_deck);

	if (g->known_any)
		forget_top_card(g);
	if (g->known_bottom > g->shift_deck.n)
		g->known_bottom = g->shift_deck.n;
	return c;
}

void shift_put_bottom(bt_game *g, bt_card c)
{
	pile_push_bottom(&g->shift_deck, c);
	g->known_bottom++;
}
