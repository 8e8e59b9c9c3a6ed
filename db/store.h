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

#include <signal.h>
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
	STORE_LIMITED,     /* too soon: a rate limit (chat, nudges) */
	STORE_FULL,        /* the disk is full: nothing written; try later */
	STORE_DUPLICATE,   /* that email was handled before: nothing done */
	STORE_ERROR        /* any other failure (I/O, out of memory) */
} store_rc;

typedef struct store_error {
	store_rc rc;
	char why[256];      /* one line for people; never holds a seed */
	bt_error game;      /* for STORE_ILLEGAL: the engine's reason */
	int64_t retry_at;   /* for STORE_LIMITED: when it may be tried
	                     * again (unix seconds), 0 if not known */
} store_error;

enum {
	STORE_ID_LEN = 22,          /* 16 random bytes in base64url */
	STORE_EMAIL_MAX = 254,      /* bytes, as RFC 5321 allows */
	STORE_OPTIONS_MAX = 1024,   /* bytes of the options text */
	STORE_HEADER_MAX = 512,     /* bytes of a record's header stack lines */
	STORE_BUSY_TIMEOUT_MS = 5000,
	STORE_REMIND_DEFAULT = 86400,  /* seconds before a turn's reminder */
	STORE_REMIND_MIN = 3600,
	STORE_REMIND_MAX = 30 * 86400,
	STORE_CHAT_MAX = 500,          /* bytes of one chat message */
	STORE_CHAT_BURST = 5,          /* messages a seat may say ... */
	STORE_CHAT_WINDOW = 60,        /* ... in this many seconds */
	STORE_CHAT_REPEAT = 10,        /* the same words again within this
	                                * many seconds are the same message */
	STORE_NUDGE_EVERY = 86400,     /* seconds between one seat's nudges */
	STORE_DIGEST_EVERY = 86400,    /* seconds between a seat's digests */
	STORE_RETRY_FIRST = 60,        /* a failed email's first retry ... */
	STORE_RETRY_MAX = 6 * 3600     /* ... doubling up to this */
};

/* How a seat wants its email. */
typedef enum store_notify {
	STORE_NOTIFY_EVERY,    /* every move of the others, and its turns */
	STORE_NOTIFY_TURN,     /* only its turns and the end (the default) */
	STORE_NOTIFY_DIGEST,   /* one email a day with what happened */
	STORE_NOTIFY_NONE,     /* nothing at all */
	STORE_NOTIFY__MAX
} store_notify;

/* "every", "turn", "digest", "none"; and back (-1 if unknown). */
const char *store_notify_name(store_notify n);
int store_notify_parse(const char *text, store_notify *out);

typedef struct store store;

/* What the store keeps of a seat. */
typedef struct store_seat {
	char name[BT_NAME_BYTES_MAX + 1];   /* "" if none was given */
	char email[STORE_EMAIL_MAX + 1];    /* "" if none */
	int64_t token_gen;                  /* bumped to revoke links */
	int64_t last_seen;                  /* unix seconds, 0 if never */
	store_notify notify;
	int64_t digest_sent;                /* last digest queued, 0: never */
	int64_t nudged;                     /* last nudge this seat sent */
	char bot[16];                       /* the bot that plays it, or ""
	                                     * (store_bot_ok) */
	int64_t standin_since;              /* a bot stands in for its
	                                     * absent player since (0: no) */
	int64_t standin_ask;                /* its ask for a stand-in, for
	                                     * the turn of this turn_since */
	int blocked;                        /* 1: it has an email, and that
	                                     * address asked for none from
	                                     * this server (store_block_add) */
} store_seat;

