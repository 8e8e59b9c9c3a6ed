/*
 * compose_menu.c - the menu of an email that asks a seat to move, and
 * its signed Reply-To (compose_menu.h, compose_reply_address).
 *
 *   What you can do (reply with the number, or the words):
 *
 *   1. Get to work — Draw a Shift card. Chance of a reprimand: ...
 *      mailto:play+TOKEN@games.example.org?subject=Re%3A%20...&body=1
 *   2. ...
 *
 *   Reply with the number, or the words (for example: 1, or get to
 *   work). You can add lines starting say: for the table.
 *
 * The menu is words/menu.h's for the state the email is about, the one
 * the inbound side rebuilds to read "2".  An item's offer line is told
 * once for the items of one card (a Hand Off to each seat), as the
 * table shows it once per card.  The links' subject is "Re: " and the
 * email's, so the move files under the email it answers.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compose_menu.h"
#include "menu.h"
#include "utf8.h"

enum {
	ITEM_MAX = 16 + MENU_NAME_MAX + MENU_LINE_MAX,  /* one item's line */
	LINK_MAX = 600,        /* one mailto: line */
	NOTE_MAX = 700,        /* the lines before and after the list */
	DAY = 86400
};

#define DASH " \xe2\x80\x94 "   /* " — " */

static void fmt(char *buf, size_t cap, const char *f, ...)
	__attribute__((format(printf, 3, 4)));

/* snprintf whose cut is the caller's to see (sizes are checked). */
static void fmt(char *buf, size_t cap, const char *f, ...)
{
	va_list ap;

	va_start(ap, f);
	vsnprintf(buf, cap, f, ap);
	va_end(ap);
}

/* ---- the address ----------------------------------------------------- */

/* 1 if s[0..n) is a dot-atom of the characters msg_addr_ok takes. */
static int atom_ok(const char *s, size_t n, const char *more)
{
	if (n == 0 || s[0] == '.' || s[n - 1] == '.')
		return 0;
	for (size_t i = 0; i < n; i++) {
		char ch = s[i];
		int alnum = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z')
		            || (ch >= '0' && ch <= '9');
		if (ch == '.' ? s[i + 1] == '.' : !alnum && !strchr(more, ch))
			return 0;
	}
	return 1;
}

int compose_reply_address(compose_ctx *c, const char *reply_address)
{
	const char *at;
	size_t local, domain;

	c->reply_local[0] = c->reply_domain[0] = '\0';
	if (!reply_address || !reply_address[0])
		return 0;
	at = strrchr(reply_address, '@');
	if (!at)
		return -1;
	local = (size_t)(at - reply_address);
	domain = strlen(at + 1);
	/* no '+' of its own: the token follows the first one */
	if (local > REPLY_BASE_LOCAL_MAX || domain > STORE_EMAIL_MAX -
	    REPLY_LOCAL_MAX - 1 ||
	    !atom_ok(reply_address, local, "!#%&'*-=?^_~") ||
	    !atom_ok(at + 1, domain, "-"))
		return -1;
	memcpy(c->reply_local, reply_address, local);
	c->reply_local[local] = '\0';
	memcpy(c->reply_domain, at + 1, domain + 1);
	return 0;
}

/* seat's reply address for g at seq into out; 0 or -1. */
static int reply_to(const compose_ctx *c, const store_game *g, int seat,
                    int seq, char out[STORE_EMAIL_MAX + 1])
{
	int64_t day = (c->now_day > 0 ? c->now_day : store_now() / DAY) +
	              COMPOSE_REPLY_DAYS;
	char tok[REPLY_TOKEN_SIZE];
	reply_token t = {
		.seat = seat,
		.gen16 = (unsigned)(g->seats[seat - 1].token_gen & 0xffff),
		.seq16 = (unsigned)seq & 0xffff,
		.expires_day = day > REPLY_FIELD_MAX ? REPLY_FIELD_MAX
		                                     : (unsigned)day,
	};
	int n;

	fmt(t.game_id, sizeof t.game_id, "%s", g->id);
	if (reply_token_make(c->keys, &t, tok) != TOKEN_OK)
		return -1;
	n = snprintf(out, STORE_EMAIL_MAX + 1, "%s+%s@%s", c->reply_local, tok,
	             c->reply_domain);
	return n > 0 && n <= STORE_EMAIL_MAX ? 0 : -1;
}

/* ---- the lines --------------------------------------------------------- */

/* The pieces of the menu text, each measured before any is written. */
typedef struct parts {
	menu m;
	char item[MENU_MAX][ITEM_MAX];     /* "1. Name — offer\n" */
	char bare[MENU_MAX][ITEM_MAX];     /* "1. Name\n" */
	char link[MENU_MAX][LINK_MAX];     /* "   mailto:...\n" */
	char head[NOTE_MAX], foot[NOTE_MAX];
} parts;

