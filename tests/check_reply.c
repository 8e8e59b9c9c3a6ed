/*
 * check_reply.c - reply address tokens (links/reply.h): what is made is
 * read back, in any case; any other spelling, any one character changed
 * and any other key is refused; the token is found in a reply address
 * and in a Message-ID of ours, within the 64-byte local part.
 */
#include <stdio.h>
#include <string.h>

#include <check.h>
#include <sodium.h>

#include "reply.h"

static token_keys keys, other;

static const char GAME[] = "AAECAwQFBgcICQoLDA0ODw";   /* bytes 0..15 */

static void setup(void)
{
	unsigned char master[TOKEN_KEY_BYTES];

	ck_assert_int_ge(sodium_init(), 0);
	memset(master, 3, sizeof master);
	token_keys_derive(master, &keys);
	memset(master, 4, sizeof master);
	token_keys_derive(master, &other);
}

static reply_token sample(int seat, unsigned gen, unsigned seq,
                          unsigned day)
{
	reply_token t = { .seat = seat, .gen16 = gen, .seq16 = seq,
	                  .expires_day = day };

	snprintf(t.game_id, sizeof t.game_id, "%s", GAME);
	return t;
}

static void assert_same(const reply_token *a, const reply_token *b)
{
	ck_assert_str_eq(a->game_id, b->game_id);
	ck_assert_int_eq(a->seat, b->seat);
	ck_assert_uint_eq(a->gen16, b->gen16);
	ck_assert_uint_eq(a->seq16, b->seq16);
	ck_assert_uint_eq(a->expires_day, b->expires_day);
}

static const char ALPHABET[] = "abcdefghijklmnopqrstuvwxyz234567";

START_TEST(test_round_trip)
{
	static const unsigned values[] = { 0, 1, 255, 256, 0x1234, 0xffff };
	char tok[REPLY_TOKEN_SIZE];
	reply_token t, back;
	int n = 0;

	for (int seat = 1; seat <= TOKEN_SEAT_MAX; seat++)
		for (size_t i = 0; i < 6; i++) {
			t = sample(seat, values[i], values[(i + 1) % 6],
			           values[(i + 2) % 6]);
			ck_assert_int_eq(reply_token_make(&keys, &t, tok),
			                 TOKEN_OK);
			ck_assert_uint_eq(strlen(tok), REPLY_TOKEN_LEN);
			ck_assert_uint_eq(strspn(tok, ALPHABET),
			                  REPLY_TOKEN_LEN);
			ck_assert_int_eq(reply_token_read(&keys, tok,
			                 strlen(tok), &back), TOKEN_OK);
			assert_same(&t, &back);
			n++;
		}
	ck_assert_int_eq(n, 36);
}
END_TEST

START_TEST(test_bad_fields_not_made)
{
	char tok[REPLY_TOKEN_SIZE];
	reply_token t = sample(0, 1, 1, 1);

	ck_assert_int_eq(reply_token_make(&keys, &t, tok), TOKEN_INVALID);
	ck_assert_str_eq(tok, "");
	t = sample(7, 1, 1, 1);
	ck_assert_int_eq(reply_token_make(&keys, &t, tok), TOKEN_INVALID);
	t = sample(1, 0x10000, 1, 1);
	ck_assert_int_eq(reply_token_make(&keys, &t, tok), TOKEN_INVALID);
	t = sample(1, 1, 0x10000, 1);
	ck_assert_int_eq(reply_token_make(&keys, &t, tok), TOKEN_INVALID);
	t = sample(1, 1, 1, 0x10000);
	ck_assert_int_eq(reply_token_make(&keys, &t, tok), TOKEN_INVALID);
	t = sample(1, 1, 1, 1);
	t.game_id[21] = 'x';          /* spare bits set: not canonical */
	ck_assert_int_eq(reply_token_make(&keys, &t, tok), TOKEN_INVALID);
	t.game_id[5] = '\0';
	ck_assert_int_eq(reply_token_make(&keys, &t, tok), TOKEN_INVALID);
}
END_TEST

