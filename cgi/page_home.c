/*
 * page_home.c - GET PREFIX: the new-game form (names, emails, who goes
 * first).  The same form comes back, filled in, when a POST PREFIX new
 * is refused (page_create.c).  There is no player count to choose: every
 * row with a name is a player.  Rows 1..HOME_ROWS_OPEN are open, the
 * others behind "More players" (open when something is typed in them),
 * so the form stays short on a phone, with no script.  The form carries
 * a one-use key, so that sending it twice makes one game (created.h).
 */
#include <stdio.h>
#include <string.h>

#include "created.h"
#include "fields.h"
#include "home.h"
#include "vals.h"

enum { HOME_ROWS_OPEN = 4 };

/* The choices for who goes first, besides the seats. */
static const struct {
	const char *value, *text;
} firsts[] = {
	{ "random", "At random" },
	{ "complaint", "Most recently complained about work" },
};

enum { NFIRSTS = sizeof firsts / sizeof firsts[0] };

/* The stand-in rules a game may have (store_new_game.standin). */
static const struct {
	const char *value, *text;
} standins[] = {
	{ "agree", "A bot stands in after the last reminder, once the others "
	  "ask" },
	{ "days", "A bot stands in after the days below without a move" },
	{ "off", "Nobody stands in: the game waits" },
};

enum { NSTANDINS = sizeof standins / sizeof standins[0] };

typedef struct home_ctx {
	const form *f;
	const char *first;
	char num[16], text[32];
} home_ctx;

/* A row field of the filled form ("name3" and so on), or "". */
static const char *field(home_ctx *h, field_id id, int seat)
{
	const char *v = h->f ? field_row_text(h->f, id, seat) : NULL;

	return v ? v : "";
}

/* A field of the filled form (filled may be NULL), or NULL. */
static const char *sent_of(const form *filled, field_id id)
{
	return filled ? field_text(filled, id) : NULL;
}

/* A field of the filled form as it was sent, else fallback. */
static const char *sent_or(const form *filled, field_id id,
                           const char *fallback)
{
	const char *v = sent_of(filled, id);

	return v ? v : fallback;
}

/* Something typed in row seat (more than blanks). */
static int row_typed(home_ctx *h, int seat)
{
	static const field_id ids[] = { FIELD_NAME, FIELD_EMAIL,
	                                FIELD_MINUTES, FIELD_BOT };

	for (size_t n = 0; n < sizeof ids / sizeof ids[0]; n++) {
		const char *v = field(h, ids[n], seat);

		if (v[strspn(v, " \t")])
			return 1;
	}
	return 0;
}

static const char *home_row(void *ctx, int key, int i)
{
	home_ctx *h = ctx;
	/* the rows behind "More players" follow the open ones */
	int more = HOME_ROWS_OPEN + i + 1;

	switch (key) {
	case K_seat_no:
	case K_more_no:
		snprintf(h->num, sizeof h->num, "%d",
		         key == K_seat_no ? i + 1 : more);
		return h->num;
	case K_seat_name: return field(h, FIELD_NAME, i + 1);
	case K_seat_email: return field(h, FIELD_EMAIL, i + 1);
	case K_seat_minutes: return field(h, FIELD_MINUTES, i + 1);
	case K_more_name: return field(h, FIELD_NAME, more);
	case K_more_email: return field(h, FIELD_EMAIL, more);
	case K_more_minutes: return field(h, FIELD_MINUTES, more);
	case K_seat_bot: return field(h, FIELD_BOT, i + 1)[0] ? " checked" : "";
	case K_more_bot: return field(h, FIELD_BOT, more)[0] ? " checked" : "";
	case K_first_value:
		if (i < NFIRSTS)
			return firsts[i].value;
		snprintf(h->num, sizeof h->num, "%d", i - NFIRSTS + 1);
		return h->num;
	case K_first_text:
		if (i < NFIRSTS)
			return firsts[i].text;
		snprintf(h->text, sizeof h->text, "Player %d", i - NFIRSTS + 1);
		return h->text;
	case K_standin_value: return standins[i].value;
	case K_standin_name: return standins[i].text;
	case K_standin_sel: {
		const char *sent = sent_of(h->f, FIELD_STANDIN);
		return strcmp(sent ? sent : "agree", standins[i].value) == 0
		       ? " selected" : "";
	}
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
	home_ctx h = { filled, "random", "", "" };
	char url[WEB_URL_MAX], games[WEB_URL_MAX], once[CREATE_KEY_LEN + 1];
	const char *sent = sent_of(filled, FIELD_ONCE);
	int more_typed = 0;
	vals v;
	tmpl_data d;

	for (int s = HOME_ROWS_OPEN + 1; s <= BT_MAX_PLAYERS; s++)
		more_typed |= row_typed(&h, s);
	h.first = sent_or(filled, FIELD_FIRST, h.first);
	snprintf(url, sizeof url, "%snew", w->cf->prefix);
	snprintf(games, sizeof games, "%sgames", w->cf->prefix);
	vals_init(&v);
	vals_set(&v, K_new_url, url);
	/* a refused form keeps its key: it made nothing */
	if (create_key_ok(sent))
		snprintf(once, sizeof once, "%s", sent);
	else
		create_key_new(once);
	vals_set(&v, K_once, once);
	vals_set(&v, K_games_url, games);
	/* the remind field comes back as sent (escaped), else the default */
	vals_set(&v, K_remind_hours, sent_or(filled, FIELD_REMIND, "24"));
	vals_set(&v, K_message, message);
	vals_show(&v, K_has_message, message != NULL);
	vals_show(&v, K_create_code, strcmp(w->cf->create, "code") == 0);
	vals_set(&v, K_invite, sent_or(filled, FIELD_INVITE, ""));
	vals_rows(&v, K_seat, HOME_ROWS_OPEN);
	vals_rows(&v, K_more_seat, BT_MAX_PLAYERS - HOME_ROWS_OPEN);
	vals_show(&v, K_more_open, more_typed);
	vals_rows(&v, K_first_opt, NFIRSTS + BT_MAX_PLAYERS);
	vals_rows(&v, K_standin_opt, NSTANDINS);
	vals_set(&v, K_standin_days, sent_or(filled, FIELD_STANDIN_DAYS, "3"));
	vals_set(&v, K_practice_checked,
	         sent_of(filled, FIELD_PRACTICE) ? " checked" : "");
	v.row = home_row;
	v.ctx = &h;
	d = vals_data(&v);
	return resp_page(w, status, "New game", TPL_HOME, &d);
}

web_err closed_render(web *w, int status)
{
	char games[WEB_URL_MAX];
	vals v;
	tmpl_data d;

	snprintf(games, sizeof games, "%sgames", w->cf->prefix);
	vals_init(&v);
	vals_set(&v, K_games_url, games);
	d = vals_data(&v);
	return resp_page(w, status, "Buffer Time", TPL_CLOSED, &d);
}

web_err page_home(web *w)
{
	/* guard: none; where only the administrator makes games, no form.
	 * The form is never kept by a cache: it holds a one-use key, which
	 * must not be handed to another browser nor used twice. */
	if (strcmp(w->cf->create, "admin") == 0) {
		w->rs.cacheable = 1;
		return closed_render(w, 200);
	}
	return home_render(w, 200, NULL, NULL);
}
