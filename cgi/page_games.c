/*
 * page_games.c - GET PREFIX games: every game this browser holds a seat
 * in, from its seat cookies (bt_ID, Path PREFIX: page_join.c), the games
 * waiting on this browser first (the longest wait first), then those
 * waiting on others, then the finished ones (latest first).
 *
 * Games of one crew (a rematch chain: store_crew) are listed together,
 * the newest first, where the crew's newest game would be; two games or
 * more of one crew are a list of their own, after a line of their
 * results (a paragraph, not an item: it counts the games listed under
 * it).  Each game is named by what it is among its crew's ("Ann, Bob
 * and Cyd — rematch 2", "— practice": names_game_noun), as its
 * emails' subjects are.
 *
 * Each cookie counts as it does on the game's own pages (seat.c): a
 * token of ours, for that very game, of the seat's current generation.
 * Anything else is skipped without a word.  At most GAMES_MAX cookies
 * are looked at, so a stuffed Cookie header costs a bounded number of
 * loads.  A browser signed in by "Email me my games" (signin.h) lists
 * the seats of its address besides, GAMES_MAX games in all.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "describe.h"
#include "fields.h"
#include "marks.h"
#include "names.h"
#include "query.h"
#include "signin.h"
#include "since.h"
#include "vals.h"
#include "web.h"

enum {
	GAMES_MAX = 100,              /* bt_ cookies looked at */
	PLAYERS_TEXT = BT_MAX_PLAYERS * (BT_NAME_BYTES_MAX + 8) + 16 +
	               NAMES_NOUN_MAX,
	NAME_TEXT = BT_NAME_BYTES_MAX + 16,
	CREW_TEXT = 320
};

/* Which list a game is in, in the order shown. */
typedef enum group { YOURS, THEIRS, OVER } group;

/* What the page shows of one game. */
typedef struct mine {
	char id[STORE_ID_LEN + 1];
	int crew;                       /* its crew in games_ctx.crews */
	int64_t created;
	group grp;
	int seat, round;
	bt_status status;
	int64_t since, updated;
	char players[PLAYERS_TEXT];
	char mover[NAME_TEXT];
	char you[NAME_TEXT];
	char status_text[64 + MARKS_MAX];   /* "won · practice table ..." */
} mine;

/* A crew (store_crew) one of the games belongs to: its games' ids, to
 * know the others of it without asking the store again, how each was
 * played, and the results of those listed (crew_counts). */
typedef struct crew_info {
	int n;                          /* its games in ids */
	int listed, won, lost, hints, bots;
	int rank;                       /* its newest listed game's place
	                                 * by urgency */
	char ids[STORE_CREW_MAX][STORE_ID_LEN + 1];
	unsigned char practice[STORE_CREW_MAX], bot_moved[STORE_CREW_MAX];
} crew_info;

typedef struct games_ctx {
	web *w;
	int n, ncrews;
	mine g[GAMES_MAX];
	crew_info crews[GAMES_MAX];
	char url[WEB_URL_MAX], turn[NAME_TEXT + 64], round[16];
	char crew_line[CREW_TEXT];
} games_ctx;

/* The seat that must act now: a pending Sensor Sweep's, else the
 * turn's; 0 once the game is over. */
static int mover(const store_game *g)
{
	if (g->state.status != BT_PLAYING)
		return 0;
	return g->sweep_card != BT_NO_CARD ? g->sweep_seat : g->state.turn;
}

/* "Ann, Bob and Cyd" into buf. */
static void players_text(const store_game *g, char *buf, size_t cap)
{
	char n[48];
	size_t len = 0;

	buf[0] = '\0';
	for (int s = 1; s <= g->players && len < cap; s++) {
		int k = snprintf(buf + len, cap - len, "%s%s",
		                 s == 1 ? "" : s == g->players ? " and " : ", ",
		                 describe_seat(g, s, n, sizeof n));
		len = k < 0 ? cap : len + (size_t)k;
	}
}

/* " — rematch 2", " — practice" after the players: which of its
 * crew's games g is ("" for a first game). */
static void add_noun(web *w, const store_game *g, char *buf, size_t cap)
{
	char noun[NAMES_NOUN_MAX];
	size_t len = strlen(buf);

	names_game_noun(w->st, g, NULL, noun, sizeof noun);
	if (strcmp(noun, "game") == 0)
		return;
	if (strcmp(noun, "practice game") == 0)
		noun[8] = '\0';            /* "practice" */
	snprintf(buf + len, cap - len, " \xe2\x80\x94 %s", noun);
}

