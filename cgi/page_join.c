/*
 * page_join.c - GET PREFIX g/ID?t=TOKEN: a seat link.  A valid token for
 * this game, of the seat's current generation, becomes the cookie
 * bt_ID=TOKEN (Path PREFIX g/ID, HttpOnly, SameSite=Lax, Secure behind
 * https) and a 303 to the URL without the token, so the token leaves
 * the address bar and the history.  Anything else is a 403 that says
 * what to do.
 */
#include <stdio.h>
#include <string.h>

#include "web.h"

enum { COOKIE_DAYS = 180 };    /* a game by email may last for months */

web_err page_join(web *w)
{
	const char *tok = form_get(&w->rq.query, "t");
	char id[TOKEN_GAME_ID_LEN + 1], name[48], path[WEB_URL_MAX], to[64];
	store_error err;
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
	/* render: the cookie and the way to the table */
	seat_cookie_name(id, name, sizeof name);
	snprintf(path, sizeof path, "%sg/%s", w->cf->prefix, id);
	if (cookie_format(w->rs.cookie, sizeof w->rs.cookie, name, tok, path,
	                  (int64_t)COOKIE_DAYS * 86400, w->cf->secure)) {
		web_log(w, __func__, "cookie_format failed");
		return WEB_INTERNAL;
	}
	snprintf(to, sizeof to, "g/%s", id);
	return resp_redirect(w, to);
}
