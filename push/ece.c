/*
 * ece.c - a Web Push message's encryption (webpush.h): RFC 8291's keys
 * from an ECDH between a fresh sender key and the browser's, mixed with
 * the subscription's auth secret, then one aes128gcm record (RFC 8188):
 * the message, the last record's delimiter 0x02, no padding.
 *
 *   ecdh  = ECDH(sender private, browser public)
 *   ikm   = HKDF(salt = auth, ecdh, "WebPush: info\0" ua_pub as_pub, 32)
 *   cek   = HKDF(salt, ikm, "Content-Encoding: aes128gcm\0", 16)
 *   nonce = HKDF(salt, ikm, "Content-Encoding: nonce\0", 12)
 *
 * Each HKDF here needs one block of its output, so it is two HMACs
 * (extract, then expand with the counter 1).
 */
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/params.h>
#include <openssl/rand.h>
#include <sodium.h>

#include "webpush.h"

enum { SHA256 = 32, CEK = 16, NONCE = 12, INFO_MAX = 160 };

int webpush_b64(const unsigned char *in, size_t n, char *out, size_t cap)
{
	size_t need = sodium_base64_ENCODED_LEN(n,
	              sodium_base64_VARIANT_URLSAFE_NO_PADDING);

	if (need > cap)
		return -1;
	sodium_bin2base64(out, cap, in, n,
	                  sodium_base64_VARIANT_URLSAFE_NO_PADDING);
	return 0;
}

long webpush_unb64(const char *in, unsigned char *out, size_t cap)
{
	size_t n;

	if (!in || sodium_base642bin(out, cap, in, strlen(in), NULL, &n, NULL,
	                             sodium_base64_VARIANT_URLSAFE_NO_PADDING))
		return -1;
	return (long)n;
}

/* HKDF-SHA-256 for one block: the first len bytes of
 * HMAC(HMAC(salt, ikm), info || 0x01). */
static int hkdf(const unsigned char *salt, size_t salt_n,
                const unsigned char *ikm, size_t ikm_n,
                const unsigned char *info, size_t info_n,
                unsigned char *out, size_t len)
{
	unsigned char prk[SHA256], block[INFO_MAX + 1], okm[SHA256];
	unsigned int n = 0;

	if (info_n > INFO_MAX || len > SHA256 ||
	    !HMAC(EVP_sha256(), salt, (int)salt_n, ikm, ikm_n, prk, &n))
		return -1;
	memcpy(block, info, info_n);
	block[info_n] = 1;
	if (!HMAC(EVP_sha256(), prk, sizeof prk, block, info_n + 1, okm, &n))
		return -1;
	memcpy(out, okm, len);
	OPENSSL_cleanse(prk, sizeof prk);
	OPENSSL_cleanse(okm, sizeof okm);
	return 0;
}

/* A P-256 key from its public point, and its private scalar if priv is
 * not NULL; NULL if they are no key. */
static EVP_PKEY *p256_key(const unsigned char pub[WEBPUSH_POINT],
                          const unsigned char *priv)
{
	EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_name(NULL, "EC", NULL);
	OSSL_PARAM params[4];
	BIGNUM *d = NULL;
	unsigned char d_native[WEBPUSH_SCALAR];
	EVP_PKEY *key = NULL;
	int i = 0;

	if (!ctx || EVP_PKEY_fromdata_init(ctx) <= 0)
		goto done;
	params[i++] = OSSL_PARAM_construct_utf8_string(
		OSSL_PKEY_PARAM_GROUP_NAME, (char *)"prime256v1", 0);
	params[i++] = OSSL_PARAM_construct_octet_string(
		OSSL_PKEY_PARAM_PUB_KEY, (void *)pub, WEBPUSH_POINT);
	if (priv) {
		/* OSSL_PARAM BIGNUMs are native-endian byte strings */
		if (!(d = BN_bin2bn(priv, WEBPUSH_SCALAR, NULL)) ||
		    BN_bn2nativepad(d, d_native, sizeof d_native) < 0)
			goto done;
		params[i++] = OSSL_PARAM_construct_BN(OSSL_PKEY_PARAM_PRIV_KEY,
		                                      d_native, sizeof d_native);
	}
	params[i] = OSSL_PARAM_construct_end();
	if (EVP_PKEY_fromdata(ctx, &key, priv ? EVP_PKEY_KEYPAIR
	                      : EVP_PKEY_PUBLIC_KEY, params) <= 0)
		key = NULL;
done:
	BN_clear_free(d);
	OPENSSL_cleanse(d_native, sizeof d_native);
	EVP_PKEY_CTX_free(ctx);
	return key;
}

/* A fresh sender: key pair and salt. */
static int new_sender(webpush_sender *s)
{
	EVP_PKEY *key = EVP_PKEY_Q_keygen(NULL, NULL, "EC", "P-256");
	BIGNUM *d = NULL;
	size_t n = 0;
	int rc = -1;

	if (key &&
	    EVP_PKEY_get_octet_string_param(key, OSSL_PKEY_PARAM_PUB_KEY,
	                                    s->public_key, WEBPUSH_POINT, &n)
	    && n == WEBPUSH_POINT &&
	    EVP_PKEY_get_bn_param(key, OSSL_PKEY_PARAM_PRIV_KEY, &d) &&
	    BN_bn2binpad(d, s->private_key, WEBPUSH_SCALAR) == WEBPUSH_SCALAR &&
	    RAND_bytes(s->salt, WEBPUSH_SALT) == 1)
		rc = 0;
	BN_clear_free(d);
	EVP_PKEY_free(key);
	return rc;
}

