/*
 * observe.c - one seat's knowledge of a game (R10), and random games that
 * agree with it.
 *
 * The observation is built field by field into zeroed memory, and every
 * pile's tail beyond its count is blanked too: old cards linger in the
 * arrays of a game, and padding bytes are whatever they were, so copying
 * the struct whole could carry what the seat must not know.
 */
#include <string.h>

#include "engine.h"
#include "observe.h"

static void bit_set(uint64_t *set, bt_card c)
{
	set[c / 64] |= (uint64_t)1 << (c % 64);
}

static void bit_clear(uint64_t *set, bt_card c)
{
	set[c / 64] &= ~((uint64_t)1 << (c % 64));
}

static int bit_has(const uint64_t *set, bt_card c)
{
	return (int)(set[c / 64] >> (c % 64) & 1);
}

/* Copies the n cards of a public row of cards, blanking the rest. */
static void copy_cards(bt_card *dst, const bt_card *src, int n, int cap,
                       uint64_t *unseen)
{
	memset(dst, BT_NO_CARD, (size_t)cap);
	if (n > cap)
		n = cap;
	for (int i = 0; i < n; i++) {
		dst[i] = src[i];
		if (src[i] < BT_CARD_COUNT)
			bit_clear(unseen, src[i]);
	}
}

/* A pile whose size is public and whose cards are not. */
static void hide_pile(bt_pile *dst, const bt_pile *src)
{
	dst->n = src->n;
	memset(dst->c, BT_NO_CARD, sizeof dst->c);
}

static void copy_public(bt_game *t, const bt_game *g)
{
	t->players = g->players;
	t->first = g->first;
	t->turn = g->turn;
	t->round = g->round;
	t->status = g->status;
	t->ender = g->ender;
	t->actions = g->actions;
	t->reprimands = g->reprimands;
	t->effort = g->effort;
	t->target = g->target;
	t->officers = g->officers;
	t->leisure = g->leisure;
	t->duty = g->duty;
	t->side_play_n = g->side_play_n;
	t->stack_n = g->stack_n;
	t->row_n = g->row_n;
	memcpy(t->box, g->box, sizeof t->box);
	/* How much each seat saw is public (everyone watched the sweep). */
	memcpy(t->known_top, g->known_top, sizeof t->known_top);
	t->known_any = g->known_any;
	t->known_bottom = g->known_bottom;
}

/* The Shift Deck: the top k and bottom kb cards are known in place. */
static void observe_shift(bt_obs *o, const bt_pile *deck, int k, int kb)
{
	bt_pile *d = &o->table.shift_deck;
	int n = deck->n > BT_SHIFT_COUNT ? BT_SHIFT_COUNT : deck->n;

	hide_pile(d, deck);
	d->n = (uint8_t)n;
	k = k > n ? n : k > BT_SWEEP_CARDS ? BT_SWEEP_CARDS : k;
	kb = kb > n ? n : kb;
	for (int i = 0; i < kb; i++) {
		d->c[i] = deck->c[i];
		o->known_bottom[i] = deck->c[i];
	}
	for (int i = 0; i < k; i++) {
		d->c[n - 1 - i] = deck->c[n - 1 - i];
		o->known_top[i] = deck->c[n - 1 - i];
	}
	o->known_top_n = (uint8_t)k;
	o->known_bottom_n = (uint8_t)kb;
	for (int i = 0; i < n; i++)
		if (d->c[i] != BT_NO_CARD)
			bit_clear(o->unseen, d->c[i]);
}

/* Every card starts unseen; what the seat sees is taken out. */
static void observe_all_unseen(bt_obs *o)
{
	for (int c = 0; c < BT_CARD_COUNT; c++)
		bit_set(o->unseen, (bt_card)c);
}

/* The hand of seat s, now known: in the table, and seen. */
static void know_hand(bt_obs *o, const bt_game *g, int s)
{
	o->table.hand[s - 1] = g->hand[s - 1];
	for (int c = 0; c < BT_HANDABLE_COUNT; c++)
		if (g->hand[s - 1] >> c & 1)
			bit_clear(o->unseen, (bt_card)c);
}

