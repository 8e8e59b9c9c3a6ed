/*
 * inbound_html.h - the text a person wrote in an HTML-only email, with
 * libxml2's HTML parser: block elements (p, div, br, li, tr, h1-h6, ...)
 * end lines, whitespace collapses as a browser shows it, entities are
 * decoded by the parser; head, script and style are dropped, and so is
 * the quoted message: blockquote (Apple Mail's type=cite, Thunderbird's
 * after its div.moz-cite-prefix), div.gmail_quote, div.yahoo_quoted, and
 * div#appendonsend or div#divRplyFwdMsg (Outlook) with all that follows.
 */
#ifndef BT_INBOUND_HTML_H
#define BT_INBOUND_HTML_H

#include <stddef.h>

/* Writes the text of the n bytes of UTF-8 HTML at html (at most
 * INBOUND_HTML_MAX of them are read) to out (cap bytes with its NUL):
 * UTF-8, LF line ends, cut at a character boundary when full. Returns
 * its length. */
size_t inbound_html_text(const char *html, size_t n, char *out, size_t cap);

#endif
