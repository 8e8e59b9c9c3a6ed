/*
 * check_inbound_act.c - replies acted on (mail/inbound_act.c), on a real
 * database: a move by its number (with words after it, below a quote
 * header of any shape) or its words, a reply naming two numbers asked
 * again, a Sensor Sweep's look and order, a Scale Back answered in the
 * second person, table talk; the same email twice does its work once; a
 * reply to an old email, from another address, to a forged or missing
 * token, and automatic mail do nothing, and each answer goes to the
 * seat's own address, a bounded number of times a day.  Our MTA's DMARC
 * verdict is read from its own (topmost) Authentication-Results only,
 * and a fail there refuses even the seat's own From.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>
#include <sodium.h>

#include "inbound_mime.h"
#include "menu.h"
#include "record.h"
#include "reply_rig.h"
#include "store_limits.h"
#include "store_talk.h"

static void setup(void)
{
	store_error err;

	rig_open("inbound");
	/* Ann and Cy take a daily digest, so each move of theirs gets its
	 * own "Done:" answer (with turn emails, the next one tells it:
	 * check_compose_table); Ben's turns still go out as emails */
	for (int seat = 1; seat <= 3; seat += 2)
		ck_assert_int_eq(store_set_notify(rig.st, rig.game, seat,
		                                  STORE_NOTIFY_DIGEST, &err),
		                 STORE_OK);
}

/* A plain reply from from to play+TOKEN@, with headers (may be ""). */
static int deliver(const char *from, const char *token, const char *id,
                   const char *headers, const char *body)
{
	char raw[8192];
	int n = snprintf(raw, sizeof raw,
	                 "From: <%s>\nTo: <play+%s@bt.example>\n"
	                 "Subject: Re: Your turn\nMessage-ID: <%s>\n%s"
	                 "Content-Type: text/plain; charset=utf-8\n\n%s\n\n"
	                 "On Mon, 1 Dec 2026 at 10:00, Buffer Time wrote:\n"
	                 "> It is your turn.\n> 1. Get to work\n",
	                 from, token, id, headers, body);

	ck_assert_int_lt(n, (int)sizeof raw);
	return inbound_act(&rig.cfg, raw, (size_t)n, rig.log_line,
	                   sizeof rig.log_line);
}

static long long answers_to(const char *to, const char *like)
{
	char sql[512];

	snprintf(sql, sizeof sql, "SELECT count(*) FROM outbox WHERE kind = "
	         "'answer' AND recipient = '%s' AND body LIKE '%%%s%%'", to, like);
	return rig_sql_value(sql);
}

/* The token of the newest answer's Reply-To (the test fails if none). */
static void answer_token(char out[REPLY_TOKEN_SIZE])
{
	char addr[STORE_EMAIL_MAX + 1];

	fixture_sql_text(rig.path, "SELECT reply_to FROM outbox WHERE kind ="
	                 " 'answer' ORDER BY id DESC LIMIT 1", NULL, addr,
	                 sizeof addr);
	ck_assert_msg(reply_token_in_address(addr, "play", out) == 0,
	              "the answer's Reply-To '%s' has no token", addr);
}

static long long answers(void)
{
	return rig_sql_value(
	    "SELECT count(*) FROM outbox WHERE kind = 'answer'");
}

START_TEST(test_a_number_moves_once)
{
	char tok[REPLY_TOKEN_SIZE];
	int seq = rig_load()->seq;

	rig_token(1, seq, tok);
	ck_assert_int_eq(deliver(rig.emails[0], tok, "a1@x", "", "1"), 0);
	ck_assert_msg(rig_load()->seq == seq + 1, "%s", rig.log_line);
	ck_assert_int_eq(answers_to(rig.emails[0], "Done: you "), 1);
	/* the same email again, as an MTA retry: nothing more */
	ck_assert_int_eq(deliver(rig.emails[0], tok, "a1@x", "", "1"), 0);
	ck_assert_int_eq(rig_load()->seq, seq + 1);
	ck_assert_int_eq(answers(), 1);
	/* the move's own emails went out as a web move's do */
	ck_assert_int_gt(rig_sql_value("SELECT count(*) FROM outbox WHERE kind "
	                           "<> 'answer' AND kind <> 'seat'"), 0);
}
END_TEST

