/*
 * fuzz_token.c - libFuzzer harness for seat tokens, CSRF tokens and link
 * keys (links/token.h).
 *
 * Keys come from a fixed master, so the committed corpus holds tokens
 * this harness issued.  The input is "TOKEN" for token_check(), and also
 * "SEAT GEN GAMEID TOKEN" (spaces) for csrf_check() and link_key_check().
 * The property: whatever is accepted is exactly what was issued.  When a
 * check says TOKEN_OK, making the token for the decoded (or given) fields
 * gives the input byte for byte.  "SEAT GEN ADDRESS TOKEN" is also tried
 * as a block key for ADDRESS.
 *
 * And the other way round: for fields taken from the input (a game id,
 * a seat, a generation, an address) every kind is issued, and each token
 * must be accepted for those fields by its own check, and refused by the
 * others, for any other field, and with any one character changed (the
 * spare bits of the last base64url character too).
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
	if (block_key_check(&keys, id, tok) == TOKEN_OK &&
	    (block_key_make(&keys, id, again, sizeof again) != TOKEN_OK ||
	     strcmp(again, tok) != 0))
		abort();
}

/* ---- issued, then checked -------------------------------------------- */

static const char b64url[] =
	"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/* The fields an issued token names; kind -1 is a CSRF token, -2 a block
 * key (for address), -3 a seat token, else a link key of that kind. */
typedef struct fields {
	char id[TOKEN_GAME_ID_LEN + 1];
	int seat;
	int64_t gen;
	char address[TOKEN_ADDRESS_MAX + 1];
} fields;

enum { CSRF = -1, BLOCK = -2, SEAT = -3 };

/* 1 if tok passes the check of kind for f. */
static int accepted(int kind, const fields *f, const char *tok)
{
	char id[TOKEN_GAME_ID_LEN + 1];
	int seat;
	int64_t gen;

	switch (kind) {
	case SEAT:
		return token_check(&keys, tok, id, &seat, &gen) == TOKEN_OK &&
		       strcmp(id, f->id) == 0 && seat == f->seat &&
		       gen == f->gen;
	case CSRF:
		return csrf_check(&keys, f->id, f->seat, f->gen, tok) ==
		       TOKEN_OK;
	case BLOCK:
		return block_key_check(&keys, f->address, tok) == TOKEN_OK;
	default:
		return link_key_check(&keys, (token_kind)kind, f->id, f->seat,
		                      f->gen, tok) == TOKEN_OK;
	}
}

static token_rc issue(int kind, const fields *f, char *tok, size_t cap)
{
	switch (kind) {
	case SEAT:
		return token_make(&keys, f->id, f->seat, f->gen, tok, cap);
	case CSRF:
		return csrf_make(&keys, f->id, f->seat, f->gen, tok, cap);
	case BLOCK:
		return block_key_make(&keys, f->address, tok, cap);
	default:
		return link_key_make(&keys, (token_kind)kind, f->id, f->seat,
		                     f->gen, tok, cap);
	}
}

/* The fields, each changed in turn: none of them may accept tok. */
static void refused_elsewhere(int kind, const fields *f, const char *tok)
{
	fields g;
	int other;

	for (other = SEAT; other < TOKEN_KIND__MAX; other++)
		if (other != kind && accepted(other, f, tok))
			abort();
	g = *f;
	g.id[0] = g.id[0] == 'A' ? 'B' : 'A';
	if (kind != BLOCK && accepted(kind, &g, tok))
		abort();
	g = *f;
	g.seat = f->seat % TOKEN_SEAT_MAX + 1;
	if (kind != BLOCK && accepted(kind, &g, tok))
		abort();
	g = *f;
	g.gen = f->gen ^ 1;
	if (kind != BLOCK && accepted(kind, &g, tok))
		abort();
	g = *f;
	g.address[0] = g.address[0] == 'a' ? 'b' : 'a';
	if (kind == BLOCK && accepted(kind, &g, tok))
		abort();
}

/* tok with its character at `at` changed to another one of base64url. */
static void refused_changed(int kind, const fields *f, char *tok,
                            size_t at, unsigned step)
{
	size_t n = strlen(tok);
	char was;
	const char *p;

	if (n == 0)
		return;
	at %= n;
	was = tok[at];
	p = strchr(b64url, was);
	if (!p)
		abort();
	tok[at] = b64url[((size_t)(p - b64url) + 1 + step % 63) % 64];
	if (accepted(kind, f, tok))
		abort();
	tok[at] = was;
}

/* Fields from the input: a canonical game id (the last character holds
 * 2 bits of the 16 bytes, so one of "AQgw"), seat, gen, an address. */
static void fields_from(const uint8_t *data, size_t size, fields *f)
{
	uint64_t g = 0;
	size_t i;

	for (i = 0; i < TOKEN_GAME_ID_LEN; i++)
		f->id[i] = b64url[(size > i ? data[i] : i) & 63];
	f->id[TOKEN_GAME_ID_LEN - 1] = "AQgw"[(size ? data[0] >> 6 : 0)];
	f->id[TOKEN_GAME_ID_LEN] = '\0';
	for (i = 0; i < 8 && i < size; i++)
		g = g << 8 | data[size - 1 - i];
	f->gen = (int64_t)(g & INT64_MAX);
	f->seat = 1 + (int)((size ? data[size / 2] : 0) % TOKEN_SEAT_MAX);
	for (i = 0; i < size && i < TOKEN_ADDRESS_MAX && data[i]; i++)
		f->address[i] = (char)data[i];
	if (i == 0)
		f->address[i++] = '@';
	f->address[i] = '\0';
}

static void issued(const uint8_t *data, size_t size)
{
	char tok[TOKEN_TEXT_SIZE];
	fields f;
	int kind;

	fields_from(data, size, &f);
	for (kind = SEAT; kind < TOKEN_KIND__MAX; kind++) {
		fields use = f;
		if (kind == TOKEN_WATCH)
			use.seat = 0, use.gen = 0;   /* a spectator's key */
		if (issue(kind, &use, tok, sizeof tok) != TOKEN_OK)
			abort();
		if (!accepted(kind, &use, tok))
			abort();
		refused_elsewhere(kind, &use, tok);
		refused_changed(kind, &use, tok, size, size ? data[0] : 0);
		refused_changed(kind, &use, tok, strlen(tok) - 1, (unsigned)size);
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
	issued(data, size);
	return 0;
}
