/*
 * page_unsub.c - PREFIX g/ID/unsubscribe?s=N&k=KEY: the link of every
 * email's List-Unsubscribe header and footer.
 *
 * GET shows one button, "stop all email for this game", and changes
 * nothing: mail scanners and previews fetch links, and must not
 * unsubscribe anyone.  POST to the same URL sets the seat's email to
 * none: a mail program's one-click unsubscribe (RFC 8058) posts the body
 * "List-Unsubscribe=One-Click" with no cookie, and so does the button.
 * The key in the URL is the authority (no cookie, no CSRF token: it is
 * a secret only that seat's mail carries, and setting "none" twice is
 * harmless).  A wrong or outdated key is a 403.
 */
#include <stdio.h>
#include <string.h>

#include "describe.h"
#include "vals.h"
#include "web.h"

web_err page_unsub(web *w)
{
	char self[WEB_URL_MAX], settings[WEB_URL_MAX], who[96], name[48];
	store_error err;
	web_err e;
	vals v;
	tmpl_data d;
	int seat, done = 0;

	/* guard */
	if ((e = seat_link_guard(w, TOKEN_UNSUB, &seat))) {
		if (e == WEB_FORBIDDEN)
			snprintf(w->why, sizeof w->why, "This unsubscribe link "
			         "is wrong or out of date.");
		return e;
	}
	/* do it: any POST (the body is the mail program's business) */
	if (w->rq.method == M_POST) {
		if (store_set_notify(w->st, w->game.id, seat, STORE_NOTIFY_NONE,
		                     &err) != STORE_OK)
			return web_store_err(w, __func__, &err);
		done = 1;
	}
	/* render */
	if (seat_link_url(w, TOKEN_UNSUB, seat, 0, self, sizeof self))
		return WEB_INTERNAL;
	snprintf(settings, sizeof settings, "%sg/%s/settings", w->cf->prefix,
	         w->game.id);
	snprintf(who, sizeof who, "%s (seat %d)",
	         describe_seat(&w->game, seat, name, sizeof name), seat);
	vals_init(&v);
	vals_set(&v, K_unsub_url, self);
	vals_set(&v, K_unsub_who, who);
	vals_set(&v, K_settings_url, settings);
	vals_show(&v, K_unsub_done, done);
	vals_show(&v, K_unsub_none, !done &&
	          w->game.seats[seat - 1].notify == STORE_NOTIFY_NONE);
	d = vals_data(&v);
	return resp_page(w, 200, done ? "No more email" : "Stop email",
	                 TPL_UNSUB, &d);
}
