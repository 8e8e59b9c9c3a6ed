/*
 * authres.c - Authentication-Results (RFC 8601, section 2.2):
 *
 *   authres-payload = [CFWS] authserv-id [ CFWS authres-version ]
 *                     ( no-result / 1*resinfo ) [CFWS]
 *   resinfo    = [CFWS] ";" methodspec [ CFWS reasonspec ]
 *                [ CFWS 1*propspec ]
 *   methodspec = [CFWS] method [CFWS] "=" [CFWS] result
 *   method     = Keyword [ [CFWS] "/" [CFWS] method-version ]
 *   reasonspec = "reason" [CFWS] "=" [CFWS] value
 *   propspec   = ptype [CFWS] "." [CFWS] property [CFWS] "=" pvalue
 *   pvalue     = [CFWS] ( value / [ [ local-part ] "@" ] domain-name )
 *                [CFWS]
 *
 * value is an RFC 2045 token or a quoted-string; CFWS are spaces and
 * comments, which nest.
 */
#include <string.h>
#include <strings.h>

#include "authres.h"

typedef struct {
	const char *s;
	size_t n, i;
} lexer;

static int at_end(const lexer *x)
{
	return x->i >= x->n;
}

static int peek(const lexer *x)
{
	return at_end(x) ? -1 : (unsigned char)x->s[x->i];
}

/* Skips a comment that starts at x->i, nested ones and quoted pairs in
 * it; an unclosed one runs to the end. */
static void skip_comment(lexer *x)
{
	size_t depth = 0;

	while (!at_end(x)) {
		char c = x->s[x->i++];

		if (c == '\\' && !at_end(x))
			x->i++;
		else if (c == '(')
			depth++;
		else if (c == ')' && --depth == 0)
			return;
	}
}

static void skip_cfws(lexer *x)
{
	for (;;) {
		int c = peek(x);

		if (c == ' ' || c == '\t' || c == '\r' || c == '\n')
			x->i++;
		else if (c == '(')
			skip_comment(x);
		else
			return;
	}
}

/* Reads a quoted-string at x->i (its opening quote) into out (cap
 * bytes), unquoted.  -1 if unclosed or too long. */
static int quoted(lexer *x, char *out, size_t cap, size_t *len)
{
	x->i++;
	while (!at_end(x)) {
		char c = x->s[x->i++];

		if (c == '"')
			return 0;
		if (c == '\\') {
			if (at_end(x))
				return -1;
			c = x->s[x->i++];
		}
		if (*len + 1 >= cap)
			return -1;
		out[(*len)++] = c;
		out[*len] = '\0';
	}
	return -1;
}

static int is_tspecial(int c)
{
	return c != -1 && strchr("()<>@,;:\\\"/[]?=", c) != NULL;
}

static int is_token_char(int c)
{
	return c > 0x20 && c < 0x7F && !is_tspecial(c);
}

/* An RFC 2045 value (token or quoted-string) into out; -1 if none. */
static int value(lexer *x, char *out, size_t cap)
{
	size_t len = 0;

	out[0] = '\0';
	if (peek(x) == '"')
		return quoted(x, out, cap, &len);
	while (is_token_char(peek(x))) {
		if (len + 1 >= cap)
			return -1;
		out[len++] = x->s[x->i++];
	}
	out[len] = '\0';
	return len > 0 ? 0 : -1;
}

/* A Keyword (letters, digits, '-'), lowercased; -1 if none or long. */
static int keyword(lexer *x, char *out, size_t cap)
{
	size_t len = 0;
	int c;

	while ((c = peek(x)) != -1 &&
	       ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	        (c >= '0' && c <= '9') || (c == '-' && len > 0))) {
		if (len + 1 >= cap)
			return -1;
		out[len++] = (char)(c >= 'A' && c <= 'Z' ? c + 32 : c);
		x->i++;
	}
	out[len] = '\0';
	return len > 0 ? 0 : -1;
}

static int expect(lexer *x, int c)
{
	skip_cfws(x);
	if (peek(x) != c)
		return -1;
	x->i++;
	skip_cfws(x);
	return 0;
}

/* pvalue: a value, or [[local-part] "@"] domain-name: the run of
 * quoted-strings and other characters up to a space, comment or ';'. */
static int pvalue(lexer *x, char *out, size_t cap)
{
	size_t len = 0;
	int c;

	out[0] = '\0';
	skip_cfws(x);
	while ((c = peek(x)) != -1 && c != ' ' && c != '\t' && c != '\r' &&
	       c != '\n' && c != ';' && c != '(' && c != ')') {
		if (c == '"') {
			if (quoted(x, out, cap, &len) < 0)
				return -1;
			continue;
		}
		if (c < 0x21 || c > 0x7E || c == '=' || len + 1 >= cap)
			return -1;
		out[len++] = (char)c;
		out[len] = '\0';
		x->i++;
	}
	return len > 0 ? 0 : -1;
}