/* Fills m from game g as seen by seat. */
static void summarise(web *w, const store_game *g, int seat,
                      const char *marks, mine *m)
{
	char n[48];
	int who = mover(g);

	snprintf(m->id, sizeof m->id, "%s", g->id);
	m->created = g->created;
	m->seat = seat;
	m->grp = who == 0 ? OVER : who == seat ? YOURS : THEIRS;
	m->round = g->state.round;
	m->status = g->state.status;
	/* a game from before turn_since was kept: its last change */
	m->since = g->turn_since ? g->turn_since : g->updated;
	m->updated = g->updated;
	players_text(g, m->players, sizeof m->players);
	add_noun(w, g, m->players, sizeof m->players);
	snprintf(m->mover, sizeof m->mover, "%s",
	         who ? describe_seat(g, who, n, sizeof n) : "");
	snprintf(m->you, sizeof m->you, "%s (seat %d)",
	         describe_seat(g, seat, n, sizeof n), seat);
	snprintf(m->status_text, sizeof m->status_text, "%s%s%s",
	         m->grp == OVER ? (m->status == BT_WON ? "won"
	                           : g->ended_by ? "lost: ended early, as it "
	                             "could no longer be won" : "lost")
	         : "playing", marks[0] ? " · " : "", marks);
}

/* The crew that holds id among those met so far, or -1. */
static int known_crew(const games_ctx *c, const char *id)
{
	for (int k = 0; k < c->ncrews; k++)
		for (int i = 0; i < c->crews[k].n; i++)
			if (strcmp(c->crews[k].ids[i], id) == 0)
				return k;
	return -1;
}

/* Finds m's crew: one met already, or a new one from the store. */
static web_err crew_of(games_ctx *c, mine *m)
{
	static store_crew_game crew[STORE_CREW_MAX];
	store_error err;
	int n;

	if ((m->crew = known_crew(c, m->id)) >= 0)
		return WEB_OK;
	if (c->ncrews >= GAMES_MAX ||
	    store_crew(c->w->st, m->id, crew, STORE_CREW_MAX, &n, &err)
	    != STORE_OK)
		return c->ncrews >= GAMES_MAX ? WEB_INTERNAL
		       : web_store_err(c->w, __func__, &err);
	crew_info *k = &c->crews[c->ncrews];
	memset(k, 0, sizeof *k);
	for (int i = 0; i < n; i++) {
		memcpy(k->ids[i], crew[i].id, sizeof k->ids[i]);
		k->practice[i] = crew[i].practice != 0;
		k->bot_moved[i] = crew[i].bot_moved != 0;
	}
	k->n = n;
	m->crew = c->ncrews++;
	return WEB_OK;
}

/* Adds game id if seat is held there: by a seat cookie's token of
 * generation gen, or (gen < 0) by the browser's sign-in, whose seats
 * store_address_seats has just found.  Returns WEB_OK (added or
 * skipped) or a store error. */
static web_err add_game(games_ctx *c, const char *id, int seat, int64_t gen)
{
	static store_game g;
	store_error err;

	if (c->n >= GAMES_MAX)
		return WEB_OK;
	for (int i = 0; i < c->n; i++)
		if (strcmp(c->g[i].id, id) == 0)
			return WEB_OK;      /* the same game twice */
	if (store_load(c->w->st, id, &g, &err) != STORE_OK)
		return err.rc == STORE_NOT_FOUND ? WEB_OK
		       : web_store_err(c->w, __func__, &err);
	if (seat < 1 || seat > g.players ||
	    (gen >= 0 && gen != g.seats[seat - 1].token_gen))
		return WEB_OK;
	char marks[MARKS_MAX];
	game_marks(c->w, &g, marks, sizeof marks);
	summarise(c->w, &g, seat, marks, &c->g[c->n]);
	return crew_of(c, &c->g[c->n++]);
}

/* Adds the game of cookie name (bt_ID) if its token holds a seat there
 * now. */
static web_err consider(games_ctx *c, const char *name)
{
	char tok[COOKIE_VALUE_MAX], id[TOKEN_GAME_ID_LEN + 1];
	int64_t gen;
	int seat;

	if (cookie_get(c->w->rq.cookie, name, tok, sizeof tok) != COOKIE_OK ||
	    token_check(&c->w->keys, tok, id, &seat, &gen) != TOKEN_OK ||
	    strcmp(id, name + 3) != 0)
		return WEB_OK;
	return add_game(c, id, seat, gen);
}

