/*
 * check_bot_talk.c - bot seats talk, and hands shown to the crew.
 *
 *   words   the line a bot says from its search's figures (bots/bot_talk.h):
 *           its sweep's cards, why not the crew's usual move, a risky
 *           draw, the Ability cards it has not told of yet; nothing
 *           when none of them applies; never a card it hands to another
 *           player; never half a sentence.
 *   figures bot_search_heard makes the move bot_search makes, with
 *           figures that agree with the table.
 *   store   a move and its line are one transaction (real SQLite file):
 *           a refused or failed move leaves no line, the move's emails
 *           see the line, the table talk limit drops the line and not
 *           the move.
 *   shown   a seat that shows its hand: the worker's bot plans with that
 *           hand (its observation holds it) but not with what that
 *           seat's Sensor Sweep showed; a hand not shown stays unknown.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "botturn.h"
#include "fixture.h"
#include "search.h"
#include "store.h"
#include "bot_talk.h"

enum { T0 = 1700000000, ROLLOUTS = 60 };

/* ---- words --------------------------------------------------------- */

static const char *const NAMES[BT_MAX_PLAYERS] = { "Ann", "Bot" };

/* Two seats, seat 1 first: seat 1 holds Sensor Sweep X13 and Deflect X07,
 * seat 2 two Overtimes; the Shift Stack starts with S01 and the deck's
 * top is Captain (S23), Eager Ensign (S08), Overachieving Ensign (S17). */
static void rigged(bt_game *g)
{
	static const bt_card shift[] = { 64 + 0, 64 + 22, 64 + 7, 64 + 16 };
	static const bt_card ability[] = { 26 + 12, 26 + 6, 26 + 0, 26 + 1 };
	uint8_t key[BT_KEY_BYTES] = { 7 };
	bt_error err;

	ck_assert_int_eq(bt_game_init(g, 2, 1, key, &err), 0);
	ck_assert_int_eq(bt_game_stack(g, BT_DECK_SHIFT, shift, 4, &err), 0);
	ck_assert_int_eq(bt_game_stack(g, BT_DECK_ABILITY, ability, 4, &err),
	                 0);
	ck_assert_msg(bt_game_start(g, &err) == 0, "%s", err.why);
}

static bt_action act(int seat, bt_verb verb, bt_card card)
{
	bt_action a = { .seat = (uint8_t)seat, .verb = (uint8_t)verb,
	                .card = card };
	return a;
}

START_TEST(test_talk_a_sweep_tells_its_cards_in_their_new_order)
{
	bt_game g;
	bot_figures f = { .options = 5, .games = 100, .chance = 0.5,
	                  .swept = 1 };
	bt_action a = act(1, BT_SPECIAL, 26 + 12);
	char line[BOT_TALK_MAX];

	rigged(&g);
	a.nargs = 3;
	a.arg[0] = 64 + 7;      /* Eager Ensign on top */
	a.arg[1] = 64 + 16;
	a.arg[2] = 64 + 22;
	ck_assert_int_gt(bot_talk_move(&g, &a, &f, NAMES, line, sizeof line),
	                 0);
	ck_assert_str_eq(line, "Sensor Sweep: the next Shift cards are Eager "
	                 "Ensign (Effort 2), then Overachieving Ensign "
	                 "(Effort 3), then Captain (3 Officers); the next "
	                 "draw is safe.");
}
END_TEST

START_TEST(test_talk_a_move_the_crew_would_not_make_says_why)
{
	bt_game g;
	bot_figures f = { .options = 3, .games = 400, .chance = 0.62,
	                  .crew_differs = 1, .crew_chance = 0.48 };
	bt_action log = act(1, BT_LOG, BT_NO_CARD);
	char line[BOT_TALK_MAX];

	rigged(&g);
	f.crew = act(1, BT_WORK, BT_NO_CARD);
	ck_assert_int_gt(bot_talk_move(&g, &log, &f, NAMES, line, sizeof line),
	                 0);
	ck_assert_str_eq(line, "Logging the assignment: 62% to win this way, "
	                 "against 48% for drawing a Shift card.");
	/* a side project, against the crew's sweep */
	bt_action side = act(1, BT_SIDE, 6);
	f.crew = act(1, BT_SPECIAL, 26 + 12);
	bot_talk_move(&g, &side, &f, NAMES, line, sizeof line);
	ck_assert_str_eq(line, "Starting Trivia Night: 62% to win this way, "
	                 "against 48% for playing Sensor Sweep.");
	/* a gain under BOT_TALK_GAIN points, or no games: nothing */
	f.crew_chance = 0.59;
	ck_assert_int_eq(bot_talk_move(&g, &log, &f, NAMES, line, sizeof line),
	                 0);
	ck_assert_str_eq(line, "");
	f.crew_chance = 0.2;
	f.games = 0;
	ck_assert_int_eq(bot_talk_move(&g, &log, &f, NAMES, line, sizeof line),
	                 0);
}
END_TEST

