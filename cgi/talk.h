/*
 * talk.h - what a chat message may hold (table talk, page_say.c), and
 * what a player's name may.
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

/*
 * A player's name, wherever one comes in (the new-game form, "buffertime
 * admin create --name" and "import"): the text in without its control
 * and invisible format characters (C0, DEL, C1, the bidirectional
 * controls above and also LRM, RLM, ALM, zero-width characters, the BOM,
 * the soft hyphen: they would let a name turn the words around it, or
 * pass for another), with tabs and line breaks as spaces, runs of spaces
 * as one and none at either end.  Returns TALK_OK with out (cap bytes)
 * holding 1 to BT_NAME_CHARS_MAX characters; TALK_EMPTY if nothing is
 * left, TALK_TOO_LONG past BT_NAME_CHARS_MAX characters or cap - 1 bytes,
 * TALK_BAD_TEXT if in is not valid UTF-8 (out then holds "").
 */
talk_rc talk_clean_name(const char *in, char *out, size_t cap);

#endif
