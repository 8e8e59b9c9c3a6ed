/*
 * check_talk_bound.c - table talk is bounded (issue 24, item 4), on a real
 * database (fixture.h): a game's talk has a cap (store_set_talk_cap, the
 * talk_per_game setting), and what shows or mails talk reads a window of
 * it, not every line: a move's emails (composed inside the move's write
 * transaction), a digest, the feed's and the table's newest lines.
 *
 * Work is counted, not timed: the SQLite virtual machine steps of every
 * statement of the store's connection (sqlite3_stmt_status VM_STEP) for
 * the same call with no talk and with TALK_ROWS lines of it.  Reading
 * every line costs at least one step a line, so a call that costs fewer
 * extra steps than there are lines did not read them all.  PostgreSQL
 * has no such counter: there a step is a row of chat read (its table's
 * and indexes' statistics, which the store's connection flushes on
 * demand), and reading every line reads them all.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>
#include <sodium.h>
#include <sqlite3.h>

#include "compose.h"
#include "driver.h"
#include "driver_sqlite.h"
#include "fixture.h"
#include "sql.h"
#include "store.h"
#include "store_talk.h"
#include "token.h"

enum {
	TALK_ROWS = 20000,        /* half a day of a talkative game */
	T0 = 1700000000
};

static const char BASE[] = "https://bt.example.org/";
static const char *const EMAILS[3] = {
	"ann@example.org", "bob@example.org", "cyd@example.org"
};

static char dir[FIXTURE_PATH_MAX], path[FIXTURE_PATH_MAX];
static store *st;
static token_keys keys;
static compose_ctx cc;

static void setup(void)
{
	unsigned char master[TOKEN_KEY_BYTES];

	ck_assert_int_ge(sodium_init(), 0);
	fixture_scratch("talkbound", dir, path);
	st = fixture_open(path);
	memset(master, 7, sizeof master);
	token_keys_derive(master, &keys);
	cc = (compose_ctx){ .st = st, .keys = &keys, .base_url = BASE };
	fixture_clock(T0);
}

static void teardown(void)
{
	store_close(st);
	fixture_remove(dir);
	fixture_clock(0);
}

/* PostgreSQL: the rows of chat read so far, on any connection (the
 * store's own flushes its pending counts first: the flush is at the
 * statement's end, before the next one). */
static long long chat_rows_read(void)
{
	static const char sql[] =
		"SELECT coalesce(sum(idx_tup_read), 0) + (SELECT seq_tup_read"
		" FROM pg_stat_user_tables WHERE relid = 'chat'::regclass)"
		" FROM pg_stat_user_indexes WHERE relid = 'chat'::regclass";
	long long n = -1;

	ck_assert_int_eq(db_exec(st->db, "SELECT pg_stat_force_next_flush()"),
	                 DB_OK);
	db_stmt *q = db_prepare(st->db, sql);
	ck_assert_msg(q != NULL, "%s", db_errmsg(st->db));
	if (db_step(q) == DB_ROW)
		n = db_column_int64(q, 0);
	db_finalize(q);
	ck_assert_int_ge(n, 0);
	return n;
}

/* The VM steps of every statement of the store's connection since the
 * last call (each statement's counter is reset); on PostgreSQL the rows
 * of chat read since. */
static long long steps(void)
{
	static long long read_before;
	long long n = 0;

	if (!fixture_engine_is_sqlite()) {
		long long now = chat_rows_read();
		n = now - read_before;
		read_before = now;
		return n;
	}
	sqlite3 *db = db_sqlite_handle(st->db);

	for (sqlite3_stmt *p = sqlite3_next_stmt(db, NULL); p;
	     p = sqlite3_next_stmt(db, p))
		n += sqlite3_stmt_status(p, SQLITE_STMTSTATUS_VM_STEP, 1);
	return n;
}

