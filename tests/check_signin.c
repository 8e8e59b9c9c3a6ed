/*
 * check_signin.c - "Email me my games" in the store (store_signin.h), on
 * a real database: an ask mails only an address that holds a person's
 * seat and is not blocked, within its hourly count, and counts for its
 * client whatever the address; the link works once per browser, in
 * STORE_SIGNIN_LINK_BROWSERS browsers, for a day; a sign-in lists, finds
 * and loses the seats of its address; signing out one or all.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "fixture.h"
#include "store.h"
#include "store_block.h"
#include "store_signin.h"

enum { T0 = 1700000000 };

static char dir[FIXTURE_PATH_MAX], path[FIXTURE_PATH_MAX];
static store *st;

/* What the mail function saw last, and how many it wrote. */
static char last_secret[STORE_SIGNIN_SECRET_LEN + 1];
static int mails;

static int mail_fn(void *ctx, const char *address, const char *secret,
                   int64_t expires, store_mail *out)
{
	(void)ctx;
	memset(out, 0, sizeof *out);
	snprintf(out->kind, sizeof out->kind, "signin");
	snprintf(out->to, sizeof out->to, "%s", address);
	snprintf(out->subject, sizeof out->subject, "Sign in");
	snprintf(out->body, sizeof out->body, "link %s until %lld\n", secret,
	         (long long)expires);
	snprintf(last_secret, sizeof last_secret, "%s", secret);
	mails++;
	return 1;
}

static void setup(void)
{
	fixture_scratch("signin", dir, path);
	st = fixture_open(path);
	fixture_clock(T0);
	mails = 0;
	last_secret[0] = '\0';
}

static void teardown(void)
{
	store_close(st);
	fixture_remove(dir);
	fixture_clock(0);
}

/* A game: Ann (with a tag and capitals) and Bob, and a bot seat. */
static void create_ok(const char *ann, char id[STORE_ID_LEN + 1])
{
	store_new_game ng = {
		.players = 3, .first = 1, .seed = "1",
		.names = { "Ann", "Bob", "" },
		.emails = { "", "bob@example.org", "" },
		.bots = { "", "", "search" },
	};
	store_error err;

	ng.emails[0] = ann;
	ck_assert_msg(store_create(st, &ng, id, &err) == STORE_OK, "%s",
	              err.why);
}

static int ask(const char *address, const char *client, store_rc want)
{
	store_error err;
	int sent = -1;
	store_rc rc = store_signin_ask(st, address, client, mail_fn, NULL,
	                               &sent, &err);

	ck_assert_msg(rc == want, "ask %s: %d (%s)", address, (int)rc,
	              err.why);
	return sent;
}

static long long queued_to(const char *address)
{
	char sql[256];

	snprintf(sql, sizeof sql, "SELECT count(*) FROM outbox WHERE kind ="
	         " 'signin' AND recipient = '%s' AND sent IS NULL"
	         " AND last_error = ''", address);
	return fixture_sql_value(path, sql);
}

START_TEST(test_ask_mails_only_a_player)
{
	char id[STORE_ID_LEN + 1];

	create_ok("Ann+games@Example.org", id);
	ck_assert_int_eq(ask("ann@example.org", "10.0.0.1", STORE_OK), 1);
	ck_assert_int_eq(mails, 1);
	ck_assert_int_eq(queued_to("ann@example.org"), 1);
	ck_assert_int_eq((int)strlen(last_secret), STORE_SIGNIN_SECRET_LEN);
	/* the secret is in the email, never in the store */
	ck_assert_int_eq(fixture_sql_value(path, "SELECT count(*) FROM "
	                 "signin_links WHERE hash = address"), 0);
	/* nobody's address, the bot's seat (no address), not an address */
	ck_assert_int_eq(ask("zed@example.org", "10.0.0.1", STORE_OK), 0);
	ck_assert_int_eq(ask("ann@", "10.0.0.1", STORE_INVALID),
	                 0);
	ck_assert_int_eq(ask("not an address", "10.0.0.1", STORE_INVALID), 0);
	ck_assert_int_eq(mails, 1);
	/* asks are rows all the same: the client's count */
	ck_assert_int_eq(fixture_sql_value(path, "SELECT count(*) FROM "
	                 "signin_links WHERE client = '10.0.0.1'"), 2);
}
END_TEST

