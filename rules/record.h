/*
 * record.h - the game record of RECORD.md: parsing, replaying, writing.
 *
 * A record is a header (version, players, First Player, seed, names, stack
 * lines for the setup shuffles) and then items: action lines and the stack
 * lines that wait for a later shuffle.  Nothing here does I/O: the reader
 * feeds lines one at a time to bt_replay_line(), the writer hands text to
 * a callback.  Every structure is fixed-size, without pointers.
 *
 * Typical replay:
 *
 *	static bt_replay r;
 *	bt_error err;
 *	bt_replay_init(&r);
 *	for each line (without its '\n')
 *		if (bt_replay_line(&r, line, len, &err))
 *			... error on line r.err_line: rule err.rule, err.why ...
 *	if (bt_replay_finish(&r, &err))
 *		... same ...
 *	... the state is r.game ...
 *
 * Errors are bt_error values: the engine's own for illegal actions and
 * stack lines (passed through), and for text that is not a record (a
 * malformed line, a bad header) rule 11 with code BT_ERR_SETUP (header and
 * framing) or BT_ERR_BAD_ACTION (an action line).
 */
#ifndef BT_RECORD_H
#define BT_RECORD_H

#include <stddef.h>
#include <stdint.h>

#include "game.h"

enum {
	BT_RECORD_VERSION = 1,
	BT_RECORD_LINE_MAX = 1024,      /* bytes, without "\r\n" */
	BT_RECORD_MAX_LINES = 10000000, /* physical lines, comments included */
	BT_RECORD_MAX_ITEMS = 4096,     /* action and stack lines after the header */
	BT_RECORD_MAX_STACKS = 128,     /* stack lines, header included */
	BT_SEED_TEXT_MAX = 2 * BT_KEY_BYTES,   /* hex digits */
	BT_NAME_CHARS_MAX = 40,         /* code points */
	BT_NAME_BYTES_MAX = 4 * BT_NAME_CHARS_MAX,
	BT_ACTION_TEXT_MAX = 32         /* "6 special X13 S05 S24 S11" + NUL fits */
};

/* One stack line: cards to put on top of deck at its next shuffle. */
typedef struct bt_stack_line {
	uint8_t deck;                   /* bt_deck */
	uint8_t n;                      /* 1..cards in that deck */
	bt_card c[BT_SHIFT_COUNT];      /* top first */
} bt_stack_line;

typedef enum bt_item_type { BT_ITEM_ACTION, BT_ITEM_STACK } bt_item_type;

/* One line after the header. */
typedef struct bt_item {
	uint8_t type;                   /* bt_item_type */
	uint8_t stack;                  /* BT_ITEM_STACK: index in stacks[] */
	bt_action action;               /* BT_ITEM_ACTION */
} bt_item;

typedef struct bt_record {
	uint8_t players, first;         /* 0 until set */
	char seed[BT_SEED_TEXT_MAX + 1];   /* as written; "" if none */
	uint8_t key[BT_KEY_BYTES];
	char name[BT_MAX_PLAYERS][BT_NAME_BYTES_MAX + 1];  /* "" if none */
	uint8_t header_stacks;          /* stacks[0..header_stacks-1]: header */
	uint8_t nstacks;
	bt_stack_line stacks[BT_RECORD_MAX_STACKS];
	uint16_t nitems;
	bt_item items[BT_RECORD_MAX_ITEMS];
} bt_record;

/* ---- building a record ------------------------------------------------ */

/*
 * Empties rec and sets its header: players 2..6, first 1..players, seed
 * of 1..64 hex digits (kept as given), or seed NULL for a record without
 * one (the web server's export of a running game: it writes, but does not
 * replay).  Returns 0, or -1 with err filled in (rule 11, or 1 for seats).
 */
int bt_record_init(bt_record *rec, int players, int first,
                   const char *seed, size_t seed_len, bt_error *err);

/* Names seat (1..players): 1..40 code points of UTF-8 without control
 * characters, not starting or ending with a space; once per seat. */
int bt_record_name(bt_record *rec, int seat, const char *name, size_t len,
                   bt_error *err);

/* Appends a stack line: to the header while no action was added, else as
 * an item.  Cards must be of the deck's type; at most that deck's size. */
int bt_record_add_stack(bt_record *rec, bt_deck deck, const bt_card *cards,
                        int n, bt_error *err);

/* Appends an action line (checked for shape only, not for legality). */
int bt_record_add_action(bt_record *rec, const bt_action *a, bt_error *err);

