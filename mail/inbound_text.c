/*
 * inbound_text.c - cutting a reply's text down to what the person wrote:
 * quote headers, quoted lines and signatures recognised line by line.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "inbound_text.h"

enum { HEADER_LEN_MAX = 600 };   /* bytes of a quote header (two lines) */

typedef struct {
	const char *s;     /* trimmed of spaces and tabs at both ends */
	size_t n;
} line;

/* ---- lines -------------------------------------------------------------- */

static int is_blank(const line *l)
{
	return l->n == 0;
}

static int starts(const line *l, const char *p)
{
	size_t k = strlen(p);

	return l->n >= k && strncasecmp(l->s, p, k) == 0;
}

/* Whether the k bytes of w occur in the n bytes of s, ASCII letters in
 * any case. */
static int contains(const char *s, size_t n, const char *w)
{
	size_t k = strlen(w), i;

	for (i = 0; i + k <= n; i++)
		if (strncasecmp(s + i, w, k) == 0)
			return 1;
	return 0;
}

static size_t split(const char *text, line *lines, size_t max)
{
	size_t n = 0;
	const char *p = text;

	while (*p && n < max) {
		const char *e = strchr(p, '\n');
		size_t len = e ? (size_t)(e - p) : strlen(p);
		const char *s = p;

		while (len > 0 && (*s == ' ' || *s == '\t')) {
			s++;
			len--;
		}
		while (len > 0 && (s[len - 1] == ' ' || s[len - 1] == '\t' ||
		                   s[len - 1] == '\r'))
			len--;
		lines[n].s = s;
		lines[n].n = len;
		n++;
		if (!e)
			break;
		p = e + 1;
	}
	return n;
}

/* ---- what a line is ----------------------------------------------------- */

static int is_signature(const line *l)
{
	static const char *const sigs[] = {
		"Sent from my iPhone", "Sent from my iPad", "Get Outlook for iOS",
		"Get Outlook for Android", "Sent from Mail for Windows",
		"Von meinem iPhone gesendet", "Envoyé de mon iPhone",
		"Sent from Yahoo Mail", "Sent from my Galaxy", "Sent from my Samsung",
		"Sent from my Android", "Sent from Outlook", NULL };
	const char *const *p;

	/* "-- " loses its space to the trimming; "--" alone is taken too */
	if (l->n == 2 && memcmp(l->s, "--", 2) == 0)
		return 1;
	for (p = sigs; *p; p++)
		if (starts(l, *p))
			return 1;
	return 0;
}

static int is_quoted(const line *l)
{
	return l->n > 0 && l->s[0] == '>';
}

/* "On <date>, <name> wrote:" and its sisters: an opening word, a verb,
 * a colon at the end.  Strong enough to cut an unmarked quote. */
static const struct { const char *open, *verb; } openings[] = {
	{ "On ", "wrote" }, { "Am ", "schrieb" }, { "Le ", "crit" },
	{ "El ", "escribi" }, { "Il ", "scritto" }, { "Op ", "schreef" },
	{ "Em ", "escreveu" },
};

static int is_header_text(const char *s, size_t n)
{
	size_t i;

	if (n < 8 || n > HEADER_LEN_MAX || s[n - 1] != ':')
		return 0;
	for (i = 0; i < sizeof openings / sizeof openings[0]; i++) {
		size_t k = strlen(openings[i].open);

		if (strncasecmp(s, openings[i].open, k) == 0 &&
		    contains(s + k, n - k, openings[i].verb))
			return 1;
	}
	return 0;
}

/* ---- a quote header by its shape ---------------------------------------- */

static int digit(char c)
{
	return c >= '0' && c <= '9';
}

