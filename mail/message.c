/*
 * message.c - a queued email as an RFC 5322 message: its headers, each
 * checked or encoded so that no data can add one, and its body cut into
 * lines SMTP carries.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <sodium.h>

#include "loop.h"
#include "message.h"
#include "reply.h"
#include "utf8.h"

enum {
	WORD_BYTES = 39,        /* text bytes per encoded-word: 52 base64
	                         * characters, so "Subject: " and one word
	                         * stay within RFC 2047's 76 */
	SUBJECT_IN_MAX = 1023,  /* bytes of subject text we take */
	URL_MAX = 900           /* bytes of an unsubscribe URL */
};

/* A bounded writer: once something does not fit, full stays set and
 * nothing more is written. */
typedef struct wbuf {
	char *p;
	size_t cap, len;
	int full;
} wbuf;

static void put(wbuf *b, const char *s, size_t n)
{
	if (b->full || n >= b->cap - b->len) {
		b->full = 1;
		return;
	}
	memcpy(b->p + b->len, s, n);
	b->len += n;
	b->p[b->len] = '\0';
}

static void puts_(wbuf *b, const char *s)
{
	put(b, s, strlen(s));
}

/* "Name: value\n" */
static void header(wbuf *b, const char *name, const char *value)
{
	puts_(b, name);
	put(b, ": ", 2);
	puts_(b, value);
	put(b, "\n", 1);
}

/* ---- addresses and URLs ------------------------------------------------ */

static int is_alnum(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9');
}

/* RFC 5322 atext less the characters shells and aliases give meaning to
 * ('$', '`', '|', '/', '{', '}'): no real player needs them. */
static int local_char(int c)
{
	return is_alnum(c) || (c != 0 && strchr("!#%&'*+-=?^_~", c));
}

static int domain_char(int c)
{
	return is_alnum(c) || c == '-';
}

/* 1 if s[0..n) is one or more runs of ok characters joined by single
 * dots. */
static int dot_atom(const char *s, size_t n, int (*ok)(int))
{
	if (n == 0 || s[0] == '.' || s[n - 1] == '.')
		return 0;
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '.' ? s[i + 1] == '.'
		                : !ok((unsigned char)s[i]))
			return 0;
	}
	return 1;
}

int msg_addr_ok(const char *addr)
{
	size_t n = strlen(addr);
	const char *at = strchr(addr, '@');

	if (n == 0 || n > STORE_EMAIL_MAX || at == NULL)
		return 0;
	return dot_atom(addr, (size_t)(at - addr), local_char) &&
	       dot_atom(at + 1, n - (size_t)(at + 1 - addr), domain_char);
}

/* An http(s) URL of visible ASCII with nothing that ends "<...>". */
static int url_ok(const char *u)
{
	size_t n = strlen(u);

	if (n > URL_MAX || (strncmp(u, "http://", 7) != 0 &&
	                    strncmp(u, "https://", 8) != 0))
		return 0;
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)u[i] <= ' ' || (unsigned char)u[i] >= 0x7f ||
		    strchr("<>\"\\`{}|^", u[i]) != NULL)
			return 0;
	return 1;
}

/* ---- Date and Message-ID ----------------------------------------------- */

int msg_date(int64_t t, char *buf, size_t cap)
{
	static const char days[7][4] = {
		"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"
	};
	static const char months[12][4] = {
		"Jan", "Feb", "Mar", "Apr", "May", "Jun",
		"Jul", "Aug", "Sep", "Oct", "Nov", "Dec"
	};
	time_t tt = (time_t)t;
	struct tm tm;

	if (t < 0 || gmtime_r(&tt, &tm) == NULL || tm.tm_year + 1900 > 9999)
		return -1;
	int n = snprintf(buf, cap, "%s, %02d %s %04d %02d:%02d:%02d +0000",
	                 days[tm.tm_wday], tm.tm_mday, months[tm.tm_mon],
	                 tm.tm_year + 1900, tm.tm_hour, tm.tm_min, tm.tm_sec);
	return n > 0 && (size_t)n < cap ? 0 : -1;
}

/* 1 if g has the shape of a game id (base64url, at most STORE_ID_LEN). */
static int game_id_ok(const char *g)
{
	size_t n = strlen(g);

	if (n == 0 || n > STORE_ID_LEN)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!is_alnum((unsigned char)g[i]) && g[i] != '-' && g[i] != '_')
			return 0;
	return 1;
}

