/*
 * inbound.c - "buffertime inbound": one received email, as an MTA hands
 * it over on standard input (a Postfix pipe transport, an alias, a
 * .forward, procmail), acted on (mail/inbound_act.h).
 *
 *   buffertime inbound [--config FILE] [--db FILE] [--key-file FILE]
 *                      [--base-url URL] [--reply-address ADDR]
 *                      [--trust-authserv ID] [--synchronous full|normal]
 *
 * The exit status is what MTAs understand (sysexits.h): 0 handled, 65
 * not a message, 67 not for us (no token of ours), 75 try again later
 * (the database is busy or the disk full, or the settings are broken:
 * the mail waits in the MTA's queue rather than being lost), 70 a bug.
 * One line goes to standard error for the MTA's log.
 *
 * Before anything is read, the process's data and heap are limited to
 * inbound_memory_mb (RLIMIT_DATA), whatever the email holds; the bounds
 * of mail/inbound_scan.h keep any email far below it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include <sodium.h>

#include "conf.h"
#include "cli.h"
#include "inbound_act.h"
#include "inbound_mime.h"
#include "inbound_scan.h"
#include "store_notice.h"
#include "store_limits.h"
#include "store_talk.h"
#include "token.h"

static const char usage[] =
	"usage: buffertime inbound [--config FILE] [--db FILE] [--key-file FILE]\n"
	"                          [--base-url URL] [--reply-address ADDR]\n"
	"                          [--trust-authserv ID]"
	" [--synchronous full|normal]\n"
	"Reads one email on standard input (a reply to a turn email) and does\n"
	"what it asks: a move, a Sensor Sweep's order, table talk; the player\n"
	"gets an answer.  Exit status: 0 handled, 65 not an email, 67 not for\n"
	"us, 75 try again later.  The settings file is buffertime.fcgi's\n"
	"(keys reply_address, trust_authserv, db, key_file, base_url).\n";

static const struct {
	const char *flag;
	const char *key;
} flags[] = {
	{ "--db", "db" }, { "--key-file", "key_file" },
	{ "--base-url", "base_url" }, { "--reply-address", "reply_address" },
	{ "--trust-authserv", "trust_authserv" },
	{ "--synchronous", "synchronous" },
};

enum { NFLAGS = sizeof flags / sizeof flags[0] };

/* The settings problem: try later (the admin fixes it, the mail waits). */
static int broken(const char *what, const char *arg)
{
	fprintf(stderr, "buffertime inbound: %s%s\n", what, arg);
	return INBOUND_EX_TEMPFAIL;
}

/* The file named by --config first, then every flag over it.  Returns
 * 0, -1 after --help, or an exit status. */
static int read_settings(conf *c, int argc, char **argv)
{
	char why[CONF_WHY_MAX];

	conf_defaults(c);
	for (int i = 1; i + 1 < argc; i++)
		if (strcmp(argv[i], "--config") == 0 &&
		    conf_load(c, argv[++i], why, sizeof why))
			return broken(why, "");
	for (int i = 1; i < argc; i++) {
		size_t f = 0;
		if (strcmp(argv[i], "--help") == 0) {
			fputs(usage, stdout);
			return -1;
		}
		while (f < NFLAGS && strcmp(argv[i], flags[f].flag) != 0)
			f++;
		if (f == NFLAGS && strcmp(argv[i], "--config") != 0)
			return broken("unknown argument ", argv[i]);
		if (i + 1 >= argc)
			return broken(argv[i], " needs a value");
		i++;
		if (f < NFLAGS &&
		    conf_set(c, flags[f].key, argv[i], why, sizeof why))
			return broken(why, "");
	}
	if (conf_finish(c, why, sizeof why))
		return broken(why, "");
	if (!c->reply_address[0])
		return broken("reply_address is not set: replies cannot be "
		              "matched to games", "");
	return 0;
}

/* AddressSanitizer's shadow memory is data too: under it, no limit. */
#if defined(__SANITIZE_ADDRESS__)
#define BT_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define BT_ASAN 1
#endif
#endif

/* Limits the data and heap of the process to mb MB (0: none) for good:
 * an allocation past it fails (GLib's abort: the MTA retries later, and
 * the retry costs no more).  -1 if the limit could not be set. */
