/*
 * inbound_text.h - the part of a reply's text the person wrote: without
 * the quoted message and the signature.
 *
 * A quote begins at a quote header: "On <date>, <name> wrote:" and its
 * German, French, Spanish, Italian, Dutch and Portuguese forms;
 * Outlook's "-----Original Message-----", its "From: / Sent:" block,
 * the "____" line of Outlook on the web; Gmail's "---------- Forwarded
 * message" and Apple's "Begin forwarded message:".  Lines starting with
 * ">" are quoted.  If a quote header is followed by ">" lines the person
 * may answer below them (bottom-posting): the header and the ">" lines
 * are dropped and the rest is kept.  Otherwise (an unmarked quote, as
 * Outlook writes) all from the header on is cut.
 *
 * Other mail programs' headers are known by their shape, above ">"
 * lines only (blank lines between allowed): a line ending in ':' (" :",
 * or the full-width '：') with an email address, a date or time
 * ("10:12", "01/12/2026", "2026-12-01", a year) or a name with a verb
 * ("Ann wrote:", "Quoting Ann:", "schrieb", "skrev", "写道"...): mutt's
 * "* Ann <ann@example.org> [2026-12-01 10:12]:", "Ann <ann@example.org>
 * schrieb am Di., 1. Dez. 2026, 10:12:", "12/1/26, 10:12 AM, Ann
 * wrote:".  A line the person wrote that ends in ':' stays: one not
 * above ">" lines ("Here is my move:"), one without an address, date or
 * name ("wrote:" alone), and any "say:" line.  Every header may be
 * wrapped over two lines, taken as one when the first cannot end a
 * header (an open '<' or '[', a trailing ',', "On <date>") or the second
 * is only the verb ("wrote:"); else the line above a header is the
 * person's and stays ("I can play at 10:30" above "Ann wrote:").
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