/* A game as loaded: its header, its seats and its current state. */
typedef struct store_game {
	char id[STORE_ID_LEN + 1];
	int64_t created, updated;           /* unix seconds */
	int players, first;                 /* as created */
	char seed[BT_SEED_TEXT_MAX + 1];    /* secret while playing */
	char options[STORE_OPTIONS_MAX + 1];
	char header[STORE_HEADER_MAX + 1];  /* stack lines of an import */
	int seq;                            /* lines stored: the next seq */
	int taken;                          /* moves taken back: with seq,
	                                     * it tells two histories of one
	                                     * length apart */
	bt_card sweep_card;                 /* a Sensor Sweep looked at by */
	int sweep_seat;                     /* this seat, its order not yet
	                                     * chosen; BT_NO_CARD / 0 if none */
	int turn_seat;                      /* seat to move (0: game over) */
	int64_t turn_since;                 /* ... since then (last line) */
	int reminders;                      /* sent for this turn: 0..2 */
	int64_t reminder_secs;              /* the game's reminder interval */
	char rematch[STORE_ID_LEN + 1];     /* "play again" game, or "" */
	char standin[8];                    /* the stand-in rule: "off",
	                                     * "agree" or "days" */
	int standin_days;                   /* for "days" */
	int practice;                       /* 1: a practice table: the seat
	                                     * to move is shown hints */
	int ended_by;                       /* the seat that ended it while
	                                     * it could no longer be won
	                                     * (store_end_game), 0: none */
	int64_t ended_at;                   /* ... when (0: not ended) */
	store_seat seats[BT_MAX_PLAYERS];
	bt_game state;                      /* after every stored line */
} store_game;

/*
 * Opens the database at path: a file (created if missing; WAL, the busy
 * timeout, foreign keys and synchronous=FULL), or a PostgreSQL server's
 * (a postgresql:// URL), and applies the missing migrations, each in its
 * own transaction.  A database from a newer program is refused
 * (STORE_TOO_NEW); a file that is not a database gives STORE_CORRUPT.
 * On success *out owns the connection.
 */
store_rc store_open(const char *path, store **out, store_error *err);

/* 1 if path names a database server (postgresql://...), which programs
 * on several hosts may share: they then take no lock files beside it;
 * 0 for a file. */
int store_is_server(const char *path);

/* Closes s (NULL is fine). */
void store_close(store *s);

/*
 * Waiting for work others queue.  On a server, a descriptor that turns
 * readable once another connection (any host's) has committed a job or
 * an email, listening from the first call; -1 on a file (its one worker
 * looks each second) or while the server is out of reach.  Call it
 * between transactions.  store_woken: 1 if such work came since the
 * last call (the wake-ups are then forgotten), else 0.
 */
int store_wake_fd(store *s);
int store_woken(store *s);

/*
 * A server's news of changed games, for a connection that keeps games'
 * rows (store_read_ahead_table): a descriptor that turns readable when
 * some came, -1 if none can (a file, nothing kept yet, the server out of
 * reach); store_changes_read reads what came, without waiting.  A
 * program that waits between requests reads it as it comes: the server
 * keeps what one listener has not read for every listener.
 */
int store_changes_fd(store *s);
void store_changes_read(store *s);

/*
 * Waits up to a second, or less: until the store says work was queued
 * (store_woken), or a signal of the set stops comes while stopping()
 * still says 0.  The flag is read with those signals blocked and
 * pselect(2) unblocks them atomically, so a stop that comes in between
 * ends the wait at once (store_wait.c).
 */
void store_wait_second(store *s, const sigset_t *stops, int (*stopping)(void));

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

/* Composes seat's email about new game g into *out: 1, 0 (none) or -1. */
struct store_mail;
typedef int (*store_seat_mail_fn)(void *ctx, const store_game *g, int seat,
                                  struct store_mail *out);

/* A new game: seats 1..players with names and emails (either may be
 * NULL or "", and no address in two seats), First Player first, seed hex
 * text or NULL for a fresh one from libsodium, options free text (or
 * NULL).  client, if not NULL, is who asks (the web's client key): the
 * game counts against its games_per_hour (store_set_limits), and needs
 * at least one seat that is not a bot (else STORE_INVALID).  mail_fn,
 * if not NULL, composes the seats' "your seat" emails, queued in the
 * transaction that makes the game. */
