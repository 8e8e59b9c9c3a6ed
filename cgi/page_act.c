/*
 * page_act.c - POST PREFIX g/ID/act: one action of the cookie's seat.
 *
 * Guard: the seat comes from the cookie only; the form must carry that
 * seat's CSRF token and the seq of the state it was chosen in.  Inputs:
 * action (a table below) and its fields, decoded into a bt_action; the
 * engine alone judges legality.  Then: 303 back to the table; a form
 * from an outdated page (another action landed first, or a double
 * submit) changes nothing and redirects with ?m=stale; a move the rules
 * refuse gets a 409 page with the engine's reason.
 */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "fields.h"
#include "mail_ctx.h"
#include "query.h"
#include "web.h"

/* What an action does with the store once decoded. */
typedef enum commit { APPEND, SWEEP_BEGIN } commit;

typedef web_err decode_fn(web *w, int seat, bt_action *a);

/* A card field: the card, or BT_NO_CARD if absent or not an id. */
static bt_card card_field(const form *f, field_id id)
{
	const char *v = field_text(f, id);

	return v ? bt_card_parse(v, strlen(v)) : BT_NO_CARD;
}

static web_err bad(web *w, const char *why)
{
	snprintf(w->why, sizeof w->why, "%s", why);
	return WEB_BAD_REQUEST;
}

static web_err d_work(web *w, int seat, bt_action *a)
{
	(void)w;
	*a = (bt_action){ .seat = (uint8_t)seat, .verb = BT_WORK,
	                  .card = BT_NO_CARD };
	return WEB_OK;
}

static web_err d_log(web *w, int seat, bt_action *a)
{
	(void)w;
	*a = (bt_action){ .seat = (uint8_t)seat, .verb = BT_LOG,
	                  .card = BT_NO_CARD };
	return WEB_OK;
}

static web_err d_side(web *w, int seat, bt_action *a)
{
	bt_card c = card_field(&w->rq.body, FIELD_CARD);

	if (c == BT_NO_CARD || bt_card_type_of(c) != BT_TYPE_SIDE)
		return bad(w, "The form did not name a Side Project.");
	*a = (bt_action){ .seat = (uint8_t)seat, .verb = BT_SIDE, .card = c };
	return WEB_OK;
}

/* The choices each Ability kind takes in arg1, arg2 (RECORD.md). */
typedef enum arg_type { ARG_NONE, ARG_CARD, ARG_SEAT } arg_type;

static const arg_type kind_args[BT_KIND__MAX][2] = {
	[BT_COVER_STORY] = { ARG_CARD },
	[BT_SCALE_BACK] = { ARG_CARD },
	[BT_HAND_OFF] = { ARG_CARD, ARG_SEAT },
};

static web_err d_special(web *w, int seat, bt_action *a)
{
	static const field_id fields[2] = { FIELD_ARG1, FIELD_ARG2 };
	bt_card c = card_field(&w->rq.body, FIELD_CARD);
	bt_kind k;
	int64_t s;

	if (c == BT_NO_CARD || bt_card_type_of(c) != BT_TYPE_ABILITY)
		return bad(w, "The form did not name an Ability card.");
	k = bt_card_get(c)->kind;
	if (k == BT_SENSOR_SWEEP)
		return bad(w, "Sensor Sweep is played in two steps: look, "
		           "then order.");
	*a = (bt_action){ .seat = (uint8_t)seat, .verb = BT_SPECIAL, .card = c };
	for (int i = 0; i < 2 && kind_args[k][i] != ARG_NONE; i++) {
		bt_card x = card_field(&w->rq.body, fields[i]);
		if (kind_args[k][i] == ARG_SEAT) {
			if (field_int(&w->rq.body, fields[i], &s))
				return bad(w, "The form did not name a seat.");
			x = (bt_card)s;
		} else if (x == BT_NO_CARD) {
			return bad(w, "The form did not name a card.");
		}
		a->arg[a->nargs++] = x;
	}
	return WEB_OK;
}

/* Looking commits the card: the order comes with action=order. */
static web_err d_look(web *w, int seat, bt_action *a)
{
	bt_card c = card_field(&w->rq.body, FIELD_CARD);

	if (c == BT_NO_CARD || bt_card_get(c)->kind != BT_SENSOR_SWEEP)
		return bad(w, "The form did not name a Sensor Sweep card.");
	*a = (bt_action){ .seat = (uint8_t)seat, .verb = BT_SPECIAL, .card = c };
	return WEB_OK;
}

