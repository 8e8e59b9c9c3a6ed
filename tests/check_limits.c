/*
 * check_limits.c - the store's limits on what strangers can make the
 * server do, on real files: sliding windows and their retry times, a
 * refusal inside the making of a game undoing all of it (game, seats,
 * emails), "your seat" emails counted per address key server-wide, one
 * address per game, and address keys; "play again" counts as the
 * form's games do, and a game from the web has a person in it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "fixture.h"
#include "store.h"
#include "store_limits.h"

enum { T0 = 1700000000 };

static char dir[FIXTURE_PATH_MAX], path[FIXTURE_PATH_MAX];
static store *st;

static void setup(void)
{
	fixture_scratch("limits", dir, path);
	st = fixture_open(path);
	fixture_clock(T0);
}

static void teardown(void)
{
	store_close(st);
	fixture_remove(dir);
	fixture_clock(0);
}

static long long sql_value(const char *sql)
{
	return fixture_sql_value(path, sql);
}

/* A store_seat_mail_fn: a "your seat" email to every seat with one. */
static int seat_mail(void *ctx, const store_game *g, int seat,
                     struct store_mail *m)
{
	(void)ctx;
	if (!g->seats[seat - 1].email[0])
		return 0;
	memset(m, 0, sizeof *m);
	m->seat = seat;
	snprintf(m->kind, sizeof m->kind, "seat");
	snprintf(m->to, sizeof m->to, "%s", g->seats[seat - 1].email);
	snprintf(m->subject, sizeof m->subject, "Your seat");
	snprintf(m->body, sizeof m->body, "Here is your link.");
	return 1;
}

/* Makes a two-seat game from client with these addresses. */
static store_rc create(const char *client, const char *a, const char *b,
                       store_error *err)
{
	store_new_game ng = { .players = 2, .first = 1,
	                      .emails = { a, b }, .client = client,
	                      .mail_fn = seat_mail };
	char id[STORE_ID_LEN + 1];

	return store_create(st, &ng, id, err);
}

START_TEST(test_limits_window_refuses_then_frees_with_retry_time)
{
	store_error err;

	for (int i = 0; i < 3; i++) {
		fixture_clock(T0 + i * 100);
		ck_assert_int_eq(store_limit_take(st, STORE_LIMIT_CODE, "10.0.0.1",
		                                  3, 3600, &err), STORE_OK);
	}
	fixture_clock(T0 + 1000);
	ck_assert_int_eq(store_limit_take(st, STORE_LIMIT_CODE, "10.0.0.1", 3,
	                                  3600, &err), STORE_LIMITED);
	/* the oldest of the three leaves the window first */
	ck_assert_int_eq(err.retry_at, T0 + 3600);
	ck_assert_int_eq(store_limit_peek(st, STORE_LIMIT_CODE, "10.0.0.1", 3,
	                                  3600, &err), STORE_LIMITED);
	/* a refusal counts nothing; another subject or kind is apart */
	ck_assert_int_eq(sql_value("SELECT count(*) FROM limit_events"), 3);
	ck_assert_int_eq(store_limit_take(st, STORE_LIMIT_CODE, "10.0.0.2", 3,
	                                  3600, &err), STORE_OK);
	ck_assert_int_eq(store_limit_peek(st, STORE_LIMIT_GAME, "10.0.0.1", 3,
	                                  3600, &err), STORE_OK);
	fixture_clock(T0 + 3600);
	ck_assert_int_eq(store_limit_take(st, STORE_LIMIT_CODE, "10.0.0.1", 3,
	                                  3600, &err), STORE_OK);
	ck_assert_int_eq(store_limit_take(st, STORE_LIMIT_CODE, "10.0.0.1", 3,
	                                  3600, &err), STORE_LIMITED);
	ck_assert_int_eq(err.retry_at, T0 + 100 + 3600);
	/* no limit: always, and nothing counted */
	ck_assert_int_eq(store_limit_take(st, STORE_LIMIT_CODE, "10.0.0.1", 0,
	                                  3600, &err), STORE_OK);
}
END_TEST

START_TEST(test_limits_old_events_are_pruned)
{
	store_error err;

	ck_assert_int_eq(store_limit_take(st, STORE_LIMIT_GAME, "a", 5, 3600,
	                                  &err), STORE_OK);
	fixture_clock(T0 + STORE_LIMIT_DAY + 1);
	ck_assert_int_eq(store_limit_take(st, STORE_LIMIT_GAME, "b", 5, 3600,
	                                  &err), STORE_OK);
	ck_assert_int_eq(sql_value("SELECT count(*) FROM limit_events"), 1);
}
END_TEST

