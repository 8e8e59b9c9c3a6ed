/*
 * fuzz_reply.c - libFuzzer harness for reply address tokens
 * (links/reply.h).
 *
 * Keys come from a fixed master.  The input is tried as a token
 * (reply_token_read), as a reply address (reply_token_in_address, with
 * the configured local part "play") and as a Message-ID
 * (reply_token_in_msgid).  The properties: what is read is exactly what
 * was made (making the decoded fields gives the input, lowercased); what
 * is found in an address or a Message-ID is 50 lowercase base32
 * characters that were in the input.  And the other way round: a token
 * made from fields of the input is read back, and refused with any one
 * character changed.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "reply.h"

enum { INPUT_MAX = 512 };

static token_keys keys;
static char input[INPUT_MAX + 1];
static const char alphabet[] = "abcdefghijklmnopqrstuvwxyz234567";

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	unsigned char master[TOKEN_KEY_BYTES];

	(void)argc;
	(void)argv;
	if (sodium_init() < 0)
		abort();
	for (size_t i = 0; i < sizeof master; i++)
		master[i] = (unsigned char)i;
	token_keys_derive(master, &keys);
	return 0;
}

static char lower(char c)
{
	return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}

static void read_token(const char *text, size_t len)
{
	char again[REPLY_TOKEN_SIZE];
	reply_token t;

	if (reply_token_read(&keys, text, len, &t) != TOKEN_OK) {
		if (t.game_id[0] || t.seat || t.gen16 || t.seq16 ||
		    t.expires_day)
			abort();
		return;
	}
	if (reply_token_make(&keys, &t, again) != TOKEN_OK ||
	    len != REPLY_TOKEN_LEN)
		abort();
	for (size_t i = 0; i < len; i++)
		if (lower(text[i]) != again[i])
			abort();
}

/* What was found must be base32, lowercase, and in the input. */
static void found(int rc, const char *out)
{
	char up[REPLY_TOKEN_SIZE];

	if (rc != 0) {
		if (out[0] != '\0')
			abort();
		return;
	}
	if (strlen(out) != REPLY_TOKEN_LEN ||
	    strspn(out, alphabet) != REPLY_TOKEN_LEN)
		abort();
	for (int i = 0; i < REPLY_TOKEN_SIZE; i++)
		up[i] = out[i] >= 'a' && out[i] <= 'z'
		        ? (char)(out[i] - 'a' + 'A') : out[i];
	if (!strstr(input, out) && !strstr(input, up)) {
		/* mixed case: compare letter by letter */
		size_t n = strlen(input);
		int seen = 0;
		for (size_t at = 0; at + REPLY_TOKEN_LEN <= n && !seen; at++) {
			size_t i = 0;
			while (i < REPLY_TOKEN_LEN &&
			       lower(input[at + i]) == out[i])
				i++;
			seen = i == REPLY_TOKEN_LEN;
		}
		if (!seen)
			abort();
	}
	read_token(out, REPLY_TOKEN_LEN);
}

/* A token made of fields from the input reads back, and no one-character
 * change of it is accepted. */
static void issued(const uint8_t *data, size_t size)
{
	static const char b64url[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijk"
	                             "lmnopqrstuvwxyz0123456789-_";
	char tok[REPLY_TOKEN_SIZE];
	reply_token t = { .seat = 1 }, back;
	size_t i;

	for (i = 0; i < TOKEN_GAME_ID_LEN; i++)
		t.game_id[i] = b64url[(size > i ? data[i] : i) & 63];
	t.game_id[TOKEN_GAME_ID_LEN - 1] = "AQgw"[size ? data[0] >> 6 : 0];
	if (size >= 6) {
		t.seat = 1 + data[size - 1] % TOKEN_SEAT_MAX;
		t.gen16 = (unsigned)data[size - 2] << 8 | data[size - 3];
		t.seq16 = (unsigned)data[size - 4] << 8 | data[size - 5];
		t.expires_day = (unsigned)data[size - 6] << 8 | data[0];
	}
	if (reply_token_make(&keys, &t, tok) != TOKEN_OK ||
	    reply_token_read(&keys, tok, REPLY_TOKEN_LEN, &back) != TOKEN_OK ||
	    strcmp(back.game_id, t.game_id) != 0 || back.seat != t.seat ||
	    back.gen16 != t.gen16 || back.seq16 != t.seq16 ||
	    back.expires_day != t.expires_day)
		abort();
	size_t at = size % REPLY_TOKEN_LEN;
	char was = tok[at];
	tok[at] = alphabet[(size_t)(strchr(alphabet, was) - alphabet + 1 +
	                   (size ? data[0] : 0) % 31) % 32];
	if (reply_token_read(&keys, tok, REPLY_TOKEN_LEN, &back) == TOKEN_OK)
		abort();
	tok[at] = was;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char out[REPLY_TOKEN_SIZE];

	if (size > INPUT_MAX)
		return 0;
	memcpy(input, data, size);
	input[size] = '\0';
	read_token(input, strlen(input));
	found(reply_token_in_address(input, "play", out), out);
	found(reply_token_in_msgid(input, out), out);
	issued(data, size);
	return 0;
}
