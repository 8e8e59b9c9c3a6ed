/*
 * table_talk.c - the table talk panel of a seat's table: the latest
 * messages, oldest first (a conversation reads down), every byte of them
 * escaped by the template, and the form that says one more (page_say.c).
 * The history page shows all of them, in their place among the moves.
 */
#include <stdio.h>
#include <string.h>

#include "describe.h"
#include "since.h"
#include "table.h"
#include "utf8.h"

enum { TALK_LINE_MAX = 160 };   /* bytes of the newest message told first */

/* The messages of one render: the last TABLE_TALK_SHOWN, oldest first. */
typedef struct talk_ctx {
	web *w;
	int seat;
	int total;              /* messages the game has */
	int n;
	store_chat c[TABLE_TALK_SHOWN];
	char who[48], when[SINCE_MAX + 8], iso[SINCE_ISO_MAX];
} talk_ctx;

static int keep(void *ctx, const store_chat *c)
{
	talk_ctx *t = ctx;

	t->total = c->seq + 1;
	if (t->n < TABLE_TALK_SHOWN)
		t->c[t->n++] = *c;
	return 0;
}

static const char *talk_row(void *ctx, int key, int i)
{
	talk_ctx *t = ctx;
	const store_chat *c;
	char ago[SINCE_MAX];

	if (i < 0 || i >= t->n)
		return NULL;
	c = &t->c[i];
	switch (key) {
	case K_chat_who:
		return describe_seat(&t->w->game, c->seat, t->who,
		                     sizeof t->who);
	case K_chat_when:
		snprintf(t->when, sizeof t->when, "%s ago", since_words(
		         store_now() - c->created, ago, sizeof ago));
		return t->when;
	case K_chat_iso:
		return since_iso(c->created, t->iso, sizeof t->iso);
	case K_chat_text:
		return c->text;
	case K_chat_class:
		return c->seat == t->seat ? "mine" : "";
	default:
		return NULL;
	}
}

/* The newest message, for the since block: who, when, and its words (a
 * long one cut short, at a whole character). */
static void newest(talk_ctx *t, vals *v)
{
	static char who[48], when[SINCE_MAX + 8], iso[SINCE_ISO_MAX];
	static char text[TALK_LINE_MAX + 8];
	const store_chat *c;
	char ago[SINCE_MAX];

	vals_show(v, K_has_talk_newest, t->n > 0);
	vals_show(v, K_talk_none, t->n == 0);
	if (t->n == 0)
		return;
	c = &t->c[t->n - 1];
	snprintf(text, TALK_LINE_MAX + 1, "%s", c->text);
	if (strlen(c->text) > TALK_LINE_MAX) {
		utf8_cut_valid(text);
		snprintf(text + strlen(text), sizeof text - strlen(text),
		         "\xe2\x80\xa6");
	}
	snprintf(when, sizeof when, "%s ago", since_words(store_now() -
	         c->created, ago, sizeof ago));
	vals_set(v, K_talk_newest_who, describe_seat(&t->w->game, c->seat,
	         who, sizeof who));
	vals_set(v, K_talk_newest_when, when);
	vals_set(v, K_talk_newest_iso, since_iso(c->created, iso, sizeof iso));
	vals_set(v, K_talk_newest_text, text);
}

web_err table_talk(web *w, const table_view *tv, const forms *f, vals *v)
{
	static talk_ctx t;
	char url[WEB_URL_MAX];
	store_error err;
	tmpl_data d;
	tmpl_rc rc;
	vals pv;

	if (!TABLE_LIVE(tv))
		return WEB_OK;
	t.w = w;
	t.seat = tv->seat;
	t.total = t.n = 0;
	if (store_chat_latest(w->st, w->game.id, TABLE_TALK_SHOWN, keep, &t,
	                      &err) != STORE_OK)
		return web_store_err(w, __func__, &err);
	snprintf(url, sizeof url, "%sg/%s/say", w->cf->prefix, w->game.id);
	vals_init(&pv);
	vals_set(&pv, K_say_url, url);
	vals_set(&pv, K_csrf, f->csrf);
	vals_set(&pv, K_seq, f->seq);
	vals_int(&pv, K_chat_max, STORE_CHAT_MAX);
	vals_rows(&pv, K_chat, t.n);
	vals_show(&pv, K_has_chat, t.n > 0);
	vals_show(&pv, K_chat_shown, t.total > t.n);
	pv.row = talk_row;
	pv.ctx = &t;
	d = vals_data(&pv);
	out_reset(&w->frag[3]);
	if ((rc = tmpl_render(w->tpl[TPL_TALK], &w->frag[3], &d)) != TMPL_OK) {
		web_log(w, __func__, "talk.html: %s", tmpl_rc_text(rc));
		return WEB_INTERNAL;
	}
	vals_set(v, K_talk, out_str(&w->frag[3]));
	newest(&t, v);
	return WEB_OK;
}
