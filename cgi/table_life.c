/*
 * table_life.c - what surrounds the game on the table page: the nudge
 * to the seat to move (or why there is none), "play again" once it is
 * over, the read-only link for spectators, and the links to the game's
 * other pages.  Forms only on a seat's live view; nothing of a seat's
 * (an email address, a link) on a spectator's.
 */
#include <stdio.h>
#include <string.h>

#include "describe.h"
#include "query.h"
#include "since.h"
#include "table.h"

/* The texts of one render: valid until the next table_life. */
static struct {
	char nudge_url[WEB_URL_MAX], nudge_label[96], nudge_note[256];
	char again_url[WEB_URL_MAX], share_url[WEB_URL_MAX];
	char history_url[WEB_URL_MAX], settings_url[WEB_URL_MAX];
	char games_url[WEB_URL_MAX], record_url[WEB_URL_MAX];
	char standin_url[WEB_URL_MAX], standin_label[96], standin_text[256];
	char standin_rule[160];
	char take_back_url[WEB_URL_MAX], take_back_note[160];
} L;

/* Writes PREFIX g/ID/page into buf. */
static void game_url(const web *w, const char *page, char *buf, size_t cap)
{
	snprintf(buf, cap, "%sg/%s/%s", w->cf->prefix, w->game.id, page);
}

/* Why the seat to move cannot be nudged (no address, emails off), into
 * L.nudge_note; 0 if it can. */
static int unreachable(const web *w, const char *name)
{
	const store_seat *to = &w->game.seats[w->game.state.turn - 1];

	if (!to->email[0] || to->blocked)
		snprintf(L.nudge_note, sizeof L.nudge_note, "%s has no email "
		         "address in this game, so a nudge cannot reach them.",
		         name);
	else if (to->notify == STORE_NOTIFY_NONE)
		snprintf(L.nudge_note, sizeof L.nudge_note, "%s has turned "
		         "this game's emails off, so a nudge cannot reach them.",
		         name);
	else
		return 0;
	return 1;
}

/* When seat may send its next nudge, into L.nudge_note, if it sent one
 * less than a day ago.  The button stays: pressing it early says so. */
static void next_nudge(const web *w, int seat)
{
	int64_t ago = store_now() - w->game.seats[seat - 1].nudged;
	char a[SINCE_MAX], b[SINCE_MAX];

	if (w->game.seats[seat - 1].nudged > 0 && ago >= 0 &&
	    ago < STORE_NUDGE_EVERY)
		snprintf(L.nudge_note, sizeof L.nudge_note, "You sent a nudge "
		         "%s ago: the next one can go in %s.",
		         since_words(ago, a, sizeof a),
		         since_words(STORE_NUDGE_EVERY - ago, b, sizeof b));
}

/* The nudge: for a seat waiting on another, in play. */
static void nudge(web *w, const table_view *tv, vals *v)
{
	const store_game *g = &w->game;
	const char *name;
	char buf[48];

	L.nudge_note[0] = '\0';
	if (!TABLE_LIVE(tv) || g->state.status != BT_PLAYING ||
	    g->state.turn == tv->seat || g->state.turn < 1)
		return;
	name = describe_seat(g, g->state.turn, buf, sizeof buf);
	if (!unreachable(w, name)) {
		next_nudge(w, tv->seat);
		game_url(w, "nudge", L.nudge_url, sizeof L.nudge_url);
		snprintf(L.nudge_label, sizeof L.nudge_label, "Nudge %s", name);
		vals_show(v, K_can_nudge, 1);
		vals_set(v, K_nudge_url, L.nudge_url);
		vals_set(v, K_nudge_label, L.nudge_label);
	}
	vals_show(v, K_has_nudge_note, L.nudge_note[0] != '\0');
	vals_set(v, K_nudge_note, L.nudge_note);
}

/* Taking back one's last move: offered while the store allows it. */
static void take_back(web *w, const table_view *tv, vals *v)
{
	const store_game *g = &w->game;
	char buf[48];

	if (!TABLE_LIVE(tv) || g->state.status != BT_PLAYING ||
	    g->state.turn == tv->seat ||
	    !store_can_take_back(w->st, g, tv->seat))
		return;
	game_url(w, "takeback", L.take_back_url, sizeof L.take_back_url);
	snprintf(L.take_back_note, sizeof L.take_back_note, "Wrong card? "
	         "Until %s moves, your move can be taken back: it showed "
	         "nobody anything new.",
	         describe_seat(g, g->state.turn, buf, sizeof buf));
	vals_show(v, K_can_take_back, 1);
	vals_set(v, K_take_back_url, L.take_back_url);
	vals_set(v, K_take_back_note, L.take_back_note);
}

