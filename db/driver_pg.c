/*
 * driver_pg.c - the PostgreSQL engine of db/driver.h, through libpq.
 *
 * The store's SQL numbers its parameters as SQLite does (?1 ... ?N); here
 * they become PostgreSQL's $1 ... $N, and each statement is prepared on
 * the server under a name of its own (bt1, bt2, ...).  Values go as text
 * (blobs in binary), rows come back as text.  A statement's rows are read
 * whole at its first step, so that statements interleave as SQLite's do.
 *
 * A connection the server dropped (a restart, a terminated backend) is
 * opened again by the next call outside a transaction, and the statements,
 * which the server forgot, are prepared again at their next step.  Inside
 * a transaction the loss is reported until the store rolls back: the rest
 * of a transaction must never run on its own, outside it.
 */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "driver_pg.h"

static const struct db_ops pg_ops;

/* ---- words ------------------------------------------------------------- */

db_code pg_fail(pg_conn *c, db_code code, const char *what,
                const char *detail)
{
	char line[PG_MSG_MAX / 2];   /* what comes first keeps its room */

	pg_sql_one_line(detail, line, sizeof line);
	c->code = code;
	snprintf(c->msg, sizeof c->msg, "%s%s%s", what, *line ? ": " : "",
	         line);
	return code;
}

static void succeed(pg_conn *c)
{
	c->code = DB_OK;
	c->msg[0] = '\0';
}

/* ---- the connection's state -------------------------------------------- */

/* The server went away.  Inside a transaction (the statement that found
 * out neither committed nor rolled it back), the transaction is lost with
 * it, and the store must hear so until it rolls back. */
void pg_mark_gone(pg_conn *c, enum pg_tx_end ends)
{
	if (!c->gone && ends == PG_TX_NONE &&
	    (c->tx == PQTRANS_INTRANS || c->tx == PQTRANS_INERROR ||
	     c->tx == PQTRANS_ACTIVE))
		c->lost_tx = 1;
	c->gone = 1;
	pg_read_ahead_drop(&c->head);
}

static void count_changes(pg_conn *c, const PGresult *r)
{
	static const char *const writes[] = { "INSERT ", "UPDATE ", "DELETE ",
	                                       "MERGE " };
	const char *status = PQcmdStatus((PGresult *)r);

	for (size_t i = 0; status && i < sizeof writes / sizeof *writes; i++)
		if (!strncmp(status, writes[i], strlen(writes[i]))) {
			c->changes = strtoll(PQcmdTuples((PGresult *)r), NULL,
			                     10);
			return;
		}
}

/* Reads a reply (r may be NULL: libpq ran out of memory or lost the
 * server) into the connection's code and words. */
db_code pg_take_result(pg_conn *c, const PGresult *r, enum pg_tx_end ends)
{
	ExecStatusType s = r ? PQresultStatus(r) : PGRES_FATAL_ERROR;
	int bad = PQstatus(c->pg) == CONNECTION_BAD;

	if (!bad)
		c->tx = PQtransactionStatus(c->pg);
	if (s == PGRES_COMMAND_OK || s == PGRES_TUPLES_OK ||
	    s == PGRES_EMPTY_QUERY) {
		count_changes(c, r);
		succeed(c);
		return DB_OK;
	}
	if (s != PGRES_FATAL_ERROR && s != PGRES_NONFATAL_ERROR &&
	    s != PGRES_BAD_RESPONSE)
		return pg_fail(c, DB_ERROR, "unexpected reply from PostgreSQL",
		            PQresStatus(s));
	const char *primary = r ? PQresultErrorField(r, PG_DIAG_MESSAGE_PRIMARY)
	                        : NULL;
	db_code code = bad ? DB_GONE
	                   : pg_sql_code(r ? PQresultErrorField(r, PG_DIAG_SQLSTATE)
	                                 : NULL);
	if (code == DB_GONE)
		pg_mark_gone(c, ends);
	if (code == DB_GONE && ends == PG_TX_COMMIT)
		return pg_fail(c, code, "the connection to the PostgreSQL server "
		            "was lost at COMMIT: whether it committed is unknown",
		            primary ? primary : PQerrorMessage(c->pg));
	if (primary)
		return pg_fail(c, code, primary, NULL);
	if (!r && !bad)
		return pg_fail(c, DB_ERROR, "out of memory", NULL);
	return pg_fail(c, code, code == DB_GONE ? "the PostgreSQL server went away"
	                                     : "PostgreSQL failed",
	            PQerrorMessage(c->pg));
}

