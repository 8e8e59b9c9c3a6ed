/*
 * page_say.c - POST PREFIX g/ID/say: the cookie's seat says something at
 * the table (table talk).
 *
 * Guard: the seat's cookie and its CSRF token.  Input: field text,
 * cleaned as talk.h says (line breaks kept, tabs made spaces, the
 * controls that reorder text dropped, other controls refused), then 1 to
 * STORE_CHAT_MAX bytes of it; anything else is a 400 that says what was
 * wrong.  The form's seq field is not needed: the store notes the
 * message's place in the history itself.  Then a 303 back to the table's
 * talk panel; a seat over the store's rate (STORE_CHAT_BURST messages in
 * STORE_CHAT_WINDOW seconds) gets the table with a "slow down" notice,
 * and one in a game that has had all its talk (store_set_talk_cap) a
 * notice that says so.
 */
#include <stdio.h>

#include "fields.h"
#include "query.h"
#include "store_talk.h"
#include "talk.h"
#include "web.h"

static web_err bad(web *w, const char *why)
{
	snprintf(w->why, sizeof w->why, "%s", why);
	return WEB_BAD_REQUEST;
}

/* The cleaned message into text, or the 400 of why not. */
static web_err message(web *w, char *text, size_t cap)
{
	const char *raw = field_text(&w->rq.body, FIELD_TEXT);

	if (!raw)
		return bad(w, "The form did not carry a message.");
	switch (talk_clean(raw, text, cap, STORE_CHAT_MAX)) {
	case TALK_OK:
		return WEB_OK;
	case TALK_EMPTY:
		return bad(w, "There was nothing to say: the message was "
		           "empty.");
	case TALK_TOO_LONG:
		snprintf(w->why, sizeof w->why, "That message is too long: "
		         "the table talk takes at most %d bytes (as many "
		         "letters of plain English, fewer with accents or "
		         "emoji).", STORE_CHAT_MAX);
		return WEB_BAD_REQUEST;
	default:
		return bad(w, "That message holds control characters or "
		           "broken text; nothing was said.");
	}
}

web_err page_say(web *w)
{
	static char text[STORE_CHAT_MAX + 1];
	char to[STORE_ID_LEN + 24];
	store_error err;
	store_rc rc;
	web_err e;
	int seat, left = 1;

	/* guard */
	if ((e = seat_form_guard(w, "#talk", &seat)))
		return e;
	/* inputs */
	if ((e = message(w, text, sizeof text)))
		return e;
	/* do it */
	rc = store_chat_add(w->st, w->game.id, seat, text, &err);
	if (rc == STORE_LIMITED &&
	    store_chat_left(w->st, w->game.id, &left, &err) != STORE_OK)
		return web_store_err(w, __func__, &err);
	if (rc == STORE_OK || rc == STORE_LIMITED) {
		snprintf(to, sizeof to, "g/%s%s#talk", w->game.id,
		         rc == STORE_OK ? ""
		         : left == 0 ? QUERY_NOTICE_OF(QUERY_NOTICE_FULL)
		         : QUERY_NOTICE_OF(QUERY_NOTICE_SLOW));
		return resp_redirect(w, to);
	}
	if (rc == STORE_INVALID)
		return bad(w, err.why);
	return web_store_err(w, __func__, &err);
}
