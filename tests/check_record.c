/*
 * check_record.c - the game record and the state view of RECORD.md:
 * parsing, malformed lines, stack lines, writing, action lines, JSON.
 */
#include <stdlib.h>
#include <string.h>

#include <check.h>
#include <sodium.h>

#include "record.h"
#include "rig.h"
#include "view.h"

/* A 3-player header: lines 1-4. */
#define HEAD "buffertime 1\nplayers 3\nfirst 2\nseed 9f86d081884c7d65\n"

/*
 * RECORD.md's example, rigged so that its actions are legal: seat 2 (the
 * First Player) draws X13 X01 and P25 P26, seat 3 X07 X08 and P07 P08,
 * seat 1 X04 X19 and P01 P02; the Duty is A18 and the stack starts with
 * the Captain.
 */
#define EXAMPLE HEAD \
	"name 1 Beckett\n" \
	"name 2 Brad Boimler\n" \
	"stack shift S23 S01 S02 S03 S04\n" \
	"stack assignment A18 A01\n" \
	"stack side P25 P26 P07 P08 P01 P02\n" \
	"stack ability X13 X01 X07 X08 X04 X19\n" \
	"# a comment\n" \
	"\n" \
	"2 work\n" \
	"3 side P07\n" \
	"1 special X04 S23\n"

/* ---- the example and the header --------------------------------------- */

START_TEST(test_R11_example_replays)
{
	bt_game g;
	bt_error err;
	int line = -1;

	ck_assert_int_eq(rig_replay(EXAMPLE, &g, &err, &line), 0);
	ck_assert_int_eq(line, 0);
	ck_assert_int_eq(g.players, 3);
	ck_assert_int_eq(g.status, BT_PLAYING);
	ck_assert_int_eq(g.actions, 3);
	ck_assert_int_eq(g.turn, 2);
	ck_assert_int_eq(g.duty, bt_card_parse("A18", 3));
	/* Cover Story sent the Captain to the bottom of the Shift Deck. */
	ck_assert_int_eq(g.stack_n, 1);
	ck_assert_int_eq(g.stack[0], bt_card_parse("S01", 3));
	ck_assert_int_eq(g.shift_deck.c[0], bt_card_parse("S23", 3));
	ck_assert_int_eq(g.target, 12 + 2);
	ck_assert_int_eq(g.effort, 1);
}
END_TEST

START_TEST(test_R11_header_alone_is_the_state_after_setup)
{
	bt_game g, h;
	bt_error err;
	uint8_t key[BT_KEY_BYTES];

	ck_assert_int_eq(rig_replay(HEAD, &g, NULL, NULL), 0);
	ck_assert_int_eq(bt_seed_parse("9f86d081884c7d65", 16, key), 0);
	ck_assert_int_eq(bt_game_new(&h, 3, 2, key, &err), 0);
	ck_assert(memcmp(&g, &h, sizeof g) == 0);
	ck_assert_int_eq(g.actions, 0);
	ck_assert_int_eq(g.turn, 2);
}
END_TEST

START_TEST(test_R11_crlf_comments_and_blank_lines_are_accepted)
{
	bt_game g, h;

	ck_assert_int_eq(rig_replay(
		"buffertime 1\r\n# hi\r\n\r\nplayers 3\r\n   \n"
		"first 2\r\nseed 9F86D081884C7D65\r\n#\n2 work\r\n# end",
		&g, NULL, NULL), 0);
	ck_assert_int_eq(rig_replay(HEAD "2 work\n", &h, NULL, NULL), 0);
	/* The seed's case does not change the key. */
	ck_assert(memcmp(&g, &h, sizeof g) == 0);
	ck_assert_int_eq(g.actions, 1);
}
END_TEST

START_TEST(test_R11_name_of_forty_characters)
{
	/* 40 code points, some of them two or three bytes long. */
	static const char text[] = HEAD
		"name 1 \xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9 "
		"\xe2\x98\x85\xe2\x98\x85\xe2\x98\x85 Lower Decks crew "
		"member 123456\n";
	char out[1024];

	ck_assert_int_eq(rig_replay(text, NULL, NULL, NULL), 0);
	ck_assert(rig_write(text, out, sizeof out) != (size_t)-1);
	ck_assert_ptr_nonnull(strstr(out, "name 1 \xc3\xa9"));
}
END_TEST

/* ---- malformed and illegal lines ------------------------------------- */

