/*
 * store_copy.c - moving an instance: every row of every table of one
 * store into another, empty one, whatever their engines (a file to a
 * PostgreSQL server and back).  Rows go column by column, by name, each
 * value as the kind it is; the source is read in one snapshot and the
 * target written in one transaction, so a copy that fails leaves the
 * target as empty as it was.
 */
#include <stdio.h>
#include <string.h>

#include <sodium.h>

#include "sql.h"

/* Every table of the schema, each after the tables it refers to.  A
 * migration that adds a table adds it here: a copy refuses a source
 * with a table it does not know (tables_known). */
static const char *const tables[] = {
	"games", "seats", "actions", "taken_back", "chat", "outbox", "jobs",
	"review_moves", "hints", "creations", "replies", "blocked",
	"limit_events", "signin_links", "signins", "push_subs", "notices",
	"game_hooks",
};
enum { NTABLES = sizeof tables / sizeof tables[0] };

/* Room for one table's SELECT or INSERT, whose words are the program's
 * own (table and column names, never a value). */
enum { COPY_SQL_MAX = 2048 };

static int is_pg(const store *s)
{
	return s->db->engine == DB_POSTGRES;
}

static int known_table(const char *name)
{
	for (int i = 0; i < NTABLES; i++)
		if (name && !strcmp(name, tables[i]))
			return 1;
	return 0;
}

/* STORE_OK if every table of s is one the copy knows. */
static store_rc tables_known(store *s, const char *which,
                             store_error *err)
{
	const char *sql = is_pg(s)
		? "SELECT tablename FROM pg_catalog.pg_tables"
		  " WHERE schemaname = current_schema()"
		  " AND tablename <> 'buffertime_schema'"
		: "SELECT name FROM sqlite_schema WHERE type = 'table'"
		  " AND name NOT LIKE 'sqlite_%'";
	db_stmt *st = db_prepare(s->db, sql);
	store_rc rc = STORE_OK;
	db_code code;

	if (!st)
		return store_db_fail(s, db_errcode(s->db), "listing tables",
		                     err);
	while ((code = db_step(st)) == DB_ROW && rc == STORE_OK)
		if (!known_table(db_column_text(st, 0)))
			rc = store_fail(err, STORE_INVALID, "the %s has a table "
			                "this program does not know (%.64s): "
			                "copy with the program that made it",
			                which, db_column_text(st, 0));
	if (rc == STORE_OK && code != DB_DONE)
		rc = store_db_fail(s, code, "listing tables", err);
	db_finalize(st);
	return rc;
}

/* The rows of table in s, or -1 (err). */
static long long count_rows(store *s, const char *table, store_error *err)
{
	char sql[128];
	long long n = -1;

	snprintf(sql, sizeof sql, "SELECT count(*) FROM %s", table);
	db_stmt *st = db_prepare(s->db, sql);
	db_code code = db_step(st);
	if (code == DB_ROW)
		n = db_column_int64(st, 0);
	else
		store_db_fail(s, (int)(st ? code : db_errcode(s->db)),
		              "counting rows", err);
	db_finalize(st);
	return n;
}

static store_rc target_empty(store *to, store_error *err)
{
	for (int i = 0; i < NTABLES; i++) {
		long long n = count_rows(to, tables[i], err);
		if (n < 0)
			return err->rc;
		if (n > 0)
			return store_fail(err, STORE_INVALID, "the target is not "
			                  "empty (%s has %lld rows): a copy goes "
			                  "only into a new database", tables[i], n);
	}
	return STORE_OK;
}

/* 1 if name is a column name as the schema spells them (lower case,
 * digits, '_'), so that it goes into SQL as it is: a hand-made source's
 * other names are refused, not quoted. */
static int plain_name(const char *name)
{
	if (!name || !*name || strlen(name) > 63)
		return 0;
	for (const char *p = name; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') ||
		      *p == '_'))
			return 0;
	return 1;
}

/* INSERT INTO table (its columns as src names them) VALUES (?1 ...):
 * 0, or -1 if a name is not plain or the statement does not fit. */
static int insert_sql(db_stmt *src, const char *table, char *sql,
                      size_t cap)
{
	int ncols = db_column_count(src);
	size_t at = (size_t)snprintf(sql, cap, "INSERT INTO %s (", table);

	for (int c = 0; c < ncols; c++)
		if (!plain_name(db_column_name(src, c)))
			return -1;
	for (int c = 0; c < ncols && at < cap; c++)
		at += (size_t)snprintf(sql + at, cap - at, "%s\"%s\"",
		                       c ? ", " : "", db_column_name(src, c));
	for (int c = 0; c < ncols && at < cap; c++)
		at += (size_t)snprintf(sql + at, cap - at, "%s?%d",
		                       c ? ", " : ") VALUES (", c + 1);
	if (at < cap)
		at += (size_t)snprintf(sql + at, cap - at, ")");
	return ncols > 0 && at < cap ? 0 : -1;
}

