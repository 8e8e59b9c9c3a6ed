/*
 * notifier.h - the worker's notice lane: each due notice (store_notice.h)
 * claimed, its words made (notice_text.h) and sent, a Web Push message
 * encrypted for its browser and signed with the server's VAPID key
 * (push/webpush.h), or a chat message in its webhook's format
 * (hook_format.h), through net/post.h's guarded POST; then marked.
 *
 * What an answer means: 2xx sent; a push service's 404 or 410 means the
 * browser ended its subscription, which is dropped with its notice; any
 * other 4xx but 408 and 429, a URL the rules refuse, a webhook removed
 * or switched off, a subscription turned off: given up at once; the rest
 * (no answer in time, 408, 429, 5xx) retried with the outbox's backoff,
 * then given up after STORE_NOTICE_ATTEMPTS.
 *
 * The lane runs apart from the emails (in its own process beside the
 * worker's daemon, after the emails in `--once`), so that a slow
 * receiver delays no email; each POST is bounded by the rules' timeout.
 */
#ifndef BT_NOTIFIER_H
#define BT_NOTIFIER_H

#include <stdio.h>

#include "post.h"
#include "store.h"
#include "webpush.h"

enum { NOTIFIER_ROUND_MAX = 1000 };   /* notices one round sends at most */

typedef struct notifier {
	store *st;                  /* its own connection */
	const char *base_url;       /* the tables' addresses */
	webpush_vapid *vapid;       /* NULL: pushes are given up */
	const char *contact;        /* VAPID's sub: "mailto:ADDRESS" */
	post_rules rules;           /* allow_private, timeouts */
	FILE *log;                  /* one line per failure; NULL: stderr */
} notifier;

typedef struct notifier_counts {
	int sent, failed, given_up;
} notifier_counts;

/* Sends the notices due now, at most NOTIFIER_ROUND_MAX, stopping after
 * the one in hand once notifier_stop() was called.  Adds to *c.  A
 * failed send is no error; STORE_OK or the first store error. */
store_rc notifier_send_due(notifier *n, notifier_counts *c,
                           store_error *err);

/* 1 if a notice is due now. */
int notifier_due(notifier *n);

/* One line on the log saying what was done (nothing if nothing). */
void notifier_report(const notifier *n, const notifier_counts *c);

/* Asks the lane to stop after the notice in hand; async-signal-safe. */
void notifier_stop(void);
int notifier_stopping(void);

#endif
