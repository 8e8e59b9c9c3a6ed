/*
 * check_describe.c - actions in words (words/describe.c): every action of
 * tests/data/web-rigged.rec (every verb, all nine Ability kinds, a
 * reprimand, the end) described from the states around it, as each seat
 * and as nobody, against the golden file tests/data/describe.exp.  Also
 * that no description shows a seat what R10 hides from it, and the line
 * each offered action carries (words/offer.c) in every state of whole
 * games: the engine's figures, plain words, no rule codes.
 *
 * To refresh the golden file after a deliberate change of wording:
 *	DESCRIBE_WRITE=1 CK_FORK=no tests/check_describe |
 *	    grep '^[0-9]|' >tests/data/describe.exp
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "fixture.h"
#include "describe.h"
#include "offer.h"
#include "rig.h"
#include "store.h"
#include "utf8.h"

enum { TEXT_MAX = 16384, OUT_MAX = 65536 };


static size_t slurp(const char *name, char *buf, size_t cap)
{
	char path[600];
	FILE *f;
	size_t n;

	snprintf(path, sizeof path, "%s/%s", fixture_data_dir(), name);
	f = fopen(path, "rb");
	ck_assert_msg(f != NULL, "cannot open %s", path);
	n = fread(buf, 1, cap - 1, f);
	fclose(f);
	buf[n] = '\0';
	return n;
}

/* The seats' names of the rigged game; seat 3 has none: "Seat 3". */
static const char *names[3] = { "Ann", "Bob", "" };

/* Describes every action of the rigged record for viewer into out. */
static void describe_all(int viewer, char *out, size_t cap)
{
	static char text[TEXT_MAX], prefix[TEXT_MAX];
	static store_game g;
	size_t len = slurp("web-rigged.rec", text, sizeof text), at = 0, o = 0;
	bt_game before, after;
	bt_action a;
	bt_error err;

	memset(&g, 0, sizeof g);
	g.players = 3;
	for (int i = 0; i < 3; i++)
		snprintf(g.seats[i].name, sizeof g.seats[i].name, "%s",
		         names[i]);
	while (at < len) {
		const char *nl = memchr(text + at, '\n', len - at);
		size_t end = nl ? (size_t)(nl - text) : len;
		if (text[at] >= '1' && text[at] <= '9' &&
		    bt_action_parse(text + at, end - at, &a, &err) == 0) {
			char line[DESCRIBE_MAX];
			memcpy(prefix, text, at);
			prefix[at] = '\0';
			ck_assert_int_eq(rig_replay(prefix, &before, NULL, NULL), 0);
			memcpy(prefix, text, end);
			prefix[end] = '\0';
			ck_assert_int_eq(rig_replay(prefix, &after, NULL, NULL), 0);
			describe_action(&before, &after, &a, &g, viewer, line,
			                sizeof line);
			o += (size_t)snprintf(out + o, cap - o, "%d| %s\n",
			                      viewer, line);
			ck_assert_uint_lt(o, cap);
		}
		at = end + 1;
	}
}

/* The golden file: the descriptions as seat 1 and as nobody. */
START_TEST(test_golden)
{
	static char got[2 * OUT_MAX], want[2 * OUT_MAX];

	describe_all(1, got, OUT_MAX);
	describe_all(0, got + strlen(got), OUT_MAX);
	if (getenv("DESCRIBE_WRITE")) {
		fputs(got, stdout);
		return;
	}
	slurp("describe.exp", want, sizeof want);
	ck_assert_str_eq(got, want);
}
END_TEST

/* R10: seat 2 never reads seat 1's Sensor Sweep order, nor the card of a
 * Hand Off between seats 1 and 3; seat 1 reads both. */
START_TEST(test_hidden)
{
	static char as1[OUT_MAX], as2[OUT_MAX];

	describe_all(1, as1, sizeof as1);
	describe_all(2, as2, sizeof as2);
	ck_assert_ptr_nonnull(strstr(as1, "you chose, top first"));
	ck_assert_ptr_null(strstr(as2, "you chose"));
	ck_assert_ptr_nonnull(strstr(as1, "gave Nap in a Jefferies Tube"));
	ck_assert_ptr_null(strstr(as2, "Nap in a Jefferies Tube"));
	ck_assert_ptr_nonnull(strstr(as2, "gave a card to Seat 3"));
	ck_assert_ptr_null(strstr(as2, "drew an Ability card:"));
}
END_TEST

/* Names of 40 four-byte characters, three to a sentence, overflow a
 * description: it is cut, never inside a character. */
START_TEST(test_long_names_stay_utf8)
{
	static char out[OUT_MAX], n1[200], n2[200], n3[200];
	const char *seq = "\xF0\x9D\x94\xB8";    /* U+1D538 */

	n1[0] = n2[0] = n3[0] = '\0';
	for (int i = 0; i < BT_NAME_CHARS_MAX; i++) {
		strcat(n1, seq);
		strcat(n2, seq);
		strcat(n3, seq);
	}
	n1[0] = 'A';    /* 1 + 3 bytes: the cut lands elsewhere */
	memmove(n1 + 1, n1 + 4, strlen(n1 + 4) + 1);
	names[0] = n1;
	names[1] = n2;
	names[2] = n3;
	for (int viewer = 0; viewer <= 3; viewer++) {
		size_t n, i = 0, len;
		describe_all(viewer, out, sizeof out);
		n = strlen(out);
		while (i < n && (len = utf8_seq((const unsigned char *)out + i,
		                                n - i)) > 0)
			i += len;
		ck_assert_msg(i == n, "viewer %d: invalid UTF-8 at byte %zu",
		              viewer, i);
	}
}
END_TEST

