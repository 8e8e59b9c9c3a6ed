/*
 * input.c - decoding and validating request input: urlencoded forms and
 * query strings, cookies in and out.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "input.h"
#include "utf8.h"

_Static_assert(sizeof ((form *)0)->buf <= UINT16_MAX,
               "offsets into buf fit in uint16_t");

static const char *const rc_text[] = {
	[FORM_OK] = "ok",
	[FORM_TOO_LONG] = "input too long",
	[FORM_TOO_MANY] = "too many fields",
	[FORM_BAD_KEY] = "bad field name",
	[FORM_VALUE_TOO_LONG] = "value too long",
	[FORM_BAD_ESCAPE] = "bad percent escape",
	[FORM_BAD_TEXT] = "invalid UTF-8 or control character",
	[FORM_MISSING] = "missing field",
	[FORM_BAD_NUMBER] = "not a number in range",
};

const char *form_rc_text(form_rc rc)
{
	if ((unsigned)rc >= sizeof rc_text / sizeof rc_text[0])
		return "unknown error";
	return rc_text[rc];
}

static form_rc fail(form *f, form_rc rc, char *why, size_t cap,
                    const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* Empties f, writes the reason and returns rc. */
static form_rc fail(form *f, form_rc rc, char *why, size_t cap,
                    const char *fmt, ...)
{
	va_list ap;

	f->n = 0;
	if (why && cap) {
		va_start(ap, fmt);
		vsnprintf(why, cap, fmt, ap);
		va_end(ap);
	}
	return rc;
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Percent-decodes s[0..n) into dst (room for max bytes and a NUL).
 * Returns FORM_OK, FORM_BAD_ESCAPE (*bad = offset of the '%'), or
 * FORM_TOO_LONG when the result passes max. */
static form_rc decode(const char *s, size_t n, char *dst, size_t max,
                      size_t *outlen, size_t *bad)
{
	size_t i, o = 0;
	int hi, lo;

	for (i = 0; i < n; i++) {
		char c = s[i];
		if (c == '%') {
			hi = i + 2 < n ? hexval(s[i + 1]) : -1;
			lo = i + 2 < n ? hexval(s[i + 2]) : -1;
			/* %00 would cut the C string a handler sees */
			if (hi < 0 || lo < 0 || (hi == 0 && lo == 0)) {
				*bad = i;
				return FORM_BAD_ESCAPE;
			}
			c = (char)(hi << 4 | lo);
			i += 2;
		} else if (c == '+')
			c = ' ';
		if (o == max)
			return FORM_TOO_LONG;
		dst[o++] = c;
	}
	dst[o] = '\0';
	*outlen = o;
	return FORM_OK;
}

/* Nonzero if s[0..n) is valid UTF-8 free of control characters (C0 but
 * tab, CR, LF; DEL; C1) -- what a value may hold. */
static int good_text(const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, k;

	while (i < n) {
		if (p[i] < 0x20 && p[i] != '\t' && p[i] != '\r' && p[i] != '\n')
			return 0;
		if (p[i] == 0x7F || (p[i] == 0xC2 && i + 1 < n && p[i + 1] < 0xA0))
			return 0;
		if ((k = utf8_seq(p + i, n - i)) == 0)
			return 0;
		i += k;
	}
	return 1;
}

static int good_key(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if ((unsigned char)s[i] < 0x21 || (unsigned char)s[i] > 0x7E)
			return 0;
	return n > 0;
}

/* Decodes one "key[=value]" (input bytes [a, b), '=' at eq or b) into the
 * next field, using buf from *used on. */
static form_rc field(form *f, const char *s, size_t a, size_t eq, size_t b,
                     size_t *used, char *why, size_t cap)
{
	char *key = f->buf + *used, *val;
	size_t klen, vlen = 0, bad = 0, vstart = eq < b ? eq + 1 : b;
	int nth = f->n + 1;
	form_rc rc;

	/* cannot happen (decoding never grows text and buf has two NULs a
	 * field to spare), but the bound should not rest on a proof alone */
	if (*used + (b - a) + 2 > sizeof f->buf)
		return fail(f, FORM_TOO_LONG, why, cap, "input too long");
	rc = decode(s + a, eq - a, key, FORM_KEY_MAX, &klen, &bad);
	if (rc == FORM_BAD_ESCAPE)
		return fail(f, rc, why, cap, "field %d: bad escape at byte %zu",
		            nth, a + bad);
	if (rc != FORM_OK || !good_key(key, klen))
		return fail(f, FORM_BAD_KEY, why, cap, "field %d: name must be "
		            "1 to %d printable ASCII bytes", nth, FORM_KEY_MAX);
	val = key + klen + 1;
	rc = decode(s + vstart, b - vstart, val, FORM_VALUE_MAX, &vlen, &bad);
	if (rc == FORM_BAD_ESCAPE)
		return fail(f, rc, why, cap, "field %d: bad escape at byte %zu",
		            nth, vstart + bad);
	if (rc != FORM_OK)
		return fail(f, FORM_VALUE_TOO_LONG, why, cap, "field %d: value "
		            "over %d bytes", nth, FORM_VALUE_MAX);
	if (!good_text(val, vlen))
		return fail(f, FORM_BAD_TEXT, why, cap, "field %d: value is not "
		            "UTF-8 text without control characters", nth);
	f->f[f->n].key = (uint16_t)(key - f->buf);
	f->f[f->n].value = (uint16_t)(val - f->buf);
	f->f[f->n].vlen = (uint16_t)vlen;
	f->n++;
	*used += klen + vlen + 2;
	return FORM_OK;
}

form_rc form_parse(form *f, const char *s, size_t len, char *why,
                   size_t cap)
{
	size_t a = 0, b, eq, used = 0;
	form_rc rc;

	f->n = 0;
	if (why && cap)
		why[0] = '\0';
	if (len > FORM_BODY_MAX)
		return fail(f, FORM_TOO_LONG, why, cap, "input over %d bytes",
		            FORM_BODY_MAX);
	while (a < len) {
		for (b = a; b < len && s[b] != '&'; b++)
			;
		if (b > a) {
			if (f->n == FORM_FIELDS_MAX)
				return fail(f, FORM_TOO_MANY, why, cap,
				            "over %d fields", FORM_FIELDS_MAX);
			for (eq = a; eq < b && s[eq] != '='; eq++)
				;
			rc = field(f, s, a, eq, b, &used, why, cap);
			if (rc != FORM_OK)
				return rc;
		}
		a = b + 1;
	}
	return FORM_OK;
}

const char *form_get_nth(const form *f, const char *key, int n)
{
	int i;

	if (key == NULL || n < 0)
		return NULL;
	for (i = 0; i < f->n; i++)
		if (strcmp(f->buf + f->f[i].key, key) == 0 && n-- == 0)
			return f->buf + f->f[i].value;
	return NULL;
}

const char *form_get(const form *f, const char *key)
{
	return form_get_nth(f, key, 0);
}

int form_count(const form *f, const char *key)
{
	int i, c = 0;

	for (i = 0; key && i < f->n; i++)
		if (strcmp(f->buf + f->f[i].key, key) == 0)
			c++;
	return c;
}

form_rc form_get_int(const form *f, const char *key, int64_t min,
                     int64_t max, int64_t *v)
{
	const char *s = form_get(f, key), *p;
	uint64_t mag = 0, lim;
	int64_t n;
	int neg;

	if (s == NULL)
		return FORM_MISSING;
	neg = s[0] == '-';
	p = s + neg;
	/* "", "-", "-0", "007" are not how anyone writes a number */
	if (*p < '0' || *p > '9' || (p[0] == '0' && (p[1] || neg)))
		return FORM_BAD_NUMBER;
	lim = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
	for (; *p; p++) {
		if (*p < '0' || *p > '9')
			return FORM_BAD_NUMBER;
		if (mag > (lim - (uint64_t)(*p - '0')) / 10)
			return FORM_BAD_NUMBER;
		mag = mag * 10 + (uint64_t)(*p - '0');
	}
	if (!neg)
		n = (int64_t)mag;
	else if (mag > (uint64_t)INT64_MAX)
		n = INT64_MIN;   /* its magnitude has no int64_t of its own */
	else
		n = -(int64_t)mag;
	if (n < min || n > max)
		return FORM_BAD_NUMBER;
	*v = n;
	return FORM_OK;
}

int form_is_urlencoded(const char *ct)
{
	static const char want[] = "application/x-www-form-urlencoded";
	size_t n = sizeof want - 1;

	if (ct == NULL)
		return 0;
	while (*ct == ' ' || *ct == '\t')
		ct++;
	if (strncasecmp(ct, want, n) != 0)
		return 0;
	for (ct += n; *ct == ' ' || *ct == '\t'; ct++)
		;
	return *ct == '\0' || *ct == ';';
}

/* RFC 6265 cookie-octet. */
static int cookie_octet(unsigned char c)
{
	return c == 0x21 || (c >= 0x23 && c <= 0x2B) ||
	       (c >= 0x2D && c <= 0x3A) || (c >= 0x3C && c <= 0x5B) ||
	       (c >= 0x5D && c <= 0x7E);
}

/* RFC 7230 tchar: what a cookie name may hold. */
static int tchar(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || (c && strchr("!#$%&'*+-.^_`|~", c));
}

static int is_sp(char c)
{
	return c == ' ' || c == '\t';
}

/* Copies the value s[0..n) of the cookie we were asked for. */
static cookie_rc cookie_copy(const char *s, size_t n, char *dst, size_t cap)
{
	size_t i;

	if (n >= 2 && s[0] == '"' && s[n - 1] == '"') {
		s++;
		n -= 2;
	}
	for (i = 0; i < n; i++)
		if (!cookie_octet((unsigned char)s[i]))
			return COOKIE_BAD;
	if (n >= cap)
		return COOKIE_TOO_LONG;
	memcpy(dst, s, n);
	dst[n] = '\0';
	return COOKIE_OK;
}

cookie_rc cookie_get(const char *header, const char *name, char *dst,
                     size_t cap)
{
	size_t len, a = 0, b, eq, ne, vs, nlen;
	cookie_rc rc;

	if (dst == NULL || cap == 0)
		return COOKIE_TOO_LONG;
	dst[0] = '\0';
	if (header == NULL || name == NULL)
		return COOKIE_ABSENT;
	if ((len = strnlen(header, COOKIE_HEADER_MAX + 1)) > COOKIE_HEADER_MAX)
		return COOKIE_TOO_LONG;
	nlen = strlen(name);
	for (; a < len; a = b + 1) {
		for (b = a; b < len && header[b] != ';'; b++)
			;
		for (; a < b && is_sp(header[a]); a++)
			;
		for (eq = a; eq < b && header[eq] != '='; eq++)
			;
		if (eq == b)
			continue;
		for (ne = eq; ne > a && is_sp(header[ne - 1]); ne--)
			;
		if (ne - a != nlen || memcmp(header + a, name, nlen) != 0)
			continue;
		for (vs = eq + 1; vs < b && is_sp(header[vs]); vs++)
			;
		for (ne = b; ne > vs && is_sp(header[ne - 1]); ne--)
			;
		rc = cookie_copy(header + vs, ne - vs, dst, cap);
		if (rc != COOKIE_OK)
			dst[0] = '\0';
		return rc;
	}
	return COOKIE_ABSENT;
}

/* Nonzero if every byte of s satisfies ok, and s has at least min. */
static int all(const char *s, int (*ok)(unsigned char), size_t min)
{
	size_t n = 0;

	for (; s[n]; n++)
		if (!ok((unsigned char)s[n]))
			return 0;
	return n >= min;
}

static int path_char(unsigned char c)
{
	return c >= 0x20 && c <= 0x7E && c != ';';
}

int cookie_format(char *dst, size_t cap, const char *name,
                  const char *value, const char *path, int64_t max_age,
                  int secure)
{
	char age[40] = "";
	char pathattr[16 + 256] = "";
	int n;

	if (dst == NULL || cap == 0)
		return -1;
	dst[0] = '\0';
	if (name == NULL || value == NULL || !all(name, tchar, 1) ||
	    !all(value, cookie_octet, 0) ||
	    (path && (!all(path, path_char, 1) || strlen(path) > 255)))
		return -1;
	if (path)
		snprintf(pathattr, sizeof pathattr, "; Path=%s", path);
	if (max_age >= 0)
		snprintf(age, sizeof age, "; Max-Age=%lld", (long long)max_age);
	n = snprintf(dst, cap, "%s=%s%s%s; HttpOnly; SameSite=Lax%s", name,
	             value, pathattr, age, secure ? "; Secure" : "");
	if (n < 0 || (size_t)n >= cap) {
		dst[0] = '\0';
		return -1;
	}
	return 0;
}
