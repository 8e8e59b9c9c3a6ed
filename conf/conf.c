/*
 * conf.c - the settings file and its checks.
 */
#include <ctype.h>
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "conf.h"
#include "reply.h"

#ifndef BT_DEFAULT_DB
#define BT_DEFAULT_DB "buffertime.db"
#endif
#ifndef BT_TEMPLATE_DIR
#define BT_TEMPLATE_DIR "templates"
#endif

typedef enum conf_type { CONF_TEXT, CONF_INT } conf_type;

/* The keys of the file: one line each. */
static const struct {
	const char *name;
	conf_type type;
	size_t off;        /* offset in conf */
	size_t size;       /* CONF_TEXT: buffer size */
	long min, max;     /* CONF_INT: range */
} keys[] = {
	{ "base_url", CONF_TEXT, offsetof(conf, base_url),
	  sizeof(((conf *)0)->base_url), 0, 0 },
	{ "db", CONF_TEXT, offsetof(conf, db), sizeof(((conf *)0)->db), 0, 0 },
	/* the same setting, by the name a server's URL reads better in */
	{ "database", CONF_TEXT, offsetof(conf, db), sizeof(((conf *)0)->db),
	  0, 0 },
	{ "key_file", CONF_TEXT, offsetof(conf, key_file),
	  sizeof(((conf *)0)->key_file), 0, 0 },
	{ "vapid_key", CONF_TEXT, offsetof(conf, vapid_key),
	  sizeof(((conf *)0)->vapid_key), 0, 0 },
	{ "allow_private_urls", CONF_INT, offsetof(conf, allow_private_urls),
	  0, 0, 1 },
	{ "webhooks", CONF_INT, offsetof(conf, webhooks), 0, 0, 1 },
	{ "webhooks_per_game_hour", CONF_INT,
	  offsetof(conf, webhooks_per_game_hour), 0, 1, CONF_LIMIT_MAX },
	{ "webhooks_per_hour", CONF_INT, offsetof(conf, webhooks_per_hour),
	  0, 1, CONF_LIMIT_MAX },
	{ "notice_timeout", CONF_INT, offsetof(conf, notice_timeout), 0, 1,
	  CONF_NOTICE_TIMEOUT_MAX },
	{ "listen", CONF_TEXT, offsetof(conf, listen),
	  sizeof(((conf *)0)->listen), 0, 0 },
	{ "workers", CONF_INT, offsetof(conf, workers), 0, 1,
	  CONF_WORKERS_MAX },
	{ "templates", CONF_TEXT, offsetof(conf, templates),
	  sizeof(((conf *)0)->templates), 0, 0 },
	{ "mail_from", CONF_TEXT, offsetof(conf, mail_from),
	  sizeof(((conf *)0)->mail_from), 0, 0 },
	{ "synchronous", CONF_TEXT, offsetof(conf, synchronous),
	  sizeof(((conf *)0)->synchronous), 0, 0 },
	{ "sendmail", CONF_TEXT, offsetof(conf, sendmail),
	  sizeof(((conf *)0)->sendmail), 0, 0 },
	{ "mail_dir", CONF_TEXT, offsetof(conf, mail_dir),
	  sizeof(((conf *)0)->mail_dir), 0, 0 },
	{ "mail_timeout", CONF_INT, offsetof(conf, mail_timeout), 0, 1,
	  CONF_MAIL_TIMEOUT_MAX },
	{ "mail_poll", CONF_INT, offsetof(conf, mail_poll), 0, 1,
	  CONF_MAIL_POLL_MAX },
	{ "create", CONF_TEXT, offsetof(conf, create),
	  sizeof(((conf *)0)->create), 0, 0 },
	{ "invite_code", CONF_TEXT, offsetof(conf, invite_code),
	  sizeof(((conf *)0)->invite_code), 0, 0 },
	{ "games_per_hour", CONF_INT, offsetof(conf, games_per_hour), 0, 0,
	  CONF_LIMIT_MAX },
	{ "seat_mails_per_day", CONF_INT, offsetof(conf, seat_mails_per_day),
	  0, 0, CONF_LIMIT_MAX },
	{ "address_mails_per_hour", CONF_INT,
	  offsetof(conf, address_mails_per_hour), 0, 0, CONF_LIMIT_MAX },
	{ "address_mails_per_day", CONF_INT,
	  offsetof(conf, address_mails_per_day), 0, 0, CONF_LIMIT_MAX },
	{ "talk_per_game", CONF_INT, offsetof(conf, talk_per_game), 0, 1,
	  CONF_LIMIT_MAX },
	{ "bot_rollouts", CONF_INT, offsetof(conf, bot_rollouts), 0, 1,
	  CONF_ROLLOUTS_MAX },
	{ "review_rollouts", CONF_INT, offsetof(conf, review_rollouts), 0, 1,
	  CONF_ROLLOUTS_MAX },
	{ "reply_address", CONF_TEXT, offsetof(conf, reply_address),
	  sizeof(((conf *)0)->reply_address), 0, 0 },
	{ "trust_authserv", CONF_TEXT, offsetof(conf, trust_authserv),
	  sizeof(((conf *)0)->trust_authserv), 0, 0 },
	{ "take_back_grace", CONF_INT, offsetof(conf, take_back_grace), 0, 0,
	  CONF_TAKE_BACK_GRACE_MAX },
	{ "bot_wait", CONF_INT, offsetof(conf, bot_wait), 0, 0,
	  CONF_BOT_WAIT_MAX },
	{ "inbound_memory_mb", CONF_INT, offsetof(conf, inbound_memory_mb), 0,
	  0, CONF_INBOUND_MEMORY_MAX },
};

