/*
 * check_store.c - the store on a real database (a SQLite file, or a
 * PostgreSQL schema: tests/fixture.h): migrations, creating, loading,
 * appending, importing and exporting games, and bad files.
 * (Concurrency and crashes: check_store_stress.c.)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <check.h>
#include <sodium.h>

#include "fixture.h"
#include "rig.h"
#include "schema.h"
#include "sql.h"
#include "store.h"
#include "store_limits.h"
#include "view.h"

static char dir[FIXTURE_PATH_MAX];
static char path[FIXTURE_PATH_MAX];

static void setup(void)
{
	fixture_scratch("store", dir, path);
}

static void teardown(void)
{
	fixture_remove(dir);
}

static store *open_ok(void)
{
	return fixture_open(path);
}

static void create_ok(store *s, int players, const char *seed,
                      char id[STORE_ID_LEN + 1])
{
	store_new_game ng = { .players = players, .first = 1, .seed = seed,
	                      .names = { "Beckett", "Brad" },
	                      .emails = { "mariner@example.org" } };
	store_error err;
	ck_assert_msg(store_create(s, &ng, id, &err) == STORE_OK, "%s",
	              err.why);
}

/* Plays the first legal action of game id; returns its rc. */
static store_rc play_first(store *s, const char *id, store_game *g)
{
	bt_action legal[BT_MAX_LEGAL];
	store_error err;

	ck_assert_int_eq(store_load(s, id, g, &err), STORE_OK);
	ck_assert_int_gt(bt_legal(&g->state, legal, BT_MAX_LEGAL), 0);
	return store_append(s, id, g->seq, &legal[0], NULL, NULL, g, &err);
}

/* The first column of sql's first row, on its own connection. */
static long long sql_value(const char *sql)
{
	return fixture_sql_value(path, sql);
}

static void sql_exec(const char *sql)
{
	fixture_sql_exec(path, sql);
}

/* The same look into the engine's catalogue in each one's words. */
static long long catalogue_value(const char *sqlite_sql, const char *pg_sql)
{
	return sql_value(fixture_engine_is_sqlite() ? sqlite_sql : pg_sql);
}

/* The schema version the database records (migrate.c). */
static long long recorded_version(void)
{
	return catalogue_value("PRAGMA user_version",
	                       "SELECT coalesce(max(version), 0)"
	                       " FROM buffertime_schema");
}

/* SQL that records version as the database's (into sql, cap bytes). */
static void version_sql(int version, char *sql, size_t cap)
{
	if (fixture_engine_is_sqlite())
		snprintf(sql, cap, ";PRAGMA user_version = %d;", version);
	else
		snprintf(sql, cap, ";CREATE TABLE IF NOT EXISTS"
		         " buffertime_schema (version integer NOT NULL);"
		         "DELETE FROM buffertime_schema;"
		         "INSERT INTO buffertime_schema VALUES (%d);", version);
}

static void record_version(int version)
{
	char sql[192];

	version_sql(version, sql, sizeof sql);
	sql_exec(sql + 1);
}

/* ---- migrations -------------------------------------------------------- */

START_TEST(test_store_migrates_an_empty_file)
{
	store *s = open_ok();
	ck_assert_int_eq(store_schema_version(s), store_schema_latest());
	ck_assert_int_ge(store_schema_latest(), 2);
	store_close(s);
	ck_assert_int_eq(recorded_version(), store_schema_latest());
	ck_assert_int_eq(catalogue_value("SELECT count(*) FROM sqlite_schema "
	                                 "WHERE name IN ('games', 'seats',"
	                                 " 'actions', 'outbox', 'chat')",
	                                 "SELECT count(*) FROM pg_tables WHERE"
	                                 " schemaname = current_schema() AND"
	                                 " tablename IN ('games', 'seats',"
	                                 " 'actions', 'outbox', 'chat')"), 5);
	/* opening again applies nothing and keeps the data */
	s = open_ok();
	char id[STORE_ID_LEN + 1];
	create_ok(s, 3, NULL, id);
	store_close(s);
	s = open_ok();
	store_game g;
	store_error err;
	ck_assert_int_eq(store_load(s, id, &g, &err), STORE_OK);
	store_close(s);
}
END_TEST

/* Writes a database as the program of version `version` left it (the
 * migrations up to it, in the engine's spelling: their numbers may have
 * gaps). */
