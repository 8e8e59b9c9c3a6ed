/*
 * table_cards.c - the table's cards and forms, drawn into one buffer.
 *
 * Each part (a pile, the hand, the forms) is written into w->frag[0]
 * followed by a NUL, and only once every part is written are the parts'
 * addresses handed to the template (the buffer may move while it grows).
 */
#include <stdio.h>
#include <string.h>

#include "cardview.h"
#include "table.h"

typedef struct parts {
	web *w;
	out *o;
	vals *v;
	int n;
	struct {
		web_key key;
		size_t off;
	} p[16];
} parts;

static void part_begin(parts *p, web_key key)
{
	if (p->n < (int)(sizeof p->p / sizeof p->p[0])) {
		p->p[p->n].key = key;
		p->p[p->n].off = p->o->len;
		p->n++;
	}
}

static void part_end(parts *p)
{
	out_raw(p->o, "", 1);       /* the part's NUL */
}

/* Hands every finished part to the template. */
static web_err parts_done(parts *p)
{
	if (p->o->failed) {
		web_log(p->w, __func__, "the table's cards overflowed");
		return WEB_INTERNAL;
	}
	for (int i = 0; i < p->n; i++)
		vals_set(p->v, p->p[i].key, p->o->buf + p->p[i].off);
	return WEB_OK;
}

/* A pile as cards, and its has_ section. */
static web_err pile(parts *p, web_key key, web_key has, const bt_card *c,
                    int n)
{
	web_err e;

	part_begin(p, key);
	e = cards_draw(p->w, p->o, c, n);
	part_end(p);
	vals_show(p->v, has, n > 0);
	return e;
}

/* The public table and what seat saw of the Shift Deck (R10); a
 * spectator (seat 0) sees only what everyone saw. */
static web_err piles(parts *p, int seat)
{
	const bt_game *g = &p->w->game.state;
	const bt_pile *d = &g->shift_deck;
	bt_card top[BT_SWEEP_CARDS];
	int k = seat > 0 ? g->known_top[seat - 1] : 0;
	int bottom = g->known_bottom;
	web_err e;

	if (k > d->n || k > BT_SWEEP_CARDS)
		k = d->n < BT_SWEEP_CARDS ? d->n : BT_SWEEP_CARDS;
	for (int i = 0; i < k; i++)
		top[i] = d->c[d->n - 1 - i];
	if (bottom > d->n)
		bottom = 0;
	if ((e = pile(p, K_duty, K_has_duty, &g->duty,
	              g->duty != BT_NO_CARD)) ||
	    (e = pile(p, K_sides, K_has_sides, g->side_play, g->side_play_n)) ||
	    (e = pile(p, K_stack, K_has_stack, g->stack, g->stack_n)) ||
	    (e = pile(p, K_row, K_has_row, g->row, g->row_n)) ||
	    (e = pile(p, K_known, K_has_known, top, k)))
		return e;
	return pile(p, K_bottom, K_has_bottom, d->c, bottom);
}

/* What a hand card says besides its rules text, or NULL. */
static const char *hand_note(parts *p, int seat, const forms *f, bt_card c,
                             int playable, char *buf, size_t cap)
{
	const store_game *g = &p->w->game;

	if (g->sweep_card == c && g->sweep_seat == seat)
		return "You are playing this card: choose the order above.";
	if (f->n > 0 && !playable && bt_card_type_of(c) == BT_TYPE_ABILITY) {
		snprintf(buf, cap, "%s Not playable now.", card_kind_text(c));
		return buf;
	}
	return NULL;
}

/* seat's hand, sorted by id, each card with its form if it has one; a
 * spectator has none. */
static web_err hand(parts *p, int seat, const forms *f)
{
	uint64_t h = seat > 0 ? p->w->game.state.hand[seat - 1] : 0;
	out *fo = &p->w->frag[1];
	char nb[256];
	web_err e = WEB_OK;
	int any, n = 0;

	part_begin(p, K_hand);
	for (int c = 0; c < BT_HANDABLE_COUNT && e == WEB_OK; c++) {
		if (!(h >> c & 1))
			continue;
		n++;
		out_reset(fo);
		e = forms_card(p->w, f, (bt_card)c, fo, &any);
		if (e == WEB_OK)
			e = card_draw(p->w, p->o, (bt_card)c,
			              any ? out_str(fo) : NULL,
			              hand_note(p, seat, f, (bt_card)c, any,
			                        nb, sizeof nb));
	}
	part_end(p);
	vals_show(p->v, K_has_hand, n > 0);
	vals_show(p->v, K_hand_empty, seat > 0 && n == 0);
	return e;
}

/* The turn's forms without a card: work, log. */
static web_err turn(parts *p, const forms *f)
{
	int count;
	web_err e;

	part_begin(p, K_turn_forms);
	e = forms_turn(p->w, f, p->o, &count);
	part_end(p);
	vals_show(p->v, K_my_turn, f->n > 0);
	return e;
}

/* seat's pending Sensor Sweep: the top cards and the order form. */
static web_err sweep(parts *p, int seat, const forms *f)
{
	const store_game *g = &p->w->game;
	const bt_pile *d = &g->state.shift_deck;
	bt_card top[BT_SWEEP_CARDS];
	int n = d->n < BT_SWEEP_CARDS ? d->n : BT_SWEEP_CARDS;
	web_err e;

	if (g->sweep_card == BT_NO_CARD || seat == 0 || g->sweep_seat != seat)
		return WEB_OK;
	for (int i = 0; i < n; i++)
		top[i] = d->c[d->n - 1 - i];
	if ((e = pile(p, K_sweep_cards, K_sweeping, top, n)))
		return e;
	part_begin(p, K_sweep_form);
	e = forms_order(p->w, f, p->o);
	part_end(p);
	return e;
}

web_err table_cards(web *w, int seat, const forms *f, vals *v)
{
	parts p = { .w = w, .o = &w->frag[0], .v = v };
	web_err e;

	out_reset(p.o);
	if ((e = piles(&p, seat)) || (e = hand(&p, seat, f)) ||
	    (e = turn(&p, f)) || (e = sweep(&p, seat, f)))
		return e;
	return parts_done(&p);
}
