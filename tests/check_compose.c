/*
 * check_compose.c - the words of every email (mail/compose.c), on a real
 * SQLite file: the game of tests/data/web-rigged.rec (every action kind,
 * a Sensor Sweep and a Hand Off in round 1, a loss at the end) played
 * through store_append with compose_move, and every move's outbox rows
 * checked against compose.h's who-gets-what for each notify setting.
 * Also: R10 in mails, links that are valid tokens for their seat, the
 * history and table talk of a turn email, bodies cut to fit with long
 * UTF-8 names, reminders, nudges, digests and new-seat emails.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <check.h>
#include <sodium.h>

#include "fixture.h"
#include "compose.h"
#include "describe.h"
#include "rig.h"
#include "store.h"
#include "store_block.h"
#include "token.h"
#include "utf8.h"

enum {
	TEXT_MAX = 16384,
	ACTIONS_MAX = 64,
	MAILS_MAX = 16,           /* outbox rows one move may add, kept */
	LINE_MAX_MAIL = 998,      /* RFC 5322 line limit */
	T0 = 1700000000           /* the tests' clock (BUFFERTIME_NOW) */
};

static const char BASE[] = "https://bt.example.org/buffer/";

static char dir[FIXTURE_PATH_MAX], path[FIXTURE_PATH_MAX];
static store *st;
static token_keys keys;
static compose_ctx cc;
static int64_t last_id;       /* the newest outbox row looked at */

/* ---- the rig ----------------------------------------------------------- */

static void setup(void)
{
	unsigned char master[TOKEN_KEY_BYTES];

	ck_assert_int_ge(sodium_init(), 0);
	fixture_scratch("compose", dir, path);
	st = fixture_open(path);
	memset(master, 7, sizeof master);
	token_keys_derive(master, &keys);
	cc = (compose_ctx){ .st = st, .keys = &keys, .base_url = BASE };
	last_id = 0;
	fixture_clock(T0);
}

static void teardown(void)
{
	store_close(st);
	fixture_remove(dir);
	fixture_clock(0);
}


/* web-rigged.rec split: its header (names replaced) and its actions. */
static struct {
	char header[TEXT_MAX];
	int n;
	char text[ACTIONS_MAX][BT_ACTION_TEXT_MAX];
	bt_action act[ACTIONS_MAX];
} rg;

/* Reads the rigged record with names for seats 1..3 ("" : no name). */
static void rigged(const char *const names[3])
{
	char path_[600], line[1100];
	size_t hl = 0;
	bt_error gerr;
	FILE *f;

	memset(&rg, 0, sizeof rg);
	snprintf(path_, sizeof path_, "%s/web-rigged.rec", fixture_data_dir());
	ck_assert_ptr_nonnull(f = fopen(path_, "r"));
	while (fgets(line, sizeof line, f)) {
		size_t len = strcspn(line, "\n");
		line[len] = '\0';
		if (line[0] >= '1' && line[0] <= '9') {
			ck_assert_int_lt(rg.n, ACTIONS_MAX);
			ck_assert_uint_lt(len, sizeof rg.text[0]);
			memcpy(rg.text[rg.n], line, len + 1);
			ck_assert_int_eq(bt_action_parse(line, len,
			                 &rg.act[rg.n], &gerr), 0);
			rg.n++;
			continue;
		}
		if (strncmp(line, "name ", 5) == 0) {
			int seat = line[5] - '0';
			if (!names[seat - 1][0])
				continue;
			snprintf(line, sizeof line, "name %d %s", seat,
			         names[seat - 1]);
		}
		hl += (size_t)snprintf(rg.header + hl, sizeof rg.header - hl,
		                       "%s\n", line);
		ck_assert_uint_lt(hl, sizeof rg.header);
	}
	fclose(f);
	ck_assert_int_gt(rg.n, 20);
}

static const char *const ABC[3] = { "Ann", "Bob", "Cyd" };
static const char *const EMAILS[BT_MAX_PLAYERS] = {
	"ann@example.org", "bob@example.org", "cyd@example.org",
	"dee@example.org", "eve@example.org", "fay@example.org"
};

/* Imports the rigged header as a new game with emails and settings. */
static void game_new(const char *const emails[BT_MAX_PLAYERS],
                     const store_notify notify[3], char id[STORE_ID_LEN + 1])
{
	static bt_replay r;
	store_error err;
	bt_error gerr;

	bt_replay_init(&r);
	ck_assert_msg(bt_replay_text(&r, rg.header, strlen(rg.header), &gerr)
	              == 0, "%s", gerr.why);
	ck_assert_msg(store_import(st, &r.rec, emails, id, &err) == STORE_OK,
	              "%s", err.why);
	for (int s = 1; s <= 3; s++)
		ck_assert_int_eq(store_set_notify(st, id, s, notify[s - 1],
		                                  &err), STORE_OK);
}

static void load(const char *id, store_game *g)
{
	store_error err;

	ck_assert_int_eq(store_load(st, id, g, &err), STORE_OK);
}

/* The outbox rows added since the last look. */
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

