/*
 * message.h - one queued email (store_outmail) as an RFC 5322 message,
 * ready for sendmail's standard input or a file.
 *
 * The headers, each once and in this order:
 *   Date                       the send (env->date), "+0000"
 *   From                       "Buffer Time <MAIL_FROM>"
 *   To                         the seat's address
 *   Reply-To                   the row's reply_to, if it has one: the
 *                              seat's signed reply address (reply.h)
 *   Subject                    as is if plain ASCII, else RFC 2047
 *                              encoded-words (UTF-8, base64), folded
 *   Message-ID                 <bt.OUTBOXID.GAMEID@HOST>, HOST being
 *                              MAIL_FROM's domain: the same on every
 *                              retry, so a resent message is seen as one;
 *                              with a reply_to LOCAL+TOKEN@DOMAIN,
 *                              <r.TOKEN.OUTBOXID@DOMAIN>, so a reply to
 *                              the bare address still names the seat in
 *                              In-Reply-To and References
 *   List-Unsubscribe           <URL>, if the mail has a seat and a URL
 *   List-Unsubscribe-Post      List-Unsubscribe=One-Click (RFC 8058),
 *                              with List-Unsubscribe only
 *   MIME-Version, Content-Type (text/plain; charset=utf-8),
 *   Content-Transfer-Encoding (8bit), Auto-Submitted (auto-generated),
 *   X-Buffertime-Loop (MAIL_FROM's domain: loop.h)
 * then an empty line and the body.  Lines end in "\n" (sendmail and
 * mail folders take local line ends; SMTP makes them CRLF).
 *
 * No byte of data reaches a header unchecked: addresses and the URL are
 * refused (MSG_BAD_*) unless they are plain, a subject's control
 * characters become spaces and the rest is encoded.  Body lines are cut
 * to at most MSG_LINE_MAX bytes (after a space where there is one, never
 * inside a UTF-8 character); CR and CRLF become "\n"; invalid UTF-8
 * bytes become '?'.
 */
#ifndef BT_MESSAGE_H
#define BT_MESSAGE_H

#include <stddef.h>
#include <stdint.h>

#include "store.h"

enum {
	MSG_LINE_MAX = 998,        /* bytes of a line, as RFC 5322 allows */
	MSG_WORD_MAX = 75,         /* characters of an encoded-word */
	MSG_MAX = 24 * 1024,       /* bytes of a whole message */
	MSG_ID_MAX = 128,          /* bytes of a Message-ID, <> included */
	MSG_DATE_MAX = 40          /* bytes of a Date value */
};

/* What a message needs besides the outbox row. */
typedef struct msg_env {
	const char *from;        /* mail_from: a bare address (msg_addr_ok) */
	const char *unsub_url;   /* the seat's one-click link, or NULL */
	int64_t date;            /* unix seconds of the send */
} msg_env;

typedef enum msg_rc {
	MSG_OK = 0,
	MSG_BAD_FROM,        /* mail_from is not a plain address */
	MSG_BAD_TO,          /* the recipient is not a plain address */
	MSG_BAD_URL,         /* the unsubscribe URL has odd characters */
	MSG_TOO_BIG,         /* does not fit the buffer */
	MSG_BAD_REPLY_TO     /* the row's reply_to is not a plain address */
} msg_rc;

/*
 * Writes the message for m into buf (cap bytes, MSG_MAX is always
 * enough), NUL-terminated, its length into *len.  Returns MSG_OK or why
 * not (buf then holds "").
 */
msg_rc msg_build(const store_outmail *m, const msg_env *env, char *buf,
                 size_t cap, size_t *len);

/* A short constant description of rc, for logs and last_error. */
const char *msg_rc_text(msg_rc rc);

/*
 * 1 if addr is a plain address that is safe in a header and means one
 * recipient: a dot-atom local part, '@', a domain of letters, digits,
 * hyphens and dots (ASCII only, at most STORE_EMAIL_MAX bytes).
 */
int msg_addr_ok(const char *addr);

/* The Date value for unix time t ("Tue, 14 Nov 2023 22:13:20 +0000"),
 * in English whatever the locale.  0, or -1 if t is out of range. */
int msg_date(int64_t t, char *buf, size_t cap);

/* The Message-ID of m sent as from (<bt.ID.GAME@HOST>, <bt.ID@HOST>
 * without a game, <r.TOKEN.ID@DOMAIN> with a reply_to that carries a
 * token).  0, or -1 if from is no plain address. */
int msg_id(const store_outmail *m, const char *from, char *buf,
           size_t cap);

/* The Subject's value for text: unchanged if printable ASCII (and no
 * "=?"), else folded encoded-words.  0, or -1 if it does not fit. */
int msg_subject(const char *text, char *buf, size_t cap);

#endif
