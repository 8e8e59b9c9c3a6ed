/*
 * pushdrive.c - what tests/webpush.sh hands to an independent Web Push
 * implementation: one message encrypted with push/ for a browser's key
 * and auth secret, and the VAPID header for an endpoint.
 *
 *   pushdrive KEYFILE UA_PUBLIC AUTH ENDPOINT EXPIRES MESSAGE
 *
 * UA_PUBLIC and AUTH in base64url.  Prints two lines: the body in
 * base64url, then the Authorization header's value.  Exit 1 on error.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "webpush.h"

int main(int argc, char **argv)
{
	static unsigned char body[WEBPUSH_BODY_MAX];
	static char text[2 * WEBPUSH_BODY_MAX], header[WEBPUSH_JWT_MAX + 200];
	unsigned char ua[WEBPUSH_POINT], auth[WEBPUSH_AUTH];
	char why[256];
	webpush_vapid *v;
	long n;

	if (argc != 7) {
		fprintf(stderr, "usage: pushdrive KEYFILE UA_PUBLIC AUTH "
		        "ENDPOINT EXPIRES MESSAGE\n");
		return 2;
	}
	if (webpush_unb64(argv[2], ua, sizeof ua) != WEBPUSH_POINT ||
	    webpush_unb64(argv[3], auth, sizeof auth) != WEBPUSH_AUTH) {
		fprintf(stderr, "pushdrive: a key of the wrong size\n");
		return 1;
	}
	if (!(v = webpush_vapid_load(argv[1], why, sizeof why))) {
		fprintf(stderr, "pushdrive: %s\n", why);
		return 1;
	}
	n = webpush_encrypt(ua, auth, (const unsigned char *)argv[6],
	                    strlen(argv[6]), NULL, body, sizeof body);
	if (n < 0 || webpush_b64(body, (size_t)n, text, sizeof text) ||
	    webpush_vapid_header(v, argv[4], strtoll(argv[5], NULL, 10),
	                         "mailto:admin@example.org", header,
	                         sizeof header)) {
		fprintf(stderr, "pushdrive: cannot encrypt or sign\n");
		webpush_vapid_free(v);
		return 1;
	}
	printf("%s\n%s\n", text, header);
	webpush_vapid_free(v);
	return 0;
}
