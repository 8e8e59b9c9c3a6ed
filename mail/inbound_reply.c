/*
 * inbound_reply.c - the commands in a reply's written text: say: lines,
 * an order line, and the move (a number or words).
 */
#include <ctype.h>
#include <string.h>
#include <strings.h>

#include "inbound_reply.h"
#include "utf8.h"

/* Copies the n bytes at s to dst (cap bytes with NUL), cut at a UTF-8
 * character boundary. */
static void copy_cut(char *dst, size_t cap, const char *s, size_t n)
{
	if (n >= cap)
		n = cap - 1;
	memcpy(dst, s, n);
	dst[n] = '\0';
	utf8_cut_valid(dst);
}

static int is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

/* "say:" (spaces around ':' optional), or NULL: the text after it. */
static const char *say_text(const char *s, size_t n, size_t *len)
{
	size_t i = 3;

	if (n < 4 || strncasecmp(s, "say", 3) != 0)
		return NULL;
	while (i < n && is_space(s[i]))
		i++;
	if (i >= n || s[i] != ':')
		return NULL;
	i++;
	while (i < n && is_space(s[i]))
		i++;
	*len = n - i;
	return s + i;
}

/* "order" as the line's first word: 1 if it is a good order (then in
 * got, its length in *count), -1 if not, 0 if not an order line. */
static int read_order(const char *s, size_t n, int got[REPLY_ORDER_MAX],
                      int *count)
{
	int k = 0;
	size_t i = 5;

	if (n < 5 || strncasecmp(s, "order", 5) != 0 ||
	    (n > 5 && !is_space(s[5]) && s[5] != ':'))
		return 0;
	if (i < n && s[i] == ':')
		i++;
	for (;;) {
		while (i < n && (is_space(s[i]) || s[i] == ','))
			i++;
		if (i >= n)
			break;
		if (s[i] < '1' || s[i] > '3' || k == REPLY_ORDER_MAX ||
		    (i + 1 < n && !is_space(s[i + 1]) && s[i + 1] != ','))
			return -1;
		got[k++] = s[i++] - '0';
	}
	if (k == 0)
		return -1;
	*count = k;
	return 1;
}

