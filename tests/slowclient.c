/*
 * slowclient.c - many slow HTTP connections from one source address, as
 * slowhttptest makes them, for tests/slowconn.sh (not a test itself).
 *
 *   slowclient SOURCE HOST PORT HEADERS BODIES SECONDS
 *
 * Opens HEADERS connections that send a request's header a line a second
 * and never end it ("slowloris"), and BODIES that send a whole POST
 * header (Content-Length: 30000) and then its body a byte a second, all
 * from the IPv4 address SOURCE (any 127.x.y.z works on loopback) to
 * HOST:PORT, 500 new ones a second at most.  A connection the server
 * closes or answers after holding it is opened again a second later (5 s
 * if it was closed at once), so the count stays up as an attacker keeps
 * it.  After
 * SECONDS, or at SIGTERM, it prints one line:
 *   opened N connected C held H closed X answered A refused R failed F
 * (held: open at the end; closed: ended by the server with no answer;
 * answered: got a status line, refused: of those, 429 or 503; failed:
 * connect errors).  Nothing is read from the answers beyond that line.
 *
 * Exit 0, 1 if a socket could not be made, 2 on a usage error.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

enum {
	CONNS_MAX = 20000,
	BODY_BYTES = 30000,     /* under the sites' client_max_body_size */
	TRICKLE_MS = 1000,      /* a header line or a body byte this often */
	REOPEN_MS = 1000,       /* a connection the server held and closed
				   opens again after this; */
	REFUSED_MS = 5000,      /* one it closed at once (no room), after */
	HELD_MS = 2000,         /* this long open is "held" */
	/* New connections come as a steady stream, as slowhttptest sends
	 * them (its -r): a burst would let nginx close the newest, still
	 * silent ones to make room, while a stream fills every place. */
	OPENS_PER_SECOND = 500,
	OPENS_MAX_AT_ONCE = 50,
	TICK_MS = 10
};

enum kind { SLOW_HEADER, SLOW_BODY };
enum state { WAITING, CONNECTING, OPEN };

struct conn {
	int fd;
	enum kind kind;
	enum state state;
	long long at_ms;        /* WAITING: open then; OPEN: send then */
	long long since_ms;     /* OPEN: connected then */
};

struct tally {
	long opened, connected, closed, answered, refused, failed;
};

static volatile sig_atomic_t stop_now;

static void on_term(int sig)
{
	(void)sig;
	stop_now = 1;
}

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* parse_count: TEXT as a number in [0, max], or -1. */
static long parse_count(const char *text, long max)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(text, &end, 10);
	if (errno != 0 || end == text || *end != '\0' || v < 0 || v > max)
		return -1;
	return v;
}

/* Each connection is a descriptor: the soft limit is raised as far as
 * the hard one allows. */
static int raise_fd_limit(long want)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) != 0)
		return -1;
	if (rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur < (rlim_t)want) {
		rl.rlim_cur = rl.rlim_max == RLIM_INFINITY || rl.rlim_max > (rlim_t)want ?
			(rlim_t)want : rl.rlim_max;
		if (setrlimit(RLIMIT_NOFILE, &rl) != 0)
			return -1;
	}
	return rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur >= (rlim_t)want ? 0 : -1;
}

/* A failed send shows at the next poll, as the server's close. */
static void send_some(struct conn *c, const char *text, size_t len)
{
	(void)send(c->fd, text, len, MSG_NOSIGNAL | MSG_DONTWAIT);
}

static void close_conn(struct conn *c, long long now)
{
	bool held = c->state == OPEN && now - c->since_ms >= HELD_MS;

	close(c->fd);
	c->fd = -1;
	c->state = WAITING;
	c->at_ms = now + (held ? REOPEN_MS : REFUSED_MS);
}

static void open_conn(struct conn *c, const struct sockaddr_in *src,
		      const struct sockaddr_in *dst, struct tally *t, long long now)
{
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);

	if (fd < 0) {
		t->failed++;
		c->at_ms = now + REFUSED_MS;
		return;
	}
	t->opened++;
	if (bind(fd, (const struct sockaddr *)src, sizeof *src) != 0 ||
	    (connect(fd, (const struct sockaddr *)dst, sizeof *dst) != 0 &&
	     errno != EINPROGRESS)) {
		close(fd);
		t->failed++;
		c->at_ms = now + REFUSED_MS;
		return;
	}
	c->fd = fd;
	c->state = CONNECTING;
}

/* The request's start: a header never ended, or a whole POST header. */
static void start_request(struct conn *c, const char *host)
{
	char head[256];
	int n;

	if (c->kind == SLOW_HEADER)
		n = snprintf(head, sizeof head,
			     "GET / HTTP/1.1\r\nHost: %s\r\nUser-Agent: slowclient\r\n", host);
	else
		n = snprintf(head, sizeof head,
			     "POST / HTTP/1.1\r\nHost: %s\r\nUser-Agent: slowclient\r\n"
			     "Content-Type: application/x-www-form-urlencoded\r\n"
			     "Content-Length: %d\r\n\r\n", host, BODY_BYTES);
	if (n > 0 && (size_t)n < sizeof head)
		send_some(c, head, (size_t)n);
}

static void on_connected(struct conn *c, const char *host, struct tally *t,
			 long long now)
{
	int err = 0;
	socklen_t len = sizeof err;

	if (getsockopt(c->fd, SOL_SOCKET, SO_ERROR, &err, &len) != 0 || err != 0) {
		t->failed++;
		close_conn(c, now);
		return;
	}
	t->connected++;
	c->state = OPEN;
	c->since_ms = now;
	c->at_ms = now + TRICKLE_MS;
	start_request(c, host);
}

