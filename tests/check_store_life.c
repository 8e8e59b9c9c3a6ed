/*
 * check_store_life.c - the store between moves, on real files: mail
 * settings, the history walk, table talk, nudges, reminders with a moved
 * clock, digests, playing again, and the mailer's outbox.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "fixture.h"
#include "store.h"

static char dir[FIXTURE_PATH_MAX];
static char path[FIXTURE_PATH_MAX];

static void setup(void)
{
	fixture_scratch("life", dir, path);
}

static void teardown(void)
{
	fixture_remove(dir);
}

static void set_clock(int64_t t)
{
	fixture_clock(t);
}

static store *open_ok(void)
{
	return fixture_open(path);
}

static void create_ok(store *s, int players, char id[STORE_ID_LEN + 1])
{
	store_new_game ng = {
		.players = players, .first = 1, .seed = "1",
		.names = { "Beckett", "Brad", "Tendi" },
		.emails = { "mariner@example.org", "boimler@example.org",
		            "tendi@example.org" },
		.reminder_secs = 3600
	};
	store_error err;
	ck_assert_msg(store_create(s, &ng, id, &err) == STORE_OK, "%s",
	              err.why);
}

/* Plays the first legal action of game id. */
static void play_first(store *s, const char *id, store_game *g)
{
	bt_action legal[BT_MAX_LEGAL];
	store_error err;

	ck_assert_int_eq(store_load(s, id, g, &err), STORE_OK);
	ck_assert_int_gt(bt_legal(&g->state, legal, BT_MAX_LEGAL), 0);
	ck_assert_msg(store_append(s, id, g->seq, &legal[0], NULL, NULL, g,
	                           &err) == STORE_OK, "%s", err.why);
}

static long long sql_value(const char *sql)
{
	return fixture_sql_value(path, sql);
}

static void mail_to(store_mail *m, int seat, const char *kind)
{
	memset(m, 0, sizeof *m);
	m->seat = seat;
	snprintf(m->kind, sizeof m->kind, "%s", kind);
	snprintf(m->to, sizeof m->to, "seat%d@example.org", seat);
	snprintf(m->subject, sizeof m->subject, "%s for seat %d", kind, seat);
	snprintf(m->body, sizeof m->body, "Hello seat %d.\n", seat);
}

/* ---- settings and turns ------------------------------------------------- */

START_TEST(test_life_notify_setting_is_kept_per_seat)
{
	store *s = open_ok();
	char id[STORE_ID_LEN + 1];
	store_game g;
	store_error err;
	store_notify n;

	create_ok(s, 3, id);
	ck_assert_int_eq(store_load(s, id, &g, &err), STORE_OK);
	ck_assert_int_eq(g.seats[0].notify, STORE_NOTIFY_TURN);
	ck_assert_int_eq(store_set_notify(s, id, 2, STORE_NOTIFY_DIGEST, &err),
	                 STORE_OK);
	ck_assert_int_eq(store_set_notify(s, id, 4, STORE_NOTIFY_NONE, &err),
	                 STORE_NOT_FOUND);
	ck_assert_int_eq(store_set_notify(s, id, 1, STORE_NOTIFY__MAX, &err),
	                 STORE_INVALID);
	ck_assert_int_eq(store_load(s, id, &g, &err), STORE_OK);
	ck_assert_int_eq(g.seats[1].notify, STORE_NOTIFY_DIGEST);
	ck_assert_int_eq(g.seats[0].notify, STORE_NOTIFY_TURN);
	ck_assert_int_eq(store_notify_parse("every", &n), 0);
	ck_assert_int_eq(n, STORE_NOTIFY_EVERY);
	ck_assert_int_eq(store_notify_parse("EVERY", &n), -1);
	ck_assert_int_eq(store_notify_parse(NULL, &n), -1);
	ck_assert_str_eq(store_notify_name(STORE_NOTIFY_NONE), "none");
	store_close(s);
}
END_TEST

