/*
 * fuzz_template.c - libFuzzer harness for the template compiler and
 * renderer (cgi/template.h).
 *
 * The input is template text, compiled against the web program's key
 * table (cgi/keys.h), so the seeds are the real templates.  A template
 * that compiles is rendered with values that need escaping and sections
 * shown 0..2 times into a bounded out buffer; the render must succeed
 * (the text is small, the bound is large), and without a {{{raw}}} tag
 * the values' "<script>" must never come out unescaped.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "keys.h"
#include "out.h"
#include "template.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Values that need escaping; some keys empty, to reach NULL texts. */
static const char *text(void *ctx, int key, int iteration)
{
	(void)ctx;
	if (key % 5 == 4)
		return NULL;
	return iteration > 0 ? "it \"1\" & <x>" : "<script>&amp;'";
}

/* Sections shown 0, 1 or 2 times by key, so inverted ones show too. */
static int section(void *ctx, int key, int iteration)
{
	(void)ctx;
	return iteration < key % 3;
}

/* 1 if the n bytes at s hold the string w. */
static int holds(const uint8_t *s, size_t n, const char *w)
{
	size_t wn = strlen(w), i;

	for (i = 0; i + wn <= n; i++)
		if (memcmp(s + i, w, wn) == 0)
			return 1;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const tmpl_data d = { NULL, text, section };
	char why[TMPL_WHY_MAX];
	tmpl *t = NULL;
	tmpl_rc rc;
	out o;

	if (size > 64 * 1024)
		return 0;
	rc = tmpl_compile((const char *)data, size, web_key_names, K__MAX, &t, why,
	                  sizeof why);
	if (rc != TMPL_OK) {
		if (t)
			abort();
		return 0;
	}
	/* Each byte of text writes at most a few iterations of values. */
	out_init(&o, 4 * 1024 * 1024);
	if (tmpl_render(t, &o, &d) != TMPL_OK)
		abort();
	if (strstr(out_str(&o), "<script>") && !holds(data, size, "<script>")
	    && !holds(data, size, "{{{"))
		abort();
	out_free(&o);
	tmpl_free(t);
	return 0;
}
