/*
 * vapid.c - the server's VAPID key and signature (webpush.h, RFC 8292):
 * a JWT {"typ":"JWT","alg":"ES256"} . {"aud","exp","sub"} signed with
 * ECDSA P-256 / SHA-256, the signature as JWS wants it (r and s, 32
 * bytes each), not as DER.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <openssl/core_names.h>
#include <openssl/ecdsa.h>
#include <openssl/evp.h>
#include <openssl/pem.h>

#include "webpush.h"

enum { ORIGIN_MAX = 300, CLAIMS_MAX = 640, SIG_DER_MAX = 80 };

struct webpush_vapid {
	EVP_PKEY *key;
};

/* 1 if key is a P-256 key with its private half. */
static int p256_pair(EVP_PKEY *key)
{
	char group[32];
	BIGNUM *d = NULL;
	int ok;

	ok = key && EVP_PKEY_is_a(key, "EC") &&
	     EVP_PKEY_get_utf8_string_param(key, OSSL_PKEY_PARAM_GROUP_NAME,
	                                    group, sizeof group, NULL) &&
	     strcmp(group, "prime256v1") == 0 &&
	     EVP_PKEY_get_bn_param(key, OSSL_PKEY_PARAM_PRIV_KEY, &d);
	BN_clear_free(d);
	return ok;
}

/* Writes a new key to path, which must not exist; -1 with errno. */
static int make_key(const char *path)
{
	EVP_PKEY *key = EVP_PKEY_Q_keygen(NULL, NULL, "EC", "P-256");
	int fd = key ? open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW,
	                    0600) : -1;
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
	int rc = -1;

	if (f && PEM_write_PrivateKey(f, key, NULL, NULL, 0, NULL, NULL) == 1
	    && fflush(f) == 0 && fsync(fd) == 0)
		rc = 0;
	if (f)
		rc = fclose(f) == 0 ? rc : -1;
	else if (fd >= 0)
		close(fd);
	if (rc && fd >= 0)
		unlink(path);
	EVP_PKEY_free(key);
	if (rc && !errno)
		errno = EIO;
	return rc;
}

