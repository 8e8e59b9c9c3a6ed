/*
 * hook_format.h - the one message that a game's crew chat webhook is
 * sent when something happens (a seat's turn, the game over, a test):
 * its body, Content-Type and extra headers, in the form each kind of
 * receiver takes (Discord, Slack, Matrix's hookshot, ntfy, or signed
 * JSON for anything else), for net/post.h's post_send.  Pure: no I/O.
 *
 * Player text (the line, a seat's name) goes into bodies only, escaped
 * for where it lands (JSON, Discord's markdown, Slack's entities, HTML),
 * never into a header; it is UTF-8 with each invalid byte written as
 * U+FFFD, and a line too long for the body is cut between characters.
 *
 * The signed JSON (HOOK_JSON), for a receiver's author:
 *
 *   POST with Content-Type: application/json and the headers
 *     X-BufferTime-Event: turn             (or over, test)
 *     X-BufferTime-Timestamp: 1700000000   (unix seconds, when sent)
 *     X-BufferTime-Signature: sha256=HEX
 *   where HEX is the lower-case hex of HMAC-SHA256 keyed with the
 *   game's 32-byte secret over the timestamp's digits, a ".", then the
 *   body's bytes exactly as received.  To verify: compute the same over
 *   the raw body (before any JSON parsing), compare in constant time
 *   (hmac.compare_digest, crypto_verify_32), reject a timestamp more
 *   than a few minutes from now (a replay), and take the body's "id"
 *   as the notice's own: a retry sends the same id again (with a new
 *   time and signature), so a receiver drops an id it has seen.
 *
 *   The body's keys, always in this order:
 *   {"event":"turn","game":"AbC","id":42,"time":1700000000,
 *    "text":"Ben's turn ...","url":"https://...","seat":2,"name":"Ben",
 *    "round":3,"risk":12,"result":null}
 *   seat and name null unless a seat's turn (seat 0), risk null if
 *   none, result "won" or "lost" when the game is over, else null.
 */
#ifndef BT_HOOK_FORMAT_H
#define BT_HOOK_FORMAT_H

#include <stddef.h>

enum {
	HOOK_BODY_MAX = 4096,        /* bytes of body, with its NUL */
	HOOK_HEADERS_MAX = 4,
	HOOK_HEADER_MAX = 160,       /* one "Name: value", with its NUL */
	HOOK_SECRET_BYTES = 32       /* HOOK_JSON's HMAC key */
};

/* The kinds of receiver, as a game stores its choice. */
typedef enum hook_kind {
	HOOK_DISCORD,
	HOOK_SLACK,
	HOOK_MATRIX,                 /* hookshot's generic webhook */
	HOOK_NTFY,
	HOOK_JSON,                   /* signed JSON, for any other URL */
	HOOK__MAX
} hook_kind;

/* The kind's stored name ("discord", "slack", "matrix", "ntfy",
 * "json"); NULL if k is none. */
const char *hook_kind_name(hook_kind k);

/* The kind whose stored name is exactly name into *k: 0, or -1. */
int hook_kind_parse(const char *name, hook_kind *k);

/* The kind in words for players ("Matrix (hookshot)"); NULL if k is
 * none. */
const char *hook_kind_words(hook_kind k);

/*
 * The kind a webhook URL most likely wants, from its host (compared
 * without case, whole: discord.com.evil.example is not Discord):
 * https://discord.com/api/webhooks/... (or discordapp.com, and their
 * ptb. and canary.) is Discord, https://hooks.slack.com/... Slack,
 * https://ntfy.sh/... ntfy, anything else (http: too) HOOK_JSON.
 */
hook_kind hook_kind_guess(const char *url);

/* One event, composed by the caller. */
typedef struct hook_event {
	const char *event;   /* "turn", "over" or "test" */
	const char *game;    /* the game's id (ASCII letters/digits) */
	const char *text;    /* the one line, UTF-8, may hold player text */
	const char *url;     /* the table's URL (ours, ASCII, no spaces) */
	const char *name;    /* the seat's name for "turn" (player text),
	                      * or "" */
	int seat;            /* for "turn": whose turn; else 0 */
	int round;           /* the round, 0 if none */
	int risk;            /* a percent 0..100, or -1 if none */
	const char *result;  /* "won", "lost" for "over"; else "" */
	long long id;        /* the notice's id: the same on a retry */
	long long time;      /* unix seconds it is sent at */
} hook_event;

/* One message to POST.  headers points into header, in this same
 * struct: use it where it was filled, do not copy it by value. */
typedef struct hook_message {
	char body[HOOK_BODY_MAX];    /* NUL-terminated too */
	size_t len;
	const char *ctype;                              /* Content-Type */
	char header[HOOK_HEADERS_MAX][HOOK_HEADER_MAX]; /* "Name: value" */
	const char *headers[HOOK_HEADERS_MAX + 1];      /* NULL-terminated */
} hook_message;

/*
 * Fills out with the message of kind k for the event e.  secret
 * (HOOK_SECRET_BYTES) signs HOOK_JSON's and is not read for the others
 * (may be NULL).  The line is cut to fit (Discord: its 2,000 characters
 * too), a JSON name to 256 bytes.  Returns 0, or -1 with out emptied:
 * an unknown kind or event, a NULL part, a risk outside -1..100, a URL
 * that is empty or holds a byte that is not printable ASCII or not
 * allowed in a URL (space, " < > \ ^ ` { | }), or what is not the line
 * not fitting (a URL too long for a header, say).
 */
int hook_format(hook_kind k, const hook_event *e,
                const unsigned char *secret, hook_message *out);

/*
 * s (UTF-8, invalid bytes as U+FFFD) as a JSON string, quotes and all,
 * into buf (cap bytes, with its NUL), escaped as the bodies are: for a
 * JSON of another's making (a Web Push payload).  Returns its length, or
 * -1 (and buf "") if it does not fit whole.
 */
int hook_json_text(const char *s, char *buf, size_t cap);

#endif
