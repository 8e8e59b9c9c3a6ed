/*
 * driver_pg_wake.c - a PostgreSQL connection that waits for work: it
 * LISTENs on the channel that inserting a job or an email notifies
 * (db/schema/pg/0021-wake.sql), whichever host inserted it, so a worker
 * between its looks starts at once.  The payload names the schema of
 * the instance that queued it: another's (in the same database) wakes
 * nobody here.  A session the server dropped listens again as it is set
 * up (pg_listen_sql).
 */
#include <stdio.h>
#include <string.h>

#include "driver_pg.h"

/* Notifications read at most per call: the rest wait for the next. */
enum { PG_WAKES_MAX = 100000 };

const char *pg_listen_sql(const pg_conn *c)
{
	return c->listening ? "; LISTEN buffertime_work" : "";
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
		PGresult *r = PQexec(c->pg, "LISTEN buffertime_work; "
		                     "SELECT coalesce(current_schema(), '')");
		c->round_trips++;
		int ok = r && PQresultStatus(r) == PGRES_TUPLES_OK &&
		         PQntuples(r) == 1;
		if (ok)
			snprintf(c->schema, sizeof c->schema, "%s",
			         PQgetvalue(r, 0, 0));
		PQclear(r);
		if (PQstatus(c->pg) == CONNECTION_BAD) {
			pg_mark_gone(c, PG_TX_NONE);
			return -1;
		}
		if (!ok)
			return -1;
		c->listening = 1;
	}
	return PQsocket(c->pg);
}

int pg_woken(db_conn *conn)
{
	pg_conn *c = (pg_conn *)conn;
	int n = 0;

	if (c->gone || !c->listening)
		return 0;
	if (!PQconsumeInput(c->pg)) {
		/* the server went away: a look will find out, and reconnect */
		pg_mark_gone(c, PG_TX_NONE);
		return 1;
	}
	for (int i = 0; i < PG_WAKES_MAX; i++) {
		PGnotify *m = PQnotifies(c->pg);
		if (!m)
			break;
		n += m->extra && strcmp(m->extra, c->schema) == 0;
		PQfreemem(m);
	}
	return n > 0;
}
