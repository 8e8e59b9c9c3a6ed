/*
 * store_push.h - the browsers a seat is notified on (Web Push;
 * db/store_push.c): a subscription is the push service's endpoint (an
 * https URL the browser chose) and the browser's keys, base64url as the
 * browser gives them.  The store checks their shape, not their meaning.
 */
#ifndef BT_STORE_PUSH_H
#define BT_STORE_PUSH_H

#include "store.h"

enum {
	STORE_PUSH_ENDPOINT_MAX = 1024,   /* bytes of an endpoint URL */
	STORE_PUSH_P256DH_LEN = 87,       /* base64url of 65 bytes */
	STORE_PUSH_AUTH_LEN = 22,         /* base64url of 16 bytes */
	STORE_PUSH_PER_SEAT = 5           /* devices of one seat, newest kept */
};

typedef struct store_push_sub {
	char endpoint[STORE_PUSH_ENDPOINT_MAX + 1];
	char p256dh[STORE_PUSH_P256DH_LEN + 1];
	char auth[STORE_PUSH_AUTH_LEN + 1];
	int64_t created;
} store_push_sub;

/* Keeps sub for seat of game id (the same endpoint again: its keys
 * replaced), the seat's oldest dropped past STORE_PUSH_PER_SEAT.
 * STORE_INVALID if its shape is wrong (an endpoint not https, or http
 * when allow_http, too long, or with spaces; keys of the wrong length or
 * alphabet); STORE_NOT_FOUND without such a seat. */
store_rc store_push_add(store *s, const char *id, int seat,
                        const store_push_sub *sub, int allow_http,
                        store_error *err);

/* Drops the subscription endpoint of seat (endpoint NULL: all of the
 * seat's); STORE_NOT_FOUND if there was none. */
store_rc store_push_remove(store *s, const char *id, int seat,
                           const char *endpoint, store_error *err);

/* The subscription endpoint of seat into out; STORE_NOT_FOUND if the
 * seat has none so (notifications turned off since). */
store_rc store_push_get(store *s, const char *id, int seat,
                        const char *endpoint, store_push_sub *out,
                        store_error *err);

/* The seat's subscriptions, the newest first, max at most. */
store_rc store_push_list(store *s, const char *id, int seat,
                         store_push_sub *out, int max, int *n,
                         store_error *err);

#endif