enum { NKEYS = sizeof keys / sizeof keys[0], CONF_LINE_MAX = 2048 };

/* Copies s into dst (size bytes) or fails if it does not fit. */
static int copy(char *dst, size_t size, const char *s)
{
	size_t n = strlen(s);

	if (n >= size)
		return -1;
	memcpy(dst, s, n + 1);
	return 0;
}

void conf_defaults(conf *c)
{
	memset(c, 0, sizeof *c);
	copy(c->base_url, sizeof c->base_url, "http://127.0.0.1:8080/");
	copy(c->db, sizeof c->db, BT_DEFAULT_DB);
	copy(c->listen, sizeof c->listen, "127.0.0.1:9000");
	c->workers = 2;
	copy(c->templates, sizeof c->templates, BT_TEMPLATE_DIR);
	copy(c->mail_from, sizeof c->mail_from, "buffertime@localhost");
	copy(c->synchronous, sizeof c->synchronous, "full");
	copy(c->sendmail, sizeof c->sendmail, "/usr/sbin/sendmail -t -i");
	c->mail_timeout = 60;
	c->mail_poll = 5;
	/* A server on the open internet must not mail strangers for
	 * strangers: by default only those given the code make games. */
	copy(c->create, sizeof c->create, "code");
	c->games_per_hour = 10;
	c->seat_mails_per_day = 3;
	/* every email to one address: far above a 6-seat game of fast
	 * players who want every move's email, with reminders and digests
	 * (about 100 an hour), far below what a stranger could otherwise
	 * have the server send someone (thousands a day) */
	c->address_mails_per_hour = 200;
	c->address_mails_per_day = 1000;
	c->talk_per_game = 2000;    /* STORE_TALK_PER_GAME */
	c->webhooks = 1;
	c->webhooks_per_game_hour = 30;   /* STORE_HOOK_PER_GAME_HOUR */
	c->webhooks_per_hour = 1200;      /* STORE_HOOK_PER_SERVER_HOUR */
	c->notice_timeout = 10;
	c->bot_rollouts = CONF_ROLLOUTS_DEFAULT;
	c->review_rollouts = CONF_REVIEW_ROLLOUTS_DEFAULT;
	/* long enough to see one's misclick, short enough not to be
	 * noticed by the next player; a bot's answer a few seconds */
	c->take_back_grace = 60;
	c->bot_wait = 3;
	/* 5 times what the worst email within inbound_scan.h's bounds
	 * costs (with the database's cache): room, and no more */
	c->inbound_memory_mb = CONF_INBOUND_MEMORY_DEFAULT;
}

/* Parses a decimal in [min, max]. */
static int parse_long(const char *s, long min, long max, long *v)
{
	char *end;

	errno = 0;
	long n = strtol(s, &end, 10);
	if (errno || end == s || *end || n < min || n > max)
		return -1;
	*v = n;
	return 0;
}

int conf_set(conf *c, const char *key, const char *value, char *why,
             size_t cap)
{
	for (size_t i = 0; i < NKEYS; i++) {
		if (strcmp(keys[i].name, key) != 0)
			continue;
		char *field = (char *)c + keys[i].off;
		if (keys[i].type == CONF_INT) {
			long v;
			if (parse_long(value, keys[i].min, keys[i].max, &v)) {
				snprintf(why, cap, "%s must be a number from "
				         "%ld to %ld", key, keys[i].min,
				         keys[i].max);
				return -1;
			}
			*(int *)(void *)field = (int)v;
			return 0;
		}
		if (value[0] == '\0' || copy(field, keys[i].size, value)) {
			snprintf(why, cap, "%s must be 1 to %zu bytes", key,
			         keys[i].size - 1);
			return -1;
		}
		return 0;
	}
	snprintf(why, cap, "unknown setting '%.40s'", key);
	return -1;
}