/* What a new session needs, after a connect or a reset: quiet notices,
 * how long a writer waits for another's lock before DB_BUSY (55P03), as
 * SQLite's busy timeout, and the LISTEN of a worker waiting for work. */
static db_code session_setup(pg_conn *c)
{
	char sql[128];

	snprintf(sql, sizeof sql, "SET client_min_messages = warning; "
	         "SET lock_timeout = %d%s", c->lock_timeout_ms,
	         pg_listen_sql(c));
	PGresult *r = PQexec(c->pg, sql);
	c->round_trips++;
	db_code rc = pg_take_result(c, r, PG_TX_NONE);

	PQclear(r);
	return rc;
}

static void deallocate(pg_conn *c, const char *name)
{
	char sql[16 + PG_NAME_MAX];

	if (c->tx == PQTRANS_INERROR) {
		if (c->npending < PG_PENDING_MAX)
			snprintf(c->pending[c->npending++], PG_NAME_MAX, "%s",
			         name);
		return;
	}
	/* the statement's own name, made here: no value is in it */
	snprintf(sql, sizeof sql, "DEALLOCATE %s", name);
	PGresult *r = PQexec(c->pg, sql);
	c->round_trips++;
	if (PQstatus(c->pg) == CONNECTION_BAD)
		pg_mark_gone(c, PG_TX_NONE);
	else
		c->tx = PQtransactionStatus(c->pg);
	PQclear(r);
}

static void flush_pending(pg_conn *c)
{
	while (c->npending > 0 && !c->gone && c->tx != PQTRANS_INERROR) {
		char name[PG_NAME_MAX];

		memcpy(name, c->pending[--c->npending], sizeof name);
		deallocate(c, name);
	}
}

/* Before a call that needs the server: a connection lost outside a
 * transaction is opened again, once; its statements are then prepared
 * again as they are next stepped (the generation moved on). */
db_code pg_server_ready(pg_conn *c)
{
	if (c->gone && c->lost_tx)
		return pg_fail(c, DB_GONE, "the connection to the PostgreSQL "
		            "server was lost inside a transaction, which is "
		            "undone: roll it back", NULL);
	if (c->gone) {
		PQreset(c->pg);
		if (PQstatus(c->pg) != CONNECTION_OK)
			return pg_fail(c, DB_GONE, "the PostgreSQL server went "
			            "away and cannot be reached again",
			            PQerrorMessage(c->pg));
		/* a pipeline cut short by the loss is not taken along */
		if (PQpipelineStatus(c->pg) != PQ_PIPELINE_OFF)
			PQexitPipelineMode(c->pg);
		c->generation++;
		c->gone = 0;
		c->npending = 0;
		c->tx = PQTRANS_IDLE;
		if (session_setup(c) != DB_OK)
			return c->code;
	}
	flush_pending(c);
	return DB_OK;
}

/* The store's COMMIT or ROLLBACK after its transaction was lost. */
static db_code end_lost(pg_conn *c, enum pg_tx_end ends, db_code ok)
{
	if (ends == PG_TX_NONE)
		return pg_server_ready(c);
	c->lost_tx = 0;
	if (ends == PG_TX_ROLLBACK) {
		succeed(c);
		return ok;
	}
	return pg_fail(c, DB_GONE, "the connection to the PostgreSQL server was "
	            "lost inside the transaction: it did not commit", NULL);
}

/* ---- statements ---------------------------------------------------------- */

static void forget_row(pg_stmt *st)
{
	for (int i = 0; i < st->nblobs; i++) {
		PQfreemem(st->blobs[i]);
		st->blobs[i] = NULL;
	}
}

static void clear_result(pg_stmt *st)
{
	forget_row(st);
	free(st->blobs);
	free(st->blob_len);
	st->blobs = NULL;
	st->blob_len = NULL;
	st->nblobs = 0;
	if (!st->borrowed)
		PQclear(st->res);
	st->borrowed = 0;
	st->res = NULL;
	st->row = 0;
}

static void clear_values(pg_stmt *st)
{
	for (int i = 0; i < st->nparams; i++) {
		free(st->values[i]);
		st->values[i] = NULL;
		st->lengths[i] = 0;
		st->formats[i] = 0;
	}
	st->bind_failed = 0;
}

static void free_stmt(pg_stmt *st)
{
	pg_ahead_forget(st);
	pg_kept_forget_stmt(st);
	clear_result(st);
	if (st->values)
		clear_values(st);
	free(st->values);
	free(st->lengths);
	free(st->formats);
	free(st->sql);
	free(st);
}

/* Prepares st in the connection's session: PQprepare lets the server
 * infer the parameters' types. */