static void make_old_database(int version)
{
	int lite = fixture_engine_is_sqlite();
	const store_migration *list = lite ? store_migrations
	                                   : store_pg_migrations;
	int count = lite ? store_migration_count : store_pg_migration_count;
	char mark[192];
	size_t n = 1;

	for (int m = 0; m < count && list[m].version <= version; m++) {
		for (const char *const *l = list[m].lines; *l; l++)
			n += strlen(*l);
		n += sizeof mark;
	}
	/* one script, on one connection: a server's are slow to make */
	char *sql = malloc(n);
	ck_assert_ptr_nonnull(sql);
	sql[0] = '\0';
	for (int m = 0; m < count && list[m].version <= version; m++) {
		for (const char *const *l = list[m].lines; *l; l++)
			strcat(sql, *l);
		version_sql(list[m].version, mark, sizeof mark);
		strcat(sql, mark);
	}
	sql_exec(sql);
	free(sql);
}

START_TEST(test_store_migrates_from_every_older_version)
{
	for (int version = 1; version < store_schema_latest(); version++) {
		teardown();
		setup();
		make_old_database(version);
		/* a game as version 1 stored it: seed, seats and lines */
		sql_exec("INSERT INTO games (id, created, updated, players,"
		         " first_seat, seed) VALUES ('AAAAAAAAAAAAAAAAAAAAAA',"
		         " 1, 1, 2, 1, '1');"
		         "INSERT INTO seats (game, seat, name) VALUES"
		         " ('AAAAAAAAAAAAAAAAAAAAAA', 1, 'Tendi'),"
		         " ('AAAAAAAAAAAAAAAAAAAAAA', 2, '');");
		bt_game want;
		ck_assert_int_eq(rig_replay("buffertime 1\nplayers 2\nfirst 1\n"
		                            "seed 1\nname 1 Tendi\n", &want,
		                            NULL, NULL), 0);
		bt_action legal[BT_MAX_LEGAL];
		ck_assert_int_gt(bt_legal(&want, legal, BT_MAX_LEGAL), 0);
		char line[64], sql[256];
		ck_assert_int_gt(bt_action_format(&legal[0], line, sizeof line), 0);
		/* version 1's columns: later ones add some with defaults */
		snprintf(sql, sizeof sql, "INSERT INTO actions (game, seq, seat,"
		         " line, created) VALUES ('AAAAAAAAAAAAAAAAAAAAAA', 0, 1,"
		         " '%s', 1)", line);
		sql_exec(sql);
		if (version >= 2)   /* from 0002 on, the program kept seq */
			sql_exec("UPDATE games SET seq = 1");
		ck_assert_int_eq(bt_apply(&want, &legal[0], NULL), 0);

		store *s = open_ok();
		ck_assert_int_eq(store_schema_version(s), store_schema_latest());
		store_game g;
		store_error err;
		ck_assert_msg(store_load(s, "AAAAAAAAAAAAAAAAAAAAAA", &g, &err)
		              == STORE_OK, "%s", err.why);
		ck_assert_int_eq(g.seq, 1);
		ck_assert_str_eq(g.seats[0].name, "Tendi");
		ck_assert_mem_eq(&g.state, &want, sizeof want);
		ck_assert_int_eq(store_check(s, NULL, NULL, &err), STORE_OK);
		store_close(s);
		/* a game still in play gets no review */
		ck_assert_int_eq(sql_value("SELECT count(*) FROM jobs WHERE "
		                           "kind = 'review'"), 0);
	}
}
END_TEST

/* The counts of limits made before answers were counted (schema 11)
 * are kept, and answers can be counted after. */
START_TEST(test_store_migration_keeps_the_limits_counted)
{
	char sql[256];
	long long now = (long long)time(NULL);

	make_old_database(11);
	/* recent: counting prunes what is older than a day */
	snprintf(sql, sizeof sql, "INSERT INTO limit_events (kind, subject, at)"
	         " VALUES ('game', '192.0.2.1', %lld), ('seat', 'k', %lld);",
	         now - 100, now - 200);
	sql_exec(sql);
	store *s = open_ok();
	store_error err;
	ck_assert_int_eq(store_schema_version(s), store_schema_latest());
	ck_assert_msg(store_limit_take(s, STORE_LIMIT_ANSWER, "a@example.org",
	                               1, STORE_LIMIT_DAY, &err) == STORE_OK,
	              "%s", err.why);
	store_close(s);
	ck_assert_int_eq(sql_value("SELECT count(*) FROM limit_events WHERE"
	                           " kind = 'game' AND subject = '192.0.2.1'"), 1);
	ck_assert_int_eq(sql_value("SELECT count(*) FROM limit_events WHERE"
	                           " kind = 'seat' AND subject = 'k'"), 1);
	ck_assert_int_eq(sql_value("SELECT count(*) FROM limit_events WHERE"
	                           " kind = 'answer'"), 1);
	ck_assert_int_eq(catalogue_value("SELECT count(*) FROM sqlite_schema"
	                                 " WHERE tbl_name = 'limit_events' AND"
	                                 " type = 'index'",
	                                 "SELECT count(*) FROM pg_indexes WHERE"
	                                 " schemaname = current_schema() AND"
	                                 " tablename = 'limit_events'"), 2);
}
END_TEST

