/*
 * check_store_notice.c - the notices beside email (db/store_notice.h),
 * on a real database: a move that gives a person the turn queues one
 * push for each of that seat's browsers and one message for the game's
 * webhook, held with the move's emails and dropped if it is taken back;
 * the end of the game goes to every seat's browsers and the chat, and
 * a nudge pushes to the seat asked; the webhook's
 * first message, its rates, its removal; claiming with the outbox's
 * backoff, and giving up.
 */
#include <stdio.h>
#include <string.h>

#include <check.h>

#include "fixture.h"
#include "store.h"
#include "store_notice.h"
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
		.players = 3, .first = 1, .seed = "7",
		.names = { "Ann", "Bob", "Cy" },
		.emails = { "ann@example.org", "bob@example.org",
		            "cy@example.org" },
	};
	store_error err;

	fixture_scratch("notice", dir, path);
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

static void subscribe(int seat, const char *endpoint)
{
	store_push_sub p;
	store_error err;

	memset(&p, 0, sizeof p);
	snprintf(p.endpoint, sizeof p.endpoint, "%s", endpoint);
	snprintf(p.p256dh, sizeof p.p256dh, "%s", p256dh);
	snprintf(p.auth, sizeof p.auth, "%s", auth);
	ck_assert_int_eq(store_push_add(st, game, seat, &p, 0, &err), STORE_OK);
}

/* The count of the game's notices where cond holds. */
static long long count(const char *cond)
{
	char q[512];

	snprintf(q, sizeof q, "SELECT count(*) FROM notices WHERE game = '%s'"
	         " AND %s", game, cond);
	return fixture_sql_value(path, q);
}

/* The seat to move plays its first legal action; the seat to move
 * after it. */
static int move(void)
{
	static bt_action legal[BT_MAX_LEGAL];
	store_game g;
	store_error err;

	ck_assert_int_eq(store_load(st, game, &g, &err), STORE_OK);
	ck_assert_int_gt(bt_legal(&g.state, legal, BT_MAX_LEGAL), 0);
	ck_assert_int_eq(store_append(st, game, g.seq, &legal[0], NULL, NULL,
	                              &g, &err), STORE_OK);
	return g.state.status == BT_PLAYING ? g.state.turn : 0;
}

/* Moves until the turn passes to another seat; that seat. */
static int pass_turn(void)
{
	store_game g;
	store_error err;

	ck_assert_int_eq(store_load(st, game, &g, &err), STORE_OK);
	int from = g.state.turn;
	for (int i = 0; i < 50; i++) {
		int to = move();
		if (to != from)
			return to;
	}
	ck_abort_msg("the turn did not pass in 50 moves");
	return 0;
}

START_TEST(test_turn_queues_push_and_hook)
{
	store_error err;

	subscribe(2, "https://push.example.net/b1");
	subscribe(2, "https://push.example.net/b2");
	subscribe(3, "https://push.example.net/c1");
	ck_assert_int_eq(store_hook_set(st, game, 3, "https://chat.example.org/"
	                                "h", "discord", &err), STORE_OK);
	ck_assert_int_eq(count("channel = 'hook' AND kind = 'hello'"), 1);
	int to = pass_turn();
	char cond[160];
	snprintf(cond, sizeof cond, "channel = 'push' AND kind = 'turn' AND "
	         "seat = %d", to);
	ck_assert_int_eq(count(cond), to == 2 ? 2 : to == 3 ? 1 : 0);
	snprintf(cond, sizeof cond, "channel = 'hook' AND kind = 'turn' AND "
	         "seat = %d AND round >= 1", to);
	ck_assert_int_eq(count(cond), 1);
	ck_assert_int_eq(count("risk < -1 OR risk > 100"), 0);
	/* nothing to a seat that turned its browsers off */
	ck_assert_int_eq(store_push_remove(st, game, 2, NULL, &err), STORE_OK);
	ck_assert_int_eq(store_push_remove(st, game, 3, NULL, &err), STORE_OK);
	long long before = count("channel = 'push'");
	pass_turn();
	ck_assert_int_eq(count("channel = 'push'"), before);
}
END_TEST

