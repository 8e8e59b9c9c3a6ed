/*
 * check_reply_text.c - the written part of a reply and what it asks for
 * (mail/inbound_text.h, inbound_reply.h): the quote cutter on tables of
 * texts and on every quote header of tests/data/attributions.txt, and
 * the command reader on tables of texts (numbers with words after them
 * too), with every string that comes out valid UTF-8.  The whole emails
 * of the corpus are check_inbound's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "inbound_reply.h"
#include "inbound_text.h"
#include "utf8.h"

#define N(a) ((int)(sizeof(a) / sizeof((a)[0])))

enum { FILE_MAX = 2 * 1024 * 1024, HEADERS_MAX = 64, HEADER_MAX = 600 };

static char headers[HEADERS_MAX][HEADER_MAX];
static int n_headers;

static int valid_utf8(const char *s, size_t cap)
{
	size_t n = strnlen(s, cap), i = 0, k;

	if (n >= cap)
		return 0;
	while (i < n) {
		k = utf8_seq((const unsigned char *)s + i, n - i);
		if (k == 0)
			return 0;
		i += k;
	}
	return 1;
}

/* tests/data/attributions.txt: a header a line, or two lines when the
 * first ends in '\\'. */
static void read_headers(void)
{
	char path[1200];
	size_t len;
	char *text, *line, *next;
	int more = 0;
	FILE *f;

	const char *data = getenv("TESTDATA");

	snprintf(path, sizeof path, "%s/attributions.txt",
	         data ? data : "tests/data");
	f = fopen(path, "rb");      /* no ck_assert outside a test */
	text = f ? malloc(FILE_MAX + 1) : NULL;
	if (text == NULL) {
		if (f)
			fclose(f);
		return;
	}
	len = fread(text, 1, FILE_MAX, f);
	text[len] = '\0';
	fclose(f);
	for (line = text; *line && n_headers < HEADERS_MAX; line = next) {
		char *h = headers[more ? n_headers - 1 : n_headers];
		size_t n;

		next = strchr(line, '\n');
		next = next ? next + 1 : line + strlen(line);
		n = (size_t)(next - line) - (next[-1] == '\n');
		if (!more && (n == 0 || *line == '#'))
			continue;
		if (!more)
			n_headers++;
		more = n > 0 && line[n - 1] == '\\';
		snprintf(h + strlen(h), HEADER_MAX - strlen(h), "%.*s%s",
		         (int)(n - (size_t)more), line, more ? "\n" : "");
	}
	free(text);
}

/* ---- the quote cutter --------------------------------------------------- */