/* A three-seat game in which every seat gets an email for every move. */
static void game_new(char id[STORE_ID_LEN + 1])
{
	store_new_game ng = { .players = 3, .first = 1 };
	store_error err;

	ng.names[0] = "Ann";
	ng.names[1] = "Bob";
	ng.names[2] = "Cyd";
	for (int i = 0; i < 3; i++)
		ng.emails[i] = EMAILS[i];
	ck_assert_msg(store_create(st, &ng, id, &err) == STORE_OK, "%s",
	              err.why);
	for (int s = 1; s <= 3; s++)
		ck_assert_int_eq(store_set_notify(st, id, s, STORE_NOTIFY_EVERY,
		                                  &err), STORE_OK);
}

/* Adds n lines of talk to game id after its others, on a connection of
 * its own, in one transaction, said before the game's moves (at_seq 0)
 * and an hour ago, as a game's talk before its cap was known. */
static void fill_talk(const char *id, int n)
{
	db_conn *db;
	db_stmt *ins;
	char why[256];
	const char *sql =
		"WITH RECURSIVE c(i) AS (SELECT 0 UNION ALL SELECT i + 1"
		" FROM c WHERE i + 1 < ?2)"
		" INSERT INTO chat (game, seq, seat, text, created, at_seq)"
		" SELECT ?1, (SELECT coalesce(max(seq) + 1, 0) FROM chat"
		" WHERE game = ?1) + i, 1 + i % 3, 'line ' || i, ?3, 0"
		" FROM c";

	ck_assert_msg(db_open(path, &db, why, sizeof why) == DB_OK, "%s", why);
	db_set_busy_timeout(db, 5000);
	ck_assert_msg((ins = db_prepare(db, sql)) != NULL, "%s",
	              db_errmsg(db));
	db_bind_text(ins, 1, id, -1);
	db_bind_int(ins, 2, n);
	db_bind_int64(ins, 3, T0 - 3600);
	ck_assert_msg(db_step(ins) == DB_DONE, "%s", db_errmsg(db));
	db_finalize(ins);
	/* PostgreSQL plans by its statistics, which autovacuum brings up
	 * to date after such a load: at once here; and the rows read are
	 * counted now, not when its server process ends */
	if (!fixture_engine_is_sqlite())
		ck_assert_int_eq(db_exec(db, "ANALYZE chat;"
		                         "SELECT pg_stat_force_next_flush()"),
		                 DB_OK);
	db_close(db);
}

/* Plays the first legal action of game id with its emails composed:
 * the VM steps it took. */
static long long move(const char *id)
{
	bt_action legal[BT_MAX_LEGAL];
	store_error err;
	store_game g;

	ck_assert_int_eq(store_load(st, id, &g, &err), STORE_OK);
	ck_assert_int_gt(bt_legal(&g.state, legal, BT_MAX_LEGAL), 0);
	steps();
	ck_assert_msg(store_append(st, id, g.seq, &legal[0], compose_move,
	              &cc, NULL, &err) == STORE_OK, "%s", err.why);
	return steps();
}

static int count_chat(void *ctx, const store_chat *c)
{
	(void)c;
	++*(int *)ctx;
	return 0;
}

/* ---- the window ------------------------------------------------------- */

/* A move's emails (every seat's, composed inside the move's write
 * transaction) cost no more with a day's talk than with none. */
START_TEST(test_move_mail_reads_a_window_of_talk)
{
	char id[STORE_ID_LEN + 1];
	long long quiet, talky;

	game_new(id);
	move(id);
	quiet = move(id);
	fill_talk(id, TALK_ROWS);
	talky = move(id);
	printf("a move's VM steps: %lld with no talk, %lld with %d lines\n",
	       quiet, talky, TALK_ROWS);
	ck_assert_msg(talky - quiet < TALK_ROWS, "a move read the talk: "
	              "%lld steps with %d lines, %lld without", talky,
	              TALK_ROWS, quiet);
}
END_TEST

