/*
 * out.c - the bounded output buffer and its escaping writers.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "out.h"
#include "utf8.h"

enum { OUT_FIRST_CAP = 4096 };

void out_init(out *o, size_t max)
{
	o->buf = NULL;
	o->len = o->cap = 0;
	o->max = max ? max : OUT_MAX_DEFAULT;
	if (o->max > SIZE_MAX / 4)
		o->max = SIZE_MAX / 4;   /* keeps the growth arithmetic exact */
	o->failed = 0;
}

void out_free(out *o)
{
	size_t max = o->max;

	free(o->buf);
	out_init(o, max);
}

void out_reset(out *o)
{
	o->len = 0;
	o->failed = 0;
	if (o->buf)
		o->buf[0] = '\0';
}

const char *out_str(const out *o)
{
	return o->buf ? o->buf : "";
}

/* Makes room for n more bytes plus the NUL; 0 on success.  On failure sets
 * failed, so callers just return. */
static int reserve(out *o, size_t n)
{
	size_t want, ncap;
	char *nbuf;

	if (o->failed)
		return -1;
	if (n > o->max - o->len) {
		o->failed = 1;
		return -1;
	}
	want = o->len + n + 1;
	if (want <= o->cap)
		return 0;
	/* doubling up to max + 1: at most ~log2(max) reallocations */
	ncap = o->cap ? o->cap : OUT_FIRST_CAP;
	while (ncap < want)
		ncap = ncap > (o->max + 1) / 2 ? o->max + 1 : ncap * 2;
	if (ncap > o->max + 1)
		ncap = o->max + 1;   /* a small bound never allocates more */
	nbuf = realloc(o->buf, ncap);
	if (nbuf == NULL) {
		o->failed = 1;
		return -1;
	}
	o->buf = nbuf;
	o->cap = ncap;
	return 0;
}

void out_raw(out *o, const char *s, size_t n)
{
	if (n == 0 || reserve(o, n) != 0)
		return;
	memcpy(o->buf + o->len, s, n);
	o->len += n;
	o->buf[o->len] = '\0';
}

void out_raws(out *o, const char *s)
{
	if (s)
		out_raw(o, s, strlen(s));
}

void out_rawf(out *o, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (o->failed)
		return;
	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0) {
		o->failed = 1;
		return;
	}
	if (n == 0 || reserve(o, (size_t)n) != 0)
		return;
	va_start(ap, fmt);
	vsnprintf(o->buf + o->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	o->len += (size_t)n;
}

/* The entity for an HTML-special byte, or NULL. */
static const char *html_entity(unsigned char c)
{
	switch (c) {
	case '&': return "&amp;";
	case '<': return "&lt;";
	case '>': return "&gt;";
	case '"': return "&quot;";
	case '\'': return "&#39;";
	default: return NULL;
	}
}

void out_htmln(out *o, const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, run = 0, k;
	const char *ent;

	if (s == NULL)
		return;
	/* copy runs of plain bytes in one go; stop at specials and bad bytes */
	while (i < n && !o->failed) {
		if (p[i] >= 0x20 && p[i] < 0x7f && p[i] != '&' && p[i] != '<' &&
		    p[i] != '>' && p[i] != '"' && p[i] != '\'') {
			i++;          /* the common case, plain ASCII: no lookups */
			run++;
			continue;
		}
		ent = html_entity(p[i]);
		k = (ent || p[i] == 0) ? 0 : utf8_seq(p + i, n - i);
		if (k > 0) {
			i += k;
			run += k;
			continue;
		}
		out_raw(o, s + i - run, run);
		run = 0;
		if (ent)
			out_raws(o, ent);
		else
			out_raw(o, "\xEF\xBF\xBD", 3);   /* U+FFFD */
		i++;
	}
	out_raw(o, s + i - run, run);
}

void out_html(out *o, const char *s)
{
	if (s)
		out_htmln(o, s, strlen(s));
}

/* RFC 3986 unreserved characters pass through. */
static int url_plain(unsigned char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
	       (c >= '0' && c <= '9') || c == '-' || c == '.' || c == '_' ||
	       c == '~';
}

void out_url(out *o, const char *s)
{
	static const char hex[] = "0123456789ABCDEF";
	const unsigned char *p = (const unsigned char *)s;
	char esc[3] = { '%', 0, 0 };
	size_t run = 0;

	if (s == NULL)
		return;
	for (; *p && !o->failed; p++) {
		if (url_plain(*p)) {
			run++;
			continue;
		}
		out_raw(o, (const char *)p - run, run);
		run = 0;
		esc[1] = hex[*p >> 4];
		esc[2] = hex[*p & 15];
		out_raw(o, esc, 3);
	}
	out_raw(o, (const char *)p - run, run);
}