/* With COMPOSE_DUMP set, the emails go to stdout too, to be read. */
static void dump(const store_outmail *m)
{
	if (getenv("COMPOSE_DUMP"))
		printf("==== %s to seat %d <%s>\nSubject: %s\n\n%s\n", m->kind,
		       m->seat, m->to, m->subject, m->body);
}

static void show(const store_mail *m)
{
	if (getenv("COMPOSE_DUMP"))
		printf("==== %s to seat %d <%s>\nSubject: %s\n\n%s\n", m->kind,
		       m->seat, m->to, m->subject, m->body);
}

static void new_mails(sent *s)
{
	store_error err;

	s->after = last_id;
	s->n = 0;
	ck_assert_int_eq(store_outbox_list(st, STORE_OUTBOX_ALL, collect, s,
	                                   &err), STORE_OK);
	ck_assert_int_le(s->n, MAILS_MAX);
	for (int i = 0; i < s->n; i++)
		dump(&s->m[i]);
}

/* Plays rigged action k on game id, as the web does; s gets its mails. */
static void play(const char *id, int k, sent *s)
{
	store_game g;
	store_error err;

	load(id, &g);
	ck_assert_int_eq(g.seq, k);
	ck_assert_msg(store_append(st, id, k, &rg.act[k], compose_move, &cc,
	                           NULL, &err) == STORE_OK, "%s: %s",
	              rg.text[k], err.why);
	new_mails(s);
}

/* Action k in words as viewer reads it, from the states around it. */
static void words_of(const store_game *g, int k, int viewer, char *buf)
{
	static char text[TEXT_MAX];
	static bt_game before, after;
	size_t n = (size_t)snprintf(text, sizeof text, "%s", rg.header);

	for (int i = 0; i < k; i++)
		n += (size_t)snprintf(text + n, sizeof text - n, "%s\n",
		                      rg.text[i]);
	ck_assert_int_eq(rig_replay(text, &before, NULL, NULL), 0);
	snprintf(text + n, sizeof text - n, "%s\n", rg.text[k]);
	ck_assert_int_eq(rig_replay(text, &after, NULL, NULL), 0);
	describe_action(&before, &after, &rg.act[k], g, viewer, buf,
	                DESCRIBE_MAX);
}

/* The mail of s to seat, or NULL. */
static const store_outmail *to_seat(const sent *s, int seat)
{
	for (int i = 0; i < s->n; i++)
		if (s->m[i].seat == seat)
			return &s->m[i];
	return NULL;
}

/* Valid UTF-8 without control characters but '\n' (and none at all in
 * a one-line text); lines at most LINE_MAX_MAIL bytes. */
static void assert_clean(const char *t, int one_line)
{
	size_t n = strlen(t), col = 0;

	for (size_t i = 0; i < n;) {
		size_t len = utf8_seq((const unsigned char *)t + i, n - i);
		ck_assert_msg(len > 0, "bad UTF-8 at byte %zu: %.80s", i,
		              t + (i > 40 ? i - 40 : 0));
		if (t[i] == '\n') {
			ck_assert_msg(!one_line, "a newline in: %.200s", t);
			col = 0;
		} else {
			ck_assert_msg((unsigned char)t[i] >= 0x20 &&
			              t[i] != 0x7f, "control byte at %zu", i);
			col += len;
			ck_assert_uint_le(col, LINE_MAX_MAIL);
		}
		i += len;
	}
}

/* The text after marker in body, up to the end of its line. */
static void after_marker(const char *body, const char *marker, char *out,
                         size_t cap)
{
	const char *p = strstr(body, marker);

	ck_assert_msg(p != NULL, "no '%s' in:\n%s", marker, body);
	p += strlen(marker);
	snprintf(out, cap, "%.*s", (int)strcspn(p, "\n "), p);
}

/* The body's seat link is a token for this game, seat and generation;
 * its unsubscribe link a key for them; its settings link is there; its
 * "never email me again" link a block key for the seat's address. */
static void assert_links(const store_game *g, int seat, const char *body)
{
	char marker[200], tok[200], id[TOKEN_GAME_ID_LEN + 1];
	int64_t gen;
	int got;

	snprintf(marker, sizeof marker, "%sg/%s?t=", BASE, g->id);
	after_marker(body, marker, tok, sizeof tok);
	ck_assert_int_eq(token_check(&keys, tok, id, &got, &gen), TOKEN_OK);
	ck_assert_str_eq(id, g->id);
	ck_assert_int_eq(got, seat);
	ck_assert_int_eq(gen, g->seats[seat - 1].token_gen);
	snprintf(marker, sizeof marker, "%sg/%s/unsubscribe?s=%d&k=", BASE,
	         g->id, seat);
	after_marker(body, marker, tok, sizeof tok);
	ck_assert_int_eq(link_key_check(&keys, TOKEN_UNSUB, g->id, seat,
	                 g->seats[seat - 1].token_gen, tok), TOKEN_OK);
	snprintf(marker, sizeof marker, "%sg/%s/settings\n", BASE, g->id);
	ck_assert_ptr_nonnull(strstr(body, marker));
	snprintf(marker, sizeof marker, "Never email me from this server "
	         "again:\n%smail/block?a=%s&k=", BASE, g->seats[seat - 1].email);
	after_marker(body, marker, tok, sizeof tok);
	ck_assert_int_eq(block_key_check(&keys, g->seats[seat - 1].email, tok),
	                 TOKEN_OK);
}

