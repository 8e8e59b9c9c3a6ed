/*
 * store_wait.c - a background program's wait between its looks
 * (store.h: store_wait_second): the worker's and buffertime-notify's.
 */
#define _DEFAULT_SOURCE   /* pselect's sigset_t under C11 */
#include <sys/select.h>
#include <time.h>

#include "store.h"

void store_wait_second(store *s, const sigset_t *stops, int (*stopping)(void))
{
	int fd = store_wake_fd(s);
	sigset_t old;
	fd_set in;

	if (fd >= 0 && store_woken(s))
		return;
	FD_ZERO(&in);
	if (fd >= FD_SETSIZE)
		fd = -1;
	if (fd >= 0)
		FD_SET(fd, &in);
	sigprocmask(SIG_BLOCK, stops, &old);
	if (!stopping()) {
		struct timespec ts = { 1, 0 };
		if (pselect(fd + 1, fd >= 0 ? &in : NULL, NULL, NULL, &ts,
		            &old) > 0 && fd >= 0)
			store_woken(s);
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
}
