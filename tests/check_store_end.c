/*
 * check_store_end.c - ending a game that can no longer be won
 * (db/store_end.c) and the game-over email that waits for the review's
 * turning point (db/store_review.c, work/review_job.c, mail/mailer.c),
 * on a real SQLite file: tests/data/out-of-reach.rec imported, ended by
 * a person's seat only while it cannot be won, with no record line; it
 * then loads, exports and checks as a lost game; its game-over emails
 * wait for the review, and the mailer sends them with the review's
 * biggest turning point, or without it once the wait is over.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <check.h>
#include <sodium.h>

#include "compose.h"
#include "compose_table.h"
#include "fixture.h"
#include "mailer.h"
#include "record.h"
#include "review_job.h"
#include "search.h"
#include "store.h"
#include "token.h"

enum { T0 = 1700000000, ROLLOUTS = 20 };

static const char *const EMAILS[BT_MAX_PLAYERS] = {
	"ann@example.org", "bob@example.org", "cyd@example.org",
};

static char dir[FIXTURE_PATH_MAX], path[FIXTURE_PATH_MAX];
static char game[STORE_ID_LEN + 1];
static store *st;
static token_keys keys;
static compose_ctx cc;

static void setup(void)
{
	static const unsigned char master[TOKEN_KEY_BYTES] = { 9, 9, 9 };
	static char text[16384];
	static bt_replay r;
	char file[FIXTURE_PATH_MAX + 32];
	store_error err;
	bt_error gerr;
	size_t len;
	FILE *f;

	ck_assert_int_ge(sodium_init(), 0);
	fixture_scratch("store-end", dir, path);
	st = fixture_open(path);
	fixture_clock(T0);
	token_keys_derive(master, &keys);
	cc = (compose_ctx){ .st = st, .keys = &keys,
	                    .base_url = "https://bt.example/" };
	snprintf(file, sizeof file, "%s/out-of-reach.rec", fixture_data_dir());
	ck_assert_ptr_nonnull(f = fopen(file, "r"));
	len = fread(text, 1, sizeof text - 1, f);
	fclose(f);
	text[len] = '\0';
	bt_replay_init(&r);
	ck_assert_msg(bt_replay_text(&r, text, len, &gerr) == 0, "%s",
	              gerr.why);
	ck_assert_msg(store_import(st, &r.rec, EMAILS, game, &err) == STORE_OK,
	              "%s", err.why);
}

static void teardown(void)
{
	store_close(st);
	fixture_remove(dir);
	fixture_clock(0);
}

static store_game *load(void)
{
	static store_game g;
	store_error err;

	ck_assert_int_eq(store_load(st, game, &g, &err), STORE_OK);
	return &g;
}

/* sql with its one %s the game's id, run on a connection of its own. */
static long long value(const char *sql)
{
	char text[512];
	const char *at = strstr(sql, "%s");

	ck_assert_ptr_nonnull(at);
	snprintf(text, sizeof text, "%.*s%s%s", (int)(at - sql), sql, game,
	         at + 2);
	return fixture_sql_value(path, text);
}

static store_rc end(int seat, int seq, store_error *err)
{
	return store_end_game(st, game, seat, seq, compose_ended, &cc, NULL,
	                      err);
}

/* A game that can still be won is not ended, nor is a stale form's,
 * nor by a bot's seat. */
