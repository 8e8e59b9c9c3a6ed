/*
 * check_compose_menu.c - the emails that ask a seat to move, when moves
 * by reply are on (reply_address): the menu of words/menu.h, numbered as
 * menu_build numbers it, a mailto: link per item that decodes to the
 * reply address and the item's number, and a Reply-To and Message-ID
 * whose token reply_token_read accepts for the right game, seat and
 * seq.  Without reply_address nothing of it.  On a real SQLite file,
 * the game of tests/data/web-rigged.rec played through store_append.
 * Also the reply_address setting's checks; the mailer's menu for an
 * email queued without one; and the names that tell a crew's games
 * apart in subjects (a rematch, a practice table).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>
#include <sodium.h>

#include "compose.h"
#include "compose_menu.h"
#include "conf.h"
#include "fixture.h"
#include "loop.h"
#include "menu.h"
#include "message.h"
#include "reply.h"
#include "store.h"

enum {
	TEXT_MAX = 16384,
	ACTIONS_MAX = 64,
	MAILS_MAX = 16,
	T0 = 1700000000
};

static const char BASE[] = "https://bt.example.org/buffer/";
static const char REPLY[] = "play@games.example.org";

static char dir[FIXTURE_PATH_MAX], path[FIXTURE_PATH_MAX];
static store *st;
static token_keys keys;
static compose_ctx cc;
static int64_t last_id;
static int64_t made_at;       /* the clock when the email was composed */

static void setup(void)
{
	unsigned char master[TOKEN_KEY_BYTES];

	ck_assert_int_ge(sodium_init(), 0);
	fixture_scratch("compose_menu", dir, path);
	st = fixture_open(path);
	memset(master, 9, sizeof master);
	token_keys_derive(master, &keys);
	cc = (compose_ctx){ .st = st, .keys = &keys, .base_url = BASE };
	ck_assert_int_eq(compose_reply_address(&cc, REPLY), 0);
	last_id = 0;
	made_at = T0;
	fixture_clock(T0);
}

static void teardown(void)
{
	store_close(st);
	fixture_remove(dir);
	fixture_clock(0);
}

/* ---- the rigged game ---------------------------------------------------- */

static struct {
	char header[TEXT_MAX];
	int n;
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
			ck_assert_int_eq(bt_action_parse(line, len,
			                 &rg.act[rg.n++], &gerr), 0);
			continue;
		}
		hl += (size_t)snprintf(rg.header + hl, sizeof rg.header - hl,
		                       "%s\n", line);
		ck_assert_uint_lt(hl, sizeof rg.header);
	}
	fclose(f);
	ck_assert_int_gt(rg.n, 20);
}

static const char *const EMAILS[BT_MAX_PLAYERS] = {
	"ann@example.org", "bob@example.org", "cyd@example.org",
	"dee@example.org", "eve@example.org", "fay@example.org"
};

static void game_new(char id[STORE_ID_LEN + 1])
{
	static bt_replay r;
	store_error err;
	bt_error gerr;

	rigged();
	bt_replay_init(&r);
	ck_assert_msg(bt_replay_text(&r, rg.header, strlen(rg.header), &gerr)
	              == 0, "%s", gerr.why);
	ck_assert_msg(store_import(st, &r.rec, EMAILS, id, &err) == STORE_OK,
	              "%s", err.why);
	for (int s = 1; s <= 3; s++)
		ck_assert_int_eq(store_set_notify(st, id, s, STORE_NOTIFY_TURN,
		                                  &err), STORE_OK);
}

static void load(const char *id, store_game *g)
{
	store_error err;

	ck_assert_int_eq(store_load(st, id, g, &err), STORE_OK);
}

typedef struct sent {
	int n;
	store_outmail m[MAILS_MAX];
} sent;

static int collect(void *ctx, const store_outmail *m)
{
	sent *s = ctx;

	if (m->id <= last_id)
		return 0;
	if (s->n < MAILS_MAX)
		s->m[s->n++] = *m;
	return 0;
}