START_TEST(test_blocked_address_gets_nothing)
{
	char id[STORE_ID_LEN + 1];
	store_error err;

	create_ok("ann@example.org", id);
	ck_assert_int_eq(store_block_add(st, "ANN@example.org", "link", &err),
	                 STORE_OK);
	ck_assert_int_eq(ask("ann@example.org", "10.0.0.1", STORE_OK), 0);
	ck_assert_int_eq(mails, 0);
	ck_assert_int_eq(queued_to("ann@example.org"), 0);
}
END_TEST

START_TEST(test_counts_per_address_and_client)
{
	char id[STORE_ID_LEN + 1], client[32];
	store_error err;
	int sent;

	create_ok("ann@example.org", id);
	for (int i = 0; i < STORE_SIGNIN_MAILS_PER_HOUR; i++) {
		snprintf(client, sizeof client, "10.0.1.%d", i);
		ck_assert_int_eq(ask("ann@example.org", client, STORE_OK), 1);
	}
	/* the address had its links for the hour: the same answer, no mail */
	ck_assert_int_eq(ask("ann@example.org", "10.0.2.1", STORE_OK), 0);
	ck_assert_int_eq(mails, STORE_SIGNIN_MAILS_PER_HOUR);
	fixture_clock(T0 + 3601);
	ck_assert_int_eq(ask("ann@example.org", "10.0.2.1", STORE_OK), 1);
	/* one client: STORE_SIGNIN_ASKS_PER_HOUR asks, any addresses */
	for (int i = 1; i < STORE_SIGNIN_ASKS_PER_HOUR; i++)
		ask("zed@example.org", "10.0.2.1", STORE_OK);
	ck_assert_int_eq(store_signin_ask(st, "zed@example.org", "10.0.2.1",
	                                  mail_fn, NULL, &sent, &err),
	                 STORE_LIMITED);
	ck_assert_int_eq(sent, 0);
	ck_assert(err.retry_at > T0 + 3601);
	ck_assert_int_eq(ask("zed@example.org", "10.0.2.2", STORE_OK), 0);
}
END_TEST

static store_rc use(const char *link, const char *held,
                    char cookie[STORE_SIGNIN_SECRET_LEN + 1],
                    store_signin *si)
{
	store_error err;

	return store_signin_use(st, link, held, "Firefox on Linux", cookie,
	                        si, &err);
}

START_TEST(test_link_once_per_browser)
{
	char id[STORE_ID_LEN + 1], link[STORE_SIGNIN_SECRET_LEN + 1];
	char a[STORE_SIGNIN_SECRET_LEN + 1], b[STORE_SIGNIN_SECRET_LEN + 1];
	char other[STORE_SIGNIN_SECRET_LEN + 1];
	store_signin si, got;
	store_error err;

	create_ok("Ann+games@Example.org", id);
	ck_assert_int_eq(ask("ann@example.org", "10.0.0.1", STORE_OK), 1);
	snprintf(link, sizeof link, "%s", last_secret);
	ck_assert_int_eq(use(link, NULL, a, &si), STORE_OK);
	ck_assert_int_eq((int)strlen(a), STORE_SIGNIN_SECRET_LEN);
	ck_assert_str_eq(si.address, "ann@example.org");
	ck_assert_str_eq(si.agent, "Firefox on Linux");
	/* the same browser again: already, no second sign-in */
	ck_assert_int_eq(use(link, a, b, &si), STORE_DUPLICATE);
	ck_assert_int_eq(si.this_link, 1);
	ck_assert_int_eq(fixture_sql_value(path, "SELECT count(*) FROM "
	                 "signins"), 1);
	/* other browsers: until the link has signed in its number */
	for (int i = 1; i < STORE_SIGNIN_LINK_BROWSERS; i++)
		ck_assert_int_eq(use(link, NULL, b, &si), STORE_OK);
	ck_assert_int_eq(use(link, NULL, other, &si), STORE_LIMITED);
	ck_assert_str_eq(other, "");
	/* each browser is its own sign-in */
	ck_assert_int_eq(store_signin_get(st, a, &got, &err), STORE_OK);
	ck_assert_str_eq(got.address, "ann@example.org");
	ck_assert_int_eq(store_signin_get(st, b, &si, &err), STORE_OK);
	ck_assert_str_ne(si.id, got.id);
	/* forged, cut, a link as a cookie, a cookie as a link */
	ck_assert_int_eq(use("AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", NULL,
	                     other, &si), STORE_NOT_FOUND);
	ck_assert_int_eq(store_signin_get(st, link, &si, &err),
	                 STORE_NOT_FOUND);
	ck_assert_int_eq(use(a, NULL, other, &si), STORE_NOT_FOUND);
	a[10] = '\0';
	ck_assert_int_eq(store_signin_get(st, a, &si, &err), STORE_NOT_FOUND);
	ck_assert_int_eq(store_signin_get(st, NULL, &si, &err),
	                 STORE_NOT_FOUND);
}
END_TEST

