/*
 * check_jobs.c - bot seats and the worker's jobs in the store, on real
 * files: a bot's turn is queued in the transaction that gives it the
 * turn (a new game, a move, a rematch), once per turn; claims are leases;
 * a move is appended at the job's sequence number, so a job played twice
 * is refused the second time; who made each line is kept; the claims
 * take turns by game.
 */
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "fixture.h"
#include "store.h"

enum { T0 = 1700000000 };

static char dir[FIXTURE_PATH_MAX], path[FIXTURE_PATH_MAX];
static store *st;

static void setup(void)
{
	fixture_scratch("jobs", dir, path);
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

/* A 3-seat game, First Player first, the search bot in the seats of
 * bots (a bit per seat: 1 << (seat - 1)). */
static void create(int first, unsigned bots, char id[STORE_ID_LEN + 1])
{
	store_new_game ng = { .players = 3, .first = first, .seed = "42" };
	store_error err;

	for (int s = 0; s < 3; s++)
		ng.bots[s] = bots >> s & 1 ? "search" : NULL;
	ck_assert_msg(store_create(st, &ng, id, &err) == STORE_OK, "%s",
	              err.why);
}

/* Plays the first legal action of the seat to move, as made_by. */
static store_rc play_first(const char *id, const char *made_by)
{
	static store_game g;
	bt_action legal[BT_MAX_LEGAL];
	store_error err;

	ck_assert_int_eq(store_load(st, id, &g, &err), STORE_OK);
	ck_assert_int_gt(bt_legal(&g.state, legal, BT_MAX_LEGAL), 0);
	return store_append_as(st, id, g.seq, &legal[0], made_by, NULL, NULL,
	                       NULL, &err);
}

START_TEST(test_jobs_a_bot_first_player_is_queued_with_the_game)
{
	char id[STORE_ID_LEN + 1];
	store_game g;
	store_error err;
	store_job j;

	create(2, 1u << 1, id);
	ck_assert_int_eq(store_load(st, id, &g, &err), STORE_OK);
	ck_assert_str_eq(g.seats[1].bot, "search");
	ck_assert_str_eq(g.seats[0].bot, "");
	ck_assert_int_eq(store_job_next_due(st), T0);
	ck_assert_int_eq(store_job_claim(st, T0, 30, &j, &err), STORE_OK);
	ck_assert_str_eq(j.kind, "move");
	ck_assert_str_eq(j.game, id);
	ck_assert_int_eq(j.seq, 0);
	ck_assert_int_eq(j.seat, 2);
	ck_assert_int_eq(j.attempts, 1);
	/* claimed: a lease, nothing else is due until it runs out */
	ck_assert_int_eq(store_job_claim(st, T0, 30, &j, &err),
	                 STORE_NOT_FOUND);
	ck_assert_int_eq(store_job_claim(st, T0 + 30, 30, &j, &err), STORE_OK);
	ck_assert_int_eq(j.attempts, 2);
	/* a worker that knows it is alone takes the claims back */
	ck_assert_int_eq(store_job_reclaim(st, T0 + 31, &err), STORE_OK);
	ck_assert_int_eq(store_job_claim(st, T0 + 31, 30, &j, &err), STORE_OK);
	ck_assert_int_eq(store_job_done(st, j.id, "moved", &err), STORE_OK);
	ck_assert_int_eq(store_job_next_due(st), -1);
}
END_TEST

START_TEST(test_jobs_a_move_to_a_bot_queues_its_turn_once)
{
	char id[STORE_ID_LEN + 1];
	store_error err;
	store_job j;

	create(1, 1u << 1, id);
	ck_assert_int_eq(sql_value("SELECT count(*) FROM jobs"), 0);
	ck_assert_int_eq(play_first(id, ""), STORE_OK);
	ck_assert_int_eq(sql_value("SELECT count(*) FROM jobs"), 1);
	ck_assert_int_eq(store_job_claim(st, T0, 30, &j, &err), STORE_OK);
	ck_assert_int_eq(j.seq, 1);
	ck_assert_int_eq(j.seat, 2);
	/* the bot's move: the job's seq; once, then a conflict */
	static store_game g;
	bt_action legal[BT_MAX_LEGAL];
	ck_assert_int_eq(store_load(st, id, &g, &err), STORE_OK);
	ck_assert_int_gt(bt_legal(&g.state, legal, BT_MAX_LEGAL), 0);
	ck_assert_int_eq(store_append_as(st, id, j.seq, &legal[0], "bot", NULL,
	                                 NULL, NULL, &err), STORE_OK);
	ck_assert_int_eq(store_append_as(st, id, j.seq, &legal[0], "bot", NULL,
	                                 NULL, NULL, &err), STORE_CONFLICT);
	/* seat 3 is a person: no job for its turn */
	ck_assert_int_eq(sql_value("SELECT count(*) FROM jobs"), 1);
	ck_assert_int_eq(sql_value("SELECT count(*) FROM actions"), 2);
}
END_TEST

START_TEST(test_jobs_who_made_each_line_is_kept)
{
	char id[STORE_ID_LEN + 1], by[8];
	store_error err;

	create(1, 0, id);
	ck_assert_int_eq(play_first(id, ""), STORE_OK);
	ck_assert_int_eq(play_first(id, "bot"), STORE_OK);
	ck_assert_int_eq(play_first(id, "stand-in"), STORE_OK);
	ck_assert_int_eq(play_first(id, "robot"), STORE_INVALID);
	ck_assert_int_eq(store_made_by(st, id, by, sizeof by, &err), STORE_OK);
	ck_assert_int_eq(by[0], 0);
	ck_assert_int_eq(by[1], 'b');
	ck_assert_int_eq(by[2], 's');
	ck_assert_int_eq(by[3], 0);
}
END_TEST

START_TEST(test_jobs_bot_seats_are_checked)
{
	store_new_game ng = { .players = 2, .first = 1,
	                      .bots = { "search", "chess" } };
	char id[STORE_ID_LEN + 1];
	store_error err;

	ck_assert_int_eq(store_create(st, &ng, id, &err), STORE_INVALID);
	ck_assert_ptr_nonnull(strstr(err.why, "no such bot"));
	ng.bots[1] = NULL;
	ng.emails[0] = "bot@example.org";
	ck_assert_int_eq(store_create(st, &ng, id, &err), STORE_INVALID);
	ck_assert_ptr_nonnull(strstr(err.why, "no email"));
	ck_assert_int_eq(sql_value("SELECT count(*) FROM games"), 0);
	ck_assert_int_eq(sql_value("SELECT count(*) FROM jobs"), 0);
	ck_assert(store_bot_ok("search"));
	ck_assert(!store_bot_ok(""));
	ck_assert(!store_bot_ok("Search"));
}
END_TEST

START_TEST(test_jobs_a_finished_game_queues_its_review_only)
{
	char id[STORE_ID_LEN + 1];
	store_error err;
	store_game g;
	int moves = 0;

	create(1, 7, id);    /* every seat a bot */
	ck_assert_int_eq(sql_value("SELECT count(*) FROM jobs"), 1);
	do {
		ck_assert_int_eq(play_first(id, "bot"), STORE_OK);
		ck_assert_int_eq(store_load(st, id, &g, &err), STORE_OK);
		ck_assert_int_lt(++moves, 2000);
	} while (g.state.status == BT_PLAYING);
	/* one job per turn the game had, no move after the end: the last
	 * move queued the game's review instead, at the last seq */
	ck_assert_int_eq(sql_value("SELECT count(*) FROM jobs"
	                           " WHERE kind = 'move'"), moves);
	ck_assert_int_eq(sql_value("SELECT count(DISTINCT seq) FROM jobs"
	                           " WHERE kind = 'move'"), moves);
	ck_assert_int_eq(sql_value("SELECT count(*) FROM jobs"
	                           " WHERE kind = 'review'"), 1);
	ck_assert_int_eq(sql_value("SELECT seq FROM jobs WHERE kind = 'review'"),
	                 g.seq);
}
END_TEST

static void sql_exec(const char *sql)
{
	fixture_sql_exec(path, sql);
}

/* A store_seat_mail_fn: one email to the absent player, if it has one. */
static int told(void *ctx, const store_game *g, int seat,
                struct store_mail *m)
{
	(void)ctx;
	memset(m, 0, sizeof *m);
	m->seat = seat;
	snprintf(m->kind, sizeof m->kind, "standin");
	snprintf(m->to, sizeof m->to, "%s", g->seats[seat - 1].email);
	snprintf(m->subject, sizeof m->subject, "A bot plays for you");
	return m->to[0] != '\0';
}

/* A 3-seat game of people with this stand-in rule, seat 1 first. */
static void create_ruled(const char *rule, int days,
                         char id[STORE_ID_LEN + 1])
{
	store_new_game ng = { .players = 3, .first = 1, .seed = "42",
	                      .emails = { "ann@example.org" },
	                      .standin = rule, .standin_days = days };
	store_error err;

	ck_assert_msg(store_create(st, &ng, id, &err) == STORE_OK, "%s",
	              err.why);
}

START_TEST(test_jobs_standin_once_the_others_agree)
{
	char id[STORE_ID_LEN + 1], sql[200];
	store_error err;
	store_game g;
	int started = 0;

	create_ruled("agree", 0, id);
	ck_assert_int_eq(store_load(st, id, &g, &err), STORE_OK);
	ck_assert_str_eq(g.standin, "agree");
	/* not before the last reminder, never by the absent seat itself */
	ck_assert_int_eq(store_standin_ask(st, id, 0, 2, told, NULL, &started,
	                                   &err), STORE_INVALID);
	ck_assert_ptr_nonnull(strstr(err.why, "last reminder"));
	snprintf(sql, sizeof sql, "UPDATE games SET reminders = 2 WHERE id = "
	         "'%s'", id);
	sql_exec(sql);
	ck_assert_int_eq(store_standin_ask(st, id, 0, 1, told, NULL, &started,
	                                   &err), STORE_INVALID);
	ck_assert_int_eq(store_standin_ask(st, id, 1, 2, told, NULL, &started,
	                                   &err), STORE_INVALID);   /* stale */
	ck_assert_int_eq(store_standin_ask(st, id, 0, 2, told, NULL, &started,
	                                   &err), STORE_OK);
	ck_assert_int_eq(started, 0);
	ck_assert_int_eq(sql_value("SELECT count(*) FROM jobs"), 0);
	ck_assert_int_eq(store_standin_ask(st, id, 0, 3, told, NULL, &started,
	                                   &err), STORE_OK);
	ck_assert_int_eq(started, 1);
	/* the bot has this very turn, the absent player is told */
	ck_assert_int_eq(sql_value("SELECT count(*) FROM jobs WHERE seq = 0 "
	                           "AND seat = 1"), 1);
	ck_assert_int_eq(sql_value("SELECT count(*) FROM outbox WHERE kind = "
	                           "'standin' AND recipient = "
	                           "'ann@example.org'"), 1);
	ck_assert_int_eq(store_load(st, id, &g, &err), STORE_OK);
	ck_assert_int_eq(g.seats[0].standin_since, T0);
	/* the stand-in's move; then the bot has seat 1's turns until... */
	ck_assert_int_eq(play_first(id, "stand-in"), STORE_OK);
	ck_assert_int_eq(store_load(st, id, &g, &err), STORE_OK);
	ck_assert_int_eq(g.seats[0].standin_since, T0);
	/* ... its player opens the link */
	ck_assert_int_eq(store_standin_end(st, id, 1, &err), STORE_OK);
	ck_assert_int_eq(store_load(st, id, &g, &err), STORE_OK);
	ck_assert_int_eq(g.seats[0].standin_since, 0);
}
END_TEST

START_TEST(test_jobs_standin_after_days_until_the_player_moves)
{
	char id[STORE_ID_LEN + 1];
	store_error err;
	store_game g;
	int n = -1;

	create_ruled("days", 2, id);
	fixture_clock(T0 + 2 * 86400 - 1);
	ck_assert_int_eq(store_queue_standins(st, T0 + 2 * 86400 - 1, told,
	                                      NULL, &n, &err), STORE_OK);
	ck_assert_int_eq(n, 0);
	fixture_clock(T0 + 2 * 86400);
	ck_assert_int_eq(store_queue_standins(st, T0 + 2 * 86400, told, NULL,
	                                      &n, &err), STORE_OK);
	ck_assert_int_eq(n, 1);
	ck_assert_int_eq(sql_value("SELECT count(*) FROM jobs"), 1);
	/* once is enough */
	ck_assert_int_eq(store_queue_standins(st, T0 + 3 * 86400, told, NULL,
	                                      &n, &err), STORE_OK);
	ck_assert_int_eq(n, 0);
	/* the player moves again: the seat is theirs */
	ck_assert_int_eq(play_first(id, ""), STORE_OK);
	ck_assert_int_eq(store_load(st, id, &g, &err), STORE_OK);
	ck_assert_int_eq(g.seats[0].standin_since, 0);
	/* a rule out of range is refused */
	store_new_game bad = { .players = 2, .first = 1, .standin = "days",
	                       .standin_days = 31 };
	ck_assert_int_eq(store_create(st, &bad, id, &err), STORE_INVALID);
	bad.standin = "sometimes";
	bad.standin_days = 1;
	ck_assert_int_eq(store_create(st, &bad, id, &err), STORE_INVALID);
}
END_TEST

/* Adds n more due jobs to game id, after those there (fixture SQL: no
 * way through the store queues more than one move job a turn). */
static void add_jobs(const char *id, int n)
{
	char q[512];

	snprintf(q, sizeof q, "WITH RECURSIVE k(i) AS (SELECT 1 UNION ALL "
	         "SELECT i + 1 FROM k WHERE i < %d) INSERT INTO jobs (kind, "
	         "game, seq, seat, created, due) SELECT 'move', '%s', "
	         "(SELECT coalesce(max(seq), -1) FROM jobs) + i, 1, %d, %d "
	         "FROM k", n, id, T0, T0);
	fixture_sql_value(path, q);
}

/* Where game id's first job comes among the next claims (each done,
 * as the worker does them), all at T0; 0 if not in the first max. */
static int claims_until(const char *id, int reviews, int max)
{
	store_error err;
	store_job j;

	for (int i = 1; i <= max; i++) {
		ck_assert_int_eq(reviews < 0
		                 ? store_job_claim(st, T0, 30, &j, &err)
		                 : store_job_claim_phase(st, T0, 30, reviews,
		                                         &j, &err), STORE_OK);
		ck_assert_int_eq(store_job_done(st, j.id, "moved", &err),
		                 STORE_OK);
		if (strcmp(j.game, id) == 0)
			return i;
	}
	return 0;
}

START_TEST(test_jobs_one_busy_game_does_not_starve_another)
{
	char a[STORE_ID_LEN + 1], b[STORE_ID_LEN + 1];

	create(1, 0, a);
	create(1, 0, b);
	add_jobs(a, 40);
	add_jobs(b, 1);
	ck_assert_int_eq(sql_value("SELECT count(*) FROM jobs"), 41);
	/* all due at once, A's queued first: B's comes second, right after
	 * A has had one (and so in the worker's phase of bot moves) */
	ck_assert_int_eq(claims_until(b, -1, 41), 2);
	ck_assert_int_eq(sql_value("UPDATE jobs SET done = NULL, due = 1,"
	                           " attempts = 0 RETURNING 1"), 1);
	ck_assert_int_eq(claims_until(b, 0, 41), 2);
}
END_TEST

/* A worker waiting between its looks is woken when another connection
 * (another host's, on a server) queues a bot's turn; a file's worker has
 * nothing to wait on and looks each second. */
START_TEST(test_jobs_a_queued_turn_wakes_a_waiting_worker)
{
	char id[STORE_ID_LEN + 1];
	store *waiter = fixture_open(path);
	int fd = store_wake_fd(waiter);

	if (fixture_engine_is_sqlite()) {
		ck_assert_int_eq(fd, -1);
		ck_assert_int_eq(store_woken(waiter), 0);
		store_close(waiter);
		return;
	}
	ck_assert_int_ge(fd, 0);
	create(1, 1u << 1, id);      /* no bot to move: no job, no wake */
	struct pollfd p = { .fd = fd, .events = POLLIN };
	ck_assert_int_eq(poll(&p, 1, 300) == 1 && store_woken(waiter), 0);
	ck_assert_int_eq(play_first(id, ""), STORE_OK);   /* the bot's turn */
	ck_assert_int_eq(store_wake_fd(waiter), fd);
	ck_assert_int_eq(poll(&p, 1, 10000), 1);
	ck_assert_int_eq(store_woken(waiter), 1);
	ck_assert_int_eq(store_woken(waiter), 0);
	store_close(waiter);
}
END_TEST

static Suite *jobs_suite(void)
{
	Suite *s = suite_create("jobs");
	TCase *tc = tcase_create("jobs");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_jobs_a_bot_first_player_is_queued_with_the_game);
	tcase_add_test(tc, test_jobs_a_move_to_a_bot_queues_its_turn_once);
	tcase_add_test(tc, test_jobs_who_made_each_line_is_kept);
	tcase_add_test(tc, test_jobs_bot_seats_are_checked);
	tcase_add_test(tc, test_jobs_a_finished_game_queues_its_review_only);
	tcase_add_test(tc, test_jobs_standin_once_the_others_agree);
	tcase_add_test(tc, test_jobs_standin_after_days_until_the_player_moves);
	tcase_add_test(tc, test_jobs_one_busy_game_does_not_starve_another);
	tcase_add_test(tc, test_jobs_a_queued_turn_wakes_a_waiting_worker);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(jobs_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
