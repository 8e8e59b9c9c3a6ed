/*
 * authres.h - an Authentication-Results header field's value (RFC 8601)
 * read as its parts: the authserv-id of the server that wrote it, its
 * version, and each "method=result" with its properties
 * ("dmarc=pass header.from=example.org").
 *
 * Comments (nested parentheses) and quoted strings are read as the RFC
 * says, so "(dmarc=pass)" or reason="dmarc=pass" is no result; a result
 * is a whole keyword ("passed" is not "pass").  A resinfo that does not
 * parse is skipped up to the next ';' outside comments and quotes and
 * counted; the others are kept.  Any bytes, never read past n.
 */
#ifndef BT_AUTHRES_H
#define BT_AUTHRES_H

#include <stddef.h>

enum {
	AUTHRES_ID_MAX = 256,       /* bytes of the authserv-id, with NUL */
	AUTHRES_WORD_MAX = 32,      /* a method, result, ptype, property */
	AUTHRES_VALUE_MAX = 256,    /* a property's value, with its NUL */
	AUTHRES_RESULTS_MAX = 16,   /* results kept (later ones skipped) */
	AUTHRES_PROPS_MAX = 6       /* properties kept per result */
};

typedef struct {
	char ptype[AUTHRES_WORD_MAX];      /* "header", "smtp", "policy" */
	char property[AUTHRES_WORD_MAX];   /* "from", "mailfrom", "d" */
	char value[AUTHRES_VALUE_MAX];     /* unquoted */
} authres_prop;

typedef struct {
	char method[AUTHRES_WORD_MAX];     /* lowercased: "dmarc" */
	char result[AUTHRES_WORD_MAX];     /* lowercased: "pass" */
	authres_prop props[AUTHRES_PROPS_MAX];
	int n_props;
} authres_result;

typedef struct {
	char authserv_id[AUTHRES_ID_MAX];  /* as written (unquoted) */
	int version;                       /* 1 when not written */
	authres_result results[AUTHRES_RESULTS_MAX];
	int n_results;
	int skipped;                       /* resinfos not read (malformed
	                                    * or past the bound) */
} authres;

/* Reads the n bytes at s (a header field's value, folded or not) into
 * *a.  Returns 0, or -1 if it does not begin with an authserv-id (then
 * nothing of it is to be believed). */
int authres_parse(const char *s, size_t n, authres *a);

/* The value of result r's property ptype.property ("header", "from"),
 * or NULL. */
const char *authres_prop_value(const authres_result *r, const char *ptype,
                               const char *property);

#endif
