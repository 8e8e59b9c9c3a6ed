/*
 * since.h - how long something has lasted, in words for people: "for 2
 * days" on the table, "3 hours ago" beside a chat message.
 */
#ifndef BT_SINCE_H
#define BT_SINCE_H

#include <stddef.h>
#include <stdint.h>

enum {
	SINCE_MAX = 32,        /* bytes that always hold since_words' text */
	SINCE_ISO_MAX = 24     /* bytes of since_iso's "2024-05-01T10:00:00Z" */
};

/*
 * Writes secs as one unit, rounded down, into buf (cap bytes, NUL-
 * terminated): "less than a minute", "1 minute", "5 minutes", "1 hour",
 * "23 hours", "1 day", "40 days".  A negative span (a clock moved back)
 * counts as 0.  Returns buf.
 */
const char *since_words(int64_t secs, char *buf, size_t cap);

/* Writes the unix time t as UTC in ISO 8601 ("2024-05-01T10:00:00Z"),
 * for a <time datetime> attribute, into buf (cap >= SINCE_ISO_MAX).
 * Returns buf ("" if t cannot be converted). */
const char *since_iso(int64_t t, char *buf, size_t cap);

#endif
