/*
 * settings_browsers.h - the browsers on a seat's settings page: those
 * signed in with its address (cgi/settings_browsers.c), and those it is
 * notified on (cgi/settings_push.c).
 */
#ifndef BT_SETTINGS_BROWSERS_H
#define BT_SETTINGS_BROWSERS_H

#include "since.h"
#include "store_signin.h"
#include "vals.h"
#include "web.h"

enum { BROWSERS_MAX = 20 };    /* listed; the newest first */

typedef struct browsers_ctx {
	store_signin list[BROWSERS_MAX];
	int n;
	char this_id[STORE_ID_LEN + 1];     /* the request's own, or "" */
	char since[SINCE_MAX], seen[SINCE_MAX];
	char signin_url[WEB_URL_MAX];
} browsers_ctx;

/* Reads the browsers of seat's address into b and shows them in v. */
void settings_browsers(web *w, int seat, browsers_ctx *b, vals *v);

/* A row's text of the section browser (settings.html), or NULL. */
const char *settings_browser_row(browsers_ctx *b, int key, int i);

/* The POST's signout=which: signs out and answers with a 303. */
web_err settings_sign_out(web *w, int seat, const char *which);

/* ---- settings_push.c: turn notifications on this browser -------------- */

typedef struct push_view {
	char devices[96], url[WEB_URL_MAX], static_url[WEB_URL_MAX];
} push_view;

/* Shows how many of seat's browsers are notified, and the push form. */
void settings_push(web *w, int seat, push_view *p, vals *v);

/* ---- settings_hook.c: the crew's chat webhook ------------------------- */

typedef struct hook_view {
	char words[320], url[WEB_URL_MAX];
	char secret[80], last[320];
} hook_view;

/* Shows the game's webhook (or none) and its form, unless the admin
 * switched webhooks off. */
void settings_hook(web *w, hook_view *h, vals *v);

#endif