static int digits(lexer *x, int *v)
{
	int n = 0, any = 0;

	while (peek(x) >= '0' && peek(x) <= '9') {
		if (n < 100000)
			n = n * 10 + (x->s[x->i] - '0');
		x->i++;
		any = 1;
	}
	*v = n;
	return any ? 0 : -1;
}

/* One propspec or reasonspec, at a keyword. */
static int spec(lexer *x, authres_result *r)
{
	/* all zero: copied whole into the result, no stack bytes with them */
	char ptype[AUTHRES_WORD_MAX] = "", property[AUTHRES_WORD_MAX] = "";
	char v[AUTHRES_VALUE_MAX] = "";

	if (keyword(x, ptype, sizeof ptype) < 0)
		return -1;
	if (strcmp(ptype, "reason") == 0) {
		skip_cfws(x);
		if (peek(x) == '=')
			return expect(x, '=') < 0 ? -1 : value(x, v, sizeof v);
	}
	if (expect(x, '.') < 0 || keyword(x, property, sizeof property) < 0 ||
	    expect(x, '=') < 0 || pvalue(x, v, sizeof v) < 0)
		return -1;
	if (r->n_props < AUTHRES_PROPS_MAX) {
		authres_prop *p = &r->props[r->n_props++];
		memcpy(p->ptype, ptype, sizeof ptype);
		memcpy(p->property, property, sizeof property);
		memcpy(p->value, v, sizeof v);
	}
	return 0;
}

/* A resinfo after its ';': methodspec, reason, properties. */
static int resinfo(lexer *x, authres_result *r)
{
	int version;

	memset(r, 0, sizeof *r);
	skip_cfws(x);
	if (keyword(x, r->method, sizeof r->method) < 0)
		return -1;
	skip_cfws(x);
	if (peek(x) == '/') {
		if (expect(x, '/') < 0 || digits(x, &version) < 0)
			return -1;
	}
	if (expect(x, '=') < 0 || keyword(x, r->result, sizeof r->result) < 0)
		return -1;
	for (;;) {
		skip_cfws(x);
		if (at_end(x) || peek(x) == ';')
			return 0;
		if (spec(x, r) < 0)
			return -1;
	}
}

/* Skips a quoted-string at x->i (its opening quote), to the end if
 * unclosed. */
static void skip_quoted(lexer *x)
{
	x->i++;
	while (!at_end(x)) {
		char c = x->s[x->i++];

		if (c == '"')
			return;
		if (c == '\\' && !at_end(x))
			x->i++;
	}
}

/* Up to the next ';' that is not in a comment or quoted string. */
static void skip_resinfo(lexer *x)
{
	while (!at_end(x) && peek(x) != ';') {
		if (peek(x) == '(')
			skip_comment(x);
		else if (peek(x) == '"')
			skip_quoted(x);
		else
			x->i++;
	}
}

/* "none" (no result), alone up to the end or the next ';'. */
static int no_result(lexer *x)
{
	lexer y = *x;
	char w[8];

	skip_cfws(&y);
	if (keyword(&y, w, sizeof w) < 0 || strcmp(w, "none") != 0)
		return 0;
	skip_cfws(&y);
	if (!at_end(&y) && peek(&y) != ';')
		return 0;
	*x = y;
	return 1;
}

int authres_parse(const char *s, size_t n, authres *a)
{
	lexer x = { s, n, 0 };

	memset(a, 0, sizeof *a);
	a->version = 1;
	skip_cfws(&x);
	if (value(&x, a->authserv_id, sizeof a->authserv_id) < 0 ||
	    a->authserv_id[0] == '\0') {   /* "" names no server */
		memset(a, 0, sizeof *a);
		return -1;
	}
	skip_cfws(&x);
	if (peek(&x) >= '0' && peek(&x) <= '9')
		(void)digits(&x, &a->version);
	while (skip_cfws(&x), !at_end(&x)) {
		authres_result r;
		size_t start;

		if (peek(&x) != ';') {
			a->skipped++;
			skip_resinfo(&x);
			continue;
		}
		x.i++;
		start = x.i;
		if (no_result(&x))
			continue;
		if (resinfo(&x, &r) == 0 && a->n_results < AUTHRES_RESULTS_MAX) {
			a->results[a->n_results++] = r;
			continue;
		}
		a->skipped++;
		x.i = start;
		skip_resinfo(&x);
	}
	return 0;
}

const char *authres_prop_value(const authres_result *r, const char *ptype,
                               const char *property)
{
	for (int i = 0; i < r->n_props; i++)
		if (strcasecmp(r->props[i].ptype, ptype) == 0 &&
		    strcasecmp(r->props[i].property, property) == 0)
			return r->props[i].value;
	return NULL;
}