START_TEST(test_limits_games_per_client_hold_without_leftovers)
{
	store_limits l = { .games_per_hour = 2 };
	store_error err;

	store_set_limits(st, &l);
	ck_assert_int_eq(create("10.0.0.1", "a@example.org", "", &err), STORE_OK);
	ck_assert_int_eq(create("10.0.0.1", "b@example.org", "", &err), STORE_OK);
	ck_assert_int_eq(create("10.0.0.1", "c@example.org", "", &err),
	                 STORE_LIMITED);
	ck_assert_int_ge(err.retry_at, T0 + 3600);
	ck_assert_ptr_nonnull(strstr(err.why, "2 games in the last hour"));
	ck_assert_int_eq(sql_value("SELECT count(*) FROM games"), 2);
	ck_assert_int_eq(sql_value("SELECT count(*) FROM seats"), 4);
	ck_assert_int_eq(sql_value("SELECT count(*) FROM outbox"), 2);
	/* another client, or the administrator's tools (no client) */
	ck_assert_int_eq(create("10.0.0.9", "c@example.org", "", &err), STORE_OK);
	ck_assert_int_eq(create(NULL, "d@example.org", "", &err), STORE_OK);
	/* a connection without limits (admin tools) counts nothing */
	store_set_limits(st, NULL);
	ck_assert_int_eq(create("10.0.0.1", "e@example.org", "", &err), STORE_OK);
}
END_TEST

START_TEST(test_limits_seat_mails_per_address_key_undo_the_game)
{
	store_limits l = { .seat_mails_per_day = 2 };
	store_error err;

	store_set_limits(st, &l);
	ck_assert_int_eq(create("1", "ann@example.org", "bo@example.org", &err),
	                 STORE_OK);
	ck_assert_int_eq(create("2", "Ann+two@Example.ORG", "", &err), STORE_OK);
	ck_assert_int_eq(create("3", "cy@example.org", "ann@example.org", &err),
	                 STORE_LIMITED);
	ck_assert_ptr_nonnull(strstr(err.why, "ann@example.org has had 2"));
	ck_assert_int_eq(err.retry_at, T0 + STORE_LIMIT_DAY);
	/* Cy's email, queued before Ann's was refused, went with the game */
	ck_assert_int_eq(sql_value("SELECT count(*) FROM games"), 2);
	ck_assert_int_eq(sql_value("SELECT count(*) FROM outbox"), 3);
	ck_assert_int_eq(sql_value("SELECT count(*) FROM outbox WHERE "
	                           "recipient = 'cy@example.org'"), 0);
	fixture_clock(T0 + STORE_LIMIT_DAY);
	ck_assert_int_eq(create("3", "cy@example.org", "ann@example.org", &err),
	                 STORE_OK);
}
END_TEST

START_TEST(test_limits_one_address_per_game)
{
	store_error err;

	ck_assert_int_eq(create(NULL, "ann@example.org", "ANN+x@example.org",
	                        &err), STORE_INVALID);
	ck_assert_ptr_nonnull(strstr(err.why, "same email address"));
	ck_assert_int_eq(sql_value("SELECT count(*) FROM games"), 0);
	ck_assert_int_eq(create(NULL, "ann@example.org", "bo@example.org", &err),
	                 STORE_OK);
	ck_assert_int_eq(create(NULL, "", "", &err), STORE_OK);
	/* an address without a key could be neither limited nor blocked */
	ck_assert_int_eq(create(NULL, "+x@example.org", "", &err),
	                 STORE_INVALID);
}
END_TEST

START_TEST(test_limits_address_keys)
{
	char key[64];

	ck_assert_int_eq(store_address_key("Ann+Games@Example.ORG", key,
	                                   sizeof key), 0);
	ck_assert_str_eq(key, "ann@example.org");
	ck_assert_int_eq(store_address_key("a+b+c@x.y", key, sizeof key), 0);
	ck_assert_str_eq(key, "a@x.y");
	ck_assert_int_eq(store_address_key("no-at-sign", key, sizeof key), -1);
	ck_assert_int_eq(store_address_key("@x.y", key, sizeof key), -1);
	ck_assert_int_eq(store_address_key("+tag@x.y", key, sizeof key), -1);
	ck_assert_int_eq(store_address_key("x@", key, sizeof key), -1);
	ck_assert_int_eq(store_address_key("abcdef@example.org", key, 8), -1);
}
END_TEST

