/*
 * accept_wait.h - a FastCGI worker on a database server waits for its
 * next request while reading the server's news of changed games as it
 * comes (accept_wait.c).
 */
#ifndef BT_ACCEPT_WAIT_H
#define BT_ACCEPT_WAIT_H

#include "store.h"

typedef struct accept_wait {
	int ep;             /* epoll: the listening socket, the news */
	int listen_fd;
	int news_fd;        /* the store's, as last followed; -1 none */
} accept_wait;

/* Readies the wait on the workers' listening socket, which then accepts
 * without blocking (for every worker: they share it): 0, or -1 with
 * errno (nothing changed). */
int accept_wait_open(accept_wait *aw, int listen_fd);

/* Waits until a request may be waiting on the listening socket, reading
 * st's news meanwhile: 0, or -1 with errno.  Another worker may take the
 * request first: FCGX_Accept_r then returns -EAGAIN, and the worker
 * waits again. */
int accept_wait_next(accept_wait *aw, store *st);

void accept_wait_close(accept_wait *aw);

#endif
