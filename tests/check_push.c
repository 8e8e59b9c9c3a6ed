/*
 * check_push.c - Web Push's cryptography (push/webpush.h): RFC 8291's
 * Appendix A example reproduced byte for byte; fresh keys and salts each
 * message, the header they go in, what is refused; the VAPID key made
 * once (mode 0600), loaded again the same, refused when others may read
 * it or when it holds no P-256 key; its header's JWT with the claims it
 * names and an ES256 signature (r || s) that its own k= verifies.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <check.h>
#include <openssl/core_names.h>
#include <openssl/ecdsa.h>
#include <openssl/evp.h>
#include <openssl/params.h>

#include "webpush.h"

/* RFC 8291, Appendix A. */
static const char rfc_plain[] = "When I grow up, I want to be a watermelon";
static const char rfc_as_private[] =
	"yfWPiYE-n46HLnH0KqZOF1fJJU3MYrct3AELtAQ-oRw";
static const char rfc_as_public[] =
	"BP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6Tlz"
	"AC8wEqKK6PBru3jl7A8";
static const char rfc_ua_public[] =
	"BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7V"
	"d8pZGH6SRpkNtoIAiw4";
static const char rfc_salt[] = "DGv6ra1nlYgDCS1FRnbzlw";
static const char rfc_auth[] = "BTBZMqHH6r4Tts7J_aSIgg";
static const char rfc_body[] =
	"DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27ml"
	"mlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A_yl95bQpu6cVPT"
	"pK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4a-fN";

static unsigned char ua_public[WEBPUSH_POINT], auth[WEBPUSH_AUTH];

static void unb64(const char *in, unsigned char *out, long want)
{
	ck_assert_int_eq(webpush_unb64(in, out, (size_t)want), want);
}

static void setup(void)
{
	unb64(rfc_ua_public, ua_public, WEBPUSH_POINT);
	unb64(rfc_auth, auth, WEBPUSH_AUTH);
}

START_TEST(test_rfc8291_example)
{
	webpush_sender s;
	unsigned char body[WEBPUSH_BODY_MAX];
	char text[2 * WEBPUSH_BODY_MAX];
	long n;

	unb64(rfc_as_private, s.private_key, WEBPUSH_SCALAR);
	unb64(rfc_as_public, s.public_key, WEBPUSH_POINT);
	unb64(rfc_salt, s.salt, WEBPUSH_SALT);
	n = webpush_encrypt(ua_public, auth, (const unsigned char *)rfc_plain,
	                    strlen(rfc_plain), &s, body, sizeof body);
	ck_assert_int_eq(n, WEBPUSH_HEADER + (long)strlen(rfc_plain) + 1 +
	                 WEBPUSH_TAG);
	ck_assert_int_eq(webpush_b64(body, (size_t)n, text, sizeof text), 0);
	ck_assert_str_eq(text, rfc_body);
}
END_TEST

START_TEST(test_fresh_keys_each_message)
{
	unsigned char a[WEBPUSH_BODY_MAX], b[WEBPUSH_BODY_MAX];
	const unsigned char msg[] = "Ben's turn";
	long na, nb;

	na = webpush_encrypt(ua_public, auth, msg, sizeof msg - 1, NULL, a,
	                     sizeof a);
	nb = webpush_encrypt(ua_public, auth, msg, sizeof msg - 1, NULL, b,
	                     sizeof b);
	ck_assert_int_eq(na, WEBPUSH_HEADER + (long)sizeof msg - 1 + 1 +
	                 WEBPUSH_TAG);
	ck_assert_int_eq(nb, na);
	/* the header: salt, record size 4096, a 65-byte key id: a point */
	ck_assert_int_eq(a[16] | a[17], 0);
	ck_assert_int_eq(a[18] << 8 | a[19], 4096);
	ck_assert_int_eq(a[20], WEBPUSH_POINT);
	ck_assert_int_eq(a[21], 0x04);
	ck_assert(memcmp(a, b, WEBPUSH_SALT) != 0);
	ck_assert(memcmp(a + 21, b + 21, WEBPUSH_POINT) != 0);
	ck_assert(memcmp(a + WEBPUSH_HEADER, b + WEBPUSH_HEADER,
	                 (size_t)na - WEBPUSH_HEADER) != 0);
}
END_TEST