/* Adds the seats of the browser's sign-in, if it has one (*si). */
static web_err read_signin(games_ctx *c, store_signin *si, int *signed_in)
{
	static store_seat_ref refs[GAMES_MAX];
	store_error err;
	web_err e;
	int n;

	if (!(*signed_in = signin_of(c->w, si)))
		return WEB_OK;
	if (store_address_seats(c->w->st, si->address, refs, GAMES_MAX, &n,
	                        &err) != STORE_OK)
		return web_store_err(c->w, __func__, &err);
	for (int i = 0; i < n; i++)
		if ((e = add_game(c, refs[i].game, refs[i].seat, -1)))
			return e;
	return WEB_OK;
}

/* Walks the Cookie header ("a=b; bt_X=T; ..."), considering every
 * cookie whose name is bt_ and a game id's length, GAMES_MAX at most. */
static web_err read_cookies(games_ctx *c)
{
	const char *p = c->w->rq.cookie;
	char name[8 + STORE_ID_LEN];
	web_err e;
	int seen = 0;

	while (*p && seen < GAMES_MAX) {
		size_t n;
		p += strspn(p, " \t;");
		n = strcspn(p, "=;");
		if (n == 3 + STORE_ID_LEN && strncmp(p, "bt_", 3) == 0 &&
		    p[n] == '=') {
			memcpy(name, p, n);
			name[n] = '\0';
			seen++;
			if ((e = consider(c, name)))
				return e;
		}
		p += strcspn(p, ";");
	}
	return WEB_OK;
}

/* Yours (longest wait first), theirs (likewise), then the finished
 * (latest first); the id settles ties, so the order is stable. */
static int by_urgency(const void *pa, const void *pb)
{
	const mine *a = pa, *b = pb;

	if (a->grp != b->grp)
		return a->grp < b->grp ? -1 : 1;
	if (a->grp != OVER && a->since != b->since)
		return a->since < b->since ? -1 : 1;
	if (a->grp == OVER && a->updated != b->updated)
		return a->updated > b->updated ? -1 : 1;
	return strcmp(a->id, b->id);
}

/* The crews in the place of their newest listed game, each newest
 * first; the games already in order by urgency (their place). */
static int by_crew(const void *pa, const void *pb, const crew_info *crews)
{
	const mine *a = pa, *b = pb;
	int ra = crews[a->crew].rank, rb = crews[b->crew].rank;

	if (ra != rb)
		return ra < rb ? -1 : 1;
	if (a->created != b->created)
		return a->created > b->created ? -1 : 1;
	return strcmp(a->id, b->id);
}

static const crew_info *sorting;   /* by_crew's crews, for qsort */

static int by_crew_qsort(const void *pa, const void *pb)
{
	return by_crew(pa, pb, sorting);
}

/* Orders c->g by urgency, then puts each crew's games together. */
static void order(games_ctx *c)
{
	qsort(c->g, (size_t)c->n, sizeof c->g[0], by_urgency);
	for (int k = 0; k < c->ncrews; k++)
		c->crews[k].rank = -1;
	for (int i = 0; i < c->n; i++) {
		crew_info *k = &c->crews[c->g[i].crew];
		if (k->rank < 0 || c->g[i].created > c->g[k->rank].created)
			k->rank = i;
	}
	sorting = c->crews;
	qsort(c->g, (size_t)c->n, sizeof c->g[0], by_crew_qsort);
}

/* Each crew's results over its games listed here, so that its line
 * counts what is under it. */
static void crew_counts(games_ctx *c)
{
	for (int i = 0; i < c->n; i++) {
		const mine *m = &c->g[i];
		crew_info *k = &c->crews[m->crew];
		k->listed++;
		k->won += m->status == BT_WON;
		k->lost += m->status == BT_LOST;
		for (int j = 0; j < k->n; j++)
			if (strcmp(k->ids[j], m->id) == 0) {
				k->hints += k->practice[j];
				k->bots += k->bot_moved[j];
				break;
			}
	}
}

/* 1 if game i starts or is in a list of its crew's (two games or more
 * listed). */
static int in_crew_list(const games_ctx *c, int i)
{
	return i >= 0 && i < c->n && c->crews[c->g[i].crew].listed >= 2;
}

/* The markup before game i (HTML this file builds; numbers only): a
 * crew of two games or more listed gets a list of its own, after its
 * line "A crew of 3 games: 2 won, 1 lost; hints on in 1, bot moves in
 * 2"; the list of games alone goes on after it. */
