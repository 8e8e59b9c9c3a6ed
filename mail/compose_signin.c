/*
 * compose_signin.c - the sign-in email (compose_signin.h).  It names no
 * game and no seat: the link is the whole of it, with what it does, for
 * how long, and what to do if nobody here asked for it.
 */
#include <stdio.h>
#include <string.h>

#include "compose_signin.h"
#include "query.h"
#include "store_signin.h"

enum { SIGNIN_URL_MAX = 512, BLOCK_MAX = 512 + 3 * STORE_EMAIL_MAX };

int compose_signin_url(const compose_ctx *c, const char *secret, char *url,
                       size_t cap)
{
	/* the secret is base64url: nothing in it needs escaping */
	int n = snprintf(url, cap, "%ssignin?" QUERY_KEY "=%s", c->base_url,
	                 secret);

	return n < 0 || (size_t)n >= cap ? -1 : 0;
}

int compose_signin(void *ctx, const char *address, const char *secret,
                   int64_t expires, store_mail *out)
{
	const compose_ctx *c = ctx;
	char url[SIGNIN_URL_MAX], block[BLOCK_MAX];
	int n;

	(void)expires;      /* a day from now: the words say so */
	memset(out, 0, sizeof *out);
	if (!c || compose_signin_url(c, secret, url, sizeof url))
		return -1;
	snprintf(out->kind, sizeof out->kind, "signin");
	snprintf(out->to, sizeof out->to, "%s", address);
	snprintf(out->subject, sizeof out->subject,
	         "Buffer Time: your games on another device");
	if (compose_block_url(c, address, block, sizeof block) != 0 ||
	    strlen(block) > 990)
		block[0] = '\0';
	n = snprintf(out->body, sizeof out->body,
	    "Hello,\n\n"
	    "Someone, we hope you, asked for the games of this address on\n"
	    "Buffer Time. Open this link in the browser you want to play in\n"
	    "(your phone's, say), and press the button there:\n\n%s\n\n"
	    "That browser then lists every game this address plays in, new\n"
	    "ones too, and opens your seat in each. The link works for one\n"
	    "day, once in each browser, in %d browsers at most.\n\n"
	    "Did not ask for it? Then do nothing: nothing changes, and\n"
	    "nobody sees your games. A browser signed in with this link can be\n"
	    "signed out from the settings page of any of your seats.\n"
	    "%s%s%s",
	    url, STORE_SIGNIN_LINK_BROWSERS,
	    block[0] ? "\n-- \nNever email me from this server again:\n" : "",
	    block, block[0] ? "\n" : "");
	return n < 0 || (size_t)n >= sizeof out->body ? -1 : 1;
}
