/*
 * reply.c - reply address tokens (reply.h): 31 bytes in base32, MACed
 * with the server's reply key.
 */
#include <string.h>

#include <sodium.h>

#include "reply.h"

#define B64 sodium_base64_VARIANT_URLSAFE_NO_PADDING

enum {
	VERSION = 1,
	ID_RAW = 16,
	MSG_LEN = 1 + ID_RAW + 2 + 2 + 2,   /* what the MAC covers */
	MAC_LEN = 8,
	RAW_LEN = MSG_LEN + MAC_LEN,        /* 31 */
	SEAT_BITS = 3,
	ID_DIGITS_MAX = 19                  /* an outbox id in a Message-ID */
};

_Static_assert(REPLY_TOKEN_LEN == (RAW_LEN * 8 + 4) / 5, "token length");
_Static_assert(MAC_LEN <= crypto_auth_BYTES, "mac length");
_Static_assert(TOKEN_SEAT_MAX < (1 << SEAT_BITS), "seat bits");

static const char alphabet[] = "abcdefghijklmnopqrstuvwxyz234567";

/* The value of base32 character c in any case, or -1. */
static int b32_value(char c)
{
	if (c >= 'a' && c <= 'z')
		return c - 'a';
	if (c >= 'A' && c <= 'Z')
		return c - 'A';
	if (c >= '2' && c <= '7')
		return c - '2' + 26;
	return -1;
}

static void b32_encode(const unsigned char raw[RAW_LEN],
                       char out[REPLY_TOKEN_SIZE])
{
	unsigned acc = 0;
	int bits = 0, o = 0;

	for (int i = 0; i < RAW_LEN; i++) {
		acc = (acc << 8 | raw[i]) & 0xfff;
		bits += 8;
		while (bits >= 5) {
			bits -= 5;
			out[o++] = alphabet[(acc >> bits) & 31];
		}
	}
	if (bits > 0)
		out[o++] = alphabet[(acc << (5 - bits)) & 31];
	out[o] = '\0';
}

/* Decodes exactly REPLY_TOKEN_LEN characters; -1 for a character outside
 * the alphabet or a last character whose unused bits are not zero (one
 * spelling per token, modulo case). */
static int b32_decode(const char *s, unsigned char raw[RAW_LEN])
{
	unsigned acc = 0;
	int bits = 0, o = 0;

	for (int i = 0; i < REPLY_TOKEN_LEN; i++) {
		int v = b32_value(s[i]);
		if (v < 0)
			return -1;
		acc = (acc << 5 | (unsigned)v) & 0xfff;
		bits += 5;
		if (bits >= 8) {
			bits -= 8;
			raw[o++] = (unsigned char)(acc >> bits);
		}
	}
	return o == RAW_LEN && (acc & ((1u << bits) - 1)) == 0 ? 0 : -1;
}

static void mac8(const token_keys *k, const unsigned char *msg,
                 unsigned char out[MAC_LEN])
{
	unsigned char full[crypto_auth_BYTES];

	crypto_auth(full, msg, MSG_LEN, k->reply);
	memcpy(out, full, MAC_LEN);
	sodium_memzero(full, sizeof full);
}

static void put16(unsigned char *p, unsigned v)
{
	p[0] = (unsigned char)(v >> 8);
	p[1] = (unsigned char)(v & 0xff);
}

static unsigned get16(const unsigned char *p)
{
	return (unsigned)p[0] << 8 | p[1];
}

/* The game id's 16 bytes, if id is canonical base64url of them. */
static int id_bytes(const char *id, unsigned char raw[ID_RAW])
{
	char again[TOKEN_GAME_ID_LEN + 1];
	const char *end;
	size_t len;

	if (strnlen(id, TOKEN_GAME_ID_LEN + 1) != TOKEN_GAME_ID_LEN)
		return -1;
	for (int i = 0; i < TOKEN_GAME_ID_LEN; i++)
		if (!strchr("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
		            "0123456789-_", id[i]) || id[i] == '\0')
			return -1;
	if (sodium_base642bin(raw, ID_RAW, id, TOKEN_GAME_ID_LEN, NULL, &len,
	                      &end, B64) != 0 || len != ID_RAW ||
	    end != id + TOKEN_GAME_ID_LEN)
		return -1;
	sodium_bin2base64(again, sizeof again, raw, ID_RAW, B64);
	return strcmp(again, id) == 0 ? 0 : -1;
}