/* The shared secret of the sender and the browser into secret. */
static int ecdh(const webpush_sender *s,
                const unsigned char ua_public[WEBPUSH_POINT],
                unsigned char secret[SHA256])
{
	EVP_PKEY *mine = p256_key(s->public_key, s->private_key);
	EVP_PKEY *theirs = p256_key(ua_public, NULL);
	EVP_PKEY_CTX *ctx = mine ? EVP_PKEY_CTX_new(mine, NULL) : NULL;
	size_t n = SHA256;
	int rc = -1;

	if (ctx && theirs && EVP_PKEY_derive_init(ctx) > 0 &&
	    EVP_PKEY_derive_set_peer(ctx, theirs) > 0 &&
	    EVP_PKEY_derive(ctx, secret, &n) > 0 && n == SHA256)
		rc = 0;
	EVP_PKEY_CTX_free(ctx);
	EVP_PKEY_free(theirs);
	EVP_PKEY_free(mine);
	return rc;
}

/* The content key and nonce of the message from s to the browser. */
static int keys(const webpush_sender *s,
                const unsigned char ua_public[WEBPUSH_POINT],
                const unsigned char auth[WEBPUSH_AUTH],
                unsigned char cek[CEK], unsigned char nonce[NONCE])
{
	static const char info[] = "WebPush: info";
	static const char cek_info[] = "Content-Encoding: aes128gcm";
	static const char nonce_info[] = "Content-Encoding: nonce";
	unsigned char secret[SHA256], ikm[SHA256];
	unsigned char key_info[sizeof info + 2 * WEBPUSH_POINT];
	int rc;

	memcpy(key_info, info, sizeof info);        /* with its NUL */
	memcpy(key_info + sizeof info, ua_public, WEBPUSH_POINT);
	memcpy(key_info + sizeof info + WEBPUSH_POINT, s->public_key,
	       WEBPUSH_POINT);
	rc = ecdh(s, ua_public, secret) ||
	     hkdf(auth, WEBPUSH_AUTH, secret, sizeof secret, key_info,
	          sizeof key_info, ikm, sizeof ikm) ||
	     hkdf(s->salt, WEBPUSH_SALT, ikm, sizeof ikm,
	          (const unsigned char *)cek_info, sizeof cek_info, cek, CEK) ||
	     hkdf(s->salt, WEBPUSH_SALT, ikm, sizeof ikm,
	          (const unsigned char *)nonce_info, sizeof nonce_info, nonce,
	          NONCE) ? -1 : 0;
	OPENSSL_cleanse(secret, sizeof secret);
	OPENSSL_cleanse(ikm, sizeof ikm);
	return rc;
}

/* AES-128-GCM of in (n bytes) into out, its tag after it. */
static int seal(const unsigned char cek[CEK], const unsigned char nonce[NONCE],
                const unsigned char *in, size_t n, unsigned char *out)
{
	EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
	int len = 0, last = 0, rc = -1;

	if (ctx && EVP_EncryptInit_ex(ctx, EVP_aes_128_gcm(), NULL, cek,
	                              nonce) == 1 &&
	    EVP_EncryptUpdate(ctx, out, &len, in, (int)n) == 1 &&
	    EVP_EncryptFinal_ex(ctx, out + len, &last) == 1 &&
	    (size_t)(len + last) == n &&
	    EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_GET_TAG, WEBPUSH_TAG,
	                        out + n) == 1)
		rc = 0;
	EVP_CIPHER_CTX_free(ctx);
	return rc;
}

long webpush_encrypt(const unsigned char ua_public[WEBPUSH_POINT],
                     const unsigned char auth[WEBPUSH_AUTH],
                     const unsigned char *plain, size_t n,
                     const webpush_sender *sender, unsigned char *out,
                     size_t cap)
{
	static unsigned char record[WEBPUSH_RECORD];
	unsigned char cek[CEK], nonce[NONCE];
	webpush_sender fresh;
	size_t body = WEBPUSH_HEADER + n + 1 + WEBPUSH_TAG;
	long rc = -1;

	if (n > WEBPUSH_PLAIN_MAX || body > cap || (n && !plain))
		return -1;
	if (!sender) {
		if (new_sender(&fresh))
			return -1;
		sender = &fresh;
	}
	if (keys(sender, ua_public, auth, cek, nonce) == 0) {
		memcpy(record, plain, n);
		record[n] = 2;          /* the last record, no padding */
		memcpy(out, sender->salt, WEBPUSH_SALT);
		out[16] = 0; out[17] = 0; out[18] = WEBPUSH_RECORD >> 8;
		out[19] = WEBPUSH_RECORD & 0xff;
		out[20] = WEBPUSH_POINT;
		memcpy(out + 21, sender->public_key, WEBPUSH_POINT);
		if (seal(cek, nonce, record, n + 1, out + WEBPUSH_HEADER) == 0)
			rc = (long)body;
	}
	OPENSSL_cleanse(record, n + 1);
	OPENSSL_cleanse(cek, sizeof cek);
	OPENSSL_cleanse(&fresh, sizeof fresh);
	return rc;
}
