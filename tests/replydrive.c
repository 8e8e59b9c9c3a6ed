/*
 * replydrive.c - writes the replies a player would send, for the inbound
 * kill test (tests/inboundkill.sh; not a test itself).
 *
 *   replydrive new DB N
 *       N new 3-seat games, seat s of game g at gG.sS@example.org;
 *       prints their ids.
 *   replydrive next DB KEY_FILE TAG OUT
 *       the reply to the turn email of the first game still playing
 *       (in id order) from the seat to move, into file OUT: its number
 *       in the menu of the greedy crew's choice (a Sensor Sweep: the
 *       look, then "order 1 2 3"), Message-ID <TAG@drive.example>, to
 *       play+TOKEN@bt.example.  Prints "move GAME SEQ" ("look" for a
 *       look), or "done" when every game is over.
 *   replydrive hold DB
 *       keeps a connection to DB open, as a running server's worker
 *       does, until standard input ends; prints "ready" once it has
 *       read the database (so the write-ahead log stays, as it does
 *       while a server runs: bench/inbound.sh).
 *
 * Exit 0, 1 on a store error, 2 on a usage error.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "menu.h"
#include "policy.h"
#include "reply.h"
#include "store.h"
#include "token.h"

enum { PLAYERS = 3, GAMES_MAX = 1000 };

static const char usage[] =
	"usage: replydrive new DB N\n"
	"       replydrive next DB KEY_FILE TAG OUT\n"
	"       replydrive hold DB\n";

static int store_failed(const char *what, const store_error *e)
{
	fprintf(stderr, "replydrive: %s: %s: %s\n", what, store_rc_name(e->rc),
	        e->why);
	return 1;
}

static int new_games(store *s, long n)
{
	for (long g = 0; g < n; g++) {
		char mail[PLAYERS][64], id[STORE_ID_LEN + 1];
		store_new_game ng = { .players = PLAYERS, .first = 1 };
		store_error e;
		for (int i = 0; i < PLAYERS; i++) {
			snprintf(mail[i], sizeof mail[i], "g%ld.s%d@example.org",
			         g, i + 1);
			ng.emails[i] = mail[i];
		}
		if (store_create(s, &ng, id, &e) != STORE_OK)
			return store_failed("creating a game", &e);
		printf("%s\n", id);
	}
	return 0;
}

typedef struct pick {
	char id[STORE_ID_LEN + 1];
	int found;
} pick;

static int first_playing(void *ctx, const store_summary *g)
{
	pick *p = ctx;

	if (p->found || g->status != BT_PLAYING)
		return 0;
	snprintf(p->id, sizeof p->id, "%s", g->id);
	p->found = 1;
	return 0;
}

/* The reply's text: the menu number of the greedy crew's choice. */
static int reply_text(const store_game *g, char *text, size_t cap,
                      const char **kind)
{
	static menu m;
	bt_action legal[BT_MAX_LEGAL];
	uint64_t rng = 0;
	int n = bt_legal(&g->state, legal, BT_MAX_LEGAL), i;

	if (g->sweep_card != BT_NO_CARD) {
		int k = g->state.shift_deck.n < 3 ? g->state.shift_deck.n : 3;
		snprintf(text, cap, "order%s%s%s", k > 0 ? " 1" : "",
		         k > 1 ? " 2" : "", k > 2 ? " 3" : "");
		*kind = "move";
		return 0;
	}
	if (n <= 0 || menu_build(&g->state, g->state.turn, NULL, &m) <= 0)
		return -1;
	const bt_action *a = &legal[policy_greedy(&g->state, legal, n, &rng)];
	for (i = 0; i < m.n; i++) {
		const bt_action *b = &m.item[i].a;
		if (b->verb == a->verb && b->card == a->card &&
		    (b->nargs == 0 || (b->nargs == a->nargs &&
		                       !memcmp(b->arg, a->arg, a->nargs))))
			break;
	}
	if (i == m.n)
		return -1;
	*kind = m.item[i].a.verb == BT_SPECIAL && m.item[i].a.nargs == 0 &&
	        bt_card_get(a->card)->kind == BT_SENSOR_SWEEP ? "look" : "move";
	snprintf(text, cap, "%d", i + 1);
	return 0;
}

