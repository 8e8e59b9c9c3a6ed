/*
 * check_talk.c - the words of the table page between moves: spans of
 * time for people (cgi/since.c) and what a chat message may hold
 * (cgi/talk_text.c), as tables of inputs and the answers they must get,
 * the names talk_clean_name leaves (each hidden character dropped),
 * plus a fuzz run of talk_clean (whatever comes in, what comes out is
 * valid UTF-8 within the bound, with no control character but LF).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "since.h"
#include "record.h"
#include "talk.h"
#include "utf8.h"

#define N(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* ---- since_words, since_iso -------------------------------------------- */

static const struct {
	int64_t secs;
	const char *want;
} spans[] = {
	{ -5, "less than a minute" },
	{ 0, "less than a minute" },
	{ 59, "less than a minute" },
	{ 60, "1 minute" },
	{ 119, "1 minute" },
	{ 120, "2 minutes" },
	{ 3599, "59 minutes" },
	{ 3600, "1 hour" },
	{ 7200, "2 hours" },
	{ 86399, "23 hours" },
	{ 86400, "1 day" },
	{ 2 * 86400 + 3 * 3600, "2 days" },
	{ 400 * 86400, "400 days" },
	{ INT64_MAX, "106751991167300 days" },
};

START_TEST(test_since_words)
{
	char buf[SINCE_MAX];

	ck_assert_str_eq(since_words(spans[_i].secs, buf, sizeof buf),
	                 spans[_i].want);
}
END_TEST

START_TEST(test_since_small_buffers)
{
	char buf[4] = "xyz";

	ck_assert_str_eq(since_words(7200, buf, sizeof buf), "2 h");
	memcpy(buf, "xyz", 4);
	ck_assert_str_eq(since_words(7200, buf, 0), "xyz");
	ck_assert_str_eq(since_iso(0, buf, 0), "xyz");
}
END_TEST

START_TEST(test_since_iso)
{
	char buf[SINCE_ISO_MAX];

	ck_assert_str_eq(since_iso(0, buf, sizeof buf), "1970-01-01T00:00:00Z");
	ck_assert_str_eq(since_iso(1700000000, buf, sizeof buf),
	                 "2023-11-14T22:13:20Z");
}
END_TEST

/* ---- talk_clean ---------------------------------------------------------- */

enum { MAX = 10 };     /* a small bound, to test it */

static const struct {
	const char *in;
	talk_rc rc;
	const char *want;
} talks[] = {
	{ "hello", TALK_OK, "hello" },
	{ "<b>&\"'", TALK_OK, "<b>&\"'" },      /* escaped when written */
	{ "  hi  ", TALK_OK, "hi" },
	{ "a\tb", TALK_OK, "a b" },
	{ "a\r\nb", TALK_OK, "a\nb" },
	{ "a\rb", TALK_OK, "a\nb" },
	{ "a \n b", TALK_OK, "a\n b" },
	{ "a\n\n\n\nb", TALK_OK, "a\n\nb" },
	{ "\n\na\n\n", TALK_OK, "a" },
	{ "", TALK_EMPTY, "" },
	{ " \t\r\n ", TALK_EMPTY, "" },
	{ "\xe2\x80\xae", TALK_EMPTY, "" },              /* U+202E only */
	{ "ab\xe2\x80\xae" "cd", TALK_OK, "abcd" },      /* RLO dropped */
	{ "a\xe2\x81\xa6z", TALK_OK, "az" },             /* U+2066 LRI */
	{ "a\xe2\x80\x8fz", TALK_OK, "a\xe2\x80\x8fz" }, /* RLM stays */
	{ "0123456789", TALK_OK, "0123456789" },
	{ "0123456789   ", TALK_OK, "0123456789" },   /* trailing blanks */
	{ "01234567890", TALK_TOO_LONG, "" },
	{ "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9", TALK_OK,
	  "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9" },  /* 5 x é: 10 bytes */
	{ "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9x", TALK_TOO_LONG, "" },
	{ "a\x01", TALK_BAD_TEXT, "" },
	{ "a\x7f", TALK_BAD_TEXT, "" },
	{ "a\xc2\x85", TALK_BAD_TEXT, "" },              /* C1 NEL */
	{ "a\xff", TALK_BAD_TEXT, "" },
	{ "a\xc3", TALK_BAD_TEXT, "" },                  /* cut short */
	{ "\xed\xa0\x80", TALK_BAD_TEXT, "" },           /* a surrogate */
	{ "\xc0\xaf", TALK_BAD_TEXT, "" },               /* overlong */
};

