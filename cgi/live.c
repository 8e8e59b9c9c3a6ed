/*
 * live.c - the table page's ETag, so that a table left open can ask
 * cheaply whether anything on it changed (www/live.js polls with
 * If-None-Match every few seconds) and be answered 304 Not Modified
 * without the game being loaded or the page drawn.
 *
 * The tag is "GAME-CLOCK", two hashes:
 *   GAME   of everything the view shows that something done to the game
 *          changes: the store's mark (moves, a sweep step, table talk,
 *          the seats' names, settings and tokens, stand-ins and the
 *          asks for them, this seat's nudges,
 *          play again, the review's progress, the hints of a practice table's
 *          turn, the games after it in its crew), who looks (the
 *          seat, or a spectator), the query (?at=N, ?m=), the program's
 *          version and its links;
 *   CLOCK  of the words the page uses for how long something has lasted
 *          ("for 2 days", "3 minutes ago", "the next one can go in 5
 *          hours"), made exactly as the page makes them, so the tag
 *          moves the minute the words do, and not between.
 * live.js tells the two apart: a new GAME is news, a new CLOCK only
 * stale words.  A wrong match would show a player a stale table, so
 * the hashes take more than the page needs rather than less; the tag is
 * made before the page is drawn, so a page is never older than its tag.
 */
#include <sodium.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "fields.h"
#include "signin.h"
#include "since.h"
#include "table.h"

enum { PART_BYTES = 8 };          /* of each hash: 16 hex digits */

/* Adds one field to h: its length, then its bytes, so that no two
 * sequences of fields hash alike. */
static void put(crypto_generichash_state *h, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void put(crypto_generichash_state *h, const char *fmt, ...)
{
	char buf[512], len[24];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	if (n < 0)
		n = 0;
	if ((size_t)n >= sizeof buf)
		n = (int)sizeof buf - 1;  /* fields are far shorter */
	snprintf(len, sizeof len, "%d:", n);
	crypto_generichash_update(h, (const unsigned char *)len,
	                          (unsigned long long)strlen(len));
	crypto_generichash_update(h, (const unsigned char *)buf,
	                          (unsigned long long)n);
}

/* What the game, the viewer and the address make of the page. */
static void hash_game(crypto_generichash_state *h, const web *w,
                      const store_mark *m, int seat)
{
	const form *q = &w->rq.query;

	put(h, "%s %s %s %s", BT_VERSION, w->cf->prefix, w->cf->base_url,
	    w->rq.game);
	for (int i = 0; i < q->n; i++)
		put(h, "%s=%s", q->buf + q->f[i].key, q->buf + q->f[i].value);
	put(h, "seat %d of %d, seq %d taken %d, status %d, sweep %d %s", seat,
	    m->players, m->seq, m->taken, (int)m->status, m->sweep_seat,
	    m->sweep_card);
	put(h, "turn %d since %lld, reminders %d, updated %lld, again %s",
	    m->turn_seat, (long long)m->turn_since, m->reminders,
	    (long long)m->updated, m->rematch);
	/* a finished game's review appears once all its moves are in */
	put(h, "reviewed %d, hinted %d", m->reviewed, m->hinted);
	/* a finished game's crew panel shows the games after it */
	put(h, "crew %d %lld %lld", m->crew_later, (long long)m->crew_updated,
	    (long long)m->crew_seq);
	/* the talk is on a seat's table of now only */
	if (seat > 0 && !field_text(q, FIELD_AT))
		put(h, "chat %d", m->chat_last);
	/* a stand-in's notice, and the ask's button and its words */
	for (int s = 0; s < m->players && s < BT_MAX_PLAYERS; s++)
		put(h, "%s %d %d standin %lld asked %lld", m->seats[s].name,
		    m->seats[s].has_email, (int)m->seats[s].notify,
		    (long long)m->seats[s].standin_since,
		    (long long)m->seats[s].standin_ask);
	/* one's own token (the forms' CSRF token) and nudges; nobody else's
	 * show on this page */
	if (seat > 0)
		put(h, "gen %lld nudged %lld",
		    (long long)m->seats[seat - 1].token_gen,
		    (long long)m->seats[seat - 1].nudged);
}

static void put_words(crypto_generichash_state *h, const char *what,
                      int64_t secs)
{
	char words[SINCE_MAX];

	put(h, "%s %s", what, since_words(secs, words, sizeof words));
}

/* The words of time the page shows now (table_view.c's waited,
 * table_life.c's next_nudge, table_talk.c's talk_row), and only those:
 * words the page does not show must not move the tag. */
static void hash_clock(crypto_generichash_state *h, const web *w,
                       const store_mark *m, int seat)
{
	int64_t now = store_now();
	int past = field_text(&w->rq.query, FIELD_AT) != NULL;
	int playing = m->status == BT_PLAYING;

	if (past)
		return;
	if (playing && !m->sweep_card[0] && m->turn_seat != seat &&
	    m->turn_since > 0)
		put_words(h, "waiting", now - m->turn_since);
	if (seat == 0)
		return;     /* a spectator has no nudge and no talk */
	int64_t nudged = m->seats[seat - 1].nudged, ago = now - nudged;
	int to = m->turn_seat;
	if (playing && to != seat && to >= 1 && to <= BT_MAX_PLAYERS &&
	    m->seats[to - 1].has_email &&
	    m->seats[to - 1].notify != STORE_NOTIFY_NONE && nudged > 0 &&
	    ago >= 0 && ago < STORE_NUDGE_EVERY) {
		put_words(h, "nudged", ago);
		put_words(h, "next nudge", STORE_NUDGE_EVERY - ago);
	}
	for (int i = 0; i < m->chats; i++)
		put_words(h, "said", now - m->chat_created[i]);
}

static void hex_part(crypto_generichash_state *h, char *hex, size_t cap)
{
	unsigned char d[PART_BYTES];

	crypto_generichash_final(h, d, sizeof d);
	sodium_bin2hex(hex, cap, d, sizeof d);
}

/* Writes the quoted tag of seat's view (0: a spectator) into tag. */
static void make_tag(const web *w, const store_mark *m, int seat,
                     char *tag, size_t cap)
{
	crypto_generichash_state h;
	char game[2 * PART_BYTES + 1], clock[2 * PART_BYTES + 1];

	crypto_generichash_init(&h, NULL, 0, PART_BYTES);
	hash_game(&h, w, m, seat);
	hex_part(&h, game, sizeof game);
	crypto_generichash_init(&h, NULL, 0, PART_BYTES);
	hash_clock(&h, w, m, seat);
	hex_part(&h, clock, sizeof clock);
	snprintf(tag, cap, "\"%s-%s\"", game, clock);
}

/* 1 if the tag of a list element at *p is tag (weak comparison, as RFC
 * 9110 wants for If-None-Match: a W/ prefix is ignored); moves *p past
 * it.  -1 if *p is no entity-tag: the rest is not read. */
static int one_tag(const char **p, const char *tag)
{
	const char *s = *p, *open;
	size_t n;

	if (s[0] == 'W' && s[1] == '/')
		s += 2;
	if (*s != '"')
		return -1;
	open = s++;
	while (*s && *s != '"') {
		unsigned char c = (unsigned char)*s;
		if (c < 0x21 || c == 0x7f)
			return -1;
		s++;
	}
	if (*s != '"')
		return -1;
	s++;
	*p = s;
	n = (size_t)(s - open);
	return strlen(tag) == n && memcmp(open, tag, n) == 0;
}

int live_match(const char *field, const char *tag)
{
	const char *p = field;
	int r;

	while (*p == ' ' || *p == '\t')
		p++;
	if (p[0] == '*' && p[1 + strspn(p + 1, " \t")] == '\0')
		return 1;
	/* #entity-tag: elements between commas and optional spaces */
	for (int i = 0; i < REQ_INM_MAX && *p; i++) {
		while (*p == ' ' || *p == '\t' || *p == ',')
			p++;
		if (!*p)
			break;
		if ((r = one_tag(&p, tag)) < 0)
			return 0;
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p && *p != ',')
			return 0;       /* "a""b": not a list */
		if (r)
			return 1;
	}
	return 0;
}