static int observe_top(const bt_game *g, int seat, unsigned told,
                       unsigned swept, int top, bt_obs *o)
{
	bt_game *t = &o->table;

	memset(o, 0, sizeof *o);
	if (g->players < BT_MIN_PLAYERS || g->players > BT_MAX_PLAYERS ||
	    seat < 1 || seat > g->players)
		return -1;
	o->seat = (uint8_t)seat;
	o->players = g->players;
	o->told = (uint8_t)(told & ((1u << g->players) - 1) &
	                    ~(1u << (seat - 1)));
	observe_all_unseen(o);
	copy_public(t, g);
	for (int s = 1; s <= g->players; s++)
		o->hand_size[s - 1] = (uint8_t)bt_hand_size(g, s);
	o->hand = g->hand[seat - 1];
	know_hand(o, g, seat);
	for (int s = 1; s <= g->players; s++) {
		if (!(o->told >> (s - 1) & 1))
			continue;
		know_hand(o, g, s);
	}
	/* what the others' sweeps showed, as they told it */
	for (int s = 1; s <= g->players; s++)
		if (s != seat && (swept >> (s - 1) & 1) &&
		    top < g->known_top[s - 1])
			top = g->known_top[s - 1];
	for (int c = 0; c < BT_CARD_COUNT; c++)
		if (bit_has(g->box, (bt_card)c))
			bit_clear(o->unseen, (bt_card)c);
	if (g->duty < BT_CARD_COUNT)
		bit_clear(o->unseen, g->duty);
	copy_cards(t->side_play, g->side_play, g->side_play_n, BT_SIDE_COUNT,
	           o->unseen);
	copy_cards(t->stack, g->stack, g->stack_n, BT_STACK_MAX, o->unseen);
	copy_cards(t->row, g->row, g->row_n, BT_ROW_MAX, o->unseen);
	t->ability_discard.n = g->ability_discard.n;
	copy_cards(t->ability_discard.c, g->ability_discard.c,
	           g->ability_discard.n, BT_SHIFT_COUNT, o->unseen);
	hide_pile(&t->assignment_deck, &g->assignment_deck);
	hide_pile(&t->set_aside, &g->set_aside);
	hide_pile(&t->side_deck, &g->side_deck);
	hide_pile(&t->ability_deck, &g->ability_deck);
	if (top < g->known_top[seat - 1])
		top = g->known_top[seat - 1];
	observe_shift(o, &g->shift_deck, top, g->known_bottom);
	return 0;
}

int bt_observe(const bt_game *g, int seat, bt_obs *o)
{
	return observe_top(g, seat, 0, 0, 0, o);
}

int bt_observe_sweep(const bt_game *g, int seat, bt_obs *o)
{
	return observe_top(g, seat, 0, 0, BT_SWEEP_CARDS, o);
}

int bt_observe_told(const bt_game *g, int seat, unsigned told, int sweep,
                    bt_obs *o)
{
	return observe_top(g, seat, told, told, sweep ? BT_SWEEP_CARDS : 0, o);
}

int bt_observe_heard(const bt_game *g, int seat, unsigned hands,
                     unsigned sweeps, int sweep, bt_obs *o)
{
	return observe_top(g, seat, hands, sweeps, sweep ? BT_SWEEP_CARDS : 0,
	                   o);
}

/* ---- sampling ------------------------------------------------------------ */

/* The unseen cards, by type. */
typedef struct pools {
	int n[BT_TYPE__MAX];
	bt_card c[BT_TYPE__MAX][BT_SHIFT_COUNT];
} pools;

static void shuffle(bt_card *a, int n, bt_draw_fn draw, void *ctx)
{
	for (int i = n; i > 1; i--) {
		unsigned j = draw(ctx, (unsigned)i);
		bt_card t;
		if (j >= (unsigned)i)
			j = (unsigned)i - 1;  /* a broken generator stays in range */
		t = a[i - 1];
		a[i - 1] = a[j];
		a[j] = t;
	}
}

