/*
 * page_hook.c - POST PREFIX g/ID/hook: any seat names the crew's chat
 * webhook of the game (hook = on, hook_address, hook_kind: one of
 * hook_format.h's names, or "" to recognise it from the address) or
 * removes it (hook = off).  Where the address leads is checked when a
 * message is sent (net/post.h: public addresses only, unless the
 * operator allows others); here its shape, and the admin's switch.
 *
 * Guard: the seat's cookie (or sign-in) and its CSRF token.  Then a 303
 * to the settings page with ?m=hook_on or hook_off.
 */
#include <stdio.h>
#include <string.h>

#include "fields.h"
#include "hook_format.h"
#include "query.h"
#include "store_notice.h"
#include "web.h"

static web_err bad(web *w, const char *why)
{
	snprintf(w->why, sizeof w->why, "%s", why);
	return WEB_BAD_REQUEST;
}

static web_err set(web *w, int seat)
{
	const char *url = field_text(&w->rq.body, FIELD_HOOK_ADDRESS);
	const char *kind = field_text(&w->rq.body, FIELD_HOOK_KIND);
	store_error err;
	hook_kind k;

	if (!url || !url[0])
		return bad(w, "Paste the webhook's address first.");
	if (!w->cf->allow_private_urls && strncmp(url, "https://", 8) != 0)
		return bad(w, "A webhook's address starts with https://.");
	if (!kind || !kind[0])
		k = hook_kind_guess(url);
	else if (hook_kind_parse(kind, &k) != 0)
		return bad(w, "That kind of chat is not one this server knows.");
	store_rc rc = store_hook_set(w->st, w->game.id, seat, url,
	                             hook_kind_name(k), &err);
	if (rc == STORE_INVALID)
		return bad(w, "That is not a webhook's address: it starts with "
		           "https:// and has no spaces.");
	if (rc == STORE_LIMITED)
		return bad(w, "This server sends no messages to chats.");
	return rc == STORE_OK ? WEB_OK : web_store_err(w, __func__, &err);
}

static web_err unset(web *w)
{
	store_error err;
	store_rc rc = store_hook_remove(w->st, w->game.id, &err);

	/* removed twice, or never set: nothing to do */
	return rc == STORE_OK || rc == STORE_NOT_FOUND ? WEB_OK
	       : web_store_err(w, __func__, &err);
}

web_err page_hook(web *w)
{
	char to[STORE_ID_LEN + 48];
	web_err e;
	int seat, on;

	if ((e = seat_form_switch(w, FIELD_HOOK, &seat, &on)))
		return e;
	if ((e = on ? set(w, seat) : unset(w)))
		return e;
	snprintf(to, sizeof to, "g/%s/settings" QUERY_NOTICE_OF("%s") "#chat",
	         w->game.id, on ? QUERY_NOTICE_HOOK_ON : QUERY_NOTICE_HOOK_OFF);
	return resp_redirect(w, to);
}