static const struct bad {
	const char *id;
	const char *text;
	int line;       /* where the replay must stop */
	int rule;
} bad[] = {
	{ "empty", "", 1, 11 },
	{ "version 2", "buffertime 2\n", 1, 11 },
	{ "version case", "Buffertime 1\n", 1, 11 },
	{ "version space", "buffertime 1 \n", 1, 11 },
	{ "version bom", "\xef\xbb\xbf" "buffertime 1\n", 1, 11 },
	{ "comment first", "# hi\nbuffertime 1\n", 1, 11 },
	{ "no players", "buffertime 1\n", 1, 11 },
	{ "no seed", "buffertime 1\nplayers 3\nfirst 2\n2 work\n", 4, 11 },
	{ "no first", "buffertime 1\nplayers 3\nseed 1\n\n", 4, 11 },
	{ "first before players", "buffertime 1\nfirst 2\n", 2, 11 },
	{ "players 1", "buffertime 1\nplayers 1\n", 2, 11 },
	{ "players 7", "buffertime 1\nplayers 7\n", 2, 11 },
	{ "players 03", "buffertime 1\nplayers 03\n", 2, 11 },
	{ "players +3", "buffertime 1\nplayers +3\n", 2, 11 },
	{ "players twice", "buffertime 1\nplayers 3\nplayers 3\n", 3, 11 },
	{ "players 2 spaces", "buffertime 1\nplayers  3\n", 2, 11 },
	{ "players trailing", "buffertime 1\nplayers 3 \n", 2, 11 },
	{ "players extra", "buffertime 1\nplayers 3 4\n", 2, 11 },
	{ "first 4", "buffertime 1\nplayers 3\nfirst 4\n", 3, 11 },
	{ "first 0", "buffertime 1\nplayers 3\nfirst 0\n", 3, 11 },
	{ "seed not hex", "buffertime 1\nplayers 3\nseed 12g\n", 3, 11 },
	{ "seed 65 digits", "buffertime 1\nseed "
	  "00000000000000000000000000000000"
	  "000000000000000000000000000000000\n", 2, 11 },
	{ "seed missing", "buffertime 1\nseed\n", 2, 11 },
	{ "seed twice", "buffertime 1\nseed 1\nseed 1\n", 3, 11 },
	{ "seed two tokens", "buffertime 1\nseed 9f 86\n", 2, 11 },
	{ "keyword case", HEAD "Stack shift S01\n", 5, 11 },
	{ "unknown keyword", HEAD "bogus\n", 5, 11 },
	{ "name seat 4", HEAD "name 4 Bob\n", 5, 11 },
	{ "name seat 0", HEAD "name 0 Bob\n", 5, 11 },
	{ "name twice", HEAD "name 1 Bob\nname 1 Ann\n", 6, 11 },
	{ "name empty", HEAD "name 1 \n", 5, 11 },
	{ "name no seat", HEAD "name\n", 5, 11 },
	{ "name leading space", HEAD "name 1  Bob\n", 5, 11 },
	{ "name trailing space", HEAD "name 1 Bob \n", 5, 11 },
	{ "name 41", HEAD "name 1 "
	  "12345678901234567890123456789012345678901\n", 5, 11 },
	{ "name before players", "buffertime 1\nname 1 Bob\n", 2, 11 },
	{ "name tab", HEAD "name 1 Bob\tBob\n", 5, 11 },
	{ "name after action", HEAD "2 work\nname 1 Bob\n", 6, 11 },
	{ "players after action", HEAD "2 work\nplayers 3\n", 6, 11 },
	{ "seed after action", HEAD "2 work\nseed 1\n", 6, 11 },
	{ "stack no deck", HEAD "stack deck A01\n", 5, 11 },
	{ "stack no cards", HEAD "stack shift\n", 5, 11 },
	{ "stack wrong type", HEAD "stack shift A01\n", 5, 11 },
	{ "stack bad id", HEAD "stack shift S29\n", 5, 11 },
	{ "stack lower case", HEAD "stack shift s01\n", 5, 11 },
	{ "stack repeat", HEAD "stack shift S01 S02 S01\n", 5, 11 },
	{ "stack twice in header", HEAD "stack shift S01\n# x\n"
	  "stack shift S02\n2 work\n", 7, 11 },
	{ "stack twice, then bad", HEAD "stack side P01\nstack side P02\n"
	  "name 9 X\n", 6, 11 },
	{ "stack 19 assignments", HEAD "stack assignment A01 A02 A03 A04"
	  " A05 A06 A07 A08 A09 A10 A11 A12 A13 A14 A15 A16 A17 A18 A01\n",
	  5, 11 },
	{ "verb", HEAD "2 jump\n", 5, 11 },
	{ "verb case", HEAD "2 Work\n", 5, 11 },
	{ "work extra", HEAD "2 work now\n", 5, 11 },
	{ "log extra", HEAD "2 log P01\n", 5, 11 },
	{ "two spaces", HEAD "2  work\n", 5, 11 },
	{ "trailing space", HEAD "2 work \n", 5, 11 },
	{ "leading space", HEAD " 2 work\n", 5, 11 },
	{ "seat only", HEAD "2\n", 5, 11 },
	{ "seat 02", HEAD "02 work\n", 5, 11 },
	{ "seat 0", HEAD "0 work\n", 5, 11 },
	{ "seat 7", HEAD "7 work\n", 5, 11 },
	{ "seat 4 of 3", HEAD "4 work\n", 5, 6 },
	{ "not your turn", HEAD "1 work\n", 5, 6 },
	{ "side no card", HEAD "2 side\n", 5, 11 },
	{ "side ability", HEAD "2 side X01\n", 5, 11 },
	{ "side P27", HEAD "2 side P27\n", 5, 11 },
	{ "side P00", HEAD "2 side P00\n", 5, 11 },
	{ "side two", HEAD "2 side P01 P02\n", 5, 11 },
	{ "special side", HEAD "2 special P01\n", 5, 11 },
	{ "overtime choice", HEAD "2 special X01 S01\n", 5, 11 },
	{ "sweep none", HEAD "2 special X13\n", 5, 11 },
	{ "sweep four", HEAD "2 special X13 S01 S02 S03 S04\n", 5, 11 },
	{ "sweep side", HEAD "2 special X13 P01\n", 5, 11 },
	{ "cover two", HEAD "2 special X04 S23 S24\n", 5, 11 },
	{ "cover side", HEAD "2 special X04 P01\n", 5, 11 },
	{ "scale back shift", HEAD "2 special X17 S01\n", 5, 11 },
	{ "hand off no seat", HEAD "2 special X19 P01\n", 5, 11 },
	{ "hand off seat 0", HEAD "2 special X19 P01 0\n", 5, 11 },
	{ "hand off seat 7", HEAD "2 special X19 P01 7\n", 5, 11 },
	{ "hand off assignment", HEAD "2 special X19 A01 1\n", 5, 11 },
	{ "hand off shift", HEAD "2 special X19 S01 1\n", 5, 11 },
	{ "not in hand", EXAMPLE "2 side P01\n", 16, 6 },
	{ "log too early", EXAMPLE "2 log\n", 16, 6 },
	{ "sweep not the top", EXAMPLE "2 special X13 S01 S02 S03\n", 16, 9 },
	{ "line too long", HEAD "#"
	  "1234567890123456789012345678901234567890123456789012345678901234"
	  "1234567890123456789012345678901234567890123456789012345678901234"
	  "1234567890123456789012345678901234567890123456789012345678901234"
	  "1234567890123456789012345678901234567890123456789012345678901234"
	  "1234567890123456789012345678901234567890123456789012345678901234"
	  "1234567890123456789012345678901234567890123456789012345678901234"
	  "1234567890123456789012345678901234567890123456789012345678901234"
	  "1234567890123456789012345678901234567890123456789012345678901234"
	  "1234567890123456789012345678901234567890123456789012345678901234"
	  "1234567890123456789012345678901234567890123456789012345678901234"
	  "1234567890123456789012345678901234567890123456789012345678901234"
	  "1234567890123456789012345678901234567890123456789012345678901234"
	  "1234567890123456789012345678901234567890123456789012345678901234"
	  "1234567890123456789012345678901234567890123456789012345678901234"
	  "1234567890123456789012345678901234567890123456789012345678901234"
	  "1234567890123456789012345678901234567890123456789012345678901234"
	  "\n", 5, 11 },
	{ "bad utf8", HEAD "# \xc3\x28\n", 5, 11 },
	{ "overlong utf8", HEAD "# \xc0\xaf\n", 5, 11 },
	{ "surrogate", HEAD "# \xed\xa0\x80\n", 5, 11 },
	{ "past U+10FFFF", HEAD "# \xf4\x90\x80\x80\n", 5, 11 },
	{ "truncated utf8", HEAD "# \xe2\x98\n", 5, 11 },
	{ "C1 control", HEAD "# \xc2\x85\n", 5, 11 },
	{ "DEL", HEAD "# \x7f\n", 5, 11 },
	{ "escape", HEAD "# \x1b[2J\n", 5, 11 },
	{ "lone CR", HEAD "2 work\r3 work\n", 5, 11 },
	{ "two CRs", HEAD "2 work\r\r\n", 5, 11 },
};

