/*
 * page_create.c - POST PREFIX new: creates a game from the new-game form
 * (home.html) and queues a "your seat" email for every seat with an
 * address, once per form: its key (field once, created.h) makes at most
 * one game, and the answer is a 303 to PREFIX g/ID/made, the links page
 * (page_created.c), with the cookie that shows it to this browser.  The
 * same form sent again makes nothing and leads there too.  A refused
 * form comes back filled in, with the reason, as a 400.  A POST without
 * a key (a script's, an older form's) makes its game every time and is
 * answered with the links page itself, as before.
 *
 * Fields: rows 1..6 of name1..name6, email1..email6 (optional),
 * minutes1..minutes6 and bot1..bot6 (a checkbox: the search bot plays
 * the seat; it needs no name, and may have no email); every row with a
 * name or a bot is a player, in row order (2 to 6 of them), empty rows
 * are skipped, and a row with an email or minutes but no name is
 * refused rather than dropped.  A name loses its
 * control and invisible characters (talk_clean_name), and one that is
 * nothing else is refused.  first = a row
 * 1..6 | random | complaint (minutes: the fewest minutes since
 * complaining about work starts, ties to the earlier row, R1).  remind =
 * 1..720 (hours a seat may have the turn before its reminder email;
 * empty or absent: 24).  players (2..6), from older forms and scripts, is
 * optional; if sent it must be the number of names.  invite: the
 * config's invitation code, when create = code.
 *
 * Guard: the config's create mode (admin: no games from the web), then
 * the limits, which hold whatever the form says: wrong codes and games
 * per client address, "your seat" emails per recipient (server-wide),
 * one address per game.  A limit reached is a 429 saying when to try
 * again; the game and its emails are made in one transaction or not at
 * all.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include <sodium.h>

#include "mail_ctx.h"
#include "created.h"
#include "fields.h"
#include "home.h"
#include "message.h"
#include "query.h"
#include "store_limits.h"
#include "talk.h"

/* the bounds of each field are in fields.c */
enum { REMIND_HOURS_DEFAULT = 24 };

/* The form, decoded and checked. */
typedef struct new_game {
	int players, first;
	int64_t remind_hours;
	const char *standin;              /* "off", "agree" or "days" */
	int64_t standin_days;
	int practice;                     /* 1: hints on */
	int row[BT_MAX_PLAYERS];          /* each seat's row of the form */
	int bot[BT_MAX_PLAYERS];          /* 1: the search bot plays it */
	int seat_of_row[BT_MAX_PLAYERS];  /* 0: an empty row */
	char name[BT_MAX_PLAYERS][BT_NAME_BYTES_MAX + 1];
	char email[BT_MAX_PLAYERS][STORE_EMAIL_MAX + 1];
	char why[200];                    /* a refusal that names a row */
} new_game;

/* Copies v (trimmed of spaces; NULL is "") into dst; -1 if it does not
 * fit. */
