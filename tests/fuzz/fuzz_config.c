/*
 * fuzz_config.c - libFuzzer harness for the config file reader
 * (conf/conf.h).
 *
 * conf_load() reads a path, so each input is written to one scratch file
 * (in /dev/shm when there is one: a disk file costs 40 times the execs;
 * else $TMPDIR; removed at exit) and loaded over the defaults, then
 * checked whole with conf_finish().  What is accepted must keep the
 * promises of config.h: base_url ends with '/', the prefix is a path,
 * workers and the mail times are in range.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "conf.h"

static char path[4096];
static conf c;

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void remove_scratch(void)
{
	unlink(path);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *tmp = getenv("TMPDIR");
	int fd;

	(void)argc;
	(void)argv;
	if (access("/dev/shm", W_OK) == 0)
		tmp = "/dev/shm";
	snprintf(path, sizeof path, "%s/fuzz_config.XXXXXX",
	         tmp && *tmp ? tmp : "/tmp");
	fd = mkstemp(path);
	if (fd < 0)
		abort();
	close(fd);
	atexit(remove_scratch);
	return 0;
}

static void check_finished(void)
{
	size_t n = strlen(c.base_url);

	if (n == 0 || c.base_url[n - 1] != '/')
		abort();
	n = strlen(c.prefix);
	if (n == 0 || c.prefix[0] != '/' || c.prefix[n - 1] != '/')
		abort();
	if (c.workers < 1 || c.workers > CONF_WORKERS_MAX)
		abort();
	if (c.mail_timeout < 1 || c.mail_timeout > CONF_MAIL_TIMEOUT_MAX ||
	    c.mail_poll < 1 || c.mail_poll > CONF_MAIL_POLL_MAX)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char why[CONF_WHY_MAX];
	FILE *f;

	if (size > 64 * 1024)
		return 0;
	f = fopen(path, "w");
	if (!f)
		abort();
	if (fwrite(data, 1, size, f) != size || fclose(f) != 0)
		abort();
	conf_defaults(&c);
	if (conf_load(&c, path, why, sizeof why) == 0 &&
	    conf_finish(&c, why, sizeof why) == 0)
		check_finished();
	return 0;
}
