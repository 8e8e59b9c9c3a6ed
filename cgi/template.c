/*
 * template.c - compiles a template into a flat array of nodes once, then
 * renders it any number of times (and from any thread: render only reads).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "template.h"

typedef enum node_kind {
	N_TEXT,      /* literal markup: text[off .. off+len) */
	N_ESC,       /* {{key}} */
	N_RAW,       /* {{{key}}} */
	N_SECTION,   /* {{#key}}: body is nodes (this, end) */
	N_INVERTED   /* {{^key}} */
} node_kind;

typedef struct node {
	node_kind kind;
	int key;
	size_t off, len;   /* N_TEXT */
	size_t end;        /* sections: index of the node after {{/key}} */
} node;

struct tmpl {
	char *text;        /* a copy of the source: N_TEXT points into it */
	node *nodes;
	size_t n, cap;
};

/* The compiler's state: where it is and what it is inside of. */
typedef struct parse {
	const char *s;
	size_t len, pos;
	int line;
	const char *const *names;
	int nnames;
	tmpl *t;
	int open_key;      /* -1 when outside any section */
	int open_line;
	size_t open_node;
	char *why;
	size_t cap;
} parse;

static const char *const rc_text[] = {
	[TMPL_OK] = "ok",
	[TMPL_SYNTAX] = "template syntax error",
	[TMPL_TOO_BIG] = "template too big",
	[TMPL_IO] = "cannot read template",
	[TMPL_NOMEM] = "out of memory",
	[TMPL_OUTPUT] = "output buffer failed",
	[TMPL_RUNAWAY] = "section repeated too often",
	[TMPL_INVALID] = "invalid argument",
};

const char *tmpl_rc_text(tmpl_rc rc)
{
	if ((unsigned)rc >= sizeof rc_text / sizeof rc_text[0])
		return "unknown error";
	return rc_text[rc];
}

/* Writes "line N: ..." (just "..." for line 0: not about a line) into
 * why and returns rc. */