token_rc reply_token_make(const token_keys *k, const reply_token *t,
                          char out[REPLY_TOKEN_SIZE])
{
	unsigned char raw[RAW_LEN];

	out[0] = '\0';
	if (!k || !t || t->seat < 1 || t->seat > TOKEN_SEAT_MAX ||
	    t->gen16 > REPLY_FIELD_MAX || t->seq16 > REPLY_FIELD_MAX ||
	    t->expires_day > REPLY_FIELD_MAX || id_bytes(t->game_id, raw + 1))
		return TOKEN_INVALID;
	raw[0] = (unsigned char)(VERSION << SEAT_BITS | t->seat);
	put16(raw + 1 + ID_RAW, t->gen16);
	put16(raw + 3 + ID_RAW, t->seq16);
	put16(raw + 5 + ID_RAW, t->expires_day);
	mac8(k, raw, raw + MSG_LEN);
	b32_encode(raw, out);
	return TOKEN_OK;
}

token_rc reply_token_read(const token_keys *k, const char *text, size_t len,
                          reply_token *t)
{
	unsigned char raw[RAW_LEN], mac[MAC_LEN];
	int seat;

	memset(t, 0, sizeof *t);
	if (!k || !text || len != REPLY_TOKEN_LEN || b32_decode(text, raw))
		return TOKEN_MALFORMED;
	seat = raw[0] & ((1 << SEAT_BITS) - 1);
	if (raw[0] >> SEAT_BITS != VERSION || seat < 1 ||
	    seat > TOKEN_SEAT_MAX)
		return TOKEN_MALFORMED;
	mac8(k, raw, mac);
	if (sodium_memcmp(mac, raw + MSG_LEN, MAC_LEN) != 0)
		return TOKEN_BAD_MAC;
	sodium_bin2base64(t->game_id, sizeof t->game_id, raw + 1, ID_RAW, B64);
	t->seat = seat;
	t->gen16 = get16(raw + 1 + ID_RAW);
	t->seq16 = get16(raw + 3 + ID_RAW);
	t->expires_day = get16(raw + 5 + ID_RAW);
	return TOKEN_OK;
}

/* Copies the REPLY_TOKEN_LEN characters at s, lowercased, into out if
 * they are all base32; 0 or -1. */
static int take_token(const char *s, char out[REPLY_TOKEN_SIZE])
{
	for (int i = 0; i < REPLY_TOKEN_LEN; i++) {
		int v = b32_value(s[i]);
		if (v < 0) {
			out[0] = '\0';
			return -1;
		}
		out[i] = alphabet[v];
	}
	out[REPLY_TOKEN_LEN] = '\0';
	return 0;
}

static int same_letters(const char *a, const char *b, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		char x = a[i], y = b[i];
		if (x >= 'A' && x <= 'Z')
			x = (char)(x - 'A' + 'a');
		if (y >= 'A' && y <= 'Z')
			y = (char)(y - 'A' + 'a');
		if (x != y)
			return 0;
	}
	return 1;
}

int reply_token_in_address(const char *addr, const char *local,
                           char out[REPLY_TOKEN_SIZE])
{
	const char *at;
	size_t n, base;

	out[0] = '\0';
	if (!addr || !local || !(at = strrchr(addr, '@')) || at[1] == '\0')
		return -1;
	n = (size_t)(at - addr);
	base = strlen(local);
	if (base == 0 || n > REPLY_LOCAL_MAX ||
	    n != base + 1 + REPLY_TOKEN_LEN || addr[base] != '+' ||
	    !same_letters(addr, local, base))
		return -1;
	return take_token(addr + base + 1, out);
}

int reply_token_in_msgid(const char *id, char out[REPLY_TOKEN_SIZE])
{
	const char *p;
	int digits = 0;

	out[0] = '\0';
	if (!id || (id[0] != 'r' && id[0] != 'R') || id[1] != '.' ||
	    strnlen(id + 2, REPLY_TOKEN_LEN + 1) < REPLY_TOKEN_LEN)
		return -1;
	p = id + 2 + REPLY_TOKEN_LEN;
	if (*p++ != '.')
		return -1;
	while (*p >= '0' && *p <= '9' && digits <= ID_DIGITS_MAX) {
		p++;
		digits++;
	}
	if (digits == 0 || digits > ID_DIGITS_MAX || *p != '@' || p[1] == '\0')
		return -1;
	return take_token(id + 2, out);
}
