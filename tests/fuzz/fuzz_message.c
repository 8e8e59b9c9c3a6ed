/*
 * fuzz_message.c - libFuzzer harness for the mail header builder
 * (mail/message.h).
 *
 * The input is "TO\nSUBJECT\nFROM\nURL\nBODY": the outbox row's fields
 * and the sender's, each cut to its buffer.  A message msg_build()
 * accepts must fit MSG_MAX, have only lines of at most MSG_LINE_MAX
 * bytes ending in "\n", and its headers (up to the empty line) must be
 * printable ASCII: no byte of data reaches a header unchecked.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "message.h"

static store_outmail m;
static char msg[MSG_MAX];

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	if (sodium_init() < 0)
		abort();
	return 0;
}

/* Copies the next '\n'-ended field of s (at most cap - 1 bytes, NULs
 * kept out) into dst; moves *at past it. */
static void field(const uint8_t *s, size_t n, size_t *at, char *dst,
                  size_t cap, int last)
{
	size_t k = 0;

	while (*at < n && (last || s[*at] != '\n')) {
		if (k + 1 < cap && s[*at] != '\0')
			dst[k++] = (char)s[*at];
		(*at)++;
	}
	dst[k] = '\0';
	if (*at < n)
		(*at)++;
}

static void check_message(size_t len)
{
	size_t i, line = 0;
	int in_head = 1;

	if (len >= sizeof msg || strlen(msg) != len)
		abort();
	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)msg[i];

		if (c == '\n') {
			if (line == 0)
				in_head = 0;
			line = 0;
			continue;
		}
		if (++line > MSG_LINE_MAX || c == '\r')
			abort();
		if (in_head && (c < 0x20 || c > 0x7e) && c != '\t')
			abort();
	}
	if (len > 0 && msg[len - 1] != '\n')
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char from[STORE_EMAIL_MAX + 1], url[1024];
	msg_env env;
	size_t at = 0, len = 0;

	if (size > 2 * sizeof m.body)
		return 0;
	memset(&m, 0, sizeof m);
	m.id = 42;
	memcpy(m.game, "AAAAAAAAAAAAAAAAAAAAAA", 22);
	m.seat = 2;
	field(data, size, &at, m.to, sizeof m.to, 0);
	field(data, size, &at, m.subject, sizeof m.subject, 0);
	field(data, size, &at, from, sizeof from, 0);
	field(data, size, &at, url, sizeof url, 0);
	field(data, size, &at, m.body, sizeof m.body, 1);
	env.from = from;
	env.unsub_url = url[0] ? url : NULL;
	env.date = 1700000000 + (int64_t)size * 86400;
	if (msg_build(&m, &env, msg, sizeof msg, &len) == MSG_OK)
		check_message(len);
	else if (msg[0] != '\0')
		abort();
	return 0;
}