/* Binds the current row of src, column by column, to ins. */
static void bind_row(db_stmt *src, db_stmt *ins)
{
	int ncols = db_column_count(src);

	for (int c = 0; c < ncols; c++) {
		switch (db_column_type(src, c)) {
		case DB_TYPE_INT:
			db_bind_int64(ins, c + 1, db_column_int64(src, c));
			break;
		case DB_TYPE_FLOAT:
			db_bind_double(ins, c + 1, db_column_double(src, c));
			break;
		case DB_TYPE_TEXT:
			db_bind_text(ins, c + 1, db_column_text(src, c),
			             db_column_bytes(src, c));
			break;
		case DB_TYPE_BLOB:
			db_bind_blob(ins, c + 1, db_column_blob(src, c),
			             db_column_bytes(src, c));
			break;
		default:
			db_bind_null(ins, c + 1);
		}
	}
}

/* Copies table's rows; *rows counts them. */
static store_rc copy_table(store *from, store *to, const char *table,
                           long long *rows, store_error *err)
{
	char sql[COPY_SQL_MAX];
	db_stmt *ins = NULL;
	db_code code = DB_DONE;
	store_rc rc = STORE_OK;

	*rows = 0;
	snprintf(sql, sizeof sql, "SELECT * FROM %s", table);
	db_stmt *src = db_prepare(from->db, sql);
	if (!src)
		return store_db_fail(from, db_errcode(from->db), table, err);
	while (rc == STORE_OK && (code = db_step(src)) == DB_ROW) {
		if (!ins && insert_sql(src, table, sql, sizeof sql))
			rc = store_fail(err, STORE_INVALID, "%s: a column the "
			                "copy does not know, or too many", table);
		else if (!ins && !(ins = db_prepare(to->db, sql)))
			rc = store_db_fail(to, db_errcode(to->db), table, err);
		if (rc != STORE_OK)
			break;
		bind_row(src, ins);
		db_code put = db_step(ins);
		db_reset(ins);
		if (put != DB_DONE)
			rc = store_db_fail(to, put, table, err);
		else
			(*rows)++;
	}
	if (rc == STORE_OK && code != DB_DONE)
		rc = store_db_fail(from, code, table, err);
	db_finalize(ins);
	db_finalize(src);
	return rc;
}

/* On PostgreSQL, the identity columns (ids) go on after the copied ones:
 * the next email or job queued there must not take a copied id. */
static store_rc pg_move_ids(store *to, store_error *err)
{
	if (!is_pg(to))
		return STORE_OK;
	db_stmt *st = db_prepare(to->db, "SELECT table_name, column_name"
	                         " FROM information_schema.columns"
	                         " WHERE table_schema = current_schema()"
	                         " AND is_identity = 'YES'");
	store_rc rc = STORE_OK;
	db_code code = DB_DONE;
	char sql[512];

	if (!st)
		return store_db_fail(to, db_errcode(to->db), "ids", err);
	while (rc == STORE_OK && (code = db_step(st)) == DB_ROW) {
		const char *t = db_column_text(st, 0), *c = db_column_text(st, 1);
		if (!known_table(t) || !c || strchr(c, '"') || strlen(c) > 64) {
			rc = store_fail(err, STORE_INVALID, "an id column the "
			                "copy does not know");
			break;
		}
		snprintf(sql, sizeof sql, "SELECT setval(pg_get_serial_sequence("
		         "'%s', '%s'), coalesce((SELECT max(\"%s\") FROM %s), 0)"
		         " + 1, false)", t, c, c, t);
		code = db_exec(to->db, sql);
		if (code != DB_OK)
			rc = store_db_fail(to, code, "moving ids on", err);
	}
	if (rc == STORE_OK && code != DB_DONE)
		rc = store_db_fail(to, code, "ids", err);
	db_finalize(st);
	return rc;
}

/* One snapshot of the source for the whole copy. */
static store_rc begin_read(store *from, store_error *err)
{
	db_code code = db_exec(from->db, is_pg(from)
	                       ? "BEGIN ISOLATION LEVEL REPEATABLE READ,"
	                         " READ ONLY"
	                       : "BEGIN");
	return code == DB_OK ? STORE_OK
	                     : store_db_fail(from, code, "reading", err);
}