/* Appends address a to the JSON list and its key by the program (or
 * "-") to the expected lines. */
static void add_address(char *json, size_t jcap, char *want, size_t wcap,
                        const char *a)
{
	char key[STORE_EMAIL_MAX + 1];
	size_t j = strlen(json), w = strlen(want);

	ck_assert_int_lt(snprintf(json + j, jcap - j, "%s\"%s\"",
	                          j > 1 ? "," : "", a), (int)(jcap - j));
	ck_assert_int_lt(snprintf(want + w, wcap - w, "%s%s", w ? "\n" : "",
	                          store_address_key(a, key, sizeof key) ? "-"
	                          : key), (int)(wcap - w));
}

/* On PostgreSQL the database's address_key(), which the statements
 * compare with the block list, is SQL of its own (0005, made one
 * expression in 0022): it gives the program's key for every address,
 * tags, case, '@'s first, last and doubled, and keys at the 254-byte
 * bound, in ASCII and in UTF-8. */
START_TEST(test_limits_address_key_in_the_database_is_the_programs)
{
	static const char *const fixed[] = {
		"", "@", "a@", "@b", "a@b", "Ann@Example.ORG", "ann+x@b",
		"ann+@b", "+x@b", "+@b", "a+b+c@d", "a@b@c", "a+b@c@d", "@a@b",
		"a@b+c", "a@@b", "x+Y@Z+W@Q", "\xc3\x84+x@\xc3\x89.example",
		"@@@Z", "@.aZ@+\xc3\xa9"
	};
	static const char *const letters[] = { "a", "Z", "+", "@", ".",
	                                       "\xc3\xa9" };
	enum { RANDOM = 2000, JSON_MAX = 200000, WANT_MAX = 120000 };
	char *json = calloc(1, JSON_MAX), *want = calloc(1, WANT_MAX);
	char *got = calloc(1, WANT_MAX), a[600];

	ck_assert(json && want && got);
	json[0] = '[';
	for (size_t i = 0; i < sizeof fixed / sizeof *fixed; i++)
		add_address(json, JSON_MAX, want, WANT_MAX, fixed[i]);
	/* around the bound: local parts of 246 to 256 bytes, with a tag,
	 * and with two-byte letters */
	for (int n = 246; n <= 256; n++)
		for (int kind = 0; kind < 3; kind++) {
			int len = 0;
			while (len < n)
				len += snprintf(a + len, sizeof a - (size_t)len,
				                "%s", kind == 2 && len % 3 == 0
				                ? "\xc3\xa9" : "a");
			snprintf(a + len, sizeof a - (size_t)len, "%s@b.c",
			         kind == 1 ? "+tag" : "");
			add_address(json, JSON_MAX, want, WANT_MAX, a);
		}
	srand(26);
	for (int i = 0; i < RANDOM; i++) {
		int len = 0, n = rand() % 13;
		a[0] = '\0';
		for (int k = 0; k < n; k++)
			len += snprintf(a + len, sizeof a - (size_t)len, "%s",
			                letters[rand() % 6]);
		add_address(json, JSON_MAX, want, WANT_MAX, a);
	}
	strcat(json, "]");
	fixture_sql_text(path, "SELECT string_agg(coalesce(address_key(a), '-'),"
	                 " chr(10) ORDER BY n) FROM json_array_elements_text("
	                 "CAST(?1 AS json)) WITH ORDINALITY AS x(a, n)", json,
	                 got, WANT_MAX);
	/* the first key that differs */
	for (char *g = got, *w = want; *g || *w; ) {
		size_t gl = strcspn(g, "\n"), wl = strcspn(w, "\n");
		ck_assert_msg(gl == wl && !memcmp(g, w, gl), "address key in the "
		              "database '%.*s', by the program '%.*s'", (int)gl, g,
		              (int)wl, w);
		g += gl + (g[gl] == '\n');
		w += wl + (w[wl] == '\n');
	}
	free(json);
	free(want);
	free(got);
}
END_TEST

/* A 2-seat game made by the administrator's tools (no client), the
 * seats in bots ("search") or people (NULL), played to its end. */
