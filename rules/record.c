/*
 * record.c - the game record of RECORD.md: building a record, writing
 * and parsing action lines, and writing a record (its replay, line by
 * line, is record_replay.c).
 *
 * Parsing is strict on purpose: a record is a public interface, so text
 * that the writer would not produce (two spaces, a leading zero, a card
 * of the wrong kind) is refused with its line number, never guessed at.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "record_lex.h"

/* ---- building a record ------------------------------------------------ */

int bt_record_init(bt_record *rec, int players, int first,
                   const char *seed, size_t seed_len, bt_error *err)
{
	memset(rec, 0, sizeof *rec);
	if (record_check_players(players, err) ||
	    record_check_first(first, players, err))
		return -1;
	if (seed != NULL && record_set_seed(rec, seed, seed_len, err))
		return -1;
	rec->players = (uint8_t)players;
	rec->first = (uint8_t)first;
	return 0;
}

int bt_record_name(bt_record *rec, int seat, const char *name, size_t len,
                   bt_error *err)
{
	if (seat < 1 || seat > rec->players)
		return record_fail(err, BT_ERR_SETUP, 11,
		                   "no seat %d to name in a %d-player game", seat,
		                   rec->players);
	if (rec->name[seat - 1][0] != '\0')
		return record_fail(err, BT_ERR_SETUP, 11,
		                   "seat %d is already named", seat);
	long chars = record_text_check(name, len, err);
	if (chars < 0)
		return -1;
	if (chars < 1 || chars > BT_NAME_CHARS_MAX)
		return record_fail(err, BT_ERR_SETUP, 11,
		                   "a name is 1 to %d characters", BT_NAME_CHARS_MAX);
	if (name[0] == ' ' || name[len - 1] == ' ')
		return record_fail(err, BT_ERR_SETUP, 11,
		                   "a name may not start or end with a space");
	memcpy(rec->name[seat - 1], name, len);
	rec->name[seat - 1][len] = '\0';
	return 0;
}

int bt_record_add_stack(bt_record *rec, bt_deck deck, const bt_card *cards,
                        int n, bt_error *err)
{
	if ((unsigned)deck >= BT_DECK__MAX)
		return record_fail(err, BT_ERR_SETUP, 11, "no such deck");
	if (n < 1 || n > record_decks[deck].size)
		return record_fail(err, BT_ERR_SETUP, 11,
		                   "a stack line names 1 to %d %s cards",
		                   record_decks[deck].size, record_decks[deck].name);
	for (int i = 0; i < n; i++) {
		if (cards[i] >= BT_CARD_COUNT ||
		    bt_card_type_of(cards[i]) != record_decks[deck].type)
			return record_fail(err, BT_ERR_SETUP, 11,
			                   "%s is not %s",
			                   cards[i] < BT_CARD_COUNT ?
			                   bt_card_get(cards[i])->id : "that",
			                   record_type_names[record_decks[deck].type]);
		for (int j = 0; j < i; j++)
			if (cards[j] == cards[i])
				return record_fail(err, BT_ERR_SETUP, 11,
				                   "%s is named twice",
				                   bt_card_get(cards[i])->id);
	}
	if (rec->nstacks >= BT_RECORD_MAX_STACKS)
		return record_fail(err, BT_ERR_SETUP, 11, "too many stack lines");
	if (rec->nitems > 0 && rec->nitems >= BT_RECORD_MAX_ITEMS)
		return record_fail(err, BT_ERR_SETUP, 11, "record too long");

	bt_stack_line *s = &rec->stacks[rec->nstacks];
	s->deck = (uint8_t)deck;
	s->n = (uint8_t)n;
	memcpy(s->c, cards, (size_t)n);
	if (rec->nitems == 0) {
		/* Before the first action: part of the header. */
		rec->header_stacks++;
	} else {
		bt_item *it = &rec->items[rec->nitems++];
		memset(it, 0, sizeof *it);
		it->type = BT_ITEM_STACK;
		it->stack = rec->nstacks;
	}
	rec->nstacks++;
	return 0;
}

