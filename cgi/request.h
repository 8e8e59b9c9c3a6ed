/*
 * request.h - a request read whole, validated at the door, before any
 * page runs: method, path, query fields, the Cookie header and, for a
 * form POST, the body's fields.  Pages never see raw CGI variables.
 */
#ifndef BT_REQUEST_H
#define BT_REQUEST_H

#include <fcgiapp.h>

#include "client.h"
#include "input.h"
#include "store.h"

enum {
	REQ_PATH_MAX = 1024,        /* bytes of the path */
	REQ_CTYPE_MAX = 128,        /* bytes of Content-Type we keep */
	REQ_ID_MAX = 48,            /* bytes of a request id */
	REQ_INM_MAX = 1024          /* bytes of If-None-Match we keep */
};

typedef enum req_method {
	M_GET = 1,
	M_POST = 2,
	M_HEAD = 4,                 /* answered as GET, without the body */
	M_OTHER = 8
} req_method;

typedef enum req_rc {
	REQ_OK = 0,
	REQ_BAD,                    /* malformed path, query or body */
	REQ_TOO_LARGE,              /* body over FORM_BODY_MAX */
	REQ_MEDIA_TYPE              /* a POST body that is not a form */
} req_rc;

typedef struct request {
	req_method method;
	char method_text[12];               /* for the log: "GET" */
	char path[REQ_PATH_MAX + 1];        /* as sent, without the query */
	const char *sub;                    /* path under the prefix, or
	                                     * NULL if outside it */
	form query;
	form body;                          /* empty unless a form POST */
	char cookie[COOKIE_HEADER_MAX + 1]; /* "" if none */
	char if_none_match[REQ_INM_MAX + 1]; /* "" if none; cut, if long,
	                                     * after a whole tag or not */
	char id[REQ_ID_MAX];                /* request id for the logs */
	char client[CLIENT_KEY_MAX];        /* client.h: for the limits */
	const char *user_agent;             /* the header, or NULL: valid
	                                     * for the request only */
	char game[STORE_ID_LEN + 1];        /* route.c: the game in the path */
	char why[FORM_WHY_MAX];             /* what was wrong, for people */
	char raw[FORM_BODY_MAX + 1];        /* the body as read */
} request;

/*
 * Reads the head of the request of fr into r: the method, the path
 * (REQUEST_URI up to '?', else DOCUMENT_URI), the query and the cookie.
 * prefix is the path of base_url ("/" or "/bt/").  Returns REQ_OK or what
 * was wrong (with r->why); r->path and r->method are set in every case,
 * for the log.  A worker never exits on a bad request.
 */
req_rc request_read(request *r, FCGX_Request *fr, const char *prefix);

/*
 * Reads a POST's body into r->body (once the route is known, so a POST to
 * no page is a 404 whatever its body): at most FORM_BODY_MAX bytes of
 * application/x-www-form-urlencoded.  A multipart/form-data body (a mail
 * program's RFC 8058 one-click unsubscribe) is read and taken as a form
 * with no fields.  Returns REQ_OK or what was wrong.
 */
req_rc request_body(request *r, FCGX_Request *fr);

#endif
