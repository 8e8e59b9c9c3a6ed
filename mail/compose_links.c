/*
 * compose_links.c - the links in emails (compose.h): a seat's signed
 * link to its table, the one-click unsubscribe, and the block link for
 * an address that never asked for our mail.
 */
#include <stdio.h>
#include <string.h>

#include "compose.h"
#include "query.h"

int compose_seat_url(const compose_ctx *c, const store_game *g, int seat,
                     char *url, size_t cap)
{
	char tok[TOKEN_TEXT_SIZE];
	int n;

	if (!c || !g || seat < 1 || seat > g->players || cap == 0)
		return -1;
	if (token_make(c->keys, g->id, seat, g->seats[seat - 1].token_gen,
	               tok, sizeof tok) != TOKEN_OK)
		return -1;
	n = snprintf(url, cap, "%sg/%s?" QUERY_TOKEN "=%s", c->base_url,
	             g->id, tok);
	return n < 0 || (size_t)n >= cap ? -1 : 0;
}

int compose_unsub_url(const compose_ctx *c, const char *game_id, int seat,
                      int64_t gen, char *url, size_t cap)
{
	char key[CSRF_TEXT_SIZE];
	int n;

	if (!c || !game_id || cap == 0)
		return -1;
	if (link_key_make(c->keys, TOKEN_UNSUB, game_id, seat, gen, key,
	                  sizeof key) != TOKEN_OK)
		return -1;
	n = snprintf(url, cap, "%sg/%s/unsubscribe?" QUERY_SEAT "=%d&"
	             QUERY_KEY "=%s", c->base_url, game_id, seat, key);
	return n < 0 || (size_t)n >= cap ? -1 : 0;
}

/* Appends raw to url at *n, %-escaped but for the unreserved
 * characters and '@'; -1 if it does not fit. */
static int put_escaped(char *url, size_t cap, size_t *n, const char *raw)
{
	static const char hex[] = "0123456789ABCDEF";

	for (const unsigned char *p = (const unsigned char *)raw; *p; p++) {
		int plain = (*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z')
		            || (*p >= '0' && *p <= '9') || strchr("-._~@", *p);
		if (*n + (plain ? 1 : 3) >= cap)
			return -1;
		if (plain) {
			url[(*n)++] = (char)*p;
			continue;
		}
		url[(*n)++] = '%';
		url[(*n)++] = hex[*p >> 4];
		url[(*n)++] = hex[*p & 15];
	}
	url[*n] = '\0';
	return 0;
}

int compose_block_url(const compose_ctx *c, const char *address, char *url,
                      size_t cap)
{
	char key[STORE_EMAIL_MAX + 1], mac[CSRF_TEXT_SIZE];
	size_t n;
	int w;

	if (!c || !address || cap == 0 ||
	    store_address_key(address, key, sizeof key) ||
	    block_key_make(c->keys, key, mac, sizeof mac) != TOKEN_OK)
		return -1;
	w = snprintf(url, cap, "%smail/block?" QUERY_ADDRESS "=", c->base_url);
	if (w < 0 || (size_t)w >= cap)
		return -1;
	n = (size_t)w;
	if (put_escaped(url, cap, &n, address))
		return -1;
	w = snprintf(url + n, cap - n, "&" QUERY_KEY "=%s", mac);
	return w < 0 || (size_t)w >= cap - n ? -1 : 0;
}
