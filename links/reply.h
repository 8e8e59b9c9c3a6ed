/*
 * reply.h - the token of a reply address: "LOCAL+TOKEN@DOMAIN" names the
 * game, the seat, the seat's link generation, the game's sequence number
 * when the email was written and the day it expires, under a MAC of the
 * server key.  Whoever replies to that address speaks for that seat, as
 * whoever opens the seat's link does.
 *
 * Mail relays may change the case of an address's local part, and cap it
 * at 64 bytes (RFC 5321): the token is 31 bytes in RFC 4648 base32,
 * lowercase, without padding, 50 characters, read in any case.
 *
 *   byte  0       version (high 5 bits) and seat (low 3 bits)
 *         1..16   the game id's 16 bytes
 *         17..18  gen16, big-endian
 *         19..20  seq16
 *         21..22  expires_day
 *         23..30  the first 8 bytes of crypto_auth over bytes 0..22,
 *                 with a key of its own (token_keys.reply)
 *
 * The same token is in the Message-ID of the email, "<r.TOKEN.N@DOMAIN>"
 * (N the outbox row), for mail programs that reply to the bare address
 * but keep In-Reply-To and References.  Call sodium_init() first.
 */
#ifndef BT_REPLY_H
#define BT_REPLY_H

#include <stddef.h>

#include "token.h"

enum {
	REPLY_TOKEN_LEN = 50,
	REPLY_TOKEN_SIZE = REPLY_TOKEN_LEN + 1,
	REPLY_LOCAL_MAX = 64,        /* bytes of an address's local part */
	/* the longest configured local part: "+" and the token must fit */
	REPLY_BASE_LOCAL_MAX = REPLY_LOCAL_MAX - 1 - REPLY_TOKEN_LEN,
	REPLY_FIELD_MAX = 0xffff     /* gen16, seq16, expires_day */
};

typedef struct reply_token {
	char game_id[TOKEN_GAME_ID_LEN + 1];  /* base64url, 22 chars (16 bytes) */
	int seat;                             /* 1..6 */
	unsigned gen16;        /* the seat's token_gen & 0xffff (revoking a link kills it) */
	unsigned seq16;        /* the game's seq when the email was written, & 0xffff */
	unsigned expires_day;  /* UTC day number (unix time / 86400) after which it is refused; < 65536 */
} reply_token;

/* Writes t's token, lowercase, into out.  TOKEN_OK, or TOKEN_INVALID for
 * a game id that is not canonical, a seat outside 1..6 or a field above
 * REPLY_FIELD_MAX (out is then ""). */
token_rc reply_token_make(const token_keys *k, const reply_token *t,
                          char out[REPLY_TOKEN_SIZE]);

/* Reads text (len bytes, any case); MAC checked in constant time
 * (sodium_memcmp).  TOKEN_MALFORMED for wrong length/alphabet/version/
 * non-canonical base32, TOKEN_BAD_MAC otherwise if not ours.  Only the
 * MAC is checked: the caller compares expires_day with today, gen16 with
 * the seat's token_gen and seq16 with the game's seq.  On error *t is
 * zeroed. */
token_rc reply_token_read(const token_keys *k, const char *text, size_t len,
                          reply_token *t);

/* The token of address "LOCAL+TOKEN@DOMAIN" (local compared
 * case-insensitively with the configured one, the token part any case,
 * the local part at most REPLY_LOCAL_MAX bytes); 0 and out filled
 * (lowercase), or -1.  The domain is not looked at. */
int reply_token_in_address(const char *addr, const char *local,
                           char out[REPLY_TOKEN_SIZE]);

/* The token in a Message-ID of ours, "r.TOKEN.N@DOMAIN" (angle brackets
 * already removed); 0 and out filled (lowercase), or -1. */
int reply_token_in_msgid(const char *id, char out[REPLY_TOKEN_SIZE]);

#endif
