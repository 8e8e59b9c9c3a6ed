/*
 * post.c - a guarded HTTP POST (post.h).  The address check runs where
 * libcurl opens each connection's socket (CURLOPT_OPENSOCKETFUNCTION),
 * on the very address it connects to: a name that resolves to a public
 * address when looked at and to a private one when used (DNS rebinding)
 * is caught all the same.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

#include <curl/curl.h>

#include "post.h"

enum {
	CONNECT_MS = 3000,
	TOTAL_MS = 10000,
	ANSWER_READ_MAX = 64 * 1024,    /* bytes of an answer read at all */
	HEADERS_MAX = 16
};

/* IPv4 ranges that are not the public internet (RFC 6890 and kin). */
static const struct { uint32_t net, mask; } v4_special[] = {
	{ 0x00000000, 0xff000000 },   /* 0.0.0.0/8 "this network" */
	{ 0x0a000000, 0xff000000 },   /* 10/8 private */
	{ 0x64400000, 0xffc00000 },   /* 100.64/10 shared (CGN) */
	{ 0x7f000000, 0xff000000 },   /* 127/8 loopback */
	{ 0xa9fe0000, 0xffff0000 },   /* 169.254/16 link-local (cloud metadata) */
	{ 0xac100000, 0xfff00000 },   /* 172.16/12 private */
	{ 0xc0000000, 0xffffff00 },   /* 192.0.0/24 protocol assignments */
	{ 0xc0000200, 0xffffff00 },   /* 192.0.2/24 documentation */
	{ 0xc0586300, 0xffffff00 },   /* 192.88.99/24 6to4 relay */
	{ 0xc0a80000, 0xffff0000 },   /* 192.168/16 private */
	{ 0xc6120000, 0xfffe0000 },   /* 198.18/15 benchmarking */
	{ 0xc6336400, 0xffffff00 },   /* 198.51.100/24 documentation */
	{ 0xcb007100, 0xffffff00 },   /* 203.0.113/24 documentation */
	{ 0xe0000000, 0xf0000000 },   /* 224/4 multicast */
	{ 0xf0000000, 0xf0000000 },   /* 240/4 reserved, broadcast */
};

static int public_v4(const unsigned char b[4])
{
	uint32_t a = (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 |
	             (uint32_t)b[2] << 8 | b[3];

	for (size_t i = 0; i < sizeof v4_special / sizeof v4_special[0]; i++)
		if ((a & v4_special[i].mask) == v4_special[i].net)
			return 0;
	return 1;
}

static int zeros(const unsigned char *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (b[i])
			return 0;
	return 1;
}

static int public_v6(const unsigned char b[16])
{
	static const unsigned char mapped[12] = { [10] = 0xff, [11] = 0xff };
	static const unsigned char nat64[12] = { 0, 0x64, 0xff, 0x9b };

	if (memcmp(b, mapped, 12) == 0 || memcmp(b, nat64, 12) == 0)
		return public_v4(b + 12);
	if (b[0] == 0x20 && b[1] == 0x02)          /* 2002::/16 6to4 */
		return public_v4(b + 2);
	if (zeros(b, 12))                           /* ::, ::1, ::a.b.c.d */
		return 0;
	if ((b[0] & 0xe0) != 0x20)                  /* not 2000::/3 unicast:
	                                             * ULA, link-local,
	                                             * multicast, reserved */
		return 0;
	if (b[0] == 0x3f && b[1] == 0xff && (b[2] & 0xf0) == 0)
		return 0;                           /* 3fff::/20 docs */
	if (b[0] == 0x20 && b[1] == 0x01 &&
	    ((b[2] == 0x0d && b[3] == 0xb8) ||      /* 2001:db8::/32 docs */
	     (b[2] == 0 && b[3] == 0) ||            /* 2001::/32 Teredo */
	     b[2] < 0x02))                          /* 2001::/23 IETF */
		return 0;
	return 1;
}

int post_address_public(const void *sockaddr, size_t n)
{
	const struct sockaddr *sa = sockaddr;

	if (!sa || n < sizeof sa->sa_family)
		return 0;
	if (sa->sa_family == AF_INET && n >= sizeof(struct sockaddr_in)) {
		const struct sockaddr_in *in = sockaddr;
		return public_v4((const unsigned char *)&in->sin_addr);
	}
	if (sa->sa_family == AF_INET6 && n >= sizeof(struct sockaddr_in6)) {
		const struct sockaddr_in6 *in6 = sockaddr;
		return public_v6(in6->sin6_addr.s6_addr);
	}
	return 0;
}

/* One POST's state, for libcurl's callbacks. */
typedef struct sending {
	const post_rules *rules;
	post_result *r;
	size_t read;
	int refused_one, opened;
} sending;

static curl_socket_t open_checked(void *ctx, curlsocktype purpose,
                                  struct curl_sockaddr *a)
{
	sending *s = ctx;
	char text[INET6_ADDRSTRLEN] = "?";

	if (purpose != CURLSOCKTYPE_IPCXN)
		return CURL_SOCKET_BAD;
	if (!s->rules->allow_private &&
	    !post_address_public(&a->addr, a->addrlen)) {
		if (a->family == AF_INET)
			inet_ntop(AF_INET, &((struct sockaddr_in *)&a->addr)->
			          sin_addr, text, sizeof text);
		else if (a->family == AF_INET6)
			inet_ntop(AF_INET6, &((struct sockaddr_in6 *)&a->addr)->
			          sin6_addr, text, sizeof text);
		snprintf(s->r->why, sizeof s->r->why, "the address %s is not "
		         "a public one", text);
		s->refused_one = 1;
		return CURL_SOCKET_BAD;
	}
	s->opened = 1;
	return socket(a->family, a->socktype, a->protocol);
}

static size_t keep_answer(char *p, size_t size, size_t nmemb, void *ctx)
{
	sending *s = ctx;
	post_result *r = s->r;
	size_t n = size * nmemb, room = POST_ANSWER_MAX - r->answer_len;

	if (s->read + n > ANSWER_READ_MAX)
		return 0;           /* an answer that does not end: stop */
	s->read += n;
	if (room) {
		size_t k = n < room ? n : room;
		memcpy(r->answer + r->answer_len, p, k);
		r->answer_len += k;
		r->answer[r->answer_len] = '\0';
	}
	return n;
}

/* 0 if url is one we may try at all: http(s), printable, bounded. */
static int url_ok(const char *url)
{
	size_t n = url ? strlen(url) : 0;

	if (n == 0 || n > POST_URL_MAX ||
	    (strncmp(url, "https://", 8) != 0 && strncmp(url, "http://", 7) != 0))
		return -1;
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)url[i] <= ' ' || (unsigned char)url[i] >= 0x7f)
			return -1;
	return 0;
}

