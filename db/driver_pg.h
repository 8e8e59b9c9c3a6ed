/*
 * driver_pg.h - what the files of the PostgreSQL engine share (not for
 * the rest of db/: they see db/driver.h alone): its connection and
 * statement, and the calls one file makes of another's.
 *   driver_pg.c       the connection, statements, values, running;
 *   driver_pg_rows.c  the columns of the current row;
 *   driver_pg_wake.c  waiting for the work other hosts queue (LISTEN),
 *                     and the notifications a connection reads;
 *   driver_pg_ahead.c reading ahead: one round trip for a page's reads;
 *   driver_pg_kept.c  rows read ahead kept for later requests, until a
 *                     notification says they changed.
 */
#ifndef BT_DRIVER_PG_H
#define BT_DRIVER_PG_H

#include "driver.h"
#include "driver_pg_sql.h"
#define PQ_LOAD_CALLS
#include "pq_load.h"

#define PG_MSG_MAX 512
#define PG_NAME_MAX 24
#define PG_PENDING_MAX 64
#define PG_SCHEMA_MAX 64           /* a name: NAMEDATALEN */
#define PG_AHEAD_MAX 16            /* statements read ahead at once */
#define PG_BEGIN_MAX 96            /* a read-only BEGIN put off */
#define PG_TAG_MAX 64              /* a kept set's name: a game id */
#define PG_KEPT_SETS 256           /* sets kept by one connection */
#define PG_KEPT_BYTES (16u << 20)  /* ... and their rows' memory */

/* The column types read differently from plain text (pg_type.dat). */
#define PG_BOOL_OID 16
#define PG_BYTEA_OID 17

typedef struct pg_conn {
	db_conn head;
	PGconn *pg;
	unsigned long names;        /* statements named so far */
	unsigned long generation;   /* sessions: one more at each reset */
	PGTransactionStatusType tx; /* as the last reply left it */
	int gone;                   /* lost: the next call resets */
	int lost_tx;                /* lost inside a transaction: until the
	                             * store rolls back, every call fails */
	int64_t changes;
	int64_t round_trips;        /* exchanges with the server so far */
	int lock_timeout_ms;        /* a writer's wait for a lock */
	int listening;              /* LISTENs for work (driver_pg_wake.c) */
	int work_noted;             /* work's notification read meanwhile */
	char schema[PG_SCHEMA_MAX]; /* ... of its schema's instance */
	db_code code;
	char msg[PG_MSG_MAX];
	/* statements finalized inside a failed transaction, which refuses
	 * even DEALLOCATE: deallocated once it ends */
	int npending;
	char pending[PG_PENDING_MAX][PG_NAME_MAX];
	/* read ahead (driver_pg_ahead.c): the statements holding rows, and
	 * a read-only transaction's BEGIN not sent yet */
	struct pg_stmt *ahead[PG_AHEAD_MAX];
	int nahead;
	int begin_put_off;
	char begin_sql[PG_BEGIN_MAX];
	/* rows kept between requests (driver_pg_kept.c) */
	struct pg_kept *kept;       /* PG_KEPT_SETS, allocated at first use */
	int nkept;
	size_t kept_bytes;
	uint64_t kept_clock;        /* uses so far: the oldest goes first */
	unsigned long kept_generation; /* the session they were read in */
	int changes_heard;          /* LISTENs for changed rows */
	int synced;                 /* asked the server once this request */
} pg_conn;

