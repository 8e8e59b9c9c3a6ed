/*
 * request.c - reads a FastCGI request into a typed struct.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "request.h"

/* Methods we answer, and what the rest become. */
static const struct {
	const char *name;
	req_method m;
} methods[] = {
	{ "GET", M_GET }, { "POST", M_POST }, { "HEAD", M_HEAD },
};

static req_rc bad(request *r, req_rc rc, const char *why)
{
	snprintf(r->why, sizeof r->why, "%s", why);
	return rc;
}

static void read_method(request *r, FCGX_ParamArray env)
{
	const char *m = FCGX_GetParam("REQUEST_METHOD", env);

	r->method = M_OTHER;
	snprintf(r->method_text, sizeof r->method_text, "%s",
	         m && strlen(m) < sizeof r->method_text ? m : "?");
	for (size_t i = 0; m && i < sizeof methods / sizeof methods[0]; i++)
		if (strcmp(m, methods[i].name) == 0)
			r->method = methods[i].m;
}

/* The path: printable ASCII only, starting with '/'. */
static req_rc read_path(request *r, FCGX_ParamArray env, const char *prefix)
{
	const char *u = FCGX_GetParam("REQUEST_URI", env);
	size_t n, plen = strlen(prefix);

	if (!u || !*u)
		u = FCGX_GetParam("DOCUMENT_URI", env);
	if (!u)
		u = "";
	n = strcspn(u, "?");
	snprintf(r->path, sizeof r->path, "%.*s",
	         (int)(n < REQ_PATH_MAX ? n : REQ_PATH_MAX), u);
	if (n == 0 || n > REQ_PATH_MAX || u[0] != '/')
		return bad(r, REQ_BAD, "the path is missing or too long");
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)u[i] <= ' ' || (unsigned char)u[i] >= 0x7f)
			return bad(r, REQ_BAD, "the path holds bytes it may "
			           "not hold");
	if (strncmp(r->path, prefix, plen) == 0)
		r->sub = r->path + plen;
	return REQ_OK;
}

static req_rc read_query(request *r, FCGX_ParamArray env)
{
	const char *q = FCGX_GetParam("QUERY_STRING", env);

	if (!q)
		q = "";
	if (form_parse(&r->query, q, strlen(q), r->why, sizeof r->why))
		return REQ_BAD;
	return REQ_OK;
}

/* A multipart/form-data body: what a mail program's one-click
 * unsubscribe (RFC 8058) should send.  Our own forms never do. */
static int is_multipart(const char *ct)
{
	static const char want[] = "multipart/form-data";

	while (ct && (*ct == ' ' || *ct == '\t'))
		ct++;
	return ct && strncasecmp(ct, want, sizeof want - 1) == 0 &&
	       (ct[sizeof want - 1] == '\0' || ct[sizeof want - 1] == ';');
}

req_rc request_body(request *r, FCGX_Request *fr)
{
	const char *ct = FCGX_GetParam("CONTENT_TYPE", fr->envp);
	const char *cl = FCGX_GetParam("CONTENT_LENGTH", fr->envp);
	char *end;
	long len = 0;
	int got;

	if (cl && *cl) {
		len = strtol(cl, &end, 10);
		if (*end || len < 0)
			return bad(r, REQ_BAD, "bad Content-Length");
	}
	if (len > FORM_BODY_MAX)
		return bad(r, REQ_TOO_LARGE, "the form is too large");
	if (!form_is_urlencoded(ct) && !is_multipart(ct))
		return bad(r, REQ_MEDIA_TYPE, "only HTML forms "
		           "(application/x-www-form-urlencoded) are taken");
	got = FCGX_GetStr(r->raw, (int)len, fr->in);
	if (got != (int)len)
		return bad(r, REQ_BAD, "the form ended early");
	if (is_multipart(ct))
		got = 0;    /* read, and taken as a form without fields */
	r->raw[got] = '\0';
	if (form_parse(&r->body, r->raw, (size_t)got, r->why, sizeof r->why))
		return REQ_BAD;
	return REQ_OK;
}

req_rc request_read(request *r, FCGX_Request *fr, const char *prefix)
{
	const char *c;
	req_rc rc;

	r->sub = NULL;
	r->game[0] = r->why[0] = r->cookie[0] = r->if_none_match[0] = '\0';
	r->query.n = r->body.n = 0;
	/* first, so a refused request never keeps the last one's client */
	client_key(FCGX_GetParam("REMOTE_ADDR", fr->envp), r->client);
	r->user_agent = FCGX_GetParam("HTTP_USER_AGENT", fr->envp);
	read_method(r, fr->envp);
	if ((rc = read_path(r, fr->envp, prefix)) ||
	    (rc = read_query(r, fr->envp)))
		return rc;
	c = FCGX_GetParam("HTTP_COOKIE", fr->envp);
	if (c)
		snprintf(r->cookie, sizeof r->cookie, "%s", c);
	c = FCGX_GetParam("HTTP_IF_NONE_MATCH", fr->envp);
	if (c)
		snprintf(r->if_none_match, sizeof r->if_none_match, "%s", c);
	return REQ_OK;
}
