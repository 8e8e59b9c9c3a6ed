/*
 * signin.h - a browser signed in by "Email me my games" (cgi/signin.c):
 * its cookie, bt_signin (Path PREFIX, HttpOnly, SameSite=Lax, Secure
 * behind https), holds a secret the store knows by its hash
 * (store_signin.h); the browser then holds every seat of a person whose
 * address has the sign-in's key, as a seat link's cookie would, until it
 * is signed out (settings_browsers.c) or unused for half a year.
 */
#ifndef BT_SIGNIN_H
#define BT_SIGNIN_H

#include "store_signin.h"
#include "web.h"

#define SIGNIN_COOKIE "bt_signin"

enum { SIGNIN_COOKIE_DAYS = 180 };

/* The request's sign-in into *si: 1 if it has one, 0 if not (no cookie,
 * signed out, or the store could not say: logged). */
int signin_of(web *w, store_signin *si);

/* The seat of g the request's sign-in holds (the first of a person whose
 * address has its key): 1 with *seat and *gen, else 0. */
int signin_seat(web *w, const store_game *g, int *seat, int64_t *gen);

/* Sets the response's bt_signin cookie to secret ("" deletes it):
 * WEB_OK or WEB_INTERNAL (logged). */
web_err signin_set_cookie(web *w, const char *secret);

#endif
