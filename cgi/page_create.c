/*
 * page_create.c - POST PREFIX new: creates a game from the new-game form
 * (home.html), queues a "your seat" email for every seat with an
 * address, and shows every seat's link.  A refused form comes back
 * filled in, with the reason, as a 400.
 *
 * Fields: rows 1..6 of name1..name6, email1..email6 (optional) and
 * minutes1..minutes6; every row with a name is a player, in row order
 * (2 to 6 of them), empty rows are skipped, and a row with an email or
 * minutes but no name is refused rather than dropped.  A name loses its
 * control and invisible characters (talk_clean_name), and one that is
 * nothing else is refused.  first = a row
 * 1..6 | random | complaint (minutes: the fewest minutes since
 * complaining about work starts, ties to the earlier row, R1).  remind =
 * 1..720 (hours a seat may have the turn before its reminder email;
 * empty or absent: 24).  players (2..6), from older forms and scripts, is
 * optional; if sent it must be the number of names.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include <sodium.h>

#include "compose.h"
#include "describe.h"
#include "home.h"
#include "message.h"
#include "talk.h"
#include "vals.h"

enum {
	MINUTES_MAX = 100000000,
	REMIND_HOURS_DEFAULT = 24,
	REMIND_HOURS_MAX = 720      /* 30 days, STORE_REMIND_MAX */
};

/* The form, decoded and checked. */
typedef struct new_game {
	int players, first;
	int64_t remind_hours;
	int row[BT_MAX_PLAYERS];          /* each seat's row of the form */
	int seat_of_row[BT_MAX_PLAYERS];  /* 0: an empty row */
	char name[BT_MAX_PLAYERS][BT_NAME_BYTES_MAX + 1];
	char email[BT_MAX_PLAYERS][STORE_EMAIL_MAX + 1];
	char why[200];                    /* a refusal that names a row */
} new_game;

/* The links page's rows. */
typedef struct created {
	web *w;
	char url[BT_MAX_PLAYERS][WEB_URL_MAX];
	char note[BT_MAX_PLAYERS][STORE_EMAIL_MAX + 80];
	char name[BT_MAX_PLAYERS][BT_NAME_BYTES_MAX + 1];
} created;

/* Copies field key (trimmed of spaces) into dst; -1 if it does not fit. */
static int trimmed(const form *f, const char *key, char *dst, size_t cap)
{
	const char *v = form_get(f, key);
	size_t n;

	dst[0] = '\0';
	if (!v)
		return 0;
	while (*v == ' ' || *v == '\t')
		v++;
	n = strlen(v);
	while (n > 0 && isspace((unsigned char)v[n - 1]))
		n--;
	if (n >= cap)
		return -1;
	memcpy(dst, v, n);
	dst[n] = '\0';
	return 0;
}

/* R1: the fewest minutes since complaining about work; ties go to the
 * lower seat. */
static const char *by_complaint(const form *f, const new_game *ng,
                                int *first)
{
	int64_t best = -1, m;
	char key[32];

	for (int s = 1; s <= ng->players; s++) {
		snprintf(key, sizeof key, "minutes%d", ng->row[s - 1]);
		if (form_get_int(f, key, 0, MINUTES_MAX, &m))
			return "For “most recently complained about work”, "
			       "give every player's minutes (a whole number).";
		if (best < 0 || m < best) {
			best = m;
			*first = s;
		}
	}
	return NULL;
}

/* The hours before a reminder: the field, or the default if empty. */
static const char *remind_hours(const form *f, int64_t *hours)
{
	const char *v = form_get(f, "remind");

	*hours = REMIND_HOURS_DEFAULT;
	if (!v || !v[0])
		return NULL;
	if (form_get_int(f, "remind", 1, REMIND_HOURS_MAX, hours))
		return "Remind after 1 to 720 hours (a whole number).";
	return NULL;
}

/* Field name of row, trimmed, is not empty. */
static int row_has(const form *f, const char *name, int row)
{
	char key[32];
	const char *v;

	snprintf(key, sizeof key, "%s%d", name, row);
	v = form_get(f, key);
	return v && v[strspn(v, " \t\r\n")] != '\0';
}