typedef struct store_new_game {
	int players, first;
	const char *seed;
	const char *names[BT_MAX_PLAYERS];
	const char *emails[BT_MAX_PLAYERS];
	const char *options;
	int64_t reminder_secs;   /* 0: STORE_REMIND_DEFAULT */
	const char *client;
	const char *bots[BT_MAX_PLAYERS];   /* NULL or "": a person */
	const char *standin;                /* NULL or "off", "agree", "days" */
	int standin_days;                   /* 1..30, for "days" */
	int practice;                       /* 1: a practice table (hints) */
	store_seat_mail_fn mail_fn;
	void *mail_ctx;
} store_new_game;

/* A new game's id: 16 random bytes as 22 characters of base64url
 * (NUL-terminated), as hard to guess as any key of that length. */
void store_random_id(char id[STORE_ID_LEN + 1]);

/* Creates a game; writes its id (NUL-terminated) into id. */
store_rc store_create(store *s, const store_new_game *ng,
                      char id[STORE_ID_LEN + 1], store_error *err);

/*
 * A new-game form's one-use key (text, 1..STORE_ONCE_MAX bytes; the web
 * makes 22 random characters): a game is made at most once per key, so
 * the same form sent twice makes one game and one set of emails.  Only
 * a hash of the key is stored.
 */
enum { STORE_ONCE_MAX = 64 };

/* The game the form of key once made: its id into id, or
 * STORE_NOT_FOUND. */
store_rc store_creation_get(store *s, const char *once,
                            char id[STORE_ID_LEN + 1], store_error *err);

/* store_create, once per key: if key once made a game already, its id
 * into id and *made = 0, and nothing else (no game, no email, nothing
 * counted against a limit); else the game as store_create makes it, the
 * key recorded in its transaction, and *made = 1. */
store_rc store_create_once(store *s, const store_new_game *ng,
                           const char *once, char id[STORE_ID_LEN + 1],
                           int *made, store_error *err);

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
	char kind[16];                      /* turn, move, over, reminder,
	                                     * nudge, digest, seat */
	char to[STORE_EMAIL_MAX + 1];
	char subject[200];
	char body[8192];
	char reply_to[STORE_EMAIL_MAX + 1]; /* "" if none (reply.h) */
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

/* Queues one email outside any move (e.g. the links of a new game).
 * Every email of the store goes through here: one to an address on the
 * block list (store_block_add) is not queued, and that is STORE_OK; one
 * to a seat that asked for no email, or over its address's budget
 * (store_limits: mails_per_hour, mails_per_day), is kept in the outbox
 * as dropped, saying why, and that is STORE_OK too. */
/*
 * A reply to one of our emails (play by reply, mail/inbound_act.c): what
 * it does, done in one transaction with its Message-ID, so the same
 * email delivered twice for the same game and seat does it once
 * (STORE_DUPLICATE the second time, nothing done; an id longer than
 * STORE_MESSAGE_ID_MAX is refused, never cut).  In order: each say line goes to the table talk as the
 * seat's (lines over the table's rate limit are dropped and not
 * counted in *said); then the move (as store_append, the game at
 * expected_seq, with mail_fn's emails) or the look (as
 * store_sweep_begin); then the answer is queued.  Any of them may be
 * absent.  A refused move or look (STORE_CONFLICT, STORE_ILLEGAL) undoes
 * it all, the Message-ID too, so the caller can answer otherwise.
 */
enum { STORE_REPLY_SAYS = 8, STORE_MESSAGE_ID_MAX = 255 };
typedef struct store_reply {
	const char *message_id;        /* required, 1..STORE_MESSAGE_ID_MAX */
	const char *game;              /* the game it is about, or "" */
	int seat;                      /* the seat it speaks for, or 0 */
	const char *outcome;           /* one word, kept for the admin */
	const char *says[STORE_REPLY_SAYS];
	int n_says;
	int expected_seq;              /* for a move or a look */
	const bt_action *move;         /* or NULL */
	bt_card look;                  /* a Sensor Sweep card, or BT_NO_CARD */
	store_mail_fn mail_fn;         /* the move's emails (may be NULL) */
	void *mail_ctx;
	const store_mail *answer;      /* queued last, or NULL */
	int *answer_held;              /* set to 1 if the reply made no
	                                * move or look and the answer's
	                                * address had STORE_ANSWERS_PER_DAY
	                                * such answers today: it is not
	                                * queued (may be NULL) */
} store_reply;
store_rc store_take_reply(store *s, const store_reply *r, int *said,
                          store_error *err);

