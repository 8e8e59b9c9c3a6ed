/*
 * record_lex.h - what the record's writer (record.c) and its replay
 * (record_replay.c) share, inside the engine only: errors with a rule
 * number, the checks of text and numbers, tokens of a line, the decks'
 * names and the checks of a record's header.
 */
#ifndef BT_RECORD_LEX_H
#define BT_RECORD_LEX_H

#include <stddef.h>

#include "record.h"

/* A token of a line: not NUL-terminated. */
typedef struct tok {
	const char *s;
	size_t n;
} tok;

enum { TOK_MAX = 2 + BT_SHIFT_COUNT + 1 };  /* "stack DECK" + cards + 1 */

/* A deck's line: "stack NAME", the type of its cards and its size. */
typedef struct record_deck {
	const char *name;
	bt_card_type type;
	int size;
} record_deck;

extern const record_deck record_decks[BT_DECK__MAX];

/* "a Side Project", "an Ability card": a card type in a message. */
extern const char *const record_type_names[BT_TYPE__MAX];

/* Fills err (if not NULL) with code, rule and the message; returns -1. */
#if defined(__GNUC__)
__attribute__((format(printf, 4, 5)))
#endif
int record_fail(bt_error *err, bt_errcode code, int rule, const char *fmt,
                ...);

/* Copies at most 20 bytes of s into out for a message, printable ASCII
 * only, so a message never carries the input's bytes verbatim. */
const char *record_clip(const char *s, size_t n, char out[32]);

/* The number of code points of s[0..n-1] if it is UTF-8 text without
 * control characters (C0, DEL, C1), or -1 with err filled in. */
long record_text_check(const char *s, size_t n, bt_error *err);

/* Splits s at single spaces into at most max tokens.  Returns how many,
 * -1 if a token is empty (a leading, trailing or doubled space), -2 if
 * there are more than max. */
int record_split(const char *s, size_t n, tok *t, int max);

int record_tok_is(const tok *t, const char *word);

/* A plain decimal number (no sign, no leading zero, at most 9 digits),
 * or -1. */
long record_tok_num(const tok *t);

/* The card named by t if it is of type (or, with type BT_TYPE__MAX, a
 * Side Project or an Ability); else BT_NO_CARD with err filled in. */
bt_card record_tok_card(const tok *t, bt_card_type type, bt_errcode code,
                        bt_error *err);

/* The header's checks: 0, or -1 with err filled in. */
int record_check_players(long players, bt_error *err);
int record_check_first(long first, int players, bt_error *err);
int record_set_seed(bt_record *rec, const char *s, size_t n, bt_error *err);

#endif
