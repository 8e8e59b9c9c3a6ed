/*
 * cardview.h - cards drawn as cards (templates/card.html): type, name
 * and the rulebook's icons (Target, Effort, Officer, Leisure) with the
 * values the engine's card table gives.
 */
#ifndef BT_CARDVIEW_H
#define BT_CARDVIEW_H

#include "web.h"

/* Appends card c, with the HTML form_html (built by action_forms.c; NULL for
 * none) and note (plain text, NULL for none) inside it, to o.  Returns
 * WEB_OK or WEB_INTERNAL (logged). */
web_err card_draw(web *w, out *o, bt_card c, const char *form_html,
                  const char *note);

/* Appends the cards c[0..n-1], in that order, to o. */
web_err cards_draw(web *w, out *o, const bt_card *c, int n);

/* What an Ability card's kind does, as short as the card's text (the
 * engine's words; "" for other cards). */
const char *card_kind_text(bt_card c);

enum { CARD_ANCHOR_MAX = 48 };

/* The rules page's anchor of Ability kind k ("ability-sensor-sweep"),
 * into buf (cap bytes, at least 9). */
void card_kind_anchor(bt_kind k, char *buf, size_t cap);

#endif