/* Games that ended before reviews existed (schema 8) get theirs: the
 * migration queues a review job for each, none for a game in play, and
 * keeps the jobs there were. */
START_TEST(test_store_migration_queues_old_games_reviews)
{
	make_old_database(8);
	sql_exec("INSERT INTO games (id, created, updated, players, first_seat,"
	         " seed, status, seq) VALUES"
	         " ('AAAAAAAAAAAAAAAAAAAAAA', 1, 5, 2, 1, '1', 'won', 30),"
	         " ('BBBBBBBBBBBBBBBBBBBBBB', 1, 6, 2, 1, '2', 'lost', 20),"
	         " ('CCCCCCCCCCCCCCCCCCCCCC', 1, 7, 2, 1, '3', 'playing', 4);"
	         "INSERT INTO jobs (kind, game, seq, seat, created, due)"
	         " VALUES ('move', 'CCCCCCCCCCCCCCCCCCCCCC', 4, 2, 7, 7);");
	store *s = open_ok();
	ck_assert_int_eq(store_schema_version(s), store_schema_latest());
	store_close(s);
	ck_assert_int_eq(sql_value("SELECT count(*) FROM jobs WHERE kind ="
	                           " 'review' AND done IS NULL"), 2);
	ck_assert_int_eq(sql_value("SELECT seq FROM jobs WHERE kind = 'review'"
	                           " AND game = 'AAAAAAAAAAAAAAAAAAAAAA'"), 30);
	ck_assert_int_eq(sql_value("SELECT count(*) FROM jobs WHERE kind ="
	                           " 'move' AND game = 'CCCCCCCCCCCCCCCCCCCCCC'"),
	                 1);
	/* its index is made again with the table */
	ck_assert_int_eq(catalogue_value("SELECT count(*) FROM sqlite_schema"
	                                 " WHERE name = 'jobs_todo'",
	                                 "SELECT count(*) FROM pg_indexes WHERE"
	                                 " schemaname = current_schema() AND"
	                                 " indexname = 'jobs_todo'"), 1);
}
END_TEST

START_TEST(test_store_refuses_a_newer_database)
{
	store *s = open_ok();
	store_close(s);
	record_version(999);
	store_error err;
	ck_assert_int_eq(store_open(path, &s, &err), STORE_TOO_NEW);
	ck_assert_ptr_null(s);
	ck_assert_ptr_nonnull(strstr(err.why, "newer"));
	ck_assert_int_eq(recorded_version(), 999);
}
END_TEST

/* ---- games ------------------------------------------------------------- */

START_TEST(test_store_create_load_append)
{
	store *s = open_ok();
	char id[STORE_ID_LEN + 1], other[STORE_ID_LEN + 1];
	store_game g, again;
	store_error err;

	create_ok(s, 3, "9f86d081884c7d65", id);
	create_ok(s, 3, "9f86d081884c7d65", other);
	ck_assert_uint_eq(strlen(id), STORE_ID_LEN);
	ck_assert_str_ne(id, other);
	ck_assert_int_eq(store_load(s, id, &g, &err), STORE_OK);
	ck_assert_int_eq(g.seq, 0);
	ck_assert_str_eq(g.seats[0].name, "Beckett");
	ck_assert_str_eq(g.seats[0].email, "mariner@example.org");
	ck_assert_str_eq(g.seats[2].name, "");
	ck_assert_int_eq(g.seats[1].token_gen, 1);

	bt_game want;
	ck_assert_int_eq(rig_replay("buffertime 1\nplayers 3\nfirst 1\n"
	                            "seed 9f86d081884c7d65\n", &want, NULL,
	                            NULL), 0);
	ck_assert_mem_eq(&g.state, &want, sizeof want);

	for (int i = 0; i < 5; i++)
		ck_assert_int_eq(play_first(s, id, &g), STORE_OK);
	ck_assert_int_eq(g.seq, 5);
	ck_assert_int_eq(store_load(s, id, &again, &err), STORE_OK);
	ck_assert_int_eq(again.seq, 5);
	ck_assert_mem_eq(&again.state, &g.state, sizeof g.state);
	ck_assert_int_eq(sql_value("SELECT count(*) FROM actions"), 5);
	ck_assert_int_eq(store_check(s, NULL, NULL, &err), STORE_OK);
	ck_assert_int_eq(store_load(s, "nosuchgameXXXXXXXXXXXX", &g, &err),
	                 STORE_NOT_FOUND);
	store_close(s);
}
END_TEST