/* Cards in words, from the card table. */
START_TEST(test_cards)
{
	static const struct {
		const char *id, *want;
	} t[] = {
		{ "S08", "Eager Ensign, Effort 2" },
		{ "S23", "Captain, 3 Officers" },
		{ "S27", "Ship's Doctor, 1 Officer" },
		{ "P07", "Trivia Night (Target 2, Leisure 2)" },
		{ "A05", "Update the Crew Manifest (Target 6, Leisure 1)" },
		{ "X13", "Sensor Sweep" },
	};
	char buf[DESCRIBE_MAX];

	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
		describe_card(bt_card_parse(t[i].id, 3), buf, sizeof buf);
		ck_assert_str_eq(buf, t[i].want);
	}
	describe_card(BT_NO_CARD, buf, sizeof buf);
	ck_assert_str_eq(buf, "a card");
}
END_TEST

/* 1 if text names a rule by its code ("R7") or holds a control byte. */
static int has_code(const char *text)
{
	for (const char *p = text; *p; p++)
		if ((p[0] == 'R' && p[1] >= '0' && p[1] <= '9') ||
		    (unsigned char)*p < 0x20)
			return 1;
	return 0;
}

/* The lines of every action offered in state g agree with the engine. */
static void check_offers(const bt_game *g, const bt_action *legal, int n)
{
	char line[OFFER_MAX], want[96];
	bt_stake st;
	bt_gain gain;

	bt_reprimand_stake(g, &st);
	bt_log_gain(g, &gain);
	for (int i = 0; i < n; i++) {
		const bt_action *a = &legal[i];
		if (a->verb == BT_WORK)
			offer_work(g, g->turn, line, sizeof line);
		else if (a->verb == BT_LOG)
			offer_log(g, line, sizeof line);
		else
			offer_play(g, a, 1, line, sizeof line);
		ck_assert_msg(line[0] != '\0' && !has_code(line),
		              "offer %d: '%s'", i, line);
		if (a->verb == BT_LOG) {
			snprintf(want, sizeof want, "(total %d of %d)",
			         gain.total, bt_goal(g));
			ck_assert_msg(strstr(line, want), "log: '%s'", line);
			ck_assert_int_eq(strstr(line, "the crew wins") != NULL,
			                 gain.wins);
		}
		if (a->verb == BT_WORK && strstr(line, "would cost"))
			ck_assert_int_eq(strstr(line, "and the game") != NULL ||
			                 strstr(line, "cost the game") != NULL,
			                 st.game_lost);
	}
}

/* Whole games, always the first or the last legal action: both reach
 * the end (a loss with the Assignment Deck empty, or a win). */
START_TEST(test_offers)
{
	static bt_action legal[BT_MAX_LEGAL];
	uint8_t key[BT_KEY_BYTES] = { (uint8_t)_i };
	bt_game g;
	bt_error err;
	int games_lost_stake = 0;

	for (int players = 2; players <= 6; players++) {
		ck_assert_int_eq(bt_game_new(&g, players, 1, key, &err), 0);
		while (g.status == BT_PLAYING && g.actions < 2000) {
			int n = bt_legal(&g, legal, BT_MAX_LEGAL);
			check_offers(&g, legal, n);
			bt_stake st;
			bt_reprimand_stake(&g, &st);
			games_lost_stake += st.game_lost;
			ck_assert_int_eq(bt_apply(&g, &legal[_i % 2 ? n - 1 : 0],
			                          &err), 0);
		}
	}
	ck_assert_msg(games_lost_stake > 0, "no state where a reprimand "
	              "would lose the game");
}
END_TEST

/* The risk in words: a known next card is certain or safe. */
START_TEST(test_offer_risk)
{
	char buf[96];

	offer_risk(3, 25, buf, sizeof buf);
	ck_assert_str_eq(buf, "12% (3 in 25)");
	offer_risk(1, 3, buf, sizeof buf);
	ck_assert_str_eq(buf, "33.3% (1 in 3)");
	offer_risk(0, 1, buf, sizeof buf);
	ck_assert_str_eq(buf, "none: you know the next card is safe");
	offer_risk(1, 1, buf, sizeof buf);
	ck_assert_str_eq(buf, "certain: you know the next card brings a "
	                 "reprimand");
}
END_TEST

int main(void)
{
	Suite *s = suite_create("describe");
	TCase *tc = tcase_create("describe");
	SRunner *sr;
	int failed;

	tcase_add_test(tc, test_golden);
	tcase_add_test(tc, test_hidden);
	tcase_add_test(tc, test_long_names_stay_utf8);
	tcase_add_test(tc, test_cards);
	tcase_add_loop_test(tc, test_offers, 0, 4);
	tcase_add_test(tc, test_offer_risk);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
