/*
 * post.h - one small HTTP POST to a URL that someone else chose (a
 * crew's chat webhook, a browser's push service), through Debian's
 * libcurl, so that the server is never a tool against others or itself:
 *
 *   - http and https only, no redirect followed, no proxy from the
 *     environment;
 *   - the address actually connected to (after DNS, each one tried) must
 *     be a public one: loopback, private, link-local, shared, multicast,
 *     documentation and reserved ranges are refused, IPv4 inside IPv6
 *     (mapped, NAT64) as the IPv4 address it holds, unless the operator
 *     allows them (tests do);
 *   - a short timeout for the connection and for the whole, a small
 *     answer kept (the rest read and dropped, up to a bound).
 */
#ifndef BT_POST_H
#define BT_POST_H

#include <stddef.h>

enum {
	POST_URL_MAX = 2048,
	POST_WHY_MAX = 200,
	POST_ANSWER_MAX = 1024       /* bytes of the answer kept */
};

typedef struct post_rules {
	int allow_private;           /* 1: any address (tests, a LAN) */
	long connect_ms;             /* 0: 3000 */
	long total_ms;               /* 0: 10000 */
	int (*stop)(void);           /* if set and it says 1, a POST under
	                              * way ends at once (a SIGTERM) */
} post_rules;

typedef struct post_result {
	long status;                 /* the HTTP status; 0 if none came */
	int refused;                 /* 1: the URL or its address is not
	                              * allowed: trying again cannot help */
	char why[POST_WHY_MAX];      /* what went wrong, for a log */
	char answer[POST_ANSWER_MAX + 1];   /* the answer's start */
	size_t answer_len;
} post_result;

/* Call once before any thread starts (curl_global_init). */
int post_init(void);

/*
 * POSTs body (n bytes, Content-Type ctype) to url with the extra
 * headers (each "Name: value", the list NULL-terminated; may be NULL)
 * under rules.  Returns 0 if an HTTP answer came (r->status, whatever it
 * is), -1 if none did (r->why; r->refused if by the rules).
 */
int post_send(const char *url, const char *const *headers, const char *ctype,
              const void *body, size_t n, const post_rules *rules,
              post_result *r);

/* 1 if the n bytes of a socket address (IPv4 or IPv6) are a public
 * address, 0 if they are one post_send refuses. */
int post_address_public(const void *sockaddr, size_t n);

#endif