START_TEST(test_talk_a_card_handed_off_is_never_named)
{
	bt_game g;
	bot_figures f = { .options = 4, .games = 300, .chance = 0.7,
	                  .crew_differs = 1, .crew_chance = 0.5 };
	bt_action give = act(2, BT_SPECIAL, 26 + 18);   /* Hand Off */
	char line[BOT_TALK_MAX];

	rigged(&g);
	give.nargs = 2;
	give.arg[0] = 26 + 0;                           /* an Overtime */
	give.arg[1] = 1;
	f.crew = act(2, BT_WORK, BT_NO_CARD);
	bot_talk_move(&g, &give, &f, NAMES, line, sizeof line);
	ck_assert_str_eq(line, "Handing a card to Ann: 70% to win this way, "
	                 "against 50% for drawing a Shift card.");
	ck_assert_ptr_null(strstr(line, "Overtime"));
	/* no names given: the seat's number */
	bot_talk_move(&g, &give, &f, NULL, line, sizeof line);
	ck_assert_str_eq(line, "Handing a card to seat 1: 70% to win this "
	                 "way, against 50% for drawing a Shift card.");
}
END_TEST

START_TEST(test_talk_a_risky_draw_says_the_risk_and_the_effort)
{
	bt_game g;
	bot_figures f = { .options = 2, .games = 200, .chance = 0.4,
	                  .risk_num = 2, .risk_den = 8, .effort_needed = 4 };
	bt_action work = act(1, BT_WORK, BT_NO_CARD);
	char line[BOT_TALK_MAX];

	rigged(&g);
	ck_assert_int_gt(bot_talk_move(&g, &work, &f, NAMES, line,
	                               sizeof line), 0);
	ck_assert_str_eq(line, "Drawing: 25% risk, and we need 4 more Effort.");
	f.risk_num = f.risk_den = 1;
	bot_talk_move(&g, &work, &f, NAMES, line, sizeof line);
	ck_assert_str_eq(line, "Drawing: the next card brings a reprimand, "
	                 "but nothing else does better; we need 4 more "
	                 "Effort.");
	/* under BOT_TALK_RISKY percent, or no deck: nothing */
	f.risk_num = 1;
	f.risk_den = 6;
	ck_assert_int_eq(bot_talk_move(&g, &work, &f, NAMES, line,
	                               sizeof line), 0);
	f.risk_den = 0;
	ck_assert_int_eq(bot_talk_move(&g, &work, &f, NAMES, line,
	                               sizeof line), 0);
}
END_TEST

START_TEST(test_talk_the_hand_once_a_kind_is_new)
{
	bt_game g;
	char line[BOT_TALK_MAX];

	rigged(&g);
	ck_assert_int_gt(bot_talk_hand(&g, 1, NULL, line, sizeof line), 0);
	ck_assert_str_eq(line, "In my hand for later: Deflect, Sensor Sweep.");
	/* said before: nothing; a kind gone: nothing; a new one: again */
	ck_assert_int_eq(bot_talk_hand(&g, 1, "In my hand for later: Deflect, "
	                               "Sensor Sweep.", line, sizeof line), 0);
	ck_assert_int_eq(bot_talk_hand(&g, 1, "In my hand for later: "
	                               "Overtime, Deflect, Sensor Sweep.",
	                               line, sizeof line), 0);
	ck_assert_int_gt(bot_talk_hand(&g, 1, "In my hand for later: "
	                               "Deflect.", line, sizeof line), 0);
	ck_assert_str_eq(line, "In my hand for later: Deflect, Sensor Sweep.");
	ck_assert_int_gt(bot_talk_hand(&g, 2, "", line, sizeof line), 0);
	ck_assert_str_eq(line, "In my hand for later: Overtime, Overtime.");
	/* no Ability card: nothing */
	g.hand[1] &= ((uint64_t)1 << BT_ABILITY_FIRST) - 1;
	ck_assert_int_eq(bot_talk_hand(&g, 2, NULL, line, sizeof line), 0);
	ck_assert_str_eq(line, "");
}
END_TEST

