/*
 * table.h - the table page, drawn for one viewer at one moment into
 * templates/table.html: by page_table.c (a seat, now or as it was after
 * move N), and page_watch.c (a spectator, now).
 *
 *	table_view.c   the game itself: status, totals, crew, last moves
 *	table_cards.c  its cards and the action forms, as cards
 *	table_life.c   around it: the wait, the nudge, play again, the
 *	               spectator link and the links to the game's pages
 *	table_talk.c   the table talk panel (templates/talk.html)
 *	table_review.c a finished game's review
 *	table_crew.c   a finished game's crew: the games of its rematch chain
 *	table_since.c  what happened since the seat last looked
 *	table_deal.c   a finished game's whole deal: every hand, every sweep
 */
#ifndef BT_TABLE_H
#define BT_TABLE_H

#include "action_forms.h"
#include "vals.h"
#include "web.h"

enum {
	TABLE_TALK_SHOWN = 20      /* chat messages the table shows */
};

/* Who looks at the table, and when. */
typedef struct table_view {
	int seat;       /* 1..players: that seat's view; 0: a spectator,
	                 * who sees what every player sees (R10) and no
	                 * form */
	int at;         /* -1: now; else the table after the game's first
	                 * `at` record lines, read-only (no form) */
	int lines;      /* the game's record lines now (w->game.seq) */
	const char *self;   /* the page's own URL (the reload link) */
} table_view;

/* 1 if tv shows forms: a seat's view of the table now. */
#define TABLE_LIVE(tv) ((tv)->seat > 0 && (tv)->at < 0)

/*
 * Renders the table of w->game (loaded) for tv into w->rs, with the
 * notice of ?m= already set in v (or nothing).  For tv->at >= 0 the
 * game is replayed (store_walk) and w->game.state becomes the state
 * after that many lines.  Returns WEB_OK or an error (logged).
 */
web_err table_render(web *w, const table_view *tv, vals *v);

/*
 * Draws, for seat of w->game (0: a spectator: no hand, no Shift card
 * but those everyone saw), the piles (duty, sides, stack, row, the Shift
 * cards seat saw: known, bottom), seat's hand with a form on each
 * playable card, the turn's own forms (turn_forms, my_turn) and a
 * pending Sensor Sweep (sweeping, sweep_cards, sweep_form) into
 * w->frag[0], and sets those keys and their has_ sections in v.  f with
 * f->n == 0 draws no form.  The texts live in w->frag[0] until the next
 * request.
 */
web_err table_cards(web *w, int seat, const forms *f, vals *v);

/*
 * Sets the parts of table.html around the game for tv: the nudge form
 * (can_nudge) with, in has_nudge_note, when the next nudge may go, or
 * instead why none can reach the seat to move; play again (can_again),
 * the record once over (over_record), the spectator link (has_share)
 * and the game's links (has_links).  f holds the seat's CSRF token and
 * seq (forms_init) for a live view.  Texts live in this file's static
 * storage until the next call.  Returns WEB_OK or WEB_INTERNAL.
 */
web_err table_life(web *w, const table_view *tv, const forms *f, vals *v);

/*
 * The review of a finished game for tv's view of now (table_review.c):
 * review_pending while the worker weighs its moves, then has_review
 * with the chart, the figures and the turning points (review_chart,
 * review_table, review_turns: HTML in this file's static storage until
 * the next call).  Nothing while the game is in play or for a past
 * table.  Returns WEB_OK or WEB_INTERNAL (logged).
 */
web_err table_review(web *w, const table_view *tv, vals *v);

/*
 * The crew of a finished game for tv's view of now (table_crew.c): when
 * its rematch chain (store_crew) has two games or more, has_crew with
 * the chart (crew_chart), its words (crew_summary) and a line per game
 * (crew_list: HTML in this file's static storage until the next call).
 * Nothing while the game is in play or for a past table.  Returns
 * WEB_OK or WEB_INTERNAL (logged).
 */
web_err table_crew(web *w, const table_view *tv, vals *v);

/*
 * What happened since tv's seat last looked, for its live view
 * (table_since.c): has_since with since_when ("2 hours ago"), the moves
 * since in the words viewer may know (describe.h), newest first, a
 * handful at most (since_list: HTML in this file's static storage until
 * the next call), and since_more with since_more_text when there are
 * more; with nothing new, last_move (may be NULL).  Nothing for other
 * views.  Returns WEB_OK or an error (logged).
 */
web_err table_since(web *w, const table_view *tv, int viewer,
                    const char *last_move, vals *v);

/*
 * Once the game is over (over: its status now; w->game.state may be the
 * past one of tv->at), has_deal with deal: a section of every hand in
 * w->game.state and what each Sensor Sweep up to tv->at saw (HTML in
 * table_deal.c's static storage until the next call).  Nothing while
 * the game is in play.  Returns WEB_OK or an error (logged).
 */
web_err table_deal(web *w, const table_view *tv, int over, vals *v);

/* Writes the opening of a deal section into o: its heading (when says
 * at what point, escaped) and every hand of state, viewer's marked; the
 * caller closes it with "</section>".  For the history's hands as
 * dealt. */
void deal_html(out *o, const store_game *g, const bt_game *state,
               int viewer, const char *when);

/*
 * Renders the table talk panel of a live view (the last
 * TABLE_TALK_SHOWN messages, and the form posting to g/ID/say) into
 * w->frag[3] and sets K_talk in v, with the newest message for the
 * since block (has_talk_newest, talk_newest_who, _when, _iso, _text: a
 * long one cut short).  Returns WEB_OK or an error.
 */
web_err table_talk(web *w, const table_view *tv, const forms *f, vals *v);

/*
 * The hands other seats show to the crew (store_shown_set), and a line
 * when the viewer's own is shown, on a seat's table of now while the
 * game is in play (table_shown.c): HTML in that file's static storage
 * until the next call, in K_shown_hands.  Returns WEB_OK or an error.
 */
web_err table_shown(web *w, const table_view *tv, vals *v);

/*
 * live.c: the table page's ETag.  Reads the mark of game w->rq.game (a
 * small query, no state) and, for the seat of the request's cookie
 * (by_cookie; else a spectator), puts the tag of what that view shows
 * now into w->rs.etag ("" if there is no such game or seat: the page's
 * own guard then says why).  Returns 1 if the request's If-None-Match
 * matches it: w->rs is then a 304 Not Modified, the page done; else 0.
 */
int table_fresh(web *w, int by_cookie);

/* 1 if the If-None-Match field value matches tag (quoted): "*", or a
 * list of entity-tags, W/ or not (RFC 9110 weak comparison).  Anything
 * malformed matches nothing from there on. */
int live_match(const char *field, const char *tag);

/* Sets the keys of the script that keeps tv's table current
 * (www/live.js: live, live_tag, static_url, version) in v, for a table
 * of now with its ETag made. */
void table_live(web *w, const table_view *tv, vals *v);

#endif
