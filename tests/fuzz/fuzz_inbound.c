/*
 * fuzz_inbound.c - libFuzzer harness for received email: the input is a
 * raw message for inbound_parse (mail/inbound_mime.h), whose text then
 * goes through the quote cutter (inbound_text.h) and the command reader
 * (inbound_reply.h).  Whatever comes in, every string that comes out
 * must be NUL-terminated valid UTF-8 inside its buffer, the counts
 * within their bounds, the text without CR, the written text no longer
 * than the text; a refused message must say why.  The memory bound: a
 * message with more lines starting "--" (parts) or starting a header
 * field than inbound_scan.h allows, counted here afresh, is never
 * parsed (GMime builds an object for each).  No crash, no leak
 * (GMime's and libxml2's objects are freed per message).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "inbound_mime.h"
#include "inbound_reply.h"
#include "inbound_scan.h"
#include "inbound_text.h"
#include "utf8.h"

static inbound_msg m;
static inbound_reply r;
static char written[INBOUND_TEXT_MAX];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void must_be_utf8(const char *s, size_t cap)
{
	size_t n = strnlen(s, cap), i = 0, k;

	if (n >= cap)
		abort();
	while (i < n) {
		k = utf8_seq((const unsigned char *)s + i, n - i);
		if (k == 0)
			abort();
		i += k;
	}
}

static void check_msg(void)
{
	int i;

	must_be_utf8(m.from, sizeof m.from);
	must_be_utf8(m.return_path, sizeof m.return_path);
	must_be_utf8(m.message_id, sizeof m.message_id);
	must_be_utf8(m.in_reply_to, sizeof m.in_reply_to);
	must_be_utf8(m.subject, sizeof m.subject);
	must_be_utf8(m.text, sizeof m.text);
	if (m.n_rcpt < 0 || m.n_rcpt > INBOUND_RCPT_MAX ||
	    m.n_refs < 0 || m.n_refs > INBOUND_REFS_MAX ||
	    m.n_auth < 0 || m.n_auth > INBOUND_AUTH_MAX ||
	    strchr(m.text, '\r') != NULL)
		abort();
	for (i = 0; i < m.n_rcpt; i++)
		must_be_utf8(m.rcpt[i], INBOUND_ADDR_MAX);
	for (i = 0; i < m.n_refs; i++)
		must_be_utf8(m.refs[i], INBOUND_ID_MAX);
	for (i = 0; i < m.n_auth; i++)
		must_be_utf8(m.auth[i], INBOUND_AUTH_LEN);
}

static void check_reply(void)
{
	int i;

	must_be_utf8(r.words, sizeof r.words);
	must_be_utf8(r.several, sizeof r.several);
	/* one reading of the move line at most: a number, words, or
	 * several numbers */
	if (r.move < 0 || r.move > REPLY_NUMBER_MAX ||
	    r.n_says < 0 || r.n_says > REPLY_SAYS_MAX ||
	    r.n_order < 0 || r.n_order > REPLY_ORDER_MAX ||
	    (r.move != 0) + (r.words[0] != '\0') + (r.several[0] != '\0') > 1)
		abort();
	for (i = 0; i < r.n_order; i++)
		if (r.order[i] < 1 || r.order[i] > 3)
			abort();
	for (i = 0; i < r.n_says; i++)
		must_be_utf8(r.says[i], sizeof r.says[i]);
}

/* 1 if the message has more "--" lines or more lines that start like
 * a header field ("name:", no space in the name) than the bounds. */
static int over_bounds(const char *s, size_t size)
{
	size_t dashes = 0, fields = 0, i = 0;

	while (i < size) {
		size_t k = i;

		if (size - i >= 2 && s[i] == '-' && s[i + 1] == '-')
			dashes++;
		while (k < size && s[k] != '\n' && s[k] != ':' && s[k] != ' ' &&
		       s[k] != '\t' && s[k] != '\r')
			k++;
		if (k > i && k < size && s[k] == ':')
			fields++;
		while (i < size && s[i] != '\n')
			i++;
		i++;
	}
	return dashes > INBOUND_DASHES_MAX || fields > INBOUND_FIELDS_MAX;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char why[200];
	size_t n;

	if (inbound_parse((const char *)data, size, &m, why, sizeof why) < 0) {
		if (why[0] == '\0')
			abort();
		return 0;
	}
	if (over_bounds((const char *)data, size))
		abort();   /* parsed, though over the bounds */
	check_msg();
	n = inbound_written(m.text, written, sizeof written);
	if (n != strlen(written) || n > strlen(m.text))
		abort();
	must_be_utf8(written, sizeof written);
	inbound_read_reply(written, &r);
	check_reply();
	return 0;
}