/* ---- who gets what ------------------------------------------------------ */

/* compose.h's table: the kind of email a move sends a seat (not the
 * mover, with an address) that is to move next, is not, or when the
 * game ended.  NULL: none. */
enum { TO_MOVE, NOT_TO_MOVE, ENDED };
static const char *const spec[STORE_NOTIFY__MAX][3] = {
	[STORE_NOTIFY_EVERY] = { "turn", "move", "over" },
	[STORE_NOTIFY_TURN] = { "turn", NULL, "over" },
	[STORE_NOTIFY_DIGEST] = { NULL, NULL, "over" },
	[STORE_NOTIFY_NONE] = { NULL, NULL, NULL },
};

static const struct {
	store_notify notify[3];
	const char *email[3];
} configs[] = {
	{ { STORE_NOTIFY_EVERY, STORE_NOTIFY_TURN, STORE_NOTIFY_DIGEST },
	  { "ann@example.org", "bob@example.org", "cyd@example.org" } },
	{ { STORE_NOTIFY_NONE, STORE_NOTIFY_EVERY, STORE_NOTIFY_TURN },
	  { "ann@example.org", "", "cyd@example.org" } },
	{ { STORE_NOTIFY_TURN, STORE_NOTIFY_NONE, STORE_NOTIFY_EVERY },
	  { "ann@example.org", "bob@example.org", "" } },
	{ { STORE_NOTIFY_DIGEST, STORE_NOTIFY_EVERY, STORE_NOTIFY_NONE },
	  { "ann@example.org", "bob@example.org", "cyd@example.org" } },
};

enum { NCONFIGS = sizeof configs / sizeof configs[0] };

static const char *expected(int cfg, const store_game *after,
                            const bt_action *a, int seat)
{
	int when = after->state.status != BT_PLAYING ? ENDED
	           : after->state.turn == seat ? TO_MOVE : NOT_TO_MOVE;

	if (!configs[cfg].email[seat - 1][0] || (seat == a->seat &&
	                                         when != ENDED))
		return NULL;
	return spec[configs[cfg].notify[seat - 1]][when];
}

/* Every move of a whole game, for each configuration: exactly the
 * expected emails, one per seat at most, never to the mover. */
START_TEST(test_who_gets_what)
{
	static sent s;
	const char *emails[BT_MAX_PLAYERS] = { 0 };
	char id[STORE_ID_LEN + 1];
	int seen[4] = { 0 };       /* turn, move, over, none expected */
	int every = 0, ends = 0;
	store_game g;

	for (int i = 0; i < 3; i++) {
		emails[i] = configs[_i].email[i];
		every |= emails[i][0] &&
		         configs[_i].notify[i] == STORE_NOTIFY_EVERY;
		ends |= emails[i][0] &&
		        configs[_i].notify[i] != STORE_NOTIFY_NONE;
	}
	rigged(ABC);
	game_new(emails, configs[_i].notify, id);
	for (int k = 0; k < rg.n; k++) {
		play(id, k, &s);
		load(id, &g);
		for (int seat = 1; seat <= 3; seat++) {
			const char *want = expected(_i, &g, &rg.act[k], seat);
			const store_outmail *m = to_seat(&s, seat);
			int count = 0;
			for (int i = 0; i < s.n; i++)
				count += s.m[i].seat == seat;
			ck_assert_msg(count == (want != NULL), "move %d (%s), "
			              "seat %d: %d mails, want %s", k,
			              rg.text[k], seat, count,
			              want ? want : "none");
			if (!want) {
				seen[3]++;
				continue;
			}
			ck_assert_str_eq(m->kind, want);
			ck_assert_str_eq(m->to, emails[seat - 1]);
			ck_assert_str_eq(m->game, id);
			seen[want[0] == 't' ? 0 : want[0] == 'm' ? 1 : 2]++;
		}
		ck_assert_int_eq(s.n, (to_seat(&s, 1) != NULL) +
		                 (to_seat(&s, 2) != NULL) +
		                 (to_seat(&s, 3) != NULL));
	}
	ck_assert_int_eq(g.state.status, BT_LOST);
	/* the table was exercised: turns, and the end, for someone */
	ck_assert_int_gt(seen[0], 0);
	ck_assert_int_eq(seen[2] > 0, ends);
	ck_assert_int_gt(seen[3], 0);
	ck_assert_int_eq(seen[1] > 0, every);
}
END_TEST

/* ---- R10 ----------------------------------------------------------------- */

static int find_kind(bt_kind kind)
{
	for (int k = 0; k < rg.n; k++)
		if (rg.act[k].verb == BT_SPECIAL &&
		    bt_card_get(rg.act[k].card)->kind == kind)
			return k;
	ck_abort_msg("no such action in the rigged game");
	return -1;
}

