/*
 * check_takeback.c - taking back a move (rules/takeback.c,
 * db/store_takeback.c): only a move that showed nothing and drew on no
 * chance, only by its maker before anything follows it; the game is
 * then exactly as before, the move's held emails and the bot's answer
 * are gone, the record holds only the moves that stand, and the history
 * keeps what was taken back.  The store's tests use a real SQLite file.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <check.h>

#include "fixture.h"
#include "game.h"
#include "record.h"
#include "store.h"

enum { GAMES = 120 };

static uint64_t next(uint64_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

static int quiet_kind(const bt_action *a)
{
	if (a->verb == BT_SIDE)
		return 1;
	if (a->verb != BT_SPECIAL)
		return 0;
	bt_kind k = bt_card_get(a->card)->kind;
	return k == BT_OVERTIME || k == BT_COVER_STORY || k == BT_EXTRA_DUTY ||
	       k == BT_HOLODECK || k == BT_SCALE_BACK;
}

/* Over many random games, every legal action of every state: a move may
 * be taken back exactly when it is a quiet play that kept the round and
 * the chance stream; and then any other move made in its place gives
 * the very game it would have given before (nothing drawn moved on). */
START_TEST(test_take_back_only_what_showed_nothing)
{
	static bt_action legal[BT_MAX_LEGAL];
	uint64_t x = 0x9e3779b97f4a7c15u;
	long ok = 0, refused = 0, quiet_refused = 0;
	bt_error err;
	bt_game g, after;

	for (int game = 0; game < GAMES; game++) {
		uint8_t key[BT_KEY_BYTES];
		for (int b = 0; b < BT_KEY_BYTES; b++)
			key[b] = (uint8_t)next(&x);
		ck_assert_int_eq(bt_game_new(&g, 2 + game % 5, 1, key, &err), 0);
		for (int step = 0; g.status == BT_PLAYING && step < 400; step++) {
			int n = bt_legal(&g, legal, BT_MAX_LEGAL);
			ck_assert_int_gt(n, 0);
			for (int i = 0; i < n; i++) {
				after = g;
				ck_assert_int_eq(bt_apply(&after, &legal[i], &err), 0);
				int may = bt_take_back_ok(&g, &legal[i], &after);
				int quiet = quiet_kind(&legal[i]) &&
				            after.status == BT_PLAYING &&
				            after.round == g.round;
				ck_assert_int_eq(may, quiet);
				if (!may) {
					refused++;
					quiet_refused += quiet_kind(&legal[i]);
					continue;
				}
				ok++;
				/* nobody else's hand changed, nothing drawn */
				for (int p = 0; p < g.players; p++)
					ck_assert(p == legal[i].seat - 1 ||
					          after.hand[p] == g.hand[p]);
				ck_assert_int_eq(after.shift_deck.n -
				                 g.shift_deck.n,
				                 bt_card_get(legal[i].card)->kind ==
				                 BT_COVER_STORY &&
				                 legal[i].verb == BT_SPECIAL);
			}
			ck_assert_int_eq(bt_apply(&g, &legal[next(&x) % (uint64_t)n],
			                          &err), 0);
		}
	}
	ck_assert_int_gt(ok, 500);
	ck_assert_int_gt(refused, 500);
	printf("take back: %ld moves could be taken back, %ld stood "
	       "(%ld of them quiet plays that ended a round)\n", ok, refused,
	       quiet_refused);
}
END_TEST

/* ---- the store ---------------------------------------------------------- */

static char dir[FIXTURE_PATH_MAX], path[FIXTURE_PATH_MAX];
static store *st;
static char id[STORE_ID_LEN + 1];

/* A turn email for the next seat, queued with every move. */
static int one_mail(void *ctx, const store_game *before, const bt_game *after,
                    const bt_action *a, store_mail *out, int max)
{
	(void)ctx, (void)before, (void)a;
	if (max < 1)
		return 0;
	memset(out, 0, sizeof *out);
	out->seat = after->turn;
	snprintf(out->kind, sizeof out->kind, "turn");
	snprintf(out->to, sizeof out->to, "seat%d@example.org", after->turn);
	snprintf(out->subject, sizeof out->subject, "Your turn");
	snprintf(out->body, sizeof out->body, "Your turn.\n");
	return 1;
}

/* A 3-seat game (seat 3 a bot) with emails; holds of 60 s and 5 s. */
static void setup(void)
{
	store_error err;
	store_new_game ng = {
		.players = 3, .first = 1,
		.seed = "00112233445566778899aabbccddeeff"
		        "00112233445566778899aabbccddeeff",
		.names = { "Ann", "Ben", "Bot" },
		.emails = { "ann@example.org", "ben@example.org", NULL },
		.bots = { NULL, NULL, "search" },
	};

	fixture_clock(1800000000);
	fixture_scratch("takeback", dir, path);
	st = fixture_open(path);
	store_set_holds(st, &(store_holds){ .mail_grace = 60, .bot_wait = 5 });
	ck_assert_int_eq(store_create(st, &ng, id, &err), STORE_OK);
}

