/*
 * rig.h - building games for tests from record text (RECORD.md).
 *
 * A test writes the game it needs as a record, with stack lines to rig
 * the deals, and gets the state after its last line:
 *
 *	bt_game g;
 *	ck_assert_int_eq(rig_replay(HEADER "stack shift S23\n2 work\n",
 *	                            &g, NULL, NULL), 0);
 */
#ifndef BT_RIG_H
#define BT_RIG_H

#include <stddef.h>

#include "game.h"

/*
 * Replays text (lines separated by '\n') into *g.  Returns 0, or -1 with
 * *err and *line (the line the replay stopped on) filled in.  g, err and
 * line may be NULL.  On error *g is the state the replay had reached (the
 * state before the failing line, except after a failed stack line or
 * setup, when the engine leaves it unusable).
 */
int rig_replay(const char *text, bt_game *g, bt_error *err, int *line);

/* Replays text and writes it back as a record into buf (cap bytes,
 * NUL-terminated).  Returns the written length, or (size_t)-1 if text
 * does not replay. */
size_t rig_write(const char *text, char *buf, size_t cap);

/* Replays text and writes seat's state view (0: everything) into buf.
 * Returns the view's length, or 0 if text does not replay. */
size_t rig_view(const char *text, int seat, char *buf, size_t cap);

#endif