START_TEST(test_words_move)
{
	char tok[REPLY_TOKEN_SIZE];
	int seq = rig_load()->seq;

	rig_token(1, seq, tok);
	ck_assert_int_eq(deliver(rig.emails[0], tok, "w1@x", "",
	                         "Get to work please"), 0);
	/* "please" is not a word of any move */
	ck_assert_int_eq(rig_load()->seq, seq);
	ck_assert_int_eq(answers_to(rig.emails[0], "could not read a move"), 1);
	ck_assert_int_eq(deliver(rig.emails[0], tok, "w2@x", "", "get to work"),
	                 0);
	ck_assert_msg(rig_load()->seq == seq + 1, "%s", rig.log_line);
	ck_assert_int_eq(rig_sql_value("SELECT count(*) FROM actions WHERE "
	                           "line LIKE '%work%'"), 1);
}
END_TEST

/* "1, then I'll log" under mutt's quote header is move 1; "1 or 2" is
 * no move, and the answer says why. */
START_TEST(test_number_as_people_write_it)
{
	char tok[REPLY_TOKEN_SIZE];
	int seq = rig_load()->seq;

	rig_token(1, seq, tok);
	ck_assert_int_eq(deliver(rig.emails[0], tok, "n1@x", "", "1 or 2"), 0);
	ck_assert_int_eq(rig_load()->seq, seq);
	ck_assert_int_eq(answers_to(rig.emails[0], "names more than one move"),
	                 1);
	ck_assert_int_eq(deliver(rig.emails[0], tok, "n2@x", "",
	                         "* Buffer Time <play@bt.example> "
	                         "[2026-12-01 10:00]:\n> It is your turn.\n"
	                         "> 1. Get to work\n\n1, then I'll log"), 0);
	ck_assert_msg(rig_load()->seq == seq + 1, "%s", rig.log_line);
	ck_assert_int_eq(answers_to(rig.emails[0], "Done: you got to work"), 1);
}
END_TEST

START_TEST(test_old_email_applies_nothing)
{
	char old[REPLY_TOKEN_SIZE], tok[REPLY_TOKEN_SIZE];
	int seq = rig_load()->seq;

	rig_token(1, seq, old);
	ck_assert_int_eq(deliver(rig.emails[0], old, "s1@x", "", "1"), 0);
	/* Ben moves with his fresh token; then Ann's old token again */
	rig_token(2, seq + 1, tok);
	ck_assert_int_eq(deliver(rig.emails[1], tok, "s2@x", "", "1"), 0);
	ck_assert_int_eq(rig_load()->seq, seq + 2);
	ck_assert_int_eq(deliver(rig.emails[0], old, "s3@x", "", "1"), 0);
	ck_assert_int_eq(rig_load()->seq, seq + 2);
	ck_assert_int_eq(answers_to(rig.emails[0], "Cy''s turn"), 1);
}
END_TEST

START_TEST(test_forged_and_missing_tokens_are_not_ours)
{
	char tok[REPLY_TOKEN_SIZE];
	int seq = rig_load()->seq;

	rig_token(1, seq, tok);
	tok[10] = tok[10] == 'a' ? 'b' : 'a';
	ck_assert_int_eq(deliver(rig.emails[0], tok, "f1@x", "", "1"), 67);
	ck_assert_int_eq(deliver(rig.emails[0], "", "f2@x", "", "1"), 67);
	ck_assert_int_eq(rig_load()->seq, seq);
	ck_assert_int_eq(answers(), 0);
}
END_TEST