store_rc store_queue_mail(store *s, const char *id, const store_mail *m,
                          store_error *err);

/* 1 if the outbox holds an email with exactly this Subject to seat of
 * game id at address to (any spelling of it): a Subject of ours, which
 * an answer may take up; 0 otherwise, and on any error
 * (store_outbox.c). */
int store_mailed_subject(store *s, const char *id, int seat, const char *to,
                         const char *subject);

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

/* Online copy of the whole database into a new file at path (a file's
 * only: a PostgreSQL server is backed up by its own tools). */
store_rc store_backup(store *s, const char *path, store_error *err);

/* Told each table's name and its rows (store_copy_*). */
typedef void (*store_copy_fn)(void *ctx, const char *table, long long rows);

/*
 * Moves an instance: copies every row of every table of from (games,
 * seats, their history and talk, the emails queued and sent, jobs,
 * reviews, hints, take-backs, limits' counts, blocks, replies) into to,
 * of either engine, which must be empty (STORE_INVALID otherwise).  One
 * snapshot of from, one transaction of to: a failed copy leaves to
 * empty.  fn (may be NULL) is told each table's rows (store_copy.c).
 */
store_rc store_copy(store *from, store *to, store_copy_fn fn, void *ctx,
                    store_error *err);

/* STORE_OK if every table has the same rows in to as in from, values
 * and all (its rows told to fn, may be NULL), else STORE_CORRUPT. */
store_rc store_copy_compare(store *from, store *to, store_copy_fn fn,
                            void *ctx, store_error *err);

/*
 * Checks the file (PRAGMA integrity_check; a PostgreSQL server checks
 * its own) and replays every game from
 * its seed, comparing with its snapshot; report (may be NULL) is called
 * once per problem.  STORE_OK if all is sound, else STORE_CORRUPT.
 */
store_rc store_check(store *s, void (*report)(void *ctx, const char *line),
                     void *ctx, store_error *err);

/* ---- between moves (store_life.c) ------------------------------------- */

/* Sets how seat of game id wants its email.  Choosing the digest starts
 * its day now: the first digest tells the day after the choice. */
store_rc store_set_notify(store *s, const char *id, int seat,
                          store_notify n, store_error *err);

/* Called by store_walk for each action line: seq is the line's index
 * (0-based; the table "after action N" is the state after line N-1),
 * created its time.  Returns nonzero to stop the walk. */
typedef int (*store_walk_fn)(void *ctx, int seq, int64_t created,
                             const bt_game *before, const bt_game *after,
                             const bt_action *a);

/*
 * Replays game g (as loaded) from its seed through its first upto lines
 * (upto < 0: all of them), calling fn (may be NULL) for every action
 * line, and leaves the state after them in *at (may be NULL).  Safe to
 * call from a store_mail_fn (it touches neither the append's game nor
 * its transaction).  STORE_INVALID if upto > g->seq.  Outside a write
 * transaction, fn must not write: the walk's read is open, and a write
 * on its stale snapshot fails at once (SQLITE_BUSY_SNAPSHOT).
 */
store_rc store_walk(store *s, const store_game *g, int upto,
                    store_walk_fn fn, void *ctx, bt_game *at,
                    store_error *err);

/* One message of table talk. */
typedef struct store_chat {
	int seq;                            /* 0, 1, ... per game */
	int seat;
	int at_seq;                         /* the game's lines when said */
	int64_t created;
	char text[STORE_CHAT_MAX + 1];
} store_chat;

