/*
 * cardview.c - drawing cards through templates/card.html.
 */
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

/* The rules text of each Ability kind (R9), as short as the card's. */
static const char *const kind_text[BT_KIND__MAX] = {
	[BT_OVERTIME] = "Place this card in the Shift Stack.",
	[BT_COVER_STORY] = "Put an Officer from the Shift Stack on the "
	                   "bottom of the Shift Deck.",
	[BT_DEFLECT] = "Reveal the top Shift card: an Officer goes to the "
	               "bottom of the Shift Deck, any other card onto the "
	               "Shift Stack.",
	[BT_EXTRA_DUTY] = "Put the top set-aside Assignment on the bottom "
	                  "of the Assignment Deck.",
	[BT_HOLODECK] = "Place this card in the Scoring Row.",
	[BT_SENSOR_SWEEP] = "Look at the top three Shift cards and put "
	                    "them back in any order. Only you see them.",
	[BT_BRAINSTORM] = "Draw two Side Projects.",
	[BT_SCALE_BACK] = "Take a Side Project in play into your hand.",
	[BT_HAND_OFF] = "Give another card from your hand to another "
	                "player.",
};

const char *card_kind_text(bt_card c)
{
	bt_kind k = c < BT_CARD_COUNT ? bt_card_get(c)->kind : BT_KIND_NONE;

	return (unsigned)k < BT_KIND__MAX && kind_text[k] ? kind_text[k] : "";
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
