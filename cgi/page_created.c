/*
 * page_created.c - GET PREFIX g/ID/made: the links page of a game just made
 * with the new-game form, for the browser that made it (created.h says
 * how it is guarded), and what page_create.c shares with it: the form's
 * key and the creator cookie.
 *
 * A bot's seat has no link here, nor anywhere the creator can reach: its
 * hand is the bot's alone.
 */
#include <stdio.h>
#include <string.h>

#include <sodium.h>

#include "created.h"
#include "describe.h"
#include "fields.h"
#include "query.h"
#include "vals.h"

enum {
	CREATOR_SUBKEY_ID = 1,
	CREATOR_MAC_TEXT = CSRF_TEXT_SIZE   /* base64url of 32 bytes, NUL */
};

/* Rows of the links page: the seats with a link, then the bots'. */
typedef struct created {
	int nlinks, nbots;
	char no[BT_MAX_PLAYERS][4];
	char url[BT_MAX_PLAYERS][WEB_URL_MAX];
	char note[BT_MAX_PLAYERS][STORE_EMAIL_MAX + 80];
	char name[BT_MAX_PLAYERS][BT_NAME_BYTES_MAX + 1];
	char bot_no[BT_MAX_PLAYERS][4];
	char bot_name[BT_MAX_PLAYERS][BT_NAME_BYTES_MAX + 1];
} created;

_Static_assert((int)CREATE_KEY_LEN == (int)STORE_ID_LEN,
               "a form's key is made as a game's id is");

void create_key_new(char key[CREATE_KEY_LEN + 1])
{
	store_random_id(key);
}

int create_key_ok(const char *k)
{
	if (!k || strlen(k) != CREATE_KEY_LEN)
		return 0;
	return strspn(k, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
	              "0123456789-_") == CREATE_KEY_LEN;
}

/* The creator cookie's value for game id: a MAC with a key derived from
 * the CSRF key for this use alone, so it is valid as nothing else. */
static void creator_mac(const web *w, const char *id,
                        char text[CREATOR_MAC_TEXT])
{
	unsigned char key[crypto_auth_KEYBYTES], mac[crypto_auth_BYTES];
	char msg[STORE_ID_LEN + 16];

	snprintf(msg, sizeof msg, "creator/%s", id);

	crypto_kdf_derive_from_key(key, sizeof key, CREATOR_SUBKEY_ID,
	                           "btcreatr", w->keys.csrf);
	crypto_auth(mac, (const unsigned char *)msg, strlen(msg), key);
	sodium_memzero(key, sizeof key);
	sodium_bin2base64(text, CREATOR_MAC_TEXT, mac, sizeof mac,
	                  sodium_base64_VARIANT_URLSAFE_NO_PADDING);
}

static void cookie_name(const char *id, char *name, size_t cap)
{
	snprintf(name, cap, "btmade_%s", id);
}

/* Seconds the links page still shows game g's links (0: no more). */
static int64_t show_left(const store_game *g)
{
	int64_t left = g->created + CREATED_SHOW_SECS - store_now();

	return left > 0 ? left : 0;
}

web_err created_grant(web *w)
{
	char name[48], path[WEB_URL_MAX], mac[CREATOR_MAC_TEXT];
	int64_t left = show_left(&w->game);

	if (left == 0)
		return WEB_OK;
	cookie_name(w->game.id, name, sizeof name);
	snprintf(path, sizeof path, "%sg/%s/made", w->cf->prefix,
	         w->game.id);
	creator_mac(w, w->game.id, mac);
	if (cookie_format(w->rs.cookie, sizeof w->rs.cookie, name, mac, path,
	                  left, w->cf->secure)) {
		web_log(w, __func__, "cookie_format failed");
		return WEB_INTERNAL;
	}
	return WEB_OK;
}

/* 1 if the request holds the creator cookie of game id. */
static int is_creator(const web *w, const char *id)
{
	char name[48], held[COOKIE_VALUE_MAX], mac[CREATOR_MAC_TEXT];

	cookie_name(id, name, sizeof name);
	if (cookie_get(w->rq.cookie, name, held, sizeof held) != COOKIE_OK ||
	    strlen(held) != CREATOR_MAC_TEXT - 1)
		return 0;
	creator_mac(w, id, mac);
	return sodium_memcmp(held, mac, CREATOR_MAC_TEXT - 1) == 0;
}

