/*
 * store_admin.c - the whole store at once: listing games, online backups,
 * and checking that every game still replays to its snapshot.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "sql.h"

store_rc store_list(store *s, int (*fn)(void *ctx, const store_summary *g),
                    void *ctx, store_error *err)
{
	sqlite3_stmt *st = sql_get(s, SQL_GAME_LIST);
	store_summary g;
	int rc;

	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		memset(&g, 0, sizeof g);
		sql_column_text(st, 0, g.id, sizeof g.id);
		g.created = sqlite3_column_int64(st, 1);
		g.updated = sqlite3_column_int64(st, 2);
		g.players = sqlite3_column_int(st, 3);
		g.seq = sqlite3_column_int(st, 4);
		g.status = sql_status_of(sqlite3_column_text(st, 5));
		if (fn(ctx, &g)) {
			rc = SQLITE_DONE;
			break;
		}
	}
	sqlite3_reset(st);
	return rc == SQLITE_DONE ? STORE_OK
	                         : store_sqlite_fail(s, rc, "listing games", err);
}

store_rc store_backup(store *s, const char *path, store_error *err)
{
	sqlite3 *dst = NULL;

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
		sqlite3_backup *b = sqlite3_backup_init(dst, "main", s->db,
		                                        "main");
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
	sqlite3_stmt *st;
	int problems = 0, rc;

	if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) != SQLITE_OK) {
		if (report)
			report(ctx, sqlite3_errmsg(s->db));
		return 1;
	}
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *row = (const char *)sqlite3_column_text(st, 0);
		if (row && !strcmp(row, "ok"))
			continue;
		problems++;
		if (report)
			report(ctx, row ? row : "(a problem without text)");
	}
	if (rc != SQLITE_DONE) {
		problems++;
		if (report)
			report(ctx, sqlite3_errmsg(s->db));
	}
	sqlite3_finalize(st);
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
	int problems = pragma_problems(s, "PRAGMA integrity_check", report, ctx);

	if (!problems)
		problems += pragma_problems(s, "PRAGMA foreign_key_check",
		                            report, ctx);
	/* A statement of its own: checking a game runs the table's. */
	sqlite3_stmt *st;
	int rc = sqlite3_prepare_v2(s->db, "SELECT id FROM games ORDER BY id",
	                            -1, &st, NULL);
	while (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		char id[STORE_ID_LEN + 1];
		if (sql_column_text(st, 0, id, sizeof id))
			problems++;
		else
			problems += check_game(s, id, report, ctx);
		rc = SQLITE_OK;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE && rc != SQLITE_OK)
		return store_sqlite_fail(s, rc, "checking", err);
	return problems ? store_fail(err, STORE_CORRUPT, "%d problem%s found",
	                             problems, problems == 1 ? "" : "s")
	                : STORE_OK;
}
