/*
 * page_feed.c - GET PREFIX g/ID/feed?s=N&k=KEY: the game as an Atom 1.0
 * feed (RFC 4287) for seat N, read-only, for feed readers: one entry
 * per action, in words from seat N's point of view (R10: describe.h
 * tells a seat only what it may know), and one per table-talk message,
 * newest first, the last FEED_ENTRIES of them.
 *
 * Ids are urn:uuid URIs hashed from the game id, the seat and the
 * entry's place in the game (RFC 9562 version 8), so they never change
 * when the server moves or the seat's key is renewed.  Times are RFC
 * 3339 in UTC, from when the action was stored.  The XML comes from
 * templates/feed.xml, whose {{key}} escaping (& < > " ') is XML's too;
 * texts lose the control characters XML 1.0 cannot carry first.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <sodium.h>

#include "describe.h"
#include "ended.h"
#include "query.h"
#include "vals.h"
#include "web.h"

enum {
	FEED_ENTRIES = 50,          /* entries in the feed, at most */
	TITLE_CHAT = 60,            /* bytes of a message in its title */
	UUID_URN = 46,              /* "urn:uuid:" + 36 + NUL */
	STAMP = 21                  /* "2024-05-01T12:00:00Z" + NUL */
};

/* One event: an action (chat 0) or a message. */
typedef struct item {
	int chat;
	int seq;                    /* action: line index; chat: its seq */
	int order;                  /* place in the game, for sorting */
	int move;                   /* action: 1, 2, ... */
	int64_t created;
	char author[BT_NAME_BYTES_MAX + 1];
	char title[DESCRIBE_MAX + 96];
	char text[DESCRIBE_MAX + STORE_CHAT_MAX + 64];
} item;

/* The last FEED_ENTRIES of one kind, in a ring. */
typedef struct ring {
	int total;                  /* ever kept */
	item it[FEED_ENTRIES];
} ring;

typedef struct feed_ctx {
	web *w;
	int seat;
	ring acts, chats;
	const item *shown[2 * FEED_ENTRIES];
	int n;
	char id[UUID_URN], stamp[STAMP], link[WEB_URL_MAX];
} feed_ctx;

/* The next slot of r (the oldest is overwritten once it is full). */
static item *ring_next(ring *r)
{
	item *it = &r->it[r->total % FEED_ENTRIES];

	r->total++;
	memset(it, 0, sizeof *it);
	return it;
}

/* Copies s into dst (cap bytes) for XML 1.0: the control characters it
 * forbids (all below 0x20 but tab, LF, CR) and U+FFFE, U+FFFF become
 * U+FFFD; cut at a character boundary if too long. */
static void xml_copy(char *dst, size_t cap, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t len = 0, i = 0;

	if (cap == 0)
		return;
	while (p[i] && len + 4 <= cap) {
		int ctl = p[i] < 0x20 && p[i] != '\t' && p[i] != '\n' &&
		          p[i] != '\r';
		int nonchar = p[i] == 0xEF && p[i + 1] == 0xBF &&
		              (p[i + 2] == 0xBE || p[i + 2] == 0xBF);
		if (ctl || nonchar) {
			memcpy(dst + len, "\xEF\xBF\xBD", 3);
			len += 3;
			i += ctl ? 1 : 3;
			continue;
		}
		dst[len++] = (char)p[i++];
	}
	/* cut inside a character: drop the part of it already copied */
	while (p[i] && i > 0 && len > 0 && (p[i] & 0xC0) == 0x80) {
		i--;
		len--;
	}
	dst[len] = '\0';
}

/* The title of an action: the words up to the first ": " after the
 * actor's name ("Ann played Hand Off"), and what came of it. */
static void action_title(item *it, const char *text, const bt_game *before,
                         const bt_game *after, size_t name_len)
{
	const char *colon = strstr(text + (strlen(text) > name_len
	                                   ? name_len : 0), ": ");
	int head = colon ? (int)(colon - text) : (int)strlen(text);
	char t[sizeof it->title];

	snprintf(t, sizeof t, "%.*s%s%s", head, text,
	         after->reprimands > before->reprimands ? " (Reprimand!)" : "",
	         after->status == BT_WON ? " (the game is won)"
	         : after->status == BT_LOST ? " (the game is lost)" : "");
	xml_copy(it->title, sizeof it->title, t);
}

