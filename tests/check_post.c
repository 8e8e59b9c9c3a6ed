/*
 * check_post.c - the guarded POST (net/post.h) against a real HTTP
 * server on loopback (a child process of the test, on real sockets):
 * what it sends (body, type, headers), the answer's status and start,
 * no redirect followed, a slow server given up at the timeout, an answer
 * that does not end cut off; loopback refused unless allowed, whatever
 * the name (127.0.0.1, localhost, [::1]) or the address's spelling; the
 * table of addresses that are not public; URLs and headers refused.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <check.h>

#include "post.h"

static int port, served;
static pid_t server;
static char dir[64], last[8192];

/* Reads one request (headers, then Content-Length bytes) into buf. */
static size_t read_request(int fd, char *buf, size_t cap)
{
	size_t n = 0, want = 0;
	char *end;

	while (n + 1 < cap) {
		ssize_t k = read(fd, buf + n, cap - 1 - n);
		if (k <= 0)
			break;
		n += (size_t)k;
		buf[n] = '\0';
		if (!(end = strstr(buf, "\r\n\r\n")))
			continue;
		char *cl = strstr(buf, "Content-Length:");
		want = (size_t)(end + 4 - buf) + (cl ? strtoul(cl + 15, NULL, 10)
		                                     : 0);
		if (n >= want)
			break;
	}
	buf[n] = '\0';
	return n;
}

static void answer(int fd, const char *req)
{
	static char big[10000];
	char head[256];

	if (strstr(req, "POST /slow ")) {
		sleep(3);
		dprintf(fd, "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n");
	} else if (strstr(req, "POST /gone ")) {
		dprintf(fd, "HTTP/1.1 410 Gone\r\nContent-Length: 0\r\n\r\n");
	} else if (strstr(req, "POST /redirect ")) {
		dprintf(fd, "HTTP/1.1 302 Found\r\nLocation: http://127.0.0.1:"
		        "%d/ok\r\nContent-Length: 0\r\n\r\n", port);
	} else if (strstr(req, "POST /big ")) {
		memset(big, 'x', sizeof big);
		snprintf(head, sizeof head, "HTTP/1.1 200 OK\r\nContent-Length:"
		         " %zu\r\n\r\n", sizeof big);
		if (write(fd, head, strlen(head)) < 0 ||
		    write(fd, big, sizeof big) < 0)
			return;
	} else {
		dprintf(fd, "HTTP/1.1 201 Created\r\nContent-Length: 2\r\n\r\n"
		        "ok");
	}
}

/* The server: each request written to DIR/req.N, then answered. */
static void serve(int ls)
{
	static char req[8192];
	char path[96];

	for (int i = 1;; i++) {
		int fd = accept(ls, NULL, NULL);
		if (fd < 0)
			continue;
		size_t n = read_request(fd, req, sizeof req);
		snprintf(path, sizeof path, "%s/req.%d", dir, i);
		FILE *f = fopen(path, "w");
		if (f) {
			fwrite(req, 1, n, f);
			fclose(f);
		}
		answer(fd, req);
		close(fd);
	}
}

static void setup(void)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	socklen_t len = sizeof a;
	int ls = socket(AF_INET, SOCK_STREAM, 0), one = 1;

	snprintf(dir, sizeof dir, "/tmp/bt-post.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	setsockopt(ls, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
	ck_assert_int_eq(bind(ls, (struct sockaddr *)&a, sizeof a), 0);
	ck_assert_int_eq(listen(ls, 16), 0);
	ck_assert_int_eq(getsockname(ls, (struct sockaddr *)&a, &len), 0);
	port = ntohs(a.sin_port);
	served = 0;
	if ((server = fork()) == 0)
		serve(ls);
	close(ls);
	ck_assert_int_gt(server, 0);
	ck_assert_int_eq(post_init(), 0);
}

static void teardown(void)
{
	char cmd[128];

	kill(server, SIGKILL);
	waitpid(server, NULL, 0);
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	ck_assert_int_eq(system(cmd), 0);
}

