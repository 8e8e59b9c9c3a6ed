/*
 * page_settings.c - GET, POST PREFIX g/ID/settings: how the cookie's seat
 * wants its email (every move, only its turn, a daily digest, none), the
 * address it goes to (this seat's own, no other), whether it shows its
 * hand to the crew, the seat's Atom feed address, and the browsers
 * signed in with its address.
 *
 * POST: the seat comes from the cookie, the form must carry its CSRF
 * token; field notify = every | turn | digest | none, or show = on | off
 * (its hand on every seat's table, and the bots plan with it), or
 * signout = ID | all (a browser signed in with the seat's address:
 * settings_browsers.c).  Then a 303 back here with ?m=saved (so a
 * reload does not post again).
 */
#include <stdio.h>
#include <string.h>

#include "describe.h"
#include "fields.h"
#include "query.h"
#include "settings_browsers.h"
#include "vals.h"
#include "web.h"

/* The choices, in the order shown. */
static const struct {
	store_notify n;
	const char *text, *help;
} choices[] = {
	{ STORE_NOTIFY_EVERY, "Every move",
	  "An email for every move of the other players, and when it is "
	  "your turn." },
	{ STORE_NOTIFY_TURN, "Only my turn",
	  "An email when it is your turn, and one when the game ends." },
	{ STORE_NOTIFY_DIGEST, "Daily digest",
	  "At most one email a day, with what happened since the last." },
	{ STORE_NOTIFY_NONE, "None",
	  "No email about this game; follow it here or in the feed." },
};

enum { NCHOICES = sizeof choices / sizeof choices[0] };

typedef struct settings_ctx {
	store_notify now;
	browsers_ctx *browsers;
} settings_ctx;

static const char *settings_row(void *ctx, int key, int i)
{
	const settings_ctx *c = ctx;

	if (key == K_browser_id || key == K_browser_name ||
	    key == K_browser_this || key == K_browser_since ||
	    key == K_browser_seen)
		return settings_browser_row(c->browsers, key, i);
	if (i < 0 || i >= NCHOICES)
		return NULL;
	switch (key) {
	case K_notify_value: return store_notify_name(choices[i].n);
	case K_notify_text: return choices[i].text;
	case K_notify_help: return choices[i].help;
	case K_notify_sel: return choices[i].n == c->now ? " checked" : "";
	default: return NULL;
	}
}

/* The words of a redirect's ?m= notice here, or NULL. */
static const char *notice_words(const char *m)
{
	static const struct { const char *m, *words; } notices[] = {
		{ QUERY_NOTICE_SAVED, "Saved." },
		{ QUERY_NOTICE_SIGNED_OUT, "Signed out." },
		{ QUERY_NOTICE_PUSH_ON, "This browser now shows a notification "
		  "when it is your turn." },
		{ QUERY_NOTICE_PUSH_OFF, "This browser shows no more "
		  "notifications of this seat." },
		{ QUERY_NOTICE_HOOK_ON, "Saved: the chat gets a first message "
		  "now, then one for each turn and the end of the game." },
		{ QUERY_NOTICE_HOOK_OFF, "The chat gets no more messages of "
		  "this game." },
	};

	for (size_t i = 0; i < sizeof notices / sizeof notices[0]; i++)
		if (strcmp(m, notices[i].m) == 0)
			return notices[i].words;
	return NULL;
}