static int on_action(void *ctx, int seq, int64_t created,
                     const bt_game *before, const bt_game *after,
                     const bt_action *a)
{
	feed_ctx *c = ctx;
	const store_game *g = &c->w->game;
	char text[DESCRIBE_MAX], t[sizeof text + 64], n[48];
	const char *name = describe_seat(g, a->seat, n, sizeof n);
	item *it = ring_next(&c->acts);

	it->seq = seq;
	it->move = c->acts.total;
	it->order = 2 * (seq + 1);
	it->created = created;
	xml_copy(it->author, sizeof it->author, name);
	/* once the game is over nothing of it is secret (as the history) */
	describe_action(before, after, a, g, g->state.status != BT_PLAYING
	                ? DESCRIBE_EVERYONE : c->seat, text, sizeof text);
	action_title(it, text, before, after, strlen(name));
	snprintf(t, sizeof t, "Round %d, move %d: %s", before->round,
	         it->move, text);
	xml_copy(it->text, sizeof it->text, t);
	return 0;
}

static int on_chat(void *ctx, const store_chat *m)
{
	feed_ctx *c = ctx;
	char n[48], said[TITLE_CHAT + 1];
	char t[BT_NAME_BYTES_MAX + sizeof said + 32];
	const char *name = describe_seat(&c->w->game, m->seat, n, sizeof n);
	item *it = ring_next(&c->chats);

	it->chat = 1;
	it->seq = m->seq;
	/* said when the game had at_seq lines: after line at_seq - 1 */
	it->order = 2 * m->at_seq + 1;
	it->created = m->created;
	xml_copy(it->author, sizeof it->author, name);
	xml_copy(said, sizeof said, m->text);   /* cut at a character */
	snprintf(t, sizeof t, "%s said: %s%s", name, said,
	         strlen(said) < strlen(m->text) ? "…" : "");
	xml_copy(it->title, sizeof it->title, t);
	xml_copy(it->text, sizeof it->text, m->text);
	return 0;
}

/* Newest first: the later place in the game, then the later message. */
static int newest_first(const void *pa, const void *pb)
{
	const item *a = *(const item *const *)pa, *b = *(const item *const *)pb;

	if (a->order != b->order)
		return a->order > b->order ? -1 : 1;
	if (a->created != b->created)
		return a->created > b->created ? -1 : 1;
	return a->seq > b->seq ? -1 : a->seq < b->seq;
}

/* Everything that happened, newest first, FEED_ENTRIES at most: the
 * game's moves (a bounded number) and a window of its newest talk, not
 * all of it (a talkative game has thousands of lines). */
static web_err collect(feed_ctx *c)
{
	store_error err;
	const ring *rings[2] = { &c->acts, &c->chats };

	if (store_walk(c->w->st, &c->w->game, -1, on_action, c, NULL, &err) !=
	        STORE_OK ||
	    store_chat_latest(c->w->st, c->w->game.id, FEED_ENTRIES, on_chat, c,
	                      &err) != STORE_OK)
		return web_store_err(c->w, __func__, &err);
	c->n = 0;
	for (int r = 0; r < 2; r++) {
		int kept = rings[r]->total < FEED_ENTRIES ? rings[r]->total
		                                          : FEED_ENTRIES;
		for (int i = 0; i < kept; i++)
			c->shown[c->n++] = &rings[r]->it[i];
	}
	qsort(c->shown, (size_t)c->n, sizeof c->shown[0], newest_first);
	if (c->n > FEED_ENTRIES)
		c->n = FEED_ENTRIES;
	return WEB_OK;
}

/* An RFC 3339 time in UTC. */
static const char *stamp(feed_ctx *c, int64_t t)
{
	time_t tt = (time_t)t;
	struct tm tm;

	if (!gmtime_r(&tt, &tm) ||
	    !strftime(c->stamp, sizeof c->stamp, "%Y-%m-%dT%H:%M:%SZ", &tm))
		snprintf(c->stamp, sizeof c->stamp, "1970-01-01T00:00:00Z");
	return c->stamp;
}

/* A urn:uuid (RFC 9562 version 8) hashed from the game, the seat and
 * what (a kind letter and a number). */
static const char *uuid(feed_ctx *c, char kind, int n)
{
	unsigned char h[16];
	char msg[STORE_ID_LEN + 64];
	int len;

	len = snprintf(msg, sizeof msg, "buffertime feed %s %d %c %d",
	               c->w->game.id, c->seat, kind, n);
	crypto_generichash(h, sizeof h, (const unsigned char *)msg,
	                   (unsigned long long)len, NULL, 0);
	h[6] = (unsigned char)((h[6] & 0x0F) | 0x80);   /* version 8 */
	h[8] = (unsigned char)((h[8] & 0x3F) | 0x80);   /* RFC variant */
	snprintf(c->id, sizeof c->id, "urn:uuid:%02x%02x%02x%02x-%02x%02x-"
	         "%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", h[0], h[1],
	         h[2], h[3], h[4], h[5], h[6], h[7], h[8], h[9], h[10], h[11],
	         h[12], h[13], h[14], h[15]);
	return c->id;
}

