/*
 * worker.c - "buffertime worker": the background program, which plays
 * the bot seats' turns, weighs hints, sends the emails the games queue
 * and reviews finished games (work/worker.h).  `buffertime mailer`, its
 * old name, runs it too, for the installs that still call it so.
 *
 *   buffertime worker [--config FILE] [--db FILE] [--key-file FILE]
 *                     [--base-url URL] [--mail-from ADDR] [--sendmail CMD]
 *                     [--mail-dir DIR] [--timeout SECS] [--poll SECS]
 *                     [--bot-rollouts N] [--review-rollouts N] [--once]
 *
 * The settings are those of buffertime.fcgi (conf/conf.h: the same
 * file serves both), flags over the file.  --once: rounds until nothing
 * is due now (cron), exit 0, or 1 if an email or a kind of job failed.
 * Else a daemon until SIGTERM or SIGINT, which finish the email in hand
 * and exit 0.  The logic is work/worker.c; here are the settings, the
 * key and the store.
 *
 * Not for people: `buffertime worker --courier-mark DB ID sent|failed
 * WHY` (or `mailer --courier-mark`, as older couriers run it) is what a
 * courier runs to mark an email its worker, killed, did not
 * (courier_mark_main in mail/courier.c).
 */
#define _XOPEN_SOURCE 700   /* realpath(3) */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "conf.h"
#include "conf_args.h"
#include "review.h"
#include "cli.h"
#include "courier.h"
#include "message.h"
#include "store_notice.h"
#include "store_limits.h"
#include "store_talk.h"
#include "token.h"
#include "worker.h"

static const char usage[] =
	"usage: buffertime worker [--config FILE] [--db FILE] [--key-file FILE]\n"
	"                         [--base-url URL] [--mail-from ADDR]\n"
	"                         [--sendmail CMD] [--mail-dir DIR]\n"
	"                         [--timeout SECS] [--poll SECS]\n"
	"                         [--bot-rollouts N] [--review-rollouts N]\n"
	"                         [--once]\n"
	"Plays the bot seats' turns (the search bot, N games played out a"
	" move),\nreviews finished games (--review-rollouts games a move),"
	"\nthen sends the queued emails: through CMD (default"
	" /usr/sbin/sendmail -t -i,\nsplit on blanks, no shell), or as one"
	" file per message in DIR."
	"\n--once: rounds until nothing is due, then exit (0, or 1 if an"
	" email or a job\nfailed); else a look every --poll seconds (each"
	" second for due jobs and\nemails) until SIGTERM.  The settings file is "
	"buffertime.fcgi's\n(keys sendmail, mail_dir, mail_timeout, mail_poll,"
	" mail_from, db, ...).\n";

/* Flags and the setting each one sets. */
static const conf_flag flags[] = {
	{ "--db", "db" }, { "--key-file", "key_file" },
	{ "--base-url", "base_url" }, { "--mail-from", "mail_from" },
	{ "--sendmail", "sendmail" }, { "--mail-dir", "mail_dir" },
	{ "--timeout", "mail_timeout" }, { "--poll", "mail_poll" },
	{ "--bot-rollouts", "bot_rollouts" },
	{ "--review-rollouts", "review_rollouts" },
};

enum { KEY_TRIES = 3 };

/* Makes the mail folder if missing (one level, 0700) and says where it
 * is; 0 or 1. */
