/*
 * response.c - building and sending a response: pages in the layout,
 * redirects, the headers every response carries, and the log helpers.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "since.h"
#include "vals.h"
#include "web.h"

enum { RETRY_AFTER_S = 30 };   /* seconds, said with every 503 */

/* Reason phrases of the statuses we send. */
static const struct {
	int status;
	const char *reason;
} reasons[] = {
	{ 200, "OK" }, { 303, "See Other" }, { 304, "Not Modified" }, { 400, "Bad Request" },
	{ 403, "Forbidden" }, { 404, "Not Found" },
	{ 405, "Method Not Allowed" }, { 409, "Conflict" },
	{ 413, "Content Too Large" }, { 415, "Unsupported Media Type" },
	{ 429, "Too Many Requests" },
	{ 500, "Internal Server Error" }, { 503, "Service Unavailable" },
};

static const char *reason(int status)
{
	for (size_t i = 0; i < sizeof reasons / sizeof reasons[0]; i++)
		if (reasons[i].status == status)
			return reasons[i].reason;
	return "Unknown";
}

void resp_reset(web *w)
{
	w->rs = (resp){ .status = 200, .body = &w->page };
	w->why[0] = '\0';
	w->rule = 0;
	w->back = NULL;
	out_reset(&w->page);
	out_reset(&w->main);
	for (int i = 0; i < WEB_FRAGS; i++)
		out_reset(&w->frag[i]);
}

void web_log(const web *w, const char *func, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	fprintf(stderr, "buffertime.fcgi: %s %s: %s\n", w->rq.id, func, msg);
}

/* The store says why the rules refuse a move as "rule R6: it is seat
 * 2's turn..." (the tools show it so); players read the words alone,
 * as a sentence, and the rule becomes a link to the rules page
 * (w->rule). */
static void plain_why(web *w, const char *why)
{
	const char *s = why;
	int rule = 0;

	if (strncmp(s, "rule R", 6) == 0) {
		s += 6;
		while (*s >= '0' && *s <= '9' && rule < 100)
			rule = rule * 10 + (*s++ - '0');
		if (strncmp(s, ": ", 2) == 0) {
			s += 2;
			w->rule = rule;
		} else {
			s = why;
		}
	}
	snprintf(w->why, sizeof w->why, "%s", s);
	if (w->why[0] >= 'a' && w->why[0] <= 'z')
		w->why[0] = (char)(w->why[0] - 'a' + 'A');
	size_t n = strlen(w->why);
	if (n > 0 && n + 1 < sizeof w->why && w->why[n - 1] != '.')
		memcpy(w->why + n, ".", 2);
}

void resp_retry(web *w, const char *why, int64_t retry_at, char *msg,
                size_t cap)
{
	int64_t secs = retry_at - store_now();
	char wait[SINCE_MAX];

	if (secs < 1)
		secs = 1;
	/* rounded up, so "in 5 minutes" is never too early */
	snprintf(msg, cap, "%.200s Try again in %s.", why,
	         since_words(secs + 59, wait, sizeof wait));
	w->rs.retry_after = (int)(secs < 86400 * 30 ? secs : 86400 * 30);
}

web_err web_store_err(web *w, const char *func, const store_error *err)
{
	switch (err->rc) {
	case STORE_OK:
		return WEB_OK;
	case STORE_NOT_FOUND:
		return WEB_NOT_FOUND;
	case STORE_BUSY:
		web_log(w, func, "store busy: %s", err->why);
		return WEB_BUSY;
	case STORE_FULL:
		web_log(w, func, "disk full: %s", err->why);
		return WEB_FULL;
	case STORE_ILLEGAL:
		plain_why(w, err->why);
		return WEB_ILLEGAL;
	case STORE_LIMITED:
		resp_retry(w, err->why, err->retry_at, w->why, sizeof w->why);
		return WEB_LIMITED;
	default:
		web_log(w, func, "store %s: %s", store_rc_name(err->rc),
		        err->why);
		return WEB_INTERNAL;
	}
}

