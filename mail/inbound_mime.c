/*
 * inbound_mime.c - a received email as inbound_msg: GMime parses, this
 * file picks the facts out and copies them into bounded buffers.
 *
 * The input is checked before GMime sees it (its size, and the counts
 * of inbound_scan.h: parts, nesting, header fields, addresses, which
 * bound the objects GMime builds and its recursion); the tree it builds
 * is walked with a depth count.  Every GMime object is unref'd
 * before return, every GLib string freed.
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include <gmime/gmime.h>

#include "inbound_html.h"
#include "inbound_mime.h"
#include "inbound_scan.h"
#include "utf8.h"

/* What the walk of the MIME tree found. */
typedef struct {
	GMimePart *plain;       /* first text/plain, not an attachment */
	GMimePart *html;        /* first text/html, not an attachment */
	int report;             /* a message/delivery-status part */
	int too_deep;
} found;

/* ---- UTF-8 -------------------------------------------------------------- */

/* windows-1252's 0x80..0x9F (0: not assigned); the rest is Latin-1. */
static const unsigned short cp1252_high[32] = {
	0x20AC, 0, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021,
	0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0, 0x017D, 0,
	0, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
	0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0, 0x017E, 0x0178
};

/* Appends the n bytes of seq (one whole character) if they fit. */
static int put(char *out, size_t cap, size_t *len, const char *seq, size_t n)
{
	if (*len + n >= cap)
		return 0;
	memcpy(out + *len, seq, n);
	*len += n;
	out[*len] = '\0';
	return 1;
}

