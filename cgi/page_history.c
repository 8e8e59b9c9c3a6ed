/*
 * page_history.c - GET PREFIX g/ID/history: every action of the game in
 * words, numbered, oldest first, as the cookie's seat may know them
 * (describe_action with the reader as viewer, R10), each linking to the
 * table as it was after it (g/ID?at=N); the table talk in its place
 * among them (a message said when the game had N lines follows move N)
 * and linking to the table as it was then.  Once the game is over
 * nothing of it is secret: every move is told in full (every Sensor
 * Sweep's order, every card handed off) and the hands as dealt head it.
 *
 * A move that was taken back is told where it was made ("Ann took back
 * a move: Holodeck Reservation").
 *
 * The page is bounded whatever the game: the last HISTORY_TALK messages,
 * the last HISTORY_TAKEN moves taken back and, of it all, the last
 * HISTORY_ROWS entries are shown (the page says how many earlier ones
 * are not).
 */
#include <stdio.h>
#include <string.h>

#include "describe.h"
#include "ended.h"
#include "query.h"
#include "since.h"
#include "table.h"

enum {
	HISTORY_ROWS = 500,     /* entries one page shows */
	HISTORY_TALK = 100,     /* chat messages among them, at most */
	HISTORY_TAKEN = 100     /* moves taken back among them, at most */
};

_Static_assert((int)DESCRIBE_MAX >= (int)STORE_CHAT_MAX + 1,
               "an entry's text holds a chat message");
_Static_assert((int)HISTORY_ROWS <= (int)TMPL_ITER_MAX, "one section renders all");

/* One line of the history: a move or a message. */
typedef struct entry {
	int talk;                 /* 0: a move; 1: a chat message; 2: a
	                           * move taken back */
	int no;                   /* the move (record lines after it); for
	                           * a message, the lines when it was said */
	int seat;
	int64_t created;
	char text[DESCRIBE_MAX];
} entry;

typedef struct history {
	web *w;
	int seat;
	int viewer;               /* seat, or DESCRIBE_EVERYONE once over */
	bt_game dealt;            /* the state before the first move */
	/* the last HISTORY_TALK messages, oldest first */
	int talk_n, talk_next;
	store_chat talk[HISTORY_TALK];
	/* the last HISTORY_TAKEN moves taken back, oldest first */
	int taken_n, taken_next;
	store_taken taken[HISTORY_TAKEN];
	/* who chose each line: 's' a bot standing in (store_made_by) */
	char by[BT_RECORD_MAX_ITEMS];
	/* the page's entries, in a ring of the last HISTORY_ROWS */
	int first, n, dropped;
	entry e[HISTORY_ROWS];
	/* the texts of the row being rendered */
	char no[16], who[48], url[WEB_URL_MAX], when[SINCE_MAX + 8];
	char iso[SINCE_ISO_MAX];
} history;

/* A new entry at the end, the oldest dropped when the ring is full. */
static entry *push(history *h)
{
	entry *e;

	if (h->n < HISTORY_ROWS) {
		e = &h->e[(h->first + h->n++) % HISTORY_ROWS];
	} else {
		e = &h->e[h->first];
		h->first = (h->first + 1) % HISTORY_ROWS;
		h->dropped++;
	}
	return e;
}

static int keep_talk(void *ctx, const store_chat *c)
{
	history *h = ctx;

	if (h->talk_n == 0)
		h->dropped += c->seq;     /* the ones said before it */
	if (h->talk_n < HISTORY_TALK)
		h->talk[h->talk_n++] = *c;
	return 0;
}

/* Adds the messages said while the game had at most lines lines. */
static void talk_upto(history *h, int lines)
{
	while (h->talk_next < h->talk_n) {
		const store_chat *c = &h->talk[h->talk_next];
		entry *e;
		if (lines >= 0 && c->at_seq > lines)
			return;
		e = push(h);
		*e = (entry){ .talk = 1, .no = c->at_seq, .seat = c->seat,
		              .created = c->created };
		snprintf(e->text, sizeof e->text, "%s", c->text);
		h->talk_next++;
	}
}

