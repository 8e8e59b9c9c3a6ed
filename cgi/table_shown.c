/*
 * table_shown.c - the hands shown to the crew, on a seat's table of now:
 * every other seat whose player chose "Show my hand to the crew" on
 * their settings page (store_shown_set), with its cards; and, when the
 * viewer's own hand is shown, a line that says so with the way to stop.
 * Nothing for a spectator (no hand, ever) or a table of the past (the
 * choice is kept for now only).  A hand its seat did not choose to show
 * is never drawn here.
 */
#include <stdio.h>

#include "cardview.h"
#include "describe.h"
#include "table.h"

/* One shown hand: the seat's name and its cards. */
static web_err shown_hand(web *w, out *o, int seat)
{
	uint64_t h = w->game.state.hand[seat - 1];
	bt_card cards[BT_HANDABLE_COUNT];
	char name[48];
	int n = 0;

	for (int c = 0; c < BT_HANDABLE_COUNT; c++)
		if (h >> c & 1)
			cards[n++] = (bt_card)c;
	out_raws(o, "<h3>");
	out_html(o, describe_seat(&w->game, seat, name, sizeof name));
	out_rawf(o, ", seat %d</h3>\n", seat);
	if (n == 0) {
		out_raws(o, "<p class=\"none\">No cards in this hand.</p>\n");
		return WEB_OK;
	}
	out_raws(o, "<div class=\"cards\">");
	web_err e = cards_draw(w, o, cards, n);
	out_raws(o, "</div>\n");
	return e;
}

web_err table_shown(web *w, const table_view *tv, vals *v)
{
	static out o;
	static int made;
	unsigned shown;
	store_error err;
	web_err e = WEB_OK;
	int others = 0;

	if (!made) {
		out_init(&o, WEB_PAGE_MAX);
		made = 1;
	}
	out_reset(&o);
	if (!TABLE_LIVE(tv) || w->game.state.status != BT_PLAYING)
		return WEB_OK;
	if (store_shown_get(w->st, w->game.id, &shown, &err) != STORE_OK)
		return web_store_err(w, __func__, &err);
	for (int s = 1; s <= w->game.players; s++)
		others += s != tv->seat && (shown >> (s - 1) & 1);
	if (others > 0) {
		out_raws(&o, "<section class=\"panel shown-hands\" "
		         "id=\"shown-hands\">\n"
		         "<h2>Hands shown to the crew</h2>\n");
		for (int s = 1; s <= w->game.players && e == WEB_OK; s++)
			if (s != tv->seat && (shown >> (s - 1) & 1))
				e = shown_hand(w, &o, s);
		out_raws(&o, "</section>\n");
	}
	if (shown >> (tv->seat - 1) & 1) {
		out_raws(&o, "<p class=\"notice shown-mine\">Your hand is "
		         "shown to the crew. <a href=\"");
		out_html(&o, w->cf->prefix);
		out_raws(&o, "g/");
		out_url(&o, w->game.id);
		out_raws(&o, "/settings\">Settings</a></p>\n");
	}
	if (e == WEB_OK && o.failed) {
		web_log(w, __func__, "the shown hands overflowed");
		e = WEB_INTERNAL;
	}
	vals_set(v, K_shown_hands, out_str(&o));
	return e;
}
