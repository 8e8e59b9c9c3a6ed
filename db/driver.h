/*
 * driver.h - the store's one way to a database engine.
 *
 * A connection prepares statements (parameters numbered ?1 ... ?N, each
 * number usable more than once), binds values by position, steps through
 * the rows a statement makes and reads their columns; the engine's error
 * codes arrive mapped to the few the store acts on.  Two engines:
 * driver_sqlite.c (a file: the default) and driver_pg.c (PostgreSQL,
 * through libpq).  Nothing above db/ sees this layer.
 *
 * The calls mirror SQLite's own, so that the SQLite driver is a thin
 * layer; a NULL statement (one that failed to prepare) is accepted by
 * every call: binds and reads do nothing, db_step returns DB_ERROR and
 * the connection's db_errmsg says why it did not prepare.
 */
#ifndef BT_DRIVER_H
#define BT_DRIVER_H

#include <stddef.h>
#include <stdint.h>

typedef struct db_conn db_conn;
typedef struct db_stmt db_stmt;

typedef enum db_code {
	DB_OK = 0,
	DB_ROW,        /* db_step: a row is ready to read */
	DB_DONE,       /* db_step: the statement ran to its end */
	DB_BUSY,       /* another writer holds the lock, or the engine
	                * gave up on a conflict (deadlock, serialization):
	                * the same work may succeed if tried again */
	DB_CONSTRAINT, /* a UNIQUE, CHECK or FOREIGN KEY constraint */
	DB_FULL,       /* the disk is full: the transaction is undone */
	DB_CORRUPT,    /* not a database, or a damaged one */
	DB_GONE,       /* the server cannot be reached or went away */
	DB_ERROR       /* anything else: db_errmsg says what */
} db_code;

typedef enum db_engine { DB_SQLITE, DB_POSTGRES } db_engine;

/* What a column of the current row holds (db_column_type). */
typedef enum db_type {
	DB_TYPE_NULL, DB_TYPE_INT, DB_TYPE_FLOAT, DB_TYPE_TEXT, DB_TYPE_BLOB
} db_type;

/* What each engine provides.  Statement calls get a non-NULL statement
 * (the inline wrappers below check); columns count from 0 and
 * parameters from 1, as in SQLite. */
