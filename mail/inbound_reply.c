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

/* "2", "2.", "#2", "(2)", "2)": the number 1..99, or 0. */
static int read_number(const char *s, size_t n)
{
	size_t i = 0;
	int v = 0, digits = 0, paren = 0;

	if (i < n && (s[i] == '#' || s[i] == '(')) {
		paren = s[i] == '(';
		i++;
	}
	while (i < n && isdigit((unsigned char)s[i]) && digits < 3) {
		v = v * 10 + (s[i++] - '0');
		digits++;
	}
	if (digits == 0)
		return 0;
	if (i < n && (s[i] == '.' || s[i] == ')'))
		i++;
	else if (paren)
		return 0;
	if (i != n || v < 1 || v > REPLY_NUMBER_MAX)
		return 0;
	return v;
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

static void read_line(const char *s, size_t n, inbound_reply *r, int *moved)
{
	int got[REPLY_ORDER_MAX] = { 0, 0, 0 }, count = 0, order;
	const char *said;
	size_t len;

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
	if (*moved)
		return;
	*moved = 1;
	r->move = read_number(s, n);
	if (r->move == 0)
		read_words(s, n, r->words, sizeof r->words);
}

void inbound_read_reply(const char *written, inbound_reply *r)
{
	const char *p = written;
	int moved = 0;

	memset(r, 0, sizeof *r);
	while (p && *p) {
		const char *e = strchr(p, '\n');
		size_t n = e ? (size_t)(e - p) : strlen(p);

		read_line(p, n, r, &moved);
		p = e ? e + 1 : NULL;
	}
}