START_TEST(test_claim_backoff_and_give_up)
{
	store_notice n;
	store_error err;

	subscribe(2, "https://push.example.net/b1");
	subscribe(3, "https://push.example.net/c1");
	pass_turn();
	ck_assert_int_eq(count("channel = 'push'"), 1);
	ck_assert_int_eq(store_notice_claim(st, T0, &n, &err), STORE_OK);
	ck_assert_int_eq(n.attempts, 1);
	ck_assert_int_eq(n.next_attempt, T0 + STORE_RETRY_FIRST);
	ck_assert_str_eq(n.channel, "push");
	ck_assert_int_eq(store_notice_claim(st, T0, &n, &err), STORE_NOT_FOUND);
	ck_assert_int_eq(store_notice_next_due(st), T0 + STORE_RETRY_FIRST);
	int64_t now = T0;
	for (int i = 1; i < STORE_NOTICE_ATTEMPTS; i++) {
		ck_assert_int_eq(store_notice_failed(st, &n, "answered HTTP 500",
		                                     0, &err), STORE_OK);
		now = n.next_attempt;
		ck_assert_int_eq(store_notice_claim(st, now, &n, &err), STORE_OK);
		ck_assert_int_eq(n.attempts, i + 1);
	}
	/* the last attempt's failure gives it up, keeping why */
	ck_assert_int_eq(store_notice_failed(st, &n, "answered HTTP 500", 0,
	                                     &err), STORE_OK);
	ck_assert_int_eq(count("dropped IS NOT NULL AND last_error = "
	                       "'answered HTTP 500'"), 1);
	ck_assert_int_eq(store_notice_next_due(st), -1);
	/* a send marks it */
	pass_turn();
	ck_assert_int_eq(store_notice_claim(st, now, &n, &err), STORE_OK);
	ck_assert_int_eq(store_notice_sent(st, n.id, &err), STORE_OK);
	ck_assert_int_eq(count("sent IS NOT NULL"), 1);
}
END_TEST

START_TEST(test_hook_rates_and_removal)
{
	store_hook h;
	store_error err;

	store_set_hook_rules(st, &(store_hook_rules){ .per_game_hour = 3 });
	ck_assert_int_eq(store_hook_get(st, game, &h, &err), STORE_NOT_FOUND);
	ck_assert_int_eq(store_hook_set(st, game, 1, "ftp://x.example/",
	                                "json", &err), STORE_INVALID);
	ck_assert_int_eq(store_hook_set(st, game, 1, "https://x.example/a b",
	                                "json", &err), STORE_INVALID);
	ck_assert_int_eq(store_hook_set(st, game, 4, "https://x.example/",
	                                "json", &err), STORE_NOT_FOUND);
	ck_assert_int_eq(store_hook_set(st, game, 1, "https://x.example/h",
	                                "json", &err), STORE_OK);
	ck_assert_int_eq(store_hook_get(st, game, &h, &err), STORE_OK);
	ck_assert_str_eq(h.url, "https://x.example/h");
	ck_assert_int_eq((int)strlen(h.secret), STORE_HOOK_SECRET_HEX);
	ck_assert_int_eq(h.set_by, 1);
	for (int i = 0; i < 6; i++)
		pass_turn();
	/* three an hour: the rest kept, dropped, saying so */
	ck_assert_int_eq(count("channel = 'hook' AND dropped IS NULL"), 3);
	ck_assert_int_ge(count("channel = 'hook' AND last_error LIKE "
	                       "'over the game%'"), 1);
	/* an hour on, the rate has room again */
	fixture_clock(T0 + 3601);
	long long queued = count("channel = 'hook' AND dropped IS NULL");
	pass_turn();
	ck_assert_int_eq(count("channel = 'hook' AND dropped IS NULL"),
	                 queued + 1);
	/* removed: its queued messages go nowhere, and no more come */
	ck_assert_int_eq(store_hook_remove(st, game, &err), STORE_OK);
	ck_assert_int_eq(count("channel = 'hook' AND sent IS NULL AND dropped"
	                       " IS NULL"), 0);
	ck_assert_int_eq(store_hook_remove(st, game, &err), STORE_NOT_FOUND);
	long long all = count("channel = 'hook'");
	pass_turn();
	ck_assert_int_eq(count("channel = 'hook'"), all);
	/* the whole server's rate: this game's first message is over it
	 * once another game had its one this hour */
	char other[STORE_ID_LEN + 1];
	store_new_game ng = {
		.players = 2, .first = 1, .seed = "8", .names = { "Di", "Ed" },
		.emails = { "di@example.org", "ed@example.org" },
	};
	ck_assert_int_eq(store_create(st, &ng, other, &err), STORE_OK);
	store_set_hook_rules(st, &(store_hook_rules){ .per_game_hour = 100,
	                                              .per_server_hour = 1 });
	fixture_clock(T0 + 3 * 3600);
	ck_assert_int_eq(store_hook_set(st, other, 1, "https://y.example/h",
	                                "json", &err), STORE_OK);
	ck_assert_int_eq(store_hook_set(st, game, 1, "https://x.example/h",
	                                "json", &err), STORE_OK);
	ck_assert_int_eq(count("channel = 'hook' AND kind = 'hello' AND "
	                       "last_error LIKE 'over the server%'"), 1);
	/* the admin's switch */
	store_set_hook_rules(st, &(store_hook_rules){ .off = 1 });
	ck_assert(store_hooks_off(st));
	ck_assert_int_eq(store_hook_set(st, game, 1, "https://x.example/h",
	                                "json", &err), STORE_LIMITED);
}
END_TEST