START_TEST(test_talk_never_half_a_sentence)
{
	bt_game g;
	bot_figures f = { .options = 2, .games = 200, .chance = 0.4,
	                  .risk_num = 1, .risk_den = 2, .effort_needed = 3 };
	bt_action work = act(1, BT_WORK, BT_NO_CARD);
	char line[16];

	rigged(&g);
	ck_assert_int_eq(bot_talk_move(&g, &work, &f, NAMES, line,
	                               sizeof line), 0);
	ck_assert_str_eq(line, "");
	ck_assert_int_eq(bot_talk_hand(&g, 1, NULL, line, sizeof line), 0);
	ck_assert_str_eq(line, "");
}
END_TEST

/* ---- figures ------------------------------------------------------- */

START_TEST(test_figures_agree_with_the_move_and_the_table)
{
	static bt_game g;
	bot *search = bot_new();
	bot_budget budget = { 400, 0, 0 };
	bot_heard silent = { 0, 0 };
	bot_figures f;
	bt_action mine, plain;
	uint8_t key[BT_KEY_BYTES] = { 3 };
	bt_error err;

	ck_assert_ptr_nonnull(search);
	ck_assert_int_eq(bt_game_new(&g, 3, 1, key, &err), 0);
	ck_assert_int_eq(bot_search(search, &g, 1, 0, &budget, 9, &plain,
	                            NULL), 0);
	ck_assert_int_eq(bot_search_heard(search, &g, 1, &silent, &budget, 9,
	                                  &mine, &f), 0);
	ck_assert_int_eq(bot_action_index(&plain, 1, &mine), 0);
	ck_assert_int_gt(f.options, 1);
	ck_assert(f.games > 0);
	ck_assert(f.chance >= 0 && f.chance <= 1);
	ck_assert(f.crew_chance >= 0 && f.crew_chance <= 1);
	ck_assert_int_eq(f.effort_needed, g.target - g.effort);
	/* nobody swept: every card in the deck is as likely on top */
	ck_assert_int_eq(f.risk_den, g.shift_deck.n);
	int officers = 0;
	for (int i = 0; i < g.shift_deck.n; i++)
		officers += bt_draw_reprimands(&g, g.shift_deck.c[i]);
	ck_assert_int_eq(f.risk_num, officers);
	bot_free(search);
}
END_TEST

/* ---- store: a move and its line ------------------------------------ */

static char dir[FIXTURE_PATH_MAX], path[FIXTURE_PATH_MAX];
static store *st;

static void store_setup(void)
{
	fixture_scratch("bot-talk", dir, path);
	st = fixture_open(path);
	fixture_clock(T0);
}

static void store_teardown(void)
{
	store_close(st);
	fixture_remove(dir);
	fixture_clock(0);
}

static long long sql_value(const char *sql)
{
	return fixture_sql_value(path, sql);
}

/* A two-seat game, seat 1 first; with_bot: seat 2 is the search bot. */
static void create(int with_bot, char id[STORE_ID_LEN + 1])
{
	store_new_game ng = { .players = 2, .first = 1, .seed = "42",
	                      .names = { "Ann", NULL } };
	store_error err;

	ng.bots[1] = with_bot ? "search" : NULL;
	ck_assert_msg(store_create(st, &ng, id, &err) == STORE_OK, "%s",
	              err.why);
}

/* A mail_fn that looks for the line at the table from inside the
 * move's transaction, or fails the move (fail). */
typedef struct peek {
	int fail, calls, heard;
	const char *want;
} peek;

static int find_line(void *ctx, const store_chat *c)
{
	peek *p = ctx;

	p->heard += !strcmp(c->text, p->want);
	return 0;
}

