/*
 * check_mail_budget.c - what a stranger can make the server mail one
 * address, on a real database: every email to an address (answers,
 * turns, reminders, any kind) counts toward one budget an hour and a
 * day, and those over it are kept in the outbox as dropped, with why;
 * replies holding table talk are answered a bounded number of times a
 * day; a seat that asked for no email gets none, answers included; and
 * an answer's Subject is ours, never the one a sender wrote.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>
#include <sodium.h>

#include "reply_rig.h"
#include "store_limits.h"

static void setup(void)
{
	rig_open("budget");
}

static void set_clock(int64_t t)
{
	fixture_clock(t);
	rig.cfg.now = t;
}

/* A plain reply from from to play+TOKEN@ with that Subject. */
static int deliver(const char *from, const char *token, const char *id,
                   const char *subject, const char *body)
{
	char raw[4096];
	int n = snprintf(raw, sizeof raw,
	                 "From: <%s>\nTo: <play+%s@bt.example>\n"
	                 "Subject: %s\nMessage-ID: <%s>\n"
	                 "Content-Type: text/plain; charset=utf-8\n\n%s\n",
	                 from, token, subject, id, body);

	ck_assert_int_lt(n, (int)sizeof raw);
	return inbound_act(&rig.cfg, raw, (size_t)n, rig.log_line,
	                   sizeof rig.log_line);
}

/* Emails to address to in the outbox: queued (or sent), or dropped. */
static long long queued_to(const char *to)
{
	char sql[256];

	snprintf(sql, sizeof sql, "SELECT count(*) FROM outbox WHERE "
	         "lower(recipient) = lower('%s') AND dropped IS NULL", to);
	return rig_sql_value(sql);
}

static long long dropped_to(const char *to, const char *why)
{
	char sql[256];

	snprintf(sql, sizeof sql, "SELECT count(*) FROM outbox WHERE "
	         "lower(recipient) = lower('%s') AND dropped IS NOT NULL "
	         "AND last_error LIKE '%%%s%%'", to, why);
	return rig_sql_value(sql);
}

/* The Subject of the newest email to to (the test fails if none). */
static void newest_subject(const char *to, char *out, size_t cap)
{
	fixture_sql_text(rig.path, "SELECT subject FROM outbox WHERE"
	                 " recipient = ?1 ORDER BY id DESC LIMIT 1", to, out,
	                 cap);
}

/* 180 replies of table talk from the seat's own address in 30 minutes
 * (one each 10 seconds, under the talk's rate limit) were answered 150
 * times: talk counts as a reply that did nothing to the game, and its
 * answers stop at STORE_ANSWERS_PER_DAY a day. */
START_TEST(test_talk_replies_are_answered_a_bounded_number_of_times)
{
	char tok[REPLY_TOKEN_SIZE], id[32], body[64];
	int seq = rig_load()->seq;

	rig_token(1, seq, tok);
	for (int i = 0; i < 180; i++) {
		set_clock(REPLY_RIG_T0 + 10 * i);
		snprintf(id, sizeof id, "say%d@x", i);
		snprintf(body, sizeof body, "say: line %d", i);
		ck_assert_int_eq(deliver(rig.emails[0], tok, id, "Re: hello",
		                         body), 0);
	}
	long long answered = queued_to(rig.emails[0]);
	printf("answers to one address from 180 say-replies: %lld\n",
	       answered);
	ck_assert_int_le(answered, STORE_ANSWERS_PER_DAY);
	ck_assert_int_gt(answered, 0);
	/* the talk itself went to the table, as its rate limit allows */
	ck_assert_int_gt(rig_sql_value("SELECT count(*) FROM chat"),
	                 STORE_ANSWERS_PER_DAY);
}
END_TEST

/* Every email to one address, whatever its kind and however the
 * address is spelled, counts toward one budget; those over it stay in
 * the outbox, dropped, saying why. */