static const struct {
	const char *in, *want;
} cuts[] = {
	{ "2\n\nOn Mon, 3 Mar 2025 at 10:00, Buffer Time <t@x.org> wrote:\n"
	  "> It is your turn.\n", "2" },
	/* wrapped over two lines, as Gmail does */
	{ "2\n\nOn Mon, 3 Mar 2025 at 10:00, Buffer Time <turn@games.example.org>\n"
	  "wrote:\n\n> It is your turn.\n", "2" },
	/* bottom-posted: the answer below the quote */
	{ "On Mon, Mar 03, 2025 at 10:00AM +0000, Buffer Time wrote:\n"
	  "> It is your turn.\n> 1. Play A03\n\n3\n\n-- \nBob\n", "3" },
	{ "> quoted\nanswer one\n> more quoted\nanswer two\n",
	  "answer one\nanswer two" },
	/* an unmarked quote (Outlook) is cut with all after it */
	{ "1\n\n-----Original Message-----\nFrom: a\nIt is your turn.\n2\n", "1" },
	{ "1\r\n\r\nFrom: Buffer Time <t@x.org>\nSent: Monday, March 3, 2025\n"
	  "To: bob\nSubject: turn\n\nIt is your turn.\n", "1" },
	{ "hand off\n\n________________________________\nFrom: Buffer Time\n"
	  "Sent: Monday\n", "hand off" },
	{ "Am 03.03.2025 um 10:00 schrieb Buffer Time <t@x.org>:\nDein Zug.\n", "" },
	{ "1\nLe lun. 3 mars 2025 à 10:00, Buffer Time <t@x.org> a écrit :\n"
	  "> C'est à vous.\n", "1" },
	{ "1\nEl lun, 3 mar 2025 a las 10:00, Buffer Time (<t@x.org>) escribió:\n"
	  "> Tu turno\n", "1" },
	{ "1\nIl giorno lun 3 mar 2025 alle ore 10:00 Buffer Time <t@x.org> ha "
	  "scritto:\n> Tocca a te\n", "1" },
	{ "1\nOp ma 3 mrt. 2025 om 10:00 schreef Buffer Time <t@x.org>:\n> Jij\n",
	  "1" },
	{ "1\nEm seg., 3 de mar. de 2025 às 10:00, Buffer Time <t@x.org> "
	  "escreveu:\n> Sua vez\n", "1" },
	{ "2\n\nSent from my iPhone\n\n> On 3 Mar 2025, at 10:00, B wrote:\n", "2" },
	{ "2\nSent from my iPad", "2" },
	{ "2\n\nGet Outlook for Android<https://aka.ms/AAb9ysg>\n", "2" },
	{ "2\nGet Outlook for iOS\n", "2" },
	{ "2\nSent from Mail for Windows\n", "2" },
	{ "2\nVon meinem iPhone gesendet\n", "2" },
	{ "2\nEnvoyé de mon iPhone\n", "2" },
	{ "2\n\nSent from Yahoo Mail on Android\n", "2" },
	{ "2\nSent from my Galaxy\n", "2" },
	{ "2\nSent from my Samsung Galaxy smartphone.\n", "2" },
	{ "say: go\n\n---------- Forwarded message ---------\nFrom: B\n\n3\n",
	  "say: go" },
	{ "1\n\nBegin forwarded message:\n\n> x\n", "1" },
	{ "\n\n\n  1  \n\n\n\nsay: hi   \n\n\n", "1\n\nsay: hi" },
	/* a line that merely starts like a header is kept */
	{ "On it: 2\nFrom: me\n", "On it: 2\nFrom: me" },
	/* a line ending in ':' is a quote header only above quoted lines,
	 * and only with a name, an address or a date; say: lines are the
	 * player's; a header's wrap does not take the player's line above */
	{ "say: my plan:\n\nwork first\n", "say: my plan:\n\nwork first" },
	{ "Here is my move:\n2\n", "Here is my move:\n2" },
	{ "2\nAnn <ann@example.org>:\nhi\n", "2\nAnn <ann@example.org>:\nhi" },
	{ "wrote:\n> x\n2\n", "wrote:\n2" },
	{ "say: at 10:30, Ann <ann@example.org> wrote:\n> x\n2\n",
	  "say: at 10:30, Ann <ann@example.org> wrote:\n2" },
	{ "I can play at 10:30\nAnn <ann@example.org> wrote:\n> x\n",
	  "I can play at 10:30" },
	{ "On second thought, 3\nAnn <ann@example.org> wrote:\n> x\n",
	  "On second thought, 3" },
	{ "", "" },
	{ "> all quoted\n> nothing else", "" },
};

START_TEST(test_cut)
{
	char out[1024];

	inbound_written(cuts[_i].in, out, sizeof out);
	ck_assert_str_eq(out, cuts[_i].want);
}
END_TEST

START_TEST(test_cut_bounds)
{
	char small[4], big[20000];
	size_t i;

	ck_assert_uint_eq(inbound_written("hello\nworld", small, sizeof small), 0);
	ck_assert_str_eq(small, "");
	ck_assert_uint_eq(inbound_written("abc", small, 0), 0);
	for (i = 0; i + 1 < sizeof big; i++)
		big[i] = i % 3 == 2 ? '\n' : 'x';
	big[sizeof big - 1] = '\0';
	{
		static char out[20000];

		ck_assert_uint_le(inbound_written(big, out, sizeof out), sizeof big);
		ck_assert(strlen(out) > 1000);
	}
}
END_TEST

/* Each quote header of tests/data/attributions.txt above quoted lines,
 * below the move or above it: the move alone is left. */
START_TEST(test_attribution)
{
	static char in[3][2048], out[2048];
	static const char *const want[3] = { "2 please", "2 please", "3" };
	const char *h = headers[_i];

	snprintf(in[0], sizeof in[0], "2 please\n%s\n> It is your turn.\n"
	         "> 1. Get to work\n", h);
	snprintf(in[1], sizeof in[1], "2 please\n\n%s\n\n> Your turn.\n", h);
	snprintf(in[2], sizeof in[2], "%s\n> It is your turn.\n>\n"
	         "> 1. Get to work\n\n3\n\n-- \nAnn\n", h);
	for (int f = 0; f < 3; f++) {
		inbound_written(in[f], out, sizeof out);
		ck_assert_msg(strcmp(out, want[f]) == 0, "under '%s': '%s', "
		              "expected '%s'", h, out, want[f]);
	}
}
END_TEST

