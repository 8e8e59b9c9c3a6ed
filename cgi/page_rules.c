/*
 * page_rules.c - GET PREFIX rules: how to play, on one page, for anyone
 * (no cookie).  Every fact on it (goals, counts, Ability texts, card
 * values) comes from the engine's tables and constants; the template
 * holds only the words around them.
 */
#include <stdio.h>
#include <string.h>

#include "cardview.h"
#include "vals.h"
#include "web.h"

enum { GROUPS_MAX = BT_SHIFT_COUNT };

/* A run of identical cards (same name and values), first..last. */
typedef struct group {
	bt_card first, last;
} group;

typedef struct rules_ctx {
	group shift[GROUPS_MAX];
	int nshift;
	char num[16], ids[16], icons[32], anchor[CARD_ANCHOR_MAX];
} rules_ctx;

static int same_card(bt_card a, bt_card b)
{
	const bt_card_info *x = bt_card_get(a), *y = bt_card_get(b);

	return strcmp(x->name, y->name) == 0 && x->effort == y->effort &&
	       x->officers == y->officers;
}

/* The Shift cards, identical neighbours as one row. */
static void group_shift(rules_ctx *r)
{
	r->nshift = 0;
	for (int c = BT_SHIFT_FIRST; c < BT_SHIFT_FIRST + BT_SHIFT_COUNT; c++) {
		if (r->nshift > 0 && same_card(r->shift[r->nshift - 1].last,
		                               (bt_card)c)) {
			r->shift[r->nshift - 1].last = (bt_card)c;
			continue;
		}
		r->shift[r->nshift++] = (group){ (bt_card)c, (bt_card)c };
	}
}

/* "X01–X03", or "S23" for a run of one. */
static const char *ids_text(rules_ctx *r, bt_card first, bt_card last)
{
	if (first == last)
		snprintf(r->ids, sizeof r->ids, "%s", bt_card_get(first)->id);
	else
		snprintf(r->ids, sizeof r->ids, "%s\u2013%s",
		         bt_card_get(first)->id, bt_card_get(last)->id);
	return r->ids;
}

/* The Ability cards of kind k, as a run of ids. */
static const char *kind_ids(rules_ctx *r, bt_kind k)
{
	bt_card first = BT_NO_CARD, last = BT_NO_CARD;

	for (int c = BT_ABILITY_FIRST; c < BT_ABILITY_FIRST + BT_ABILITY_COUNT;
	     c++) {
		if (bt_card_get((bt_card)c)->kind != k)
			continue;
		if (first == BT_NO_CARD)
			first = (bt_card)c;
		last = (bt_card)c;
	}
	return first == BT_NO_CARD ? "" : ids_text(r, first, last);
}

static const char *number(rules_ctx *r, int n)
{
	snprintf(r->num, sizeof r->num, "%d", n);
	return r->num;
}

static const char *kind_row(rules_ctx *r, int key, int i)
{
	bt_kind k = (bt_kind)(BT_KIND_NONE + 1 + i);

	switch (key) {
	case K_kind_anchor:
		card_kind_anchor(k, r->anchor, sizeof r->anchor);
		return r->anchor;
	case K_kind_name: return bt_kind_name(k);
	case K_kind_ids: return kind_ids(r, k);
	case K_kind_text: return bt_kind_text(k);
	default: return NULL;
	}
}

/* A card of the Side Project or Assignment list. */
static const char *card_row(rules_ctx *r, int key, int i)
{
	int side = key >= K_side_id && key <= K_side_l;
	const bt_card_info *k = bt_card_get((bt_card)(i + (side
	                        ? BT_SIDE_FIRST : BT_ASSIGN_FIRST)));

	switch (key) {
	case K_side_id: case K_asg_id: return k->id;
	case K_side_name: case K_asg_name: return k->name;
	case K_side_t: case K_asg_t: return number(r, k->target);
	case K_side_l: case K_asg_l: return number(r, k->leisure);
	default: return NULL;
	}
}

static const char *shift_row(rules_ctx *r, int key, int i)
{
	const group *g = &r->shift[i < r->nshift ? i : 0];
	const bt_card_info *k = bt_card_get(g->first);

	switch (key) {
	case K_shift_ids: return ids_text(r, g->first, g->last);
	case K_shift_name: return k->name;
	case K_shift_icons:
		if (k->officers)
			snprintf(r->icons, sizeof r->icons, "%d Officer%s",
			         k->officers, k->officers == 1 ? "" : "s");
		else
			snprintf(r->icons, sizeof r->icons, "Effort %d",
			         k->effort);
		return r->icons;
	default: return NULL;
	}
}

static const char *rules_row(void *ctx, int key, int i)
{
	rules_ctx *r = ctx;

	switch (key) {
	case K_goal_players: return number(r, BT_MIN_PLAYERS + i);
	case K_goal_value: return number(r, bt_goal_for(BT_MIN_PLAYERS + i));
	case K_kind_anchor: case K_kind_name: case K_kind_ids:
	case K_kind_text:
		return kind_row(r, key, i);
	case K_side_id: case K_side_name: case K_side_t: case K_side_l:
	case K_asg_id: case K_asg_name: case K_asg_t: case K_asg_l:
		return card_row(r, key, i);
	case K_shift_ids: case K_shift_name: case K_shift_icons:
		return shift_row(r, key, i);
	default:
		return NULL;
	}
}

/* The counts the words of the page name. */
static void facts(vals *v)
{
	vals_int(v, K_min_players, BT_MIN_PLAYERS);
	vals_int(v, K_max_players, BT_MAX_PLAYERS);
	vals_int(v, K_deck_size, BT_ASSIGNMENT_DECK_SIZE);
	vals_int(v, K_set_aside_n, BT_ASSIGN_COUNT - BT_ASSIGNMENT_DECK_SIZE);
	vals_int(v, K_deal_abilities, BT_STARTING_ABILITIES);
	vals_int(v, K_hand_sides, BT_SIDES_IN_HAND);
	vals_int(v, K_reprimand_at, BT_REPRIMAND_OFFICERS);
}

web_err page_rules(web *w)
{
	static rules_ctx r;
	char home[WEB_URL_MAX];
	vals v;
	tmpl_data d;

	/* guard: none, the rules are for everyone; inputs: none */
	w->rs.cacheable = 1;
	group_shift(&r);
	snprintf(home, sizeof home, "%s", w->cf->prefix);
	vals_init(&v);
	facts(&v);
	vals_set(&v, K_new_url, home);
	vals_rows(&v, K_goal_row, BT_MAX_PLAYERS - BT_MIN_PLAYERS + 1);
	vals_rows(&v, K_kind, BT_KIND__MAX - 1);
	vals_rows(&v, K_sidecard, BT_SIDE_COUNT);
	vals_rows(&v, K_asgcard, BT_ASSIGN_COUNT);
	vals_rows(&v, K_shiftcard, r.nshift);
	v.row = rules_row;
	v.ctx = &r;
	d = vals_data(&v);
	return resp_page(w, 200, "How to play", TPL_RULES, &d);
}
