/*
 * table.h - the parts of the table page drawn as cards and forms
 * (table_cards.c), which page_table.c puts into templates/table.html.
 */
#ifndef BT_TABLE_H
#define BT_TABLE_H

#include "forms.h"
#include "vals.h"
#include "web.h"

/*
 * Draws, for seat of w->game, the piles (duty, sides, stack, row, the
 * Shift cards seat saw: known, bottom), seat's hand with a form on each
 * playable card, the turn's own forms (turn_forms, my_turn) and a
 * pending Sensor Sweep (sweeping, sweep_cards, sweep_form) into
 * w->frag[0], and sets those keys and their has_ sections in v.  The
 * texts live in w->frag[0] until the next request.
 */
web_err table_cards(web *w, int seat, const forms *f, vals *v);

#endif
