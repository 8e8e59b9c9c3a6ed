/*
 * fuzz_cookie.c - libFuzzer harness for the cookie decoder (cgi/input.h).
 *
 * The input is "NAME\nHEADER": a cookie name and a Cookie header value.
 * cookie_get() runs with a few destination sizes; a value it returns
 * must fit, hold only cookie-octets, and be one cookie_format() accepts
 * for a token name (and then be found again in "NAME=VALUE").
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "input.h"

enum { INPUT_MAX = COOKIE_HEADER_MAX + 256 };

static char input[INPUT_MAX + 1];

static int cookie_octet(unsigned char c)
{
	return c == 0x21 || (c >= 0x23 && c <= 0x2b) ||
	       (c >= 0x2d && c <= 0x3a) || (c >= 0x3c && c <= 0x5b) ||
	       (c >= 0x5d && c <= 0x7e);
}

/* A value found for name: re-set it and read it back. */
static void check_value(const char *name, const char *value)
{
	char set[COOKIE_VALUE_MAX + 256], header[COOKIE_VALUE_MAX + 128];
	char again[COOKIE_VALUE_MAX];
	size_t i;

	for (i = 0; value[i]; i++)
		if (!cookie_octet((unsigned char)value[i]))
			abort();
	/* "bt" is a token: formatting may refuse only a bad value. */
	if (cookie_format(set, sizeof set, "bt", value, "/", 60, 1))
		abort();
	snprintf(header, sizeof header, "x=1; bt=%s", value);
	if (cookie_get(header, "bt", again, sizeof again) != COOKIE_OK ||
	    strcmp(again, value) != 0)
		abort();
	(void)name;
}

static void get(const char *header, const char *name, size_t cap)
{
	char dst[COOKIE_VALUE_MAX];
	cookie_rc rc = cookie_get(header, name, dst, cap);

	if (rc != COOKIE_OK) {
		if (dst[0] != '\0')
			abort();
		return;
	}
	if (strlen(dst) >= cap)
		abort();
	check_value(name, dst);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *nl, *header;

	if (size > INPUT_MAX)
		return 0;
	memcpy(input, data, size);
	input[size] = '\0';
	nl = strchr(input, '\n');
	if (!nl)
		return 0;
	*nl = '\0';
	header = nl + 1;
	get(header, input, COOKIE_VALUE_MAX);
	get(header, input, 8);
	get(header, input, 1);
	get(NULL, input, COOKIE_VALUE_MAX);
	return 0;
}
