/*
 * check_store_kept.c - a table's rows kept between requests on a server
 * (db/driver_pg_kept.c): a table read again costs one round trip and
 * finds what it found; every change that ended before a read began is in
 * it, whichever connection made it (a move, talk, a revoked link, a
 * hand shown, a move taken back, a blocked address, a game played
 * again); a change the server does not announce (its trigger off) is
 * what shows that rows were kept, and that they go when too many games
 * are kept.  On a file nothing is kept: every read finds what is stored.
 * tests/store_pg.sh runs it on PostgreSQL.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "fixture.h"
#include "store.h"
#include "store_block.h"

enum { T0 = 1700000000, CHATS = 20, ROUNDS = 60, MANY_GAMES = 300 };

static char dir[FIXTURE_PATH_MAX], path[FIXTURE_PATH_MAX];
static store *st, *other;
static char id[STORE_ID_LEN + 1];

static void new_game(store *s, char out[STORE_ID_LEN + 1])
{
	store_new_game ng = { .players = 3, .first = 1, .seed = "26",
	                      .names = { "Beckett", "Brad", "Tendi" },
	                      .emails = { "mariner@example.org",
	                                  "boimler@example.org" } };
	store_error err;

	ck_assert_msg(store_create(s, &ng, out, &err) == STORE_OK, "%s",
	              err.why);
}

static void move(store *s, const char *game)
{
	bt_action legal[BT_MAX_LEGAL];
	store_error err;
	store_game g;

	ck_assert_int_eq(store_load(s, game, &g, &err), STORE_OK);
	ck_assert_int_gt(bt_legal(&g.state, legal, BT_MAX_LEGAL), 0);
	ck_assert_msg(store_append(s, game, g.seq, &legal[0], NULL, NULL, &g,
	                           &err) == STORE_OK, "%s", err.why);
}

/* Plays until a move that may be taken back (one that drew or showed
 * nothing) is made; its seat. */
static int quiet_move(store *s, const char *game)
{
	static bt_action legal[BT_MAX_LEGAL];
	store_error err;
	bt_error gerr;
	store_game g;

	for (int step = 0; step < 100; step++) {
		ck_assert_int_eq(store_load(s, game, &g, &err), STORE_OK);
		int n = bt_legal(&g.state, legal, BT_MAX_LEGAL), pick = 0;
		ck_assert_int_gt(n, 0);
		for (int i = 0; i < n; i++) {
			bt_game after = g.state;
			ck_assert_int_eq(bt_apply(&after, &legal[i], &gerr), 0);
			if (bt_take_back_ok(&g.state, &legal[i], &after)) {
				pick = i;
				break;
			}
		}
		bt_game after = g.state;
		ck_assert_int_eq(bt_apply(&after, &legal[pick], &gerr), 0);
		int quiet = bt_take_back_ok(&g.state, &legal[pick], &after);
		int seat = g.state.turn;
		ck_assert_msg(store_append(s, game, g.seq, &legal[pick], NULL,
		                           NULL, &g, &err) == STORE_OK, "%s",
		              err.why);
		if (quiet)
			return seat;
	}
	ck_abort_msg("no move to take back in 100");
	return 0;
}

/* A 3-seat game with one move; a second connection, another host's. */
static void setup(void)
{
	fixture_scratch("kept", dir, path);
	fixture_clock(T0);
	st = fixture_open(path);
	other = fixture_open(path);
	new_game(st, id);
	move(st, id);
}

static void teardown(void)
{
	store_close(other);
	store_close(st);
	fixture_remove(dir);
	fixture_clock(0);
}

/* What a table page finds, as cgi/page_table.c reads it. */
typedef struct seen {
	store_mark mark;
	store_game game;
	int chats, crew_before;
	unsigned shown;
	int64_t trips;
} seen;

static int count_chat(void *ctx, const store_chat *c)
{
	(void)c;
	((seen *)ctx)->chats++;
	return 0;
}

static void read_table(store *s, const char *game, seen *out)
{
	store_error err;
	int64_t before = store_round_trips(s);

	memset(out, 0, sizeof *out);
	store_read_ahead_table(s, game, CHATS);
	ck_assert_int_eq(store_mark_get(s, game, CHATS, &out->mark, &err),
	                 STORE_OK);
	ck_assert_int_eq(store_load(s, game, &out->game, &err), STORE_OK);
	ck_assert_int_eq(store_chat_latest(s, game, CHATS, count_chat, out,
	                                   &err), STORE_OK);
	ck_assert_int_eq(store_shown_get(s, game, &out->shown, &err),
	                 STORE_OK);
	ck_assert_int_eq(store_crew_place(s, game, &out->crew_before, &err),
	                 STORE_OK);
	out->trips = store_round_trips(s) - before;
	store_read_ahead_end(s);
}

/* Renames seat 1 of game without the server telling anyone. */
static void rename_quietly(const char *game, const char *name)
{
	char sql[512];

	snprintf(sql, sizeof sql, "ALTER TABLE seats DISABLE TRIGGER "
	         "seats_changed; UPDATE seats SET name = '%s' WHERE game = "
	         "'%s' AND seat = 1; ALTER TABLE seats ENABLE TRIGGER "
	         "seats_changed", name, game);
	fixture_sql_exec(path, sql);
}

