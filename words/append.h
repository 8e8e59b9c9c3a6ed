/*
 * append.h - printf-style text added to the end of a bounded buffer,
 * for the files of words/ that build a sentence in parts.
 */
#ifndef BT_APPEND_H
#define BT_APPEND_H

#include <stddef.h>

/* Appends to the NUL-terminated buf (cap bytes with its NUL), never past
 * cap: what does not fit is cut (the caller makes the end valid UTF-8
 * again if a name may be cut). */
void words_append(char *buf, size_t cap, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
