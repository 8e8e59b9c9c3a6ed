/*
 * store_talk.h - table talk has bounds (issue 24; db/store_life.c): a
 * game holds at most a cap of lines, and what shows or mails talk reads
 * a window of it through an index, never every line, so that a move, a
 * feed or an email costs the same with a game's whole talk as with none.
 */
#ifndef BT_STORE_TALK_H
#define BT_STORE_TALK_H

#include "store.h"

enum {
	STORE_TALK_PER_GAME = 2000,    /* lines a game may have, by default */
	STORE_TALK_CAP_MAX = 100000,   /* ... and at most */
	STORE_CHAT_COUNT_MAX = 1000    /* store_chat_since counts up to */
};

/* The lines of talk one game may have (1..STORE_TALK_CAP_MAX, else the
 * default): the line after them is STORE_LIMITED, from the web, a
 * reply's say: lines and a bot alike.  A game that had more before
 * keeps them and takes no more. */
void store_set_talk_cap(store *s, int per_game);

/* How many more lines game id may have (0: its talk is full). */
store_rc store_chat_left(store *s, const char *id, int *left,
                         store_error *err);

typedef enum store_chat_from {
	STORE_CHAT_FROM_LINE,     /* said when the game had >= from lines */
	STORE_CHAT_FROM_TIME      /* said at or after unix time from */
} store_chat_from;

/*
 * The talk an email tells, read as a window: calls fn for the newest n
 * messages of game id since from (by line or by time), oldest first;
 * *matching (may be NULL) is how many messages there are since from,
 * counted up to STORE_CHAT_COUNT_MAX.  Reads about n + that many index
 * entries, however long the game's talk: safe inside a move's write
 * transaction (a store_mail_fn).  After a move taken back, "since a
 * line" may also hold a line said just before it.
 */
store_rc store_chat_since(store *s, const char *id, store_chat_from by,
                          int64_t from, int n,
                          int (*fn)(void *ctx, const store_chat *c),
                          void *ctx, int *matching, store_error *err);

#endif
