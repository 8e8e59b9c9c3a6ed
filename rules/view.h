/*
 * view.h - the JSON state view of RECORD.md ("The state view").
 */
#ifndef BT_VIEW_H
#define BT_VIEW_H

#include <stddef.h>

#include "game.h"

/* Enough for any game: 92 card ids and the fixed keys. */
enum { BT_VIEW_MAX = 4096 };

/*
 * Writes the state of g as one line of JSON and a "\n" into buf (cap
 * bytes, NUL-terminated when cap > 0), keys in RECORD.md's order, with
 * "reprimands" after "actions".  seat 0 shows everything; seat 1..players
 * shows what that seat may see (R10): other hands become counts, and a
 * last key "known_shift" lists the top Shift Deck cards it saw, top first.
 * Returns the length the whole text needs, as snprintf does; a seat out
 * of range writes nothing and returns 0.
 */
size_t bt_view_json(const bt_game *g, int seat, char *buf, size_t cap);

#endif