webpush_vapid *webpush_vapid_load(const char *path, char *why, size_t cap)
{
	webpush_vapid *v = NULL;
	struct stat st;
	EVP_PKEY *key = NULL;
	FILE *f;
	int fd;

	if (lstat(path, &st) != 0 && errno == ENOENT && make_key(path) != 0) {
		snprintf(why, cap, "%s: cannot make the VAPID key: %s", path,
		         strerror(errno));
		return NULL;
	}
	if ((fd = open(path, O_RDONLY | O_NOFOLLOW)) < 0 ||
	    fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		snprintf(why, cap, "%s: cannot read the VAPID key: %s", path,
		         fd < 0 ? strerror(errno) : "not a regular file");
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	if (st.st_mode & 077) {
		snprintf(why, cap, "%s: the VAPID key is readable by others "
		         "(chmod 600 %s)", path, path);
		close(fd);
		return NULL;
	}
	if ((f = fdopen(fd, "r")) == NULL) {
		close(fd);
		snprintf(why, cap, "%s: %s", path, strerror(errno));
		return NULL;
	}
	key = PEM_read_PrivateKey(f, NULL, NULL, NULL);
	fclose(f);
	if (!p256_pair(key) || !(v = OPENSSL_zalloc(sizeof *v))) {
		snprintf(why, cap, "%s: no P-256 private key in PEM (make one "
		         "with: openssl ecparam -name prime256v1 -genkey)", path);
		EVP_PKEY_free(key);
		return NULL;
	}
	v->key = key;
	return v;
}

void webpush_vapid_free(webpush_vapid *v)
{
	if (!v)
		return;
	EVP_PKEY_free(v->key);
	OPENSSL_free(v);
}

int webpush_vapid_public(const webpush_vapid *v, char *out, size_t cap)
{
	unsigned char point[WEBPUSH_POINT];
	size_t n = 0;

	if (!v || !EVP_PKEY_get_octet_string_param(v->key,
	    OSSL_PKEY_PARAM_PUB_KEY, point, sizeof point, &n) ||
	    n != WEBPUSH_POINT)
		return -1;
	return webpush_b64(point, n, out, cap);
}

/* The origin of an http(s) URL: "scheme://host[:port]", nothing after. */
static int origin_of(const char *url, char *out, size_t cap)
{
	const char *host;
	size_t n;

	if (strncmp(url, "https://", 8) == 0)
		host = url + 8;
	else if (strncmp(url, "http://", 7) == 0)
		host = url + 7;
	else
		return -1;
	n = (size_t)(host - url) + strcspn(host, "/?#");
	if (host[0] == '\0' || host[0] == '/' || n >= cap ||
	    strcspn(url, "\"\\ \t\r\n") < n)
		return -1;
	memcpy(out, url, n);
	out[n] = '\0';
	return 0;
}

/* The ES256 signature of the n bytes of in, as r || s, base64url. */
static int sign(EVP_PKEY *key, const char *in, size_t n, char *out,
                size_t cap)
{
	EVP_MD_CTX *md = EVP_MD_CTX_new();
	unsigned char der[SIG_DER_MAX], raw[2 * WEBPUSH_SCALAR];
	const unsigned char *p = der;
	size_t len = sizeof der;
	ECDSA_SIG *sig = NULL;
	const BIGNUM *r, *s;
	int rc = -1;

	if (md && EVP_DigestSignInit(md, NULL, EVP_sha256(), NULL, key) == 1 &&
	    EVP_DigestSign(md, der, &len, (const unsigned char *)in, n) == 1 &&
	    (sig = d2i_ECDSA_SIG(NULL, &p, (long)len)) != NULL) {
		ECDSA_SIG_get0(sig, &r, &s);
		if (BN_bn2binpad(r, raw, WEBPUSH_SCALAR) == WEBPUSH_SCALAR &&
		    BN_bn2binpad(s, raw + WEBPUSH_SCALAR, WEBPUSH_SCALAR) ==
		    WEBPUSH_SCALAR)
			rc = webpush_b64(raw, sizeof raw, out, cap);
	}
	ECDSA_SIG_free(sig);
	EVP_MD_CTX_free(md);
	return rc;
}

int webpush_vapid_header(const webpush_vapid *v, const char *endpoint,
                         int64_t expires, const char *contact, char *out,
                         size_t cap)
{
	static const char head[] = "{\"typ\":\"JWT\",\"alg\":\"ES256\"}";
	char origin[ORIGIN_MAX], claims[CLAIMS_MAX], jwt[WEBPUSH_JWT_MAX];
	char b64[2 * CLAIMS_MAX], key[WEBPUSH_KEY_TEXT];
	size_t n;
	int w;

	if (!v || !endpoint || !contact || origin_of(endpoint, origin,
	    sizeof origin) || strcspn(contact, "\"\\") != strlen(contact))
		return -1;
	w = snprintf(claims, sizeof claims, "{\"aud\":\"%s\",\"exp\":%lld,"
	             "\"sub\":\"%s\"}", origin, (long long)expires, contact);
	if (w < 0 || (size_t)w >= sizeof claims ||
	    webpush_b64((const unsigned char *)head, sizeof head - 1, jwt,
	                sizeof jwt) ||
	    webpush_b64((const unsigned char *)claims, (size_t)w, b64,
	                sizeof b64))
		return -1;
	n = strlen(jwt);
	w = snprintf(jwt + n, sizeof jwt - n, ".%s", b64);
	if (w < 0 || (size_t)w >= sizeof jwt - n)
		return -1;
	n += (size_t)w;
	if (sign(v->key, jwt, n, b64, sizeof b64) ||
	    webpush_vapid_public(v, key, sizeof key))
		return -1;
	w = snprintf(out, cap, "vapid t=%s.%s, k=%s", jwt, b64, key);
	return w < 0 || (size_t)w >= cap ? -1 : 0;
}
