/*
 * store_block.h - never email me again (db/store_block.c): the addresses
 * whose owners asked for no mail from this server at all.  Nothing is
 * queued to an address on the list, whatever sends it.
 */
#ifndef BT_STORE_BLOCK_H
#define BT_STORE_BLOCK_H

#include "store.h"

/* One address on the block list. */
typedef struct store_blocked {
	char address[STORE_EMAIL_MAX + 1];  /* its key (store_address_key) */
	int64_t created;                    /* unix seconds */
	char how[8];                        /* "link" or "admin" */
} store_blocked;

/*
 * Nothing is ever queued to address (by its key) again: adds it with how
 * ("link": its owner clicked; "admin") and, in the same transaction,
 * drops every email still queued to it.  Blocking twice is harmless (the
 * first row stays).  STORE_INVALID if address is not name@domain.
 */
store_rc store_block_add(store *s, const char *address, const char *how,
                         store_error *err);

/* Takes address (by its key) off the list; STORE_NOT_FOUND if it was not
 * on it.  Mail is queued to it again from now on (nothing dropped comes
 * back). */
store_rc store_block_remove(store *s, const char *address,
                            store_error *err);

/* *blocked = 1 if address's key is on the list (0 for anything that is
 * not an address). */
store_rc store_block_check(store *s, const char *address, int *blocked,
                           store_error *err);

/* store_block_check in one value: 1 blocked, 0 not, -1 on error. */
int store_is_blocked(store *s, const char *address);

/* Calls fn for every blocked key in order; fn returns nonzero to stop. */
store_rc store_block_list(store *s,
                          int (*fn)(void *ctx, const store_blocked *b),
                          void *ctx, store_error *err);

#endif