/*
 * Seat of game id says text (1..STORE_CHAT_MAX bytes; the caller checks
 * it is UTF-8 without control characters).  STORE_LIMITED if the seat
 * said STORE_CHAT_BURST messages in the last STORE_CHAT_WINDOW seconds,
 * or the game has had its talk (store_set_talk_cap: store_chat_left
 * tells the two apart).
 * The seat's very words again within STORE_CHAT_REPEAT seconds (a form
 * sent twice) are STORE_OK and not said again (STORE_CHAT_REPEAT is
 * within STORE_CHAT_WINDOW: one query sees both).
 */
store_rc store_chat_add(store *s, const char *id, int seat,
                        const char *text, store_error *err);

/*
 * Seat of game id shows its hand to the crew (on 1) or stops (on 0):
 * while on, every seat's table shows that hand and the bots plan with it
 * (the hand only: never what the seat's Sensor Sweep showed).  While the
 * game is in play its updated time moves, so the tables left open change.
 * STORE_NOT_FOUND if there is no such seat.
 */
store_rc store_shown_set(store *s, const char *id, int seat, int on,
                         store_error *err);

/* The seats of game id that show their hand: bit s-1 for seat s. */
store_rc store_shown_get(store *s, const char *id, unsigned *shown,
                         store_error *err);

/* Calls fn for game id's messages with seq > after_seq (-1: all), in
 * order; fn returns nonzero to stop.  It reads every line after
 * after_seq: what shows or mails talk reads a window instead
 * (store_chat_latest, store_chat_since). */
store_rc store_chat_list(store *s, const char *id, int after_seq,
                         int (*fn)(void *ctx, const store_chat *c),
                         void *ctx, store_error *err);

/* Calls fn for game id's last n messages, oldest first (a message's
 * seq + 1 is how many the game has had up to it). */
store_rc store_chat_latest(store *s, const char *id, int n,
                           int (*fn)(void *ctx, const store_chat *c),
                           void *ctx, store_error *err);

/* Table talk's bounds (the cap, a window of it): store_talk.h. */

/*
 * Seat of game id asks the seat to move to hurry: queues m (the caller
 * composes it for g->turn_seat) if the game still has expected_seq
 * lines (else STORE_CONFLICT), is in play, it is not seat's own turn
 * (STORE_INVALID), and seat's last nudge is STORE_NUDGE_EVERY seconds
 * old (else STORE_LIMITED).
 */
store_rc store_nudge(store *s, const char *id, int expected_seq, int seat,
                     const store_mail *m, store_error *err);

/* Composes reminder nth (1 or 2) of g's seat to move into *out: 1 if
 * composed, 0 if that seat gets no email (counted as sent), -1 on error. */
typedef int (*store_remind_fn)(void *ctx, const store_game *g, int nth,
                               store_mail *out);

/*
 * Queues the reminders due at now: a game in play whose seat to move has
 * had the turn for reminder_secs gets the first, after 3 x reminder_secs
 * (twice the interval again) the second, then none until the turn
 * passes.  Each in its own transaction; *queued (may be NULL) counts
 * them.  fn may call store_walk and store_chat_list.
 */
store_rc store_queue_reminders(store *s, int64_t now, store_remind_fn fn,
                               void *ctx, int *queued, store_error *err);

/* Composes seat's digest of g since `since` (unix seconds; 0: the whole
 * game) into *out: 1, 0 (nothing to say: nothing queued) or -1. */
typedef int (*store_digest_fn)(void *ctx, const store_game *g, int seat,
                               int64_t since, store_mail *out);

/*
 * Queues the daily digests due at now: every seat with notify digest and
 * an email whose game changed since its last digest, which is at least
 * STORE_DIGEST_EVERY seconds old.  *queued (may be NULL) counts them.
 */
store_rc store_queue_digests(store *s, int64_t now, store_digest_fn fn,
                             void *ctx, int *queued, store_error *err);

/*
 * Play again: a new game with the seats of game id (names, emails, mail
 * settings), the First Player the seat after id's (passing left), a
 * fresh seed and the same reminder interval, with the emails fn (may be
 * NULL) composes for its seats queued in the same transaction.  Only
 * once id is over (else STORE_INVALID).  client, if not NULL, is who
 * presses (the web's client key): the new game counts against its
 * games_per_hour (STORE_LIMITED) and needs a person in it, as
 * store_create's does.  Asking again returns the same new game and
 * queues and counts nothing: *created (may be NULL) is 1 only for the
 * call that made it.
 */
