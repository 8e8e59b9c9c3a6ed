/*
 * sql.h - what the store's files share: the connection, every SQL
 * statement of the store in one enum-indexed table (prepared once per
 * connection, values always bound), and error helpers.
 */
#ifndef BT_SQL_H
#define BT_SQL_H

#include "driver.h"
#include "store.h"
#include "store_block.h"
#include "store_limits.h"
#include "store_notice.h"

/* PRAGMA application_id of our files: "BTO1" (set by 0001-initial). */
enum { STORE_APPLICATION_ID = 0x42544f31 };

enum sql_stmt {
	SQL_BEGIN,
	SQL_COMMIT,
	SQL_ROLLBACK,
	SQL_GAME_INSERT,
	SQL_SEAT_INSERT,
	SQL_ACTION_INSERT,
	SQL_GAME_GET,
	SQL_SEATS_GET,
	SQL_GAME_ADVANCE,
	SQL_OUTBOX_INSERT,
	SQL_SEAT_REVOKE,
	SQL_GAME_LIST,
	SQL_ACTION_COUNT,
	SQL_SWEEP_SET,
	SQL_SEAT_TOUCH,
	/* store_life.c */
	SQL_NOTIFY_SET,
	SQL_WALK,
	SQL_CHAT_RECENT,
	SQL_CHAT_INSERT,
	SQL_CHAT_LIST,
	SQL_CHAT_LATEST,
	SQL_CHAT_SIZE,
	SQL_CHAT_SINCE_LINE,
	SQL_CHAT_SINCE_TIME,
	SQL_CHAT_COUNT_LINE,
	SQL_CHAT_COUNT_TIME,
	SQL_GAME_STATE,
	SQL_SEAT_NUDGED,
	SQL_SEAT_NUDGE,
	SQL_REMIND_DUE,
	SQL_REMIND_MARK,
	SQL_DIGEST_DUE,
	SQL_DIGEST_MARK,
	SQL_REMATCH_SET,
	/* store_outbox.c */
	SQL_OUTBOX_DUE,
	SQL_OUTBOX_CLAIM,
	SQL_OUTBOX_SENT,
	SQL_OUTBOX_FAILED,
	SQL_OUTBOX_NEXT,
	SQL_OUTBOX_LIST,
	SQL_OUTBOX_RETRY,
	SQL_OUTBOX_DROP,
	/* store_mark.c */
	SQL_MARK_BEGIN,
	SQL_MARK_GAME,
	SQL_MARK_CHAT,
	/* store_limits.c */
	SQL_LIMIT_COUNT,
	SQL_LIMIT_NTH,
	SQL_LIMIT_ADD,
	SQL_LIMIT_PRUNE,
	/* store_jobs.c */
	/* store_reply.c */
	SQL_REPLY_CLAIM,
	SQL_JOB_QUEUE,
	SQL_JOB_CLAIM,
	SQL_JOB_DONE,
	SQL_JOB_RECLAIM,
	SQL_JOB_NEXT,
	SQL_JOB_LIST,
	SQL_STANDIN_RULE,
	SQL_STANDIN_SET,
	SQL_STANDIN_ASK,
	SQL_STANDIN_DUE,
	SQL_MADE_BY,
	SQL_JOB_LATER,
	SQL_JOB_CLAIM_PHASE,
	/* store_review.c */
	SQL_REVIEW_QUEUE,
	SQL_REVIEW_PUT,
	SQL_REVIEW_GET,
	/* store_hints.c */
	SQL_PRACTICE_SET,
	SQL_HINTS_QUEUE,
	SQL_HINTS_DROP,
	SQL_HINT_PUT,
	SQL_HINTS_GET,
	/* store_block.c */
	SQL_BLOCK_ADD,
	SQL_BLOCK_DROP_QUEUED,
	SQL_BLOCK_REMOVE,
	SQL_BLOCK_GET,
	SQL_BLOCK_LIST,
	/* store_crew.c */
	SQL_CREW_BEFORE,
	SQL_CREW_BOT_LINES,
	SQL_MARK_CREW,
	/* store_takeback.c */
	SQL_TAKEBACK_LAST,
	SQL_TAKEBACK_KEEP,
	SQL_TAKEBACK_DELETE,
	SQL_TAKEBACK_GAME,
	SQL_TAKEBACK_MAILS,
	SQL_TAKEBACK_JOBS,
	SQL_TAKEBACK_HINTS,
	SQL_TAKEBACK_LIST,
	/* store_create.c: the forms that made games */
	SQL_CREATION_GET,
	SQL_CREATION_ADD,
	/* store_life.c: hands shown to the crew */
	SQL_SHOWN_SET,
	SQL_SHOWN_TOUCH,
	SQL_SHOWN_GET,
	/* store_end.c */
	SQL_END_MARK,
	SQL_END_JOBS,
	SQL_END_MAILS,
	/* store_review.c: game-over emails wait for the review */
	SQL_OVER_HOLD,
	SQL_OVER_RELEASE,
	/* store_limits.c, store_outbox.c: the mail budget, "no email" */
	SQL_MAIL_BUDGET_COUNT,
	SQL_MAIL_SEAT_NOTIFY,
	SQL_MAILED_SUBJECT,
	/* store_signin.c: "Email me my games", signed-in browsers */
	SQL_SIGNIN_ASKS_CLIENT,
	SQL_SIGNIN_ASKS_ADDRESS,
	SQL_SIGNIN_LINKS_PRUNE,
	SQL_SIGNIN_LINK_ADD,
	SQL_SIGNIN_LINK_GET,
	SQL_SIGNIN_LINK_USES,
	SQL_SIGNIN_ADD,
	SQL_SIGNIN_GET,
	SQL_SIGNIN_SEEN,
	SQL_SIGNIN_LIST,
	SQL_SIGNIN_DROP,
	SQL_SIGNIN_DROP_ALL,
	SQL_SIGNIN_IDLE,
	SQL_SEATS_OF_ADDRESS,
	/* store_push.c: the browsers a seat is notified on */
	SQL_PUSH_ADD,
	SQL_PUSH_TRIM,
	SQL_PUSH_REMOVE,
	SQL_PUSH_REMOVE_ALL,
	SQL_PUSH_LIST,
	SQL_PUSH_SEAT,
	SQL_PUSH_GET,
	/* store_notice.c, store_hook.c: what goes beside email */
	SQL_NOTICE_PUSH_QUEUE,
	SQL_NOTICE_HOOK_QUEUE,
	SQL_NOTICE_HOOK_COUNT,
	SQL_NOTICE_CHANNELS,
	SQL_NOTICE_DUE,
	SQL_NOTICE_CLAIM,
	SQL_NOTICE_SENT,
	SQL_NOTICE_FAILED,
	SQL_NOTICE_NEXT,
	SQL_NOTICE_LIST,
	SQL_NOTICE_TAKEBACK,
	SQL_NOTICE_END,
	SQL_HOOK_SET,
	SQL_HOOK_GET,
	SQL_HOOK_REMOVE,
	SQL_HOOK_DROP_QUEUED,
	SQL_HOOK_LAST,
	SQL__MAX
};