/* A digest of the whole game, likewise. */
START_TEST(test_digest_reads_a_window_of_talk)
{
	char id[STORE_ID_LEN + 1];
	static store_mail m;
	long long quiet, talky, since;
	char newest[32];
	store_error err;
	store_game g;

	game_new(id);
	move(id);
	move(id);
	ck_assert_int_eq(store_load(st, id, &g, &err), STORE_OK);
	steps();
	ck_assert_int_eq(compose_digest(&cc, &g, 1, 0, &m), 1);
	quiet = steps();
	fill_talk(id, TALK_ROWS);
	steps();
	ck_assert_int_eq(compose_digest(&cc, &g, 1, 0, &m), 1);
	talky = steps();
	ck_assert_int_eq(compose_digest(&cc, &g, 1, T0 - 7200, &m), 1);
	since = steps();
	if (since > talky)
		talky = since;
	printf("a digest's VM steps: %lld with no talk, %lld with %d lines\n",
	       quiet, talky, TALK_ROWS);
	ck_assert_msg(talky - quiet < TALK_ROWS, "a digest read the talk: "
	              "%lld steps", talky);
	/* it tells the newest and says how many more there are */
	snprintf(newest, sizeof newest, "line %d\n", TALK_ROWS - 1);
	ck_assert_ptr_nonnull(strstr(m.body, newest));
	ck_assert_ptr_null(strstr(m.body, "line 0\n"));
	ck_assert_ptr_nonnull(strstr(m.body, "earlier messages left out"));
}
END_TEST

/* The newest lines, as the feed, the table and the history read them. */
START_TEST(test_latest_reads_a_window)
{
	char id[STORE_ID_LEN + 1];
	store_error err;
	long long n;
	int got = 0;

	game_new(id);
	fill_talk(id, TALK_ROWS);
	steps();
	ck_assert_int_eq(store_chat_latest(st, id, 50, count_chat, &got,
	                                   &err), STORE_OK);
	n = steps();
	ck_assert_int_eq(got, 50);
	ck_assert_msg(n < 50 * 40, "%lld steps for 50 lines", n);
}
END_TEST

/* ---- the cap ---------------------------------------------------------- */

/* The default cap holds on a store nobody set one on (the inbound mail
 * and the worker too): the line after it is refused, said nowhere. */
START_TEST(test_default_cap_refuses_the_next_line)
{
	char id[STORE_ID_LEN + 1];
	store_error err;

	game_new(id);
	fill_talk(id, STORE_TALK_PER_GAME - 1);
	ck_assert_int_eq(store_chat_add(st, id, 1, "the last one", &err),
	                 STORE_OK);
	ck_assert_int_eq(store_chat_add(st, id, 2, "one more", &err),
	                 STORE_LIMITED);
	ck_assert_ptr_nonnull(strstr(err.why, "table talk"));
	ck_assert_int_eq(fixture_sql_value(path, "SELECT count(*) FROM chat"),
	                 STORE_TALK_PER_GAME);
}
END_TEST

/* A cap set smaller: line cap + 1 is refused, in any game alike, and
 * store_chat_left says how many may still be said. */
START_TEST(test_set_cap_refuses_line_cap_plus_one)
{
	char id[STORE_ID_LEN + 1];
	store_error err;
	int left = -1;

	game_new(id);
	store_set_talk_cap(st, 3);
	ck_assert_int_eq(store_chat_left(st, id, &left, &err), STORE_OK);
	ck_assert_int_eq(left, 3);
	ck_assert_int_eq(store_chat_add(st, id, 1, "one", &err), STORE_OK);
	ck_assert_int_eq(store_chat_add(st, id, 2, "two", &err), STORE_OK);
	ck_assert_int_eq(store_chat_add(st, id, 3, "three", &err), STORE_OK);
	ck_assert_int_eq(store_chat_left(st, id, &left, &err), STORE_OK);
	ck_assert_int_eq(left, 0);
	ck_assert_int_eq(store_chat_add(st, id, 1, "four", &err),
	                 STORE_LIMITED);
	ck_assert_int_eq(fixture_sql_value(path, "SELECT count(*) FROM chat"),
	                 3);
	/* a move still goes, its bot line or not */
	move(id);
}
END_TEST

