/*
 * utf8.c - what a valid UTF-8 sequence is, for the pages' input checks
 * (input.c) and their output escaping (out.c).
 */
#include <string.h>

#include "utf8.h"

size_t utf8_seq(const unsigned char *s, size_t n)
{
	size_t need, i;
	unsigned c = s[0], lo = 0x80, hi = 0xBF;

	if (c < 0x80)
		return 1;
	if (c >= 0xC2 && c <= 0xDF)
		need = 1;
	else if (c >= 0xE0 && c <= 0xEF) {
		need = 2;
		lo = c == 0xE0 ? 0xA0 : 0x80;    /* overlong */
		hi = c == 0xED ? 0x9F : 0xBF;    /* surrogates */
	} else if (c >= 0xF0 && c <= 0xF4) {
		need = 3;
		lo = c == 0xF0 ? 0x90 : 0x80;    /* overlong */
		hi = c == 0xF4 ? 0x8F : 0xBF;    /* past U+10FFFF */
	} else
		return 0;
	if (n <= need)
		return 0;
	for (i = 1; i <= need; i++) {
		if (s[i] < lo || s[i] > hi)
			return 0;
		lo = 0x80;
		hi = 0xBF;
	}
	return need + 1;
}

void utf8_cut_valid(char *s)
{
	size_t n = strlen(s), i = 0, len;

	while (i < n && (len = utf8_seq((const unsigned char *)s + i,
	                                n - i)) > 0)
		i += len;
	s[i] = '\0';
}