int bt_record_add_action(bt_record *rec, const bt_action *a, bt_error *err)
{
	if (bt_action_format(a, NULL, 0) < 0)
		return record_fail(err, BT_ERR_BAD_ACTION, 11,
		                   "not an action a record can hold");
	if (rec->nitems >= BT_RECORD_MAX_ITEMS)
		return record_fail(err, BT_ERR_BAD_ACTION, 11, "record too long");
	bt_item *it = &rec->items[rec->nitems++];
	memset(it, 0, sizeof *it);
	it->type = BT_ITEM_ACTION;
	it->action = *a;
	return 0;
}

void bt_seed_hex(const uint8_t key[BT_KEY_BYTES],
                 char out[BT_SEED_TEXT_MAX + 1])
{
	static const char hex[] = "0123456789abcdef";

	for (int i = 0; i < BT_KEY_BYTES; i++) {
		out[2 * i] = hex[key[i] >> 4];
		out[2 * i + 1] = hex[key[i] & 15];
	}
	out[BT_SEED_TEXT_MAX] = '\0';
}

/* ---- action lines ----------------------------------------------------- */

static const char *const verb_names[BT_VERB__MAX] = {
	[BT_WORK] = "work",
	[BT_SIDE] = "side",
	[BT_SPECIAL] = "special",
	[BT_LOG] = "log",
};

/* What may follow an ability card, by kind (RECORD.md's table). */
enum slot { SLOT_NONE, SLOT_SHIFT, SLOT_SIDE, SLOT_HANDOFF };

static const struct {
	uint8_t min, max;
	uint8_t slot;           /* enum slot */
	const char *takes;      /* for messages */
} choices[BT_KIND__MAX] = {
	[BT_KIND_NONE] = { 0, 0, SLOT_NONE, "no choice" },
	[BT_OVERTIME] = { 0, 0, SLOT_NONE, "no choice" },
	[BT_COVER_STORY] = { 1, 1, SLOT_SHIFT, "one Officer card" },
	[BT_DEFLECT] = { 0, 0, SLOT_NONE, "no choice" },
	[BT_EXTRA_DUTY] = { 0, 0, SLOT_NONE, "no choice" },
	[BT_HOLODECK] = { 0, 0, SLOT_NONE, "no choice" },
	[BT_SENSOR_SWEEP] = { 1, BT_SWEEP_CARDS, SLOT_SHIFT,
	                      "1 to 3 Shift cards, top first" },
	[BT_BRAINSTORM] = { 0, 0, SLOT_NONE, "no choice" },
	[BT_SCALE_BACK] = { 1, 1, SLOT_SIDE, "one Side Project" },
	[BT_HAND_OFF] = { 2, 2, SLOT_HANDOFF, "a card, then a seat" },
};

static int is_seat(int s)
{
	return s >= 1 && s <= BT_MAX_PLAYERS;
}

/* 1 if arg i of an ability of kind k may be the value v. */
static int arg_fits(bt_kind k, int i, unsigned v)
{
	switch (choices[k].slot) {
	case SLOT_SHIFT:
		return v < BT_CARD_COUNT && bt_card_type_of((bt_card)v) ==
		       BT_TYPE_SHIFT;
	case SLOT_SIDE:
		return v < BT_CARD_COUNT && bt_card_type_of((bt_card)v) ==
		       BT_TYPE_SIDE;
	case SLOT_HANDOFF:
		return i == 1 ? is_seat((int)v) : v < BT_HANDABLE_COUNT;
	default:
		return 0;
	}
}

/* 1 if a has a shape a record line can hold. */
static int action_shape(const bt_action *a)
{
	if (!is_seat(a->seat) || a->verb >= BT_VERB__MAX)
		return 0;
	if (a->verb == BT_WORK || a->verb == BT_LOG)
		return 1;       /* card and args are not part of the line */
	if (a->card >= BT_CARD_COUNT)
		return 0;
	if (a->verb == BT_SIDE)
		return bt_card_type_of(a->card) == BT_TYPE_SIDE &&
		       a->nargs == 0;
	if (bt_card_type_of(a->card) != BT_TYPE_ABILITY)
		return 0;
	bt_kind k = bt_card_get(a->card)->kind;
	if ((unsigned)k >= BT_KIND__MAX || a->nargs < choices[k].min ||
	    a->nargs > choices[k].max)
		return 0;
	for (int i = 0; i < a->nargs; i++)
		if (!arg_fits(k, i, a->arg[i]))
			return 0;
	return 1;
}