/* PostgreSQL's spelling of the statements whose text above is wrong
 * there or means something else; NULL for the others (sql_pg.c). */
extern const char *const sql_pg_text[];

/* When job j's game last had a job done (0: never), for the claims'
 * ORDER BY in both spellings: the claims take turns by game, so a game
 * whose bots just moved waits behind one that has waited longer, and a
 * game with many jobs queued cannot hold back the others' bot moves.
 * Reviews, in many steps (none done until the last), are by due time
 * alone.  The kinds are listed for the index on (kind, game, seq). */
#define SQL_JOB_SERVED \
	"CASE WHEN j.kind = 'review' THEN 0 ELSE coalesce(" \
	"(SELECT max(d.done) FROM jobs AS d" \
	" WHERE d.kind IN ('move', 'review', 'hints')" \
	" AND d.game = j.game), 0) END"

/* PostgreSQL: BEGIN and the one lock every writer (and migration) holds
 * for its transaction, as SQLite's BEGIN IMMEDIATE takes its file's
 * (sql.c).  Tests hold it to stand for another writer. */
extern const char sql_pg_begin_write[];

struct store {
	db_conn *db;
	db_stmt *stmt[SQL__MAX];
	struct bt_replay *replay;   /* scratch for full replays (~40 KiB) */
	struct store_mail *mail;    /* scratch for an append's mails */
	store_game *scratch;        /* the game an append or export reads */
	store_limits limits;        /* store_set_limits; all 0: none */
	store_holds holds;          /* store_set_holds; all 0: none */
	int send_hold;              /* store_set_send_hold; 0: none */
	int talk_per_game;          /* store_set_talk_cap */
	store_hook_rules hook_rules; /* store_set_hook_rules */
};

