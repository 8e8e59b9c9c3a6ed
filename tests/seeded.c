/*
 * seeded.c - the web tests' generator and UTF-8 check (seeded.h).
 */
#include "seeded.h"

static uint64_t state = 1;

void seeded_start(uint64_t seed)
{
	state = seed ? seed : 1;
}

uint32_t seeded_below(uint32_t n)
{
	state ^= state << 13;
	state ^= state >> 7;
	state ^= state << 17;
	return (uint32_t)(state >> 11) % n;
}

int seeded_valid_utf8(const unsigned char *s, size_t n)
{
	size_t i = 0, k, j;
	uint32_t cp, min;

	while (i < n) {
		if (s[i] < 0x80) {
			i++;
			continue;
		}
		if ((s[i] & 0xE0) == 0xC0) {
			k = 1; cp = s[i] & 0x1Fu; min = 0x80;
		} else if ((s[i] & 0xF0) == 0xE0) {
			k = 2; cp = s[i] & 0x0Fu; min = 0x800;
		} else if ((s[i] & 0xF8) == 0xF0) {
			k = 3; cp = s[i] & 0x07u; min = 0x10000;
		} else
			return 0;
		if (i + k >= n)
			return 0;
		for (j = 1; j <= k; j++) {
			if ((s[i + j] & 0xC0) != 0x80)
				return 0;
			cp = cp << 6 | (s[i + j] & 0x3Fu);
		}
		if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
			return 0;
		i += k + 1;
	}
	return 1;
}