struct db_ops {
	db_stmt *(*prepare)(db_conn *c, const char *sql);
	void (*finalize)(db_stmt *st);
	void (*bind_int64)(db_stmt *st, int i, int64_t v);
	void (*bind_double)(db_stmt *st, int i, double v);
	/* copies n bytes of text (n < 0: up to the NUL) */
	void (*bind_text)(db_stmt *st, int i, const char *text, int n);
	/* copies n bytes */
	void (*bind_blob)(db_stmt *st, int i, const void *data, int n);
	void (*bind_null)(db_stmt *st, int i);
	int (*parameter_count)(db_stmt *st);
	db_code (*step)(db_stmt *st);
	/* ends the statement's run and forgets its values */
	void (*reset)(db_stmt *st);
	int (*column_count)(db_stmt *st);
	int (*column_is_null)(db_stmt *st, int col);
	int64_t (*column_int64)(db_stmt *st, int col);
	double (*column_double)(db_stmt *st, int col);
	/* NUL-terminated; NULL for a NULL; valid until the next step or
	 * reset */
	const char *(*column_text)(db_stmt *st, int col);
	const void *(*column_blob)(db_stmt *st, int col);
	int (*column_bytes)(db_stmt *st, int col);
	/* the column's name, and what it holds in the current row */
	const char *(*column_name)(db_stmt *st, int col);
	db_type (*column_type)(db_stmt *st, int col);
	/* rows the last INSERT, UPDATE or DELETE changed */
	int64_t (*changes)(db_conn *c);
	/* runs statements separated by ';' without values (migrations) */
	db_code (*exec)(db_conn *c, const char *script);
	int (*in_transaction)(db_conn *c);
	/* the last error's code and words */
	db_code (*errcode)(db_conn *c);
	const char *(*errmsg)(db_conn *c);
	/* how long a writer waits for another's lock before DB_BUSY */
	void (*set_busy_timeout)(db_conn *c, int ms);
	/* a descriptor that turns readable when another connection queued
	 * work, listening from the first call on; -1 if the engine cannot
	 * say (a file) or the server is out of reach */
	int (*wake_fd)(db_conn *c);
	/* 1 if work was queued since the last call (and forgets it) */
	int (*woken)(db_conn *c);
	/* Sends the n statements, each bound, to the server at once, to
	 * read in one snapshot (outside a transaction) or in the open
	 * transaction; each one's rows then answer its next run with the
	 * same values there (outside, or inside that transaction), until
	 * the connection writes, begins or ends a transaction that may
	 * write, or read_ahead_drop.  What it cannot read ahead is read
	 * when run.  NULL: an engine in the process, which has no round
	 * trips to save. */
	db_code (*read_ahead)(db_conn *c, db_stmt *const *st, int n);
	/* read_ahead, whose rows are also kept for later runs (past
	 * read_ahead_drop) under tag, a game's id, until the server says
	 * that game changed; each later use asks the server once whether
	 * it did.  NULL: as read_ahead. */
	db_code (*read_ahead_kept)(db_conn *c, const char *tag,
	                           db_stmt *const *st, int n);
	void (*read_ahead_drop)(db_conn *c);
	/* news that rows kept changed: a descriptor that turns readable
	 * when some came (-1: none can), and its reading, without waiting
	 * (NULL: an engine that keeps nothing) */
	int (*changes_fd)(db_conn *c);
	void (*changes_read)(db_conn *c);
	/* how many statements hold rows read ahead */
	int (*read_ahead_held)(db_conn *c);
	/* exchanges with the server so far (NULL: an engine in the
	 * process, which makes none) */
	int64_t (*round_trips)(db_conn *c);
	void (*close)(db_conn *c);
};

/* The head of every engine's connection and statement. */
struct db_conn {
	const struct db_ops *ops;
	db_engine engine;
};

struct db_stmt {
	const struct db_ops *ops;
};

/* 1 if target names a PostgreSQL database (postgresql://... or
 * postgres://...), 0 if a file. */
int db_target_is_postgres(const char *target);

/* Opens target, a file (created if missing) or a PostgreSQL URL, into
 * *out: DB_OK, or a code with why (cap bytes) saying why in words for
 * people (DB_CORRUPT: a file that is not a database). */
db_code db_open(const char *target, db_conn **out, char *why, size_t cap);

/* Each engine's open (driver_sqlite.c, driver_pg.c). */
db_code db_sqlite_open(const char *path, db_conn **out, char *why,
                       size_t cap);
db_conn *db_pg_open(const char *url, char *why, size_t cap);

static inline void db_close(db_conn *c)
{
	if (c)
		c->ops->close(c);
}

static inline db_stmt *db_prepare(db_conn *c, const char *sql)
{
	return c->ops->prepare(c, sql);
}

static inline void db_finalize(db_stmt *st)
{
	if (st)
		st->ops->finalize(st);
}

static inline void db_bind_int64(db_stmt *st, int i, int64_t v)
{
	if (st)
		st->ops->bind_int64(st, i, v);
}

static inline void db_bind_int(db_stmt *st, int i, int v)
{
	db_bind_int64(st, i, v);
}

static inline void db_bind_double(db_stmt *st, int i, double v)
{
	if (st)
		st->ops->bind_double(st, i, v);
}

static inline void db_bind_text(db_stmt *st, int i, const char *text, int n)
{
	if (st)
		st->ops->bind_text(st, i, text, n);
}

static inline void db_bind_blob(db_stmt *st, int i, const void *data, int n)
{
	if (st)
		st->ops->bind_blob(st, i, data, n);
}