START_TEST(test_R11_malformed_line_is_an_error_on_its_line)
{
	const struct bad *b = &bad[_i];
	bt_error err;
	int line = 0;

	ck_assert_msg(rig_replay(b->text, NULL, &err, &line) == -1,
	              "%s: accepted", b->id);
	ck_assert_msg(line == b->line, "%s: error on line %d, not %d (%s)",
	              b->id, line, b->line, err.why);
	ck_assert_msg(err.rule == b->rule, "%s: rule %d, not %d (%s)", b->id,
	              err.rule, b->rule, err.why);
	ck_assert_msg(err.why[0] != '\0', "%s: no reason", b->id);
}
END_TEST

/* A NUL cannot be in a C string literal's text: feed it by length. */
START_TEST(test_R11_nul_byte_is_an_error)
{
	static const char text[] = HEAD "2 wo\0rk\n";
	static bt_replay r;
	bt_error err;

	bt_replay_init(&r);
	ck_assert_int_eq(bt_replay_text(&r, text, sizeof text - 1, &err), -1);
	ck_assert_int_eq(r.err_line, 5);
	ck_assert_int_eq(err.rule, 11);
	/* Every later call repeats the error. */
	ck_assert_int_eq(bt_replay_line(&r, "2 work", 6, &err), -1);
	ck_assert_int_eq(bt_replay_finish(&r, &err), -1);
	ck_assert_int_eq(r.err_line, 5);
}
END_TEST