START_TEST(test_refusals)
{
	static unsigned char big[WEBPUSH_PLAIN_MAX + 1];
	unsigned char out[WEBPUSH_BODY_MAX], bad[WEBPUSH_POINT];

	/* the most a record holds, and one byte more */
	ck_assert_int_eq(webpush_encrypt(ua_public, auth, big,
	                 WEBPUSH_PLAIN_MAX, NULL, out, sizeof out),
	                 WEBPUSH_BODY_MAX);
	ck_assert_int_eq(webpush_encrypt(ua_public, auth, big, sizeof big,
	                 NULL, out, sizeof out), -1);
	ck_assert_int_eq(webpush_encrypt(ua_public, auth, big, 10, NULL, out,
	                 WEBPUSH_HEADER + 10 + WEBPUSH_TAG), -1);
	/* a browser key that is not on the curve */
	memcpy(bad, ua_public, sizeof bad);
	bad[40] ^= 1;
	ck_assert_int_eq(webpush_encrypt(bad, auth, big, 10, NULL, out,
	                 sizeof out), -1);
	bad[0] = 0x02;
	ck_assert_int_eq(webpush_encrypt(bad, auth, big, 10, NULL, out,
	                 sizeof out), -1);
	ck_assert_int_eq(webpush_unb64("not base64!", out, sizeof out), -1);
}
END_TEST

/* ---- VAPID --------------------------------------------------------------- */

static char dir[64], key_path[96];