/* Field key (the name of row) cleaned as talk_clean_name does into name
 * ("" if empty); NULL, or why it is refused.  A name typed with nothing
 * but hidden characters is refused, not taken for an empty row. */
static const char *read_name(const form *f, const char *key, int row,
                             char *name, new_game *ng)
{
	const char *v = form_get(f, key);

	switch (talk_clean_name(v ? v : "", name, sizeof ng->name[0])) {
	case TALK_OK:
		return NULL;
	case TALK_TOO_LONG:
		return "A name may have at most 40 characters.";
	case TALK_BAD_TEXT:
		return "A name must be plain text.";
	case TALK_EMPTY:
	default:
		break;
	}
	if (!v || v[strspn(v, " \t\r\n")] == '\0')
		return NULL;
	snprintf(ng->why, sizeof ng->why, "Player %d's name is only "
	         "invisible characters: type a name that can be seen, or "
	         "empty the row.", row);
	return ng->why;
}

/* Row of the form into the next seat of ng if it has a name; NULL, or
 * what is wrong with it. */
static const char *read_row(const form *f, int row, new_game *ng)
{
	char key[32], *name = ng->name[ng->players],
	     *email = ng->email[ng->players];
	const char *why;

	snprintf(key, sizeof key, "name%d", row);
	if ((why = read_name(f, key, row, name, ng)) != NULL)
		return why;
	snprintf(key, sizeof key, "email%d", row);
	if (trimmed(f, key, email, sizeof ng->email[0]))
		return "An email address is too long.";
	if (!name[0]) {
		email[0] = '\0';
		if (!row_has(f, "email", row) && !row_has(f, "minutes", row))
			return NULL;      /* an empty row: no player */
		snprintf(ng->why, sizeof ng->why, "Player %d has %s but no "
		         "name: give that player a name, or empty the row.",
		         row, row_has(f, "email", row) ? "an email address"
		         : "minutes");
		return ng->why;
	}
	if (email[0] && !msg_addr_ok(email))
		return "An email address must be a plain "
		       "name@example.org that mail can go to.";
	ng->row[ng->players] = row;
	ng->seat_of_row[row - 1] = ++ng->players;
	return NULL;
}

/* The rows with a name are the players: 2 to 6, and as many as a
 * players field says, if one is sent. */
static const char *read_rows(const form *f, new_game *ng)
{
	const char *why;
	int64_t v;

	for (int row = 1; row <= BT_MAX_PLAYERS; row++)
		if ((why = read_row(f, row, ng)) != NULL)
			return why;
	if (ng->players < BT_MIN_PLAYERS)
		return "Fill in the names of 2 to 6 players, one row each.";
	if (!form_get(f, "players") || !form_get(f, "players")[0])
		return NULL;
	if (form_get_int(f, "players", BT_MIN_PLAYERS, BT_MAX_PLAYERS, &v) ||
	    v != ng->players) {
		snprintf(ng->why, sizeof ng->why, "%.20s players were asked "
		         "for, but %d names are filled in: empty the rows of "
		         "those who do not play.", form_get(f, "players"),
		         ng->players);
		return ng->why;
	}
	return NULL;
}

/* Who goes first: a row with a name, at random, or by complaints. */
static const char *read_first(const form *f, new_game *ng)
{
	const char *first = form_get(f, "first");
	int64_t v;

	if (first && strcmp(first, "random") == 0) {
		ng->first = (int)randombytes_uniform((uint32_t)ng->players) + 1;
		return NULL;
	}
	if (first && strcmp(first, "complaint") == 0)
		return by_complaint(f, ng, &ng->first);
	if (form_get_int(f, "first", 1, BT_MAX_PLAYERS, &v))
		return "Choose who goes first: one of the players, at "
		       "random, or by complaints.";
	if (ng->seat_of_row[v - 1] == 0) {
		snprintf(ng->why, sizeof ng->why, "Player %d goes first, but "
		         "that row has no name: choose one of the players "
		         "with a name.", (int)v);
		return ng->why;
	}
	ng->first = ng->seat_of_row[v - 1];
	return NULL;
}