static store_rc copy_locked(store *from, store *to, store_copy_fn fn,
                            void *ctx, store_error *err)
{
	store_rc rc = STORE_OK;

	if ((rc = tables_known(from, "source", err)) ||
	    (rc = tables_known(to, "target", err)) ||
	    (rc = target_empty(to, err)))
		return rc;
	for (int i = 0; i < NTABLES && rc == STORE_OK; i++) {
		long long rows;
		rc = copy_table(from, to, tables[i], &rows, err);
		if (rc == STORE_OK && fn)
			fn(ctx, tables[i], rows);
	}
	return rc == STORE_OK ? pg_move_ids(to, err) : rc;
}

store_rc store_copy(store *from, store *to, store_copy_fn fn, void *ctx,
                    store_error *err)
{
	store_rc rc;

	if ((rc = begin_read(from, err)))
		return rc;
	if ((rc = sql_begin(to, err)) == STORE_OK) {
		rc = copy_locked(from, to, fn, ctx, err);
		if (rc == STORE_OK)
			rc = sql_commit(to, err);
		else
			sql_rollback(to);
	}
	db_exec(from->db, "COMMIT");
	return rc;
}

/* 64 bits of BLAKE2b of a column's name, kind and value, as both
 * engines give it. */
static uint64_t column_hash(db_stmt *st, int c)
{
	crypto_generichash_state h;
	unsigned char out[crypto_generichash_BYTES_MIN];
	const char *name = db_column_name(st, c);
	unsigned char kind = (unsigned char)db_column_type(st, c);
	char num[32];
	uint64_t v;

	crypto_generichash_init(&h, NULL, 0, sizeof out);
	crypto_generichash_update(&h, (const unsigned char *)name,
	                          name ? strlen(name) + 1 : 0);
	crypto_generichash_update(&h, &kind, 1);
	if (kind == DB_TYPE_INT || kind == DB_TYPE_FLOAT) {
		if (kind == DB_TYPE_INT)
			snprintf(num, sizeof num, "%lld",
			         (long long)db_column_int64(st, c));
		else
			snprintf(num, sizeof num, "%.17g",
			         db_column_double(st, c));
		crypto_generichash_update(&h, (const unsigned char *)num,
		                          strlen(num));
	} else if (kind == DB_TYPE_TEXT || kind == DB_TYPE_BLOB) {
		const void *p = kind == DB_TYPE_TEXT
		                ? (const void *)db_column_text(st, c)
		                : db_column_blob(st, c);
		int n = db_column_bytes(st, c);
		if (p && n > 0)
			crypto_generichash_update(&h, p, (unsigned long long)n);
	}
	crypto_generichash_final(&h, out, sizeof out);
	memcpy(&v, out, sizeof v);
	return v;
}

/* A table's rows and a digest of their values that neither the order
 * of its rows nor of its columns changes: the sum of a hash of each
 * row, itself the sum of its columns' hashes, hashed again. */
static store_rc table_digest(store *s, const char *table, long long *rows,
                             uint64_t *digest, store_error *err)
{
	char sql[128];
	db_code code;

	*rows = 0;
	*digest = 0;
	snprintf(sql, sizeof sql, "SELECT * FROM %s", table);
	db_stmt *st = db_prepare(s->db, sql);
	if (!st)
		return store_db_fail(s, db_errcode(s->db), table, err);
	while ((code = db_step(st)) == DB_ROW) {
		uint64_t row = 0;
		unsigned char out[crypto_generichash_BYTES_MIN];
		for (int c = 0; c < db_column_count(st); c++)
			row += column_hash(st, c);
		crypto_generichash(out, sizeof out, (const unsigned char *)&row,
		                   sizeof row, NULL, 0);
		memcpy(&row, out, sizeof row);
		*digest += row;
		(*rows)++;
	}
	db_finalize(st);
	return code == DB_DONE ? STORE_OK : store_db_fail(s, code, table, err);
}

store_rc store_copy_compare(store *from, store *to, store_copy_fn fn,
                            void *ctx, store_error *err)
{
	for (int i = 0; i < NTABLES; i++) {
		long long a, b;
		uint64_t da, db;
		store_rc rc = table_digest(from, tables[i], &a, &da, err);
		if (rc == STORE_OK)
			rc = table_digest(to, tables[i], &b, &db, err);
		if (rc != STORE_OK)
			return rc;
		if (a != b || da != db)
			return store_fail(err, STORE_CORRUPT, "%s differs: %lld "
			                  "rows in the source, %lld in the "
			                  "target%s", tables[i], a, b, a == b
			                  ? ", with other values" : "");
		if (fn)
			fn(ctx, tables[i], b);
	}
	return STORE_OK;
}
