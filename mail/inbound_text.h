/*
 * inbound_text.h - the part of a reply's text the person wrote: without
 * the quoted message and the signature.
 *
 * A quote begins at a quote header: "On <date>, <name> wrote:" (also
 * wrapped over two lines) and its German, French, Spanish, Italian, Dutch
 * and Portuguese forms; Outlook's "-----Original Message-----", its
 * "From: / Sent:" block, the "____" line of Outlook on the web; Gmail's
 * "---------- Forwarded message" and Apple's "Begin forwarded message:".
 * Lines starting with ">" are quoted.  If a quote header is followed by
 * ">" lines the person may answer below them (bottom-posting): the
 * header and the ">" lines are dropped and the rest is kept.  Otherwise
 * (an unmarked quote, as Outlook writes) all from the header on is cut.
 * The signature ("-- " and after, "Sent from my iPhone" and the like)
 * ends the text.  Blank lines at both ends are trimmed, runs of them
 * become one, and spaces at line ends are dropped.
 */
#ifndef BT_INBOUND_TEXT_H
#define BT_INBOUND_TEXT_H

#include <stddef.h>

enum {
	INBOUND_LINES_MAX = 4096    /* lines of text looked at */
};

/* Writes the written part of text (NUL-terminated, LF line ends) to out
 * (cap bytes with its NUL; never more than strlen(text) + 1 needed).
 * Returns its length. */
size_t inbound_written(const char *text, char *out, size_t cap);

#endif