START_TEST(test_link_lasts_a_day)
{
	char id[STORE_ID_LEN + 1], link[STORE_SIGNIN_SECRET_LEN + 1];
	char c[STORE_SIGNIN_SECRET_LEN + 1];
	store_signin si;

	create_ok("ann@example.org", id);
	ck_assert_int_eq(ask("ann@example.org", "10.0.0.1", STORE_OK), 1);
	snprintf(link, sizeof link, "%s", last_secret);
	fixture_clock(T0 + STORE_SIGNIN_LINK_SECS);
	ck_assert_int_eq(use(link, NULL, c, &si), STORE_OK);
	fixture_clock(T0 + STORE_SIGNIN_LINK_SECS + 1);
	ck_assert_int_eq(use(link, NULL, c, &si), STORE_NOT_FOUND);
	/* a link not sent (nobody's address) never works */
	ck_assert_int_eq(ask("zed@example.org", "10.0.0.1", STORE_OK), 0);
	ck_assert_int_eq(fixture_sql_value(path, "SELECT count(*) FROM "
	                 "signin_links WHERE sent = 1"), 0);
}
END_TEST

START_TEST(test_seats_of_an_address)
{
	char g1[STORE_ID_LEN + 1], g2[STORE_ID_LEN + 1];
	store_seat_ref refs[4];
	store_error err;
	int n;

	create_ok("Ann+one@Example.org", g1);
	fixture_clock(T0 + 10);
	create_ok("ann@EXAMPLE.org", g2);
	ck_assert_int_eq(store_address_seats(st, "ann@example.org", refs, 4,
	                                     &n, &err), STORE_OK);
	ck_assert_int_eq(n, 2);
	ck_assert_str_eq(refs[0].game, g2);     /* the newest first */
	ck_assert_int_eq(refs[0].seat, 1);
	ck_assert_str_eq(refs[1].game, g1);
	ck_assert_int_eq(store_address_seats(st, "ann@example.org", refs, 1,
	                                     &n, &err), STORE_OK);
	ck_assert_int_eq(n, 1);
	ck_assert_int_eq(store_address_seats(st, "bob@example.org", refs, 4,
	                                     &n, &err), STORE_OK);
	ck_assert_int_eq(n, 2);
	ck_assert_int_eq(refs[0].seat, 2);
	ck_assert_int_eq(store_address_seats(st, "cyd@example.org", refs, 4,
	                                     &n, &err), STORE_OK);
	ck_assert_int_eq(n, 0);
}
END_TEST

/* Signs a browser in for ann; its cookie into c. */
static void signed_in(char c[STORE_SIGNIN_SECRET_LEN + 1], store_signin *si)
{
	ck_assert_int_eq(ask("ann@example.org", "10.0.3.1", STORE_OK), 1);
	ck_assert_int_eq(use(last_secret, NULL, c, si), STORE_OK);
}

