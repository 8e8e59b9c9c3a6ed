/*
 * check_compose_table.c - the table in a turn email's text
 * (mail/compose_table.c), one email per move for each seat over a whole
 * game, and the game-over email (issue 23), on a real SQLite file.
 *
 * The game is tests/data/web-rigged.rec: its round 1 is rigged, so the
 * figures of its first turns are known (the record's comments give
 * them).  Seat 1 plays by reply (mail/inbound_act.c), as one who plays
 * only by email; seats 2 and 3 on the web (store_append).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>
#include <sodium.h>

#include "compose.h"
#include "compose_table.h"
#include "fixture.h"
#include "inbound_act.h"
#include "menu.h"
#include "record.h"
#include "reply.h"
#include "rig.h"
#include "store.h"
#include "token.h"
#include "utf8.h"

enum {
	TEXT_MAX = 16384,
	ACTIONS_MAX = 64,
	MAILS_MAX = 16,
	T0 = 1700000000
};

static const char BASE[] = "https://bt.example.org/buffer/";
static const char *const EMAILS[BT_MAX_PLAYERS] = {
	"ann@example.org", "bob@example.org", "cyd@example.org", "", "", ""
};

static char dir[FIXTURE_PATH_MAX], path[FIXTURE_PATH_MAX];
static store *st;
static token_keys keys;
static compose_ctx cc;
static inbound_cfg cfg;
static char game[STORE_ID_LEN + 1];
static char log_line[512];
static int64_t last_id;

/* web-rigged.rec: its header and its action lines. */
static struct {
	char header[TEXT_MAX];
	int n;
	char text[ACTIONS_MAX][BT_ACTION_TEXT_MAX];
	bt_action act[ACTIONS_MAX];
} rg;

static void rigged(void)
{
	char file[600], line[1100];
	size_t hl = 0;
	bt_error gerr;
	FILE *f;

	memset(&rg, 0, sizeof rg);
	snprintf(file, sizeof file, "%s/web-rigged.rec", fixture_data_dir());
	ck_assert_ptr_nonnull(f = fopen(file, "r"));
	while (fgets(line, sizeof line, f)) {
		size_t len = strcspn(line, "\n");
		line[len] = '\0';
		if (line[0] >= '1' && line[0] <= '9') {
			ck_assert_int_lt(rg.n, ACTIONS_MAX);
			memcpy(rg.text[rg.n], line, len + 1);
			ck_assert_int_eq(bt_action_parse(line, len,
			                 &rg.act[rg.n], &gerr), 0);
			rg.n++;
			continue;
		}
		hl += (size_t)snprintf(rg.header + hl, sizeof rg.header - hl,
		                       "%s\n", line);
		ck_assert_uint_lt(hl, sizeof rg.header);
	}
	fclose(f);
	ck_assert_int_gt(rg.n, 20);
}