START_TEST(test_life_turn_seat_and_since_follow_the_moves)
{
	store *s = open_ok();
	char id[STORE_ID_LEN + 1];
	store_game g, again;
	store_error err;

	set_clock(1700000000);
	create_ok(s, 3, id);
	ck_assert_int_eq(store_load(s, id, &g, &err), STORE_OK);
	ck_assert_int_eq(g.turn_seat, g.state.turn);
	ck_assert_int_eq(g.turn_since, 1700000000);
	ck_assert_int_eq(g.reminder_secs, 3600);
	set_clock(1700000500);
	play_first(s, id, &g);
	ck_assert_int_eq(store_load(s, id, &again, &err), STORE_OK);
	ck_assert_int_eq(again.turn_seat, again.state.turn);
	ck_assert_int_eq(again.turn_since, 1700000500);
	ck_assert_int_eq(g.turn_since, again.turn_since);
	ck_assert_int_eq(g.turn_seat, again.turn_seat);
	store_close(s);
}
END_TEST

START_TEST(test_life_reminder_interval_is_checked)
{
	store *s = open_ok();
	char id[STORE_ID_LEN + 1];
	store_error err;
	store_new_game ng = { .players = 2, .first = 1, .seed = "1",
	                      .reminder_secs = 60 };

	ck_assert_int_eq(store_create(s, &ng, id, &err), STORE_INVALID);
	ng.reminder_secs = STORE_REMIND_MAX + 1;
	ck_assert_int_eq(store_create(s, &ng, id, &err), STORE_INVALID);
	ng.reminder_secs = 0;
	ck_assert_int_eq(store_create(s, &ng, id, &err), STORE_OK);
	store_close(s);
	ck_assert_int_eq(sql_value("SELECT reminder_secs FROM games"),
	                 STORE_REMIND_DEFAULT);
}
END_TEST

/* ---- the history -------------------------------------------------------- */

typedef struct walked {
	int n, last_seq;
	int64_t created[64];
	bt_game after;
} walked;

static int on_action(void *ctx, int seq, int64_t created,
                     const bt_game *before, const bt_game *after,
                     const bt_action *a)
{
	walked *w = ctx;
	bt_game check = *before;
	bt_error gerr;

	ck_assert_int_eq(bt_apply(&check, a, &gerr), 0);
	ck_assert_int_eq(memcmp(&check, after, sizeof check), 0);
	ck_assert_int_eq(seq, w->n);
	w->created[w->n++] = created;
	w->last_seq = seq;
	w->after = *after;
	return 0;
}

START_TEST(test_life_walk_replays_each_action_with_its_time)
{
	store *s = open_ok();
	char id[STORE_ID_LEN + 1];
	store_game g, mid;
	store_error err;
	walked w = { 0 };
	bt_game at;

	create_ok(s, 3, id);
	for (int i = 0; i < 6; i++) {
		set_clock(1700000000 + 10 * i);
		play_first(s, id, &g);
		if (i == 2)
			mid = g;
	}
	ck_assert_int_eq(store_load(s, id, &g, &err), STORE_OK);
	ck_assert_int_eq(store_walk(s, &g, -1, on_action, &w, &at, &err),
	                 STORE_OK);
	ck_assert_int_eq(w.n, 6);
	ck_assert_int_eq(w.created[0], 1700000000);
	ck_assert_int_eq(w.created[5], 1700000050);
	ck_assert_int_eq(memcmp(&at, &g.state, sizeof at), 0);
	/* the table after action 3 is the state the third append left */
	ck_assert_int_eq(store_walk(s, &g, 3, NULL, NULL, &at, &err),
	                 STORE_OK);
	ck_assert_int_eq(memcmp(&at, &mid.state, sizeof at), 0);
	ck_assert_int_eq(store_walk(s, &g, 7, NULL, NULL, &at, &err),
	                 STORE_INVALID);
	store_close(s);
}
END_TEST

static int stop_at_two(void *ctx, int seq, int64_t created,
                       const bt_game *before, const bt_game *after,
                       const bt_action *a)
{
	(void)created; (void)before; (void)after; (void)a;
	*(int *)ctx = seq;
	return seq == 1;
}

