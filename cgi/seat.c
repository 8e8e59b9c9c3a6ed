/*
 * seat.c - who is asking: the seat a game's cookie holds.
 *
 * The cookie "bt_ID" holds the seat's link token.  It counts only if its
 * MAC is ours, it names this very game, and its generation is the seat's
 * current one (revoking a seat bumps the generation), and the seat is a
 * person's: a bot's hand is its own, even to a browser that opened its
 * link when pages still showed one.  The seat comes from nowhere else:
 * never from a form field.  A browser signed in by "Email me my games"
 * (signin.h) holds the seats of its address besides: its seat cookie,
 * if it has one, comes first.
 */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "fields.h"
#include "query.h"
#include "signin.h"
#include "web.h"

void seat_cookie_name(const char *id, char *name, size_t cap)
{
	snprintf(name, cap, "bt_%s", id);
}

int seat_cookie(const web *w, int *seat, int64_t *gen)
{
	char name[48], tok[COOKIE_VALUE_MAX], id[TOKEN_GAME_ID_LEN + 1];

	*seat = 0;
	seat_cookie_name(w->rq.game, name, sizeof name);
	if (cookie_get(w->rq.cookie, name, tok, sizeof tok) != COOKIE_OK ||
	    token_check(&w->keys, tok, id, seat, gen) != TOKEN_OK ||
	    strcmp(id, w->rq.game) != 0 || *seat < 1) {
		*seat = 0;
		return -1;
	}
	return 0;
}

web_err seat_guard(web *w, int *seat)
{
	store_error err;
	int64_t gen;
	int s;

	*seat = 0;
	if (store_load(w->st, w->rq.game, &w->game, &err) != STORE_OK)
		return web_store_err(w, __func__, &err);
	if ((seat_cookie(w, &s, &gen) || s > w->game.players ||
	     gen != w->game.seats[s - 1].token_gen ||
	     w->game.seats[s - 1].bot[0]) &&
	    !signin_seat(w, &w->game, &s, &gen))
		return WEB_FORBIDDEN;
	*seat = s;
	return WEB_OK;
}

web_err seat_form_guard(web *w, const char *back, int *seat)
{
	static char to[STORE_ID_LEN + 32];
	web_err e;

	if ((e = seat_guard(w, seat)))
		return e;
	snprintf(to, sizeof to, "g/%s%s", w->game.id, back);
	w->back = to;
	if (csrf_check(&w->keys, w->game.id, *seat,
	               w->game.seats[*seat - 1].token_gen,
	               field_text(&w->rq.body, FIELD_CSRF)) != TOKEN_OK)
		return WEB_BAD_FORM;
	return WEB_OK;
}

web_err seat_form_switch(web *w, field_id field, int *seat, int *on)
{
	web_err e = seat_form_guard(w, "/settings", seat);
	const char *what = e ? NULL : field_text(&w->rq.body, field);

	if (e)
		return e;
	*on = what && strcmp(what, "on") == 0;
	if (!*on && !(what && strcmp(what, "off") == 0)) {
		snprintf(w->why, sizeof w->why, "The form did not say on or "
		         "off.");
		return WEB_BAD_REQUEST;
	}
	return WEB_OK;
}

web_err seat_back_to_table(web *w, const char *m)
{
	char to[STORE_ID_LEN + 48];

	snprintf(to, sizeof to, "g/%s" QUERY_NOTICE_OF("%s"), w->game.id, m);
	return resp_redirect(w, to);
}

web_err seat_form_seq(web *w, int *seq)
{
	int64_t v;

	if (field_int(&w->rq.body, FIELD_SEQ, &v)) {
		snprintf(w->why, sizeof w->why, "The form did not say which "
		         "state it was sent from.");
		return WEB_BAD_REQUEST;
	}
	*seq = (int)v;
	return WEB_OK;
}
