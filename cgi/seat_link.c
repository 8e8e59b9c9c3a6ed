/*
 * seat_link.c - links that speak for a seat without its cookie: the
 * Atom feed (g/ID/feed?s=N&k=KEY) and the unsubscribe link
 * (g/ID/unsubscribe?s=N&k=KEY).  The key is a MAC over the game, the seat
 * and its token generation, of a kind of its own (token.h): a feed key
 * does not unsubscribe, and neither plays the seat.  Revoking a seat
 * kills its keys with its link.
 */
#include <stdio.h>
#include <string.h>

#include "fields.h"
#include "query.h"
#include "web.h"

web_err seat_link_guard(web *w, token_kind kind, int *seat)
{
	const char *key = field_text(&w->rq.query, FIELD_KEY);
	store_error err;
	int64_t s;

	*seat = 0;
	if (field_int(&w->rq.query, FIELD_SEAT, &s) != FORM_OK ||
	    !key)
		return WEB_FORBIDDEN;
	if (store_load(w->st, w->rq.game, &w->game, &err) != STORE_OK)
		return web_store_err(w, __func__, &err);
	if (s > w->game.players ||
	    link_key_check(&w->keys, kind, w->game.id, (int)s,
	                   w->game.seats[s - 1].token_gen, key) != TOKEN_OK)
		return WEB_FORBIDDEN;
	*seat = (int)s;
	return WEB_OK;
}

int seat_link_url(web *w, token_kind kind, int seat, int absolute,
                  char *url, size_t cap)
{
	static const char *const pages[TOKEN_KIND__MAX] = {
		[TOKEN_FEED] = "feed", [TOKEN_UNSUB] = "unsubscribe",
	};
	char key[CSRF_TEXT_SIZE];
	int n;

	if ((unsigned)kind >= TOKEN_KIND__MAX || !pages[kind] || seat < 1 ||
	    seat > w->game.players ||
	    link_key_make(&w->keys, kind, w->game.id, seat,
	                  w->game.seats[seat - 1].token_gen, key,
	                  sizeof key) != TOKEN_OK) {
		web_log(w, __func__, "no %d link for seat %d", (int)kind, seat);
		return -1;
	}
	/* the key is base64url: nothing in it needs escaping */
	n = snprintf(url, cap, "%sg/%s/%s?" QUERY_SEAT "=%d&" QUERY_KEY "=%s",
	             absolute ? w->cf->base_url : w->cf->prefix, w->game.id,
	             pages[kind], seat, key);
	if (n < 0 || (size_t)n >= cap) {
		web_log(w, __func__, "link too long");
		return -1;
	}
	return 0;
}
