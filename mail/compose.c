/*
 * compose.c - the words of every email (compose.h): who gets which email
 * about a move, and each kind's subject and body in plain UTF-8 text.
 *
 * Moves are told with describe_action() from the reader's seat, so what
 * R10 hides from a seat (a Sensor Sweep's order, a Hand Off's card) never
 * reaches its mail.  Bodies are bounded by store_mail.body: the moves and
 * the table talk (compose_talk.c) keep their newest lines within a budget
 * and say how many earlier ones were left out, so that composing never
 * fails for length (a failure would abort the move it is about).
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compose.h"
#include "compose_menu.h"
#include "compose_table.h"
#include "compose_talk.h"
#include "describe.h"
#include "names.h"
#include "utf8.h"

enum {
	CREW_BUDGET = 100,     /* bytes of names in "the game with ..." */
	CREW_NAME = 48,        /* bytes of one name there, then "..." */
	CREW_MAX = 256,        /* ... and "and 5 more" */
	MOVES_KEPT = 32,       /* newest moves a mail may tell ... */
	MOVES_BUDGET = 3000,   /* ... in at most this many bytes */
	URL_MAX = 1024,        /* bytes of a URL we build */
	/* ... and of a block link: its address may be all escapes */
	BLOCK_URL_MAX = URL_MAX + 3 * STORE_EMAIL_MAX,
	LINE_MAX_BODY = 990,   /* a body line (RFC 5322: 998 with CRLF) */
	/* body left for what follows the table: link, menu, footer */
	AFTER_TABLE = 2500,
	SUBJECT_RAW = 512,     /* a subject before it is cut to fit */
	HOUR = 3600,
	DAY = 86400
};

/* ---- bounded text -------------------------------------------------------- */

/* A body being written; over: something did not fit (the mail fails). */
typedef struct text {
	char *buf;
	size_t cap, len;
	int over;
} text;

static void text_init(text *t, char *buf, size_t cap)
{
	*t = (text){ buf, cap, 0, 0 };
	buf[0] = '\0';
}

