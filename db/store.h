/*
 * store.h - games in SQLite: the history of a game is its seed and an
 * append-only list of record lines; its state is their replay (kept as a
 * snapshot beside the last line, so loading never replays in the common
 * case).  Shared by the web layer and `buffertime admin`.
 *
 * One store is one connection: use it from one thread at a time.  Several
 * processes may open the same file; appends are serialised by SQLite
 * (BEGIN IMMEDIATE) and checked against the sequence number the caller
 * saw, so an action is never applied to a state it was not chosen in.
 */
#ifndef BT_STORE_H
#define BT_STORE_H

#include <stddef.h>
#include <stdint.h>

#include "game.h"
#include "record.h"

typedef enum store_rc {
	STORE_OK = 0,
	STORE_NOT_FOUND,   /* no such game or seat */
	STORE_CONFLICT,    /* another action landed first: nothing written */
	STORE_ILLEGAL,     /* the engine refused the action: see err.game */
	STORE_BUSY,        /* another writer held the lock past the timeout */
	STORE_CORRUPT,     /* not a database, or a damaged one */
	STORE_TOO_NEW,     /* written by a newer program: refused */
	STORE_INVALID,     /* a bad argument (names, emails, counts) */
	STORE_ERROR        /* any other failure (disk full, I/O) */
} store_rc;

typedef struct store_error {
	store_rc rc;
	char why[256];      /* one line for people; never holds a seed */
	bt_error game;      /* for STORE_ILLEGAL: the engine's reason */
} store_error;

enum {
	STORE_ID_LEN = 22,          /* 16 random bytes in base64url */
	STORE_EMAIL_MAX = 254,      /* bytes, as RFC 5321 allows */
	STORE_OPTIONS_MAX = 1024,   /* bytes of the options text */
	STORE_HEADER_MAX = 512,     /* bytes of a record's header stack lines */
	STORE_BUSY_TIMEOUT_MS = 5000
};

typedef struct store store;

/* What the store keeps of a seat. */
typedef struct store_seat {
	char name[BT_NAME_BYTES_MAX + 1];   /* "" if none was given */
	char email[STORE_EMAIL_MAX + 1];    /* "" if none */
	int64_t token_gen;                  /* bumped to revoke links */
	int64_t last_seen;                  /* unix seconds, 0 if never */
} store_seat;

/* A game as loaded: its header, its seats and its current state. */
typedef struct store_game {
	char id[STORE_ID_LEN + 1];
	int64_t created;                    /* unix seconds */
	int players, first;                 /* as created */
	char seed[BT_SEED_TEXT_MAX + 1];    /* secret while playing */
	char options[STORE_OPTIONS_MAX + 1];
	char header[STORE_HEADER_MAX + 1];  /* stack lines of an import */
	int seq;                            /* lines stored: the next seq */
	bt_card sweep_card;                 /* a Sensor Sweep looked at by */
	int sweep_seat;                     /* this seat, its order not yet
	                                     * chosen; BT_NO_CARD / 0 if none */
	store_seat seats[BT_MAX_PLAYERS];
	bt_game state;                      /* after every stored line */
} store_game;

/*
 * Opens (creating if missing) the database at path, sets WAL, the busy
 * timeout, foreign keys and synchronous=FULL, and applies the missing
 * migrations, each in its own transaction.  A database from a newer
 * program is refused (STORE_TOO_NEW); a file that is not a database
 * gives STORE_CORRUPT.  On success *out owns the connection.
 */
store_rc store_open(const char *path, store **out, store_error *err);

/* Closes s (NULL is fine). */
void store_close(store *s);

/*
 * How hard a commit waits for the disk.  STORE_SYNC_FULL (the default):
 * a move whose append returned survives a crash of the program and a
 * power cut.  STORE_SYNC_NORMAL: it survives the program being killed,
 * but a power cut may undo the last moves (never corrupting the file);
 * commits then skip the fsync and are several times faster on slow
 * disks.
 */
typedef enum store_sync { STORE_SYNC_FULL, STORE_SYNC_NORMAL } store_sync;
store_rc store_set_sync(store *s, store_sync sync, store_error *err);

/* How long to wait for another writer's lock before STORE_BUSY
 * (STORE_BUSY_TIMEOUT_MS unless set). */
void store_set_busy_timeout(store *s, int ms);

/* Highest migration this program knows, and the database's version. */
int store_schema_latest(void);
int store_schema_version(store *s);