START_TEST(test_another_sender_is_asked_to_confirm)
{
	char tok[REPLY_TOKEN_SIZE];
	int seq = rig_load()->seq;

	rig_token(1, seq, tok);
	ck_assert_int_eq(deliver("mallory@evil.example", tok, "m1@x", "",
	                         "say: hello\n1"), 0);
	ck_assert_int_eq(rig_load()->seq, seq);
	ck_assert_int_eq(answers_to(rig.emails[0], "not your address"), 1);
	ck_assert_int_eq(rig_sql_value("SELECT count(*) FROM outbox WHERE "
	                           "recipient LIKE '%evil%'"), 0);
	ck_assert_int_eq(rig_sql_value("SELECT count(*) FROM chat"), 0);
	/* unless our own MTA vouches for the sender (DMARC) */
	rig.cfg.trust_authserv = "mx.bt.example";
	ck_assert_int_eq(deliver("ann.other@example.org", tok, "m2@x",
	                         "Authentication-Results: other.example; "
	                         "dmarc=pass\n", "1"), 0);
	ck_assert_int_eq(rig_load()->seq, seq);
	ck_assert_int_eq(deliver("ann.other@example.org", tok, "m3@x",
	                         "Authentication-Results: mx.bt.example;\n"
	                         "\tdkim=pass; dmarc=pass header.from="
	                         "example.org\n", "1"), 0);
	ck_assert_msg(rig_load()->seq == seq + 1, "%s", rig.log_line);
}
END_TEST

/* Each forgery of issue 24: a sender not the seat's with a DMARC "pass"
 * our MTA did not say is not trusted; our MTA's fail refuses even the
 * seat's own From. */
START_TEST(test_dmarc_is_read_from_our_topmost_header_only)
{
	static const char *const forged[] = {
		/* a forged header below ours */
		"Authentication-Results: mx.bt.example; dmarc=fail "
		"header.from=example.org\n"
		"Authentication-Results: mx.bt.example; dmarc=pass "
		"header.from=example.org\n",
		/* a pass in a comment */
		"Authentication-Results: mx.bt.example; dkim=fail (sig; "
		"dmarc=pass) header.d=example.org\n",
		/* a pass in a quoted value */
		"Authentication-Results: mx.bt.example; dkim=fail "
		"reason=\"bad; dmarc=pass\" header.d=example.org\n",
		/* not a pass */
		"Authentication-Results: mx.bt.example; dmarc=passed "
		"header.from=example.org\n",
		/* another authserv-id first */
		"Authentication-Results: mx.bt.example.evil; dmarc=pass "
		"header.from=example.org\n",
	};
	char tok[REPLY_TOKEN_SIZE], id[32];
	int seq = rig_load()->seq;

	rig.cfg.trust_authserv = "mx.bt.example";
	rig_token(1, seq, tok);
	for (size_t i = 0; i < sizeof forged / sizeof forged[0]; i++) {
		snprintf(id, sizeof id, "d%zu@x", i);
		ck_assert_int_eq(deliver("ann.other@example.org", tok, id,
		                         forged[i], "1"), 0);
		ck_assert_msg(rig_load()->seq == seq &&
		                  strstr(rig.log_line, "unconfirmed sender") !=
		                      NULL,
		              "forgery %zu trusted: %s", i, rig.log_line);
	}
	ck_assert_int_eq(answers_to(rig.emails[0], "not your address"), 5);
	/* our MTA says the seat's own domain failed DMARC: refused */
	ck_assert_int_eq(deliver(rig.emails[0], tok, "e1@x",
	                         "Authentication-Results: mx.bt.example;\n"
	                         "\tdmarc=fail (p=reject dis=reject) "
	                         "header.from=example.org\n", "1"), 0);
	ck_assert_msg(rig_load()->seq == seq &&
	              strstr(rig.log_line, "unconfirmed sender") != NULL, "%s",
	              rig.log_line);
	ck_assert_int_eq(
	    answers_to(rig.emails[0], "not sent from your mailbox"), 1);
	/* ours cut at its bound may have lost a fail: not believed */
	{
		char big[INBOUND_AUTH_LEN + 200];
		int k = snprintf(big, sizeof big, "Authentication-Results: "
		                 "mx.bt.example; dmarc=pass header.from="
		                 "example.org; dkim=pass header.i=");
		memset(big + k, 'a', sizeof big - (size_t)k - 40);
		snprintf(big + sizeof big - 40, 40, "; dmarc=fail\n");
		ck_assert_int_eq(deliver(rig.emails[0], tok, "e2@x", big, "1"),
		                 0);
		ck_assert_msg(rig_load()->seq == seq &&
		                  strstr(rig.log_line, "unconfirmed sender") !=
		                      NULL,
		              "%s", rig.log_line);
	}
	/* a fail below ours is not ours; ours passes */
	ck_assert_int_eq(deliver("ann.other@example.org", tok, "p1@x",
	                         "Authentication-Results: mx.bt.example 1;\n"
	                         "\tdkim=pass (good (nested) sig) "
	                         "header.d=example.org;\n\tdmarc=pass "
	                         "(p=reject) header.from=example.org\n"
	                         "Authentication-Results: mx.bt.example; "
	                         "dmarc=fail header.from=example.org\n", "1"),
	                 0);
	ck_assert_msg(rig_load()->seq == seq + 1, "%s", rig.log_line);
}
END_TEST