int post_init(void)
{
	return curl_global_init(CURL_GLOBAL_DEFAULT) == CURLE_OK ? 0 : -1;
}

/* The request's headers: ctype, no "Expect: 100-continue", the extra. */
static struct curl_slist *header_list(const char *ctype,
                                      const char *const *headers)
{
	char line[256];
	struct curl_slist *l = NULL, *t;

	snprintf(line, sizeof line, "Content-Type: %s",
	         ctype ? ctype : "application/octet-stream");
	if (!(l = curl_slist_append(l, line)) ||
	    !(t = curl_slist_append(l, "Expect:")))
		goto fail;
	for (int i = 0; headers && headers[i] && i < HEADERS_MAX; i++) {
		if (strpbrk(headers[i], "\r\n") || !strchr(headers[i], ':'))
			goto fail;          /* no header smuggled in */
		if (!(t = curl_slist_append(l, headers[i])))
			goto fail;
	}
	return l;
fail:
	curl_slist_free_all(l);
	return NULL;
}

/* libcurl asks this a few times a second: a stop ends the POST. */
static int still_wanted(void *ctx, curl_off_t dltotal, curl_off_t dlnow,
                        curl_off_t ultotal, curl_off_t ulnow)
{
	const sending *s = ctx;

	(void)dltotal, (void)dlnow, (void)ultotal, (void)ulnow;
	return s->rules->stop && s->rules->stop() ? 1 : 0;
}

static void set_options(CURL *c, const char *url, struct curl_slist *h,
                        const void *body, size_t n, sending *s)
{
	const post_rules *rules = s->rules;

	curl_easy_setopt(c, CURLOPT_URL, url);
	curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
	curl_easy_setopt(c, CURLOPT_FOLLOWLOCATION, 0L);
	curl_easy_setopt(c, CURLOPT_PROXY, "");
	curl_easy_setopt(c, CURLOPT_NOPROXY, "*");
	curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT_MS,
	                 rules->connect_ms > 0 ? rules->connect_ms : CONNECT_MS);
	curl_easy_setopt(c, CURLOPT_TIMEOUT_MS,
	                 rules->total_ms > 0 ? rules->total_ms : TOTAL_MS);
	curl_easy_setopt(c, CURLOPT_USERAGENT, "Buffer Time Online");
	curl_easy_setopt(c, CURLOPT_HTTPHEADER, h);
	curl_easy_setopt(c, CURLOPT_POST, 1L);
	curl_easy_setopt(c, CURLOPT_POSTFIELDS, body);
	curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)n);
	curl_easy_setopt(c, CURLOPT_OPENSOCKETFUNCTION, open_checked);
	curl_easy_setopt(c, CURLOPT_OPENSOCKETDATA, s);
	curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, keep_answer);
	curl_easy_setopt(c, CURLOPT_WRITEDATA, s);
	if (rules->stop) {
		curl_easy_setopt(c, CURLOPT_NOPROGRESS, 0L);
		curl_easy_setopt(c, CURLOPT_XFERINFOFUNCTION, still_wanted);
		curl_easy_setopt(c, CURLOPT_XFERINFODATA, s);
	}
}

int post_send(const char *url, const char *const *headers, const char *ctype,
              const void *body, size_t n, const post_rules *rules,
              post_result *r)
{
	post_rules none = { 0 };
	sending s = { rules ? rules : &none, r, 0, 0, 0 };
	struct curl_slist *h;
	CURLcode rc;
	CURL *c;

	memset(r, 0, sizeof *r);
	if (url_ok(url)) {
		r->refused = 1;
		snprintf(r->why, sizeof r->why, "not an http(s) URL");
		return -1;
	}
	if (!(h = header_list(ctype, headers)) || !(c = curl_easy_init())) {
		curl_slist_free_all(h);
		snprintf(r->why, sizeof r->why, "bad headers, or no memory");
		return -1;
	}
	set_options(c, url, h, body ? body : "", n, &s);
	rc = curl_easy_perform(c);
	if (rc == CURLE_OK)
		curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &r->status);
	curl_easy_cleanup(c);
	curl_slist_free_all(h);
	if (rc == CURLE_OK)
		return 0;
	/* refused only if no allowed address was tried */
	r->refused = s.refused_one && !s.opened;
	if (!r->refused)
		snprintf(r->why, sizeof r->why, "%s", curl_easy_strerror(rc));
	return -1;
}
