/*
 * web.h - one FastCGI worker and the request it is serving.
 *
 * A worker (web) owns everything that lives across requests: the
 * settings, its SQLite connection, the derived token keys, the compiled
 * templates and the output buffers (reset, not freed, between requests,
 * so memory stays flat).  A request is read whole into w->rq (request.h)
 * before any page runs; a page fills w->rs or returns an error value,
 * which main renders with the one error page (page_error).
 *
 * Every page has the same skeleton: guard (who is asking: cookie, CSRF),
 * inputs (typed, from w->rq), render (into w->rs), done.
 */
#ifndef BT_WEB_H
#define BT_WEB_H

#include "conf.h"
#include "fields.h"
#include "keys.h"
#include "out.h"
#include "request.h"
#include "store.h"
#include "template.h"
#include "token.h"

enum {
	WEB_URL_MAX = 1024,       /* bytes of a URL we build */
	WEB_COOKIE_MAX = 512,     /* bytes of a Set-Cookie value */
	WEB_WHY_MAX = 256,        /* bytes of an error's detail */
	WEB_FRAGS = 4,            /* scratch buffers for page parts */
	WEB_PAGE_MAX = 512 * 1024 /* bound on any page we render */
};

/* What can go wrong with a request: each has its status and its words
 * for people in page_error.c. */
typedef enum web_err {
	WEB_OK = 0,
	WEB_BAD_REQUEST,     /* 400: malformed input */
	WEB_FORBIDDEN,       /* 403: no valid seat link or cookie */
	WEB_BAD_FORM,        /* 403: a form without a valid CSRF token */
	WEB_NOT_FOUND,       /* 404: no such page or game */
	WEB_METHOD,          /* 405: a known page, another method */
	WEB_ILLEGAL,         /* 409: the rules refuse the move */
	WEB_TOO_LARGE,       /* 413: a body over the limit */
	WEB_MEDIA_TYPE,      /* 415: a POST that is not a form */
	WEB_LIMITED,         /* 429: a limit reached; w->why says which */
	WEB_BUSY,            /* 503: the database stayed locked */
	WEB_FULL,            /* 503: the disk is full; nothing was written */
	WEB_INTERNAL,        /* 500: our fault; logged with details */
	WEB_ERR__MAX
} web_err;

/* The response a page builds.  body is one of the worker's buffers. */
typedef struct resp {
	int status;                       /* 200, 303, ... */
	const char *ctype;                /* NULL: text/html; charset=utf-8 */
	int cacheable;                    /* 0: Cache-Control: no-store */
	char etag[48];                    /* "" or a 200's or 304's ETag
	                                   * (quoted), sent with Cache-
	                                   * Control: private, no-cache */
	const char *allow;                /* 405: the Allow header */
	int retry_after;                  /* >0: a Retry-After (seconds) */
	char location[WEB_URL_MAX + 1];   /* "" or a 303's target */
	char cookie[WEB_COOKIE_MAX + 1];  /* "" or a Set-Cookie value */
	out *body;
} resp;

typedef struct web {
	const conf *cf;
	store *st;
	token_keys keys;
	const tmpl *const *tpl;           /* TPL__MAX compiled templates */
	out page, main;                   /* the whole page; its middle */
	out frag[WEB_FRAGS];              /* parts: cards, forms */
	request rq;
	resp rs;
	char why[WEB_WHY_MAX];            /* detail of an error, for people */
	int rule;                         /* RULES.md rule of a refused move */
	const char *back;                 /* an error page's "back" link */
	store_game game;                  /* the game the request is about */
	const char *vapid_public;         /* Web Push's key, base64url */
	unsigned long served;
} web;

/* ---- pages: each returns WEB_OK with w->rs filled, or an error ------ */
typedef web_err page_fn(web *w);

page_fn page_home;      /* GET  PREFIX                  */
page_fn page_create;    /* POST PREFIX new              */
page_fn page_created;   /* GET  PREFIX g/ID/made        */
page_fn page_join;      /* GET  PREFIX g/ID?t=TOKEN     */
page_fn page_table;     /* GET  PREFIX g/ID             */
page_fn page_act;       /* POST PREFIX g/ID/act         */
page_fn page_record;    /* GET  PREFIX g/ID/record      */
page_fn page_settings;  /* GET, POST PREFIX g/ID/settings */
page_fn page_unsub;     /* GET, POST PREFIX g/ID/unsubscribe?s=N&k=KEY */
page_fn page_games;     /* GET  PREFIX games            */
page_fn page_feed;      /* GET  PREFIX g/ID/feed?s=N&k=KEY */
page_fn page_history;   /* GET  PREFIX g/ID/history     */
page_fn page_say;       /* POST PREFIX g/ID/say         */
page_fn page_nudge;     /* POST PREFIX g/ID/nudge       */
page_fn page_take_back; /* POST PREFIX g/ID/takeback    */
page_fn page_end;       /* POST PREFIX g/ID/end         */
page_fn page_standin;   /* POST PREFIX g/ID/standin     */
page_fn page_again;     /* POST PREFIX g/ID/again       */
page_fn page_watch;     /* GET  PREFIX g/ID/watch?k=KEY */
page_fn page_rules;     /* GET  PREFIX rules            */
page_fn page_block;     /* GET, POST PREFIX mail/block?a=ADDRESS&k=KEY */
page_fn page_signin;    /* GET, POST PREFIX signin[?k=KEY] */
page_fn page_push;      /* POST PREFIX g/ID/push        */
page_fn page_hook;      /* POST PREFIX g/ID/hook        */

