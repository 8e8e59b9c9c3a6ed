/*
 * main.c - buffertime.fcgi: settings, the listening socket, the worker
 * processes and each worker's FCGX_Accept_r loop.
 *
 * The parent reads the settings, creates or loads the server key,
 * compiles the templates and migrates the database once (so mistakes are
 * reported before anything listens), opens the socket and forks the
 * workers; it restarts a worker that dies and, on SIGTERM, SIGINT or
 * SIGHUP, stops them all and exits.  Each worker opens its own SQLite
 * connection after the fork and serves one request at a time.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include <fcgiapp.h>
#include <sodium.h>

#include "accept_wait.h"
#include "store_notice.h"
#include "store_limits.h"
#include "store_talk.h"
#include "web.h"
#include "webpush.h"

static const char usage[] =
	"usage: buffertime.fcgi [--config FILE] [--listen ADDR] [--workers N]\n"
	"                       [--db FILE] [--base-url URL] [--key-file FILE]\n"
	"                       [--templates DIR]\n"
	"  --listen ADDR   127.0.0.1:PORT, unix:/PATH, stdin (a socket\n"
	"                  passed by spawn-fcgi) or systemd (socket activation)\n"
	"The settings file holds 'key = value' lines: base_url, db, key_file,\n"
	"listen, workers, templates, mail_from, synchronous (and sendmail,\n"
	"mail_dir, mail_timeout, mail_poll, which only `buffertime worker`\n"
	"uses).  Flags override it.\n";

/* Command-line flags and the setting each one sets. */
static const struct {
	const char *flag;
	const char *key;
} flags[] = {
	{ "--listen", "listen" }, { "--workers", "workers" },
	{ "--db", "db" }, { "--base-url", "base_url" },
	{ "--key-file", "key_file" }, { "--templates", "templates" },
	{ "--mail-from", "mail_from" }, { "--synchronous", "synchronous" },
};

enum { NFLAGS = sizeof flags / sizeof flags[0], BACKLOG = 128 };

static volatile sig_atomic_t stopping;

static void on_stop(int sig)
{
	(void)sig;
	stopping = 1;
}

/* The settings file first (wherever --config is), then the flags. */
static int read_settings(conf *c, int argc, char **argv)
{
	char why[CONF_WHY_MAX];

	conf_defaults(c);
	for (int i = 1; i < argc; i++)
		if (strcmp(argv[i], "--config") == 0 && i + 1 < argc &&
		    conf_load(c, argv[i + 1], why, sizeof why))
			goto fail;
	for (int i = 1; i < argc; i += 2) {
		size_t f = 0;
		if (strcmp(argv[i], "--help") == 0) {
			fputs(usage, stdout);
			exit(0);
		}
		while (f < NFLAGS && strcmp(argv[i], flags[f].flag) != 0)
			f++;
		if ((f == NFLAGS && strcmp(argv[i], "--config") != 0) ||
		    i + 1 >= argc) {
			fprintf(stderr, "buffertime.fcgi: bad argument '%s'\n%s",
			        argv[i], usage);
			return -1;
		}
		if (f < NFLAGS &&
		    conf_set(c, flags[f].key, argv[i + 1], why, sizeof why))
			goto fail;
	}
	if (conf_finish(c, why, sizeof why))
		goto fail;
	if (strcmp(c->create, "code") == 0 && !c->invite_code[0]) {
		snprintf(why, sizeof why, "create = code (the default) needs "
		         "invite_code = A-SECRET-CODE, which the new-game form "
		         "asks for; or set create = open (anyone may make "
		         "games) or create = admin (only buffertime admin "
		         "create)");
		goto fail;
	}
	return 0;
fail:
	fprintf(stderr, "buffertime.fcgi: %s\n", why);
	return -1;
}

/* Compiles every template of keys.h from dir. */
static int load_templates(const conf *c, tmpl *t[TPL__MAX])
{
	char path[CONF_PATH_MAX + 64], why[TMPL_WHY_MAX + CONF_PATH_MAX];

	for (int i = 0; i < TPL__MAX; i++) {
		snprintf(path, sizeof path, "%s/%s", c->templates,
		         web_tpl_files[i]);
		if (tmpl_load_file(path, web_key_names, K__MAX, &t[i], why,
		                   sizeof why) != TMPL_OK) {
			fprintf(stderr, "buffertime.fcgi: %s\n", why);
			return -1;
		}
	}
	return 0;
}

