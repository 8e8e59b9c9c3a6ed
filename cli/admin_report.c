/*
 * admin_report.c - the admin commands that only read or copy the games
 * database: list, show, export, backup and check.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "admin.h"
#include "view.h"

static const char *iso_time(int64_t t, char *buf, size_t cap)
{
	time_t tt = (time_t)t;
	struct tm tm;

	if (gmtime_r(&tt, &tm) == NULL ||
	    strftime(buf, cap, "%Y-%m-%dT%H:%M:%SZ", &tm) == 0)
		snprintf(buf, cap, "?");
	return buf;
}

static const char *status_name(bt_status st)
{
	static const char *const names[] = {
		[BT_PLAYING] = "playing", [BT_WON] = "won", [BT_LOST] = "lost"
	};

	if ((unsigned)st >= sizeof names / sizeof names[0])
		return "?";
	return names[st];
}

/* store_list's callback: one line; stops if standard output fails. */
static int list_row(void *ctx, const store_summary *g)
{
	char created[32], updated[32];

	(void)ctx;
	printf("%-22s  %-7d  %-7s  %-7d  %-20s  %s\n", g->id, g->players,
	       status_name(g->status), g->seq,
	       iso_time(g->created, created, sizeof created),
	       iso_time(g->updated, updated, sizeof updated));
	return ferror(stdout);
}

int run_list(store *s, job *j)
{
	store_error e;

	(void)j;
	printf("%-22s  %-7s  %-7s  %-7s  %-20s  %s\n", "id", "players",
	       "status", "actions", "created", "updated");
	if (store_list(s, list_row, NULL, &e) != STORE_OK)
		return admin_store_fail(&e);
	return admin_flush_out();
}

int run_show(store *s, job *j)
{
	static store_game g;
	static char json[BT_VIEW_MAX];
	store_error e;
	size_t n;

	if (store_load(s, j->id, &g, &e) != STORE_OK)
		return admin_store_fail(&e);
	if (j->seat > g.players) {
		fprintf(stderr, "buffertime admin show: --seat %d: the game"
		        " has %d players\n", j->seat, g.players);
		return 2;
	}
	n = bt_view_json(&g.state, j->seat, json, sizeof json);
	if (n == 0 || n >= sizeof json) {
		fputs("buffertime admin show: the state view does not fit\n",
		      stderr);
		return 1;
	}
	fwrite(json, 1, n, stdout);
	return admin_flush_out();
}

static int emit_stdout(void *ctx, const char *s, size_t n)
{
	return fwrite(s, 1, n, ctx) != n;
}

int run_export(store *s, job *j)
{
	static bt_record rec;
	store_error e;

	if (store_export(s, j->id, j->force, &rec, &e) != STORE_OK)
		return admin_store_fail(&e);
	if (bt_record_write(&rec, emit_stdout, stdout) < 0) {
		fputs("buffertime admin export: the stored game cannot be"
		      " written as a record\n", stderr);
		return 1;
	}
	return admin_flush_out();
}

/* A backup never replaces a file: it may be the only good copy. */
int run_backup(store *s, job *j)
{
	struct stat st;
	store_error e;

	if (lstat(j->path, &st) == 0) {
		fprintf(stderr, "buffertime admin backup: %s: exists already;"
		        " refusing to overwrite it\n", j->path);
		return 1;
	}
	if (errno != ENOENT) {
		fprintf(stderr, "buffertime admin backup: %s: %s\n", j->path,
		        strerror(errno));
		return 1;
	}
	if (store_backup(s, j->path, &e) != STORE_OK)
		return admin_store_fail(&e);
	return 0;
}

static void report_problem(void *ctx, const char *line)
{
	(void)ctx;
	printf("%s\n", line);
}

static void print_rows(void *ctx, const char *table, long long rows)
{
	printf("%-7s %-13s %lld rows\n", (const char *)ctx, table, rows);
}

/* Copies the database into the empty one at --to, then checks the copy:
 * as many rows in every table, and every game replays to its snapshot. */
int run_copy(store *s, job *j)
{
	store *to = NULL;
	store_error e;

	if (store_open(j->to, &to, &e) != STORE_OK)
		return admin_store_fail(&e);
	store_rc rc = store_copy(s, to, print_rows, "copied", &e);
	if (rc == STORE_OK)
		rc = store_copy_compare(s, to, print_rows, "same", &e);
	if (rc == STORE_OK)
		rc = store_check(to, report_problem, NULL, &e);
	store_close(to);
	if (admin_flush_out() != 0)
		return 1;
	if (rc != STORE_OK)
		return admin_store_fail(&e);
	puts("ok: the copy is checked");
	return admin_flush_out();
}

int run_check(store *s, job *j)
{
	store_error e;
	store_rc rc;

	(void)j;
	rc = store_check(s, report_problem, NULL, &e);
	if (admin_flush_out() != 0)
		return 1;
	if (rc != STORE_OK)
		return admin_store_fail(&e);
	puts("ok");
	return admin_flush_out();
}
