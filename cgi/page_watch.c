/*
 * page_watch.c - GET PREFIX g/ID/watch?k=KEY: a spectator's table.  The
 * key (link_key_make with TOKEN_WATCH, seat 0, generation 0) is the only
 * credential: no cookie is read or set.  The page shows what every
 * player may know (R10): the piles, the totals, the hand sizes and the
 * moves as someone with no seat reads them; never a hand, a form, the
 * table talk, a seat's link or an email address.
 */
#include <stdio.h>

#include "fields.h"
#include "query.h"
#include "table.h"

web_err page_watch(web *w)
{
	static char self[WEB_URL_MAX];
	const char *key = field_text(&w->rq.query, FIELD_KEY);
	store_error err;
	table_view tv;
	vals v;

	/* guard: checked before the game is looked up, so a wrong key
	 * tells nothing about which games exist */
	if (!key || link_key_check(&w->keys, TOKEN_WATCH, w->rq.game, 0, 0,
	                           key) != TOKEN_OK) {
		snprintf(w->why, sizeof w->why, "This spectator link is wrong "
		         "or incomplete. Ask a player for the one on their "
		         "table.");
		return WEB_FORBIDDEN;
	}
	if (table_fresh(w, 0))
		return WEB_OK;
	if (store_load(w->st, w->rq.game, &w->game, &err) != STORE_OK)
		return web_store_err(w, __func__, &err);
	/* render: the key is base64url, safe in a URL as it is */
	snprintf(self, sizeof self, "%sg/%s/watch?" QUERY_KEY "=%s",
	         w->cf->prefix, w->game.id, key);
	vals_init(&v);
	tv = (table_view){ .seat = 0, .at = -1, .lines = w->game.seq,
	                   .self = self };
	table_live(w, &tv, &v);
	return table_render(w, &tv, &v);
}