/* The seat the request holds, as seat_guard finds it, in the game of
 * mark m: 1 with *s, or 0. */
static int held_seat(web *w, const store_mark *m, int *s)
{
	store_error err;
	int64_t gen;

	if (seat_cookie(w, s, &gen) == 0 && *s >= 1 && *s <= m->players &&
	    *s <= BT_MAX_PLAYERS && gen == m->seats[*s - 1].token_gen)
		return 1;
	/* a signed-in browser's: its seat needs the seats' addresses */
	if (!strstr(w->rq.cookie, SIGNIN_COOKIE "=") ||
	    store_load(w->st, w->rq.game, &w->game, &err) != STORE_OK ||
	    !signin_seat(w, &w->game, s, &gen) || *s > m->players)
		return 0;
	return gen == m->seats[*s - 1].token_gen;
}

int table_fresh(web *w, int by_cookie)
{
	static store_mark m;
	store_error err;
	int s = 0;

	w->rs.etag[0] = '\0';
	if (store_mark_get(w->st, w->rq.game, TABLE_TALK_SHOWN, &m, &err)
	    != STORE_OK)
		return 0;       /* the page itself says what is wrong */
	if (by_cookie && !held_seat(w, &m, &s))
		return 0;
	make_tag(w, &m, s, w->rs.etag, sizeof w->rs.etag);
	if (!w->rq.if_none_match[0] ||
	    !live_match(w->rq.if_none_match, w->rs.etag))
		return 0;
	w->rs.status = 304;
	out_reset(&w->page);
	w->rs.body = &w->page;
	return 1;
}

void table_live(web *w, const table_view *tv, vals *v)
{
	static char stat[CONF_URL_MAX + 16];

	if (!w->rs.etag[0] || tv->at >= 0)
		return;     /* a past table does not change but for its "of N" */
	snprintf(stat, sizeof stat, "%sstatic/", w->cf->prefix);
	vals_show(v, K_live, 1);
	vals_set(v, K_live_tag, w->rs.etag);
	vals_set(v, K_static_url, stat);
	vals_set(v, K_version, BT_VERSION);
}