static void setup(void)
{
	static const unsigned char master[TOKEN_KEY_BYTES] = { 7, 7, 7 };
	static bt_replay r;
	store_error err;
	bt_error gerr;

	ck_assert_int_ge(sodium_init(), 0);
	fixture_scratch("compose-table", dir, path);
	st = fixture_open(path);
	fixture_clock(T0);
	token_keys_derive(master, &keys);
	cc = (compose_ctx){ .st = st, .keys = &keys, .base_url = BASE };
	ck_assert_int_eq(compose_reply_address(&cc, "play@bt.example"), 0);
	cfg = (inbound_cfg){ .st = st, .compose = &cc, .keys = &keys,
	                     .reply_local = "play", .trust_authserv = "",
	                     .now = T0 };
	last_id = 0;
	rigged();
	bt_replay_init(&r);
	ck_assert_msg(bt_replay_text(&r, rg.header, strlen(rg.header), &gerr)
	              == 0, "%s", gerr.why);
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

static void notify(store_notify n1, store_notify n2, store_notify n3)
{
	store_notify n[3] = { n1, n2, n3 };
	store_error err;

	for (int s = 1; s <= 3; s++)
		ck_assert_int_eq(store_set_notify(st, game, s, n[s - 1], &err),
		                 STORE_OK);
}

/* ---- the outbox --------------------------------------------------------- */

typedef struct sent {
	int64_t after;
	int n;
	store_outmail m[MAILS_MAX];
} sent;

static int collect(void *ctx, const store_outmail *m)
{
	sent *s = ctx;

	if (m->id <= s->after)
		return 0;
	if (m->id > last_id)
		last_id = m->id;
	if (s->n < MAILS_MAX)
		s->m[s->n] = *m;
	s->n++;
	return 0;
}

/* The outbox rows added since the last look (COMPOSE_DUMP: printed). */
static void new_mails(sent *s)
{
	store_error err;

	s->after = last_id;
	s->n = 0;
	ck_assert_int_eq(store_outbox_list(st, STORE_OUTBOX_ALL, collect, s,
	                                   &err), STORE_OK);
	ck_assert_int_le(s->n, MAILS_MAX);
	for (int i = 0; getenv("COMPOSE_DUMP") && i < s->n; i++)
		printf("==== %s to seat %d\nSubject: %s\n\n%s\n", s->m[i].kind,
		       s->m[i].seat, s->m[i].subject, s->m[i].body);
}

static const store_outmail *to_seat(const sent *s, int seat,
                                    const char *kind)
{
	for (int i = 0; i < s->n; i++)
		if (s->m[i].seat == seat && strcmp(s->m[i].kind, kind) == 0)
			return &s->m[i];
	return NULL;
}

static int count_to(const sent *s, int seat)
{
	int n = 0;

	for (int i = 0; i < s->n; i++)
		n += s->m[i].seat == seat;
	return n;
}

/* ---- moves --------------------------------------------------------------- */

/* Action k, as the web plays it. */
static void play_web(int k, sent *s)
{
	store_error err;

	ck_assert_int_eq(load()->seq, k);
	ck_assert_msg(store_append(st, game, k, &rg.act[k], compose_move, &cc,
	                           NULL, &err) == STORE_OK, "%s: %s",
	              rg.text[k], err.why);
	new_mails(s);
}

static int same_action(const bt_action *a, const bt_action *b)
{
	if (a->seat != b->seat || a->verb != b->verb || a->card != b->card ||
	    a->nargs != b->nargs)
		return 0;
	for (int i = 0; i < a->nargs; i++)
		if (a->arg[i] != b->arg[i])
			return 0;
	return 1;
}

/* Action k, as a reply with its menu number to the turn email. */
static void play_reply(int k, sent *s)
{
	const char *names[BT_MAX_PLAYERS] = { "Ann", "Bob", "Cyd" };
	store_game *g = load();
	int seat = rg.act[k].seat, pick = -1;
	static menu m;
	reply_token t = { .seat = seat, .seq16 = (unsigned)k & 0xffff,
	                  .gen16 = (unsigned)g->seats[seat - 1].token_gen &
	                           0xffff,
	                  .expires_day = T0 / 86400 + 30 };
	char tok[REPLY_TOKEN_SIZE], raw[2048], id[64];
	int n;

	ck_assert_int_eq(g->seq, k);
	ck_assert_int_gt(menu_build(&g->state, seat, names, &m), 0);
	for (int i = 0; i < m.n && pick < 0; i++)
		if (same_action(&m.item[i].a, &rg.act[k]))
			pick = i;
	ck_assert_msg(pick >= 0, "no menu item for %s", rg.text[k]);
	snprintf(t.game_id, sizeof t.game_id, "%s", game);
	ck_assert_int_eq(reply_token_make(&keys, &t, tok), TOKEN_OK);
	snprintf(id, sizeof id, "move%d@example.org", k);
	n = snprintf(raw, sizeof raw, "From: <%s>\nTo: <play+%s@bt.example>\n"
	             "Subject: Re: Your turn\nMessage-ID: <%s>\n"
	             "Content-Type: text/plain; charset=utf-8\n\n%d\n",
	             EMAILS[seat - 1], tok, id, pick + 1);
	ck_assert_int_lt(n, (int)sizeof raw);
	ck_assert_int_eq(inbound_act(&cfg, raw, (size_t)n, log_line,
	                             sizeof log_line), 0);
	ck_assert_msg(load()->seq == k + 1, "%s: %s", rg.text[k], log_line);
	new_mails(s);
}

/* ---- the table ------------------------------------------------------------ */

/* The part of body from "The table" to the menu or the seat's link. */
static void table_of(const char *body, char *out, size_t cap)
{
	const char *p = strstr(body, "The table, round");
	const char *end;

	ck_assert_msg(p != NULL, "no table in:\n%s", body);
	end = strstr(p, "\nWhat you can do");
	if (!end)
		end = strstr(p, COMPOSE_SEAT_LINK);
	ck_assert_ptr_nonnull(end);
	snprintf(out, cap, "%.*s", (int)(end - p), p);
}

static void has(const char *text, const char *want)
{
	ck_assert_msg(strstr(text, want) != NULL, "no '%s' in:\n%s", want,
	              text);
}

static void has_not(const char *text, const char *want)
{
	ck_assert_msg(strstr(text, want) == NULL, "'%s' in:\n%s", want, text);
}

/* Lines of the table at most COMPOSE_TABLE_WIDTH characters. */
static void narrow(const char *t)
{
	int col = 0;

	for (const char *p = t; *p; p++) {
		if (*p == '\n') {
			col = 0;
			continue;
		}
		col += ((unsigned char)*p & 0xC0) != 0x80;
		ck_assert_msg(col <= COMPOSE_TABLE_WIDTH, "a long line in:\n%s",
		              t);
	}
}

static const char *name_of(const char *id)
{
	return bt_card_get(bt_card_parse(id, 3))->name;
}

/* After round 1's Sensor Sweep, Bob's turn email: the rigged figures
 * (web-rigged.rec's comments), his whole hand with Cover Story marked
 * (no Officer in the stack), the others' hands as counts. */
START_TEST(test_turn_email_holds_the_table)
{
	static char t[8192];
	char want[256];
	const store_outmail *m;
	sent s;

	notify(STORE_NOTIFY_TURN, STORE_NOTIFY_TURN, STORE_NOTIFY_TURN);
	play_web(0, &s);
	ck_assert_ptr_nonnull(m = to_seat(&s, 2, "turn"));
	table_of(m->body, t, sizeof t);
	narrow(t);
	has(t, "The table, round 1 (the goal: 20 Leisure):\n");
	snprintf(want, sizeof want, "Duty Assignment: %s (Target 5",
	         name_of("A01"));
	has(t, want);
	has(t, "Side Projects in play: none\n");
	has(t, "Shift Stack: Effort 3 of Target 5, Officers 0 (a reprimand "
	    "at 4)\n");
	snprintf(want, sizeof want, "  %s (Effort 3)\n", name_of("S17"));
	has(t, want);
	has(t, "Chance the next Shift card brings a reprimand: ");
	has(t, "Scoring Row: Leisure 0 of the goal of 20\n");
	has(t, "Decks: 4 Assignments, 27 Shift cards, 20 Side Projects, 14 "
	    "Ability cards\n");
	has(t, "Other hands: Ann 3 cards, Cyd 4 cards\n");
	has(t, "Your hand (4 cards; to play one, choose its move below):\n");
	snprintf(want, sizeof want, "- %s (Target ", name_of("P03"));
	has(t, want);
	snprintf(want, sizeof want, "- %s (Target ", name_of("P04"));
	has(t, want);
	has(t, "- Deflect: ");
	has_not(t, "- Deflect (not playable now)");
	has(t, "- Cover Story (not playable now): ");
	/* R10: not a card of the others' hands, nor the swept order */
	has_not(t, "Sensor Sweep");
	has_not(t, "Hand Off");
	snprintf(want, sizeof want, "- %s", name_of("P01"));
	has_not(t, want);
	has_not(t, "Only you know");
	has_not(m->body, name_of("S23"));
	/* and the menu still follows it, for moving by reply */
	has(m->body, "What you can do");
}
END_TEST

/* tests/data/out-of-reach.rec: the table in the email says the game
 * can no longer be won, in lines of the email's width. */
START_TEST(test_table_says_when_the_game_is_out_of_reach)
{
	static char text[16384], t[8192];
	static bt_replay r;
	static store_game sg;
	char file[600], id[STORE_ID_LEN + 1];
	store_error err;
	bt_error gerr;
	size_t len;
	FILE *f;

	snprintf(file, sizeof file, "%s/out-of-reach.rec",
	         fixture_data_dir());
	ck_assert_ptr_nonnull(f = fopen(file, "r"));
	len = fread(text, 1, sizeof text - 1, f);
	fclose(f);
	text[len] = '\0';
	bt_replay_init(&r);
	ck_assert_msg(bt_replay_text(&r, text, len, &gerr) == 0, "%s",
	              gerr.why);
	ck_assert_msg(store_import(st, &r.rec, EMAILS, id, &err) == STORE_OK,
	              "%s", err.why);
	ck_assert_int_eq(store_load(st, id, &sg, &err), STORE_OK);
	ck_assert(bt_out_of_reach(&sg.state));
	ck_assert_int_eq(compose_table(&sg, &sg.state, sg.state.turn, t,
	                               sizeof t), 0);
	narrow(t);
	has(t, "went the crew's way, it could reach at\nmost 15 of the 20 "
	    "Leisure it needs: this game can no longer be won.");
}
END_TEST

/* Ann swept the top of the Shift Deck: her own turn email shows what
 * is still on top, top first; nobody else's does. */
START_TEST(test_sweeper_sees_the_known_top)
{
	static char t[8192];
	char want[256];
	const store_outmail *m;
	sent s;

	notify(STORE_NOTIFY_TURN, STORE_NOTIFY_TURN, STORE_NOTIFY_TURN);
	play_web(0, &s);
	play_web(1, &s);     /* Deflect: S01 onto the stack */
	ck_assert_ptr_nonnull(m = to_seat(&s, 3, "turn"));
	has_not(m->body, "Only you know");
	play_web(2, &s);
	ck_assert_ptr_nonnull(m = to_seat(&s, 1, "turn"));
	table_of(m->body, t, sizeof t);
	narrow(t);
	snprintf(want, sizeof want, "(your Sensor Sweep), top first:\n  "
	         "%s (3 Officers), %s (Effort ", name_of("S23"),
	         name_of("S18"));
	has(t, want);
	snprintf(want, sizeof want, "Side Projects in play: %s (Target ",
	         name_of("P05"));
	has(t, want);
	has(t, "Shift Stack: Effort 4 of Target ");
}
END_TEST

/* Over a whole game, Ann playing by reply and wanting every move, Bob
 * his turns, Cyd every move: each seat gets at most one email for each
 * move, none for its own (the next one tells it), and one at the end. */
START_TEST(test_one_email_per_move_per_seat)
{
	int emails[4] = { 0 }, turns[4] = { 0 }, ann_moves = 0;
	sent s;

	notify(STORE_NOTIFY_EVERY, STORE_NOTIFY_TURN, STORE_NOTIFY_EVERY);
	for (int k = 0; k < rg.n; k++) {
		int mover = rg.act[k].seat;
		bt_game after;
		/* the sweep is the web's: its look is a step of its own */
		if (mover == 1 && k > 0)
			play_reply(k, &s);
		else
			play_web(k, &s);
		after = load()->state;
		for (int seat = 1; seat <= 3; seat++) {
			int n = count_to(&s, seat), want;
			emails[seat] += n;
			if (after.status != BT_PLAYING)
				want = 1;
			else if (seat == mover)
				want = 0;
			else
				want = seat != 2 || after.turn == 2;
			ck_assert_msg(n == want, "%s: seat %d got %d emails, not "
			              "%d", rg.text[k], seat, n, want);
		}
		if (after.status == BT_PLAYING)
			turns[after.turn]++;
		ann_moves += mover == 1;
	}
	ck_assert_int_eq(load()->state.status, BT_LOST);
	/* Bob: his turns and the end; Ann and Cyd: the others' moves */
	ck_assert_int_eq(emails[2], turns[2] + 1);
	ck_assert_int_eq(emails[1], rg.n - ann_moves);
	ck_assert_int_gt(ann_moves, 5);
}
END_TEST

/* Ann plays by reply and wants her turns only: her turn email opens
 * with her own last move, the one word she gets of it. */
START_TEST(test_turn_email_confirms_the_move_by_reply)
{
	const store_outmail *m;
	sent s;

	notify(STORE_NOTIFY_TURN, STORE_NOTIFY_TURN, STORE_NOTIFY_TURN);
	play_web(0, &s);
	play_web(1, &s);
	play_web(2, &s);
	play_reply(3, &s);    /* 1 work: the Captain */
	ck_assert_int_eq(count_to(&s, 1), 0);
	play_web(4, &s);
	play_web(5, &s);
	ck_assert_ptr_nonnull(m = to_seat(&s, 1, "turn"));
	has(m->body, "Your last move: you got to work: ");
	has(m->body, "What happened since your last turn:\n");
}
END_TEST

/* The end: the result with the Leisure of the goal, where the review
 * will be, and the link to the table where "Play again" is. */
START_TEST(test_over_email_has_result_and_rematch_link)
{
	char marker[256], tok[256], gid[TOKEN_GAME_ID_LEN + 1];
	const store_outmail *m;
	const char *p;
	int64_t gen;
	int seat;
	sent s;

	notify(STORE_NOTIFY_TURN, STORE_NOTIFY_DIGEST, STORE_NOTIFY_EVERY);
	for (int k = 0; k < rg.n; k++)
		play_web(k, &s);
	for (int i = 1; i <= 3; i++) {
		ck_assert_ptr_nonnull(m = to_seat(&s, i, "over"));
		has(m->subject, "game lost");
		has(m->body, "the crew lost");
		has(m->body, "Final Leisure: 3 of the goal of 20");
		has(m->body, "#review\n");
		snprintf(marker, sizeof marker, "press \"Play again\" on the "
		         "table\n(everyone gets their new link by email):\n"
		         "%sg/%s?t=", BASE, game);
		ck_assert_msg((p = strstr(m->body, marker)) != NULL, "%s",
		              m->body);
		p += strlen(marker);
		snprintf(tok, sizeof tok, "%.*s", (int)strcspn(p, "\n"), p);
		ck_assert_int_eq(token_check(&keys, tok, gid, &seat, &gen),
		                 TOKEN_OK);
		ck_assert_str_eq(gid, game);
		ck_assert_int_eq(seat, i);
	}
}
END_TEST

/* The review's biggest turning point in words, once all of it is in. */
START_TEST(test_turning_point_once_the_review_is_in)
{
	char buf[COMPOSE_TABLE_MAX];
	store_review_move r = { .options = 1 };
	store_error err;
	sent s;

	for (int k = 0; k < rg.n; k++)
		play_web(k, &s);
	ck_assert_int_eq(compose_turning_point(st, load(), 1, buf, sizeof buf),
	                 0);
	/* 50% throughout, but move 12 (Cyd's reprimand) takes it to 10% */
	for (int k = 0; k < rg.n; k++) {
		r.move = k;
		r.before = r.played = k <= 11 ? 0.5 : 0.1;
		ck_assert_int_eq(store_review_put(st, game, &r, &err), STORE_OK);
		if (k + 1 < rg.n)
			ck_assert_int_eq(compose_turning_point(st, load(), 1, buf,
			                 sizeof buf), 0);
	}
	ck_assert_int_eq(compose_turning_point(st, load(), 1, buf, sizeof buf),
	                 1);
	narrow(buf);
	for (char *p = buf; *p; p++)   /* the sentence, unwrapped */
		if (*p == '\n')
			*p = ' ';
	has(buf, "Move 12 of ");
	has(buf, "in round 2: Cyd got to work");
	has(buf, "Reprimand!");
	has(buf, "went from 50% to 10%.");
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("compose_table");
	TCase *tc = tcase_create("table");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_turn_email_holds_the_table);
	tcase_add_test(tc, test_sweeper_sees_the_known_top);
	tcase_add_test(tc, test_table_says_when_the_game_is_out_of_reach);
	tcase_add_test(tc, test_one_email_per_move_per_seat);
	tcase_add_test(tc, test_turn_email_confirms_the_move_by_reply);
	tcase_add_test(tc, test_over_email_has_result_and_rematch_link);
	tcase_add_test(tc, test_turning_point_once_the_review_is_in);
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
