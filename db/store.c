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

/* The settings every connection runs with.  synchronous=FULL: a commit
 * that returned is on disk, even through a power cut (README). */
static const char pragmas[] =
	"PRAGMA foreign_keys = ON;"
	"PRAGMA synchronous = FULL;";

/* WAL lets readers go on while one process writes.  Changing the
 * journal mode needs a lock, so it waits like everything else. */
static store_rc set_wal(store *s, store_error *err)
{
	sqlite3_stmt *st;
	int rc = sqlite3_prepare_v2(s->db, "PRAGMA journal_mode = WAL", -1,
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
	return rc == SQLITE_OK ? STORE_OK
	                       : store_sqlite_fail(s, rc, "setting WAL mode", err);
}

/* Reads the schema once: a file that is not a database fails here
 * rather than halfway through a migration. */
static store_rc probe(store *s, store_error *err)
{
	int rc = sqlite3_exec(s->db, "SELECT count(*) FROM sqlite_schema",
	                      NULL, NULL, NULL);
	if (rc == SQLITE_NOTADB || rc == SQLITE_CORRUPT)
		return store_fail(err, STORE_CORRUPT, "%s is not a Buffer "
		                  "Time database, or it is damaged: %s",
		                  sqlite3_db_filename(s->db, "main"),
		                  sqlite3_errmsg(s->db));
	return rc == SQLITE_OK ? STORE_OK
	                       : store_sqlite_fail(s, rc, "opening", err);
}

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
	store *s = arg;
	int64_t now = monotonic_ns();

	if (count == 0)
		s->busy_since_ns = now;
	if (now - s->busy_since_ns >= (int64_t)s->busy_timeout_ms * 1000000)
		return 0;
	struct timespec pause = { 0, 250000 + (long)randombytes_uniform(750000) };
	nanosleep(&pause, NULL);
	return 1;
}

static store_rc configure(store *s, store_error *err)
{
	store_rc rc;

	sqlite3_extended_result_codes(s->db, 1);
	s->busy_timeout_ms = STORE_BUSY_TIMEOUT_MS;
	sqlite3_busy_handler(s->db, busy_wait, s);
	if ((rc = probe(s, err)) || (rc = set_wal(s, err)))
		return rc;
	int code = sqlite3_exec(s->db, pragmas, NULL, NULL, NULL);
	if (code != SQLITE_OK)
		return store_sqlite_fail(s, code, "settings", err);
	if ((rc = store_migrate(s, err)))
		return rc;
	code = sql_register_functions(s->db);
	if (code != SQLITE_OK)
		return store_sqlite_fail(s, code, "registering functions", err);
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
	int code = sqlite3_open_v2(path, &s->db, SQLITE_OPEN_READWRITE |
	                           SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX,
	                           NULL);
	store_rc rc = code == SQLITE_OK ? configure(s, err)
	              : store_fail(err, STORE_ERROR, "cannot open %s: %s (its "
	                           "folder must exist and be writable)", path,
	                           sqlite3_errstr(code));
	if (rc != STORE_OK) {
		store_close(s);
		return rc;
	}
	*out = s;
	return STORE_OK;
}

void store_close(store *s)
{
	if (!s)
		return;
	sql_finalize_all(s);
	sqlite3_close(s->db);
	free(s->replay);
	free(s->mail);
	free(s->scratch);
	free(s);
}

void store_set_busy_timeout(store *s, int ms)
{
	s->busy_timeout_ms = ms > 0 ? ms : 0;
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
	int rc = sqlite3_exec(s->db, sync == STORE_SYNC_NORMAL
	                      ? "PRAGMA synchronous = NORMAL"
	                      : "PRAGMA synchronous = FULL", NULL, NULL, NULL);
	return rc == SQLITE_OK ? STORE_OK
	                       : store_sqlite_fail(s, rc, "setting synchronous", err);
}
