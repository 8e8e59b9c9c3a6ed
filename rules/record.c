/*
 * record.c - the game record of RECORD.md: building, writing and parsing
 * action lines, and replaying a record line by line.
 *
 * Parsing is strict on purpose: a record is a public interface, so text
 * that the writer would not produce (two spaces, a leading zero, a card
 * of the wrong kind) is refused with its line number, never guessed at.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "record.h"

/* A token of a line: not NUL-terminated. */
typedef struct tok {
	const char *s;
	size_t n;
} tok;

enum { TOK_MAX = 2 + BT_SHIFT_COUNT + 1 };  /* "stack DECK" + cards + 1 */

/* ---- errors ----------------------------------------------------------- */

#if defined(__GNUC__)
__attribute__((format(printf, 4, 5)))
#endif
static int fail(bt_error *err, bt_errcode code, int rule, const char *fmt,
                ...)
{
	va_list ap;

	if (err == NULL)
		return -1;
	memset(err, 0, sizeof *err);
	err->code = code;
	err->rule = rule;
	va_start(ap, fmt);
	vsnprintf(err->why, sizeof err->why, fmt, ap);
	va_end(ap);
	return -1;
}

/* Copies at most 20 bytes of s into out for a message, printable ASCII
 * only, so a message never carries the input's bytes verbatim. */
static const char *clip(const char *s, size_t n, char out[32])
{
	size_t i, lim = n > 20 ? 20 : n;

	for (i = 0; i < lim; i++)
		out[i] = s[i] >= 0x20 && s[i] < 0x7f ? s[i] : (char)'?';
	if (n > lim) {
		memcpy(out + i, "...", 3);
		i += 3;
	}
	out[i] = '\0';
	return out;
}

/* ---- text ------------------------------------------------------------- */

/* Length of the UTF-8 sequence at s[0..n-1] if it is valid, shortest
 * form and not a surrogate, else 0; its code point in *cp. */
static size_t utf8_decode(const unsigned char *s, size_t n, unsigned *cp)
{
	unsigned b = s[0], lo = 0x80, hi = 0xbf;
	size_t len, i;

	if (b < 0x80) {
		*cp = b;
		return 1;
	}
	if (b >= 0xc2 && b <= 0xdf)
		len = 2;
	else if (b >= 0xe0 && b <= 0xef)
		len = 3;
	else if (b >= 0xf0 && b <= 0xf4)
		len = 4;
	else
		return 0;
	/* The second byte's range excludes overlongs, surrogates and
	 * code points past U+10FFFF. */
	if (b == 0xe0)
		lo = 0xa0;
	else if (b == 0xed)
		hi = 0x9f;
	else if (b == 0xf0)
		lo = 0x90;
	else if (b == 0xf4)
		hi = 0x8f;
	if (n < len || s[1] < lo || s[1] > hi)
		return 0;
	*cp = b & (0xffu >> (len + 1));
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		*cp = (*cp << 6) | (s[i] & 0x3fu);
	}
	return len;
}

static int is_control(unsigned cp)
{
	return cp < 0x20 || (cp >= 0x7f && cp <= 0x9f);
}

/*
 * Checks that s[0..n-1] is UTF-8 text without control characters (C0,
 * DEL, C1).  Returns the number of code points, or -1 with err filled in.
 */
static long text_check(const char *s, size_t n, bt_error *err)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0;
	long count = 0;
	unsigned cp;

	while (i < n) {
		size_t len = utf8_decode(u + i, n - i, &cp);
		if (len == 0)
			return fail(err, BT_ERR_SETUP, 11,
			            "not valid UTF-8 (byte %zu)", i + 1);
		if (is_control(cp))
			return fail(err, BT_ERR_SETUP, 11,
			            "control character U+%04X (byte %zu)",
			            cp, i + 1);
		i += len;
		count++;
	}
	return count;
}

/* Splits s at single spaces into at most max tokens.  Returns how many,
 * -1 if a token is empty (a leading, trailing or doubled space), -2 if
 * there are more than max. */