static int put_cp1252(char *out, size_t cap, size_t *len, unsigned char c)
{
	unsigned cp = c < 0x80 || c >= 0xA0 ? c : cp1252_high[c - 0x80];
	char seq[3];

	if (cp == 0)
		cp = 0xFFFD;
	if (cp < 0x800) {
		seq[0] = (char)(0xC0 | (cp >> 6));
		seq[1] = (char)(0x80 | (cp & 0x3F));
		return put(out, cap, len, seq, 2);
	}
	seq[0] = (char)(0xE0 | (cp >> 12));
	seq[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
	seq[2] = (char)(0x80 | (cp & 0x3F));
	return put(out, cap, len, seq, 3);
}

/* Appends in: valid UTF-8 kept, other bytes as windows-1252 (or, with
 * latin, every byte above 0x7F as windows-1252). */
static void put_mixed(const char *in, size_t n, int latin, char *out,
                      size_t cap, size_t *len)
{
	const unsigned char *s = (const unsigned char *)in;
	size_t i = 0;

	while (i < n) {
		size_t k = latin ? (s[i] < 0x80) : utf8_seq(s + i, n - i);
		int ok;

		if (s[i] == '\r') {
			ok = put(out, cap, len, "\n", 1);
			i += (i + 1 < n && s[i + 1] == '\n') ? 2 : 1;
		} else if (k == 1 && s[i] < 0x20 && s[i] != '\n' && s[i] != '\t') {
			ok = 1;
			i++;
		} else if (k == 1 && s[i] == 0x7F) {
			ok = 1;
			i++;
		} else if (k > 0) {
			ok = put(out, cap, len, in + i, k);
			i += k;
		} else {
			ok = put_cp1252(out, cap, len, s[i]);
			i++;
		}
		if (!ok)
			return;
	}
}

static int is_one_of(const char *s, const char *const *names)
{
	for (; *names; names++)
		if (strcasecmp(s, *names) == 0)
			return 1;
	return 0;
}

void inbound_to_utf8(const char *in, size_t n, const char *charset,
                     char *out, size_t cap, size_t *len)
{
	static const char *const utf8ish[] = { "utf-8", "utf8", "us-ascii",
		"ascii", "unknown-8bit", "x-unknown", NULL };
	static const char *const latin[] = { "iso-8859-1", "iso8859-1",
		"latin1", "l1", "windows-1252", "cp1252", "iso_8859-1", NULL };
	gchar *conv;
	gsize got = 0;

	if (cap == 0 || *len >= cap)
		return;
	out[*len] = '\0';
	if (in == NULL || n == 0)
		return;
	if (charset == NULL || *charset == '\0' || is_one_of(charset, utf8ish)) {
		put_mixed(in, n, 0, out, cap, len);
		return;
	}
	if (is_one_of(charset, latin)) {
		put_mixed(in, n, 1, out, cap, len);
		return;
	}
	if (n > G_MAXSSIZE)
		return;
	conv = g_convert(in, (gssize)n, "UTF-8",
	                 g_mime_charset_iconv_name(charset), NULL, &got, NULL);
	/* iconv's output is UTF-8, but checked again all the same. */
	if (conv != NULL)
		put_mixed(conv, got, 0, out, cap, len);
	else
		put_mixed(in, n, 0, out, cap, len);
	g_free(conv);
}

/* Copies s into dst (cap bytes) as valid UTF-8 on one line: the control
 * characters, CR and LF included, become spaces; ends are trimmed. */
static void copy_line(char *dst, size_t cap, const char *s)
{
	size_t len = 0, i, start = 0;

	dst[0] = '\0';
	if (s == NULL)
		return;
	inbound_to_utf8(s, strlen(s), NULL, dst, cap, &len);
	for (i = 0; i < len; i++)
		if ((unsigned char)dst[i] < 0x20)
			dst[i] = ' ';
	while (start < len && dst[start] == ' ')
		start++;
	while (len > start && dst[len - 1] == ' ')
		len--;
	memmove(dst, dst + start, len - start);
	dst[len - start] = '\0';
}

/* ---- headers ------------------------------------------------------------ */

/* The first mailbox of list (inside a group too), or NULL. */
static const char *first_mailbox(InternetAddressList *list, int depth)
{
	int i, n = list ? internet_address_list_length(list) : 0;

	for (i = 0; i < n; i++) {
		InternetAddress *a = internet_address_list_get_address(list, i);

		if (INTERNET_ADDRESS_IS_MAILBOX(a))
			return internet_address_mailbox_get_addr(
				INTERNET_ADDRESS_MAILBOX(a));
		if (INTERNET_ADDRESS_IS_GROUP(a) && depth < 2) {
			const char *in = first_mailbox(internet_address_group_get_members(
				INTERNET_ADDRESS_GROUP(a)), depth + 1);
			if (in)
				return in;
		}
	}
	return NULL;
}

static void add_rcpts(inbound_msg *m, InternetAddressList *list, int depth)
{
	int i, n = list ? internet_address_list_length(list) : 0;

	for (i = 0; i < n && m->n_rcpt < INBOUND_RCPT_MAX; i++) {
		InternetAddress *a = internet_address_list_get_address(list, i);

		if (INTERNET_ADDRESS_IS_MAILBOX(a)) {
			const char *addr = internet_address_mailbox_get_addr(
				INTERNET_ADDRESS_MAILBOX(a));
			if (addr && *addr)
				copy_line(m->rcpt[m->n_rcpt++], INBOUND_ADDR_MAX, addr);
		} else if (INTERNET_ADDRESS_IS_GROUP(a) && depth < 2)
			add_rcpts(m, internet_address_group_get_members(
				INTERNET_ADDRESS_GROUP(a)), depth + 1);
	}
}

static void parse_rcpts(inbound_msg *m, const char *value)
{
	InternetAddressList *list = internet_address_list_parse(NULL, value);

	if (list) {
		add_rcpts(m, list, 0);
		g_object_unref(list);
	}
}

/* A message id without its <> (GMime's reading of it). */
static void copy_id(char *dst, const char *value)
{
	char *id = g_mime_utils_decode_message_id(value);

	copy_line(dst, INBOUND_ID_MAX, id);
	g_free(id);
}

/* The Message-ID whole, or "" if it does not fit: one cut short could
 * be another email's (the reply is then known by its bytes). */
static void copy_whole_id(char *dst, const char *value)
{
	char *id = g_mime_utils_decode_message_id(value);
	char whole[4 * INBOUND_ID_MAX];   /* as UTF-8, 3 bytes a byte at most */

	dst[0] = '\0';
	if (id && strlen(id) < INBOUND_ID_MAX) {
		copy_line(whole, sizeof whole, id);
		if (strlen(whole) < INBOUND_ID_MAX)
			memcpy(dst, whole, strlen(whole) + 1);
	}
	g_free(id);
}

static void parse_refs(inbound_msg *m, const char *value)
{
	GMimeReferences *refs = g_mime_references_parse(NULL, value);
	int i, n = refs ? g_mime_references_length(refs) : 0;

	/* The last ones: the newest, nearest the email answered. */
	for (i = n > INBOUND_REFS_MAX ? n - INBOUND_REFS_MAX : 0; i < n; i++)
		copy_line(m->refs[m->n_refs++], INBOUND_ID_MAX,
		          g_mime_references_get_message_id(refs, i));
	if (refs)
		g_mime_references_free(refs);
}

static void parse_return_path(inbound_msg *m, const char *value)
{
	const char *lt = strchr(value, '<'), *gt;
	char tmp[INBOUND_ADDR_MAX];
	size_t n;

	if (lt && (gt = strchr(lt, '>')) != NULL) {
		n = (size_t)(gt - lt - 1);
		if (n >= sizeof tmp)
			n = sizeof tmp - 1;
		memcpy(tmp, lt + 1, n);
		tmp[n] = '\0';
		copy_line(m->return_path, INBOUND_ADDR_MAX, tmp);
	} else
		copy_line(m->return_path, INBOUND_ADDR_MAX, value);
	m->null_sender = m->return_path[0] == '\0';
}

/* The first word of value, lowercased, for Auto-Submitted, Precedence. */
static void first_word(const char *value, char *w, size_t cap)
{
	size_t k = 0;

	while (*value == ' ' || *value == '\t')
		value++;
	while (*value && k + 1 < cap && (g_ascii_isalnum(*value) ||
	                                 *value == '-' || *value == '_'))
		w[k++] = g_ascii_tolower(*value++);
	w[k] = '\0';
}

static int automatic_header(const char *name, const char *value)
{
	static const char *const present[] = { "X-Autoreply", "X-Autorespond",
		"List-Id", "List-Unsubscribe", INBOUND_LOOP_HEADER, NULL };
	static const char *const bulk[] = { "bulk", "junk", "list",
		"auto_reply", NULL };
	char w[32];

	if (is_one_of(name, present))
		return 1;
	first_word(value, w, sizeof w);
	if (strcasecmp(name, "Auto-Submitted") == 0)
		return strcmp(w, "no") != 0;
	if (strcasecmp(name, "Precedence") == 0)
		return is_one_of(w, bulk);
	return 0;
}

static int automatic_subject(const char *subject)
{
	static const char *const starts[] = { "Automatic reply:",
		"Out of Office", "Abwesenheitsnotiz", "Réponse automatique",
		"Autoreply:", NULL };
	const char *const *p;

	for (p = starts; *p; p++)
		if (g_ascii_strncasecmp(subject, *p, strlen(*p)) == 0)
			return 1;
	return 0;
}

/* The header's value unfolded and trimmed (for Authentication-Results,
 * compared later with the server's own authserv-id). */
static void copy_unfolded(char *dst, size_t cap, const char *raw)
{
	copy_line(dst, cap, raw);
	/* folding became runs of spaces: collapse them */
	{
		char *r = dst, *w = dst;
		int space = 0;

		for (; *r; r++) {
			if (*r == ' ' || *r == '\t') {
				space = 1;
				continue;
			}
			if (space && w != dst)
				*w++ = ' ';
			space = 0;
			*w++ = *r;
		}
		*w = '\0';
	}
}

static void read_header(inbound_msg *m, GMimeHeader *h, int seen[3])
{
	const char *name = g_mime_header_get_name(h);
	const char *value = g_mime_header_get_value(h);
	const char *raw = g_mime_header_get_raw_value(h);

	if (name == NULL)
		return;
	if (value == NULL)
		value = "";
	if (strcasecmp(name, "To") == 0 || strcasecmp(name, "Cc") == 0 ||
	    strcasecmp(name, "Delivered-To") == 0 ||
	    strcasecmp(name, "X-Original-To") == 0)
		parse_rcpts(m, raw ? raw : value);
	else if (strcasecmp(name, "Message-ID") == 0 && !seen[0]++)
		copy_whole_id(m->message_id, raw ? raw : value);
	else if (strcasecmp(name, "In-Reply-To") == 0 && !seen[1]++)
		copy_id(m->in_reply_to, raw ? raw : value);
	else if (strcasecmp(name, "References") == 0 && m->n_refs == 0)
		parse_refs(m, raw ? raw : value);
	else if (strcasecmp(name, "Return-Path") == 0 && !seen[2]++)
		parse_return_path(m, value);
	else if (strcasecmp(name, "Authentication-Results") == 0 &&
	         m->n_auth < INBOUND_AUTH_MAX) {
		/* folded, it may still have fitted: "cut" errs on the safe side */
		m->auth_cut[m->n_auth] = strlen(raw ? raw : value) + 1 >=
		                         INBOUND_AUTH_LEN;
		copy_unfolded(m->auth[m->n_auth++], INBOUND_AUTH_LEN,
		              raw ? raw : value);
	}
	if (automatic_header(name, value))
		m->is_auto = 1;
}

static void read_headers(inbound_msg *m, GMimeMessage *msg)
{
	GMimeHeaderList *hl = g_mime_object_get_header_list(GMIME_OBJECT(msg));
	int i, n = hl ? g_mime_header_list_get_count(hl) : 0;
	int seen[3] = { 0, 0, 0 };
	const char *from, *subject;

	for (i = 0; i < n; i++)
		read_header(m, g_mime_header_list_get_header_at(hl, i), seen);
	from = first_mailbox(g_mime_message_get_from(msg), 0);
	copy_line(m->from, INBOUND_ADDR_MAX, from);
	subject = g_mime_message_get_subject(msg);
	copy_line(m->subject, INBOUND_SUBJECT_MAX, subject);
	if (automatic_subject(m->subject))
		m->is_auto = 1;
}

/* ---- body --------------------------------------------------------------- */

static int is_attachment(GMimeObject *o)
{
	const char *d = g_mime_object_get_disposition(o);

	return d != NULL && g_ascii_strcasecmp(d, "attachment") == 0;
}

static void walk(GMimeObject *o, int depth, int in_message, found *f)
{
	GMimeContentType *ct = g_mime_object_get_content_type(o);

	if (depth > INBOUND_DEPTH_MAX) {
		f->too_deep = 1;
		return;
	}
	if (GMIME_IS_MULTIPART(o)) {
		int i, n = g_mime_multipart_get_count(GMIME_MULTIPART(o));

		for (i = 0; i < n && !f->too_deep; i++)
			walk(g_mime_multipart_get_part(GMIME_MULTIPART(o), i),
			     depth + 1, in_message, f);
	} else if (GMIME_IS_MESSAGE_PART(o)) {
		GMimeMessage *inner = g_mime_message_part_get_message(
			GMIME_MESSAGE_PART(o));
		GMimeObject *body = inner ? g_mime_message_get_mime_part(inner) : NULL;

		/* a forwarded or bounced message: not the person's words */
		if (body)
			walk(body, depth + 1, 1, f);
	} else if (GMIME_IS_PART(o) && ct != NULL) {
		if (g_mime_content_type_is_type(ct, "message", "delivery-status") ||
		    g_mime_content_type_is_type(ct, "message",
		                                "global-delivery-status"))
			f->report = 1;
		if (in_message || is_attachment(o))
			return;
		if (!f->plain && g_mime_content_type_is_type(ct, "text", "plain"))
			f->plain = GMIME_PART(o);
		else if (!f->html && g_mime_content_type_is_type(ct, "text", "html"))
			f->html = GMIME_PART(o);
	}
}

/* The part's content with its transfer encoding undone, in a new
 * GByteArray for g_byte_array_free (NULL if it has none). */
static GByteArray *decoded(GMimePart *part)
{
	GMimeDataWrapper *w = g_mime_part_get_content(part);
	GMimeStream *mem;
	GByteArray *bytes;

	if (w == NULL)
		return NULL;
	mem = g_mime_stream_mem_new();
	if (mem == NULL)
		return NULL;
	if (g_mime_data_wrapper_write_to_stream(w, mem) < 0) {
		g_object_unref(mem);
		return NULL;
	}
	/* the stream frees its array's data with it unless told not to */
	bytes = g_mime_stream_mem_get_byte_array(GMIME_STREAM_MEM(mem));
	g_mime_stream_mem_set_owner(GMIME_STREAM_MEM(mem), FALSE);
	g_object_unref(mem);
	return bytes;
}

/* RFC 3676: a line ending in a space goes on in the next one (with
 * delsp=yes, without that space); a leading space is stuffing.  Quoted
 * lines and the "-- " signature line are left as they are. */
static void unflow(char *s, int delsp)
{
	char *r = s, *w = s;

	while (*r) {
		char *nl = strchr(r, '\n');
		size_t n = nl ? (size_t)(nl - r) : strlen(r);
		int quoted = *r == '>';
		int sig = n == 3 && memcmp(r, "-- ", 3) == 0;

		if (*r == ' ' && !sig) {    /* stuffing */
			r++;
			n--;
		}
		memmove(w, r, n);
		w += n;
		r += n;
		if (!nl)
			break;
		r++;
		if (n > 0 && w[-1] == ' ' && !sig && !quoted && *r != '>' &&
		    *r != '\n' && *r != '\0') {
			if (delsp)
				w--;
		} else
			*w++ = '\n';
	}
	*w = '\0';
}

static void read_plain(inbound_msg *m, GMimePart *part)
{
	GMimeObject *o = GMIME_OBJECT(part);
	GByteArray *bytes = decoded(part);
	const char *format = g_mime_object_get_content_type_parameter(o, "format");
	const char *delsp = g_mime_object_get_content_type_parameter(o, "delsp");
	size_t len = 0;

	if (bytes == NULL)
		return;
	inbound_to_utf8((const char *)bytes->data, bytes->len,
	                g_mime_object_get_content_type_parameter(o, "charset"),
	                m->text, INBOUND_TEXT_MAX, &len);
	g_byte_array_free(bytes, TRUE);
	if (format && g_ascii_strcasecmp(format, "flowed") == 0)
		unflow(m->text, delsp && g_ascii_strcasecmp(delsp, "yes") == 0);
	m->source = m->text[0] ? INBOUND_PLAIN : INBOUND_NO_TEXT;
}

static void read_html(inbound_msg *m, GMimePart *part)
{
	GMimeObject *o = GMIME_OBJECT(part);
	GByteArray *bytes = decoded(part);
	size_t cap, len = 0;
	char *utf8, *text;

	if (bytes == NULL)
		return;
	cap = (bytes->len < INBOUND_HTML_MAX ? bytes->len : INBOUND_HTML_MAX) + 1;
	utf8 = g_malloc(cap);
	text = g_malloc(INBOUND_TEXT_MAX);
	inbound_to_utf8((const char *)bytes->data, bytes->len,
	                g_mime_object_get_content_type_parameter(o, "charset"),
	                utf8, cap, &len);
	g_byte_array_free(bytes, TRUE);
	inbound_html_text(utf8, len, text, INBOUND_TEXT_MAX);
	len = 0;
	inbound_to_utf8(text, strlen(text), NULL, m->text, INBOUND_TEXT_MAX, &len);
	g_free(text);
	g_free(utf8);
	m->source = m->text[0] ? INBOUND_HTML : INBOUND_NO_TEXT;
}

static int is_daemon(const char *addr)
{
	return g_ascii_strncasecmp(addr, "mailer-daemon@", 14) == 0 ||
	       g_ascii_strncasecmp(addr, "postmaster@", 11) == 0 ||
	       g_ascii_strcasecmp(addr, "mailer-daemon") == 0;
}

static int read_body(inbound_msg *m, GMimeMessage *msg)
{
	GMimeObject *body = g_mime_message_get_mime_part(msg);
	GMimeContentType *ct = body ? g_mime_object_get_content_type(body) : NULL;
	found f = { NULL, NULL, 0, 0 };

	if (body)
		walk(body, 1, 0, &f);
	if (f.too_deep)
		return -1;
	if (ct && g_mime_content_type_is_type(ct, "multipart", "report")) {
		const char *rt = g_mime_content_type_get_parameter(ct, "report-type");

		if (rt && g_ascii_strcasecmp(rt, "delivery-status") == 0)
			f.report = 1;
	}
	m->is_bounce = f.report || (m->null_sender && is_daemon(m->from));
	if (f.plain)
		read_plain(m, f.plain);
	else if (f.html)
		read_html(m, f.html);
	return 0;
}

/* ---- entry point -------------------------------------------------------- */

static void say(char *why, size_t why_len, const char *reason)
{
	if (why && why_len > 0)
		snprintf(why, why_len, "%s", reason);
}

static GMimeMessage *construct(const char *raw, size_t len)
{
	GMimeStream *stream;
	GMimeParser *parser;
	GMimeMessage *msg;

	/* an mbox "From " line, as some delivery agents write first */
	if (len > 5 && memcmp(raw, "From ", 5) == 0) {
		const char *nl = memchr(raw, '\n', len);

		len = nl ? len - (size_t)(nl + 1 - raw) : 0;
		raw = nl ? nl + 1 : raw;
	}
	stream = g_mime_stream_mem_new_with_buffer(raw, len);
	if (stream == NULL)
		return NULL;
	parser = g_mime_parser_new_with_stream(stream);
	g_object_unref(stream);
	if (parser == NULL)
		return NULL;
	msg = g_mime_parser_construct_message(parser, NULL);
	g_object_unref(parser);
	return msg;
}

int inbound_parse(const char *raw, size_t len, inbound_msg *m, char *why,
                  size_t why_len)
{
	GMimeMessage *msg;
	inbound_counts counts;
	int rc;

	memset(m, 0, sizeof *m);
	say(why, why_len, "");
	if (len > INBOUND_RAW_MAX) {
		say(why, why_len, "the message is larger than 1 MiB");
		return -1;
	}
	if (inbound_scan(raw, len, &counts, why, why_len) < 0)
		return -1;
	g_mime_init();
	msg = construct(raw, len);
	if (msg == NULL) {
		say(why, why_len, "the input is not an email message");
		return -1;
	}
	read_headers(m, msg);
	rc = read_body(m, msg);
	g_object_unref(msg);
	if (rc < 0) {
		memset(m, 0, sizeof *m);
		say(why, why_len, "the message's MIME parts are nested too deep");
	}
	return rc;
}