START_TEST(test_R11_line_of_1024_bytes_is_accepted)
{
	static char line[BT_RECORD_LINE_MAX + 2];
	static bt_replay r;
	bt_error err;

	memset(line, 'x', sizeof line);
	line[0] = '#';
	bt_replay_init(&r);
	ck_assert_int_eq(bt_replay_line(&r, "buffertime 1", 12, &err), 0);
	ck_assert_int_eq(bt_replay_line(&r, line, BT_RECORD_LINE_MAX, &err),
	                 0);
	line[BT_RECORD_LINE_MAX] = '\r';
	ck_assert_int_eq(bt_replay_line(&r, line, BT_RECORD_LINE_MAX + 1,
	                                &err), 0);
	ck_assert_int_eq(bt_replay_line(&r, line, BT_RECORD_LINE_MAX + 2,
	                                &err), -1);
	ck_assert_int_eq(r.err_line, 4);
}
END_TEST

/* ---- stack lines ------------------------------------------------------ */

START_TEST(test_R11_header_stack_puts_cards_on_top)
{
	bt_game g;
	bt_card s23 = bt_card_parse("S23", 3), s01 = bt_card_parse("S01", 3);

	ck_assert_int_eq(rig_replay(HEAD "stack shift S23 S01\n", &g, NULL,
	                            NULL), 0);
	/* R4.3: the top card starts the first round's Shift Stack. */
	ck_assert_int_eq(g.stack_n, 1);
	ck_assert_int_eq(g.stack[0], s23);
	ck_assert_int_eq(g.officers, 3);
	ck_assert_int_eq(g.shift_deck.c[g.shift_deck.n - 1], s01);
}
END_TEST

START_TEST(test_R3_stack_assignment_deals_deck_then_set_aside)
{
	bt_game g;

	ck_assert_int_eq(rig_replay(HEAD "stack assignment A07 A01 A02 A03"
	                            " A04 A05 A06\n", &g, NULL, NULL), 0);
	/* The first five form the Assignment Deck (A07 became the Duty). */
	ck_assert_int_eq(g.duty, bt_card_parse("A07", 3));
	ck_assert_int_eq(g.assignment_deck.n, 4);
	for (int i = 0; i < 4; i++)
		ck_assert_int_eq(g.assignment_deck.c[3 - i], BT_ASSIGN_FIRST + i);
	/* The rest, in order, top first, are set aside. */
	ck_assert_int_eq(g.set_aside.n, 13);
	ck_assert_int_eq(g.set_aside.c[12], bt_card_parse("A05", 3));
	ck_assert_int_eq(g.set_aside.c[11], bt_card_parse("A06", 3));
}
END_TEST

/* Seat 2 plays P07; the Captain and First Officer reprimand the crew on
 * seat 3's work, which shuffles P07 back into the Side Project Deck. */
#define REPRIMAND HEAD \
	"stack shift S23 S24\n" \
	"stack side P07 P08 P01 P02 P03 P04 P26\n" \
	"2 side P07\n"

START_TEST(test_R11_waiting_stack_applies_at_next_shuffle)
{
	bt_game g;

	ck_assert_int_eq(rig_replay(REPRIMAND "stack side P25 P24\n3 work\n",
	                            &g, NULL, NULL), 0);
	ck_assert_int_eq(g.reprimands, 1);
	ck_assert_int_eq(g.round, 2);
	/* R8.3: seat 3 ended the round, so seat 1 is First Player and
	 * keeps its two; seat 2 (holding P08) draws the stacked P25. */
	ck_assert_int_eq(g.first, 1);
	ck_assert(g.hand[1] & ((uint64_t)1 << bt_card_parse("P25", 3)));
	ck_assert_int_eq(g.side_deck.c[g.side_deck.n - 1],
	                 bt_card_parse("P24", 3));
	ck_assert_int_eq(g.rig_n[BT_DECK_SIDE], 0);
}
END_TEST

START_TEST(test_R11_waiting_stack_card_not_in_deck_errors_on_its_line)
{
	bt_error err;
	int line = 0;

	/* P01 is in seat 3's hand when the Side Project Deck is shuffled. */
	ck_assert_int_eq(rig_replay(REPRIMAND "# wait\nstack side P01\n"
	                            "3 work\n", NULL, &err, &line), -1);
	ck_assert_int_eq(line, 9);
	ck_assert_int_eq(err.code, BT_ERR_STACK);
	ck_assert_int_eq(err.rule, 11);
}
END_TEST

