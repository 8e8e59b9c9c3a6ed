/*
 * fuzz_authres.c - libFuzzer harness for Authentication-Results
 * (mail/authres.h): any bytes give a result or -1; every string that
 * comes out is NUL-terminated inside its buffer, the counts within
 * their bounds, methods and results lowercase keywords; reading twice
 * gives the same; no crash, no read past the input.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "authres.h"

static authres a, b;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void keyword(const char *s, size_t cap)
{
	size_t n = strnlen(s, cap);

	if (n == 0 || n >= cap)
		abort();
	for (size_t i = 0; i < n; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' && s[i] <= '9') ||
		      s[i] == '-'))
			abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int rc = authres_parse((const char *)data, size, &a);

	if (rc != authres_parse((const char *)data, size, &b) ||
	    memcmp(&a, &b, sizeof a) != 0)
		abort();
	if (rc < 0) {
		if (a.authserv_id[0] || a.n_results)
			abort();
		return 0;
	}
	if (rc != 0 || strnlen(a.authserv_id, AUTHRES_ID_MAX) == 0 ||
	    strnlen(a.authserv_id, AUTHRES_ID_MAX) >= AUTHRES_ID_MAX ||
	    a.n_results < 0 || a.n_results > AUTHRES_RESULTS_MAX ||
	    a.skipped < 0)
		abort();
	for (int i = 0; i < a.n_results; i++) {
		const authres_result *r = &a.results[i];

		keyword(r->method, sizeof r->method);
		keyword(r->result, sizeof r->result);
		if (r->n_props < 0 || r->n_props > AUTHRES_PROPS_MAX)
			abort();
		for (int k = 0; k < r->n_props; k++) {
			keyword(r->props[k].ptype, AUTHRES_WORD_MAX);
			keyword(r->props[k].property, AUTHRES_WORD_MAX);
			if (strnlen(r->props[k].value, AUTHRES_VALUE_MAX) >=
			    AUTHRES_VALUE_MAX)
				abort();
		}
	}
	return 0;
}