START_TEST(test_life_walk_stops_when_asked)
{
	store *s = open_ok();
	char id[STORE_ID_LEN + 1];
	store_game g;
	store_error err;
	int last = -1;

	create_ok(s, 2, id);
	for (int i = 0; i < 4; i++)
		play_first(s, id, &g);
	ck_assert_int_eq(store_walk(s, &g, -1, stop_at_two, &last, NULL, &err),
	                 STORE_OK);
	ck_assert_int_eq(last, 1);
	store_close(s);
}
END_TEST

/* ---- table talk --------------------------------------------------------- */

typedef struct heard {
	int n;
	store_chat c[16];
} heard;

static int on_chat(void *ctx, const store_chat *c)
{
	heard *h = ctx;
	if (h->n < 16)
		h->c[h->n++] = *c;
	return 0;
}

START_TEST(test_life_chat_is_kept_in_order_with_its_place)
{
	store *s = open_ok();
	char id[STORE_ID_LEN + 1], big[STORE_CHAT_MAX + 2];
	store_game g;
	store_error err;
	heard h = { 0 };

	set_clock(1700000000);
	create_ok(s, 3, id);
	ck_assert_int_eq(store_chat_add(s, id, 1, "hello <b>", &err), STORE_OK);
	play_first(s, id, &g);
	play_first(s, id, &g);
	ck_assert_int_eq(store_chat_add(s, id, 2, "ready", &err), STORE_OK);
	ck_assert_int_eq(store_chat_add(s, id, 2, "", &err), STORE_INVALID);
	memset(big, 'x', sizeof big - 1);
	big[sizeof big - 1] = '\0';
	ck_assert_int_eq(store_chat_add(s, id, 2, big, &err), STORE_INVALID);
	big[STORE_CHAT_MAX] = '\0';
	ck_assert_int_eq(store_chat_add(s, id, 3, big, &err), STORE_OK);
	ck_assert_int_eq(store_chat_add(s, id, 7, "who", &err),
	                 STORE_NOT_FOUND);
	ck_assert_int_eq(store_chat_list(s, id, -1, on_chat, &h, &err),
	                 STORE_OK);
	ck_assert_int_eq(h.n, 3);
	ck_assert_str_eq(h.c[0].text, "hello <b>");
	ck_assert_int_eq(h.c[0].at_seq, 0);
	ck_assert_int_eq(h.c[1].seat, 2);
	ck_assert_int_eq(h.c[1].at_seq, 2);
	ck_assert_int_eq(h.c[2].seq, 2);
	ck_assert_int_eq((int)strlen(h.c[2].text), STORE_CHAT_MAX);
	h.n = 0;
	ck_assert_int_eq(store_chat_list(s, id, 0, on_chat, &h, &err),
	                 STORE_OK);
	ck_assert_int_eq(h.n, 2);
	/* the latest two, oldest first */
	h.n = 0;
	ck_assert_int_eq(store_chat_latest(s, id, 2, on_chat, &h, &err),
	                 STORE_OK);
	ck_assert_int_eq(h.n, 2);
	ck_assert_int_eq(h.c[0].seq, 1);
	ck_assert_str_eq(h.c[0].text, "ready");
	ck_assert_int_eq(h.c[1].seq, 2);
	store_close(s);
}
END_TEST

START_TEST(test_life_chat_is_rate_limited_per_seat)
{
	store *s = open_ok();
	char id[STORE_ID_LEN + 1];
	store_error err;

	set_clock(1700000000);
	create_ok(s, 2, id);
	for (int i = 0; i < STORE_CHAT_BURST; i++) {
		char text[16];
		snprintf(text, sizeof text, "hi %d", i);
		ck_assert_int_eq(store_chat_add(s, id, 1, text, &err), STORE_OK);
	}
	ck_assert_int_eq(store_chat_add(s, id, 1, "hi", &err), STORE_LIMITED);
	ck_assert_int_eq(store_chat_add(s, id, 2, "hi", &err), STORE_OK);
	set_clock(1700000000 + STORE_CHAT_WINDOW);
	ck_assert_int_eq(store_chat_add(s, id, 1, "again", &err), STORE_OK);
	store_close(s);
	ck_assert_int_eq(sql_value("SELECT count(*) FROM chat"),
	                 STORE_CHAT_BURST + 2);
}
END_TEST

