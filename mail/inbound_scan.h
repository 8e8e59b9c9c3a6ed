/*
 * inbound_scan.h - the bounds of what a received email may make the
 * parser do, checked in one pass over its bytes before GMime sees them.
 *
 * GMime builds an object for every MIME part, header field and address
 * it reads (each some hundreds of bytes), so 1 MiB of empty parts or
 * one-letter fields would cost some 300 MB and seconds of CPU before any
 * token is checked.  The counts are over-estimates of what GMime will
 * build, whatever the structure the mail claims:
 *   parts     every line starting with "--" (each part's delimiter is
 *             one, whether or not the boundary was declared);
 *   nesting   Content-Type fields naming "multipart" or "message" (no
 *             level of nesting without one);
 *   fields    every line that starts like a header field (a name GMime
 *             would take: no space or control character before the
 *             colon), in the headers or in a body alike, and their bytes
 *             with their continuation lines;
 *   params    the ";" of Content-Type and Content-Disposition fields;
 *   addresses the bytes of the address fields (From, To, Cc, ...).
 * So a message within the bounds costs at most a few MB to parse.
 */
#ifndef BT_INBOUND_SCAN_H
#define BT_INBOUND_SCAN_H

#include <stddef.h>

enum {
	INBOUND_DASHES_MAX = 256,            /* lines starting with "--" */
	INBOUND_NEST_MAX = 32,               /* multipart or message types */
	INBOUND_PARAMS_MAX = 1024,           /* MIME parameters */
	INBOUND_FIELDS_MAX = 2000,           /* header-like lines */
	INBOUND_FIELD_BYTES_MAX = 128 * 1024, /* their bytes, folded lines in */
	INBOUND_ADDR_BYTES_MAX = 8 * 1024    /* bytes of address fields */
};

typedef struct {
	size_t dashes;      /* lines starting with "--" */
	size_t types;       /* Content-Type fields */
	size_t nests;       /* of those, naming multipart or message */
	size_t params;      /* ';' in them and in Content-Disposition */
	size_t fields;      /* lines that start a header field */
	size_t field_bytes; /* their bytes and their continuation lines' */
	size_t addr_bytes;  /* the same for the address fields */
} inbound_counts;

/* Counts the len bytes at raw (need not be NUL-terminated; any bytes)
 * into *c, up to the line where a count passes its bound (the rest is
 * not read: a bomb costs less than a good email).  Returns 0 if every
 * count is within its bound (and the Content-Type fields within
 * INBOUND_TYPES_MAX), else -1 with the bound passed in why. */
int inbound_scan(const char *raw, size_t len, inbound_counts *c, char *why,
                 size_t why_len);

#endif
