/*
 * main.c - buffertime-notify: the notice lane (notifier.h) as a program
 * of its own, which `buffertime worker` starts beside itself (and runs
 * with --once after its own rounds), so that a slow push service or
 * webhook never holds up an email, and the `buffertime` tool, which
 * reads each incoming email, loads no HTTP or P-256 library.
 *
 *   buffertime-notify [--config FILE] [--db FILE] [--key-file FILE]
 *                     [--base-url URL] [--mail-from ADDR] [--once]
 *
 * --once: sends what is due, then exits (0, or 1 if a notice failed and
 * waits to be tried again).
 * Else until SIGTERM or SIGINT, looking each second (on PostgreSQL at
 * once when any host queues a notice); started by the worker, it ends
 * with the worker (cli/worker.c asks the kernel so).
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "conf.h"
#include "conf_args.h"
#include "notifier.h"
#include "store_notice.h"

static const char usage[] =
	"usage: buffertime-notify [--config FILE] [--db FILE] [--key-file FILE]\n"
	"                         [--base-url URL] [--mail-from ADDR] [--once]\n"
	"Sends the queued Web Push notifications and chat webhook messages\n"
	"(`buffertime worker` runs it).  --once: what is due, then exit.\n";

static const conf_flag flags[] = {
	{ "--db", "db" }, { "--key-file", "key_file" },
	{ "--base-url", "base_url" }, { "--mail-from", "mail_from" },
};

enum { ONCE_ROUNDS = 1000 };

static void on_stop(int sig)
{
	(void)sig;
	notifier_stop();
}

static void signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_stop;   /* no SA_RESTART: a wait ends at once */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
}

/* One round: what is due, reported. */
static int round_of(notifier *n, notifier_counts *c)
{
	store_error e;

	memset(c, 0, sizeof *c);
	if (notifier_send_due(n, c, &e) != STORE_OK) {
		fprintf(stderr, "buffertime-notify: %s: %s\n",
		        store_rc_name(e.rc), e.why);
		return 1;
	}
	notifier_report(n, c);
	return 0;
}

static int daemon_loop(notifier *n)
{
	sigset_t stops;
	notifier_counts c;

	sigemptyset(&stops);
	sigaddset(&stops, SIGTERM);
	sigaddset(&stops, SIGINT);
	while (!notifier_stopping()) {
		round_of(n, &c);
		if (!notifier_stopping() && !notifier_due(n))
			store_wait_second(n->st, &stops, notifier_stopping);
	}
	return 0;
}

static int once_loop(notifier *n)
{
	notifier_counts c;
	int failed = 0;

	for (int i = 0; i < ONCE_ROUNDS && notifier_due(n); i++) {
		if (round_of(n, &c))
			return 1;
		/* what was given up could not go (a browser gone, a chat
		 * refused): said on the log, and no failure of this run */
		failed |= c.failed > 0;
	}
	return failed;
}

static int run(const conf *c, store *s, int once)
{
	char why[CONF_PATH_MAX + 128], contact[CONF_URL_MAX + 8];
	notifier n = {
		.st = s, .base_url = c->base_url, .contact = contact,
		.rules = { .allow_private = c->allow_private_urls,
		           .total_ms = c->notice_timeout * 1000L,
		           .stop = notifier_stopping },
		.log = stderr,
	};
	int rc;

	if (once && !notifier_due(&n))
		return 0;       /* the usual case: no key to read */
	snprintf(contact, sizeof contact, "mailto:%s", c->mail_from);
	n.vapid = webpush_vapid_load(c->vapid_key, why, sizeof why);
	if (!n.vapid)
		fprintf(stderr, "buffertime-notify: %s: pushes are given up\n",
		        why);
	rc = once ? once_loop(&n) : daemon_loop(&n);
	webpush_vapid_free(n.vapid);
	return rc;
}

int main(int argc, char **argv)
{
	static conf c;
	store *s = NULL;
	store_error e;
	int rc;

	conf_args args = { "buffertime-notify", usage, flags,
	                   sizeof flags / sizeof flags[0], 0 };
	if ((rc = conf_from_args(&c, argc, argv, &args)) != 0)
		return rc < 0 ? 0 : rc;
	signals();
	if (post_init() != 0) {
		fprintf(stderr, "buffertime-notify: libcurl would not start\n");
		return 1;
	}
	/* a notice sent twice after a power cut is the lesser harm than a
	 * disk's flush for each claim and mark (the worker's choice too) */
	if (store_open(c.db, &s, &e) != STORE_OK ||
	    store_set_sync(s, STORE_SYNC_NORMAL, &e) != STORE_OK) {
		fprintf(stderr, "buffertime-notify: database %s: %s\n", c.db,
		        e.why);
		store_close(s);
		return 1;
	}
	store_set_hook_rules(s, &(store_hook_rules){
		.off = !c.webhooks,
		.per_game_hour = c.webhooks_per_game_hour,
		.per_server_hour = c.webhooks_per_hour });
	rc = run(&c, s, args.once);
	store_close(s);
	return rc;
}
