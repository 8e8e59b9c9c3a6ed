/*
 * since.c - spans of time in words.
 */
#include <stdio.h>
#include <time.h>

#include "since.h"

/* The units, largest first: a span is told in the largest that fits. */
static const struct {
	int64_t secs;
	const char *one, *many;
} units[] = {
	{ 86400, "day", "days" },
	{ 3600, "hour", "hours" },
	{ 60, "minute", "minutes" },
};

const char *since_words(int64_t secs, char *buf, size_t cap)
{
	if (cap == 0)
		return buf;
	for (size_t i = 0; i < sizeof units / sizeof units[0]; i++) {
		int64_t n = secs / units[i].secs;
		if (n >= 1) {
			snprintf(buf, cap, "%lld %s", (long long)n,
			         n == 1 ? units[i].one : units[i].many);
			return buf;
		}
	}
	snprintf(buf, cap, "less than a minute");
	return buf;
}

const char *since_iso(int64_t t, char *buf, size_t cap)
{
	time_t tt = (time_t)t;
	struct tm tm;

	if (cap == 0)
		return buf;
	buf[0] = '\0';
	if (gmtime_r(&tt, &tm) != NULL)
		strftime(buf, cap, "%Y-%m-%dT%H:%M:%SZ", &tm);
	return buf;
}