START_TEST(test_every_email_to_an_address_counts_toward_one_budget)
{
	static const char *const kinds[] = { "answer", "turn", "reminder",
	                                     "digest", "move", "nudge" };
	static const char *const spelled[] = { "ann@example.org",
	                                       "Ann+bt@Example.org",
	                                       "ANN@EXAMPLE.ORG" };
	store_limits lim = { .mails_per_hour = 10, .mails_per_day = 25 };
	store_error err;
	store_mail m;

	store_set_limits(rig.st, &lim);
	for (int hour = 0; hour < 4; hour++)
		for (int i = 0; i < 40; i++) {
			set_clock(REPLY_RIG_T0 + hour * 2 * STORE_LIMIT_HOUR + i);
			memset(&m, 0, sizeof m);
			snprintf(m.kind, sizeof m.kind, "%s", kinds[i % 6]);
			snprintf(m.to, sizeof m.to, "%s", spelled[i % 3]);
			snprintf(m.subject, sizeof m.subject, "Buffer Time");
			snprintf(m.body, sizeof m.body, "mail %d", i);
			ck_assert_msg(store_queue_mail(rig.st, rig.game, &m,
			                               &err) == STORE_OK,
			              "%s", err.why);
		}
	/* 10 in each of the first two hours, 5 in the third (25 a day),
	 * none in the fourth: the rest are kept, dropped, saying why */
	static const char ann[] = "SELECT count(*) FROM outbox WHERE "
	                          "dropped IS NULL AND lower(recipient) "
	                          "LIKE 'ann%'";
	ck_assert_int_eq(rig_sql_value(ann), 25);
	ck_assert_int_eq(rig_sql_value("SELECT count(*) FROM outbox WHERE "
	                           "dropped IS NOT NULL AND last_error LIKE "
	                           "'%most%'"), 160 - 25);
	/* another address has its own budget */
	memset(&m, 0, sizeof m);
	snprintf(m.kind, sizeof m.kind, "turn");
	snprintf(m.to, sizeof m.to, "%s", rig.emails[1]);
	ck_assert_int_eq(store_queue_mail(rig.st, rig.game, &m, &err),
	                 STORE_OK);
	ck_assert_int_eq(queued_to(rig.emails[1]), 1);
	/* a day after the first, the address has its budget again */
	set_clock(REPLY_RIG_T0 + STORE_LIMIT_DAY + 7 * STORE_LIMIT_HOUR);
	snprintf(m.to, sizeof m.to, "%s", rig.emails[0]);
	ck_assert_int_eq(store_queue_mail(rig.st, rig.game, &m, &err),
	                 STORE_OK);
	ck_assert_int_eq(rig_sql_value(ann), 26);
}
END_TEST

/* Answers count too: 100 replies from one address in 100 minutes,
 * with a budget below the answers' own daily cap, queue no more than
 * the budget. */
START_TEST(test_answers_stay_within_the_budget)
{
	store_limits lim = { .mails_per_hour = 12, .mails_per_day = 30 };
	char tok[REPLY_TOKEN_SIZE], id[32];
	int seq = rig_load()->seq;

	store_set_limits(rig.st, &lim);
	rig_token(1, seq, tok);
	for (int i = 0; i < 100; i++) {
		set_clock(REPLY_RIG_T0 + 60 * i);
		snprintf(id, sizeof id, "many%d@x", i);
		ck_assert_int_eq(deliver(rig.emails[0], tok, id, "Re: hello",
		                         i % 2 ? "say: hi" : "thanks"), 0);
	}
	/* 12 in the first hour; in the second the answers' own daily cap
	 * (STORE_ANSWERS_PER_DAY) may end them first */
	long long queued = queued_to(rig.emails[0]);
	ck_assert_int_ge(queued, 12);
	ck_assert_int_le(queued, 24);
	ck_assert_int_gt(dropped_to(rig.emails[0], "most"), 0);
}
END_TEST

/* A seat that asked for no email (the unsubscribe link) gets none, of
 * any kind: not the answers to replies written in its name either. */
