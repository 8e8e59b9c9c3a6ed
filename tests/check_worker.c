/*
 * check_worker.c - the worker's table of kinds of job (work/worker.c) on
 * a real database (fixture.h): a person's move gives a bot seat the turn
 * and queues emails; one round makes the bot's move before it sends the
 * emails, so the bot move's emails go in the same round; a kind that
 * fails (the bot's lock file cannot be made; a mail folder that is a
 * file) does not stop the others.
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <check.h>
#include <sodium.h>

#include "compose.h"
#include "fixture.h"
#include "store.h"
#include "token.h"
#include "worker.h"

enum { T0 = 1700000000, ROLLOUTS = 20, LOG_MAX = 4096 };

static char dir[FIXTURE_PATH_MAX], path[FIXTURE_PATH_MAX];
static char folder[FIXTURE_PATH_MAX + 16];
static char game[STORE_ID_LEN + 1];
static store *st;
static token_keys keys;
static compose_ctx cc;
static FILE *log_file;

/* The rows of table for the game, those matching and_where if given. */
static long long rows(const char *table, const char *and_where)
{
	char sql[256];

	snprintf(sql, sizeof sql, "SELECT count(*) FROM %s WHERE game = '%s'"
	         "%s%s", table, game, and_where ? " AND " : "",
	         and_where ? and_where : "");
	return fixture_sql_value(path, sql);
}

/* The "your seat" emails of a new game, as its page queues them. */
static int seat_mail(void *ctx, const store_game *g, int seat,
                     store_mail *m)
{
	return compose_seat(ctx, g, seat, NULL, m);
}

/* Seats 1 and 3 people with addresses, seat 2 the search bot: the
 * seats' emails; seat 1 plays its first legal action: the bot's turn. */
static void setup(void)
{
	static const unsigned char master[TOKEN_KEY_BYTES] = { 7, 7, 7 };
	static store_game g;
	store_new_game ng = {
		.players = 3, .first = 1, .seed = "42",
		.names = { "Ann", NULL, "Cyd" },
		.emails = { "ann@example.org", NULL, "cyd@example.org" },
		.bots = { NULL, "search", NULL },
		.mail_fn = seat_mail,
	};
	bt_action legal[BT_MAX_LEGAL];
	store_error err;

	ck_assert_int_ge(sodium_init(), 0);
	fixture_scratch("worker", dir, path);
	snprintf(folder, sizeof folder, "%s/mail", dir);
	ck_assert_int_eq(mkdir(folder, 0700), 0);
	st = fixture_open(path);
	fixture_clock(T0);
	token_keys_derive(master, &keys);
	cc = (compose_ctx){ .st = st, .keys = &keys,
	                    .base_url = "https://bt.example/" };
	ng.mail_ctx = &cc;
	ck_assert_msg(store_create(st, &ng, game, &err) == STORE_OK, "%s",
	              err.why);
	ck_assert_int_eq(store_load(st, game, &g, &err), STORE_OK);
	ck_assert_int_gt(bt_legal(&g.state, legal, BT_MAX_LEGAL), 0);
	ck_assert_msg(store_append(st, game, g.seq, &legal[0], compose_move,
	                           &cc, NULL, &err) == STORE_OK, "%s", err.why);
	ck_assert_ptr_nonnull(log_file = tmpfile());
}

static void teardown(void)
{
	fclose(log_file);
	store_close(st);
	fixture_remove(dir);
	fixture_clock(0);
}

/* The worker as `buffertime worker` makes it, writing into mail_dir. */
static void make_worker(worker *w, const char *bot_db, const char *mail_dir)
{
	char why[256];

	*w = (worker){
		.bots = { .st = st, .db = bot_db, .compose = cc,
		          .budget = { ROLLOUTS, 0, 0 },
		          .review_rollouts = ROLLOUTS },
		.mail = { .st = st, .db = path, .compose = cc,
		          .mail_from = "game@bt.example",
		          .send = { .mail_dir = mail_dir } },
		.poll = 1,
		.log = log_file,
	};
	ck_assert_msg(worker_open(w, why, sizeof why) == 0, "%s", why);
}

/* What the worker logged. */
static const char *logged(void)
{
	static char text[LOG_MAX];
	size_t n;

	fflush(log_file);
	rewind(log_file);
	n = fread(text, 1, sizeof text - 1, log_file);
	text[n] = '\0';
	return text;
}

static int files_in(const char *where)
{
	struct dirent *e;
	int n = 0;
	DIR *d = opendir(where);

	ck_assert_ptr_nonnull(d);
	while ((e = readdir(d)) != NULL)
		n += strstr(e->d_name, ".eml") != NULL;
	closedir(d);
	return n;
}

