/*
 * check_form.c - the decoders of what a browser sends: a POST's or a
 * query's form (a table of cases, limits, numbers, content types) and
 * the Cookie header, each with a seeded fuzz loop (run them under
 * --enable-sanitizers).  The rest of the web's building blocks:
 * check_web.c.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "input.h"
#include "seeded.h"

/* ---- forms ----------------------------------------------------------- */

/* The fields of f as "k=v|k=v" (for comparing with the table). */
static void fields(const form *f, char *buf, size_t cap)
{
	size_t n = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; i < f->n && n < cap; i++)
		n += (size_t)snprintf(buf + n, cap - n, "%s%s=%s", i ? "|" : "",
		                      f->buf + f->f[i].key, f->buf + f->f[i].value);
}

static const struct {
	const char *id, *in;
	form_rc rc;
	const char *want;   /* fields, or the why text on error */
} form_cases[] = {
	{ "empty", "", FORM_OK, "" },
	{ "one", "a=1", FORM_OK, "a=1" },
	{ "two", "a=1&b=two", FORM_OK, "a=1|b=two" },
	{ "plus is space", "name=Tom+Jones", FORM_OK, "name=Tom Jones" },
	{ "percent", "q=%41%62%2B%26%3d", FORM_OK, "q=Ab+&=" },
	{ "encoded key", "se%61t=3", FORM_OK, "seat=3" },
	{ "utf8 escaped", "n=Zo%C3%AB", FORM_OK, "n=Zo\xC3\xAB" },
	{ "utf8 raw", "n=Zo\xC3\xAB", FORM_OK, "n=Zo\xC3\xAB" },
	{ "newline tab cr", "t=a%0D%0Ab%09c", FORM_OK, "t=a\r\nb\tc" },
	{ "repeated", "c=1&c=2&d=x&c=3", FORM_OK, "c=1|c=2|d=x|c=3" },
	{ "no equals", "flag&a=1", FORM_OK, "flag=|a=1" },
	{ "empty value", "a=&b", FORM_OK, "a=|b=" },
	{ "empty pairs", "&a=1&&b=2&", FORM_OK, "a=1|b=2" },
	{ "only ampersands", "&&&", FORM_OK, "" },
	{ "second equals", "a=b=c", FORM_OK, "a=b=c" },
	{ "truncated escape", "a=%4", FORM_BAD_ESCAPE,
	  "field 1: bad escape at byte 2" },
	{ "escape at end", "a=1&b=%", FORM_BAD_ESCAPE,
	  "field 2: bad escape at byte 6" },
	{ "bad hex", "a=%zz", FORM_BAD_ESCAPE,
	  "field 1: bad escape at byte 2" },
	{ "bad second hex", "a=%4g", FORM_BAD_ESCAPE,
	  "field 1: bad escape at byte 2" },
	{ "escape cut by &", "a=%4&b=1", FORM_BAD_ESCAPE,
	  "field 1: bad escape at byte 2" },
	{ "nul escape", "a=x%00", FORM_BAD_ESCAPE,
	  "field 1: bad escape at byte 3" },
	{ "bad escape in key", "%zz=1", FORM_BAD_ESCAPE,
	  "field 1: bad escape at byte 0" },
	{ "bad utf8", "a=%FF", FORM_BAD_TEXT,
	  "field 1: value is not UTF-8 text without control characters" },
	{ "overlong utf8", "a=%C0%AF", FORM_BAD_TEXT,
	  "field 1: value is not UTF-8 text without control characters" },
	{ "surrogate", "a=%ED%A0%80", FORM_BAD_TEXT,
	  "field 1: value is not UTF-8 text without control characters" },
	{ "cut utf8", "a=%C3", FORM_BAD_TEXT,
	  "field 1: value is not UTF-8 text without control characters" },
	{ "control", "a=1&b=%07", FORM_BAD_TEXT,
	  "field 2: value is not UTF-8 text without control characters" },
	{ "del", "a=%7F", FORM_BAD_TEXT,
	  "field 1: value is not UTF-8 text without control characters" },
	{ "c1 control", "a=%C2%85", FORM_BAD_TEXT,
	  "field 1: value is not UTF-8 text without control characters" },
	{ "empty key", "=1", FORM_BAD_KEY,
	  "field 1: name must be 1 to 32 printable ASCII bytes" },
	{ "space in key", "a+b=1", FORM_BAD_KEY,
	  "field 1: name must be 1 to 32 printable ASCII bytes" },
	{ "utf8 key", "%C3%AB=1", FORM_BAD_KEY,
	  "field 1: name must be 1 to 32 printable ASCII bytes" },
};