START_TEST(test_any_case)
{
	char tok[REPLY_TOKEN_SIZE], up[REPLY_TOKEN_SIZE];
	reply_token t = sample(3, 9, 41, 20000), back;

	ck_assert_int_eq(reply_token_make(&keys, &t, tok), TOKEN_OK);
	for (int i = 0; i < REPLY_TOKEN_SIZE; i++)
		up[i] = (char)(tok[i] >= 'a' && tok[i] <= 'z'
		               ? tok[i] - 'a' + 'A' : tok[i]);
	ck_assert_str_ne(up, tok);
	ck_assert_int_eq(reply_token_read(&keys, up, REPLY_TOKEN_LEN, &back),
	                 TOKEN_OK);
	assert_same(&t, &back);
	up[7] = tok[7];   /* mixed case too */
	ck_assert_int_eq(reply_token_read(&keys, up, REPLY_TOKEN_LEN, &back),
	                 TOKEN_OK);
}
END_TEST

/* Every single-character change of a token is refused: either it is
 * no token at all or its MAC is wrong, never accepted. */
START_TEST(test_every_change_refused)
{
	char tok[REPLY_TOKEN_SIZE], bad[REPLY_TOKEN_SIZE];
	reply_token t = sample(2, 5, 77, 19999), back;
	int refused = 0, macs = 0;

	ck_assert_int_eq(reply_token_make(&keys, &t, tok), TOKEN_OK);
	for (int at = 0; at < REPLY_TOKEN_LEN; at++)
		for (int c = 0; c < 256; c++) {
			memcpy(bad, tok, sizeof bad);
			if (c == 0 || c == tok[at] ||
			    (tok[at] >= 'a' && c == tok[at] - 'a' + 'A'))
				continue;
			bad[at] = (char)c;
			token_rc rc = reply_token_read(&keys, bad,
			                               REPLY_TOKEN_LEN, &back);
			ck_assert_int_ne(rc, TOKEN_OK);
			ck_assert_str_eq(back.game_id, "");
			macs += rc == TOKEN_BAD_MAC;
			refused++;
		}
	ck_assert_int_gt(refused, REPLY_TOKEN_LEN * 200);
	ck_assert_int_gt(macs, REPLY_TOKEN_LEN * 10);
}
END_TEST

START_TEST(test_malformed)
{
	char tok[REPLY_TOKEN_SIZE], bad[REPLY_TOKEN_SIZE + 8];
	reply_token t = sample(4, 1, 2, 3), back;
	int v;

	ck_assert_int_eq(reply_token_make(&keys, &t, tok), TOKEN_OK);
	/* wrong lengths */
	ck_assert_int_eq(reply_token_read(&keys, tok, REPLY_TOKEN_LEN - 1,
	                                  &back), TOKEN_MALFORMED);
	snprintf(bad, sizeof bad, "%sa", tok);
	ck_assert_int_eq(reply_token_read(&keys, bad, strlen(bad), &back),
	                 TOKEN_MALFORMED);
	/* the last character carries 3 bits: any of its 2 spare bits set is
	 * another spelling of the same bytes, refused */
	memcpy(bad, tok, sizeof tok);
	v = (int)(strchr(ALPHABET, tok[REPLY_TOKEN_LEN - 1]) - ALPHABET);
	ck_assert_int_eq(v & 3, 0);
	for (int spare = 1; spare < 4; spare++) {
		bad[REPLY_TOKEN_LEN - 1] = ALPHABET[v | spare];
		ck_assert_int_eq(reply_token_read(&keys, bad, REPLY_TOKEN_LEN,
		                                  &back), TOKEN_MALFORMED);
	}
	/* base32 of another alphabet, padding, and a NUL inside */
	memcpy(bad, tok, sizeof tok);
	bad[10] = '1';
	ck_assert_int_eq(reply_token_read(&keys, bad, REPLY_TOKEN_LEN, &back),
	                 TOKEN_MALFORMED);
	bad[10] = '=';
	ck_assert_int_eq(reply_token_read(&keys, bad, REPLY_TOKEN_LEN, &back),
	                 TOKEN_MALFORMED);
	bad[10] = '\0';
	ck_assert_int_eq(reply_token_read(&keys, bad, REPLY_TOKEN_LEN, &back),
	                 TOKEN_MALFORMED);
	ck_assert_int_eq(reply_token_read(&keys, NULL, 0, &back),
	                 TOKEN_MALFORMED);
}
END_TEST

