/*
 * spawn_time.c - how long one run of a program takes, process start
 * and exit included, with standard input from a file: the time from
 * before posix_spawn to after waitpid, in ns, on standard output (a
 * shell's own fork and a `date` on each side would be timed too).
 *
 *   spawn_time IN PROGRAM [ARG...]
 *
 * Its standard output goes to /dev/null, its standard error is ours.
 * Exits with the program's status (125 if it could not be run).
 */
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <sys/wait.h>
#include <time.h>

extern char **environ;

static long long now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (long long)t.tv_sec * 1000000000LL + t.tv_nsec;
}

int main(int argc, char **argv)
{
	posix_spawn_file_actions_t io;
	long long t0, t1;
	pid_t pid;
	int status;

	if (argc < 3) {
		fprintf(stderr, "usage: spawn_time IN PROGRAM [ARG...]\n");
		return 125;
	}
	if (posix_spawn_file_actions_init(&io) ||
	    posix_spawn_file_actions_addopen(&io, 0, argv[1], O_RDONLY, 0) ||
	    posix_spawn_file_actions_addopen(&io, 1, "/dev/null", O_WRONLY, 0)) {
		perror("spawn_time");
		return 125;
	}
	t0 = now_ns();
	if ((errno = posix_spawn(&pid, argv[2], &io, NULL, argv + 2,
	                         environ)) != 0) {
		perror(argv[2]);
		return 125;
	}
	if (waitpid(pid, &status, 0) != pid) {
		perror("spawn_time: waitpid");
		return 125;
	}
	t1 = now_ns();
	posix_spawn_file_actions_destroy(&io);
	printf("%lld\n", t1 - t0);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 125;
}
