/*
 * template.h - a small template renderer (Debian 12 packages no C one).
 *
 * Markup lives in templates/NAME.html; the C code supplies values by key.
 * Keys are the caller's enum, named by a parallel table of strings
 * (lower-case letters, digits, '_'); a name outside the table is a compile
 * error, so a typo fails at worker start, not on a page.
 *
 *   {{key}}          the key's text, escaped with out_html (the default)
 *   {{{key}}}        the key's text RAW: only for HTML the C code built
 *   {{#key}} ... {{/key}}
 *                    a section: rendered for iteration 0, 1, ... while
 *                    section(ctx, key, i) returns nonzero (0 times if it
 *                    returns 0 at once: that is a conditional)
 *   {{^key}} ... {{/key}}
 *                    an inverted section: rendered once if
 *                    section(ctx, key, 0) returns 0 (an "else"/"none")
 *   {{!anything}}    a comment, may span lines; writes nothing
 *
 * Spaces and tabs inside a tag around the name are allowed ({{ key }}).
 * Sections do not nest (a section inside a section is a compile error);
 * a page that needs more renders the inner part in C into a key marked
 * {{{...}}} or uses a second template.  "{{" always starts a tag.
 */
#ifndef BT_TEMPLATE_H
#define BT_TEMPLATE_H

#include <stddef.h>

#include "out.h"

enum {
	TMPL_FILE_MAX = 256 * 1024,   /* bytes of a template file */
	TMPL_ITER_MAX = 1000,         /* iterations of one section */
	TMPL_NAME_MAX = 32,           /* bytes of a key name */
	TMPL_WHY_MAX = 256            /* a comfortable size for `why` */
};

typedef enum tmpl_rc {
	TMPL_OK = 0,
	TMPL_SYNTAX,     /* compile: unknown key, bad nesting, unterminated */
	TMPL_TOO_BIG,    /* load: file over TMPL_FILE_MAX */
	TMPL_IO,         /* load: cannot open or read the file */
	TMPL_NOMEM,      /* an allocation failed */
	TMPL_OUTPUT,     /* render: the out buffer failed (over its bound) */
	TMPL_RUNAWAY,    /* render: a section passed TMPL_ITER_MAX iterations */
	TMPL_INVALID     /* a bad argument (NULL template, bad name table) */
} tmpl_rc;

typedef struct tmpl tmpl;

/* Where a render gets its values.  Either callback may be NULL (all keys
 * empty / all sections shown 0 times).  `iteration` is the 0-based
 * iteration of the enclosing section, -1 outside sections (and inside an
 * inverted section).  text() returning NULL writes nothing; its string
 * must stay valid until the next callback. */
typedef struct tmpl_data {
	void *ctx;
	const char *(*text)(void *ctx, int key, int iteration);
	int (*section)(void *ctx, int key, int iteration);
} tmpl_data;

/* Compiles len bytes of text against names[0..nnames-1] (the key enum's
 * names; key k is names[k]).  On TMPL_OK *tp is a new template the caller
 * frees with tmpl_free; the names table must outlive it only during this
 * call (names are resolved to numbers).  On error *tp is NULL and why
 * (cap bytes, may be NULL) holds one line such as
 * "line 3: unknown key 'plaeyr'".  Never reads past len; NUL bytes in
 * text are an error. */
tmpl_rc tmpl_compile(const char *text, size_t len,
                     const char *const *names, int nnames,
                     tmpl **tp, char *why, size_t cap);

/* Reads the file at path (at most TMPL_FILE_MAX bytes) and compiles it as
 * tmpl_compile does; why then starts with the path. */
tmpl_rc tmpl_load_file(const char *path, const char *const *names,
                       int nnames, tmpl **tp, char *why, size_t cap);

/* Renders t into o with the values from d (d may be NULL).  Returns
 * TMPL_OK, TMPL_OUTPUT if o has failed, or TMPL_RUNAWAY if a section
 * callback never returned 0; on error the output is unusable (render an
 * error page instead).  A template is read-only here: one compiled
 * template may be rendered by several threads at once. */
tmpl_rc tmpl_render(const tmpl *t, out *o, const tmpl_data *d);

/* Frees t (NULL is fine). */
void tmpl_free(tmpl *t);

/* A short constant description of rc, for logs. */
const char *tmpl_rc_text(tmpl_rc rc);

#endif