/* A seat with a link: the link, and whether its email went. */
static web_err link_row(web *w, created *c, int s)
{
	const store_game *g = &w->game;
	const store_seat *seat = &g->seats[s - 1];
	char tok[TOKEN_TEXT_SIZE], n[48];
	int i = c->nlinks++;

	if (token_make(&w->keys, g->id, s, seat->token_gen, tok,
	               sizeof tok) != TOKEN_OK) {
		web_log(w, __func__, "token_make failed");
		return WEB_INTERNAL;
	}
	snprintf(c->no[i], sizeof c->no[i], "%d", s);
	snprintf(c->url[i], sizeof c->url[i], "%sg/%s?" QUERY_TOKEN "=%s",
	         w->cf->base_url, g->id, tok);
	snprintf(c->name[i], sizeof c->name[i], "%s",
	         describe_seat(g, s, n, sizeof n));
	if (seat->blocked)
		snprintf(c->note[i], sizeof c->note[i], "No email: %s asked "
		         "this server for no email; pass the link on yourself.",
		         seat->email);
	else
		snprintf(c->note[i], sizeof c->note[i], "%s%s", seat->email[0]
		         ? "Emailed to " : "No email: pass the link on "
		         "yourself.", seat->email);
	return WEB_OK;
}

/* Every seat of w->game into c: a person's with its link, a bot's
 * without. */
static web_err rows(web *w, created *c)
{
	const store_game *g = &w->game;
	char n[48];
	web_err e;

	memset(c, 0, sizeof *c);
	for (int s = 1; s <= g->players; s++) {
		if (!g->seats[s - 1].bot[0]) {
			if ((e = link_row(w, c, s)))
				return e;
			continue;
		}
		snprintf(c->bot_no[c->nbots], sizeof c->bot_no[0], "%d", s);
		snprintf(c->bot_name[c->nbots], sizeof c->bot_name[0], "%s",
		         describe_seat(g, s, n, sizeof n));
		c->nbots++;
	}
	return WEB_OK;
}

static const char *created_row(void *ctx, int key, int i)
{
	created *c = ctx;

	switch (key) {
	case K_link_no: return c->no[i];
	case K_link_name: return c->name[i];
	case K_link_url: return c->url[i];
	case K_link_note: return c->note[i];
	case K_botseat_no: return c->bot_no[i];
	case K_botseat_name: return c->bot_name[i];
	default: return NULL;
	}
}

web_err created_render(web *w, int shown, int again)
{
	static created c;
	char first[48], games[WEB_URL_MAX];
	web_err e;
	vals v;
	tmpl_data d;

	memset(&c, 0, sizeof c);
	if (shown && (e = rows(w, &c)))
		return e;
	snprintf(games, sizeof games, "%sgames", w->cf->prefix);
	vals_init(&v);
	vals_show(&v, K_shown, shown);
	vals_show(&v, K_made_again, shown && again);
	vals_rows(&v, K_link, c.nlinks);
	vals_rows(&v, K_botseat, c.nbots);
	if (shown)
		vals_set(&v, K_first_name, describe_seat(&w->game,
		         w->game.state.first, first, sizeof first));
	vals_set(&v, K_home_url, w->cf->prefix);
	vals_set(&v, K_games_url, games);
	v.row = created_row;
	v.ctx = &c;
	d = vals_data(&v);
	w->rs.cacheable = 0;
	return resp_page(w, 200, shown ? "Your game is ready"
	                 : "This game was made already", TPL_CREATED, &d);
}

web_err page_created(web *w)
{
	store_error err;
	store_rc rc;

	/* guard: the cookie is checked before the game is looked up, so
	 * the page says nothing of which games exist to one without it */
	if (!is_creator(w, w->rq.game))
		return created_render(w, 0, 0);
	rc = store_load(w->st, w->rq.game, &w->game, &err);
	if (rc == STORE_NOT_FOUND)
		return created_render(w, 0, 0);
	if (rc != STORE_OK)
		return web_store_err(w, __func__, &err);
	/* render: the links until the hour is over */
	return created_render(w, show_left(&w->game) > 0,
	                      field_text(&w->rq.query, FIELD_AGAIN) != NULL);
}