static tmpl_rc fail(parse *p, tmpl_rc rc, int line, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static tmpl_rc fail(parse *p, tmpl_rc rc, int line, const char *fmt, ...)
{
	va_list ap;
	int n = 0;

	if (p->why == NULL || p->cap == 0)
		return rc;
	p->why[0] = '\0';
	if (line > 0)
		n = snprintf(p->why, p->cap, "line %d: ", line);
	if (n < 0 || (size_t)n >= p->cap)
		return rc;
	va_start(ap, fmt);
	vsnprintf(p->why + n, p->cap - (size_t)n, fmt, ap);
	va_end(ap);
	return rc;
}

/* Appends a node; 0 or -1 when out of memory. */
static int push(tmpl *t, node nd)
{
	node *nn;
	size_t ncap;

	if (t->n == t->cap) {
		ncap = t->cap ? t->cap * 2 : 32;
		nn = realloc(t->nodes, ncap * sizeof *nn);
		if (nn == NULL)
			return -1;
		t->nodes = nn;
		t->cap = ncap;
	}
	t->nodes[t->n++] = nd;
	return 0;
}

/* Key number of the name in s[0..n), or -1. */
static int lookup(const parse *p, const char *s, size_t n)
{
	int i;

	for (i = 0; i < p->nnames; i++)
		if (strlen(p->names[i]) == n && memcmp(p->names[i], s, n) == 0)
			return i;
	return -1;
}

/* Position of close (a "}}" or "}}}") at or after from on the same line,
 * or (size_t)-1. */
static size_t find_close(const parse *p, size_t from, const char *close)
{
	size_t cl = strlen(close), i;

	for (i = from; i + cl <= p->len && p->s[i] != '\n'; i++)
		if (memcmp(p->s + i, close, cl) == 0)
			return i;
	return (size_t)-1;
}

/* Resolves the trimmed name in s[a..b) to a key, or reports why not. */
static tmpl_rc name_key(parse *p, size_t a, size_t b, int line, int *key)
{
	size_t i;

	while (a < b && (p->s[a] == ' ' || p->s[a] == '\t'))
		a++;
	while (b > a && (p->s[b - 1] == ' ' || p->s[b - 1] == '\t'))
		b--;
	if (a == b)
		return fail(p, TMPL_SYNTAX, line, "empty tag");
	for (i = a; i < b; i++) {
		unsigned char c = (unsigned char)p->s[i];
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') || c == '_'))
			return fail(p, TMPL_SYNTAX, line,
			            "bad character in tag name");
	}
	if (b - a > TMPL_NAME_MAX)
		return fail(p, TMPL_SYNTAX, line, "tag name too long");
	*key = lookup(p, p->s + a, b - a);
	if (*key < 0)
		return fail(p, TMPL_SYNTAX, line, "unknown key '%.*s'",
		            (int)(b - a), p->s + a);
	return TMPL_OK;
}

/* {{#key}} / {{^key}}: opens the one allowed level of section. */
static tmpl_rc open_section(parse *p, node_kind kind, int key, int line)
{
	node nd = { kind, key, 0, 0, 0 };

	if (p->open_key >= 0)
		return fail(p, TMPL_SYNTAX, line,
		            "section '%s' inside section '%s' (line %d): "
		            "sections do not nest", p->names[key],
		            p->names[p->open_key], p->open_line);
	p->open_key = key;
	p->open_line = line;
	p->open_node = p->t->n;
	return push(p->t, nd) ? TMPL_NOMEM : TMPL_OK;
}

/* {{/key}}: closes the open section, which must have the same key. */
static tmpl_rc close_section(parse *p, int key, int line)
{
	if (p->open_key < 0)
		return fail(p, TMPL_SYNTAX, line,
		            "{{/%s}} without an open section", p->names[key]);
	if (p->open_key != key)
		return fail(p, TMPL_SYNTAX, line,
		            "{{/%s}} closes section '%s' opened on line %d",
		            p->names[key], p->names[p->open_key], p->open_line);
	p->t->nodes[p->open_node].end = p->t->n;
	p->open_key = -1;
	return TMPL_OK;
}

/* Parses the tag starting at p->pos ("{{"), leaving pos after it. */
static tmpl_rc tag(parse *p)
{
	size_t a = p->pos + 2, close;
	int line = p->line, key;
	char sigil = a < p->len ? p->s[a] : '\0';
	node nd = { N_ESC, 0, 0, 0, 0 };
	tmpl_rc rc;

	if (sigil == '!') {
		/* comments may span lines: count them */
		for (close = a; close + 1 < p->len; close++) {
			if (p->s[close] == '}' && p->s[close + 1] == '}')
				break;
			if (p->s[close] == '\n')
				p->line++;
		}
		if (close + 1 >= p->len)
			return fail(p, TMPL_SYNTAX, line,
			            "unterminated comment");
		p->pos = close + 2;
		return TMPL_OK;
	}
	if (sigil == '{' || sigil == '#' || sigil == '^' || sigil == '/')
		a++;
	close = find_close(p, a, sigil == '{' ? "}}}" : "}}");
	if (close == (size_t)-1)
		return fail(p, TMPL_SYNTAX, line, "unterminated tag%s",
		            sigil == '{' ? " (raw tags end with }}})" : "");
	if ((rc = name_key(p, a, close, line, &key)) != TMPL_OK)
		return rc;
	p->pos = close + (sigil == '{' ? 3 : 2);
	switch (sigil) {
	case '#': return open_section(p, N_SECTION, key, line);
	case '^': return open_section(p, N_INVERTED, key, line);
	case '/': return close_section(p, key, line);
	case '{': nd.kind = N_RAW; break;
	default: break;
	}
	nd.key = key;
	return push(p->t, nd) ? TMPL_NOMEM : TMPL_OK;
}

/* Adds the literal text up to the next tag (or the end); pos moves there. */
static tmpl_rc text(parse *p)
{
	size_t i = p->pos;
	node nd = { N_TEXT, 0, p->pos, 0, 0 };

	for (; i < p->len; i++) {
		if (p->s[i] == '{' && i + 1 < p->len && p->s[i + 1] == '{')
			break;
		if (p->s[i] == '\0')
			return fail(p, TMPL_SYNTAX, p->line, "NUL byte");
		if (p->s[i] == '\n')
			p->line++;
	}
	nd.len = i - p->pos;
	p->pos = i;
	if (nd.len == 0)
		return TMPL_OK;
	return push(p->t, nd) ? TMPL_NOMEM : TMPL_OK;
}

static tmpl_rc compile(parse *p)
{
	tmpl_rc rc;

	while (p->pos < p->len) {
		if ((rc = text(p)) != TMPL_OK)
			return rc;
		if (p->pos < p->len && (rc = tag(p)) != TMPL_OK)
			return rc;
	}
	if (p->open_key >= 0)
		return fail(p, TMPL_SYNTAX, p->open_line,
		            "section '%s' is never closed",
		            p->names[p->open_key]);
	return TMPL_OK;
}

/* Nonzero if the name table has nnames non-NULL entries. */
static int names_ok(const char *const *names, int nnames)
{
	int i;

	if (nnames < 0 || (names == NULL && nnames > 0))
		return 0;
	for (i = 0; i < nnames; i++)
		if (names[i] == NULL)
			return 0;
	return 1;
}

tmpl_rc tmpl_compile(const char *text_, size_t len,
                     const char *const *names, int nnames,
                     tmpl **tp, char *why, size_t cap)
{
	parse p = { text_, len, 0, 1, names, nnames, NULL, -1, 0, 0, why,
	            cap };
	tmpl_rc rc;

	*tp = NULL;
	if (why && cap)
		why[0] = '\0';
	if ((text_ == NULL && len > 0) || !names_ok(names, nnames))
		return fail(&p, TMPL_INVALID, 0, "invalid arguments");
	if (len > TMPL_FILE_MAX)
		return fail(&p, TMPL_TOO_BIG, 0, "over %d bytes",
		            TMPL_FILE_MAX);
	if ((p.t = calloc(1, sizeof *p.t)) == NULL ||
	    (p.t->text = malloc(len + 1)) == NULL) {
		tmpl_free(p.t);
		return fail(&p, TMPL_NOMEM, 0, "out of memory");
	}
	if (len)
		memcpy(p.t->text, text_, len);
	p.t->text[len] = '\0';
	rc = compile(&p);
	if (rc == TMPL_NOMEM)
		fail(&p, rc, p.line, "out of memory");
	if (rc != TMPL_OK) {
		tmpl_free(p.t);
		return rc;
	}
	*tp = p.t;
	return TMPL_OK;
}

/* Reads at most TMPL_FILE_MAX bytes of path into a new buffer *buf. */
static tmpl_rc slurp(const char *path, char **buf, size_t *len, char *why,
                     size_t cap)
{
	FILE *f = fopen(path, "rb");
	tmpl_rc rc = TMPL_OK;

	*buf = NULL;
	*len = 0;
	if (f == NULL) {
		if (why && cap)
			snprintf(why, cap, "%s: %s", path, strerror(errno));
		return TMPL_IO;
	}
	/* one byte more than allowed tells "too big" from "exactly max" */
	if ((*buf = malloc(TMPL_FILE_MAX + 1)) == NULL)
		rc = TMPL_NOMEM;
	else {
		*len = fread(*buf, 1, TMPL_FILE_MAX + 1, f);
		if (ferror(f))
			rc = TMPL_IO;
		else if (*len > TMPL_FILE_MAX)
			rc = TMPL_TOO_BIG;
	}
	fclose(f);
	if (rc != TMPL_OK && why && cap)
		snprintf(why, cap, "%s: %s", path, tmpl_rc_text(rc));
	return rc;
}

tmpl_rc tmpl_load_file(const char *path, const char *const *names,
                       int nnames, tmpl **tp, char *why, size_t cap)
{
	char *buf, inner[TMPL_WHY_MAX];
	size_t len;
	tmpl_rc rc;

	*tp = NULL;
	if (path == NULL)
		return TMPL_INVALID;
	rc = slurp(path, &buf, &len, why, cap);
	if (rc == TMPL_OK) {
		rc = tmpl_compile(buf, len, names, nnames, tp, inner,
		                  sizeof inner);
		if (rc != TMPL_OK && why && cap)
			snprintf(why, cap, "%s: %s", path, inner);
	}
	free(buf);
	return rc;
}

/* Writes key's text, escaped or raw. */
static void value(const node *nd, out *o, const tmpl_data *d, int iter)
{
	const char *v;

	if (d == NULL || d->text == NULL)
		return;
	v = d->text(d->ctx, nd->key, iter);
	if (nd->kind == N_RAW)
		out_raws(o, v);
	else
		out_html(o, v);
}

/* Renders nodes [from, to), which hold no sections, for iteration iter. */
static void flat(const tmpl *t, size_t from, size_t to, out *o,
                 const tmpl_data *d, int iter)
{
	size_t i;

	for (i = from; i < to && !o->failed; i++) {
		if (t->nodes[i].kind == N_TEXT)
			out_raw(o, t->text + t->nodes[i].off, t->nodes[i].len);
		else
			value(&t->nodes[i], o, d, iter);
	}
}

static int shown(const tmpl_data *d, int key, int iter)
{
	return d && d->section && d->section(d->ctx, key, iter);
}

/* Renders the section at nodes[i]; returns TMPL_OK or TMPL_RUNAWAY. */
static tmpl_rc section(const tmpl *t, size_t i, out *o, const tmpl_data *d)
{
	const node *nd = &t->nodes[i];
	int iter;

	if (nd->kind == N_INVERTED) {
		if (!shown(d, nd->key, 0))
			flat(t, i + 1, nd->end, o, d, -1);
		return TMPL_OK;
	}
	for (iter = 0; shown(d, nd->key, iter) && !o->failed; iter++) {
		if (iter >= TMPL_ITER_MAX)
			return TMPL_RUNAWAY;
		flat(t, i + 1, nd->end, o, d, iter);
	}
	return TMPL_OK;
}

tmpl_rc tmpl_render(const tmpl *t, out *o, const tmpl_data *d)
{
	size_t i = 0;
	tmpl_rc rc;

	if (t == NULL || o == NULL)
		return TMPL_INVALID;
	while (i < t->n && !o->failed) {
		const node *nd = &t->nodes[i];
		if (nd->kind == N_SECTION || nd->kind == N_INVERTED) {
			if ((rc = section(t, i, o, d)) != TMPL_OK)
				return rc;
			i = nd->end;
		} else {
			flat(t, i, i + 1, o, d, -1);
			i++;
		}
	}
	return o->failed ? TMPL_OUTPUT : TMPL_OK;
}

void tmpl_free(tmpl *t)
{
	if (t == NULL)
		return;
	free(t->text);
	free(t->nodes);
	free(t);
}
