/*
 * fuzz_request.c - libFuzzer harness for the FastCGI request reader and
 * the router (cgi/request.h, cgi/route.c).
 *
 * The input is "NAME=VALUE" lines, an empty line, then the body: the
 * lines are the FastCGI parameters (REQUEST_METHOD, REQUEST_URI, ...) as
 * libfcgi hands them over, in an FCGX_Request whose input stream gives
 * the body in records of RECORD bytes, as the real one does; the line
 * "PREFIX=..." is the prefix of base_url instead (default "/"), any text
 * at all.  The request then runs as main.c's serve() runs it:
 * request_read, route_find, and for a POST to a page request_body.
 *
 * What is accepted must keep the promises of request.h: a path of
 * printable ASCII starting with '/', r->sub inside r->path just after the
 * prefix, the query and the body well-formed forms (a multipart body an
 * empty one), the kept headers exact prefixes of those sent, the
 * client's key for the limits "unknown" or an address.  route_find
 * must pick the page a plain reading of the table below picks, with
 * w->rq.game the path's game id (22 base64url characters) for the pages
 * of a game and empty for the others.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent.h"
#include "web.h"

enum {
	INPUT_MAX = 2 * FORM_BODY_MAX + 2 * COOKIE_HEADER_MAX,
	PARAMS_MAX = 32,         /* parameter lines taken */
	PREFIX_MAX = 256,        /* bytes of the PREFIX line taken */
	RECORD = 512             /* bytes of body per fill of the stream */
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* ---- the pages: stubs, known by address ------------------------------ */

#define STUB(name) \
	web_err name(web *unused) { (void)unused; return WEB_OK; }
STUB(page_home) STUB(page_create) STUB(page_join) STUB(page_table)
STUB(page_act) STUB(page_record) STUB(page_settings) STUB(page_unsub)
STUB(page_games) STUB(page_feed) STUB(page_history) STUB(page_say)
STUB(page_nudge) STUB(page_again) STUB(page_watch) STUB(page_rules)
STUB(page_block) STUB(page_standin) STUB(page_created)
STUB(page_take_back) STUB(page_end) STUB(page_signin) STUB(page_push)
STUB(page_hook)

/* The table as a reader of route.c's comment and README understands it:
 * sub is "tail", or "g/ID" followed by tail when game is set.  A new page
 * needs its stub above and its line here (the link fails without). */
static const struct expect {
	page_fn *page;
	int game;
	const char *tail;
	int methods;
	const char *query;
} expected[] = {
	{ page_home, 0, "", M_GET | M_HEAD, NULL },
	{ page_create, 0, "new", M_POST, NULL },
	{ page_games, 0, "games", M_GET | M_HEAD, NULL },
	{ page_rules, 0, "rules", M_GET | M_HEAD, NULL },
	{ page_block, 0, "mail/block", M_GET | M_HEAD | M_POST, NULL },
	{ page_signin, 0, "signin", M_GET | M_HEAD | M_POST, NULL },
	{ page_join, 1, "", M_GET | M_HEAD, "t" },
	{ page_table, 1, "", M_GET | M_HEAD, NULL },
	{ page_act, 1, "/act", M_POST, NULL },
	{ page_record, 1, "/record", M_GET | M_HEAD, NULL },
	{ page_created, 1, "/made", M_GET | M_HEAD, NULL },
	{ page_settings, 1, "/settings", M_GET | M_HEAD | M_POST, NULL },
	{ page_unsub, 1, "/unsubscribe", M_GET | M_HEAD | M_POST, NULL },
	{ page_feed, 1, "/feed", M_GET | M_HEAD, NULL },
	{ page_history, 1, "/history", M_GET | M_HEAD, NULL },
	{ page_say, 1, "/say", M_POST, NULL },
	{ page_nudge, 1, "/nudge", M_POST, NULL },
	{ page_standin, 1, "/standin", M_POST, NULL },
	{ page_take_back, 1, "/takeback", M_POST, NULL },
	{ page_end, 1, "/end", M_POST, NULL },
	{ page_again, 1, "/again", M_POST, NULL },
	{ page_push, 1, "/push", M_POST, NULL },
	{ page_hook, 1, "/hook", M_POST, NULL },
	{ page_watch, 1, "/watch", M_GET | M_HEAD, NULL },
};

