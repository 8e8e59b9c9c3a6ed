/*
 * admin_mail.c - "buffertime admin [--db FILE] mail ...": the operator's
 * view of the outbox (db/store.h, the outbox part).
 *
 *   mail list [--failed|--all]   queued emails (failed ones among them),
 *                                only those with a failed attempt, or
 *                                every one ever queued; one line each:
 *                                id state kind attempts next to error
 *   mail show ID                 one email: its fields, then its text
 *   mail retry ID|all            due now, whatever its backoff said
 *   mail drop ID                 never sent; kept, marked dropped
 *   mail block ADDR              never email ADDR (its key: lower case,
 *                                no "+tag") again; drops what is queued
 *   mail unblock ADDR            email it again from now on
 *   mail blocked                 the list: key how date, one line each
 *
 * As in admin.c: arguments are checked before the database is opened;
 * exit 0, 1 for a store error or an unknown email, 2 for a usage error.
 * What the emails hold (subjects, errors from sendmail) is printed with
 * control characters as '?', so no terminal escape gets through.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "message.h"
#include "store.h"
#include "store_block.h"

static const char mail_usage[] =
	"usage: buffertime admin [--db FILE] mail list [--failed|--all]\n"
	"       buffertime admin [--db FILE] mail show ID\n"
	"       buffertime admin [--db FILE] mail retry ID|all\n"
	"       buffertime admin [--db FILE] mail drop ID\n"
	"       buffertime admin [--db FILE] mail block|unblock ADDRESS\n"
	"       buffertime admin [--db FILE] mail blocked\n";

enum { ID_MAX_DIGITS = 15 };

typedef enum mail_cmd {
	MAIL_LIST, MAIL_SHOW, MAIL_RETRY, MAIL_DROP,
	MAIL_BLOCK, MAIL_UNBLOCK, MAIL_BLOCKED
} mail_cmd;

/* A mail command's arguments once checked. */
typedef struct mail_job {
	mail_cmd cmd;
	store_outbox_filter filter;   /* list */
	int64_t id;                   /* show, retry (0: all), drop */
	int found;                    /* show: the email was listed */
	const char *address;          /* block, unblock */
} mail_job;

static int mail_usage_error(const char *what, const char *arg)
{
	fprintf(stderr, "buffertime admin mail: %s%.60s\n%s", what, arg,
	        mail_usage);
	return 2;
}

/* An outbox id: 1 to 15 digits, not 0; else -1. */
static int64_t parse_id(const char *s)
{
	size_t n = strlen(s);
	int64_t v = 0;

	if (n == 0 || n > ID_MAX_DIGITS || strspn(s, "0123456789") != n ||
	    s[0] == '0')
		return -1;
	for (size_t i = 0; i < n; i++)
		v = v * 10 + (s[i] - '0');
	return v;
}

/* block, unblock ADDRESS and blocked; 0, 1 if c is none of them, or an
 * exit status. */
static int block_parse(const char *c, const char *arg, mail_job *j)
{
	char key[STORE_EMAIL_MAX + 1];

	if (!strcmp(c, "blocked")) {
		j->cmd = MAIL_BLOCKED;
		return arg ? mail_usage_error("unexpected argument ", arg) : 0;
	}
	if (!strcmp(c, "block"))
		j->cmd = MAIL_BLOCK;
	else if (!strcmp(c, "unblock"))
		j->cmd = MAIL_UNBLOCK;
	else
		return 1;
	if (!arg)
		return mail_usage_error(c, " needs an email address");
	/* unblock takes what block took, and a key (no "+tag") too */
	if (strlen(arg) > STORE_EMAIL_MAX || !msg_addr_ok(arg) ||
	    store_address_key(arg, key, sizeof key))
		return mail_usage_error("not an email address: ", arg);
	j->address = arg;
	return 0;
}

/* Checks argv (argv[0] is "mail") into j.  0 or an exit status. */
static int mail_parse(int argc, char **argv, mail_job *j)
{
	int rc;

	if (argc < 2)
		return mail_usage_error("missing command", "");
	const char *c = argv[1], *arg = argc > 2 ? argv[2] : NULL;
	if (argc > 3)
		return mail_usage_error("unexpected argument ", argv[3]);
	if ((rc = block_parse(c, arg, j)) != 1)
		return rc;
	if (!strcmp(c, "list")) {
		j->cmd = MAIL_LIST;
		j->filter = STORE_OUTBOX_QUEUED;
		if (arg && !strcmp(arg, "--failed"))
			j->filter = STORE_OUTBOX_FAILED;
		else if (arg && !strcmp(arg, "--all"))
			j->filter = STORE_OUTBOX_ALL;
		else if (arg)
			return mail_usage_error("list: unknown argument ", arg);
		return 0;
	}
	if (!strcmp(c, "show"))
		j->cmd = MAIL_SHOW;
	else if (!strcmp(c, "retry"))
		j->cmd = MAIL_RETRY;
	else if (!strcmp(c, "drop"))
		j->cmd = MAIL_DROP;
	else
		return mail_usage_error("unknown command ", c);
	if (!arg)
		return mail_usage_error(c, " needs an email id");
	if (j->cmd == MAIL_RETRY && !strcmp(arg, "all")) {
		j->id = 0;
		return 0;
	}
	if ((j->id = parse_id(arg)) < 0)
		return mail_usage_error("not an email id: ", arg);
	return 0;
}