static int peek_mail(void *ctx, const store_game *before, const bt_game *after,
                     const bt_action *a, store_mail *out, int max)
{
	peek *p = ctx;
	store_error err;

	(void)after, (void)a, (void)out, (void)max;
	p->calls++;
	if (p->fail)
		return -1;
	ck_assert_int_eq(store_chat_list(st, before->id, -1, find_line, p,
	                                 &err), STORE_OK);
	return 0;
}

static const char LINE[] = "Drawing: 25% risk, and we need 4 more Effort.";

START_TEST(test_store_a_refused_move_leaves_no_line)
{
	char id[STORE_ID_LEN + 1];
	bt_action work = act(1, BT_WORK, BT_NO_CARD);
	bt_action wrong = act(2, BT_WORK, BT_NO_CARD);
	peek p = { .fail = 1, .want = LINE };
	store_error err;
	int said = 7;

	create(1, id);
	ck_assert_int_eq(store_append_saying(st, id, 3, &work, "bot", LINE,
	                                     NULL, NULL, &said, &err),
	                 STORE_CONFLICT);
	ck_assert_int_eq(said, 0);
	ck_assert_int_eq(store_append_saying(st, id, 0, &wrong, "bot", LINE,
	                                     NULL, NULL, &said, &err),
	                 STORE_ILLEGAL);
	ck_assert_int_eq(store_append_saying(st, id, 0, &work, "bot", LINE,
	                                     peek_mail, &p, &said, &err),
	                 STORE_ERROR);
	ck_assert_int_eq(p.calls, 1);
	ck_assert_int_eq(said, 0);
	ck_assert_int_eq(sql_value("SELECT count(*) FROM chat"), 0);
	ck_assert_int_eq(sql_value("SELECT count(*) FROM actions"), 0);
}
END_TEST

START_TEST(test_store_the_move_and_its_line_go_in_together)
{
	char id[STORE_ID_LEN + 1];
	bt_action work = act(1, BT_WORK, BT_NO_CARD);
	peek p = { .want = LINE };
	store_error err;
	int said = 0;

	create(1, id);
	ck_assert_msg(store_append_saying(st, id, 0, &work, "bot", LINE,
	                                  peek_mail, &p, &said, &err) ==
	              STORE_OK, "%s", err.why);
	ck_assert_int_eq(said, 1);
	/* the move's emails were made with the line at the table */
	ck_assert_int_eq(p.heard, 1);
	ck_assert_int_eq(sql_value("SELECT count(*) FROM actions WHERE seq = 0"
	                           " AND made_by = 'bot'"), 1);
	ck_assert_int_eq(sql_value("SELECT count(*) FROM chat WHERE seat = 1"
	                           " AND at_seq = 0"), 1);
}
END_TEST

START_TEST(test_store_the_talk_limit_drops_the_line_not_the_move)
{
	char id[STORE_ID_LEN + 1], text[32];
	bt_action work = act(1, BT_WORK, BT_NO_CARD);
	store_error err;
	int said = 1;

	create(0, id);
	for (int i = 0; i < STORE_CHAT_BURST; i++) {
		snprintf(text, sizeof text, "line %d", i);
		ck_assert_int_eq(store_chat_add(st, id, 1, text, &err),
		                 STORE_OK);
	}
	ck_assert_msg(store_append_saying(st, id, 0, &work, "bot", LINE, NULL,
	                                  NULL, &said, &err) == STORE_OK,
	              "%s", err.why);
	ck_assert_int_eq(said, 0);
	ck_assert_int_eq(sql_value("SELECT count(*) FROM chat"),
	                 STORE_CHAT_BURST);
	ck_assert_int_eq(sql_value("SELECT count(*) FROM actions"), 1);
	/* nothing to say: the move alone */
	ck_assert_int_eq(store_append_saying(st, id, 1, &(bt_action){
	                                     .seat = 2, .verb = BT_WORK,
	                                     .card = BT_NO_CARD }, "bot",
	                                     NULL, NULL, NULL, &said, &err),
	                 STORE_OK);
	ck_assert_int_eq(sql_value("SELECT count(*) FROM actions"), 2);
	ck_assert_int_eq(sql_value("SELECT count(*) FROM chat"),
	                 STORE_CHAT_BURST);
}
END_TEST

/* ---- shown hands --------------------------------------------------- */

