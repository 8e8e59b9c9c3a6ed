/*
 * fake_sendmail.c - the fastest stand-in for "sendmail -t -i" that still
 * takes the message: reads all of standard input and, if FAKE_MAIL_DIR
 * is set, delivers it there as a file (a temporary name, then renamed to
 * NANOSECONDS-PID.eml, so the names sort in the order of delivery and a
 * reader never sees half a message).  FAKE_SENDMAIL_DELAY_MS (0 to 999)
 * makes it take that long after reading, as a real one does to queue a
 * message.  Its arguments are ignored.  Exit 0, or 74 (EX_IOERR) with a
 * line on standard error.
 *
 * For bench/mailer.sh and tests/mailkill.sh; tests/fake-sendmail is the
 * shell one that can be told to fail or hang.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

enum { MAX_BYTES = 1 << 20, PATH_BYTES = 4096 };

static char msg[MAX_BYTES];

static int fail(const char *what)
{
	fprintf(stderr, "fake_sendmail: %s: %s\n", what, strerror(errno));
	return 74;
}

int main(int argc, char **argv)
{
	const char *dir = getenv("FAKE_MAIL_DIR");
	const char *delay = getenv("FAKE_SENDMAIL_DELAY_MS");
	char tmp[PATH_BYTES], final[PATH_BYTES];
	struct timespec ts;
	size_t len = 0;
	ssize_t n;

	(void)argc;
	(void)argv;
	while (len < sizeof msg &&
	       (n = read(0, msg + len, sizeof msg - len)) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return fail("reading the message");
		len += (size_t)n;
	}
	if (delay != NULL) {
		long ms = strtol(delay, NULL, 10) % 1000;
		struct timespec d = { 0, ms * 1000000L };
		nanosleep(&d, NULL);
	}
	if (dir == NULL || dir[0] == '\0')
		return 0;
	clock_gettime(CLOCK_REALTIME, &ts);
	snprintf(tmp, sizeof tmp, "%s/.tmp.%ld", dir, (long)getpid());
	snprintf(final, sizeof final, "%s/%lld%09ld-%ld.eml", dir,
	         (long long)ts.tv_sec, ts.tv_nsec, (long)getpid());
	int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd < 0)
		return fail(tmp);
	for (size_t off = 0; off < len;) {
		ssize_t w = write(fd, msg + off, len - off);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return fail(tmp);
		off += (size_t)w;
	}
	if (close(fd) != 0 || rename(tmp, final) != 0)
		return fail(final);
	/* Delivered: leave at once.  A mailer killed between this rename
	 * and its "sent" mark sends the email again, so the exit must not
	 * linger (as a sanitizer's leak check at exit would). */
	_exit(0);
}