/* A Sensor Sweep's order and a Hand Off's card never reach another
 * seat's mail; the seats that saw them read them. */
START_TEST(test_hidden_stays_hidden)
{
	static const store_notify every[3] = { STORE_NOTIFY_EVERY,
		STORE_NOTIFY_EVERY, STORE_NOTIFY_EVERY };
	static sent s;
	static store_mail d;
	static store_game g;
	char id[STORE_ID_LEN + 1], given[128];
	int sweep, hand_off, mails = 0;
	const store_outmail *m;

	rigged(ABC);
	sweep = find_kind(BT_SENSOR_SWEEP);
	hand_off = find_kind(BT_HAND_OFF);
	ck_assert_int_eq(rg.act[hand_off].arg[1], 3);
	snprintf(given, sizeof given, "gave %s",
	         bt_card_get(rg.act[hand_off].arg[0])->name);
	game_new(EMAILS, every, id);
	for (int k = 0; k < rg.n; k++) {
		play(id, k, &s);
		for (int i = 0; i < s.n; i++, mails++)
			if (s.m[i].seat != rg.act[sweep].seat)
				ck_assert_ptr_null(strstr(s.m[i].body,
				                          "you chose"));
		if (k == sweep) {
			ck_assert_ptr_nonnull(m = to_seat(&s, 2));
			ck_assert_ptr_nonnull(strstr(m->body, "looked at the "
			                             "top 3 Shift cards"));
		}
		if (k == hand_off) {
			ck_assert_ptr_nonnull(m = to_seat(&s, 2));
			ck_assert_ptr_nonnull(strstr(m->body, "gave a card to "
			                             "Cyd"));
			ck_assert_ptr_null(strstr(m->body, given));
			ck_assert_ptr_nonnull(m = to_seat(&s, 3));
			ck_assert_ptr_nonnull(strstr(m->body, given));
			/* a digest so far tells the sweeper its order and
			 * the giver its card, and nobody else */
			load(id, &g);
			ck_assert_int_eq(compose_digest(&cc, &g, 1, 0, &d), 1);
			ck_assert_ptr_nonnull(strstr(d.body, "you chose"));
			ck_assert_ptr_nonnull(strstr(d.body, given));
			ck_assert_int_eq(compose_digest(&cc, &g, 2, 0, &d), 1);
			ck_assert_ptr_null(strstr(d.body, "you chose"));
			ck_assert_ptr_null(strstr(d.body, given));
		}
	}
	ck_assert_int_eq(mails, 2 * rg.n + 1);   /* the result: all 3 */
}
END_TEST

/* ---- links ---------------------------------------------------------------- */

/* Every email's links are valid for its seat, also after a revoke. */
START_TEST(test_links_are_the_seats)
{
	static const store_notify every[3] = { STORE_NOTIFY_EVERY,
		STORE_NOTIFY_EVERY, STORE_NOTIFY_EVERY };
	static sent s;
	char id[STORE_ID_LEN + 1], url[2048];
	store_error err;
	store_game g;
	int64_t gen;
	int checked = 0;

	rigged(ABC);
	game_new(EMAILS, every, id);
	for (int k = 0; k < 6; k++) {
		if (k == 3)
			ck_assert_int_eq(store_revoke(st, id, 2, &gen, &err),
			                 STORE_OK);
		play(id, k, &s);
		load(id, &g);
		for (int i = 0; i < s.n; i++, checked++) {
			assert_links(&g, s.m[i].seat, s.m[i].body);
			assert_clean(s.m[i].body, 0);
			assert_clean(s.m[i].subject, 1);
		}
	}
	ck_assert_int_eq(checked, 12);
	ck_assert_int_eq(g.seats[1].token_gen, gen);
	/* bad arguments fail, never overflow */
	ck_assert_int_eq(compose_seat_url(&cc, &g, 0, url, sizeof url), -1);
	ck_assert_int_eq(compose_seat_url(&cc, &g, 4, url, sizeof url), -1);
	ck_assert_int_eq(compose_seat_url(&cc, &g, 1, url, 40), -1);
	ck_assert_int_eq(compose_unsub_url(&cc, "short", 1, 0, url,
	                                   sizeof url), -1);
	ck_assert_int_eq(compose_unsub_url(&cc, g.id, 1, 0, url, 40), -1);
	ck_assert_int_eq(compose_seat_url(&cc, &g, 1, url, sizeof url), 0);
	ck_assert_int_eq(strncmp(url, BASE, strlen(BASE)), 0);
}
END_TEST

/* ---- the turn email ------------------------------------------------------- */

static void say(const char *id, int seat, const char *text)
{
	store_error err;

	ck_assert_msg(store_chat_add(st, id, seat, text, &err) == STORE_OK,
	              "%s", err.why);
}

/* The moves since the seat's last one (as it may know them) and the
 * table talk since then; nothing older. */