enum { NEXPECTED = sizeof expected / sizeof expected[0] };

/* ---- the input as an FCGX_Request ------------------------------------ */

static char input[INPUT_MAX + 1];
static char *params[PARAMS_MAX + 1];
static char prefix[PREFIX_MAX + 1];
static web w;

/* The body as libfcgi's reader sees it: RECORD bytes at a time. */
static const unsigned char *body_end;

static void fill(FCGX_Stream *s)
{
	size_t left = (size_t)(body_end - s->stop);

	if (left == 0) {
		s->isClosed = 1;
		return;
	}
	s->rdNext = s->stopUnget = s->stop;
	s->stop += left < RECORD ? left : RECORD;
	s->wrNext = s->stop;
}

/* Cuts the input into parameter lines and the body; returns the body. */
static char *split(char *s, size_t n, size_t *body_len)
{
	char *end = s + n, *nl;
	int np = 0;

	snprintf(prefix, sizeof prefix, "/");
	while (s < end && (nl = memchr(s, '\n', (size_t)(end - s)))) {
		*nl = '\0';
		if (nl == s) {
			s = nl + 1;
			break;
		}
		if (strncmp(s, "PREFIX=", 7) == 0)
			snprintf(prefix, sizeof prefix, "%s", s + 7);
		else if (np < PARAMS_MAX)
			params[np++] = s;
		s = nl + 1;
	}
	params[np] = NULL;
	*body_len = (size_t)(end - s);
	return s;
}

/* The value of param name as sent (the first line of that name). */
static const char *sent(const char *name)
{
	size_t n = strlen(name);

	for (char **p = params; *p; p++)
		if (strncmp(*p, name, n) == 0 && (*p)[n] == '=')
			return *p + n + 1;
	return NULL;
}

/* ---- what request_read and request_body promise ---------------------- */

static void check_form(const form *f)
{
	if (f->n < 0 || f->n > FORM_FIELDS_MAX)
		abort();
	for (int i = 0; i < f->n; i++) {
		const char *k = f->buf + f->f[i].key;
		const char *v = f->buf + f->f[i].value;
		if (!*k || strlen(k) > FORM_KEY_MAX || strlen(v) != f->f[i].vlen
		    || !form_get(f, k))
			abort();
	}
}

/* dst holds src cut to cap - 1 bytes ("" for no src). */
static void check_kept(const char *dst, size_t cap, const char *src)
{
	size_t n = strlen(dst);

	if (n >= cap || (src ? strncmp(dst, src, n) != 0 ||
	                       (src[n] != '\0' && n != cap - 1) : n != 0))
		abort();
}

/* The limits' key: "unknown", or an address as inet_ntop writes it. */
static void check_client(const char *key)
{
	size_t n = strlen(key);

	if (n == 0 || n >= CLIENT_KEY_MAX)
		abort();
	if (strcmp(key, "unknown") == 0)
		return;
	if (strspn(key, "0123456789abcdef.:/") != n)
		abort();
}

/* The browser's name for the list of sign-ins (agent.h): the header as
 * sent, and a name of our own words that fits, cut or not. */
static void check_agent(const char *ua)
{
	static const char words[] = "abcdefghijklmnopqrstuvwxyz"
		"ABCDEFGHIJKLMNOPQRSTUVWXYZ ";
	char name[48], small[9];

	if ((ua != NULL) != (sent("HTTP_USER_AGENT") != NULL))
		abort();
	agent_words(ua, name, sizeof name);
	agent_words(ua, small, sizeof small);
	if (!name[0] || strspn(name, words) != strlen(name) ||
	    strncmp(name, small, strlen(small)) != 0 || strlen(small) > 8)
		abort();
}