/* Trims spaces at both ends of s in place; returns the start. */
static char *trim(char *s)
{
	size_t n;

	while (isspace((unsigned char)*s))
		s++;
	n = strlen(s);
	while (n > 0 && isspace((unsigned char)s[n - 1]))
		s[--n] = '\0';
	return s;
}

/* One line of the file: blank, "# comment" or "key = value". */
static int conf_line(conf *c, char *line, char *why, size_t cap)
{
	char *s = trim(line), *eq;

	if (*s == '\0' || *s == '#')
		return 0;
	eq = strchr(s, '=');
	if (!eq) {
		snprintf(why, cap, "expected 'key = value'");
		return -1;
	}
	*eq = '\0';
	return conf_set(c, trim(s), trim(eq + 1), why, cap);
}

int conf_load(conf *c, const char *path, char *why, size_t cap)
{
	char line[CONF_LINE_MAX], sub[CONF_WHY_MAX];
	int no = 0, rc = 0;
	FILE *f = fopen(path, "r");

	if (!f) {
		snprintf(why, cap, "%s: %s", path, strerror(errno));
		return -1;
	}
	while (rc == 0 && fgets(line, sizeof line, f)) {
		no++;
		if (!strchr(line, '\n') && !feof(f)) {
			snprintf(why, cap, "%s:%d: line too long", path, no);
			rc = -1;
		} else if (conf_line(c, line, sub, sizeof sub)) {
			snprintf(why, cap, "%s:%d: %s", path, no, sub);
			rc = -1;
		}
	}
	if (rc == 0 && ferror(f)) {
		snprintf(why, cap, "%s: read error", path);
		rc = -1;
	}
	fclose(f);
	return rc;
}

/* base_url: http(s)://host[:port]/path/ with nothing odd in it; derives
 * prefix and secure, and adds the final '/' if missing. */
static int check_url(conf *c, char *why, size_t cap)
{
	const char *u = c->base_url, *host, *path;
	size_t n = strlen(u);

	c->secure = strncmp(u, "https://", 8) == 0;
	if (!c->secure && strncmp(u, "http://", 7) != 0)
		goto bad;
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)u[i] <= ' ' || u[i] == 0x7f || u[i] == '"' ||
		    u[i] == '<' || u[i] == '>' || u[i] == '\\' || u[i] == '?' ||
		    u[i] == '#' || u[i] == ';' || u[i] == '\'')
			goto bad;
	host = u + (c->secure ? 8 : 7);
	path = strchr(host, '/');
	if (path == host)
		goto bad;
	if (!path || u[n - 1] != '/') {
		if (n + 1 >= sizeof c->base_url)
			goto bad;
		c->base_url[n] = '/';
		c->base_url[n + 1] = '\0';
		if (!path)
			path = c->base_url + n;
	}
	copy(c->prefix, sizeof c->prefix, path);
	return 0;
bad:
	snprintf(why, cap, "base_url must look like http://HOST[:PORT]/"
	         "[PATH/] or https://..., not '%.200s'", u);
	return -1;
}

/* listen: "unix:/absolute/path", "HOST:PORT", "stdin" or "systemd". */
static int check_listen(const conf *c, char *why, size_t cap)
{
	const char *l = c->listen, *colon = strrchr(l, ':');
	long port;

	if (strcmp(l, "stdin") == 0 || strcmp(l, "systemd") == 0)
		return 0;
	if (strncmp(l, "unix:", 5) == 0 && l[5] == '/')
		return 0;
	if (colon && colon > l && strncmp(l, "unix:", 5) != 0 &&
	    parse_long(colon + 1, 1, 65535, &port) == 0)
		return 0;
	snprintf(why, cap, "listen must be unix:/PATH, HOST:PORT (e.g. "
	         "127.0.0.1:9000), stdin or systemd, not '%.200s'", l);
	return -1;
}

/* Unless set, the key lives beside the database file: DIR/server.key.
 * A database server has no "beside", and every host needs the same key
 * (a link signed by one is opened on another). */
static int default_key_file(conf *c, char *why, size_t cap)
{
	const char *slash = strrchr(c->db, '/');
	int n;

	if (c->key_file[0] != '\0')
		return 0;
	if (!strncasecmp(c->db, "postgresql://", 13) ||
	    !strncasecmp(c->db, "postgres://", 11)) {
		snprintf(why, cap, "the database is a PostgreSQL server: set "
		         "key_file, the same key on every host");
		return -1;
	}
	if (slash)
		n = snprintf(c->key_file, sizeof c->key_file, "%.*s/server.key",
		             (int)(slash - c->db), c->db);
	else
		n = snprintf(c->key_file, sizeof c->key_file, "server.key");
	if (n < 0 || (size_t)n >= sizeof c->key_file) {
		snprintf(why, cap, "the database path is too long for a "
		         "key_file beside it: set key_file");
		return -1;
	}
	return 0;
}

