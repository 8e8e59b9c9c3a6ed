/*
 * page_push.c - POST PREFIX g/ID/push: a seat turns turn notifications
 * on or off for one browser (Web Push).  The settings page's push form,
 * which static/push.js fills in with what the browser's push manager
 * gave: push = on with endpoint, p256dh and auth (kept by
 * store_push_add, which checks their shape: https only, unless the
 * operator set allow_private_urls), or push = off with endpoint.
 *
 * Guard: the seat's cookie (or sign-in) and its CSRF token.  Then a 303
 * to the settings page with ?m=push_on or push_off.
 */
#include <stdio.h>
#include <string.h>

#include "fields.h"
#include "query.h"
#include "store_push.h"
#include "web.h"

static web_err bad(web *w, const char *why)
{
	snprintf(w->why, sizeof w->why, "%s", why);
	return WEB_BAD_REQUEST;
}

/* The form's subscription into sub; -1 if a field is missing or long. */
static int read_sub(const form *f, store_push_sub *sub)
{
	const char *e = field_text(f, FIELD_ENDPOINT);
	const char *k = field_text(f, FIELD_P256DH);
	const char *a = field_text(f, FIELD_AUTH);

	memset(sub, 0, sizeof *sub);
	if (!e || !k || !a || strlen(e) >= sizeof sub->endpoint ||
	    strlen(k) >= sizeof sub->p256dh || strlen(a) >= sizeof sub->auth)
		return -1;
	memcpy(sub->endpoint, e, strlen(e) + 1);
	memcpy(sub->p256dh, k, strlen(k) + 1);
	memcpy(sub->auth, a, strlen(a) + 1);
	return 0;
}

static web_err turn_on(web *w, int seat)
{
	store_push_sub sub;
	store_error err;
	store_rc rc;

	if (read_sub(&w->rq.body, &sub))
		return bad(w, "The browser did not give its subscription.");
	rc = store_push_add(w->st, w->game.id, seat, &sub,
	                    w->cf->allow_private_urls, &err);
	if (rc == STORE_INVALID)
		return bad(w, "The browser's subscription is not one this "
		           "server can send to.");
	return rc == STORE_OK ? WEB_OK : web_store_err(w, __func__, &err);
}

static web_err turn_off(web *w, int seat)
{
	const char *e = field_text(&w->rq.body, FIELD_ENDPOINT);
	store_error err;
	store_rc rc;

	if (!e || !e[0])
		return bad(w, "The form did not say which browser to stop.");
	rc = store_push_remove(w->st, w->game.id, seat, e, &err);
	/* stopped twice, or never on: nothing to do */
	return rc == STORE_OK || rc == STORE_NOT_FOUND ? WEB_OK
	       : web_store_err(w, __func__, &err);
}

web_err page_push(web *w)
{
	char to[STORE_ID_LEN + 48];
	web_err e;
	int seat, on;

	if ((e = seat_form_switch(w, FIELD_PUSH, &seat, &on)))
		return e;
	if ((e = on ? turn_on(w, seat) : turn_off(w, seat)))
		return e;
	snprintf(to, sizeof to, "g/%s/settings" QUERY_NOTICE_OF("%s"),
	         w->game.id, on ? QUERY_NOTICE_PUSH_ON : QUERY_NOTICE_PUSH_OFF);
	return resp_redirect(w, to);
}