/* Opens the database once: creates it, applies migrations, or says why
 * it cannot. */
static int check_db(const conf *c)
{
	store *s = NULL;
	store_error err;

	if (store_open(c->db, &s, &err) != STORE_OK) {
		fprintf(stderr, "buffertime.fcgi: database %s: %s\n", c->db,
		        err.why);
		return -1;
	}
	store_close(s);
	return 0;
}

/* systemd's socket activation hands the socket over as fd 3
 * (SD_LISTEN_FDS_START) and says so in LISTEN_PID and LISTEN_FDS. */
static int systemd_socket(void)
{
	const char *pid = getenv("LISTEN_PID"), *fds = getenv("LISTEN_FDS");

	if (!pid || !fds || atol(pid) != (long)getpid() || atoi(fds) < 1) {
		fprintf(stderr, "buffertime.fcgi: listen = systemd, but no "
		        "socket was passed (LISTEN_PID/LISTEN_FDS)\n");
		return -1;
	}
	return 3;
}

/* The listening socket: fd 0 for "stdin" (spawn-fcgi), fd 3 for
 * "systemd", else a new one. */
static int open_listener(const conf *c)
{
	const char *l = c->listen;
	struct stat st;
	int fd;

	if (strcmp(l, "stdin") == 0)
		return 0;
	if (strcmp(l, "systemd") == 0)
		return systemd_socket();
	if (strncmp(l, "unix:", 5) == 0) {
		l += 5;
		/* A socket left by a previous run would block the bind. */
		if (lstat(l, &st) == 0 && S_ISSOCK(st.st_mode))
			unlink(l);
	}
	fd = FCGX_OpenSocket(l, BACKLOG);
	if (fd < 0)
		fprintf(stderr, "buffertime.fcgi: cannot listen on %s: %s\n",
		        c->listen, strerror(errno));
	return fd;
}

/* ---- a worker ---------------------------------------------------------- */

/* The request id: nginx's $request_id if passed as REQUEST_ID, else
 * pid.count. */
static void request_id(web *w, FCGX_ParamArray env)
{
	const char *r = FCGX_GetParam("REQUEST_ID", env);

	if (r && strlen(r) < REQ_ID_MAX && strspn(r, "0123456789abcdef") ==
	    strlen(r) && *r)
		snprintf(w->rq.id, sizeof w->rq.id, "%s", r);
	else
		snprintf(w->rq.id, sizeof w->rq.id, "%ld.%lu", (long)getpid(),
		         w->served);
}

static const web_err req_errors[] = {
	[REQ_OK] = WEB_OK, [REQ_BAD] = WEB_BAD_REQUEST,
	[REQ_TOO_LARGE] = WEB_TOO_LARGE, [REQ_MEDIA_TYPE] = WEB_MEDIA_TYPE,
};

static long micros_since(const struct timespec *t0)
{
	struct timespec t1;

	clock_gettime(CLOCK_MONOTONIC, &t1);
	return (long)(t1.tv_sec - t0->tv_sec) * 1000000L +
	       (t1.tv_nsec - t0->tv_nsec) / 1000;
}

/* One request: read, route, run the page or the error page, send, log. */
/* s for the log: every byte outside printable ASCII as '?', so what a
 * client sent cannot reach an operator's terminal as control codes. */
static const char *printable(const char *s, char *dst, size_t cap)
{
	size_t n = 0;

	for (; *s && n + 1 < cap; s++)
		dst[n++] = *s > ' ' && *s < 0x7f ? *s : '?';
	dst[n] = '\0';
	return dst;
}

