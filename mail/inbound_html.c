/*
 * inbound_html.c - an HTML email's text as a reader sees it, without
 * the quoted message (libxml2's HTML parser, then a walk of the tree).
 *
 * libxml2 is loaded when the first HTML-only email comes, not linked:
 * with ICU and the C++ runtime it brings, loading it took longer than
 * the whole of handling a plain-text reply (most replies have a text
 * part and never need it).
 */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include <libxml/HTMLparser.h>
#include <libxml/tree.h>

#include "inbound_html.h"
#include "inbound_mime.h"

enum { TREE_DEPTH_MAX = 200 };   /* elements deeper are not read */

/* The text being written. */
typedef struct {
	char *out;
	size_t cap, len;
	int line_start;       /* nothing but maybe spaces since the last LF */
	int space;            /* a space is due before the next character */
	int stop;             /* Outlook's quote began: nothing more */
} sink;

static void emit(sink *s, const char *b, size_t n)
{
	if (s->len + n >= s->cap)
		return;
	memcpy(s->out + s->len, b, n);
	s->len += n;
	s->out[s->len] = '\0';
}

static void newline(sink *s)
{
	emit(s, "\n", 1);
	s->line_start = 1;
	s->space = 0;
}

static void end_line(sink *s)
{
	if (!s->line_start)
		newline(s);
}

/* Text as a browser shows it: runs of white space (NBSP too) are one
 * space, none at a line's start; in pre, as it is. */
static void text(sink *s, const char *t, int pre)
{
	while (*t) {
		unsigned char c = (unsigned char)*t;
		size_t k = 1;

		if (pre && c == '\n') {
			newline(s);
			t++;
			continue;
		}
		if (!pre && (c == ' ' || c == '\t' || c == '\n' || c == '\r' ||
		             c == '\f' || (c == 0xC2 && (unsigned char)t[1] == 0xA0))) {
			s->space = !s->line_start;
			t += c == 0xC2 ? 2 : 1;
			continue;
		}
		if (pre && (c == 0xC2 && (unsigned char)t[1] == 0xA0)) {
			emit(s, " ", 1);
			t += 2;
			continue;
		}
		if (s->space)
			emit(s, " ", 1);
		s->space = 0;
		s->line_start = 0;
		while (t[k] && ((unsigned char)t[k] & 0xC0) == 0x80 && k < 4)
			k++;
		emit(s, t, k);
		t += k;
	}
}

/* The three functions of libxml2 used, found in the loaded library. */
typedef struct {
	void (*init_parser)(void);
	htmlDocPtr (*read_memory)(const char *buffer, int size,
	                          const char *url, const char *encoding,
	                          int options);
	void (*free_doc)(xmlDocPtr doc);
} xml_api;

#ifndef XML_SONAME
#define XML_SONAME "libxml2.so.2"   /* configure finds the real one */
#endif

/* POSIX's way to take a function from dlsym (ISO C has none). */
static int find(void *lib, const char *name, void *fn, size_t size)
{
	void *sym = dlsym(lib, name);

	if (!sym)
		return -1;
	memcpy(fn, &sym, size);
	return 0;
}

/* libxml2, loaded on first use; NULL (said once on stderr, for the
 * MTA's log) if it cannot be. */
static const xml_api *xml(void)
{
	static xml_api api;
	static int state;              /* 0 not tried, 1 loaded, -1 failed */

	if (state == 0) {
		void *lib = dlopen(XML_SONAME, RTLD_NOW | RTLD_LOCAL);
		state = lib && !find(lib, "xmlInitParser", &api.init_parser,
		                     sizeof api.init_parser) &&
		        !find(lib, "htmlReadMemory", &api.read_memory,
		              sizeof api.read_memory) &&
		        !find(lib, "xmlFreeDoc", &api.free_doc,
		              sizeof api.free_doc) ? 1 : -1;
		if (state < 0)
			fprintf(stderr, "buffertime: cannot load %s (%s): "
			        "HTML-only email is read as empty\n",
			        XML_SONAME, dlerror());
		else
			api.init_parser();
	}
	return state > 0 ? &api : NULL;
}