/* A message sent twice at once (a double tap, a form sent again) is
 * said once; the same words later, or from another seat, are new. */
START_TEST(test_life_chat_said_twice_at_once_is_one)
{
	store *s = open_ok();
	char id[STORE_ID_LEN + 1];
	store_error err;

	set_clock(1700000000);
	create_ok(s, 2, id);
	ck_assert_int_eq(store_chat_add(s, id, 1, "go ahead", &err), STORE_OK);
	ck_assert_int_eq(store_chat_add(s, id, 1, "go ahead", &err), STORE_OK);
	ck_assert_int_eq(store_chat_add(s, id, 2, "go ahead", &err), STORE_OK);
	set_clock(1700000000 + STORE_CHAT_REPEAT - 1);
	ck_assert_int_eq(store_chat_add(s, id, 1, "go ahead", &err), STORE_OK);
	ck_assert_int_eq(sql_value("SELECT count(*) FROM chat"), 2);
	set_clock(1700000000 + STORE_CHAT_REPEAT);
	ck_assert_int_eq(store_chat_add(s, id, 1, "go ahead", &err), STORE_OK);
	store_close(s);
	ck_assert_int_eq(sql_value("SELECT count(*) FROM chat"), 3);
}
END_TEST

/* ---- nudges ------------------------------------------------------------- */

START_TEST(test_life_nudge_once_a_day_never_yourself)
{
	store *s = open_ok();
	char id[STORE_ID_LEN + 1];
	store_game g;
	store_error err;
	store_mail m;

	set_clock(1700000000);
	create_ok(s, 3, id);
	ck_assert_int_eq(store_load(s, id, &g, &err), STORE_OK);
	int other = g.turn_seat % 3 + 1;
	mail_to(&m, g.turn_seat, "nudge");
	ck_assert_int_eq(store_nudge(s, id, g.seq, g.turn_seat, &m, &err),
	                 STORE_INVALID);
	ck_assert_int_eq(store_nudge(s, id, g.seq + 1, other, &m, &err),
	                 STORE_CONFLICT);
	ck_assert_int_eq(store_nudge(s, id, g.seq, other, &m, &err), STORE_OK);
	set_clock(1700000000 + STORE_NUDGE_EVERY - 1);
	ck_assert_int_eq(store_nudge(s, id, g.seq, other, &m, &err),
	                 STORE_LIMITED);
	set_clock(1700000000 + STORE_NUDGE_EVERY);
	ck_assert_int_eq(store_nudge(s, id, g.seq, other, &m, &err), STORE_OK);
	store_close(s);
	ck_assert_int_eq(sql_value("SELECT count(*) FROM outbox WHERE kind ="
	                           " 'nudge'"), 2);
}
END_TEST

/* ---- reminders ---------------------------------------------------------- */

static int remind(void *ctx, const store_game *g, int nth, store_mail *out)
{
	int *calls = ctx;
	calls[nth]++;
	mail_to(out, g->turn_seat, "reminder");
	return 1;
}