static void serve(web *w, FCGX_Request *fr)
{
	char method[sizeof w->rq.method_text], path[REQ_PATH_MAX + 1];
	struct timespec t0;
	page_fn *page = NULL;
	web_err e;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	w->served++;
	request_id(w, fr->envp);
	resp_reset(w);
	e = req_errors[request_read(&w->rq, fr, w->cf->prefix)];
	if (e == WEB_OK)
		page = route_find(w, &e);
	if (page && w->rq.method == M_POST &&
	    (e = req_errors[request_body(&w->rq, fr)]) != WEB_OK)
		page = NULL;
	if (e == WEB_BAD_REQUEST || e == WEB_TOO_LARGE)
		snprintf(w->why, sizeof w->why, "%s", w->rq.why);
	if (page)
		e = page(w);
	if (e != WEB_OK)
		page_error(w, e);
	resp_send(w, fr->out, w->rq.method == M_HEAD);
	/* what this request read ahead is not the next one's to read */
	store_read_ahead_end(w->st);
	fprintf(stderr, "%s %s %d %ldus %s\n",
	        printable(w->rq.method_text, method, sizeof method),
	        printable(w->rq.path, path, sizeof path), w->rs.status,
	        micros_since(&t0), w->rq.id);
}

static web W;

/* Answers requests until the listening socket fails; on a server,
 * reading its news between them (accept_wait.c). */
static int serve_all(FCGX_Request *fr, int fd, int server)
{
	accept_wait aw = { .ep = -1 };
	int rc;

	if (server && accept_wait_open(&aw, fd) < 0) {
		fprintf(stderr, "buffertime.fcgi: worker %ld: cannot wait for "
		        "requests: %s\n", (long)getpid(), strerror(errno));
		store_close(W.st);
		return 1;
	}
	for (;;) {
		if (aw.ep >= 0 && accept_wait_next(&aw, W.st) < 0)
			break;
		rc = FCGX_Accept_r(fr);
		/* another worker took it first */
		if (rc == -EAGAIN)
			continue;
		if (rc < 0)
			break;
		serve(&W, fr);
		FCGX_Finish_r(fr);
	}
	accept_wait_close(&aw);
	store_close(W.st);
	return 0;
}
static char vapid_public[WEBPUSH_KEY_TEXT];

/* Web Push's key: made at the first start; the pages need its public
 * half (the browsers subscribe for it), the worker signs with it. */
static int load_vapid(const conf *c)
{
	char why[CONF_WHY_MAX];
	webpush_vapid *v = webpush_vapid_load(c->vapid_key, why, sizeof why);

	if (!v || webpush_vapid_public(v, vapid_public, sizeof vapid_public)) {
		fprintf(stderr, "buffertime.fcgi: Web Push key: %s\n",
		        v ? "no public key" : why);
		webpush_vapid_free(v);
		return 1;
	}
	webpush_vapid_free(v);
	return 0;
}