static int trimmed(const char *v, char *dst, size_t cap)
{
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

	for (int s = 1; s <= ng->players; s++) {
		if (field_row_int(f, FIELD_MINUTES, ng->row[s - 1], &m))
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
	const char *v = field_text(f, FIELD_REMIND);

	*hours = REMIND_HOURS_DEFAULT;
	if (!v || !v[0])
		return NULL;
	if (field_int(f, FIELD_REMIND, hours))
		return "Remind after 1 to 720 hours (a whole number).";
	return NULL;
}

/* Row field id of row, trimmed, is not empty. */
static int row_has(const form *f, field_id id, int row)
{
	const char *v = field_row_text(f, id, row);

	return v && v[strspn(v, " \t\r\n")] != '\0';
}

/* The name of row cleaned as talk_clean_name does into name ("" if
 * empty); NULL, or why it is refused.  A name typed with nothing but
 * hidden characters is refused, not taken for an empty row. */
static const char *read_name(const form *f, int row, char *name,
                             new_game *ng)
{
	const char *v = field_row_text(f, FIELD_NAME, row);

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
	char *name = ng->name[ng->players], *email = ng->email[ng->players];
	int bot = row_has(f, FIELD_BOT, row);
	const char *why;

	if ((why = read_name(f, row, name, ng)) != NULL)
		return why;
	if (trimmed(field_row_text(f, FIELD_EMAIL, row), email,
	            sizeof ng->email[0]))
		return "An email address is too long.";
	if (bot && email[0]) {
		snprintf(ng->why, sizeof ng->why, "Player %d is played by a "
		         "bot, which gets no email: empty that email, or untick "
		         "the bot.", row);
		return ng->why;
	}
	if (!name[0] && !bot) {
		email[0] = '\0';
		if (!row_has(f, FIELD_EMAIL, row) &&
		    !row_has(f, FIELD_MINUTES, row))
			return NULL;      /* an empty row: no player */
		snprintf(ng->why, sizeof ng->why, "Player %d has %s but no "
		         "name: give that player a name, or empty the row.",
		         row, row_has(f, FIELD_EMAIL, row) ? "an email address"
		         : "minutes");
		return ng->why;
	}
	if (email[0] && !msg_addr_ok(email))
		return "An email address must be a plain "
		       "name@example.org that mail can go to.";
	ng->row[ng->players] = row;
	ng->bot[ng->players] = bot;
	ng->seat_of_row[row - 1] = ++ng->players;
	return NULL;
}

/* No address in two seats (spelled alike but for case or a "+tag"). */
static const char *one_seat_each(new_game *ng)
{
	char a[STORE_EMAIL_MAX + 1], b[STORE_EMAIL_MAX + 1];

	for (int i = 0; i < ng->players; i++)
		for (int j = 0; j < i; j++)
			if (ng->email[i][0] && ng->email[j][0] &&
			    store_address_key(ng->email[i], a, sizeof a) == 0 &&
			    store_address_key(ng->email[j], b, sizeof b) == 0 &&
			    strcmp(a, b) == 0) {
				snprintf(ng->why, sizeof ng->why, "Players %d "
				         "and %d have the same email address: "
				         "each address may be in one seat of a "
				         "game.", ng->row[j], ng->row[i]);
				return ng->why;
			}
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
	if ((why = one_seat_each(ng)) != NULL)
		return why;
	const char *asked = field_text(f, FIELD_PLAYERS);
	if (!asked || !asked[0])
		return NULL;
	if (field_int(f, FIELD_PLAYERS, &v) || v != ng->players) {
		snprintf(ng->why, sizeof ng->why, "%.20s players were asked "
		         "for, but %d names are filled in: empty the rows of "
		         "those who do not play.", asked,
		         ng->players);
		return ng->why;
	}
	return NULL;
}

/* Who goes first: a row with a name, at random, or by complaints. */
static const char *read_first(const form *f, new_game *ng)
{
	const char *first = field_text(f, FIELD_FIRST);
	int64_t v;

	if (first && strcmp(first, "random") == 0) {
		ng->first = (int)randombytes_uniform((uint32_t)ng->players) + 1;
		return NULL;
	}
	if (first && strcmp(first, "complaint") == 0)
		return by_complaint(f, ng, &ng->first);
	if (field_int(f, FIELD_FIRST, &v))
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

/* The stand-in rule: agree (the form's default), days with its days, or
 * off; an older form without the field has none. */
static const char *read_standin(const form *f, new_game *ng)
{
	const char *v = field_text(f, FIELD_STANDIN);

	ng->standin = "off";
	ng->standin_days = 0;
	if (!v || !v[0] || strcmp(v, "off") == 0)
		return NULL;
	if (strcmp(v, "agree") == 0) {
		ng->standin = "agree";
		return NULL;
	}
	if (strcmp(v, "days") != 0)
		return "Choose what happens if a player stops playing.";
	if (field_int(f, FIELD_STANDIN_DAYS, &ng->standin_days))
		return "A bot may stand in after 1 to 30 days without a move "
		       "(a whole number).";
	ng->standin = "days";
	return NULL;
}

/* The practice box: absent, or ticked (its one value). */
static const char *read_practice(const form *f, new_game *ng)
{
	const char *v = field_text(f, FIELD_PRACTICE);

	ng->practice = v != NULL;
	if (v && strcmp(v, "1") != 0)
		return "The practice table box sent a value it does not have.";
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
	if ((why = read_standin(f, ng)) != NULL)
		return why;
	if ((why = read_practice(f, ng)) != NULL)
		return why;
	return read_first(f, ng);
}

/* A store_seat_mail_fn: the "your seat" email of seat (mail/compose.c
 * has its words), queued in the transaction that makes the game. */
static int seat_mail(void *ctx, const store_game *g, int seat,
                     store_mail *m)
{
	const compose_ctx *c = ctx;

	return compose_seat(c, g, seat, NULL, m);
}

/* A limit reached: the form again, with why, when to try again and a
 * Retry-After header. */
static web_err too_many(web *w, const char *why, int64_t retry_at)
{
	char msg[WEB_WHY_MAX];

	resp_retry(w, why, retry_at, msg, sizeof msg);
	return home_render(w, 429, &w->rq.body, msg);
}

/* The invitation code, when the config asks for one: compared as two
 * hashes, so the time taken says nothing of the code, even its length.
 * Wrong codes count against the client, so it cannot try them all.
 * Returns 0 to go on, or 1 with the answer in *e. */
static int code_refused(web *w, web_err *e)
{
	const char *typed = field_text(&w->rq.body, FIELD_INVITE);
	const char *code = w->cf->invite_code;
	unsigned char a[crypto_generichash_BYTES], b[crypto_generichash_BYTES];
	store_error err;
	store_rc rc;

	if (strcmp(w->cf->create, "code") != 0)
		return 0;
	rc = store_limit_peek(w->st, STORE_LIMIT_CODE, w->rq.client,
	                      STORE_BAD_CODES_PER_HOUR, STORE_LIMIT_HOUR, &err);
	if (rc) {
		*e = rc == STORE_LIMITED
		     ? too_many(w, "Too many wrong invitation codes came from "
		                "your address.", err.retry_at)
		     : web_store_err(w, __func__, &err);
		return 1;
	}
	if (!typed)
		typed = "";
	crypto_generichash(a, sizeof a, (const unsigned char *)typed,
	                   strlen(typed), NULL, 0);
	crypto_generichash(b, sizeof b, (const unsigned char *)code,
	                   strlen(code), NULL, 0);
	if (code[0] && sodium_memcmp(a, b, sizeof a) == 0)
		return 0;
	rc = store_limit_take(w->st, STORE_LIMIT_CODE, w->rq.client,
	                      STORE_BAD_CODES_PER_HOUR, STORE_LIMIT_HOUR, &err);
	if (rc && rc != STORE_LIMITED)
		*e = web_store_err(w, __func__, &err);
	else
		*e = home_render(w, 403, &w->rq.body, typed[0]
		                 ? "That invitation code is not right: ask the "
		                   "server's administrator for it."
		                 : "Type the invitation code the server's "
		                   "administrator gave you.");
	return 1;
}

/* Who may make a game here, by the config's create mode: 0 to go on, or
 * 1 with the answer in *e. */
static int create_refused(web *w, web_err *e)
{
	if (strcmp(w->cf->create, "admin") == 0) {
		*e = closed_render(w, 403);
		return 1;
	}
	return code_refused(w, e);
}

/* The form's fields into the store's new game (pointing into ng). */
static void to_store(web *w, const new_game *ng, compose_ctx *mail,
                     store_new_game *sn)
{
	memset(sn, 0, sizeof *sn);
	sn->players = ng->players;
	sn->first = ng->first;
	sn->reminder_secs = ng->remind_hours * 3600;
	for (int s = 0; s < ng->players; s++) {
		sn->names[s] = ng->name[s];
		sn->emails[s] = ng->email[s];
		sn->bots[s] = ng->bot[s] ? "search" : NULL;
	}
	sn->client = w->rq.client;
	sn->standin = ng->standin;
	sn->standin_days = (int)ng->standin_days;
	sn->practice = ng->practice;
	sn->mail_fn = seat_mail;
	sn->mail_ctx = mail;
}

/* The way to the links page of game id: the creator cookie while the
 * page shows the links, and a 303; again: the form made it before. */
static web_err to_links(web *w, const char *id, int again)
{
	char to[STORE_ID_LEN + 24];
	store_error err;
	web_err e;

	if (store_load(w->st, id, &w->game, &err) != STORE_OK)
		return web_store_err(w, __func__, &err);
	if ((e = created_grant(w)))
		return e;
	snprintf(to, sizeof to, "g/%s/made%s", id,
	         again ? "?" QUERY_AGAIN "=1" : "");
	return resp_redirect(w, to);
}

/* The form's key: absent (NULL), or one that made a game already (1,
 * the answer in *e), or a new one, or one out of shape (1, the form
 * again in *e). */
static int once_done(web *w, const char **once, web_err *e)
{
	char id[STORE_ID_LEN + 1];
	store_error err;
	store_rc rc;

	*once = field_text(&w->rq.body, FIELD_ONCE);
	if (!*once)
		return 0;
	if (!create_key_ok(*once)) {
		*e = home_render(w, 400, &w->rq.body, "This form is out of "
		                 "date: check it and send it again, please.");
		return 1;
	}
	rc = store_creation_get(w->st, *once, id, &err);
	if (rc == STORE_NOT_FOUND)
		return 0;
	*e = rc == STORE_OK ? to_links(w, id, 1) : web_store_err(w, __func__,
	                                                         &err);
	return 1;
}

web_err page_create(web *w)
{
	static new_game ng;
	char id[STORE_ID_LEN + 1];
	store_new_game sn;
	store_error err;
	const char *why, *once;
	store_rc rc;
	web_err e;
	int made = 0;

	compose_ctx mail;

	/* guard: the create mode and its code */
	if (create_refused(w, &e))
		return e;
	/* inputs: the same form again makes nothing */
	if (once_done(w, &once, &e))
		return e;
	memset(&ng, 0, sizeof ng);
	if ((why = decode(&w->rq.body, &ng)) != NULL)
		return home_render(w, 400, &w->rq.body, why);
	web_compose(w, &mail);
	to_store(w, &ng, &mail, &sn);
	/* do it: the game and its emails, within the limits, once */
	rc = once ? store_create_once(w->st, &sn, once, id, &made, &err)
	          : store_create(w->st, &sn, id, &err);
	if (rc == STORE_INVALID)
		return home_render(w, 400, &w->rq.body, err.why);
	if (rc == STORE_LIMITED)
		return too_many(w, err.why, err.retry_at);
	if (rc != STORE_OK)
		return web_store_err(w, __func__, &err);
	/* render */
	if (once)
		return to_links(w, id, !made);
	if (store_load(w->st, id, &w->game, &err) != STORE_OK)
		return web_store_err(w, __func__, &err);
	if ((e = created_grant(w)))
		return e;
	return created_render(w, 1, 0);
}
