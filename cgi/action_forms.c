/*
 * action_forms.c - one form per legal action, with its choices.
 */
#include <stdio.h>
#include <string.h>

#include "action_forms.h"
#include "describe.h"
#include "fields.h"
#include "hint.h"
#include "menu.h"
#include "offer.h"
#include "vals.h"

enum {
	OPTS_MAX = BT_HANDABLE_COUNT + BT_MAX_PLAYERS,
	ORDERS_MAX = 6             /* arrangements of 3 cards */
};

/* A choice a kind asks for: which arg[] it fills and how it is shown. */
typedef struct choice {
	field_id field;
	const char *label;
	int seat;                   /* 1: a seat number, 0: a card */
} choice;

/* Per Ability kind: the form's action word and its choices (arg1,
 * arg2); kinds without a row are plain "special" plays.  The buttons'
 * words are words_action_name's, which the emails' menus say too. */
static const struct {
	const char *action;
	int nchoices;
	choice c[FORMS_ARGS];
} kinds[BT_KIND__MAX] = {
	[BT_COVER_STORY] = { "special", 1,
		{ { FIELD_ARG1, "Officer", 0 } } },
	[BT_SCALE_BACK] = { "special", 1,
		{ { FIELD_ARG1, "Side Project", 0 } } },
	[BT_HAND_OFF] = { "special", 2,
		{ { FIELD_ARG1, "Card to give", 0 }, { FIELD_ARG2, "to", 1 } } },
	[BT_SENSOR_SWEEP] = { "look", 0,
		{ { FIELD_ARG1, NULL, 0 } } },
};

/* The options of one select, as the select template reads them. */
typedef struct opts {
	int n, sel;                      /* sel: the one preselected, or -1 */
	char value[OPTS_MAX][8];
	char text[OPTS_MAX][DESCRIBE_MAX / 4];
} opts;

static const char *opt_row(void *ctx, int key, int i)
{
	const opts *o = ctx;

	if (i < 0 || i >= o->n)
		return NULL;
	switch (key) {
	case K_opt_value: return o->value[i];
	case K_opt_text: return o->text[i];
	case K_opt_sel: return i == o->sel ? " selected" : "";
	default: return NULL;
	}
}

static web_err render(web *w, web_tpl t, out *o, vals *v, const char *what)
{
	tmpl_data d = vals_data(v);
	tmpl_rc rc = tmpl_render(w->tpl[t], o, &d);

	if (rc == TMPL_OK)
		return WEB_OK;
	web_log(w, "forms", "%s: %s", what, tmpl_rc_text(rc));
	return WEB_INTERNAL;
}

/* Appends a select for field to o. */
static web_err select_draw(web *w, out *o, field_id id, const char *label,
                           opts *op)
{
	const char *field = field_get(id)->name;
	vals v;

	vals_init(&v);
	vals_set(&v, K_sel_name, field);
	vals_set(&v, K_sel_label, label);
	vals_rows(&v, K_opt, op->n);
	v.row = opt_row;
	v.ctx = op;
	return render(w, TPL_SELECT, o, &v, field);
}

/* What a form shows besides the fixed fields. */
typedef struct form_spec {
	const char *action, *card, *label, *cls, *note, *choices;
	int verb;                 /* bt_verb and card, for the hint */
	bt_card hint_card;
} form_spec;

static web_err form_draw(web *w, const forms *f, out *o, const form_spec *s)
{
	char hint[HINT_LINE_MAX];
	vals v;

	vals_init(&v);
	vals_set(&v, K_form_url, f->url);
	vals_set(&v, K_csrf, f->csrf);
	vals_set(&v, K_seq, f->seq);
	vals_set(&v, K_action, s->action);
	vals_set(&v, K_card, s->card);
	vals_show(&v, K_has_card, s->card != NULL);
	vals_set(&v, K_choices, s->choices);
	vals_set(&v, K_form_label, s->label);
	vals_set(&v, K_form_class, s->cls ? s->cls : s->action);
	vals_set(&v, K_form_note, s->note);
	vals_show(&v, K_has_note, s->note != NULL);
	hint_line(&w->game.state, f->seat, f->hint, f->nhints, s->verb,
	          s->hint_card, hint, sizeof hint);
	vals_set(&v, K_form_hint, hint);
	vals_show(&v, K_has_form_hint, hint[0] != '\0');
	return render(w, TPL_FORM, o, &v, s->action);
}

void forms_percent(int num, int den, char *buf, size_t cap)
{
	long tenths = den > 0 ? ((long)num * 1000 + den / 2) / den : 0;

	if (tenths % 10 == 0)
		snprintf(buf, cap, "%ld%%", tenths / 10);
	else
		snprintf(buf, cap, "%ld.%ld%%", tenths / 10, tenths % 10);
}

