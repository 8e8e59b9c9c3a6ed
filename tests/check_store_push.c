/*
 * check_store_push.c - the browsers a seat is notified on
 * (db/store_push.h), on a real database: kept per seat, the same
 * endpoint again replacing its keys, the newest STORE_PUSH_PER_SEAT
 * kept; removing one or all; what is refused (shape, a seat that is
 * not there, http unless allowed).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "fixture.h"
#include "store.h"
#include "store_push.h"

enum { T0 = 1700000000 };

static char dir[FIXTURE_PATH_MAX], path[FIXTURE_PATH_MAX];
static char game[STORE_ID_LEN + 1];
static store *st;

static const char p256dh[] =
	"BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7V"
	"d8pZGH6SRpkNtoIAiw4";
static const char auth[] = "BTBZMqHH6r4Tts7J_aSIgg";

static void setup(void)
{
	store_new_game ng = {
		.players = 2, .first = 1, .seed = "1",
		.names = { "Ann", "Bob" },
		.emails = { "ann@example.org", "bob@example.org" },
	};
	store_error err;

	fixture_scratch("push", dir, path);
	st = fixture_open(path);
	fixture_clock(T0);
	ck_assert_msg(store_create(st, &ng, game, &err) == STORE_OK, "%s",
	              err.why);
}

static void teardown(void)
{
	store_close(st);
	fixture_remove(dir);
	fixture_clock(0);
}

static store_push_sub sub_of(const char *endpoint)
{
	store_push_sub p;

	memset(&p, 0, sizeof p);
	snprintf(p.endpoint, sizeof p.endpoint, "%s", endpoint);
	snprintf(p.p256dh, sizeof p.p256dh, "%s", p256dh);
	snprintf(p.auth, sizeof p.auth, "%s", auth);
	return p;
}

static store_rc add(int seat, const char *endpoint, int allow_http)
{
	store_push_sub p = sub_of(endpoint);
	store_error err;

	return store_push_add(st, game, seat, &p, allow_http, &err);
}

static int count(int seat)
{
	store_push_sub list[8];
	store_error err;
	int n;

	ck_assert_int_eq(store_push_list(st, game, seat, list, 8, &n, &err),
	                 STORE_OK);
	return n;
}

START_TEST(test_kept_per_seat)
{
	store_push_sub list[8], again;
	store_error err;
	int n;

	ck_assert_int_eq(add(1, "https://push.example.net/a", 0), STORE_OK);
	fixture_clock(T0 + 1);
	ck_assert_int_eq(add(1, "https://push.example.net/b", 0), STORE_OK);
	ck_assert_int_eq(add(2, "https://push.example.net/c", 0), STORE_OK);
	ck_assert_int_eq(store_push_list(st, game, 1, list, 8, &n, &err),
	                 STORE_OK);
	ck_assert_int_eq(n, 2);
	ck_assert_str_eq(list[0].endpoint, "https://push.example.net/b");
	ck_assert_str_eq(list[0].p256dh, p256dh);
	ck_assert_str_eq(list[0].auth, auth);
	ck_assert_int_eq(list[1].created, T0);
	/* the same endpoint again: its keys replaced, not a second row */
	again = sub_of("https://push.example.net/a");
	again.auth[0] = 'A';
	fixture_clock(T0 + 2);
	ck_assert_int_eq(store_push_add(st, game, 1, &again, 0, &err), STORE_OK);
	ck_assert_int_eq(store_push_list(st, game, 1, list, 8, &n, &err),
	                 STORE_OK);
	ck_assert_int_eq(n, 2);
	ck_assert_str_eq(list[0].endpoint, "https://push.example.net/a");
	ck_assert_int_eq(list[0].auth[0], 'A');
	ck_assert_int_eq(count(2), 1);
}
END_TEST