START_TEST(test_automatic_mail_is_ignored)
{
	char tok[REPLY_TOKEN_SIZE];
	int seq = rig_load()->seq;

	rig_token(1, seq, tok);
	ck_assert_int_eq(deliver(rig.emails[0], tok, "o1@x",
	                         "Auto-Submitted: auto-replied\n", "1"), 0);
	ck_assert_int_eq(deliver(rig.emails[0], tok, "o2@x",
	                         "X-Buffertime-Loop: bt.example\n", "1"), 0);
	ck_assert_int_eq(rig_load()->seq, seq);
	ck_assert_int_eq(answers(), 0);
}
END_TEST

START_TEST(test_say_lines_go_to_the_table)
{
	char tok[REPLY_TOKEN_SIZE];
	int seq = rig_load()->seq;

	rig_token(1, seq, tok);
	ck_assert_int_eq(deliver(rig.emails[0], tok, "t1@x", "",
	                         "say: I will draw\nsay: wish me luck"), 0);
	ck_assert_int_eq(rig_load()->seq, seq);
	ck_assert_int_eq(
	    rig_sql_value("SELECT count(*) FROM chat WHERE seat = 1"), 2);
	ck_assert_int_eq(answers_to(rig.emails[0], "on the table"), 1);
	/* again: handled before, no third line */
	ck_assert_int_eq(deliver(rig.emails[0], tok, "t1@x", "",
	                         "say: I will draw\nsay: wish me luck"), 0);
	ck_assert_int_eq(rig_sql_value("SELECT count(*) FROM chat"), 2);
}
END_TEST

/* A game that has had all its talk (store_set_talk_cap, talk_per_game)
 * takes no more say: lines by email either, and the answer says so. */
START_TEST(test_say_lines_over_the_cap_are_refused)
{
	char tok[REPLY_TOKEN_SIZE];

	store_set_talk_cap(rig.st, 1);
	rig_token(1, rig_load()->seq, tok);
	ck_assert_int_eq(deliver(rig.emails[0], tok, "c1@x", "",
	                         "say: first\nsay: second"), 0);
	ck_assert_int_eq(rig_sql_value("SELECT count(*) FROM chat"), 1);
	ck_assert_int_eq(answers_to(rig.emails[0],
	                            "Only your first 1 say: line "
	                            "went on the table"),
	                 1);
	ck_assert_int_eq(deliver(rig.emails[0], tok, "c2@x", "", "say: third"),
	                 0);
	ck_assert_int_eq(rig_sql_value("SELECT count(*) FROM chat"), 1);
	ck_assert_int_eq(answers_to(rig.emails[0], "had all the table talk one "
	                            "game may have, so your say: lines were "
	                            "not added"), 1);
}
END_TEST

/* The token is found in References when the plus part was dropped. */
START_TEST(test_token_in_references)
{
	char tok[REPLY_TOKEN_SIZE], raw[2048];
	int seq = rig_load()->seq, n;

	rig_token(1, seq, tok);
	n = snprintf(raw, sizeof raw, "From: ann@example.org\n"
	             "To: play@bt.example\nMessage-ID: <r1@x>\n"
	             "In-Reply-To: <r.%s.17@bt.example>\n"
	             "References: <r.%s.17@bt.example>\n\n1\n", tok, tok);
	ck_assert_int_eq(inbound_act(&rig.cfg, raw, (size_t)n, rig.log_line,
	                             sizeof rig.log_line), 0);
	ck_assert_msg(rig_load()->seq == seq + 1, "%s", rig.log_line);
}
END_TEST