START_TEST(test_turn_mail_tells_since_last_turn)
{
	static const store_notify turn[3] = { STORE_NOTIFY_TURN,
		STORE_NOTIFY_TURN, STORE_NOTIFY_TURN };
	static sent s;
	char id[STORE_ID_LEN + 1], w[DESCRIBE_MAX];
	const store_outmail *m;
	store_game g;

	rigged(ABC);
	game_new(EMAILS, turn, id);
	load(id, &g);
	play(id, 0, &s);
	play(id, 1, &s);            /* seat 3's first turn: since the start */
	ck_assert_ptr_nonnull(m = to_seat(&s, 3));
	ck_assert_ptr_nonnull(strstr(m->body, "since the game began"));
	for (int k = 0; k < 2; k++) {
		words_of(&g, k, 3, w);
		ck_assert_msg(strstr(m->body, w) != NULL, "no '%s' in:\n%s",
		              w, m->body);
	}
	ck_assert_str_eq(m->subject, "Buffer Time: your turn (round 1, "
	                 "game with Ann, Bob)");
	say(id, 1, "old news");
	for (int k = 2; k <= 5; k++)     /* 5: seat 3's own move */
		play(id, k, &s);
	say(id, 2, "fresh news: Grüße ☕");
	say(id, 3, "and mine");
	play(id, 6, &s);            /* seat 1 hands a card to seat 3 */
	play(id, 7, &s);
	ck_assert_ptr_nonnull(m = to_seat(&s, 3));
	ck_assert_str_eq(m->kind, "turn");
	ck_assert_ptr_nonnull(strstr(m->body, "since your last turn"));
	for (int k = 4; k <= 7; k++) {
		words_of(&g, k, 3, w);
		ck_assert_msg((strstr(m->body, w) != NULL) == (k >= 6),
		              "move %d '%s' in:\n%s", k, w, m->body);
	}
	ck_assert_ptr_nonnull(strstr(m->body, "Bob: fresh news: Grüße ☕\n"));
	ck_assert_ptr_nonnull(strstr(m->body, "Cyd: and mine\n"));
	ck_assert_ptr_null(strstr(m->body, "old news"));
	ck_assert_ptr_nonnull(strstr(m->body, "The table, round 1 "));
	ck_assert_ptr_nonnull(strstr(m->body, "Leisure 0 of the goal of 20"));
	ck_assert_int_eq(s.n, 1);
}
END_TEST

/* The last move: every seat, the mover and a digest seat included,
 * learns the result and where the record is. */
START_TEST(test_game_over_mail)
{
	static const store_notify mixed[3] = { STORE_NOTIFY_DIGEST,
		STORE_NOTIFY_EVERY, STORE_NOTIFY_TURN };
	static sent s;
	char id[STORE_ID_LEN + 1], record[200];
	store_game g;

	rigged(ABC);
	game_new(EMAILS, mixed, id);
	for (int k = 0; k < rg.n; k++)
		play(id, k, &s);
	load(id, &g);
	ck_assert_int_eq(g.state.status, BT_LOST);
	ck_assert_int_eq(s.n, 3);
	snprintf(record, sizeof record, "%sg/%s/record\n", BASE, id);
	for (int seat = 1; seat <= 3; seat++) {
		const store_outmail *m = to_seat(&s, seat);
		ck_assert_ptr_nonnull(m);
		ck_assert_str_eq(m->kind, "over");
		ck_assert_ptr_nonnull(strstr(m->subject, "game lost"));
		ck_assert_ptr_nonnull(strstr(m->body, "is over: the "
		                             "Assignment Deck ran out and the "
		                             "crew lost.\n"));
		ck_assert_ptr_nonnull(strstr(m->body, "Final Leisure: 3 of "
		                             "the goal of 20"));
		ck_assert_ptr_nonnull(strstr(m->body, record));
		assert_links(&g, seat, m->body);
		/* the review: the seat's own link, to the table's section */
		char marker[200], tok[200], gid[TOKEN_GAME_ID_LEN + 1];
		int64_t gen;
		int got;
		snprintf(marker, sizeof marker, "its review is on the table:\n"
		         "%sg/%s?t=", BASE, id);
		after_marker(m->body, marker, tok, sizeof tok);
		char *hash = strstr(tok, "#review");
		ck_assert_msg(hash && hash[7] == '\0', "%s", tok);
		*hash = '\0';
		ck_assert_int_eq(token_check(&keys, tok, gid, &got, &gen),
		                 TOKEN_OK);
		ck_assert_int_eq(got, seat);
	}
}
END_TEST

/* ---- bounds and UTF-8 ------------------------------------------------------- */

/* 40 characters of two bytes each, then a marker. */
static void long_name(char *buf, size_t cap, const char *end)
{
	size_t n = 0;

	for (int i = 0; i < 38; i++)
		n += (size_t)snprintf(buf + n, cap - n, "%s", "Ñ");
	snprintf(buf + n, cap - n, "%s", end);
}

/* A digest of a whole game with long names and much talk keeps the
 * newest lines, says how many were left out, and fits. */
