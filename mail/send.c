/*
 * send.c - one message out: a sendmail child fed through a pipe and
 * watched against a deadline, or a file renamed into a folder.
 */
#define _GNU_SOURCE   /* close_range(2), where glibc has it */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include "send.h"

enum {
	OUT_KEEP = 512,          /* bytes of sendmail's output kept */
	FD_SCAN_MAX = 1024,      /* descriptors closed where close_range
	                          * is missing */
	WAIT_STEP_MAX_NS = 20 * 1000 * 1000,
	PATH_BYTES = 4096 + 64
};

/* ---- the command line -------------------------------------------------- */

int send_split(const char *cmd, char *buf, size_t cap, char **argv,
               int max)
{
	size_t n = strlen(cmd);
	int argc = 0;

	if (n >= cap || n > SEND_CMD_MAX || max < 2)
		return -1;
	memcpy(buf, cmd, n + 1);
	for (char *p = buf; *p != '\0';) {
		while (*p == ' ' || *p == '\t')
			*p++ = '\0';
		if (*p == '\0')
			break;
		if (argc == max - 1)
			return -1;
		argv[argc++] = p;
		while (*p != '\0' && *p != ' ' && *p != '\t')
			p++;
	}
	argv[argc] = NULL;
	return argc > 0 ? argc : -1;
}

/* ---- the clock --------------------------------------------------------- */

static int64_t mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void nap(long ns)
{
	struct timespec ts = { 0, ns };

	nanosleep(&ts, NULL);
}

/* ---- the child --------------------------------------------------------- */

/* Closes every descriptor from 3 up (the database's among them). */
static void close_from_3(void)
{
#if defined(__GLIBC__) && defined(__GLIBC_PREREQ)
#if __GLIBC_PREREQ(2, 34)
	if (close_range(3, UINT_MAX, 0) == 0)
		return;
#endif
#endif
	for (int fd = 3; fd < FD_SCAN_MAX; fd++)
		close(fd);
}

/* In the child: becomes argv[0] with in_fd as standard input and out_fd
 * as standard output and error.  Never returns. */