START_TEST(test_no_email_means_no_answer)
{
	char tok[REPLY_TOKEN_SIZE];
	store_error err;
	store_mail m;
	int seq = rig_load()->seq;

	ck_assert_int_eq(
	    store_set_notify(rig.st, rig.game, 1, STORE_NOTIFY_NONE, &err),
	    STORE_OK);
	rig_token(1, seq, tok);
	ck_assert_int_eq(deliver(rig.emails[0], tok, "n1@x", "Re: hi",
	                         "say: hello"), 0);
	ck_assert_int_eq(deliver(rig.emails[0], tok, "n2@x", "Re: hi",
	                         "thanks"), 0);
	ck_assert_int_eq(deliver(rig.emails[0], tok, "n3@x", "Re: hi",
	                         "no such move"), 0);
	ck_assert_int_eq(deliver("mallory@evil.example", tok, "n4@x",
	                         "Re: hi", "1"), 0);
	ck_assert_int_eq(deliver(rig.emails[0], tok, "n5@x", "Re: hi", "1"), 0);
	ck_assert_msg(rig_load()->seq == seq + 1, "%s", rig.log_line);
	/* any other kind queued for the seat */
	memset(&m, 0, sizeof m);
	m.seat = 1;
	snprintf(m.kind, sizeof m.kind, "nudge");
	snprintf(m.to, sizeof m.to, "%s", rig.emails[0]);
	ck_assert_int_eq(store_queue_mail(rig.st, rig.game, &m, &err),
	                 STORE_OK);
	ck_assert_int_eq(queued_to(rig.emails[0]), 0);
	/* the others are mailed as before */
	ck_assert_int_gt(queued_to(rig.emails[1]), 0);
}
END_TEST

/* An answer's Subject is "Re: " and one of ours: the sender's own words
 * there are not echoed to the seat's address. */
START_TEST(test_answers_have_our_subject)
{
	char tok[REPLY_TOKEN_SIZE], ours[256], re[300], got[256];
	int seq = rig_load()->seq;

	rig_token(1, seq, tok);
	ck_assert_int_eq(deliver(rig.emails[0], tok, "s1@x",
	                         "Re: Cheap pills at "
	                         "evil.example",
	                         "say: hi"),
	                 0);
	newest_subject(rig.emails[0], got, sizeof got);
	ck_assert_msg(strstr(got, "pills") == NULL, "answered as '%s'", got);
	ck_assert_msg(strncmp(got, "Re: Buffer Time", 15) == 0,
	              "answered as '%s'", got);
	/* Ann moves; Ben's turn email is ours, and his reply to it is
	 * answered in its thread, however many Re: it has */
	ck_assert_int_eq(deliver(rig.emails[0], tok, "s2@x", "Re: hi", "1"), 0);
	ck_assert_msg(rig_load()->seq == seq + 1, "%s", rig.log_line);
	newest_subject(rig.emails[1], ours, sizeof ours);
	ck_assert_msg(strncmp(ours, "Buffer Time:", 12) == 0, "%s", ours);
	rig_token(2, seq + 1, tok);
	snprintf(re, sizeof re, "Re: %s", ours);
	ck_assert_int_eq(deliver(rig.emails[1], tok, "s3@x", re, "say: hi"), 0);
	newest_subject(rig.emails[1], got, sizeof got);
	ck_assert_str_eq(got, re);
	snprintf(re, sizeof re, "RE: Re: %s", ours);
	ck_assert_int_eq(deliver(rig.emails[1], tok, "s4@x", re, "say: ho"), 0);
	newest_subject(rig.emails[1], got, sizeof got);
	ck_assert_str_eq(got + 4, ours);
	/* one of ours with words added is not */
	snprintf(re, sizeof re, "Re: %s at evil.example", ours);
	ck_assert_int_eq(deliver(rig.emails[1], tok, "s5@x", re, "say: hu"), 0);
	newest_subject(rig.emails[1], got, sizeof got);
	ck_assert_msg(strstr(got, "evil") == NULL, "answered as '%s'", got);
}
END_TEST

static Suite *mail_budget_suite(void)
{
	Suite *s = suite_create("mail_budget");
	TCase *tc = tcase_create("budget");

	tcase_add_checked_fixture(tc, setup, rig_close);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc,
	               test_talk_replies_are_answered_a_bounded_number_of_times);
	tcase_add_test(tc,
	               test_every_email_to_an_address_counts_toward_one_budget);
	tcase_add_test(tc, test_answers_stay_within_the_budget);
	tcase_add_test(tc, test_no_email_means_no_answer);
	tcase_add_test(tc, test_answers_have_our_subject);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(mail_budget_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
