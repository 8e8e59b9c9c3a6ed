/*
 * table_since.c - what happened since a seat last looked, first on its
 * table: the moves made since its last visit (store_seat.last_seen as
 * loaded, before this visit is noted) in the words the seat may know
 * (R10), newest first, a handful at most with how many more the history
 * has; with nothing new, the last move.  A seat that never looked sees
 * the game so far.
 *
 * A move stored in the very second of the last visit counts as new: a
 * move told twice is better than one never told.  The visit is noted at
 * most once a minute (page_table.c), so a reload within it tells the
 * same moves again.
 */
#include <stdio.h>
#include <string.h>

#include "describe.h"
#include "since.h"
#include "table.h"

enum { SINCE_SHOWN = 4 };       /* moves the block tells, newest first */

/* The moves since, as a store walk meets them. */
typedef struct since_ctx {
	const store_game *g;
	int viewer;
	int64_t from;           /* moves stored at or after this are new */
	int n;                  /* new moves */
	char text[SINCE_SHOWN][DESCRIBE_MAX];   /* ring of the newest */
} since_ctx;

static int keep(void *ctx, int seq, int64_t created, const bt_game *before,
                const bt_game *after, const bt_action *a)
{
	since_ctx *c = ctx;

	(void)seq;
	if (created < c->from)
		return 0;
	char *t = c->text[c->n % SINCE_SHOWN];
	/* my own moves in my words: "You got to work" */
	if (c->viewer > 0 && c->viewer == a->seat) {
		describe_own_action(before, after, a, c->g, t, DESCRIBE_MAX);
		if (t[0] >= 'a' && t[0] <= 'z')
			t[0] = (char)(t[0] - 'a' + 'A');
	} else {
		describe_action(before, after, a, c->g, c->viewer, t,
		                DESCRIBE_MAX);
	}
	c->n++;
	return 0;
}

/* The block's list (HTML of this file's): the newest moves first, or
 * what there is when nothing is new. */
static void list(out *o, const since_ctx *c, const char *last_move)
{
	int shown = c->n < SINCE_SHOWN ? c->n : SINCE_SHOWN;

	if (shown == 0) {
		out_raws(o, "<p class=\"none\">Nothing new.</p>\n");
		if (last_move && last_move[0]) {
			out_raws(o, "<p>The last move: ");
			out_html(o, last_move);
			out_raws(o, "</p>\n");
		}
		return;
	}
	out_raws(o, "<ul class=\"moves\">\n");
	for (int i = 0; i < shown; i++) {
		out_raws(o, i == 0 ? "<li class=\"latest\">" : "<li>");
		out_html(o, c->text[(c->n - 1 - i) % SINCE_SHOWN]);
		out_raws(o, "</li>\n");
	}
	out_raws(o, "</ul>\n");
}

web_err table_since(web *w, const table_view *tv, int viewer,
                    const char *last_move, vals *v)
{
	static since_ctx c;
	static out html;
	static int made;
	static char when[SINCE_MAX + 8], more[64];
	const store_game *g = &w->game;
	store_error err;
	char ago[SINCE_MAX];

	if (!TABLE_LIVE(tv))
		return WEB_OK;
	if (!made) {
		out_init(&html, SINCE_SHOWN * DESCRIBE_MAX * 6 + 1024);
		made = 1;
	}
	out_reset(&html);
	c = (since_ctx){ .g = g, .viewer = viewer,
	                 .from = g->seats[tv->seat - 1].last_seen };
	if (g->seq > 0 && store_walk(w->st, g, -1, keep, &c, NULL, &err)
	    != STORE_OK)
		return web_store_err(w, __func__, &err);
	if (g->seq == 0)
		out_raws(&html, "<p class=\"none\">No moves yet: the game "
		         "has just begun.</p>\n");
	else
		list(&html, &c, last_move);
	if (html.failed) {
		web_log(w, __func__, "the moves since overflowed");
		return WEB_INTERNAL;
	}
	if (c.from > 0)
		snprintf(when, sizeof when, "%s ago", since_words(store_now() -
		         c.from, ago, sizeof ago));
	else
		snprintf(when, sizeof when, "your first look: the game so far");
	snprintf(more, sizeof more, "and %d more move%s, in the history",
	         c.n - SINCE_SHOWN, c.n - SINCE_SHOWN == 1 ? "" : "s");
	vals_show(v, K_has_since, 1);
	vals_set(v, K_since_when, when);
	vals_set(v, K_since_list, out_str(&html));
	vals_show(v, K_since_more, c.n > SINCE_SHOWN);
	vals_set(v, K_since_more_text, more);
	return WEB_OK;
}