START_TEST(test_R11_second_waiting_stack_is_an_error)
{
	bt_error err;
	int line = 0;

	ck_assert_int_eq(rig_replay(REPRIMAND "stack side P25\n"
	                            "stack shift S01\nstack side P24\n",
	                            NULL, &err, &line), -1);
	ck_assert_int_eq(line, 10);
	/* Once the first has been used, a new one may wait. */
	ck_assert_int_eq(rig_replay(REPRIMAND "stack side P25\n3 work\n"
	                            "stack side P24\n", NULL, NULL, NULL), 0);
}
END_TEST

START_TEST(test_R11_stack_still_waiting_at_the_end_is_fine)
{
	bt_game g;

	ck_assert_int_eq(rig_replay(HEAD "2 work\nstack shift S01\n", &g,
	                            NULL, NULL), 0);
	ck_assert_int_eq(g.rig_n[BT_DECK_SHIFT], 1);
}
END_TEST

/* ---- writing ---------------------------------------------------------- */

START_TEST(test_R11_write_parse_write_is_identity)
{
	static const char want[] = HEAD
		"name 1 Beckett\n"
		"name 2 Brad Boimler\n"
		"stack shift S23 S01 S02 S03 S04\n"
		"stack assignment A18 A01\n"
		"stack side P25 P26 P07 P08 P01 P02\n"
		"stack ability X13 X01 X07 X08 X04 X19\n"
		"2 work\n"
		"3 side P07\n"
		"1 special X04 S23\n"
		"stack shift S05 S06\n";
	char w1[4096], w2[4096];

	ck_assert_uint_eq(rig_write(EXAMPLE "stack shift S05 S06\n", w1,
	                            sizeof w1), strlen(want));
	ck_assert_str_eq(w1, want);
	ck_assert_uint_eq(rig_write(w1, w2, sizeof w2), strlen(w1));
	ck_assert_str_eq(w2, w1);
}
END_TEST

START_TEST(test_R11_write_into_short_buffer_counts_all)
{
	static bt_record rec;
	bt_action a = { 2, BT_WORK, BT_NO_CARD, 0, { 0 } };
	char buf[16];

	ck_assert_int_eq(bt_record_init(&rec, 3, 2, "ab", 2, NULL), 0);
	ck_assert_int_eq(bt_record_add_action(&rec, &a, NULL), 0);
	ck_assert_uint_eq(bt_record_write_buf(&rec, buf, sizeof buf),
	                  strlen("buffertime 1\nplayers 3\nfirst 2\n"
	                         "seed ab\n2 work\n"));
	ck_assert_str_eq(buf, "buffertime 1\npl");
}
END_TEST

START_TEST(test_R11_record_without_seed_writes_but_does_not_replay)
{
	static bt_record rec;
	char buf[256];

	ck_assert_int_eq(bt_record_init(&rec, 2, 1, NULL, 0, NULL), 0);
	bt_record_write_buf(&rec, buf, sizeof buf);
	ck_assert_str_eq(buf, "buffertime 1\nplayers 2\nfirst 1\n");
	ck_assert_int_eq(rig_replay(buf, NULL, NULL, NULL), -1);
}
END_TEST

START_TEST(test_R11_record_is_bounded)
{
	static bt_record rec;
	bt_action a = { 1, BT_WORK, BT_NO_CARD, 0, { 0 } };
	bt_card s01 = bt_card_parse("S01", 3);
	bt_error err;

	ck_assert_int_eq(bt_record_init(&rec, 2, 1, "1", 1, NULL), 0);
	for (int i = 0; i < BT_RECORD_MAX_ITEMS - 1; i++)
		ck_assert_int_eq(bt_record_add_action(&rec, &a, NULL), 0);
	ck_assert_int_eq(bt_record_add_stack(&rec, BT_DECK_SHIFT, &s01, 1,
	                                     NULL), 0);
	ck_assert_int_eq(bt_record_add_action(&rec, &a, &err), -1);
	ck_assert_int_eq(err.rule, 11);
	ck_assert_int_eq(bt_record_add_stack(&rec, BT_DECK_SHIFT, &s01, 1,
	                                     &err), -1);
}
END_TEST

START_TEST(test_R11_seed_hex_round_trips)
{
	uint8_t key[BT_KEY_BYTES], back[BT_KEY_BYTES];
	char hex[BT_SEED_TEXT_MAX + 1];

	for (int i = 0; i < BT_KEY_BYTES; i++)
		key[i] = (uint8_t)(i * 37 + 5);
	bt_seed_hex(key, hex);
	ck_assert_uint_eq(strlen(hex), 64);
	ck_assert_int_eq(bt_seed_parse(hex, 64, back), 0);
	ck_assert(memcmp(key, back, sizeof key) == 0);
	ck_assert_str_eq(hex + 60, "5b80");
}
END_TEST

/* ---- action lines ----------------------------------------------------- */