START_TEST(test_talk_clean)
{
	char out[MAX + 1];

	memset(out, 'x', sizeof out);
	ck_assert_int_eq(talk_clean(talks[_i].in, out, sizeof out, MAX),
	                 talks[_i].rc);
	ck_assert_str_eq(out, talks[_i].want);
}
END_TEST

START_TEST(test_talk_bounds)
{
	char out[MAX];

	/* the buffer must hold max bytes and the NUL */
	ck_assert_int_eq(talk_clean("a", out, sizeof out, MAX), TALK_TOO_LONG);
	ck_assert_str_eq(out, "");
	ck_assert_int_eq(talk_clean("a", out, 0, 0), TALK_TOO_LONG);
}
END_TEST

/* ---- talk_clean_name --------------------------------------------------- */

/* Every invisible or reordering character a name must lose: bidi
 * embeddings, overrides, isolates and marks, zero-width ones, the BOM,
 * C0, DEL and C1 controls. */
static const char *const hidden[] = {
	"\xe2\x80\xaa", "\xe2\x80\xab", "\xe2\x80\xac", "\xe2\x80\xad",
	"\xe2\x80\xae",                                   /* U+202A..202E */
	"\xe2\x81\xa6", "\xe2\x81\xa7", "\xe2\x81\xa8", "\xe2\x81\xa9",
	"\xe2\x80\x8e", "\xe2\x80\x8f", "\xd8\x9c",       /* LRM RLM ALM */
	"\xe2\x80\x8b", "\xe2\x80\x8c", "\xe2\x80\x8d",  /* U+200B..D */
	"\xe2\x81\xa0", "\xef\xbb\xbf", "\xc2\xad",       /* WJ BOM SHY */
	"\x01", "\x1b", "\x1f", "\x7f", "\xc2\x80", "\xc2\x85", "\xc2\x9f",
	"\xf3\xa0\x80\x81",                              /* U+E0001 tag */
};

START_TEST(test_name_hidden)
{
	char in[64], out[BT_NAME_BYTES_MAX + 1];

	snprintf(in, sizeof in, "Ann%sBob", hidden[_i]);
	ck_assert_int_eq(talk_clean_name(in, out, sizeof out), TALK_OK);
	ck_assert_str_eq(out, "AnnBob");
	snprintf(in, sizeof in, "%s%s", hidden[_i], hidden[_i]);
	ck_assert_int_eq(talk_clean_name(in, out, sizeof out), TALK_EMPTY);
	ck_assert_str_eq(out, "");
}
END_TEST

static const struct {
	const char *in;
	talk_rc rc;
	const char *want;
} names[] = {
	{ "Beckett", TALK_OK, "Beckett" },
	{ "<b>&\"'", TALK_OK, "<b>&\"'" },       /* escaped when written */
	{ "  Ann  Lee \t", TALK_OK, "Ann Lee" },
	{ "Ann\tLee", TALK_OK, "Ann Lee" },
	{ "Ann\r\nLee", TALK_OK, "Ann Lee" },
	{ "\xe2\x80\xae Ann", TALK_OK, "Ann" },   /* no space left in front */
	{ "Ann \xe2\x80\x8b Lee", TALK_OK, "Ann Lee" },
	{ "\xc3\xa9mile \xf0\x9f\x98\x80", TALK_OK, "\xc3\xa9mile \xf0\x9f\x98\x80" },
	{ "", TALK_EMPTY, "" },
	{ " \t\r\n", TALK_EMPTY, "" },
	{ "\xe2\x80\xae\xe2\x80\x8f \xef\xbb\xbf", TALK_EMPTY, "" },
	{ "0123456789012345678901234567890123456789", TALK_OK,
	  "0123456789012345678901234567890123456789" },      /* 40 */
	{ "0123456789012345678901234567890123456789\xe2\x80\xae", TALK_OK,
	  "0123456789012345678901234567890123456789" },
	{ "01234567890123456789012345678901234567890", TALK_TOO_LONG, "" },
	{ "a\xff", TALK_BAD_TEXT, "" },
	{ "a\xc3", TALK_BAD_TEXT, "" },
	{ "\xed\xa0\x80", TALK_BAD_TEXT, "" },
};