START_TEST(test_shown_a_seat_turns_it_on_and_off)
{
	char id[STORE_ID_LEN + 1];
	store_error err;
	unsigned shown = 99;

	create(1, id);
	ck_assert_int_eq(store_shown_get(st, id, &shown, &err), STORE_OK);
	ck_assert_uint_eq(shown, 0);
	fixture_clock(T0 + 50);
	ck_assert_int_eq(store_shown_set(st, id, 1, 1, &err), STORE_OK);
	ck_assert_int_eq(store_shown_get(st, id, &shown, &err), STORE_OK);
	ck_assert_uint_eq(shown, 1);
	/* the tables left open see a change */
	ck_assert_int_eq(sql_value("SELECT updated FROM games"), T0 + 50);
	ck_assert_int_eq(store_shown_set(st, id, 1, 0, &err), STORE_OK);
	ck_assert_int_eq(store_shown_get(st, id, &shown, &err), STORE_OK);
	ck_assert_uint_eq(shown, 0);
	ck_assert_int_eq(store_shown_set(st, id, 3, 1, &err), STORE_NOT_FOUND);
	ck_assert_int_eq(store_shown_set(st, "nope", 1, 1, &err),
	                 STORE_NOT_FOUND);
}
END_TEST

/* Ann (seat 1) holds Sensor Sweep X13 and X14 and sweeps; seat 2, a bot,
 * holds two Overtimes and moves next.  The Shift Stack starts with S01. */
static const char SWEEP_GAME[] =
	"buffertime 1\nplayers 2\nfirst 1\nseed 42\nname 1 Ann\n"
	"stack shift S01 S02 S03 S04\n"
	"stack ability X13 X14 X01 X02\n";

static void import_sweep_game(char id[STORE_ID_LEN + 1])
{
	static bt_replay r;
	bt_action sweep = act(1, BT_SPECIAL, 26 + 12);
	store_error err;
	bt_error gerr;
	char sql[160];

	bt_replay_init(&r);
	ck_assert_msg(bt_replay_text(&r, SWEEP_GAME, strlen(SWEEP_GAME), &gerr)
	              == 0, "%s", gerr.why);
	ck_assert_msg(store_import(st, &r.rec, NULL, id, &err) == STORE_OK,
	              "%s", err.why);
	snprintf(sql, sizeof sql, "UPDATE seats SET bot = 'search' WHERE game"
	         " = '%s' AND seat = 2", id);
	fixture_sql_value(path, sql);
	sweep.nargs = 3;
	sweep.arg[0] = 64 + 3;
	sweep.arg[1] = 64 + 2;
	sweep.arg[2] = 64 + 1;
	ck_assert_msg(store_append(st, id, 0, &sweep, NULL, NULL, NULL, &err)
	              == STORE_OK, "%s", err.why);
}

/* The worker plays the bot's turn of game id; its observation into o. */
static void worker_plays(const char *id, bt_obs *o)
{
	botturn t = {
		.st = st, .db = path, .compose = { .st = st },
		.budget = { ROLLOUTS, 0, 0 }, .review_rollouts = ROLLOUTS,
		.log = stderr, .lock_fd = -1,
	};
	char why[128];
	store_error err;
	int moved = 0;

	(void)id;
	ck_assert_int_eq(botturn_open(&t, why, sizeof why), 0);
	ck_assert_msg(botturn_round(&t, &moved, &err) == STORE_OK, "%s",
	              err.why);
	ck_assert_int_eq(moved, 1);
	*o = *bot_observation(t.b);
	botturn_close(&t);
}

START_TEST(test_shown_the_bot_plans_with_the_hand_not_the_sweep)
{
	static store_game g;
	char id[STORE_ID_LEN + 1];
	store_error err;
	bt_obs o;

	import_sweep_game(id);
	ck_assert_int_eq(store_load(st, id, &g, &err), STORE_OK);
	ck_assert_int_eq(g.state.turn, 2);
	ck_assert_int_gt(g.state.known_top[0], 0);     /* Ann saw the top */
	ck_assert_int_eq(store_shown_set(st, id, 1, 1, &err), STORE_OK);
	worker_plays(id, &o);
	ck_assert_uint_eq((o.told & 1u), 1u);
	ck_assert_uint_eq(o.table.hand[0], g.state.hand[0]);
	ck_assert_int_eq(o.known_top_n, 0);           /* not Ann's sweep */
	/* its line went in with its move, said before it */
	ck_assert_int_eq(sql_value("SELECT count(*) FROM actions WHERE"
	                           " made_by = 'bot'"), 1);
	ck_assert_int_le(sql_value("SELECT count(*) FROM chat WHERE seat = 2"),
	                 1);
	ck_assert_int_eq(sql_value("SELECT count(*) FROM chat WHERE seat = 2"
	                           " AND at_seq <> 1"), 0);
}
END_TEST