static void parse_ok(form *f, const char *in, size_t len)
{
	char why[FORM_WHY_MAX];

	ck_assert_msg(form_parse(f, in, len, why, sizeof why) == FORM_OK,
	              "%s", why);
}

START_TEST(test_form_table)
{
	char why[FORM_WHY_MAX] = "untouched", got[512];
	const char *in = form_cases[_i].in;
	form f;
	form_rc rc;

	rc = form_parse(&f, in, strlen(in), why, sizeof why);
	ck_assert_msg(rc == form_cases[_i].rc, "%s: rc %d (%s)",
	              form_cases[_i].id, rc, why);
	if (rc == FORM_OK) {
		fields(&f, got, sizeof got);
		ck_assert_str_eq(why, "");
	} else {
		ck_assert_int_eq(f.n, 0);
		snprintf(got, sizeof got, "%s", why);
	}
	ck_assert_msg(strcmp(got, form_cases[_i].want) == 0, "%s: got '%s'",
	              form_cases[_i].id, got);
}
END_TEST

START_TEST(test_form_get)
{
	static const char in[] = "c=1&c=2&d=x&c=3&e";
	form f, copy;

	parse_ok(&f, in, sizeof in - 1);
	ck_assert_str_eq(form_get(&f, "c"), "1");
	ck_assert_str_eq(form_get_nth(&f, "c", 1), "2");
	ck_assert_str_eq(form_get_nth(&f, "c", 2), "3");
	ck_assert_ptr_null(form_get_nth(&f, "c", 3));
	ck_assert_ptr_null(form_get_nth(&f, "c", -1));
	ck_assert_int_eq(form_count(&f, "c"), 3);
	ck_assert_int_eq(form_count(&f, "d"), 1);
	ck_assert_int_eq(form_count(&f, "zz"), 0);
	ck_assert_str_eq(form_get(&f, "e"), "");
	ck_assert_ptr_null(form_get(&f, "C"));
	ck_assert_ptr_null(form_get(&f, NULL));
	/* offsets, not pointers: a copy is as good as the original */
	memcpy(&copy, &f, sizeof f);
	memset(&f, 0x55, sizeof f);
	ck_assert_str_eq(form_get(&copy, "d"), "x");
	/* a NULL input of length 0 is an empty form */
	parse_ok(&f, NULL, 0);
	ck_assert_int_eq(f.n, 0);
}
END_TEST

/* Builds count copies of piece joined by sep into buf; returns its length. */
static size_t repeat(char *buf, size_t cap, const char *piece, int count,
                     const char *sep)
{
	size_t n = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; i < count; i++)
		n += (size_t)snprintf(buf + n, cap - n, "%s%s", i ? sep : "",
		                      piece);
	ck_assert_uint_lt(n, cap);
	return n;
}