START_TEST(test_other_key_refused)
{
	char tok[REPLY_TOKEN_SIZE], seat_tok[TOKEN_TEXT_SIZE];
	reply_token t = sample(1, 0, 0, 0), back;

	ck_assert_int_eq(reply_token_make(&other, &t, tok), TOKEN_OK);
	ck_assert_int_eq(reply_token_read(&keys, tok, REPLY_TOKEN_LEN, &back),
	                 TOKEN_BAD_MAC);
	ck_assert_int_eq(reply_token_read(&other, tok, REPLY_TOKEN_LEN,
	                                  &back), TOKEN_OK);
	/* the reply key is its own: not the seat link's */
	ck_assert(sodium_memcmp(keys.reply, keys.seat, TOKEN_KEY_BYTES) != 0);
	ck_assert(sodium_memcmp(keys.reply, keys.block, TOKEN_KEY_BYTES) != 0);
	ck_assert_int_eq(token_make(&keys, GAME, 1, 0, seat_tok,
	                            sizeof seat_tok), TOKEN_OK);
}
END_TEST

/* Each field changes the token, and only the field read back. */
START_TEST(test_fields_matter)
{
	char a[REPLY_TOKEN_SIZE], b[REPLY_TOKEN_SIZE];
	reply_token t = sample(2, 10, 20, 30), u;

	ck_assert_int_eq(reply_token_make(&keys, &t, a), TOKEN_OK);
	u = t; u.seq16++;
	ck_assert_int_eq(reply_token_make(&keys, &u, b), TOKEN_OK);
	ck_assert_str_ne(a, b);
	u = t; u.gen16++;
	ck_assert_int_eq(reply_token_make(&keys, &u, b), TOKEN_OK);
	ck_assert_str_ne(a, b);
	u = t; u.expires_day++;
	ck_assert_int_eq(reply_token_make(&keys, &u, b), TOKEN_OK);
	ck_assert_str_ne(a, b);
	u = t; u.seat = 3;
	ck_assert_int_eq(reply_token_make(&keys, &u, b), TOKEN_OK);
	ck_assert_str_ne(a, b);
	ck_assert_int_eq(reply_token_read(&keys, b, REPLY_TOKEN_LEN, &u),
	                 TOKEN_OK);
	ck_assert_int_eq(u.seat, 3);
	ck_assert_uint_eq(u.expires_day, 30);
}
END_TEST

START_TEST(test_in_address)
{
	char tok[REPLY_TOKEN_SIZE], got[REPLY_TOKEN_SIZE], addr[200];
	char up[REPLY_TOKEN_SIZE];
	reply_token t = sample(5, 1, 2, 3);

	ck_assert_int_eq(reply_token_make(&keys, &t, tok), TOKEN_OK);
	snprintf(addr, sizeof addr, "play+%s@games.example.org", tok);
	ck_assert_int_eq(reply_token_in_address(addr, "play", got), 0);
	ck_assert_str_eq(got, tok);
	/* a relay that lowercased or uppercased the local part */
	for (int i = 0; i < REPLY_TOKEN_SIZE; i++)
		up[i] = (char)(tok[i] >= 'a' && tok[i] <= 'z'
		               ? tok[i] - 'a' + 'A' : tok[i]);
	snprintf(addr, sizeof addr, "PLAY+%s@GAMES.example.org", up);
	ck_assert_int_eq(reply_token_in_address(addr, "Play", got), 0);
	ck_assert_str_eq(got, tok);
	/* not ours: another local part, no plus, a cut token */
	snprintf(addr, sizeof addr, "plays+%s@games.example.org", tok);
	ck_assert_int_eq(reply_token_in_address(addr, "play", got), -1);
	ck_assert_str_eq(got, "");
	snprintf(addr, sizeof addr, "play-%s@games.example.org", tok);
	ck_assert_int_eq(reply_token_in_address(addr, "play", got), -1);
	snprintf(addr, sizeof addr, "play+%.49s@games.example.org", tok);
	ck_assert_int_eq(reply_token_in_address(addr, "play", got), -1);
	snprintf(addr, sizeof addr, "play+%s", tok);
	ck_assert_int_eq(reply_token_in_address(addr, "play", got), -1);
	snprintf(addr, sizeof addr, "play+%s@", tok);
	ck_assert_int_eq(reply_token_in_address(addr, "play", got), -1);
	snprintf(addr, sizeof addr, "play+%.49s!@x.org", tok);
	ck_assert_int_eq(reply_token_in_address(addr, "play", got), -1);
	ck_assert_str_eq(got, "");      /* nothing half-copied (fuzz_reply) */
	ck_assert_int_eq(reply_token_in_address("play@x.org", "play", got),
	                 -1);
}
END_TEST