/* A new game: seats 1..players with names and emails (either may be
 * NULL or ""), First Player first, seed hex text or NULL for a fresh one
 * from libsodium, options free text (or NULL). */
typedef struct store_new_game {
	int players, first;
	const char *seed;
	const char *names[BT_MAX_PLAYERS];
	const char *emails[BT_MAX_PLAYERS];
	const char *options;
} store_new_game;

/* Creates a game; writes its id (NUL-terminated) into id. */
store_rc store_create(store *s, const store_new_game *ng,
                      char id[STORE_ID_LEN + 1], store_error *err);

/*
 * Creates a game from a whole record (header, names, stack lines and
 * actions), which must replay without error; it continues from where the
 * record ends.  Emails may be given per seat (or NULL).
 */
store_rc store_import(store *s, const bt_record *rec,
                      const char *const emails[BT_MAX_PLAYERS],
                      char id[STORE_ID_LEN + 1], store_error *err);

/* Loads game id into *out. */
store_rc store_load(store *s, const char *id, store_game *out,
                    store_error *err);

/*
 * An email that a move causes, queued in the same transaction as the move
 * (a transactional outbox: queued if and only if the move committed).
 */
typedef struct store_mail {
	int seat;                           /* 0 if not for a seat */
	char to[STORE_EMAIL_MAX + 1];
	char subject[200];
	char body[8192];
} store_mail;

/*
 * Called inside the append's transaction with the states before and
 * after action a; writes up to max mails into out and returns how many
 * (a negative return aborts the append with STORE_ERROR).
 */
typedef int (*store_mail_fn)(void *ctx, const store_game *before,
                             const bt_game *after, const bt_action *a,
                             store_mail *out, int max);

/*
 * Appends action a to game id if the game still has expected_seq lines
 * (else STORE_CONFLICT, nothing written) and the engine accepts it (else
 * STORE_ILLEGAL), with the mails mail_fn queues (mail_fn may be NULL).
 * On success *after (if not NULL) is the game after the action.
 */
store_rc store_append(store *s, const char *id, int expected_seq,
                      const bt_action *a, store_mail_fn mail_fn, void *ctx,
                      store_game *after, store_error *err);

/*
 * Sensor Sweep in two steps (the web page shows the cards in between):
 * seat commits to playing the Sensor Sweep card (it must be a legal play
 * now, at expected_seq) and may then see the top cards; until its
 * store_append of that card with the chosen order, the game accepts no
 * other action (STORE_ILLEGAL).  The pending look survives restarts.
 */
store_rc store_sweep_begin(store *s, const char *id, int expected_seq,
                           int seat, bt_card card, store_error *err);

/* Queues one email outside any move (e.g. the links of a new game). */
store_rc store_queue_mail(store *s, const char *id, const store_mail *m,
                          store_error *err);

/* Notes that seat looked at game id now (store_seat.last_seen). */
store_rc store_touch(store *s, const char *id, int seat, store_error *err);

/* Bumps seat's token generation so links made before stop working;
 * the new generation goes to *gen (if not NULL). */
store_rc store_revoke(store *s, const char *id, int seat, int64_t *gen,
                      store_error *err);

/* The clock the store writes: unix seconds, or BUFFERTIME_NOW from the
 * environment when set (tests move time with it). */
int64_t store_now(void);

/*
 * Builds the record of game id: header, names, stack lines and every
 * line.  The seed is written only once the game is over, unless
 * with_seed; a record without its seed does not replay.
 */
store_rc store_export(store *s, const char *id, int with_seed,
                      bt_record *rec, store_error *err);

/* One row of store_list. */
typedef struct store_summary {
	char id[STORE_ID_LEN + 1];
	int64_t created, updated;
	int players, seq;
	bt_status status;
} store_summary;

/* Calls fn for every game, newest first; fn returns nonzero to stop. */
store_rc store_list(store *s, int (*fn)(void *ctx, const store_summary *g),
                    void *ctx, store_error *err);

/* Online copy of the whole database into a new file at path. */
store_rc store_backup(store *s, const char *path, store_error *err);

/*
 * Checks the file (PRAGMA integrity_check) and replays every game from
 * its seed, comparing with its snapshot; report (may be NULL) is called
 * once per problem.  STORE_OK if all is sound, else STORE_CORRUPT.
 */
store_rc store_check(store *s, void (*report)(void *ctx, const char *line),
                     void *ctx, store_error *err);

/* Text for a return code ("conflict"). */
const char *store_rc_name(store_rc rc);

#endif
