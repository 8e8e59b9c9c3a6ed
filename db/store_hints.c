/*
 * store_hints.c - a practice table's hints: the job queued with the
 * move that gives a person the turn, and each option's chance of winning
 * as the worker puts them in (store.h says what they mean).
 */
#include <string.h>

#include "sql.h"

store_rc sql_queue_hints(store *s, const char *id, int practice,
                         const char *bot, const bt_game *state, int seq,
                         store_error *err)
{
	if (!practice || state->status != BT_PLAYING || (bot && bot[0]))
		return STORE_OK;
	db_stmt *st = sql_get(s, SQL_HINTS_QUEUE);
	db_bind_text(st, 1, id, -1);
	db_bind_int(st, 2, seq);
	db_bind_int(st, 3, state->turn);
	db_bind_int64(st, 4, store_now());
	int rc = sql_run(s, SQL_HINTS_QUEUE);
	return rc == DB_DONE ? STORE_OK
	       : store_db_fail(s, rc, "queueing the hints", err);
}

static int hint_ok(const store_hint *h)
{
	return h->chance >= 0.0 && h->chance <= 1.0 && h->games >= 0 &&
	       memchr(h->action, '\0', sizeof h->action) && h->action[0];
}

static store_rc put_one(store *s, const char *id, int seq, int option,
                        const store_hint *h, store_error *err)
{
	db_stmt *st = sql_get(s, SQL_HINT_PUT);

	db_bind_text(st, 1, id, -1);
	db_bind_int(st, 2, seq);
	db_bind_int(st, 3, option);
	db_bind_text(st, 4, h->action, -1);
	db_bind_int(st, 5, h->verb);
	db_bind_int(st, 6, h->card);
	db_bind_double(st, 7, h->chance);
	db_bind_int(st, 8, h->games);
	int rc = sql_run(s, SQL_HINT_PUT);
	return rc == DB_DONE ? STORE_OK
	       : store_db_fail(s, rc, "keeping a hint", err);
}

store_rc store_hints_put(store *s, const char *id, int seq,
                         const store_hint *h, int n, store_error *err)
{
	store_rc rc;

	if (n < 0 || n > STORE_HINTS_MAX)
		return store_fail(err, STORE_INVALID, "too many hints");
	for (int i = 0; i < n; i++)
		if (!hint_ok(&h[i]))
			return store_fail(err, STORE_INVALID, "a hint out of "
			                  "range");
	if ((rc = sql_begin(s, err)))
		return rc;
	db_stmt *st = sql_get(s, SQL_HINTS_DROP);
	db_bind_text(st, 1, id, -1);
	db_bind_int(st, 2, seq);
	int q = sql_run(s, SQL_HINTS_DROP);
	rc = q == DB_DONE ? STORE_OK
	     : store_db_fail(s, q, "replacing the hints", err);
	for (int i = 0; i < n && rc == STORE_OK; i++)
		rc = put_one(s, id, seq, i, &h[i], err);
	if (rc) {
		sql_rollback(s);
		return rc;
	}
	return sql_commit(s, err);
}

store_rc store_hints_get(store *s, const char *id, int seq, store_hint *out,
                         int cap, int *n, store_error *err)
{
	db_stmt *st = sql_get(s, SQL_HINTS_GET);
	int rc, bad = 0;

	*n = 0;
	db_bind_text(st, 1, id, -1);
	db_bind_int(st, 2, seq);
	db_bind_int(st, 3, cap > 0 ? cap : 0);
	while ((rc = db_step(st)) == DB_ROW && *n < cap) {
		store_hint *h = &out[*n];
		if (sql_column_text(st, 0, h->action, sizeof h->action)) {
			bad = 1;
			break;
		}
		h->verb = db_column_int(st, 1);
		h->card = db_column_int(st, 2);
		h->chance = db_column_double(st, 3);
		h->games = db_column_int(st, 4);
		(*n)++;
	}
	db_reset(st);
	if (bad)
		return store_fail(err, STORE_CORRUPT, "a damaged hint row");
	return rc == DB_ROW || rc == DB_DONE ? STORE_OK
	       : store_db_fail(s, rc, "reading the hints", err);
}