START_TEST(test_store_refuses_bad_new_games)
{
	store *s = open_ok();
	char id[STORE_ID_LEN + 1];
	store_error err;
	static const store_new_game bad[] = {
		{ .players = 1, .first = 1 },
		{ .players = 7, .first = 1 },
		{ .players = 3, .first = 4 },
		{ .players = 3, .first = 1, .seed = "xyz" },
		{ .players = 2, .first = 1, .names = { "a\tb" } },
		{ .players = 2, .first = 1,
		  .names = { "12345678901234567890123456789012345678901" } },
		{ .players = 2, .first = 1, .emails = { "no-at-sign" } },
		{ .players = 2, .first = 1, .emails = { NULL, "a b@example.org" } },
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		ck_assert_int_eq(store_create(s, &bad[i], id, &err),
		                 STORE_INVALID);
		ck_assert_uint_gt(strlen(err.why), 5);
	}
	store_close(s);
	ck_assert_int_eq(sql_value("SELECT count(*) FROM games"), 0);
}
END_TEST

START_TEST(test_store_illegal_and_stale_moves_change_nothing)
{
	store *s = open_ok();
	char id[STORE_ID_LEN + 1];
	store_game g;
	store_error err;
	bt_action log = { .seat = 1, .verb = BT_LOG, .card = BT_NO_CARD };

	create_ok(s, 2, "1", id);
	ck_assert_int_eq(store_load(s, id, &g, &err), STORE_OK);
	ck_assert_int_eq(store_append(s, id, 0, &log, NULL, NULL, NULL, &err),
	                 STORE_ILLEGAL);
	ck_assert_int_eq(err.game.rule, 6);
	ck_assert_int_eq(play_first(s, id, &g), STORE_OK);
	bt_action work = { .seat = 1, .verb = BT_WORK, .card = BT_NO_CARD };
	ck_assert_int_eq(store_append(s, id, 0, &work, NULL, NULL, NULL, &err),
	                 STORE_CONFLICT);
	ck_assert_int_eq(sql_value("SELECT count(*) FROM actions"), 1);
	ck_assert_int_eq(sql_value("SELECT seq FROM games"), 1);
	store_close(s);
}
END_TEST

START_TEST(test_store_actions_are_append_only)
{
	store *s = open_ok();
	char id[STORE_ID_LEN + 1];
	store_game g;

	create_ok(s, 2, "1", id);
	ck_assert_int_eq(play_first(s, id, &g), STORE_OK);
	store_close(s);
	ck_assert_int_ne(fixture_sql_try(path, "UPDATE actions SET"
	                                 " line = '1 log'"), 0);
	ck_assert_int_ne(fixture_sql_try(path, "DELETE FROM actions"), 0);
	ck_assert_int_eq(sql_value("SELECT count(*) FROM actions"), 1);
}
END_TEST

static int two_mails(void *ctx, const store_game *before,
                     const bt_game *after, const bt_action *a,
                     store_mail *out, int max)
{
	(void)ctx, (void)before, (void)a;
	ck_assert_int_ge(max, 2);
	for (int i = 0; i < 2; i++) {
		out[i].seat = after->turn;
		snprintf(out[i].to, sizeof out[i].to, "seat%d@example.org", i);
		snprintf(out[i].subject, sizeof out[i].subject, "Your turn");
		snprintf(out[i].body, sizeof out[i].body, "Body %d", i);
	}
	return 2;
}

START_TEST(test_store_mails_are_queued_with_the_move)
{
	store *s = open_ok();
	char id[STORE_ID_LEN + 1];
	store_game g;
	store_error err;
	bt_action legal[BT_MAX_LEGAL];

	create_ok(s, 2, "1", id);
	ck_assert_int_eq(store_load(s, id, &g, &err), STORE_OK);
	ck_assert_int_gt(bt_legal(&g.state, legal, BT_MAX_LEGAL), 0);
	ck_assert_int_eq(store_append(s, id, 0, &legal[0], two_mails, NULL,
	                              &g, &err), STORE_OK);
	ck_assert_int_eq(store_append(s, id, 0, &legal[0], two_mails, NULL,
	                              NULL, &err), STORE_CONFLICT);
	store_close(s);
	ck_assert_int_eq(sql_value("SELECT count(*) FROM outbox"), 2);
	ck_assert_int_eq(sql_value("SELECT count(*) FROM outbox WHERE sent IS"
	                           " NULL AND seat = 2"), 2);
}
END_TEST