static db_code prepare_on_server(pg_stmt *st, int describe)
{
	pg_conn *c = st->c;
	PGresult *r = PQprepare(c->pg, st->name, st->sql, 0, NULL);
	c->round_trips++;
	db_code rc = pg_take_result(c, r, PG_TX_NONE);

	PQclear(r);
	if (rc != DB_OK)
		return rc;
	st->generation = c->generation;
	if (!describe)
		return DB_OK;
	/* SQLite counts a statement's columns before its first step */
	r = PQdescribePrepared(c->pg, st->name);
	c->round_trips++;
	rc = pg_take_result(c, r, PG_TX_NONE);
	if (rc == DB_OK)
		st->ncols = PQnfields(r);
	PQclear(r);
	return rc;
}

static pg_stmt *new_stmt(pg_conn *c, const char *sql)
{
	size_t len = strlen(sql);
	pg_stmt *st = calloc(1, sizeof *st);

	if (!st || !(st->sql = malloc(len + 1))) {
		free(st);
		pg_fail(c, DB_ERROR, "out of memory preparing a statement", NULL);
		return NULL;
	}
	st->head.ops = &pg_ops;
	st->c = c;
	if (pg_sql_translate(sql, st->sql, &st->nparams, c->msg, sizeof c->msg)) {
		c->code = DB_ERROR;
		free_stmt(st);
		return NULL;
	}
	size_t n = st->nparams > 0 ? (size_t)st->nparams : 1;
	st->values = calloc(n, sizeof *st->values);
	st->lengths = calloc(n, sizeof *st->lengths);
	st->formats = calloc(n, sizeof *st->formats);
	if (!st->values || !st->lengths || !st->formats) {
		free_stmt(st);
		pg_fail(c, DB_ERROR, "out of memory preparing a statement", NULL);
		return NULL;
	}
	st->ends = pg_sql_tx_end(sql);
	return st;
}

static db_stmt *pg_prepare(db_conn *conn, const char *sql)
{
	pg_conn *c = (pg_conn *)conn;
	pg_stmt *st = new_stmt(c, sql);

	if (!st)
		return NULL;
	snprintf(st->name, sizeof st->name, "bt%lu", ++c->names);
	int idle = c->tx == PQTRANS_IDLE && !c->lost_tx;
	db_code rc = pg_server_ready(c);
	if (rc == DB_OK)
		rc = prepare_on_server(st, 1);
	/* a connection found lost by preparing (which changes nothing) is
	 * opened again at once, outside a transaction */
	if (rc == DB_GONE && idle && pg_server_ready(c) == DB_OK)
		rc = prepare_on_server(st, 1);
	if (rc != DB_OK) {
		free_stmt(st);
		return NULL;
	}
	return &st->head;
}

static void pg_finalize(db_stmt *s)
{
	pg_stmt *st = (pg_stmt *)s;
	pg_conn *c = st->c;

	/* a session's prepared statements last as long as it does */
	if (!c->gone && st->generation == c->generation)
		deallocate(c, st->name);
	free_stmt(st);
}

/* ---- values ------------------------------------------------------------- */

/* Parameter i's slot, emptied; -1 if i is out of range. */
static int slot(pg_stmt *st, int i)
{
	if (i < 1 || i > st->nparams)
		return -1;
	free(st->values[i - 1]);
	st->values[i - 1] = NULL;
	st->lengths[i - 1] = 0;
	st->formats[i - 1] = 0;
	return i - 1;
}

static void set_bytes(pg_stmt *st, int i, const void *data, size_t n,
                      int binary)
{
	int k = slot(st, i);

	if (k < 0)
		return;
	/* one byte more: a NUL after text, and never NULL (SQL NULL) for an
	 * empty value */
	char *copy = malloc(n + 1);
	if (!copy) {
		st->bind_failed = 1;
		return;
	}
	if (n)
		memcpy(copy, data, n);
	copy[n] = '\0';
	st->values[k] = copy;
	st->lengths[k] = (int)n;
	st->formats[k] = binary;
}

static void pg_bind_int64(db_stmt *s, int i, int64_t v)
{
	char text[24];

	snprintf(text, sizeof text, "%lld", (long long)v);
	set_bytes((pg_stmt *)s, i, text, strlen(text), 0);
}

static void pg_bind_double(db_stmt *s, int i, double v)
{
	char text[32];

	snprintf(text, sizeof text, "%.17g", v);
	set_bytes((pg_stmt *)s, i, text, strlen(text), 0);
}