static int split(const char *s, size_t n, tok *t, int max)
{
	int k = 0;
	size_t start = 0;

	for (size_t i = 0; i <= n; i++) {
		if (i < n && s[i] != ' ')
			continue;
		if (i == start)
			return -1;
		if (k == max)
			return -2;
		t[k].s = s + start;
		t[k].n = i - start;
		k++;
		start = i + 1;
	}
	return k;
}

static int tok_is(const tok *t, const char *word)
{
	return t->n == strlen(word) && memcmp(t->s, word, t->n) == 0;
}

/* A plain decimal number (no sign, no leading zero, at most 9 digits),
 * or -1. */
static long tok_num(const tok *t)
{
	long v = 0;

	if (t->n == 0 || t->n > 9 || (t->s[0] == '0' && t->n > 1))
		return -1;
	for (size_t i = 0; i < t->n; i++) {
		if (t->s[i] < '0' || t->s[i] > '9')
			return -1;
		v = v * 10 + (t->s[i] - '0');
	}
	return v;
}

/* ---- decks and card types --------------------------------------------- */

static const struct {
	const char *name;       /* as in "stack NAME" */
	bt_card_type type;
	int size;
} decks[BT_DECK__MAX] = {
	[BT_DECK_ASSIGNMENT] = { "assignment", BT_TYPE_ASSIGNMENT,
	                         BT_ASSIGN_COUNT },
	[BT_DECK_ABILITY] = { "ability", BT_TYPE_ABILITY, BT_ABILITY_COUNT },
	[BT_DECK_SIDE] = { "side", BT_TYPE_SIDE, BT_SIDE_COUNT },
	[BT_DECK_SHIFT] = { "shift", BT_TYPE_SHIFT, BT_SHIFT_COUNT },
};

static const char *const type_names[BT_TYPE__MAX] = {
	[BT_TYPE_SIDE] = "a Side Project",
	[BT_TYPE_ABILITY] = "an Ability card",
	[BT_TYPE_ASSIGNMENT] = "an Assignment",
	[BT_TYPE_SHIFT] = "a Shift card",
};

/* The card named by t if it is of type (or, with type BT_TYPE__MAX, a
 * Side Project or an Ability); else BT_NO_CARD with err filled in. */
static bt_card tok_card(const tok *t, bt_card_type type, bt_errcode code,
                        bt_error *err)
{
	char q[32];
	bt_card c = bt_card_parse(t->s, t->n);

	if (c == BT_NO_CARD) {
		fail(err, code, 11, "no card '%s'", clip(t->s, t->n, q));
		return BT_NO_CARD;
	}
	bt_card_type is = bt_card_type_of(c);
	if (type == BT_TYPE__MAX ? is == BT_TYPE_SIDE || is == BT_TYPE_ABILITY
	                         : is == type)
		return c;
	if (type == BT_TYPE__MAX)
		fail(err, code, 11, "%s is not a card a hand holds",
		     bt_card_get(c)->id);
	else
		fail(err, code, 11, "%s is not %s", bt_card_get(c)->id,
		     type_names[type]);
	return BT_NO_CARD;
}

/* ---- building a record ------------------------------------------------ */

static int check_players(long players, bt_error *err)
{
	if (players < BT_MIN_PLAYERS || players > BT_MAX_PLAYERS)
		return fail(err, BT_ERR_SETUP, 11,
		            "players must be %d to %d", BT_MIN_PLAYERS,
		            BT_MAX_PLAYERS);
	return 0;
}

static int check_first(long first, int players, bt_error *err)
{
	if (first < 1 || first > players)
		return fail(err, BT_ERR_SETUP, 11,
		            "first must be a seat from 1 to %d", players);
	return 0;
}

static int set_seed(bt_record *rec, const char *s, size_t n, bt_error *err)
{
	if (bt_seed_parse(s, n, rec->key))
		return fail(err, BT_ERR_SETUP, 11,
		            "the seed must be 1 to %d hex digits",
		            BT_SEED_TEXT_MAX);
	memcpy(rec->seed, s, n);
	rec->seed[n] = '\0';
	return 0;
}

