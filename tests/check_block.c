/*
 * check_block.c - the server-wide "never email me again" list, on real
 * files: keys not spellings, adding twice, removing, listing; nothing
 * queued to a blocked address by any path (a plain queue, a move's
 * emails), what was queued dropped; seats and marks tell it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "fixture.h"
#include "store.h"
#include "store_block.h"

enum { T0 = 1700000000 };

static char dir[FIXTURE_PATH_MAX], path[FIXTURE_PATH_MAX];
static store *st;

static void setup(void)
{
	fixture_scratch("block", dir, path);
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

static void block_ok(const char *address, const char *how)
{
	store_error err;

	ck_assert_msg(store_block_add(st, address, how, &err) == STORE_OK,
	              "%s", err.why);
}

/* A three-seat game: Ann and Bob with addresses, seat 3 without. */
static void create_ok(char id[STORE_ID_LEN + 1])
{
	store_new_game ng = {
		.players = 3, .first = 1, .seed = "1",
		.names = { "Ann", "Bob", "Cyd" },
		.emails = { "Ann+games@Example.org", "bob@example.org", "" },
	};
	store_error err;

	ck_assert_msg(store_create(st, &ng, id, &err) == STORE_OK, "%s",
	              err.why);
}

static store_rc queue_to(const char *id, int seat, const char *to)
{
	store_mail m;
	store_error err;

	memset(&m, 0, sizeof m);
	m.seat = seat;
	snprintf(m.kind, sizeof m.kind, "turn");
	snprintf(m.to, sizeof m.to, "%s", to);
	snprintf(m.subject, sizeof m.subject, "Your turn");
	snprintf(m.body, sizeof m.body, "Hello\n");
	return store_queue_mail(st, id, &m, &err);
}

/* ---- the list ----------------------------------------------------------- */

typedef struct seen {
	int n;
	store_blocked b[4];
} seen;

static int collect(void *ctx, const store_blocked *b)
{
	seen *s = ctx;

	if (s->n < 4)
		s->b[s->n] = *b;
	s->n++;
	return 0;
}

START_TEST(test_list_holds_keys)
{
	store_error err;
	seen s = { 0 };

	block_ok("Ann+x@Example.org", "link");
	fixture_clock(T0 + 60);
	block_ok("ANN@example.ORG", "admin");     /* the same key: kept once */
	block_ok("zed@example.org", "admin");
	ck_assert_int_eq(store_block_list(st, collect, &s, &err), STORE_OK);
	ck_assert_int_eq(s.n, 2);
	ck_assert_str_eq(s.b[0].address, "ann@example.org");
	ck_assert_str_eq(s.b[0].how, "link");     /* the first one stays */
	ck_assert_int_eq(s.b[0].created, T0);
	ck_assert_str_eq(s.b[1].address, "zed@example.org");
	ck_assert_str_eq(s.b[1].how, "admin");
	ck_assert_int_eq(s.b[1].created, T0 + 60);

	ck_assert_int_eq(store_is_blocked(st, "ann@example.org"), 1);
	ck_assert_int_eq(store_is_blocked(st, "Ann+other@EXAMPLE.org"), 1);
	ck_assert_int_eq(store_is_blocked(st, "bob@example.org"), 0);
	ck_assert_int_eq(store_is_blocked(st, "not an address"), 0);
	ck_assert_int_eq(store_is_blocked(st, ""), 0);
}
END_TEST

START_TEST(test_bad_arguments_are_refused)
{
	store_error err;

	ck_assert_int_eq(store_block_add(st, "no-at-sign", "link", &err),
	                 STORE_INVALID);
	ck_assert_int_eq(store_block_add(st, "@example.org", "link", &err),
	                 STORE_INVALID);
	ck_assert_int_eq(store_block_add(st, "+x@example.org", "link", &err),
	                 STORE_INVALID);
	ck_assert_int_eq(store_block_add(st, "ann@", "admin", &err),
	                 STORE_INVALID);
	ck_assert_int_eq(store_block_add(st, "ann@example.org", "web", &err),
	                 STORE_INVALID);
	ck_assert_int_eq(store_block_add(st, "ann@example.org", NULL, &err),
	                 STORE_INVALID);
	ck_assert_int_eq(store_block_remove(st, "nope", &err), STORE_INVALID);
	ck_assert_int_eq(sql_value("SELECT count(*) FROM blocked"), 0);
}
END_TEST

START_TEST(test_remove)
{
	store_error err;

	block_ok("ann@example.org", "admin");
	ck_assert_int_eq(store_block_remove(st, "Ann+tag@example.org", &err),
	                 STORE_OK);
	ck_assert_int_eq(store_is_blocked(st, "ann@example.org"), 0);
	ck_assert_int_eq(store_block_remove(st, "ann@example.org", &err),
	                 STORE_NOT_FOUND);
	ck_assert_int_eq(sql_value("SELECT count(*) FROM blocked"), 0);
}
END_TEST

/* ---- the mail ----------------------------------------------------------- */

