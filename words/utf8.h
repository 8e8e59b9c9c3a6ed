/*
 * utf8.h - recognising valid UTF-8.
 */
#ifndef BT_UTF8_H
#define BT_UTF8_H

#include <stddef.h>

/* Length of the valid UTF-8 sequence at s (n >= 1 bytes left), or 0 if
 * the bytes there are not one: overlong, a surrogate, past U+10FFFF, or
 * cut short. */
size_t utf8_seq(const unsigned char *s, size_t n);

/* Cuts s (NUL-terminated) at its first byte that is not valid UTF-8:
 * text cut to a buffer may end inside a character. */
void utf8_cut_valid(char *s);

#endif
