/*
 * driver_pg_wake.c - a PostgreSQL connection that waits for work: it
 * LISTENs on the channel that inserting a job or an email notifies
 * (db/schema/pg/0021-wake.sql), whichever host inserted it, so a worker
 * between its looks starts at once.  The payload names the schema of
 * the instance that queued it: another's (in the same database) wakes
 * nobody here.  A session the server dropped listens again as it is set
 * up (pg_listen_sql).  The same connection may hear that a game's rows
 * changed (driver_pg_kept.c): each notification read goes where it
 * belongs, whichever call reads it.
 */
#include <stdio.h>
#include <string.h>

#include "driver_pg.h"

/* Notifications read at most per call: the rest wait for the next (and
 * every row kept is dropped: they may name any game). */
enum { PG_WAKES_MAX = 100000 };

const char *pg_listen_sql(const pg_conn *c)
{
	return c->listening ? "; LISTEN buffertime_work" : "";
}

int pg_listen(pg_conn *c, const char *channel)
{
	char sql[96];

	/* channel is one of the driver's own names: no value is in it */
	snprintf(sql, sizeof sql, "LISTEN %s; "
	         "SELECT coalesce(current_schema(), '')", channel);
	PGresult *r = PQexec(c->pg, sql);
	c->round_trips++;
	int ok = r && PQresultStatus(r) == PGRES_TUPLES_OK &&
	         PQntuples(r) == 1;
	if (ok)
		snprintf(c->schema, sizeof c->schema, "%s",
		         PQgetvalue(r, 0, 0));
	PQclear(r);
	if (PQstatus(c->pg) == CONNECTION_BAD)
		pg_mark_gone(c, PG_TX_NONE);
	return ok && !c->gone ? 0 : -1;
}

int pg_wake_fd(db_conn *conn)
{
	pg_conn *c = (pg_conn *)conn;

	/* LISTEN takes effect when its transaction commits: between the
	 * store's transactions only */
	if (c->lost_tx || c->tx != PQTRANS_IDLE)
		return -1;
	if (pg_server_ready(c) != DB_OK)
		return -1;
	if (!c->listening) {
		if (pg_listen(c, "buffertime_work") < 0)
			return -1;
		c->listening = 1;
	}
	return PQsocket(c->pg);
}

/* One notification: work queued (noted for pg_woken), or a game's rows
 * changed (payload "SCHEMA GAME", GAME "*" for every game: 0027); 1 if
 * it is tag's or every game's.  Another instance's pass by. */
static int note(pg_conn *c, const PGnotify *m, const char *tag)
{
	size_t len = strlen(c->schema);
	const char *extra = m->extra ? m->extra : "";

	if (strcmp(m->relname, "buffertime_work") == 0) {
		c->work_noted |= strcmp(extra, c->schema) == 0;
		return 0;
	}
	if (strcmp(m->relname, "buffertime_pages") != 0 ||
	    strncmp(extra, c->schema, len) != 0 || extra[len] != ' ')
		return 0;
	const char *game = extra + len + 1;
	int every = strcmp(game, "*") == 0;
	pg_kept_changed(c, every ? NULL : game);
	return every || (tag && strcmp(game, tag) == 0);
}

int pg_notes_read(pg_conn *c, const char *tag)
{
	int hit = 0, i;

	if (c->gone)
		return 1;
	if (!PQconsumeInput(c->pg)) {
		/* the server went away: a look will find out, and reconnect */
		pg_mark_gone(c, PG_TX_NONE);
		pg_kept_changed(c, NULL);
		return 1;
	}
	for (i = 0; i < PG_WAKES_MAX; i++) {
		PGnotify *m = PQnotifies(c->pg);
		if (!m)
			break;
		hit |= note(c, m, tag);
		PQfreemem(m);
	}
	if (i == PG_WAKES_MAX) {
		/* what is left unread may name any game */
		pg_kept_changed(c, NULL);
		hit = 1;
	}
	return hit;
}

int pg_woken(db_conn *conn)
{
	pg_conn *c = (pg_conn *)conn;

	if (c->gone || !c->listening)
		return 0;
	if (pg_notes_read(c, NULL) && c->gone)
		return 1;
	int woken = c->work_noted;
	c->work_noted = 0;
	return woken;
}
