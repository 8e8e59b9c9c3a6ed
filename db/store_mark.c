/*
 * store_mark.c - what a game's table can show that changes, in two small
 * reads by primary key: the game's row joined with its seats, and the
 * times of its newest messages.  No snapshot, no record line: the web
 * layer asks this on every poll of a table left open.
 */
#include <string.h>

#include "sql.h"

/* The game's columns, from the first row. */
static int mark_game(db_stmt *st, store_mark *m)
{
	m->players = db_column_int(st, 0);
	m->seq = db_column_int(st, 1);
	m->status = sql_status_of(db_column_text(st, 2));
	/* a look counts only while the game has not moved on (store_load) */
	if (db_column_int(st, 3) == m->seq &&
	    sql_column_text(st, 5, m->sweep_card, sizeof m->sweep_card) == 0 &&
	    m->sweep_card[0])
		m->sweep_seat = db_column_int(st, 4);
	else
		m->sweep_card[0] = '\0';
	m->turn_seat = db_column_int(st, 6);
	m->turn_since = db_column_int64(st, 7);
	m->reminders = db_column_int(st, 8);
	m->updated = db_column_int64(st, 10);
	m->reviewed = db_column_int(st, 17);
	m->hinted = db_column_int(st, 18);
	m->taken = db_column_int(st, 21);
	return sql_column_text(st, 9, m->rematch, sizeof m->rematch);
}

/* One seat's columns; -1 if the row does not fit. */
static int mark_seat(db_stmt *st, store_mark *m)
{
	int seat = db_column_int(st, 11);

	if (seat < 1 || seat > m->players || seat > BT_MAX_PLAYERS)
		return 0;
	if (sql_column_text(st, 12, m->seats[seat - 1].name,
	                    sizeof m->seats[seat - 1].name))
		return -1;
	m->seats[seat - 1].has_email = db_column_int(st, 13) != 0;
	if (store_notify_parse((const char *)db_column_text(st, 14),
	                       &m->seats[seat - 1].notify))
		m->seats[seat - 1].notify = STORE_NOTIFY_TURN;
	m->seats[seat - 1].token_gen = db_column_int64(st, 15);
	m->seats[seat - 1].nudged = db_column_int64(st, 16);
	m->seats[seat - 1].standin_since = db_column_int64(st, 19);
	m->seats[seat - 1].standin_ask = db_column_int64(st, 20);
	return 0;
}

static store_rc mark_rows(store *s, const char *id, store_mark *m,
                          store_error *err)
{
	db_stmt *st = sql_get(s, SQL_MARK_GAME);
	int rc = DB_DONE, rows = 0, bad = 0;

	db_bind_text(st, 1, id, -1);
	while (!bad && (rc = db_step(st)) == DB_ROW) {
		if (rows++ == 0 && mark_game(st, m))
			bad = 1;
		if (!bad && mark_seat(st, m))
			bad = 1;
	}
	db_reset(st);
	if (bad)
		return store_fail(err, STORE_CORRUPT, "game '%.40s': a field "
		                  "is longer than it may be", id);
	if (rc != DB_DONE && rc != DB_ROW)
		return store_db_fail(s, rc, "reading a game's mark", err);
	return rows ? STORE_OK : store_fail(err, STORE_NOT_FOUND, "no game "
	                                    "'%.40s'", id);
}

static store_rc mark_chat(store *s, const char *id, int chats,
                          store_mark *m, store_error *err)
{
	db_stmt *st = sql_get(s, SQL_MARK_CHAT);
	int rc;

	db_bind_text(st, 1, id, -1);
	db_bind_int(st, 2, chats > 0 ? chats : 1);
	while ((rc = db_step(st)) == DB_ROW) {
		if (m->chat_last < 0)
			m->chat_last = db_column_int(st, 0);
		if (m->chats < chats)
			m->chat_created[m->chats++] = db_column_int64(st, 1);
	}
	db_reset(st);
	return rc == DB_DONE ? STORE_OK
	       : store_db_fail(s, rc, "reading a game's messages", err);
}

/* The games after it down its rematch chain (store_crew's), whose
 * results a finished table's crew panel shows. */
static store_rc mark_crew(store *s, const char *id, store_mark *m,
                          store_error *err)
{
	db_stmt *st = sql_get(s, SQL_MARK_CREW);

	db_bind_text(st, 1, id, -1);
	db_bind_int(st, 2, STORE_CREW_MAX);
	int rc = db_step(st);
	if (rc == DB_ROW) {
		m->crew_later = db_column_int(st, 0);
		m->crew_updated = db_column_int64(st, 1);
		m->crew_seq = db_column_int64(st, 2);
	}
	db_reset(st);
	return rc == DB_ROW ? STORE_OK
	       : store_db_fail(s, rc, "reading a game's crew", err);
}

store_rc store_mark_get(store *s, const char *id, int chats, store_mark *m,
                        store_error *err)
{
	store_rc rc;
	int q;

	memset(m, 0, sizeof *m);
	m->chat_last = -1;
	if (chats < 0 || chats > STORE_MARK_CHATS)
		return store_fail(err, STORE_INVALID, "a mark holds 0 to %d "
		                  "messages", STORE_MARK_CHATS);
	/* one read transaction: one lock of the file, one snapshot */
	if ((q = sql_run(s, SQL_MARK_BEGIN)) != DB_DONE)
		return store_db_fail(s, q, "reading a game's mark", err);
	if ((rc = mark_rows(s, id, m, err)) == STORE_OK)
		rc = mark_chat(s, id, chats, m, err);
	if (rc == STORE_OK && m->rematch[0])
		rc = mark_crew(s, id, m, err);
	sql_rollback(s);
	return rc;
}
