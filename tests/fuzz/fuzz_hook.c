/*
 * fuzz_hook.c - libFuzzer harness for the chat webhooks' messages
 * (notify/hook_format.h), which carry what players wrote (a name, a
 * line) and a URL a player pasted.
 *
 * The input is "URL\nNAME\nTEXT".  hook_kind_guess must name a kind;
 * hook_format, for every kind and event, with our table's URL and with
 * the pasted one, must give a body that fits, is valid UTF-8 and (for
 * the JSON kinds) valid JSON, and headers of printable ASCII only.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "hook_format.h"
#include "utf8.h"

enum { INPUT_MAX = 8192 };

static char input[INPUT_MAX + 1];

/* ---- a small JSON checker ------------------------------------------------ */

static const char *value(const char *p, int depth);

static const char *space(const char *p)
{
	while (*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r')
		p++;
	return p;
}

static const char *string(const char *p)
{
	if (*p++ != '"')
		return NULL;
	while (*p != '"') {
		if ((unsigned char)*p < 0x20)
			return NULL;
		if (*p == '\\') {
			p++;
			if (*p == 'u') {
				for (int i = 1; i <= 4; i++)
					if (!strchr("0123456789abcdefABCDEF", p[i]) ||
					    !p[i])
						return NULL;
				p += 4;
			} else if (!*p || !strchr("\"\\/bfnrt", *p)) {
				return NULL;
			}
		}
		p++;
	}
	return p + 1;
}

static const char *number(const char *p)
{
	const char *s = p;

	if (*p == '-')
		p++;
	while (*p >= '0' && *p <= '9')
		p++;
	return p > s && p[-1] != '-' ? p : NULL;
}

static const char *members(const char *p, int depth, char open, char close)
{
	if (*p++ != open)
		return NULL;
	p = space(p);
	if (*p == close)
		return p + 1;
	for (;;) {
		if (open == '{') {
			if (!(p = string(space(p))))
				return NULL;
			p = space(p);
			if (*p++ != ':')
				return NULL;
		}
		if (!(p = value(p, depth + 1)))
			return NULL;
		p = space(p);
		if (*p == close)
			return p + 1;
		if (*p++ != ',')
			return NULL;
	}
}

static const char *value(const char *p, int depth)
{
	if (depth > 16)
		return NULL;
	p = space(p);
	switch (*p) {
	case '"': return string(p);
	case '{': return members(p, depth, '{', '}');
	case '[': return members(p, depth, '[', ']');
	case 't': return strncmp(p, "true", 4) ? NULL : p + 4;
	case 'f': return strncmp(p, "false", 5) ? NULL : p + 5;
	case 'n': return strncmp(p, "null", 4) ? NULL : p + 4;
	default: return number(p);
	}
}

static int json_ok(const char *s)
{
	const char *end = value(s, 0);

	return end && *space(end) == '\0';
}

/* ---- the checks ------------------------------------------------------------ */

static int utf8_ok(const char *s, size_t n)
{
	for (size_t i = 0; i < n;) {
		size_t k = utf8_seq((const unsigned char *)s + i, n - i);
		if (k == 0)
			return 0;
		i += k;
	}
	return 1;
}

static void check(hook_kind k, const hook_event *e)
{
	static const unsigned char secret[HOOK_SECRET_BYTES] = { 1, 2, 3 };
	static hook_message m;

	if (hook_format(k, e, secret, &m) != 0)
		return;
	if (m.len >= HOOK_BODY_MAX || strlen(m.body) != m.len ||
	    !utf8_ok(m.body, m.len) || !m.ctype)
		abort();
	if (strncmp(m.ctype, "application/json", 16) == 0 && !json_ok(m.body))
		abort();
	for (int i = 0; m.headers[i]; i++) {
		if (i >= HOOK_HEADERS_MAX)
			abort();
		for (const char *p = m.headers[i]; *p; p++)
			if ((unsigned char)*p < 0x20 || (unsigned char)*p >= 0x7f)
				abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const events[] = { "turn", "over", "test" };
	char *url, *name, *text;

	if (size > INPUT_MAX)
		return 0;
	memcpy(input, data, size);
	input[size] = '\0';
	url = input;
	name = strchr(url, '\n');
	name = name ? (*name = '\0', name + 1) : url + strlen(url);
	text = strchr(name, '\n');
	text = text ? (*text = '\0', text + 1) : name + strlen(name);
	hook_kind guess = hook_kind_guess(url);
	if ((int)guess < 0 || guess >= HOOK__MAX)
		abort();
	for (int k = 0; k < HOOK__MAX; k++)
		for (size_t e = 0; e < sizeof events / sizeof events[0]; e++) {
			hook_event ev = {
				.event = events[e], .game = "AbC123", .text = text,
				.url = "https://bt.example/g/AbC123", .name = name,
				.seat = e == 0 ? 2 : 0, .round = 3,
				.risk = (int)(size % 102) - 1,
				.result = e == 1 ? "lost" : "", .id = 42,
				.time = 1700000000,
			};
			check((hook_kind)k, &ev);
			ev.url = url;
			check((hook_kind)k, &ev);
		}
	return 0;
}