/* Fills err (if not NULL) and returns rc. */
store_rc store_fail(store_error *err, store_rc rc, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 3, 4)))
#endif
	;

/* Maps a driver's code to a store_rc, fills err with what (the
 * operation) and the connection's last error, and returns the rc. */
store_rc store_db_fail(store *s, int code, const char *what,
                       store_error *err);

/* Prepares every statement of the table not yet prepared (the store
 * prepares each when first used; tests check them all at once); DB_OK or
 * the driver's code. */
int sql_prepare_all(store *s);
void sql_finalize_all(store *s);

/* The SQL of a statement of the table. */
const char *sql_text_of(enum sql_stmt which);

/* The statement, prepared if it was not yet, reset and with its
 * bindings cleared: ready to bind; NULL if it does not prepare. */
db_stmt *sql_get(store *s, enum sql_stmt which);

/* Runs a statement without result rows to its end: DB_DONE on
 * success, else the driver's code. */
int sql_run(store *s, enum sql_stmt which);

/* BEGIN IMMEDIATE / COMMIT / ROLLBACK on the table's statements. */
/* On a server, game id's row and seats in one round trip, for the
 * store_load about to read them (store_ahead.c): 1 if so, and the load
 * then drops them (a later load must read anew); 0 on a file, or if
 * rows read ahead are held already (a page's, which it reads from). */
int sql_read_ahead_game(store *s, const char *id);
store_rc sql_begin(store *s, store_error *err);
store_rc sql_commit(store *s, store_error *err);
void sql_rollback(store *s);

/* The key of address (store_address_key) into key, or STORE_INVALID
 * saying it is no address (address.c). */
store_rc sql_key_of(const char *address, char key[STORE_EMAIL_MAX + 1],
                    store_error *err);

/* Copies column col of the current row into buf (cap bytes, always
 * NUL-terminated); -1 if it did not fit. */
int sql_column_text(db_stmt *st, int col, char *buf, size_t cap);

/* The insides of store_append_as, store_sweep_begin and store_chat_add,
 * for a caller that holds the transaction (store_reply.c).  The append
 * leaves the state before it in s->scratch. */
store_rc sql_append_locked(store *s, const char *id, int expected_seq,
                           const bt_action *a, const char *made_by,
                           store_mail_fn fn, void *ctx, bt_game *next,
                           store_error *err);
store_rc sql_sweep_locked(store *s, const char *id, int expected_seq,
                          int seat, bt_card card, store_error *err);
store_rc sql_chat_locked(store *s, const char *id, int seat,
                         const char *text, store_error *err);

/* store_load(), but replayed from the seed even if a snapshot is there. */
store_rc store_load_replayed(store *s, const char *id, store_game *out,
                             store_error *err);

/* The store_game a row of games (SQL_GAME_GET) and its seats make,
 * without its state (store_rows.c): for the store's other files. */
store_rc store_load_row(store *s, const char *id, store_game *g,
                        store_error *err);

/* Queues the emails fn composes for every seat of new game id, inside
 * the caller's transaction (store_create.c; new games and rematches). */
store_rc store_seat_mails_locked(store *s, const char *id,
                                 store_seat_mail_fn fn, void *ctx,
                                 store_error *err);

/* Creates a game inside the caller's transaction (store_create.c). */
store_rc store_create_locked(store *s, const store_new_game *ng,
                             char id[STORE_ID_LEN + 1], store_error *err);

/* Feeds g's record header (version, players, first, seed, names, stack
 * lines) to the scratch replay, after bt_replay_init. 0 or -1 (gerr). */
int store_feed_header(store *s, const store_game *g, bt_error *gerr);

/* A game's status from its spelling in the games table ("playing",
 * "won", "lost"); anything else reads as playing (store_rows.c). */
bt_status sql_status_of(const char *text);

/* ... and its spelling (store_rows.c). */
const char *sql_status_name(bt_status st);

/* The layout tag stored beside a snapshot (store_rows.c). */
int sql_snapshot_format(void);

/* why (or "failed" if empty) as one line of line's cap bytes: what a
 * failure keeps, so that the admin's lists stay a line per row
 * (store_outbox.c). */
void sql_one_line(const char *why, char *line, size_t cap);