static const char *crew_line(games_ctx *c, int i)
{
	const crew_info *k = &c->crews[c->g[i].crew];
	int playing = k->listed - k->won - k->lost;
	int same = i > 0 && c->g[i - 1].crew == c->g[i].crew;
	size_t len;

	c->crew_line[0] = '\0';
	if (same)
		return c->crew_line;
	if (!in_crew_list(c, i)) {
		if (in_crew_list(c, i - 1))
			snprintf(c->crew_line, sizeof c->crew_line, "</ol>\n"
			         "<ol class=\"mygames\">\n");
		return c->crew_line;
	}
	snprintf(c->crew_line, sizeof c->crew_line, "</ol>\n<p class=\""
	         "crewline\">A crew of %d games: %d won, %d lost", k->listed,
	         k->won, k->lost);
	len = strlen(c->crew_line);
	if (playing > 0)
		snprintf(c->crew_line + len, sizeof c->crew_line - len,
		         ", %d in play", playing);
	len = strlen(c->crew_line);
	if (k->hints || k->bots)
		snprintf(c->crew_line + len, sizeof c->crew_line - len,
		         "; %s%.0d%s%s%.0d", k->hints ? "hints on in " : "",
		         k->hints, k->hints && k->bots ? ", " : "",
		         k->bots ? "bot moves in " : "", k->bots);
	len = strlen(c->crew_line);
	snprintf(c->crew_line + len, sizeof c->crew_line - len, "</p>\n"
	         "<ol class=\"mygames crew\">\n");
	return c->crew_line;
}

/* "Your turn, for 3 hours", "Waiting for Bob for 2 days", "Won". */
static const char *turn_words(games_ctx *c, const mine *m)
{
	char span[SINCE_MAX];

	since_words(store_now() - m->since, span, sizeof span);
	if (m->grp == YOURS)
		snprintf(c->turn, sizeof c->turn, "Your turn, for %s", span);
	else if (m->grp == THEIRS)
		snprintf(c->turn, sizeof c->turn, "Waiting for %s for %s",
		         m->mover, span);
	else
		snprintf(c->turn, sizeof c->turn, "The crew %s",
		         m->status == BT_WON ? "won" : "lost");
	return c->turn;
}

static const char *games_row(void *ctx, int key, int i)
{
	games_ctx *c = ctx;
	const mine *m;

	if (i < 0 || i >= c->n)
		return NULL;
	m = &c->g[i];
	switch (key) {
	case K_mygame_url:
		snprintf(c->url, sizeof c->url, "%sg/%s", c->w->cf->prefix,
		         m->id);
		return c->url;
	case K_mygame_class:
		return m->grp == YOURS ? "yours" : m->grp == OVER ? "over"
		       : "theirs";
	case K_mygame_players: return m->players;
	case K_mygame_you: return m->you;
	case K_mygame_round:
		snprintf(c->round, sizeof c->round, "%d", m->round);
		return c->round;
	case K_mygame_turn: return turn_words(c, m);
	case K_mygame_turn_class:
		return m->grp == YOURS ? "mine" : m->grp == OVER ? "over" : "";
	case K_mygame_status:
		return m->status_text;
	case K_mygame_crew:
		return crew_line(c, i);
	default:
		return NULL;
	}
}

web_err page_games(web *w)
{
	static games_ctx c;
	static store_signin si;
	static char signin_url[WEB_URL_MAX];
	const char *m = field_text(&w->rq.query, FIELD_NOTICE);
	int signed_in = 0;
	char summary[96];
	int yours = 0;
	web_err e;
	vals v;
	tmpl_data d;

	/* guard: none of its own; each cookie is checked in read_cookies */
	c.w = w;
	c.n = 0;
	c.ncrews = 0;
	/* inputs */
	if ((e = read_cookies(&c)) || (e = read_signin(&c, &si, &signed_in)))
		return e;
	order(&c);
	crew_counts(&c);
	/* render */
	for (int i = 0; i < c.n; i++)
		yours += c.g[i].grp == YOURS;
	if (yours)
		snprintf(summary, sizeof summary, "%d game%s wait%s on you.",
		         yours, yours == 1 ? "" : "s", yours == 1 ? "s" : "");
	else
		snprintf(summary, sizeof summary, "No game waits on you.");
	vals_init(&v);
	vals_show(&v, K_has_games, c.n > 0);
	vals_set(&v, K_games_summary, summary);
	vals_set(&v, K_home_url, w->cf->prefix);
	snprintf(signin_url, sizeof signin_url, "%ssignin", w->cf->prefix);
	vals_set(&v, K_signin_url, signin_url);
	vals_show(&v, K_signed_in, signed_in);
	vals_set(&v, K_signed_in_as, signed_in ? si.address : "");
	vals_show(&v, K_has_notice, signed_in && m &&
	          strcmp(m, QUERY_NOTICE_SIGNED_IN) == 0);
	vals_rows(&v, K_mygame, c.n);
	v.row = games_row;
	v.ctx = &c;
	d = vals_data(&v);
	return resp_page(w, 200, "My games", TPL_GAMES, &d);
}
