/*
 * view.c - the JSON state view of RECORD.md.
 *
 * Every value is a number, a fixed word or a card id, so nothing needs
 * escaping.  The text goes into the caller's buffer through a counting
 * writer, so a short buffer truncates but still reports the full length.
 */
#include <stdio.h>
#include <string.h>

#include "view.h"

typedef struct out {
	char *buf;
	size_t cap, len;
} out;

static void put(out *o, const char *s)
{
	size_t n = strlen(s);

	if (o->len < o->cap) {
		size_t room = o->cap - o->len;
		memcpy(o->buf + o->len, s, n < room ? n : room);
	}
	o->len += n;
}

static void put_int(out *o, const char *key, long v)
{
	char tmp[48];

	snprintf(tmp, sizeof tmp, "\"%s\": %ld, ", key, v);
	put(o, tmp);
}

static void put_card(out *o, bt_card c)
{
	put(o, "\"");
	put(o, c < BT_CARD_COUNT ? bt_card_get(c)->id : "?");
	put(o, "\"");
}

/* A JSON array of cards c[0..n-1] in that order; n is clamped to the
 * array's size max, so a damaged game cannot read past it. */
static void put_cards(out *o, const bt_card *c, int n, int max)
{
	if (n > max)
		n = max;
	put(o, "[");
	for (int i = 0; i < n; i++) {
		if (i > 0)
			put(o, ", ");
		put_card(o, c[i]);
	}
	put(o, "]");
}

/* A hand as its cards sorted by id: bit order is id order (cards.h). */
static void put_hand(out *o, uint64_t hand)
{
	int first = 1;

	put(o, "[");
	for (int c = 0; c < BT_HANDABLE_COUNT; c++) {
		if (!(hand & ((uint64_t)1 << c)))
			continue;
		if (!first)
			put(o, ", ");
		put_card(o, (bt_card)c);
		first = 0;
	}
	put(o, "]");
}

static void put_hands(out *o, const bt_game *g, int seat)
{
	char tmp[32];

	put(o, "\"hands\": {");
	for (int s = 1; s <= g->players; s++) {
		snprintf(tmp, sizeof tmp, "%s\"%d\": ", s > 1 ? ", " : "", s);
		put(o, tmp);
		if (seat == 0 || seat == s) {
			put_hand(o, g->hand[s - 1]);
		} else {
			snprintf(tmp, sizeof tmp, "%d", bt_hand_size(g, s));
			put(o, tmp);
		}
	}
	put(o, "}, ");
}

static void put_head(out *o, const bt_game *g)
{
	static const char *const status[] = {
		[BT_PLAYING] = "playing", [BT_WON] = "won", [BT_LOST] = "lost"
	};
	char tmp[64];
	int playing = g->status == BT_PLAYING && g->turn != 0;

	snprintf(tmp, sizeof tmp, "{\"status\": \"%s\", ",
	         g->status <= BT_LOST ? status[g->status] : "?");
	put(o, tmp);
	put_int(o, "round", g->round);
	if (playing)
		put_int(o, "turn", g->turn);
	else
		put(o, "\"turn\": null, ");
	put_int(o, "first", g->first);
	put_int(o, "players", g->players);
	put_int(o, "goal", bt_goal(g));
	put_int(o, "leisure", g->leisure);
	put_int(o, "effort", g->effort);
	put_int(o, "target", g->target);
	put_int(o, "officers", g->officers);
	put(o, "\"duty\": ");
	if (g->duty == BT_NO_CARD)
		put(o, "null");
	else
		put_card(o, g->duty);
	put(o, ", ");
}

/* Side Projects in play, Shift Stack, Scoring Row: oldest first. */
static void put_table(out *o, const bt_game *g)
{
	put(o, "\"side_in_play\": ");
	put_cards(o, g->side_play, g->side_play_n, BT_SIDE_COUNT);
	put(o, ", \"shift_stack\": ");
	put_cards(o, g->stack, g->stack_n, BT_STACK_MAX);
	put(o, ", \"scoring_row\": ");
	put_cards(o, g->row, g->row_n, BT_ROW_MAX);
	put(o, ", ");
}

static void put_tail(out *o, const bt_game *g)
{
	char tmp[160];

	snprintf(tmp, sizeof tmp, "\"decks\": {\"assignment\": %d, "
	         "\"shift\": %d, \"side\": %d, \"ability\": %d}, ",
	         g->assignment_deck.n, g->shift_deck.n, g->side_deck.n,
	         g->ability_deck.n);
	put(o, tmp);
	put(o, "\"ability_discard\": ");
	put_cards(o, g->ability_discard.c, g->ability_discard.n,
	          BT_SHIFT_COUNT);
	snprintf(tmp, sizeof tmp, ", \"set_aside\": %d, \"actions\": %d, "
	         "\"reprimands\": %d", g->set_aside.n, g->actions,
	         g->reprimands);
	put(o, tmp);
}

/* The top k cards of the Shift Deck, top first: what seat saw (R10). */
static void put_known(out *o, const bt_game *g, int seat)
{
	const bt_pile *d = &g->shift_deck;
	int k = g->known_top[seat - 1];

	if (k > d->n)
		k = d->n;
	if (d->n > BT_SHIFT_COUNT)
		k = 0;
	put(o, ", \"known_shift\": [");
	for (int i = 0; i < k; i++) {
		if (i > 0)
			put(o, ", ");
		put_card(o, d->c[d->n - 1 - i]);
	}
	put(o, "]");
}

size_t bt_view_json(const bt_game *g, int seat, char *buf, size_t cap)
{
	out o = { buf, cap, 0 };

	if (seat < 0 || seat > g->players || g->players > BT_MAX_PLAYERS) {
		if (cap > 0)
			buf[0] = '\0';
		return 0;
	}
	put_head(&o, g);
	put_table(&o, g);
	put_hands(&o, g, seat);
	put_tail(&o, g);
	if (seat > 0)
		put_known(&o, g, seat);
	put(&o, "}\n");
	if (cap > 0)
		buf[o.len < cap ? o.len : cap - 1] = '\0';
	return o.len;
}
