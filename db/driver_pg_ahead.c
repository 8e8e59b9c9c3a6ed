/*
 * driver_pg_ahead.c - reading ahead: the reads a page is about to make,
 * sent to the server together (libpq's pipeline: one round trip, not one
 * per statement) inside one read-only REPEATABLE READ transaction, so that
 * they see one snapshot.  Each statement keeps its rows with the values
 * they were read with, and its next run with the same values takes them
 * instead of asking the server.
 *
 * Outside a transaction the reads go inside a read-only REPEATABLE READ
 * one of their own; inside the store's transaction (which holds its
 * writer's lock) they go as they are.  Rows answer only where they were
 * read: rows read outside a transaction only outside one, so that a
 * transaction reads what is committed now, never an older snapshot; rows
 * read inside one only inside it, until it ends.  A read-only
 * transaction (the store's mark) is begun on the server only once one of
 * its statements finds nothing read ahead: its BEGIN waits, and if every
 * read is answered, it ends without a word to the server.  Anything that
 * may write drops all rows read ahead, so does the end of a transaction,
 * and the store drops them at the end of each request.  Rows a kept set
 * lends (driver_pg_kept.c) are answered the same way, and stay the
 * set's: dropping them only lets go of them.
 */
#include <stdlib.h>
#include <string.h>

#include "driver_pg.h"

#define AHEAD_BEGIN "BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY"

/* ---- the values rows were read with --------------------------------- */

/* Each value as a byte for NULL or not, one for its format, its length,
 * its bytes: no two lists of values write the same key. */
static size_t key_size(const pg_stmt *st)
{
	size_t n = 0;

	for (int i = 0; i < st->nparams; i++)
		n += 2 + sizeof(int) + (st->values[i] ? (size_t)st->lengths[i]
		                                      : 0);
	return n;
}

static void key_write(const pg_stmt *st, unsigned char *key)
{
	for (int i = 0; i < st->nparams; i++) {
		int len = st->values[i] ? st->lengths[i] : 0;

		*key++ = st->values[i] != NULL;
		*key++ = (unsigned char)st->formats[i];
		memcpy(key, &len, sizeof len);
		key += sizeof len;
		if (len)
			memcpy(key, st->values[i], (size_t)len);
		key += len;
	}
}

unsigned char *pg_ahead_key(const pg_stmt *st, size_t *len)
{
	unsigned char *key = malloc((*len = key_size(st)) ? *len : 1);

	if (key)
		key_write(st, key);
	return key;
}

int pg_ahead_key_is(const pg_stmt *st, const unsigned char *key, size_t len)
{
	size_t n;
	unsigned char *now = len == key_size(st) ? pg_ahead_key(st, &n) : NULL;
	int same = now && (n == 0 || memcmp(now, key, n) == 0);

	free(now);
	return same;
}

static int key_matches(const pg_stmt *st)
{
	return pg_ahead_key_is(st, st->ahead_key, st->ahead_key_len);
}

/* ---- keeping and dropping rows ---------------------------------------- */

/* Lets go of st's rows read ahead; rows it is reading now stay its own
 * until its reset. */
static void release(pg_stmt *st)
{
	if (st->ahead_kept)
		;       /* a kept set's (driver_pg_kept.c), which frees them */
	else if (st->borrowed && st->res == st->ahead)
		st->borrowed = 0;
	else
		PQclear(st->ahead);
	st->ahead = NULL;
	st->ahead_in_tx = 0;
	st->ahead_kept = 0;
	free(st->ahead_key);
	st->ahead_key = NULL;
	st->ahead_key_len = 0;
}

void pg_read_ahead_drop(db_conn *conn)
{
	pg_conn *c = (pg_conn *)conn;

	for (int i = 0; i < c->nahead; i++)
		release(c->ahead[i]);
	c->nahead = 0;
	c->synced = 0;
}

int pg_read_ahead_held(db_conn *conn)
{
	return ((pg_conn *)conn)->nahead;
}

void pg_ahead_forget(pg_stmt *st)
{
	pg_conn *c = st->c;

	for (int i = 0; i < c->nahead; i++)
		if (c->ahead[i] == st) {
			release(st);
			c->ahead[i] = c->ahead[--c->nahead];
			return;
		}
}

