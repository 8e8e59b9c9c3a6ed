/*
 * compose_signin.h - the email of "Email me my games"
 * (mail/compose_signin.c): a sign-in link for an address, which gives the
 * browser that opens it every seat of that address (store_signin.h).
 */
#ifndef BT_COMPOSE_SIGNIN_H
#define BT_COMPOSE_SIGNIN_H

#include "compose.h"

/* The link of secret: BASE signin?k=SECRET into url; 0, or -1. */
int compose_signin_url(const compose_ctx *c, const char *secret, char *url,
                       size_t cap);

/* The email to address with the link of secret (a store_signin_mail_fn,
 * ctx a compose_ctx): 1, or -1 if it could not be composed. */
int compose_signin(void *ctx, const char *address, const char *secret,
                   int64_t expires, store_mail *out);

#endif
