/*
 * signin.c - the request's sign-in (signin.h).  A seat it holds counts
 * only while the seat's address has the sign-in's key: a seat whose
 * address the creator changed, or a bot's, is not held.
 */
#include <stdio.h>
#include <string.h>

#include "signin.h"

int signin_of(web *w, store_signin *si)
{
	char secret[COOKIE_VALUE_MAX];
	store_error err;
	store_rc rc;

	if (cookie_get(w->rq.cookie, SIGNIN_COOKIE, secret, sizeof secret) !=
	    COOKIE_OK)
		return 0;
	rc = store_signin_get(w->st, secret, si, &err);
	if (rc != STORE_OK && rc != STORE_NOT_FOUND)
		web_log(w, __func__, "a sign-in could not be read: %s",
		        err.why);
	return rc == STORE_OK;
}

int signin_seat(web *w, const store_game *g, int *seat, int64_t *gen)
{
	static store_signin si;
	char key[STORE_EMAIL_MAX + 1];

	*seat = 0;
	if (!strstr(w->rq.cookie, SIGNIN_COOKIE "=") || !signin_of(w, &si))
		return 0;
	for (int s = 1; s <= g->players && s <= BT_MAX_PLAYERS; s++) {
		const store_seat *p = &g->seats[s - 1];
		if (p->bot[0] || !p->email[0] ||
		    store_address_key(p->email, key, sizeof key) ||
		    strcmp(key, si.address) != 0)
			continue;
		*seat = s;
		*gen = p->token_gen;
		return 1;
	}
	return 0;
}

web_err signin_set_cookie(web *w, const char *secret)
{
	int64_t age = secret[0] ? (int64_t)SIGNIN_COOKIE_DAYS * 86400 : 0;

	if (cookie_format(w->rs.cookie, sizeof w->rs.cookie, SIGNIN_COOKIE,
	                  secret, w->cf->prefix, age, w->cf->secure)) {
		web_log(w, __func__, "cookie_format failed");
		return WEB_INTERNAL;
	}
	return WEB_OK;
}