web_err forms_init(web *w, int seat, forms *f)
{
	const store_game *g = &w->game;
	int64_t gen = g->seats[seat - 1].token_gen;

	f->seat = seat;
	f->n = 0;
	snprintf(f->url, sizeof f->url, "%sg/%s/act", w->cf->prefix, g->id);
	snprintf(f->seq, sizeof f->seq, "%d", g->seq);
	if (csrf_make(&w->keys, g->id, seat, gen, f->csrf, sizeof f->csrf)) {
		web_log(w, __func__, "csrf_make failed for game %s", g->id);
		return WEB_INTERNAL;
	}
	/* Nothing but the order is legal while a sweep is pending. */
	if (g->state.turn == seat && g->sweep_card == BT_NO_CARD)
		f->n = bt_legal(&g->state, f->legal, BT_MAX_LEGAL);
	f->nhints = 0;
	f->hints_wanted = g->practice && f->n > 0;
	if (f->hints_wanted) {
		store_error err;
		if (store_hints_get(w->st, g->id, g->seq, f->hint,
		                    STORE_HINTS_MAX, &f->nhints, &err) != STORE_OK) {
			/* hints help; the table must not fail without them */
			web_log(w, __func__, "store_hints_get: %s", err.why);
			f->nhints = 0;
		}
	}
	return WEB_OK;
}

web_err forms_turn(web *w, const forms *f, out *o, int *count)
{
	static char note[OFFER_MAX];
	const bt_game *g = &w->game.state;
	char label[80];
	web_err e = WEB_OK;

	*count = 0;
	for (int i = 0; i < f->n && e == WEB_OK; i++) {
		form_spec s = { 0 };
		if (f->legal[i].verb == BT_WORK) {
			offer_work(g, f->seat, note, sizeof note);
			s = (form_spec){ "work", NULL, words_action_name(
			                 BT_WORK, BT_NO_CARD, label, sizeof label),
			                 "work primary", note, "", BT_WORK,
			                 BT_NO_CARD };
		} else if (f->legal[i].verb == BT_LOG) {
			offer_log(g, note, sizeof note);
			s = (form_spec){ "log", NULL, words_action_name(
			                 BT_LOG, BT_NO_CARD, label, sizeof label),
			                 "log primary", note, "", BT_LOG,
			                 BT_NO_CARD };
		} else {
			continue;
		}
		out_reset(&w->frag[2]);
		e = form_draw(w, f, o, &s);
		(*count)++;
	}
	return e;
}

/* 1 if an option before the newest one reads as it does. */
static int same_text_before(const opts *op)
{
	for (int i = 0; i < op->n; i++)
		if (!strcmp(op->text[i], op->text[op->n]))
			return 1;
	return 0;
}

/* The distinct values of arg[k] over the legal plays of card c, in the
 * engine's order; of cards that read alike, the first. */
static void collect(web *w, const forms *f, bt_card c, int k,
                    const choice *ch, opts *op)
{
	unsigned char seen[256] = { 0 };
	char n[48];

	op->n = 0;
	op->sel = -1;
	for (int i = 0; i < f->n && op->n < OPTS_MAX; i++) {
		const bt_action *a = &f->legal[i];
		if (a->card != c || a->nargs <= k || seen[a->arg[k]])
			continue;
		seen[a->arg[k]] = 1;
		if (ch->seat) {
			snprintf(op->value[op->n], sizeof op->value[0], "%d",
			         a->arg[k]);
			snprintf(op->text[op->n], sizeof op->text[0], "%s",
			         describe_seat(&w->game, a->arg[k], n, sizeof n));
		} else {
			snprintf(op->value[op->n], sizeof op->value[0], "%s",
			         bt_card_get(a->arg[k])->id);
			describe_card(a->arg[k], op->text[op->n],
			              sizeof op->text[0]);
		}
		/* a copy of a card is the same choice; two seats never are */
		if (ch->seat || !same_text_before(op))
			op->n++;
	}
}

/* The legal plays of card c, copied to plays (BT_MAX_LEGAL of room). */
static int plays_of(const forms *f, bt_card c, bt_action *plays)
{
	int n = 0;

	for (int i = 0; i < f->n; i++)
		if (f->legal[i].card == c)
			plays[n++] = f->legal[i];
	return n;
}

