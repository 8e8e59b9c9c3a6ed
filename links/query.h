/*
 * query.h - the names in the query strings of our links, spelled once:
 * for the pages and redirects that write them (cgi/), the emails that
 * write them (mail/) and the table that reads them (cgi/fields.c).
 * String literals, so that they join a format:
 *     snprintf(url, cap, "%sg/%s?" QUERY_AT "=%d", prefix, id, n)
 * tests/check_fields.c holds each to its field in the table.
 */
#ifndef BT_QUERY_H
#define BT_QUERY_H

#define QUERY_AT "at"            /* the table after move N (history, feed) */
#define QUERY_NOTICE "m"         /* a notice after a redirect: below */
#define QUERY_TOKEN "t"          /* a seat link's token */
#define QUERY_CONFIRMED "c"      /* "yes, this seat" on a shared browser */
#define QUERY_AGAIN "again"      /* a game made by "play again" */
#define QUERY_KEY "k"            /* the key of a feed, watch or mail link */
#define QUERY_SEAT "s"           /* the seat of a feed or unsubscribe link */
#define QUERY_ADDRESS "a"        /* the address of a block link */

/* The notices ?m= names: the words the handlers redirect with and
 * cgi/page_table.c (the settings page: saved) shows. */
#define QUERY_NOTICE_STALE "stale"
#define QUERY_NOTICE_ILLEGAL "illegal"
#define QUERY_NOTICE_NUDGED "nudged"
#define QUERY_NOTICE_NUDGE_AGAIN "nudge_again"
#define QUERY_NOTICE_NUDGE_NONE "nudge_none"
#define QUERY_NOTICE_SLOW "slow"
#define QUERY_NOTICE_FULL "full"
#define QUERY_NOTICE_TAKEN_BACK "taken_back"
#define QUERY_NOTICE_STANDS "stands"
#define QUERY_NOTICE_STANDIN_ASKED "standin_asked"
#define QUERY_NOTICE_STANDIN_STARTED "standin_started"
#define QUERY_NOTICE_SAVED "saved"
#define QUERY_NOTICE_SIGNED_IN "signed_in"
#define QUERY_NOTICE_SIGNED_OUT "signed_out"
#define QUERY_NOTICE_PUSH_ON "push_on"
#define QUERY_NOTICE_PUSH_OFF "push_off"
#define QUERY_NOTICE_HOOK_ON "hook_on"
#define QUERY_NOTICE_HOOK_OFF "hook_off"

/* "?m=WORD": a query of a notice alone, to end a redirect's path. */
#define QUERY_NOTICE_OF(word) "?" QUERY_NOTICE "=" word

#endif