/* The order of a pending sweep: order=S08-S23-S09, top first, exactly
 * as many ids as the sweep saw. */
static web_err d_order(web *w, int seat, bt_action *a)
{
	const store_game *g = &w->game;
	const char *v = field_text(&w->rq.body, FIELD_ORDER);
	int n = g->state.shift_deck.n;

	if (g->sweep_card == BT_NO_CARD || g->sweep_seat != seat) {
		snprintf(w->why, sizeof w->why, "There is no Sensor Sweep of "
		         "yours to finish.");
		return WEB_ILLEGAL;
	}
	if (n > BT_SWEEP_CARDS)
		n = BT_SWEEP_CARDS;
	*a = (bt_action){ .seat = (uint8_t)seat, .verb = BT_SPECIAL,
	                  .card = g->sweep_card, .nargs = (uint8_t)n };
	for (int i = 0; i < n; i++) {
		/* each id is 3 characters, then '-' or the end */
		bt_card c = v && strlen(v) >= 3 ? bt_card_parse(v, 3)
		            : BT_NO_CARD;
		if (c == BT_NO_CARD || v[3] != (i == n - 1 ? '\0' : '-'))
			return bad(w, "The form did not give the order of "
			           "every card.");
		a->arg[i] = c;
		v += 4;
	}
	return WEB_OK;
}

static const struct {
	const char *name;
	decode_fn *decode;
	commit how;
} actions[] = {
	{ "work", d_work, APPEND }, { "log", d_log, APPEND },
	{ "side", d_side, APPEND }, { "special", d_special, APPEND },
	{ "look", d_look, SWEEP_BEGIN }, { "order", d_order, APPEND },
};

enum { NACTIONS = sizeof actions / sizeof actions[0] };

/* Stores a, with the emails it causes (queued in the same transaction);
 * maps the store's answer to the response. */
static web_err run(web *w, int seq, const bt_action *a, commit how)
{
	compose_ctx mail;
	char to[STORE_ID_LEN + 16];
	store_error err;
	store_rc rc;

	web_compose(w, &mail);

	if (how == SWEEP_BEGIN && w->game.sweep_card == a->card &&
	    w->game.sweep_seat == a->seat && w->game.seq == seq)
		rc = STORE_OK;         /* a second click on "look": done */
	else if (how == SWEEP_BEGIN)
		rc = store_sweep_begin(w->st, w->game.id, seq, a->seat, a->card,
		                       &err);
	else
		rc = store_append(w->st, w->game.id, seq, a, compose_move,
		                  &mail, NULL, &err);
	snprintf(to, sizeof to, "g/%s%s", w->game.id,
	         rc == STORE_CONFLICT ? QUERY_NOTICE_OF(QUERY_NOTICE_STALE)
	                              : "");
	if (rc == STORE_OK || rc == STORE_CONFLICT)
		return resp_redirect(w, to);
	return web_store_err(w, __func__, &err);
}

web_err page_act(web *w)
{
	const char *name = field_text(&w->rq.body, FIELD_ACTION);
	int64_t seq;
	bt_action a;
	web_err e;
	int seat;
	size_t i;

	/* guard */
	if ((e = seat_form_guard(w, "", &seat)))
		return e;
	if (field_int(&w->rq.body, FIELD_SEQ, &seq))
		return bad(w, "The form did not say which state it was "
		           "chosen in.");
	/* A form from an older state changes nothing (the store checks
	 * again under its lock). */
	if (seq != w->game.seq) {
		char to[STORE_ID_LEN + 16];
		snprintf(to, sizeof to,
		         "g/%s" QUERY_NOTICE_OF(QUERY_NOTICE_STALE),
		         w->game.id);
		return resp_redirect(w, to);
	}
	/* inputs */
	for (i = 0; i < NACTIONS; i++)
		if (name && strcmp(name, actions[i].name) == 0)
			break;
	if (i == NACTIONS)
		return bad(w, "The form asked for no known action.");
	if ((e = actions[i].decode(w, seat, &a)))
		return e;
	/* do it */
	return run(w, (int)seq, &a, actions[i].how);
}
