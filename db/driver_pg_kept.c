/*
 * driver_pg_kept.c - a game's rows read ahead, kept for the requests
 * after this one: a table page left open is read again and again
 * (reloads, the live page's polls), and most reads find the game as it
 * was.  On a server each read costs a round trip and the server's work;
 * on a file it costs neither, which is why only this engine keeps rows.
 *
 * A set of rows is named by its tag (a game id) and kept until the
 * server says the game changed: migration 0027's triggers notify the
 * channel buffertime_pages with "SCHEMA GAME" (GAME "*": every game)
 * whenever a row that a page reads changes, whichever host wrote it, and
 * the connection LISTENs on it before it keeps anything.
 *
 * A notification is on its way while the page is asked for, so before
 * rows kept are lent out the connection asks the server once (an empty
 * query, the cheapest round trip): the server sends the notifications
 * of every commit that signalled it before our query arrived, ahead of
 * its answer.  A write that ended before this request began (one's own
 * move, on whichever host) is thus always seen; so, in one round trip
 * and no statement, is a game nobody changed.
 *
 * Rows are kept only as one snapshot, read outside any transaction:
 * a set that lacks a statement asked for is read again whole, and a set
 * whose game changed while it was read is lent for this request only.
 * A new session (the server restarted) drops everything, since its
 * notifications went with the old one.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "driver_pg.h"

typedef struct pg_kept_rows {
	pg_stmt *st;
	unsigned char *key;         /* the values they were read with */
	size_t key_len;
	PGresult *r;
} pg_kept_rows;

typedef struct pg_kept {
	char tag[PG_TAG_MAX];
	int n;
	pg_kept_rows rows[PG_AHEAD_MAX];
	size_t bytes;
	uint64_t used;              /* kept_clock at its last use */
} pg_kept;

/* ---- sets ---------------------------------------------------------------- */

static pg_kept *find(pg_conn *c, const char *tag)
{
	for (int i = 0; i < c->nkept; i++)
		if (strcmp(c->kept[i].tag, tag) == 0)
			return &c->kept[i];
	return NULL;
}

/* Frees a set's rows: a statement reading them now (its rows borrowed)
 * takes them over, and clears them at its reset. */
static void free_rows(pg_conn *c, pg_kept *e)
{
	for (int i = 0; i < e->n; i++) {
		pg_kept_rows *k = &e->rows[i];
		pg_stmt *st = k->st;

		if (st->ahead == k->r)
			pg_ahead_forget(st);
		if (st->res == k->r && st->borrowed)
			st->borrowed = 0;
		else
			PQclear(k->r);
		free(k->key);
	}
	c->kept_bytes -= e->bytes;
	e->n = 0;
	e->bytes = 0;
}

static void drop(pg_conn *c, pg_kept *e)
{
	free_rows(c, e);
	*e = c->kept[--c->nkept];
}

void pg_kept_changed(pg_conn *c, const char *tag)
{
	if (!tag) {
		while (c->nkept > 0)
			drop(c, &c->kept[c->nkept - 1]);
		return;
	}
	pg_kept *e = find(c, tag);
	if (e)
		drop(c, e);
}

void pg_kept_forget_stmt(pg_stmt *st)
{
	pg_conn *c = st->c;

	for (int i = c->nkept - 1; i >= 0; i--)
		for (int j = 0; j < c->kept[i].n; j++)
			if (c->kept[i].rows[j].st == st) {
				drop(c, &c->kept[i]);
				break;
			}
}

void pg_kept_free(pg_conn *c)
{
	pg_kept_changed(c, NULL);
	free(c->kept);
	c->kept = NULL;
}

/* Makes room for one more set of about `bytes`: the least used go. */
static void make_room(pg_conn *c, size_t bytes)
{
	while (c->nkept > 0 && (c->nkept >= PG_KEPT_SETS ||
	                        c->kept_bytes + bytes > PG_KEPT_BYTES)) {
		pg_kept *old = &c->kept[0];
		for (int i = 1; i < c->nkept; i++)
			if (c->kept[i].used < old->used)
				old = &c->kept[i];
		drop(c, old);
	}
}

/* ---- the session --------------------------------------------------------- */

/* Whether rows may be kept in this session: it LISTENs for changes
 * (from the first keeping on); a new session drops what the old kept. */
static int ready(pg_conn *c)
{
	if (pg_server_ready(c) != DB_OK)
		return 0;
	if (c->kept_generation != c->generation) {
		pg_kept_changed(c, NULL);
		c->kept_generation = c->generation;
		c->changes_heard = 0;
	}
	if (!c->kept) {
		c->kept = calloc(PG_KEPT_SETS, sizeof *c->kept);
		if (!c->kept)
			return 0;
	}
	if (c->changes_heard)
		return 1;
	c->changes_heard = pg_listen(c, "buffertime_pages") == 0;
	return c->changes_heard;
}

/* Asks the server once this request: the notifications of every commit
 * before now arrive with its answer.  0, or -1: the server is gone. */