static void pools_fill(pools *p, const bt_obs *o, bt_draw_fn draw,
                       void *ctx)
{
	memset(p->n, 0, sizeof p->n);
	for (int c = 0; c < BT_CARD_COUNT; c++) {
		bt_card_type t = bt_card_type_of((bt_card)c);
		if (bit_has(o->unseen, (bt_card)c) && p->n[t] < BT_SHIFT_COUNT)
			p->c[t][p->n[t]++] = (bt_card)c;
	}
	for (int t = 0; t < BT_TYPE__MAX; t++)
		shuffle(p->c[t], p->n[t], draw, ctx);
}

/* Fills the blank places of pile from cards[*used..]; -1 if short. */
static int fill_blanks(bt_pile *pile, const bt_card *cards, int have,
                       int *used)
{
	for (int i = 0; i < pile->n && i < BT_SHIFT_COUNT; i++) {
		if (pile->c[i] != BT_NO_CARD)
			continue;
		if (*used >= have)
			return -1;
		pile->c[i] = cards[(*used)++];
	}
	return 0;
}

/* 1 if the seat neither holds nor was told seat s's hand. */
static int hidden_hand(const bt_obs *o, int s)
{
	return s != o->seat && !(o->told >> (s - 1) & 1);
}

/* Deals the other hands: the sides and abilities no deck holds, shuffled
 * together, then the decks get the rest.  -1 if the counts disagree. */
static int deal_hands(const bt_obs *o, pools *p, bt_draw_fn draw,
                      void *ctx, bt_game *w)
{
	int ns = p->n[BT_TYPE_SIDE], na = p->n[BT_TYPE_ABILITY];
	int hs = ns - w->side_deck.n, ha = na - w->ability_deck.n;
	int held = 0, at = 0, used;
	bt_card pool[BT_HANDABLE_COUNT];

	for (int s = 1; s <= o->players; s++)
		if (hidden_hand(o, s))
			held += o->hand_size[s - 1];
	if (hs < 0 || ha < 0 || hs + ha != held)
		return -1;
	memcpy(pool, p->c[BT_TYPE_SIDE], (size_t)hs);
	memcpy(pool + hs, p->c[BT_TYPE_ABILITY], (size_t)ha);
	shuffle(pool, held, draw, ctx);
	for (int s = 1; s <= o->players; s++) {
		if (!hidden_hand(o, s))
			continue;
		for (int i = 0; i < o->hand_size[s - 1]; i++)
			w->hand[s - 1] |= (uint64_t)1 << pool[at++];
	}
	used = hs;
	if (fill_blanks(&w->side_deck, p->c[BT_TYPE_SIDE], ns, &used) ||
	    used != ns)
		return -1;
	used = ha;
	if (fill_blanks(&w->ability_deck, p->c[BT_TYPE_ABILITY], na, &used) ||
	    used != na)
		return -1;
	return 0;
}

int bt_obs_sample(const bt_obs *o, bt_draw_fn draw, void *ctx,
                  bt_game *world)
{
	uint8_t key[BT_KEY_BYTES];
	pools p;
	int used = 0;

	if (o->players < BT_MIN_PLAYERS || o->players > BT_MAX_PLAYERS ||
	    o->seat < 1 || o->seat > o->players)
		return -1;
	*world = o->table;
	pools_fill(&p, o, draw, ctx);
	if (fill_blanks(&world->shift_deck, p.c[BT_TYPE_SHIFT],
	                p.n[BT_TYPE_SHIFT], &used) ||
	    used != p.n[BT_TYPE_SHIFT])
		return -1;
	used = 0;
	if (fill_blanks(&world->assignment_deck, p.c[BT_TYPE_ASSIGNMENT],
	                p.n[BT_TYPE_ASSIGNMENT], &used) ||
	    fill_blanks(&world->set_aside, p.c[BT_TYPE_ASSIGNMENT],
	                p.n[BT_TYPE_ASSIGNMENT], &used) ||
	    used != p.n[BT_TYPE_ASSIGNMENT])
		return -1;
	if (deal_hands(o, &p, draw, ctx, world))
		return -1;
	/* A fresh key: the future shuffles are unknown to the seat too. */
	for (int i = 0; i < BT_KEY_BYTES; i++)
		key[i] = (uint8_t)draw(ctx, 256);
	bt_rng_init(&world->rng, key);
	return 0;
}
