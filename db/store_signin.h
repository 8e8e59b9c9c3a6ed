/*
 * store_signin.h - "Email me my games" (db/store_signin.c): a person
 * asks for a sign-in link by address; the email carries it; a browser
 * that uses it holds every seat of that address (by its key,
 * store_address_key) until it is signed out, on "My games" and at each
 * table, in games made before and after.
 *
 * Secrets (the link's, each browser's cookie) are 32 random bytes in
 * base64url; the store keeps only their hashes, so its rows alone open
 * nothing, and a lookup by hash compares no secret byte by byte.
 */
#ifndef BT_STORE_SIGNIN_H
#define BT_STORE_SIGNIN_H

#include "store.h"

enum {
	STORE_SIGNIN_SECRET_LEN = 43,       /* base64url of 32 bytes */
	STORE_SIGNIN_LINK_SECS = 86400,     /* a link works for a day */
	STORE_SIGNIN_LINK_BROWSERS = 5,     /* browsers one link signs in */
	STORE_SIGNIN_MAILS_PER_HOUR = 3,    /* sign-in emails to one key */
	STORE_SIGNIN_ASKS_PER_HOUR = 10,    /* asks from one client */
	STORE_SIGNIN_IDLE_SECS = 180 * 86400, /* unused that long: gone */
	STORE_SIGNIN_SEEN_EVERY = 3600,     /* last_seen's resolution */
	STORE_SIGNIN_AGENT_MAX = 48         /* bytes of its description */
};

/* One signed-in browser. */
typedef struct store_signin {
	char id[STORE_ID_LEN + 1];          /* public: sign-out forms */
	char address[STORE_EMAIL_MAX + 1];  /* the key whose seats it holds */
	int64_t created, last_seen;
	char agent[STORE_SIGNIN_AGENT_MAX + 1];
	int this_link;                      /* store_signin_use: 1 if the
	                                     * browser held this link's */
} store_signin;

/* One seat of an address. */
typedef struct store_seat_ref {
	char game[STORE_ID_LEN + 1];
	int seat;
} store_seat_ref;

/*
 * Writes the email of a sign-in link whose secret is secret, working
 * until expires, to address into out: 1 if written, 0 if none is to go,
 * -1 if it could not be composed (nothing is then written to the store).
 */
typedef int store_signin_mail_fn(void *ctx, const char *address,
                                 const char *secret, int64_t expires,
                                 store_mail *out);

/*
 * client (the asker's network address, as the other limits name it)
 * asks for a sign-in link for address.  In one transaction: the ask is
 * counted for client (STORE_LIMITED past STORE_SIGNIN_ASKS_PER_HOUR, with
 * err->retry_at, nothing else done); if the address holds a seat of a
 * person in any game, is not on the block list and had fewer than
 * STORE_SIGNIN_MAILS_PER_HOUR links sent in the last hour, a link is made
 * and mail_fn's email queued (within the outbox's budget for the
 * address, like any email).  *sent says whether one was: what a page
 * shows must not depend on it.  STORE_INVALID if address is not one.
 */
store_rc store_signin_ask(store *s, const char *address, const char *client,
                          store_signin_mail_fn *mail_fn, void *ctx,
                          int *sent, store_error *err);

/*
 * A browser uses the link whose secret is link: if held (the browser's
 * sign-in cookie, or NULL) is a sign-in that came by this very link,
 * STORE_DUPLICATE with *si (a link works once per browser); else a new
 * sign-in, its cookie secret into cookie (STORE_SIGNIN_SECRET_LEN + 1
 * bytes) and its row into *si.  STORE_NOT_FOUND if the link is unknown
 * or past its day; STORE_LIMITED if it has signed in
 * STORE_SIGNIN_LINK_BROWSERS browsers already.  agent: a short
 * description of the browser, cut to STORE_SIGNIN_AGENT_MAX bytes.
 */
store_rc store_signin_use(store *s, const char *link, const char *held,
                          const char *agent, char *cookie,
                          store_signin *si, store_error *err);

/* The sign-in of cookie secret cookie, its last_seen brought up to date
 * (to the hour): STORE_NOT_FOUND if none (signed out, idle too long). */
store_rc store_signin_get(store *s, const char *cookie, store_signin *si,
                          store_error *err);

/* The sign-ins of address's key, the newest first, max at most. */
store_rc store_signin_list(store *s, const char *address, store_signin *out,
                           int max, int *n, store_error *err);

/* Signs out the sign-in id of address's key, or every one of them if id
 * is NULL: STORE_NOT_FOUND if there was none. */
store_rc store_signin_drop(store *s, const char *address, const char *id,
                           store_error *err);

/* The seats of people whose address has address's key, in any game, the
 * games last changed first, max at most. */
store_rc store_address_seats(store *s, const char *address,
                             store_seat_ref *out, int max, int *n,
                             store_error *err);

#endif
