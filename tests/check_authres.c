/*
 * check_authres.c - Authentication-Results read as RFC 8601 says
 * (mail/authres.c): the authserv-id and version, results with their
 * properties, comments (nested) and quoted strings that hide no result,
 * whole keywords, malformed resinfos skipped, the bounds.
 */
#include <stdio.h>
#include <string.h>

#include <check.h>

#include "authres.h"

static authres a;

static int parse(const char *s)
{
	return authres_parse(s, strlen(s), &a);
}

START_TEST(test_results_and_properties)
{
	ck_assert_int_eq(parse("mx.example.org;\n\tdkim=pass header.d="
	                       "example.org header.s=sel; DMARC=Pass (p=reject "
	                       "dis=none) header.from=Example.org"), 0);
	ck_assert_str_eq(a.authserv_id, "mx.example.org");
	ck_assert_int_eq(a.version, 1);
	ck_assert_int_eq(a.n_results, 2);
	ck_assert_int_eq(a.skipped, 0);
	ck_assert_str_eq(a.results[0].method, "dkim");
	ck_assert_int_eq(a.results[0].n_props, 2);
	ck_assert_str_eq(authres_prop_value(&a.results[0], "header", "s"), "sel");
	ck_assert_str_eq(a.results[1].method, "dmarc");
	ck_assert_str_eq(a.results[1].result, "pass");
	ck_assert_str_eq(authres_prop_value(&a.results[1], "header", "from"),
	                 "Example.org");
	ck_assert_ptr_null(authres_prop_value(&a.results[1], "smtp", "from"));
}
END_TEST

START_TEST(test_version_none_and_no_id)
{
	ck_assert_int_eq(parse(" (ours) \"mx.example.org\" 1 ; none"), 0);
	ck_assert_str_eq(a.authserv_id, "mx.example.org");
	ck_assert_int_eq(a.version, 1);
	ck_assert_int_eq(a.n_results, 0);
	ck_assert_int_eq(a.skipped, 0);
	ck_assert_int_eq(parse("mx 2; spf/1=pass smtp.mailfrom=\"a b\"@c.d"), 0);
	ck_assert_int_eq(a.version, 2);
	ck_assert_str_eq(authres_prop_value(&a.results[0], "smtp",
	                                    "mailfrom"), "a b@c.d");
	ck_assert_int_eq(parse("; dmarc=pass"), -1);
	ck_assert_int_eq(parse(""), -1);
	ck_assert_int_eq(parse("(only a comment)"), -1);
	ck_assert_int_eq(parse("\"\"; dmarc=pass"), -1);
}
END_TEST

/* The forgeries of issue 24: none is a DMARC pass. */
START_TEST(test_no_pass_in_comments_quotes_or_longer_words)
{
	ck_assert_int_eq(parse("mx; dkim=fail (a (b; dmarc=pass) c; "
	                       "dmarc=pass) header.d=x.y"), 0);
	ck_assert_int_eq(a.n_results, 1);
	ck_assert_str_eq(a.results[0].method, "dkim");
	ck_assert_int_eq(parse("mx; dkim=fail reason=\"bad; dmarc=pass\" "
	                       "header.d=x.y"), 0);
	ck_assert_int_eq(a.n_results, 1);
	ck_assert_str_eq(a.results[0].method, "dkim");
	ck_assert_int_eq(parse("mx; dmarc=passed header.from=x.y"), 0);
	ck_assert_str_eq(a.results[0].result, "passed");
	ck_assert_int_eq(parse("mx; spf=fail smtp.mailfrom=dmarc=pass"), 0);
	ck_assert_int_eq(a.n_results, 0);
	ck_assert_int_eq(a.skipped, 1);
	ck_assert_int_eq(parse("mx (dmarc=pass); dmarc=fail"), 0);
	ck_assert_int_eq(a.n_results, 1);
	ck_assert_str_eq(a.results[0].result, "fail");
}
END_TEST

START_TEST(test_malformed_resinfos_are_skipped)
{
	ck_assert_int_eq(parse("mx; dmarc; x-tls=pass version=TLSv1.3; "
	                       "spf=pass smtp.mailfrom=a@b (\"unclosed; "
	                       "comment"), 0);
	ck_assert_int_eq(a.skipped, 2);
	ck_assert_int_eq(a.n_results, 1);
	ck_assert_str_eq(a.results[0].method, "spf");
	ck_assert_int_eq(parse("mx junk; dmarc=pass"), 0);
	ck_assert_int_eq(a.skipped, 1);
	ck_assert_int_eq(a.n_results, 1);
	ck_assert_int_eq(parse("mx; dkim=pass reason=\"unclosed; dmarc=pass"),
	                 0);
	ck_assert_int_eq(a.n_results, 0);
}
END_TEST

START_TEST(test_bounds)
{
	char s[2048];
	size_t k = (size_t)snprintf(s, sizeof s, "mx");

	for (int i = 0; i < AUTHRES_RESULTS_MAX + 4; i++)
		k += (size_t)snprintf(s + k, sizeof s - k, "; m%d=pass", i);
	ck_assert_int_eq(parse(s), 0);
	ck_assert_int_eq(a.n_results, AUTHRES_RESULTS_MAX);
	ck_assert_int_eq(a.skipped, 4);
	memset(s, 'a', 300);
	memcpy(s + 300, "; dmarc=pass", 13);
	ck_assert_int_eq(parse(s), -1);   /* an id over its bound */
	ck_assert_int_eq(parse("mx; dmarc=pass header.from="
	                       "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
	                       "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
	                       "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
	                       "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
	                       "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
	                       "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"),
	                 0);
	ck_assert_int_eq(a.n_results, 0);   /* a value over its bound */
	ck_assert_int_eq(a.skipped, 1);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("authres");
	TCase *tc = tcase_create("parse");
	SRunner *sr;
	int failed;

	tcase_add_test(tc, test_results_and_properties);
	tcase_add_test(tc, test_version_none_and_no_id);
	tcase_add_test(tc, test_no_pass_in_comments_quotes_or_longer_words);
	tcase_add_test(tc, test_malformed_resinfos_are_skipped);
	tcase_add_test(tc, test_bounds);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
