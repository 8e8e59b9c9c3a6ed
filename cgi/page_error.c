/*
 * page_error.c - the one error page: every failure of every page comes
 * here as a web_err value, is answered with its status and words that
 * say what to do, and never ends the worker.
 */
#include <stdio.h>
#include <string.h>

#include "query.h"
#include "vals.h"
#include "web.h"

static const struct {
	int status;
	const char *title;
	const char *text;
	const char *hint;
} errors[WEB_ERR__MAX] = {
	[WEB_OK] = { 200, "OK", "", NULL },
	[WEB_BAD_REQUEST] = { 400, "Bad request",
		"The server could not read that request.",
		"Go back, reload the page and try again." },
	[WEB_FORBIDDEN] = { 403, "This link does not open a seat",
		"The link is wrong, out of date or for another game, or this "
		"browser has not opened the game with its seat link yet.",
		"Open your personal seat link again, or ask the game's creator "
		"for a new link." },
	[WEB_BAD_FORM] = { 403, "That form is out of date",
		"The form did not carry a valid security token for this seat "
		"(perhaps its link was revoked).",
		"Open your seat link again, or ask the game's creator for a "
		"new link." },
	[WEB_NOT_FOUND] = { 404, "Not found",
		"There is no such page or game here.",
		"Check the address; a game link looks like "
		"…/g/GAME?" QUERY_TOKEN "=TOKEN." },
	[WEB_METHOD] = { 405, "Method not allowed",
		"That page cannot be used this way.", NULL },
	[WEB_ILLEGAL] = { 409, "That move is not allowed",
		"The rules do not allow that move now; nothing changed.",
		NULL },
	[WEB_TOO_LARGE] = { 413, "Too much data",
		"The form sent more data than the server takes.", NULL },
	[WEB_MEDIA_TYPE] = { 415, "Not a form",
		"The server only takes HTML form posts.", NULL },
	[WEB_LIMITED] = { 429, "Not now",
		"This server limits how much one person can make it do.",
		"Nothing was changed. Try again later." },
	[WEB_BUSY] = { 503, "The server is busy",
		"The game's database stayed busy for too long.",
		"Wait a moment and try again." },
	[WEB_FULL] = { 503, "The server has no room left",
		"The server ran out of disk space and could not save this; "
		"nothing was changed, and every game is as it was.",
		"Try again later: the game goes on as soon as there is room "
		"again." },
	[WEB_INTERNAL] = { 500, "Something went wrong",
		"The server could not complete the request; it has been "
		"logged.", "Try again later; if it keeps happening, tell the "
		"server's operator the request id below." },
};

/* The section of the rules page that explains a rule of RULES.md. */
static const char *rule_anchor(int rule)
{
	switch (rule) {
	case 1: return "#goal";
	case 3: return "#setup";
	case 4: return "#round";
	case 5: case 6: return "#actions";
	case 7: return "#officers";
	case 8: return "#end";
	case 9: return "#abilities";
	case 10: return "#table";
	default: return "";
	}
}

/* The last resort: a plain-text body that needs no template. */
static void fallback(web *w, int status, const char *title)
{
	out_reset(&w->page);
	out_raws(&w->page, title);
	out_raws(&w->page, "\nRequest ");
	out_raws(&w->page, w->rq.id);
	out_raws(&w->page, "\n");
	w->rs.status = status;
	w->rs.ctype = "text/plain; charset=utf-8";
	w->rs.body = &w->page;
}

void page_error(web *w, web_err e)
{
	char back[WEB_URL_MAX + 1], rule[WEB_URL_MAX + 1];
	vals v;
	tmpl_data d;

	if ((unsigned)e >= WEB_ERR__MAX || e == WEB_OK)
		e = WEB_INTERNAL;
	w->rs.location[0] = '\0';
	w->rs.cookie[0] = '\0';
	w->rs.ctype = NULL;
	w->rs.cacheable = 0;
	out_reset(&w->main);
	vals_init(&v);
	vals_set(&v, K_err_title, errors[e].title);
	vals_set(&v, K_err_text, w->why[0] ? w->why : errors[e].text);
	vals_set(&v, K_err_hint, errors[e].hint);
	vals_show(&v, K_has_hint, errors[e].hint != NULL);
	vals_set(&v, K_request_id, w->rq.id);
	/* a refused move links to the rules that refuse it */
	snprintf(rule, sizeof rule, "%srules%s", w->cf->prefix,
	         rule_anchor(w->rule));
	vals_set(&v, K_rule_url, rule);
	vals_show(&v, K_has_rule_link, e == WEB_ILLEGAL);
	if (w->back) {
		snprintf(back, sizeof back, "%s%s", w->cf->prefix, w->back);
		vals_set(&v, K_back_url, back);
		vals_show(&v, K_has_back, 1);
	}
	d = vals_data(&v);
	if (resp_page(w, errors[e].status, errors[e].title, TPL_ERROR, &d))
		fallback(w, errors[e].status, errors[e].title);
}
