/*
 * bare_fcgi.c - the ceiling for bench/web.sh: a libfcgi responder that
 * answers every request with the same page, read once from a file, so
 * that nginx and FastCGI cost as much as for buffertime.fcgi and the
 * program's own work costs nothing.
 *
 *   bare_fcgi --listen unix:/path|HOST:PORT [--workers N] FILE
 *
 * Forks N workers (default 2) on one listening socket, as buffertime.fcgi
 * does; each runs the FCGX_Accept_r loop.  SIGTERM or SIGINT to the parent
 * stops the workers too.  Exits 1 on a bad argument or an unreadable file.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fcgiapp.h>

#define MAX_WORKERS 64

static pid_t workers[MAX_WORKERS];
static int nworkers;

/* Reads the whole of path into a malloc'ed buffer; NULL on failure. */
static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	long n;

	if (f == NULL)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 &&
	    fseek(f, 0, SEEK_SET) == 0 && (buf = malloc((size_t)n + 1)) &&
	    fread(buf, 1, (size_t)n, f) == (size_t)n) {
		*len = (size_t)n;
	} else {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	return buf;
}

/* One worker: answers requests on sock until the process is killed. */
static void serve(int sock, const char *page, size_t len)
{
	FCGX_Request req;

	FCGX_InitRequest(&req, sock, 0);
	while (FCGX_Accept_r(&req) >= 0) {
		FCGX_FPrintF(req.out, "Status: 200 OK\r\n"
		    "Content-Type: text/html; charset=utf-8\r\n"
		    "Content-Length: %lu\r\n\r\n", (unsigned long)len);
		FCGX_PutStr(page, (int)len, req.out);
		FCGX_Finish_r(&req);
	}
}

static void stop(int sig)
{
	for (int i = 0; i < nworkers; i++)
		kill(workers[i], SIGTERM);
	signal(sig, SIG_DFL);
	raise(sig);
}

int main(int argc, char **argv)
{
	const char *listen = NULL, *file = NULL;
	char *page;
	size_t len = 0;
	int n = 2, sock;

	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--listen") == 0 && i + 1 < argc)
			listen = argv[++i];
		else if (strcmp(argv[i], "--workers") == 0 && i + 1 < argc)
			n = atoi(argv[++i]);
		else if (argv[i][0] != '-' && file == NULL)
			file = argv[i];
		else
			file = NULL, i = argc;
	}
	if (listen == NULL || file == NULL || n < 1 || n > MAX_WORKERS) {
		fprintf(stderr, "usage: bare_fcgi --listen unix:/path|HOST:PORT"
		    " [--workers N] FILE\n");
		return 1;
	}
	if ((page = slurp(file, &len)) == NULL) {
		perror(file);
		return 1;
	}
	if (strncmp(listen, "unix:", 5) == 0)
		listen += 5;
	if (FCGX_Init() != 0 || (sock = FCGX_OpenSocket(listen, 128)) < 0) {
		fprintf(stderr, "bare_fcgi: cannot listen on %s\n", listen);
		return 1;
	}
	signal(SIGTERM, stop);
	signal(SIGINT, stop);
	for (nworkers = 0; nworkers < n; nworkers++) {
		pid_t pid = fork();

		if (pid < 0) {
			perror("fork");
			stop(SIGTERM);
		}
		if (pid == 0) {
			signal(SIGTERM, SIG_DFL);
			signal(SIGINT, SIG_DFL);
			serve(sock, page, len);
			_exit(0);
		}
		workers[nworkers] = pid;
	}
	while (wait(NULL) > 0)
		;
	free(page);
	return 0;
}