START_TEST(test_life_reminders_come_after_one_then_three_intervals)
{
	store *s = open_ok();
	char id[STORE_ID_LEN + 1];
	store_game g;
	store_error err;
	int calls[3] = { 0 }, n;
	const int64_t t0 = 1700000000;

	set_clock(t0);
	create_ok(s, 3, id);    /* reminder interval: 3600 s */
	ck_assert_int_eq(store_queue_reminders(s, t0 + 3599, remind, calls,
	                                       &n, &err), STORE_OK);
	ck_assert_int_eq(n, 0);
	ck_assert_int_eq(store_queue_reminders(s, t0 + 3600, remind, calls,
	                                       &n, &err), STORE_OK);
	ck_assert_int_eq(n, 1);
	ck_assert_int_eq(store_queue_reminders(s, t0 + 3600, remind, calls,
	                                       &n, &err), STORE_OK);
	ck_assert_int_eq(n, 0);
	ck_assert_int_eq(store_queue_reminders(s, t0 + 3 * 3600 - 1, remind,
	                                       calls, &n, &err), STORE_OK);
	ck_assert_int_eq(n, 0);
	ck_assert_int_eq(store_queue_reminders(s, t0 + 3 * 3600, remind, calls,
	                                       &n, &err), STORE_OK);
	ck_assert_int_eq(n, 1);
	ck_assert_int_eq(store_queue_reminders(s, t0 + 300 * 3600, remind,
	                                       calls, &n, &err), STORE_OK);
	ck_assert_int_eq(n, 0);
	ck_assert_int_eq(calls[1], 1);
	ck_assert_int_eq(calls[2], 1);
	/* a move starts the count again */
	set_clock(t0 + 400 * 3600);
	play_first(s, id, &g);
	ck_assert_int_eq(store_queue_reminders(s, t0 + 401 * 3600, remind,
	                                       calls, &n, &err), STORE_OK);
	ck_assert_int_eq(n, 1);
	store_close(s);
	ck_assert_int_eq(sql_value("SELECT count(*) FROM outbox WHERE kind ="
	                           " 'reminder'"), 3);
}
END_TEST

static int remind_nobody(void *ctx, const store_game *g, int nth,
                         store_mail *out)
{
	(void)ctx; (void)g; (void)nth; (void)out;
	return 0;
}

START_TEST(test_life_reminder_without_email_still_counts)
{
	store *s = open_ok();
	char id[STORE_ID_LEN + 1];
	store_error err;
	int n;

	set_clock(1700000000);
	create_ok(s, 2, id);
	ck_assert_int_eq(store_queue_reminders(s, 1700000000 + 3600,
	                                       remind_nobody, NULL, &n, &err),
	                 STORE_OK);
	ck_assert_int_eq(n, 0);
	store_close(s);
	ck_assert_int_eq(sql_value("SELECT reminders FROM games"), 1);
	ck_assert_int_eq(sql_value("SELECT count(*) FROM outbox"), 0);
}
END_TEST

/* ---- digests ------------------------------------------------------------ */

static int digest(void *ctx, const store_game *g, int seat, int64_t since,
                  store_mail *out)
{
	int64_t *seen = ctx;
	(void)g;
	seen[seat] = since;
	mail_to(out, seat, "digest");
	return 1;
}

START_TEST(test_life_digest_once_a_day_when_something_changed)
{
	store *s = open_ok();
	char id[STORE_ID_LEN + 1];
	store_game g;
	store_error err;
	int64_t since[4] = { -1, -1, -1, -1 };
	const int64_t t0 = 1700000000, day = STORE_DIGEST_EVERY;
	int n;

	set_clock(t0);
	create_ok(s, 3, id);
	ck_assert_int_eq(store_set_notify(s, id, 2, STORE_NOTIFY_DIGEST, &err),
	                 STORE_OK);
	/* choosing the digest starts its day: nothing the same day */
	set_clock(t0 + 100);
	play_first(s, id, &g);
	ck_assert_int_eq(store_queue_digests(s, t0 + day - 1, digest, since,
	                                     &n, &err), STORE_OK);
	ck_assert_int_eq(n, 0);
	ck_assert_int_eq(store_queue_digests(s, t0 + day, digest, since, &n,
	                                     &err), STORE_OK);
	ck_assert_int_eq(n, 1);
	ck_assert_int_eq(since[2], t0);
	ck_assert_int_eq(since[1], -1);
	/* choosing it again does not start the day again */
	ck_assert_int_eq(store_set_notify(s, id, 2, STORE_NOTIFY_DIGEST, &err),
	                 STORE_OK);
	set_clock(t0 + day + 50);
	play_first(s, id, &g);
	ck_assert_int_eq(store_queue_digests(s, t0 + 2 * day - 1, digest, since,
	                                     &n, &err), STORE_OK);
	ck_assert_int_eq(n, 0);
	ck_assert_int_eq(store_queue_digests(s, t0 + 2 * day, digest, since, &n,
	                                     &err), STORE_OK);
	ck_assert_int_eq(n, 1);
	ck_assert_int_eq(since[2], t0 + day);
	/* nothing happened since: no digest */
	ck_assert_int_eq(store_queue_digests(s, t0 + 5 * day, digest, since, &n,
	                                     &err), STORE_OK);
	ck_assert_int_eq(n, 0);
	store_close(s);
}
END_TEST

