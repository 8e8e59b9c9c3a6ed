/*
 * route.c - the table of pages: method and path pattern to a page.
 * main alone decides 404 and 405, from route_find's answer.
 *
 * A pattern is matched segment by segment against the path under the
 * prefix; the segment "*" is a game id (exactly STORE_ID_LEN characters
 * of base64url), copied into w->rq.game.  A route with a query key
 * matches only requests that carry that field (a seat link's "t").
 */
#include <string.h>

#include "fields.h"
#include "web.h"

#define NO_FIELD FIELD__COUNT   /* a route that needs no field */

static const struct route {
	int methods;            /* req_method bits */
	const char *pattern;
	field_id query;         /* a field the query must have, or NO_FIELD */
	page_fn *page;
	const char *allow;      /* the Allow header of a 405 */
} routes[] = {
	{ M_GET | M_HEAD, "", NO_FIELD, page_home, "GET, HEAD" },
	{ M_POST, "new", NO_FIELD, page_create, "POST" },
	{ M_GET | M_HEAD, "g/*", FIELD_TOKEN, page_join, "GET, HEAD" },
	{ M_GET | M_HEAD, "g/*", NO_FIELD, page_table, "GET, HEAD" },
	{ M_POST, "g/*/act", NO_FIELD, page_act, "POST" },
	{ M_GET | M_HEAD, "g/*/record", NO_FIELD, page_record, "GET, HEAD" },
	{ M_GET | M_HEAD, "g/*/made", NO_FIELD, page_created, "GET, HEAD" },
	{ M_GET | M_HEAD | M_POST, "g/*/settings", NO_FIELD, page_settings,
	  "GET, HEAD, POST" },
	{ M_GET | M_HEAD | M_POST, "g/*/unsubscribe", NO_FIELD, page_unsub,
	  "GET, HEAD, POST" },
	{ M_GET | M_HEAD, "g/*/feed", NO_FIELD, page_feed, "GET, HEAD" },
	{ M_GET | M_HEAD, "games", NO_FIELD, page_games, "GET, HEAD" },
	{ M_GET | M_HEAD, "rules", NO_FIELD, page_rules, "GET, HEAD" },
	{ M_GET | M_HEAD, "g/*/history", NO_FIELD, page_history, "GET, HEAD" },
	{ M_POST, "g/*/say", NO_FIELD, page_say, "POST" },
	{ M_POST, "g/*/nudge", NO_FIELD, page_nudge, "POST" },
	{ M_POST, "g/*/takeback", NO_FIELD, page_take_back, "POST" },
	{ M_POST, "g/*/end", NO_FIELD, page_end, "POST" },
	{ M_POST, "g/*/standin", NO_FIELD, page_standin, "POST" },
	{ M_POST, "g/*/again", NO_FIELD, page_again, "POST" },
	{ M_POST, "g/*/push", NO_FIELD, page_push, "POST" },
	{ M_POST, "g/*/hook", NO_FIELD, page_hook, "POST" },
	{ M_GET | M_HEAD, "g/*/watch", NO_FIELD, page_watch, "GET, HEAD" },
	{ M_GET | M_HEAD | M_POST, "mail/block", NO_FIELD, page_block,
	  "GET, HEAD, POST" },
	{ M_GET | M_HEAD | M_POST, "signin", NO_FIELD, page_signin,
	  "GET, HEAD, POST" },
};

enum { NROUTES = sizeof routes / sizeof routes[0] };

/* 1 if s[0..n-1] is a game id: base64url of the right length. */
static int is_game_id(const char *s, size_t n)
{
	if (n != STORE_ID_LEN)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!((s[i] >= 'A' && s[i] <= 'Z') ||
		      (s[i] >= 'a' && s[i] <= 'z') ||
		      (s[i] >= '0' && s[i] <= '9') || s[i] == '-' ||
		      s[i] == '_'))
			return 0;
	return 1;
}

/* 1 if path matches pattern; a "*" segment's id goes to game. */
static int match(const char *pattern, const char *path,
                 char game[STORE_ID_LEN + 1])
{
	for (;;) {
		size_t pn = strcspn(pattern, "/"), n = strcspn(path, "/");
		if (pn == 1 && pattern[0] == '*') {
			if (!is_game_id(path, n))
				return 0;
			memcpy(game, path, n);
			game[n] = '\0';
		} else if (pn != n || memcmp(pattern, path, n) != 0) {
			return 0;
		}
		if (pattern[pn] != path[n])
			return 0;        /* one ends, the other goes on */
		if (pattern[pn] == '\0')
			return 1;
		pattern += pn + 1;
		path += n + 1;
	}
}

page_fn *route_find(web *w, web_err *err)
{
	const struct route *seen = NULL;
	char game[STORE_ID_LEN + 1] = "";

	*err = WEB_NOT_FOUND;
	if (!w->rq.sub)
		return NULL;
	for (int i = 0; i < NROUTES; i++) {
		const struct route *r = &routes[i];
		if (!match(r->pattern, w->rq.sub, game))
			continue;
		if (r->query != NO_FIELD && !field_text(&w->rq.query, r->query))
			continue;
		if (!(r->methods & (int)w->rq.method)) {
			seen = r;
			continue;
		}
		memcpy(w->rq.game, game, sizeof game);
		*err = WEB_OK;
		return r->page;
	}
	if (seen) {
		*err = WEB_METHOD;
		w->rs.allow = seen->allow;
	}
	return NULL;
}