START_TEST(test_store_a_table_read_again_is_kept_until_its_game_changes)
{
	seen first, again;

	read_table(st, id, &first);
	read_table(st, id, &again);
	ck_assert_int_eq(again.trips, fixture_engine_is_sqlite() ? 0 : 1);
	ck_assert_int_eq(again.game.seq, first.game.seq);
	ck_assert(memcmp(&again.game.state, &first.game.state,
	                 sizeof first.game.state) == 0);
	ck_assert_int_eq(again.mark.seq, first.mark.seq);
	ck_assert_str_eq(again.game.seats[0].name, "Beckett");

	if (fixture_engine_is_sqlite())
		return;     /* the quiet change below is PostgreSQL's SQL */
	rename_quietly(id, "Mariner");
	read_table(st, id, &again);
	ck_assert_str_eq(again.game.seats[0].name, "Beckett");
	/* another host's move: told, so read anew */
	move(other, id);
	read_table(st, id, &again);
	ck_assert_int_eq(again.game.seq, first.game.seq + 1);
	ck_assert_str_eq(again.game.seats[0].name, "Mariner");
}
END_TEST

/* Each change another connection (or this one) made before a read began
 * is in that read, every time. */
START_TEST(test_store_every_change_made_before_a_read_is_in_it)
{
	store_error err;
	seen s;
	int64_t gen = 0;

	read_table(st, id, &s);
	int seq = s.game.seq, chat_last = s.mark.chat_last;
	for (int i = 0; i < ROUNDS; i++) {
		store *writer = i % 5 == 4 ? st : other;
		char text[32];

		fixture_clock(T0 + 600 * (i + 1));
		switch (i % 4) {
		case 0:
			move(writer, id);
			seq++;
			break;
		case 1:
			snprintf(text, sizeof text, "Round %d", i);
			ck_assert_int_eq(store_chat_add(writer, id, 1 + i % 3,
			                                text, &err), STORE_OK);
			chat_last++;
			break;
		case 2:
			ck_assert_int_eq(store_revoke(writer, id, 2, &gen, &err),
			                 STORE_OK);
			break;
		case 3:
			ck_assert_int_eq(store_shown_set(writer, id, 3, i % 8 == 3,
			                                 &err), STORE_OK);
			break;
		}
		read_table(st, id, &s);
		ck_assert_int_eq(s.game.seq, seq);
		ck_assert_int_eq(s.mark.seq, seq);
		ck_assert_int_eq(s.mark.chat_last, chat_last);
		if (gen)
			ck_assert_int_eq(s.game.seats[1].token_gen, gen);
		if (i % 4 == 3)
			ck_assert_uint_eq(s.shown, i % 8 == 3 ? 4u : 0u);
	}
}
END_TEST

START_TEST(test_store_a_take_back_a_block_and_a_game_again_are_seen)
{
	store_error err;
	seen s;
	char sql[256], later[STORE_ID_LEN + 1];

	read_table(st, id, &s);
	ck_assert_int_eq(s.mark.seats[0].has_email, 1);
	ck_assert_int_eq(s.crew_before, 0);

	/* a move made, then taken back by its maker (a delete) */
	int mover = quiet_move(other, id);
	read_table(st, id, &s);
	int seq = s.game.seq;
	ck_assert_msg(store_take_back(other, id, mover, seq, NULL, &err)
	              == STORE_OK, "%s", err.why);
	read_table(st, id, &s);
	ck_assert_int_eq(s.game.seq, seq - 1);

	/* an address blocked: every game's seats may change */
	ck_assert_int_eq(store_block_add(other, "Mariner@Example.org", "admin",
	                                 &err), STORE_OK);
	read_table(st, id, &s);
	ck_assert_int_eq(s.mark.seats[0].has_email, 0);

	/* a game whose "play again" made this one: this one's row is as
	 * it was, the other's changed */
	new_game(other, later);
	read_table(st, later, &s);
	ck_assert_int_eq(s.crew_before, 0);
	snprintf(sql, sizeof sql, "UPDATE games SET rematch = '%s' "
	         "WHERE id = '%s'", later, id);
	fixture_sql_exec(path, sql);
	read_table(st, later, &s);
	ck_assert_int_eq(s.crew_before, 1);
}
END_TEST

/* Rows kept for more games than a connection keeps: the oldest go, and
 * a game read again after them is read anew. */
START_TEST(test_store_rows_kept_for_many_games_let_the_oldest_go)
{
	char game[STORE_ID_LEN + 1];
	seen s;

	read_table(st, id, &s);
	rename_quietly(id, "Mariner");
	for (int i = 0; i < MANY_GAMES; i++) {
		new_game(other, game);
		/* twice: the first read may hear of the game's making
		 * with its rows, and then keeps nothing */
		read_table(st, game, &s);
		read_table(st, game, &s);
		ck_assert_int_eq(s.game.seq, 0);
	}
	read_table(st, id, &s);
	ck_assert_str_eq(s.game.seats[0].name, "Mariner");
}
END_TEST

START_TEST(test_store_a_file_keeps_nothing)
{
	seen s;
	char sql[256];

	read_table(st, id, &s);
	snprintf(sql, sizeof sql, "UPDATE seats SET name = 'Mariner' "
	         "WHERE game = '%s' AND seat = 1", id);
	fixture_sql_exec(path, sql);
	read_table(st, id, &s);
	ck_assert_str_eq(s.game.seats[0].name, "Mariner");
	ck_assert_int_eq(s.trips, 0);
}
END_TEST

static Suite *kept_suite(void)
{
	Suite *s = suite_create("store_kept");
	TCase *tc = tcase_create("store_kept");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_store_a_table_read_again_is_kept_until_its_game_changes);
	tcase_add_test(tc, test_store_every_change_made_before_a_read_is_in_it);
	tcase_add_test(tc, test_store_a_take_back_a_block_and_a_game_again_are_seen);
	if (fixture_engine_is_sqlite())
		tcase_add_test(tc, test_store_a_file_keeps_nothing);
	else
		tcase_add_test(tc, test_store_rows_kept_for_many_games_let_the_oldest_go);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(kept_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
