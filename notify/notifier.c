/*
 * notifier.c - the worker's notice lane (notifier.h).
 */
#include <signal.h>
#include <sodium.h>
#include <stdio.h>
#include <string.h>

#include "hook_format.h"
#include "notice_text.h"
#include "notifier.h"
#include "store_notice.h"
#include "store_push.h"

enum {
	VAPID_LIFE = 12 * 3600,     /* the JWT's exp ahead (24 h at most) */
	PAYLOAD_MAX = 2048
};

static volatile sig_atomic_t stop_flag;

void notifier_stop(void)
{
	stop_flag = 1;
}

int notifier_stopping(void)
{
	return stop_flag != 0;
}

static FILE *log_of(const notifier *n)
{
	return n->log != NULL ? n->log : stderr;
}

void notifier_report(const notifier *n, const notifier_counts *c)
{
	if (c->sent == 0 && c->failed == 0 && c->given_up == 0)
		return;
	fprintf(log_of(n), "buffertime worker: notices: %d sent, %d failed, "
	        "%d given up\n", c->sent, c->failed, c->given_up);
	fflush(log_of(n));
}

/* What one attempt came to. */
typedef enum outcome { SENT, RETRY, GIVE_UP } outcome;

typedef struct attempt {
	outcome out;
	char why[POST_WHY_MAX + 64];
} attempt;

/* Notes what the attempt came to; 0, for the senders to return. */
static int say(attempt *a, outcome out, const char *why)
{
	a->out = out;
	snprintf(a->why, sizeof a->why, "%s", why);
	return 0;
}

/* The meaning of an HTTP answer (see notifier.h). */
static void answered(attempt *a, const post_result *r)
{
	if (r->status >= 200 && r->status < 300) {
		a->out = SENT;
		return;
	}
	a->out = r->status == 408 || r->status == 429 || r->status >= 500
	         ? RETRY : GIVE_UP;
	snprintf(a->why, sizeof a->why, "answered HTTP %ld", r->status);
}

static void posted(attempt *a, int rc, const post_result *r)
{
	if (rc == 0) {
		answered(a, r);
		return;
	}
	say(a, r->refused ? GIVE_UP : RETRY, r->why);
}

/* ---- Web Push ----------------------------------------------------------- */

/* The message the service worker shows (www/sw.js): title, body, url,
 * tag (the game: a newer notice replaces an older one). */
static int payload(const notice_words *w, const char *game, char *out,
                   size_t cap)
{
	char title[2 * NOTICE_TITLE_MAX], body[2 * NOTICE_LINE_MAX],
	     url[2 * sizeof w->url], tag[8 * (STORE_ID_LEN + 1)];

	/* the URL too: base_url is the operator's, whatever it holds */
	if (hook_json_text(w->title, title, sizeof title) < 0 ||
	    hook_json_text(w->body, body, sizeof body) < 0 ||
	    hook_json_text(w->url, url, sizeof url) < 0 ||
	    hook_json_text(game, tag, sizeof tag) < 0)
		return -1;
	int len = snprintf(out, cap, "{\"title\":%s,\"body\":%s,\"url\":%s,"
	                   "\"tag\":%s}", title, body, url, tag);
	return len < 0 || (size_t)len >= cap ? -1 : len;
}

/* The subscription's keys, decoded; 0 or -1. */
static int sub_keys(const store_push_sub *sub,
                    unsigned char ua[WEBPUSH_POINT],
                    unsigned char auth[WEBPUSH_AUTH])
{
	return webpush_unb64(sub->p256dh, ua, WEBPUSH_POINT) == WEBPUSH_POINT
	       && webpush_unb64(sub->auth, auth, WEBPUSH_AUTH) == WEBPUSH_AUTH
	       ? 0 : -1;
}

/* POSTs the encrypted body to the endpoint, with VAPID's header. */
static void push_post(notifier *n, const store_notice *no,
                      const unsigned char *body, size_t len, attempt *a)
{
	char auth[WEBPUSH_JWT_MAX + 128], auth_h[sizeof auth + 32];
	char topic[64];
	/* a day at the service: a phone off for longer hears of the turn
	 * by email */
	const char *headers[] = { auth_h, "Content-Encoding: aes128gcm",
	                          "TTL: 86400", "Urgency: normal", topic,
	                          NULL };
	post_result r;

	if (webpush_vapid_header(n->vapid, no->target,
	                         store_now() + VAPID_LIFE, n->contact, auth,
	                         sizeof auth) != 0) {
		say(a, GIVE_UP, "no VAPID header for this endpoint");
		return;
	}
	snprintf(auth_h, sizeof auth_h, "Authorization: %s", auth);
	/* one pending message a game at the service: base64url, 32 at most */
	snprintf(topic, sizeof topic, "Topic: %.32s", no->game);
	posted(a, post_send(no->target, headers, "application/octet-stream",
	                    body, len, &n->rules, &r), &r);
	if (a->out == GIVE_UP && (r.status == 404 || r.status == 410)) {
		store_error e;
		store_push_remove(n->st, no->game, no->seat, no->target, &e);
		snprintf(a->why, sizeof a->why, "the browser ended its "
		         "subscription (HTTP %ld): dropped", r.status);
	}
}

