# tests/tests.mk - included by Makefile.am: the tests, as lists.
#
# A unit test is tests/check_NAME.c, a Check suite with its main: adding
# one is adding its line to UNIT_TESTS.  It is built with the flags that
# every target without its own gets (AM_CFLAGS: every folder's headers,
# TEST_CFLAGS) and linked with the test helpers and every library of the
# project (LDADD: the linker takes from each archive only what the test
# uses).  A shell test is tests/NAME.sh: its line in SHELL_TESTS, or in
# LONG_TESTS if it takes minutes.

TEST_CFLAGS = $(CHECK_CFLAGS) $(SODIUM_CFLAGS) $(SQLITE_CFLAGS) \
	$(GMIME_CFLAGS) $(XML_CFLAGS) -DXML_SONAME='"$(XML_SONAME)"' \
	-I$(top_srcdir)/tests -I$(top_srcdir)/bots -I$(top_srcdir)/db \
	-I$(top_srcdir)/words -I$(top_srcdir)/links -I$(top_srcdir)/conf \
	-I$(top_srcdir)/cgi -I$(top_srcdir)/mail -I$(top_srcdir)/work \
	-I$(top_srcdir)/push $(CRYPTO_CFLAGS) -I$(top_srcdir)/net $(CURL_CFLAGS) \
	-I$(top_srcdir)/notify
LDADD = tests/libcheckhelp.a mail/libinbound.a words/libwords.a \
	work/libwork.a bots/libbots.a mail/libmail.a cgi/libweb.a \
	conf/libconf.a words/libwords.a links/liblinks.a db/libstore.a \
	rules/librules.a push/libpush.a net/libnet.a $(GMIME_LIBS) \
	$(SQLITE_LIBS) $(SODIUM_LIBS) $(CRYPTO_LIBS) $(CURL_LIBS) \
	$(CHECK_LIBS) $(PTHREAD_LIBS) $(LIBM)

# libxml2 is for the one test that reads the review's chart as XML; the
# others must not load it (check_inbound: the inbound path loads it only
# for an email with HTML and no text).
tests_check_review_chart_LDADD = $(LDADD) $(XML_LIBS)

# The FastCGI worker's wait (cgi/accept_wait.c, a file of the program's
# own) with libfcgi, whose accept it relies on.
tests_check_accept_wait_SOURCES = tests/check_accept_wait.c \
	cgi/accept_wait.c cgi/accept_wait.h
tests_check_accept_wait_LDADD = $(LDADD) $(FCGI_LIBS)

# A pure module: its library and libsodium (the signature) are all.
tests_check_hook_format_LDADD = notify/libnotify.a $(SODIUM_LIBS) \
	$(CHECK_LIBS) $(PTHREAD_LIBS)

# What several tests share: a game rigged to a chosen deal (rig.h) and a
# database file of their own (fixture.h), a game to reply to by email
# (reply_rig.h).
check_LIBRARIES = tests/libcheckhelp.a
tests_libcheckhelp_a_SOURCES = tests/rig.c tests/rig.h \
	tests/reply_rig.c tests/reply_rig.h \
	tests/fixture.c tests/fixture.h \
	tests/seeded.c tests/seeded.h \
	tests/rule_steps.c tests/rule_steps.h

UNIT_TESTS = \
	tests/check_cards \
	tests/check_rng \
	tests/check_rules \
	tests/check_abilities \
	tests/check_record \
	tests/check_properties \
	tests/check_reach \
	tests/check_bots \
	tests/check_review \
	tests/check_store \
	tests/check_store_ahead \
	tests/check_store_kept \
	tests/check_store_life \
	tests/check_store_stress \
	tests/check_limits \
	tests/check_jobs \
	tests/check_worker \
	tests/check_review_job \
	tests/check_hints \
	tests/check_bot_talk \
	tests/check_crew \
	tests/check_block \
	tests/check_signin \
	tests/check_store_push \
	tests/check_store_notice \
	tests/check_takeback \
	tests/check_store_end \
	tests/check_web \
	tests/check_form \
	tests/check_token \
	tests/check_fields \
	tests/check_review_chart \
	tests/check_config \
	tests/check_describe \
	tests/check_menu \
	tests/check_hint_words \
	tests/check_offer \
	tests/check_reply \
	tests/check_talk \
	tests/check_compose \
	tests/check_talk_bound \
	tests/check_mail \
	tests/check_compose_menu \
	tests/check_compose_table \
	tests/check_inbound \
	tests/check_reply_text \
	tests/check_authres \
	tests/check_inbound_act \
	tests/check_mail_budget \
	tests/check_push \
	tests/check_post \
	tests/check_hook_format \
	tests/check_accept_wait