START_TEST(test_only_a_lost_cause_is_ended)
{
	store_new_game ng = { .players = 3, .first = 1, .seed = "42",
	                      .emails = { EMAILS[0], EMAILS[1], EMAILS[2] } };
	char fresh[STORE_ID_LEN + 1];
	store_error err;
	int seq = load()->seq;

	ck_assert_int_eq(store_create(st, &ng, fresh, &err), STORE_OK);
	ck_assert_int_eq(store_end_game(st, fresh, 1, 0, compose_ended, &cc,
	                                NULL, &err), STORE_ILLEGAL);
	ck_assert_str_eq(err.why, "the game can still be won");
	ck_assert_int_eq(end(1, seq - 1, &err), STORE_CONFLICT);
	ck_assert_int_eq(end(4, seq, &err), STORE_NOT_FOUND);
	ck_assert_int_eq(value("UPDATE seats SET bot = 'search' WHERE game ="
	                       " '%s' AND seat = 2 RETURNING 1"), 1);
	ck_assert_int_eq(end(2, seq, &err), STORE_INVALID);
	ck_assert_int_eq(value("SELECT count(*) FROM games WHERE ended_by <> 0"
	                       " OR (status <> 'playing' AND id = '%s')"), 0);
	ck_assert_int_eq(value("SELECT count(*) FROM outbox WHERE kind = 'over'"
	                       " AND game = '%s'"), 0);
	ck_assert_int_eq(load()->state.status, BT_PLAYING);
}
END_TEST

static void count_problems(void *ctx, const char *line)
{
	(void)line;
	(*(int *)ctx)++;
}

/* Ended: lost from then on, with no line added; it exports with its
 * seed and checks; its emails and its review are queued; a second end
 * and any move are refused. */
START_TEST(test_ended_game_reads_as_lost)
{
	static bt_record rec;
	static store_game after;
	store_game *g = load();
	int seq = g->seq, problems = 0;
	store_error err;
	bt_action a = { .seat = (uint8_t)g->state.turn, .verb = BT_WORK };

	ck_assert(bt_out_of_reach(&g->state));
	ck_assert_int_eq(store_end_game(st, game, 1, seq, compose_ended, &cc,
	                                &after, &err), STORE_OK);
	ck_assert_int_eq(after.ended_by, 1);
	g = load();
	ck_assert_int_eq(g->state.status, BT_LOST);
	ck_assert_int_eq(g->ended_by, 1);
	ck_assert_int_eq(g->ended_at, T0);
	ck_assert_int_eq(g->seq, seq);
	ck_assert_int_eq(g->turn_seat, 0);
	ck_assert_int_eq(value("SELECT count(*) FROM actions WHERE game ="
	                       " '%s'"), seq);
	ck_assert_int_eq(value("SELECT status = 'lost' FROM games WHERE id ="
	                       " '%s'"), 1);
	ck_assert_int_eq(store_export(st, game, 0, &rec, &err), STORE_OK);
	ck_assert_str_ne(rec.seed, "");
	ck_assert_int_eq(store_check(st, count_problems, &problems, &err),
	                 STORE_OK);
	ck_assert_int_eq(problems, 0);
	ck_assert_int_eq(value("SELECT count(*) FROM outbox WHERE kind = 'over'"
	                       " AND game = '%s'"), 3);
	ck_assert_int_eq(value("SELECT count(*) FROM jobs WHERE kind = 'review'"
	                       " AND done IS NULL AND game = '%s'"), 1);
	ck_assert_int_eq(end(1, seq, &err), STORE_ILLEGAL);
	ck_assert_int_eq(end(2, seq, &err), STORE_ILLEGAL);
	ck_assert_int_eq(store_append(st, game, seq, &a, NULL, NULL, NULL,
	                              &err), STORE_ILLEGAL);
	ck_assert_int_eq(value("SELECT count(*) FROM outbox WHERE kind = 'over'"
	                       " AND game = '%s'"), 3);
}
END_TEST

/* Every message the mailer wrote into the folder, one after another. */
static void read_mails(const char *folder, char *out, size_t cap)
{
	char file[FIXTURE_PATH_MAX + 300];
	struct dirent *e;
	size_t len = 0;
	DIR *d = opendir(folder);

	ck_assert_ptr_nonnull(d);
	out[0] = '\0';
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(file, sizeof file, "%s/%s", folder, e->d_name);
		FILE *f = fopen(file, "r");
		ck_assert_ptr_nonnull(f);
		len += fread(out + len, 1, cap - 1 - len, f);
		fclose(f);
	}
	closedir(d);
	out[len] = '\0';
}

