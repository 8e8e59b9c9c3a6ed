/*
 * settings_browsers.h - the signed-in browsers of a seat's address on its
 * settings page (cgi/settings_browsers.c).
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

#endif
