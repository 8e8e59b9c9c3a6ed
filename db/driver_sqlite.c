/*
 * driver_sqlite.c - the SQLite engine of driver.h: a file, opened in WAL
 * mode with foreign keys on and synchronous=FULL, each call a thin layer
 * over SQLite's own.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <sodium.h>

#include "driver_sqlite.h"

/* How long a writer waits for the lock unless told otherwise (ms). */
enum { DEFAULT_BUSY_TIMEOUT_MS = 5000 };

typedef struct lite_conn {
	struct db_conn head;
	sqlite3 *db;
	int busy_timeout_ms;
	int64_t busy_since_ns;   /* when the current wait began */
} lite_conn;

typedef struct lite_stmt {
	struct db_stmt head;
	sqlite3_stmt *st;
} lite_stmt;

static const struct db_ops lite_ops;

static sqlite3_stmt *raw(db_stmt *st)
{
	return ((lite_stmt *)st)->st;
}

static sqlite3 *conn_db(db_conn *c)
{
	return ((lite_conn *)c)->db;
}

static db_code code_of(int rc)
{
	switch (rc & 0xff) {
	case SQLITE_OK:
		return DB_OK;
	case SQLITE_ROW:
		return DB_ROW;
	case SQLITE_DONE:
		return DB_DONE;
	case SQLITE_BUSY:
	case SQLITE_LOCKED:
		return DB_BUSY;
	case SQLITE_CONSTRAINT:
		return DB_CONSTRAINT;
	case SQLITE_FULL:
		return DB_FULL;
	case SQLITE_CORRUPT:
	case SQLITE_NOTADB:
		return DB_CORRUPT;
	default:
		return DB_ERROR;
	}
}

static db_stmt *lite_prepare(db_conn *c, const char *sql)
{
	lite_stmt *s = malloc(sizeof *s);
	sqlite3_stmt *st = NULL;

	if (!s)
		return NULL;
	/* The store prepares each statement once per connection. */
	if (sqlite3_prepare_v3(conn_db(c), sql, -1, SQLITE_PREPARE_PERSISTENT,
	                       &st, NULL) != SQLITE_OK || !st) {
		sqlite3_finalize(st);
		free(s);
		return NULL;
	}
	s->head.ops = &lite_ops;
	s->st = st;
	return &s->head;
}

static void lite_finalize(db_stmt *st)
{
	sqlite3_finalize(raw(st));
	free(st);
}

static void lite_bind_int64(db_stmt *st, int i, int64_t v)
{
	sqlite3_bind_int64(raw(st), i, v);
}

static void lite_bind_double(db_stmt *st, int i, double v)
{
	sqlite3_bind_double(raw(st), i, v);
}

static void lite_bind_text(db_stmt *st, int i, const char *text, int n)
{
	sqlite3_bind_text(raw(st), i, text, n, SQLITE_TRANSIENT);
}

static void lite_bind_blob(db_stmt *st, int i, const void *data, int n)
{
	sqlite3_bind_blob(raw(st), i, data, n, SQLITE_TRANSIENT);
}

static void lite_bind_null(db_stmt *st, int i)
{
	sqlite3_bind_null(raw(st), i);
}

static int lite_parameter_count(db_stmt *st)
{
	return sqlite3_bind_parameter_count(raw(st));
}

static db_code lite_step(db_stmt *st)
{
	return code_of(sqlite3_step(raw(st)));
}

static void lite_reset(db_stmt *st)
{
	sqlite3_reset(raw(st));
	sqlite3_clear_bindings(raw(st));
}

static int lite_column_count(db_stmt *st)
{
	return sqlite3_column_count(raw(st));
}

static int lite_column_is_null(db_stmt *st, int col)
{
	return sqlite3_column_type(raw(st), col) == SQLITE_NULL;
}

static int64_t lite_column_int64(db_stmt *st, int col)
{
	return sqlite3_column_int64(raw(st), col);
}

static double lite_column_double(db_stmt *st, int col)
{
	return sqlite3_column_double(raw(st), col);
}