/* The form: what the seat has now, where mail goes, the feed. */
static web_err show(web *w, int seat)
{
	const store_seat *me = &w->game.seats[seat - 1];
	char csrf[CSRF_TEXT_SIZE], feed[WEB_URL_MAX], self[WEB_URL_MAX];
	char table[WEB_URL_MAX], name[48];
	static browsers_ctx browsers;
	static push_view push;
	static hook_view hook;
	settings_ctx c = { me->notify, &browsers };
	const char *text;
	unsigned shown;
	store_error err;
	vals v;
	tmpl_data d;

	if (store_shown_get(w->st, w->game.id, &shown, &err) != STORE_OK)
		return web_store_err(w, __func__, &err);

	if (csrf_make(&w->keys, w->game.id, seat, me->token_gen, csrf,
	              sizeof csrf) != TOKEN_OK) {
		web_log(w, __func__, "csrf_make failed for game %s",
		        w->game.id);
		return WEB_INTERNAL;
	}
	if (seat_link_url(w, TOKEN_FEED, seat, 1, feed, sizeof feed))
		return WEB_INTERNAL;
	snprintf(self, sizeof self, "%sg/%s/settings", w->cf->prefix,
	         w->game.id);
	snprintf(table, sizeof table, "%sg/%s", w->cf->prefix, w->game.id);
	vals_init(&v);
	const char *notice = field_text(&w->rq.query, FIELD_NOTICE);
	if (notice && (text = notice_words(notice))) {
		vals_show(&v, K_has_notice, 1);
		vals_set(&v, K_notice, text);
		vals_set(&v, K_notice_class, "");
	}
	settings_browsers(w, seat, &browsers, &v);
	settings_push(w, seat, &push, &v);
	settings_hook(w, &hook, &v);
	vals_set(&v, K_settings_url, self);
	vals_set(&v, K_table_url, table);
	vals_set(&v, K_csrf, csrf);
	vals_set(&v, K_you_name, describe_seat(&w->game, seat, name,
	                                       sizeof name));
	vals_int(&v, K_you_seat, seat);
	vals_show(&v, K_has_email, me->email[0] != '\0' && !me->blocked);
	vals_show(&v, K_settings_noaddr, me->email[0] == '\0');
	/* no choice to offer: none of them would send anything */
	vals_show(&v, K_settings_blocked, me->blocked);
	vals_set(&v, K_settings_email, me->email);
	vals_set(&v, K_settings_feed, feed);
	vals_rows(&v, K_notify_opt, me->blocked ? 0 : NCHOICES);
	vals_show(&v, K_hand_shown, shown >> (seat - 1) & 1);
	vals_set(&v, K_show_hand, shown >> (seat - 1) & 1 ? "off" : "on");
	v.row = settings_row;
	v.ctx = &c;
	d = vals_data(&v);
	return resp_page(w, 200, "Settings", TPL_SETTINGS, &d);
}

/* Stores show = on | off: whether the seat's hand is shown. */
static web_err save_shown(web *w, int seat, const char *hand)
{
	store_error err;
	int on = strcmp(hand, "on") == 0;

	if (!on && strcmp(hand, "off") != 0) {
		snprintf(w->why, sizeof w->why, "The form did not choose to "
		         "show your hand or not.");
		return WEB_BAD_REQUEST;
	}
	if (store_shown_set(w->st, w->game.id, seat, on, &err) != STORE_OK)
		return web_store_err(w, __func__, &err);
	return WEB_OK;
}

/* Stores the posted choice; 303 back to the form. */
static web_err save(web *w, int seat)
{
	const char *n = field_text(&w->rq.body, FIELD_NOTIFY);
	const char *hand = field_text(&w->rq.body, FIELD_SHOW);
	const char *signout = field_text(&w->rq.body, FIELD_SIGNOUT);
	char to[STORE_ID_LEN + 32];
	store_notify notify;
	store_error err;
	web_err e;

	if (csrf_check(&w->keys, w->game.id, seat,
	               w->game.seats[seat - 1].token_gen,
	               field_text(&w->rq.body, FIELD_CSRF)) != TOKEN_OK)
		return WEB_BAD_FORM;
	if (signout && !n && !hand)
		return settings_sign_out(w, seat, signout);
	if (hand && !n) {
		if ((e = save_shown(w, seat, hand)))
			return e;
	} else if (!n || store_notify_parse(n, &notify) < 0) {
		snprintf(w->why, sizeof w->why, "The form did not choose "
		         "every, turn, digest or none.");
		return WEB_BAD_REQUEST;
	} else if (store_set_notify(w->st, w->game.id, seat, notify, &err) !=
	           STORE_OK) {
		return web_store_err(w, __func__, &err);
	}
	snprintf(to, sizeof to,
	         "g/%s/settings" QUERY_NOTICE_OF(QUERY_NOTICE_SAVED),
	         w->game.id);
	return resp_redirect(w, to);
}

web_err page_settings(web *w)
{
	static char back[STORE_ID_LEN + 16];
	web_err e;
	int seat;

	/* guard */
	if ((e = seat_guard(w, &seat)))
		return e;
	snprintf(back, sizeof back, "g/%s/settings", w->game.id);
	w->back = back;
	/* inputs, render */
	return w->rq.method == M_POST ? save(w, seat) : show(w, seat);
}
