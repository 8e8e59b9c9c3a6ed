/*
 * settings_hook.c - the settings page's crew chat: the game's webhook,
 * if it names one (which chat, at which host, set by whom: never the
 * whole address, which lets anyone post there), the secret its signed
 * messages carry, and the forms that set and remove it (page_hook.c).
 * Every seat sees the same: the chat is the crew's.
 */
#include <stdio.h>
#include <string.h>

#include "describe.h"
#include "hook_format.h"
#include "settings_browsers.h"
#include "store_notice.h"

/* The host of url (after "scheme://", up to '/', '?' or '#'). */
static void host_of(const char *url, char *host, size_t cap)
{
	const char *h = strstr(url, "://");

	h = h ? h + 3 : url;
	size_t n = strcspn(h, "/?#");
	const char *at = memchr(h, '@', n);   /* no user:password shown */
	if (at) {
		n -= (size_t)(at + 1 - h);
		h = at + 1;
	}
	snprintf(host, cap, "%.*s", (int)(n < 120 ? n : 120), h);
}

/* What became of the last message to the hook, in words, or "". */
static void last_words(web *w, const store_hook *hook, char *said,
                       size_t cap)
{
	static store_notice n;
	store_error err;

	said[0] = '\0';
	if (store_hook_last(w->st, w->game.id, hook->url, &n, &err) !=
	    STORE_OK)
		return;
	if (n.sent)
		snprintf(said, cap, "The last message went through.");
	else if (n.dropped)
		snprintf(said, cap, "The last message could not be delivered "
		         "(%.200s): check the address.", n.last_error);
	else
		snprintf(said, cap, "The last message has not gone through yet "
		         "(%.200s): it is tried again.", n.last_error);
}

void settings_hook(web *w, hook_view *h, vals *v)
{
	char host[128], name[48];
	store_hook hook;
	store_error err;
	hook_kind k;

	memset(h, 0, sizeof *h);
	if (store_hooks_off(w->st))
		return;
	vals_show(v, K_hooks_on, 1);
	snprintf(h->url, sizeof h->url, "%sg/%s/hook", w->cf->prefix,
	         w->game.id);
	vals_set(v, K_hook_url, h->url);
	store_rc rc = store_hook_get(w->st, w->game.id, &hook, &err);
	if (rc != STORE_OK) {
		if (rc != STORE_NOT_FOUND)
			web_log(w, __func__, "webhook: %s", err.why);
		return;
	}
	if (hook_kind_parse(hook.kind, &k) != 0)
		k = HOOK_JSON;
	host_of(hook.url, host, sizeof host);
	snprintf(h->words, sizeof h->words, "Messages go to %s at %s, set "
	         "by %s.", hook_kind_words(k), host,
	         describe_seat(&w->game, hook.set_by, name, sizeof name));
	last_words(w, &hook, h->last, sizeof h->last);
	vals_show(v, K_has_hook, 1);
	vals_set(v, K_hook_words, h->words);
	vals_set(v, K_hook_last, h->last);
	vals_show(v, K_hook_tried, h->last[0] != '\0');
	vals_show(v, K_hook_signed, k == HOOK_JSON);
	snprintf(h->secret, sizeof h->secret, "%s", hook.secret);
	vals_set(v, K_hook_secret, h->secret);
}
