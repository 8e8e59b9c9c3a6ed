/*
 * out.h - the output buffer every page renders into: bounded, growable,
 * the same in tests and in production (the FastCGI program writes
 * o.buf/o.len out after rendering, or an error page if o.failed).
 *
 * Escaping is the default: out_html() is the way to write any text, in
 * element content and in (always double-quoted) attribute values alike.
 * Raw output has visibly different names (out_raw, out_raws, out_rawf) and
 * is for markup the C code built itself, numbers and trusted constants.
 *
 * Failure is sticky: once a write would pass `max` or an allocation fails,
 * o->failed is set, the write is dropped and every later write is ignored.
 * Check o->failed once at the end rather than after every call.
 */
#ifndef BT_OUT_H
#define BT_OUT_H

#include <stddef.h>

enum {
	OUT_MAX_DEFAULT = 1 << 20   /* 1 MiB: far above any page we render */
};

typedef struct out {
	char *buf;      /* NUL-terminated after len (when non-NULL); owned */
	size_t len;     /* bytes written, excluding the NUL */
	size_t cap;     /* bytes allocated */
	size_t max;     /* hard bound on len */
	int failed;     /* nonzero: a write was dropped; content is unusable */
} out;

#if defined(__GNUC__)
#define OUT_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define OUT_PRINTF(f, a)
#endif

/* Starts an empty buffer bounded to max bytes (0 means OUT_MAX_DEFAULT).
 * Allocates nothing until the first write. */
void out_init(out *o, size_t max);

/* Frees the memory; o is then as after out_init with the same max. */
void out_free(out *o);

/* Empties o and clears failed, keeping its memory (for the next request). */
void out_reset(out *o);

/* The text so far, NUL-terminated; "" if nothing was written.  Valid until
 * the next write, reset or free. */
const char *out_str(const out *o);

/* RAW: appends n bytes of s unchanged.  Only for markup built by C code. */
void out_raw(out *o, const char *s, size_t n);

/* RAW: appends the C string s unchanged (NULL writes nothing). */
void out_raws(out *o, const char *s);

/* RAW: appends printf output.  For numbers and trusted constants only:
 * never pass user text through %s here, use out_html. */
void out_rawf(out *o, const char *fmt, ...) OUT_PRINTF(2, 3);

/* Appends the C string s escaped for HTML text and quoted attributes:
 * & < > " ' become &amp; &lt; &gt; &quot; &#39;.  Bytes that are not valid
 * UTF-8 (and NUL is impossible here) are replaced by U+FFFD, so the page
 * stays valid whatever s holds.  NULL writes nothing. */
void out_html(out *o, const char *s);

/* As out_html for n bytes of s; a NUL byte among them becomes U+FFFD. */
void out_htmln(out *o, const char *s, size_t n);

/* Appends s percent-encoded as one URL component (a path segment or a
 * query key or value): every byte but A-Z a-z 0-9 - . _ ~ becomes %XX
 * (upper-case hex).  The result is safe in an HTML attribute as is. */
void out_url(out *o, const char *s);

#endif
