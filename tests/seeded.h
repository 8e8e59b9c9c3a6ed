/*
 * seeded.h - what the web tests' fuzz loops share: a generator seeded by
 * the test (so a failure is repeatable) and a second, simple UTF-8
 * validator to check the escapers' output against.
 */
#ifndef BT_TEST_SEEDED_H
#define BT_TEST_SEEDED_H

#include <stddef.h>
#include <stdint.h>

/* Starts the generator over from seed (nonzero). */
void seeded_start(uint64_t seed);

/* The next number below n (n > 0). */
uint32_t seeded_below(uint32_t n);

/* Nonzero if s[0..n) is valid UTF-8: decodes and checks the code point
 * ranges (no overlong forms, no surrogates, nothing past U+10FFFF). */
int seeded_valid_utf8(const unsigned char *s, size_t n);

#endif