/* Reads the form into ng; NULL, or what is wrong with it for people. */
static const char *decode(const form *f, new_game *ng)
{
	const char *why;

	if ((why = read_rows(f, ng)) != NULL)
		return why;
	if ((why = remind_hours(f, &ng->remind_hours)) != NULL)
		return why;
	return read_first(f, ng);
}

/* The "your seat" email of seat (mail/compose.c has its words), queued
 * if the seat has an address. */
static web_err queue_mail(web *w, int seat)
{
	static store_mail m;
	compose_ctx c = { w->st, &w->keys, w->cf->base_url };
	store_error err;
	int n = compose_seat(&c, &w->game, seat, NULL, &m);

	if (n < 0) {
		web_log(w, __func__, "seat %d: the email could not be written",
		        seat);
		return WEB_INTERNAL;
	}
	if (n > 0 && store_queue_mail(w->st, w->game.id, &m, &err))
		return web_store_err(w, __func__, &err);
	return WEB_OK;
}

static const char *created_row(void *ctx, int key, int i)
{
	created *c = ctx;

	switch (key) {
	case K_link_name: return c->name[i];
	case K_link_url: return c->url[i];
	case K_link_note: return c->note[i];
	default: return NULL;
	}
}

/* Every seat's link, and its email queued where there is an address. */
static web_err links(web *w, created *c)
{
	const store_game *g = &w->game;
	char tok[TOKEN_TEXT_SIZE], n[48];
	web_err e;

	for (int s = 1; s <= g->players; s++) {
		if (token_make(&w->keys, g->id, s, g->seats[s - 1].token_gen,
		               tok, sizeof tok) != TOKEN_OK) {
			web_log(w, __func__, "token_make failed");
			return WEB_INTERNAL;
		}
		snprintf(c->url[s - 1], sizeof c->url[0], "%sg/%s?t=%s",
		         w->cf->base_url, g->id, tok);
		snprintf(c->name[s - 1], sizeof c->name[0], "%s",
		         describe_seat(g, s, n, sizeof n));
		snprintf(c->note[s - 1], sizeof c->note[0], "%s%s",
		         g->seats[s - 1].email[0] ? "Emailed to " : "No email: "
		         "pass the link on yourself.", g->seats[s - 1].email);
		if ((e = queue_mail(w, s)))
			return e;
	}
	return WEB_OK;
}

web_err page_create(web *w)
{
	static new_game ng;
	static created c;
	char id[STORE_ID_LEN + 1], first[48];
	store_new_game sn = { 0 };
	store_error err;
	const char *why;
	web_err e;
	vals v;
	tmpl_data d;

	/* guard: none, anyone may start a game; inputs */
	memset(&ng, 0, sizeof ng);
	if ((why = decode(&w->rq.body, &ng)) != NULL)
		return home_render(w, 400, &w->rq.body, why);
	sn.players = ng.players;
	sn.first = ng.first;
	sn.reminder_secs = ng.remind_hours * 3600;
	for (int s = 0; s < ng.players; s++) {
		sn.names[s] = ng.name[s];
		sn.emails[s] = ng.email[s];
	}
	store_rc rc = store_create(w->st, &sn, id, &err);
	if (rc == STORE_INVALID)
		return home_render(w, 400, &w->rq.body, err.why);
	if (rc != STORE_OK || (rc = store_load(w->st, id, &w->game, &err)))
		return web_store_err(w, __func__, &err);
	/* render */
	c.w = w;
	if ((e = links(w, &c)))
		return e;
	vals_init(&v);
	vals_rows(&v, K_link, w->game.players);
	vals_set(&v, K_first_name, describe_seat(&w->game, w->game.state.first,
	                                     first, sizeof first));
	v.row = created_row;
	v.ctx = &c;
	d = vals_data(&v);
	return resp_page(w, 200, "Your game is ready", TPL_CREATED, &d);
}
