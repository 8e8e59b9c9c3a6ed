/*
 * rng.c - the deterministic stream of R11, unbiased draws and shuffles.
 */
#include <string.h>

#include <sodium.h>

#include "rng.h"

/* The nonce libsodium's randombytes_buf_deterministic() uses: with it,
 * our stream is byte for byte that function's output for the same key. */
static const unsigned char drg_nonce[crypto_stream_chacha20_ietf_NONCEBYTES] = {
	'L', 'i', 'b', 's', 'o', 'd', 'i', 'u', 'm', 'D', 'R', 'G'
};

static void refill(bt_rng *r)
{
	static const uint8_t zeros[BT_RNG_BUF];

	crypto_stream_chacha20_ietf_xor_ic(r->buf, zeros, sizeof r->buf,
	                                   drg_nonce, r->block, r->key);
	r->block += BT_RNG_BUF / 64;
	r->pos = 0;
}

void bt_rng_init(bt_rng *r, const uint8_t key[BT_KEY_BYTES])
{
	memcpy(r->key, key, BT_KEY_BYTES);
	r->block = 0;
	r->pos = BT_RNG_BUF;  /* refill on first use */
}

uint8_t bt_rng_byte(bt_rng *r)
{
	if (r->pos >= BT_RNG_BUF)
		refill(r);
	return r->buf[r->pos++];
}

unsigned bt_rng_below(bt_rng *r, unsigned bound)
{
	/* Lemire's multiply-and-shift on one byte: the high byte of
	 * byte * bound is the draw.  Products whose low byte falls below
	 * 256 mod bound would favour some results; drawing again removes
	 * the bias, and the division runs only when rejection is possible. */
	unsigned m = bt_rng_byte(r) * bound;

	if ((m & 0xffu) < bound) {
		unsigned threshold = (256u - bound) % bound;
		while ((m & 0xffu) < threshold)
			m = bt_rng_byte(r) * bound;
	}
	return m >> 8;
}

void bt_rng_shuffle(bt_rng *r, uint8_t *a, size_t n)
{
	for (size_t i = n; i > 1; i--) {
		size_t j = bt_rng_below(r, (unsigned)i);
		uint8_t t = a[i - 1];
		a[i - 1] = a[j];
		a[j] = t;
	}
}

static int hex_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

int bt_seed_parse(const char *s, size_t len, uint8_t key[BT_KEY_BYTES])
{
	if (len == 0 || len > 2 * BT_KEY_BYTES)
		return -1;
	memset(key, 0, BT_KEY_BYTES);
	/* The last digit is the low nibble of the last byte. */
	for (size_t i = 0; i < len; i++) {
		int v = hex_value(s[len - 1 - i]);
		if (v < 0)
			return -1;
		size_t byte = BT_KEY_BYTES - 1 - i / 2;
		key[byte] = (uint8_t)(key[byte] | (i % 2 ? v << 4 : v));
	}
	return 0;
}
