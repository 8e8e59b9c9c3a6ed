/*
 * compose_talk.h - the table talk an email tells (compose.c): the newest
 * lines since the reader's last turn, the move before, or the last
 * digest, read as a window of the game's talk (store_chat_since), never
 * all of it, as a move's emails are composed inside its write
 * transaction.  Told within a byte budget, with how many earlier lines
 * were left out:
 *
 *   Table talk since then:
 *   (120 earlier messages left out: the table shows them)
 *   Ann: shall I take the Duty?
 *   Bob: go ahead
 */
#ifndef BT_COMPOSE_TALK_H
#define BT_COMPOSE_TALK_H

#include <stddef.h>

#include "store.h"
#include "store_talk.h"

enum {
	COMPOSE_TALK_KEPT = 12,      /* newest messages an email may tell */
	COMPOSE_TALK_BUDGET = 1500,  /* ... in at most this many bytes */
	COMPOSE_TALK_MAX = 2048      /* bytes compose_talk_text may write */
};

typedef struct compose_talk {
	int n;                       /* kept in line[], oldest first */
	int matching;                /* said since then, counted up to
	                              * STORE_CHAT_COUNT_MAX */
	store_chat line[COMPOSE_TALK_KEPT];
} compose_talk;

/* Reads game's talk said since from_time if it is not 0, else since the
 * game had from_seq lines.  0, or -1 on a store error. */
int compose_talk_read(store *st, const char *game, int from_seq,
                      int64_t from_time, compose_talk *t);

/* "\nTable talk WHEN:\n" and the newest lines that fit the budget into
 * out (cap bytes, at least COMPOSE_TALK_MAX), names from g; "" if there
 * is no talk.  Returns out. */
const char *compose_talk_text(const store_game *g, const compose_talk *t,
                              const char *when, char *out, size_t cap);

#endif
