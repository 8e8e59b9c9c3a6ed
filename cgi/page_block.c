/*
 * page_block.c - GET, POST PREFIX mail/block?a=ADDRESS&k=KEY: the "never
 * email me from this server again" link of every email's footer.
 *
 * GET shows one button and changes nothing: mail scanners and previews
 * fetch links, and must not block anyone.  POST to the same URL puts the
 * address on the server's block list (store_block_add, how "link"):
 * nothing is queued to it again, from any game.  The key in the URL is
 * the authority, as for the unsubscribe link (page_unsub.c): a MAC over
 * the address's key that only mail to that address carries, so no cookie
 * and no CSRF token; blocking twice is harmless.  A wrong key is a 403.
 */
#include <stdio.h>
#include <string.h>

#include "compose.h"
#include "fields.h"
#include "store_block.h"
#include "vals.h"
#include "web.h"

/* The address the link names, if its key is the one for it; else NULL
 * with w->why set. */
static const char *guard(web *w)
{
	const char *a = field_text(&w->rq.query, FIELD_ADDRESS);
	const char *k = field_text(&w->rq.query, FIELD_KEY);
	char key[STORE_EMAIL_MAX + 1];

	if (!a || !k || strlen(a) > STORE_EMAIL_MAX ||
	    store_address_key(a, key, sizeof key) ||
	    block_key_check(&w->keys, key, k) != TOKEN_OK) {
		snprintf(w->why, sizeof w->why, "This link is wrong or "
		         "incomplete. Use the one at the end of an email from "
		         "this server, as it is.");
		return NULL;
	}
	return a;
}

web_err page_block(web *w)
{
	char self[WEB_URL_MAX + 3 * STORE_EMAIL_MAX];   /* all escapes */
	compose_ctx c = { .st = w->st, .keys = &w->keys,
	                  .base_url = w->cf->prefix };
	const char *address;
	store_error err;
	vals v;
	tmpl_data d;
	int done = 0, already;

	/* guard */
	if (!(address = guard(w)))
		return WEB_FORBIDDEN;
	/* do it: any POST (the key is the authority) */
	if (w->rq.method == M_POST) {
		if (store_block_add(w->st, address, "link", &err) != STORE_OK)
			return web_store_err(w, __func__, &err);
		done = 1;
	}
	if ((already = store_is_blocked(w->st, address)) < 0) {
		web_log(w, __func__, "the block list could not be read");
		return WEB_INTERNAL;
	}
	/* render: the form posts back to this very link */
	if (compose_block_url(&c, address, self, sizeof self)) {
		web_log(w, __func__, "no block link");
		return WEB_INTERNAL;
	}
	vals_init(&v);
	vals_set(&v, K_block_url, self);
	vals_set(&v, K_block_address, address);
	vals_show(&v, K_block_done, done);
	vals_show(&v, K_block_already, !done && already);
	vals_show(&v, K_block_ask, !done && !already);
	d = vals_data(&v);
	return resp_page(w, 200, done ? "No more email" : "Stop all email",
	                 TPL_BLOCK, &d);
}
