/*
 * fuzz_token.c - libFuzzer harness for seat tokens, CSRF tokens and link
 * keys (cgi/token.h).
 *
 * Keys come from a fixed master, so the committed corpus holds tokens
 * this harness issued.  The input is "TOKEN" for token_check(), and also
 * "SEAT GEN GAMEID TOKEN" (spaces) for csrf_check() and link_key_check().
 * The property: whatever is accepted is exactly what was issued.  When a
 * check says TOKEN_OK, making the token for the decoded (or given) fields
 * gives the input byte for byte.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "token.h"

enum { INPUT_MAX = 256 };

static token_keys keys;
static char input[INPUT_MAX + 1];

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	unsigned char master[TOKEN_KEY_BYTES];
	size_t i;

	(void)argc;
	(void)argv;
	if (sodium_init() < 0)
		abort();
	for (i = 0; i < sizeof master; i++)
		master[i] = (unsigned char)i;
	token_keys_derive(master, &keys);
	return 0;
}

static void seat_token(const char *tok)
{
	char id[TOKEN_GAME_ID_LEN + 1], again[TOKEN_TEXT_SIZE];
	int seat;
	int64_t gen;

	if (token_check(&keys, tok, id, &seat, &gen) != TOKEN_OK) {
		if (id[0] != '\0' || seat != 0 || gen != 0)
			abort();
		return;
	}
	if (token_make(&keys, id, seat, gen, again, sizeof again) !=
	    TOKEN_OK || strcmp(again, tok) != 0)
		abort();
}

/* "SEAT GEN GAMEID TOKEN": the fields a handler knows, and the token. */
static int split(char *s, int *seat, int64_t *gen, char **id, char **tok)
{
	long long g;
	int n = 0;

	if (sscanf(s, "%d %lld %n", seat, &g, &n) != 2 || n == 0)
		return -1;
	*gen = (int64_t)g;
	*id = s + n;
	*tok = strchr(*id, ' ');
	if (!*tok)
		return -1;
	*(*tok)++ = '\0';
	return 0;
}

static void keyed_tokens(char *s)
{
	char again[TOKEN_TEXT_SIZE], *id, *tok;
	int seat, kind;
	int64_t gen;

	if (split(s, &seat, &gen, &id, &tok))
		return;
	if (csrf_check(&keys, id, seat, gen, tok) == TOKEN_OK &&
	    (csrf_make(&keys, id, seat, gen, again, sizeof again) !=
	     TOKEN_OK || strcmp(again, tok) != 0))
		abort();
	for (kind = 0; kind < TOKEN_KIND__MAX; kind++) {
		if (link_key_check(&keys, (token_kind)kind, id, seat, gen,
		                   tok) != TOKEN_OK)
			continue;
		if (link_key_make(&keys, (token_kind)kind, id, seat, gen,
		                  again, sizeof again) != TOKEN_OK ||
		    strcmp(again, tok) != 0)
			abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > INPUT_MAX)
		return 0;
	memcpy(input, data, size);
	input[size] = '\0';
	seat_token(input);
	keyed_tokens(input);
	return 0;
}