/* Seconds until the retry after attempt number `attempts` (1, 2, ...)
 * of an email or a notice: STORE_RETRY_FIRST doubling up to
 * STORE_RETRY_MAX (store_outbox.c). */
int64_t sql_backoff(int attempts);

/* What a notice is about (store_notice.h), queued with what caused it:
 * a push to seat's browsers (seat 0: every seat's), and if hook, one
 * message to the game's webhook about hook_seat. */
typedef struct sql_notice {
	const char *game;
	const char *kind;           /* turn, reminder, nudge, over */
	int seat;
	int hook;
	int hook_seat;
	int round, risk, by_seat;
	const char *result;         /* won, lost, or "" */
	int move_seq;
	int64_t hold;               /* seconds before the first attempt */
	const bt_game *state;       /* round and risk from it, if not NULL
	                             * (worked out only if a notice is
	                             * queued), else the two above */
} sql_notice;

/* STORE_OK if game id has seat, else STORE_NOT_FOUND (store_push.c). */
store_rc sql_seat_exists(store *s, const char *id, int seat,
                         store_error *err);

/* Queues n's notices (store_notice.c), inside the caller's transaction. */
store_rc sql_queue_notice(store *s, const sql_notice *n, store_error *err);

/* The seat whose move it is in state, 0 once the game is over. */
int sql_turn_seat(const bt_game *state);

/* The next line of text at *at, without its '\n', in *line and *len;
 * moves *at past it.  0 at the end of the text (store_rows.c). */
int sql_next_line(const char **at, const char **line, size_t *len);

/* A limit's refusal in words for people, keeping err's retry time
 * (store_limits.c). */
void sql_limited_why(store_error *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* STORE_OK, or STORE_LIMITED if m is a "your seat" email its address
 * may not have today (store_limits.c); counts it if allowed. */
store_rc sql_seat_mail_allowed(store *s, const store_mail *m,
                               store_error *err);

/* Why m (to the address whose key is key, for a seat of game id or
 * none) must not go: its seat asked for no email, or the address had
 * its budget of emails for the hour or the day; NULL if it may go.  why
 * (cap bytes) holds the words (store_limits.c). */
const char *sql_mail_held(store *s, const char *id, const store_mail *m,
                          const char *key, char *why, size_t cap);
/* Stores one record line of game id, chosen by made_by ("" a person;
 * store_rows.c). */
store_rc sql_insert_line(store *s, const char *id, int seq, int seat,
                         const char *line, const char *made_by,
                         store_error *err);

/* The bot that plays seat p now: its own, or the stand-in's while its
 * player is away; "" for a person (store_standin.c). */
const char *sql_seat_bot(const store_seat *p);

/* Sets seat's standin_since (0: the stand-in ends; store_standin.c). */
store_rc sql_standin_set(store *s, const char *id, int seat, int64_t since,
                         store_error *err);

/* Queues the turn of state's seat to move as a job if bot (its seat's
 * bot, may be "") is one: the game then has seq lines; due in wait
 * seconds (store_jobs.c). */
store_rc sql_queue_bot_turn(store *s, const char *id, const char *bot,
                            const bt_game *state, int seq, int64_t wait,
                            store_error *err);

/* store_queue_mail for a move's email: move_seq is the game's line
 * count after the move that queued it (0: none), and the first attempt
 * waits delay seconds (store_queue.c). */
store_rc sql_queue_mail_at(store *s, const char *id, const store_mail *m,
                           int move_seq, int64_t delay, store_error *err);

/* Queues the review of the game id if state is over: it then has seq
 * lines, the last seat's (store_review.c). */
store_rc sql_queue_review(store *s, const char *id, const bt_game *state,
                          int seq, int seat, store_error *err);

/* On a practice table, queues the hints of the seat to move in state
 * (if a person: bot is its bot, "" for none) when the game has seq
 * lines (store_hints.c). */
store_rc sql_queue_hints(store *s, const char *id, int practice,
                         const char *bot, const bt_game *state, int seq,
                         store_error *err);

/* Gives the connection address_key(text) (store_address_key; NULL if
 * not an address), before any statement that uses it is prepared
 * (address.c).  DB_OK or the driver's code. */
db_code sql_register_functions(db_conn *c);

/* Applies the migrations the database lacks (migrate.c). */
store_rc store_migrate(store *s, store_error *err);

#endif