START_TEST(test_long_history_is_cut)
{
	static const store_notify digest[3] = { STORE_NOTIFY_DIGEST,
		STORE_NOTIFY_DIGEST, STORE_NOTIFY_DIGEST };
	static char n1[200], n2[200], n3[200];
	static store_mail d;
	static sent s;
	const char *names[3] = { n1, n2, n3 };
	char id[STORE_ID_LEN + 1], w[DESCRIBE_MAX], talk[STORE_CHAT_MAX + 1];
	store_game g;

	long_name(n1, sizeof n1, "A1");
	long_name(n2, sizeof n2, "B2");
	long_name(n3, sizeof n3, "C3");
	rigged(names);
	game_new(EMAILS, digest, id);
	for (int k = 0; k < rg.n; k++) {
		play(id, k, &s);
		ck_assert_int_eq(s.n, k == rg.n - 1 ? 3 : 0);
	}
	memset(talk, 'x', sizeof talk - 1);
	talk[sizeof talk - 1] = '\0';
	for (int i = 0; i < 20; i++) {
		fixture_clock(T0 + 100 * (i + 1));
		talk[0] = (char)('a' + i);
		say(id, i % 3 + 1, talk);
	}
	load(id, &g);
	ck_assert_int_eq(compose_digest(&cc, &g, 1, 0, &d), 1);
	ck_assert_str_eq(d.kind, "digest");
	show(&d);
	ck_assert_ptr_nonnull(strstr(d.body, "earlier moves left out"));
	ck_assert_ptr_nonnull(strstr(d.body, "earlier messages left out"));
	words_of(&g, rg.n - 1, 1, w);
	ck_assert_ptr_nonnull(strstr(d.body, w));
	words_of(&g, 0, 1, w);
	ck_assert_ptr_null(strstr(d.body, w));
	ck_assert_ptr_nonnull(strstr(d.body, "txxx"));   /* the newest */
	ck_assert_ptr_null(strstr(d.body, "axxx"));      /* the oldest */
	ck_assert_uint_lt(strlen(d.body), sizeof d.body - 1);
	assert_clean(d.body, 0);
	assert_clean(d.subject, 1);
	assert_links(&g, 1, d.body);
	/* nothing since: no digest */
	ck_assert_int_eq(compose_digest(&cc, &g, 1, T0 + 5000, &d), 0);
	ck_assert_int_eq(compose_digest(&cc, &g, 1, T0 + 2000, &d), 1);
	ck_assert_ptr_nonnull(strstr(d.body, "- no moves"));
}
END_TEST

/* The longest of everything: a 512-byte base URL, six names of 40
 * four-byte characters, messages of STORE_CHAT_MAX bytes, and a whole
 * game: every email still fits (a move whose email failed would not be
 * stored at all). */
START_TEST(test_worst_case_fits)
{
	static char names[BT_MAX_PLAYERS][200], base[600], talk[600];
	static store_mail m;
	static sent s;
	store_new_game ng = { .players = 6, .first = 1 };
	bt_action legal[BT_MAX_LEGAL];
	char id[STORE_ID_LEN + 1];
	store_error err;
	store_game g;
	int moves = 0;

	snprintf(base, sizeof base, "https://%0*d.example/", 512 - 17, 0);
	ck_assert_uint_eq(strlen(base), 512);
	cc.base_url = base;
	for (int i = 0; i < BT_MAX_PLAYERS; i++) {
		size_t n = 0;
		for (int k = 0; k < 39; k++)
			n += (size_t)snprintf(names[i] + n, sizeof names[i] - n,
			                      "%s", "🖖");
		snprintf(names[i] + n, sizeof names[i] - n, "%c", 'A' + i);
		ng.names[i] = names[i];
		ng.emails[i] = EMAILS[i];
	}
	ck_assert_int_eq(store_create(st, &ng, id, &err), STORE_OK);
	for (int i = 1; i <= 6; i++)
		ck_assert_int_eq(store_set_notify(st, id, i, i % 2
		                 ? STORE_NOTIFY_EVERY : STORE_NOTIFY_TURN,
		                 &err), STORE_OK);
	memset(talk, 'y', STORE_CHAT_MAX);
	talk[STORE_CHAT_MAX] = '\0';
	for (load(id, &g); g.state.status == BT_PLAYING; load(id, &g)) {
		int n = bt_legal(&g.state, legal, BT_MAX_LEGAL);
		ck_assert_int_gt(n, 0);
		fixture_clock(T0 + 100 * moves);
		say(id, g.state.turn, talk);
		ck_assert_msg(store_append(st, id, g.seq, &legal[moves % n],
		              compose_move, &cc, NULL, &err) == STORE_OK,
		              "move %d: %s", moves, err.why);
		new_mails(&s);
		ck_assert_int_ge(s.n, 2);
		for (int i = 0; i < s.n; i++)
			assert_clean(s.m[i].body, 0);
		moves++;
	}
	ck_assert_int_gt(moves, 20);
	for (int seat = 1; seat <= 6; seat++) {
		ck_assert_int_eq(compose_digest(&cc, &g, seat, 0, &m), 1);
		assert_clean(m.body, 0);
		assert_clean(m.subject, 1);
		ck_assert_int_eq(compose_seat(&cc, &g, seat, "x", &m), 1);
		ck_assert_int_eq(compose_reminder(&cc, &g, 2, &m), 0);
	}
}
END_TEST