int bt_record_init(bt_record *rec, int players, int first,
                   const char *seed, size_t seed_len, bt_error *err)
{
	memset(rec, 0, sizeof *rec);
	if (check_players(players, err) || check_first(first, players, err))
		return -1;
	if (seed != NULL && set_seed(rec, seed, seed_len, err))
		return -1;
	rec->players = (uint8_t)players;
	rec->first = (uint8_t)first;
	return 0;
}

int bt_record_name(bt_record *rec, int seat, const char *name, size_t len,
                   bt_error *err)
{
	if (seat < 1 || seat > rec->players)
		return fail(err, BT_ERR_SETUP, 11,
		            "no seat %d to name in a %d-player game", seat,
		            rec->players);
	if (rec->name[seat - 1][0] != '\0')
		return fail(err, BT_ERR_SETUP, 11,
		            "seat %d is already named", seat);
	long chars = text_check(name, len, err);
	if (chars < 0)
		return -1;
	if (chars < 1 || chars > BT_NAME_CHARS_MAX)
		return fail(err, BT_ERR_SETUP, 11,
		            "a name is 1 to %d characters", BT_NAME_CHARS_MAX);
	if (name[0] == ' ' || name[len - 1] == ' ')
		return fail(err, BT_ERR_SETUP, 11,
		            "a name may not start or end with a space");
	memcpy(rec->name[seat - 1], name, len);
	rec->name[seat - 1][len] = '\0';
	return 0;
}