/* A Sensor Sweep by mail: the look is answered with the cards, the
 * order is the next reply. */
START_TEST(test_sweep_by_mail)
{
	const char *names[3] = { "Ann", "Ben", "Cy" };
	static menu m;
	char tok[REPLY_TOKEN_SIZE], id[32], num[16];
	int found = -1;

	for (int moves = 0; moves < 200 && found < 0; moves++) {
		store_game *g = rig_load();
		int seat = g->state.turn;
		ck_assert_int_eq(g->state.status, BT_PLAYING);
		ck_assert_int_gt(menu_build(&g->state, seat, names, &m), 0);
		for (int i = 0; i < m.n && found < 0; i++)
			if (m.item[i].a.verb == BT_SPECIAL &&
			    bt_card_get(m.item[i].a.card)->kind ==
			    BT_SENSOR_SWEEP)
				found = i;
		rig_token(seat, g->seq, tok);
		snprintf(id, sizeof id, "p%d@x", moves);
		/* work while it is legal, else log */
		snprintf(num, sizeof num, "%d", found >= 0 ? found + 1 : 1);
		ck_assert_int_eq(deliver(rig.emails[seat - 1], tok, id, "",
		                         found >= 0 ? num : "work"), 0);
		if (found < 0 && rig_load()->seq == g->seq)
			ck_assert_int_eq(deliver(rig.emails[seat - 1], tok,
			                         "l@x", "", "log"),
			                 0);
		if (found >= 0) {
			store_game *after = rig_load();
			int seq = after->seq;
			ck_assert_msg(after->sweep_card != BT_NO_CARD, "%s",
			              rig.log_line);
			ck_assert_int_eq(answers_to(rig.emails[seat - 1],
			                            "Only you see"), 1);
			/* the answer can be answered: its Reply-To */
			answer_token(tok);
			ck_assert_int_eq(deliver(rig.emails[seat - 1], tok,
			                         "o@x", "", "order 3 2 1"),
			                 0);
			ck_assert_msg(rig_load()->seq == seq + 1, "%s",
			              rig.log_line);
			/* the answer speaks to the sweeper */
			ck_assert_int_eq(answers_to(rig.emails[seat - 1],
			                            "of your choosing"), 1);
			ck_assert_int_eq(answers_to(rig.emails[seat - 1],
			                            "their choosing"), 0);
		}
	}
	ck_assert_int_ge(found, 0);
}
END_TEST

/* Round 1 of tests/data/web-rigged.rec up to its Scale Back: seat 3
 * (Cy) holds it, with P03 in play. */
static const char SCALE_BACK_REC[] =
	"buffertime 1\nplayers 3\nfirst 1\nseed b00001\n"
	"name 1 Ann\nname 2 Ben\nname 3 Cy\n"
	"stack assignment A01 A02 A03 A04 A05 A06\n"
	"stack ability X13 X19 X07 X04 X15 X17 X01 X11 X09\n"
	"stack side P01 P02 P03 P04 P05 P06 P07 P08\n"
	"stack shift S17 S18 S23 S01 S24 S25\n"
	"1 special X13 S01 S23 S18\n2 special X07\n3 side P05\n1 work\n"
	"2 special X04 S23\n3 special X15\n1 special X19 P01 3\n"
	"2 side P03\n";

/* The answer to a Scale Back speaks to its player: "Done: you played
 * Scale Back: took ... back into your hand", not "their hand". */