START_TEST(test_nudge_and_end)
{
	store_game g;
	store_error err;

	for (int s = 1; s <= 3; s++) {
		char e[64];
		snprintf(e, sizeof e, "https://push.example.net/s%d", s);
		subscribe(s, e);
	}
	ck_assert_int_eq(store_hook_set(st, game, 1, "https://x.example/h",
	                                "slack", &err), STORE_OK);
	int to = pass_turn();
	ck_assert_int_eq(store_load(st, game, &g, &err), STORE_OK);
	int by = to == 1 ? 2 : 1;
	ck_assert_int_eq(store_nudge(st, game, g.seq, by, NULL, &err), STORE_OK);
	char cond[160];
	snprintf(cond, sizeof cond, "channel = 'push' AND kind = 'nudge' AND "
	         "seat = %d AND by_seat = %d", to, by);
	ck_assert_int_eq(count(cond), 1);
	ck_assert_int_eq(count("channel = 'hook' AND kind = 'nudge'"), 0);
	/* to the end: every seat's browsers and the chat hear of it once */
	store_set_hook_rules(st, &(store_hook_rules){ .per_game_hour = 100000 });
	for (int i = 0; i < 3000 && move() != 0; i++)
		continue;
	ck_assert_int_eq(store_load(st, game, &g, &err), STORE_OK);
	ck_assert_int_ne(g.state.status, BT_PLAYING);
	const char *result = g.state.status == BT_WON ? "won" : "lost";
	snprintf(cond, sizeof cond, "channel = 'push' AND kind = 'over' AND "
	         "result = '%s'", result);
	ck_assert_int_eq(count(cond), 3);
	ck_assert_int_eq(count("channel = 'hook' AND kind = 'over'"), 1);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("store_notice");
	TCase *tc = tcase_create("notices");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_turn_queues_push_and_hook);
	tcase_add_test(tc, test_claim_backoff_and_give_up);
	tcase_add_test(tc, test_hook_rates_and_removal);
	tcase_add_test(tc, test_nudge_and_end);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *r = srunner_create(suite());
	int failed;

	srunner_run_all(r, CK_NORMAL);
	failed = srunner_ntests_failed(r);
	srunner_free(r);
	return failed ? 1 : 0;
}
