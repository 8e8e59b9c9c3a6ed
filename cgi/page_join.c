/*
 * page_join.c - GET PREFIX g/ID?t=TOKEN: a seat link.  A valid token for
 * this game, of the seat's current generation, becomes the cookie
 * bt_ID=TOKEN (Path PREFIX, HttpOnly, SameSite=Lax, Secure behind https)
 * and a 303 to the URL without the token, so the token leaves the
 * address bar and the history.  Anything else is a 403 that says what to
 * do; so is a bot's seat (its hand is the bot's alone).
 *
 * The Path is the prefix, not PREFIX g/ID, so that "my games" (PREFIX
 * games) receives the cookie of every game.  Cookies set by older
 * versions (Path PREFIX g/ID) still reach their game's pages; but a
 * browser holding one and a newer cookie of the same name sends the
 * older, longer-path one first.  So when the request carries a cookie
 * for this game that is not this token, the first answer only deletes
 * the old-path cookie and comes back here (with c=1, once), and the
 * second sets the new one: a stale old cookie never hides a fresh link.
 */
#include <stdio.h>
#include <string.h>

#include "fields.h"
#include "query.h"
#include "web.h"

enum { COOKIE_DAYS = 180 };    /* a game by email may last for months */

/* Sets w->rs.cookie: name=value for path, or its deletion if value is
 * "".  Returns WEB_OK or WEB_INTERNAL (logged). */
static web_err set_cookie(web *w, const char *name, const char *value,
                          const char *path)
{
	int64_t age = value[0] ? (int64_t)COOKIE_DAYS * 86400 : 0;

	if (cookie_format(w->rs.cookie, sizeof w->rs.cookie, name, value, path,
	                  age, w->cf->secure)) {
		web_log(w, __func__, "cookie_format failed");
		return WEB_INTERNAL;
	}
	return WEB_OK;
}

/* 1 if the request holds a cookie name whose value is not tok (perhaps
 * one of an older version, with the old Path). */
static int other_cookie(const web *w, const char *name, const char *tok)
{
	char held[COOKIE_VALUE_MAX];

	return cookie_get(w->rq.cookie, name, held, sizeof held) !=
	       COOKIE_ABSENT && strcmp(held, tok) != 0;
}

web_err page_join(web *w)
{
	const char *tok = field_text(&w->rq.query, FIELD_TOKEN);
	char id[TOKEN_GAME_ID_LEN + 1], name[48], path[WEB_URL_MAX];
	char to[WEB_URL_MAX];
	store_error err;
	web_err e;
	int64_t gen;
	int seat;

	/* guard: the token itself is the credential */
	if (!tok || token_check(&w->keys, tok, id, &seat, &gen) != TOKEN_OK ||
	    strcmp(id, w->rq.game) != 0)
		return WEB_FORBIDDEN;
	if (store_load(w->st, id, &w->game, &err) != STORE_OK)
		return web_store_err(w, __func__, &err);
	if (seat < 1 || seat > w->game.players ||
	    gen != w->game.seats[seat - 1].token_gen)
		return WEB_FORBIDDEN;
	/* a bot's hand is its own: older pages showed its seat's link */
	if (w->game.seats[seat - 1].bot[0]) {
		snprintf(w->why, sizeof w->why, "This seat is played by the "
		         "bot, and its hand is its own: no link opens it.");
		return WEB_FORBIDDEN;
	}
	/* do it: the player is back; a bot standing in gives the seat up */
	if (w->game.seats[seat - 1].standin_since &&
	    store_standin_end(w->st, id, seat, &err) != STORE_OK)
		return web_store_err(w, __func__, &err);
	/* render: first away with an old-path cookie, if there may be one */
	seat_cookie_name(id, name, sizeof name);
	if (other_cookie(w, name, tok) &&
	    !field_text(&w->rq.query, FIELD_CONFIRMED)) {
		snprintf(path, sizeof path, "%sg/%s", w->cf->prefix, id);
		snprintf(to, sizeof to,
		         "g/%s?" QUERY_TOKEN "=%s&" QUERY_CONFIRMED "=1", id,
		         tok);
		if ((e = set_cookie(w, name, "", path)))
			return e;
		return resp_redirect(w, to);
	}
	/* then the cookie and the way to the table */
	if ((e = set_cookie(w, name, tok, w->cf->prefix)))
		return e;
	snprintf(to, sizeof to, "g/%s", id);
	return resp_redirect(w, to);
}