/* ---- a number, and the words after it ---------------------------------- */

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static int is_alnum(char c)
{
	return is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/* Whether the word w (lowercase) is at s[i], case aside, and ends there
 * (no letter or digit after it). */
static int word_at(const char *s, size_t n, size_t i, const char *w)
{
	size_t k = strlen(w);

	return i + k <= n && strncasecmp(s + i, w, k) == 0 &&
	       (i + k == n || !is_alnum(s[i + k]));
}

/* The number at s[i] ("2", "2nd", "12"): its end, or i if there is none.
 * Not one: more than 2 digits, a letter after it other than an ordinal's
 * ("2x", "5pm"), a time or a decimal ("10:30", "2.5"), a digit before
 * it. */
static size_t number_at(const char *s, size_t n, size_t i, int *v)
{
	static const char *const ords[] = { "st", "nd", "rd", "th" };
	size_t e = i;

	if (i > 0 && is_alnum(s[i - 1]))
		return i;
	*v = 0;
	while (e < n && is_digit(s[e]) && e - i < 3)
		*v = *v * 10 + (s[e++] - '0');
	if (e == i || e - i > 2 || (e < n && is_digit(s[e])))
		return i;
	for (size_t o = 0; o < sizeof ords / sizeof ords[0]; o++)
		if (word_at(s, n, e, ords[o]))
			return e + 2;
	if (e < n && is_alnum(s[e]))
		return i;
	if (e + 1 < n && (s[e] == ':' || s[e] == '.') && is_digit(s[e + 1]))
		return i;
	if (i > 1 && (s[i - 1] == ':' || s[i - 1] == '.') && is_digit(s[i - 2]))
		return i;
	return e;
}

/* Words that, right after a number, make it a count of the game's
 * things ("2 cards", "3 Officers"): then the line is words, for the
 * menu to match, not a move number. */
static int counts_things(const char *s, size_t n, size_t i)
{
	static const char *const things[] = { "card", "cards", "officer",
		"officers", "effort", "leisure", "target", "shift", "side",
		"sides", "ability", "abilities", "assignment", "assignments",
		"project", "projects", "point", "points", NULL };

	if (i >= n || !is_space(s[i]))
		return 0;
	while (i < n && is_space(s[i]))
		i++;
	for (const char *const *t = things; *t; t++)
		if (word_at(s, n, i, *t))
			return 1;
	return 0;
}

/* The words a number may follow: "option 2", "number 3", "no. 2". */
static size_t lead_word(const char *s, size_t n)
{
	static const char *const leads[] = { "option", "number", "move",
		"choice", "no.", "nr.", "nr", NULL };

	for (const char *const *w = leads; *w; w++) {
		size_t k = strlen(*w), i = k;

		if (n <= k || strncasecmp(s, *w, k) != 0 || (!is_space(s[k]) &&
		    s[k] != '#' && s[k] != ':' && (*w)[k - 1] != '.'))
			continue;
		if (s[i] == ':')
			i++;
		while (i < n && is_space(s[i]))
			i++;
		return i;
	}
	return 0;
}

typedef enum { LINE_WORDS, LINE_NUMBER, LINE_NUMBERS } line_kind;

/* Whether the line begins with a move number ("2", "2.", "#2", "(2)",
 * "2nd", "option 2"), whatever words follow it ("2 please", "2, then
 * I'll log"): LINE_NUMBER with the number in *v, or LINE_NUMBERS if
 * another number follows ("1 or 2", "2-3"), or LINE_WORDS. */
static line_kind read_number(const char *s, size_t n, int *v)
{
	size_t i = lead_word(s, n), e;
	int paren = 0, other;

	if (i < n && (s[i] == '#' || s[i] == '(')) {
		paren = s[i] == '(';
		i++;
	}
	e = number_at(s, n, i, v);
	if (e == i || (paren && (e >= n || s[e] != ')')) ||
	    counts_things(s, n, e))
		return LINE_WORDS;
	for (i = e; i < n; i++)
		if (is_digit(s[i]) && number_at(s, n, i, &other) > i)
			return LINE_NUMBERS;
	return *v >= 1 && *v <= REPLY_NUMBER_MAX ? LINE_NUMBER : LINE_WORDS;
}

/* The move words: lowercased, spaces collapsed, punctuation trimmed at
 * both ends (ASCII punctuation; letters of other scripts kept). */
static void read_words(const char *s, size_t n, char *dst, size_t cap)
{
	size_t a = 0, b = n, k = 0, i;
	int space = 0;

	while (a < b && (is_space(s[a]) || ispunct((unsigned char)s[a])))
		a++;
	while (b > a && (is_space(s[b - 1]) || ispunct((unsigned char)s[b - 1])))
		b--;
	for (i = a; i < b && k + 1 < cap; i++) {
		if (is_space(s[i])) {
			space = 1;
			continue;
		}
		if (space && k + 2 < cap)
			dst[k++] = ' ';
		space = 0;
		dst[k++] = (char)tolower((unsigned char)s[i]);
	}
	dst[k] = '\0';
	utf8_cut_valid(dst);
}

/* The move line, once found; the first line ending in ':' before it. */
typedef struct move_line {
	int moved;
	const char *intro;
	size_t intro_n;
} move_line;

static int ends_in_colon(const char *s, size_t n)
{
	return (n >= 1 && s[n - 1] == ':') ||
	       (n >= 3 && memcmp(s + n - 3, "\xef\xbc\x9a", 3) == 0);
}

/* The move of the line s of kind (number: a LINE_NUMBER's). */
static void take_move(const char *s, size_t n, line_kind kind, int number,
                      inbound_reply *r)
{
	if (kind == LINE_NUMBER)
		r->move = number;
	else if (kind == LINE_NUMBERS)
		copy_cut(r->several, sizeof r->several, s, n);
	else if (kind == LINE_WORDS)
		read_words(s, n, r->words, sizeof r->words);
}

static void read_line(const char *s, size_t n, inbound_reply *r,
                      move_line *mv)
{
	int got[REPLY_ORDER_MAX] = { 0, 0, 0 }, count = 0, order;
	const char *said;
	size_t len;
	line_kind kind;
	int number;

	while (n > 0 && is_space(*s)) {
		s++;
		n--;
	}
	while (n > 0 && is_space(s[n - 1]))
		n--;
	if (n == 0)
		return;
	if ((said = say_text(s, n, &len)) != NULL) {
		if (len == 0)
			return;
		if (r->n_says < REPLY_SAYS_MAX)
			copy_cut(r->says[r->n_says++], REPLY_SAY_LEN + 1, said, len);
		else
			r->says_dropped++;
		return;
	}
	/* every order line is one; only the first counts */
	if ((order = read_order(s, n, got, &count)) != 0) {
		if (r->n_order == 0 && !r->order_bad && order > 0) {
			memcpy(r->order, got, sizeof r->order);
			r->n_order = count;
		} else if (r->n_order == 0)
			r->order_bad = 1;
		return;
	}
	if (mv->moved)
		return;
	kind = read_number(s, n, &number);
	/* "Here is my move:" introduces the move below it */
	if (kind == LINE_WORDS && ends_in_colon(s, n)) {
		if (mv->intro == NULL) {
			mv->intro = s;
			mv->intro_n = n;
		}
		return;
	}
	take_move(s, n, kind, number, r);
	mv->moved = 1;
}

void inbound_read_reply(const char *written, inbound_reply *r)
{
	const char *p = written;
	move_line mv = { 0, NULL, 0 };

	memset(r, 0, sizeof *r);
	while (p && *p) {
		const char *e = strchr(p, '\n');
		size_t n = e ? (size_t)(e - p) : strlen(p);

		read_line(p, n, r, &mv);
		p = e ? e + 1 : NULL;
	}
	if (!mv.moved && mv.intro)
		take_move(mv.intro, mv.intro_n, LINE_WORDS, 0, r);
}