static int send_push(notifier *n, const store_notice *no,
                      const notice_words *w, attempt *a)
{
	static unsigned char body[WEBPUSH_BODY_MAX];
	unsigned char ua[WEBPUSH_POINT], secret[WEBPUSH_AUTH];
	char plain[PAYLOAD_MAX];
	store_push_sub sub;
	store_error e;
	int len;

	if (!n->vapid)
		return say(a, GIVE_UP, "the worker has no VAPID key");
	if (store_push_get(n->st, no->game, no->seat, no->target, &sub, &e)
	    != STORE_OK)
		return say(a, e.rc == STORE_NOT_FOUND ? GIVE_UP : RETRY,
		           e.rc == STORE_NOT_FOUND ? "notifications were "
		           "turned off" : e.why);
	if (sub_keys(&sub, ua, secret) != 0)
		return say(a, GIVE_UP, "the subscription's keys are not keys");
	if ((len = payload(w, no->game, plain, sizeof plain)) < 0)
		return say(a, GIVE_UP, "the message does not fit");
	long blen = webpush_encrypt(ua, secret, (const unsigned char *)plain,
	                            (size_t)len, NULL, body, sizeof body);
	if (blen < 0)
		return say(a, GIVE_UP, "the subscription's key is no P-256 key");
	push_post(n, no, body, (size_t)blen, a);
	return 0;
}

/* ---- the crew's chat ---------------------------------------------------- */

static const char *event_of(const store_notice *no)
{
	return strcmp(no->kind, "hello") == 0 ? "test" : no->kind;
}

static int send_hook(notifier *n, const store_notice *no,
                      const notice_words *w, attempt *a)
{
	static hook_message m;
	unsigned char key[HOOK_SECRET_BYTES];
	store_hook h;
	store_error e;
	hook_kind k;
	post_result r;

	if (store_hooks_off(n->st))
		return say(a, GIVE_UP, "webhooks are switched off here");
	if (store_hook_get(n->st, no->game, &h, &e) != STORE_OK)
		return say(a, e.rc == STORE_NOT_FOUND ? GIVE_UP : RETRY,
		           e.rc == STORE_NOT_FOUND ? "the webhook was removed"
		           : e.why);
	if (strcmp(h.url, no->target) != 0)
		return say(a, GIVE_UP, "the webhook was changed");
	if (hook_kind_parse(h.kind, &k) != 0 ||
	    sodium_hex2bin(key, sizeof key, h.secret, strlen(h.secret), NULL,
	                   NULL, NULL) != 0)
		return say(a, GIVE_UP, "the webhook's kind or secret is damaged");
	hook_event ev = {
		.event = event_of(no), .game = no->game, .text = w->line,
		.url = w->url, .name = w->name, .seat = no->seat,
		.round = no->round, .risk = no->risk, .result = no->result,
		.id = no->id, .time = store_now(),
	};
	int rc = hook_format(k, &ev, key, &m);
	sodium_memzero(key, sizeof key);
	if (rc != 0)
		return say(a, GIVE_UP, "the message could not be written");
	posted(a, post_send(no->target, m.headers, m.ctype, m.body, m.len,
	                    &n->rules, &r), &r);
	return 0;
}

/* ---- the lane ----------------------------------------------------------- */

static int try_one(notifier *n, const store_notice *no, attempt *a)
{
	static store_game g;
	static notice_words w;
	store_error e;

	if (store_load(n->st, no->game, &g, &e) != STORE_OK)
		return say(a, e.rc == STORE_NOT_FOUND ? GIVE_UP : RETRY,
		           e.rc == STORE_NOT_FOUND ? "the game is gone" : e.why);
	if (notice_words_make(no, &g, n->base_url, &w) != 0)
		return say(a, GIVE_UP, "a kind of notice this program does "
		           "not know");
	if (strcmp(no->channel, "push") == 0)
		return send_push(n, no, &w, a);
	if (strcmp(no->channel, "hook") == 0)
		return send_hook(n, no, &w, a);
	return say(a, GIVE_UP, "a channel this program does not know");
}

static store_rc settle(notifier *n, const store_notice *no,
                       const attempt *a, notifier_counts *c,
                       store_error *err)
{
	if (a->out == SENT) {
		c->sent++;
		return store_notice_sent(n->st, no->id, err);
	}
	int gives_up = a->out == GIVE_UP ||
	               no->attempts >= STORE_NOTICE_ATTEMPTS;
	if (gives_up)
		c->given_up++;
	else
		c->failed++;
	fprintf(log_of(n), "buffertime worker: %s notice %lld (%s) for game "
	        "%s, attempt %d: %s%s\n", no->channel, (long long)no->id,
	        no->kind, no->game, no->attempts, a->why,
	        gives_up ? "; given up" : "");
	fflush(log_of(n));
	return store_notice_failed(n->st, no, a->why, a->out == GIVE_UP, err);
}

store_rc notifier_send_due(notifier *n, notifier_counts *c, store_error *err)
{
	static store_notice no;

	memset(err, 0, sizeof *err);
	for (int i = 0; i < NOTIFIER_ROUND_MAX && !stop_flag; i++) {
		attempt a = { SENT, "" };
		store_rc rc = store_notice_claim(n->st, store_now(), &no, err);
		if (rc == STORE_NOT_FOUND)
			return STORE_OK;
		if (rc != STORE_OK)
			return rc;
		try_one(n, &no, &a);
		if ((rc = settle(n, &no, &a, c, err)) != STORE_OK)
			return rc;
	}
	return STORE_OK;
}

int notifier_due(notifier *n)
{
	int64_t due = store_notice_next_due(n->st);

	return due >= 0 && due <= store_now();
}
