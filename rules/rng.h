/*
 * rng.h - the game's deterministic random stream (R11).
 *
 * The stream is exactly libsodium's randombytes_buf_deterministic() output
 * for the 32-byte key (ChaCha20-IETF), produced block by block so it never
 * ends.  Draws are unbiased (rejection sampling) and shuffles are
 * Fisher-Yates, so a record replays identically on every machine.
 */
#ifndef BT_RNG_H
#define BT_RNG_H

#include <stddef.h>
#include <stdint.h>

enum { BT_KEY_BYTES = 32, BT_RNG_BUF = 256 };

typedef struct bt_rng {
	uint8_t key[BT_KEY_BYTES];
	uint32_t block;           /* ChaCha20 block counter of the next refill */
	uint16_t pos;             /* next unread byte of buf */
	uint8_t buf[BT_RNG_BUF];
} bt_rng;

/* Starts the stream of key at its first byte. */
void bt_rng_init(bt_rng *r, const uint8_t key[BT_KEY_BYTES]);

/* The next byte of the stream. */
uint8_t bt_rng_byte(bt_rng *r);

/* A uniform integer in 0..bound-1, for 1 <= bound <= 256 (rng.c says
 * exactly how, since replays depend on it). */
unsigned bt_rng_below(bt_rng *r, unsigned bound);

/* Shuffles a[0..n-1] in place (Fisher-Yates, from the last index down). */
void bt_rng_shuffle(bt_rng *r, uint8_t *a, size_t n);

/*
 * Parses a seed of 1..64 hex digits (either case) into a key: the digits
 * are a big-endian number, so leading zeros do not change the key.
 * Returns 0, or -1 if s is empty, too long or not hex.
 */
int bt_seed_parse(const char *s, size_t len, uint8_t key[BT_KEY_BYTES]);

#endif