store_rc store_rematch(store *s, const char *id, const char *client,
                       store_seat_mail_fn fn, void *ctx,
                       char new_id[STORE_ID_LEN + 1], int *created,
                       store_error *err);

/* ---- the outbox, for the mailer (store_outbox.c) ---------------------- */

/* One queued (or sent, or dropped) email. */
typedef struct store_outmail {
	int64_t id;
	char game[STORE_ID_LEN + 1];        /* "" if none */
	int seat;                           /* 0 if none */
	char kind[16];
	char to[STORE_EMAIL_MAX + 1];
	char subject[200];
	char body[8192];
	int64_t created;
	int attempts;
	int64_t next_attempt;
	int64_t sent, dropped;              /* 0: not (yet) */
	char last_error[256];
	char reply_to[STORE_EMAIL_MAX + 1]; /* "" if none */
} store_outmail;

/*
 * Claims the oldest email due at now: counts the attempt and moves its
 * next attempt to now + STORE_RETRY_FIRST x 2^(attempts-1) (at most
 * STORE_RETRY_MAX) and commits that before returning it, so that a
 * mailer that dies while sending leaves it queued for a retry (at least
 * once, never lost).  STORE_NOT_FOUND if none is due.
 */
store_rc store_outbox_claim(store *s, int64_t now, store_outmail *out,
                            store_error *err);

/*
 * The longest the sending of one email may take, in seconds, from its
 * claim to its mark (sendmail's timeout and its courier's mark): a claim
 * then moves the next attempt at least this far, so that on a server
 * another host's worker never claims an email whose courier is still at
 * it (a file needs none: its one mailer holds a lock file).  0, the default:
 * the retry's wait alone.
 */
void store_set_send_hold(store *s, int seconds);

/* The claimed email id went out at now. */
store_rc store_outbox_sent(store *s, int64_t id, int64_t now,
                           store_error *err);

/* Sending the claimed email id failed: why (one line) is kept; it stays
 * queued for the retry its claim set. */
store_rc store_outbox_failed(store *s, int64_t id, const char *why,
                             store_error *err);

/* The earliest next attempt of a queued email, or -1 if none is queued. */
int64_t store_outbox_next_due(store *s);

/* Which emails store_outbox_list shows. */
typedef enum store_outbox_filter {
	STORE_OUTBOX_QUEUED,   /* not sent, not dropped (failed ones too) */
	STORE_OUTBOX_FAILED,   /* queued, and at least one attempt failed */
	STORE_OUTBOX_ALL
} store_outbox_filter;

/* Calls fn for the emails of filter, oldest first (the body included);
 * fn returns nonzero to stop. */
store_rc store_outbox_list(store *s, store_outbox_filter filter,
                           int (*fn)(void *ctx, const store_outmail *m),
                           void *ctx, store_error *err);

/* Makes queued email id (0: every queued one) due now; *n (may be NULL)
 * counts them.  STORE_NOT_FOUND if id is not queued. */
store_rc store_outbox_retry(store *s, int64_t id, int *n, store_error *err);

/* Drops queued email id: it is kept, marked dropped, never sent.
 * STORE_NOT_FOUND if id is not queued. */
store_rc store_outbox_drop(store *s, int64_t id, store_error *err);

/*
 * What a game's table can show that changes, read cheaply (one row per
 * seat, then the newest messages; no state, no record): the web layer
 * makes the table page's ETag of it (cgi/live.c).  Everything a page
 * shows must change with something here, or the page would be kept
 * stale; last_seen and digest_sent are left out, as the table does not
 * show them and they change without anything to see.
 */
enum { STORE_MARK_CHATS = 32 };      /* newest messages a mark holds */