static const struct {
	const char *text;
	bt_action a;
} action_lines[] = {
	{ "1 work", { 1, BT_WORK, BT_NO_CARD, 0, { 0 } } },
	{ "6 log", { 6, BT_LOG, BT_NO_CARD, 0, { 0 } } },
	{ "3 side P07", { 3, BT_SIDE, 6, 0, { 0 } } },
	{ "2 special X01", { 2, BT_SPECIAL, 26, 0, { 0 } } },
	{ "1 special X04 S23", { 1, BT_SPECIAL, 29, 1, { 86 } } },
	{ "1 special X13 S05 S24 S11",
	  { 1, BT_SPECIAL, 38, 3, { 68, 87, 74 } } },
	{ "4 special X14 S28", { 4, BT_SPECIAL, 39, 1, { 91 } } },
	{ "1 special X17 P07", { 1, BT_SPECIAL, 42, 1, { 6 } } },
	{ "1 special X19 P03 2", { 1, BT_SPECIAL, 44, 2, { 2, 2 } } },
	{ "5 special X20 X13 6", { 5, BT_SPECIAL, 45, 2, { 38, 6 } } },
};

START_TEST(test_R11_action_line_format_and_parse)
{
	const bt_action *want = &action_lines[_i].a;
	const char *text = action_lines[_i].text;
	char buf[BT_ACTION_TEXT_MAX];
	bt_action a;
	bt_error err;

	ck_assert_int_eq(bt_action_parse(text, strlen(text), &a, &err), 0);
	ck_assert_int_eq(a.seat, want->seat);
	ck_assert_int_eq(a.verb, want->verb);
	ck_assert_int_eq(a.card, want->card);
	ck_assert_int_eq(a.nargs, want->nargs);
	for (int i = 0; i < a.nargs; i++)
		ck_assert_int_eq(a.arg[i], want->arg[i]);
	ck_assert_int_eq(bt_action_format(want, buf, sizeof buf),
	                 (int)strlen(text));
	ck_assert_str_eq(buf, text);
}
END_TEST

START_TEST(test_R11_action_format_refuses_bad_shapes)
{
	static const bt_action no[] = {
		{ 0, BT_WORK, BT_NO_CARD, 0, { 0 } },
		{ 7, BT_WORK, BT_NO_CARD, 0, { 0 } },
		{ 1, BT_VERB__MAX, BT_NO_CARD, 0, { 0 } },
		{ 1, BT_SIDE, 26, 0, { 0 } },
		{ 1, BT_SIDE, BT_NO_CARD, 0, { 0 } },
		{ 1, BT_SPECIAL, 6, 0, { 0 } },
		{ 1, BT_SPECIAL, 26, 1, { 64 } },
		{ 1, BT_SPECIAL, 38, 0, { 0 } },
		{ 1, BT_SPECIAL, 38, 4, { 64, 65, 66 } },
		{ 1, BT_SPECIAL, 44, 2, { 2, 0 } },
		{ 1, BT_SPECIAL, 44, 2, { 50, 2 } },
		{ 1, BT_SPECIAL, 42, 1, { 200 } },
	};
	char buf[BT_ACTION_TEXT_MAX];

	for (size_t i = 0; i < sizeof no / sizeof no[0]; i++)
		ck_assert_msg(bt_action_format(&no[i], buf, sizeof buf) == -1,
		              "shape %zu formatted as '%s'", i, buf);
}
END_TEST

/* A small fast generator for choosing moves (not the game's stream). */
static uint64_t next(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15u);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
	return z ^ (z >> 31);
}

/*
 * Random games played through bt_legal: every legal action's text parses
 * back to it, and the record of the game written as text replays to the
 * same game bit for bit (R11).
 */
START_TEST(test_R11_random_games_replay_bit_for_bit)
{
	static bt_action legal[BT_MAX_LEGAL];
	static bt_record rec;
	static bt_replay r;
	static char text[64 * 1024];
	uint64_t s = (uint64_t)_i * 7919 + 1;

	for (int game = 0; game < 20; game++) {
		uint8_t key[BT_KEY_BYTES];
		char seed[BT_SEED_TEXT_MAX + 1];
		int players = 2 + (int)(next(&s) % 5);
		int first = 1 + (int)(next(&s) % (uint64_t)players);
		bt_game g;
		bt_error err;

		for (int i = 0; i < BT_KEY_BYTES; i++)
			key[i] = (uint8_t)next(&s);
		bt_seed_hex(key, seed);
		ck_assert_int_eq(bt_record_init(&rec, players, first, seed, 64,
		                                &err), 0);
		ck_assert_int_eq(bt_game_new(&g, players, first, key, &err), 0);
		while (g.status == BT_PLAYING) {
			int n = bt_legal(&g, legal, BT_MAX_LEGAL);
			ck_assert_int_gt(n, 0);
			for (int i = 0; i < n; i++) {
				char line[BT_ACTION_TEXT_MAX];
				bt_action back;
				int len = bt_action_format(&legal[i], line,
				                           sizeof line);
				ck_assert_int_gt(len, 0);
				ck_assert_int_eq(bt_action_parse(line,
				                 (size_t)len, &back, &err), 0);
				ck_assert_int_eq(bt_check(&g, &back, &err), 0);
			}
			const bt_action *a = &legal[next(&s) % (uint64_t)n];
			ck_assert_int_eq(bt_record_add_action(&rec, a, &err), 0);
			ck_assert_int_eq(bt_apply(&g, a, &err), 0);
		}
		size_t len = bt_record_write_buf(&rec, text, sizeof text);
		ck_assert_uint_lt(len, sizeof text);
		bt_replay_init(&r);
		ck_assert_msg(bt_replay_text(&r, text, len, &err) == 0,
		              "line %d: %s", r.err_line, err.why);
		ck_assert(memcmp(&r.game, &g, sizeof g) == 0);
	}
}
END_TEST