static int keep_taken(void *ctx, const store_taken *t)
{
	history *h = ctx;

	if (h->taken_n == HISTORY_TAKEN) {
		memmove(h->taken, h->taken + 1,
		        (HISTORY_TAKEN - 1) * sizeof h->taken[0]);
		h->taken_n--;
	}
	h->taken[h->taken_n++] = *t;
	return 0;
}

/* Adds the moves taken back while the game had at most lines lines (all
 * of them if lines < 0): "Ann took back a move: Overtime". */
static void taken_upto(history *h, int lines)
{
	while (h->taken_next < h->taken_n) {
		const store_taken *t = &h->taken[h->taken_next];
		char who[48];
		bt_action a;
		bt_error gerr;
		if (lines >= 0 && t->seq > lines)
			return;
		entry *e = push(h);
		*e = (entry){ .talk = 2, .no = t->seq, .seat = t->seat,
		              .created = t->taken };
		const char *name = describe_seat(&h->w->game, t->seat, who,
		                                 sizeof who);
		if (bt_action_parse(t->line, strlen(t->line), &a, &gerr) == 0 &&
		    a.card < BT_CARD_COUNT)
			snprintf(e->text, sizeof e->text, "%s took back a move: "
			         "%s.", name, bt_card_get(a.card)->name);
		else
			snprintf(e->text, sizeof e->text, "%s took back a "
			         "move.", name);
		h->taken_next++;
	}
}

static int keep_move(void *ctx, int seq, int64_t created,
                     const bt_game *before, const bt_game *after,
                     const bt_action *a)
{
	history *h = ctx;
	entry *e;

	talk_upto(h, seq);
	taken_upto(h, seq);
	if (seq == 0)
		h->dealt = *before;
	e = push(h);
	*e = (entry){ .talk = 0, .no = seq + 1, .seat = a->seat,
	              .created = created };
	describe_action(before, after, a, &h->w->game, h->viewer, e->text,
	                sizeof e->text);
	/* A bot seat's name says so; a stand-in plays under the absent
	 * player's name. */
	if (seq >= 0 && seq < (int)sizeof h->by && h->by[seq] == 's') {
		size_t len = strlen(e->text);
		snprintf(e->text + len, sizeof e->text - len,
		         " (a bot standing in)");
	}
	return 0;
}

static const char *hist_row(void *ctx, int key, int i)
{
	history *h = ctx;
	const entry *e;
	char ago[SINCE_MAX];

	if (i < 0 || i >= h->n)
		return NULL;
	e = &h->e[(h->first + i) % HISTORY_ROWS];
	switch (key) {
	case K_hist_class:
		return !e->talk ? "move" : e->talk == 2 ? "takeback"
		       : e->seat == h->seat ? "talk mine" : "talk";
	case K_hist_link:
		if (e->talk)
			return e->talk == 2 ? "undone" : "talk";
		snprintf(h->no, sizeof h->no, "%d", e->no);
		return h->no;
	case K_hist_who:
		return e->talk == 1 ? describe_seat(&h->w->game, e->seat,
		                                    h->who, sizeof h->who) : "";
	case K_hist_text:
		return e->text;
	case K_hist_url:
		snprintf(h->url, sizeof h->url, "%sg/%s?" QUERY_AT "=%d",
		         h->w->cf->prefix, h->w->game.id, e->no);
		return h->url;
	case K_hist_when:
		snprintf(h->when, sizeof h->when, "%s ago", since_words(
		         store_now() - e->created, ago, sizeof ago));
		return h->when;
	case K_hist_iso:
		return since_iso(e->created, h->iso, sizeof h->iso);
	default:
		return NULL;
	}
}

