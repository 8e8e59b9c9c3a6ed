/*
 * webpush.h - the cryptography of Web Push, for the notifications a seat
 * may turn on beside its email: a message encrypted for one browser's
 * subscription (RFC 8291, on RFC 8188's aes128gcm coding) and the
 * server's VAPID signature that push services ask for (RFC 8292).  All
 * P-256 arithmetic is Debian's OpenSSL (libsodium has no P-256).  Pure
 * functions and one key file: no store, no network.
 */
#ifndef BT_WEBPUSH_H
#define BT_WEBPUSH_H

#include <stddef.h>
#include <stdint.h>

enum {
	WEBPUSH_POINT = 65,          /* an uncompressed P-256 public key */
	WEBPUSH_SCALAR = 32,         /* a P-256 private key */
	WEBPUSH_AUTH = 16,           /* a subscription's auth secret */
	WEBPUSH_SALT = 16,
	WEBPUSH_HEADER = WEBPUSH_SALT + 4 + 1 + WEBPUSH_POINT,   /* 86 */
	WEBPUSH_TAG = 16,
	/* one record holds it all: push services take 4096 bytes of body */
	WEBPUSH_RECORD = 4096,
	WEBPUSH_PLAIN_MAX = WEBPUSH_RECORD - WEBPUSH_HEADER - WEBPUSH_TAG - 1,
	WEBPUSH_BODY_MAX = WEBPUSH_RECORD,
	WEBPUSH_JWT_MAX = 1024,      /* an Authorization header's token */
	WEBPUSH_KEY_TEXT = 88        /* base64url of a public key, with NUL */
};

/* The sender's side of one message: its ephemeral key pair and salt.
 * webpush_encrypt makes new ones; a test gives RFC 8291's. */
typedef struct webpush_sender {
	unsigned char private_key[WEBPUSH_SCALAR];
	unsigned char public_key[WEBPUSH_POINT];
	unsigned char salt[WEBPUSH_SALT];
} webpush_sender;

/*
 * Encrypts plain (n bytes, at most WEBPUSH_PLAIN_MAX) for the browser
 * whose subscription gave ua_public and auth, as one aes128gcm record
 * of record size 4096: the body to POST, header and all, into out (cap
 * bytes, WEBPUSH_BODY_MAX is enough).  sender NULL: a fresh key pair and
 * salt.  Returns the body's length, or -1 (a key that is no P-256 point,
 * too long a message, out too small).
 */
long webpush_encrypt(const unsigned char ua_public[WEBPUSH_POINT],
                     const unsigned char auth[WEBPUSH_AUTH],
                     const unsigned char *plain, size_t n,
                     const webpush_sender *sender, unsigned char *out,
                     size_t cap);

/* The server's VAPID key (a P-256 key pair). */
typedef struct webpush_vapid webpush_vapid;

/*
 * Loads the VAPID key from path (PEM, as `openssl ecparam -name
 * prime256v1 -genkey` writes it), or makes one there (mode 0600) if no
 * file is: a server's key is made once, like its link key.  A file that
 * others may read, or that holds no P-256 key, is refused.  NULL on
 * error, with why (cap bytes).
 */
webpush_vapid *webpush_vapid_load(const char *path, char *why, size_t cap);
void webpush_vapid_free(webpush_vapid *v);

/* The public key in base64url (the browser's applicationServerKey and
 * the k= of the header) into out (WEBPUSH_KEY_TEXT bytes); 0 or -1. */
int webpush_vapid_public(const webpush_vapid *v, char *out, size_t cap);

/*
 * The Authorization header's value for a push to endpoint's origin
 * (scheme://host[:port]): "vapid t=JWT, k=KEY", the JWT's claims aud
 * (that origin), exp (expires, unix seconds; push services take at most
 * 24 hours ahead) and sub (contact, a mailto: or https: URL), signed
 * ES256.  0, or -1 (an endpoint without an origin, out too small).
 */
int webpush_vapid_header(const webpush_vapid *v, const char *endpoint,
                         int64_t expires, const char *contact, char *out,
                         size_t cap);

/* base64url without padding of n bytes into out (cap bytes); -1 if it
 * does not fit.  And back: the bytes' count, or -1. */
int webpush_b64(const unsigned char *in, size_t n, char *out, size_t cap);
long webpush_unb64(const char *in, unsigned char *out, size_t cap);

#endif