START_TEST(test_form_limits)
{
	static char in[FORM_BODY_MAX * 4];
	char why[FORM_WHY_MAX];
	form f;
	size_t n;

	/* fields: 64 fine, 65 refused */
	n = repeat(in, sizeof in, "a=1", FORM_FIELDS_MAX, "&");
	parse_ok(&f, in, n);
	ck_assert_int_eq(form_count(&f, "a"), FORM_FIELDS_MAX);
	n = repeat(in, sizeof in, "a=1", FORM_FIELDS_MAX + 1, "&");
	ck_assert_int_eq(form_parse(&f, in, n, why, sizeof why),
	                 FORM_TOO_MANY);
	ck_assert_str_eq(why, "over 64 fields");
	ck_assert_int_eq(f.n, 0);
	/* empty pairs do not count */
	n = repeat(in, sizeof in, "a", FORM_FIELDS_MAX, "&&&");
	parse_ok(&f, in, n);

	/* keys: 32 bytes fine, 33 refused, decoded length counts */
	n = repeat(in, sizeof in, "k", FORM_KEY_MAX, "");
	parse_ok(&f, in, n);
	n = repeat(in, sizeof in, "k", FORM_KEY_MAX + 1, "");
	ck_assert_int_eq(form_parse(&f, in, n, why, sizeof why),
	                 FORM_BAD_KEY);
	n = repeat(in, sizeof in, "%6B", FORM_KEY_MAX, "");
	parse_ok(&f, in, n);
	ck_assert_int_eq(f.n, 1);

	/* values: 2048 decoded bytes fine (even from 6144 encoded), 2049 not */
	memcpy(in, "v=", 2);
	n = 2 + repeat(in + 2, sizeof in - 2, "x", FORM_VALUE_MAX, "");
	parse_ok(&f, in, n);
	ck_assert_uint_eq(strlen(form_get(&f, "v")), FORM_VALUE_MAX);
	n = 2 + repeat(in + 2, sizeof in - 2, "%41", FORM_VALUE_MAX, "");
	parse_ok(&f, in, n);
	ck_assert_uint_eq(strlen(form_get(&f, "v")), FORM_VALUE_MAX);
	n = 2 + repeat(in + 2, sizeof in - 2, "x", FORM_VALUE_MAX + 1, "");
	ck_assert_int_eq(form_parse(&f, in, n, why, sizeof why),
	                 FORM_VALUE_TOO_LONG);
	ck_assert_str_eq(why, "field 1: value over 2048 bytes");

	/* the whole body: 16 KiB fine, one more byte refused */
	memset(in, 'b', FORM_BODY_MAX + 1);
	for (n = 0; n + 1000 < FORM_BODY_MAX; n += 1000)
		memcpy(in + n, "&v=", 3);
	parse_ok(&f, in, FORM_BODY_MAX);
	ck_assert_int_eq(form_parse(&f, in, FORM_BODY_MAX + 1, why,
	                            sizeof why), FORM_TOO_LONG);
	ck_assert_str_eq(why, "input over 16384 bytes");

	/* the worst case for buf: 64 one-byte keys without values, the rest
	 * one big value */
	n = repeat(in, sizeof in, "k", FORM_FIELDS_MAX - 1, "&");
	in[n++] = '&';
	in[n++] = 'v';
	in[n++] = '=';
	memset(in + n, 'x', FORM_VALUE_MAX);
	parse_ok(&f, in, n + FORM_VALUE_MAX);
	ck_assert_int_eq(f.n, FORM_FIELDS_MAX);
}
END_TEST

static const struct {
	const char *in;
	int64_t min, max;
	form_rc rc;
	int64_t want;
} int_cases[] = {
	{ "n=0", 0, 10, FORM_OK, 0 },
	{ "n=6", 1, 6, FORM_OK, 6 },
	{ "n=7", 1, 6, FORM_BAD_NUMBER, 0 },
	{ "n=-3", -5, 5, FORM_OK, -3 },
	{ "n=-0", -5, 5, FORM_BAD_NUMBER, 0 },
	{ "n=007", 0, 10, FORM_BAD_NUMBER, 0 },
	{ "n=+1", 0, 10, FORM_BAD_NUMBER, 0 },
	{ "n=1+", 0, 10, FORM_BAD_NUMBER, 0 },
	{ "n=", 0, 10, FORM_BAD_NUMBER, 0 },
	{ "n=-", -10, 10, FORM_BAD_NUMBER, 0 },
	{ "n=1x", 0, 10, FORM_BAD_NUMBER, 0 },
	{ "n=9223372036854775807", INT64_MIN, INT64_MAX, FORM_OK, INT64_MAX },
	{ "n=9223372036854775808", INT64_MIN, INT64_MAX, FORM_BAD_NUMBER, 0 },
	{ "n=-9223372036854775808", INT64_MIN, INT64_MAX, FORM_OK, INT64_MIN },
	{ "n=-9223372036854775809", INT64_MIN, INT64_MAX, FORM_BAD_NUMBER, 0 },
	{ "n=99999999999999999999999", INT64_MIN, INT64_MAX,
	  FORM_BAD_NUMBER, 0 },
	{ "m=1", 0, 10, FORM_MISSING, 0 },
};

START_TEST(test_form_int)
{
	form f;
	int64_t v = 12345;
	form_rc rc;

	parse_ok(&f, int_cases[_i].in, strlen(int_cases[_i].in));
	rc = form_get_int(&f, "n", int_cases[_i].min, int_cases[_i].max, &v);
	ck_assert_msg(rc == int_cases[_i].rc, "%s: rc %d", int_cases[_i].in,
	              rc);
	ck_assert(v == (rc == FORM_OK ? int_cases[_i].want : 12345));
}
END_TEST

