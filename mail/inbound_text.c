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
 * a colon at the end. */
static int is_header_text(const char *s, size_t n)
{
	static const struct { const char *open, *verb; } forms[] = {
		{ "On ", "wrote" }, { "Am ", "schrieb" }, { "Le ", "crit" },
		{ "El ", "escribi" }, { "Il ", "scritto" }, { "Op ", "schreef" },
		{ "Em ", "escreveu" },
	};
	size_t i;

	if (n < 8 || n > HEADER_LEN_MAX || s[n - 1] != ':')
		return 0;
	for (i = 0; i < sizeof forms / sizeof forms[0]; i++) {
		size_t k = strlen(forms[i].open);

		if (strncasecmp(s, forms[i].open, k) == 0 &&
		    contains(s + k, n - k, forms[i].verb))
			return 1;
	}
	return 0;
}

/* Lines (1 or 2) of the quote header at lines[i], or 0. */
static size_t quote_header(const line *lines, size_t n, size_t i)
{
	char both[2 * HEADER_LEN_MAX + 2];
	const line *a = &lines[i], *b;

	if (is_header_text(a->s, a->n))
		return 1;
	if (i + 1 >= n || a->n > HEADER_LEN_MAX)
		return 0;
	b = &lines[i + 1];
	if (is_blank(b) || b->n > HEADER_LEN_MAX || is_quoted(b))
		return 0;
	memcpy(both, a->s, a->n);
	both[a->n] = ' ';
	memcpy(both + a->n + 1, b->s, b->n);
	return is_header_text(both, a->n + 1 + b->n) ? 2 : 0;
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

/* Whether the first non-blank line from i on is quoted. */
static int quote_follows(const line *lines, size_t n, size_t i)
{
	for (; i < n; i++)
		if (!is_blank(&lines[i]))
			return is_quoted(&lines[i]);
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