/* The token of a reply_to "LOCAL+TOKEN@DOMAIN" (a plain address) and
 * its domain; 0, or -1 if it has none. */
static int reply_parts(const char *reply_to, const char **tok,
                       const char **domain)
{
	const char *at = strchr(reply_to, '@'), *plus;

	if (!msg_addr_ok(reply_to) || !(plus = strchr(reply_to, '+')) ||
	    plus > at || at - plus - 1 != REPLY_TOKEN_LEN)
		return -1;
	for (const char *p = plus + 1; p < at; p++)
		if (!is_alnum((unsigned char)*p))
			return -1;
	*tok = plus + 1;
	*domain = at + 1;
	return 0;
}

int msg_id(const store_outmail *m, const char *from, char *buf, size_t cap)
{
	const char *tok, *domain;
	int n;

	if (!msg_addr_ok(from))
		return -1;
	const char *host = strchr(from, '@') + 1;
	if (reply_parts(m->reply_to, &tok, &domain) == 0)
		n = snprintf(buf, cap, "<r.%.*s.%lld@%s>", (int)REPLY_TOKEN_LEN,
		             tok, (long long)m->id, domain);
	else if (game_id_ok(m->game))
		n = snprintf(buf, cap, "<bt.%lld.%s@%s>", (long long)m->id,
		             m->game, host);
	else
		n = snprintf(buf, cap, "<bt.%lld@%s>", (long long)m->id, host);
	return n > 0 && (size_t)n < cap ? 0 : -1;
}

/* ---- Subject ----------------------------------------------------------- */

/* Copies text into out (cap > SUBJECT_IN_MAX) with control characters
 * as spaces and bytes that are not UTF-8 as '?'; returns its length, or
 * -1 if text is longer than SUBJECT_IN_MAX. */
static long clean_subject(const char *text, char *out)
{
	size_t n = strlen(text), o = 0;

	if (n > SUBJECT_IN_MAX)
		return -1;
	for (size_t i = 0; i < n;) {
		unsigned char c = (unsigned char)text[i];
		size_t k = utf8_seq((const unsigned char *)text + i, n - i);
		if (k == 0) {
			out[o++] = '?';
			i++;
		} else if (k == 1) {
			out[o++] = c < 0x20 || c == 0x7f ? ' ' : (char)c;
			i++;
		} else {
			memcpy(out + o, text + i, k);
			o += k;
			i += k;
		}
	}
	out[o] = '\0';
	return (long)o;
}

/* 1 if s (n bytes) must be encoded: anything not ASCII, or "=?" that a
 * reader would take for the start of an encoded-word. */
static int needs_words(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)s[i] >= 0x80)
			return 1;
	return strstr(s, "=?") != NULL;
}

/* The bytes of s[0..n) that fit one encoded-word: whole characters, at
 * most WORD_BYTES (s is valid UTF-8). */
static size_t word_take(const char *s, size_t n)
{
	size_t k = n < WORD_BYTES ? n : WORD_BYTES;

	while (k < n && k > 0 && ((unsigned char)s[k] & 0xC0) == 0x80)
		k--;
	return k;
}

int msg_subject(const char *text, char *buf, size_t cap)
{
	char clean[SUBJECT_IN_MAX + 1];
	char b64[sodium_base64_ENCODED_LEN(WORD_BYTES,
	                                   sodium_base64_VARIANT_ORIGINAL)];
	wbuf b = { buf, cap, 0, cap == 0 };
	long len = clean_subject(text, clean);

	if (cap > 0)
		buf[0] = '\0';
	if (len < 0)
		return -1;
	size_t n = (size_t)len;
	if (!needs_words(clean, n)) {
		put(&b, clean, n);
		return b.full ? -1 : 0;
	}
	for (size_t at = 0; at < n;) {
		size_t k = word_take(clean + at, n - at);
		sodium_bin2base64(b64, sizeof b64,
		                  (const unsigned char *)clean + at, k,
		                  sodium_base64_VARIANT_ORIGINAL);
		if (at > 0)
			put(&b, "\n ", 2);     /* folded: one word a line */
		puts_(&b, "=?UTF-8?B?");
		puts_(&b, b64);
		puts_(&b, "?=");
		at += k;
	}
	return b.full ? -1 : 0;
}

/* ---- body -------------------------------------------------------------- */

/* Copies one line of body (up to '\r', '\n' or the end) into out with
 * invalid UTF-8 bytes as '?'; *used gets the bytes read, the line break
 * included.  Returns the line's length. */