static const char *entry_row(void *ctx, int key, int i)
{
	feed_ctx *c = ctx;
	const item *it;

	if (i < 0 || i >= c->n)
		return NULL;
	it = c->shown[i];
	switch (key) {
	case K_entry_id: return uuid(c, it->chat ? 'c' : 'a', it->seq);
	case K_entry_title: return it->title;
	case K_entry_updated: return stamp(c, it->created);
	case K_entry_author: return it->author;
	case K_entry_content: return it->text;
	case K_entry_link:
		/* an action: the table as it was after it */
		if (it->chat)
			snprintf(c->link, sizeof c->link, "%sg/%s",
			         c->w->cf->base_url, c->w->game.id);
		else
			snprintf(c->link, sizeof c->link,
			         "%sg/%s?" QUERY_AT "=%d",
			         c->w->cf->base_url, c->w->game.id,
			         it->seq + 1);
		return c->link;
	default:
		return NULL;
	}
}

/* The feed's title and subtitle: who plays, and where the game is. */
static void headline(feed_ctx *c, char *title, size_t tcap, char *sub,
                     size_t scap)
{
	const store_game *g = &c->w->game;
	char t[BT_MAX_PLAYERS * (BT_NAME_BYTES_MAX + 8) + 64], n[48];
	char m[ENDED_MAX];

	snprintf(t, sizeof t, "Buffer Time: the game of %s",
	         describe_seat(g, c->seat, n, sizeof n));
	for (int s = 1; s <= g->players; s++)
		if (s != c->seat)
			snprintf(t + strlen(t), sizeof t - strlen(t), "%s%s",
			         s == g->players || (s == g->players - 1 &&
			                             c->seat == g->players)
			         ? " and " : ", ",
			         describe_seat(g, s, m, sizeof m));
	xml_copy(title, tcap, t);
	if (g->ended_by)
		snprintf(t, sizeof t, "%s The crew lost in round %d.",
		         ended_words(g, m, sizeof m), g->state.round);
	else if (g->state.status == BT_WON || g->state.status == BT_LOST)
		snprintf(t, sizeof t, "The crew %s in round %d.",
		         g->state.status == BT_WON ? "won" : "lost",
		         g->state.round);
	else
		snprintf(t, sizeof t, "Round %d; %s to move.", g->state.round,
		         g->state.turn == c->seat ? "you"
		         : describe_seat(g, g->state.turn, m, sizeof m));
	xml_copy(sub, scap, t);
}

web_err page_feed(web *w)
{
	static feed_ctx c;
	char title[BT_MAX_PLAYERS * (BT_NAME_BYTES_MAX + 8) + 64], sub[300];
	char self[WEB_URL_MAX], alt[WEB_URL_MAX], updated[STAMP], id[UUID_URN];
	int64_t newest;
	tmpl_rc rc;
	web_err e;
	vals v;
	tmpl_data d;
	int seat;

	/* guard */
	if ((e = seat_link_guard(w, TOKEN_FEED, &seat))) {
		if (e == WEB_FORBIDDEN)
			snprintf(w->why, sizeof w->why, "This feed address "
			         "is wrong or out of date: copy it again from "
			         "your seat's settings.");
		return e;
	}
	/* inputs: the game's events */
	memset(&c, 0, sizeof c);
	c.w = w;
	c.seat = seat;
	if ((e = collect(&c)))
		return e;
	/* render */
	newest = w->game.created;
	for (int i = 0; i < c.n; i++)
		if (c.shown[i]->created > newest)
			newest = c.shown[i]->created;
	snprintf(updated, sizeof updated, "%s", stamp(&c, newest));
	if (seat_link_url(w, TOKEN_FEED, seat, 1, self, sizeof self))
		return WEB_INTERNAL;
	snprintf(alt, sizeof alt, "%sg/%s", w->cf->base_url, w->game.id);
	headline(&c, title, sizeof title, sub, sizeof sub);
	vals_init(&v);
	snprintf(id, sizeof id, "%s", uuid(&c, 'f', 0));
	vals_set(&v, K_feed_id, id);
	vals_set(&v, K_feed_title, title);
	vals_set(&v, K_feed_subtitle, sub);
	vals_set(&v, K_feed_updated, updated);
	vals_set(&v, K_feed_self, self);
	vals_set(&v, K_feed_alt, alt);
	vals_rows(&v, K_entry, c.n);
	v.row = entry_row;
	v.ctx = &c;
	d = vals_data(&v);
	out_reset(&w->page);
	if ((rc = tmpl_render(w->tpl[TPL_FEED], &w->page, &d)) != TMPL_OK) {
		web_log(w, __func__, "feed.xml: %s", tmpl_rc_text(rc));
		return WEB_INTERNAL;
	}
	w->rs.body = &w->page;
	w->rs.ctype = "application/atom+xml; charset=utf-8";
	return WEB_OK;
}
