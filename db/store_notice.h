/*
 * store_notice.h - the notices that go beside email (db/store_notice.c,
 * db/store_hook.c): a Web Push message to each browser a seat turned
 * notifications on in, and one message a game event to the crew's chat
 * webhook, if the game names one.
 *
 * A notice is queued in the transaction of what caused it (a person's
 * turn, a reminder, a nudge, the end of the game, a move's notices held
 * and dropped with its emails if it is taken back), keeping the facts
 * its words are made of (the round, the risk, who nudged): the words are
 * made when it is sent (notify/), by the worker's notice lane, which
 * claims each due notice as the mailer claims an email (its attempt
 * counted and its retry set first), then marks it sent, failed (to be
 * retried after the outbox's backoff) or given up.
 */
#ifndef BT_STORE_NOTICE_H
#define BT_STORE_NOTICE_H

#include "store.h"

enum {
	STORE_NOTICE_TARGET_MAX = 1024,   /* an endpoint's or a hook's URL */
	STORE_NOTICE_ATTEMPTS = 6,        /* then given up */
	STORE_HOOK_SECRET_HEX = 64,       /* 32 bytes */
	STORE_HOOK_PER_GAME_HOUR = 30,    /* the defaults of store_hook_rules */
	STORE_HOOK_PER_SERVER_HOUR = 1200
};

typedef struct store_notice {
	int64_t id;
	char game[STORE_ID_LEN + 1];
	int seat;                   /* push: the seat notified; hook: whose
	                             * turn, or 0 */
	char kind[16];              /* turn, reminder, nudge, over; hello
	                             * (the first a new webhook gets) */
	char channel[8];            /* push, hook */
	char target[STORE_NOTICE_TARGET_MAX + 1];
	int round;
	int risk;                   /* percent, or -1 */
	int by_seat;                /* who nudged or ended the game, or 0 */
	char result[8];             /* won, lost, or "" */
	int move_seq;
	int64_t created;
	int attempts;               /* with this one, once claimed */
	int64_t next_attempt;
	char last_error[256];
	int64_t sent, dropped;      /* 0 if not */
} store_notice;

/* What the chat webhooks may do: the admin's switch and the rates, a
 * game's and the whole server's messages an hour; one over a rate is
 * kept, dropped, saying so.  All 0: on, with the defaults above. */
typedef struct store_hook_rules {
	int off;
	int per_game_hour;
	int per_server_hour;
} store_hook_rules;

void store_set_hook_rules(store *s, const store_hook_rules *r);

/* 1 if the admin switched the webhooks off (store_set_hook_rules). */
int store_hooks_off(const store *s);

/*
 * Claims the notice due first at now: its attempt counted and its next
 * attempt set (the outbox's backoff) and committed before it returns.
 * STORE_NOT_FOUND if none is due.
 */
store_rc store_notice_claim(store *s, int64_t now, store_notice *out,
                            store_error *err);

/* Marks a claimed notice sent. */
store_rc store_notice_sent(store *s, int64_t id, store_error *err);

/* Notes why a claimed notice failed: it is tried again when its claim
 * said, unless give_up (it cannot succeed) or it had its
 * STORE_NOTICE_ATTEMPTS: then it is dropped, keeping why. */
store_rc store_notice_failed(store *s, const store_notice *n,
                             const char *why, int give_up,
                             store_error *err);

/* When the next queued notice is due, or -1 if none is queued. */
int64_t store_notice_next_due(store *s);

/* The notices newest first, at most max, to fn (which returns nonzero
 * to stop): for `buffertime admin notices` and the tests. */
store_rc store_notice_list(store *s, int max,
                           int (*fn)(void *ctx, const store_notice *n),
                           void *ctx, store_error *err);

/* ---- the game's webhook (db/store_hook.c) -------------------------------- */

typedef struct store_hook {
	char url[STORE_NOTICE_TARGET_MAX + 1];
	char kind[16];              /* discord, slack, matrix, ntfy, json */
	char secret[STORE_HOOK_SECRET_HEX + 1];   /* hex of 32 bytes */
	int set_by;
	int64_t created;
} store_hook;

/*
 * Names url (http or https, printable, at most STORE_NOTICE_TARGET_MAX
 * bytes; the caller checks its kind) as game id's webhook, replacing
 * any, with a new secret, set by seat.  STORE_INVALID for a URL of the
 * wrong shape, STORE_NOT_FOUND without such a seat, STORE_LIMITED when
 * the admin switched webhooks off.
 */
store_rc store_hook_set(store *s, const char *id, int seat, const char *url,
                        const char *kind, store_error *err);

/* The game's webhook into out; STORE_NOT_FOUND if it names none. */
store_rc store_hook_get(store *s, const char *id, store_hook *out,
                        store_error *err);

/* The last message tried or sent to the game's webhook url, into out:
 * what the settings page tells of it.  STORE_NOT_FOUND if none was. */
store_rc store_hook_last(store *s, const char *id, const char *url,
                         store_notice *out, store_error *err);

/* Removes the game's webhook (its queued messages then go nowhere);
 * STORE_NOT_FOUND if there was none. */
store_rc store_hook_remove(store *s, const char *id, store_error *err);

#endif
