/*
 * talk_text.c - cleaning a chat message and a player's name (talk.h).
 */
#include <string.h>

#include "record.h"
#include "talk.h"
#include "utf8.h"

/* 1 if the UTF-8 sequence s (k bytes) is a bidirectional control that
 * could reorder the text around the message. */
static int is_bidi(const unsigned char *s, size_t k)
{
	if (k != 3 || s[0] != 0xE2)
		return 0;
	return (s[1] == 0x80 && s[2] >= 0xAA && s[2] <= 0xAE) ||
	       (s[1] == 0x81 && s[2] >= 0xA6 && s[2] <= 0xA9);
}

/* 1 if the byte or sequence at s (k bytes) is a control we refuse. */
static int is_control(const unsigned char *s, size_t k)
{
	if (k == 1)
		return (s[0] < 0x20 && s[0] != '\t' && s[0] != '\r' &&
		        s[0] != '\n') || s[0] == 0x7F;
	return k == 2 && s[0] == 0xC2 && s[1] < 0xA0;   /* C1 */
}

/* Appends n bytes of s to out (len so far); 0, or -1 if past max. */
static int put(char *out, size_t *len, size_t max, const void *s, size_t n)
{
	if (*len + n > max)
		return -1;
	memcpy(out + *len, s, n);
	*len += n;
	return 0;
}

/* Writes the breaks and spaces held back before the next character,
 * unless nothing was written yet (leading ones are trimmed); a run of
 * breaks is at most one blank line.  0, or -1 if past max. */
static int flush(char *out, size_t *len, size_t max, int *breaks,
                 size_t *spaces)
{
	int rc = 0;

	if (*len > 0 && *breaks)
		rc = put(out, len, max, "\n\n", *breaks > 1 ? 2 : 1);
	for (; rc == 0 && *len > 0 && *spaces > 0; (*spaces)--)
		rc = put(out, len, max, " ", 1);
	*breaks = 0;
	*spaces = 0;
	return rc;
}

talk_rc talk_clean(const char *in, char *out, size_t cap, size_t max)
{
	const unsigned char *p = (const unsigned char *)in;
	size_t n = strlen(in), i = 0, len = 0, k, spaces = 0;
	int breaks = 0;

	if (cap == 0)
		return TALK_TOO_LONG;
	out[0] = '\0';
	if (max >= cap)
		return TALK_TOO_LONG;
	while (i < n) {
		if ((k = utf8_seq(p + i, n - i)) == 0 ||
		    is_control(p + i, k)) {
			out[0] = '\0';
			return TALK_BAD_TEXT;
		}
		if (p[i] == '\r' || p[i] == '\n') {
			/* CR LF is one break; spaces before a break go */
			i += p[i] == '\r' && i + 1 < n && p[i + 1] == '\n' ? 2 : 1;
			breaks++;
			spaces = 0;
		} else if (p[i] == ' ' || p[i] == '\t') {
			spaces++;
			i++;
		} else if (is_bidi(p + i, k)) {
			i += k;
		} else {
			if (flush(out, &len, max, &breaks, &spaces) ||
			    put(out, &len, max, p + i, k)) {
				out[0] = '\0';
				return TALK_TOO_LONG;
			}
			i += k;
		}
	}
	/* What is still held back trails the text: it goes. */
	out[len] = '\0';
	return len == 0 ? TALK_EMPTY : TALK_OK;
}

/* The code point of the valid UTF-8 sequence s (k bytes, utf8_seq). */
static unsigned code_point(const unsigned char *s, size_t k)
{
	static const unsigned char lead_bits[] = { 0, 0x7F, 0x1F, 0x0F, 0x07 };
	unsigned cp = s[0] & lead_bits[k];

	for (size_t i = 1; i < k; i++)
		cp = cp << 6 | (s[i] & 0x3Fu);
	return cp;
}

/* 1 if cp is a control or an invisible format character: C0, DEL, C1,
 * the soft hyphen, the Arabic letter mark, the Mongolian vowel
 * separator, zero-width ones, LRM/RLM, the bidi embeddings, overrides
 * and isolates, the word joiner and invisible operators, the BOM, the
 * interlinear annotation marks and the tags (Unicode's Cc and Cf). */
static int is_hidden(unsigned cp)
{
	return cp < 0x20 || (cp >= 0x7F && cp <= 0x9F) || cp == 0xAD ||
	       cp == 0x61C || cp == 0x180E ||
	       (cp >= 0x200B && cp <= 0x200F) ||
	       (cp >= 0x202A && cp <= 0x202E) ||
	       (cp >= 0x2060 && cp <= 0x206F) || cp == 0xFEFF ||
	       (cp >= 0xFFF9 && cp <= 0xFFFB) ||
	       (cp >= 0xE0000 && cp <= 0xE007F);
}

talk_rc talk_clean_name(const char *in, char *out, size_t cap)
{
	const unsigned char *p = (const unsigned char *)in;
	size_t n = strlen(in), i = 0, len = 0, k, chars = 0;
	int space = 0;

	if (cap == 0)
		return TALK_TOO_LONG;
	out[0] = '\0';
	for (; i < n; i += k) {
		if ((k = utf8_seq(p + i, n - i)) == 0) {
			out[0] = '\0';
			return TALK_BAD_TEXT;
		}
		unsigned cp = code_point(p + i, k);
		if (cp == ' ' || cp == '\t' || cp == '\r' || cp == '\n') {
			space = len > 0;       /* leading ones are trimmed */
			continue;
		}
		if (is_hidden(cp))
			continue;
		if (chars + (size_t)space + 1 > BT_NAME_CHARS_MAX ||
		    put(out, &len, cap - 1, " ", (size_t)space) ||
		    put(out, &len, cap - 1, p + i, k)) {
			out[0] = '\0';
			return TALK_TOO_LONG;
		}
		chars += (size_t)space + 1;
		space = 0;
	}
	out[len] = '\0';    /* a space still held back trails: it goes */
	return len == 0 ? TALK_EMPTY : TALK_OK;
}
