/*
 * check_rng.c - the random stream of R11: libsodium's deterministic
 * generator, unbiased bounded draws, shuffles, seeds.
 */
#include <stdlib.h>
#include <string.h>

#include <check.h>
#include <sodium.h>

#include "rng.h"

static const uint8_t key_a[BT_KEY_BYTES] = { 1, 2, 3, 4, 5, 6, 7, 8, 9 };

START_TEST(test_R11_stream_is_libsodium_deterministic)
{
	enum { N = 4096 };
	static uint8_t want[N];
	bt_rng r;

	randombytes_buf_deterministic(want, N, key_a);
	bt_rng_init(&r, key_a);
	for (int i = 0; i < N; i++)
		ck_assert_msg(bt_rng_byte(&r) == want[i], "byte %d differs", i);
}
END_TEST

/* Feeds one chosen byte, then every byte value, to bt_rng_below: the
 * first draw either accepts the chosen byte (one byte used) or not. */
static int draw_from(uint8_t first, unsigned bound, unsigned *result)
{
	bt_rng r;

	bt_rng_init(&r, key_a);
	r.pos = 0;
	r.buf[0] = first;
	for (int i = 1; i < BT_RNG_BUF; i++)
		r.buf[i] = (uint8_t)(i - 1);
	*result = bt_rng_below(&r, bound);
	return r.pos == 1;
}

START_TEST(test_R11_bounded_draw_is_exactly_unbiased)
{
	/* Over all 256 byte values, every result 0..bound-1 must be accepted
	 * equally often: no bias at all, for every bound. */
	for (unsigned bound = 1; bound <= 256; bound++) {
		unsigned hits[256] = { 0 }, accepted = 0, v;
		for (unsigned b = 0; b < 256; b++) {
			if (draw_from((uint8_t)b, bound, &v)) {
				ck_assert_uint_lt(v, bound);
				hits[v]++;
				accepted++;
			}
		}
		ck_assert_uint_eq(accepted % bound, 0);
		ck_assert_uint_ge(accepted, 128);
		for (unsigned i = 0; i < bound; i++)
			ck_assert_uint_eq(hits[i], accepted / bound);
	}
}
END_TEST

START_TEST(test_R11_rejected_draws_still_land_in_range)
{
	bt_rng r;

	bt_rng_init(&r, key_a);
	for (int i = 0; i < 100000; i++) {
		unsigned bound = 1 + (unsigned)i % 256;
		ck_assert_uint_lt(bt_rng_below(&r, bound), bound);
	}
}
END_TEST

START_TEST(test_R11_shuffle_is_a_permutation_and_repeatable)
{
	uint8_t a[28], b[28];
	bt_rng r1, r2;

	for (int i = 0; i < 28; i++)
		a[i] = b[i] = (uint8_t)i;
	bt_rng_init(&r1, key_a);
	bt_rng_init(&r2, key_a);
	bt_rng_shuffle(&r1, a, 28);
	bt_rng_shuffle(&r2, b, 28);
	ck_assert_mem_eq(a, b, 28);
	int seen[28] = { 0 };
	for (int i = 0; i < 28; i++)
		seen[a[i]]++;
	for (int i = 0; i < 28; i++)
		ck_assert_int_eq(seen[i], 1);
}
END_TEST

START_TEST(test_R11_shuffle_spreads_every_card_everywhere)
{
	/* 5 cards, 60000 shuffles: each (card, place) about 12000 times.
	 * A loose bound that a biased shuffle (e.g. j < i) fails. */
	enum { N = 5, ROUNDS = 60000 };
	int where[N][N] = { { 0 } };
	bt_rng r;

	bt_rng_init(&r, key_a);
	for (int k = 0; k < ROUNDS; k++) {
		uint8_t a[N] = { 0, 1, 2, 3, 4 };
		bt_rng_shuffle(&r, a, N);
		for (int i = 0; i < N; i++)
			where[a[i]][i]++;
	}
	for (int c = 0; c < N; c++)
		for (int i = 0; i < N; i++) {
			ck_assert_int_gt(where[c][i], ROUNDS / N - 600);
			ck_assert_int_lt(where[c][i], ROUNDS / N + 600);
		}
}
END_TEST

START_TEST(test_R11_seed_is_a_hex_number)
{
	uint8_t k1[BT_KEY_BYTES], k2[BT_KEY_BYTES], want[BT_KEY_BYTES] = { 0 };

	ck_assert_int_eq(bt_seed_parse("0102", 4, k1), 0);
	want[30] = 1;
	want[31] = 2;
	ck_assert_mem_eq(k1, want, BT_KEY_BYTES);
	ck_assert_int_eq(bt_seed_parse("102", 3, k2), 0);
	ck_assert_mem_eq(k1, k2, BT_KEY_BYTES);
	ck_assert_int_eq(bt_seed_parse("9F86d0", 6, k1), 0);
	ck_assert_int_eq(bt_seed_parse("9f86D0", 6, k2), 0);
	ck_assert_mem_eq(k1, k2, BT_KEY_BYTES);
	ck_assert_int_eq(k1[29], 0x9f);
	ck_assert_int_eq(k1[31], 0xd0);

	char full[65];
	memset(full, 'f', 64);
	full[64] = 'f';
	ck_assert_int_eq(bt_seed_parse(full, 64, k1), 0);
	for (int i = 0; i < BT_KEY_BYTES; i++)
		ck_assert_int_eq(k1[i], 0xff);
	ck_assert_int_eq(bt_seed_parse(full, 65, k1), -1);
	ck_assert_int_eq(bt_seed_parse("", 0, k1), -1);
	ck_assert_int_eq(bt_seed_parse("12g4", 4, k1), -1);
	ck_assert_int_eq(bt_seed_parse("0x12", 4, k1), -1);
	ck_assert_int_eq(bt_seed_parse("12 4", 4, k1), -1);
}
END_TEST

static Suite *rng_suite(void)
{
	Suite *s = suite_create("rng");
	TCase *tc = tcase_create("stream");

	tcase_add_test(tc, test_R11_stream_is_libsodium_deterministic);
	tcase_add_test(tc, test_R11_bounded_draw_is_exactly_unbiased);
	tcase_add_test(tc, test_R11_rejected_draws_still_land_in_range);
	tcase_add_test(tc, test_R11_shuffle_is_a_permutation_and_repeatable);
	tcase_add_test(tc, test_R11_shuffle_spreads_every_card_everywhere);
	tcase_add_test(tc, test_R11_seed_is_a_hex_number);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	if (sodium_init() < 0)
		return EXIT_FAILURE;
	SRunner *sr = srunner_create(rng_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