/* One round of the mailer at the store's clock, writing into folder;
 * how many it sent. */
static int mail_round(const char *folder)
{
	mailer m = {
		.st = st, .db = path, .compose = cc,
		.mail_from = "game@bt.example",
		.send = { .mail_dir = folder }, .lock_fd = -1,
	};
	mailer_counts c = { 0, 0, 0, 0 };
	store_error err;

	ck_assert_int_eq(mailer_queue_due(&m, &c, &err), STORE_OK);
	ck_assert_int_eq(mailer_send_due(&m, &c, &err), STORE_OK);
	ck_assert_int_eq(c.failed, 0);
	return c.sent;
}

/* The review's worker, to the end of the job. */
static void review(void)
{
	store_job j;
	store_error err;
	bot *b = bot_new();
	int finished = 0;

	ck_assert_ptr_nonnull(b);
	ck_assert_int_eq(store_job_claim_phase(st, T0, 60, 1, &j, &err),
	                 STORE_OK);
	for (int i = 0; i < 1000 && !finished; i++)
		ck_assert_int_eq(review_job_step(st, b, ROLLOUTS, &j, &finished,
		                                 &err), STORE_OK);
	ck_assert(finished);
	bot_free(b);
}

/* The game-over emails wait for the review, then carry its biggest
 * turning point: both for a game ended early and for one that ran out. */
START_TEST(test_over_email_waits_for_the_turning_point)
{
	static char mails[3 * 16384];
	char folder[FIXTURE_PATH_MAX + 8];
	store_error err;

	snprintf(folder, sizeof folder, "%s/mail", dir);
	ck_assert_int_eq(mkdir(folder, 0700), 0);
	ck_assert_int_eq(end(3, load()->seq, &err), STORE_OK);
	ck_assert_int_eq(mail_round(folder), 0);     /* held for the review */
	review();
	ck_assert_int_eq(mail_round(folder), 3);
	read_mails(folder, mails, sizeof mails);
	ck_assert_ptr_nonnull(strstr(mails, "is over: Seat 3 ended it, as it could no longer be won."));
	ck_assert_ptr_nonnull(strstr(mails, "is over: you ended it, as it could no longer be won."));
	ck_assert_ptr_nonnull(strstr(mails, "The biggest turning point of "
	                             "the review:"));
	ck_assert_ptr_nonnull(strstr(mails, "The whole review is on the table:"));
	ck_assert_ptr_null(strstr(mails, "in a\nminute or two"));
}
END_TEST

/* No review within the wait (no worker): the emails go all the same,
 * saying where the review will be. */
START_TEST(test_over_email_goes_without_a_review)
{
	static char mails[3 * 16384];
	char folder[FIXTURE_PATH_MAX + 8];
	store_error err;

	snprintf(folder, sizeof folder, "%s/mail", dir);
	ck_assert_int_eq(mkdir(folder, 0700), 0);
	ck_assert_int_eq(end(2, load()->seq, &err), STORE_OK);
	fixture_clock(T0 + STORE_OVER_WAIT - 1);
	ck_assert_int_eq(mail_round(folder), 0);
	fixture_clock(T0 + STORE_OVER_WAIT);
	ck_assert_int_eq(mail_round(folder), 3);
	read_mails(folder, mails, sizeof mails);
	ck_assert_ptr_nonnull(strstr(mails, "its review is on the table"));
	ck_assert_ptr_null(strstr(mails, "turning point"));
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("store_end");
	TCase *tc = tcase_create("end");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 600);
	tcase_add_test(tc, test_only_a_lost_cause_is_ended);
	tcase_add_test(tc, test_ended_game_reads_as_lost);
	tcase_add_test(tc, test_over_email_waits_for_the_turning_point);
	tcase_add_test(tc, test_over_email_goes_without_a_review);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
