/*
 * fuzz_template.c - libFuzzer harness for the template compiler and
 * renderer (cgi/template.h).
 *
 * The input is template text, compiled against the web program's key
 * table (cgi/keys.h), so the seeds are the real templates.  A template
 * that compiles is rendered with values that need escaping and sections
 * shown 0..2 times into a bounded out buffer; the render must succeed
 * (the text is small, the bound is large), and without a {{{raw}}} tag
 * no '<' of a value may come out unescaped: rendered again with values
 * that hold no '<', the output has exactly as many.  (Looking for the
 * values' "<script>" in the output was wrong: the template's own text
 * may spell it, "<script" and ">" joined across a comment.)
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "keys.h"
#include "out.h"
#include "template.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Values that need escaping (ctx NULL) or none (else); some keys
 * empty, to reach NULL texts. */
static const char *text(void *ctx, int key, int iteration)
{
	if (key % 5 == 4)
		return NULL;
	if (ctx)
		return iteration > 0 ? "it 1 x" : "safe text";
	return iteration > 0 ? "it \"1\" & <x>" : "<script>&amp;'";
}

/* The '<' in the text s. */
static size_t angles(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		n += *s == '<';
	return n;
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
	const tmpl_data safe = { (void *)"safe", text, section };
	char why[TMPL_WHY_MAX];
	tmpl *t = NULL;
	tmpl_rc rc;
	out o, plain;

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
	out_init(&plain, 4 * 1024 * 1024);
	if (tmpl_render(t, &o, &d) != TMPL_OK ||
	    tmpl_render(t, &plain, &safe) != TMPL_OK)
		abort();
	if (!holds(data, size, "{{{") &&
	    angles(out_str(&o)) != angles(out_str(&plain)))
		abort();
	out_free(&plain);
	out_free(&o);
	tmpl_free(t);
	return 0;
}
