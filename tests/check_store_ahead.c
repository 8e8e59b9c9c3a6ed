/*
 * check_store_ahead.c - reading ahead (db/store_ahead.c) on either
 * engine: the reads a table page makes (the mark, the game, its lines,
 * talk, shown hands, crew, the last line for a take back) find the same
 * things with and without reading ahead, and on a server all of them
 * make one round trip once read ahead (a reader that binds otherwise
 * than store_ahead.c makes more); store_load alone makes one; rows read
 * ahead never outlive a write nor the request.  tests/store_pg.sh runs
 * it on PostgreSQL; on a file it counts no round trip at all.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "fixture.h"
#include "store.h"

enum { T0 = 1700000000, CHATS = 20 };

static char dir[FIXTURE_PATH_MAX], path[FIXTURE_PATH_MAX];
static store *st;
static char id[STORE_ID_LEN + 1];

/* A 3-seat game with two moves and two messages. */
static void setup(void)
{
	store_new_game ng = { .players = 3, .first = 1, .seed = "26",
	                      .names = { "Beckett", "Brad", "Tendi" },
	                      .emails = { "mariner@example.org",
	                                  "Boimler+cerritos@Example.org" } };
	bt_action legal[BT_MAX_LEGAL];
	store_error err;
	store_game g;

	fixture_scratch("ahead", dir, path);
	fixture_clock(T0);
	st = fixture_open(path);
	ck_assert_msg(store_create(st, &ng, id, &err) == STORE_OK, "%s",
	              err.why);
	for (int i = 0; i < 2; i++) {
		ck_assert_int_eq(store_load(st, id, &g, &err), STORE_OK);
		ck_assert_int_gt(bt_legal(&g.state, legal, BT_MAX_LEGAL), 0);
		ck_assert_msg(store_append(st, id, g.seq, &legal[0], NULL, NULL,
		                           &g, &err) == STORE_OK, "%s", err.why);
	}
	ck_assert_int_eq(store_chat_add(st, id, 1, "Red alert!", &err),
	                 STORE_OK);
	ck_assert_int_eq(store_chat_add(st, id, 2, "Again?", &err), STORE_OK);
}

static void teardown(void)
{
	store_close(st);
	fixture_remove(dir);
	fixture_clock(0);
}

/* What a table page reads, summed up. */
typedef struct seen {
	store_mark mark;
	store_game game;
	int lines, chats, can_take_back, crew_before;
	unsigned shown;
	char said[256];
} seen;

static int count_line(void *ctx, int seq, int64_t created,
                      const bt_game *before, const bt_game *after,
                      const bt_action *a)
{
	(void)seq, (void)created, (void)before, (void)after, (void)a;
	((seen *)ctx)->lines++;
	return 0;
}

static int keep_chat(void *ctx, const store_chat *c)
{
	seen *s = ctx;
	size_t n = strlen(s->said);

	s->chats++;
	snprintf(s->said + n, sizeof s->said - n, "%d:%s;", c->seat, c->text);
	return 0;
}

/* The table page's reads, in its order (cgi/page_table.c, live.c,
 * seat.c, table_*.c). */
static void read_table(seen *s)
{
	store_error err;

	memset(s, 0, sizeof *s);
	ck_assert_int_eq(store_mark_get(st, id, CHATS, &s->mark, &err),
	                 STORE_OK);
	ck_assert_int_eq(store_load(st, id, &s->game, &err), STORE_OK);
	ck_assert_int_eq(store_walk(st, &s->game, -1, count_line, s, NULL,
	                            &err), STORE_OK);
	ck_assert_int_eq(store_chat_latest(st, id, CHATS, keep_chat, s, &err),
	                 STORE_OK);
	ck_assert_int_eq(store_shown_get(st, id, &s->shown, &err), STORE_OK);
	ck_assert_int_eq(store_crew_place(st, id, &s->crew_before, &err),
	                 STORE_OK);
	s->can_take_back = store_can_take_back(st, &s->game,
	                                       s->game.state.turn == 1 ? 3
	                                       : s->game.state.turn - 1);
}

static void same(const seen *a, const seen *b)
{
	ck_assert_int_eq(a->mark.seq, b->mark.seq);
	ck_assert_int_eq(a->mark.players, b->mark.players);
	ck_assert_int_eq(a->mark.chat_last, b->mark.chat_last);
	ck_assert_int_eq(a->mark.chats, b->mark.chats);
	ck_assert_int_eq(a->mark.seats[1].has_email, b->mark.seats[1].has_email);
	ck_assert_int_eq(a->game.seq, b->game.seq);
	ck_assert(memcmp(&a->game.state, &b->game.state,
	                 sizeof a->game.state) == 0);
	ck_assert_str_eq(a->game.seats[1].email, b->game.seats[1].email);
	ck_assert_int_eq(a->lines, b->lines);
	ck_assert_int_eq(a->chats, b->chats);
	ck_assert_str_eq(a->said, b->said);
	ck_assert_uint_eq(a->shown, b->shown);
	ck_assert_int_eq(a->crew_before, b->crew_before);
	ck_assert_int_eq(a->can_take_back, b->can_take_back);
}