START_TEST(test_worker_the_bot_moves_before_the_emails_go)
{
	long long before = rows("outbox", NULL);
	worker w;
	int more = 1;

	ck_assert_int_gt(before, 0);
	ck_assert_int_eq(rows("jobs", "done IS NULL"), 1);
	make_worker(&w, path, folder);
	ck_assert_int_eq(worker_round(&w, &more), 0);
	ck_assert_int_eq(w.moved, 1);
	ck_assert_int_eq(rows("actions", NULL), 2);
	/* the bot's move queued emails of its own, and they went too */
	long long all = rows("outbox", NULL);
	ck_assert_int_gt(all, before);
	ck_assert_int_eq(rows("outbox", "sent IS NULL"), 0);
	ck_assert_int_eq(w.counts.sent, all);
	ck_assert_int_eq(files_in(folder), all);
	ck_assert_int_eq(more, 0);
	ck_assert_msg(strstr(logged(), "buffertime worker: 1 bot move\n"),
	              "%s", logged());
	worker_close(&w);
}
END_TEST

/* The bot's kinds fail (their lock file cannot be made): each said with
 * its name, and the emails between them still go. */
START_TEST(test_worker_a_failing_kind_leaves_the_others_to_run)
{
	long long queued = rows("outbox", NULL);
	worker w;
	int more = 1;

	make_worker(&w, "/nonexistent/bt-worker/games.db", folder);
	ck_assert_int_eq(worker_round(&w, &more), 2);
	ck_assert_msg(strstr(logged(), "buffertime worker: bot turns and "
	                     "hints: error: /nonexistent/"), "%s",
	              logged());
	ck_assert_msg(strstr(logged(), "buffertime worker: reviews: "
	                     "error: /nonexistent/"), "%s", logged());
	ck_assert_int_eq(w.moved, 0);
	ck_assert_int_eq(rows("actions", NULL), 1);
	ck_assert_int_eq(w.counts.sent, queued);
	ck_assert_int_eq(files_in(folder), queued);
	/* a failed round calls for no next round at once */
	ck_assert_int_eq(more, 0);
	worker_close(&w);
}
END_TEST

/* Every email fails (the mail folder is a file): the bot moves all the
 * same, and the emails stay queued for their retry. */
START_TEST(test_worker_failing_emails_leave_the_bot_to_move)
{
	char file[FIXTURE_PATH_MAX + 16];
	worker w;
	int more = 1;
	FILE *f;

	snprintf(file, sizeof file, "%s/a-file", dir);
	ck_assert_ptr_nonnull(f = fopen(file, "w"));
	fclose(f);
	make_worker(&w, path, file);
	ck_assert_int_eq(worker_round(&w, &more), 0);
	ck_assert_int_eq(w.moved, 1);
	ck_assert_int_eq(rows("actions", NULL), 2);
	long long all = rows("outbox", NULL);
	ck_assert_int_eq(w.counts.sent, 0);
	ck_assert_int_eq(w.counts.failed, all);
	ck_assert_int_eq(rows("outbox", "sent IS NULL AND last_error <> ''"), all);
	ck_assert_msg(strstr(logged(), "buffertime worker: email 1 "), "%s",
	              logged());
	/* their retries are a minute away: nothing is due now */
	ck_assert_int_eq(more, 0);
	worker_close(&w);
}
END_TEST

/* Another worker holds the jobs' lock: the bot's turn is its to play,
 * so a round here leaves no work due now for this one (no next round at
 * once: a second worker would spin, and --once never end). */
START_TEST(test_worker_jobs_another_worker_holds_call_no_round)
{
	char lock[FIXTURE_PATH_MAX + 16];
	worker w;
	int more = 1, fd;

	snprintf(lock, sizeof lock, "%s-worker.lock", path);
	ck_assert_int_ge(fd = open(lock, O_RDONLY | O_CREAT, 0644), 0);
	ck_assert_int_eq(flock(fd, LOCK_EX | LOCK_NB), 0);
	make_worker(&w, path, folder);
	ck_assert_int_eq(worker_round(&w, &more), 0);
	ck_assert_int_eq(w.moved, 0);
	ck_assert_int_eq(rows("jobs", "done IS NULL"), 1);
	ck_assert_int_eq(more, 0);
	ck_assert_int_eq(worker_once(&w), 0);
	ck_assert_int_eq(w.moved, 0);
	worker_close(&w);
	close(fd);
}
END_TEST

static Suite *worker_suite(void)
{
	Suite *s = suite_create("worker");
	TCase *tc = tcase_create("round");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_worker_the_bot_moves_before_the_emails_go);
	tcase_add_test(tc, test_worker_a_failing_kind_leaves_the_others_to_run);
	tcase_add_test(tc, test_worker_failing_emails_leave_the_bot_to_move);
	/* the lock is a file beside SQLite's (a server's workers lease) */
	if (fixture_engine_is_sqlite())
		tcase_add_test(tc,
		               test_worker_jobs_another_worker_holds_call_no_round);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(worker_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? 0 : 1;
}