/* ---- the JSON view ---------------------------------------------------- */

START_TEST(test_R10_view_json_of_the_example)
{
	static const char want[] =
		"{\"status\": \"playing\", \"round\": 1, \"turn\": 2, "
		"\"first\": 2, \"players\": 3, \"goal\": 20, \"leisure\": 0, "
		"\"effort\": 1, \"target\": 14, \"officers\": 0, "
		"\"duty\": \"A18\", \"side_in_play\": [\"P07\"], "
		"\"shift_stack\": [\"S01\"], \"scoring_row\": [], "
		"\"hands\": {\"1\": [\"P01\", \"P02\", \"X19\"], "
		"\"2\": [\"P25\", \"P26\", \"X01\", \"X13\"], "
		"\"3\": [\"P08\", \"X07\", \"X08\"]}, "
		"\"decks\": {\"assignment\": 4, \"shift\": 27, \"side\": 20, "
		"\"ability\": 14}, \"ability_discard\": [\"X04\"], "
		"\"set_aside\": 13, \"actions\": 3, \"reprimands\": 0}\n";
	char buf[BT_VIEW_MAX];

	ck_assert_uint_eq(rig_view(EXAMPLE, 0, buf, sizeof buf),
	                  strlen(want));
	ck_assert_str_eq(buf, want);
}
END_TEST

/* Seat 2 sweeps the three cards under the Captain into a new order. */
#define SWEEP EXAMPLE "2 special X13 S04 S02 S03\n"

START_TEST(test_R10_view_json_for_a_seat_hides_hands)
{
	static const char want2[] =
		"{\"status\": \"playing\", \"round\": 1, \"turn\": 3, "
		"\"first\": 2, \"players\": 3, \"goal\": 20, \"leisure\": 0, "
		"\"effort\": 1, \"target\": 14, \"officers\": 0, "
		"\"duty\": \"A18\", \"side_in_play\": [\"P07\"], "
		"\"shift_stack\": [\"S01\"], \"scoring_row\": [], "
		"\"hands\": {\"1\": 3, \"2\": [\"P25\", \"P26\", \"X01\"], "
		"\"3\": 3}, "
		"\"decks\": {\"assignment\": 4, \"shift\": 27, \"side\": 20, "
		"\"ability\": 14}, \"ability_discard\": [\"X04\", \"X13\"], "
		"\"set_aside\": 13, \"actions\": 4, \"reprimands\": 0, "
		"\"known_shift\": [\"S04\", \"S02\", \"S03\"]}\n";
	char buf[BT_VIEW_MAX];

	ck_assert_uint_eq(rig_view(SWEEP, 2, buf, sizeof buf), strlen(want2));
	ck_assert_str_eq(buf, want2);
	/* Seat 1 saw nothing; after a draw seat 2 knows two cards. */
	rig_view(SWEEP, 1, buf, sizeof buf);
	ck_assert_ptr_nonnull(strstr(buf, "\"hands\": {\"1\": [\"P01\", "
	                             "\"P02\", \"X19\"], \"2\": 3, \"3\": 3}"));
	ck_assert_ptr_nonnull(strstr(buf, ", \"known_shift\": []}\n"));
	rig_view(SWEEP "3 work\n", 2, buf, sizeof buf);
	ck_assert_ptr_nonnull(strstr(buf, "\"shift_stack\": [\"S01\", "
	                             "\"S04\"]"));
	ck_assert_ptr_nonnull(strstr(buf, ", \"known_shift\": [\"S02\", "
	                             "\"S03\"]}\n"));
}
END_TEST

