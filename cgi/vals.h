/*
 * vals.h - the values of one render: a text per key, an iteration count
 * per section, and for the rows of a section a callback.  Pages fill a
 * vals and hand vals_data() to tmpl_render, instead of writing a switch
 * per template.
 *
 *	vals v;
 *	vals_init(&v);
 *	vals_set(&v, K_title, name);        escaped by {{title}}
 *	vals_int(&v, K_round, g->round);
 *	vals_show(&v, K_over, done);        {{#over}}..{{/over}} or not
 *	vals_rows(&v, K_move, n);           n iterations; v.row gives texts
 */
#ifndef BT_VALS_H
#define BT_VALS_H

#include "keys.h"
#include "template.h"

enum {
	VALS_NUMS = 48,          /* numbers one render may format */
	VALS_NUM_MAX = 24
};

typedef struct vals {
	const char *text[K__MAX];   /* NULL: empty */
	int count[K__MAX];          /* a section's iterations */
	/* A row's text: key in iteration i of its section, or NULL to fall
	 * back to text[key].  May be NULL. */
	const char *(*row)(void *ctx, int key, int i);
	void *ctx;
	int nnums;
	char nums[VALS_NUMS][VALS_NUM_MAX];
} vals;

/* Empties v. */
void vals_init(vals *v);

/* Sets key's text (not copied: s must outlive the render). */
void vals_set(vals *v, web_key key, const char *s);

/* Sets key's text to the decimal n (kept in v). */
void vals_int(vals *v, web_key key, long n);

/* Shows section key once if on, else not at all. */
void vals_show(vals *v, web_key key, int on);

/* Repeats section key n times. */
void vals_rows(vals *v, web_key key, int n);

/* The tmpl_data that reads v. */
tmpl_data vals_data(vals *v);

#endif