/* Reads the talk and replays the game into h. */
static web_err gather(web *w, history *h)
{
	store_error err;

	if (store_made_by(w->st, w->game.id, h->by, (int)sizeof h->by, &err)
	    != STORE_OK ||
	    store_chat_latest(w->st, w->game.id, HISTORY_TALK, keep_talk, h,
	                      &err)
	    != STORE_OK ||
	    store_taken_list(w->st, w->game.id, keep_taken, h, &err)
	    != STORE_OK ||
	    store_walk(w->st, &w->game, -1, keep_move, h, NULL, &err)
	    != STORE_OK)
		return web_store_err(w, __func__, &err);
	talk_upto(h, -1);
	taken_upto(h, -1);
	return WEB_OK;
}

/* The hands as dealt, once the game is over (table_deal.c's section),
 * into w->frag[0]. */
static web_err dealt(web *w, const history *h, vals *v)
{
	int over = w->game.state.status != BT_PLAYING;

	if (!over || w->game.seq == 0)
		return WEB_OK;
	out_reset(&w->frag[0]);
	deal_html(&w->frag[0], &w->game, &h->dealt, h->seat,
	          "as dealt: the game is over, nothing is secret now");
	out_raws(&w->frag[0], "</section>\n");
	if (w->frag[0].failed) {
		web_log(w, __func__, "the deal overflowed");
		return WEB_INTERNAL;
	}
	vals_show(v, K_has_deal, 1);
	vals_set(v, K_deal, out_str(&w->frag[0]));
	return WEB_OK;
}

web_err page_history(web *w)
{
	static history h;
	static char table[WEB_URL_MAX], record[WEB_URL_MAX], start[WEB_URL_MAX];
	char you[48], cut[128], ended[ENDED_MAX];
	web_err e;
	vals v;
	tmpl_data d;
	int seat;

	/* guard */
	if ((e = seat_guard(w, &seat)))
		return e;
	/* inputs: the game, replayed */
	h.w = w;
	h.seat = seat;
	h.viewer = w->game.state.status != BT_PLAYING ? DESCRIBE_EVERYONE
	           : seat;
	h.talk_n = h.talk_next = 0;
	h.taken_n = h.taken_next = 0;
	h.first = h.n = h.dropped = 0;
	if ((e = gather(w, &h)))
		return e;
	/* render */
	snprintf(table, sizeof table, "%sg/%s", w->cf->prefix, w->game.id);
	snprintf(record, sizeof record, "%sg/%s/record", w->cf->prefix,
	         w->game.id);
	snprintf(start, sizeof start, "%sg/%s?" QUERY_AT "=0", w->cf->prefix,
	         w->game.id);
	snprintf(cut, sizeof cut, "The %d earliest entries are not shown "
	         "here (the game record has every move).", h.dropped);
	vals_init(&v);
	if ((e = dealt(w, &h, &v)))
		return e;
	vals_set(&v, K_table_url, table);
	vals_set(&v, K_record_url, record);
	vals_set(&v, K_start_url, start);
	vals_show(&v, K_over, w->game.state.status != BT_PLAYING);
	vals_show(&v, K_has_ended, w->game.ended_by != 0);
	vals_set(&v, K_ended_text, ended_words(&w->game, ended, sizeof ended));
	vals_show(&v, K_practice, w->game.practice);
	vals_set(&v, K_you_name, describe_seat(&w->game, seat, you, sizeof you));
	vals_int(&v, K_you_seat, seat);
	vals_int(&v, K_hist_moves, w->game.seq);
	vals_show(&v, K_hist_cut, h.dropped > 0);
	vals_set(&v, K_hist_cut_text, cut);
	vals_show(&v, K_has_hist, h.n > 0);
	vals_rows(&v, K_hist, h.n);
	v.row = hist_row;
	v.ctx = &h;
	d = vals_data(&v);
	return resp_page(w, 200, "History", TPL_HISTORY, &d);
}