/* Has the connection listen for changes (db/driver_pg_kept.c: its first
 * read ahead of a table asks for that) on a game of its own. */
static void listening(void)
{
	store_new_game ng = { .players = 2, .first = 1, .seed = "27" };
	char other[STORE_ID_LEN + 1];
	store_error err;

	ck_assert_int_eq(store_create(st, &ng, other, &err), STORE_OK);
	store_read_ahead_table(st, other, CHATS);
	store_read_ahead_end(st);
}

START_TEST(test_store_a_tables_reads_read_ahead_are_one_round_trip)
{
	seen plain, ahead;

	/* once, so that every statement is prepared */
	read_table(&plain);
	ck_assert_int_eq(plain.lines, 2);
	ck_assert_int_eq(plain.chats, 2);
	ck_assert_int_eq(plain.mark.seats[1].has_email, 1);
	listening();

	/* the mark first, then the rest: one each */
	int64_t before = store_round_trips(st);
	store_read_ahead_mark(st, id, CHATS);
	int64_t mark = store_round_trips(st) - before;
	store_read_ahead_table(st, id, CHATS);
	read_table(&ahead);
	int64_t rest = store_round_trips(st) - before - mark;
	store_read_ahead_end(st);
	same(&plain, &ahead);
	ck_assert_int_eq(mark, (fixture_engine_is_sqlite() ? 0 : 1));
	ck_assert_int_eq(rest, (fixture_engine_is_sqlite() ? 0 : 1));

	/* kept since: both again, in one */
	before = store_round_trips(st);
	store_read_ahead_mark(st, id, CHATS);
	store_read_ahead_table(st, id, CHATS);
	read_table(&ahead);
	int64_t used = store_round_trips(st) - before;
	store_read_ahead_end(st);
	same(&plain, &ahead);
	ck_assert_int_eq(used, (fixture_engine_is_sqlite() ? 0 : 1));
}
END_TEST

START_TEST(test_store_a_load_alone_is_one_round_trip)
{
	store_game g;
	store_error err;

	ck_assert_int_eq(store_load(st, id, &g, &err), STORE_OK);
	int64_t before = store_round_trips(st);
	ck_assert_int_eq(store_load(st, id, &g, &err), STORE_OK);
	ck_assert_int_eq(store_round_trips(st) - before,
	                 (fixture_engine_is_sqlite() ? 0 : 1));
	ck_assert_int_eq(g.seq, 2);
}
END_TEST

/* Rows read ahead answer neither after the store writes nor after the
 * request: a load afterwards sees what is stored now (a revoked seat's
 * new token generation). */
START_TEST(test_store_rows_read_ahead_never_outlive_a_write_or_the_request)
{
	store_game g;
	store_error err;
	int64_t gen;

	store_read_ahead_table(st, id, CHATS);
	/* this store's own write */
	ck_assert_int_eq(store_revoke(st, id, 2, &gen, &err), STORE_OK);
	ck_assert_int_eq(store_load(st, id, &g, &err), STORE_OK);
	ck_assert_int_eq(g.seats[1].token_gen, gen);
	store_read_ahead_end(st);

	/* another program's write, after the request */
	store_read_ahead_table(st, id, CHATS);
	ck_assert_int_eq(store_load(st, id, &g, &err), STORE_OK);
	store_read_ahead_end(st);
	store *second = fixture_open(path);
	ck_assert_int_eq(store_revoke(second, id, 3, &gen, &err), STORE_OK);
	ck_assert_int_eq(store_load(st, id, &g, &err), STORE_OK);
	ck_assert_int_eq(g.seats[2].token_gen, gen);
	/* and a load's own rows are its own: the next load reads anew */
	ck_assert_int_eq(store_revoke(second, id, 3, &gen, &err), STORE_OK);
	ck_assert_int_eq(store_load(st, id, &g, &err), STORE_OK);
	ck_assert_int_eq(g.seats[2].token_gen, gen);
	store_close(second);
}
END_TEST

static Suite *ahead_suite(void)
{
	Suite *s = suite_create("store_ahead");
	TCase *tc = tcase_create("store_ahead");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_store_a_tables_reads_read_ahead_are_one_round_trip);
	tcase_add_test(tc, test_store_a_load_alone_is_one_round_trip);
	tcase_add_test(tc, test_store_rows_read_ahead_never_outlive_a_write_or_the_request);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(ahead_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
