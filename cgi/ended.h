/*
 * ended.h - a game ended early, where it could no longer be won
 * (store_end_game), told the same way on every page that says how a
 * game ended (page_end.c).
 */
#ifndef BT_ENDED_H
#define BT_ENDED_H

#include <stddef.h>

#include "store.h"

enum { ENDED_MAX = 160 };   /* bytes of the sentence */

/* "Ann ended the game: it could no longer be won." into buf, and buf;
 * "" (and buf) if g was not ended early. */
const char *ended_words(const store_game *g, char *buf, size_t cap);

/* 1 if seat may end g now from its live table: a person's seat of a
 * game in play that can no longer be won, with no look under way. */
int ended_may(const store_game *g, int seat);

#endif