START_TEST(test_form_content_type)
{
	ck_assert(form_is_urlencoded("application/x-www-form-urlencoded"));
	ck_assert(form_is_urlencoded("Application/X-WWW-Form-URLEncoded"));
	ck_assert(form_is_urlencoded(
		"application/x-www-form-urlencoded; charset=UTF-8"));
	ck_assert(form_is_urlencoded(" application/x-www-form-urlencoded "));
	ck_assert(!form_is_urlencoded("application/x-www-form-urlencodedx"));
	ck_assert(!form_is_urlencoded("multipart/form-data; boundary=x"));
	ck_assert(!form_is_urlencoded("text/plain"));
	ck_assert(!form_is_urlencoded(""));
	ck_assert(!form_is_urlencoded(NULL));
	ck_assert_str_eq(form_rc_text(FORM_TOO_MANY), "too many fields");
	ck_assert_str_eq(form_rc_text((form_rc)99), "unknown error");
}
END_TEST

START_TEST(test_form_fuzz)
{
	static const char *const pieces[] = {
		"%", "%4", "%41", "%00", "%C3", "%AB", "%FF", "%0A", "+", "&",
		"=", "a", "b", "key", "\xC3\xAB", "\xFF", "\x01", "&&", "%zz",
	};
	char in[512], why[FORM_WHY_MAX];
	size_t len, pl;
	form f;
	int round, i, k, ok = 0;

	seeded_start(0x5eed0003);
	for (round = 0; round < 10000; round++) {
		len = 0;
		for (k = (int)seeded_below(40); k > 0; k--) {
			const char *p = pieces[seeded_below(sizeof pieces /
			                           sizeof pieces[0])];
			pl = strlen(p);
			if (len + pl > sizeof in)
				break;
			memcpy(in + len, p, pl);
			len += pl;
		}
		why[0] = '\0';
		if (form_parse(&f, in, len, why, sizeof why) != FORM_OK) {
			ck_assert_int_eq(f.n, 0);
			ck_assert_int_ne(why[0], '\0');
			continue;
		}
		ok++;
		ck_assert_int_le(f.n, FORM_FIELDS_MAX);
		for (i = 0; i < f.n; i++) {
			const char *key = f.buf + f.f[i].key;
			const char *val = f.buf + f.f[i].value;
			ck_assert_uint_ge(strlen(key), 1);
			ck_assert_uint_le(strlen(key), FORM_KEY_MAX);
			ck_assert_uint_eq(strlen(val), f.f[i].vlen);
			ck_assert(seeded_valid_utf8((const unsigned char *)val,
			                     f.f[i].vlen));
			ck_assert_ptr_nonnull(form_get(&f, key));
		}
	}
	ck_assert_int_gt(ok, 200);
}
END_TEST

/* ---- cookies --------------------------------------------------------- */

static const struct {
	const char *header, *name;
	cookie_rc rc;
	const char *want;
} cookie_cases[] = {
	{ "a=b; c=d", "a", COOKIE_OK, "b" },
	{ "a=b; c=d", "c", COOKIE_OK, "d" },
	{ "a=b;c=d", "c", COOKIE_OK, "d" },
	{ "  a = b  ;\tc=d", "a", COOKIE_OK, "b" },
	{ "a=1; a=2", "a", COOKIE_OK, "1" },
	{ "aa=1; a=2", "a", COOKIE_OK, "2" },
	{ "A=1; a=2", "a", COOKIE_OK, "2" },
	{ "a=\"quoted\"", "a", COOKIE_OK, "quoted" },
	{ "a=", "a", COOKIE_OK, "" },
	{ "flag; a=x", "a", COOKIE_OK, "x" },
	{ "a=b=c", "a", COOKIE_OK, "b=c" },
	{ "t=AbC-_09", "t", COOKIE_OK, "AbC-_09" },
	{ "a=b", "c", COOKIE_ABSENT, "" },
	{ "", "a", COOKIE_ABSENT, "" },
	{ NULL, "a", COOKIE_ABSENT, "" },
	{ "a=b c", "a", COOKIE_BAD, "" },
	{ "a=b\\c", "a", COOKIE_BAD, "" },
	{ "a=b,c", "a", COOKIE_BAD, "" },
	{ "a=\"b", "a", COOKIE_BAD, "" },
	{ "a=\xC3\xAB", "a", COOKIE_BAD, "" },
	{ "a=0123456789abcdef", "a", COOKIE_TOO_LONG, "" },
};

START_TEST(test_cookie_get)
{
	char got[16] = "junk";
	cookie_rc rc;

	rc = cookie_get(cookie_cases[_i].header, cookie_cases[_i].name, got,
	                sizeof got);
	ck_assert_msg(rc == cookie_cases[_i].rc, "'%s': rc %d",
	              cookie_cases[_i].header, rc);
	ck_assert_str_eq(got, cookie_cases[_i].want);
}
END_TEST