/* The n-th request the server got, into last; 0 if there is none. */
static int got(int n)
{
	char path[96];
	FILE *f;
	size_t k;

	snprintf(path, sizeof path, "%s/req.%d", dir, n);
	if (!(f = fopen(path, "r")))
		return 0;
	k = fread(last, 1, sizeof last - 1, f);
	last[k] = '\0';
	fclose(f);
	return 1;
}

static const post_rules allowed = { .allow_private = 1 };

static int post(const char *host, const char *path, const post_rules *rules,
                post_result *r)
{
	static const char *const headers[] = { "X-Signature: sha256=abc", NULL };
	static const char body[] = "{\"content\":\"Ben's turn\"}";
	char url[256];

	snprintf(url, sizeof url, "http://%s:%d%s", host, port, path);
	return post_send(url, headers, "application/json", body,
	                 sizeof body - 1, rules, r);
}

START_TEST(test_sends_and_reads_the_answer)
{
	post_result r;

	ck_assert_msg(post("127.0.0.1", "/ok", &allowed, &r) == 0, "%s", r.why);
	ck_assert_int_eq(r.status, 201);
	ck_assert_str_eq(r.answer, "ok");
	ck_assert(got(1));
	ck_assert_ptr_nonnull(strstr(last, "POST /ok HTTP/1.1\r\n"));
	ck_assert_ptr_nonnull(strstr(last, "\r\nContent-Type: application/json\r\n"));
	ck_assert_ptr_nonnull(strstr(last, "\r\nX-Signature: sha256=abc\r\n"));
	ck_assert_ptr_nonnull(strstr(last, "\r\n\r\n{\"content\":\"Ben's turn\"}"));
	ck_assert_ptr_null(strstr(last, "Expect:"));
	ck_assert_int_eq(post("127.0.0.1", "/gone", &allowed, &r), 0);
	ck_assert_int_eq(r.status, 410);
	/* a redirect is an answer, not followed */
	ck_assert_int_eq(post("127.0.0.1", "/redirect", &allowed, &r), 0);
	ck_assert_int_eq(r.status, 302);
	ck_assert(got(3));
	ck_assert(!got(4));
	/* a long answer: its start kept */
	ck_assert_int_eq(post("127.0.0.1", "/big", &allowed, &r), 0);
	ck_assert_int_eq(r.status, 200);
	ck_assert_uint_eq(r.answer_len, POST_ANSWER_MAX);
}
END_TEST

START_TEST(test_slow_server_given_up)
{
	post_rules quick = { .allow_private = 1, .total_ms = 500 };
	struct timespec t0, t1;
	post_result r;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	ck_assert_int_eq(post("127.0.0.1", "/slow", &quick, &r), -1);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	ck_assert_int_eq(r.refused, 0);
	ck_assert_int_eq(r.status, 0);
	ck_assert_msg(strstr(r.why, "imeout") != NULL, "%s", r.why);
	ck_assert_int_lt(t1.tv_sec - t0.tv_sec, 3);
}
END_TEST

START_TEST(test_loopback_refused_unless_allowed)
{
	const char *hosts[] = { "127.0.0.1", "localhost", "[::1]", "127.1",
	                        "2130706433", "0x7f.0.0.1", "[::ffff:127.0.0.1]" };
	post_result r;

	for (size_t i = 0; i < sizeof hosts / sizeof hosts[0]; i++) {
		ck_assert_int_eq(post(hosts[i], "/ok", NULL, &r), -1);
		ck_assert_msg(r.refused, "%s: %s", hosts[i], r.why);
	}
	ck_assert(!got(1));
	ck_assert_int_eq(post_send("http://169.254.169.254/latest/meta-data",
	                 NULL, "text/plain", "x", 1, NULL, &r), -1);
	ck_assert(r.refused);
	ck_assert_ptr_nonnull(strstr(r.why, "169.254.169.254"));
}
END_TEST

