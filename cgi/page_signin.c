/*
 * page_signin.c - PREFIX signin: "Email me my games" (store_signin.h).
 *
 *   GET               the form: one address
 *   POST address=A    asks for a link for A (store_signin_ask), then
 *                     the same answer whether or not A plays here, sent
 *                     or held by a limit: "if it plays here, an email is
 *                     on its way"; only a client's own limit says more
 *                     (a 429, which tells nothing about A)
 *   GET ?k=KEY        the link's page: one button, nothing changed (mail
 *                     scanners and previews fetch links)
 *   POST k=KEY        signs this browser in (store_signin_use): the
 *                     cookie bt_signin, and a 303 to My games; a link
 *                     used already by this browser goes there too
 *
 * No CSRF token: the ask has no session to ride on, and the key in the
 * link's form is its own authority, as for the block link.
 */
#include <stdio.h>
#include <string.h>

#include "agent.h"
#include "compose_signin.h"
#include "fields.h"
#include "mail_ctx.h"
#include "query.h"
#include "signin.h"
#include "vals.h"
#include "web.h"

enum { ASK_MSG_MAX = 256 };

static web_err render(web *w, int status, const char *title, vals *v)
{
	static char url[WEB_URL_MAX];
	static char hours[16], browsers[16];
	tmpl_data d;

	snprintf(url, sizeof url, "%ssignin", w->cf->prefix);
	snprintf(hours, sizeof hours, "%d", STORE_SIGNIN_LINK_SECS / 3600);
	snprintf(browsers, sizeof browsers, "%d", STORE_SIGNIN_LINK_BROWSERS);
	vals_set(v, K_signin_url, url);
	vals_set(v, K_signin_hours, hours);
	vals_set(v, K_signin_browsers, browsers);
	d = vals_data(v);
	return resp_page(w, status, title, TPL_SIGNIN, &d);
}

static web_err show_form(web *w, int status, const char *why)
{
	vals v;

	vals_init(&v);
	vals_show(&v, K_signin_ask, 1);
	vals_show(&v, K_has_notice, why != NULL);
	vals_set(&v, K_notice, why ? why : "");
	vals_set(&v, K_notice_class, "bad");
	return render(w, status, "My games on this device", &v);
}

static web_err ask(web *w)
{
	static char address[STORE_EMAIL_MAX + 1], msg[ASK_MSG_MAX];
	const char *a = field_text(&w->rq.body, FIELD_SIGNIN_ADDRESS);
	char key[STORE_EMAIL_MAX + 1];
	compose_ctx c;
	store_error err;
	store_rc rc;
	vals v;
	int sent;

	size_t n;

	/* what a phone's keyboard leaves around it is no part of it */
	a = a ? a + strspn(a, " \t") : "";
	for (n = strlen(a); n > 0 && (a[n - 1] == ' ' || a[n - 1] == '\t');)
		n--;
	if (n == 0 || n > STORE_EMAIL_MAX)
		return show_form(w, 400, "That is not an email address: it "
		                 "looks like name@example.org.");
	snprintf(address, sizeof address, "%.*s", (int)n, a);
	if (store_address_key(address, key, sizeof key))
		return show_form(w, 400, "That is not an email address: it "
		                 "looks like name@example.org.");
	web_compose(w, &c);
	rc = store_signin_ask(w->st, address, w->rq.client, compose_signin,
	                      &c, &sent, &err);
	if (rc == STORE_LIMITED) {
		resp_retry(w, "Many sign-in links were asked for from here "
		           "lately.", err.retry_at, msg, sizeof msg);
		return show_form(w, 429, msg);
	}
	if (rc != STORE_OK)
		return web_store_err(w, __func__, &err);
	vals_init(&v);
	vals_show(&v, K_signin_asked, 1);
	vals_set(&v, K_signin_address, address);
	return render(w, 200, "Check your email", &v);
}

/* The link's key, if it looks like one; else NULL. */
static const char *link_key(const form *f)
{
	const char *k = field_text(f, FIELD_KEY);

	return k && strlen(k) == STORE_SIGNIN_SECRET_LEN ? k : NULL;
}

static web_err refuse(web *w, const char *why)
{
	snprintf(w->why, sizeof w->why, "%s", why);
	return WEB_FORBIDDEN;
}

static web_err confirm(web *w, const char *key)
{
	vals v;

	vals_init(&v);
	vals_show(&v, K_signin_confirm, 1);
	vals_set(&v, K_signin_key, key);
	return render(w, 200, "Sign in this browser", &v);
}

static web_err use(web *w, const char *key)
{
	static store_signin si;
	char held[COOKIE_VALUE_MAX], cookie[STORE_SIGNIN_SECRET_LEN + 1];
	char agent[STORE_SIGNIN_AGENT_MAX + 1];
	store_error err;
	store_rc rc;
	web_err e;

	if (cookie_get(w->rq.cookie, SIGNIN_COOKIE, held, sizeof held) !=
	    COOKIE_OK)
		held[0] = '\0';
	agent_words(w->rq.user_agent, agent, sizeof agent);
	rc = store_signin_use(w->st, key, held[0] ? held : NULL, agent, cookie,
	                      &si, &err);
	if (rc == STORE_DUPLICATE)
		return resp_redirect(w, "games");
	if (rc == STORE_NOT_FOUND)
		return refuse(w, "This sign-in link is wrong or past its day. "
		              "Ask for a new one: it comes at once.");
	if (rc == STORE_LIMITED)
		return refuse(w, "This sign-in link has signed in its browsers "
		              "already. Ask for a new one: it comes at once.");
	if (rc != STORE_OK)
		return web_store_err(w, __func__, &err);
	if ((e = signin_set_cookie(w, cookie)))
		return e;
	return resp_redirect(w, "games" QUERY_NOTICE_OF(
	                     QUERY_NOTICE_SIGNED_IN));
}

web_err page_signin(web *w)
{
	const char *key;

	w->back = "signin";
	if (w->rq.method != M_POST) {
		if (field_text(&w->rq.query, FIELD_KEY) == NULL)
			return show_form(w, 200, NULL);
		if (!(key = link_key(&w->rq.query)))
			return refuse(w, "This sign-in link is incomplete: copy "
			              "the whole of it from the email.");
		return confirm(w, key);
	}
	if (field_text(&w->rq.body, FIELD_KEY) == NULL)
		return ask(w);
	if (!(key = link_key(&w->rq.body)))
		return refuse(w, "This sign-in link is incomplete: copy the "
		              "whole of it from the email.");
	return use(w, key);
}
