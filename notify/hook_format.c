/*
 * hook_format.c - a chat webhook's message for each kind of receiver
 * (hook_format.h): templates in one table, filled a code point at a time,
 * each escaped for where it lands.  Only the line is cut to fit: the body
 * is made without it to learn what the rest takes, then with it.
 */
#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include <sodium.h>

#include "hook_format.h"

enum {
	DISCORD_CHARS = 2000,        /* Discord's limit on "content" */
	NAME_CUT = 256,              /* bytes of a name in HOOK_JSON's body */
	PIECE_MAX = 16,              /* one code point, escaped twice */
	HEX_MAX = 2 * crypto_auth_hmacsha256_BYTES + 1,
	REPLACEMENT = 0xfffd
};

static const char ctype_json[] = "application/json";
static const char ctype_text[] = "text/plain; charset=utf-8";

/*
 * The escapes, by a template's letter: 'j' JSON's (quote, backslash,
 * each control as \u00XX); 'd', 's', 'h' Discord's markdown, Slack's
 * entities or HTML's, then JSON's; 'p' none (a text body, a header's
 * checked ASCII), what would not show replaced.
 *
 * Discord's markdown: what it reads as formatting, a link or a heading;
 * ':' stops autolinks (https\://) and :emoji:, '<' <#channel> and <t:>
 * tags.  Each shows as itself after a backslash.
 */
static const char markdown[] = "\\*_~`|>#[]()<:-";

/* HTML's five entities; Slack's rule is the first three. */
static const char *const entities[] = {
	['&'] = "&amp;", ['<'] = "&lt;", ['>'] = "&gt;",
	['"'] = "&quot;", ['\''] = "&#39;",
};

/* The events, and ntfy's tag (an emoji) for each. */
static const char *const events[][2] = {
	{ "turn", "video_game" }, { "over", "checkered_flag" },
	{ "test", "white_check_mark" },
};

/* ntfy's tag for the event called name; NULL if none is. */
static const char *event_tag(const char *name)
{
	for (size_t i = 0; i < sizeof events / sizeof events[0]; i++)
		if (strcmp(events[i][0], name) == 0)
			return events[i][1];
	return NULL;
}

/* A bounded string being written; over once anything did not fit. */
typedef struct out {
	char *s;
	size_t len, cap;
	int over;
} out;

/* The code point at s (n > 0 bytes left), its length in *len: an
 * invalid, overlong, surrogate or cut sequence is U+FFFD over one byte. */
