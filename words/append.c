/*
 * append.c - text added to a bounded buffer (append.h).
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "append.h"

void words_append(char *buf, size_t cap, const char *fmt, ...)
{
	size_t n = strnlen(buf, cap);
	va_list ap;

	if (n + 1 >= cap)
		return;
	va_start(ap, fmt);
	vsnprintf(buf + n, cap - n, fmt, ap);
	va_end(ap);
}