static void teardown(void)
{
	store_close(st);
	fixture_remove(dir);
}

/* Plays seat to move's first legal action that passes quiet (or that
 * does not, if !quiet) with the seat's email; 1 if one was found. */
static int play(int want_quiet, bt_action *played)
{
	static bt_action legal[BT_MAX_LEGAL];
	store_game g;
	store_error err;
	bt_error gerr;

	ck_assert_int_eq(store_load(st, id, &g, &err), STORE_OK);
	int n = bt_legal(&g.state, legal, BT_MAX_LEGAL);
	for (int i = 0; i < n; i++) {
		bt_game after = g.state;
		ck_assert_int_eq(bt_apply(&after, &legal[i], &gerr), 0);
		if (bt_take_back_ok(&g.state, &legal[i], &after) != want_quiet)
			continue;
		ck_assert_int_eq(store_append(st, id, g.seq, &legal[i],
		                              one_mail, NULL, NULL, &err),
		                 STORE_OK);
		*played = legal[i];
		return 1;
	}
	return 0;
}

/* Plays until the person to move has a quiet play, and makes it. */
static void play_to_a_quiet_move(bt_action *played)
{
	bt_action a;
	store_game g;
	store_error err;

	for (int step = 0; step < 200; step++) {
		ck_assert_int_eq(store_load(st, id, &g, &err), STORE_OK);
		if (g.state.turn != 3 && play(1, played))
			return;
		/* otherwise any move, made as the bot would */
		static bt_action legal[BT_MAX_LEGAL];
		int n = bt_legal(&g.state, legal, BT_MAX_LEGAL);
		ck_assert_int_gt(n, 0);
		a = legal[0];
		ck_assert_int_eq(store_append_as(st, id, g.seq, &a,
		                                 g.state.turn == 3 ? "bot" : "",
		                                 NULL, NULL, NULL, &err),
		                 STORE_OK);
	}
	ck_abort_msg("no quiet move in 200 moves");
}

static long long sql(const char *q)
{
	return fixture_sql_value(path, q);
}

START_TEST(test_take_back_restores_the_game)
{
	store_game before, after, back;
	store_error err;
	bt_action a;
	static bt_record rec1, rec2;

	play_to_a_quiet_move(&a);
	ck_assert_int_eq(store_load(st, id, &after, &err), STORE_OK);
	int seq = after.seq;
	/* the state before the move, from a replay of the lines before it */
	ck_assert_int_eq(store_walk(st, &after, seq - 1, NULL, NULL,
	                            &before.state, &err), STORE_OK);
	ck_assert_int_eq(store_export(st, id, 1, &rec1, &err), STORE_OK);

	/* its email waits out the grace; only its maker may take it back */
	ck_assert_int_eq(sql("SELECT count(*) FROM outbox WHERE sent IS NULL"
	                     " AND next_attempt = 1800000060"), 1);
	ck_assert(!store_can_take_back(st, &after, after.state.turn));
	ck_assert(store_can_take_back(st, &after, a.seat));
	ck_assert_int_eq(store_take_back(st, id, after.state.turn, seq, NULL,
	                                 &err), STORE_ILLEGAL);
	ck_assert_int_eq(store_take_back(st, id, a.seat, seq - 1, NULL, &err),
	                 STORE_CONFLICT);

	ck_assert_int_eq(store_take_back(st, id, a.seat, seq, &back, &err),
	                 STORE_OK);
	ck_assert_int_eq(back.seq, seq - 1);
	ck_assert_int_eq(back.state.turn, a.seat);
	ck_assert_int_eq(back.turn_seat, a.seat);
	ck_assert_int_eq(back.state.actions, before.state.actions);
	ck_assert_int_eq(back.state.effort, before.state.effort);
	ck_assert_int_eq(back.state.leisure, before.state.leisure);
	ck_assert(back.state.hand[a.seat - 1] == before.state.hand[a.seat - 1]);
	ck_assert(memcmp(&back.state.rng, &before.state.rng,
	                 sizeof back.state.rng) == 0);
	/* the email is dropped, the record lost the line, the game checks */
	ck_assert_int_eq(sql("SELECT count(*) FROM outbox WHERE sent IS NULL"
	                     " AND dropped IS NULL AND move_seq > 0"
	                     " AND next_attempt = 1800000060"), 0);
	ck_assert_int_eq(store_export(st, id, 1, &rec2, &err), STORE_OK);
	ck_assert_int_eq(rec2.nitems, rec1.nitems - 1);
	ck_assert_int_eq(store_check(st, NULL, NULL, &err), STORE_OK);
	ck_assert_int_eq(sql("SELECT count(*) FROM taken_back"), 1);
	/* and the move can be made again, or another */
	bt_action again;
	ck_assert(play(1, &again));
	ck_assert_int_eq(store_load(st, id, &after, &err), STORE_OK);
	ck_assert_int_eq(after.seq, seq);
	ck_assert_int_eq(store_check(st, NULL, NULL, &err), STORE_OK);
}
END_TEST