/* Writes 64 lowercase hex digits and a NUL: the seed text of key. */
void bt_seed_hex(const uint8_t key[BT_KEY_BYTES],
                 char out[BT_SEED_TEXT_MAX + 1]);

/* ---- writing ---------------------------------------------------------- */

/* Receives n bytes of output; a nonzero return stops the writer. */
typedef int (*bt_emit_fn)(void *ctx, const char *s, size_t n);

/*
 * Writes rec as record text, one "\n"-terminated line at a time:
 * version, players, first, seed, names by seat, header stack lines, then
 * the items in order.  Returns 0, the first nonzero value emit returned,
 * or -1 if rec holds an item that cannot be written.
 */
int bt_record_write(const bt_record *rec, bt_emit_fn emit, void *ctx);

/* Like bt_record_write() into buf (cap bytes, NUL-terminated when cap >
 * 0); returns the length the whole text needs, as snprintf does, or
 * (size_t)-1 if rec cannot be written. */
size_t bt_record_write_buf(const bt_record *rec, char *buf, size_t cap);

/* ---- action lines ----------------------------------------------------- */

/*
 * Writes a's record text ("1 special X13 S05 S24 S11", no newline) into
 * buf, NUL-terminated if cap > 0.  Returns the length it needs (less than
 * BT_ACTION_TEXT_MAX), or -1 if a is not of a shape a record can hold.
 */
int bt_action_format(const bt_action *a, char *buf, size_t cap);

/*
 * Parses one action line of len bytes (no newline): "SEAT VERB [ARGS]"
 * with seats 1..6.  Card ids must be of the type their slot takes; the
 * choice after an ability card follows its kind (RECORD.md).  Legality is
 * bt_check()'s job.  Returns 0, or -1 with err (BT_ERR_BAD_ACTION, rule
 * 11).
 */
int bt_action_parse(const char *s, size_t len, bt_action *a, bt_error *err);

/* ---- stack lines and whole lines -------------------------------------- */

/* Parses "stack DECK CARD..." (len bytes, no newline) into *out: deck and
 * card types are checked, presence in the deck is the engine's business.
 * Returns 0, or -1 with err (BT_ERR_SETUP, rule 11). */
int bt_stack_parse(const char *s, size_t len, bt_stack_line *out,
                   bt_error *err);

/* Writes s as its record line ("stack shift S23 S01", no newline) into
 * buf, NUL-terminated if cap > 0; returns the length it needs, or -1. */
int bt_stack_format(const bt_stack_line *s, char *buf, size_t cap);

/* Appends one line after the header, an action or a stack line, checked
 * for shape only (bt_record_add_action, bt_record_add_stack). */
int bt_record_add_line(bt_record *rec, const char *s, size_t len,
                       bt_error *err);

/* ---- replaying -------------------------------------------------------- */

typedef struct bt_replay {
	bt_record rec;
	bt_game game;               /* valid once started */
	int line;                   /* physical lines fed so far */
	int err_line;               /* line of the error; 0 if none */
	bt_error err;               /* the error, repeated on later calls */
	uint8_t phase;              /* see record_replay.c */
	uint8_t started;            /* game initialised and set up */
	uint8_t has_seed;
	int players_line;
	int stack_line[BT_RECORD_MAX_STACKS];   /* line of each stack line */
	int waiting[BT_DECK__MAX];  /* line of the deck's waiting stack, or 0 */
} bt_replay;

/* Prepares r for the first line.  (r is large: ~40 KiB.) */
void bt_replay_init(bt_replay *r);

/*
 * Feeds the next physical line: len bytes without the '\n' (a trailing
 * '\r' is dropped).  Lines over BT_RECORD_LINE_MAX bytes are an error, so
 * a reader may pass only the first BT_RECORD_LINE_MAX + 2 bytes of a long
 * line.  Returns 0, or -1 with err filled in and r->err_line set; after
 * an error every call returns it again.
 */
int bt_replay_line(bt_replay *r, const char *line, size_t len,
                   bt_error *err);

/*
 * Ends the record: an incomplete header is an error (reported on the
 * last line, or line 1 of an empty record); a header without actions
 * starts the game.  Returns 0 with the final state in r->game, or -1.
 */
int bt_replay_finish(bt_replay *r, bt_error *err);

/* Feeds text (lines separated by '\n') and finishes: a whole record in
 * memory.  Returns 0 or -1 as the two functions above. */
int bt_replay_text(bt_replay *r, const char *text, size_t len,
                   bt_error *err);

#endif
