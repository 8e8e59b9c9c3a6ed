# mail/mail.mk - included by Makefile.am: libmail (the words of the
# emails, their headers, sending them) and the mailer's tests.
mail_libmail_a_SOURCES = \
	mail/compose.c mail/compose.h mail/compose_links.c \
	mail/compose_menu.c mail/compose_menu.h mail/loop.h \
	mail/compose_table.c mail/compose_table.h \
	mail/compose_talk.c mail/compose_talk.h \
	mail/message.c mail/message.h \
	mail/send.c mail/send.h \
	mail/mailer.c mail/mailer.h mail/courier.c mail/courier.h

# `buffertime mailer` and `buffertime admin mail`.
buffertime_SOURCES += cli/mailer.c cli/admin_mail.c

# The words of the emails (owned with mail/compose.c).
tests_check_compose_SOURCES = tests/check_compose.c tests/rig.c tests/rig.h \
	tests/fixture.c tests/fixture.h
tests_check_compose_CFLAGS = $(STORE_TEST_CFLAGS) $(WORDS_CFLAGS) \
	-I$(top_srcdir)/mail
tests_check_compose_LDADD = $(MAIL_LIBS) $(CHECK_LIBS)
UNIT_TESTS += tests/check_compose

# Table talk is bounded (issue 24): a cap per game, and what shows or
# mails talk reads a window of it (counted in SQLite VM steps).
tests_check_talk_bound_SOURCES = tests/check_talk_bound.c \
	tests/fixture.c tests/fixture.h
tests_check_talk_bound_CFLAGS = $(STORE_TEST_CFLAGS) $(WORDS_CFLAGS) \
	-I$(top_srcdir)/mail
tests_check_talk_bound_LDADD = $(MAIL_LIBS) $(CHECK_LIBS)
UNIT_TESTS += tests/check_talk_bound

# The message and its delivery: headers, encoding, injection, files.
tests_check_mail_SOURCES = tests/check_mail.c tests/fixture.c tests/fixture.h
tests_check_mail_CFLAGS = $(STORE_TEST_CFLAGS) $(WORDS_CFLAGS) \
	-I$(top_srcdir)/mail
tests_check_mail_LDADD = $(MAIL_LIBS) $(CHECK_LIBS)
UNIT_TESTS += tests/check_mail

# Moves by reply (issue 12): the menu, its links, Reply-To, Message-ID.
tests_check_compose_menu_SOURCES = tests/check_compose_menu.c \
	tests/fixture.c tests/fixture.h
tests_check_compose_menu_CFLAGS = $(STORE_TEST_CFLAGS) $(WORDS_CFLAGS) \
	-I$(top_srcdir)/mail -I$(top_srcdir)/cgi -I$(top_srcdir)/conf
tests_check_compose_menu_LDADD = $(MAIL_LIBS) $(CHECK_LIBS)
UNIT_TESTS += tests/check_compose_menu

# The table in a turn email's text, one email per move for each seat
# (moves by reply too), and the game-over email (issue 23).
tests_check_compose_table_SOURCES = tests/check_compose_table.c \
	tests/rig.c tests/rig.h tests/fixture.c tests/fixture.h
tests_check_compose_table_CFLAGS = $(STORE_TEST_CFLAGS) $(WORDS_CFLAGS) \
	-I$(top_srcdir)/mail
tests_check_compose_table_LDADD = $(INBOUND_LIBS) $(MAIL_LIBS) \
	$(CHECK_LIBS)
UNIT_TESTS += tests/check_compose_table

# Helpers of the shell tests and the benchmark: an outbox filler that
# plays real moves, and the fastest fake sendmail.
check_PROGRAMS += tests/maildrive bench/fake_sendmail
tests_maildrive_SOURCES = tests/maildrive.c
tests_maildrive_CFLAGS = $(STORE_TEST_CFLAGS) $(WORDS_CFLAGS) \
	-I$(top_srcdir)/mail -I$(top_srcdir)/bots
tests_maildrive_LDADD = bots/libbots.a $(MAIL_LIBS) $(LIBM)
bench_fake_sendmail_SOURCES = bench/fake_sendmail.c
# It stands for another program (a real sendmail is not built with our
# sanitizers): without them its exit is as quick as a real one's, and
# the kill test measures the mailer's window, not ASan's teardown.
bench_fake_sendmail_CFLAGS = -std=c11 -D_POSIX_C_SOURCE=200809L $(WARN_CFLAGS)
bench_fake_sendmail_LDFLAGS =

# The mailer against a fake sendmail, a real MTA (msmtp to an SMTP sink)
# and random kills.
dist_check_SCRIPTS += tests/mailer.sh tests/mta.sh tests/mailkill.sh
TESTS += tests/mailer.sh tests/mta.sh
EXTRA_DIST += tests/fake-sendmail bench/mailer.sh bench/inbound.sh
# What table talk costs a move and a feed (issue 24).
EXTRA_DIST += bench/talk.sh
# bench/inbound.sh times each run of the tool with this
check_PROGRAMS += bench/spawn_time
bench_spawn_time_SOURCES = bench/spawn_time.c

