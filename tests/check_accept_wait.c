/*
 * check_accept_wait.c - what a FastCGI worker on a database server
 * relies on while it waits (cgi/accept_wait.c): once the listening
 * socket accepts without blocking, libfcgi's FCGX_Accept_r answers
 * -EAGAIN when no request is there (another worker took it), and the
 * worker then waits again instead of ending; the wait ends when a
 * request comes.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <check.h>
#include <fcgiapp.h>

#include "accept_wait.h"
#include "fixture.h"

static char dir[FIXTURE_PATH_MAX], path[FIXTURE_PATH_MAX];
static char sock_path[FIXTURE_PATH_MAX + 16];

static void setup(void)
{
	fixture_scratch("accept", dir, path);
	snprintf(sock_path, sizeof sock_path, "%s/fcgi.sock", dir);
}

static void teardown(void)
{
	fixture_remove(dir);
}

/* A Unix socket at sock_path: listening (1) or connected to it (0). */
static int unix_socket(int listen_on_it)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_STREAM, 0);

	ck_assert_int_ge(fd, 0);
	ck_assert_uint_lt(strlen(sock_path), sizeof sa.sun_path);
	memcpy(sa.sun_path, sock_path, strlen(sock_path) + 1);
	if (listen_on_it) {
		ck_assert_int_eq(bind(fd, (struct sockaddr *)&sa, sizeof sa), 0);
		ck_assert_int_eq(listen(fd, 8), 0);
	} else {
		ck_assert_int_eq(connect(fd, (struct sockaddr *)&sa, sizeof sa),
		                 0);
	}
	return fd;
}

START_TEST(test_accept_wait_a_request_another_worker_took_is_eagain)
{
	FCGX_Request fr;
	accept_wait aw;
	int fd = unix_socket(1);

	ck_assert_int_eq(FCGX_Init(), 0);
	ck_assert_int_eq(FCGX_InitRequest(&fr, fd, 0), 0);
	ck_assert_int_eq(accept_wait_open(&aw, fd), 0);
	/* nothing there: not an error that ends the worker */
	ck_assert_int_eq(FCGX_Accept_r(&fr), -EAGAIN);
	ck_assert_int_eq(FCGX_Accept_r(&fr), -EAGAIN);

	/* a request comes (a file's store has no news to read meanwhile) */
	store *st = fixture_open(path);
	ck_assert_int_eq(store_changes_fd(st), -1);
	int client = unix_socket(0);
	ck_assert_int_eq(accept_wait_next(&aw, st), 0);
	/* ... which the worker takes; its client left without a word, so
	 * libfcgi drops it and finds nothing more */
	close(client);
	ck_assert_int_eq(FCGX_Accept_r(&fr), -EAGAIN);
	store_close(st);
	accept_wait_close(&aw);
	ck_assert_int_eq(aw.ep, -1);
	close(fd);
}
END_TEST

static Suite *accept_wait_suite(void)
{
	Suite *s = suite_create("accept_wait");
	TCase *tc = tcase_create("accept_wait");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_accept_wait_a_request_another_worker_took_is_eagain);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(accept_wait_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
