/*
 * compose_table.c - the table in plain text (compose_table.h), and the
 * review's biggest turning point for the game-over email.
 *
 * Lists of cards are wrapped at item boundaries, each line of a list
 * indented, so that a narrow mail program shows them as written; the
 * column counts characters, not bytes (names may be UTF-8).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compose_table.h"
#include "describe.h"
#include "offer.h"

enum {
	WIDTH = COMPOSE_TABLE_WIDTH,
	ITEM_MAX = 160,            /* one card or one hand count in words */
	INDENT = 2                 /* a list's lines under its heading */
};

/* The text being written; col: characters on its last line. */
typedef struct tab {
	char *buf;
	size_t cap, len;
	int col;
	int over;
} tab;

/* Characters of s (UTF-8: its bytes that start one). */
static int chars(const char *s)
{
	int n = 0;

	for (; *s; s++)
		n += ((unsigned char)*s & 0xC0) != 0x80;
	return n;
}

static void add(tab *t, const char *s)
{
	size_t n = strlen(s);

	if (t->over)
		return;
	if (t->len + n >= t->cap) {
		t->over = 1;
		return;
	}
	memcpy(t->buf + t->len, s, n + 1);
	t->len += n;
	for (const char *p = s; *p; p++)
		if (*p == '\n')
			t->col = 0;
		else if (((unsigned char)*p & 0xC0) != 0x80)
			t->col++;
}

