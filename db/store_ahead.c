/*
 * store_ahead.c - reads asked for at once (store.h's reading ahead): a
 * game's table, and a game's row with its seats (store_load).  Each
 * statement is bound here as the reader that runs it binds it
 * (store_mark.c, store_rows.c, store_life.c, store_crew.c,
 * store_takeback.c); one bound otherwise is only read again, never wrong.
 * A table's reads, and its mark's, are kept for the requests after this
 * one until the game changes (db/driver_pg_kept.c).
 */
#include "sql.h"

enum { AHEAD_MAX = 12 };

typedef struct ahead {
	store *s;
	const char *game;      /* rows kept for later requests as its */
	db_stmt *st[AHEAD_MAX];
	int n;
} ahead;

/* Statement which, bound to the game id (and n, if n >= 0). */
static void add(ahead *a, enum sql_stmt which, const char *id, int n)
{
	db_stmt *st = sql_get(a->s, which);

	if (!st || a->n >= AHEAD_MAX)
		return;
	db_bind_text(st, 1, id, -1);
	if (n >= 0)
		db_bind_int(st, 2, n);
	a->st[a->n++] = st;
}

static void send(ahead *a)
{
	if (a->game)
		db_read_ahead_kept(a->s->db, a->game, a->st, a->n);
	else
		db_read_ahead(a->s->db, a->st, a->n);
	for (int i = 0; i < a->n; i++)
		db_reset(a->st[i]);
}

/* The mark's reads (store_mark.c). */
static void add_mark(ahead *a, const char *id, int chats)
{
	add(a, SQL_MARK_GAME, id, -1);
	add(a, SQL_MARK_CHAT, id, chats > 0 ? chats : 1);
}

static int chats_of(int chats)
{
	return chats < 0 || chats > STORE_MARK_CHATS ? STORE_MARK_CHATS : chats;
}

void store_read_ahead_mark(store *s, const char *id, int chats)
{
	ahead a = { .s = s, .game = id };

	if (s->db->engine == DB_SQLITE || !id)
		return;
	add_mark(&a, id, chats_of(chats));
	send(&a);
}

void store_read_ahead_table(store *s, const char *id, int chats)
{
	ahead a = { .s = s, .game = id };

	if (s->db->engine == DB_SQLITE || !id)
		return;
	chats = chats_of(chats);
	add_mark(&a, id, chats);
	add(&a, SQL_GAME_GET, id, -1);
	add(&a, SQL_SEATS_GET, id, -1);
	add(&a, SQL_WALK, id, -1);
	add(&a, SQL_CHAT_LATEST, id, chats);
	add(&a, SQL_SHOWN_GET, id, -1);
	add(&a, SQL_CREW_BEFORE, id, -1);
	add(&a, SQL_TAKEBACK_LAST, id, -1);
	send(&a);
}

int sql_read_ahead_game(store *s, const char *id)
{
	ahead a = { .s = s };

	/* rows a page read ahead serve this load as they are */
	if (s->db->engine == DB_SQLITE || !id || db_read_ahead_held(s->db))
		return 0;
	add(&a, SQL_GAME_GET, id, -1);
	add(&a, SQL_SEATS_GET, id, -1);
	send(&a);
	return 1;
}

void store_read_ahead_end(store *s)
{
	db_read_ahead_drop(s->db);
}

int64_t store_round_trips(store *s)
{
	return db_round_trips(s->db);
}