/* Keeps r as st's rows for its present values (key, if not NULL: its
 * len bytes, which st then owns); 0, or -1 (r is cleared, unless kept)
 * out of memory. */
static int hold(pg_stmt *st, PGresult *r, int in_tx, unsigned char *key,
                size_t len, int kept)
{
	pg_conn *c = st->c;

	if (!key)
		key = pg_ahead_key(st, &len);
	if (!key || c->nahead >= PG_AHEAD_MAX) {
		free(key);
		if (!kept)
			PQclear(r);
		return -1;
	}
	st->ahead = r;
	st->ahead_key = key;
	st->ahead_key_len = len;
	st->ahead_in_tx = in_tx;
	st->ahead_kept = kept;
	c->ahead[c->nahead++] = st;
	return 0;
}

static int keep(pg_stmt *st, PGresult *r, int in_tx)
{
	return hold(st, r, in_tx, NULL, 0, 0);
}

int pg_ahead_lend(pg_stmt *st, PGresult *r, const unsigned char *key,
                  size_t len)
{
	unsigned char *copy = malloc(len ? len : 1);

	if (!copy)
		return -1;
	if (len)
		memcpy(copy, key, len);
	pg_ahead_forget(st);
	return hold(st, r, 0, copy, len, 1);
}

int pg_ahead_answer(pg_stmt *st)
{
	pg_conn *c = st->c;

	int here = c->tx == PQTRANS_IDLE ? !st->ahead_in_tx
	           : c->tx == PQTRANS_INTRANS && st->ahead_in_tx;

	if (!st->ahead || !here || c->gone || st->bind_failed ||
	    !key_matches(st))
		return 0;
	st->res = st->ahead;
	st->borrowed = 1;
	st->row = 0;
	return 1;
}

/* ---- transactions ------------------------------------------------------ */

/* Begins on the server the read-only transaction put off; a loss now is
 * a loss inside the store's transaction. */
static db_code send_begin(pg_conn *c)
{
	c->begin_put_off = 0;
	PGresult *r = PQexec(c->pg, c->begin_sql);
	c->round_trips++;
	db_code rc = pg_take_result(c, r, PG_TX_NONE);

	PQclear(r);
	if (rc == DB_GONE)
		c->lost_tx = 1;
	return rc;
}

int pg_ahead_before_run(pg_conn *c, const char *sql, enum pg_tx_end ends,
                        db_code *rc)
{
	enum pg_begin begins = pg_sql_begins(sql);

	*rc = DB_OK;
	if (c->begin_put_off) {
		if (ends != PG_TX_NONE) {
			/* every read was answered: nothing to end */
			c->begin_put_off = 0;
			c->code = DB_OK;
			c->msg[0] = '\0';
			return 1;
		}
		if ((*rc = send_begin(c)) != DB_OK)
			return 1;
	} else if (begins == PG_BEGIN_READ_ONLY && c->nahead > 0 &&
	           c->tx == PQTRANS_IDLE && !c->gone &&
	           strlen(sql) < sizeof c->begin_sql) {
		memcpy(c->begin_sql, sql, strlen(sql) + 1);
		c->begin_put_off = 1;
		return 1;
	}
	if (begins == PG_BEGIN_OTHER || !pg_sql_retryable(sql))
		pg_read_ahead_drop(&c->head);
	return 0;
}

/* ---- the pipeline ------------------------------------------------------- */

static int send_all(pg_conn *c, pg_stmt *const *st, int n, int in_tx)
{
	if (!in_tx &&
	    !PQsendQueryParams(c->pg, AHEAD_BEGIN, 0, NULL, NULL, NULL, NULL, 0))
		return -1;
	for (int i = 0; i < n; i++)
		if (!PQsendQueryPrepared(c->pg, st[i]->name, st[i]->nparams,
		                         (const char *const *)st[i]->values,
		                         st[i]->lengths, st[i]->formats, 0))
			return -1;
	if (!in_tx &&
	    !PQsendQueryParams(c->pg, "COMMIT", 0, NULL, NULL, NULL, NULL, 0))
		return -1;
	return 0;
}