/* The game's stand-in rule in words, or "" if off. */
static void standin_rule(const store_game *g)
{
	L.standin_rule[0] = '\0';
	if (strcmp(g->standin, "agree") == 0)
		snprintf(L.standin_rule, sizeof L.standin_rule, "If a player "
		         "stops playing, a bot can stand in after their last "
		         "reminder, once everyone else asks.");
	else if (strcmp(g->standin, "days") == 0)
		snprintf(L.standin_rule, sizeof L.standin_rule, "If a player "
		         "stops playing, a bot stands in after %d day%s without "
		         "a move.", g->standin_days, g->standin_days == 1 ? ""
		         : "s");
}

/* Who a bot stands in for, and the ask for one: for the seat to move. */
static void standin(web *w, const table_view *tv, vals *v)
{
	const store_game *g = &w->game;
	int t = g->state.turn;
	char buf[48];

	standin_rule(g);
	vals_show(v, K_has_standin_rule, L.standin_rule[0] != '\0');
	vals_set(v, K_standin_rule, L.standin_rule);
	if (g->state.status != BT_PLAYING || t < 1)
		return;
	const char *name = describe_seat(g, t, buf, sizeof buf);
	const store_seat *p = &g->seats[t - 1];
	if (p->standin_since) {
		snprintf(L.standin_text, sizeof L.standin_text, "A bot stands "
		         "in for %s, who has been away; one click on %s's link "
		         "gives the seat back.", name, name);
		vals_show(v, K_has_standin, 1);
		vals_set(v, K_standin_text, L.standin_text);
		return;
	}
	if (!TABLE_LIVE(tv) || tv->seat == t || p->bot[0] ||
	    g->seats[tv->seat - 1].bot[0] || strcmp(g->standin, "agree") ||
	    g->reminders < 2)
		return;
	game_url(w, "standin", L.standin_url, sizeof L.standin_url);
	snprintf(L.standin_label, sizeof L.standin_label, "%s for %s",
	         g->seats[tv->seat - 1].standin_ask == g->turn_since
	         ? "You asked for a bot to stand in" : "Ask a bot to stand in",
	         name);
	vals_show(v, K_can_standin, 1);
	vals_set(v, K_standin_url, L.standin_url);
	vals_set(v, K_standin_label, L.standin_label);
}

/* Once over: the record, and a new game with the same seats. */
static void over(web *w, const table_view *tv, vals *v)
{
	if (w->game.state.status == BT_PLAYING || tv->seat == 0)
		return;
	vals_show(v, K_over_record, 1);
	if (!TABLE_LIVE(tv))
		return;
	game_url(w, "again", L.again_url, sizeof L.again_url);
	vals_show(v, K_can_again, 1);
	vals_set(v, K_again_url, L.again_url);
	vals_set(v, K_again_label, w->game.rematch[0] ? "Join the rematch"
	         : "Play again");
}

/* The spectator's link: a key for the game alone (seat 0, gen 0), so
 * every seat shares the same one and revoking a seat keeps it. */
static web_err share(web *w, vals *v)
{
	char key[CSRF_TEXT_SIZE];
	int n;

	if (link_key_make(&w->keys, TOKEN_WATCH, w->game.id, 0, 0, key,
	                  sizeof key) != TOKEN_OK) {
		web_log(w, __func__, "no watch key for game %s", w->game.id);
		return WEB_INTERNAL;
	}
	n = snprintf(L.share_url, sizeof L.share_url,
	             "%sg/%s/watch?" QUERY_KEY "=%s", w->cf->base_url,
	             w->game.id, key);
	if (n < 0 || (size_t)n >= sizeof L.share_url) {
		web_log(w, __func__, "watch link too long");
		return WEB_INTERNAL;
	}
	vals_show(v, K_has_share, 1);
	vals_set(v, K_share_url, L.share_url);
	return WEB_OK;
}

/* The game's pages, for a seat. */
static void links(web *w, vals *v)
{
	game_url(w, "history", L.history_url, sizeof L.history_url);
	game_url(w, "settings", L.settings_url, sizeof L.settings_url);
	game_url(w, "record", L.record_url, sizeof L.record_url);
	snprintf(L.games_url, sizeof L.games_url, "%sgames", w->cf->prefix);
	vals_show(v, K_has_links, 1);
	vals_set(v, K_history_url, L.history_url);
	vals_set(v, K_settings_url, L.settings_url);
	vals_set(v, K_record_url, L.record_url);
	vals_set(v, K_games_url, L.games_url);
}

web_err table_life(web *w, const table_view *tv, const forms *f, vals *v)
{
	if (TABLE_LIVE(tv)) {
		vals_set(v, K_csrf, f->csrf);
		vals_set(v, K_seq, f->seq);
	}
	take_back(w, tv, v);
	nudge(w, tv, v);
	standin(w, tv, v);
	over(w, tv, v);
	if (tv->seat > 0)
		links(w, v);
	return TABLE_LIVE(tv) ? share(w, v) : WEB_OK;
}