static void pg_bind_text(db_stmt *s, int i, const char *text, int n)
{
	if (!text) {
		slot((pg_stmt *)s, i);
		return;
	}
	size_t len = n < 0 ? strlen(text) : strnlen(text, (size_t)n);
	set_bytes((pg_stmt *)s, i, text, len, 0);
}

static void pg_bind_blob(db_stmt *s, int i, const void *data, int n)
{
	if (!data) {
		slot((pg_stmt *)s, i);
		return;
	}
	set_bytes((pg_stmt *)s, i, data, n > 0 ? (size_t)n : 0, 1);
}

static void pg_bind_null(db_stmt *s, int i)
{
	slot((pg_stmt *)s, i);
}

static int pg_parameter_count(db_stmt *s)
{
	return ((pg_stmt *)s)->nparams;
}

/* ---- running -------------------------------------------------------------- */

/* One execution of st on the server, as it is now (prepared again if the
 * connection was opened again since); its result in *r. */
static db_code execute(pg_stmt *st, PGresult **r)
{
	pg_conn *c = st->c;

	*r = NULL;
	if (pg_server_ready(c) != DB_OK)
		return c->code;
	if (st->generation != c->generation &&
	    prepare_on_server(st, 0) != DB_OK)
		return c->code;
	*r = PQexecPrepared(c->pg, st->name, st->nparams,
	                    (const char *const *)st->values, st->lengths,
	                    st->formats, 0);
	c->round_trips++;
	return pg_take_result(c, *r, st->ends);
}

static db_code run(pg_stmt *st)
{
	pg_conn *c = st->c;
	PGresult *r;

	if (st->bind_failed)
		return pg_fail(c, DB_ERROR, "out of memory binding a value", NULL);
	if (c->lost_tx)
		return end_lost(c, st->ends, DB_DONE);
	if (pg_ahead_answer(st))
		return PQntuples(st->res) > 0 ? DB_ROW : DB_DONE;
	db_code rc;
	if (pg_ahead_before_run(c, st->sql, st->ends, &rc))
		return rc == DB_OK ? DB_DONE : rc;
	int idle = c->tx == PQTRANS_IDLE;
	rc = execute(st, &r);
	/* the first use of a connection the server dropped (a restart):
	 * what changed nothing runs again on a new one */
	if (rc == DB_GONE && idle && !c->lost_tx &&
	    pg_sql_retryable(st->sql)) {
		PQclear(r);
		rc = execute(st, &r);
	}
	if (rc != DB_OK) {
		/* a write that met a lost server may or may not be done:
		 * never a success */
		PQclear(r);
		return rc;
	}
	st->res = r;
	st->row = 0;
	return PQntuples(r) > 0 ? DB_ROW : DB_DONE;
}

static db_code pg_step(db_stmt *s)
{
	pg_stmt *st = (pg_stmt *)s;

	forget_row(st);
	if (st->res && st->row < PQntuples(st->res)) {
		st->row++;
		return st->row < PQntuples(st->res) ? DB_ROW : DB_DONE;
	}
	/* after DB_DONE the statement runs again, with the same values,
	 * as SQLite's does */
	clear_result(st);
	return run(st);
}

static void pg_reset(db_stmt *s)
{
	pg_stmt *st = (pg_stmt *)s;

	clear_result(st);
	clear_values(st);
}

/* ---- the connection ----------------------------------------------------- */

static int64_t pg_changes(db_conn *conn)
{
	return ((pg_conn *)conn)->changes;
}

static db_code pg_exec(db_conn *conn, const char *script)
{
	pg_conn *c = (pg_conn *)conn;
	enum pg_tx_end ends = pg_sql_tx_end(script);

	if (c->lost_tx)
		return end_lost(c, ends, DB_OK);
	db_code put_off;
	if (pg_ahead_before_run(c, script, ends, &put_off))
		return put_off;
	int idle = c->tx == PQTRANS_IDLE;
	for (int tries = 0; ; tries++) {
		if (pg_server_ready(c) != DB_OK)
			return c->code;
		PGresult *r = PQexec(c->pg, script);
		c->round_trips++;
		db_code rc = pg_take_result(c, r, ends);
		PQclear(r);
		/* as run(): a lost connection's first use, if it changed
		 * nothing, once more on a new one */
		if (rc != DB_GONE || tries > 0 || !idle || c->lost_tx ||
		    !pg_sql_retryable(script))
			return rc;
	}
}

static int64_t pg_round_trips(db_conn *conn)
{
	return ((pg_conn *)conn)->round_trips;
}

