/*
 * maildrive.c - fills the outbox of a real database the way the game
 * does, for the mailer's shell tests and benchmark (not a test itself).
 *
 *   maildrive queue DB N
 *       a new 3-seat game with an address per seat, and N emails for it
 *       queued with store_queue_mail (seats 1, 2, 3, 1, ...; a UTF-8
 *       subject; a body of a few lines, some starting with '.' or
 *       "From ", one of 1,100 bytes).  Prints the game id.
 *   maildrive play DB KEY_FILE BASE_URL MOVES [SEED [PAUSE_MS]]
 *       plays MOVES random legal moves (PAUSE_MS apart: players think) through store_append with
 *       compose_move as its mail_fn (the web's path), in 3-seat games
 *       whose seats all want every email, starting a new game when one
 *       ends.  Prints "moves M mails K games G": K counts the emails the
 *       committed moves queued.
 *
 * Exit 0, 1 on a store error, 2 on a usage error.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <sodium.h>

#include "compose.h"
#include "policy.h"
#include "store.h"
#include "token.h"

enum { PLAYERS = 3, BUSY_TRIES = 100, MOVES_MAX = 1000000 };

static const char usage[] =
	"usage: maildrive queue DB N\n"
	"       maildrive play DB KEY_FILE BASE_URL MOVES [SEED [PAUSE_MS]]\n";

static int store_failed(const char *what, const store_error *e)
{
	fprintf(stderr, "maildrive: %s: %s: %s\n", what, store_rc_name(e->rc),
	        e->why);
	return 1;
}

/* A 3-seat game whose seats have addresses (tag makes them unique). */
static store_rc new_game(store *s, long tag, char id[STORE_ID_LEN + 1],
                         store_error *e)
{
	char mail[PLAYERS][64];
	store_new_game ng;

	memset(&ng, 0, sizeof ng);
	ng.players = PLAYERS;
	ng.first = 1;
	for (int i = 0; i < PLAYERS; i++) {
		snprintf(mail[i], sizeof mail[i], "seat%d.g%ld@example.org",
		         i + 1, tag);
		ng.emails[i] = mail[i];
	}
	ng.names[0] = "Beckett";
	ng.names[1] = "Brad";
	ng.names[2] = "Tendi";
	return store_create(s, &ng, id, e);
}

static int queue(store *s, long n)
{
	char id[STORE_ID_LEN + 1];
	store_mail m;
	store_error e;

	if (new_game(s, 0, id, &e) != STORE_OK)
		return store_failed("create", &e);
	for (long i = 0; i < n; i++) {
		memset(&m, 0, sizeof m);
		m.seat = (int)(i % PLAYERS) + 1;
		snprintf(m.kind, sizeof m.kind, "turn");
		snprintf(m.to, sizeof m.to, "seat%d.g0@example.org", m.seat);
		snprintf(m.subject, sizeof m.subject,
		         "Buffer Time: your turn, Büro %ld", i + 1);
		int k = snprintf(m.body, sizeof m.body,
		                 "Email %ld of %ld.\n\nBrad played Overtime.\n"
		                 "Your link: https://example.org/g/%s?t=x\n"
		                 ".\n..a line of dots\nFrom the bridge: Tendi "
		                 "says \"Bürokratie!\"\nTable talk:", i + 1, n,
		                 id);
		/* a line longer than SMTP's 998 bytes: the mailer cuts it */
		for (int w = 0; w < 110 && k > 0 && k < 4000; w++)
			k += snprintf(m.body + k, sizeof m.body - (size_t)k,
			              " long talk");
		snprintf(m.body + k, sizeof m.body - (size_t)k, "\n");
		if (store_queue_mail(s, id, &m, &e) != STORE_OK)
			return store_failed("queue", &e);
	}
	puts(id);
	return 0;
}

/* compose_move, counting what it queues for the move being tried. */
typedef struct counter {
	compose_ctx compose;
	int last;
} counter;

static int count_mails(void *ctx, const store_game *before,
                       const bt_game *after, const bt_action *a,
                       store_mail *out, int max)
{
	counter *c = ctx;

	c->last = compose_move(&c->compose, before, after, a, out, max);
	return c->last;
}

