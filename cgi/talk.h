/*
 * talk.h - what a chat message may hold (table talk, page_say.c).
 *
 * A message is kept as plain UTF-8 text and escaped wherever it is
 * written.  Cleaning keeps line breaks (a CR LF or a lone CR becomes one
 * LF; a run of blank lines becomes one blank line), turns tabs into
 * spaces, drops the bidirectional embedding/override/isolate controls
 * (U+202A..U+202E, U+2066..U+2069: they would turn the text around it on
 * the page or in an email), and trims spaces and line breaks at both
 * ends, and spaces at the end of a line.  Any other control character (C0, DEL, C1) or invalid UTF-8
 * refuses the whole message: the form never sends them.
 */
#ifndef BT_TALK_H
#define BT_TALK_H

#include <stddef.h>

typedef enum talk_rc {
	TALK_OK = 0,
	TALK_EMPTY,       /* nothing left once cleaned */
	TALK_TOO_LONG,    /* over max bytes once cleaned */
	TALK_BAD_TEXT     /* invalid UTF-8 or a control character */
} talk_rc;

/*
 * Cleans the NUL-terminated text in into out (cap bytes; cap > max),
 * as above.  Returns TALK_OK with out holding 1..max bytes, or why not
 * (out then holds "").
 */
talk_rc talk_clean(const char *in, char *out, size_t cap, size_t max);

#endif