/* The longest configured local part leaves exactly 64 bytes; one more
 * byte would pass the cap, and such an address is refused. */
START_TEST(test_local_part_limit)
{
	char tok[REPLY_TOKEN_SIZE], got[REPLY_TOKEN_SIZE], addr[200];
	char local[REPLY_LOCAL_MAX];
	reply_token t = sample(1, 1, 1, 1);

	ck_assert_int_eq(REPLY_BASE_LOCAL_MAX, 13);
	ck_assert_int_eq(reply_token_make(&keys, &t, tok), TOKEN_OK);
	memset(local, 'q', REPLY_BASE_LOCAL_MAX);
	local[REPLY_BASE_LOCAL_MAX] = '\0';
	snprintf(addr, sizeof addr, "%s+%s@x.org", local, tok);
	ck_assert_uint_eq((size_t)(strchr(addr, '@') - addr), REPLY_LOCAL_MAX);
	ck_assert_int_eq(reply_token_in_address(addr, local, got), 0);
	strcat(local, "q");
	snprintf(addr, sizeof addr, "%s+%s@x.org", local, tok);
	ck_assert_int_eq(reply_token_in_address(addr, local, got), -1);
}
END_TEST

START_TEST(test_in_msgid)
{
	char tok[REPLY_TOKEN_SIZE], got[REPLY_TOKEN_SIZE], id[200];
	reply_token t = sample(6, 1, 2, 3), back;

	ck_assert_int_eq(reply_token_make(&keys, &t, tok), TOKEN_OK);
	snprintf(id, sizeof id, "r.%s.12345@games.example.org", tok);
	ck_assert_int_eq(reply_token_in_msgid(id, got), 0);
	ck_assert_str_eq(got, tok);
	ck_assert_int_eq(reply_token_read(&keys, got, strlen(got), &back),
	                 TOKEN_OK);
	assert_same(&t, &back);
	snprintf(id, sizeof id, "R.%s.1@X", tok);
	for (char *p = id; *p; p++)
		if (*p >= 'a' && *p <= 'z')
			*p = (char)(*p - 'a' + 'A');
	ck_assert_int_eq(reply_token_in_msgid(id, got), 0);
	ck_assert_str_eq(got, tok);
	/* not one of ours */
	snprintf(id, sizeof id, "bt.%s.1@x.org", tok);
	ck_assert_int_eq(reply_token_in_msgid(id, got), -1);
	ck_assert_str_eq(got, "");
	snprintf(id, sizeof id, "r.%s.@x.org", tok);
	ck_assert_int_eq(reply_token_in_msgid(id, got), -1);
	snprintf(id, sizeof id, "r.%s.12x@x.org", tok);
	ck_assert_int_eq(reply_token_in_msgid(id, got), -1);
	snprintf(id, sizeof id, "r.%s.12@", tok);
	ck_assert_int_eq(reply_token_in_msgid(id, got), -1);
	snprintf(id, sizeof id, "r.%.49s.12@x.org", tok);
	ck_assert_int_eq(reply_token_in_msgid(id, got), -1);
	snprintf(id, sizeof id, "r.%s.12345678901234567890@x.org", tok);
	ck_assert_int_eq(reply_token_in_msgid(id, got), -1);
	ck_assert_int_eq(reply_token_in_msgid("r.", got), -1);
}
END_TEST

static Suite *reply_suite(void)
{
	Suite *s = suite_create("reply");
	TCase *tc = tcase_create("reply");

	tcase_add_checked_fixture(tc, setup, NULL);
	tcase_add_test(tc, test_round_trip);
	tcase_add_test(tc, test_bad_fields_not_made);
	tcase_add_test(tc, test_any_case);
	tcase_add_test(tc, test_every_change_refused);
	tcase_add_test(tc, test_malformed);
	tcase_add_test(tc, test_other_key_refused);
	tcase_add_test(tc, test_fields_matter);
	tcase_add_test(tc, test_in_address);
	tcase_add_test(tc, test_local_part_limit);
	tcase_add_test(tc, test_in_msgid);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(reply_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