/* A new game in which every seat wants every email. */
static int every_game(store *s, long tag, char id[STORE_ID_LEN + 1])
{
	store_error e;

	if (new_game(s, tag, id, &e) != STORE_OK)
		return store_failed("create", &e);
	for (int seat = 1; seat <= PLAYERS; seat++)
		if (store_set_notify(s, id, seat, STORE_NOTIFY_EVERY, &e))
			return store_failed("notify", &e);
	return 0;
}

/* One random legal move of game id; *done when the game is over. */
static int move(store *s, const char *id, counter *c, uint64_t *rng,
                long *mails, int *done)
{
	static store_game g;
	static bt_action legal[BT_MAX_LEGAL];
	store_error e;
	store_rc rc = STORE_BUSY;

	for (int t = 0; t < BUSY_TRIES && rc == STORE_BUSY; t++) {
		if ((rc = store_load(s, id, &g, &e)) != STORE_OK)
			break;
		int n = bt_legal(&g.state, legal, BT_MAX_LEGAL);
		if (g.state.status != BT_PLAYING || n == 0) {
			*done = 1;
			return 0;
		}
		const bt_action *a =
			&legal[policy_rng_below(rng, (uint64_t)n)];
		rc = store_append(s, id, g.seq, a, count_mails, c, &g, &e);
	}
	if (rc != STORE_OK)
		return store_failed("append", &e);
	*mails += c->last;
	*done = g.state.status != BT_PLAYING;
	return 0;
}

static int play(store *s, const char *key_file, const char *base_url,
                long moves, uint64_t rng, long pause_ms)
{
	struct timespec pause = { pause_ms / 1000, pause_ms % 1000 * 1000000 };
	char id[STORE_ID_LEN + 1], why[256];
	token_keys k;
	counter c;
	long mails = 0, games = 0;
	int done = 1;

	if (token_keys_load(key_file, &k, why, sizeof why) != TOKEN_OK) {
		fprintf(stderr, "maildrive: %s\n", why);
		return 1;
	}
	c.compose = (compose_ctx){ .st = s, .keys = &k, .base_url = base_url };
	for (long i = 0; i < moves; i++) {
		if (done && every_game(s, ++games, id) != 0)
			return 1;
		done = 0;
		if (move(s, id, &c, &rng, &mails, &done) != 0)
			return 1;
		if (pause_ms > 0)
			nanosleep(&pause, NULL);
	}
	token_keys_wipe(&k);
	printf("moves %ld mails %ld games %ld\n", moves, mails, games);
	return 0;
}

/* A count 1..MOVES_MAX, else -1. */
static long count_arg(const char *s)
{
	char *end;
	long n = strtol(s, &end, 10);

	return *s && !*end && n >= 1 && n <= MOVES_MAX ? n : -1;
}

int main(int argc, char **argv)
{
	store *s = NULL;
	store_error e;
	int rc;

	if (sodium_init() < 0)
		return 1;
	if (argc < 4)
		goto bad;
	int is_queue = !strcmp(argv[1], "queue") && argc == 4;
	int is_play = !strcmp(argv[1], "play") && argc >= 6 && argc <= 8;
	long n = count_arg(argv[is_queue ? 3 : argc > 5 ? 5 : 3]);
	if ((!is_queue && !is_play) || n < 0)
		goto bad;
	if (store_open(argv[2], &s, &e) != STORE_OK)
		return store_failed(argv[2], &e);
	if (store_set_sync(s, STORE_SYNC_NORMAL, &e) != STORE_OK)
		return store_failed("sync", &e);
	if (is_queue)
		rc = queue(s, n);
	else
		rc = play(s, argv[3], argv[4], n,
		          argc >= 7 ? strtoull(argv[6], NULL, 10) : 1,
		          argc == 8 ? strtol(argv[7], NULL, 10) % 1000 : 0);
	store_close(s);
	return rc;
bad:
	fputs(usage, stderr);
	return 2;
}
