/*
 * client.h - who is asking, for the limits: the client's address as
 * nginx passes it (REMOTE_ADDR, which nginx's realip module may have set
 * from a trusted proxy's header; the program itself never believes an
 * X-Forwarded-For a stranger can write).
 */
#ifndef BT_CLIENT_H
#define BT_CLIENT_H

#include <stddef.h>

enum { CLIENT_KEY_MAX = 64 };   /* bytes of a key, with its NUL */

/*
 * Writes the limits' key of remote_addr (may be NULL) into key: an IPv4
 * address as it is; an IPv6 address as its /64 network ("2001:db8:1:2::/64"),
 * since one home or phone is handed a whole /64; "unknown" for anything
 * else, so clients without an address share one allowance.
 */
void client_key(const char *remote_addr, char key[CLIENT_KEY_MAX]);

#endif