/* ---- route.c -------------------------------------------------------- */

/*
 * Finds the page for w->rq (its method, the path under the prefix and,
 * for some routes, a query field) and sets w->rq.game from the path.
 * Returns the page, or NULL with *err = WEB_NOT_FOUND or WEB_METHOD (and
 * w->rs.allow set).
 */
page_fn *route_find(web *w, web_err *err);

/* ---- response.c ----------------------------------------------------- */

/* Empties the response and the buffers for a new request. */
void resp_reset(web *w);

/* Renders template tpl with d into w->main, then the layout around it
 * with title into w->page, as a 200 (or status) HTML response.  Returns
 * WEB_OK or WEB_INTERNAL (logged). */
web_err resp_page(web *w, int status, const char *title, web_tpl tpl,
                  const tmpl_data *d);

/* A 303 See Other to path (under the prefix, e.g. "g/ID?m=stale"). */
web_err resp_redirect(web *w, const char *path);

/* Writes w->rs to stream: the headers, then the body unless head. */
void resp_send(web *w, FCGX_Stream *stream, int head);

/* Renders the error page for e into w->rs (never fails: a last-resort
 * text body if the template cannot render). */
void page_error(web *w, web_err e);

/* Logs one line to stderr: "rid func: message" (never a token or seed). */
void web_log(const web *w, const char *func, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Maps a store error to a web error, logging what is our fault.  A
 * limit reached (STORE_LIMITED) is WEB_LIMITED, with resp_retry's why. */
web_err web_store_err(web *w, const char *func, const store_error *err);

/* A limit's refusal for people: why, then "Try again in ..." for
 * retry_at (unix seconds), into msg (cap bytes); sets the response's
 * Retry-After. */
void resp_retry(web *w, const char *why, int64_t retry_at, char *msg,
                size_t cap);

/* ---- seat.c: who is asking ------------------------------------------ */

/*
 * The guard of every game page: loads game w->rq.game into w->game and
 * finds the seat the request's cookie holds (a valid token for this very
 * game whose generation is the seat's current one).  Returns WEB_OK with
 * *seat set, WEB_NOT_FOUND, WEB_FORBIDDEN (no or bad cookie), or a store
 * error.
 */
web_err seat_guard(web *w, int *seat);

/* The seat and generation of the token in the request's cookie for game
 * w->rq.game, MAC checked (not yet against the game's seats): 0, or -1
 * with *seat = 0 if there is none. */
int seat_cookie(const web *w, int *seat, int64_t *gen);

/* The guard of a game page's POST form: seat_guard, then the form's CSRF
 * token (WEB_BAD_FORM without the seat's own).  An error page's "back"
 * link goes to g/ID followed by back ("" or e.g. "#talk"; short). */
web_err seat_form_guard(web *w, const char *back, int *seat);

/* A settings form that turns something on or off (its field says "on"
 * or "off"): seat_form_guard back to the settings page, then *on. */
web_err seat_form_switch(web *w, field_id field, int *seat, int *on);

/* A 303 back to the table of w->game with notice m (page_table.c's
 * ?m=: stale, nudged, ...). */
web_err seat_back_to_table(web *w, const char *m);

/* The form's seq (the state it was chosen in) into *seq; else
 * WEB_BAD_REQUEST with why. */
web_err seat_form_seq(web *w, int *seq);

/* Writes the cookie name for game id ("bt_ID") into name (cap >= 32). */
void seat_cookie_name(const char *id, char *name, size_t cap);

/* ---- seat_link.c: links with a key instead of a cookie --------------- */

/*
 * The guard of the pages a link key opens (the feed, unsubscribe): query
 * fields s (the seat) and k (its key of kind), checked against the
 * seat's current generation; loads w->rq.game into w->game.  Returns
 * WEB_OK with *seat set, WEB_FORBIDDEN (no, bad or outdated key),
 * WEB_NOT_FOUND, or a store error.
 */
web_err seat_link_guard(web *w, token_kind kind, int *seat);

/* Writes seat's link of kind (TOKEN_FEED or TOKEN_UNSUB) of w->game into
 * url: "BASE g/ID/feed?s=N&k=KEY", BASE the base URL if absolute, else
 * the prefix.  Returns 0, or -1 (logged). */
int seat_link_url(web *w, token_kind kind, int seat, int absolute,
                  char *url, size_t cap);

#endif
