/*
 * notice_text.h - the words of a notice (db/store_notice.h), made when
 * it is sent from the facts it was queued with and the game as it is:
 * a push's title and body for the seat's phone ("Your turn", "Round 3,
 * risk 12%, with Ann and Ben"), the crew chat's one line ("Ben's turn —
 * Round 3, risk 12%"), and the table's address.  Never a seat's secret
 * link: a notification may be read by anyone near the phone, a chat by
 * anyone in it.
 */
#ifndef BT_NOTICE_TEXT_H
#define BT_NOTICE_TEXT_H

#include <stddef.h>

#include "store.h"
#include "store_notice.h"

enum {
	NOTICE_TITLE_MAX = 160,
	NOTICE_LINE_MAX = 400,
	NOTICE_URL_MAX = 1200,
	NOTICE_NAME_MAX = 48          /* bytes of a name, then "…" */
};

typedef struct notice_words {
	char title[NOTICE_TITLE_MAX];   /* the push's title */
	char body[NOTICE_LINE_MAX];     /* the push's body */
	char line[NOTICE_LINE_MAX];     /* the chat's message */
	char name[NOTICE_NAME_MAX + 4]; /* the name of whose turn, or "" */
	char url[NOTICE_URL_MAX];       /* the table: base_url g/ID */
} notice_words;

/* n's words for game g (as loaded now) on the server at base_url (ends
 * in '/'): 0, or -1 for a kind it does not know. */
int notice_words_make(const store_notice *n, const store_game *g,
                      const char *base_url, notice_words *w);

#endif
