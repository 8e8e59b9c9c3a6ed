/*
 * settings_browsers.c - the settings page's signed-in browsers: every
 * browser signed in by "Email me my games" (signin.h) with the seat's
 * address, each with a button that signs it out, and one for them all.
 * A seat speaks for its address here as its emails do: whoever holds the
 * seat reads that address's mail.
 *
 * POST signout=ID | all (with the form's CSRF token, checked by the
 * settings page): the sign-in ID of this address, or every one; this
 * browser's own cookie goes with it.  Then a 303 back with
 * ?m=signed_out, or to My games if this browser was signed out.
 */
#include <stdio.h>
#include <string.h>

#include "fields.h"
#include "query.h"
#include "settings_browsers.h"
#include "signin.h"
#include "since.h"

void settings_browsers(web *w, int seat, browsers_ctx *b, vals *v)
{
	const store_seat *me = &w->game.seats[seat - 1];
	store_signin mine;
	store_error err;

	b->n = 0;
	b->this_id[0] = '\0';
	snprintf(b->signin_url, sizeof b->signin_url, "%ssignin",
	         w->cf->prefix);
	vals_set(v, K_signin_url, b->signin_url);
	if (!me->email[0] || me->bot[0])
		return;
	if (store_signin_list(w->st, me->email, b->list, BROWSERS_MAX, &b->n,
	                      &err) != STORE_OK) {
		web_log(w, __func__, "the sign-ins could not be read: %s",
		        err.why);
		b->n = 0;
	}
	if (signin_of(w, &mine))
		snprintf(b->this_id, sizeof b->this_id, "%s", mine.id);
	vals_show(v, K_has_browsers, b->n > 0);
	vals_show(v, K_browsers_none, b->n == 0 && !me->blocked);
	vals_rows(v, K_browser, b->n);
}

const char *settings_browser_row(browsers_ctx *b, int key, int i)
{
	const store_signin *si;

	if (i < 0 || i >= b->n)
		return NULL;
	si = &b->list[i];
	switch (key) {
	case K_browser_id: return si->id;
	case K_browser_name: return si->agent[0] ? si->agent : "a browser";
	case K_browser_this:
		return strcmp(si->id, b->this_id) == 0 ? " (this browser)" : "";
	case K_browser_since:
		return since_words(store_now() - si->created, b->since,
		                   sizeof b->since);
	case K_browser_seen:
		return since_words(store_now() - si->last_seen, b->seen,
		                   sizeof b->seen);
	default:
		return NULL;
	}
}

web_err settings_sign_out(web *w, int seat, const char *which)
{
	const store_seat *me = &w->game.seats[seat - 1];
	const char *id = strcmp(which, "all") == 0 ? NULL : which;
	char to[STORE_ID_LEN + 48];
	store_signin mine;
	store_error err;
	web_err e;
	int held = signin_of(w, &mine);

	if (id && strlen(id) != STORE_ID_LEN) {
		snprintf(w->why, sizeof w->why, "The form did not say which "
		         "browser to sign out.");
		return WEB_BAD_REQUEST;
	}
	if (!me->email[0] ||
	    (store_signin_drop(w->st, me->email, id, &err) != STORE_OK &&
	     err.rc != STORE_NOT_FOUND))
		return me->email[0] ? web_store_err(w, __func__, &err)
		       : WEB_BAD_REQUEST;
	/* this browser among them: its cookie goes too, and it holds the
	 * seat no more, unless by a seat link: My games says what it has */
	if (held && !signin_of(w, &mine)) {
		if ((e = signin_set_cookie(w, "")))
			return e;
		return resp_redirect(w, "games");
	}
	snprintf(to, sizeof to,
	         "g/%s/settings" QUERY_NOTICE_OF(QUERY_NOTICE_SIGNED_OUT),
	         w->game.id);
	return resp_redirect(w, to);
}
