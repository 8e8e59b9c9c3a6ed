/*
 * fuzz_form.c - libFuzzer harness for the form decoder (cgi/input.h).
 *
 * The input is a form body or query string.  When form_parse() accepts
 * it, every field must keep the promises of input.h: a key of 1..32 bytes
 * of printable ASCII without space, a value of valid UTF-8 with no
 * control character but tab, CR and LF, and the accessors agree.  The
 * input is also taken as a Content-Type for form_is_urlencoded().
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "input.h"
#include "utf8.h"

static form f;

static void check_key(const char *k)
{
	size_t n = strlen(k), i;

	if (n < 1 || n > FORM_KEY_MAX)
		abort();
	for (i = 0; i < n; i++)
		if (k[i] <= ' ' || k[i] > '~')
			abort();
}

static void check_value(const char *v, size_t vlen)
{
	size_t i;

	if (vlen > FORM_VALUE_MAX || strlen(v) != vlen)
		abort();
	for (i = 0; i < vlen; i++) {
		unsigned char c = (unsigned char)v[i];
		if ((c < 0x20 && c != '\t' && c != '\r' && c != '\n') ||
		    c == 0x7f)
			abort();
	}
}

static void check_fields(void)
{
	int i;
	int64_t v;

	if (f.n < 0 || f.n > FORM_FIELDS_MAX)
		abort();
	for (i = 0; i < f.n; i++) {
		const char *k = f.buf + f.f[i].key;
		const char *val = f.buf + f.f[i].value;

		check_key(k);
		check_value(val, f.f[i].vlen);
		if (form_count(&f, k) < 1 || !form_get(&f, k) ||
		    !form_get_nth(&f, k, 0))
			abort();
		(void)form_get_int(&f, k, INT64_MIN, INT64_MAX, &v);
		(void)form_get_int(&f, k, -5, 5, &v);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char why[FORM_WHY_MAX], ct[256];
	form_rc rc;

	rc = form_parse(&f, (const char *)data, size, why, sizeof why);
	if (rc == FORM_OK)
		check_fields();
	else if (f.n != 0 || !form_rc_text(rc))
		abort();
	if (size < sizeof ct) {
		memcpy(ct, data, size);
		ct[size] = '\0';
		(void)form_is_urlencoded(ct);
	}
	return 0;
}
