/*
 * names.h - what a game is called among its crew's games (store_crew):
 * the emails' subjects, My games and the table page name a rematch or a
 * practice table the same way.
 */
#ifndef BT_NAMES_H
#define BT_NAMES_H

#include <stddef.h>

#include "store.h"

enum { NAMES_NOUN_MAX = 40 };   /* bytes that always hold the noun */

/*
 * What the game is among its crew's (store_crew), for subjects and
 * lists: "game" (the first), "rematch" (the first "play again"),
 * "rematch 2", ..., each with "practice " before it on a practice
 * table.  rematch_of, if not NULL, is the game g is being made as a
 * rematch of (the chain does not name g yet).  0, or -1 if the store
 * could not say (buf then names it as a first game) or buf is short.
 */
int names_game_noun(store *st, const store_game *g, const char *rematch_of,
                    char *buf, size_t cap);

#endif