START_TEST(test_newest_kept)
{
	char url[64];

	for (int i = 0; i < STORE_PUSH_PER_SEAT + 2; i++) {
		fixture_clock(T0 + i);
		snprintf(url, sizeof url, "https://push.example.net/%d", i);
		ck_assert_int_eq(add(1, url, 0), STORE_OK);
	}
	ck_assert_int_eq(count(1), STORE_PUSH_PER_SEAT);
	ck_assert_int_eq(fixture_sql_value(path, "SELECT count(*) FROM "
	                 "push_subs WHERE endpoint IN ('https://push.example.net"
	                 "/0', 'https://push.example.net/1')"), 0);
}
END_TEST

START_TEST(test_remove)
{
	store_error err;

	ck_assert_int_eq(add(1, "https://push.example.net/a", 0), STORE_OK);
	ck_assert_int_eq(add(1, "https://push.example.net/b", 0), STORE_OK);
	ck_assert_int_eq(add(2, "https://push.example.net/a", 0), STORE_OK);
	ck_assert_int_eq(store_push_remove(st, game, 1,
	                 "https://push.example.net/a", &err), STORE_OK);
	ck_assert_int_eq(count(1), 1);
	ck_assert_int_eq(count(2), 1);          /* Bob's of the same URL stays */
	ck_assert_int_eq(store_push_remove(st, game, 1,
	                 "https://push.example.net/a", &err), STORE_NOT_FOUND);
	ck_assert_int_eq(store_push_remove(st, game, 1, NULL, &err), STORE_OK);
	ck_assert_int_eq(count(1), 0);
	ck_assert_int_eq(store_push_remove(st, game, 1, NULL, &err),
	                 STORE_NOT_FOUND);
}
END_TEST

START_TEST(test_refused)
{
	store_push_sub p = sub_of("https://push.example.net/a");
	store_error err;
	char long_url[STORE_PUSH_ENDPOINT_MAX + 1];

	ck_assert_int_eq(add(1, "http://push.example.net/a", 0), STORE_INVALID);
	ck_assert_int_eq(add(1, "http://127.0.0.1:9/a", 1), STORE_OK);
	ck_assert_int_eq(add(1, "ftp://push.example.net/a", 1), STORE_INVALID);
	ck_assert_int_eq(add(1, "https:///a", 0), STORE_INVALID);
	ck_assert_int_eq(add(1, "https://push.example.net/a b", 0),
	                 STORE_INVALID);
	ck_assert_int_eq(add(1, "https://push.example.net/a\"", 0),
	                 STORE_INVALID);
	/* the longest endpoint kept (a longer one the page refuses) */
	memset(long_url, 'a', STORE_PUSH_ENDPOINT_MAX);
	memcpy(long_url, "https://x/", 10);
	long_url[STORE_PUSH_ENDPOINT_MAX] = '\0';
	ck_assert_int_eq(add(1, long_url, 0), STORE_OK);
	ck_assert_int_eq(store_push_remove(st, game, 1, long_url, &err),
	                 STORE_OK);
	ck_assert_int_eq(add(3, "https://push.example.net/a", 0),
	                 STORE_NOT_FOUND);
	p.p256dh[10] = '+';
	ck_assert_int_eq(store_push_add(st, game, 1, &p, 0, &err),
	                 STORE_INVALID);
	p = sub_of("https://push.example.net/a");
	p.auth[21] = '\0';
	ck_assert_int_eq(store_push_add(st, game, 1, &p, 0, &err),
	                 STORE_INVALID);
	ck_assert_int_eq(count(1), 1);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("store_push");
	TCase *tc = tcase_create("store_push");
	SRunner *r;
	int failed;

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_kept_per_seat);
	tcase_add_test(tc, test_newest_kept);
	tcase_add_test(tc, test_remove);
	tcase_add_test(tc, test_refused);
	suite_add_tcase(s, tc);
	r = srunner_create(s);
	srunner_run_all(r, CK_NORMAL);
	failed = srunner_ntests_failed(r);
	srunner_free(r);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
