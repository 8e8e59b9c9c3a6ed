/*
 * cardview.c - drawing cards through templates/card.html: the card's
 * icons, its short text and, behind "What it does", its whole meaning in
 * words built from the engine's facts (no JavaScript, works on touch).
 */
#include <stdio.h>

#include "cardview.h"
#include "vals.h"

/* Per card type: the CSS class and the label on the card. */
static const struct {
	const char *cls, *label;
} types[BT_TYPE__MAX] = {
	[BT_TYPE_SIDE] = { "side", "Side Project" },
	[BT_TYPE_ABILITY] = { "ability", "Ability" },
	[BT_TYPE_ASSIGNMENT] = { "assignment", "Assignment" },
	[BT_TYPE_SHIFT] = { "shift", "Shift" },
};

const char *card_kind_text(bt_card c)
{
	return c < BT_CARD_COUNT ? bt_kind_short(bt_card_get(c)->kind) : "";
}

void card_kind_anchor(bt_kind k, char *buf, size_t cap)
{
	const char *name = bt_kind_name(k);
	size_t n = (size_t)snprintf(buf, cap, "ability-");

	/* letters in lower case, anything else a dash: "sensor-sweep" */
	for (; *name && n + 1 < cap; name++) {
		char ch = *name;
		buf[n++] = ch >= 'A' && ch <= 'Z' ? (char)(ch - 'A' + 'a')
		           : (ch >= 'a' && ch <= 'z') ? ch : '-';
	}
	if (n < cap)
		buf[n] = '\0';
}

/* "1 Officer", "3 Leisure": a number and its noun. */
static const char *plural(int n, const char *one, const char *many)
{
	return n == 1 ? one : many;
}

/* What card c means in play, in words from the engine's facts. */
static void card_meaning(bt_card c, char *buf, size_t cap)
{
	const bt_card_info *k = bt_card_get(c);

	switch (k->type) {
	case BT_TYPE_SIDE:
		snprintf(buf, cap, "Start it from your hand: the Target rises "
		         "by %d; its %d Leisure counts once the assignment is "
		         "logged.", k->target, k->leisure);
		break;
	case BT_TYPE_ABILITY:
		snprintf(buf, cap, "%s", bt_kind_text(k->kind));
		break;
	case BT_TYPE_ASSIGNMENT:
		snprintf(buf, cap, "Target %d: log it once the Effort Total "
		         "reaches the Target Total. It is worth %d Leisure in "
		         "the Scoring Row.", k->target, k->leisure);
		break;
	default:
		if (k->officers)
			snprintf(buf, cap, "%d %s: at %d in the Shift Stack the "
			         "crew is reprimanded.", k->officers,
			         plural(k->officers, "Officer", "Officers"),
			         BT_REPRIMAND_OFFICERS);
		else
			snprintf(buf, cap, "Effort %d: drawn onto the Shift "
			         "Stack, it adds %d to the Effort Total.",
			         k->effort, k->effort);
		break;
	}
}

/* The anchor of the rules page that explains card c. */
static void card_rules_url(const web *w, bt_card c, char *buf, size_t cap)
{
	const bt_card_info *k = bt_card_get(c);
	char slug[CARD_ANCHOR_MAX];

	if (k->type == BT_TYPE_ABILITY) {
		card_kind_anchor(k->kind, slug, sizeof slug);
		snprintf(buf, cap, "%srules#%s", w->cf->prefix, slug);
	} else {
		snprintf(buf, cap, "%srules#%s", w->cf->prefix,
		         k->type == BT_TYPE_SIDE ? "side-projects"
		         : k->type == BT_TYPE_ASSIGNMENT ? "assignments"
		         : k->officers ? "officers" : "shift-cards");
	}
}

/* One icon: shown only when the card has it. */
static void icon(vals *v, web_key has, web_key key, int value)
{
	vals_show(v, has, value > 0);
	vals_int(v, key, value);
}

web_err card_draw(web *w, out *o, bt_card c, const char *form_html,
                  const char *note)
{
	const bt_card_info *k;
	const char *text;
	char meaning[320], url[WEB_URL_MAX];
	vals v;
	tmpl_data d;
	tmpl_rc rc;

	if (c >= BT_CARD_COUNT)
		return WEB_OK;
	k = bt_card_get(c);
	text = note ? note : card_kind_text(c);
	vals_init(&v);
	vals_set(&v, K_card_class, k->officers ? "shift officer"
	         : types[k->type].cls);
	vals_set(&v, K_card_type, k->officers ? "Officer"
	         : types[k->type].label);
	vals_set(&v, K_card_id, k->id);
	vals_set(&v, K_card_name, k->name);
	icon(&v, K_has_target, K_card_target, k->target);
	icon(&v, K_has_effort, K_card_effort, k->effort);
	icon(&v, K_has_officers, K_card_officers, k->officers);
	icon(&v, K_has_leisure, K_card_leisure, k->leisure);
	vals_set(&v, K_card_text, text);
	vals_show(&v, K_has_text, text[0] != '\0');
	vals_set(&v, K_card_form, form_html);
	card_meaning(c, meaning, sizeof meaning);
	card_rules_url(w, c, url, sizeof url);
	vals_set(&v, K_card_meaning, meaning);
	vals_set(&v, K_card_rules_url, url);
	d = vals_data(&v);
	if ((rc = tmpl_render(w->tpl[TPL_CARD], o, &d)) != TMPL_OK) {
		web_log(w, __func__, "card %s: %s", k->id, tmpl_rc_text(rc));
		return WEB_INTERNAL;
	}
	return WEB_OK;
}

web_err cards_draw(web *w, out *o, const bt_card *c, int n)
{
	web_err e = WEB_OK;

	for (int i = 0; i < n && e == WEB_OK; i++)
		e = card_draw(w, o, c[i], NULL, NULL);
	return e;
}