START_TEST(test_nothing_queued_to_a_blocked_address)
{
	char id[STORE_ID_LEN + 1];
	store_error err;

	create_ok(id);
	ck_assert_int_eq(queue_to(id, 1, "Ann+games@Example.org"), STORE_OK);
	ck_assert_int_eq(queue_to(id, 2, "bob@example.org"), STORE_OK);
	ck_assert_int_eq(sql_value("SELECT count(*) FROM outbox"), 2);

	/* blocking drops what is queued to that key, and nothing else */
	block_ok("ann@example.org", "link");
	ck_assert_int_eq(sql_value("SELECT count(*) FROM outbox WHERE "
	                           "dropped IS NOT NULL"), 1);
	ck_assert_int_eq(sql_value("SELECT seat FROM outbox WHERE "
	                           "dropped IS NOT NULL"), 1);
	ck_assert_int_eq(sql_value("SELECT count(*) FROM outbox WHERE "
	                           "dropped IS NULL AND sent IS NULL"), 1);

	/* from now on: nothing at all to it, however spelled; all is well */
	ck_assert_int_eq(queue_to(id, 1, "Ann+games@Example.org"), STORE_OK);
	ck_assert_int_eq(queue_to(id, 0, "ANN@example.org"), STORE_OK);
	ck_assert_int_eq(queue_to(id, 2, "bob@example.org"), STORE_OK);
	ck_assert_int_eq(sql_value("SELECT count(*) FROM outbox"), 3);
	ck_assert_int_eq(sql_value("SELECT count(*) FROM outbox WHERE "
	                           "seat = 1"), 1);

	/* unblocked: queued again */
	ck_assert_int_eq(store_block_remove(st, "ann@example.org", &err),
	                 STORE_OK);
	ck_assert_int_eq(queue_to(id, 1, "Ann+games@Example.org"), STORE_OK);
	ck_assert_int_eq(sql_value("SELECT count(*) FROM outbox WHERE "
	                           "seat = 1 AND dropped IS NULL"), 1);
}
END_TEST

/* A store_mail_fn: one email to every seat with an address. */
static int mail_everyone(void *ctx, const store_game *before,
                         const bt_game *after, const bt_action *a,
                         store_mail *out, int max)
{
	int n = 0;

	(void)ctx;
	(void)after;
	(void)a;
	for (int seat = 1; seat <= before->players && n < max; seat++) {
		if (!before->seats[seat - 1].email[0])
			continue;
		memset(&out[n], 0, sizeof out[n]);
		out[n].seat = seat;
		snprintf(out[n].kind, sizeof out[n].kind, "move");
		snprintf(out[n].to, sizeof out[n].to, "%s",
		         before->seats[seat - 1].email);
		snprintf(out[n].subject, sizeof out[n].subject, "A move");
		snprintf(out[n].body, sizeof out[n].body, "Moved.\n");
		n++;
	}
	return n;
}

START_TEST(test_a_move_mails_only_the_others)
{
	bt_action legal[BT_MAX_LEGAL];
	char id[STORE_ID_LEN + 1];
	store_error err;
	store_game g;

	create_ok(id);
	block_ok("ann@example.org", "admin");
	ck_assert_int_eq(store_load(st, id, &g, &err), STORE_OK);
	ck_assert_int_gt(bt_legal(&g.state, legal, BT_MAX_LEGAL), 0);
	ck_assert_msg(store_append(st, id, g.seq, &legal[0], mail_everyone,
	                           NULL, &g, &err) == STORE_OK, "%s", err.why);
	ck_assert_int_eq(sql_value("SELECT count(*) FROM outbox"), 1);
	ck_assert_int_eq(sql_value("SELECT seat FROM outbox"), 2);
}
END_TEST

START_TEST(test_seats_and_marks_tell_it)
{
	char id[STORE_ID_LEN + 1];
	store_error err;
	store_game g;
	store_mark m;

	create_ok(id);
	ck_assert_int_eq(store_load(st, id, &g, &err), STORE_OK);
	ck_assert_int_eq(g.seats[0].blocked, 0);
	ck_assert_int_eq(store_mark_get(st, id, 0, &m, &err), STORE_OK);
	ck_assert_int_eq(m.seats[0].has_email, 1);

	block_ok("ANN@example.org", "link");
	ck_assert_int_eq(store_load(st, id, &g, &err), STORE_OK);
	ck_assert_int_eq(g.seats[0].blocked, 1);
	ck_assert_str_eq(g.seats[0].email, "Ann+games@Example.org");
	ck_assert_int_eq(g.seats[1].blocked, 0);
	ck_assert_int_eq(g.seats[2].blocked, 0);     /* no address */
	ck_assert_int_eq(store_mark_get(st, id, 0, &m, &err), STORE_OK);
	ck_assert_int_eq(m.seats[0].has_email, 0);
	ck_assert_int_eq(m.seats[1].has_email, 1);
	ck_assert_int_eq(m.seats[2].has_email, 0);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("block");
	TCase *tc = tcase_create("block");
	SRunner *r;
	int failed;

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_list_holds_keys);
	tcase_add_test(tc, test_bad_arguments_are_refused);
	tcase_add_test(tc, test_remove);
	tcase_add_test(tc, test_nothing_queued_to_a_blocked_address);
	tcase_add_test(tc, test_a_move_mails_only_the_others);
	tcase_add_test(tc, test_seats_and_marks_tell_it);
	suite_add_tcase(s, tc);
	r = srunner_create(s);
	srunner_run_all(r, CK_NORMAL);
	failed = srunner_ntests_failed(r);
	srunner_free(r);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
