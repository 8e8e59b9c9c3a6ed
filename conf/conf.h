/*
 * conf.h - the settings of every program (the FastCGI program, the
 * mailer, inbound): a small "key = value" file, then command-line flags
 * over it.  Its own folder, below the programs: it is no part of the web
 * layer, and its name is not autoconf's config.h.
 *
 *	# buffertime.conf
 *	base_url  = https://example.org/buffertime/
 *	db        = /var/lib/buffertime/buffertime.db
 *	key_file  = /var/lib/buffertime/server.key  (default: beside db)
 *	vapid_key = /var/lib/buffertime/vapid.pem  (default: beside key_file)
 *	allow_private_urls = 0             (1: push endpoints and webhooks
 *	                                   may be http and on loopback or
 *	                                   private addresses: tests, a LAN)
 *	webhooks  = 1                      (0: no game may name a chat
 *	                                   webhook, and none is sent)
 *	webhooks_per_game_hour = 30        (messages a game's webhook gets)
 *	webhooks_per_hour = 1200           (... all games' together)
 *	notice_timeout = 10                (seconds one push or webhook
 *	                                   message may take)
 *	listen    = unix:/run/buffertime/fcgi.sock   (or 127.0.0.1:9000)
 *	workers   = 2
 *	templates = /usr/local/share/buffertime/templates
 *	mail_from = buffertime@example.org
 *	synchronous = full                 (or normal: see README, Storage)
 *	sendmail  = /usr/sbin/sendmail -t -i   (split on blanks; no shell)
 *	mail_dir  = /var/lib/buffertime/mail   (default unset: if set, each
 *	                                       message is a file there)
 *	mail_timeout = 60                  (seconds one sendmail may take)
 *	mail_poll = 5                      (seconds between outbox looks)
 *	create    = code                   (who may make games from the web:
 *	                                   open, code or admin)
 *	invite_code = SECRET               (what create = code asks for)
 *	games_per_hour = 10                (per client address; 0: no limit)
 *	seat_mails_per_day = 3             (per recipient; 0: no limit)
 *	address_mails_per_hour = 200       (every email to one address, of
 *	address_mails_per_day = 1000       any kind; 0: no limit)
 *	talk_per_game = 2000               (lines of table talk a game may
 *	                                   have, 1..100000: web, replies
 *	                                   and bots alike)
 *	bot_rollouts = 4000                (games a bot plays out to choose
 *	                                   one move: the worker's)
 *	review_rollouts = 2000             (games played out per move of a
 *	                                   finished game's review, at
 *	                                   which chances are calibrated)
 *	reply_address = play@games.example.org  (default unset: moves by
 *	                                   reply off; its part before '@'
 *	                                   at most 13 bytes, reply.h)
 *	take_back_grace = 60               (seconds the emails of a web move
 *	                                   that may still be taken back wait,
 *	                                   so a move taken back mails nobody)
 *	bot_wait  = 3                      (seconds before a bot answers such
 *	                                   a move)
 *	trust_authserv = mx.example.org    (default unset: a reply moves
 *	                                   only from the seat's address; set,
 *	                                   also when this MTA's own
 *	                                   Authentication-Results says
 *	                                   dmarc=pass)
 *	inbound_memory_mb = 64             (the memory `buffertime inbound`
 *	                                   may take for one email, data and
 *	                                   heap; 0: no limit)
 *
 * Every key has a default; conf_finish() checks the whole and derives the
 * path prefix of base_url.  Errors are one line for people, naming the
 * file and line or the flag.  The server key itself is never read here.
 */
#ifndef BT_CONF_H
#define BT_CONF_H

#include <stddef.h>