# Received email (issue 12): a reply's raw bytes as facts and commands;
# pure parsing, no store. GMime reads the MIME, libxml2 the HTML (loaded
# only when an email has no text part: not linked).
noinst_LIBRARIES += mail/libinbound.a
mail_libinbound_a_SOURCES = \
	mail/inbound_mime.c mail/inbound_mime.h \
	mail/inbound_scan.c mail/inbound_scan.h \
	mail/inbound_html.c mail/inbound_html.h \
	mail/inbound_text.c mail/inbound_text.h \
	mail/inbound_reply.c mail/inbound_reply.h
mail_libinbound_a_CFLAGS = $(AM_CFLAGS) $(GMIME_CFLAGS) $(XML_CFLAGS) \
	-DXML_SONAME='"$(XML_SONAME)"' \
	$(SODIUM_CFLAGS) $(SQLITE_CFLAGS) -I$(top_srcdir)/db \
	$(WORDS_CFLAGS) -I$(top_srcdir)/mail
INBOUND_LIBS = mail/libinbound.a words/libwords.a $(GMIME_LIBS)

# The corpus of replies as mail programs write them
# (tests/data/inbound/*.eml, each with its .expect), and the pieces.
tests_check_inbound_SOURCES = tests/check_inbound.c
tests_check_inbound_CFLAGS = $(TEST_CFLAGS) $(GMIME_CFLAGS) \
	-DXML_SONAME='"$(XML_SONAME)"' \
	$(WORDS_CFLAGS) -I$(top_srcdir)/mail
tests_check_inbound_LDADD = $(INBOUND_LIBS) $(CHECK_LIBS)
UNIT_TESTS += tests/check_inbound
tests_check_reply_text_SOURCES = tests/check_reply_text.c
tests_check_reply_text_CFLAGS = $(TEST_CFLAGS) $(WORDS_CFLAGS) \
	-I$(top_srcdir)/mail
tests_check_reply_text_LDADD = $(INBOUND_LIBS) $(CHECK_LIBS)
UNIT_TESTS += tests/check_reply_text

# Replies acted on (buffertime inbound): the token, the sender, the
# move, the answer (mail/inbound_act.c, inbound_answer.c), and its tests
# on a real SQLite file.
mail_libinbound_a_SOURCES += mail/inbound_act.c mail/inbound_act.h \
	mail/inbound_answer.c mail/inbound_answer.h \
	mail/authres.c mail/authres.h
buffertime_SOURCES += cli/inbound.c
# Authentication-Results read as RFC 8601 says (issue 24).
tests_check_authres_SOURCES = tests/check_authres.c
tests_check_authres_CFLAGS = $(TEST_CFLAGS) -I$(top_srcdir)/mail
tests_check_authres_LDADD = $(INBOUND_LIBS) $(CHECK_LIBS)
UNIT_TESTS += tests/check_authres
tests_check_inbound_act_SOURCES = tests/check_inbound_act.c \
	tests/fixture.c tests/fixture.h
tests_check_inbound_act_CFLAGS = $(STORE_TEST_CFLAGS) $(WORDS_CFLAGS) \
	-I$(top_srcdir)/mail
tests_check_inbound_act_LDADD = $(INBOUND_LIBS) $(MAIL_LIBS) $(CHECK_LIBS)
UNIT_TESTS += tests/check_inbound_act

# What one address can be mailed: one budget for every email, talk's
# answers capped, "no email" honoured, answers' Subjects ours.
tests_check_mail_budget_SOURCES = tests/check_mail_budget.c \
	tests/fixture.c tests/fixture.h
tests_check_mail_budget_CFLAGS = $(STORE_TEST_CFLAGS) $(WORDS_CFLAGS) \
	-I$(top_srcdir)/mail
tests_check_mail_budget_LDADD = $(INBOUND_LIBS) $(MAIL_LIBS) $(CHECK_LIBS)
UNIT_TESTS += tests/check_mail_budget

# Replies under SIGKILL and MTA retries: none lost, none done twice.
check_PROGRAMS += tests/replydrive
tests_replydrive_SOURCES = tests/replydrive.c
tests_replydrive_CFLAGS = $(STORE_TEST_CFLAGS) $(WORDS_CFLAGS) \
	-I$(top_srcdir)/bots
tests_replydrive_LDADD = bots/libbots.a $(WORDS_LIBS) $(LIBM)
dist_check_SCRIPTS += tests/inboundkill.sh

# What replies in a seat's name make the real `buffertime inbound` mail
# that address: talk's answers capped, the settings' budget, "no email".
dist_check_SCRIPTS += tests/answers.sh
TESTS += tests/answers.sh

# A whole game played only by replies through a real MTA: Debian's
# Postfix on loopback, its pipe transport to `buffertime inbound`, swaks.
dist_check_SCRIPTS += tests/postfix.sh

# What an email that is not for us may cost before its token is checked
# (issue 24): 1 MiB bombs of parts, headers, addresses and HTML, each
# process's peak memory measured (tests/rusage), and the memory limit.
check_PROGRAMS += tests/rusage
tests_rusage_SOURCES = tests/rusage.c
# It measures another program: no sanitizers of its own in the figures.
tests_rusage_CFLAGS = -std=c11 -D_POSIX_C_SOURCE=200809L $(WARN_CFLAGS)
tests_rusage_LDFLAGS =
dist_check_SCRIPTS += tests/inboundbomb.sh
TESTS += tests/inboundbomb.sh
