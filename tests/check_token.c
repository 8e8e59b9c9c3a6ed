/*
 * check_token.c - what the web layer signs and keeps secret: the key
 * file, seat tokens and CSRF tokens (golden values, refusals, one
 * spelling each, a seeded fuzz loop), the keys of block and sign-in
 * links, and the game a new-game form makes once (even when raced).
 * The rest of the web's building blocks: check_web.c.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <check.h>
#include <sodium.h>

#include "fixture.h"
#include "seeded.h"
#include "store_limits.h"
#include "token.h"

/* ---- tokens ---------------------------------------------------------- */

static char kdir[128];

static void key_setup(void)
{
	snprintf(kdir, sizeof kdir, "%s/bt-web.XXXXXX",
	         getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	ck_assert_ptr_nonnull(mkdtemp(kdir));
}

static void key_teardown(void)
{
	char cmd[200];

	snprintf(cmd, sizeof cmd, "rm -rf '%s'", kdir);
	ck_assert_int_eq(system(cmd), 0);
}

static void keys_from(unsigned char fill, token_keys *k)
{
	unsigned char master[TOKEN_KEY_BYTES];

	memset(master, fill, sizeof master);
	token_keys_derive(master, k);
}

static void write_file(const char *path, size_t n, mode_t mode)
{
	FILE *f = fopen(path, "wb");
	size_t i;

	ck_assert_ptr_nonnull(f);
	for (i = 0; i < n; i++)
		fputc((int)i, f);
	fclose(f);
	ck_assert_int_eq(chmod(path, mode), 0);
}

START_TEST(test_token_key_file)
{
	char path[200], why[256];
	token_keys k1, k2, zero;
	struct stat st;

	snprintf(path, sizeof path, "%s/server.key", kdir);
	memset(&zero, 0, sizeof zero);
	/* missing: created 0600 with 32 bytes */
	ck_assert_msg(token_keys_load(path, &k1, why, sizeof why) == TOKEN_OK,
	              "%s", why);
	ck_assert_int_eq(stat(path, &st), 0);
	ck_assert_uint_eq((unsigned)(st.st_mode & 07777), 0600);
	ck_assert_int_eq((int)st.st_size, TOKEN_KEY_BYTES);
	ck_assert(memcmp(&k1, &zero, sizeof k1) != 0);
	ck_assert(memcmp(k1.seat, k1.csrf, sizeof k1.seat) != 0);
	/* present: reused */
	ck_assert_int_eq(token_keys_load(path, &k2, why, sizeof why), TOKEN_OK);
	ck_assert(memcmp(&k1, &k2, sizeof k1) == 0);
	/* readable by others: refused, with the fix in the message */
	ck_assert_int_eq(chmod(path, 0644), 0);
	ck_assert_int_eq(token_keys_load(path, &k2, why, sizeof why),
	                 TOKEN_KEY_MODE);
	ck_assert_ptr_nonnull(strstr(why, "server.key: mode 0644"));
	ck_assert_ptr_nonnull(strstr(why, "chmod 600"));
	ck_assert(memcmp(&k2, &zero, sizeof k2) == 0);
	ck_assert_int_eq(chmod(path, 0640), 0);
	ck_assert_int_eq(token_keys_load(path, &k2, why, sizeof why),
	                 TOKEN_KEY_MODE);
	/* the wrong size: refused either way */
	write_file(path, 31, 0600);
	ck_assert_int_eq(token_keys_load(path, &k2, why, sizeof why),
	                 TOKEN_KEY_SIZE);
	ck_assert_ptr_nonnull(strstr(why, "31 bytes, expected 32"));
	write_file(path, 33, 0600);
	ck_assert_int_eq(token_keys_load(path, &k2, why, sizeof why),
	                 TOKEN_KEY_SIZE);
	write_file(path, 0, 0600);
	ck_assert_int_eq(token_keys_load(path, &k2, why, sizeof why),
	                 TOKEN_KEY_SIZE);
	/* a file we wrote ourselves loads, and gives the derived keys */
	write_file(path, 32, 0600);
	ck_assert_int_eq(token_keys_load(path, &k2, why, sizeof why), TOKEN_OK);
	{
		unsigned char m[TOKEN_KEY_BYTES];
		int i;
		for (i = 0; i < TOKEN_KEY_BYTES; i++)
			m[i] = (unsigned char)i;
		token_keys_derive(m, &k1);
		ck_assert(memcmp(&k1, &k2, sizeof k1) == 0);
	}
	/* a symbolic link is not followed, even to a good key */
	{
		char lnk[220];
		snprintf(lnk, sizeof lnk, "%s/link.key", kdir);
		ck_assert_int_eq(symlink(path, lnk), 0);
		ck_assert_int_eq(token_keys_load(lnk, &k2, why, sizeof why),
		                 TOKEN_KEY_IO);
	}
	/* a directory, or a path in a missing directory */
	ck_assert_int_eq(token_keys_load(kdir, &k2, why, sizeof why),
	                 TOKEN_KEY_IO);
	snprintf(path, sizeof path, "%s/no/such/key", kdir);
	ck_assert_int_eq(token_keys_load(path, &k2, why, sizeof why),
	                 TOKEN_KEY_IO);
	ck_assert_ptr_nonnull(strstr(why, "no/such/key: "));
	token_keys_wipe(&k1);
	ck_assert(memcmp(&k1, &zero, sizeof k1) == 0);
}
END_TEST

#define GAME "q5mVCx0uS7K-zN_8AbCdEg"
#define GAME2 "AAAAAAAAAAAAAAAAAAAAAA"
/* Master key 32 zero bytes, GAME, seat 3, gen 2; checked independently
 * with Python's hashlib (BLAKE2b kdf, HMAC-SHA-512 cut to 32 bytes). */
#define GOLDEN_TOKEN "AauZlQsdLkuyvszf_AGwnRIDAAAAAAAAAAKPXOryjNeCTGl1" \
                     "Z7wNz_UtMmrWyBXcKx6U-eeok8Fesw"
#define GOLDEN_CSRF "cf8pUT_YoeaIgfjpw2s2SZ3TIFhgZ3kRgRJlmviIeUQ"

START_TEST(test_token_round_trip)
{
	char tok[TOKEN_TEXT_MAX], id[TOKEN_GAME_ID_LEN + 1];
	token_keys k;
	int seat, s;
	int64_t gen;

	keys_from(7, &k);
	for (s = 1; s <= TOKEN_SEAT_MAX; s++) {
		ck_assert_int_eq(token_make(&k, GAME, s, 41 + s, tok, sizeof tok),
		                 TOKEN_OK);
		ck_assert_uint_eq(strlen(tok), TOKEN_TEXT_LEN);
		ck_assert_uint_eq(strspn(tok, "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
		                  "abcdefghijklmnopqrstuvwxyz0123456789-_"),
		                  TOKEN_TEXT_LEN);
		ck_assert_int_eq(token_check(&k, tok, id, &seat, &gen), TOKEN_OK);
		ck_assert_str_eq(id, GAME);
		ck_assert_int_eq(seat, s);
		ck_assert(gen == 41 + s);
	}
	ck_assert_int_eq(token_make(&k, GAME2, 1, INT64_MAX, tok, sizeof tok),
	                 TOKEN_OK);
	ck_assert_int_eq(token_check(&k, tok, id, &seat, &gen), TOKEN_OK);
	ck_assert_str_eq(id, GAME2);
	ck_assert(gen == INT64_MAX);
	/* a revoked link: the MAC is fine, the generation is old; the
	 * caller compares it with the seat's token_gen */
	ck_assert_int_eq(token_make(&k, GAME, 2, 1, tok, sizeof tok), TOKEN_OK);
	ck_assert_int_eq(token_check(&k, tok, id, &seat, &gen), TOKEN_OK);
	ck_assert(gen == 1 && gen != 2);
}
END_TEST

START_TEST(test_token_golden)
{
	/* the format is fixed: links already mailed out must keep working */
	char tok[TOKEN_TEXT_MAX], csrf[CSRF_TEXT_SIZE];
	token_keys k;

	keys_from(0, &k);
	ck_assert_int_eq(token_make(&k, GAME, 3, 2, tok, sizeof tok), TOKEN_OK);
	ck_assert_str_eq(tok, GOLDEN_TOKEN);
	ck_assert_int_eq(csrf_make(&k, GAME, 3, 2, csrf, sizeof csrf),
	                 TOKEN_OK);
	ck_assert_str_eq(csrf, GOLDEN_CSRF);
}
END_TEST

/* Re-encodes tok with the raw byte at index i xored with x. */
static void tamper(const char *tok, size_t i, unsigned char x, char *dst)
{
	unsigned char raw[58];
	size_t len;

	ck_assert_int_eq(sodium_base642bin(raw, sizeof raw, tok, strlen(tok),
	                 NULL, &len, NULL,
	                 sodium_base64_VARIANT_URLSAFE_NO_PADDING), 0);
	ck_assert_uint_eq(len, sizeof raw);
	raw[i] ^= x;
	sodium_bin2base64(dst, TOKEN_TEXT_SIZE, raw, sizeof raw,
	                  sodium_base64_VARIANT_URLSAFE_NO_PADDING);
}

START_TEST(test_token_refusals)
{
	char tok[TOKEN_TEXT_MAX], bad[TOKEN_TEXT_MAX + 8];
	char id[TOKEN_GAME_ID_LEN + 1];
	token_keys k, other;
	int seat;
	int64_t gen;
	size_t i;

	keys_from(7, &k);
	keys_from(8, &other);
	ck_assert_int_eq(token_make(&k, GAME, 2, 5, tok, sizeof tok), TOKEN_OK);

	/* another server's key */
	ck_assert_int_eq(token_check(&other, tok, id, &seat, &gen),
	                 TOKEN_BAD_MAC);
	ck_assert_str_eq(id, "");
	ck_assert_int_eq(seat, 0);
	/* any changed byte: seat, game, generation, MAC */
	for (i = 1; i < 58; i++) {
		tamper(tok, i, 1, bad);
		ck_assert_msg(token_check(&k, bad, id, &seat, &gen) ==
		              TOKEN_BAD_MAC, "byte %zu", i);
	}
	/* an unknown version */
	tamper(tok, 0, 1, bad);
	ck_assert_int_eq(token_check(&k, bad, id, &seat, &gen),
	                 TOKEN_MALFORMED);
	/* truncated, extended, emptied, odd characters */
	snprintf(bad, sizeof bad, "%.*s", TOKEN_TEXT_LEN - 1, tok);
	ck_assert_int_eq(token_check(&k, bad, id, &seat, &gen),
	                 TOKEN_MALFORMED);
	snprintf(bad, sizeof bad, "%sA", tok);
	ck_assert_int_eq(token_check(&k, bad, id, &seat, &gen),
	                 TOKEN_MALFORMED);
	snprintf(bad, sizeof bad, "%s", tok);
	bad[10] = '+';
	ck_assert_int_eq(token_check(&k, bad, id, &seat, &gen),
	                 TOKEN_MALFORMED);
	bad[10] = '=';
	ck_assert_int_eq(token_check(&k, bad, id, &seat, &gen),
	                 TOKEN_MALFORMED);
	ck_assert_int_eq(token_check(&k, "", id, &seat, &gen),
	                 TOKEN_MALFORMED);
	ck_assert_int_eq(token_check(&k, NULL, id, &seat, &gen),
	                 TOKEN_MALFORMED);
	/* the last character carries 4 spare bits: only one spelling */
	snprintf(bad, sizeof bad, "%s", tok);
	bad[TOKEN_TEXT_LEN - 1] = bad[TOKEN_TEXT_LEN - 1] == 'B' ? 'C' : 'B';
	ck_assert_int_ne(token_check(&k, bad, id, &seat, &gen), TOKEN_OK);

	/* make refuses what it cannot encode */
	ck_assert_int_eq(token_make(&k, GAME, 0, 1, tok, sizeof tok),
	                 TOKEN_INVALID);
	ck_assert_str_eq(tok, "");
	ck_assert_int_eq(token_make(&k, GAME, 7, 1, tok, sizeof tok),
	                 TOKEN_INVALID);
	ck_assert_int_eq(token_make(&k, GAME, 1, -1, tok, sizeof tok),
	                 TOKEN_INVALID);
	ck_assert_int_eq(token_make(&k, "short", 1, 1, tok, sizeof tok),
	                 TOKEN_INVALID);
	ck_assert_int_eq(token_make(&k, GAME "A", 1, 1, tok, sizeof tok),
	                 TOKEN_INVALID);
	ck_assert_int_eq(token_make(&k, "AAAAAAAAAAAAAAAAAAAAAB", 1, 1, tok,
	                            sizeof tok), TOKEN_INVALID);
	ck_assert_int_eq(token_make(&k, "AAAAAAAAAAAAAAAAAAAAA+", 1, 1, tok,
	                            sizeof tok), TOKEN_INVALID);
	ck_assert_int_eq(token_make(&k, NULL, 1, 1, tok, sizeof tok),
	                 TOKEN_INVALID);
	ck_assert_int_eq(token_make(&k, GAME, 1, 1, tok, TOKEN_TEXT_SIZE - 1),
	                 TOKEN_INVALID);
	ck_assert_str_eq(token_rc_text(TOKEN_BAD_MAC),
	                 "token not issued by this server");
}
END_TEST

START_TEST(test_csrf)
{
	char c[CSRF_TEXT_SIZE], bad[CSRF_TEXT_SIZE + 4], tok[TOKEN_TEXT_MAX];
	token_keys k, other;

	keys_from(7, &k);
	keys_from(8, &other);
	ck_assert_int_eq(csrf_make(&k, GAME, 2, 5, c, sizeof c), TOKEN_OK);
	ck_assert_uint_eq(strlen(c), CSRF_TEXT_LEN);
	ck_assert_int_eq(csrf_check(&k, GAME, 2, 5, c), TOKEN_OK);
	/* bound to the seat, the game and the generation */
	ck_assert_int_eq(csrf_check(&k, GAME, 3, 5, c), TOKEN_BAD_MAC);
	ck_assert_int_eq(csrf_check(&k, GAME2, 2, 5, c), TOKEN_BAD_MAC);
	ck_assert_int_eq(csrf_check(&k, GAME, 2, 6, c), TOKEN_BAD_MAC);
	ck_assert_int_eq(csrf_check(&other, GAME, 2, 5, c), TOKEN_BAD_MAC);
	/* the seat token's MAC over the same message is not a CSRF token:
	 * the keys are separate subkeys */
	ck_assert_int_eq(token_make(&k, GAME, 2, 5, tok, sizeof tok), TOKEN_OK);
	{
		unsigned char raw[58];
		size_t len;
		ck_assert_int_eq(sodium_base642bin(raw, sizeof raw, tok,
		                 strlen(tok), NULL, &len, NULL,
		                 sodium_base64_VARIANT_URLSAFE_NO_PADDING), 0);
		sodium_bin2base64(bad, sizeof bad, raw + 26, 32,
		                  sodium_base64_VARIANT_URLSAFE_NO_PADDING);
		ck_assert_uint_eq(strlen(bad), CSRF_TEXT_LEN);
		ck_assert_int_eq(csrf_check(&k, GAME, 2, 5, bad),
		                 TOKEN_BAD_MAC);
	}
	/* malformed */
	snprintf(bad, sizeof bad, "%sA", c);
	ck_assert_int_eq(csrf_check(&k, GAME, 2, 5, bad), TOKEN_MALFORMED);
	snprintf(bad, sizeof bad, "%.*s", CSRF_TEXT_LEN - 1, c);
	ck_assert_int_eq(csrf_check(&k, GAME, 2, 5, bad), TOKEN_MALFORMED);
	ck_assert_int_eq(csrf_check(&k, GAME, 2, 5, ""), TOKEN_MALFORMED);
	ck_assert_int_eq(csrf_check(&k, GAME, 2, 5, NULL), TOKEN_MALFORMED);
	snprintf(bad, sizeof bad, "%s", c);
	bad[5] = bad[5] == 'x' ? 'y' : 'x';
	ck_assert_int_eq(csrf_check(&k, GAME, 2, 5, bad), TOKEN_BAD_MAC);
	ck_assert_int_eq(csrf_check(&k, "nope", 2, 5, c), TOKEN_MALFORMED);
	ck_assert_int_eq(csrf_make(&k, GAME, 2, 5, c, CSRF_TEXT_SIZE - 1),
	                 TOKEN_INVALID);
}
END_TEST

/* Block keys: over one address key, of their own kind, one spelling. */
START_TEST(test_block_keys)
{
	char b[CSRF_TEXT_SIZE], f[CSRF_TEXT_SIZE], bad[CSRF_TEXT_SIZE];
	char longest[TOKEN_ADDRESS_MAX + 2];
	token_keys k, other;

	keys_from(7, &k);
	keys_from(8, &other);
	ck_assert_int_eq(block_key_make(&k, "ann@example.org", b, sizeof b),
	                 TOKEN_OK);
	ck_assert_uint_eq(strlen(b), CSRF_TEXT_LEN);
	ck_assert_int_eq(block_key_check(&k, "ann@example.org", b), TOKEN_OK);
	ck_assert_int_eq(block_key_check(&k, "bob@example.org", b),
	                 TOKEN_BAD_MAC);
	ck_assert_int_eq(block_key_check(&other, "ann@example.org", b),
	                 TOKEN_BAD_MAC);
	snprintf(bad, sizeof bad, "%s", b);
	bad[7] = bad[7] == 'x' ? 'y' : 'x';
	ck_assert_int_eq(block_key_check(&k, "ann@example.org", bad),
	                 TOKEN_BAD_MAC);
	/* a link key is not a block key, nor the other way round */
	ck_assert_int_eq(link_key_make(&k, TOKEN_UNSUB, GAME, 2, 5, f,
	                               sizeof f), TOKEN_OK);
	ck_assert_int_eq(block_key_check(&k, "ann@example.org", f),
	                 TOKEN_BAD_MAC);
	ck_assert_int_eq(link_key_check(&k, TOKEN_UNSUB, GAME, 2, 5, b),
	                 TOKEN_BAD_MAC);
	/* bad arguments */
	ck_assert_int_eq(block_key_check(&k, "ann@example.org", NULL),
	                 TOKEN_MALFORMED);
	ck_assert_int_eq(block_key_check(&k, "ann@example.org", ""),
	                 TOKEN_MALFORMED);
	ck_assert_int_eq(block_key_check(&k, "", b), TOKEN_MALFORMED);
	ck_assert_int_eq(block_key_make(&k, "", f, sizeof f), TOKEN_INVALID);
	ck_assert_int_eq(block_key_make(&k, NULL, f, sizeof f), TOKEN_INVALID);
	ck_assert_int_eq(block_key_make(&k, "a@b", f, CSRF_TEXT_SIZE - 1),
	                 TOKEN_INVALID);
	memset(longest, 'a', sizeof longest - 1);
	longest[sizeof longest - 1] = '\0';
	ck_assert_int_eq(block_key_make(&k, longest, f, sizeof f),
	                 TOKEN_INVALID);
	longest[TOKEN_ADDRESS_MAX] = '\0';
	ck_assert_int_eq(block_key_make(&k, longest, f, sizeof f), TOKEN_OK);
}
END_TEST

/* Read-only link keys: one kind is never another, nor a CSRF token;
 * a spectator's names no seat, the others one; the generation counts. */
START_TEST(test_link_keys)
{
	char f[CSRF_TEXT_SIZE], u[CSRF_TEXT_SIZE], w[CSRF_TEXT_SIZE];
	char c[CSRF_TEXT_SIZE];
	token_keys k, other;

	keys_from(7, &k);
	keys_from(8, &other);
	ck_assert_int_eq(link_key_make(&k, TOKEN_FEED, GAME, 2, 5, f, sizeof f),
	                 TOKEN_OK);
	ck_assert_int_eq(link_key_make(&k, TOKEN_UNSUB, GAME, 2, 5, u,
	                               sizeof u), TOKEN_OK);
	ck_assert_int_eq(link_key_make(&k, TOKEN_WATCH, GAME, 0, 0, w,
	                               sizeof w), TOKEN_OK);
	ck_assert_int_eq(csrf_make(&k, GAME, 2, 5, c, sizeof c), TOKEN_OK);
	ck_assert_uint_eq(strlen(f), CSRF_TEXT_LEN);
	ck_assert_str_ne(f, u);
	ck_assert_str_ne(f, c);
	ck_assert_int_eq(link_key_check(&k, TOKEN_FEED, GAME, 2, 5, f), TOKEN_OK);
	ck_assert_int_eq(link_key_check(&k, TOKEN_UNSUB, GAME, 2, 5, u),
	                 TOKEN_OK);
	ck_assert_int_eq(link_key_check(&k, TOKEN_WATCH, GAME, 0, 0, w),
	                 TOKEN_OK);
	/* another kind, seat, game, generation or server key */
	ck_assert_int_eq(link_key_check(&k, TOKEN_UNSUB, GAME, 2, 5, f),
	                 TOKEN_BAD_MAC);
	ck_assert_int_eq(link_key_check(&k, TOKEN_FEED, GAME, 2, 5, c),
	                 TOKEN_BAD_MAC);
	ck_assert_int_eq(csrf_check(&k, GAME, 2, 5, f), TOKEN_BAD_MAC);
	ck_assert_int_eq(link_key_check(&k, TOKEN_FEED, GAME, 3, 5, f),
	                 TOKEN_BAD_MAC);
	ck_assert_int_eq(link_key_check(&k, TOKEN_FEED, GAME2, 2, 5, f),
	                 TOKEN_BAD_MAC);
	ck_assert_int_eq(link_key_check(&k, TOKEN_FEED, GAME, 2, 6, f),
	                 TOKEN_BAD_MAC);
	ck_assert_int_eq(link_key_check(&other, TOKEN_FEED, GAME, 2, 5, f),
	                 TOKEN_BAD_MAC);
	ck_assert_int_eq(link_key_check(&k, TOKEN_WATCH, GAME2, 0, 0, w),
	                 TOKEN_BAD_MAC);
	/* a spectator has no seat; a seat's key needs one */
	ck_assert_int_eq(link_key_make(&k, TOKEN_WATCH, GAME, 1, 0, w, sizeof w),
	                 TOKEN_INVALID);
	ck_assert_int_eq(link_key_make(&k, TOKEN_FEED, GAME, 0, 0, f, sizeof f),
	                 TOKEN_INVALID);
	ck_assert_int_eq(link_key_make(&k, TOKEN_KIND__MAX, GAME, 1, 0, f,
	                               sizeof f), TOKEN_INVALID);
	ck_assert_int_eq(link_key_make(&k, TOKEN_FEED, GAME, 7, 0, f, sizeof f),
	                 TOKEN_INVALID);
	ck_assert_int_eq(link_key_make(&k, TOKEN_FEED, GAME, 1, 0, f,
	                               CSRF_TEXT_SIZE - 1), TOKEN_INVALID);
	ck_assert_int_eq(link_key_check(&k, TOKEN_FEED, GAME, 2, 5, NULL),
	                 TOKEN_MALFORMED);
	ck_assert_int_eq(link_key_check(&k, TOKEN_FEED, GAME, 2, 5, ""),
	                 TOKEN_MALFORMED);
}
END_TEST

/* One spelling (issue: Debian 12's libsodium reads bytes 0x80-0xFF as
 * '_' in base64url): each issued secret, with any one character
 * replaced by any of the 128 high bytes or by a character outside the
 * alphabet, is refused; the issued one passes.  Tokens are made until
 * each kind has a '_' to replace, the case the old check let through. */
static int spelled_once(const token_keys *k, int kind, const char *text,
                        int gen)
{
	char game[TOKEN_GAME_ID_LEN + 1];
	int seat;
	int64_t g;

	switch (kind) {
	case 0: return token_check(k, text, game, &seat, &g) == TOKEN_OK;
	case 1: return csrf_check(k, GAME, 2, gen, text) == TOKEN_OK;
	default: return link_key_check(k, TOKEN_FEED, GAME, 2, gen, text)
	                == TOKEN_OK;
	}
}

START_TEST(test_secrets_have_one_spelling)
{
	static const char outside[] = "+/=. %";
	static const char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
	                               "abcdefghijklmnopqrstuvwxyz0123456789-_";
	char text[TOKEN_TEXT_SIZE + CSRF_TEXT_SIZE], bad[sizeof text];
	token_keys k;

	keys_from(9, &k);
	for (int kind = 0; kind < 3; kind++) {
		int gen = 0, underscores = 0;
		for (; gen < 2000 && underscores == 0; gen++) {
			ck_assert_int_eq(kind == 0
			    ? token_make(&k, GAME, 2, gen, text, sizeof text)
			    : kind == 1 ? csrf_make(&k, GAME, 2, gen, text,
			                            sizeof text)
			    : link_key_make(&k, TOKEN_FEED, GAME, 2, gen, text,
			                    sizeof text), TOKEN_OK);
			underscores = strchr(text, '_') != NULL;
		}
		gen--;
		ck_assert_msg(underscores, "kind %d: no '_' in 2000 tokens",
		              kind);
		ck_assert(spelled_once(&k, kind, text, gen));
		for (size_t i = 0; text[i]; i++) {
			for (int b = 0x80; b <= 0xff; b++) {
				memcpy(bad, text, sizeof bad);
				bad[i] = (char)b;
				ck_assert_msg(!spelled_once(&k, kind, bad, gen),
				              "kind %d: byte 0x%02x at %zu "
				              "accepted", kind, b, i);
			}
			for (const char *o = outside; *o; o++) {
				memcpy(bad, text, sizeof bad);
				bad[i] = *o;
				ck_assert(!spelled_once(&k, kind, bad, gen));
			}
			/* another letter of the alphabet: another secret,
			 * even in the last one's unused low bits */
			for (const char *a = alphabet; *a; a++) {
				if (*a == text[i])
					continue;
				memcpy(bad, text, sizeof bad);
				bad[i] = *a;
				ck_assert_msg(!spelled_once(&k, kind, bad, gen),
				              "kind %d: '%c' for '%c' at %zu "
				              "accepted", kind, *a, text[i], i);
			}
		}
	}
}
END_TEST

START_TEST(test_token_fuzz)
{
	char tok[TOKEN_TEXT_MAX], id[TOKEN_GAME_ID_LEN + 1];
	static const char alpha[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnop"
	                            "qrstuvwxyz0123456789-_+/=";
	token_keys k;
	int round, seat;
	int64_t gen;
	size_t i, n;

	keys_from(7, &k);
	seeded_start(0x5eed0005);
	for (round = 0; round < 10000; round++) {
		n = seeded_below(2) ? TOKEN_TEXT_LEN : seeded_below(TOKEN_TEXT_MAX);
		for (i = 0; i < n; i++)
			tok[i] = alpha[seeded_below(sizeof alpha - 1)];
		tok[n] = '\0';
		ck_assert_int_ne(token_check(&k, tok, id, &seat, &gen), TOKEN_OK);
		ck_assert_int_ne(csrf_check(&k, GAME, 1, 1, tok), TOKEN_OK);
	}
}
END_TEST

/* ---- a game once per new-game form (store_create_once) ---------------- */

static int once_mails;

/* A "your seat" email for every seat with an address, counted. */
static int once_mail(void *ctx, const store_game *g, int seat, store_mail *m)
{
	(void)ctx;
	if (!g->seats[seat - 1].email[0])
		return 0;
	once_mails++;
	memset(m, 0, sizeof *m);
	m->seat = seat;
	snprintf(m->kind, sizeof m->kind, "seat");
	snprintf(m->to, sizeof m->to, "%s", g->seats[seat - 1].email);
	snprintf(m->subject, sizeof m->subject, "Your seat");
	snprintf(m->body, sizeof m->body, "Your seat.");
	return 1;
}

static store_new_game once_game(void)
{
	store_new_game ng = { .players = 2, .first = 1,
	                      .names = { "Ann", "Bob" },
	                      .emails = { "ann@example.org", "" },
	                      .client = "203.0.113.7",
	                      .mail_fn = once_mail };
	return ng;
}

/* The same key twice, on two connections: one game, one email, one
 * game counted against a limit of one an hour (the second would be
 * refused if it counted); only the key's hash is stored. */
START_TEST(test_create_once)
{
	char dir[FIXTURE_PATH_MAX], path[FIXTURE_PATH_MAX];
	char id1[STORE_ID_LEN + 1], id2[STORE_ID_LEN + 1], id3[STORE_ID_LEN + 1];
	store_limits lim = { .games_per_hour = 1, .seat_mails_per_day = 10 };
	store_new_game ng = once_game();
	store_error err;
	int made;

	fixture_scratch("once", dir, path);
	store *a = fixture_open(path), *b = fixture_open(path);
	store_set_limits(a, &lim);
	store_set_limits(b, &lim);
	ck_assert_int_eq(store_creation_get(a, "k1k1k1k1k1k1k1k1k1k1k1", id1,
	                                    &err), STORE_NOT_FOUND);
	ck_assert_int_eq(store_create_once(a, &ng, "k1k1k1k1k1k1k1k1k1k1k1",
	                                   id1, &made, &err), STORE_OK);
	ck_assert_int_eq(made, 1);
	ck_assert_int_eq(store_create_once(b, &ng, "k1k1k1k1k1k1k1k1k1k1k1",
	                                   id2, &made, &err), STORE_OK);
	ck_assert_int_eq(made, 0);
	ck_assert_str_eq(id1, id2);
	ck_assert_int_eq(store_creation_get(b, "k1k1k1k1k1k1k1k1k1k1k1", id3,
	                                    &err), STORE_OK);
	ck_assert_str_eq(id1, id3);
	ck_assert_int_eq(once_mails, 1);
	ck_assert_int_eq(fixture_sql_value(path, "SELECT count(*) FROM games"), 1);
	ck_assert_int_eq(fixture_sql_value(path, "SELECT count(*) FROM outbox"), 1);
	ck_assert_int_eq(fixture_sql_value(path, "SELECT count(*) FROM "
	                 "limit_events WHERE kind = 'game'"), 1);
	ck_assert_int_eq(fixture_sql_value(path, "SELECT count(*) FROM creations"
	                 " WHERE length(once) = 32 AND CAST(once AS TEXT) <>"
	                 " 'k1k1k1k1k1k1k1k1k1k1k1'"), 1);
	/* another key from that client: a new game, refused by the limit */
	ck_assert_int_eq(store_create_once(a, &ng, "k2k2k2k2k2k2k2k2k2k2k2",
	                                   id2, &made, &err), STORE_LIMITED);
	ck_assert_int_eq(made, 0);
	ck_assert_int_eq(store_creation_get(a, "k2k2k2k2k2k2k2k2k2k2k2", id3,
	                                    &err), STORE_NOT_FOUND);
	/* a key that is no key */
	ck_assert_int_eq(store_create_once(a, &ng, "", id2, &made, &err),
	                 STORE_INVALID);
	ck_assert_int_eq(fixture_sql_value(path, "SELECT count(*) FROM games"), 1);
	store_close(a);
	store_close(b);
	fixture_remove(dir);
}
END_TEST

/* Four processes send one form at the same instant (a double press that
 * reaches two workers): one game, and all four are led to it. */
START_TEST(test_create_once_race)
{
	enum { KIDS = 4 };
	char dir[FIXTURE_PATH_MAX], path[FIXTURE_PATH_MAX];
	int fds[KIDS][2];
	pid_t pid[KIDS];
	store_new_game ng = once_game();
	char first[STORE_ID_LEN + 1] = "";
	int made_total = 0;

	ng.client = NULL;
	fixture_scratch("race", dir, path);
	store_close(fixture_open(path));   /* migrated once, before */
	for (int k = 0; k < KIDS; k++) {
		ck_assert_int_eq(pipe(fds[k]), 0);
		pid[k] = fork();
		ck_assert_int_ge(pid[k], 0);
		if (pid[k] == 0) {
			char id[STORE_ID_LEN + 2] = "";
			store_error err;
			int made = 0;
			store *s = fixture_open(path);
			store_set_busy_timeout(s, 120000);
			if (store_create_once(s, &ng, "racerace-racerace-race",
			                      id, &made, &err) != STORE_OK)
				_exit(2);
			id[STORE_ID_LEN] = made ? '1' : '0';
			if (write(fds[k][1], id, STORE_ID_LEN + 1) !=
			    STORE_ID_LEN + 1)
				_exit(3);
			store_close(s);
			_exit(0);
		}
		close(fds[k][1]);
	}
	for (int k = 0; k < KIDS; k++) {
		char got[STORE_ID_LEN + 2] = "";
		int status;
		ck_assert_int_eq(read(fds[k][0], got, STORE_ID_LEN + 1),
		                 STORE_ID_LEN + 1);
		close(fds[k][0]);
		ck_assert_int_eq(waitpid(pid[k], &status, 0), pid[k]);
		ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
		made_total += got[STORE_ID_LEN] == '1';
		got[STORE_ID_LEN] = '\0';
		if (!first[0])
			memcpy(first, got, sizeof first);
		ck_assert_str_eq(got, first);
	}
	ck_assert_int_eq(made_total, 1);
	ck_assert_int_eq(fixture_sql_value(path, "SELECT count(*) FROM games"), 1);
	fixture_remove(dir);
}
END_TEST

/* ---- the runner ------------------------------------------------------ */

static Suite *token_suite(void)
{
	Suite *s = suite_create("token");
	TCase *tc = tcase_create("token");

	tcase_add_checked_fixture(tc, key_setup, key_teardown);
	tcase_add_test(tc, test_token_key_file);
	tcase_add_test(tc, test_token_round_trip);
	tcase_add_test(tc, test_token_golden);
	tcase_add_test(tc, test_token_refusals);
	tcase_add_test(tc, test_csrf);
	tcase_add_test(tc, test_link_keys);
	tcase_add_test(tc, test_block_keys);
	tcase_add_test(tc, test_secrets_have_one_spelling);
	tcase_add_test(tc, test_token_fuzz);
	suite_add_tcase(s, tc);

	tc = tcase_create("create once");
	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, test_create_once);
	tcase_add_test(tc, test_create_once_race);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	if (sodium_init() < 0)
		return EXIT_FAILURE;
	SRunner *sr = srunner_create(token_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