int bt_record_add_stack(bt_record *rec, bt_deck deck, const bt_card *cards,
                        int n, bt_error *err)
{
	if ((unsigned)deck >= BT_DECK__MAX)
		return fail(err, BT_ERR_SETUP, 11, "no such deck");
	if (n < 1 || n > decks[deck].size)
		return fail(err, BT_ERR_SETUP, 11,
		            "a stack line names 1 to %d %s cards",
		            decks[deck].size, decks[deck].name);
	for (int i = 0; i < n; i++) {
		if (cards[i] >= BT_CARD_COUNT ||
		    bt_card_type_of(cards[i]) != decks[deck].type)
			return fail(err, BT_ERR_SETUP, 11,
			            "%s is not %s",
			            cards[i] < BT_CARD_COUNT ?
			            bt_card_get(cards[i])->id : "that",
			            type_names[decks[deck].type]);
		for (int j = 0; j < i; j++)
			if (cards[j] == cards[i])
				return fail(err, BT_ERR_SETUP, 11,
				            "%s is named twice",
				            bt_card_get(cards[i])->id);
	}
	if (rec->nstacks >= BT_RECORD_MAX_STACKS)
		return fail(err, BT_ERR_SETUP, 11, "too many stack lines");
	if (rec->nitems > 0 && rec->nitems >= BT_RECORD_MAX_ITEMS)
		return fail(err, BT_ERR_SETUP, 11, "record too long");

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
		return fail(err, BT_ERR_BAD_ACTION, 11,
		            "not an action a record can hold");
	if (rec->nitems >= BT_RECORD_MAX_ITEMS)
		return fail(err, BT_ERR_BAD_ACTION, 11, "record too long");
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
		return fail(err, BT_ERR_BAD_ACTION, 11, "%s (%s) takes %s",
		            bt_card_get(a->card)->id, bt_kind_name(k),
		            choices[k].takes);
	for (int i = 0; i < n; i++) {
		if (choices[k].slot == SLOT_HANDOFF && i == 1) {
			long seat = tok_num(&t[i]);
			if (!is_seat((int)seat))
				return fail(err, BT_ERR_BAD_ACTION, 11,
				            "Hand Off needs a seat from 1 to %d"
				            " after the card", BT_MAX_PLAYERS);
			a->arg[i] = (uint8_t)seat;
			continue;
		}
		c = tok_card(&t[i], choices[k].slot == SLOT_SHIFT ?
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
	int n = split(s, len, t, 3 + BT_SWEEP_CARDS);
	int v;

	memset(a, 0, sizeof *a);
	a->card = BT_NO_CARD;
	if (n == -1)
		return fail(err, BT_ERR_BAD_ACTION, 11,
		            "tokens must be separated by exactly one space");
	if (n == -2)
		return fail(err, BT_ERR_BAD_ACTION, 11, "too many tokens");
	if (n < 2)
		return fail(err, BT_ERR_BAD_ACTION, 11,
		            "an action is 'SEAT VERB [ARGS]'");
	long seat = tok_num(&t[0]);
	if (!is_seat((int)seat))
		return fail(err, BT_ERR_BAD_ACTION, 11,
		            "'%s' is not a seat from 1 to %d",
		            clip(t[0].s, t[0].n, q), BT_MAX_PLAYERS);
	a->seat = (uint8_t)seat;
	for (v = 0; v < BT_VERB__MAX && !tok_is(&t[1], verb_names[v]); v++)
		;
	if (v == BT_VERB__MAX)
		return fail(err, BT_ERR_BAD_ACTION, 11, "unknown verb '%s'",
		            clip(t[1].s, t[1].n, q));
	a->verb = (uint8_t)v;
	if (v == BT_WORK || v == BT_LOG) {
		if (n != 2)
			return fail(err, BT_ERR_BAD_ACTION, 11,
			            "'%s' takes nothing after it", verb_names[v]);
		return 0;
	}
	if (n < 3)
		return fail(err, BT_ERR_BAD_ACTION, 11, "'%s' needs a card",
		            verb_names[v]);
	a->card = tok_card(&t[2], v == BT_SIDE ? BT_TYPE_SIDE :
	                   BT_TYPE_ABILITY, BT_ERR_BAD_ACTION, err);
	if (a->card == BT_NO_CARD)
		return -1;
	if (v == BT_SIDE && n != 3)
		return fail(err, BT_ERR_BAD_ACTION, 11,
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
	n = snprintf(line, sizeof line, "stack %s", decks[s->deck].name);
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

/* ---- replaying -------------------------------------------------------- */

enum phase {
	PH_VERSION,     /* expecting line 1 */
	PH_HEADER,
	PH_ACTIONS,     /* the game is running */
	PH_DONE,        /* finished */
	PH_FAILED
};

void bt_replay_init(bt_replay *r)
{
	memset(r, 0, sizeof *r);
	r->phase = PH_VERSION;
}

/* Records err as the replay's error, on line. */
static int replay_fail(bt_replay *r, int line, bt_error *err)
{
	if (err->rule == 0)
		err->rule = 11;
	r->err = *err;
	r->err_line = line > 0 ? line : 1;
	r->phase = PH_FAILED;
	return -1;
}

/* Forgets the stack lines whose deck has been shuffled. */
static void refresh_waiting(bt_replay *r)
{
	for (int d = 0; d < BT_DECK__MAX; d++)
		if (r->game.rig_n[d] == 0)
			r->waiting[d] = 0;
}

/* The line an engine error belongs on: a failed waiting stack line's
 * own, else the current one. */
static int engine_line(const bt_replay *r, const bt_error *err)
{
	if (err->code == BT_ERR_STACK && (unsigned)err->deck < BT_DECK__MAX &&
	    r->waiting[err->deck] > 0)
		return r->waiting[err->deck];
	return r->line;
}

static int header_complete(const bt_replay *r, bt_error *err)
{
	const char *missing = r->rec.players == 0 ? "players"
	                    : r->rec.first == 0 ? "first"
	                    : !r->has_seed ? "seed" : NULL;

	if (missing != NULL)
		return fail(err, BT_ERR_SETUP, 11, "the header has no '%s' line",
		            missing);
	return 0;
}

/* Ends the header: sets the game up with the header's stack lines. */
static int replay_start(bt_replay *r, bt_error *err)
{
	const bt_record *rec = &r->rec;
	bt_game *g = &r->game;

	if (header_complete(r, err))
		return replay_fail(r, r->line, err);
	if (bt_game_init(g, rec->players, rec->first, rec->key, err))
		return replay_fail(r, r->players_line, err);
	for (int i = 0; i < rec->header_stacks; i++) {
		const bt_stack_line *s = &rec->stacks[i];
		if (bt_game_stack(g, (bt_deck)s->deck, s->c, s->n, err))
			return replay_fail(r, r->stack_line[i], err);
		r->waiting[s->deck] = r->stack_line[i];
	}
	if (bt_game_start(g, err))
		return replay_fail(r, engine_line(r, err), err);
	refresh_waiting(r);
	r->started = 1;
	r->phase = PH_ACTIONS;
	return 0;
}

static int line_action(bt_replay *r, const char *s, size_t n, bt_error *err)
{
	bt_action a;

	if (!r->started && replay_start(r, err))
		return -1;
	if (bt_action_parse(s, n, &a, err))
		return replay_fail(r, r->line, err);
	if (r->rec.nitems >= BT_RECORD_MAX_ITEMS) {
		fail(err, BT_ERR_BAD_ACTION, 11, "record too long (more than"
		     " %d lines after the header)", BT_RECORD_MAX_ITEMS);
		return replay_fail(r, r->line, err);
	}
	if (bt_apply(&r->game, &a, err))
		return replay_fail(r, engine_line(r, err), err);
	refresh_waiting(r);
	/* Cannot fail: the shape was parsed and the room checked. */
	bt_record_add_action(&r->rec, &a, err);
	return 0;
}

static int kw_players(bt_replay *r, const tok *t, int n, bt_error *err)
{
	long v;

	if (n != 2)
		return fail(err, BT_ERR_SETUP, 11, "expected 'players N'");
	if (r->rec.players != 0)
		return fail(err, BT_ERR_SETUP, 11, "a second 'players' line");
	v = tok_num(&t[1]);
	if (check_players(v, err))
		return -1;
	r->rec.players = (uint8_t)v;
	r->players_line = r->line;
	return 0;
}

static int kw_first(bt_replay *r, const tok *t, int n, bt_error *err)
{
	long v;

	if (n != 2)
		return fail(err, BT_ERR_SETUP, 11, "expected 'first SEAT'");
	if (r->rec.players == 0)
		return fail(err, BT_ERR_SETUP, 11,
		            "'first' must come after 'players'");
	if (r->rec.first != 0)
		return fail(err, BT_ERR_SETUP, 11, "a second 'first' line");
	v = tok_num(&t[1]);
	if (check_first(v, r->rec.players, err))
		return -1;
	r->rec.first = (uint8_t)v;
	return 0;
}

static int kw_seed(bt_replay *r, const tok *t, int n, bt_error *err)
{
	if (n != 2)
		return fail(err, BT_ERR_SETUP, 11, "expected 'seed HEX'");
	if (r->has_seed)
		return fail(err, BT_ERR_SETUP, 11, "a second 'seed' line");
	if (set_seed(&r->rec, t[1].s, t[1].n, err))
		return -1;
	r->has_seed = 1;
	return 0;
}

/* "name SEAT TEXT": the name is the rest of the line, spaces and all,
 * so it is cut from the line rather than from the tokens. */
static int kw_name(bt_replay *r, const char *s, size_t len, bt_error *err)
{
	const char *seat = s + 5, *end = s + len, *sp;
	char q[32];
	tok ts;

	if (len <= 5)
		return fail(err, BT_ERR_SETUP, 11, "expected 'name SEAT NAME'");

	sp = memchr(seat, ' ', (size_t)(end - seat));
	if (sp == NULL || sp == seat || sp + 1 == end)
		return fail(err, BT_ERR_SETUP, 11, "expected 'name SEAT NAME'");
	if (r->rec.players == 0)
		return fail(err, BT_ERR_SETUP, 11,
		            "'name' must come after 'players'");
	ts.s = seat;
	ts.n = (size_t)(sp - seat);
	long v = tok_num(&ts);
	if (v < 1 || v > r->rec.players)
		return fail(err, BT_ERR_SETUP, 11,
		            "'%s' is not a seat from 1 to %d",
		            clip(ts.s, ts.n, q), r->rec.players);
	return bt_record_name(&r->rec, (int)v, sp + 1,
	                      (size_t)(end - sp - 1), err);
}

/* Parses tokens "stack DECK CARD..." into *out. */
static int parse_stack(const tok *t, int n, bt_stack_line *out,
                       bt_error *err)
{
	char q[32];
	int d;

	if (n < 3 || !tok_is(&t[0], "stack"))
		return fail(err, BT_ERR_SETUP, 11,
		            "expected 'stack DECK CARD...'");
	for (d = 0; d < BT_DECK__MAX && !tok_is(&t[1], decks[d].name); d++)
		;
	if (d == BT_DECK__MAX)
		return fail(err, BT_ERR_SETUP, 11, "no deck '%s' (assignment,"
		            " side, shift or ability)", clip(t[1].s, t[1].n, q));
	if (n - 2 > decks[d].size)
		return fail(err, BT_ERR_SETUP, 11,
		            "the %s deck has only %d cards", decks[d].name,
		            decks[d].size);
	for (int i = 0; i < n - 2; i++) {
		out->c[i] = tok_card(&t[i + 2], decks[d].type, BT_ERR_SETUP,
		                     err);
		if (out->c[i] == BT_NO_CARD)
			return -1;
	}
	out->deck = (uint8_t)d;
	out->n = (uint8_t)(n - 2);
	return 0;
}

int bt_stack_parse(const char *s, size_t len, bt_stack_line *out,
                   bt_error *err)
{
	tok t[TOK_MAX];
	int n = split(s, len, t, TOK_MAX);

	if (n < 0)
		return fail(err, BT_ERR_SETUP, 11, n == -1 ? "tokens must be "
		            "separated by one space" : "too many tokens");
	return parse_stack(t, n, out, err);
}

int bt_record_add_line(bt_record *rec, const char *s, size_t len,
                       bt_error *err)
{
	bt_stack_line st;
	bt_action a;

	if (len > 6 && memcmp(s, "stack ", 6) == 0)
		return bt_stack_parse(s, len, &st, err) ? -1 :
		       bt_record_add_stack(rec, (bt_deck)st.deck, st.c, st.n,
		                           err);
	return bt_action_parse(s, len, &a, err) ? -1 :
	       bt_record_add_action(rec, &a, err);
}

static int kw_stack(bt_replay *r, const tok *t, int n, bt_error *err)
{
	bt_stack_line st;

	if (parse_stack(t, n, &st, err))
		return -1;
	int d = st.deck;
	bt_card *cards = st.c;
	/* The engine would refuse a second header stack line for a deck
	 * only at setup; saying so now keeps errors in line order. */
	for (int i = 0; !r->started && i < r->rec.header_stacks; i++)
		if (r->rec.stacks[i].deck == d)
			return fail(err, BT_ERR_SETUP, 11, "a second header"
			            " stack line for the %s deck (line %d)",
			            decks[d].name, r->stack_line[i]);
	int idx = r->rec.nstacks;
	if (bt_record_add_stack(&r->rec, (bt_deck)d, cards, st.n, err))
		return -1;
	r->stack_line[idx] = r->line;
	if (!r->started)
		return 0;
	/* Among the actions: it waits for the deck's next shuffle. */
	if (bt_game_stack(&r->game, (bt_deck)d, cards, st.n, err))
		return -1;
	r->waiting[d] = r->line;
	return 0;
}

/* A line that starts with a keyword rather than a seat. */
static int line_keyword(bt_replay *r, const char *s, size_t n,
                        bt_error *err)
{
	tok t[TOK_MAX];
	char q[32];
	int k;

	if ((n == 4 && memcmp(s, "name", 4) == 0) ||
	    (n > 4 && memcmp(s, "name ", 5) == 0)) {
		if (r->started)
			return fail(err, BT_ERR_SETUP, 11,
			            "'name' after the first action");
		return kw_name(r, s, n, err);
	}
	k = split(s, n, t, TOK_MAX);
	if (k == -1)
		return fail(err, BT_ERR_SETUP, 11,
		            "tokens must be separated by exactly one space");
	if (k == -2)
		return fail(err, BT_ERR_SETUP, 11, "too many tokens");
	if (tok_is(&t[0], "stack"))
		return kw_stack(r, t, k, err);
	if (r->started && (tok_is(&t[0], "players") ||
	                   tok_is(&t[0], "first") || tok_is(&t[0], "seed")))
		return fail(err, BT_ERR_SETUP, 11,
		            "'%s' after the first action",
		            clip(t[0].s, t[0].n, q));
	if (tok_is(&t[0], "players"))
		return kw_players(r, t, k, err);
	if (tok_is(&t[0], "first"))
		return kw_first(r, t, k, err);
	if (tok_is(&t[0], "seed"))
		return kw_seed(r, t, k, err);
	return fail(err, BT_ERR_SETUP, 11, "unknown line '%s'",
	            clip(t[0].s, t[0].n, q));
}

static int line_version(bt_replay *r, const char *s, size_t n,
                        bt_error *err)
{
	static const char want[] = "buffertime 1";
	tok v;

	if (n == sizeof want - 1 && memcmp(s, want, n) == 0) {
		r->phase = PH_HEADER;
		return 0;
	}
	if (n > 11 && memcmp(s, "buffertime ", 11) == 0) {
		v.s = s + 11;
		v.n = n - 11;
	} else {
		v.s = s;
		v.n = 0;
	}
	if (v.n > 0 && tok_num(&v) >= 0)
		return fail(err, BT_ERR_SETUP, 11,
		            "unsupported record version (this is %d)",
		            BT_RECORD_VERSION);
	return fail(err, BT_ERR_SETUP, 11,
	            "not a record: line 1 must be 'buffertime 1'");
}

static int is_blank(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (s[i] != ' ')
			return 0;
	return 1;
}

/* One line of a known-good shape (length, UTF-8) in the current phase. */
static int line_dispatch(bt_replay *r, const char *s, size_t n,
                         bt_error *err)
{
	if (r->phase == PH_VERSION)
		return line_version(r, s, n, err);
	if (is_blank(s, n) || s[0] == '#')
		return 0;
	if (s[0] >= '0' && s[0] <= '9')
		return line_action(r, s, n, err);
	return line_keyword(r, s, n, err);
}

int bt_replay_line(bt_replay *r, const char *line, size_t len,
                   bt_error *err)
{
	bt_error e;

	if (err == NULL)
		err = &e;
	if (r->phase == PH_FAILED) {
		*err = r->err;
		return -1;
	}
	if (r->phase == PH_DONE) {
		fail(err, BT_ERR_SETUP, 11, "a line after the end");
		return replay_fail(r, r->line, err);
	}
	if (r->line >= BT_RECORD_MAX_LINES) {
		fail(err, BT_ERR_SETUP, 11, "too many lines (more than %d)",
		     BT_RECORD_MAX_LINES);
		return replay_fail(r, r->line, err);
	}
	r->line++;
	if (len > 0 && line[len - 1] == '\r')
		len--;
	if (len > BT_RECORD_LINE_MAX) {
		fail(err, BT_ERR_SETUP, 11, "line too long (more than %d"
		     " bytes)", BT_RECORD_LINE_MAX);
		return replay_fail(r, r->line, err);
	}
	if (text_check(line, len, err) < 0)
		return replay_fail(r, r->line, err);
	if (line_dispatch(r, line, len, err))
		return r->phase == PH_FAILED ? -1 :
		       replay_fail(r, r->line, err);
	return 0;
}

int bt_replay_finish(bt_replay *r, bt_error *err)
{
	bt_error e;

	if (err == NULL)
		err = &e;
	switch (r->phase) {
	case PH_FAILED:
		*err = r->err;
		return -1;
	case PH_DONE:
		return 0;
	case PH_VERSION:
		fail(err, BT_ERR_SETUP, 11,
		     "empty record: line 1 must be 'buffertime 1'");
		return replay_fail(r, 1, err);
	default:
		break;
	}
	if (!r->started && replay_start(r, err))
		return -1;
	r->phase = PH_DONE;
	return 0;
}

int bt_replay_text(bt_replay *r, const char *text, size_t len,
                   bt_error *err)
{
	size_t start = 0;

	while (start < len) {
		const char *nl = memchr(text + start, '\n', len - start);
		size_t end = nl != NULL ? (size_t)(nl - text) : len;
		if (bt_replay_line(r, text + start, end - start, err))
			return -1;
		start = end + 1;
	}
	return bt_replay_finish(r, err);
}