/* ---- records ----------------------------------------------------------- */

static char *read_file(const char *name)
{
	char p[512];
	snprintf(p, sizeof p, "%s/%s", getenv("TESTDATA") ? getenv("TESTDATA")
	         : "tests/data", name);
	FILE *f = fopen(p, "r");
	ck_assert_msg(f != NULL, "%s", p);
	static char buf[1 << 16];
	size_t n = fread(buf, 1, sizeof buf - 1, f);
	fclose(f);
	buf[n] = '\0';
	return buf;
}

START_TEST(test_store_import_export_round_trip)
{
	static bt_replay r;
	static bt_record out;
	static char text1[1 << 16], text2[1 << 16];
	store *s = open_ok();
	char id[STORE_ID_LEN + 1];
	store_game g;
	store_error err;
	bt_error gerr;
	const char *names[] = { "sample.rec", "example.rec", "loss.rec",
	                        "stack-missing.rec" };

	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		char *text = read_file(names[i]);
		bt_replay_init(&r);
		if (bt_replay_text(&r, text, strlen(text), &gerr))
			continue;
		store_rc rc = store_import(s, &r.rec, NULL, id, &err);
		ck_assert_msg(rc == STORE_OK, "%s: %s", names[i], err.why);
		ck_assert_int_eq(store_load(s, id, &g, &err), STORE_OK);
		ck_assert_mem_eq(&g.state, &r.game, sizeof g.state);
		ck_assert_int_eq(store_export(s, id, 1, &out, &err), STORE_OK);
		bt_record_write_buf(&r.rec, text1, sizeof text1);
		bt_record_write_buf(&out, text2, sizeof text2);
		ck_assert_str_eq(text1, text2);
	}
	/* a record that does not replay is refused whole */
	bt_action log = { .seat = 1, .verb = BT_LOG, .card = BT_NO_CARD };
	ck_assert_int_eq(bt_record_init(&out, 2, 1, "1", 1, &gerr), 0);
	ck_assert_int_eq(bt_record_add_action(&out, &log, &gerr), 0);
	ck_assert_int_eq(store_import(s, &out, NULL, id, &err), STORE_ILLEGAL);
	ck_assert_int_eq(err.game.rule, 6);
	ck_assert_ptr_nonnull(strstr(err.why, "line 5"));

	ck_assert_int_eq(sql_value("SELECT count(*) FROM games"), 3);
	ck_assert_int_eq(store_check(s, NULL, NULL, &err), STORE_OK);
	store_close(s);
}
END_TEST

START_TEST(test_store_export_hides_the_seed_while_playing)
{
	static bt_record out;
	store *s = open_ok();
	char id[STORE_ID_LEN + 1];
	store_error err;

	create_ok(s, 2, "abcdef", id);
	ck_assert_int_eq(store_export(s, id, 0, &out, &err), STORE_OK);
	ck_assert_str_eq(out.seed, "");
	ck_assert_int_eq(store_export(s, id, 1, &out, &err), STORE_OK);
	ck_assert_str_eq(out.seed, "abcdef");
	store_close(s);
}
END_TEST

START_TEST(test_store_stack_lines_survive_import)
{
	static bt_replay r;
	store *s = open_ok();
	char id[STORE_ID_LEN + 1];
	store_game g;
	store_error err;
	bt_error gerr;
	const char *text =
		"buffertime 1\nplayers 3\nfirst 1\nseed 1\n"
		"stack assignment A05 A01\nstack shift S17 S18 S19 S20\n"
		"1 work\nstack shift S01\n";

	bt_replay_init(&r);
	ck_assert_int_eq(bt_replay_text(&r, text, strlen(text), &gerr), 0);
	ck_assert_int_eq(store_import(s, &r.rec, NULL, id, &err), STORE_OK);
	ck_assert_int_eq(store_load(s, id, &g, &err), STORE_OK);
	ck_assert_int_eq(g.seq, 2);
	ck_assert_int_eq(g.state.rig_n[BT_DECK_SHIFT], 1);
	/* the game goes on from there: the waiting line still applies */
	bt_action log = { .seat = 2, .verb = BT_LOG, .card = BT_NO_CARD };
	ck_assert_msg(store_append(s, id, 2, &log, NULL, NULL, &g, &err)
	              == STORE_OK, "%s", err.why);
	ck_assert_int_eq(g.state.round, 2);
	ck_assert_int_eq(g.state.stack[0], bt_card_parse("S01", 3));
	ck_assert_int_eq(store_check(s, NULL, NULL, &err), STORE_OK);
	store_close(s);
}
END_TEST

