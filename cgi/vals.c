/*
 * vals.c - a table of values as template callbacks.
 */
#include <stdio.h>
#include <string.h>

#include "vals.h"

void vals_init(vals *v)
{
	memset(v->text, 0, sizeof v->text);
	memset(v->count, 0, sizeof v->count);
	v->row = NULL;
	v->ctx = NULL;
	v->nnums = 0;
}

void vals_set(vals *v, web_key key, const char *s)
{
	v->text[key] = s;
}

void vals_int(vals *v, web_key key, long n)
{
	/* Past the last slot the number is dropped, never misplaced. */
	if (v->nnums >= VALS_NUMS) {
		v->text[key] = "?";
		return;
	}
	snprintf(v->nums[v->nnums], VALS_NUM_MAX, "%ld", n);
	v->text[key] = v->nums[v->nnums++];
}

void vals_show(vals *v, web_key key, int on)
{
	v->count[key] = on ? 1 : 0;
}

void vals_rows(vals *v, web_key key, int n)
{
	v->count[key] = n > 0 ? n : 0;
}

static const char *vals_text(void *ctx, int key, int i)
{
	vals *v = ctx;
	const char *s;

	if ((unsigned)key >= K__MAX)
		return NULL;
	if (i >= 0 && v->row && (s = v->row(v->ctx, key, i)) != NULL)
		return s;
	return v->text[key];
}

static int vals_section(void *ctx, int key, int i)
{
	const vals *v = ctx;

	return (unsigned)key < K__MAX && i < v->count[key];
}

tmpl_data vals_data(vals *v)
{
	return (tmpl_data){ .ctx = v, .text = vals_text,
	                    .section = vals_section };
}