static int limit_memory(int mb)
{
#ifdef BT_ASAN
	(void)mb;
	return 0;
#else
	struct rlimit r;
	rlim_t want = (rlim_t)mb * 1024 * 1024;

	if (mb <= 0)
		return 0;
	if (getrlimit(RLIMIT_DATA, &r) != 0)
		return -1;
	if (r.rlim_max != RLIM_INFINITY && r.rlim_max < want)
		want = r.rlim_max;
	r.rlim_cur = r.rlim_max = want;
	return setrlimit(RLIMIT_DATA, &r);
#endif
}

/* Standard input, up to one byte over the bound (which the parser then
 * refuses); NULL if out of memory or unreadable. */
static char *read_message(size_t *len)
{
	size_t cap = (size_t)INBOUND_RAW_MAX + 1;
	char *buf = malloc(cap);

	*len = 0;
	if (!buf)
		return NULL;
	while (*len < cap) {
		size_t n = fread(buf + *len, 1, cap - *len, stdin);
		if (n == 0)
			break;
		*len += n;
	}
	if (ferror(stdin)) {
		free(buf);
		return NULL;
	}
	return buf;
}

/* An email over the bounds (inbound_scan.h) is refused before the key
 * or the database is opened, as inbound_act would refuse it: 65 and
 * the reason.  0 if it is within them. */
static int refuse_unread(const char *raw, size_t len)
{
	inbound_counts counts;
	char why[160];

	if (len > INBOUND_RAW_MAX)
		snprintf(why, sizeof why, "the message is larger than 1 MiB");
	else if (inbound_scan(raw, len, &counts, why, sizeof why) == 0)
		return 0;
	fprintf(stderr, "buffertime inbound: unreadable: %s\n", why);
	return INBOUND_EX_DATAERR;
}

/* The local part of the reply address ("play" of play@example.org). */
static void reply_local(const conf *c, char *out, size_t cap)
{
	const char *at = strrchr(c->reply_address, '@');
	size_t n = at ? (size_t)(at - c->reply_address) : 0;

	snprintf(out, cap, "%.*s", (int)n, c->reply_address);
}

static int act_on(const conf *c, store *s, const token_keys *k,
                  const char *raw, size_t len)
{
	compose_ctx compose = { .st = s, .keys = k, .base_url = c->base_url };
	char local[CONF_URL_MAX + 1], log[512];
	inbound_cfg ic = {
		.st = s,
		.compose = &compose,
		.keys = k,
		.reply_local = local,
		.trust_authserv = c->trust_authserv,
		.now = store_now(),
	};
	int code;

	reply_local(c, local, sizeof local);
	compose_reply_address(&compose, c->reply_address);
	code = inbound_act(&ic, raw, len, log, sizeof log);
	fprintf(stderr, "buffertime inbound: %s\n", log);
	return code;
}

int cmd_inbound(int argc, char **argv)
{
	static conf c;
	token_keys k;
	store *s = NULL;
	store_error e;
	char why[CONF_PATH_MAX + 128], *raw;
	size_t len;
	int rc;

	if ((rc = read_settings(&c, argc, argv)) != 0)
		return rc < 0 ? 0 : rc;
	if (limit_memory(c.inbound_memory_mb) != 0)
		return broken("could not limit its memory", "");
	if (sodium_init() < 0)
		return broken("libsodium would not start", "");
	if (!(raw = read_message(&len)))
		return broken("could not read the message", "");
	if ((rc = refuse_unread(raw, len)) != 0) {
		free(raw);
		return rc;
	}
	if (token_keys_load(c.key_file, &k, why, sizeof why) != TOKEN_OK) {
		free(raw);
		return broken(why, "");
	}
	if (store_open(c.db, &s, &e) != STORE_OK ||
	    (strcmp(c.synchronous, "normal") == 0 &&
	     store_set_sync(s, STORE_SYNC_NORMAL, &e) != STORE_OK)) {
		free(raw);
		token_keys_wipe(&k);
		store_close(s);
		return broken("database: ", e.why);
	}
	/* the answers count toward their address's budget of emails */
	store_set_limits(s, &(store_limits){
		.mails_per_hour = c.address_mails_per_hour,
		.mails_per_day = c.address_mails_per_day });
	store_set_talk_cap(s, c.talk_per_game);
	store_set_hook_rules(s, &(store_hook_rules){
		.off = !c.webhooks,
		.per_game_hour = c.webhooks_per_game_hour,
		.per_server_hour = c.webhooks_per_hour });
	rc = act_on(&c, s, &k, raw, len);
	store_close(s);
	token_keys_wipe(&k);
	free(raw);
	return rc;
}