/* Appends raw %-escaped (RFC 3986 unreserved kept) at out[*n]. */
static int escape(char *out, size_t cap, size_t *n, const char *raw)
{
	static const char hex[] = "0123456789ABCDEF";

	for (const unsigned char *p = (const unsigned char *)raw; *p; p++) {
		int plain = (*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z')
		            || (*p >= '0' && *p <= '9') || strchr("-._~", *p);
		if (*n + 4 >= cap)
			return -1;
		if (plain) {
			out[(*n)++] = (char)*p;
		} else {
			out[(*n)++] = '%';
			out[(*n)++] = hex[*p >> 4];
			out[(*n)++] = hex[*p & 15];
		}
	}
	out[*n] = '\0';
	return 0;
}

/* "   mailto:ADDRESS?subject=Re%3A%20SUBJECT&body=N\n"; a shorter
 * subject if the email's own makes it too long; 0 or -1. */
static int link_line(const char *addr, const char *subject, int number,
                     char out[LINK_MAX])
{
	char re[sizeof ((store_mail *)0)->subject + 8];
	size_t n;
	int w;

	fmt(re, sizeof re, "Re: %s", subject);
	for (int pass = 0; pass < 2; pass++) {
		w = snprintf(out, LINK_MAX, "   mailto:%s?subject=", addr);
		if (w < 0 || w >= LINK_MAX)
			return -1;
		n = (size_t)w;
		if (escape(out, LINK_MAX, &n, pass ? "Re: Buffer Time" : re))
			continue;
		w = snprintf(out + n, LINK_MAX - n, "&body=%d\n", number);
		if (w > 0 && (size_t)w < LINK_MAX - n)
			return 0;
	}
	return -1;
}

/* The words the example shows: the first item's, in lower case. */
static void example(const menu *m, char *buf, size_t cap)
{
	fmt(buf, cap, "%s", m->item[0].name);
	for (char *p = buf; *p; p++)
		if (*p >= 'A' && *p <= 'Z')
			*p = (char)(*p - 'A' + 'a');
}

static int parts_make(parts *p, const char *addr, const char *subject)
{
	char words[MENU_NAME_MAX];

	for (int i = 0; i < p->m.n; i++) {
		const menu_item *it = &p->m.item[i];
		const menu_item *prev = i > 0 ? &p->m.item[i - 1] : NULL;
		/* the table tells a card's line once, for all its choices */
		int told = prev && prev->a.card == it->a.card &&
		           it->a.card != BT_NO_CARD &&
		           strcmp(it->offer, prev->offer) == 0;
		fmt(p->bare[i], ITEM_MAX, "%d. %s\n", i + 1, it->name);
		if (it->offer[0] && !told)
			fmt(p->item[i], ITEM_MAX, "%d. %s" DASH "%s\n", i + 1,
			    it->name, it->offer);
		else
			fmt(p->item[i], ITEM_MAX, "%s", p->bare[i]);
		utf8_cut_valid(p->item[i]);
		if (link_line(addr, subject, i + 1, p->link[i]))
			return -1;
	}
	example(&p->m, words, sizeof words);
	fmt(p->head, NOTE_MAX, "\nWhat you can do (reply with the number, or "
	    "the words):\n\n");
	fmt(p->foot, NOTE_MAX, "\nReply with the number, or the words (for "
	    "example: 1, or %s). You can add lines starting say: for the "
	    "table.\n", words);
	utf8_cut_valid(p->foot);
	return 0;
}

/* Appends src to out (cap bytes) at *o, never past cap. */
static void add(char *out, size_t cap, size_t *o, const char *src)
{
	size_t n = strlen(src);

	if (*o + n >= cap)
		n = *o + 1 < cap ? cap - 1 - *o : 0;
	memcpy(out + *o, src, n);
	*o += n;
	out[*o] = '\0';
}

/* The menu text that fits room bytes, into out (room + 1 bytes): every
 * item with its offer and as many links as fit; else the names only,
 * as many as fit; else nothing. */
static void fitting(const parts *p, char *out, size_t room)
{
	size_t fixed = strlen(p->head) + strlen(p->foot), items = 0, bare = 0;
	size_t links = 0, o = 0;
	int n = p->m.n, k = 0, shown = n, offers = 1;
	char more[160] = "";

	for (int i = 0; i < n; i++) {
		items += strlen(p->item[i]);
		bare += strlen(p->bare[i]);
	}
	if (fixed + items <= room) {
		while (k < n && fixed + items + links + strlen(p->link[k]) <=
		       room)
			links += strlen(p->link[k++]);
	} else {
		offers = 0;
		while (shown > 0 && fixed + bare + strlen(more) > room) {
			bare -= strlen(p->bare[--shown]);
			fmt(more, sizeof more, "(and %d more: the table lists "
			    "them all)\n", n - shown);
		}
	}
	out[0] = '\0';
	if (shown == 0)
		return;
	add(out, room + 1, &o, p->head);
	for (int i = 0; i < shown; i++) {
		add(out, room + 1, &o, offers ? p->item[i] : p->bare[i]);
		if (i < k)
			add(out, room + 1, &o, p->link[i]);
	}
	add(out, room + 1, &o, more);
	add(out, room + 1, &o, p->foot);
}

int compose_menu(const compose_ctx *c, const store_game *g,
                 const bt_game *s, int seat, int seq, int sweep_waiting,
                 store_mail *m, size_t at)
{
	const char *names[BT_MAX_PLAYERS] = { 0 };
	size_t len = strlen(m->body), room;
	parts *p;
	char *text;

	if (!c || !c->reply_local[0] || seat < 1 || seat > g->players ||
	    s->status != BT_PLAYING || s->turn != seat || at > len)
		return 0;
	if (reply_to(c, g, seat, seq, m->reply_to))
		return -1;
	room = sizeof m->body - 1 - len;
	for (int i = 0; i < g->players && i < BT_MAX_PLAYERS; i++)
		names[i] = g->seats[i].name;
	if (sweep_waiting || !(p = calloc(1, sizeof *p)))
		return 0;   /* no menu: the address alone still takes words */
	text = malloc(room + 1);
	if (text && menu_build(s, seat, names, &p->m) > 0 &&
	    parts_make(p, m->reply_to, m->subject) == 0) {
		fitting(p, text, room);
		size_t n = strlen(text);
		memmove(m->body + at + n, m->body + at, len - at + 1);
		memcpy(m->body + at, text, n);
	}
	free(text);
	free(p);
	return 0;
}

int compose_reply_only(const compose_ctx *c, const store_game *g, int seat,
                       int seq, store_mail *m)
{
	if (!c || !g || !m || !c->reply_local[0] || seat < 1 ||
	    seat > g->players)
		return 0;
	if (reply_to(c, g, seat, seq, m->reply_to)) {
		m->reply_to[0] = '\0';
		return -1;
	}
	return 0;
}

/* ---- for the mailer: the menu of an email queued without it ------------ */

/* 1 if an email of this kind asks its seat to move (when it is its
 * turn): the ones compose.c gives a menu. */
static int asks_to_move(const char *kind)
{
	static const char *const kinds[] = { "seat", "turn", "reminder",
	                                     "nudge" };

	for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
		if (strcmp(kind, kinds[i]) == 0)
			return 1;
	return 0;
}

/* Where compose.c put the seat's link in body (its menu goes before
 * it), or NULL: the last one, as talk quoted above it may hold the
 * same words. */
static const char *seat_link_at(const char *body)
{
	const char *at = NULL;

	for (const char *p = body; (p = strstr(p, COMPOSE_SEAT_LINK)); p++)
		at = p;
	return at;
}

int compose_menu_late(const compose_ctx *c, const store_game *g,
                      store_outmail *o)
{
	const char *link;
	store_mail *m;
	int rc;

	if (!c || !g || !o || !c->reply_local[0] || o->reply_to[0] ||
	    !asks_to_move(o->kind) || strcmp(o->game, g->id) != 0 ||
	    o->seat < 1 || o->seat > g->players ||
	    g->state.status != BT_PLAYING || g->state.turn != o->seat ||
	    !(link = seat_link_at(o->body)))
		return 0;
	if (!(m = calloc(1, sizeof *m)))
		return -1;
	m->seat = o->seat;
	fmt(m->kind, sizeof m->kind, "%s", o->kind);
	fmt(m->to, sizeof m->to, "%s", o->to);
	fmt(m->subject, sizeof m->subject, "%s", o->subject);
	fmt(m->body, sizeof m->body, "%s", o->body);
	rc = compose_menu(c, g, &g->state, o->seat, g->seq,
	                  g->sweep_card != BT_NO_CARD, m,
	                  (size_t)(link - o->body));
	if (rc == 0 && m->reply_to[0]) {
		fmt(o->body, sizeof o->body, "%s", m->body);
		fmt(o->reply_to, sizeof o->reply_to, "%s", m->reply_to);
		rc = 1;
	}
	free(m);
	return rc;
}