START_TEST(test_shown_a_hand_not_shown_stays_unknown)
{
	static store_game g;
	char id[STORE_ID_LEN + 1];
	store_error err;
	bt_obs o;

	import_sweep_game(id);
	ck_assert_int_eq(store_load(st, id, &g, &err), STORE_OK);
	/* shown, then not any more */
	ck_assert_int_eq(store_shown_set(st, id, 1, 1, &err), STORE_OK);
	ck_assert_int_eq(store_shown_set(st, id, 1, 0, &err), STORE_OK);
	worker_plays(id, &o);
	ck_assert_uint_eq(o.told, 0);
	ck_assert_uint_eq(o.table.hand[0], 0);
	ck_assert_int_eq(o.known_top_n, 0);
}
END_TEST

START_TEST(test_shown_who_hears_what)
{
	static store_game g;
	bot_heard h;

	memset(&g, 0, sizeof g);
	g.players = g.state.players = 3;
	snprintf(g.seats[1].bot, sizeof g.seats[1].bot, "search");
	snprintf(g.seats[2].bot, sizeof g.seats[2].bot, "search");
	/* a bot: the bots' hands and sweeps, and the hands shown */
	h = botturn_heard(&g, 1u, 2);
	ck_assert_uint_eq(h.hands, 7u);
	ck_assert_uint_eq(h.sweeps, 6u);
	h = botturn_heard(&g, 0u, 3);
	ck_assert_uint_eq(h.hands, 6u);
	/* a stand-in for seat 1: the hands shown only */
	g.seats[0].standin_since = T0;
	h = botturn_heard(&g, 4u, 1);
	ck_assert_uint_eq(h.hands, 4u);
	ck_assert_uint_eq(h.sweeps, 0u);
}
END_TEST

static Suite *bot_talk_suite(void)
{
	Suite *s = suite_create("bot_talk");
	TCase *words = tcase_create("words");
	TCase *figs = tcase_create("figures");
	TCase *stores = tcase_create("store");
	TCase *shown = tcase_create("shown");

	tcase_add_test(words, test_talk_a_sweep_tells_its_cards_in_their_new_order);
	tcase_add_test(words, test_talk_a_move_the_crew_would_not_make_says_why);
	tcase_add_test(words, test_talk_a_card_handed_off_is_never_named);
	tcase_add_test(words, test_talk_a_risky_draw_says_the_risk_and_the_effort);
	tcase_add_test(words, test_talk_the_hand_once_a_kind_is_new);
	tcase_add_test(words, test_talk_never_half_a_sentence);
	tcase_add_test(figs, test_figures_agree_with_the_move_and_the_table);
	tcase_add_checked_fixture(stores, store_setup, store_teardown);
	tcase_add_test(stores, test_store_a_refused_move_leaves_no_line);
	tcase_add_test(stores, test_store_the_move_and_its_line_go_in_together);
	tcase_add_test(stores, test_store_the_talk_limit_drops_the_line_not_the_move);
	tcase_add_checked_fixture(shown, store_setup, store_teardown);
	tcase_add_test(shown, test_shown_a_seat_turns_it_on_and_off);
	tcase_add_test(shown, test_shown_the_bot_plans_with_the_hand_not_the_sweep);
	tcase_add_test(shown, test_shown_a_hand_not_shown_stays_unknown);
	tcase_add_test(shown, test_shown_who_hears_what);
	suite_add_tcase(s, words);
	suite_add_tcase(s, figs);
	suite_add_tcase(s, stores);
	suite_add_tcase(s, shown);
	return s;
}

int main(void)
{
	SRunner *r = srunner_create(bot_talk_suite());
	int failed;

	srunner_run_all(r, CK_NORMAL);
	failed = srunner_ntests_failed(r);
	srunner_free(r);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