/* Subjects fit their 200 bytes at a character boundary, with names of
 * 4-byte characters; the others beyond a budget are counted. */
START_TEST(test_utf8_names_in_subjects)
{
	static char emoji[200], greek[200];
	static store_mail m;
	store_new_game ng = { .players = 6, .first = 2 };
	char id[STORE_ID_LEN + 1];
	store_error err;
	store_game g;
	size_t n = 0;

	for (int i = 0; i < 40; i++)
		n += (size_t)snprintf(emoji + n, sizeof emoji - n, "%s", "🖖");
	long_name(greek, sizeof greek, "Ω");
	const char *names[6] = { "Zoë", emoji, greek, "Brad", "", "Tendi" };
	for (int i = 0; i < 6; i++) {
		ng.names[i] = names[i];
		ng.emails[i] = i == 3 ? "" : EMAILS[i];
	}
	ck_assert_msg(store_create(st, &ng, id, &err) == STORE_OK, "%s",
	              err.why);
	load(id, &g);
	ck_assert_int_eq(compose_seat(&cc, &g, 1, NULL, &m), 1);
	show(&m);
	ck_assert_str_eq(m.kind, "seat");
	const char *want = "Buffer Time: your seat in a new game with 🖖";
	ck_assert_int_eq(strncmp(m.subject, want, strlen(want)), 0);
	ck_assert_ptr_nonnull(strstr(m.subject, " more"));
	ck_assert_ptr_nonnull(strstr(m.body, "Hello Zoë,\n"));
	ck_assert_ptr_nonnull(strstr(m.body, "You have seat 1 in a new game"));
	ck_assert_ptr_nonnull(strstr(m.body, "🖖🖖 goes first."));
	/* a newcomer's first email says where the rules are */
	char rules[128];
	snprintf(rules, sizeof rules, "\nNew to the game? How to play: %srules\n",
	         BASE);
	ck_assert_ptr_nonnull(strstr(m.body, rules));
	assert_clean(m.subject, 1);
	assert_clean(m.body, 0);
	assert_links(&g, 1, m.body);
	ck_assert_int_eq(compose_seat(&cc, &g, 2, "AAAAAAAAAAAAAAAAAAAAAA",
	                              &m), 1);
	show(&m);
	ck_assert_msg(strncmp(m.subject, "Buffer Time: rematch with Zoë",
	                      30) == 0, "%s", m.subject);
	ck_assert_ptr_nonnull(strstr(m.body, "You go first."));
	ck_assert_ptr_nonnull(strstr(m.body, rules));    /* a rematch too */
	ck_assert_int_eq(compose_seat(&cc, &g, 4, NULL, &m), 0);   /* no address */
	/* a nudge from the long name: cut, still whole characters */
	fixture_clock(g.turn_since + 3 * 86400 + 5);
	ck_assert_int_eq(compose_nudge(&cc, &g, 2, &m), 0);   /* own turn */
	ck_assert_int_eq(compose_nudge(&cc, &g, 3, &m), 1);
	show(&m);
	ck_assert_int_eq(m.seat, 2);
	ck_assert_uint_le(strlen(m.subject), sizeof m.subject - 1);
	assert_clean(m.subject, 1);
	ck_assert_ptr_nonnull(strstr(m.subject, "Ñ… asks you to take your turn"));
	ck_assert_ptr_nonnull(strstr(m.body, "ÑΩ asks you to take your turn"));
	ck_assert_ptr_nonnull(strstr(m.body, "It has been your turn for 3 days"));
	assert_clean(m.body, 0);
}
END_TEST

/* ---- between moves ---------------------------------------------------------- */

/* Reminders go to the seat to move unless it wants none; the queueing
 * pass of the store sends the first one through compose_reminder. */
/* The block link: the address %-escaped, the key over its key; a seat
 * whose address is blocked gets nothing composed. */
START_TEST(test_block_link)
{
	static const store_notify every[3] = { STORE_NOTIFY_EVERY,
		STORE_NOTIFY_EVERY, STORE_NOTIFY_EVERY };
	static const char *const tagged[BT_MAX_PLAYERS] = {
		"Ann+games@Example.org", "bob@example.org", "cyd@example.org"
	};
	static store_mail m;
	static sent s;
	char id[STORE_ID_LEN + 1], url[2048], marker[200], tok[200];
	store_error err;
	store_game g;

	rigged(ABC);
	game_new(tagged, every, id);
	load(id, &g);
	ck_assert_int_eq(compose_seat(&cc, &g, 1, NULL, &m), 1);
	snprintf(marker, sizeof marker, "%smail/block?a=Ann%%2Bgames@"
	         "Example.org&k=", BASE);
	after_marker(m.body, marker, tok, sizeof tok);
	ck_assert_int_eq(block_key_check(&keys, "ann@example.org", tok),
	                 TOKEN_OK);
	ck_assert_int_eq(block_key_check(&keys, "bob@example.org", tok),
	                 TOKEN_BAD_MAC);
	ck_assert_int_eq(compose_block_url(&cc, "a b&c@x.org", url,
	                                   sizeof url), 0);
	ck_assert_ptr_nonnull(strstr(url, "?a=a%20b%26c@x.org&k="));
	ck_assert_int_eq(compose_block_url(&cc, "nope", url, sizeof url), -1);
	ck_assert_int_eq(compose_block_url(&cc, "ann@x.org", url, 40), -1);

	/* blocked: nothing for seat 1, the others as before */
	ck_assert_int_eq(store_block_add(st, "ann@example.org", "link", &err),
	                 STORE_OK);
	load(id, &g);
	ck_assert_int_eq(g.seats[0].blocked, 1);
	ck_assert_int_eq(compose_seat(&cc, &g, 1, NULL, &m), 0);
	ck_assert_int_eq(compose_digest(&cc, &g, 1, 0, &m), 0);
	ck_assert_int_eq(compose_reminder(&cc, &g, 1, &m), 0);
	ck_assert_int_eq(compose_seat(&cc, &g, 2, NULL, &m), 1);
	new_mails(&s);
	play(id, 0, &s);
	ck_assert_ptr_null(to_seat(&s, 1));
	ck_assert_ptr_nonnull(to_seat(&s, 2));
}
END_TEST