typedef struct store_mark {
	int players, seq;
	int taken;                          /* moves taken back (store_game) */
	bt_status status;
	int sweep_seat;                     /* a pending look's seat, 0: none */
	char sweep_card[8];                 /* its card ("" if none) */
	int turn_seat, reminders;
	int64_t turn_since, updated;
	char rematch[STORE_ID_LEN + 1];
	struct {
		char name[BT_NAME_BYTES_MAX + 1];
		int has_email;
		store_notify notify;
		int64_t token_gen, nudged;
		int64_t standin_since, standin_ask;  /* a bot stands in; an ask */
	} seats[BT_MAX_PLAYERS];
	int reviewed;                       /* moves of its review in */
	int hinted;                         /* hints of the turn now */
	int crew_later;                     /* games "play again" made after
	                                     * it, on down the chain ... */
	int64_t crew_updated, crew_seq;     /* ... their newest change and
	                                     * their lines, summed (the crew
	                                     * panel shows them: table_crew) */
	int chat_last;                      /* seq of the newest message, -1 */
	int chats;                          /* times in chat_created, */
	int64_t chat_created[STORE_MARK_CHATS];  /* newest first */
} store_mark;

/* Reads the mark of game id with its newest chats (0..STORE_MARK_CHATS)
 * messages' times.  STORE_NOT_FOUND if there is no such game. */
store_rc store_mark_get(store *s, const char *id, int chats, store_mark *m,
                        store_error *err);

/*
 * Reading ahead (store_ahead.c).  On a server every read is a round trip;
 * a page that is about to read game id's table (its mark with chats
 * messages, row, seats, record, newest chats messages, shown hands, the
 * game before it and its last line) asks for all of it at once, in one
 * snapshot, and its reads then take the rows read ahead as long as they
 * ask with the same values and nothing was written (store_load reads a
 * game's row and seats so on its own).  A file reads in the process:
 * nothing is done.  Reading ahead never fails: a read it could not make
 * is made when it is asked for.  store_read_ahead_end forgets the rows
 * (call it once the request is answered: a later request must read anew).
 * A server's connection keeps the rows of a game's table for the later
 * requests, until the server says the game changed: a later request
 * then reads them in one round trip without a statement, and sees
 * every write that ended before it began.
 */
void store_read_ahead_table(store *s, const char *id, int chats);
/* Only the mark's reads: for a page that may need no more (a browser's
 * copy may still be current); store_read_ahead_table then reads the
 * rest, leaving what is read ahead already. */
void store_read_ahead_mark(store *s, const char *id, int chats);
void store_read_ahead_end(store *s);
/* The exchanges with the database server so far (0 on a file): what
 * reading ahead saves, counted. */
int64_t store_round_trips(store *s);

/*
 * The key of an email address (address.c): lower case, without the
 * "+tag" of its local part, so "Ann+x@Example.org" is "ann@example.org".
 * The block list and the mail limits compare keys.  Returns 0, or -1 if
 * addr is not name@domain or its key does not fit cap bytes.
 */
int store_address_key(const char *addr, char *key, size_t cap);

/* ---- taking a move back (store_takeback.c) ------------------------------ */

/* How long a person's move that may still be taken back (bt_take_back_ok)
 * holds what it causes, so that a move taken back soon mails nobody and
 * no bot answers it.  All 0 (the default): nothing is held. */
typedef struct store_holds {
	int64_t mail_grace;   /* seconds before its emails' first attempt */
	int64_t bot_wait;     /* seconds before a bot may answer it */
} store_holds;

void store_set_holds(store *s, const store_holds *h);

/* 1 if seat may take back the last move of g (as loaded) now: its own
 * move, made by its person (not a bot or a stand-in), one that
 * bt_take_back_ok allows, and no action or look has followed it.  0
 * otherwise, and on any error. */
int store_can_take_back(store *s, const store_game *g, int seat);

/*
 * Seat takes back the last move of game id, which must still have
 * expected_seq lines (else STORE_CONFLICT); STORE_ILLEGAL if
 * store_can_take_back would say no.  In one transaction: the line moves
 * from the game's history to its taken-back list (the exported record
 * holds only the moves that stand), the state and the turn go back to
 * before it, the move's unsent emails are dropped and the work it left
 * (a bot's answer, hints) is removed.  *after (may be NULL) is the game
 * as it is then.
 */