int bt_action_format(const bt_action *a, char *buf, size_t cap)
{
	char tmp[BT_ACTION_TEXT_MAX];
	int n;

	if (!action_shape(a))
		return -1;
	n = snprintf(tmp, sizeof tmp, "%d %s", a->seat, verb_names[a->verb]);
	if (a->verb == BT_SIDE || a->verb == BT_SPECIAL)
		n += snprintf(tmp + n, sizeof tmp - (size_t)n, " %s",
		              bt_card_get(a->card)->id);
	for (int i = 0; a->verb == BT_SPECIAL && i < a->nargs; i++) {
		if (bt_card_get(a->card)->kind == BT_HAND_OFF && i == 1)
			n += snprintf(tmp + n, sizeof tmp - (size_t)n, " %d",
			              a->arg[i]);
		else
			n += snprintf(tmp + n, sizeof tmp - (size_t)n, " %s",
			              bt_card_get(a->arg[i])->id);
	}
	if (cap > 0)
		snprintf(buf, cap, "%s", tmp);
	return n;
}

/* Parses the choice t[0..n-1] after ability card a->card into a. */
static int parse_choice(bt_action *a, const tok *t, int n, bt_error *err)
{
	bt_kind k = bt_card_get(a->card)->kind;
	bt_card c;

	if (n < choices[k].min || n > choices[k].max)
		return record_fail(err, BT_ERR_BAD_ACTION, 11, "%s (%s) takes %s",
		                   bt_card_get(a->card)->id, bt_kind_name(k),
		                   choices[k].takes);
	for (int i = 0; i < n; i++) {
		if (choices[k].slot == SLOT_HANDOFF && i == 1) {
			long seat = record_tok_num(&t[i]);
			if (!is_seat((int)seat))
				return record_fail(err, BT_ERR_BAD_ACTION, 11,
				                   "Hand Off needs a seat from 1 to %d"
				                   " after the card", BT_MAX_PLAYERS);
			a->arg[i] = (uint8_t)seat;
			continue;
		}
		c = record_tok_card(&t[i], choices[k].slot == SLOT_SHIFT ?
		                    BT_TYPE_SHIFT : choices[k].slot == SLOT_SIDE ?
		                    BT_TYPE_SIDE : BT_TYPE__MAX, BT_ERR_BAD_ACTION, err);
		if (c == BT_NO_CARD)
			return -1;
		a->arg[i] = c;
	}
	a->nargs = (uint8_t)n;
	return 0;
}

int bt_action_parse(const char *s, size_t len, bt_action *a, bt_error *err)
{
	tok t[3 + BT_SWEEP_CARDS];
	char q[32];
	int n = record_split(s, len, t, 3 + BT_SWEEP_CARDS);
	int v;

	memset(a, 0, sizeof *a);
	a->card = BT_NO_CARD;
	if (n == -1)
		return record_fail(err, BT_ERR_BAD_ACTION, 11,
		                   "tokens must be separated by exactly one space");
	if (n == -2)
		return record_fail(err, BT_ERR_BAD_ACTION, 11, "too many tokens");
	if (n < 2)
		return record_fail(err, BT_ERR_BAD_ACTION, 11,
		                   "an action is 'SEAT VERB [ARGS]'");
	long seat = record_tok_num(&t[0]);
	if (!is_seat((int)seat))
		return record_fail(err, BT_ERR_BAD_ACTION, 11,
		                   "'%s' is not a seat from 1 to %d",
		                   record_clip(t[0].s, t[0].n, q), BT_MAX_PLAYERS);
	a->seat = (uint8_t)seat;
	for (v = 0; v < BT_VERB__MAX && !record_tok_is(&t[1], verb_names[v]); v++)
		;
	if (v == BT_VERB__MAX)
		return record_fail(err, BT_ERR_BAD_ACTION, 11, "unknown verb '%s'",
		                   record_clip(t[1].s, t[1].n, q));
	a->verb = (uint8_t)v;
	if (v == BT_WORK || v == BT_LOG) {
		if (n != 2)
			return record_fail(err, BT_ERR_BAD_ACTION, 11,
			                   "'%s' takes nothing after it", verb_names[v]);
		return 0;
	}
	if (n < 3)
		return record_fail(err, BT_ERR_BAD_ACTION, 11, "'%s' needs a card",
		                   verb_names[v]);
	a->card = record_tok_card(&t[2], v == BT_SIDE ? BT_TYPE_SIDE :
	                          BT_TYPE_ABILITY, BT_ERR_BAD_ACTION, err);
	if (a->card == BT_NO_CARD)
		return -1;
	if (v == BT_SIDE && n != 3)
		return record_fail(err, BT_ERR_BAD_ACTION, 11,
		                   "'side' takes one Side Project");
	if (v == BT_SIDE)
		return 0;
	return parse_choice(a, t + 3, n - 3, err);
}