web_err forms_card(web *w, const forms *f, bt_card c, out *o, int *any)
{
	static opts op;
	static char note[OFFER_MAX];
	static bt_action plays[BT_MAX_LEGAL];
	const bt_card_info *k = bt_card_get(c);
	char label[80];
	form_spec s = { "special", k->id, label, NULL, NULL, NULL, BT_SPECIAL,
	                c };
	web_err e = WEB_OK;
	int legal = 0;

	*any = 0;
	for (int i = 0; i < f->n && !legal; i++)
		legal = f->legal[i].card == c;
	if (!legal)
		return WEB_OK;
	words_action_name(k->type == BT_TYPE_SIDE ? BT_SIDE : BT_SPECIAL, c,
	                  label, sizeof label);
	offer_play(&w->game.state, plays, plays_of(f, c, plays), note,
	           sizeof note);
	s.note = note[0] ? note : NULL;
	out_reset(&w->frag[2]);
	if (k->type == BT_TYPE_SIDE) {
		s.action = "side";
		s.verb = BT_SIDE;
	} else if (kinds[k->kind].action) {
		s.action = kinds[k->kind].action;
		for (int j = 0; j < kinds[k->kind].nchoices && !e; j++) {
			const choice *ch = &kinds[k->kind].c[j];
			collect(w, f, c, j, ch, &op);
			e = select_draw(w, &w->frag[2], ch->field, ch->label, &op);
		}
	}
	s.choices = out_str(&w->frag[2]);
	if (e == WEB_OK)
		e = form_draw(w, f, o, &s);
	*any = e == WEB_OK;
	return e;
}

/* The orders a sweep may leave: every arrangement of the seen cards
 * whose cards in words differ, so two equal cards never give two choices
 * that look alike; the first is the order they lie in now. */
typedef struct orders {
	int n;
	char value[ORDERS_MAX][16];             /* "S08-S23-S09" */
	char text[ORDERS_MAX][DESCRIBE_MAX];
} orders;

static const int perms[ORDERS_MAX][BT_SWEEP_CARDS] = {
	{ 0, 1, 2 }, { 0, 2, 1 }, { 1, 0, 2 },
	{ 1, 2, 0 }, { 2, 0, 1 }, { 2, 1, 0 },
};

static void order_add(const bt_game *g, const bt_card *top, int n,
                      const int *perm, orders *o)
{
	char words[BT_SWEEP_CARDS][DESCRIBE_MAX / 4], text[DESCRIBE_MAX];
	char value[16] = "";

	text[0] = '\0';
	for (int i = 0; i < n; i++) {
		bt_card c = top[perm[i]];
		describe_card(c, words[i], sizeof words[i]);
		size_t len = strlen(text), vl = strlen(value);
		snprintf(text + len, sizeof text - len, "%s%d. %s",
		         i ? ", " : "", i + 1, words[i]);
		snprintf(value + vl, sizeof value - vl, "%s%s", i ? "-" : "",
		         bt_card_get(c)->id);
	}
	for (int k = 0; k < o->n; k++)
		if (strncmp(o->text[k], text, strlen(text)) == 0)
			return;      /* the same cards in words: no new choice */
	if (bt_draw_reprimands(g, top[perm[0]])) {
		size_t len = strlen(text);
		snprintf(text + len, sizeof text - len, " (the next draw "
		         "brings a reprimand)");
	}
	snprintf(o->value[o->n], sizeof o->value[0], "%s", value);
	snprintf(o->text[o->n], sizeof o->text[0], "%s%s", text,
	         o->n == 0 ? " (as they lie now)" : "");
	o->n++;
}

static const char *order_row(void *ctx, int key, int i)
{
	const orders *o = ctx;

	if (i < 0 || i >= o->n)
		return NULL;
	switch (key) {
	case K_ord_value: return o->value[i];
	case K_ord_text: return o->text[i];
	case K_ord_checked: return i == 0 ? " checked" : "";
	default: return NULL;
	}
}

web_err forms_order(web *w, const forms *f, out *o)
{
	static orders ord;
	const bt_game *g = &w->game.state;
	const bt_pile *d = &g->shift_deck;
	int n = d->n < BT_SWEEP_CARDS ? d->n : BT_SWEEP_CARDS;
	form_spec s = { "order", NULL, "Put them back in this order", NULL,
	                "Only you see these cards. Equal cards are one "
	                "choice: their order changes nothing.", NULL, -1,
	                BT_NO_CARD };
	bt_card top[BT_SWEEP_CARDS];
	web_err e;
	vals v;

	for (int i = 0; i < n; i++)
		top[i] = d->c[d->n - 1 - i];
	ord.n = 0;
	for (int p = 0; p < ORDERS_MAX; p++) {
		int fits = 1;
		for (int i = 0; i < n; i++)
			fits &= perms[p][i] < n;
		if (fits)
			order_add(g, top, n, perms[p], &ord);
	}
	out_reset(&w->frag[2]);
	vals_init(&v);
	vals_rows(&v, K_ord, ord.n);
	v.row = order_row;
	v.ctx = &ord;
	e = render(w, TPL_ORDER, &w->frag[2], &v, "order");
	s.choices = out_str(&w->frag[2]);
	return e == WEB_OK ? form_draw(w, f, o, &s) : e;
}