static uint32_t decode(const unsigned char *s, size_t n, size_t *len)
{
	static const uint32_t min[] = { 0, 0x80, 0x800, 0x10000 };
	uint32_t c = s[0];
	size_t k = c < 0x80 ? 0 : c >= 0xc2 && c <= 0xdf ? 1 :
	           (c & 0xf0) == 0xe0 ? 2 : c >= 0xf0 && c <= 0xf4 ? 3 : 4;

	*len = 1;
	if (k == 0 || k == 4 || k >= n)
		return k ? REPLACEMENT : c;
	c &= 0x3fu >> k;
	for (size_t i = 1; i <= k; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return REPLACEMENT;
		c = c << 6 | (s[i] & 0x3fu);
	}
	if (c < min[k] || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
		return REPLACEMENT;
	*len = k + 1;
	return c;
}

/* Character c, its n bytes at raw (U+FFFD: any), with escape m into p
 * (PIECE_MAX bytes); its length, and in *chars the characters a receiver
 * counts (UTF-16 units: the most any of them counts). */
static size_t piece(char m, uint32_t c, const char *raw, size_t n, char *p,
                    long *chars)
{
	static const char hex[] = "0123456789abcdef";
	const char *ent = c < sizeof entities / sizeof entities[0] &&
	                  (m == 'h' || (m == 's' && c != '"' && c != '\''))
	                  ? entities[c] : NULL;
	char pair[2] = { '\\', (char)c };
	size_t k = 0;

	if (m == 'p' && ((c < 0x20 && c != '\t' && c != '\n') || c == 0x7f))
		c = REPLACEMENT;
	if (ent || c == REPLACEMENT)
		raw = ent ? ent : "\xef\xbf\xbd", n = strlen(raw);
	else if (m == 'd' && c && c < 0x80 && strchr(markdown, (int)c))
		raw = pair, n = 2;           /* Discord's backslash first */
	*chars = c < 0x80 ? (long)n : c > 0xffff ? 2 : 1;
	for (size_t i = 0; i < n; i++) {
		unsigned char b = (unsigned char)raw[i];
		if (m != 'p' && (b == '"' || b == '\\')) {
			p[k++] = '\\';
		} else if (m != 'p' && (b < 0x20 || b == 0x7f)) {
			memcpy(p + k, "\\u00", 4);
			p[k + 4] = hex[b >> 4];
			b = (unsigned char)hex[b & 15];
			k += 5;
		}
		p[k++] = (char)b;
	}
	return k;
}

static void put(out *o, const char *s, size_t n)
{
	if (o->over || n >= o->cap - o->len) {
		o->over = 1;
		return;
	}
	memcpy(o->s + o->len, s, n);
	o->len += n;
	o->s[o->len] = '\0';
}

/* v in decimal, or null if none. */
static void put_num(out *o, long long v, int none)
{
	char t[24];

	if (none)
		put(o, "null", 4);
	else
		put(o, t, (size_t)snprintf(t, sizeof t, "%lld", v));
}

/* The first n bytes of s (ending between characters), escaped as m. */
static void put_esc(out *o, char m, const char *s, size_t n)
{
	char p[PIECE_MAX];
	size_t len;
	long chars;

	for (size_t i = 0; i < n && !o->over; i += len) {
		uint32_t c = decode((const unsigned char *)s + i, n - i, &len);
		put(o, p, piece(m, c, s + i, len, p, &chars));
	}
}

/* How many bytes of s, whole characters, fit in budget bytes written
 * wherever tpl has "%t", and in chars characters as the first. */
static size_t fit(const char *s, const char *tpl, size_t budget, long chars)
{
	size_t n = strlen(s), i = 0, used = 0, len, cost;
	char m[4], p[PIECE_MAX];      /* m: the line's escapes in tpl */
	int copies = 0;
	long have = 0, ch, first = 0;

	for (const char *t = tpl; (t = strstr(t, "%t")); t += 2)
		if (copies < (int)sizeof m)
			m[copies++] = t[2];
	for (; i < n; i += len, used += cost, have += first) {
		uint32_t c = decode((const unsigned char *)s + i, n - i, &len);
		cost = 0;
		for (int j = 0; j < copies; j++) {
			cost += piece(m[j], c, s + i, len, p, &ch);
			first = j == 0 ? ch : first;
		}
		if (cost > budget - used || first > chars - have)
			break;
	}
	return i;
}

/* s as a JSON string cut to max bytes, or null if s is "". */
static void put_json(out *o, const char *s, size_t max)
{
	if (!*s) {
		put(o, "null", 4);
		return;
	}
	put(o, "\"", 1);
	put_esc(o, 'j', s, fit(s, "%tj", max, LONG_MAX));
	put(o, "\"", 1);
}

/*
 * Template tpl filled from e, the line cut to n bytes.  After a '%',
 * strings with an escape's letter: %t the line, %u URL, %e event, %g
 * game, %a ntfy's tag, %H sig; or JSON values: %i id, %T time, %r round,
 * %k risk, %s seat, %n name (none with no seat), %R result, null if none.
 */
static void render(out *o, const char *tpl, const hook_event *e, size_t n,
                   const char *sig)
{
	static const char strings[] = "tuegaH";
	const char *str[] = { e->text, e->url, e->event, e->game,
	                      event_tag(e->event), sig }, *at;

	while (*tpl && !o->over) {
		size_t lit = strcspn(tpl, "%");
		put(o, tpl, lit);
		if (!*(tpl += lit) || !*++tpl)
			break;
		if ((at = strchr(strings, *tpl))) {
			size_t i = (size_t)(at - strings);
			put_esc(o, tpl[1], str[i], i ? strlen(str[i]) : n);
			tpl += 2;
			continue;
		}
		switch (*tpl++) {
		case 'i': put_num(o, e->id, 0); break;
		case 'T': put_num(o, e->time, 0); break;
		case 'r': put_num(o, e->round, 0); break;
		case 'k': put_num(o, e->risk, e->risk < 0); break;
		case 's': put_num(o, e->seat, !e->seat); break;
		case 'n': put_json(o, e->seat ? e->name : "", NAME_CUT); break;
		case 'R': put_json(o, e->result, NAME_CUT); break;
		default: o->over = 1;
		}
	}
}

/* The kinds.  A header's template holds no player text (no %t, %n):
 * only ours and the URL, which is checked ASCII. */
static const struct kind {
	const char *name, *words, *ctype, *body;
	const char *header[HOOK_HEADERS_MAX];
	int sign;                    /* 1: %H, with the secret */
} kinds[HOOK__MAX] = {
	/* <URL>: a link without an embed; no @mention pings anyone */
	[HOOK_DISCORD] = { "discord", "Discord", ctype_json,
		"{\"content\":\"%td\\n<%uj>\","
		"\"allowed_mentions\":{\"parse\":[]}}" },
	[HOOK_SLACK] = { "slack", "Slack", ctype_json,
		"{\"text\":\"%ts <%us|Open the table>\"}" },
	[HOOK_MATRIX] = { "matrix", "Matrix (hookshot)", ctype_json,
		"{\"text\":\"%tj %uj\",\"html\":\"%th <a href=\\\"%uh\\\">"
		"Open the table</a>\",\"username\":\"Buffer Time\"}" },
	[HOOK_NTFY] = { "ntfy", "ntfy", ctype_text, "%tp",
		{ "Title: Buffer Time", "Click: %up", "Tags: %ap" }, 0 },
	[HOOK_JSON] = { "json", "Any other (signed JSON)", ctype_json,
		"{\"event\":\"%ej\",\"game\":\"%gj\",\"id\":%i,\"time\":%T,"
		"\"text\":\"%tj\",\"url\":\"%uj\",\"seat\":%s,\"name\":%n,"
		"\"round\":%r,\"risk\":%k,\"result\":%R}",
		{ "X-BufferTime-Event: %ep", "X-BufferTime-Timestamp: %T",
		  "X-BufferTime-Signature: sha256=%Hp" }, 1 },
};

const char *hook_kind_name(hook_kind k)
{
	return (unsigned)k < HOOK__MAX ? kinds[k].name : NULL;
}

const char *hook_kind_words(hook_kind k)
{
	return (unsigned)k < HOOK__MAX ? kinds[k].words : NULL;
}

int hook_kind_parse(const char *name, hook_kind *k)
{
	for (int i = 0; name && i < HOOK__MAX; i++)
		if (strcmp(kinds[i].name, name) == 0) {
			*k = (hook_kind)i;
			return 0;
		}
	return -1;
}

/* After "https://", a host (compared without case) and a path's start. */
static const struct known {
	const char *prefix;
	hook_kind kind;
} knowns[] = {
	{ "discord.com/api/webhooks/", HOOK_DISCORD },
	{ "ptb.discord.com/api/webhooks/", HOOK_DISCORD },
	{ "canary.discord.com/api/webhooks/", HOOK_DISCORD },
	{ "discordapp.com/api/webhooks/", HOOK_DISCORD },
	{ "ptb.discordapp.com/api/webhooks/", HOOK_DISCORD },
	{ "canary.discordapp.com/api/webhooks/", HOOK_DISCORD },
	{ "hooks.slack.com/", HOOK_SLACK },
	{ "ntfy.sh/", HOOK_NTFY },
};

hook_kind hook_kind_guess(const char *url)
{
	if (!url || strncasecmp(url, "https://", 8) != 0)
		return HOOK_JSON;
	url += 8;
	/* the host whole (a '/' ends it): not x.com.evil, x.com@evil */
	for (size_t i = 0; i < sizeof knowns / sizeof knowns[0]; i++) {
		const char *p = knowns[i].prefix;
		size_t h = strcspn(p, "/");
		if (strncasecmp(url, p, h) == 0 &&
		    strncmp(url + h, p + h, strlen(p + h)) == 0)
			return knowns[i].kind;
	}
	return HOOK_JSON;
}

int hook_json_text(const char *s, char *buf, size_t cap)
{
	out o = { buf, 0, cap, 0 };

	if (!s || !buf || !cap || cap > INT_MAX)
		return -1;
	put(&o, "\"", 1);
	put_esc(&o, 'j', s, strlen(s));
	put(&o, "\"", 1);
	return o.over ? (*buf = '\0', -1) : (int)o.len;
}

/* 1 if e can be written: parts there, valid, a URL fit for a header. */
static int event_ok(const hook_event *e)
{
	if (!e || !e->event || !e->game || !e->text || !e->url || !e->name ||
	    !e->result || !*e->url || !event_tag(e->event) || e->risk < -1 ||
	    e->risk > 100)
		return 0;
	for (const unsigned char *p = (const unsigned char *)e->url; *p; p++)
		if (*p <= 0x20 || *p >= 0x7f || strchr("\"<>\\^`{|}", *p))
			return 0;
	return 1;
}

/* HOOK_JSON's signature (hook_format.h) of m's body, in hex. */
static void sign(const unsigned char *secret, const hook_message *m,
                 long long time, char hex[HEX_MAX])
{
	unsigned char mac[crypto_auth_hmacsha256_BYTES];
	char signed_[24 + HOOK_BODY_MAX];
	int n = snprintf(signed_, 24, "%lld.", time);

	memcpy(signed_ + n, m->body, m->len);
	crypto_auth_hmacsha256(mac, (const unsigned char *)signed_,
	                       (size_t)n + m->len, secret);
	sodium_bin2hex(hex, HEX_MAX, mac, sizeof mac);
}

/* Empties m (body, type, headers); -1. */
static int fail(hook_message *m)
{
	memset(m, 0, offsetof(hook_message, header));
	m->headers[0] = NULL;
	return -1;
}

int hook_format(hook_kind k, const hook_event *e,
                const unsigned char *secret, hook_message *m)
{
	const struct kind *kd = &kinds[(unsigned)k < HOOK__MAX ? k : 0];
	char sig[HEX_MAX] = "";
	size_t n;
	out o = { m ? m->body : NULL, 0, HOOK_BODY_MAX, 0 };
	long chars;

	if (!m)
		return -1;
	fail(m);
	if ((unsigned)k >= HOOK__MAX || !event_ok(e) || (kd->sign && !secret))
		return -1;
	render(&o, kd->body, e, 0, sig);
	/* Discord's content is the line, "\n<", the URL and ">" */
	chars = k == HOOK_DISCORD ? DISCORD_CHARS - 3 - (long)strlen(e->url)
	                          : LONG_MAX;
	if (o.over || chars < 0)
		return fail(m);
	n = fit(e->text, kd->body, o.cap - 1 - o.len, chars);
	o.len = 0;
	render(&o, kd->body, e, n, sig);
	if (o.over)
		return fail(m);
	m->len = o.len;
	m->ctype = kd->ctype;
	if (kd->sign)
		sign(secret, m, e->time, sig);
	for (int i = 0; i < HOOK_HEADERS_MAX && kd->header[i]; i++) {
		out h = { m->header[i], 0, HOOK_HEADER_MAX, 0 };
		render(&h, kd->header[i], e, 0, sig);
		if (h.over)
			return fail(m);
		m->headers[i] = m->header[i];
		m->headers[i + 1] = NULL;
	}
	return 0;
}
