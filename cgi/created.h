/*
 * created.h - a game made once per new-game form, and its links shown to
 * the browser that made it (Post/Redirect/Get).
 *
 * The form (home.html) carries a one-use key, field "once": 22 random
 * base64url characters made when the form is shown (page_home.c), kept
 * when a refused form comes back.  POST PREFIX new makes the game at most
 * once per key (store_create_once) and answers 303 to PREFIX g/ID/made, with
 * the creator cookie "btmade_ID" (Path PREFIX g/ID/made, HttpOnly): a MAC
 * over the game id with a key of its own.  GET PREFIX g/ID/made shows every
 * seat's link, but a bot's, to a request with that cookie until
 * CREATED_SHOW_SECS after the game was made; to anyone else, or later, a
 * page that says the game was made, with no link, name or address.
 *
 * The same form sent again (a reload of the POST, a second press, back
 * and send again) makes nothing and leads to the same page: within the
 * hour with the cookie again (the first answer may have been lost to a
 * second press), so the key is as secret as the links: it is only in
 * the page the server gave that browser (no-store, never in a URL), and
 * the store holds only its hash.
 */
#ifndef BT_CREATED_H
#define BT_CREATED_H

#include "web.h"

enum {
	CREATE_KEY_LEN = 22,           /* characters of a form's key */
	CREATED_SHOW_SECS = 3600       /* the links page shows the links */
};

/* A fresh form key into key. */
void create_key_new(char key[CREATE_KEY_LEN + 1]);

/* 1 if k is shaped as a form key (what create_key_new makes). */
int create_key_ok(const char *k);

/* The creator cookie for game w->game, into w->rs.cookie, if the game
 * was made less than CREATED_SHOW_SECS ago (else nothing).  Returns
 * WEB_OK or WEB_INTERNAL (logged). */
web_err created_grant(web *w);

/* The links page of w->game: every seat's link but a bot's if shown,
 * else the page saying the game was made; again: this very form made it
 * before.  A 200, never kept by a cache. */
web_err created_render(web *w, int shown, int again);

#endif