enum {
	CONF_URL_MAX = 512,       /* bytes of base_url */
	CONF_PATH_MAX = 1024,     /* bytes of a file path */
	CONF_WORKERS_MAX = 64,
	CONF_MAIL_TIMEOUT_MAX = 3600,
	CONF_MAIL_POLL_MAX = 3600,
	CONF_CODE_MIN = 8,        /* bytes of an invitation code, at least */
	CONF_CODE_MAX = 128,
	CONF_LIMIT_MAX = 100000,
	CONF_ROLLOUTS_DEFAULT = 4000,  /* bots/search.h BOT_DEFAULT_ROLLOUTS */
	CONF_REVIEW_ROLLOUTS_DEFAULT = 2000,  /* REVIEW_DEFAULT_ROLLOUTS */
	CONF_ROLLOUTS_MAX = 1000000,
	CONF_TAKE_BACK_GRACE_MAX = 3600,
	CONF_BOT_WAIT_MAX = 60,
	CONF_NOTICE_TIMEOUT_MAX = 60,
	CONF_INBOUND_MEMORY_DEFAULT = 64,  /* MB; cli/inbound.c */
	CONF_INBOUND_MEMORY_MAX = 65536,
	CONF_WHY_MAX = 1200       /* a comfortable size for `why` */
};

typedef struct conf {
	char base_url[CONF_URL_MAX + 1];   /* ends with '/' */
	char prefix[CONF_URL_MAX + 1];     /* its path: "/" or "/bt/" */
	int secure;                        /* base_url is https: */
	char db[CONF_PATH_MAX + 1];
	char key_file[CONF_PATH_MAX + 1];
	char vapid_key[CONF_PATH_MAX + 1];  /* Web Push's key (PEM); default:
	                                     * vapid.pem beside key_file */
	int allow_private_urls;            /* 1: push endpoints and
	                                    * webhooks may be http and on
	                                    * private addresses (tests) */
	int webhooks;                      /* 0: switched off */
	int webhooks_per_game_hour, webhooks_per_hour;
	int notice_timeout;                /* seconds a push or hook takes */
	char listen[CONF_PATH_MAX + 1];    /* "unix:/path", "HOST:PORT",
	                                    * "stdin" (spawn-fcgi), "systemd" */
	int workers;
	char templates[CONF_PATH_MAX + 1];
	char mail_from[CONF_URL_MAX + 1];
	char synchronous[8];               /* "full" or "normal" */
	char sendmail[CONF_PATH_MAX + 1];  /* program and arguments */
	char mail_dir[CONF_PATH_MAX + 1];  /* "" unless mail goes to files */
	int mail_timeout, mail_poll;       /* seconds */
	char create[8];                    /* "open", "code" or "admin" */
	char invite_code[CONF_CODE_MAX + 1];  /* "" unless set */
	int games_per_hour;                /* per client; 0: no limit */
	int seat_mails_per_day;            /* per recipient; 0: no limit */
	int address_mails_per_hour;        /* every email to one address */
	int address_mails_per_day;         /* ...; 0: no limit */
	int talk_per_game;                 /* store_set_talk_cap */
	int bot_rollouts;                  /* per bot move */
	int review_rollouts;               /* per move of a review */
	char reply_address[CONF_URL_MAX + 1];  /* "" unless moves by reply */
	char trust_authserv[CONF_URL_MAX + 1]; /* our MTA's authserv-id, or "" */
	int take_back_grace;               /* seconds; store_holds */
	int bot_wait;                      /* seconds; store_holds */
	int inbound_memory_mb;             /* RLIMIT_DATA of `inbound`; 0: none */
} conf;

/* Fills c with the defaults (BT_DEFAULT_DB, BT_TEMPLATE_DIR...). */
void conf_defaults(conf *c);

/* Sets key (a name of the file format) to value.  Returns 0, or -1 with
 * why (cap bytes) saying what is wrong with it. */
int conf_set(conf *c, const char *key, const char *value, char *why,
             size_t cap);

/* Reads the file at path over c.  Returns 0, or -1 with why naming the
 * file and line. */
int conf_load(conf *c, const char *path, char *why, size_t cap);

/* Checks c as a whole and derives prefix and secure.  Returns 0 or -1
 * with why. */
int conf_finish(conf *c, char *why, size_t cap);

#endif
