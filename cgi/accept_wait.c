/*
 * accept_wait.c - a worker waiting for its next request on a database
 * server.  Each worker's connection listens for the server's news of
 * changed games (db/driver_pg_kept.c), and the server keeps what one
 * listener has not read for every listener: a worker that answers
 * nothing for hours, blocked in accept(2), would let that queue grow
 * until no one's move could commit.  So it waits in epoll for either,
 * reading the news as it comes.  The workers share the listening
 * socket: EPOLLEXCLUSIVE wakes one of them per request, not all, and
 * since another may still take a request first, the socket accepts
 * without blocking.
 */
#include <errno.h>
#include <fcntl.h>
#include <sys/epoll.h>
#include <unistd.h>

#include "accept_wait.h"

int accept_wait_open(accept_wait *aw, int listen_fd)
{
	struct epoll_event ev = { .events = EPOLLIN | EPOLLEXCLUSIVE,
	                          .data.fd = listen_fd };

	aw->listen_fd = listen_fd;
	aw->news_fd = -1;
	aw->ep = epoll_create1(EPOLL_CLOEXEC);
	if (aw->ep < 0)
		return -1;
	int flags = fcntl(listen_fd, F_GETFL);
	if (epoll_ctl(aw->ep, EPOLL_CTL_ADD, listen_fd, &ev) < 0 ||
	    flags < 0 || fcntl(listen_fd, F_SETFL, flags | O_NONBLOCK) < 0) {
		int e = errno;
		accept_wait_close(aw);
		errno = e;
		return -1;
	}
	return 0;
}

/* Follows the store's news descriptor: a new session has a socket of
 * its own, maybe under the old one's number (a closed socket leaves
 * epoll by itself, so the number is added again if it is missing). */
static void follow_news(accept_wait *aw, store *st)
{
	int fd = store_changes_fd(st);
	struct epoll_event ev = { .events = EPOLLIN, .data.fd = fd };

	if (aw->news_fd >= 0 && aw->news_fd != fd)
		epoll_ctl(aw->ep, EPOLL_CTL_DEL, aw->news_fd, NULL);
	aw->news_fd = -1;
	if (fd < 0)
		return;
	if (epoll_ctl(aw->ep, EPOLL_CTL_MOD, fd, &ev) == 0 ||
	    (errno == ENOENT && epoll_ctl(aw->ep, EPOLL_CTL_ADD, fd, &ev) == 0))
		aw->news_fd = fd;
}

int accept_wait_next(accept_wait *aw, store *st)
{
	for (;;) {
		struct epoll_event ev[2];

		follow_news(aw, st);
		int n = epoll_wait(aw->ep, ev, 2, -1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		int request = 0;
		for (int i = 0; i < n; i++) {
			if (ev[i].data.fd == aw->listen_fd)
				request = 1;
			else
				store_changes_read(st);
		}
		if (request)
			return 0;
	}
}

void accept_wait_close(accept_wait *aw)
{
	if (aw->ep >= 0)
		close(aw->ep);
	aw->ep = -1;
}
