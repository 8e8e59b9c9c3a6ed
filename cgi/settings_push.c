/*
 * settings_push.c - the settings page's turn notifications (Web Push):
 * how many of the seat's browsers are notified, and the form that
 * static/push.js fills in with this browser's subscription (page_push.c
 * takes it).  Without JavaScript the page says so: subscribing is the
 * browser's script's job.
 */
#include <stdio.h>

#include "settings_browsers.h"
#include "store_push.h"

void settings_push(web *w, int seat, push_view *p, vals *v)
{
	store_push_sub subs[STORE_PUSH_PER_SEAT];
	store_error err;
	int n = 0;

	if (store_push_list(w->st, w->game.id, seat, subs, STORE_PUSH_PER_SEAT,
	                    &n, &err) != STORE_OK) {
		web_log(w, __func__, "subscriptions: %s", err.why);
		n = 0;
	}
	if (n == 0)
		snprintf(p->devices, sizeof p->devices, "No browser of this seat "
		         "is notified yet.");
	else
		snprintf(p->devices, sizeof p->devices, "%d browser%s of this "
		         "seat %s notified.", n, n == 1 ? "" : "s",
		         n == 1 ? "is" : "are");
	snprintf(p->url, sizeof p->url, "%sg/%s/push", w->cf->prefix,
	         w->game.id);
	snprintf(p->static_url, sizeof p->static_url, "%sstatic/",
	         w->cf->prefix);
	vals_set(v, K_push_url, p->url);
	vals_set(v, K_push_key, w->vapid_public ? w->vapid_public : "");
	vals_set(v, K_push_devices, p->devices);
	vals_set(v, K_static_url, p->static_url);
	vals_set(v, K_version, BT_VERSION);
}