/* Plays rigged action k; s gets the outbox rows it added. */
static void play(const char *id, int k, sent *s)
{
	store_error err;

	s->n = 0;
	ck_assert_msg(store_append(st, id, k, &rg.act[k], compose_move, &cc,
	                           NULL, &err) == STORE_OK, "%s", err.why);
	ck_assert_int_eq(store_outbox_list(st, STORE_OUTBOX_ALL, collect, s,
	                                   &err), STORE_OK);
	for (int i = 0; i < s->n; i++)
		if (s->m[i].id > last_id)
			last_id = s->m[i].id;
	if (getenv("COMPOSE_DUMP"))
		for (int i = 0; i < s->n; i++)
			printf("==== %s Reply-To %s\n%s\n", s->m[i].kind,
			       s->m[i].reply_to, s->m[i].body);
}

/* ---- what a menu email must hold ------------------------------------------ */

static int hexval(char c)
{
	return c >= '0' && c <= '9' ? c - '0'
	       : c >= 'A' && c <= 'F' ? c - 'A' + 10
	       : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* RFC 3986 %-decoding of s[0..n) into out; -1 on a bad escape. */
static int decode(const char *s, size_t n, char *out, size_t cap)
{
	size_t o = 0;

	for (size_t i = 0; i < n && o + 1 < cap; i++) {
		if (s[i] != '%') {
			out[o++] = s[i];
			continue;
		}
		if (i + 2 >= n)
			return -1;
		int hi = hexval(s[i + 1]), lo = hexval(s[i + 2]);
		if (hi < 0 || lo < 0)
			return -1;
		out[o++] = (char)(hi * 16 + lo);
		i += 2;
	}
	out[o] = '\0';
	return 0;
}

/* The token of m's Reply-To, read: the right game, seat, seq, expiry. */
static void assert_token(const store_outmail *m, const store_game *g,
                         int seq)
{
	char tok[REPLY_TOKEN_SIZE];
	reply_token t;

	ck_assert_int_eq(reply_token_in_address(m->reply_to, "play", tok), 0);
	ck_assert_ptr_nonnull(strstr(m->reply_to, "@games.example.org"));
	ck_assert_int_eq(reply_token_read(&keys, tok, strlen(tok), &t),
	                 TOKEN_OK);
	ck_assert_str_eq(t.game_id, g->id);
	ck_assert_int_eq(t.seat, m->seat);
	ck_assert_uint_eq(t.seq16, (unsigned)seq & 0xffff);
	ck_assert_uint_eq(t.gen16, (unsigned)g->seats[m->seat - 1].token_gen);
	ck_assert_uint_eq(t.expires_day,
	                  (unsigned)(made_at / 86400) + COMPOSE_REPLY_DAYS);
}

/* The menu of m's seat in g, numbered as menu_build numbers it, with
 * a mailto: link per item (as many as the body had room for) that
 * decodes to the Reply-To and the item's number. */
static void assert_menu(const store_outmail *m, const store_game *g)
{
	static menu mm;
	const char *names[BT_MAX_PLAYERS] = { 0 };
	char want[MENU_NAME_MAX + 16], decoded[600];
	const char *p = m->body;
	int links = 0;

	for (int i = 0; i < g->players; i++)
		names[i] = g->seats[i].name;
	ck_assert_int_gt(menu_build(&g->state, m->seat, names, &mm), 0);
	ck_assert_ptr_nonnull(strstr(m->body, "What you can do (reply with "
	                             "the number, or the words):\n\n1. "));
	ck_assert_ptr_nonnull(strstr(m->body, "Reply with the number, or the "
	                             "words (for example: 1, or "));
	ck_assert_ptr_nonnull(strstr(m->body, "You can add lines starting "
	                             "say: for the table."));
	ck_assert_ptr_nonnull(strstr(m->body, "Your seat's link"));
	for (int i = 0; i < mm.n; i++) {
		snprintf(want, sizeof want, "\n%d. %s", i + 1, mm.item[i].name);
		ck_assert_msg(strstr(m->body, want) != NULL, "no '%s'", want);
	}
	snprintf(want, sizeof want, "\n%d. ", mm.n + 1);
	ck_assert_ptr_null(strstr(m->body, want));
	while ((p = strstr(p, "   mailto:")) != NULL) {
		const char *end = strchr(p, '\n'), *q;
		char addr[STORE_EMAIL_MAX + 1];
		int number;
		p += strlen("   mailto:");
		ck_assert_ptr_nonnull(end);
		q = strchr(p, '?');
		ck_assert_ptr_nonnull(q);
		ck_assert_int_eq(decode(p, (size_t)(q - p), addr, sizeof addr), 0);
		ck_assert_str_eq(addr, m->reply_to);
		ck_assert_int_eq(strncmp(q, "?subject=", 9), 0);
		q += 9;
		const char *amp = strstr(q, "&body=");
		ck_assert_ptr_nonnull(amp);
		ck_assert_int_eq(decode(q, (size_t)(amp - q), decoded,
		                        sizeof decoded), 0);
		ck_assert_int_eq(strncmp(decoded, "Re: Buffer Time", 15), 0);
		for (const char *c = q; c < amp; c++)
			ck_assert_msg(strchr(" \n<>\"", *c) == NULL, "raw '%c'", *c);
		ck_assert_int_eq(sscanf(amp + 6, "%d", &number), 1);
		ck_assert_int_eq(number, ++links);
		p = end;
	}
	ck_assert_int_gt(links, 0);
	ck_assert_int_le(links, mm.n);
	for (const char *l = m->body; *l;) {
		size_t len = strcspn(l, "\n");
		ck_assert_uint_le(len, MSG_LINE_MAX);
		l += len + (l[len] == '\n');
	}
}

/* The message as sent: Reply-To, a Message-ID with the token, the loop
 * header and Auto-Submitted once. */
static void assert_message(const store_outmail *m, const store_game *g,
                           int seq)
{
	static char msg[MSG_MAX];
	msg_env env = { "bt@games.example.org", NULL, T0 };
	char want[400], tok[REPLY_TOKEN_SIZE], id[200];
	const char *at;
	size_t len;
	reply_token t;

	ck_assert_int_eq(msg_build(m, &env, msg, sizeof msg, &len), MSG_OK);
	ck_assert_ptr_nonnull(strstr(msg, "\nX-Buffertime-Loop: "
	                             "games.example.org\n"));
	at = strstr(msg, "Auto-Submitted: auto-generated\n");
	ck_assert_ptr_nonnull(at);
	ck_assert_ptr_null(strstr(at + 1, "Auto-Submitted:"));
	if (!m->reply_to[0]) {
		ck_assert_ptr_null(strstr(msg, "Reply-To:"));
		ck_assert_ptr_nonnull(strstr(msg, "\nMessage-ID: <bt."));
		return;
	}
	snprintf(want, sizeof want, "\nReply-To: %s\n", m->reply_to);
	ck_assert_ptr_nonnull(strstr(msg, want));
	at = strstr(msg, "\nMessage-ID: <");
	ck_assert_ptr_nonnull(at);
	at += strlen("\nMessage-ID: <");
	snprintf(id, sizeof id, "%.*s", (int)strcspn(at, ">"), at);
	snprintf(want, sizeof want, ".%lld@games.example.org",
	         (long long)m->id);
	ck_assert_ptr_nonnull(strstr(id, want));
	ck_assert_int_eq(reply_token_in_msgid(id, tok), 0);
	ck_assert_int_eq(reply_token_read(&keys, tok, strlen(tok), &t),
	                 TOKEN_OK);
	ck_assert_str_eq(t.game_id, g->id);
	ck_assert_int_eq(t.seat, m->seat);
	ck_assert_uint_eq(t.seq16, (unsigned)seq & 0xffff);
}

/* ---- the tests ------------------------------------------------------------ */

START_TEST(test_turn_mails_have_the_menu)
{
	static sent s;
	char id[STORE_ID_LEN + 1];
	store_game g;
	int turns = 0, others = 0;

	game_new(id);
	for (int k = 0; k < rg.n; k++) {
		play(id, k, &s);
		load(id, &g);
		for (int i = 0; i < s.n; i++) {
			const store_outmail *m = &s.m[i];
			if (strcmp(m->kind, "turn") != 0) {
				ck_assert_str_eq(m->reply_to, "");
				ck_assert_ptr_null(strstr(m->body, "mailto:"));
				assert_message(m, &g, g.seq);
				others++;
				continue;
			}
			ck_assert_int_eq(g.state.turn, m->seat);
			assert_token(m, &g, g.seq);
			assert_menu(m, &g);
			assert_message(m, &g, g.seq);
			turns++;
		}
	}
	ck_assert_int_gt(turns, 10);
	ck_assert_int_gt(others, 0);      /* the end of the game */
}
END_TEST

START_TEST(test_off_without_reply_address)
{
	static sent s;
	char id[STORE_ID_LEN + 1];
	store_game g;
	int turns = 0;

	ck_assert_int_eq(compose_reply_address(&cc, ""), 0);
	game_new(id);
	for (int k = 0; k < 6; k++) {
		play(id, k, &s);
		load(id, &g);
		for (int i = 0; i < s.n; i++) {
			ck_assert_str_eq(s.m[i].reply_to, "");
			ck_assert_ptr_null(strstr(s.m[i].body, "mailto:"));
			ck_assert_ptr_null(strstr(s.m[i].body, "What you can do"));
			assert_message(&s.m[i], &g, g.seq);
			turns += strcmp(s.m[i].kind, "turn") == 0;
		}
	}
	ck_assert_int_gt(turns, 2);
}
END_TEST

START_TEST(test_reminder_and_nudge)
{
	static store_mail m;
	static store_outmail o;
	char id[STORE_ID_LEN + 1];
	store_game g;

	game_new(id);
	load(id, &g);
	made_at = g.turn_since + 3 * 86400;   /* a day number later */
	fixture_clock(made_at);
	ck_assert_int_eq(compose_reminder(&cc, &g, 1, &m), 1);
	memset(&o, 0, sizeof o);
	o.id = 7;
	o.seat = m.seat;
	snprintf(o.game, sizeof o.game, "%s", g.id);
	snprintf(o.to, sizeof o.to, "%s", m.to);
	snprintf(o.subject, sizeof o.subject, "%s", m.subject);
	snprintf(o.body, sizeof o.body, "%s", m.body);
	snprintf(o.reply_to, sizeof o.reply_to, "%s", m.reply_to);
	assert_token(&o, &g, g.seq);
	assert_menu(&o, &g);
	assert_message(&o, &g, g.seq);
	ck_assert_int_eq(compose_nudge(&cc, &g, 2, &m), 1);
	snprintf(o.body, sizeof o.body, "%s", m.body);
	snprintf(o.reply_to, sizeof o.reply_to, "%s", m.reply_to);
	assert_token(&o, &g, g.seq);
	assert_menu(&o, &g);
	/* the new-game email of a seat that does not move first asks for
	 * no move: no Reply-To, no menu */
	int other = g.state.turn % g.players + 1;
	ck_assert_int_eq(compose_seat(&cc, &g, other, NULL, &m), 1);
	ck_assert_str_eq(m.reply_to, "");
	ck_assert_ptr_null(strstr(m.body, "Reply with the number"));
	/* the first to move can move by reply from its new-game email */
	ck_assert_int_eq(compose_seat(&cc, &g, g.state.turn, NULL, &m), 1);
	snprintf(o.body, sizeof o.body, "%s", m.body);
	snprintf(o.reply_to, sizeof o.reply_to, "%s", m.reply_to);
	assert_token(&o, &g, g.seq);
	assert_menu(&o, &g);
}
END_TEST

START_TEST(test_reply_address_checked)
{
	static conf c;
	char why[CONF_WHY_MAX];
	compose_ctx x = { .st = st, .keys = &keys, .base_url = BASE };

	conf_defaults(&c);
	ck_assert_str_eq(c.reply_address, "");
	ck_assert_int_eq(conf_finish(&c, why, sizeof why), 0);
	ck_assert_int_eq(conf_set(&c, "reply_address", REPLY, why,
	                          sizeof why), 0);
	ck_assert_int_eq(conf_finish(&c, why, sizeof why), 0);
	ck_assert_int_eq(conf_set(&c, "reply_address", "thirteen-char@x.org",
	                          why, sizeof why), 0);
	ck_assert_int_eq(conf_finish(&c, why, sizeof why), 0);
	ck_assert_int_eq(compose_reply_address(&x, c.reply_address), 0);
	ck_assert_str_eq(x.reply_local, "thirteen-char");
	ck_assert_str_eq(x.reply_domain, "x.org");
	/* one byte more and the token would pass 64 */
	ck_assert_int_eq(conf_set(&c, "reply_address", "fourteen-chars@x.org",
	                          why, sizeof why), 0);
	ck_assert_int_eq(conf_finish(&c, why, sizeof why), -1);
	ck_assert_ptr_nonnull(strstr(why, "at most 13 characters"));
	ck_assert_int_eq(compose_reply_address(&x, c.reply_address), -1);
	ck_assert_str_eq(x.reply_local, "");
	static const char *const bad[] = {
		"play", "play@", "@x.org", "pl+ay@x.org", "pl ay@x.org",
		"play@x..org", ".play@x.org", "play@x_y.org", "play@@x.org"
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		ck_assert_int_eq(conf_set(&c, "reply_address", bad[i], why,
		                          sizeof why), 0);
		ck_assert_msg(conf_finish(&c, why, sizeof why) == -1, "%s",
		              bad[i]);
		ck_assert_ptr_nonnull(strstr(why, "reply_address"));
		ck_assert_int_eq(compose_reply_address(&x, bad[i]), -1);
	}
}
END_TEST

/* store_mail m as the outbox row id of game g would hold it. */
static void as_row(const store_mail *m, const store_game *g, int64_t id,
                   store_outmail *o)
{
	memset(o, 0, sizeof *o);
	o->id = id;
	o->seat = m->seat;
	o->created = made_at;
	snprintf(o->game, sizeof o->game, "%s", g->id);
	snprintf(o->kind, sizeof o->kind, "%s", m->kind);
	snprintf(o->to, sizeof o->to, "%s", m->to);
	snprintf(o->subject, sizeof o->subject, "%s", m->subject);
	snprintf(o->body, sizeof o->body, "%s", m->body);
	snprintf(o->reply_to, sizeof o->reply_to, "%s", m->reply_to);
}

/* An email queued by a path whose replies were off (the web's new game
 * and rematch were) gets its menu and Reply-To from the mailer
 * (compose_menu_late), for the seat to move only, once. */
START_TEST(test_the_mailer_adds_a_forgotten_menu)
{
	static store_mail m;
	static store_outmail o;
	compose_ctx off = { .st = st, .keys = &keys, .base_url = BASE };
	char id[STORE_ID_LEN + 1];
	store_game g;
	const char *menu_at, *link_at;

	game_new(id);
	load(id, &g);
	ck_assert_int_eq(compose_seat(&off, &g, g.state.turn, NULL, &m), 1);
	ck_assert_str_eq(m.reply_to, "");
	as_row(&m, &g, 11, &o);
	ck_assert_int_eq(compose_menu_late(&off, &g, &o), 0);   /* still off */
	ck_assert_str_eq(o.reply_to, "");
	ck_assert_int_eq(compose_menu_late(&cc, &g, &o), 1);
	assert_token(&o, &g, g.seq);
	assert_menu(&o, &g);
	assert_message(&o, &g, g.seq);
	menu_at = strstr(o.body, "What you can do");
	link_at = strstr(o.body, "Your seat's link");
	ck_assert_ptr_nonnull(menu_at);
	ck_assert_ptr_nonnull(link_at);
	ck_assert_int_lt((int)(menu_at - o.body), (int)(link_at - o.body));
	/* once: a row with a Reply-To is left as it is */
	ck_assert_int_eq(compose_menu_late(&cc, &g, &o), 0);
	ck_assert_ptr_null(strstr(strstr(o.body, "What you can do") + 1,
	                          "What you can do"));
	/* a seat not to move, and an email that asks nothing, get none */
	int other = g.state.turn % g.players + 1;
	ck_assert_int_eq(compose_seat(&off, &g, other, NULL, &m), 1);
	as_row(&m, &g, 12, &o);
	ck_assert_int_eq(compose_menu_late(&cc, &g, &o), 0);
	ck_assert_str_eq(o.reply_to, "");
	ck_assert_int_eq(compose_seat(&off, &g, g.state.turn, NULL, &m), 1);
	as_row(&m, &g, 13, &o);
	snprintf(o.kind, sizeof o.kind, "digest");
	ck_assert_int_eq(compose_menu_late(&cc, &g, &o), 0);
	ck_assert_str_eq(o.reply_to, "");
}
END_TEST

/* A game of two, played to its end with its first legal moves. */
static void play_out(const char *id)
{
	static bt_action legal[BT_MAX_LEGAL];
	store_error err;
	store_game g;

	for (int moves = 0;; moves++) {
		load(id, &g);
		if (g.state.status != BT_PLAYING)
			return;
		int n = bt_legal(&g.state, legal, BT_MAX_LEGAL);
		ck_assert_int_lt(moves, 3000);
		ck_assert_int_gt(n, 0);
		ck_assert_int_eq(store_append(st, id, g.seq, &legal[moves % n],
		                              NULL, NULL, NULL, &err), STORE_OK);
	}
}

/* Plays game id out and makes its rematch, again. */
static void rematch_of(const char *id, char again[STORE_ID_LEN + 1])
{
	store_error err;
	int made = 0;

	play_out(id);
	ck_assert_int_eq(store_rematch(st, id, NULL, NULL, NULL, again, &made,
	                               &err), STORE_OK);
	ck_assert_int_eq(made, 1);
}

/* The subject of seat 1's "your seat" email in game id (a rematch of
 * of, or NULL) and of its reminder, into seat_s and remind_s. */
static void subjects(const char *id, const char *of, char *seat_s,
                     char *remind_s)
{
	static store_mail m;
	store_game g;

	load(id, &g);
	ck_assert_int_eq(compose_seat(&cc, &g, 1, of, &m), 1);
	snprintf(seat_s, 200, "%s", m.subject);
	fixture_clock(g.turn_since + 3 * 86400);
	ck_assert_msg(compose_reminder(&cc, &g, 1, &m) == 1, "%s: turn %d "
	              "status %d notify %d", seat_s, g.state.turn,
	              g.state.status, g.seats[g.state.turn - 1].notify);
	snprintf(remind_s, 200, "%s", m.subject);
	fixture_clock(T0);
}

#define ASSERT_PREFIX(s, want) \
	ck_assert_msg(strncmp((s), (want), strlen(want)) == 0, "%s", (s))

/* A game, its rematch, the rematch's rematch and a practice table of the
 * same crew have subjects of their own. */
START_TEST(test_a_crew_s_games_are_named)
{
	static char seat_s[4][200], remind_s[4][200];
	store_new_game ng = { .players = 2, .first = 1, .seed = "5" };
	char id[4][STORE_ID_LEN + 1];
	store_error err;

	ng.names[0] = "Ann";
	ng.names[1] = "Ben";
	ng.emails[0] = EMAILS[0];
	ng.emails[1] = EMAILS[1];
	ck_assert_int_eq(store_create(st, &ng, id[0], &err), STORE_OK);
	subjects(id[0], NULL, seat_s[0], remind_s[0]);
	ck_assert_str_eq(seat_s[0], "Buffer Time: your seat in a new game "
	                 "with Ben");
	ASSERT_PREFIX(remind_s[0], "Buffer Time: reminder, your turn "
	                 "(round 1, game with ");
	/* each rematch's seat email is written before the chain names it */
	rematch_of(id[0], id[1]);
	subjects(id[1], id[0], seat_s[1], remind_s[1]);
	ck_assert_str_eq(seat_s[1], "Buffer Time: rematch with Ben");
	ASSERT_PREFIX(remind_s[1], "Buffer Time: reminder, your turn "
	                 "(round 1, rematch with ");
	rematch_of(id[1], id[2]);
	subjects(id[2], id[1], seat_s[2], remind_s[2]);
	ck_assert_str_eq(seat_s[2], "Buffer Time: rematch 2 with Ben");
	ASSERT_PREFIX(remind_s[2], "Buffer Time: reminder, your turn "
	                 "(round 1, rematch 2 with ");
	ng.practice = 1;
	ck_assert_int_eq(store_create(st, &ng, id[3], &err), STORE_OK);
	subjects(id[3], NULL, seat_s[3], remind_s[3]);
	ck_assert_str_eq(seat_s[3], "Buffer Time: your seat in a new practice "
	                 "game with Ben");
	ASSERT_PREFIX(remind_s[3], "Buffer Time: reminder, your turn "
	                 "(round 1, practice game with ");
}
END_TEST

int main(void)
{
	Suite *s = suite_create("compose_menu");
	TCase *tc = tcase_create("compose_menu");
	SRunner *sr;
	int failed;

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_turn_mails_have_the_menu);
	tcase_add_test(tc, test_off_without_reply_address);
	tcase_add_test(tc, test_reminder_and_nudge);
	tcase_add_test(tc, test_reply_address_checked);
	tcase_add_test(tc, test_the_mailer_adds_a_forgotten_menu);
	tcase_add_test(tc, test_a_crew_s_games_are_named);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