/* ---- playing again ------------------------------------------------------ */

/* Plays first legal actions until the game ends (a bounded loop). */
static void play_to_the_end(store *s, const char *id)
{
	store_game g;
	store_error err;

	ck_assert_int_eq(store_load(s, id, &g, &err), STORE_OK);
	for (int i = 0; i < 2000 && g.state.status == BT_PLAYING; i++)
		play_first(s, id, &g);
	ck_assert_int_ne(g.state.status, BT_PLAYING);
}

static int seat_mail(void *ctx, const store_game *g, int seat,
                     store_mail *out)
{
	int *fail = ctx;
	(void)g;
	if (fail && *fail)
		return -1;
	mail_to(out, seat, "seat");
	return 1;
}

START_TEST(test_life_rematch_once_with_the_same_seats)
{
	store *s = open_ok();
	char id[STORE_ID_LEN + 1], again[STORE_ID_LEN + 1];
	char third[STORE_ID_LEN + 1];
	store_game old, g;
	store_error err;
	int created = -1;

	create_ok(s, 3, id);
	ck_assert_int_eq(store_set_notify(s, id, 3, STORE_NOTIFY_EVERY, &err),
	                 STORE_OK);
	int fail = 0;
	ck_assert_int_eq(store_rematch(s, id, NULL, seat_mail, &fail, again,
	                               &created, &err), STORE_INVALID);
	ck_assert_int_eq(created, 0);
	play_to_the_end(s, id);
	/* an email that cannot be written: no game, nothing queued */
	fail = 1;
	ck_assert_int_eq(store_rematch(s, id, NULL, seat_mail, &fail, again,
	                               &created, &err), STORE_ERROR);
	ck_assert_int_eq(created, 0);
	fail = 0;
	ck_assert_int_eq(store_rematch(s, id, NULL, seat_mail, &fail, again,
	                               &created, &err), STORE_OK);
	ck_assert_int_eq(created, 1);
	ck_assert_int_eq(store_rematch(s, id, NULL, seat_mail, &fail, third,
	                               &created, &err), STORE_OK);
	ck_assert_int_eq(created, 0);
	ck_assert_str_eq(third, again);
	ck_assert_int_eq(store_load(s, id, &old, &err), STORE_OK);
	ck_assert_str_eq(old.rematch, again);
	ck_assert_int_eq(store_load(s, again, &g, &err), STORE_OK);
	ck_assert_int_eq(g.players, 3);
	ck_assert_int_eq(g.first, 2);
	ck_assert_int_eq(g.seq, 0);
	ck_assert_str_ne(g.seed, old.seed);
	ck_assert_str_eq(g.seats[0].name, "Beckett");
	ck_assert_str_eq(g.seats[2].email, "tendi@example.org");
	ck_assert_int_eq(g.seats[2].notify, STORE_NOTIFY_EVERY);
	ck_assert_int_eq(g.reminder_secs, 3600);
	store_close(s);
	ck_assert_int_eq(sql_value("SELECT count(*) FROM games"), 2);
	ck_assert_int_eq(sql_value("SELECT count(*) FROM outbox WHERE kind ="
	                           " 'seat'"), 3);
}
END_TEST

/* ---- the outbox --------------------------------------------------------- */

static void queue_three(store *s, const char *id)
{
	store_mail m;
	store_error err;

	for (int seat = 1; seat <= 3; seat++) {
		mail_to(&m, seat, "turn");
		ck_assert_int_eq(store_queue_mail(s, id, &m, &err), STORE_OK);
	}
}

