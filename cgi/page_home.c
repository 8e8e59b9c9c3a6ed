/*
 * page_home.c - GET PREFIX: the new-game form (names, emails, who goes
 * first).  The same form comes back, filled in, when a POST PREFIX new
 * is refused (page_create.c).
 */
#include <stdio.h>
#include <string.h>

#include "home.h"
#include "vals.h"

enum { DEFAULT_PLAYERS = 3 };

/* The choices for who goes first, besides the seats. */
static const struct {
	const char *value, *text;
} firsts[] = {
	{ "random", "At random" },
	{ "complaint", "Most recently complained about work" },
};

enum { NFIRSTS = sizeof firsts / sizeof firsts[0] };

typedef struct home_ctx {
	const form *f;
	int players;
	const char *first;
	char key[32], num[16], text[32];
} home_ctx;

/* A field of the filled form: "name3" and so on. */
static const char *field(home_ctx *h, const char *name, int seat)
{
	const char *v;

	if (!h->f)
		return "";
	snprintf(h->key, sizeof h->key, "%s%d", name, seat);
	v = form_get(h->f, h->key);
	return v ? v : "";
}

static const char *home_row(void *ctx, int key, int i)
{
	home_ctx *h = ctx;

	switch (key) {
	case K_seat_no:
	case K_players_value:
		snprintf(h->num, sizeof h->num, "%d",
		         key == K_seat_no ? i + 1 : i + BT_MIN_PLAYERS);
		return h->num;
	case K_seat_name: return field(h, "name", i + 1);
	case K_seat_email: return field(h, "email", i + 1);
	case K_seat_minutes: return field(h, "minutes", i + 1);
	case K_players_sel:
		return i + BT_MIN_PLAYERS == h->players ? " selected" : "";
	case K_first_value:
		if (i < NFIRSTS)
			return firsts[i].value;
		snprintf(h->num, sizeof h->num, "%d", i - NFIRSTS + 1);
		return h->num;
	case K_first_text:
		if (i < NFIRSTS)
			return firsts[i].text;
		snprintf(h->text, sizeof h->text, "Seat %d", i - NFIRSTS + 1);
		return h->text;
	case K_first_sel:
		home_row(ctx, K_first_value, i);
		return strcmp(i < NFIRSTS ? firsts[i].value : h->num, h->first)
		       == 0 ? " selected" : "";
	default:
		return NULL;
	}
}

web_err home_render(web *w, int status, const form *filled,
                    const char *message)
{
	home_ctx h = { filled, DEFAULT_PLAYERS, "random", "", "", "" };
	char url[WEB_URL_MAX], games[WEB_URL_MAX];
	int64_t p;
	vals v;
	tmpl_data d;

	if (filled && form_get_int(filled, "players", BT_MIN_PLAYERS,
	                           BT_MAX_PLAYERS, &p) == FORM_OK)
		h.players = (int)p;
	if (filled && form_get(filled, "first"))
		h.first = form_get(filled, "first");
	snprintf(url, sizeof url, "%snew", w->cf->prefix);
	snprintf(games, sizeof games, "%sgames", w->cf->prefix);
	vals_init(&v);
	vals_set(&v, K_new_url, url);
	vals_set(&v, K_games_url, games);
	/* the remind field comes back as sent (escaped), else the default */
	vals_set(&v, K_remind_hours, filled && form_get(filled, "remind")
	         ? form_get(filled, "remind") : "24");
	vals_set(&v, K_message, message);
	vals_show(&v, K_has_message, message != NULL);
	vals_rows(&v, K_seat, BT_MAX_PLAYERS);
	vals_rows(&v, K_players_opt, BT_MAX_PLAYERS - BT_MIN_PLAYERS + 1);
	vals_rows(&v, K_first_opt, NFIRSTS + BT_MAX_PLAYERS);
	v.row = home_row;
	v.ctx = &h;
	d = vals_data(&v);
	return resp_page(w, status, "New game", TPL_HOME, &d);
}

web_err page_home(web *w)
{
	/* guard: none, anyone may start a game; inputs: none */
	w->rs.cacheable = 1;
	return home_render(w, 200, NULL, NULL);
}