static void check_head(const request *r, req_rc rc)
{
	size_t n = strlen(r->path), plen = strlen(prefix);

	if (n > REQ_PATH_MAX || strlen(r->method_text) >= sizeof r->method_text)
		abort();
	if (rc != REQ_OK) {
		if (rc != REQ_BAD || !r->why[0])
			abort();
		return;
	}
	if (n == 0 || r->path[0] != '/')
		abort();
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)r->path[i] <= ' ' ||
		    (unsigned char)r->path[i] >= 0x7f)
			abort();
	if ((strncmp(r->path, prefix, plen) == 0) !=
	    (r->sub == r->path + plen))
		abort();
	if (r->sub && (r->sub < r->path || r->sub > r->path + n))
		abort();
	check_form(&r->query);
	check_client(r->client);
	check_agent(r->user_agent);
	check_kept(r->cookie, sizeof r->cookie, sent("HTTP_COOKIE"));
	check_kept(r->if_none_match, sizeof r->if_none_match,
	           sent("HTTP_IF_NONE_MATCH"));
}

static void check_body(const request *r, req_rc rc, size_t body_len)
{
	const char *ct = sent("CONTENT_TYPE");

	if (rc != REQ_OK) {
		if (!r->why[0] || r->body.n != 0)
			abort();
		return;
	}
	check_form(&r->body);
	if (!form_is_urlencoded(ct) && r->body.n != 0)
		abort();     /* multipart: read, taken as no fields */
	if (strlen(r->raw) > body_len)
		abort();
}

/* ---- what route_find promises ---------------------------------------- */

static int is_id_char(char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
	       (c >= '0' && c <= '9') || c == '-' || c == '_';
}

/* The length of the game id that sub starts with ("g/ID"), or 0. */
static size_t game_in(const char *sub)
{
	size_t n = 0;

	if (strncmp(sub, "g/", 2) != 0)
		return 0;
	while (n <= STORE_ID_LEN && is_id_char(sub[2 + n]))
		n++;
	if (n != STORE_ID_LEN || (sub[2 + n] != '\0' && sub[2 + n] != '/'))
		return 0;
	return n;
}

static int matches(const struct expect *e, const char *sub)
{
	if (e->game) {
		size_t n = game_in(sub);
		return n && strcmp(sub + 2 + n, e->tail) == 0;
	}
	return strcmp(sub, e->tail) == 0;
}

static void check_route(page_fn *page, web_err err)
{
	const struct expect *want = NULL, *other = NULL;
	const char *sub = w.rq.sub;

	for (int i = 0; sub && i < NEXPECTED && !want; i++) {
		const struct expect *e = &expected[i];
		if (!matches(e, sub) || (e->query && !form_get(&w.rq.query,
		                                               e->query)))
			continue;
		if (e->methods & (int)w.rq.method)
			want = e;
		else
			other = e;
	}
	if (page != (want ? want->page : NULL))
		abort();
	if (!want) {
		if (err != (other ? WEB_METHOD : WEB_NOT_FOUND) ||
		    (other && !w.rs.allow))
			abort();
		return;
	}
	if (err != WEB_OK)
		abort();
	if (want->game ? strncmp(w.rq.game, sub + 2, STORE_ID_LEN) != 0 ||
	                 strlen(w.rq.game) != STORE_ID_LEN
	               : w.rq.game[0] != '\0')
		abort();
}

/* ---- one request, as serve() runs it --------------------------------- */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	FCGX_Stream in;
	FCGX_Request fr;
	page_fn *page = NULL;
	web_err err = WEB_NOT_FOUND;
	size_t body_len;
	unsigned char *body;
	req_rc rc;

	if (size > INPUT_MAX)
		return 0;
	memcpy(input, data, size);
	input[size] = '\0';
	body = (unsigned char *)split(input, size, &body_len);
	body_end = body + body_len;
	memset(&in, 0, sizeof in);
	in.isReader = 1;
	in.rdNext = in.stop = in.stopUnget = in.wrNext = body;
	in.fillBuffProc = fill;
	memset(&fr, 0, sizeof fr);
	fr.in = &in;
	fr.envp = params;
	w.rs.allow = NULL;

	rc = request_read(&w.rq, &fr, prefix);
	check_head(&w.rq, rc);
	if (rc == REQ_OK) {
		page = route_find(&w, &err);
		check_route(page, err);
	}
	if (page && w.rq.method == M_POST) {
		rc = request_body(&w.rq, &fr);
		check_body(&w.rq, rc, body_len);
	}
	return 0;
}
