/*
 * moves.c - replays a game to describe its last moves.
 */
#include <string.h>

#include <sodium.h>

#include "moves.h"

/* The states around the last actions of one game, at one length. */
static struct {
	char id[STORE_ID_LEN + 1];
	int seq, taken;                 /* lines stored and moves taken
	                                 * back when replayed */
	int n;                          /* transitions kept, oldest first */
	struct {
		bt_game before, after;
		bt_action a;
	} t[MOVES_MAX];
} cache;

static bt_record rec;                   /* big: one per worker */

/* Keeps the transition b -> a in the cache's ring, oldest dropped. */
static void keep(const bt_game *b, const bt_game *a, const bt_action *act)
{
	if (cache.n == MOVES_MAX) {
		memmove(&cache.t[0], &cache.t[1],
		        sizeof cache.t[0] * (MOVES_MAX - 1));
		cache.n--;
	}
	cache.t[cache.n].before = *b;
	cache.t[cache.n].after = *a;
	cache.t[cache.n].a = *act;
	cache.n++;
}

/* Sets the game up from rec's header and applies every item. */
static int replay(bt_error *e)
{
	static bt_game g, prev;

	if (bt_game_init(&g, rec.players, rec.first, rec.key, e))
		return -1;
	for (int i = 0; i < rec.header_stacks; i++)
		if (bt_game_stack(&g, (bt_deck)rec.stacks[i].deck,
		                  rec.stacks[i].c, rec.stacks[i].n, e))
			return -1;
	if (bt_game_start(&g, e))
		return -1;
	for (int i = 0; i < rec.nitems; i++) {
		const bt_item *it = &rec.items[i];
		if (it->type == BT_ITEM_STACK) {
			const bt_stack_line *s = &rec.stacks[it->stack];
			if (bt_game_stack(&g, (bt_deck)s->deck, s->c, s->n, e))
				return -1;
			continue;
		}
		prev = g;
		if (bt_apply(&g, &it->action, e))
			return -1;
		keep(&prev, &g, &it->action);
	}
	return 0;
}

/* Fills the cache for w->game unless it holds it already. */
static web_err refresh(web *w)
{
	const store_game *g = &w->game;
	store_error err;
	bt_error e;

	if (strcmp(cache.id, g->id) == 0 && cache.seq == g->seq &&
	    cache.taken == g->taken)
		return WEB_OK;
	cache.id[0] = '\0';
	cache.n = 0;
	if (store_export(w->st, g->id, 1, &rec, &err) != STORE_OK)
		return web_store_err(w, __func__, &err);
	int rc = replay(&e);
	/* The seed is secret while playing: keep no copy lying around. */
	sodium_memzero(rec.seed, sizeof rec.seed);
	sodium_memzero(rec.key, sizeof rec.key);
	if (rc) {
		web_log(w, __func__, "game %s does not replay: %s", g->id,
		        e.why);
		cache.n = 0;
		return WEB_INTERNAL;
	}
	memcpy(cache.id, g->id, sizeof cache.id);
	cache.seq = g->seq;
	cache.taken = g->taken;
	return WEB_OK;
}

web_err moves_recent(web *w, int viewer, moves *m)
{
	web_err e = refresh(w);

	m->n = 0;
	if (e != WEB_OK)
		return e;
	for (int i = cache.n - 1; i >= 0; i--)
		describe_action(&cache.t[i].before, &cache.t[i].after,
		                &cache.t[i].a, &w->game, viewer,
		                m->text[m->n++], DESCRIBE_MAX);
	return WEB_OK;
}
