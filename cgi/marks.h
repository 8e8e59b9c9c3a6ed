/*
 * marks.h - how a game was played, where its result is shown: on a
 * practice table (hints on), with moves a bot made (bot seats or a
 * stand-in), so that no such result is taken for a crew's own.
 */
#ifndef BT_MARKS_H
#define BT_MARKS_H

#include <stddef.h>

#include "web.h"

enum { MARKS_MAX = 128 };

/* Writes "practice table (hints on), with bot moves" (or either part, or
 * "" for a game of people alone) for g into buf (cap bytes); returns
 * buf.  Asks the store which lines a bot made (a stand-in's moves count
 * after the stand-in ends); on a store error it counts bot seats only. */
const char *game_marks(web *w, const store_game *g, char *buf, size_t cap);

/* The same as one sentence, for the result of a finished game: "This
 * result was played on a practice table (hints on), with moves made by
 * a bot." (or either part; "" for a game of people alone). */
const char *game_marks_sentence(web *w, const store_game *g, char *buf,
                                size_t cap);

/* The same words from what is known already: practice (hints on) and
 * bots (a bot made moves or plays a seat; store_crew's entries). */
const char *marks_words(int practice, int bots, char *buf, size_t cap);

#endif