START_TEST(test_scale_back_answer_says_your_hand)
{
	const char *names[3] = { "Ann", "Ben", "Cy" };
	const char *to[BT_MAX_PLAYERS] = { rig.emails[0], rig.emails[1],
	                                   rig.emails[2] };
	static bt_replay r;
	static menu m;
	store_error err;
	bt_error gerr;
	char tok[REPLY_TOKEN_SIZE], num[16];
	store_game *g;
	int pick = -1, seq;

	bt_replay_init(&r);
	ck_assert_msg(bt_replay_text(&r, SCALE_BACK_REC, strlen(SCALE_BACK_REC),
	                             &gerr) == 0, "%s", gerr.why);
	ck_assert_msg(store_import(rig.st, &r.rec, to, rig.game, &err) ==
	                  STORE_OK,
	              "%s", err.why);
	ck_assert_int_eq(
	    store_set_notify(rig.st, rig.game, 3, STORE_NOTIFY_DIGEST, &err),
	    STORE_OK); /* as setup's */
	g = rig_load();
	ck_assert_int_eq(g->state.turn, 3);
	ck_assert_int_gt(menu_build(&g->state, 3, names, &m), 0);
	for (int i = 0; i < m.n; i++)
		if (m.item[i].a.verb == BT_SPECIAL &&
		    bt_card_get(m.item[i].a.card)->kind == BT_SCALE_BACK)
			pick = i;
	ck_assert_int_ge(pick, 0);
	seq = g->seq;
	rig_token(3, seq, tok);
	snprintf(num, sizeof num, "%d", pick + 1);
	ck_assert_int_eq(deliver(rig.emails[2], tok, "sb@x", "", num), 0);
	ck_assert_msg(rig_load()->seq == seq + 1, "%s", rig.log_line);
	ck_assert_int_eq(answers_to(rig.emails[2],
	                            "Done: you played Scale Back: "
	                            "took "),
	                 1);
	ck_assert_int_eq(answers_to(rig.emails[2], "back into your hand."), 1);
	ck_assert_int_eq(answers_to(rig.emails[2], "their hand"), 0);
}
END_TEST

/* A mail program that answers every answer (an autoresponder that marks
 * nothing) would have us write to a seat without end: answers to replies
 * that do nothing stop at STORE_ANSWERS_PER_DAY a day for one address,
 * and start again when the day has passed; a move is still made, and
 * answered. */
START_TEST(test_answers_to_an_address_are_capped)
{
	char tok[REPLY_TOKEN_SIZE], id[32];
	int seq = rig_load()->seq;

	rig_token(1, seq, tok);
	for (int i = 0; i < STORE_ANSWERS_PER_DAY + 5; i++) {
		snprintf(id, sizeof id, "loop%d@x", i);
		ck_assert_int_eq(deliver(rig.emails[0], tok, id, "",
		                         "thanks, got it"), 0);
	}
	ck_assert_int_eq(answers_to(rig.emails[0], ""), STORE_ANSWERS_PER_DAY);
	ck_assert_msg(strstr(rig.log_line, "no answer") != NULL, "%s",
	              rig.log_line);
	/* a move is made, and answered */
	ck_assert_int_eq(deliver(rig.emails[0], tok, "move@x", "", "1"), 0);
	ck_assert_msg(rig_load()->seq == seq + 1, "%s", rig.log_line);
	ck_assert_msg(strstr(rig.log_line, "no answer") == NULL, "%s",
	              rig.log_line);
	ck_assert_int_eq(answers_to(rig.emails[0], ""),
	                 STORE_ANSWERS_PER_DAY + 1);
	/* and a reply to an old email is one that does nothing */
	ck_assert_int_eq(deliver(rig.emails[0], tok, "old@x", "", "1"), 0);
	ck_assert_msg(strstr(rig.log_line, "no answer") != NULL, "%s",
	              rig.log_line);
	ck_assert_int_eq(answers_to(rig.emails[0], ""),
	                 STORE_ANSWERS_PER_DAY + 1);
	/* other seats are answered as before */
	rig_token(2, seq + 1, tok);
	ck_assert_int_eq(deliver(rig.emails[1], tok, "ben@x", "", "hello"), 0);
	ck_assert_int_eq(answers_to(rig.emails[1], ""), 1);
	/* a day later, answers again */
	fixture_clock(REPLY_RIG_T0 + STORE_LIMIT_DAY + 1);
	rig_token(1, seq + 1, tok);
	ck_assert_int_eq(deliver(rig.emails[0], tok, "later@x", "", "hello"),
	                 0);
	ck_assert_int_eq(answers_to(rig.emails[0], ""),
	                 STORE_ANSWERS_PER_DAY + 2);
}
END_TEST