static const char *lite_column_text(db_stmt *st, int col)
{
	return (const char *)sqlite3_column_text(raw(st), col);
}

static const void *lite_column_blob(db_stmt *st, int col)
{
	return sqlite3_column_blob(raw(st), col);
}

static int lite_column_bytes(db_stmt *st, int col)
{
	return sqlite3_column_bytes(raw(st), col);
}

static const char *lite_column_name(db_stmt *st, int col)
{
	return sqlite3_column_name(raw(st), col);
}

static db_type lite_column_type(db_stmt *st, int col)
{
	switch (sqlite3_column_type(raw(st), col)) {
	case SQLITE_INTEGER:
		return DB_TYPE_INT;
	case SQLITE_FLOAT:
		return DB_TYPE_FLOAT;
	case SQLITE_TEXT:
		return DB_TYPE_TEXT;
	case SQLITE_BLOB:
		return DB_TYPE_BLOB;
	default:
		return DB_TYPE_NULL;
	}
}

static int64_t lite_changes(db_conn *c)
{
	return sqlite3_changes64(conn_db(c));
}

static db_code lite_exec(db_conn *c, const char *script)
{
	return code_of(sqlite3_exec(conn_db(c), script, NULL, NULL, NULL));
}

static int lite_in_transaction(db_conn *c)
{
	return !sqlite3_get_autocommit(conn_db(c));
}

static db_code lite_errcode(db_conn *c)
{
	return code_of(sqlite3_errcode(conn_db(c)));
}

static const char *lite_errmsg(db_conn *c)
{
	return sqlite3_errmsg(conn_db(c));
}

static void lite_set_busy_timeout(db_conn *c, int ms)
{
	((lite_conn *)c)->busy_timeout_ms = ms > 0 ? ms : 0;
}

/* A file's work is queued on the same machine, whose one worker looks
 * each second: nothing to listen to. */
static int lite_wake_fd(db_conn *c)
{
	(void)c;
	return -1;
}

static int lite_woken(db_conn *c)
{
	(void)c;
	return 0;
}

static void lite_close(db_conn *c)
{
	sqlite3_close(conn_db(c));
	free(c);
}

static const struct db_ops lite_ops = {
	.prepare = lite_prepare,
	.finalize = lite_finalize,
	.bind_int64 = lite_bind_int64,
	.bind_double = lite_bind_double,
	.bind_text = lite_bind_text,
	.bind_blob = lite_bind_blob,
	.bind_null = lite_bind_null,
	.parameter_count = lite_parameter_count,
	.step = lite_step,
	.reset = lite_reset,
	.column_count = lite_column_count,
	.column_is_null = lite_column_is_null,
	.column_int64 = lite_column_int64,
	.column_double = lite_column_double,
	.column_text = lite_column_text,
	.column_blob = lite_column_blob,
	.column_bytes = lite_column_bytes,
	.column_name = lite_column_name,
	.column_type = lite_column_type,
	.changes = lite_changes,
	.exec = lite_exec,
	.in_transaction = lite_in_transaction,
	.errcode = lite_errcode,
	.errmsg = lite_errmsg,
	.set_busy_timeout = lite_set_busy_timeout,
	.wake_fd = lite_wake_fd,
	.woken = lite_woken,
	.close = lite_close,
};

static int64_t monotonic_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

/*
 * SQLite's own busy timeout sleeps longer and longer (up to 100 ms), so
 * under contention the writers that are awake keep taking the lock and a
 * waiting one can starve past its timeout.  Short sleeps with jitter give
 * every waiting writer its turn soon after the lock is free.
 */
static int busy_wait(void *arg, int count)
{
	lite_conn *c = arg;
	int64_t now = monotonic_ns();

	if (count == 0)
		c->busy_since_ns = now;
	if (now - c->busy_since_ns >= (int64_t)c->busy_timeout_ms * 1000000)
		return 0;
	struct timespec pause = { 0, 250000 + (long)randombytes_uniform(750000) };
	nanosleep(&pause, NULL);
	return 1;
}

