/*
 * client.c - the limits' key of a client address.
 */
#include <arpa/inet.h>
#include <stdio.h>
#include <string.h>

#include "client.h"

void client_key(const char *remote_addr, char key[CLIENT_KEY_MAX])
{
	unsigned char a6[16];
	struct in_addr a4;
	char text[INET6_ADDRSTRLEN];

	snprintf(key, CLIENT_KEY_MAX, "unknown");
	if (!remote_addr || strlen(remote_addr) >= sizeof text)
		return;
	if (inet_pton(AF_INET, remote_addr, &a4) == 1) {
		if (inet_ntop(AF_INET, &a4, text, sizeof text))
			snprintf(key, CLIENT_KEY_MAX, "%s", text);
		return;
	}
	if (inet_pton(AF_INET6, remote_addr, a6) != 1)
		return;
	if (memcmp(a6, "\0\0\0\0\0\0\0\0\0\0\xff\xff", 12) == 0) {
		/* an IPv4 client on an IPv6 socket (::ffff:a.b.c.d) */
		memcpy(&a4, a6 + 12, 4);
		if (inet_ntop(AF_INET, &a4, text, sizeof text))
			snprintf(key, CLIENT_KEY_MAX, "%s", text);
		return;
	}
	memset(a6 + 8, 0, 8);
	if (inet_ntop(AF_INET6, a6, text, sizeof text))
		snprintf(key, CLIENT_KEY_MAX, "%s/64", text);
}