START_TEST(test_attributions_present)
{
	ck_assert_msg(n_headers >= 20, "only %d quote headers", n_headers);
}
END_TEST

/* ---- the command reader ------------------------------------------------- */

static const struct {
	const char *in;
	int move;
	const char *words, *order, *say0;
	int n_says, bad;
} cmds[] = {
	{ "2", 2, "", "", NULL, 0, 0 },
	{ "2.", 2, "", "", NULL, 0, 0 },
	{ "#12", 12, "", "", NULL, 0, 0 },
	{ "(3)", 3, "", "", NULL, 0, 0 },
	{ "  99  ", 99, "", "", NULL, 0, 0 },
	{ "100", 0, "100", "", NULL, 0, 0 },
	{ "0", 0, "0", "", NULL, 0, 0 },
	{ "(3", 0, "3", "", NULL, 0, 0 },
	{ "Hand Off!", 0, "hand off", "", NULL, 0, 0 },
	{ "  \"Play   the  Shift Stack.\" ", 0, "play the shift stack", "",
	  NULL, 0, 0 },
	{ "say: nice one\n2", 2, "", "", "nice one", 1, 0 },
	{ "SAY:loud\nSay : spaced\n1", 1, "", "", "loud", 2, 0 },
	{ "say:\n1", 1, "", "", NULL, 0, 0 },
	{ "sayonara", 0, "sayonara", "", NULL, 0, 0 },
	{ "order 3 1 2\nsensor sweep", 0, "sensor sweep", "3 1 2", NULL, 0, 0 },
	{ "Order: 2,1\n1", 1, "", "2 1", NULL, 0, 0 },
	{ "order 1, 3", 0, "", "1 3", NULL, 0, 0 },
	{ "order 4\n2", 2, "", "", NULL, 0, 1 },
	{ "order 1 2 3 1\n2", 2, "", "", NULL, 0, 1 },
	{ "order 12\n2", 2, "", "", NULL, 0, 1 },
	{ "order\n2", 2, "", "", NULL, 0, 1 },
	{ "orderly retreat", 0, "orderly retreat", "", NULL, 0, 0 },
	{ "1\n2\nsay: after the move", 1, "", "", "after the move", 1, 0 },
	{ "", 0, "", "", NULL, 0, 0 },
	{ "Spielen Sie Ä03", 0, "spielen sie Ä03", "", NULL, 0, 0 },
};

START_TEST(test_commands)
{
	inbound_reply r;
	char order[16] = "";
	int i;

	inbound_read_reply(cmds[_i].in, &r);
	ck_assert_int_eq(r.move, cmds[_i].move);
	ck_assert_str_eq(r.words, cmds[_i].words);
	for (i = 0; i < r.n_order; i++)
		snprintf(order + strlen(order), sizeof order - strlen(order), "%s%d",
		         i ? " " : "", r.order[i]);
	ck_assert_str_eq(order, cmds[_i].order);
	ck_assert_int_eq(r.n_says, cmds[_i].n_says);
	if (cmds[_i].say0)
		ck_assert_str_eq(r.says[0], cmds[_i].say0);
	ck_assert_int_eq(r.order_bad, cmds[_i].bad);
}
END_TEST

/* A number with words after it is the number; unless the words count
 * the game's things, or the line names another number. */
