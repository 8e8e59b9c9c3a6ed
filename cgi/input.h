/*
 * input.h - request input, validated at the door: form bodies
 * (application/x-www-form-urlencoded), query strings and cookies.
 *
 * form_parse() decodes everything into a fixed-size struct or refuses the
 * whole input with a reason; nothing is ever truncated.  After it, a key
 * is 1..FORM_KEY_MAX bytes of printable ASCII (no space) and a value is
 * 0..FORM_VALUE_MAX bytes of valid UTF-8 with no control characters but
 * tab, CR and LF (and no NUL).  Handlers read fields through form_get*.
 */
#ifndef BT_INPUT_H
#define BT_INPUT_H

#include <stddef.h>
#include <stdint.h>

enum {
	FORM_FIELDS_MAX = 64,        /* fields in one body or query */
	FORM_KEY_MAX = 32,           /* bytes of a decoded key */
	FORM_VALUE_MAX = 2048,       /* bytes of a decoded value */
	FORM_BODY_MAX = 16 * 1024,   /* bytes of the encoded input */
	FORM_WHY_MAX = 128,          /* a comfortable size for `why` */
	COOKIE_HEADER_MAX = 8192,    /* bytes of a Cookie header we look at */
	COOKIE_VALUE_MAX = 256       /* a comfortable cap for cookie_get */
};

typedef enum form_rc {
	FORM_OK = 0,
	FORM_TOO_LONG,       /* input over FORM_BODY_MAX */
	FORM_TOO_MANY,       /* over FORM_FIELDS_MAX fields */
	FORM_BAD_KEY,        /* empty, too long, or not printable ASCII */
	FORM_VALUE_TOO_LONG, /* a value over FORM_VALUE_MAX */
	FORM_BAD_ESCAPE,     /* '%' not followed by two hex digits, or %00 */
	FORM_BAD_TEXT,       /* invalid UTF-8 or a control character */
	FORM_MISSING,        /* form_get_int: no such field */
	FORM_BAD_NUMBER      /* form_get_int: not a decimal in range */
} form_rc;

/* Decoded fields, in input order.  Strings live in buf (offsets, so the
 * struct may be copied).  About 17 KiB: fine on a worker's stack. */
typedef struct form {
	int n;
	struct {
		uint16_t key, value, vlen;   /* offsets into buf; value length */
	} f[FORM_FIELDS_MAX];
	/* decoded text never outgrows its encoding, plus two NULs a field */
	char buf[FORM_BODY_MAX + 2 * FORM_FIELDS_MAX];
} form;

/* Parses len bytes of s ("a=1&b=x+y%21"; a body or a query string without
 * its '?') into f.  '+' is a space; "%XX" a byte; a key without '=' has the
 * empty value; empty pairs ("a=1&&b=2") are skipped; repeated keys are all
 * kept in order.  s need not be NUL-terminated; s may be NULL if len is 0.
 * Returns FORM_OK or the first error, with a line for people in why (cap
 * bytes, may be NULL) such as "field 3: bad escape at byte 17" (never the
 * input itself: it may be anything); on error f holds no fields. */
form_rc form_parse(form *f, const char *s, size_t len, char *why,
                   size_t cap);

/* The value of the first field named key, or NULL if there is none.  The
 * string lives in f. */
const char *form_get(const form *f, const char *key);

/* The value of the n-th (0-based) field named key, or NULL. */
const char *form_get_nth(const form *f, const char *key, int n);

/* How many fields are named key. */
int form_count(const form *f, const char *key);

/* Parses the first field named key as a decimal integer in [min, max]
 * (an optional '-', digits, nothing else: no spaces, no '+', no leading
 * zeros beyond "0") into *v.  Returns FORM_OK, FORM_MISSING or
 * FORM_BAD_NUMBER; *v is untouched on error. */
form_rc form_get_int(const form *f, const char *key, int64_t min,
                     int64_t max, int64_t *v);

/* Nonzero if the Content-Type header value ct is
 * application/x-www-form-urlencoded (case-insensitive, with or without
 * parameters such as "; charset=UTF-8").  NULL gives 0. */
int form_is_urlencoded(const char *ct);

/* A short constant description of rc, for logs. */
const char *form_rc_text(form_rc rc);

typedef enum cookie_rc {
	COOKIE_OK = 0,
	COOKIE_ABSENT,      /* no cookie of that name (or no header) */
	COOKIE_TOO_LONG,    /* the value does not fit in cap bytes, or the
	                       header is over COOKIE_HEADER_MAX */
	COOKIE_BAD          /* the value holds bytes RFC 6265 forbids */
} cookie_rc;

/* Finds the first cookie named name (case-sensitive) in a Cookie header
 * value such as "a=b; c=d" (header may be NULL) and copies its value,
 * NUL-terminated and with surrounding double quotes removed, into dst
 * (cap bytes).  A header over COOKIE_HEADER_MAX bytes is refused as a
 * whole (COOKIE_TOO_LONG), never cut.  On any error dst holds "". */
cookie_rc cookie_get(const char *header, const char *name, char *dst,
                     size_t cap);

/* Writes a Set-Cookie header value (without "Set-Cookie: ") into dst:
 * "name=value; Path=path; Max-Age=N; HttpOnly; SameSite=Lax[; Secure]".
 * max_age < 0 leaves Max-Age out (a session cookie); 0 deletes the
 * cookie.  path may be NULL (no Path).  name must be an RFC 6265 token,
 * value cookie-octets, path printable ASCII without ';'.  Returns 0, or
 * -1 (dst holds "") if an argument is invalid or dst is too small. */
int cookie_format(char *dst, size_t cap, const char *name,
                  const char *value, const char *path, int64_t max_age,
                  int secure);

#endif
