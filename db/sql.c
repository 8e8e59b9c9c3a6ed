/*
 * sql.c - all the SQL of the store, prepared once per connection.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "sql.h"

static const char *const sql_text[SQL__MAX] = {
	[SQL_BEGIN] = "BEGIN IMMEDIATE",
	[SQL_COMMIT] = "COMMIT",
	[SQL_ROLLBACK] = "ROLLBACK",
	[SQL_GAME_INSERT] =
		"INSERT INTO games (id, created, updated, players, first_seat,"
		" seed, header, options, seq, status, snapshot, snapshot_seq,"
		" snapshot_format) VALUES (?1, ?2, ?2, ?3, ?4, ?5, ?6, ?7, ?8,"
		" ?9, ?10, ?8, ?11)",
	[SQL_SEAT_INSERT] =
		"INSERT INTO seats (game, seat, name, email)"
		" VALUES (?1, ?2, ?3, ?4)",
	[SQL_ACTION_INSERT] =
		"INSERT INTO actions (game, seq, seat, line, created)"
		" VALUES (?1, ?2, ?3, ?4, ?5)",
	[SQL_GAME_GET] =
		"SELECT created, players, first_seat, seed, header, options,"
		" seq, snapshot, snapshot_seq, snapshot_format, sweep_seq,"
		" sweep_seat, sweep_card FROM games WHERE id = ?1",
	[SQL_SEATS_GET] =
		"SELECT seat, name, email, token_gen, last_seen FROM seats"
		" WHERE game = ?1 ORDER BY seat",
	[SQL_ACTIONS_GET] =
		"SELECT seq, seat, line FROM actions WHERE game = ?1"
		" ORDER BY seq",
	[SQL_GAME_ADVANCE] =
		"UPDATE games SET seq = ?2 + 1, updated = ?3, status = ?4,"
		" snapshot = ?5, snapshot_seq = ?2 + 1, snapshot_format = ?6"
		" WHERE id = ?1 AND seq = ?2",
	[SQL_OUTBOX_INSERT] =
		"INSERT INTO outbox (game, seat, recipient, subject, body,"
		" created, next_attempt) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?6)",
	[SQL_SEAT_REVOKE] =
		"UPDATE seats SET token_gen = token_gen + 1"
		" WHERE game = ?1 AND seat = ?2 RETURNING token_gen",
	[SQL_GAME_LIST] =
		"SELECT id, created, updated, players, seq, status FROM games"
		" ORDER BY created DESC, id",
	[SQL_ACTION_COUNT] =
		"SELECT count(*) FROM actions WHERE game = ?1",
	[SQL_SWEEP_SET] =
		"UPDATE games SET sweep_seq = ?2, sweep_seat = ?3,"
		" sweep_card = ?4 WHERE id = ?1 AND seq = ?2",
	[SQL_SEAT_TOUCH] =
		"UPDATE seats SET last_seen = ?3 WHERE game = ?1 AND seat = ?2",
};

store_rc store_fail(store_error *err, store_rc rc, const char *fmt, ...)
{
	if (err) {
		va_list ap;

		err->rc = rc;
		va_start(ap, fmt);
		vsnprintf(err->why, sizeof err->why, fmt, ap);
		va_end(ap);
	}
	return rc;
}

store_rc store_sqlite_fail(store *s, int code, const char *what,
                           store_error *err)
{
	store_rc rc;

	switch (code & 0xff) {
	case SQLITE_BUSY:
	case SQLITE_LOCKED:
		rc = STORE_BUSY;
		break;
	case SQLITE_CORRUPT:
	case SQLITE_NOTADB:
		rc = STORE_CORRUPT;
		break;
	default:
		rc = STORE_ERROR;
	}
	if (rc == STORE_BUSY)
		return store_fail(err, rc, "%s: the database is locked by "
		                  "another writer; try again", what);
	return store_fail(err, rc, "%s: %s", what,
	                  s && s->db ? sqlite3_errmsg(s->db)
	                             : sqlite3_errstr(code));
}

int sql_prepare_all(store *s)
{
	for (int i = 0; i < SQL__MAX; i++) {
		int rc = sqlite3_prepare_v3(s->db, sql_text[i], -1,
		                            SQLITE_PREPARE_PERSISTENT,
		                            &s->stmt[i], NULL);
		if (rc != SQLITE_OK)
			return rc;
	}
	return SQLITE_OK;
}

void sql_finalize_all(store *s)
{
	for (int i = 0; i < SQL__MAX; i++) {
		sqlite3_finalize(s->stmt[i]);
		s->stmt[i] = NULL;
	}
}

sqlite3_stmt *sql_get(store *s, enum sql_stmt which)
{
	sqlite3_stmt *st = s->stmt[which];

	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	return st;
}

int sql_bind_text(sqlite3_stmt *st, int col, const char *text, int n)
{
	return sqlite3_bind_text(st, col, text, n, SQLITE_TRANSIENT);
}

int sql_run(store *s, enum sql_stmt which)
{
	int rc = sqlite3_step(s->stmt[which]);

	sqlite3_reset(s->stmt[which]);
	return rc;
}

store_rc sql_begin(store *s, store_error *err)
{
	int rc = sql_run(s, SQL_BEGIN);
	return rc == SQLITE_DONE ? STORE_OK
	                         : store_sqlite_fail(s, rc, "begin", err);
}

store_rc sql_commit(store *s, store_error *err)
{
	int rc = sql_run(s, SQL_COMMIT);

	if (rc == SQLITE_DONE)
		return STORE_OK;
	store_rc out = store_sqlite_fail(s, rc, "commit", err);
	sql_rollback(s);
	return out;
}

void sql_rollback(store *s)
{
	if (!sqlite3_get_autocommit(s->db))
		sql_run(s, SQL_ROLLBACK);
}

int sql_column_text(sqlite3_stmt *st, int col, char *buf, size_t cap)
{
	const unsigned char *t = sqlite3_column_text(st, col);
	size_t n = (size_t)sqlite3_column_bytes(st, col);

	if (!t)
		n = 0;
	if (n >= cap) {
		buf[0] = '\0';
		return -1;
	}
	if (n)
		memcpy(buf, t, n);
	buf[n] = '\0';
	return 0;
}