static int mail_folder(conf *c)
{
	struct stat st;
	char real[PATH_MAX];

	if (mkdir(c->mail_dir, 0700) != 0 && errno != EEXIST) {
		fprintf(stderr, "buffertime worker: %s: %s\n", c->mail_dir,
		        strerror(errno));
		return 1;
	}
	if (stat(c->mail_dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
		fprintf(stderr, "buffertime worker: %s: not a folder\n",
		        c->mail_dir);
		return 1;
	}
	if (realpath(c->mail_dir, real) != NULL &&
	    strlen(real) < sizeof c->mail_dir)
		memcpy(c->mail_dir, real, strlen(real) + 1);
	fprintf(stderr, "buffertime worker: no mail server: each email is a "
	        "file in %s\n", c->mail_dir);
	return 0;
}

/* Says which program sends, warning if it cannot be run. */
static void say_sendmail(const conf *c)
{
	char words[SEND_CMD_MAX + 1], *argv[SEND_ARGS_MAX + 1];

	fprintf(stderr, "buffertime worker: sending with %s\n", c->sendmail);
	if (send_split(c->sendmail, words, sizeof words, argv,
	               SEND_ARGS_MAX + 1) < 0)
		fprintf(stderr, "buffertime worker: warning: the sendmail "
		        "setting has more than %d words\n", SEND_ARGS_MAX);
	else if (strchr(argv[0], '/') != NULL && access(argv[0], X_OK) != 0)
		fprintf(stderr, "buffertime worker: warning: %s: %s; emails "
		        "stay queued until it works (or set mail_dir)\n",
		        argv[0], strerror(errno));
}

/* The server key, as buffertime.fcgi uses it (links in reminders and
 * digests); tried again if the server is creating it this instant. */
static int load_keys(const conf *c, token_keys *k)
{
	char why[CONF_PATH_MAX + 128];
	token_rc rc = TOKEN_KEY_IO;

	for (int i = 0; i < KEY_TRIES; i++) {
		rc = token_keys_load(c->key_file, k, why, sizeof why);
		if (rc != TOKEN_KEY_SIZE)
			break;
		sleep(1);
	}
	if (rc == TOKEN_OK)
		return 0;
	fprintf(stderr, "buffertime worker: %s\n", why);
	return 1;
}

_Static_assert((int)CONF_ROLLOUTS_DEFAULT == (int)BOT_DEFAULT_ROLLOUTS &&
               (int)CONF_ROLLOUTS_MAX <= (int)BOT_MAX_ROLLOUTS,
               "the settings' bot budget is the bot's");
_Static_assert((int)CONF_REVIEW_ROLLOUTS_DEFAULT ==
               (int)REVIEW_DEFAULT_ROLLOUTS,
               "the settings' review budget is the review's");

/* ---- the notice lane: buffertime-notify beside this program ------------- */

/* buffertime-notify's path: beside this program. */
static int notifier_path(char *out, size_t cap)
{
	char self[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);

	if (n <= 0)
		return -1;
	self[n] = '\0';
	char *slash = strrchr(self, '/');
	if (!slash)
		return -1;
	*slash = '\0';
	int len = snprintf(out, cap, "%s/buffertime-notify", self);
	return len < 0 || (size_t)len >= cap ? -1 : 0;
}

/* Starts buffertime-notify with this worker's settings (the file, and
 * what the flags made of those it reads); its pid, or -1 (said). */
static pid_t start_notifier(const conf *c, const char *config, int once)
{
	char path[PATH_MAX + 32];
	const char *argv[16];
	int n = 0;

	if (notifier_path(path, sizeof path) != 0 || access(path, X_OK) != 0) {
		fprintf(stderr, "buffertime worker: no buffertime-notify beside "
		        "this program: no notification or chat message is "
		        "sent\n");
		return -1;
	}
	argv[n++] = path;
	if (config) {
		argv[n++] = "--config";
		argv[n++] = config;
	}
	argv[n++] = "--db", argv[n++] = c->db;
	argv[n++] = "--key-file", argv[n++] = c->key_file;
	argv[n++] = "--base-url", argv[n++] = c->base_url;
	argv[n++] = "--mail-from", argv[n++] = c->mail_from;
	if (once)
		argv[n++] = "--once";
	argv[n] = NULL;
	fflush(NULL);
	pid_t parent = getpid(), pid = fork();
	if (pid == 0) {
		/* It goes when this worker does, even by SIGKILL: asked before
		 * the exec (kept across it), and a worker already gone by then
		 * is seen by the parent having changed. */
		if (prctl(PR_SET_PDEATHSIG, SIGTERM) != 0 || getppid() != parent)
			_exit(0);
		execv(path, (char *const *)argv);
		fprintf(stderr, "buffertime worker: %s: %s\n", path,
		        strerror(errno));
		_exit(127);
	}
	if (pid < 0)
		fprintf(stderr, "buffertime worker: starting buffertime-notify: "
		        "%s\n", strerror(errno));
	return pid;
}

/* The notifier the daemon keeps running beside it. */
typedef struct lane {
	const conf *c;
	const char *config;
	pid_t pid;
	time_t restarted;      /* its last start again, 0 if none yet */
} lane;

enum { LANE_RESTART_SECONDS = 10 };   /* a notifier that keeps dying is
                                       * started again this often at most */

/* After each of the daemon's rounds: a notifier that ended (crashed,
 * killed) is started again, so pushes and chat messages do not wait for
 * the worker's own restart. */
static void lane_watch(void *ctx)
{
	lane *l = ctx;
	int st;

	if (l->pid > 0 && waitpid(l->pid, &st, WNOHANG) == l->pid) {
		fprintf(stderr, "buffertime worker: buffertime-notify ended "
		        "(%s %d): starting it again\n", WIFSIGNALED(st)
		        ? "signal" : "exit status", WIFSIGNALED(st)
		        ? WTERMSIG(st) : WEXITSTATUS(st));
		l->pid = 0;
	}
	if (l->pid == 0 &&
	    time(NULL) - l->restarted >= LANE_RESTART_SECONDS) {
		l->restarted = time(NULL);
		l->pid = start_notifier(l->c, l->config, 0);
	}
}

/* Waits for the notifier (after a SIGTERM if stop): its exit status,
 * 1 if it failed or was killed. */
static int end_notifier(pid_t pid, int stop)
{
	int st = 0;

	if (pid <= 0)
		return 0;
	if (stop)
		kill(pid, SIGTERM);
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return 1;
	return WIFEXITED(st) ? WEXITSTATUS(st) != 0 : 1;
}

/* The --config file named on the command line, or NULL. */
static const char *config_of(int argc, char **argv)
{
	const char *path = NULL;

	for (int i = 1; i + 1 < argc; i++)
		if (strcmp(argv[i], "--config") == 0)
			path = argv[++i];
	return path;
}

/* Runs the worker on the open store s. */
static int run(const conf *c, const char *config, store *s,
               const token_keys *k, int once)
{
	worker w = {
		.bots = {
			.st = s,
			.db = c->db,
			.compose = { .st = s, .keys = k,
			             .base_url = c->base_url },
			.budget = { c->bot_rollouts, 0, 0 },
			.review_rollouts = c->review_rollouts,
		},
		.mail = {
			.st = s,
			.db = c->db,
			.compose = { .st = s, .keys = k,
			             .base_url = c->base_url },
			.mail_from = c->mail_from,
			.send = { c->sendmail, c->mail_dir, c->mail_timeout },
#ifdef __linux__
			/* the running program even if it was replaced since */
			.self = "/proc/self/exe",
#endif
		},
		.poll = c->mail_poll,
		.log = stderr,
	};
	char why[CONF_PATH_MAX + 128];
	int rc;

	/* reminders and bot moves ask seats to move too: the same menu */
	compose_reply_address(&w.bots.compose, c->reply_address);
	compose_reply_address(&w.mail.compose, c->reply_address);
	if (worker_open(&w, why, sizeof why) != 0) {
		fprintf(stderr, "buffertime worker: %s\n", why);
		worker_close(&w);
		return 1;
	}
	worker_signals();
	if (once) {
		/* the emails first: no webhook holds them up */
		rc = worker_once(&w) > 0;
		rc |= end_notifier(start_notifier(c, config, 1), 0);
	} else {
		lane l = { c, config, start_notifier(c, config, 0), 0 };
		w.after_round = lane_watch;
		w.after_ctx = &l;
		rc = worker_daemon(&w);
		end_notifier(l.pid, 1);
	}
	worker_close(&w);
	return rc;
}

int cmd_worker(int argc, char **argv)
{
	static conf c;
	token_keys k;
	store *s = NULL;
	store_error e;
	int rc;

	if (argc > 1 && strcmp(argv[1], COURIER_MARK_FLAG) == 0)
		return courier_mark_main(argc - 1, argv + 1, stderr);
	conf_args args = { "buffertime worker", usage, flags,
	                   sizeof flags / sizeof flags[0], 0 };
	if ((rc = conf_from_args(&c, argc, argv, &args)) != 0)
		return rc < 0 ? 0 : rc;
	if (!msg_addr_ok(c.mail_from)) {
		fprintf(stderr, "buffertime worker: mail_from must be a plain "
		        "address (name@example.org), not '%.100s'\n",
		        c.mail_from);
		return 2;
	}
	if (c.mail_dir[0] != '\0' ? mail_folder(&c) : (say_sendmail(&c), 0))
		return 1;
	if (load_keys(&c, &k) != 0)
		return 1;
	if (store_open(c.db, &s, &e) != STORE_OK ||
	    store_set_sync(s, STORE_SYNC_NORMAL, &e) != STORE_OK) {
		fprintf(stderr, "buffertime worker: database %s: %s\n", c.db,
		        e.why);
		store_close(s);
		token_keys_wipe(&k);
		return 1;
	}
	/* reminders, digests and bot moves' emails count toward their
	 * address's budget of emails */
	store_set_limits(s, &(store_limits){
		.mails_per_hour = c.address_mails_per_hour,
		.mails_per_day = c.address_mails_per_day });
	store_set_talk_cap(s, c.talk_per_game);    /* the bots' talk */
	store_set_hook_rules(s, &(store_hook_rules){
		.off = !c.webhooks,
		.per_game_hour = c.webhooks_per_game_hour,
		.per_server_hour = c.webhooks_per_hour });
	rc = run(&c, config_of(argc, argv), s, &k, args.once);
	store_close(s);
	token_keys_wipe(&k);
	return rc;
}