static void finished(const char *bot1, const char *bot2,
                     char id[STORE_ID_LEN + 1])
{
	store_new_game ng = { .players = 2, .first = 1, .seed = "7",
	                      .bots = { bot1, bot2 } };
	bt_action legal[BT_MAX_LEGAL];
	static store_game g;
	store_error err;

	ck_assert_int_eq(store_create(st, &ng, id, &err), STORE_OK);
	ck_assert_int_eq(store_load(st, id, &g, &err), STORE_OK);
	for (int i = 0; i < 2000 && g.state.status == BT_PLAYING; i++) {
		const char *by = g.seats[g.state.turn - 1].bot[0] ? "bot" : "";
		ck_assert_int_gt(bt_legal(&g.state, legal, BT_MAX_LEGAL), 0);
		ck_assert_int_eq(store_append_as(st, id, g.seq, &legal[0], by,
		                                 NULL, NULL, &g, &err),
		                 STORE_OK);
	}
	ck_assert_int_ne(g.state.status, BT_PLAYING);
}

START_TEST(test_limits_play_again_counts_and_needs_a_person)
{
	store_limits l = { .games_per_hour = 1 };
	char over[STORE_ID_LEN + 1], bots[STORE_ID_LEN + 1];
	char again[STORE_ID_LEN + 1];
	store_error err;
	int made = -1;

	finished(NULL, "search", over);
	finished("search", "search", bots);
	store_set_limits(st, &l);
	ck_assert_int_eq(create("10.0.0.1", "", "", &err), STORE_OK);
	ck_assert_int_eq(sql_value("SELECT count(*) FROM games"), 3);
	/* the client's second game of the hour, by play again: refused */
	ck_assert_int_eq(store_rematch(st, over, "10.0.0.1", NULL, NULL, again,
	                               &made, &err), STORE_LIMITED);
	ck_assert_int_eq(made, 0);
	ck_assert_ptr_nonnull(strstr(err.why, "1 game in the last hour"));
	ck_assert_int_ge(err.retry_at, T0 + 3600);
	ck_assert_int_eq(sql_value("SELECT count(*) FROM games"), 3);
	ck_assert_int_eq(sql_value("SELECT count(*) FROM games WHERE"
	                           " rematch != ''"), 0);
	/* another client may; the game keeps its person */
	ck_assert_int_eq(store_rematch(st, over, "10.0.0.2", NULL, NULL, again,
	                               &made, &err), STORE_OK);
	ck_assert_int_eq(made, 1);
	/* bots only: never from the web, whatever the limits; counts
	 * nothing.  The administrator's tools still may. */
	ck_assert_int_eq(store_rematch(st, bots, "10.0.0.3", NULL, NULL, again,
	                               &made, &err), STORE_INVALID);
	ck_assert_ptr_nonnull(strstr(err.why, "at least one person"));
	store_new_game ng = { .players = 2, .first = 1,
	                      .bots = { "search", "search" },
	                      .client = "10.0.0.3" };
	ck_assert_int_eq(store_create(st, &ng, again, &err), STORE_INVALID);
	ck_assert_int_eq(sql_value("SELECT count(*) FROM limit_events"
	                           " WHERE subject = '10.0.0.3'"), 0);
	ck_assert_int_eq(sql_value("SELECT count(*) FROM games"), 4);
	ng.client = NULL;
	ck_assert_int_eq(store_create(st, &ng, again, &err), STORE_OK);
	ck_assert_int_eq(store_rematch(st, bots, NULL, NULL, NULL, again, &made,
	                               &err), STORE_OK);
}
END_TEST

static Suite *limits_suite(void)
{
	Suite *s = suite_create("limits");
	TCase *tc = tcase_create("limits");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_limits_window_refuses_then_frees_with_retry_time);
	tcase_add_test(tc, test_limits_old_events_are_pruned);
	tcase_add_test(tc, test_limits_games_per_client_hold_without_leftovers);
	tcase_add_test(tc, test_limits_play_again_counts_and_needs_a_person);
	tcase_add_test(tc, test_limits_seat_mails_per_address_key_undo_the_game);
	tcase_add_test(tc, test_limits_one_address_per_game);
	tcase_add_test(tc, test_limits_address_keys);
	/* on a file, address_key() is the program's own C function */
	if (!fixture_engine_is_sqlite())
		tcase_add_test(tc, test_limits_address_key_in_the_database_is_the_programs);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(limits_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
