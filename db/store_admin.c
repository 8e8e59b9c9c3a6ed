/*
 * store_admin.c - the whole store at once: listing games, online backups,
 * and checking that every game still replays to its snapshot.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "driver_sqlite.h"
#include "sql.h"

store_rc store_list(store *s, int (*fn)(void *ctx, const store_summary *g),
                    void *ctx, store_error *err)
{
	db_stmt *st = sql_get(s, SQL_GAME_LIST);
	store_summary g;
	int rc;

	while ((rc = db_step(st)) == DB_ROW) {
		memset(&g, 0, sizeof g);
		sql_column_text(st, 0, g.id, sizeof g.id);
		g.created = db_column_int64(st, 1);
		g.updated = db_column_int64(st, 2);
		g.players = db_column_int(st, 3);
		g.seq = db_column_int(st, 4);
		g.status = sql_status_of(db_column_text(st, 5));
		if (fn(ctx, &g)) {
			rc = DB_DONE;
			break;
		}
	}
	db_reset(st);
	return rc == DB_DONE ? STORE_OK
	                     : store_db_fail(s, rc, "listing games", err);
}

store_rc store_backup(store *s, const char *path, store_error *err)
{
	sqlite3 *dst = NULL;

	if (s->db->engine != DB_SQLITE)
		return store_fail(err, STORE_INVALID, "backup to %s: a "
		                  "PostgreSQL database is backed up by its "
		                  "server (pg_dump)", path);

	/* Creating the file ourselves, exclusively, means a backup never
	 * overwrites or follows anything, and removing a failed one only
	 * ever removes our own file. */
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0600);
	if (fd < 0)
		return store_fail(err, STORE_INVALID, "backup to %s: %s%s",
		                  path, strerror(errno), errno == EEXIST ?
		                  " (a backup never overwrites a file)" : "");
	close(fd);
	int rc = sqlite3_open_v2(path, &dst, SQLITE_OPEN_READWRITE, NULL);
	if (rc == SQLITE_OK) {
		/* One step copies everything under one read transaction, so
		 * the copy is a consistent snapshot while writers go on. */
		sqlite3_backup *b = sqlite3_backup_init(dst, "main",
		                        db_sqlite_handle(s->db), "main");
		if (!b) {
			rc = sqlite3_errcode(dst);
		} else {
			rc = sqlite3_backup_step(b, -1);
			int fin = sqlite3_backup_finish(b);
			rc = rc == SQLITE_DONE ? fin : rc;
		}
	}
	store_rc out = rc == SQLITE_OK ? STORE_OK
	               : store_fail(err, STORE_ERROR, "backup to %s: %s",
	                            path, sqlite3_errstr(rc));
	sqlite3_close(dst);
	if (out != STORE_OK)
		remove(path);
	return out;
}

typedef void (*report_fn)(void *ctx, const char *line);

/* Runs a pragma that answers "ok" or one row per problem. */
static int pragma_problems(store *s, const char *sql, report_fn report,
                           void *ctx)
{
	db_stmt *st;
	int problems = 0, rc;

	if (!(st = db_prepare(s->db, sql))) {
		if (report)
			report(ctx, db_errmsg(s->db));
		return 1;
	}
	while ((rc = db_step(st)) == DB_ROW) {
		const char *row = db_column_text(st, 0);
		if (row && !strcmp(row, "ok"))
			continue;
		problems++;
		if (report)
			report(ctx, row ? row : "(a problem without text)");
	}
	if (rc != DB_DONE) {
		problems++;
		if (report)
			report(ctx, db_errmsg(s->db));
	}
	db_finalize(st);
	return problems;
}

/* Replays one game from its seed and compares it with its snapshot. */
static int check_game(store *s, const char *id, report_fn report, void *ctx)
{
	store_game *g = s->scratch;
	store_error err;
	char line[400];
	bt_game snap;

	if (store_load(s, id, g, &err) != STORE_OK) {
		snprintf(line, sizeof line, "game %s: %s", id, err.why);
	} else {
		snap = g->state;
		if (store_load_replayed(s, id, g, &err) != STORE_OK)
			snprintf(line, sizeof line, "game %s: %s", id, err.why);
		else if (memcmp(&snap, &g->state, sizeof snap))
			snprintf(line, sizeof line, "game %s: its snapshot "
			         "differs from its replay", id);
		else
			return 0;
	}
	if (report)
		report(ctx, line);
	return 1;
}


store_rc store_check(store *s, report_fn report, void *ctx, store_error *err)
{
	int problems = 0;

	/* A file's own pages and keys; a PostgreSQL server checks its own
	 * (its constraints hold on every write). */
	if (s->db->engine == DB_SQLITE)
		problems = pragma_problems(s, "PRAGMA integrity_check",
		                           report, ctx);
	if (s->db->engine == DB_SQLITE && !problems)
		problems += pragma_problems(s, "PRAGMA foreign_key_check",
		                            report, ctx);
	/* A statement of its own: checking a game runs the table's. */
	db_stmt *st = db_prepare(s->db, "SELECT id FROM games ORDER BY id");
	db_code rc = st ? DB_OK : db_errcode(s->db);
	while (rc == DB_OK && (rc = db_step(st)) == DB_ROW) {
		char id[STORE_ID_LEN + 1];
		if (sql_column_text(st, 0, id, sizeof id))
			problems++;
		else
			problems += check_game(s, id, report, ctx);
		rc = DB_OK;
	}
	db_finalize(st);
	if (rc != DB_DONE && rc != DB_OK)
		return store_db_fail(s, rc, "checking", err);
	return problems ? store_fail(err, STORE_CORRUPT, "%d problem%s found",
	                             problems, problems == 1 ? "" : "s")
	                : STORE_OK;
}