/* The answers that leave the seat nothing to move (a "Done:" that
 * hands the turn on, "That game is over") still carry a Reply-To, so
 * say: lines work from the newest email of the thread. */
START_TEST(test_answers_keep_the_thread)
{
	static bt_action legal[BT_MAX_LEGAL];
	char tok[REPLY_TOKEN_SIZE];
	store_error err;
	int seq = rig_load()->seq;

	rig_token(1, seq, tok);
	ck_assert_int_eq(deliver(rig.emails[0], tok, "k1@x", "", "1"), 0);
	ck_assert_int_ne(rig_load()->state.turn, 1);
	ck_assert_int_eq(answers_to(rig.emails[0], "Done: you "), 1);
	ck_assert_int_eq(answers_to(rig.emails[0], "lines starting say:"), 1);
	answer_token(tok);
	ck_assert_int_eq(deliver(rig.emails[0], tok, "k2@x", "", "say: over to "
	                         "you"), 0);
	ck_assert_int_eq(
	    rig_sql_value("SELECT count(*) FROM chat WHERE seat = 1"), 1);
	/* that answer ("it is Ben's turn now") keeps it too */
	ck_assert_int_eq(answers_to(rig.emails[0], "lines starting say:"), 2);
	/* the game played to its end; a reply to it is told so, and may
	 * still talk */
	for (int moves = 0; rig_load()->state.status == BT_PLAYING; moves++) {
		store_game *g = rig_load();
		int n = bt_legal(&g->state, legal, BT_MAX_LEGAL);
		ck_assert_int_lt(moves, 3000);
		ck_assert_int_gt(n, 0);
		ck_assert_msg(store_append(rig.st, rig.game, g->seq,
		                           &legal[moves % n], NULL, NULL, NULL,
		                           &err) == STORE_OK,
		              "%s", err.why);
	}
	answer_token(tok);
	ck_assert_int_eq(deliver(rig.emails[0], tok, "k3@x", "", "1\nsay: gg"),
	                 0);
	ck_assert_int_eq(answers_to(rig.emails[0], "That game is over"), 1);
	ck_assert_int_eq(answers_to(rig.emails[0], "lines starting say:"), 3);
	answer_token(tok);
	ck_assert_int_eq(deliver(rig.emails[0], tok, "k4@x", "", "say: again?"),
	                 0);
	ck_assert_int_eq(
	    rig_sql_value("SELECT count(*) FROM chat WHERE seat = 1"), 3);
}
END_TEST

/* The token of seat's reply address in game id at seq. */
static void token_in(const char *id, int seat, int seq,
                     char out[REPLY_TOKEN_SIZE])
{
	static store_game g;
	store_error err;

	ck_assert_msg(store_load(rig.st, id, &g, &err) == STORE_OK, "%s",
	              err.why);
	reply_token t = { .seat = seat, .seq16 = (unsigned)seq & 0xffff,
	                  .gen16 = (unsigned)g.seats[seat - 1].token_gen &
	                           0xffff,
	                  .expires_day = REPLY_RIG_T0 / 86400 + 30 };

	snprintf(t.game_id, sizeof t.game_id, "%s", id);
	ck_assert_int_eq(reply_token_make(&rig.keys, &t, out), TOKEN_OK);
}

/* A reply is one email for one seat of one game: a Message-ID another
 * seat or another game used first silences nothing, and the same email
 * delivered again for the same seat is still handled once. */