# The longest come first, so that with make -jN the short ones run beside
# them and the run does not end waiting on one long test alone.
LONG_TESTS = \
	tests/inboundkill.sh \
	tests/postfix.sh \
	tests/browser.sh \
	tests/crewgame.sh \
	tests/mailkill.sh \
	tests/web.sh \
	tests/killburst.sh \
	tests/e2e.sh \
	tests/bots.sh

SHELL_TESTS = \
	tests/cli.sh \
	tests/admin.sh \
	tests/pages.sh \
	tests/rules.sh \
	tests/life.sh \
	tests/install.sh \
	tests/live.sh \
	tests/start.sh \
	tests/limits.sh \
	tests/block.sh \
	tests/signin.sh \
	tests/webpush.sh \
	tests/pushsubs.sh \
	tests/notices.sh \
	tests/faults.sh \
	tests/disk.sh \
	tests/botkill.sh \
	tests/review.sh \
	tests/crew.sh \
	tests/practice.sh \
	tests/takeback.sh \
	tests/ending.sh \
	tests/mailer.sh \
	tests/mta.sh \
	tests/answers.sh \
	tests/inboundbomb.sh \
	tests/slowconn.sh

# What only a PostgreSQL server has: two hosts on one database and its
# restart, the store's suites on it (PG_LONG_TESTS), moving an instance,
# the driver.  Each starts a throwaway server of its own
# (tests/pg-cluster.sh).  make check runs them with the rest (the longest
# first); make check-pg too, with the shell tests that can on PostgreSQL
# (TEST_ENGINE below).  scripts/test runs each once (print-plain-tests,
# print-sanitizer-tests): the long two in its plain build, the driver's
# and the copies under the sanitizers, which see the driver's code there.
PG_LONG_TESTS = \
	tests/hosts.sh \
	tests/store_pg.sh
PG_TESTS = $(PG_LONG_TESTS) \
	tests/copy.sh \
	tests/driver_pg.sh

# A test that configures, builds and installs programs of its own: under
# the sanitizers it would run none of theirs (scripts/test runs it in its
# plain build only).
OWN_BUILD_TESTS = tests/install.sh

TESTS = $(PG_TESTS) $(LONG_TESTS) $(UNIT_TESTS) $(SHELL_TESTS)
dist_check_SCRIPTS = $(LONG_TESTS) $(SHELL_TESTS) $(PG_TESTS)

check-pg:
	$(MAKE) $(AM_MAKEFLAGS) check TEST_ENGINE=postgres
.PHONY: check-pg
check_PROGRAMS = $(UNIT_TESTS)

# Programs the shell tests drive: an outbox filler that plays real moves
# (maildrive), replies under SIGKILL and MTA retries (replydrive), slow
# connections as slowhttptest makes them (slowclient).
check_PROGRAMS += tests/maildrive tests/replydrive tests/slowclient
# Web Push's messages for an independent implementation (webpush.sh).
check_PROGRAMS += tests/pushdrive
# The PostgreSQL driver's suite needs a server: tests/driver_pg.sh starts
# one (tests/pg-cluster.sh) and runs it with BT_PG_URL; not a UNIT_TEST,
# which would run it without.
check_PROGRAMS += tests/check_driver_pg
tests_check_driver_pg_SOURCES = tests/check_driver_pg.c \
	tests/check_driver_pg_ahead.c tests/check_driver_pg.h
# The peak memory of another program (inboundbomb.sh): no sanitizers of
# its own in the figures.
check_PROGRAMS += tests/rusage
tests_rusage_CFLAGS = $(PLAIN_CFLAGS)
tests_rusage_LDFLAGS =
tests_rusage_LDADD =

EXTRA_DIST += tests/data tests/browser tests/fuzz tests/testlib.sh \
	tests/browserlib.sh tests/weblib.sh tests/forms.awk \
	tests/atomcheck.py tests/fake-sendmail tests/pg-cluster.sh \
	tests/webpush_check.py tests/push_service.py tests/hook_receiver.py \
	tests/loopback_http.py
# Not a make check test: scripts/test runs it once, as a stage of its own
# (it builds the package itself, whatever this build's flags).
EXTRA_DIST += tests/deb.sh