static int pg_in_transaction(db_conn *conn)
{
	pg_conn *c = (pg_conn *)conn;

	if (c->lost_tx || c->begin_put_off)
		return 1;
	if (c->gone)
		return 0;
	PGTransactionStatusType t = PQtransactionStatus(c->pg);
	return t == PQTRANS_INTRANS || t == PQTRANS_INERROR ||
	       t == PQTRANS_ACTIVE;
}

static db_code pg_errcode(db_conn *conn)
{
	return ((pg_conn *)conn)->code;
}

static const char *pg_errmsg(db_conn *conn)
{
	pg_conn *c = (pg_conn *)conn;

	return c->msg[0] ? c->msg : "not an error";
}

static void pg_set_busy_timeout(db_conn *conn, int ms)
{
	pg_conn *c = (pg_conn *)conn;

	/* 0 would mean "wait for ever" to PostgreSQL, "never" to SQLite */
	c->lock_timeout_ms = ms > 0 ? ms : 1;
	if (!c->gone && !c->lost_tx)
		session_setup(c);
}

static void pg_close(db_conn *conn)
{
	pg_conn *c = (pg_conn *)conn;

	pg_read_ahead_drop(conn);
	pg_kept_free(c);
	PQfinish(c->pg);
	free(c);
}

static const struct db_ops pg_ops = {
	.prepare = pg_prepare,
	.finalize = pg_finalize,
	.bind_int64 = pg_bind_int64,
	.bind_double = pg_bind_double,
	.bind_text = pg_bind_text,
	.bind_blob = pg_bind_blob,
	.bind_null = pg_bind_null,
	.parameter_count = pg_parameter_count,
	.step = pg_step,
	.reset = pg_reset,
	.column_count = pg_column_count,
	.column_is_null = pg_column_is_null,
	.column_int64 = pg_column_int64,
	.column_double = pg_column_double,
	.column_text = pg_column_text,
	.column_blob = pg_column_blob,
	.column_bytes = pg_column_bytes,
	.column_name = pg_column_name,
	.column_type = pg_column_type,
	.changes = pg_changes,
	.exec = pg_exec,
	.in_transaction = pg_in_transaction,
	.errcode = pg_errcode,
	.errmsg = pg_errmsg,
	.set_busy_timeout = pg_set_busy_timeout,
	.wake_fd = pg_wake_fd,
	.woken = pg_woken,
	.read_ahead = pg_read_ahead,
	.read_ahead_kept = pg_read_ahead_kept,
	.changes_fd = pg_changes_fd,
	.changes_read = pg_changes_read,
	.read_ahead_drop = pg_read_ahead_drop,
	.read_ahead_held = pg_read_ahead_held,
	.round_trips = pg_round_trips,
	.close = pg_close,
};

/* Where the connection went, in words: a host and port, or a socket's
 * folder. */
static void server_words(const PGconn *pg, char *out, size_t cap)
{
	const char *host = pg ? PQhost(pg) : NULL;
	const char *port = pg ? PQport(pg) : NULL;

	if (!host || !*host)
		snprintf(out, cap, "the default PostgreSQL server");
	else if (*host == '/' || *host == '@')
		snprintf(out, cap, "the PostgreSQL server on the socket in %s",
		         host);
	else
		snprintf(out, cap, "the PostgreSQL server at %s port %s", host,
		         port && *port ? port : "5432");
}

db_conn *db_pg_open(const char *url, char *why, size_t cap)
{
	char where[256], line[PG_MSG_MAX];

	if (pq_load(why, cap))
		return NULL;
	pg_conn *c = calloc(1, sizeof *c);
	if (!c) {
		snprintf(why, cap, "out of memory opening a PostgreSQL "
		         "connection");
		return NULL;
	}
	c->head.ops = &pg_ops;
	c->head.engine = DB_POSTGRES;
	c->tx = PQTRANS_IDLE;
	c->generation = 1;   /* a statement's 0: prepared in none */
	c->lock_timeout_ms = 5000;
	c->pg = PQconnectdb(url);
	server_words(c->pg, where, sizeof where);
	if (!c->pg || PQstatus(c->pg) != CONNECTION_OK) {
		pg_sql_one_line(c->pg ? PQerrorMessage(c->pg) : "out of memory", line,
		         sizeof line);
		snprintf(why, cap, "cannot connect to %s: %s", where, line);
		pg_close(&c->head);
		return NULL;
	}
	if (session_setup(c) != DB_OK) {
		snprintf(why, cap, "%s: %s", where, c->msg);
		pg_close(&c->head);
		return NULL;
	}
	return &c->head;
}