static int next(store *s, const char *key_file, const char *tag,
                const char *out)
{
	static store_game g;
	token_keys k;
	store_error e;
	pick p = { "", 0 };
	char why[256], tok[REPLY_TOKEN_SIZE], text[32];
	const char *kind = "move";
	FILE *f;

	if (store_list(s, first_playing, &p, &e) != STORE_OK)
		return store_failed("listing", &e);
	if (!p.found) {
		printf("done\n");
		return 0;
	}
	if (store_load(s, p.id, &g, &e) != STORE_OK)
		return store_failed("loading", &e);
	if (token_keys_load(key_file, &k, why, sizeof why) != TOKEN_OK) {
		fprintf(stderr, "replydrive: %s\n", why);
		return 1;
	}
	reply_token t = { .seat = g.state.turn,
	                  .gen16 = (unsigned)g.seats[g.state.turn - 1]
	                           .token_gen & 0xffff,
	                  .seq16 = (unsigned)g.seq & 0xffff,
	                  .expires_day = (unsigned)(store_now() / 86400 + 30) };
	snprintf(t.game_id, sizeof t.game_id, "%s", g.id);
	if (reply_token_make(&k, &t, tok) != TOKEN_OK ||
	    reply_text(&g, text, sizeof text, &kind)) {
		fprintf(stderr, "replydrive: no reply for game %s\n", g.id);
		return 1;
	}
	token_keys_wipe(&k);
	if (!(f = fopen(out, "w")))
		return 1;
	fprintf(f, "From: <%s>\nTo: <play+%s@bt.example>\n"
	        "Subject: Re: Your turn\nMessage-ID: <%s@drive.example>\n"
	        "Content-Type: text/plain; charset=utf-8\n\n%s\n\n"
	        "-- \nSent from a test\n",
	        g.seats[g.state.turn - 1].email, tok, tag, text);
	if (fclose(f) != 0)
		return 1;
	printf("%s %s %d\n", kind, g.id, g.seq);
	return 0;
}

static int ignore_game(void *ctx, const store_summary *g)
{
	(void)ctx;
	(void)g;
	return 0;
}

static int hold(store *s)
{
	store_error e;
	char buf[256];

	if (store_list(s, ignore_game, NULL, &e) != STORE_OK)
		return store_failed("listing", &e);
	printf("ready\n");
	fflush(stdout);
	while (fread(buf, 1, sizeof buf, stdin) > 0)
		;
	return 0;
}

static int usage_ok(int argc, char **argv)
{
	if (argc < 3)
		return 0;
	if (strcmp(argv[1], "new") == 0)
		return argc == 4;
	if (strcmp(argv[1], "next") == 0)
		return argc == 6;
	return strcmp(argv[1], "hold") == 0 && argc == 3;
}

int main(int argc, char **argv)
{
	store *s = NULL;
	store_error e;
	int rc;

	if (sodium_init() < 0 || !usage_ok(argc, argv)) {
		fputs(usage, stderr);
		return 2;
	}
	if (store_open(argv[2], &s, &e) != STORE_OK)
		return store_failed(argv[2], &e);
	if (strcmp(argv[1], "new") == 0) {
		long n = strtol(argv[3], NULL, 10);
		rc = n > 0 && n <= GAMES_MAX ? new_games(s, n) : 2;
	} else if (strcmp(argv[1], "hold") == 0) {
		rc = hold(s);
	} else {
		rc = next(s, argv[3], argv[4], argv[5]);
	}
	store_close(s);
	return rc;
}