/* Reads the schema once: a file that is not a database fails here
 * rather than halfway through a migration. */
static db_code probe(lite_conn *c, const char *path, char *why, size_t cap)
{
	int rc = sqlite3_exec(c->db, "SELECT count(*) FROM sqlite_schema",
	                      NULL, NULL, NULL);
	db_code code = code_of(rc);
	if (code == DB_CORRUPT)
		snprintf(why, cap, "%s", sqlite3_errmsg(c->db));
	else if (code != DB_OK)
		snprintf(why, cap, "opening %s: %s", path,
		         sqlite3_errmsg(c->db));
	return code;
}

/* WAL lets readers go on while one process writes.  Changing the
 * journal mode needs a lock, so it waits like everything else. */
static db_code set_wal(lite_conn *c, char *why, size_t cap)
{
	sqlite3_stmt *st;
	int rc = sqlite3_prepare_v2(c->db, "PRAGMA journal_mode = WAL", -1,
	                            &st, NULL);
	if (rc == SQLITE_OK) {
		rc = sqlite3_step(st);
		if (rc == SQLITE_ROW && strcmp((const char *)
		    sqlite3_column_text(st, 0), "wal") != 0)
			rc = SQLITE_CANTOPEN;
		else if (rc == SQLITE_ROW)
			rc = SQLITE_OK;
		sqlite3_finalize(st);
	}
	if (rc != SQLITE_OK)
		snprintf(why, cap, "setting WAL mode: %s",
		         sqlite3_errmsg(c->db));
	return code_of(rc);
}

/* The settings every connection runs with.  synchronous=FULL: a commit
 * that returned is on disk, even through a power cut (README). */
static const char pragmas[] =
	"PRAGMA foreign_keys = ON;"
	"PRAGMA synchronous = FULL;";

static db_code configure(lite_conn *c, const char *path, char *why,
                         size_t cap)
{
	db_code rc;

	sqlite3_extended_result_codes(c->db, 1);
	sqlite3_busy_handler(c->db, busy_wait, c);
	if ((rc = probe(c, path, why, cap)) || (rc = set_wal(c, why, cap)))
		return rc;
	int code = sqlite3_exec(c->db, pragmas, NULL, NULL, NULL);
	if (code != SQLITE_OK)
		snprintf(why, cap, "settings: %s", sqlite3_errmsg(c->db));
	return code_of(code);
}

db_code db_sqlite_open(const char *path, db_conn **out, char *why,
                       size_t cap)
{
	*out = NULL;
	if (sodium_init() < 0) {
		snprintf(why, cap, "libsodium failed to initialise");
		return DB_ERROR;
	}
	lite_conn *c = calloc(1, sizeof *c);
	if (!c) {
		snprintf(why, cap, "out of memory");
		return DB_ERROR;
	}
	c->head.ops = &lite_ops;
	c->head.engine = DB_SQLITE;
	c->busy_timeout_ms = DEFAULT_BUSY_TIMEOUT_MS;
	int code = sqlite3_open_v2(path, &c->db, SQLITE_OPEN_READWRITE |
	                           SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX,
	                           NULL);
	db_code rc = DB_OK;
	if (code != SQLITE_OK) {
		snprintf(why, cap, "cannot open %s: %s (its folder must exist "
		         "and be writable)", path, sqlite3_errstr(code));
		rc = DB_ERROR;
	} else {
		rc = configure(c, path, why, cap);
	}
	if (rc != DB_OK) {
		lite_close(&c->head);
		return rc;
	}
	*out = &c->head;
	return DB_OK;
}

sqlite3 *db_sqlite_handle(db_conn *c)
{
	return c && c->engine == DB_SQLITE ? conn_db(c) : NULL;
}

int db_sqlite_moved(db_conn *c)
{
	int moved = 0;

	/* In WAL mode SQLite does not refuse writes to a file deleted or
	 * moved away under the open connection: they would be lost. */
	return sqlite3_file_control(conn_db(c), "main",
	                            SQLITE_FCNTL_HAS_MOVED, &moved) == SQLITE_OK
	       && moved;
}