/* ---- bad files --------------------------------------------------------- */

static void write_bytes(const char *p, const void *data, size_t n)
{
	FILE *f = fopen(p, "wb");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fwrite(data, 1, n, f), n);
	fclose(f);
}

START_TEST(test_store_garbage_file_is_refused_and_untouched)
{
	unsigned char junk[8192], after[8192];
	store *s;
	store_error err;

	randombytes_buf(junk, sizeof junk);
	write_bytes(path, junk, sizeof junk);
	ck_assert_int_eq(store_open(path, &s, &err), STORE_CORRUPT);
	ck_assert_ptr_nonnull(strstr(err.why, "not a Buffer Time database"));
	FILE *f = fopen(path, "rb");
	ck_assert_uint_eq(fread(after, 1, sizeof after, f), sizeof after);
	fclose(f);
	ck_assert_mem_eq(junk, after, sizeof junk);
}
END_TEST

START_TEST(test_store_another_programs_database_is_left_alone)
{
	store *s;
	store_error err;

	sql_exec("CREATE TABLE notes (x integer); INSERT INTO notes VALUES (1);");
	ck_assert_int_eq(store_open(path, &s, &err), STORE_CORRUPT);
	ck_assert_ptr_nonnull(strstr(err.why, fixture_engine_is_sqlite()
	                             ? "not a Buffer Time database"
	                             : "another program's tables"));
	ck_assert_int_eq(catalogue_value("SELECT count(*) FROM sqlite_schema",
	                                 "SELECT count(*) FROM pg_tables WHERE"
	                                 " schemaname = current_schema()"), 1);
	ck_assert_int_eq(catalogue_value("PRAGMA user_version",
	                                 "SELECT to_regclass('buffertime_schema')"
	                                 " IS NOT NULL"), 0);
	/* PostgreSQL's mark of ours is the version table itself: SQLite's
	 * is PRAGMA application_id, beside a version */
	if (!fixture_engine_is_sqlite())
		return;
	/* nor one that claims a version but is not marked as ours */
	sql_exec("PRAGMA user_version = 2");
	ck_assert_int_eq(store_open(path, &s, &err), STORE_CORRUPT);
	ck_assert_int_eq(sql_value("SELECT count(*) FROM sqlite_schema"), 1);
}
END_TEST

START_TEST(test_store_truncated_file_gives_a_clear_error)
{
	store *s = open_ok();
	char id[STORE_ID_LEN + 1];
	store_game g;
	store_error err;

	for (int i = 0; i < 200; i++)
		create_ok(s, 4, NULL, id);
	for (int i = 0; i < 10; i++)
		ck_assert_int_eq(play_first(s, id, &g), STORE_OK);
	store_close(s);   /* checkpoints the WAL into the file */
	char wal[FIXTURE_PATH_MAX + 8];
	snprintf(wal, sizeof wal, "%s-wal", path);
	ck_assert_int_ne(access(wal, F_OK), 0);
	ck_assert_int_eq(truncate(path, 3 * 4096), 0);

	store_rc rc = store_open(path, &s, &err);
	if (rc == STORE_OK) {
		rc = store_check(s, NULL, NULL, &err);
		store_close(s);
	}
	ck_assert_int_eq(rc, STORE_CORRUPT);
	ck_assert_uint_gt(strlen(err.why), 5);
}
END_TEST

static int lines;
static void count_line(void *ctx, const char *line)
{
	(void)ctx;
	ck_assert_uint_gt(strlen(line), 5);
	lines++;
}

START_TEST(test_store_tampered_line_is_found)
{
	store *s = open_ok();
	char id[STORE_ID_LEN + 1];
	store_game g;
	store_error err;

	create_ok(s, 2, "1", id);
	for (int i = 0; i < 3; i++)
		ck_assert_int_eq(play_first(s, id, &g), STORE_OK);
	store_close(s);
	/* an edit behind the store's back: a line the engine rejects, and
	 * a snapshot that no longer matches */
	sql_exec(fixture_engine_is_sqlite() ? "DROP TRIGGER actions_no_update;"
	         "UPDATE actions SET line = '2 log' WHERE seq = 1;"
	         : "DROP TRIGGER actions_no_update ON actions;"
	         "UPDATE actions SET line = '2 log' WHERE seq = 1;");
	s = open_ok();
	lines = 0;
	ck_assert_int_eq(store_check(s, count_line, NULL, &err), STORE_CORRUPT);
	ck_assert_int_eq(lines, 1);
	sql_exec("UPDATE games SET snapshot = NULL");
	ck_assert_int_eq(store_load(s, id, &g, &err), STORE_CORRUPT);
	ck_assert_ptr_nonnull(strstr(err.why, "no longer replays"));
	store_close(s);
}
END_TEST

