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
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "../cgi/config.h"   /* not autoconf's config.h, found first */
#include "cli.h"
#include "inbound_act.h"
#include "inbound_mime.h"
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
	if (sodium_init() < 0)
		return broken("libsodium would not start", "");
	if (!(raw = read_message(&len)))
		return broken("could not read the message", "");
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
	store_set_talk_cap(s, c.talk_per_game);
	rc = act_on(&c, s, &k, raw, len);
	store_close(s);
	token_keys_wipe(&k);
	free(raw);
	return rc;
}
