/*
 * store.c - opening and closing a store, game ids, and return codes.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <sodium.h>

#include "record.h"
#include "sql.h"
#include "store_talk.h"

static const char *const rc_names[] = {
	[STORE_OK] = "ok",
	[STORE_NOT_FOUND] = "not found",
	[STORE_CONFLICT] = "conflict",
	[STORE_ILLEGAL] = "illegal",
	[STORE_BUSY] = "busy",
	[STORE_CORRUPT] = "corrupt",
	[STORE_TOO_NEW] = "too new",
	[STORE_INVALID] = "invalid",
	[STORE_LIMITED] = "limited",
	[STORE_FULL] = "disk full",
	[STORE_DUPLICATE] = "duplicate",
	[STORE_ERROR] = "error",
};

const char *store_rc_name(store_rc rc)
{
	return (unsigned)rc < sizeof rc_names / sizeof rc_names[0]
	       ? rc_names[rc] : "unknown";
}

static store_rc configure(store *s, store_error *err)
{
	store_rc rc;

	db_set_busy_timeout(s->db, STORE_BUSY_TIMEOUT_MS);
	if ((rc = store_migrate(s, err)))
		return rc;
	/* PostgreSQL has address_key() in the database (its schema) */
	if (s->db->engine != DB_SQLITE)
		return STORE_OK;
	db_code code = sql_register_functions(s->db);
	if (code != DB_OK)
		return store_db_fail(s, code, "registering functions", err);
	return STORE_OK;
}

store_rc store_open(const char *path, store **out, store_error *err)
{
	*out = NULL;
	if (sodium_init() < 0)
		return store_fail(err, STORE_ERROR, "libsodium failed to "
		                  "initialise");
	store *s = calloc(1, sizeof *s);
	if (!s)
		return store_fail(err, STORE_ERROR, "out of memory");
	s->replay = malloc(sizeof *s->replay);
	s->mail = calloc(BT_MAX_PLAYERS + 1, sizeof *s->mail);
	s->scratch = malloc(sizeof *s->scratch);
	s->talk_per_game = STORE_TALK_PER_GAME;
	if (!s->replay || !s->mail || !s->scratch) {
		store_close(s);
		return store_fail(err, STORE_ERROR, "out of memory");
	}
	char why[sizeof err->why];
	db_code code = db_open(path, &s->db, why, sizeof why);
	store_rc rc = code == DB_OK ? configure(s, err)
	              : code == DB_CORRUPT
	              ? store_fail(err, STORE_CORRUPT, "%s is not a Buffer Time "
	                           "database, or it is damaged: %s", path, why)
	              : store_fail(err, STORE_ERROR, "%s", why);
	if (rc != STORE_OK) {
		store_close(s);
		return rc;
	}
	*out = s;
	return STORE_OK;
}

int store_is_server(const char *path)
{
	return path && db_target_is_postgres(path);
}

int store_wake_fd(store *s)
{
	return db_wake_fd(s->db);
}

int store_woken(store *s)
{
	return db_woken(s->db);
}

int store_changes_fd(store *s)
{
	return db_changes_fd(s->db);
}

void store_changes_read(store *s)
{
	db_changes_read(s->db);
}

void store_close(store *s)
{
	if (!s)
		return;
	sql_finalize_all(s);
	db_close(s->db);
	free(s->replay);
	free(s->mail);
	free(s->scratch);
	free(s);
}

void store_set_busy_timeout(store *s, int ms)
{
	db_set_busy_timeout(s->db, ms);
}

int64_t store_now(void)
{
	const char *fake = getenv("BUFFERTIME_NOW");
	char *end;

	if (fake && *fake) {
		long long v = strtoll(fake, &end, 10);
		if (*end == '\0' && v > 0)
			return v;
	}
	return (int64_t)time(NULL);
}

store_rc store_set_sync(store *s, store_sync sync, store_error *err)
{
	/* NORMAL: a power cut may lose the last commits, never half of
	 * one (PostgreSQL's synchronous_commit = off is the same bargain) */
	int pg = s->db->engine == DB_POSTGRES;
	int rc = db_exec(s->db, sync == STORE_SYNC_NORMAL
	                 ? (pg ? "SET synchronous_commit = off"
	                       : "PRAGMA synchronous = NORMAL")
	                 : (pg ? "SET synchronous_commit = on"
	                       : "PRAGMA synchronous = FULL"));
	return rc == DB_OK ? STORE_OK
	                   : store_db_fail(s, rc, "setting synchronous", err);
}