store_rc store_take_back(store *s, const char *id, int seat,
                         int expected_seq, store_game *after,
                         store_error *err);

/* A move that was taken back: it was line seq, made at created. */
typedef struct store_taken {
	int seq, seat;
	int64_t created, taken;
	char line[BT_ACTION_TEXT_MAX];
} store_taken;

enum { STORE_TAKEN_MAX = 1000 };   /* listed per game, oldest first */

/* Calls fn for each move taken back in game id, oldest first (at most
 * STORE_TAKEN_MAX); fn returns nonzero to stop. */
store_rc store_taken_list(store *s, const char *id,
                          int (*fn)(void *ctx, const store_taken *t),
                          void *ctx, store_error *err);

/* ---- a rematch chain: the crew's games (store_crew.c) ---------------- */

enum { STORE_CREW_MAX = 50 };    /* games one store_crew call returns */

/* One game of a crew, as its record shows it now. */
typedef struct store_crew_game {
	char id[STORE_ID_LEN + 1];
	int64_t created, updated;       /* unix seconds */
	bt_status status;
	int leisure, goal;              /* at the end, or now if playing */
	int players;
	int practice;                   /* 1: a practice table (hints on) */
	int bot_moved;                  /* 1: a seat is a bot's, or a bot or
	                                 * a stand-in made one of its lines */
} store_crew_game;

/*
 * The crew game id belongs to: the chain of games that "play again"
 * made (games.rematch), oldest first, into out (at most cap, itself at
 * most STORE_CREW_MAX); *n how many.  A game never played again and
 * never made by a rematch is a crew of one.  A chain longer than cap
 * is cut around id: from up to cap - 1 games before it, then onwards.
 * Each game is met at most once, so a damaged chain (a cycle) ends.
 * STORE_NOT_FOUND if there is no game id.
 */
store_rc store_crew(store *s, const char *id, store_crew_game *out, int cap,
                    int *n, store_error *err);

/*
 * How many games of id's crew came before it (0: the first; 2: the
 * second rematch) into *before_n, walking back at most 2 x
 * STORE_CREW_MAX - 1 games (a cycle ends the walk).  Reads no game, so
 * it may run inside another of the store's calls (a mail_fn).  A game
 * that is not there has none before it.
 */
store_rc store_crew_place(store *s, const char *id, int *before_n,
                          store_error *err);

/* ---- ending a game that can no longer be won (store_end.c) ---------- */

/*
 * Seat of game id ends it where it stands: only while the game, at
 * expected_seq lines (else STORE_CONFLICT) and with no Sensor Sweep
 * being looked at, is in play and can no longer be won (bt_out_of_reach;
 * else STORE_ILLEGAL), and only a person's seat (a bot's: STORE_INVALID).
 * No record line is written (the record replays as before); the game is
 * marked ended by seat and lost, and from then on loads as lost.  In
 * the same transaction, as a last move would: the emails fn (may be
 * NULL) composes for each seat of the game as it is then (status lost,
 * ended_by set) are queued, the review is queued, and the work the
 * game had waiting (a bot's turn, hints) is dropped.  *after (may be
 * NULL) is the game then.
 */
store_rc store_end_game(store *s, const char *id, int seat, int expected_seq,
                        store_seat_mail_fn fn, void *ctx, store_game *after,
                        store_error *err);

/* Seconds a game-over email waits for the game's review, which gives it
 * the review's biggest turning point (the worker lets it go as soon as
 * the review is in: store_review_release); then it goes without. */
enum { STORE_OVER_WAIT = 600 };

/* The review of game id is all in: its game-over emails still waiting
 * for it (STORE_OVER_WAIT) are due now.  *n (may be NULL) counts them. */
store_rc store_review_release(store *s, const char *id, int *n,
                              store_error *err);

/* Text for a return code ("conflict"). */
const char *store_rc_name(store_rc rc);

/* The bots' side of the store: the worker's jobs, reviews, hints and
 * stand-ins (they use the types above). */
#include "store_bots.h"

#endif