START_TEST(test_life_outbox_claims_in_order_and_marks_sent)
{
	store *s = open_ok();
	char id[STORE_ID_LEN + 1];
	store_outmail m;
	store_error err;
	const int64_t t0 = 1700000000;

	set_clock(t0);
	create_ok(s, 3, id);
	queue_three(s, id);
	ck_assert_int_eq(store_outbox_next_due(s), t0);
	for (int seat = 1; seat <= 3; seat++) {
		ck_assert_int_eq(store_outbox_claim(s, t0, &m, &err), STORE_OK);
		ck_assert_int_eq(m.seat, seat);
		ck_assert_str_eq(m.kind, "turn");
		ck_assert_str_eq(m.game, id);
		ck_assert_int_eq(m.attempts, 1);
		ck_assert_int_eq(m.next_attempt, t0 + STORE_RETRY_FIRST);
		ck_assert_str_eq(m.body, seat == 1 ? "Hello seat 1.\n"
		                 : seat == 2 ? "Hello seat 2.\n"
		                 : "Hello seat 3.\n");
		ck_assert_int_eq(store_outbox_sent(s, m.id, t0 + 1, &err),
		                 STORE_OK);
	}
	ck_assert_int_eq(store_outbox_claim(s, t0, &m, &err), STORE_NOT_FOUND);
	ck_assert_int_eq(store_outbox_next_due(s), -1);
	ck_assert_int_eq(store_outbox_sent(s, m.id, t0, &err), STORE_NOT_FOUND);
	store_close(s);
	ck_assert_int_eq(sql_value("SELECT count(*) FROM outbox WHERE sent ="
	                           " 1700000001"), 3);
}
END_TEST

static int count_rows(void *ctx, const store_outmail *m)
{
	(void)m;
	++*(int *)ctx;
	return 0;
}

/* A claim holds its email for as long as its sending may take: on a
 * server another host's worker must not claim one still being sent. */
START_TEST(test_life_outbox_claim_holds_for_the_send_hold)
{
	store *s = open_ok();
	char id[STORE_ID_LEN + 1];
	store_outmail m;
	store_error err;
	const int64_t t0 = 1700000000;

	set_clock(t0);
	create_ok(s, 3, id);
	queue_three(s, id);
	store_set_send_hold(s, 300);
	ck_assert_int_eq(store_outbox_claim(s, t0, &m, &err), STORE_OK);
	ck_assert_int_eq(m.next_attempt, t0 + 300);
	int64_t held = m.id;
	/* past the first retry's minute it is still the first claim's */
	for (int i = 0; i < 2; i++) {
		ck_assert_int_eq(store_outbox_claim(s, t0 + 299, &m, &err),
		                 STORE_OK);
		ck_assert_int_ne(m.id, held);
	}
	ck_assert_int_eq(store_outbox_claim(s, t0 + 299, &m, &err),
	                 STORE_NOT_FOUND);
	ck_assert_int_eq(store_outbox_claim(s, t0 + 300, &m, &err), STORE_OK);
	ck_assert_int_eq(m.id, held);
	ck_assert_int_eq(m.attempts, 2);
	/* the second claim is held as long (its own retry, 2 minutes, is
	 * shorter); without the hold, the third waits its own 4 minutes */
	ck_assert_int_eq(m.next_attempt, t0 + 300 + 300);
	store_set_send_hold(s, 0);
	ck_assert_int_eq(store_outbox_claim(s, t0 + 600, &m, &err), STORE_OK);
	ck_assert_int_eq(m.next_attempt, t0 + 600 + 4 * STORE_RETRY_FIRST);
	store_close(s);
}
END_TEST