static void put(text *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void put(text *t, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (t->over)
		return;
	va_start(ap, fmt);
	n = vsnprintf(t->buf + t->len, t->cap - t->len, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= t->cap - t->len) {
		t->over = 1;
		t->buf[t->len] = '\0';
		return;
	}
	t->len += (size_t)n;
}

/* Copies src into dst (cap > 0 bytes), cut if need be at a character
 * boundary, with control characters made spaces (a subject becomes a
 * header: no CR or LF may reach it). */
static void copy_line(char *dst, size_t cap, const char *src)
{
	size_t n = strlen(src);

	if (n >= cap) {
		n = cap - 1;
		while (n > 0 && ((unsigned char)src[n] & 0xC0) == 0x80)
			n--;
	}
	for (size_t i = 0; i < n; i++)
		dst[i] = (unsigned char)src[i] < 0x20 || src[i] == 0x7f
		         ? ' ' : src[i];
	dst[n] = '\0';
}

static void subject(store_mail *m, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void subject(store_mail *m, const char *fmt, ...)
{
	char raw[SUBJECT_RAW];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(raw, sizeof raw, fmt, ap);
	va_end(ap);
	copy_line(m->subject, sizeof m->subject, raw);
}

/* ---- facts about a game, in words ---------------------------------------- */

/* 1 if seat of g may get email at all: an address that did not ask for
 * none from this server, and not "none". */
static int reachable(const store_game *g, int seat)
{
	return seat >= 1 && seat <= g->players && g->seats[seat - 1].email[0]
	       && !g->seats[seat - 1].blocked
	       && g->seats[seat - 1].notify != STORE_NOTIFY_NONE;
}

/* The name of seat in g for a list: at most CREW_NAME bytes of it,
 * cut at a character boundary and marked with an ellipsis. */
static const char *list_name(const store_game *g, int seat,
                             char buf[CREW_NAME + 4])
{
	char seat_n[16];
	const char *name = describe_seat(g, seat, seat_n, sizeof seat_n);

	copy_line(buf, CREW_NAME + 1, name);
	if (strlen(name) > CREW_NAME)
		memcpy(buf + strlen(buf), "\xe2\x80\xa6", 4);  /* U+2026, NUL */
	return buf;
}

/* The seats of g but reader, by name, within CREW_BUDGET bytes (the
 * rest counted: "and 2 more"); the last two joined by last_sep. */
static void crew(const store_game *g, int reader, const char *last_sep,
                 char buf[CREW_MAX])
{
	int seat[BT_MAX_PLAYERS], n = 0, shown = 0;
	char name[BT_MAX_PLAYERS][CREW_NAME + 4];
	size_t used = 0;
	text t;

	for (int s = 1; s <= g->players && n < BT_MAX_PLAYERS; s++)
		if (s != reader)
			seat[n++] = s;
	for (; shown < n; shown++) {
		size_t len = strlen(list_name(g, seat[shown], name[shown]));
		if (shown > 0 && used + len > CREW_BUDGET)
			break;
		used += len + 2;
	}
	text_init(&t, buf, CREW_MAX);
	for (int i = 0; i < shown; i++)
		put(&t, "%s%s", i == 0 ? "" : i == n - 1 ? last_sep : ", ",
		    name[i]);
	if (shown < n)
		put(&t, " and %d more", n - shown);
}

/* The seat to move in g, 0 once the game is over. */
static int to_move(const bt_game *s)
{
	return s->status == BT_PLAYING ? s->turn : 0;
}

static const char *result(const bt_game *s)
{
	return s->status == BT_WON ? "the crew reached its Leisure goal and "
	       "won" : "the Assignment Deck ran out and the crew lost";
}

/* "Round 3. Effort 5 of Target 7; ..." or the final Leisure. */
static void totals(text *t, const bt_game *s)
{
	if (s->status != BT_PLAYING) {
		put(t, "\nFinal Leisure: %d of the goal of %d, in round %d.\n",
		    s->leisure, bt_goal(s), s->round);
		return;
	}
	put(t, "\nRound %d. Effort %d of Target %d. Officers %d (a reprimand "
	    "at %d). Leisure %d of the goal of %d.\n", s->round,
	    s->effort, s->target, s->officers, BT_REPRIMAND_OFFICERS,
	    s->leisure, bt_goal(s));
}

/* Whose turn it is, or the result. */
static void next_up(text *t, const store_game *g, const bt_game *s,
                    int reader)
{
	char n[48];

	if (!to_move(s) && g->ended_by && s == &g->state)
		put(t, "\nThe game is over: %s ended it, as it could no longer "
		    "be won.\n", describe_seat(g, g->ended_by, n, sizeof n));
	else if (!to_move(s))
		put(t, "\nThe game is over: %s.\n", result(s));
	else if (s->turn == reader)
		put(t, "\nIt is your turn.\n");
	else
		put(t, "\nNext to move: %s.\n",
		    describe_seat(g, s->turn, n, sizeof n));
}

/* "26 hours", "3 days". */
static void put_wait(text *t, int64_t secs)
{
	int64_t n = secs < 2 * DAY ? secs / HOUR : secs / DAY;

	if (n < 1)
		n = 1;
	put(t, "%" PRId64 " %s%s", n, secs < 2 * DAY ? "hour" : "day",
	    n == 1 ? "" : "s");
}

/* The table as seat sees it in s (compose_table.h), where it leaves
 * room for the rest; else the totals alone (a move never fails over it). */
static void put_table(text *t, const store_game *g, const bt_game *s,
                      int seat)
{
	char *tb = malloc(COMPOSE_TABLE_MAX);

	if (tb && compose_table(g, s, seat, tb, COMPOSE_TABLE_MAX) == 0 &&
	    t->len + strlen(tb) + AFTER_TABLE < t->cap)
		put(t, "\n%s", tb);
	else
		totals(t, s);
	free(tb);
}

/* ---- a letter: recipient, greeting, link, footer -------------------------- */

static const char *const notify_words[STORE_NOTIFY__MAX] = {
	[STORE_NOTIFY_EVERY] = "every move",
	[STORE_NOTIFY_TURN] = "only your turns and the end",
	[STORE_NOTIFY_DIGEST] = "a daily digest and the end",
	[STORE_NOTIFY_NONE] = "no email",
};

/* One email being written to seat of g. */
typedef struct letter {
	const compose_ctx *c;
	const store_game *g;
	int seat;
	store_mail *m;
	text t;
	char crew[CREW_MAX];     /* the others, for the body */
	char with[CREW_MAX];     /* the others, for the subject */
	char noun[NAMES_NOUN_MAX];  /* "game", "rematch 2": which one */
} letter;

static void letter_open(letter *l, const compose_ctx *c, const store_game *g,
                        int seat, const char *kind, store_mail *m)
{
	const char *name = g->seats[seat - 1].name;

	memset(m, 0, sizeof *m);
	*l = (letter){ .c = c, .g = g, .seat = seat, .m = m };
	m->seat = seat;
	snprintf(m->kind, sizeof m->kind, "%s", kind);
	snprintf(m->to, sizeof m->to, "%s", g->seats[seat - 1].email);
	crew(g, seat, " and ", l->crew);
	crew(g, seat, ", ", l->with);
	names_game_noun(c->st, g, NULL, l->noun, sizeof l->noun);
	text_init(&l->t, m->body, sizeof m->body);
	if (name[0])
		put(&l->t, "Hello %s,\n\n", name);
	else
		put(&l->t, "Hello,\n\n");
	if (g->practice)
		put(&l->t, "(A practice table: hints on. The player to move sees "
		    "each move's chance\nof winning on the table.)\n\n");
}

static void seat_link(letter *l)
{
	char url[URL_MAX];

	if (compose_seat_url(l->c, l->g, l->seat, url, sizeof url)) {
		l->t.over = 1;
		return;
	}
	put(&l->t, COMPOSE_SEAT_LINK ": whoever opens it plays your "
	    "seat):\n%s\n", url);
}

/* Where the game was won or lost: where its review will be (the
 * table's #review), in words the mailer replaces with the review's
 * biggest turning point once it is in (compose_turning_point_late);
 * then how to play again. */
static void review_link(letter *l)
{
	char url[URL_MAX];

	if (compose_seat_url(l->c, l->g, l->seat, url, sizeof url)) {
		l->t.over = 1;
		return;
	}
	put(&l->t, "\n" COMPOSE_REVIEW_SOON "%s#review\n", url);
	put(&l->t, "\nPlay again? The same crew, a new deal: press \"Play "
	    "again\" on the table\n(everyone gets their new link by email):"
	    "\n%s\n", url);
}

/* The footer every email ends with; returns 1, or -1 if the letter did
 * not fit or a link could not be made. */
static int letter_close(letter *l)
{
	const store_seat *p = &l->g->seats[l->seat - 1];
	char url[URL_MAX], block[BLOCK_URL_MAX];
	unsigned n = (unsigned)p->notify < STORE_NOTIFY__MAX
	             ? (unsigned)p->notify : STORE_NOTIFY_TURN;

	put(&l->t, "\n-- \nYou hold seat %d in this game of Buffer Time; your "
	    "email setting is: %s.\nChange it (in a browser that has opened "
	    "your seat's link):\n%sg/%s/settings\n", l->seat, notify_words[n],
	    l->c->base_url, l->g->id);
	if (compose_unsub_url(l->c, l->g->id, l->seat, p->token_gen, url,
	                      sizeof url))
		return -1;
	put(&l->t, "No more email from this game:\n%s\n", url);
	/* an address without a key, or so odd that its link would not fit
	 * a mail line, goes without: a move must not fail over it, and the
	 * link above stops this game's mail all the same */
	if (compose_block_url(l->c, l->m->to, block, sizeof block) == 0 &&
	    strlen(block) <= LINE_MAX_BODY)
		put(&l->t, "Never email me from this server again:\n%s\n",
		    block);
	return l->t.over ? -1 : 1;
}

/* The letter's result (letter_close's), with the menu of seat inserted
 * at byte at when replies are on (compose_menu.h). */
static int with_menu(const compose_ctx *c, const store_game *g,
                     const bt_game *s, int seat, int seq, store_mail *m,
                     size_t at, int closed)
{
	int sweep = s == &g->state && g->sweep_card != BT_NO_CARD;

	if (closed < 0)
		return closed;
	return compose_menu(c, g, s, seat, seq, sweep, m, at) ? -1 : closed;
}

/* ---- what happened: moves and table talk ---------------------------------- */

/* The newest moves and messages one seat reads about (R10: told as that
 * seat may know them), kept in rings and told within their budgets. */
typedef struct story {
	const store_game *g;
	int reader;
	int after_seat;     /* keep only moves after this seat's last (0: all) */
	int64_t from;       /* ... and made at or after this time */
	int last;           /* line of after_seat's last move, -1: none */
	char own[DESCRIBE_MAX];  /* that move, told to its maker */
	int moves;          /* moves kept, the dropped ones counted */
	char move[MOVES_KEPT][DESCRIBE_MAX];
	int talk_from_seq;  /* messages said with at least this many lines */
	int64_t talk_from;  /* ... or, if not 0, at or after this time */
	compose_talk talk;
} story;

/* A story for reader of g, or NULL if out of memory. */
static story *story_new(const store_game *g, int reader)
{
	story *s = calloc(1, sizeof *s);

	if (s) {
		s->g = g;
		s->reader = reader;
		s->last = -1;
	}
	return s;
}

/* A store_walk_fn: keeps the moves the story tells. */
static int story_move(void *ctx, int seq, int64_t created,
                      const bt_game *before, const bt_game *after,
                      const bt_action *a)
{
	story *s = ctx;

	if (s->after_seat && a->seat == s->after_seat) {
		s->last = seq;
		s->moves = 0;
		/* its only word of it when it moved by reply (inbound_answer.c) */
		describe_own_action(before, after, a, s->g, s->own,
		                    sizeof s->own);
		utf8_cut_valid(s->own);
		return 0;
	}
	if (created < s->from)
		return 0;
	describe_action(before, after, a, s->g, s->reader,
	                s->move[s->moves % MOVES_KEPT], DESCRIBE_MAX);
	utf8_cut_valid(s->move[s->moves % MOVES_KEPT]);
	s->moves++;
	return 0;
}

/* Replays g's stored lines into s, then reads the table talk (after the
 * walk: which talk is told may depend on the reader's last move). */
static int story_read(const compose_ctx *c, story *s, int walk)
{
	store_error err;

	if (walk && store_walk(c->st, s->g, -1, story_move, s, NULL, &err))
		return -1;
	if (s->after_seat && s->last > s->talk_from_seq)
		s->talk_from_seq = s->last;
	return compose_talk_read(c->st, s->g->id, s->talk_from_seq,
	                         s->talk_from, &s->talk);
}

/* How many of the newest moves kept (a ring) fit in MOVES_BUDGET. */
static int moves_fitting(const story *s)
{
	int shown = 0, ring = s->moves < MOVES_KEPT ? s->moves : MOVES_KEPT;
	size_t used = 0;

	for (; shown < ring; shown++) {
		size_t len = strlen(s->move[(s->moves - 1 - shown) %
		                            MOVES_KEPT]) + 3;
		if (used + len > MOVES_BUDGET)
			break;
		used += len;
	}
	return shown;
}

static void put_moves(letter *l, const story *s)
{
	int shown = moves_fitting(s);

	if (shown < s->moves)
		put(&l->t, "(%d earlier move%s left out; every move is at\n"
		    "%sg/%s/history )\n", s->moves - shown,
		    s->moves - shown == 1 ? "" : "s", l->c->base_url, l->g->id);
	for (int i = s->moves - shown; i < s->moves; i++)
		put(&l->t, "- %s\n", s->move[i % MOVES_KEPT]);
}

static void put_talk(letter *l, const story *s, const char *when)
{
	char words[COMPOSE_TALK_MAX];

	put(&l->t, "%s", compose_talk_text(s->g, &s->talk, when, words,
	                                   sizeof words));
}

/* ---- the emails a move causes --------------------------------------------- */

typedef enum mail_kind {
	MAIL_NONE, MAIL_TURN, MAIL_MOVE, MAIL_OVER, MAIL__MAX
} mail_kind;

/* The email a move sends seat (compose.h: one at most; none without an
 * address or with "none"; none to the mover, except the result, which
 * the issue sends to all). */
static mail_kind kind_for(const store_game *g, const bt_game *after,
                          const bt_action *a, int seat)
{
	store_notify n = g->seats[seat - 1].notify;

	if (!reachable(g, seat))
		return MAIL_NONE;
	if (after->status != BT_PLAYING)
		return MAIL_OVER;
	if (seat == a->seat)
		return MAIL_NONE;
	if (seat == after->turn && n != STORE_NOTIFY_DIGEST)
		return MAIL_TURN;
	return n == STORE_NOTIFY_EVERY ? MAIL_MOVE : MAIL_NONE;
}

typedef int move_mail(const compose_ctx *c, const store_game *g,
                      const bt_game *after, const bt_action *a, int seat,
                      story *s, store_mail *m);

/* Your turn: the moves since your last one, and the talk since then. */
static int mail_turn(const compose_ctx *c, const store_game *g,
                     const bt_game *after, const bt_action *a, int seat,
                     story *s, store_mail *m)
{
	size_t at;
	letter l;

	s->after_seat = seat;
	if (story_read(c, s, 1))
		return -1;
	story_move(s, g->seq, store_now(), &g->state, after, a);
	letter_open(&l, c, g, seat, "turn", m);
	subject(m, "Buffer Time: your turn (round %d, %s with %s)",
	        after->round, l.noun, l.with);
	put(&l.t, "It is your turn in the game with %s.\n\n", l.crew);
	if (s->last >= 0)
		put(&l.t, "Your last move: %s.\n\n", s->own);
	put(&l.t, "%s:\n", s->last < 0 ? "What happened since the game began"
	                               : "What happened since your last turn");
	put_moves(&l, s);
	put_talk(&l, s, "since then");
	put_table(&l.t, g, after, seat);
	at = l.t.len;
	seat_link(&l);
	/* the move makes the game's seq one more */
	return with_menu(c, g, after, seat, g->seq + 1, m, at,
	                 letter_close(&l));
}

/* Another's move, for "every": the move, the talk since the move
 * before, and who is next. */
static int mail_move(const compose_ctx *c, const store_game *g,
                     const bt_game *after, const bt_action *a, int seat,
                     story *s, store_mail *m)
{
	char n[CREW_NAME + 4];
	letter l;

	story_move(s, g->seq, store_now(), &g->state, after, a);
	s->talk_from_seq = g->seq;
	if (story_read(c, s, 0))
		return -1;
	letter_open(&l, c, g, seat, "move", m);
	subject(m, "Buffer Time: %s moved (round %d, %s with %s)",
	        list_name(g, a->seat, n), after->round, l.noun, l.with);
	put(&l.t, "A move in the game with %s:\n", l.crew);
	put_moves(&l, s);
	put_talk(&l, s, "since the move before");
	next_up(&l.t, g, after, seat);
	totals(&l.t, after);
	seat_link(&l);
	return letter_close(&l);
}

/* The end of a game-over email: the final Leisure, the record, the
 * links and the review. */
static int over_tail(letter *l, const bt_game *end)
{
	totals(&l->t, end);
	put(&l->t, "\nThe game's record (every move, and now its seed, to "
	    "replay it) is at\n%sg/%s/record\nin a browser that has opened "
	    "your seat's link (below).\n", l->c->base_url, l->g->id);
	seat_link(l);
	review_link(l);
	return letter_close(l);
}

/* The end: the last move, the result, and where the record is. */
static int mail_over(const compose_ctx *c, const store_game *g,
                     const bt_game *after, const bt_action *a, int seat,
                     story *s, store_mail *m)
{
	letter l;

	story_move(s, g->seq, store_now(), &g->state, after, a);
	letter_open(&l, c, g, seat, "over", m);
	subject(m, "Buffer Time: game %s (%s with %s)",
	        after->status == BT_WON ? "won" : "lost", l.noun, l.with);
	put(&l.t, "The game with %s is over: %s.\n\nThe last move:\n", l.crew,
	    result(after));
	put_moves(&l, s);
	return over_tail(&l, after);
}

int compose_ended(void *ctx, const store_game *g, int seat, store_mail *out)
{
	const compose_ctx *c = ctx;
	char n[CREW_NAME + 4];
	letter l;

	if (!c || !g || !g->ended_by || !reachable(g, seat))
		return 0;
	letter_open(&l, c, g, seat, "over", out);
	subject(out, "Buffer Time: game lost (%s with %s)", l.noun, l.with);
	put(&l.t, "The game with %s is over: %s ended it, as it could no "
	    "longer be won.\n", l.crew, seat == g->ended_by ? "you"
	    : list_name(g, g->ended_by, n));
	return over_tail(&l, &g->state);
}

static move_mail *const move_mails[MAIL__MAX] = {
	[MAIL_TURN] = mail_turn, [MAIL_MOVE] = mail_move,
	[MAIL_OVER] = mail_over,
};

int compose_move(void *ctx, const store_game *before, const bt_game *after,
                 const bt_action *a, store_mail *out, int max)
{
	const compose_ctx *c = ctx;
	int n = 0;

	if (!c || !before || !after || !a)
		return -1;
	for (int seat = 1; seat <= before->players; seat++) {
		mail_kind k = kind_for(before, after, a, seat);
		story *s;
		int made;
		if (k == MAIL_NONE)
			continue;
		if (n >= max || !(s = story_new(before, seat)))
			return -1;
		made = move_mails[k](c, before, after, a, seat, s, &out[n]);
		free(s);
		if (made < 0)
			return -1;
		n += made;
	}
	return n;
}

/* ---- emails between moves ------------------------------------------------- */

int compose_seat(const compose_ctx *c, const store_game *g, int seat,
                 const char *rematch_of, store_mail *out)
{
	char n[48];
	size_t at;
	letter l;

	if (!c || !g || !reachable(g, seat))
		return 0;
	letter_open(&l, c, g, seat, "seat", out);
	if (rematch_of) {
		/* the chain names the new game only once it is made */
		names_game_noun(c->st, g, rematch_of, l.noun, sizeof l.noun);
		subject(out, "Buffer Time: %s with %s", l.noun, l.with);
	} else {
		subject(out, "Buffer Time: your seat in a new %s with %s",
		        l.noun, l.with);
	}
	put(&l.t, "You have seat %d in a new game of Star Trek: Lower Decks - "
	    "Buffer Time for %d players,\nwith %s.", seat, g->players, l.crew);
	if (rematch_of)
		put(&l.t, " This is a rematch: the same crew, a new deal, and "
		    "the First Player passes left.");
	if (g->state.first == seat)
		put(&l.t, " You go first.\n");
	else
		put(&l.t, " %s goes first.\n",
		    describe_seat(g, g->state.first, n, sizeof n));
	at = l.t.len;
	seat_link(&l);
	put(&l.t, "\nTake your turn whenever it suits you: an email tells "
	    "you when it is your turn.\n");
	put(&l.t, "\nNew to the game? How to play: %srules\n", c->base_url);
	/* the first to move can move by reply at once (the menu is only
	 * for the seat to move) */
	return with_menu(c, g, &g->state, seat, g->seq, out, at,
	                 letter_close(&l));
}

int compose_reminder(void *ctx, const store_game *g, int nth,
                     store_mail *out)
{
	const compose_ctx *c = ctx;
	int seat = g ? to_move(&g->state) : 0;
	size_t at;
	letter l;

	if (!c || !seat || !reachable(g, seat))
		return 0;
	letter_open(&l, c, g, seat, "reminder", out);
	subject(out, "Buffer Time: reminder, your turn (round %d, %s with "
	        "%s)", g->state.round, l.noun, l.with);
	put(&l.t, "It has been your turn for ");
	put_wait(&l.t, store_now() - g->turn_since);
	put(&l.t, " in the game with %s.\n", l.crew);
	if (nth >= 2)
		put(&l.t, "This is the last reminder for this turn.\n");
	put_table(&l.t, g, &g->state, seat);
	at = l.t.len;
	seat_link(&l);
	return with_menu(c, g, &g->state, seat, g->seq, out, at,
	                 letter_close(&l));
}

int compose_nudge(const compose_ctx *c, const store_game *g, int from_seat,
                  store_mail *out)
{
	int seat = g ? to_move(&g->state) : 0;
	char n[48], short_name[CREW_NAME + 4];
	size_t at;
	letter l;

	if (!c || !seat || seat == from_seat || !reachable(g, seat))
		return 0;
	letter_open(&l, c, g, seat, "nudge", out);
	subject(out, "Buffer Time: %s asks you to take your turn (round %d, "
	        "%s with %s)", list_name(g, from_seat, short_name),
	        g->state.round, l.noun, l.with);
	put(&l.t, "%s asks you to take your turn in the game with %s.\nIt "
	    "has been your turn for ", describe_seat(g, from_seat, n,
	    sizeof n), l.crew);
	put_wait(&l.t, store_now() - g->turn_since);
	put(&l.t, ".\n");
	put_table(&l.t, g, &g->state, seat);
	at = l.t.len;
	seat_link(&l);
	return with_menu(c, g, &g->state, seat, g->seq, out, at,
	                 letter_close(&l));
}

int compose_standin(void *ctx, const store_game *g, int seat,
                    store_mail *out)
{
	const compose_ctx *c = ctx;
	letter l;

	if (!c || !g || !reachable(g, seat))
		return 0;
	letter_open(&l, c, g, seat, "standin", out);
	subject(out, "Buffer Time: a bot plays your turns for now (%s with "
	        "%s)", l.noun, l.with);
	put(&l.t, "It has been your turn for ");
	put_wait(&l.t, store_now() - g->turn_since);
	put(&l.t, " in the game with %s, so that the game goes on, a bot now "
	    "plays your seat: it knows only what your seat may see.\nOne "
	    "click on your link takes your seat back, and the next turn is "
	    "yours again.\n", l.crew);
	totals(&l.t, &g->state);
	seat_link(&l);
	return letter_close(&l);
}

/* The digest's words, once the story is read: 1, 0 (nothing new), -1. */
static int digest_letter(const compose_ctx *c, const store_game *g, int seat,
                         int64_t since, const story *s, store_mail *out)
{
	letter l;

	if (s->moves == 0 && s->talk.n == 0)
		return 0;
	letter_open(&l, c, g, seat, "digest", out);
	subject(out, "Buffer Time: daily digest (round %d, %s with %s)",
	        g->state.round, l.noun, l.with);
	put(&l.t, "What happened in the game with %s %s:\n", l.crew,
	    since ? "since your last digest" : "since it began");
	if (s->moves)
		put_moves(&l, s);
	else
		put(&l.t, "- no moves\n");
	put_talk(&l, s, "since then");
	next_up(&l.t, g, &g->state, seat);
	totals(&l.t, &g->state);
	seat_link(&l);
	return letter_close(&l);
}

int compose_digest(void *ctx, const store_game *g, int seat, int64_t since,
                   store_mail *out)
{
	const compose_ctx *c = ctx;
	story *s;
	int made;

	if (!c || !g || !reachable(g, seat))
		return 0;
	if (!(s = story_new(g, seat)))
		return -1;
	s->from = since;
	s->talk_from = since;
	made = story_read(c, s, 1) ? -1
	       : digest_letter(c, g, seat, since, s, out);
	free(s);
	return made;
}