static int alnum(char c)
{
	return digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/* Ends in ':', " :" or the full-width colon of CJK mail programs. */
static int ends_in_colon(const char *s, size_t n)
{
	return (n >= 1 && s[n - 1] == ':') ||
	       (n >= 3 && memcmp(s + n - 3, "\xef\xbc\x9a", 3) == 0);
}

/* name@domain.tld, bare or in <>. */
static int has_address(const char *s, size_t n)
{
	for (size_t at = 1; at + 3 < n; at++) {
		size_t j = at + 1;
		int dot = 0;

		if (s[at] != '@' || !(alnum(s[at - 1]) || s[at - 1] == '.' ||
		    s[at - 1] == '_' || s[at - 1] == '-' || s[at - 1] == '+'))
			continue;
		for (; j < n && (alnum(s[j]) || s[j] == '.' || s[j] == '-'); j++)
			dot |= s[j] == '.' && j > at + 1 && j + 1 < n &&
			       alnum(s[j + 1]);
		if (dot)
			return 1;
	}
	return 0;
}

/* The digits from i (at most max of them): how many. */
static size_t digits(const char *s, size_t n, size_t i, size_t max)
{
	size_t k = 0;

	while (i + k < n && k < max && digit(s[i + k]))
		k++;
	return k;
}

/* A time (10:12), a date of numbers (01/12/2026, 2026-12-01, 1.12.26)
 * or a year (2026) that begins at i, after no digit. */
static int date_at(const char *s, size_t n, size_t i)
{
	size_t a = digits(s, n, i, 5), b, c;
	char sep;

	if (a == 0 || a > 4 || (i > 0 && digit(s[i - 1])))
		return 0;
	if (a == 4 && (s[i] == '1' || s[i] == '2') && (i + a >= n ||
	    !digit(s[i + a])))
		return 1;
	if (i + a + 1 >= n)
		return 0;
	sep = s[i + a];
	b = digits(s, n, i + a + 1, 3);
	if (sep == ':' && a <= 2 && b == 2)
		return 1;
	if ((sep != '/' && sep != '.' && sep != '-') || b == 0 || b > 2 ||
	    i + a + 1 + b >= n || s[i + a + 1 + b] != sep)
		return 0;
	c = digits(s, n, i + a + 2 + b, 5);
	return c >= 2 && c <= 4;
}

static int has_date(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (date_at(s, n, i))
			return 1;
	return 0;
}

/* "wrote" and its kin in other languages, "Quoting". */
static int has_verb(const char *s, size_t n)
{
	static const char *const verbs[] = { "wrote", "writes", "schrieb",
		"crit", "escribi", "scritto", "schreef", "escreveu", "skrev",
		"kirjoitti", "pisze", "napisa", "написал", "写道", "寫道",
		"quoting", "zitat von", "citando", NULL };
	const char *const *v;

	for (v = verbs; *v; v++)
		if (contains(s, n, *v))
			return 1;
	return 0;
}

/* "<name> wrote:", "Quoting <name>:": the verb and a word more (not
 * "écrit :" alone, the space before its colon aside). */
static int has_name_and_verb(const char *s, size_t n)
{
	size_t m = n;

	while (m > 0 && (s[m - 1] == ':' || s[m - 1] == ' ' ||
	                 ends_in_colon(s, m)))
		m -= s[m - 1] == ':' || s[m - 1] == ' ' ? 1 : 3;
	return memchr(s, ' ', m) != NULL && has_verb(s, n);
}

/* "say: ..." is the player's table talk, whatever it ends with. */
static int is_say(const char *s, size_t n)
{
	size_t i = 3;

	if (n < 4 || strncasecmp(s, "say", 3) != 0)
		return 0;
	while (i < n && (s[i] == ' ' || s[i] == '\t'))
		i++;
	return i < n && s[i] == ':';
}

/* A line ending in ':' with an address, a date or "<name> wrote":
 * a quote header if quoted lines follow it. */
static int is_header_shape(const char *s, size_t n)
{
	if (n < 2 || n > HEADER_LEN_MAX || !ends_in_colon(s, n) ||
	    is_say(s, n))
		return 0;
	return has_address(s, n) || has_date(s, n) || has_name_and_verb(s, n);
}

/* A first line that cannot end a header: an open '<', '[' or '(', a
 * trailing comma, or an opening word ("On ") with a date. */
static int unfinished(const char *s, size_t n)
{
	int open = 0;
	size_t i;

	for (i = 0; i < n; i++)
		open += (s[i] == '<' || s[i] == '[' || s[i] == '(') -
		        (s[i] == '>' || s[i] == ']' || s[i] == ')');
	if (open > 0 || (n > 0 && s[n - 1] == ','))
		return 1;
	for (i = 0; i < sizeof openings / sizeof openings[0]; i++)
		if (strncasecmp(s, openings[i].open, strlen(openings[i].open))
		    == 0 && n > strlen(openings[i].open))
			return has_date(s, n);
	return 0;
}

/* Whether the first non-blank line from i on is quoted. */
static int quote_follows(const line *lines, size_t n, size_t i)
{
	for (; i < n; i++)
		if (!is_blank(&lines[i]))
			return is_quoted(&lines[i]);
	return 0;
}

/* Whether lines a and b are one header wrapped: they read as one
 * (both), and a does not stand alone: it is unfinished, or b is only
 * the verb ("wrote:").  So the player's line right above a header is
 * not taken with it. */
static int wrapped(const line *a, const line *b, int b_alone,
                   const char *both, size_t len, int quoted)
{
	if (!is_header_text(both, len) &&
	    !(quoted && is_header_shape(both, len)))
		return 0;
	return unfinished(a->s, a->n) || (!b_alone && has_verb(b->s, b->n));
}

/* Lines (1 or 2) of the quote header at lines[i], or 0.  One known by
 * its words ("On ... wrote:") counts even without quoted lines below
 * it (an unmarked quote); one known by its shape only above them. */
static size_t quote_header(const line *lines, size_t n, size_t i)
{
	char both[2 * HEADER_LEN_MAX + 2];
	const line *a = &lines[i], *b;
	int b_alone;

	if (is_header_text(a->s, a->n) ||
	    (is_header_shape(a->s, a->n) && quote_follows(lines, n, i + 1)))
		return 1;
	if (i + 1 >= n || a->n > HEADER_LEN_MAX || is_blank(a) ||
	    is_say(a->s, a->n))
		return 0;
	b = &lines[i + 1];
	if (is_blank(b) || b->n > HEADER_LEN_MAX || is_quoted(b))
		return 0;
	b_alone = is_header_text(b->s, b->n) || is_header_shape(b->s, b->n);
	memcpy(both, a->s, a->n);
	both[a->n] = ' ';
	memcpy(both + a->n + 1, b->s, b->n);
	return wrapped(a, b, b_alone, both, a->n + 1 + b->n,
	               quote_follows(lines, n, i + 2)) ? 2 : 0;
}

/* "-----Original Message-----", "---------- Forwarded message ---------"
 * and the like, "Begin forwarded message:", Outlook on the web's line
 * of underscores. */
static int is_separator(const line *l)
{
	static const char *const words[] = { "Original Message",
		"Forwarded message", "Ursprüngliche Nachricht",
		"Weitergeleitete Nachricht", "Message d'origine",
		"Message transféré", "Mensaje original", "Messaggio originale",
		"Oorspronkelijk bericht", "Mensagem original", NULL };
	const char *const *w;
	size_t i;

	if (starts(l, "Begin forwarded message:"))
		return 1;
	for (i = 0; i < l->n && l->s[i] == '_'; i++)
		;
	if (i >= 10 && i == l->n)
		return 1;
	if (!starts(l, "--"))
		return 0;
	for (w = words; *w; w++)
		if (contains(l->s, l->n, *w))
			return 1;
	return 0;
}

/* Outlook's header block: "From: ..." with "Sent: ..." (or "Date:")
 * within the next lines; in German and French as Outlook writes them. */
static int is_header_block(const line *lines, size_t n, size_t i)
{
	static const struct { const char *from, *sent, *date; } forms[] = {
		{ "From:", "Sent:", "Date:" }, { "*From:*", "*Sent:*", "*Date:*" },
		{ "Von:", "Gesendet:", "Datum:" }, { "De :", "Envoyé :", "Date :" },
		{ "De:", "Envoyé:", "Date:" },
	};
	size_t f, j;

	for (f = 0; f < sizeof forms / sizeof forms[0]; f++) {
		if (!starts(&lines[i], forms[f].from))
			continue;
		for (j = i + 1; j < n && j <= i + 4; j++)
			if (starts(&lines[j], forms[f].sent) ||
			    starts(&lines[j], forms[f].date))
				return 1;
	}
	return 0;
}

/* ---- the written part --------------------------------------------------- */

typedef struct {
	char *out;
	size_t cap, len;
	int blank;          /* a blank line is due before the next line */
} writer;

static void keep(writer *w, const line *l)
{
	if (is_blank(l)) {
		w->blank = w->len > 0;
		return;
	}
	if (w->blank && w->len + 1 < w->cap)
		w->out[w->len++] = '\n';
	w->blank = 0;
	if (w->len > 0 && w->len + 1 < w->cap)
		w->out[w->len++] = '\n';
	if (w->len + l->n < w->cap) {
		memcpy(w->out + w->len, l->s, l->n);
		w->len += l->n;
	}
	w->out[w->len] = '\0';
}

size_t inbound_written(const char *text, char *out, size_t cap)
{
	writer w = { out, cap, 0, 0 };
	line *lines;
	size_t n, i, h;

	if (cap == 0)
		return 0;
	out[0] = '\0';
	lines = malloc(INBOUND_LINES_MAX * sizeof *lines);
	if (lines == NULL)
		return 0;
	n = split(text, lines, INBOUND_LINES_MAX);
	for (i = 0; i < n; i++) {
		if (is_signature(&lines[i]) || is_separator(&lines[i]) ||
		    is_header_block(lines, n, i))
			break;
		if (is_quoted(&lines[i]))
			continue;
		h = quote_header(lines, n, i);
		if (h > 0) {
			if (!quote_follows(lines, n, i + h))
				break;
			i += h - 1;
			continue;
		}
		keep(&w, &lines[i]);
	}
	free(lines);
	return w.len;
}