static size_t clean_line(const char *s, size_t n, char *out, size_t *used)
{
	size_t i = 0, o = 0;

	while (i < n && s[i] != '\n' && s[i] != '\r') {
		size_t k = utf8_seq((const unsigned char *)s + i, n - i);
		if (k == 0) {
			out[o++] = '?';
			i++;
		} else {
			memcpy(out + o, s + i, k);
			o += k;
			i += k;
		}
	}
	if (i < n && s[i] == '\r')
		i++;
	if (i < n && s[i] == '\n')
		i++;
	*used = i;
	return o;
}

/* Where to cut a line longer than MSG_LINE_MAX: after its last space
 * within the limit, else at the last character boundary. */
static size_t cut_at(const char *s)
{
	size_t k = MSG_LINE_MAX;

	for (size_t i = MSG_LINE_MAX; i > MSG_LINE_MAX / 2; i--)
		if (s[i - 1] == ' ')
			return i;
	while (k > 0 && ((unsigned char)s[k] & 0xC0) == 0x80)
		k--;
	return k;
}

static void put_body(wbuf *b, const char *body)
{
	char line[sizeof ((store_outmail *)0)->body];
	size_t n = strnlen(body, sizeof line - 1), used;

	for (size_t at = 0; at < n; at += used) {
		size_t len = clean_line(body + at, n - at, line, &used);
		const char *p = line;
		while (len > MSG_LINE_MAX) {
			size_t k = cut_at(p);
			put(b, p, k);
			put(b, "\n", 1);
			p += k;
			len -= k;
		}
		put(b, p, len);
		put(b, "\n", 1);
	}
}

/* ---- the message ------------------------------------------------------- */

msg_rc msg_build(const store_outmail *m, const msg_env *env, char *buf,
                 size_t cap, size_t *len)
{
	char date[MSG_DATE_MAX], id[MSG_ID_MAX], subject[2048];
	char from[STORE_EMAIL_MAX + 32];
	const char *unsub = m->seat > 0 ? env->unsub_url : NULL;
	wbuf b = { buf, cap, 0, cap == 0 };

	*len = 0;
	if (cap > 0)
		buf[0] = '\0';
	if (!msg_addr_ok(env->from) || msg_id(m, env->from, id, sizeof id))
		return MSG_BAD_FROM;
	if (!msg_addr_ok(m->to))
		return MSG_BAD_TO;
	if (m->reply_to[0] != '\0' && !msg_addr_ok(m->reply_to))
		return MSG_BAD_REPLY_TO;
	if (unsub != NULL && unsub[0] != '\0' && !url_ok(unsub))
		return MSG_BAD_URL;
	if (msg_date(env->date, date, sizeof date) ||
	    msg_subject(m->subject, subject, sizeof subject))
		return MSG_TOO_BIG;
	snprintf(from, sizeof from, "Buffer Time <%s>", env->from);

	header(&b, "Date", date);
	header(&b, "From", from);
	header(&b, "To", m->to);
	if (m->reply_to[0] != '\0')
		header(&b, "Reply-To", m->reply_to);
	header(&b, "Subject", subject);
	header(&b, "Message-ID", id);
	if (unsub != NULL && unsub[0] != '\0') {
		puts_(&b, "List-Unsubscribe: <");
		puts_(&b, unsub);
		puts_(&b, ">\n");
		header(&b, "List-Unsubscribe-Post",
		       "List-Unsubscribe=One-Click");
	}
	header(&b, "MIME-Version", "1.0");
	header(&b, "Content-Type", "text/plain; charset=utf-8");
	header(&b, "Content-Transfer-Encoding", "8bit");
	header(&b, "Auto-Submitted", "auto-generated");
	header(&b, INBOUND_LOOP_HEADER, strchr(env->from, '@') + 1);
	put(&b, "\n", 1);
	put_body(&b, m->body);
	if (b.full) {
		if (cap > 0)
			buf[0] = '\0';
		return MSG_TOO_BIG;
	}
	*len = b.len;
	return MSG_OK;
}

const char *msg_rc_text(msg_rc rc)
{
	switch (rc) {
	case MSG_OK: return "ok";
	case MSG_BAD_FROM: return "mail_from is not a plain address";
	case MSG_BAD_TO: return "the recipient is not a plain address";
	case MSG_BAD_URL: return "the unsubscribe URL is not plain";
	case MSG_TOO_BIG: return "the message is too big";
	case MSG_BAD_REPLY_TO: return "the Reply-To is not a plain address";
	}
	return "?";
}
