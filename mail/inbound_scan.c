/*
 * inbound_scan.c - one pass over a received email's lines, counting what
 * GMime would build from them (inbound_scan.h), before it is parsed.
 */
#include <stdio.h>
#include <string.h>

#include "inbound_mime.h"
#include "inbound_scan.h"

/* The field a line of the scan is in. */
enum field_kind { NO_FIELD, OTHER_FIELD, TYPE_FIELD, DISP_FIELD, ADDR_FIELD };

static int lower(int c)
{
	return c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c;
}

/* 1 if the n bytes at s are word, in any case of ASCII letters. */
static int is_word(const char *s, size_t n, const char *word)
{
	size_t i;

	if (strlen(word) != n)
		return 0;
	for (i = 0; i < n; i++)
		if (lower((unsigned char)s[i]) != word[i])
			return 0;
	return 1;
}

static int starts_with(const char *s, size_t n, const char *word)
{
	size_t k = strlen(word);

	return n >= k && is_word(s, k, word);
}

/* 1 if word occurs in the n bytes at s, in any case. */
static int contains(const char *s, size_t n, const char *word)
{
	size_t i, k = strlen(word);

	for (i = 0; i + k <= n; i++)
		if (is_word(s + i, k, word))
			return 1;
	return 0;
}

/* The fields GMime reads as address lists, and the ones we do. */
static int is_address_field(const char *name, size_t n)
{
	static const char *const names[] = { "from", "sender", "reply-to",
		"to", "cc", "bcc", "delivered-to", "x-original-to", NULL };
	const char *const *p;

	if (starts_with(name, n, "resent-"))
		return 1;
	for (p = names; *p; p++)
		if (is_word(name, n, *p))
			return 1;
	return 0;
}

static int is_space(char c)
{
	return c == ' ' || c == '\t';
}

/* The length of the field name the line starts with, and in *value
 * where its value starts (after the colon); 0 if it starts none.  A
 * name is what GMime takes for one: anything up to a colon but spaces
 * and line ends (spaces between the name and the colon are allowed). */
static size_t field_name(const char *s, size_t n, size_t *value)
{
	size_t i = 0, end;

	while (i < n && s[i] != ':' && !is_space(s[i]) && s[i] != '\r')
		i++;
	end = i;
	while (i < n && is_space(s[i]))
		i++;
	if (i >= n || s[i] != ':' || (end == 0 && i > 0))
		return 0;
	*value = i + 1;
	return end > 0 ? end : 1;   /* ":" alone counts, as a field */
}

/* Counts one field's line (the first or a continuation): value is the
 * part of it that is the field's value. */
static void count_field_line(inbound_counts *c, enum field_kind kind,
                             size_t line_len, const char *value,
                             size_t value_len, int *nest)
{
	c->field_bytes += line_len;
	if (kind == ADDR_FIELD)
		c->addr_bytes += line_len;
	if (kind == TYPE_FIELD || kind == DISP_FIELD)
		for (size_t i = 0; i < value_len; i++)
			c->params += value[i] == ';';
	if (kind == TYPE_FIELD && !*nest &&
	    (contains(value, value_len, "multipart") ||
	     contains(value, value_len, "message"))) {
		*nest = 1;
		c->nests++;
	}
}

/* 1 once a count is past its bound: the rest need not be read. */
static int over(const inbound_counts *c)
{
	return c->types > INBOUND_TYPES_MAX || c->dashes > INBOUND_DASHES_MAX ||
	       c->nests > INBOUND_NEST_MAX || c->params > INBOUND_PARAMS_MAX ||
	       c->fields > INBOUND_FIELDS_MAX ||
	       c->addr_bytes > INBOUND_ADDR_BYTES_MAX ||
	       c->field_bytes > INBOUND_FIELD_BYTES_MAX;
}

static void count(const char *raw, size_t len, inbound_counts *c)
{
	enum field_kind kind = NO_FIELD;
	int nest = 0;
	size_t at = 0;

	while (at < len && !over(c)) {
		const char *s = raw + at, *nl = memchr(s, '\n', len - at);
		size_t n = nl ? (size_t)(nl - s) : len - at, value, name;

		at += nl ? n + 1 : n;
		if (n >= 2 && s[0] == '-' && s[1] == '-')
			c->dashes++;
		if (n > 0 && is_space(s[0]) && kind != NO_FIELD) {
			count_field_line(c, kind, n + 1, s, n, &nest);
			continue;
		}
		kind = NO_FIELD;
		nest = 0;
		if ((name = field_name(s, n, &value)) == 0)
			continue;
		c->fields++;
		kind = OTHER_FIELD;
		if (is_word(s, name, "content-type")) {
			kind = TYPE_FIELD;
			c->types++;
		} else if (is_word(s, name, "content-disposition"))
			kind = DISP_FIELD;
		else if (is_address_field(s, name))
			kind = ADDR_FIELD;
		count_field_line(c, kind, n + 1, s + value, n - value, &nest);
	}
}

int inbound_scan(const char *raw, size_t len, inbound_counts *c, char *why,
                 size_t why_len)
{
	char reason[160] = "";

	memset(c, 0, sizeof *c);
	count(raw, len, c);
	if (c->types > INBOUND_TYPES_MAX)
		snprintf(reason, sizeof reason,
		         "the message has too many MIME parts");
	else if (c->dashes > INBOUND_DASHES_MAX)
		snprintf(reason, sizeof reason, "the message has too many MIME "
		         "parts: more than %d lines start with \"--\"",
		         INBOUND_DASHES_MAX);
	else if (c->nests > INBOUND_NEST_MAX)
		snprintf(reason, sizeof reason, "the message has too many nested "
		         "MIME parts: more than %d multipart or message types",
		         INBOUND_NEST_MAX);
	else if (c->params > INBOUND_PARAMS_MAX)
		snprintf(reason, sizeof reason, "the message has too many MIME "
		         "parameters: more than %d", INBOUND_PARAMS_MAX);
	else if (c->fields > INBOUND_FIELDS_MAX)
		snprintf(reason, sizeof reason, "the message has too many header "
		         "fields: more than %d", INBOUND_FIELDS_MAX);
	else if (c->addr_bytes > INBOUND_ADDR_BYTES_MAX)
		snprintf(reason, sizeof reason, "the address fields are too long: "
		         "more than %d bytes", INBOUND_ADDR_BYTES_MAX);
	else if (c->field_bytes > INBOUND_FIELD_BYTES_MAX)
		snprintf(reason, sizeof reason, "the header fields are too long: "
		         "more than %d bytes", INBOUND_FIELD_BYTES_MAX);
	if (why && why_len > 0)
		snprintf(why, why_len, "%s", reason);
	return reason[0] ? -1 : 0;
}