/* A move that drew stands, and so does one that something followed. */
START_TEST(test_what_cannot_be_taken_back)
{
	store_game g;
	store_error err;
	bt_action a;

	play_to_a_quiet_move(&a);
	ck_assert_int_eq(store_load(st, id, &g, &err), STORE_OK);
	int mover = a.seat;
	if (g.state.turn != 3) {
		/* the next person moves: the first move now stands */
		ck_assert(play(0, &a) || play(1, &a));
		ck_assert_int_eq(store_load(st, id, &g, &err), STORE_OK);
		ck_assert(!store_can_take_back(st, &g, mover));
		ck_assert_int_eq(store_take_back(st, id, mover, g.seq, NULL,
		                                 &err), STORE_ILLEGAL);
	}
	/* a draw (work or log) stands */
	for (int step = 0; step < 50; step++) {
		ck_assert_int_eq(store_load(st, id, &g, &err), STORE_OK);
		if (g.state.turn == 3) {
			static bt_action legal[BT_MAX_LEGAL];
			ck_assert_int_gt(bt_legal(&g.state, legal, BT_MAX_LEGAL), 0);
			ck_assert_int_eq(store_append_as(st, id, g.seq, &legal[0],
			                                 "bot", NULL, NULL, NULL,
			                                 &err), STORE_OK);
			continue;
		}
		ck_assert(play(0, &a));
		ck_assert_int_eq(store_load(st, id, &g, &err), STORE_OK);
		ck_assert(!store_can_take_back(st, &g, a.seat));
		ck_assert_int_eq(store_take_back(st, id, a.seat, g.seq, NULL,
		                                 &err), STORE_ILLEGAL);
		ck_assert_int_eq(sql("SELECT count(*) FROM taken_back"), 0);
		return;
	}
	ck_abort_msg("no move that stands in 50 moves");
}
END_TEST

/* The bot waits before it answers a move that may be taken back; taking
 * it back removes the bot's turn. */
START_TEST(test_bot_waits_and_its_turn_goes)
{
	store_game g;
	store_error err;
	bt_action a;

	for (int tries = 0; tries < 200; tries++) {
		play_to_a_quiet_move(&a);
		ck_assert_int_eq(store_load(st, id, &g, &err), STORE_OK);
		if (g.state.turn == 3)
			break;
	}
	ck_assert_int_eq(g.state.turn, 3);
	ck_assert_int_eq(sql("SELECT due - created FROM jobs WHERE kind = 'move'"
	                     " AND done IS NULL"), 5);
	ck_assert_int_eq(store_take_back(st, id, a.seat, g.seq, NULL, &err),
	                 STORE_OK);
	ck_assert_int_eq(sql("SELECT count(*) FROM jobs WHERE kind = 'move'"
	                     " AND done IS NULL"), 0);
}
END_TEST

/* The history's rows leave only as a take-back: never by hand. */
START_TEST(test_actions_stay_append_only)
{
	store_game g;
	store_error err;
	bt_action a;

	play_to_a_quiet_move(&a);
	ck_assert_int_eq(store_load(st, id, &g, &err), STORE_OK);
	ck_assert_int_gt(g.seq, 0);
	ck_assert_int_eq(sql("DELETE FROM actions WHERE seq = 0"
	                     " RETURNING 1"), -1);
	ck_assert_int_eq(sql("SELECT count(*) FROM actions"), g.seq);
}
END_TEST

/* The taken-back moves are listed for the history, oldest first. */
static int count_taken(void *ctx, const store_taken *t)
{
	int *n = ctx;

	ck_assert_int_gt(t->seat, 0);
	ck_assert(t->line[0]);
	(*n)++;
	return 0;
}

START_TEST(test_taken_back_moves_are_listed)
{
	store_game g;
	store_error err;
	bt_action a;
	int n = 0;

	play_to_a_quiet_move(&a);
	ck_assert_int_eq(store_load(st, id, &g, &err), STORE_OK);
	ck_assert_int_eq(store_take_back(st, id, a.seat, g.seq, NULL, &err),
	                 STORE_OK);
	ck_assert_int_eq(store_taken_list(st, id, count_taken, &n, &err),
	                 STORE_OK);
	ck_assert_int_eq(n, 1);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("takeback");
	TCase *t = tcase_create("rules");
	tcase_add_test(t, test_take_back_only_what_showed_nothing);
	tcase_set_timeout(t, 120);
	suite_add_tcase(s, t);
	t = tcase_create("store");
	tcase_add_checked_fixture(t, setup, teardown);
	tcase_add_test(t, test_take_back_restores_the_game);
	tcase_add_test(t, test_what_cannot_be_taken_back);
	tcase_add_test(t, test_bot_waits_and_its_turn_goes);
	tcase_add_test(t, test_actions_stay_append_only);
	tcase_add_test(t, test_taken_back_moves_are_listed);
	suite_add_tcase(s, t);
	return s;
}

int main(void)
{
	SRunner *r = srunner_create(suite());
	srunner_run_all(r, CK_NORMAL);
	int failed = srunner_ntests_failed(r);
	srunner_free(r);
	return failed ? 1 : 0;
}