static void addf(tab *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void addf(tab *t, const char *fmt, ...)
{
	char line[2 * ITEM_MAX + OFFER_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	add(t, line);
}

/* One item of a list: after sep on this line if it fits, else on a new
 * line indented by INDENT. */
static void item(tab *t, const char *sep, const char *s)
{
	if (t->col + chars(sep) + chars(s) > WIDTH && t->col > INDENT) {
		add(t, sep[0] == ',' ? ",\n" : "\n");
		add(t, "  ");
		add(t, s);
		return;
	}
	add(t, sep);
	add(t, s);
}

/* Words wrapped at WIDTH, every line after the first indented by
 * indent spaces (a hand card's rules text). */
static void words(tab *t, const char *s, int indent)
{
	char w[ITEM_MAX];

	while (*s == ' ')
		s++;
	while (*s) {
		size_t n = strcspn(s, " ");
		if (n >= sizeof w)
			n = sizeof w - 1;
		memcpy(w, s, n);
		w[n] = '\0';
		if (t->col + 1 + chars(w) > WIDTH && t->col > indent) {
			add(t, "\n");
			for (int i = 0; i < indent; i++)
				add(t, " ");
		} else if (t->col > 0) {
			add(t, " ");
		}
		add(t, w);
		s += n;
		while (*s == ' ')
			s++;
	}
}

/* ---- cards ------------------------------------------------------------- */

/* "Eager Ensign (Effort 2)", "Captain (3 Officers)", "Trivia Night
 * (Target 2, Leisure 2)", "Holodeck Reservation (Leisure 2)". */
static const char *card(bt_card c, char buf[ITEM_MAX])
{
	const bt_card_info *k = bt_card_get(c);

	if (k->officers)
		snprintf(buf, ITEM_MAX, "%s (%d Officer%s)", k->name,
		         k->officers, k->officers == 1 ? "" : "s");
	else if (k->type == BT_TYPE_SHIFT || k->effort)
		snprintf(buf, ITEM_MAX, "%s (Effort %d)", k->name, k->effort);
	else if (k->type == BT_TYPE_ASSIGNMENT || k->type == BT_TYPE_SIDE)
		snprintf(buf, ITEM_MAX, "%s (Target %d, Leisure %d)", k->name,
		         k->target, k->leisure);
	else if (k->leisure)
		snprintf(buf, ITEM_MAX, "%s (Leisure %d)", k->name, k->leisure);
	else
		snprintf(buf, ITEM_MAX, "%s", k->name);
	return buf;
}

/* "Heading: A (..), B (..)" wrapped; "none" for no cards. */
static void pile(tab *t, const char *heading, const bt_card *c, int n)
{
	char b[ITEM_MAX];

	add(t, heading);
	if (n == 0)
		add(t, " none");
	for (int i = 0; i < n; i++)
		item(t, i == 0 ? " " : ", ", card(c[i], b));
	add(t, "\n");
}

/* A list's cards on lines of their own under a heading line. */
static void list_below(tab *t, const bt_card *c, int n)
{
	char b[ITEM_MAX];

	for (int i = 0; i < n; i++) {
		if (i == 0)
			add(t, "  ");
		item(t, i == 0 ? "" : ", ", card(c[i], b));
	}
	if (n > 0)
		add(t, "\n");
}

/* ---- the parts ---------------------------------------------------------- */

static void duty(tab *t, const bt_game *s)
{
	char b[ITEM_MAX];

	add(t, "Duty Assignment: ");
	add(t, s->duty == BT_NO_CARD ? "none" : card(s->duty, b));
	add(t, "\n");
	pile(t, "Side Projects in play:", s->side_play, s->side_play_n);
}

static void stack(tab *t, const bt_game *s, int seat)
{
	char risk[OFFER_MAX];
	int num, den;

	addf(t, "Shift Stack: Effort %d of Target %d, Officers %d (a "
	     "reprimand at %d)\n", s->effort, s->target, s->officers,
	     BT_REPRIMAND_OFFICERS);
	list_below(t, s->stack, s->stack_n);
	if (s->status != BT_PLAYING)
		return;
	bt_risk(s, seat, &num, &den);
	if (den > 0) {
		offer_risk(num, den, risk, sizeof risk);
		add(t, "Chance the next Shift card brings a reprimand:");
		words(t, risk, INDENT);
		add(t, "\n");
	}
}

static void row(tab *t, const bt_game *s)
{
	addf(t, "Scoring Row: Leisure %d of the goal of %d\n", s->leisure,
	     bt_goal(s));
	list_below(t, s->row, s->row_n);
	char reach[OFFER_MAX];
	if (offer_out_of_reach(s, reach, sizeof reach)) {
		words(t, reach, 0);
		add(t, "\n");
	}
}

static void decks(tab *t, const bt_game *s)
{
	char b[ITEM_MAX];

	add(t, "Decks:");
	snprintf(b, sizeof b, "%d Assignment%s", s->assignment_deck.n,
	         s->assignment_deck.n == 1 ? "" : "s");
	item(t, " ", b);
	snprintf(b, sizeof b, "%d Shift card%s", s->shift_deck.n,
	         s->shift_deck.n == 1 ? "" : "s");
	item(t, ", ", b);
	snprintf(b, sizeof b, "%d Side Project%s", s->side_deck.n,
	         s->side_deck.n == 1 ? "" : "s");
	item(t, ", ", b);
	snprintf(b, sizeof b, "%d Ability card%s", s->ability_deck.n,
	         s->ability_deck.n == 1 ? "" : "s");
	item(t, ", ", b);
	add(t, "\n");
}

/* The others' hands: counts only (R10). */
static void hands(tab *t, const store_game *g, const bt_game *s, int seat)
{
	char b[ITEM_MAX], n[64];
	int any = 0;

	add(t, "Other hands:");
	for (int p = 1; p <= s->players; p++) {
		int k = bt_hand_size(s, p);
		if (p == seat)
			continue;
		snprintf(b, sizeof b, "%s %d card%s",
		         describe_seat(g, p, n, sizeof n), k, k == 1 ? "" : "s");
		item(t, any++ ? ", " : " ", b);
	}
	add(t, "\n");
}

/* The top of the Shift Deck as far as seat's Sensor Sweep showed it. */
static void known(tab *t, const bt_game *s, int seat)
{
	const bt_pile *d = &s->shift_deck;
	bt_card top[BT_SWEEP_CARDS];
	int k = s->known_top[seat - 1];

	if (k > d->n)
		k = d->n;
	if (k > BT_SWEEP_CARDS)
		k = BT_SWEEP_CARDS;
	if (k <= 0 || s->status != BT_PLAYING)
		return;
	for (int i = 0; i < k; i++)
		top[i] = d->c[d->n - 1 - i];
	add(t, "Only you know the top of the Shift Deck (your Sensor Sweep), "
	    "top first:\n");
	list_below(t, top, k);
}

/* 1 if a legal action of the seat to move plays card c. */
static int playable(const bt_action *legal, int n, bt_card c)
{
	for (int i = 0; i < n; i++)
		if (legal[i].card == c)
			return 1;
	return 0;
}

static void hand(tab *t, const store_game *g, const bt_game *s, int seat)
{
	static bt_action legal[BT_MAX_LEGAL];   /* large: not on the stack */
	uint64_t h = s->hand[seat - 1];
	int size = bt_hand_size(s, seat), to_move = s->status == BT_PLAYING
	           && s->turn == seat;
	int n = to_move ? bt_legal(s, legal, BT_MAX_LEGAL) : 0;
	char b[ITEM_MAX];

	if (size == 0) {
		add(t, "Your hand: no cards\n");
		return;
	}
	addf(t, "Your hand (%d card%s%s):\n", size, size == 1 ? "" : "s",
	     to_move ? "; to play one, choose its move below" : "");
	for (int c = 0; c < BT_HANDABLE_COUNT; c++) {
		bt_kind kind = bt_card_get((bt_card)c)->kind;
		if (!(h >> c & 1))
			continue;
		add(t, "- ");
		add(t, card((bt_card)c, b));
		if (g->sweep_card == c && g->sweep_seat == seat)
			add(t, " (you are playing it: reply with the order)");
		else if (to_move && !playable(legal, n, (bt_card)c))
			add(t, " (not playable now)");
		if (kind != BT_KIND_NONE) {
			add(t, ":");
			words(t, bt_kind_short(kind), INDENT);
		}
		add(t, "\n");
	}
}

int compose_table(const store_game *g, const bt_game *s, int seat,
                  char *buf, size_t cap)
{
	tab t = { buf, cap, 0, 0, 0 };

	if (!g || !s || !buf || cap == 0 || seat < 1 || seat > s->players)
		return -1;
	buf[0] = '\0';
	addf(&t, "The table, round %d (the goal: %d Leisure):\n", s->round,
	     bt_goal(s));
	duty(&t, s);
	stack(&t, s, seat);
	row(&t, s);
	decks(&t, s);
	hands(&t, g, s, seat);
	known(&t, s, seat);
	hand(&t, g, s, seat);
	if (t.over) {
		char *nl = strrchr(buf, '\n');
		if (nl)
			nl[1] = '\0';
		else
			buf[0] = '\0';
		return -1;
	}
	return 0;
}

/* ---- the review's turning point ------------------------------------------ */

/* The move being told, found by the walk. */
typedef struct turning {
	const store_game *g;
	int seat, k;
	char *buf;
	size_t cap;
	int told;
} turning;

static int tell(void *ctx, int seq, int64_t created, const bt_game *before,
                const bt_game *after, const bt_action *a)
{
	turning *tp = ctx;
	(void)created;

	if (seq != tp->k)
		return 0;
	describe_action(before, after, a, tp->g, tp->seat, tp->buf, tp->cap);
	tp->told = before->round;
	return 1;
}

static int percent(double p)
{
	return (int)(p * 100.0 + 0.5);
}

int compose_turning_point(store *st, const store_game *g, int seat,
                          char *buf, size_t cap)
{
	store_review_move *m;
	char what[DESCRIBE_MAX], line[DESCRIBE_MAX + 200];
	turning tp = { g, seat, -1, what, sizeof what, 0 };
	store_error err;
	double end, d, best = -1;
	int n = 0, bi = 0;
	tab t;

	if (!st || !g || !buf || cap == 0 || g->seq <= 0 ||
	    g->state.status == BT_PLAYING)
		return 0;
	if (!(m = calloc((size_t)g->seq, sizeof *m)))
		return -1;
	if (store_review_get(st, g->id, m, g->seq, &n, &err) != STORE_OK) {
		free(m);
		return -1;
	}
	end = g->state.status == BT_WON ? 1.0 : 0.0;
	for (int k = 0; k < n && n == g->seq; k++) {
		d = (k + 1 < n ? m[k + 1].before : end) - m[k].before;
		if ((d < 0 ? -d : d) > best) {
			best = d < 0 ? -d : d;
			bi = k;
		}
	}
	if (n != g->seq) {
		free(m);
		return 0;
	}
	tp.k = bi;
	if (store_walk(st, g, -1, tell, &tp, NULL, &err) != STORE_OK ||
	    !tp.told) {
		free(m);
		return -1;
	}
	snprintf(line, sizeof line, "Move %d of %d, in round %d: %s. The "
	         "crew's chance of winning went from %d%% to %d%%.", bi + 1, n,
	         tp.told, what, percent(m[bi].before),
	         percent(bi + 1 < n ? m[bi + 1].before : end));
	free(m);
	t = (tab){ buf, cap, 0, 0, 0 };
	buf[0] = '\0';
	words(&t, line, 0);
	add(&t, "\n");
	return t.over ? -1 : 1;
}

/* The last place COMPOSE_REVIEW_SOON is in body, or NULL. */
static char *review_soon_at(char *body)
{
	char *at = NULL;

	for (char *p = body; (p = strstr(p, COMPOSE_REVIEW_SOON)); p++)
		at = p;
	return at;
}

int compose_turning_point_late(store *st, const store_game *g,
                               store_outmail *o)
{
	static const char told[] = "Where was it won or lost? The biggest "
	                           "turning point of the review:\n";
	static const char whole[] = "The whole review is on the table:\n";
	char *turn, *at;
	size_t soon = strlen(COMPOSE_REVIEW_SOON), n, rest;
	int rc;

	if (!st || !g || !o || strcmp(o->kind, "over") != 0 ||
	    strcmp(o->game, g->id) != 0 || o->seat < 1 ||
	    o->seat > g->players || !(at = review_soon_at(o->body)))
		return 0;
	if (!(turn = malloc(COMPOSE_TABLE_MAX)))
		return -1;
	turn[0] = '\0';
	rc = compose_turning_point(st, g, o->seat, turn, COMPOSE_TABLE_MAX);
	n = strlen(told) + strlen(turn) + strlen(whole);
	rest = strlen(at + soon);
	if (rc == 1 && (size_t)(at - o->body) + n + rest < sizeof o->body) {
		memmove(at + n, at + soon, rest + 1);
		memcpy(at, told, strlen(told));
		memcpy(at + strlen(told), turn, strlen(turn));
		memcpy(at + strlen(told) + strlen(turn), whole, strlen(whole));
	} else if (rc == 1) {
		rc = 0;     /* no room: the link alone, as queued */
	}
	free(turn);
	return rc;
}