static void child(char **argv, int in_fd, int out_fd, pid_t parent)
{
	sigset_t none;

	setpgid(0, 0);
#ifdef __linux__
	/* Dies with the process that runs it (the mailer's courier, which
	 * outlives the mailer to mark the email): no orphan finishes a send
	 * unwatched, with nobody left to mark it. */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(127);
#else
	(void)parent;
#endif
	signal(SIGPIPE, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGINT, SIG_DFL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	if (dup2(in_fd, 0) < 0 || dup2(out_fd, 1) < 0 || dup2(out_fd, 2) < 0)
		_exit(127);
	close_from_3();
	execvp(argv[0], argv);
	dprintf(2, "cannot run %s: %s\n", argv[0], strerror(errno));
	_exit(127);
}

/* A pipe whose ends are not inherited across exec; 0 or -1. */
static int cloexec_pipe(int fd[2])
{
	if (pipe(fd) != 0)
		return -1;
	if (fcntl(fd[0], F_SETFD, FD_CLOEXEC) != 0 ||
	    fcntl(fd[1], F_SETFD, FD_CLOEXEC) != 0) {
		close(fd[0]);
		close(fd[1]);
		return -1;
	}
	return 0;
}

/* ---- watching it ------------------------------------------------------- */

/* What one run of sendmail did. */
typedef struct run {
	pid_t pid;
	int in_fd, out_fd;         /* -1 once closed */
	int pid_fd;                /* readable once it exited, or -1 */
	const char *msg;
	size_t len, written;
	int write_failed;          /* it closed its input early */
	char out[OUT_KEEP + 1];    /* the start of what it printed */
	size_t out_len;
	int exited, status, timed_out;
} run;

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

/* Writes what the pipe takes now. */
static void feed(run *r)
{
	ssize_t w = write(r->in_fd, r->msg + r->written, r->len - r->written);

	if (w > 0)
		r->written += (size_t)w;
	else if (w < 0 && errno != EINTR && errno != EAGAIN)
		r->write_failed = 1;
	if (r->write_failed || r->written == r->len)
		close_fd(&r->in_fd);   /* end of message for sendmail */
}

/* Reads what it printed, keeping the first OUT_KEEP bytes. */
static void drain(run *r)
{
	char chunk[4096];
	ssize_t n = read(r->out_fd, chunk, sizeof chunk);

	if (n == 0 || (n < 0 && errno != EINTR && errno != EAGAIN)) {
		close_fd(&r->out_fd);
		return;
	}
	if (n > 0 && r->out_len < OUT_KEEP) {
		size_t k = (size_t)n < OUT_KEEP - r->out_len
		           ? (size_t)n : OUT_KEEP - r->out_len;
		memcpy(r->out + r->out_len, chunk, k);
		r->out_len += k;
		r->out[r->out_len] = '\0';
	}
}

/* A descriptor that poll() sees readable when pid has exited (a pidfd,
 * Linux 5.3 and later), so the exit is noticed at once; or -1, and it
 * is found by short naps. */
static int exit_fd(pid_t pid)
{
#if defined(__linux__) && defined(SYS_pidfd_open)
	int fd = (int)syscall(SYS_pidfd_open, pid, 0);
	if (fd >= 0)
		fcntl(fd, F_SETFD, FD_CLOEXEC);
	return fd;
#else
	(void)pid;
	return -1;
#endif
}

static void reap(run *r, int options)
{
	int st;

	if (r->exited)
		return;
	pid_t p = waitpid(r->pid, &st, options);
	if (p == r->pid) {
		r->exited = 1;
		r->status = st;
	}
}

/* Feeds the message and reads the output until the child has exited
 * and closed its output, or the deadline passes (then kills its whole
 * process group).  Interrupted calls are simply repeated. */
static void watch(run *r, int timeout)
{
	int64_t deadline = mono_ms() + (int64_t)timeout * 1000;
	long step = 50 * 1000;

	for (;;) {
		reap(r, WNOHANG);
		/* A child that left a grandchild holding the pipe is done
		 * once it has exited and nothing more is waiting. */
		if (r->exited && r->out_fd < 0)
			break;
		int64_t left = deadline - mono_ms();
		if (left <= 0) {
			kill(-r->pid, SIGKILL);
			kill(r->pid, SIGKILL);
			r->timed_out = 1;
			reap(r, 0);
			break;
		}
		struct pollfd p[3];
		nfds_t n = 0;
		if (r->in_fd >= 0)
			p[n++] = (struct pollfd){ r->in_fd, POLLOUT, 0 };
		if (r->out_fd >= 0)
			p[n++] = (struct pollfd){ r->out_fd, POLLIN, 0 };
		if (r->pid_fd >= 0 && !r->exited)
			p[n++] = (struct pollfd){ r->pid_fd, POLLIN, 0 };
		if (n == 0) {
			/* Both pipes closed, the child not yet reaped, and
			 * no pidfd: short naps, growing. */
			nap(step);
			step = step * 2 < WAIT_STEP_MAX_NS ? step * 2
			                                   : WAIT_STEP_MAX_NS;
			continue;
		}
		int wait_ms = r->exited ? 0 : (int)(left < 100 ? left : 100);
		int k = poll(p, n, wait_ms);
		if (k == 0 && r->exited) {
			close_fd(&r->out_fd);
			close_fd(&r->in_fd);
			continue;
		}
		for (nfds_t i = 0; k > 0 && i < n; i++) {
			if (p[i].revents == 0)
				continue;
			if (p[i].fd == r->in_fd)
				feed(r);
			else if (p[i].fd == r->out_fd)
				drain(r);
			/* the pidfd: reaped at the top of the loop */
		}
	}
	close_fd(&r->in_fd);
	close_fd(&r->out_fd);
	close_fd(&r->pid_fd);
}

/* The first non-empty line of what it printed, control characters
 * made spaces, into line (cap bytes). */
static void first_line(const char *out, char *line, size_t cap)
{
	size_t o = 0;

	while (*out == '\n' || *out == '\r' || *out == ' ')
		out++;
	for (; *out != '\0' && *out != '\n' && *out != '\r' && o + 1 < cap;
	     out++)
		line[o++] = (unsigned char)*out < 0x20 || *out == 0x7f
		            ? ' ' : *out;
	line[o] = '\0';
}

/* The verdict on a run, in why. */
static send_rc judge(const run *r, const char *prog, int timeout,
                     char *why, size_t cap)
{
	char said[200], colon[210];
	const char *base = strrchr(prog, '/');

	base = base != NULL ? base + 1 : prog;
	first_line(r->out, said, sizeof said);
	snprintf(colon, sizeof colon, "%s%s", said[0] ? ": " : "", said);
	if (r->timed_out) {
		snprintf(why, cap, "%s took more than %d s: killed%s", base,
		         timeout, colon);
		return SEND_TIMEOUT;
	}
	if (WIFSIGNALED(r->status)) {
		snprintf(why, cap, "%s was killed by signal %d%s", base,
		         WTERMSIG(r->status), colon);
		return SEND_FAILED;
	}
	int code = WIFEXITED(r->status) ? WEXITSTATUS(r->status) : -1;
	if (code != 0) {
		snprintf(why, cap, "%s exited with status %d%s", base, code,
		         colon);
		return SEND_FAILED;
	}
	if (r->write_failed || r->written < r->len) {
		snprintf(why, cap, "%s exited 0 without reading the whole "
		         "message%s", base, colon);
		return SEND_FAILED;
	}
	if (cap > 0)
		why[0] = '\0';
	return SEND_OK;
}

static send_rc by_sendmail(const send_cfg *c, const char *msg, size_t len,
                           char *why, size_t cap)
{
	char words[SEND_CMD_MAX + 1], *argv[SEND_ARGS_MAX + 1];
	int in[2], out[2];
	static run r;          /* its output buffer: not on the stack */

	if (send_split(c->sendmail, words, sizeof words, argv,
	               SEND_ARGS_MAX + 1) < 0) {
		snprintf(why, cap, "the sendmail setting is empty or too long");
		return SEND_ERROR;
	}
	if (cloexec_pipe(in) != 0)
		goto fail;
	if (cloexec_pipe(out) != 0) {
		close(in[0]);
		close(in[1]);
		goto fail;
	}
	pid_t parent = getpid(), pid = fork();
	if (pid == 0)
		child(argv, in[0], out[1], parent);
	close(in[0]);
	close(out[1]);
	if (pid < 0) {
		close(in[1]);
		close(out[0]);
		goto fail;
	}
	setpgid(pid, pid);   /* as the child does: whoever comes first */
	memset(&r, 0, sizeof r);
	r = (run){ .pid = pid, .in_fd = in[1], .out_fd = out[0],
	           .pid_fd = exit_fd(pid), .msg = msg, .len = len };
	fcntl(r.in_fd, F_SETFL, O_NONBLOCK);
	fcntl(r.out_fd, F_SETFL, O_NONBLOCK);
	watch(&r, c->timeout);
	return judge(&r, argv[0], c->timeout, why, cap);
fail:
	snprintf(why, cap, "cannot start %s: %s", argv[0], strerror(errno));
	return SEND_ERROR;
}

/* ---- a folder ---------------------------------------------------------- */

/* Writes all n bytes; 0 or -1. */
static int write_all(int fd, const char *p, size_t n)
{
	while (n > 0) {
		ssize_t w = write(fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

/* The rename itself is made durable too, so a file once seen stays. */
static int sync_dir(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd < 0)
		return -1;
	int rc = fsync(fd);
	close(fd);
	return rc;
}

static send_rc to_folder(const char *dir, int64_t id, int64_t queued,
                         const char *msg, size_t len, char *why, size_t cap)
{
	char tmp[PATH_BYTES], final[PATH_BYTES];
	/* Not *.eml while half-written: a reader of the folder's *.eml
	 * files sees only whole ones; the same folder keeps the rename on
	 * one file system, so atomic. */
	int n1 = snprintf(tmp, sizeof tmp, "%s/.tmp-%ld-%lld.part", dir,
	                  (long)getpid(), (long long)id);
	int n2 = snprintf(final, sizeof final, "%s/%010lld-%010lld.eml", dir,
	                  (long long)queued, (long long)id);

	if (n1 < 0 || n2 < 0 || (size_t)n1 >= sizeof tmp ||
	    (size_t)n2 >= sizeof final) {
		snprintf(why, cap, "mail_dir is too long");
		return SEND_ERROR;
	}
	int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC |
	              O_NOFOLLOW, 0600);
	if (fd < 0) {
		snprintf(why, cap, "%.150s: %s", tmp, strerror(errno));
		return SEND_ERROR;
	}
	if (write_all(fd, msg, len) != 0 || fsync(fd) != 0) {
		snprintf(why, cap, "writing %.150s: %s", tmp, strerror(errno));
		close(fd);
		unlink(tmp);
		return SEND_ERROR;
	}
	if (close(fd) != 0 || rename(tmp, final) != 0) {
		snprintf(why, cap, "%.150s: %s", final, strerror(errno));
		unlink(tmp);
		return SEND_ERROR;
	}
	if (sync_dir(dir) != 0) {
		snprintf(why, cap, "syncing %.150s: %s", dir, strerror(errno));
		return SEND_ERROR;
	}
	if (cap > 0)
		why[0] = '\0';
	return SEND_OK;
}

send_rc send_message(const send_cfg *c, int64_t id, int64_t queued,
                     const char *msg, size_t len, char *why, size_t cap)
{
	if (c->mail_dir != NULL && c->mail_dir[0] != '\0')
		return to_folder(c->mail_dir, id, queued, msg, len, why, cap);
	return by_sendmail(c, msg, len, why, cap);
}