START_TEST(test_bad_urls_and_headers)
{
	const char *bad_header[] = { "X-A: 1\r\nX-B: 2", NULL };
	const char *no_colon[] = { "X-A 1", NULL };
	post_result r;

	ck_assert_int_eq(post_send("ftp://example.org/x", NULL, "text/plain",
	                 "x", 1, &allowed, &r), -1);
	ck_assert(r.refused);
	ck_assert_int_eq(post_send("https://example.org/a b", NULL,
	                 "text/plain", "x", 1, &allowed, &r), -1);
	ck_assert(r.refused);
	ck_assert_int_eq(post_send("", NULL, "text/plain", "x", 1, &allowed,
	                 &r), -1);
	ck_assert_int_eq(post_send("http://127.0.0.1/", bad_header,
	                 "text/plain", "x", 1, &allowed, &r), -1);
	ck_assert_int_eq(post_send("http://127.0.0.1/", no_colon,
	                 "text/plain", "x", 1, &allowed, &r), -1);
	ck_assert(!got(1));
}
END_TEST

static int public4(const char *text)
{
	struct sockaddr_in a = { .sin_family = AF_INET };

	ck_assert_int_eq(inet_pton(AF_INET, text, &a.sin_addr), 1);
	return post_address_public(&a, sizeof a);
}

static int public6(const char *text)
{
	struct sockaddr_in6 a = { .sin6_family = AF_INET6 };

	ck_assert_int_eq(inet_pton(AF_INET6, text, &a.sin6_addr), 1);
	return post_address_public(&a, sizeof a);
}

START_TEST(test_which_addresses_are_public)
{
	const char *not4[] = { "0.0.0.0", "10.1.2.3", "100.64.0.1",
		"100.127.255.255", "127.0.0.1", "127.255.255.254",
		"169.254.169.254", "172.16.0.1", "172.31.255.255",
		"192.0.0.8", "192.0.2.1", "192.168.1.1", "198.18.0.1",
		"198.51.100.7", "203.0.113.9", "224.0.0.1", "239.255.255.250",
		"240.0.0.1", "255.255.255.255" };
	const char *yes4[] = { "8.8.8.8", "1.1.1.1", "100.63.255.255",
		"100.128.0.1", "172.15.255.255", "172.32.0.1", "192.169.0.1",
		"198.20.0.1", "93.184.216.34" };
	const char *not6[] = { "::", "::1", "fe80::1", "fc00::1", "fd12::1",
		"ff02::1", "2001:db8::1", "::ffff:127.0.0.1", "::ffff:10.0.0.1",
		"64:ff9b::a00:1", "2002:7f00:1::", "2002:c0a8:101::1",
		"2001::1", "::127.0.0.1", "100::1", "3fff:fff::1" };
	const char *yes6[] = { "2606:4700::1111", "2a00:1450:4001::200e",
		"::ffff:8.8.8.8", "64:ff9b::808:808", "2002:808:808::1" };
	struct sockaddr bogus = { .sa_family = AF_UNIX };

	for (size_t i = 0; i < sizeof not4 / sizeof not4[0]; i++)
		ck_assert_msg(!public4(not4[i]), "%s", not4[i]);
	for (size_t i = 0; i < sizeof yes4 / sizeof yes4[0]; i++)
		ck_assert_msg(public4(yes4[i]), "%s", yes4[i]);
	for (size_t i = 0; i < sizeof not6 / sizeof not6[0]; i++)
		ck_assert_msg(!public6(not6[i]), "%s", not6[i]);
	for (size_t i = 0; i < sizeof yes6 / sizeof yes6[0]; i++)
		ck_assert_msg(public6(yes6[i]), "%s", yes6[i]);
	ck_assert(!post_address_public(&bogus, sizeof bogus));
	ck_assert(!post_address_public(NULL, 0));
}
END_TEST

int main(void)
{
	Suite *s = suite_create("post");
	TCase *tc = tcase_create("post");
	SRunner *r;
	int failed;

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_sends_and_reads_the_answer);
	tcase_add_test(tc, test_slow_server_given_up);
	tcase_add_test(tc, test_loopback_refused_unless_allowed);
	tcase_add_test(tc, test_bad_urls_and_headers);
	tcase_add_test(tc, test_which_addresses_are_public);
	suite_add_tcase(s, tc);
	r = srunner_create(s);
	srunner_run_all(r, CK_NORMAL);
	failed = srunner_ntests_failed(r);
	srunner_free(r);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
