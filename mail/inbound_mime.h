/*
 * inbound_mime.h - one received email (a reply to a turn email, as an
 * MTA hands it over) turned into plain facts: who sent it, to whom, the
 * ids it answers, whether a machine sent it, and its text in UTF-8.
 *
 * Pure parsing: no database, no engine, no token check.  GMime reads the
 * MIME structure (multipart, quoted-printable, base64, RFC 2047 headers,
 * charsets); an HTML-only reply goes through inbound_html.h.  Everything
 * lands in fixed buffers of inbound_msg, each NUL-terminated valid UTF-8
 * within its bound (longer values are cut at a character boundary); no
 * pointer into GMime survives the call.
 */
#ifndef BT_INBOUND_MIME_H
#define BT_INBOUND_MIME_H

#include <stddef.h>

#include "loop.h"      /* INBOUND_LOOP_HEADER */

enum {
	INBOUND_RAW_MAX = 1024 * 1024,  /* bytes of a whole message */
	INBOUND_DEPTH_MAX = 16,         /* MIME nesting (multipart, message) */
	INBOUND_TYPES_MAX = 256,        /* Content-Type lines, before GMime */
	INBOUND_ADDR_MAX = 321,         /* an addr-spec (320) and its NUL */
	INBOUND_RCPT_MAX = 16,          /* recipients kept */
	INBOUND_ID_MAX = 256,           /* a message id, without <> */
	INBOUND_REFS_MAX = 16,          /* References ids kept (the last) */
	INBOUND_AUTH_MAX = 8,           /* Authentication-Results kept */
	INBOUND_AUTH_LEN = 4096,        /* bytes of each, with its NUL */
	INBOUND_SUBJECT_MAX = 512,      /* bytes of the subject, with NUL */
	INBOUND_TEXT_MAX = 16 * 1024,   /* bytes of the text, with its NUL */
	INBOUND_HTML_MAX = 64 * 1024    /* bytes of HTML given to libxml2 (its
	                                 * tree costs ~10 times as much) */
};

/* Where the text came from. */
enum inbound_source {
	INBOUND_NO_TEXT = 0,      /* no text part (or only attachments) */
	INBOUND_PLAIN = 1,        /* the first text/plain part */
	INBOUND_HTML = 2          /* the first text/html part, as text */
};

typedef struct {
	char from[INBOUND_ADDR_MAX];        /* first From mailbox, as written */
	char return_path[INBOUND_ADDR_MAX]; /* "" for <> or none */
	int null_sender;                    /* Return-Path: <> was there */
	char rcpt[INBOUND_RCPT_MAX][INBOUND_ADDR_MAX]; /* To, Cc, Delivered-To,
	                                       X-Original-To, in header order */
	int n_rcpt;
	char message_id[INBOUND_ID_MAX];    /* "" if none, or too long to
	                                     * keep whole */
	char in_reply_to[INBOUND_ID_MAX];
	char refs[INBOUND_REFS_MAX][INBOUND_ID_MAX]; /* oldest first */
	int n_refs;
	int is_auto;                        /* an autoresponder, a list, ours */
	int is_bounce;                      /* a delivery status report */
	char auth[INBOUND_AUTH_MAX][INBOUND_AUTH_LEN]; /* unfolded values */
	int auth_cut[INBOUND_AUTH_MAX];     /* 1: that value was cut */
	int n_auth;
	char subject[INBOUND_SUBJECT_MAX];  /* decoded */
	char text[INBOUND_TEXT_MAX];        /* LF line ends */
	enum inbound_source source;
} inbound_msg;

/* Parses the len bytes at raw (need not be NUL-terminated) into *m.
 * Returns 0, or -1 with a reason in why (a sentence for the log) for
 * mail over INBOUND_RAW_MAX or any bound of inbound_scan.h (checked
 * first, so such mail is not parsed at all), nested deeper than
 * INBOUND_DEPTH_MAX, or not a message at all.  A message without a body is not an error: its
 * text is "". Never reads past len; safe on any bytes. */
int inbound_parse(const char *raw, size_t len, inbound_msg *m, char *why,
                  size_t why_len);

/* Appends the n bytes at in, read as charset (NULL or "": unknown), to
 * out (cap bytes with NUL, already holding *len) as valid UTF-8: the
 * declared charset if iconv knows it and all of in converts, else valid
 * UTF-8 sequences as they are and every other byte as windows-1252.  CR
 * and CRLF become LF; NUL and other control characters but LF and TAB
 * are dropped.  Cuts at a character boundary when out is full. */
void inbound_to_utf8(const char *in, size_t n, const char *charset,
                     char *out, size_t cap, size_t *len);

#endif