/* The server spoke or hung up: either way this connection is over. */
static void on_readable(struct conn *c, struct tally *t, long long now)
{
	char buf[64];
	ssize_t n = recv(c->fd, buf, sizeof buf - 1, MSG_DONTWAIT);

	if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
		return;
	if (n > 0) {
		buf[n] = '\0';
		t->answered++;
		if (strncmp(buf, "HTTP/1.1 429", 12) == 0 ||
		    strncmp(buf, "HTTP/1.1 503", 12) == 0)
			t->refused++;
	} else {
		t->closed++;
	}
	close_conn(c, now);
}

static void trickle(struct conn *c, long long now)
{
	static const char line[] = "X-Slow: a\r\n";

	if (c->kind == SLOW_HEADER)
		send_some(c, line, sizeof line - 1);
	else
		send_some(c, "a", 1);
	c->at_ms = now + TRICKLE_MS;
}

static int parse_addr(const char *text, int port, struct sockaddr_in *sa)
{
	memset(sa, 0, sizeof *sa);
	sa->sin_family = AF_INET;
	sa->sin_port = htons((unsigned short)port);
	return inet_pton(AF_INET, text, &sa->sin_addr) == 1 ? 0 : -1;
}

static void run(struct conn *conns, struct pollfd *fds, long n,
		const struct sockaddr_in *src, const struct sockaddr_in *dst,
		const char *host, long seconds, struct tally *t)
{
	long long start = now_ms(), end = start + seconds * 1000;
	long long started = 0;  /* opens so far, against the rate */

	while (!stop_now && now_ms() < end) {
		long long now = now_ms();
		long long due = (now - start) * OPENS_PER_SECOND / 1000 - started;
		long i, opens = 0;

		/* A busy machine's late tick opens what it owes, a few at once;
		 * an idle attacker does not save up a burst. */
		if (due > OPENS_MAX_AT_ONCE) {
			started += due - OPENS_MAX_AT_ONCE;
			due = OPENS_MAX_AT_ONCE;
		}

		for (i = 0; i < n; i++) {
			struct conn *c = &conns[i];

			if (c->state == WAITING && now >= c->at_ms) {
				if (opens < due) {
					open_conn(c, src, dst, t, now);
					opens++;
				}
			}
			else if (c->state == OPEN && now >= c->at_ms)
				trickle(c, now);
			fds[i].fd = c->state == WAITING ? -1 : c->fd;
			fds[i].events = c->state == CONNECTING ? POLLOUT : POLLIN;
			fds[i].revents = 0;
		}
		started += opens;
		if (poll(fds, (nfds_t)n, TICK_MS) < 0 && errno != EINTR)
			return;
		now = now_ms();
		for (i = 0; i < n; i++) {
			if (fds[i].fd < 0 || fds[i].revents == 0)
				continue;
			if (conns[i].state == CONNECTING)
				on_connected(&conns[i], host, t, now);
			else
				on_readable(&conns[i], t, now);
		}
	}
}

int main(int argc, char **argv)
{
	struct sockaddr_in src, dst;
	struct sigaction sa;
	struct tally t = { 0 };
	struct conn *conns;
	struct pollfd *fds;
	long port, headers, bodies, seconds, n, i, held = 0;

	if (argc != 7 ||
	    (port = parse_count(argv[3], 65535)) < 1 ||
	    (headers = parse_count(argv[4], CONNS_MAX)) < 0 ||
	    (bodies = parse_count(argv[5], CONNS_MAX)) < 0 ||
	    headers + bodies > CONNS_MAX || headers + bodies == 0 ||
	    (seconds = parse_count(argv[6], 3600)) < 1 ||
	    parse_addr(argv[1], 0, &src) != 0 || parse_addr(argv[2], (int)port, &dst) != 0) {
		fprintf(stderr, "usage: slowclient SOURCE HOST PORT HEADERS BODIES SECONDS\n"
			"  (IPv4 addresses; at most %d connections in all)\n", CONNS_MAX);
		return 2;
	}
	n = headers + bodies;
	if (raise_fd_limit(n + 16) != 0) {
		fprintf(stderr, "slowclient: cannot have %ld descriptors open (ulimit -Hn)\n", n + 16);
		return 1;
	}
	conns = calloc((size_t)n, sizeof *conns);
	fds = calloc((size_t)n, sizeof *fds);
	if (conns == NULL || fds == NULL) {
		fprintf(stderr, "slowclient: out of memory\n");
		return 1;
	}
	for (i = 0; i < n; i++) {
		conns[i].fd = -1;
		conns[i].kind = i < headers ? SLOW_HEADER : SLOW_BODY;
		conns[i].state = WAITING;
		conns[i].at_ms = 0;
	}
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_term;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	run(conns, fds, n, &src, &dst, argv[2], seconds, &t);
	for (i = 0; i < n; i++) {
		if (conns[i].state == OPEN)
			held++;
		if (conns[i].fd >= 0)
			close(conns[i].fd);
	}
	printf("opened %ld connected %ld held %ld closed %ld answered %ld refused %ld failed %ld\n",
	       t.opened, t.connected, held, t.closed, t.answered, t.refused, t.failed);
	free(conns);
	free(fds);
	return 0;
}
