/*
 * store_limits.h - what a stranger can make the server do has bounds
 * (db/store_limits.c): games a client may start, "your seat" emails and
 * every email one address may be sent, wrong invitation codes, answers
 * to replies that did nothing.
 */
#ifndef BT_STORE_LIMITS_H
#define BT_STORE_LIMITS_H

#include "store.h"

/* A connection's limits (0: none, the default of store_open, as for the
 * administrator's tools).  The web program sets them from its config. */
typedef struct store_limits {
	int games_per_hour;       /* games one client may make in an hour */
	int seat_mails_per_day;   /* "your seat" emails one address (key)
	                           * may be sent in a day, server-wide */
	/* every email to one address (key), of any kind: over these, an
	 * email is kept in the outbox but dropped, with why */
	int mails_per_hour;
	int mails_per_day;
} store_limits;

enum {
	STORE_LIMIT_HOUR = 3600,
	STORE_LIMIT_DAY = 86400,
	STORE_BAD_CODES_PER_HOUR = 10,  /* wrong invitation codes a client
	                                 * may send in an hour */
	STORE_ANSWERS_PER_DAY = 40      /* answers to replies that made no
	                                 * move or look (talk, thanks, loops)
	                                 * to one address in a day */
};

typedef enum store_limit_kind {
	STORE_LIMIT_GAME,         /* a game made; subject: the client */
	STORE_LIMIT_SEAT,         /* a "your seat" email; subject: its key */
	STORE_LIMIT_CODE,         /* a wrong invitation code; the client */
	STORE_LIMIT_ANSWER        /* an answer to a reply that did nothing;
	                           * the key of its address */
} store_limit_kind;

void store_set_limits(store *s, const store_limits *l);

/*
 * Counts one event of kind for subject now, unless max of them (max 0:
 * no limit, nothing counted) happened in the last window seconds: then
 * STORE_LIMITED with err->retry_at, and nothing counted.  Inside the
 * caller's transaction if one is open (so a refusal there undoes the
 * rest), else in a transaction of its own.
 */
store_rc store_limit_take(store *s, store_limit_kind kind,
                          const char *subject, int max, int64_t window,
                          store_error *err);

/* store_limit_take's check alone: STORE_OK or STORE_LIMITED. */
store_rc store_limit_peek(store *s, store_limit_kind kind,
                          const char *subject, int max, int64_t window,
                          store_error *err);

#endif