static void vapid_setup(void)
{
	snprintf(dir, sizeof dir, "/tmp/bt-push.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(key_path, sizeof key_path, "%s/vapid.pem", dir);
}

static void vapid_teardown(void)
{
	char cmd[128];

	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	ck_assert_int_eq(system(cmd), 0);
}

static webpush_vapid *load_ok(void)
{
	char why[256] = "";
	webpush_vapid *v = webpush_vapid_load(key_path, why, sizeof why);

	ck_assert_msg(v != NULL, "%s", why);
	return v;
}

START_TEST(test_vapid_key_made_once)
{
	char a[WEBPUSH_KEY_TEXT], b[WEBPUSH_KEY_TEXT], why[256];
	unsigned char point[WEBPUSH_POINT];
	struct stat st;
	webpush_vapid *v = load_ok(), *w;
	FILE *f;

	ck_assert_int_eq(stat(key_path, &st), 0);
	ck_assert_int_eq(st.st_mode & 0777, 0600);
	ck_assert_int_eq(webpush_vapid_public(v, a, sizeof a), 0);
	ck_assert_int_eq(webpush_unb64(a, point, sizeof point), WEBPUSH_POINT);
	ck_assert_int_eq(point[0], 0x04);
	w = load_ok();
	ck_assert_int_eq(webpush_vapid_public(w, b, sizeof b), 0);
	ck_assert_str_eq(a, b);
	webpush_vapid_free(w);
	webpush_vapid_free(v);
	/* readable by others: refused, saying how to mend it */
	ck_assert_int_eq(chmod(key_path, 0644), 0);
	ck_assert_ptr_null(webpush_vapid_load(key_path, why, sizeof why));
	ck_assert_ptr_nonnull(strstr(why, "chmod 600"));
	/* no key in it */
	ck_assert_int_eq(unlink(key_path), 0);
	ck_assert_ptr_nonnull(f = fopen(key_path, "w"));
	fputs("not a key\n", f);
	fclose(f);
	ck_assert_int_eq(chmod(key_path, 0600), 0);
	ck_assert_ptr_null(webpush_vapid_load(key_path, why, sizeof why));
	ck_assert_ptr_nonnull(strstr(why, "P-256"));
}
END_TEST

/* Verifies the ES256 signature sig64 (r || s) of the n bytes of in with
 * the public point key. */
static int es256_ok(const unsigned char key[WEBPUSH_POINT], const char *in,
                    size_t n, const unsigned char sig64[64])
{
	EVP_PKEY_CTX *kc = EVP_PKEY_CTX_new_from_name(NULL, "EC", NULL);
	OSSL_PARAM params[] = {
		OSSL_PARAM_construct_utf8_string(OSSL_PKEY_PARAM_GROUP_NAME,
		                                 (char *)"prime256v1", 0),
		OSSL_PARAM_construct_octet_string(OSSL_PKEY_PARAM_PUB_KEY,
		                                  (void *)key, WEBPUSH_POINT),
		OSSL_PARAM_construct_end(),
	};
	EVP_PKEY *pk = NULL;
	EVP_MD_CTX *md = EVP_MD_CTX_new();
	ECDSA_SIG *sig = ECDSA_SIG_new();
	unsigned char *der = NULL;
	int len, ok = 0;

	ck_assert(EVP_PKEY_fromdata_init(kc) > 0);
	ck_assert(EVP_PKEY_fromdata(kc, &pk, EVP_PKEY_PUBLIC_KEY, params) > 0);
	ck_assert(ECDSA_SIG_set0(sig, BN_bin2bn(sig64, 32, NULL),
	                         BN_bin2bn(sig64 + 32, 32, NULL)) == 1);
	len = i2d_ECDSA_SIG(sig, &der);
	ok = EVP_DigestVerifyInit(md, NULL, EVP_sha256(), NULL, pk) == 1 &&
	     EVP_DigestVerify(md, der, (size_t)len, (const unsigned char *)in,
	                      n) == 1;
	OPENSSL_free(der);
	ECDSA_SIG_free(sig);
	EVP_MD_CTX_free(md);
	EVP_PKEY_free(pk);
	EVP_PKEY_CTX_free(kc);
	return ok;
}

START_TEST(test_vapid_header)
{
	webpush_vapid *v = load_ok();
	char h[WEBPUSH_JWT_MAX + 200], key[WEBPUSH_KEY_TEXT], json[512];
	unsigned char point[WEBPUSH_POINT], sig[64];
	char *t, *k, *dot1, *dot2;
	long n;

	ck_assert_int_eq(webpush_vapid_header(v, "https://push.example.net:8443"
	                 "/wpush/v2/abc?x=1", 1800000000, "mailto:admin@"
	                 "example.org", h, sizeof h), 0);
	ck_assert_int_eq(strncmp(h, "vapid t=", 8), 0);
	ck_assert_ptr_nonnull(k = strstr(h, ", k="));
	ck_assert_int_eq(webpush_vapid_public(v, key, sizeof key), 0);
	ck_assert_str_eq(k + 4, key);
	*k = '\0';
	t = h + 8;
	ck_assert_ptr_nonnull(dot1 = strchr(t, '.'));
	ck_assert_ptr_nonnull(dot2 = strchr(dot1 + 1, '.'));
	ck_assert_ptr_null(strchr(dot2 + 1, '.'));
	*dot1 = '\0';
	n = webpush_unb64(t, (unsigned char *)json, sizeof json - 1);
	ck_assert_int_gt(n, 0);
	json[n] = '\0';
	ck_assert_str_eq(json, "{\"typ\":\"JWT\",\"alg\":\"ES256\"}");
	*dot2 = '\0';
	n = webpush_unb64(dot1 + 1, (unsigned char *)json, sizeof json - 1);
	ck_assert_int_gt(n, 0);
	json[n] = '\0';
	ck_assert_str_eq(json, "{\"aud\":\"https://push.example.net:8443\","
	                 "\"exp\":1800000000,\"sub\":\"mailto:admin@example.org\"}");
	ck_assert_int_eq(webpush_unb64(dot2 + 1, sig, sizeof sig), 64);
	ck_assert_int_eq(webpush_unb64(key, point, sizeof point),
	                 WEBPUSH_POINT);
	*dot1 = '.';
	ck_assert(es256_ok(point, t, strlen(t), sig));
	sig[5] ^= 1;
	ck_assert(!es256_ok(point, t, strlen(t), sig));
	/* no origin, or a claim that would break the JSON */
	ck_assert_int_eq(webpush_vapid_header(v, "ftp://x/y", 1, "mailto:a@b",
	                 h, sizeof h), -1);
	ck_assert_int_eq(webpush_vapid_header(v, "https:///y", 1, "mailto:a@b",
	                 h, sizeof h), -1);
	ck_assert_int_eq(webpush_vapid_header(v, "https://x\"y/", 1,
	                 "mailto:a@b", h, sizeof h), -1);
	ck_assert_int_eq(webpush_vapid_header(v, "https://x/", 1,
	                 "mailto:\"a@b", h, sizeof h), -1);
	ck_assert_int_eq(webpush_vapid_header(v, "https://x/", 1, "mailto:a@b",
	                 h, 40), -1);
	webpush_vapid_free(v);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("push");
	TCase *tc = tcase_create("encryption");
	TCase *tv = tcase_create("vapid");
	SRunner *r;
	int failed;

	tcase_add_checked_fixture(tc, setup, NULL);
	tcase_add_test(tc, test_rfc8291_example);
	tcase_add_test(tc, test_fresh_keys_each_message);
	tcase_add_test(tc, test_refusals);
	suite_add_tcase(s, tc);
	tcase_add_checked_fixture(tv, vapid_setup, vapid_teardown);
	tcase_add_test(tv, test_vapid_key_made_once);
	tcase_add_test(tv, test_vapid_header);
	suite_add_tcase(s, tv);
	r = srunner_create(s);
	srunner_run_all(r, CK_NORMAL);
	failed = srunner_ntests_failed(r);
	srunner_free(r);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