START_TEST(test_reminders_and_nudges)
{
	static const store_notify cfg[3] = { STORE_NOTIFY_TURN,
		STORE_NOTIFY_EVERY, STORE_NOTIFY_NONE };
	static store_mail m;
	static sent s;
	char id[STORE_ID_LEN + 1];
	store_error err;
	store_game g;
	int queued;

	rigged(ABC);
	game_new(EMAILS, cfg, id);
	load(id, &g);
	ck_assert_int_eq(g.state.turn, 1);
	fixture_clock(g.turn_since + 26 * 3600 + 59);
	ck_assert_int_eq(compose_reminder(&cc, &g, 1, &m), 1);
	ck_assert_int_eq(m.seat, 1);
	ck_assert_str_eq(m.kind, "reminder");
	ck_assert_str_eq(m.to, "ann@example.org");
	ck_assert_ptr_nonnull(strstr(m.body, "It has been your turn for 26 "
	                             "hours in the game with Bob and Cyd."));
	ck_assert_ptr_null(strstr(m.body, "last reminder"));
	assert_links(&g, 1, m.body);
	fixture_clock(g.turn_since + 3 * 86400 + 1);
	ck_assert_int_eq(compose_reminder(&cc, &g, 2, &m), 1);
	show(&m);
	ck_assert_ptr_nonnull(strstr(m.body, "for 3 days"));
	ck_assert_ptr_nonnull(strstr(m.body, "last reminder"));
	/* through the store's pass */
	new_mails(&s);
	fixture_clock(g.turn_since + 25 * 3600);
	ck_assert_int_eq(store_queue_reminders(st, g.turn_since + 25 * 3600,
	                 compose_reminder, &cc, &queued, &err), STORE_OK);
	ck_assert_int_eq(queued, 1);
	new_mails(&s);
	ck_assert_int_eq(s.n, 1);
	ck_assert_str_eq(s.m[0].kind, "reminder");
	ck_assert_int_eq(s.m[0].seat, 1);
	ck_assert_ptr_nonnull(strstr(s.m[0].subject, "reminder"));
	/* nudges: to the seat to move, from another */
	ck_assert_int_eq(compose_nudge(&cc, &g, 2, &m), 1);
	ck_assert_str_eq(m.kind, "nudge");
	ck_assert_ptr_nonnull(strstr(m.body, "Bob asks you to take your "
	                             "turn"));
	ck_assert_str_eq(m.subject, "Buffer Time: Bob asks you to take your "
	                 "turn (round 1, game with Bob, Cyd)");
	ck_assert_int_eq(compose_nudge(&cc, &g, 1, &m), 0);
	/* seat 3 wants no email at all */
	play(id, 0, &s);
	play(id, 1, &s);
	load(id, &g);
	ck_assert_int_eq(g.state.turn, 3);
	ck_assert_ptr_null(to_seat(&s, 3));
	ck_assert_int_eq(compose_reminder(&cc, &g, 1, &m), 0);
	ck_assert_int_eq(compose_nudge(&cc, &g, 1, &m), 0);
	ck_assert_int_eq(compose_digest(&cc, &g, 3, 0, &m), 0);
	ck_assert_int_eq(compose_seat(&cc, &g, 3, NULL, &m), 0);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("compose");
	TCase *tc = tcase_create("compose");
	SRunner *sr;
	int failed;

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, test_who_gets_what, 0, NCONFIGS);
	tcase_add_test(tc, test_hidden_stays_hidden);
	tcase_add_test(tc, test_links_are_the_seats);
	tcase_add_test(tc, test_turn_mail_tells_since_last_turn);
	tcase_add_test(tc, test_game_over_mail);
	tcase_add_test(tc, test_long_history_is_cut);
	tcase_add_test(tc, test_worst_case_fits);
	tcase_add_test(tc, test_utf8_names_in_subjects);
	tcase_add_test(tc, test_reminders_and_nudges);
	tcase_add_test(tc, test_block_link);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