/* ---- output ------------------------------------------------------------ */

/* Prints s with control characters (and DEL) as '?'. */
static void put_plain(const char *s)
{
	for (; *s; s++)
		putchar((unsigned char)*s < 0x20 || *s == 0x7f ? '?' : *s);
}

/* "2024-05-01T12:00:00Z", or "-" for 0. */
static const char *when(int64_t t, char *buf, size_t cap)
{
	time_t tt = (time_t)t;
	struct tm tm;

	if (t == 0 || gmtime_r(&tt, &tm) == NULL ||
	    strftime(buf, cap, "%Y-%m-%dT%H:%M:%SZ", &tm) == 0)
		snprintf(buf, cap, "-");
	return buf;
}

static const char *state_of(const store_outmail *m)
{
	if (m->sent)
		return "sent";
	if (m->dropped)
		return "dropped";
	return m->last_error[0] ? "failed" : "queued";
}

static int list_row(void *ctx, const store_outmail *m)
{
	char next[32];

	(void)ctx;
	printf("%-6" PRId64 "  %-7s  %-8s  %8d  %-20s  %s", m->id,
	       state_of(m), m->kind[0] ? m->kind : "-", m->attempts,
	       m->sent || m->dropped ? "-"
	                             : when(m->next_attempt, next, sizeof next),
	       m->to);
	if (m->last_error[0]) {
		fputs("  ", stdout);
		put_plain(m->last_error);
	}
	putchar('\n');
	return ferror(stdout);
}

static int show_row(void *ctx, const store_outmail *m)
{
	mail_job *j = ctx;
	char t[32];

	if (m->id != j->id)
		return 0;
	j->found = 1;
	printf("id: %" PRId64 "\nstate: %s\ngame: %s\nseat: %d\nkind: %s\n"
	       "to: %s\n", m->id, state_of(m), m->game[0] ? m->game : "-",
	       m->seat, m->kind, m->to);
	printf("created: %s\n", when(m->created, t, sizeof t));
	printf("attempts: %d\n", m->attempts);
	printf("next_attempt: %s\n", when(m->next_attempt, t, sizeof t));
	printf("sent: %s\n", when(m->sent, t, sizeof t));
	printf("dropped: %s\n", when(m->dropped, t, sizeof t));
	fputs("last_error: ", stdout);
	put_plain(m->last_error);
	fputs("\nsubject: ", stdout);
	put_plain(m->subject);
	printf("\n\n%s", m->body);
	if (m->body[0] && m->body[strlen(m->body) - 1] != '\n')
		putchar('\n');
	return 1;
}

static int blocked_row(void *ctx, const store_blocked *b)
{
	char t[32];

	(void)ctx;
	put_plain(b->address);
	printf("  %-5s  %s\n", b->how, when(b->created, t, sizeof t));
	return ferror(stdout);
}

static int fail(const store_error *e)
{
	fprintf(stderr, "buffertime admin mail: %s: %s\n", store_rc_name(e->rc),
	        e->why);
	return 1;
}

static int flushed(void)
{
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "buffertime admin mail: writing: %s\n",
		        strerror(errno));
		return 1;
	}
	return 0;
}

/* ---- the commands ------------------------------------------------------ */

static int mail_run(store *s, mail_job *j)
{
	store_error e;
	int n = 0;

	switch (j->cmd) {
	case MAIL_LIST:
		printf("%-6s  %-7s  %-8s  %8s  %-20s  %s  %s\n", "id", "state",
		       "kind", "attempts", "next", "to", "error");
		if (store_outbox_list(s, j->filter, list_row, NULL, &e))
			return fail(&e);
		return flushed();
	case MAIL_SHOW:
		if (store_outbox_list(s, STORE_OUTBOX_ALL, show_row, j, &e))
			return fail(&e);
		if (!j->found) {
			fprintf(stderr, "buffertime admin mail: not found: no "
			        "email %" PRId64 "\n", j->id);
			return 1;
		}
		return flushed();
	case MAIL_RETRY:
		if (store_outbox_retry(s, j->id, &n, &e))
			return fail(&e);
		printf("%d to retry\n", n);
		return flushed();
	case MAIL_DROP:
		if (store_outbox_drop(s, j->id, &e))
			return fail(&e);
		return 0;
	case MAIL_BLOCK:
		if (store_block_add(s, j->address, "admin", &e))
			return fail(&e);
		return 0;
	case MAIL_UNBLOCK:
		if (store_block_remove(s, j->address, &e))
			return fail(&e);
		return 0;
	case MAIL_BLOCKED:
		if (store_block_list(s, blocked_row, NULL, &e))
			return fail(&e);
		return flushed();
	}
	return 1;
}

int admin_mail(const char *db, int argc, char **argv)
{
	mail_job j;
	store *s = NULL;
	store_error e;
	int rc;

	memset(&j, 0, sizeof j);
	if (argc > 1 && !strcmp(argv[1], "--help")) {
		fputs(mail_usage, stdout);
		return 0;
	}
	if ((rc = mail_parse(argc, argv, &j)) != 0)
		return rc;
	if (store_open(db, &s, &e) != STORE_OK)
		return fail(&e);
	rc = mail_run(s, &j);
	store_close(s);
	return rc;
}
