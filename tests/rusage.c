/*
 * rusage.c - what one run of a program cost: its peak resident memory
 * and its CPU time, as the kernel counted them for that child alone
 * (wait4), with standard input from a file.
 *
 *   rusage IN PROGRAM [ARG...]
 *
 * Prints "MAXRSS_KIB CPU_MS" on standard output; the program's standard
 * output goes to /dev/null, its standard error is ours.  Exits with the
 * program's status, 128+N if signal N ended it, 125 if it could not run.
 */
#define _DEFAULT_SOURCE   /* wait4 */
#include <fcntl.h>
#include <stdio.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

static long long ms(struct timeval t)
{
	return (long long)t.tv_sec * 1000 + t.tv_usec / 1000;
}

int main(int argc, char **argv)
{
	struct rusage ru;
	int status, in, out;
	pid_t pid;

	if (argc < 3) {
		fprintf(stderr, "usage: rusage IN PROGRAM [ARG...]\n");
		return 125;
	}
	if ((in = open(argv[1], O_RDONLY)) < 0 ||
	    (out = open("/dev/null", O_WRONLY)) < 0) {
		perror("rusage");
		return 125;
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		perror("rusage: fork");
		return 125;
	}
	if (pid == 0) {
		if (dup2(in, 0) < 0 || dup2(out, 1) < 0)
			_exit(125);
		execv(argv[2], argv + 2);
		perror(argv[2]);
		_exit(125);
	}
	if (wait4(pid, &status, 0, &ru) != pid) {
		perror("rusage: wait4");
		return 125;
	}
	printf("%ld %lld\n", ru.ru_maxrss, ms(ru.ru_utime) + ms(ru.ru_stime));
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 125;
}