START_TEST(test_name_clean)
{
	char out[BT_NAME_BYTES_MAX + 1];

	memset(out, 'x', sizeof out);
	ck_assert_int_eq(talk_clean_name(names[_i].in, out, sizeof out),
	                 names[_i].rc);
	ck_assert_str_eq(out, names[_i].want);
}
END_TEST

START_TEST(test_name_bounds)
{
	char out[8];

	/* 40 characters of 4 bytes each need BT_NAME_BYTES_MAX + 1 */
	ck_assert_int_eq(talk_clean_name("abcdefgh", out, sizeof out),
	                 TALK_TOO_LONG);
	ck_assert_str_eq(out, "");
	ck_assert_int_eq(talk_clean_name("abc", out, sizeof out), TALK_OK);
	ck_assert_int_eq(talk_clean_name("a", out, 0), TALK_TOO_LONG);
}
END_TEST

/* 1 if s is valid UTF-8 with no control character but LF. */
static int clean_text(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = strlen(s), i = 0, k;

	while (i < n) {
		if ((k = utf8_seq(p + i, n - i)) == 0)
			return 0;
		if (k == 1 && ((p[i] < 0x20 && p[i] != '\n') || p[i] == 0x7F))
			return 0;
		if (k == 2 && p[i] == 0xC2 && p[i + 1] < 0xA0)
			return 0;
		i += k;
	}
	return 1;
}

START_TEST(test_talk_fuzz)
{
	static const char pieces[][5] = {
		"a", " ", "\t", "\r", "\n", "\xc3\xa9", "\xe2\x80\xae", "\x01",
		"\xc2\x85", "\xff", "\xf0\x9f\x98\x80", "<", "\xe2\x81\xa9",
	};
	char in[64], out[MAX + 1];

	srand(12345);
	for (int round = 0; round < 20000; round++) {
		size_t len = 0;
		int n = rand() % 12;
		for (int j = 0; j < n; j++) {
			const char *p = pieces[rand() % N(pieces)];
			memcpy(in + len, p, strlen(p));
			len += strlen(p);
		}
		in[len] = '\0';
		talk_rc rc = talk_clean(in, out, sizeof out, MAX);
		ck_assert(strlen(out) <= MAX);
		if (rc == TALK_OK) {
			ck_assert_msg(clean_text(out), "round %d", round);
			ck_assert(out[0] != ' ' && out[0] != '\n');
			ck_assert(out[strlen(out) - 1] != ' ' &&
			          out[strlen(out) - 1] != '\n');
			ck_assert(strstr(out, "\n\n\n") == NULL);
		} else {
			ck_assert_str_eq(out, "");
		}
	}
}
END_TEST

static Suite *talk_suite(void)
{
	Suite *s = suite_create("talk");
	TCase *tc = tcase_create("since");

	tcase_add_loop_test(tc, test_since_words, 0, N(spans));
	tcase_add_test(tc, test_since_small_buffers);
	tcase_add_test(tc, test_since_iso);
	suite_add_tcase(s, tc);
	tc = tcase_create("talk");
	tcase_add_loop_test(tc, test_talk_clean, 0, N(talks));
	tcase_add_test(tc, test_talk_bounds);
	tcase_add_test(tc, test_talk_fuzz);
	suite_add_tcase(s, tc);
	tc = tcase_create("name");
	tcase_add_loop_test(tc, test_name_hidden, 0, N(hidden));
	tcase_add_loop_test(tc, test_name_clean, 0, N(names));
	tcase_add_test(tc, test_name_bounds);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(talk_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