START_TEST(test_cookie_limits_and_format)
{
	static char header[COOKIE_HEADER_MAX + 2];
	char got[COOKIE_VALUE_MAX], buf[256];

	/* a long header is searched to its end ... */
	memset(header, 'x', COOKIE_HEADER_MAX);
	memcpy(header, "p=", 2);
	memcpy(header + COOKIE_HEADER_MAX - 6, "; a=b", 5);
	header[COOKIE_HEADER_MAX - 1] = 'c';
	header[COOKIE_HEADER_MAX] = '\0';
	ck_assert_int_eq(cookie_get(header, "a", got, sizeof got), COOKIE_OK);
	ck_assert_str_eq(got, "bc");
	/* ... and one byte more is refused whole, never cut */
	header[COOKIE_HEADER_MAX] = 'd';
	header[COOKIE_HEADER_MAX + 1] = '\0';
	ck_assert_int_eq(cookie_get(header, "a", got, sizeof got),
	                 COOKIE_TOO_LONG);
	ck_assert_str_eq(got, "");

	ck_assert_int_eq(cookie_format(buf, sizeof buf, "bt_seat", "AbC-_9",
	                               "/game/x", 2592000, 1), 0);
	ck_assert_str_eq(buf, "bt_seat=AbC-_9; Path=/game/x; Max-Age=2592000;"
	                 " HttpOnly; SameSite=Lax; Secure");
	ck_assert_int_eq(cookie_format(buf, sizeof buf, "s", "v", NULL, -1, 0),
	                 0);
	ck_assert_str_eq(buf, "s=v; HttpOnly; SameSite=Lax");
	ck_assert_int_eq(cookie_format(buf, sizeof buf, "s", "", "/", 0, 0),
	                 0);
	ck_assert_str_eq(buf, "s=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax");
	/* what would break the header is refused */
	ck_assert_int_eq(cookie_format(buf, sizeof buf, "s", "a;b", "/", 0, 0),
	                 -1);
	ck_assert_str_eq(buf, "");
	ck_assert_int_eq(cookie_format(buf, sizeof buf, "s", "a\r\nX: y", "/",
	                               0, 0), -1);
	ck_assert_int_eq(cookie_format(buf, sizeof buf, "s=t", "v", "/", 0, 0),
	                 -1);
	ck_assert_int_eq(cookie_format(buf, sizeof buf, "", "v", "/", 0, 0),
	                 -1);
	ck_assert_int_eq(cookie_format(buf, sizeof buf, "s", "v", "/a;b", 0,
	                               0), -1);
	ck_assert_int_eq(cookie_format(buf, sizeof buf, "s", "v", "/\n", 0, 0),
	                 -1);
	ck_assert_int_eq(cookie_format(buf, sizeof buf, "s", NULL, "/", 0, 0),
	                 -1);
	/* too small: refused, not cut */
	ck_assert_int_eq(cookie_format(buf, 20, "s", "v", "/", 0, 0), -1);
	ck_assert_str_eq(buf, "");
}
END_TEST

START_TEST(test_cookie_fuzz)
{
	char header[128], got[32];
	size_t i, n;
	int round;
	cookie_rc rc;

	seeded_start(0x5eed0004);
	for (round = 0; round < 10000; round++) {
		n = seeded_below(sizeof header);
		for (i = 0; i < n; i++)
			header[i] = seeded_below(3)
			            ? "a=; \"\t,x"[seeded_below(8)]
			            : (char)(seeded_below(255) + 1);
		header[n] = '\0';
		rc = cookie_get(header, "a", got, sizeof got);
		ck_assert(rc == COOKIE_OK || got[0] == '\0');
		ck_assert_uint_lt(strlen(got), sizeof got);
		ck_assert_ptr_null(strpbrk(got, " ;,\"\\\t"));
	}
}
END_TEST

#define N(a) ((int)(sizeof a / sizeof a[0]))

static Suite *form_suite(void)
{
	Suite *s = suite_create("form");
	TCase *tc;

	tc = tcase_create("form");
	tcase_add_loop_test(tc, test_form_table, 0, N(form_cases));
	tcase_add_test(tc, test_form_get);
	tcase_add_test(tc, test_form_limits);
	tcase_add_loop_test(tc, test_form_int, 0, N(int_cases));
	tcase_add_test(tc, test_form_content_type);
	tcase_add_test(tc, test_form_fuzz);
	tcase_add_loop_test(tc, test_cookie_get, 0, N(cookie_cases));
	tcase_add_test(tc, test_cookie_limits_and_format);
	tcase_add_test(tc, test_cookie_fuzz);
	suite_add_tcase(s, tc);

	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(form_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