START_TEST(test_list_and_sign_out)
{
	char id[STORE_ID_LEN + 1];
	char a[STORE_SIGNIN_SECRET_LEN + 1], b[STORE_SIGNIN_SECRET_LEN + 1];
	char c[STORE_SIGNIN_SECRET_LEN + 1];
	store_signin sa, sb, sc, list[4];
	store_error err;
	int n;

	create_ok("ann@example.org", id);
	signed_in(a, &sa);
	fixture_clock(T0 + 5);
	signed_in(b, &sb);
	fixture_clock(T0 + 9);
	signed_in(c, &sc);
	ck_assert_int_eq(store_signin_list(st, "Ann+x@example.org", list, 4, &n,
	                                   &err), STORE_OK);
	ck_assert_int_eq(n, 3);
	ck_assert_str_eq(list[0].id, sc.id);    /* the newest first */
	ck_assert_str_eq(list[2].id, sa.id);
	ck_assert_int_eq(list[2].created, T0);
	/* bob cannot sign out ann's browsers */
	ck_assert_int_eq(store_signin_drop(st, "bob@example.org", sb.id, &err),
	                 STORE_NOT_FOUND);
	ck_assert_int_eq(store_signin_drop(st, "ann@example.org", sb.id, &err),
	                 STORE_OK);
	ck_assert_int_eq(store_signin_get(st, b, &sb, &err), STORE_NOT_FOUND);
	ck_assert_int_eq(store_signin_get(st, a, &sa, &err), STORE_OK);
	ck_assert_int_eq(store_signin_drop(st, "ann@example.org", NULL, &err),
	                 STORE_OK);
	ck_assert_int_eq(store_signin_get(st, a, &sa, &err), STORE_NOT_FOUND);
	ck_assert_int_eq(store_signin_get(st, c, &sc, &err), STORE_NOT_FOUND);
	ck_assert_int_eq(store_signin_drop(st, "ann@example.org", NULL, &err),
	                 STORE_NOT_FOUND);
}
END_TEST

START_TEST(test_seen_and_idle)
{
	char id[STORE_ID_LEN + 1], a[STORE_SIGNIN_SECRET_LEN + 1];
	store_signin si;
	store_error err;

	create_ok("ann@example.org", id);
	signed_in(a, &si);
	/* seen within the hour: no write; after: last_seen moves */
	fixture_clock(T0 + 60);
	ck_assert_int_eq(store_signin_get(st, a, &si, &err), STORE_OK);
	ck_assert_int_eq(si.last_seen, T0);
	fixture_clock(T0 + STORE_SIGNIN_SEEN_EVERY + 1);
	ck_assert_int_eq(store_signin_get(st, a, &si, &err), STORE_OK);
	ck_assert_int_eq(fixture_sql_value(path, "SELECT last_seen FROM "
	                 "signins"), T0 + STORE_SIGNIN_SEEN_EVERY + 1);
	/* unused for half a year: gone */
	fixture_clock(T0 + STORE_SIGNIN_SEEN_EVERY + 2 +
	              STORE_SIGNIN_IDLE_SECS);
	ck_assert_int_eq(store_signin_get(st, a, &si, &err), STORE_NOT_FOUND);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("signin");
	TCase *tc = tcase_create("signin");
	SRunner *r;
	int failed;

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_ask_mails_only_a_player);
	tcase_add_test(tc, test_blocked_address_gets_nothing);
	tcase_add_test(tc, test_counts_per_address_and_client);
	tcase_add_test(tc, test_link_once_per_browser);
	tcase_add_test(tc, test_link_lasts_a_day);
	tcase_add_test(tc, test_seats_of_an_address);
	tcase_add_test(tc, test_list_and_sign_out);
	tcase_add_test(tc, test_seen_and_idle);
	suite_add_tcase(s, tc);
	r = srunner_create(s);
	srunner_run_all(r, CK_NORMAL);
	failed = srunner_ntests_failed(r);
	srunner_free(r);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