START_TEST(test_store_backup_is_a_sound_copy)
{
	store *s = open_ok(), *copy;
	char id[STORE_ID_LEN + 1], backup[FIXTURE_PATH_MAX + 16];
	store_game g, h;
	store_error err;

	create_ok(s, 2, NULL, id);
	ck_assert_int_eq(play_first(s, id, &g), STORE_OK);
	snprintf(backup, sizeof backup, "%s/backup.db", dir);
	ck_assert_int_eq(store_backup(s, backup, &err), STORE_OK);
	ck_assert_int_eq(store_backup(s, backup, &err), STORE_INVALID);
	ck_assert_int_eq(store_open(backup, &copy, &err), STORE_OK);
	ck_assert_int_eq(store_check(copy, NULL, NULL, &err), STORE_OK);
	ck_assert_int_eq(store_load(copy, id, &h, &err), STORE_OK);
	ck_assert_mem_eq(&g.state, &h.state, sizeof g.state);
	store_close(copy);
	store_close(s);
}
END_TEST

START_TEST(test_store_revoke_bumps_the_generation)
{
	store *s = open_ok();
	char id[STORE_ID_LEN + 1];
	store_error err;
	int64_t gen = 0;

	create_ok(s, 3, NULL, id);
	ck_assert_int_eq(store_revoke(s, id, 2, &gen, &err), STORE_OK);
	ck_assert_int_eq(gen, 2);
	ck_assert_int_eq(store_revoke(s, id, 2, &gen, &err), STORE_OK);
	ck_assert_int_eq(gen, 3);
	ck_assert_int_eq(store_revoke(s, id, 4, &gen, &err), STORE_NOT_FOUND);
	ck_assert_int_eq(store_revoke(s, "AAAAAAAAAAAAAAAAAAAAAA", 1, &gen,
	                              &err), STORE_NOT_FOUND);
	store_close(s);
}
END_TEST

START_TEST(test_store_sweep_is_two_steps_and_survives_reopening)
{
	static bt_replay r;
	store *s = open_ok();
	char id[STORE_ID_LEN + 1];
	store_game g;
	store_error err;
	bt_error gerr;
	const char *text = "buffertime 1\nplayers 2\nfirst 1\nseed 1\n"
		"stack ability X13 X01 X02 X03\n"
		"stack shift S01 S05 S23 S09\n";
	bt_card sweep = bt_card_parse("X13", 3), overtime = bt_card_parse("X01", 3);

	bt_replay_init(&r);
	ck_assert_int_eq(bt_replay_text(&r, text, strlen(text), &gerr), 0);
	ck_assert_int_eq(store_import(s, &r.rec, NULL, id, &err), STORE_OK);
	/* only a legal Sensor Sweep can be looked at */
	ck_assert_int_eq(store_sweep_begin(s, id, 0, 2, sweep, &err),
	                 STORE_ILLEGAL);
	ck_assert_int_eq(store_sweep_begin(s, id, 0, 1, overtime, &err),
	                 STORE_INVALID);
	ck_assert_int_eq(store_sweep_begin(s, id, 1, 1, sweep, &err),
	                 STORE_CONFLICT);
	ck_assert_int_eq(store_sweep_begin(s, id, 0, 1, sweep, &err), STORE_OK);
	ck_assert_int_eq(store_sweep_begin(s, id, 0, 1, sweep, &err), STORE_OK);
	store_close(s);

	s = open_ok();
	ck_assert_int_eq(store_load(s, id, &g, &err), STORE_OK);
	ck_assert_int_eq(g.sweep_card, sweep);
	ck_assert_int_eq(g.sweep_seat, 1);
	/* nothing else may happen until the order is chosen */
	bt_action work = { .seat = 1, .verb = BT_WORK, .card = BT_NO_CARD };
	bt_action ot = { .seat = 1, .verb = BT_SPECIAL, .card = overtime };
	ck_assert_int_eq(store_append(s, id, 0, &work, NULL, NULL, NULL, &err),
	                 STORE_ILLEGAL);
	ck_assert_int_eq(store_append(s, id, 0, &ot, NULL, NULL, NULL, &err),
	                 STORE_ILLEGAL);
	bt_action order = { .seat = 1, .verb = BT_SPECIAL, .card = sweep,
	                    .nargs = 3, .arg = { bt_card_parse("S09", 3),
	                    bt_card_parse("S05", 3), bt_card_parse("S23", 3) } };
	ck_assert_msg(store_append(s, id, 0, &order, NULL, NULL, &g, &err)
	              == STORE_OK, "%s", err.why);
	ck_assert_int_eq(g.sweep_card, BT_NO_CARD);
	ck_assert_int_eq(store_load(s, id, &g, &err), STORE_OK);
	ck_assert_int_eq(g.sweep_card, BT_NO_CARD);
	ck_assert_int_eq(g.state.known_top[0], 3);
	ck_assert_int_eq(store_touch(s, id, 2, &err), STORE_OK);
	ck_assert_int_eq(store_touch(s, id, 3, &err), STORE_NOT_FOUND);
	store_close(s);
	ck_assert_int_gt(sql_value("SELECT last_seen FROM seats WHERE seat = 2"),
	                 0);
}
END_TEST