/* The since-query is served by an index, in order, a window at most. */
START_TEST(test_since_reads_at_most_n)
{
	char id[STORE_ID_LEN + 1];
	store_error err;
	long long n;
	int got = 0, matching = 0;

	game_new(id);
	fill_talk(id, TALK_ROWS);
	steps();
	ck_assert_int_eq(store_chat_since(st, id, STORE_CHAT_FROM_LINE, 0, 12,
	                 count_chat, &got, &matching, &err), STORE_OK);
	n = steps();
	ck_assert_int_eq(got, 12);
	ck_assert_int_eq(matching, STORE_CHAT_COUNT_MAX);
	ck_assert_msg(n < TALK_ROWS, "%lld steps", n);
	got = 0;
	ck_assert_int_eq(store_chat_since(st, id, STORE_CHAT_FROM_TIME, T0,
	                 12, count_chat, &got, &matching, &err), STORE_OK);
	ck_assert_int_eq(got, 0);
	ck_assert_int_eq(matching, 0);
	ck_assert_int_eq(store_chat_since(st, id, STORE_CHAT_FROM_LINE, 1,
	                 12, count_chat, &got, &matching, &err), STORE_OK);
	ck_assert_int_eq(got, 0);
	ck_assert_int_eq(matching, 0);
	ck_assert_msg(steps() < 1000, "nothing since: a seek, not a scan");
}
END_TEST

/* Each statement that reads talk searches an index, in its order (a sort
 * only of the window it took, at the top); none scans the table. */
START_TEST(test_talk_reads_are_index_searches)
{
	static const enum sql_stmt reads[] = {
		SQL_CHAT_LATEST, SQL_CHAT_SIZE, SQL_CHAT_SINCE_LINE,
		SQL_CHAT_SINCE_TIME, SQL_CHAT_COUNT_LINE, SQL_CHAT_COUNT_TIME,
	};
	char q[1024];

	for (size_t i = 0; i < sizeof reads / sizeof reads[0]; i++) {
		sqlite3_stmt *plan;
		int searches = 0;
		snprintf(q, sizeof q, "EXPLAIN QUERY PLAN %s",
		         sql_text_of(reads[i]));
		ck_assert_int_eq(sqlite3_prepare_v2(db_sqlite_handle(st->db), q,
		                                    -1, &plan, NULL),
		                 SQLITE_OK);
		while (sqlite3_step(plan) == SQLITE_ROW) {
			int parent = sqlite3_column_int(plan, 1);
			const char *d = (const char *)sqlite3_column_text(plan,
			                                                   3);
			if (strstr(d, "chat") && !strstr(d, "subquery")) {
				ck_assert_msg(strncmp(d, "SEARCH chat USING ", 18)
				              == 0, "%s: %s", q, d);
				searches++;
			}
			if (strstr(d, "TEMP B-TREE"))
				ck_assert_msg(parent == 0, "%s: %s", q, d);
		}
		sqlite3_finalize(plan);
		ck_assert_int_eq(searches, 1);
	}
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("talk_bound");
	TCase *tc = tcase_create("talk_bound");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_move_mail_reads_a_window_of_talk);
	tcase_add_test(tc, test_digest_reads_a_window_of_talk);
	tcase_add_test(tc, test_latest_reads_a_window);
	tcase_add_test(tc, test_default_cap_refuses_the_next_line);
	tcase_add_test(tc, test_set_cap_refuses_line_cap_plus_one);
	tcase_add_test(tc, test_since_reads_at_most_n);
	/* SQLite's EXPLAIN QUERY PLAN; PostgreSQL's rows read show it */
	if (fixture_engine_is_sqlite())
		tcase_add_test(tc, test_talk_reads_are_index_searches);
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
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