typedef struct pg_stmt {
	db_stmt head;
	pg_conn *c;
	char name[PG_NAME_MAX];
	char *sql;                  /* with $N: prepared again after a reset */
	enum pg_tx_end ends;
	unsigned long generation;   /* the session it is prepared in */
	int nparams;
	int ncols;                  /* as described when prepared */
	char **values;              /* NULL: SQL NULL */
	int *lengths;
	int *formats;               /* 1 for a blob: binary */
	int bind_failed;            /* out of memory: the run is refused */
	PGresult *res;
	int row;                    /* the current row of res */
	unsigned char **blobs;      /* the row's bytea, decoded, by column */
	size_t *blob_len;
	int nblobs;
	PGresult *ahead;            /* rows read ahead (driver_pg_ahead.c) */
	unsigned char *ahead_key;   /* ... with these values */
	size_t ahead_key_len;
	int borrowed;               /* res is ahead's: not cleared with it */
	int ahead_in_tx;            /* read inside the open transaction */
	int ahead_kept;             /* ahead is a kept set's, not its own */
} pg_stmt;


/* driver_pg.c */
void pg_mark_gone(pg_conn *c, enum pg_tx_end ends);
db_code pg_take_result(pg_conn *c, const PGresult *r, enum pg_tx_end ends);
db_code pg_server_ready(pg_conn *c);
db_code pg_fail(pg_conn *c, db_code code, const char *what,
                const char *detail);

/* driver_pg_rows.c: the column calls of db_ops */
int pg_column_count(db_stmt *s);
int pg_column_is_null(db_stmt *s, int col);
const char *pg_column_text(db_stmt *s, int col);
double pg_column_double(db_stmt *s, int col);
int64_t pg_column_int64(db_stmt *s, int col);
const void *pg_column_blob(db_stmt *s, int col);
int pg_column_bytes(db_stmt *s, int col);
const char *pg_column_name(db_stmt *s, int col);
db_type pg_column_type(db_stmt *s, int col);

/* driver_pg_wake.c: the wake calls of db_ops, and the LISTEN a new
 * session needs again (the SQL to add to its setup, or ""); the
 * notifications come so far, read without waiting (1: tag's rows, or
 * every game's, changed, or the connection is lost) */
int pg_wake_fd(db_conn *conn);
int pg_woken(db_conn *conn);
const char *pg_listen_sql(const pg_conn *c);
int pg_notes_read(pg_conn *c, const char *tag);
/* LISTENs on channel, the schema noted: 0, or -1 (maybe gone) */
int pg_listen(pg_conn *c, const char *channel);

/* driver_pg_ahead.c: the read-ahead calls of db_ops; whether st's next
 * run is answered by rows read ahead (1: st->res holds them); what a
 * statement about to run does to the rows read ahead and to a read-only
 * BEGIN put off (1: it is done without the server, its code in *rc);
 * a statement's rows forgotten when it is finalized */
db_code pg_read_ahead(db_conn *conn, db_stmt *const *stmts, int n);
void pg_read_ahead_drop(db_conn *conn);
int pg_read_ahead_held(db_conn *conn);
int pg_ahead_answer(pg_stmt *st);
int pg_ahead_before_run(pg_conn *c, const char *sql, enum pg_tx_end ends,
                        db_code *rc);
void pg_ahead_forget(pg_stmt *st);
/* ... and for driver_pg_kept.c: st's values as a key (malloc'd, *len
 * bytes; NULL out of memory); whether they are key's; rows kept
 * elsewhere lent to st as read ahead outside a transaction (0, or -1
 * out of memory) */
unsigned char *pg_ahead_key(const pg_stmt *st, size_t *len);
int pg_ahead_key_is(const pg_stmt *st, const unsigned char *key, size_t len);
int pg_ahead_lend(pg_stmt *st, PGresult *r, const unsigned char *key,
                  size_t len);

/* driver_pg_kept.c: read_ahead_kept, changes_fd and changes_read of
 * db_ops; what a changed game (NULL: every game) or a statement
 * finalized does to the rows kept */
db_code pg_read_ahead_kept(db_conn *conn, const char *tag,
                           db_stmt *const *stmts, int n);
int pg_changes_fd(db_conn *conn);
void pg_changes_read(db_conn *conn);
void pg_kept_changed(pg_conn *c, const char *tag);
void pg_kept_forget_stmt(pg_stmt *st);
void pg_kept_free(pg_conn *c);

#endif