START_TEST(test_R10_view_json_is_bounded)
{
	bt_game g;
	char buf[BT_VIEW_MAX], small[40];
	size_t n;

	ck_assert_int_eq(rig_replay(EXAMPLE, &g, NULL, NULL), 0);
	n = bt_view_json(&g, 0, buf, sizeof buf);
	ck_assert_uint_eq(bt_view_json(&g, 0, small, sizeof small), n);
	ck_assert_uint_eq(strlen(small), sizeof small - 1);
	ck_assert(memcmp(small, buf, sizeof small - 1) == 0);
	ck_assert_uint_eq(bt_view_json(&g, 0, NULL, 0), n);
	ck_assert_uint_eq(bt_view_json(&g, 4, buf, sizeof buf), 0);
	ck_assert_uint_eq(bt_view_json(&g, -1, buf, sizeof buf), 0);
}
END_TEST

/*
 * Five rounds that each end in a reprimand: every round's waiting stack
 * line puts the Captain and the First Officer on top.  After round 5 the
 * Assignment Deck is empty and the crew loses (R8.2).
 */
#define LOSS HEAD \
	"stack shift S23 S01 S24\n2 work\n" \
	"stack shift S23 S24\n3 work\n" \
	"stack shift S23 S24\n1 work\n" \
	"stack shift S23 S24\n2 work\n" \
	"stack shift S23 S24\n3 work\n" \
	"1 work\n"

START_TEST(test_R10_view_json_after_the_end)
{
	bt_game g;
	char buf[BT_VIEW_MAX];

	ck_assert_int_eq(rig_replay(LOSS, &g, NULL, NULL), 0);
	ck_assert_int_eq(g.status, BT_LOST);
	rig_view(LOSS, 0, buf, sizeof buf);
	ck_assert_ptr_nonnull(strstr(buf, "{\"status\": \"lost\", "
	                             "\"round\": 5, \"turn\": null, "
	                             "\"first\": 1, "));
	ck_assert_ptr_nonnull(strstr(buf, "\"duty\": null, "));
	ck_assert_ptr_nonnull(strstr(buf, "\"shift_stack\": [], "));
	ck_assert_ptr_nonnull(strstr(buf, "\"decks\": {\"assignment\": 0, "
	                             "\"shift\": 28, "));
	ck_assert_ptr_nonnull(strstr(buf, "\"actions\": 6, "
	                             "\"reprimands\": 5}\n"));
}
END_TEST

static Suite *record_suite(void)
{
	Suite *s = suite_create("record");
	TCase *tc;

	tc = tcase_create("parse");
	tcase_add_test(tc, test_R11_example_replays);
	tcase_add_test(tc, test_R11_header_alone_is_the_state_after_setup);
	tcase_add_test(tc, test_R11_crlf_comments_and_blank_lines_are_accepted);
	tcase_add_test(tc, test_R11_name_of_forty_characters);
	tcase_add_loop_test(tc, test_R11_malformed_line_is_an_error_on_its_line,
	                    0, (int)(sizeof bad / sizeof bad[0]));
	tcase_add_test(tc, test_R11_nul_byte_is_an_error);
	tcase_add_test(tc, test_R11_line_of_1024_bytes_is_accepted);
	suite_add_tcase(s, tc);

	tc = tcase_create("stack");
	tcase_add_test(tc, test_R11_header_stack_puts_cards_on_top);
	tcase_add_test(tc, test_R3_stack_assignment_deals_deck_then_set_aside);
	tcase_add_test(tc, test_R11_waiting_stack_applies_at_next_shuffle);
	tcase_add_test(tc,
	        test_R11_waiting_stack_card_not_in_deck_errors_on_its_line);
	tcase_add_test(tc, test_R11_second_waiting_stack_is_an_error);
	tcase_add_test(tc, test_R11_stack_still_waiting_at_the_end_is_fine);
	suite_add_tcase(s, tc);

	tc = tcase_create("write");
	tcase_add_test(tc, test_R11_write_parse_write_is_identity);
	tcase_add_test(tc, test_R11_write_into_short_buffer_counts_all);
	tcase_add_test(tc,
	        test_R11_record_without_seed_writes_but_does_not_replay);
	tcase_add_test(tc, test_R11_record_is_bounded);
	tcase_add_test(tc, test_R11_seed_hex_round_trips);
	suite_add_tcase(s, tc);

	tc = tcase_create("action");
	tcase_add_loop_test(tc, test_R11_action_line_format_and_parse, 0,
	        (int)(sizeof action_lines / sizeof action_lines[0]));
	tcase_add_test(tc, test_R11_action_format_refuses_bad_shapes);
	tcase_add_loop_test(tc, test_R11_random_games_replay_bit_for_bit, 0, 5);
	suite_add_tcase(s, tc);

	tc = tcase_create("view");
	tcase_add_test(tc, test_R10_view_json_of_the_example);
	tcase_add_test(tc, test_R10_view_json_for_a_seat_hides_hands);
	tcase_add_test(tc, test_R10_view_json_is_bounded);
	tcase_add_test(tc, test_R10_view_json_after_the_end);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr;
	int failed;

	if (sodium_init() < 0)
		return 1;
	sr = srunner_create(record_suite());
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed != 0 ? EXIT_FAILURE : EXIT_SUCCESS;
}