static int worker(const conf *c, tmpl *const *t, const token_keys *k, int fd)
{
	FCGX_Request fr;
	store_error err;

	signal(SIGTERM, SIG_DFL);
	signal(SIGINT, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
#ifdef __linux__
	prctl(PR_SET_PDEATHSIG, SIGTERM);
#endif
	W.cf = c;
	W.keys = *k;
	W.vapid_public = vapid_public;
	W.tpl = (const tmpl *const *)t;
	out_init(&W.page, WEB_PAGE_MAX);
	out_init(&W.main, WEB_PAGE_MAX);
	for (int i = 0; i < WEB_FRAGS; i++)
		out_init(&W.frag[i], WEB_PAGE_MAX);
	if (store_open(c->db, &W.st, &err) != STORE_OK ||
	    (strcmp(c->synchronous, "normal") == 0 &&
	     store_set_sync(W.st, STORE_SYNC_NORMAL, &err) != STORE_OK)) {
		fprintf(stderr, "buffertime.fcgi: worker %ld: database: %s\n",
		        (long)getpid(), err.why);
		return 1;
	}
	store_set_limits(W.st, &(store_limits){
		.games_per_hour = c->games_per_hour,
		.seat_mails_per_day = c->seat_mails_per_day,
		.mails_per_hour = c->address_mails_per_hour,
		.mails_per_day = c->address_mails_per_day });
	store_set_holds(W.st, &(store_holds){
		.mail_grace = c->take_back_grace, .bot_wait = c->bot_wait });
	store_set_talk_cap(W.st, c->talk_per_game);
	store_set_hook_rules(W.st, &(store_hook_rules){
		.off = !c->webhooks,
		.per_game_hour = c->webhooks_per_game_hour,
		.per_server_hour = c->webhooks_per_hour });
	if (FCGX_InitRequest(&fr, fd, 0) != 0)
		return 1;
	return serve_all(&fr, fd, store_is_server(c->db));
}

/* ---- the parent -------------------------------------------------------- */

/* A worker that exits sooner than QUICK_DEATH_MS after its start could
 * not start (a bad database, say): the parent waits a second before the
 * next try.  One killed by a signal (a crash, the OOM killer, SIGKILL)
 * is replaced at once, so the pool stays whole however often it
 * happens, up to KILLED_PER_S a second: beyond, a worker that crashes
 * as it starts would have the parent fork without pause. */
enum { QUICK_DEATH_MS = 1000, KILLED_PER_S = 10 };

static long long monotonic_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (long long)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

static pid_t spawn(const conf *c, tmpl *const *t, const token_keys *k, int fd)
{
	pid_t pid = fork();

	if (pid == 0) {
		fflush(stderr);
		_exit(worker(c, t, k, fd));
	}
	if (pid < 0)
		fprintf(stderr, "buffertime.fcgi: fork: %s\n", strerror(errno));
	return pid;
}

/* Keeps c->workers workers running until a stop signal. */
static void supervise(const conf *c, tmpl *const *t, const token_keys *k,
                      int fd)
{
	pid_t pids[CONF_WORKERS_MAX] = { 0 };
	long long born[CONF_WORKERS_MAX] = { 0 }, window = 0;
	int status, killed = 0;

	while (!stopping) {
		for (int i = 0; i < c->workers && !stopping; i++)
			if (pids[i] <= 0) {
				pids[i] = spawn(c, t, k, fd);
				born[i] = monotonic_ms();
			}
		pid_t dead = waitpid(-1, &status, 0);
		int pause = 0;
		long long now = monotonic_ms();
		if (now - window >= 1000) {
			window = now;
			killed = 0;
		}
		for (int i = 0; dead > 0 && i < c->workers; i++)
			if (pids[i] == dead) {
				pids[i] = 0;
				pause = WIFSIGNALED(status)
				        ? ++killed > KILLED_PER_S
				        : now - born[i] < QUICK_DEATH_MS;
				if (!stopping)
					fprintf(stderr, "buffertime.fcgi: worker "
					        "%ld ended (status %d); "
					        "restarting\n", (long)dead,
					        status);
			}
		if (pause && !stopping)
			sleep(1);    /* never spin on a worker that dies at once */
	}
	for (int i = 0; i < c->workers; i++)
		if (pids[i] > 0)
			kill(pids[i], SIGTERM);
	for (int i = 0; i < c->workers; i++)
		if (pids[i] > 0)
			waitpid(pids[i], &status, 0);
}

int main(int argc, char **argv)
{
	static conf c;
	tmpl *t[TPL__MAX] = { 0 };
	token_keys k;
	char why[CONF_PATH_MAX + 128];
	struct sigaction sa = { .sa_handler = on_stop };
	int fd;

	if (read_settings(&c, argc, argv))
		return 2;
	if (sodium_init() < 0) {
		fprintf(stderr, "buffertime.fcgi: libsodium failed to start\n");
		return 1;
	}
	if (token_keys_load(c.key_file, &k, why, sizeof why) != TOKEN_OK) {
		fprintf(stderr, "buffertime.fcgi: server key: %s\n", why);
		return 1;
	}
	if (load_vapid(&c))
		return 1;
	if (load_templates(&c, t) || check_db(&c) || FCGX_Init() != 0 ||
	    (fd = open_listener(&c)) < 0)
		return 1;
	signal(SIGPIPE, SIG_IGN);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	fprintf(stderr, "buffertime.fcgi: listening on %s, %d workers, "
	        "base URL %s\n", c.listen, c.workers, c.base_url);
	supervise(&c, t, &k, fd);
	token_keys_wipe(&k);
	for (int i = 0; i < TPL__MAX; i++)
		tmpl_free(t[i]);
	if (strncmp(c.listen, "unix:", 5) == 0)
		unlink(c.listen + 5);
	fprintf(stderr, "buffertime.fcgi: stopped\n");
	return 0;
}