/* The one result of the next query in the pipeline (NULL: none came,
 * the server is gone), past the NULL that ends it. */
static PGresult *next_result(pg_conn *c)
{
	PGresult *r = PQgetResult(c->pg);

	if (r) {
		PGresult *end = PQgetResult(c->pg);
		if (end) {      /* one statement makes one result */
			PQclear(end);
			PQclear(r);
			return NULL;
		}
	}
	return r;
}

/* Reads the results of the n statements (after BEGIN and before COMMIT
 * outside a transaction), keeping the rows of each that ran; 0 if the
 * pipeline ended as it should. */
static int take_all(pg_conn *c, pg_stmt *const *st, int n, int in_tx)
{
	int first = in_tx ? 0 : 1, queries = n + (in_tx ? 0 : 2);

	for (int q = 0; q < queries; q++) {
		PGresult *r = next_result(c);
		if (!r)
			return -1;
		int i = q - first;
		if (i >= 0 && i < n && PQresultStatus(r) == PGRES_TUPLES_OK)
			keep(st[i], r, in_tx);
		else
			PQclear(r);
	}
	PGresult *sync = PQgetResult(c->pg);
	int ok = sync && PQresultStatus(sync) == PGRES_PIPELINE_SYNC;
	PQclear(sync);
	return ok ? 0 : -1;
}

/* Which of stmts to send: each once, bound, prepared in this session
 * (one prepared in an older one is prepared again when run), and not
 * holding rows read here with these values already. */
static int choose(pg_conn *c, db_stmt *const *stmts, int n, int in_tx,
                  pg_stmt **st)
{
	int k = 0;

	for (int i = 0; i < n && k < PG_AHEAD_MAX; i++) {
		pg_stmt *s = (pg_stmt *)stmts[i];
		int twice = 0;
		for (int j = 0; s && j < k; j++)
			twice |= st[j] == s;
		if (!s || twice || s->bind_failed ||
		    s->generation != c->generation)
			continue;
		if (s->ahead && s->ahead_in_tx == in_tx && key_matches(s))
			continue;
		pg_ahead_forget(s);
		st[k++] = s;
	}
	return k;
}

db_code pg_read_ahead(db_conn *conn, db_stmt *const *stmts, int n)
{
	pg_conn *c = (pg_conn *)conn;
	pg_stmt *st[PG_AHEAD_MAX];
	int in_tx = c->tx == PQTRANS_INTRANS;

	if (c->lost_tx || c->begin_put_off || c->gone ||
	    (c->tx != PQTRANS_IDLE && !in_tx))
		return DB_OK;
	int k = choose(c, stmts, n, in_tx, st);
	if (k == 0)
		return DB_OK;
	if (!PQenterPipelineMode(c->pg))
		return pg_fail(c, DB_ERROR, "reading ahead",
		               PQerrorMessage(c->pg));
	c->round_trips++;
	int sent = send_all(c, st, k, in_tx);
	int synced = PQpipelineSync(c->pg);
	int taken = sent == 0 && synced && take_all(c, st, k, in_tx) == 0;
	if (!taken || !PQexitPipelineMode(c->pg)) {
		/* whatever is left of the pipeline goes with the session */
		pg_read_ahead_drop(conn);
		pg_mark_gone(c, PG_TX_NONE);
		return pg_fail(c, DB_GONE, "reading ahead",
		               PQerrorMessage(c->pg));
	}
	PGTransactionStatusType now = PQtransactionStatus(c->pg);
	/* a statement that failed left our own transaction open, aborted */
	if (!in_tx && now != PQTRANS_IDLE) {
		PGresult *r = PQexec(c->pg, "ROLLBACK");
		c->round_trips++;
		PQclear(r);
		now = PQtransactionStatus(c->pg);
	}
	/* ... or the store's aborted: its statements say so when run */
	if (now != (in_tx ? PQTRANS_INTRANS : PQTRANS_IDLE))
		pg_read_ahead_drop(conn);
	c->tx = now;
	if (!in_tx && c->tx != PQTRANS_IDLE)
		pg_mark_gone(c, PG_TX_NONE);
	c->code = DB_OK;
	c->msg[0] = '\0';
	return DB_OK;
}