# The shell tests find the built tool and the test data from these.
AM_TESTS_ENVIRONMENT = \
	BUFFERTIME=$(abs_top_builddir)/buffertime; export BUFFERTIME; \
	BUFFERTIME_FCGI=$(abs_top_builddir)/buffertime.fcgi; export BUFFERTIME_FCGI; \
	SRCDIR=$(abs_top_srcdir); export SRCDIR; \
	TESTDATA=$(abs_top_srcdir)/tests/data; export TESTDATA; \
	CK_DEFAULT_TIMEOUT=120; export CK_DEFAULT_TIMEOUT; \
	date +%s >"$$log.start";

# Each test's start (its log's .start file, beside it) and its log's
# time of writing give how long it ran: scripts/test lists the slowest.
CLEANFILES += tests/*.log.start

# The store's engine of the shell tests that run on both (engine_init in
# tests/testlib.sh): make check TEST_ENGINE=postgres gives each of them a
# throwaway PostgreSQL server; empty (the default), BT_TEST_ENGINE of the
# environment, else SQLite.  The others ignore it: their subject is the
# SQLite file.
TEST_ENGINE =
AM_TESTS_ENVIRONMENT += \
	if test -n '$(TEST_ENGINE)'; then \
	  BT_TEST_ENGINE='$(TEST_ENGINE)'; export BT_TEST_ENGINE; \
	fi;

# Under the sanitizers every process starts several times slower.  There
# the kill tests look for memory errors, which a third of their work shows
# as well as all of it; the plain build runs them whole.  A count set in
# the environment wins.
if SANITIZERS
AM_TESTS_ENVIRONMENT += \
	: $${INBOUNDKILL_REPLIES:=300}; export INBOUNDKILL_REPLIES; \
	: $${MAILKILL_MOVES:=350}; export MAILKILL_MOVES; \
	: $${KILLBURST_MOVES:=200}; export KILLBURST_MOVES;
endif

# make distcheck proves the tarball: every file git tracks is in it (but
# the two below, which only git needs), and it builds, installs and passes
# its tests.  scripts/test runs it with TESTS set to print-unit-tests'
# list: the shell tests, which the two builds before it ran, would only
# run again on the same code (every file they need is in the tarball:
# the hook checks it).
distcheck-hook:
	@if test -e "$(top_srcdir)/.git" && command -v git >/dev/null 2>&1; then \
	  missing=`cd "$(top_srcdir)" && git ls-files | while read -r f; do \
	    case $$f in .gitignore|m4/.gitkeep) continue ;; esac; \
	    test -e "$(abs_top_builddir)/$(distdir)/$$f" || echo "$$f"; \
	  done`; \
	  if test -n "$$missing"; then \
	    echo "distcheck: tracked but not in the tarball (EXTRA_DIST?):"; \
	    echo "$$missing" | sed 's/^/  /'; exit 1; \
	  fi; \
	else \
	  echo "distcheck: not a git checkout; the tarball's list is not compared"; \
	fi
print-unit-tests:
	@for t in $(UNIT_TESTS); do echo "$$t"; done
# scripts/test's sanitizer build runs every test once, on SQLite, but
# the long PostgreSQL ones and those that build their own programs; its
# plain build runs those, and the shell tests that run on either engine
# (a line "engine_init", tests/testlib.sh), on PostgreSQL.
print-plain-tests:
	@for t in $(PG_LONG_TESTS); do echo "$$t"; done; \
	for t in $(LONG_TESTS) $(SHELL_TESTS); do \
	  if grep -q '^engine_init$$' "$(srcdir)/$$t"; then echo "$$t"; fi; \
	done; \
	for t in $(OWN_BUILD_TESTS); do echo "$$t"; done
print-sanitizer-tests:
	@for t in $(PG_TESTS) $(LONG_TESTS) $(UNIT_TESTS) $(SHELL_TESTS); do \
	  case " $(PG_LONG_TESTS) $(OWN_BUILD_TESTS) " in \
	    *" $$t "*) ;; \
	    *) echo "$$t" ;; \
	  esac; \
	done
.PHONY: print-unit-tests print-plain-tests \
	print-sanitizer-tests

# libFuzzer harnesses of the parsers of outside input (tests/fuzz/), built
# with clang into fuzz-out/ here; FUZZ_SECONDS each (scripts/fuzz).
FUZZ_SECONDS = 30
fuzz:
	FUZZ_DIR=$(abs_top_builddir)/fuzz-out $(srcdir)/scripts/fuzz $(FUZZ_SECONDS)
.PHONY: fuzz

# tests/browser.sh and crewgame.sh leave their screenshots and pages here
clean-local:
	rm -rf tests/browser-out
	rm -rf tests/crewgame-out
	rm -rf fuzz-out