/* ---- writing ---------------------------------------------------------- */

/* Formats one line (with its '\n') and emits it. */
#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
static int emitf(bt_emit_fn emit, void *ctx, const char *fmt, ...)
{
	char line[BT_RECORD_LINE_MAX + 2];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof line)
		return -1;
	return emit(ctx, line, (size_t)n);
}

int bt_stack_format(const bt_stack_line *s, char *buf, size_t cap)
{
	/* "stack assignment " and 28 ids of 4 bytes fit easily. */
	char line[BT_RECORD_LINE_MAX];
	int n;

	if (s->deck >= BT_DECK__MAX || s->n < 1 || s->n > BT_SHIFT_COUNT)
		return -1;
	n = snprintf(line, sizeof line, "stack %s", record_decks[s->deck].name);
	for (int i = 0; i < s->n; i++) {
		if (s->c[i] >= BT_CARD_COUNT)
			return -1;
		n += snprintf(line + n, sizeof line - (size_t)n, " %s",
		              bt_card_get(s->c[i])->id);
	}
	if (cap)
		snprintf(buf, cap, "%s", line);
	return n;
}

static int write_stack(const bt_stack_line *s, bt_emit_fn emit, void *ctx)
{
	char line[BT_RECORD_LINE_MAX];

	if (bt_stack_format(s, line, sizeof line) < 0)
		return -1;
	return emitf(emit, ctx, "%s\n", line);
}

static int write_item(const bt_record *rec, const bt_item *it,
                      bt_emit_fn emit, void *ctx)
{
	char text[BT_ACTION_TEXT_MAX];

	if (it->type == BT_ITEM_STACK)
		return it->stack < rec->nstacks ?
		       write_stack(&rec->stacks[it->stack], emit, ctx) : -1;
	if (it->type != BT_ITEM_ACTION ||
	    bt_action_format(&it->action, text, sizeof text) < 0)
		return -1;
	return emitf(emit, ctx, "%s\n", text);
}

int bt_record_write(const bt_record *rec, bt_emit_fn emit, void *ctx)
{
	int rc;

	if ((rc = emitf(emit, ctx, "buffertime %d\nplayers %d\nfirst %d\n",
	                BT_RECORD_VERSION, rec->players, rec->first)))
		return rc;
	if (rec->seed[0] != '\0' &&
	    (rc = emitf(emit, ctx, "seed %s\n", rec->seed)))
		return rc;
	for (int s = 0; s < rec->players && s < BT_MAX_PLAYERS; s++)
		if (rec->name[s][0] != '\0' &&
		    (rc = emitf(emit, ctx, "name %d %s\n", s + 1,
		                rec->name[s])))
			return rc;
	for (int i = 0; i < rec->header_stacks && i < rec->nstacks; i++)
		if ((rc = write_stack(&rec->stacks[i], emit, ctx)))
			return rc;
	for (int i = 0; i < rec->nitems && i < BT_RECORD_MAX_ITEMS; i++)
		if ((rc = write_item(rec, &rec->items[i], emit, ctx)))
			return rc;
	return 0;
}

/* A caller's buffer as an emit target: keeps counting past its end. */
typedef struct sink {
	char *buf;
	size_t cap, len;
} sink;

static int sink_emit(void *ctx, const char *s, size_t n)
{
	sink *k = ctx;

	if (k->len < k->cap) {
		size_t room = k->cap - k->len;
		memcpy(k->buf + k->len, s, n < room ? n : room);
	}
	k->len += n;
	return 0;
}

size_t bt_record_write_buf(const bt_record *rec, char *buf, size_t cap)
{
	sink k = { buf, cap, 0 };

	if (bt_record_write(rec, sink_emit, &k)) {
		if (cap > 0)
			buf[0] = '\0';
		return (size_t)-1;
	}
	if (cap > 0)
		buf[k.len < cap ? k.len : cap - 1] = '\0';
	return k.len;
}