static int sync(pg_conn *c)
{
	if (c->synced)
		return 0;
	PGresult *r = PQexec(c->pg, "");
	c->round_trips++;
	int ok = r && PQresultStatus(r) == PGRES_EMPTY_QUERY;
	PQclear(r);
	if (!ok || PQstatus(c->pg) == CONNECTION_BAD) {
		pg_mark_gone(c, PG_TX_NONE);
		pg_kept_changed(c, NULL);
		return -1;
	}
	c->synced = 1;
	pg_notes_read(c, NULL);
	return 0;
}

/* Only between requests, in the session that listens. */
static int hearing(const pg_conn *c)
{
	return c->changes_heard && !c->gone && !c->lost_tx &&
	       c->kept_generation == c->generation && c->tx == PQTRANS_IDLE;
}

int pg_changes_fd(db_conn *conn)
{
	pg_conn *c = (pg_conn *)conn;

	return hearing(c) ? PQsocket(c->pg) : -1;
}

void pg_changes_read(db_conn *conn)
{
	pg_conn *c = (pg_conn *)conn;

	if (hearing(c))
		pg_notes_read(c, NULL);
}

/* ---- lending and keeping --------------------------------------------- */

static pg_kept_rows *rows_of(pg_kept *e, const pg_stmt *st)
{
	for (int i = 0; i < e->n; i++)
		if (e->rows[i].st == st)
			return &e->rows[i];
	return NULL;
}

/* Whether e holds rows for each statement asked for, with its values. */
static int covers(pg_kept *e, db_stmt *const *stmts, int n)
{
	for (int i = 0; i < n; i++) {
		pg_stmt *st = (pg_stmt *)stmts[i];
		if (!st)
			continue;
		pg_kept_rows *k = rows_of(e, st);
		if (!k || st->bind_failed ||
		    !pg_ahead_key_is(st, k->key, k->key_len))
			return 0;
	}
	return 1;
}

/* Lends e's rows to their statements, as rows read ahead now; 0, or -1
 * (nothing lent) out of memory. */
static int lend(pg_conn *c, pg_kept *e)
{
	pg_read_ahead_drop(&c->head);
	for (int i = 0; i < e->n; i++) {
		pg_kept_rows *k = &e->rows[i];
		if (pg_ahead_lend(k->st, k->r, k->key, k->key_len)) {
			pg_read_ahead_drop(&c->head);
			return -1;
		}
	}
	e->used = ++c->kept_clock;
	c->synced = 1;
	return 0;
}

/* Whether st holds rows of its own just read ahead, for a set. */
static int fresh_rows(const pg_stmt *st)
{
	return st && st->ahead && !st->ahead_kept && !st->ahead_in_tx;
}

/* Keeps the rows just read ahead for stmts as tag's set. */
static void keep(pg_conn *c, const char *tag, db_stmt *const *stmts, int n)
{
	size_t bytes = 0;

	for (int i = 0; i < n; i++) {
		const pg_stmt *st = (const pg_stmt *)stmts[i];
		if (fresh_rows(st))
			bytes += PQresultMemorySize(st->ahead);
	}
	if (bytes == 0 || bytes > PG_KEPT_BYTES / 4)
		return;
	make_room(c, bytes);
	pg_kept *e = &c->kept[c->nkept++];
	memset(e, 0, sizeof *e);
	snprintf(e->tag, sizeof e->tag, "%s", tag);
	for (int i = 0; i < n && e->n < PG_AHEAD_MAX; i++) {
		pg_stmt *st = (pg_stmt *)stmts[i];
		if (!fresh_rows(st))
			continue;
		unsigned char *key = malloc(st->ahead_key_len ?
		                            st->ahead_key_len : 1);
		if (!key)
			break;
		memcpy(key, st->ahead_key, st->ahead_key_len);
		e->rows[e->n++] = (pg_kept_rows){ .st = st, .key = key,
			.key_len = st->ahead_key_len, .r = st->ahead };
		e->bytes += PQresultMemorySize(st->ahead);
		st->ahead_kept = 1;
	}
	c->kept_bytes += e->bytes;
	e->used = ++c->kept_clock;
}

db_code pg_read_ahead_kept(db_conn *conn, const char *tag,
                           db_stmt *const *stmts, int n)
{
	pg_conn *c = (pg_conn *)conn;

	if (!tag || strlen(tag) >= PG_TAG_MAX || c->tx != PQTRANS_IDLE ||
	    c->lost_tx || c->begin_put_off || !ready(c))
		return pg_read_ahead(conn, stmts, n);
	/* a change heard already spares the question */
	if (!c->synced)
		pg_notes_read(c, NULL);
	pg_kept *e = find(c, tag);
	if (e && covers(e, stmts, n) && sync(c) == 0 &&
	    (e = find(c, tag)) != NULL && lend(c, e) == 0)
		return DB_OK;
	if (c->gone)
		return pg_read_ahead(conn, stmts, n);
	/* read whole, in one snapshot, after what was heard so far */
	pg_kept_changed(c, tag);
	pg_read_ahead_drop(conn);
	int64_t trips = c->round_trips;
	db_code rc = pg_read_ahead(conn, stmts, n);
	if (c->round_trips == trips || c->gone)
		return rc;
	/* a change heard with the rows may be one they do not show */
	if (rc == DB_OK && !pg_notes_read(c, tag))
		keep(c, tag, stmts, n);
	c->synced = 1;
	return rc;
}