/* Element names from libxml2's HTML parser are ASCII. */
static int name_is(const xmlNode *n, const char *const *names)
{
	for (; *names; names++)
		if (strcasecmp((const char *)n->name, *names) == 0)
			return 1;
	return 0;
}

/* Whether attribute attr of n contains word (a class, an id). */
static int attr_has(const xmlNode *n, const char *attr, const char *word)
{
	for (const xmlAttr *a = n->properties; a; a = a->next) {
		if (strcasecmp((const char *)a->name, attr) != 0)
			continue;
		for (const xmlNode *t = a->children; t; t = t->next)
			if (t->type == XML_TEXT_NODE && t->content &&
			    strstr((const char *)t->content, word))
				return 1;
	}
	return 0;
}

static int is_quote(xmlNode *n)
{
	static const char *const quotes[] = { "blockquote", NULL };

	return name_is(n, quotes) || attr_has(n, "class", "gmail_quote") ||
	       attr_has(n, "class", "moz-cite-prefix") ||
	       attr_has(n, "class", "yahoo_quoted");
}

/* Outlook's start of the quoted message: it and all after it go. */
static int is_quote_start(xmlNode *n)
{
	return attr_has(n, "id", "appendonsend") ||
	       attr_has(n, "id", "divRplyFwdMsg");
}

static void walk(xmlNode *n, sink *s, int depth, int pre);

static void element(xmlNode *n, sink *s, int depth, int pre)
{
	static const char *const dropped[] = { "head", "script", "style",
		"title", "template", "noscript", NULL };
	static const char *const blocks[] = { "p", "div", "li", "tr", "h1", "h2",
		"h3", "h4", "h5", "h6", "ul", "ol", "table", "pre", "hr", "dl",
		"dt", "dd", "section", "article", "header", "footer", "address",
		"center", NULL };
	static const char *const pres[] = { "pre", NULL };
	static const char *const brs[] = { "br", NULL };
	int block;

	if (name_is(n, dropped) || is_quote(n))
		return;
	if (is_quote_start(n)) {
		s->stop = 1;
		return;
	}
	if (name_is(n, brs)) {
		newline(s);
		return;
	}
	block = name_is(n, blocks);
	if (block)
		end_line(s);
	if (depth < TREE_DEPTH_MAX)
		walk(n->children, s, depth + 1, pre || name_is(n, pres));
	if (block)
		end_line(s);
}

static void walk(xmlNode *n, sink *s, int depth, int pre)
{
	for (; n != NULL && !s->stop; n = n->next) {
		if (n->type == XML_TEXT_NODE || n->type == XML_CDATA_SECTION_NODE) {
			if (n->content)
				text(s, (const char *)n->content, pre);
		} else if (n->type == XML_ELEMENT_NODE)
			element(n, s, depth, pre);
	}
}

size_t inbound_html_text(const char *html, size_t n, char *out, size_t cap)
{
	sink s = { out, cap, 0, 1, 0, 0 };
	const xml_api *lib;
	htmlDocPtr doc;

	if (cap == 0)
		return 0;
	out[0] = '\0';
	if (n > INBOUND_HTML_MAX)
		n = INBOUND_HTML_MAX;
	if (n == 0 || (lib = xml()) == NULL)
		return 0;
	doc = lib->read_memory(html, (int)n, NULL, "UTF-8",
	                       HTML_PARSE_NOERROR | HTML_PARSE_NOWARNING |
	                       HTML_PARSE_NONET | HTML_PARSE_IGNORE_ENC);
	if (doc == NULL)
		return 0;
	walk(doc->children, &s, 0, 0);
	lib->free_doc(doc);
	return s.len;
}