/* create: open, code (with an invitation code) or admin.  The mailer
 * reads the same file but makes no games: it is not asked for a code. */
static int check_create(const conf *c, char *why, size_t cap)
{
	size_t n = strlen(c->invite_code);

	if (strcmp(c->create, "open") && strcmp(c->create, "code") &&
	    strcmp(c->create, "admin")) {
		snprintf(why, cap, "create must be open, code or admin");
		return -1;
	}
	if (n && (n < CONF_CODE_MIN ||
	          strspn(c->invite_code, "!#$%&()*+,-./0123456789:;<>?@"
	                 "ABCDEFGHIJKLMNOPQRSTUVWXYZ[]^_abcdefghijklmnopqrstu"
	                 "vwxyz{|}~") != n)) {
		snprintf(why, cap, "invite_code must be %d to %d printable "
		         "characters without spaces or quotes", CONF_CODE_MIN,
		         CONF_CODE_MAX);
		return -1;
	}
	return 0;
}

/* 1 if s[0..n) is runs of letters, digits and chars joined by dots. */
static int dotted(const char *s, size_t n, const char *chars)
{
	if (n == 0 || s[0] == '.' || s[n - 1] == '.')
		return 0;
	for (size_t i = 0; i < n; i++)
		if (s[i] == '.' ? s[i + 1] == '.'
		                : !isalnum((unsigned char)s[i]) &&
		                  !strchr(chars, s[i]))
			return 0;
	return 1;
}

/* reply_address: unset, or a plain address (the characters the mailer
 * takes, no '+': the token follows it) whose local part leaves room for
 * "+TOKEN" within the 64 bytes mail relays keep. */
static int check_reply(const conf *c, char *why, size_t cap)
{
	const char *a = c->reply_address, *at = strrchr(a, '@');
	size_t local = at ? (size_t)(at - a) : 0;

	if (a[0] == '\0')
		return 0;
	if (!at || !dotted(a, local, "!#%&'*-=?^_~") ||
	    !dotted(at + 1, strlen(at + 1), "-")) {
		snprintf(why, cap, "reply_address must be a plain address such "
		         "as play@games.example.org (letters, digits, dots; no "
		         "'+'), not '%.200s'", a);
		return -1;
	}
	if (local > REPLY_BASE_LOCAL_MAX ||
	    strlen(at + 1) > 254 - REPLY_LOCAL_MAX - 1) {
		snprintf(why, cap, "reply_address '%.200s': its part before '@' "
		         "may have at most %d characters, so that '+' and the "
		         "%d-character reply token fit the %d that mail relays "
		         "keep (and its domain at most %d)", a,
		         REPLY_BASE_LOCAL_MAX, REPLY_TOKEN_LEN, REPLY_LOCAL_MAX,
		         254 - REPLY_LOCAL_MAX - 1);
		return -1;
	}
	return 0;
}

/* Unless set, Web Push's key lives beside the server key: DIR/vapid.pem
 * (every host needs the same one too: subscriptions are made for it). */
static int default_vapid_key(conf *c, char *why, size_t cap)
{
	const char *slash = strrchr(c->key_file, '/');
	int n;

	if (c->vapid_key[0] != '\0')
		return 0;
	if (slash)
		n = snprintf(c->vapid_key, sizeof c->vapid_key, "%.*s/vapid.pem",
		             (int)(slash - c->key_file), c->key_file);
	else
		n = snprintf(c->vapid_key, sizeof c->vapid_key, "vapid.pem");
	if (n < 0 || (size_t)n >= sizeof c->vapid_key) {
		snprintf(why, cap, "the key_file path is too long for a "
		         "vapid_key beside it: set vapid_key");
		return -1;
	}
	return 0;
}

int conf_finish(conf *c, char *why, size_t cap)
{
	if (default_key_file(c, why, cap) || default_vapid_key(c, why, cap))
		return -1;
	if (check_url(c, why, cap) || check_listen(c, why, cap))
		return -1;
	if (c->workers < 1 || c->workers > CONF_WORKERS_MAX) {
		snprintf(why, cap, "workers must be 1 to %d",
		         CONF_WORKERS_MAX);
		return -1;
	}
	if (strcmp(c->synchronous, "full") && strcmp(c->synchronous, "normal")) {
		snprintf(why, cap, "synchronous must be full or normal");
		return -1;
	}
	if (strspn(c->sendmail, " \t") == strlen(c->sendmail)) {
		snprintf(why, cap, "sendmail must name a program");
		return -1;
	}
	if (check_reply(c, why, cap))
		return -1;
	return check_create(c, why, cap);
}