START_TEST(test_a_message_id_is_kept_per_game_and_seat)
{
	store_new_game ng = { .players = 3, .first = 1, .seed = "43" };
	char tok[REPLY_TOKEN_SIZE], other[STORE_ID_LEN + 1];
	store_error err;
	int seq = rig_load()->seq;

	for (int s = 0; s < 3; s++)
		ng.emails[s] = rig.emails[s];
	ck_assert_msg(store_create(rig.st, &ng, other, &err) == STORE_OK, "%s",
	              err.why);
	/* Ben, a token holder of this game, sends Ann's Message-ID first */
	rig_token(2, seq, tok);
	ck_assert_int_eq(deliver(rig.emails[1], tok, "same@x", "", "say: hi"),
	                 0);
	/* Ann, in the other game, used it too */
	token_in(other, 1, 0, tok);
	ck_assert_int_eq(deliver(rig.emails[0], tok, "same@x", "", "say: hi"),
	                 0);
	ck_assert_int_eq(rig_sql_value("SELECT count(*) FROM chat"), 2);
	/* Ann's real move with it is made */
	rig_token(1, seq, tok);
	ck_assert_int_eq(deliver(rig.emails[0], tok, "same@x", "", "1"), 0);
	ck_assert_msg(rig_load()->seq == seq + 1, "%s", rig.log_line);
	/* and delivered again, it is handled before */
	long long before = answers();
	ck_assert_int_eq(deliver(rig.emails[0], tok, "same@x", "", "1"), 0);
	ck_assert_msg(strstr(rig.log_line, "handled before") != NULL, "%s",
	              rig.log_line);
	ck_assert_int_eq(rig_load()->seq, seq + 1);
	ck_assert_int_eq(answers(), before);
}
END_TEST

/* Two long Message-IDs that share their first 255 bytes are two
 * emails: neither is cut into the other. */
START_TEST(test_long_message_ids_do_not_collide)
{
	char tok[REPLY_TOKEN_SIZE], a[320], b[320];
	int seq = rig_load()->seq;

	memset(a, 'a', 300);
	memcpy(a + 300, "1@x", 4);
	memcpy(b, a, sizeof b);
	b[300] = '2';
	rig_token(1, seq, tok);
	ck_assert_int_eq(deliver(rig.emails[0], tok, a, "", "say: first"), 0);
	ck_assert_int_eq(rig_sql_value("SELECT count(*) FROM chat"), 1);
	ck_assert_int_eq(deliver(rig.emails[0], tok, b, "", "1"), 0);
	ck_assert_msg(rig_load()->seq == seq + 1, "%s", rig.log_line);
	/* each again: handled before */
	ck_assert_int_eq(deliver(rig.emails[0], tok, b, "", "1"), 0);
	ck_assert_msg(strstr(rig.log_line, "handled before") != NULL, "%s",
	              rig.log_line);
	ck_assert_int_eq(deliver(rig.emails[0], tok, a, "", "say: first"), 0);
	ck_assert_msg(strstr(rig.log_line, "handled before") != NULL, "%s",
	              rig.log_line);
	ck_assert_int_eq(rig_sql_value("SELECT count(*) FROM chat"), 1);
	ck_assert_int_eq(rig_load()->seq, seq + 1);
}
END_TEST

static Suite *inbound_act_suite(void)
{
	Suite *s = suite_create("inbound_act");
	TCase *tc = tcase_create("replies");

	tcase_add_checked_fixture(tc, setup, rig_close);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_a_number_moves_once);
	tcase_add_test(tc, test_words_move);
	tcase_add_test(tc, test_number_as_people_write_it);
	tcase_add_test(tc, test_old_email_applies_nothing);
	tcase_add_test(tc, test_forged_and_missing_tokens_are_not_ours);
	tcase_add_test(tc, test_another_sender_is_asked_to_confirm);
	tcase_add_test(tc, test_dmarc_is_read_from_our_topmost_header_only);
	tcase_add_test(tc, test_automatic_mail_is_ignored);
	tcase_add_test(tc, test_say_lines_go_to_the_table);
	tcase_add_test(tc, test_say_lines_over_the_cap_are_refused);
	tcase_add_test(tc, test_token_in_references);
	tcase_add_test(tc, test_sweep_by_mail);
	tcase_add_test(tc, test_scale_back_answer_says_your_hand);
	tcase_add_test(tc, test_answers_to_an_address_are_capped);
	tcase_add_test(tc, test_answers_keep_the_thread);
	tcase_add_test(tc, test_a_message_id_is_kept_per_game_and_seat);
	tcase_add_test(tc, test_long_message_ids_do_not_collide);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(inbound_act_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