web_err resp_page(web *w, int status, const char *title, web_tpl tpl,
                  const tmpl_data *d)
{
	char stat[CONF_URL_MAX + 16], rules[CONF_URL_MAX + 16];
	tmpl_rc rc;
	vals v;
	tmpl_data ld;

	if ((rc = tmpl_render(w->tpl[tpl], &w->main, d)) != TMPL_OK) {
		web_log(w, __func__, "%s: %s", web_tpl_files[tpl],
		        tmpl_rc_text(rc));
		return WEB_INTERNAL;
	}
	snprintf(stat, sizeof stat, "%sstatic/", w->cf->prefix);
	vals_init(&v);
	vals_set(&v, K_title, title);
	vals_set(&v, K_static_url, stat);
	/* nginx lets browsers keep static files for a year: a new version
	 * of the program must name them anew. */
	vals_set(&v, K_version, BT_VERSION);
	vals_set(&v, K_home_url, w->cf->prefix);
	snprintf(rules, sizeof rules, "%srules", w->cf->prefix);
	vals_set(&v, K_rules_url, rules);
	vals_set(&v, K_main, out_str(&w->main));
	ld = vals_data(&v);
	out_reset(&w->page);
	if ((rc = tmpl_render(w->tpl[TPL_LAYOUT], &w->page, &ld)) != TMPL_OK) {
		web_log(w, __func__, "layout: %s", tmpl_rc_text(rc));
		return WEB_INTERNAL;
	}
	w->rs.status = status;
	w->rs.body = &w->page;
	return WEB_OK;
}

web_err resp_redirect(web *w, const char *path)
{
	int n = snprintf(w->rs.location, sizeof w->rs.location, "%s%s",
	                 w->cf->prefix, path);

	if (n < 0 || (size_t)n >= sizeof w->rs.location) {
		web_log(w, __func__, "redirect target too long");
		return WEB_INTERNAL;
	}
	w->rs.status = 303;
	out_reset(&w->page);
	w->rs.body = &w->page;
	return WEB_OK;
}

/* Appends printf output to the header block h (sticky truncation). */
static void hdr(char *h, size_t cap, size_t *len, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void hdr(char *h, size_t cap, size_t *len, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (*len >= cap)
		return;
	va_start(ap, fmt);
	n = vsnprintf(h + *len, cap - *len, fmt, ap);
	va_end(ap);
	*len = n < 0 ? cap : *len + (size_t)n;
}

/* The headers every response carries, errors, redirects and 304s too,
 * so a deployment behind another proxy is as safe as behind our nginx:
 * no inline script or style (live.js is a file of ours), no frames, no
 * sniffing, no Referer carrying a seat link's token away.  The same
 * words as the add_header lines of www/nginx.conf.in, which hides these
 * copies (fastcgi_hide_header) to add its own. */
static const char security_headers[] =
	"Content-Security-Policy: default-src 'self'; script-src 'self'; "
	"style-src 'self'; img-src 'self' data:; object-src 'none'; "
	"frame-ancestors 'none'; form-action 'self'; base-uri 'none'\r\n"
	"X-Content-Type-Options: nosniff\r\n"
	"Referrer-Policy: no-referrer\r\n"
	"X-Frame-Options: DENY\r\n";

void resp_send(web *w, FCGX_Stream *stream, int head)
{
	const resp *r = &w->rs;
	const out *b = r->body;
	/* URL and cookie are bounded, so the block always fits. */
	char h[WEB_URL_MAX + WEB_COOKIE_MAX + sizeof security_headers + 512];
	size_t len = 0;

	hdr(h, sizeof h, &len, "Status: %d %s\r\n", r->status,
	    reason(r->status));
	/* A 304 has no body, nor the headers that would describe one. */
	if (r->status != 304) {
		hdr(h, sizeof h, &len, "Content-Type: %s\r\n",
		    r->ctype ? r->ctype : "text/html; charset=utf-8");
		hdr(h, sizeof h, &len, "Content-Length: %zu\r\n",
		    b ? b->len : 0);
	}
	/* An ETag only on the page it names (never on an error page); the
	 * browser may keep the page but must ask before showing it again. */
	if (r->etag[0] && (r->status == 200 || r->status == 304))
		hdr(h, sizeof h, &len, "ETag: %s\r\nCache-Control: private, "
		    "no-cache\r\n", r->etag);
	else if (!r->cacheable)
		hdr(h, sizeof h, &len, "Cache-Control: no-store\r\n");
	/* A limit says when; busy or out of disk is a moment's trouble
	 * that a retry may pass. */
	if (r->retry_after > 0)
		hdr(h, sizeof h, &len, "Retry-After: %d\r\n", r->retry_after);
	else if (r->status == 503)
		hdr(h, sizeof h, &len, "Retry-After: %d\r\n", RETRY_AFTER_S);
	if (r->allow)
		hdr(h, sizeof h, &len, "Allow: %s\r\n", r->allow);
	if (r->location[0])
		hdr(h, sizeof h, &len, "Location: %s\r\n", r->location);
	if (r->cookie[0])
		hdr(h, sizeof h, &len, "Set-Cookie: %s\r\n", r->cookie);
	hdr(h, sizeof h, &len, "%s\r\n", security_headers);
	if (len >= sizeof h)
		len = sizeof h - 1;
	FCGX_PutStr(h, (int)len, stream);
	if (!head && r->status != 304 && b && b->len)
		FCGX_PutStr(b->buf, (int)b->len, stream);
}