/* The store prepares each statement when first used: all of them must
 * still prepare on the latest schema, or a rare path fails in use. */
START_TEST(test_store_every_statement_prepares)
{
	store *s = open_ok();
	ck_assert_msg(sql_prepare_all(s) == DB_OK, "%s",
	              db_errmsg(s->db));
	for (int i = 0; i < SQL__MAX; i++)
		ck_assert_ptr_nonnull(s->stmt[i]);
	store_close(s);
}
END_TEST

static int count_chat(void *ctx, const store_chat *c)
{
	(void)c;
	++*(int *)ctx;
	return 0;
}

/* A statement that no longer prepares (a table gone by hand) is an
 * error that says why, not a crash, and the others still work. */
START_TEST(test_store_a_statement_that_fails_to_prepare_is_an_error)
{
	store *s = open_ok();
	char id[STORE_ID_LEN + 1];
	create_ok(s, 2, NULL, id);
	store_close(s);
	sql_exec("ALTER TABLE chat RENAME TO chat_gone");

	s = open_ok();
	store_error err;
	int n = 0;
	ck_assert_int_eq(store_chat_list(s, id, -1, count_chat, &n, &err),
	                 STORE_ERROR);
	ck_assert_int_eq(n, 0);
	ck_assert_msg(strstr(err.why, "chat") != NULL, "%s", err.why);
	store_game g;
	ck_assert_int_eq(store_load(s, id, &g, &err), STORE_OK);
	ck_assert_int_eq(store_chat_list(s, id, -1, count_chat, &n, &err),
	                 STORE_ERROR);
	store_close(s);
}
END_TEST

static Suite *store_suite(void)
{
	Suite *s = suite_create("store");
	TCase *tc = tcase_create("store");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_store_migrates_an_empty_file);
	tcase_add_test(tc, test_store_migrates_from_every_older_version);
	tcase_add_test(tc, test_store_migration_queues_old_games_reviews);
	tcase_add_test(tc, test_store_migration_keeps_the_limits_counted);
	tcase_add_test(tc, test_store_refuses_a_newer_database);
	tcase_add_test(tc, test_store_create_load_append);
	tcase_add_test(tc, test_store_refuses_bad_new_games);
	tcase_add_test(tc, test_store_illegal_and_stale_moves_change_nothing);
	tcase_add_test(tc, test_store_actions_are_append_only);
	tcase_add_test(tc, test_store_mails_are_queued_with_the_move);
	tcase_add_test(tc, test_store_import_export_round_trip);
	tcase_add_test(tc, test_store_export_hides_the_seed_while_playing);
	tcase_add_test(tc, test_store_stack_lines_survive_import);
	/* bytes of a file, and store_backup's copy to a file: SQLite's */
	if (fixture_engine_is_sqlite()) {
		tcase_add_test(tc,
		               test_store_garbage_file_is_refused_and_untouched);
		tcase_add_test(tc, test_store_truncated_file_gives_a_clear_error);
		tcase_add_test(tc, test_store_backup_is_a_sound_copy);
	}
	tcase_add_test(tc, test_store_another_programs_database_is_left_alone);
	tcase_add_test(tc, test_store_tampered_line_is_found);
	tcase_add_test(tc, test_store_revoke_bumps_the_generation);
	tcase_add_test(tc, test_store_sweep_is_two_steps_and_survives_reopening);
	tcase_add_test(tc, test_store_every_statement_prepares);
	tcase_add_test(tc, test_store_a_statement_that_fails_to_prepare_is_an_error);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	if (sodium_init() < 0)
		return EXIT_FAILURE;
	SRunner *sr = srunner_create(store_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
