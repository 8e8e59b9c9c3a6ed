/*
 * record_lex.c - what the record's writer and its replay share (see
 * record_lex.h): errors, text and number checks, tokens, decks, and
 * the checks of a record's header.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "record_lex.h"

/* ---- errors ----------------------------------------------------------- */

int record_fail(bt_error *err, bt_errcode code, int rule, const char *fmt,
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
const char *record_clip(const char *s, size_t n, char out[32])
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
long record_text_check(const char *s, size_t n, bt_error *err)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0;
	long count = 0;
	unsigned cp;

	while (i < n) {
		size_t len = utf8_decode(u + i, n - i, &cp);
		if (len == 0)
			return record_fail(err, BT_ERR_SETUP, 11,
			                   "not valid UTF-8 (byte %zu)", i + 1);
		if (is_control(cp))
			return record_fail(err, BT_ERR_SETUP, 11,
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
int record_split(const char *s, size_t n, tok *t, int max)
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

int record_tok_is(const tok *t, const char *word)
{
	return t->n == strlen(word) && memcmp(t->s, word, t->n) == 0;
}

/* A plain decimal number (no sign, no leading zero, at most 9 digits),
 * or -1. */
long record_tok_num(const tok *t)
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

const record_deck record_decks[BT_DECK__MAX] = {
	[BT_DECK_ASSIGNMENT] = { "assignment", BT_TYPE_ASSIGNMENT,
	                         BT_ASSIGN_COUNT },
	[BT_DECK_ABILITY] = { "ability", BT_TYPE_ABILITY, BT_ABILITY_COUNT },
	[BT_DECK_SIDE] = { "side", BT_TYPE_SIDE, BT_SIDE_COUNT },
	[BT_DECK_SHIFT] = { "shift", BT_TYPE_SHIFT, BT_SHIFT_COUNT },
};

const char *const record_type_names[BT_TYPE__MAX] = {
	[BT_TYPE_SIDE] = "a Side Project",
	[BT_TYPE_ABILITY] = "an Ability card",
	[BT_TYPE_ASSIGNMENT] = "an Assignment",
	[BT_TYPE_SHIFT] = "a Shift card",
};

/* The card named by t if it is of type (or, with type BT_TYPE__MAX, a
 * Side Project or an Ability); else BT_NO_CARD with err filled in. */
bt_card record_tok_card(const tok *t, bt_card_type type, bt_errcode code,
                        bt_error *err)
{
	char q[32];
	bt_card c = bt_card_parse(t->s, t->n);

	if (c == BT_NO_CARD) {
		record_fail(err, code, 11, "no card '%s'", record_clip(t->s, t->n, q));
		return BT_NO_CARD;
	}
	bt_card_type is = bt_card_type_of(c);
	if (type == BT_TYPE__MAX ? is == BT_TYPE_SIDE || is == BT_TYPE_ABILITY
	                         : is == type)
		return c;
	if (type == BT_TYPE__MAX)
		record_fail(err, code, 11, "%s is not a card a hand holds",
		            bt_card_get(c)->id);
	else
		record_fail(err, code, 11, "%s is not %s", bt_card_get(c)->id,
		            record_type_names[type]);
	return BT_NO_CARD;
}

/* ---- checks of a record's header ------------------------------------- */

int record_check_players(long players, bt_error *err)
{
	if (players < BT_MIN_PLAYERS || players > BT_MAX_PLAYERS)
		return record_fail(err, BT_ERR_SETUP, 11,
		                   "players must be %d to %d", BT_MIN_PLAYERS,
		                   BT_MAX_PLAYERS);
	return 0;
}

int record_check_first(long first, int players, bt_error *err)
{
	if (first < 1 || first > players)
		return record_fail(err, BT_ERR_SETUP, 11,
		                   "first must be a seat from 1 to %d", players);
	return 0;
}

int record_set_seed(bt_record *rec, const char *s, size_t n, bt_error *err)
{
	if (bt_seed_parse(s, n, rec->key))
		return record_fail(err, BT_ERR_SETUP, 11,
		                   "the seed must be 1 to %d hex digits",
		                   BT_SEED_TEXT_MAX);
	memcpy(rec->seed, s, n);
	rec->seed[n] = '\0';
	return 0;
}