START_TEST(test_life_outbox_failure_backs_off_and_is_listed)
{
	store *s = open_ok();
	char id[STORE_ID_LEN + 1];
	store_outmail m, first;
	store_error err;
	const int64_t t0 = 1700000000;
	int n = 0;

	set_clock(t0);
	create_ok(s, 3, id);
	queue_three(s, id);
	ck_assert_int_eq(store_outbox_claim(s, t0, &first, &err), STORE_OK);
	ck_assert_int_eq(store_outbox_failed(s, first.id, "exit 75:\nno MTA",
	                                     &err), STORE_OK);
	/* the failed one waits; the next ones go on */
	ck_assert_int_eq(store_outbox_claim(s, t0, &m, &err), STORE_OK);
	ck_assert_int_eq(m.seat, 2);
	ck_assert_int_eq(store_outbox_list(s, STORE_OUTBOX_FAILED, count_rows,
	                                   &n, &err), STORE_OK);
	ck_assert_int_eq(n, 1);
	n = 0;
	ck_assert_int_eq(store_outbox_list(s, STORE_OUTBOX_QUEUED, count_rows,
	                                   &n, &err), STORE_OK);
	ck_assert_int_eq(n, 3);
	/* doubling waits: 60, 120, 240 ... up to STORE_RETRY_MAX */
	int64_t now = t0 + STORE_RETRY_FIRST;
	for (int attempt = 2; attempt <= 12; attempt++) {
		ck_assert_int_eq(store_outbox_claim(s, now, &m, &err), STORE_OK);
		ck_assert_int_eq(m.id, first.id);
		ck_assert_int_eq(m.attempts, attempt);
		ck_assert_str_eq(m.last_error, "exit 75: no MTA");
		int64_t wait = m.next_attempt - now;
		ck_assert_int_le(wait, STORE_RETRY_MAX);
		if (attempt < 8)
			ck_assert_int_eq(wait, (int64_t)STORE_RETRY_FIRST <<
			                 (attempt - 1));
		now = m.next_attempt;
	}
	/* retry makes it due now; drop takes it out */
	ck_assert_int_eq(store_outbox_retry(s, first.id, &n, &err), STORE_OK);
	ck_assert_int_eq(n, 1);
	ck_assert_int_eq(store_outbox_drop(s, first.id, &err), STORE_OK);
	ck_assert_int_eq(store_outbox_drop(s, first.id, &err), STORE_NOT_FOUND);
	ck_assert_int_eq(store_outbox_retry(s, first.id, &n, &err),
	                 STORE_NOT_FOUND);
	n = 0;
	ck_assert_int_eq(store_outbox_list(s, STORE_OUTBOX_ALL, count_rows,
	                                   &n, &err), STORE_OK);
	ck_assert_int_eq(n, 3);
	ck_assert_int_eq(store_outbox_retry(s, 0, &n, &err), STORE_OK);
	ck_assert_int_eq(n, 2);
	store_close(s);
}
END_TEST

static Suite *life_suite(void)
{
	Suite *s = suite_create("store_life");
	TCase *tc = tcase_create("life");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_life_notify_setting_is_kept_per_seat);
	tcase_add_test(tc, test_life_turn_seat_and_since_follow_the_moves);
	tcase_add_test(tc, test_life_reminder_interval_is_checked);
	tcase_add_test(tc, test_life_walk_replays_each_action_with_its_time);
	tcase_add_test(tc, test_life_walk_stops_when_asked);
	tcase_add_test(tc, test_life_chat_is_kept_in_order_with_its_place);
	tcase_add_test(tc, test_life_chat_is_rate_limited_per_seat);
	tcase_add_test(tc, test_life_chat_said_twice_at_once_is_one);
	tcase_add_test(tc, test_life_nudge_once_a_day_never_yourself);
	tcase_add_test(tc, test_life_reminders_come_after_one_then_three_intervals);
	tcase_add_test(tc, test_life_reminder_without_email_still_counts);
	tcase_add_test(tc, test_life_digest_once_a_day_when_something_changed);
	tcase_add_test(tc, test_life_rematch_once_with_the_same_seats);
	tcase_add_test(tc, test_life_outbox_claims_in_order_and_marks_sent);
	tcase_add_test(tc, test_life_outbox_failure_backs_off_and_is_listed);
	tcase_add_test(tc, test_life_outbox_claim_holds_for_the_send_hold);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(life_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