static const struct {
	const char *in;
	int move;
	const char *words;
	int several;
} leads[] = {
	{ "2 \xe2\x80\x94 let's go", 2, "", 0 }, { "3 please", 3, "", 0 },
	{ "2, then I'll log", 2, "", 0 }, { "2. sounds good", 2, "", 0 },
	{ "#2 go", 2, "", 0 }, { "(2) ok", 2, "", 0 }, { "2!", 2, "", 0 },
	{ "2: work it is", 2, "", 0 }, { "2nd", 2, "", 0 },
	{ "3rd one, please", 3, "", 0 }, { "Option 2", 2, "", 0 },
	{ "number #3 please", 3, "", 0 }, { "No.2", 2, "", 0 },
	{ "2 \xe2\x80\x94 see you at 10:30", 2, "", 0 },
	{ "2\nsay: 3 is too risky", 2, "", 0 },
	{ "2 cards", 0, "2 cards", 0 }, { "3 Officers", 0, "3 officers", 0 },
	{ "100 please", 0, "100 please", 0 }, { "0, go", 0, "0, go", 0 },
	{ "2x", 0, "2x", 0 }, { "2.5", 0, "2.5", 0 }, { "10:30", 0, "10:30", 0 },
	{ "1234 go", 0, "1234 go", 0 }, { "1 or 2", 0, "", 1 },
	{ "2-3", 0, "", 1 }, { "2\xe2\x80\x93" "3", 0, "", 1 },
	{ "2/3", 0, "", 1 }, { "2, 3", 0, "", 1 }, { "2 and then 3", 0, "", 1 },
	{ "2nd or 3rd", 0, "", 1 }, { "2 (not 3)", 0, "", 1 },
	/* a line ending in ':' introduces the move below it */
	{ "Here is my move:\n2", 2, "", 0 }, { "Plan:", 0, "plan", 0 },
	{ "My move:\nget to work\nsay: hi", 0, "get to work", 0 },
	{ "2:\nsounds good", 2, "", 0 }, { "say: my plan:\nwork", 0, "work", 0 },
	/* the commands keep their meaning */
	{ "order 3 1 2\n2 please", 2, "", 0 }, { "say: 2 please", 0, "", 0 },
};

START_TEST(test_lead_numbers)
{
	inbound_reply r;

	inbound_read_reply(leads[_i].in, &r);
	ck_assert_msg(r.move == leads[_i].move, "'%s': move %d, expected %d",
	              leads[_i].in, r.move, leads[_i].move);
	ck_assert_str_eq(r.words, leads[_i].words);
	ck_assert_str_eq(r.several, leads[_i].several ? leads[_i].in : "");
}
END_TEST

START_TEST(test_command_bounds)
{
	static char text[20000];
	inbound_reply r;
	size_t k = 0;
	int i;

	for (i = 0; i < 10; i++)
		k += (size_t)snprintf(text + k, sizeof text - k, "say: line %d\n", i);
	text[k++] = 's';
	text[k++] = 'a';
	text[k++] = 'y';
	text[k++] = ':';
	for (i = 0; i < 400; i++) {       /* é: a cut falls inside one */
		text[k++] = '\xc3';
		text[k++] = '\xa9';
	}
	text[k++] = '\n';
	for (i = 0; i < 300; i++)
		text[k++] = i % 7 ? 'w' : ' ';
	text[k] = '\0';
	inbound_read_reply(text, &r);
	ck_assert_int_eq(r.n_says, REPLY_SAYS_MAX);
	ck_assert_int_eq(r.says_dropped, 3);
	ck_assert_uint_le(strlen(r.words), REPLY_WORDS_LEN);
	ck_assert(strlen(r.words) > 100);
	ck_assert(valid_utf8(r.words, sizeof r.words));
	text[0] = '\0';
	k = (size_t)snprintf(text, sizeof text, "say:");
	for (i = 0; i < 400; i++) {
		text[k++] = '\xc3';
		text[k++] = '\xa9';
	}
	text[k] = '\0';
	inbound_read_reply(text, &r);
	ck_assert_int_eq(r.n_says, 1);
	ck_assert_uint_eq(strlen(r.says[0]), REPLY_SAY_LEN);
	ck_assert(valid_utf8(r.says[0], sizeof r.says[0]));
}
END_TEST


static Suite *reply_text_suite(void)
{
	Suite *s = suite_create("reply_text");
	TCase *tc = tcase_create("cut");

	tcase_add_loop_test(tc, test_cut, 0, N(cuts));
	tcase_add_test(tc, test_cut_bounds);
	tcase_add_test(tc, test_attributions_present);
	tcase_add_loop_test(tc, test_attribution, 0, n_headers);
	suite_add_tcase(s, tc);
	tc = tcase_create("commands");
	tcase_add_loop_test(tc, test_commands, 0, N(cmds));
	tcase_add_loop_test(tc, test_lead_numbers, 0, N(leads));
	tcase_add_test(tc, test_command_bounds);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr;
	int failed;

	read_headers();
	sr = srunner_create(reply_text_suite());
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