static inline void db_bind_null(db_stmt *st, int i)
{
	if (st)
		st->ops->bind_null(st, i);
}

static inline int db_parameter_count(db_stmt *st)
{
	return st ? st->ops->parameter_count(st) : 0;
}

static inline db_code db_step(db_stmt *st)
{
	return st ? st->ops->step(st) : DB_ERROR;
}

static inline void db_reset(db_stmt *st)
{
	if (st)
		st->ops->reset(st);
}

static inline int db_column_count(db_stmt *st)
{
	return st ? st->ops->column_count(st) : 0;
}

static inline int db_column_is_null(db_stmt *st, int col)
{
	return st ? st->ops->column_is_null(st, col) : 1;
}

static inline int64_t db_column_int64(db_stmt *st, int col)
{
	return st ? st->ops->column_int64(st, col) : 0;
}

static inline int db_column_int(db_stmt *st, int col)
{
	return (int)db_column_int64(st, col);
}

static inline double db_column_double(db_stmt *st, int col)
{
	return st ? st->ops->column_double(st, col) : 0.0;
}

static inline const char *db_column_text(db_stmt *st, int col)
{
	return st ? st->ops->column_text(st, col) : NULL;
}

static inline const void *db_column_blob(db_stmt *st, int col)
{
	return st ? st->ops->column_blob(st, col) : NULL;
}

static inline int db_column_bytes(db_stmt *st, int col)
{
	return st ? st->ops->column_bytes(st, col) : 0;
}

static inline const char *db_column_name(db_stmt *st, int col)
{
	return st ? st->ops->column_name(st, col) : NULL;
}

static inline db_type db_column_type(db_stmt *st, int col)
{
	return st ? st->ops->column_type(st, col) : DB_TYPE_NULL;
}

static inline int64_t db_changes(db_conn *c)
{
	return c->ops->changes(c);
}

static inline db_code db_exec(db_conn *c, const char *script)
{
	return c->ops->exec(c, script);
}

static inline int db_in_transaction(db_conn *c)
{
	return c->ops->in_transaction(c);
}

static inline db_code db_errcode(db_conn *c)
{
	return c->ops->errcode(c);
}

static inline const char *db_errmsg(db_conn *c)
{
	return c->ops->errmsg(c);
}

static inline void db_set_busy_timeout(db_conn *c, int ms)
{
	if (c->ops->set_busy_timeout)
		c->ops->set_busy_timeout(c, ms);
}

static inline int db_wake_fd(db_conn *c)
{
	return c->ops->wake_fd(c);
}

static inline int db_woken(db_conn *c)
{
	return c->ops->woken(c);
}

static inline db_code db_read_ahead(db_conn *c, db_stmt *const *st, int n)
{
	return c->ops->read_ahead ? c->ops->read_ahead(c, st, n) : DB_OK;
}

static inline db_code db_read_ahead_kept(db_conn *c, const char *tag,
                                         db_stmt *const *st, int n)
{
	return c->ops->read_ahead_kept ? c->ops->read_ahead_kept(c, tag, st, n)
	                               : db_read_ahead(c, st, n);
}

static inline int db_changes_fd(db_conn *c)
{
	return c->ops->changes_fd ? c->ops->changes_fd(c) : -1;
}

static inline void db_changes_read(db_conn *c)
{
	if (c->ops->changes_read)
		c->ops->changes_read(c);
}

static inline void db_read_ahead_drop(db_conn *c)
{
	if (c->ops->read_ahead_drop)
		c->ops->read_ahead_drop(c);
}

static inline int db_read_ahead_held(db_conn *c)
{
	return c->ops->read_ahead_held ? c->ops->read_ahead_held(c) : 0;
}

static inline int64_t db_round_trips(db_conn *c)
{
	return c->ops->round_trips ? c->ops->round_trips(c) : 0;
}

#endif
