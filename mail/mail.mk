# mail/mail.mk - included by Makefile.am: libmail (the words of the
# emails, their headers, sending them, the mailer) and libinbound (replies
# read and acted on).
noinst_LIBRARIES += mail/libmail.a
mail_libmail_a_CFLAGS = $(BASE_CFLAGS) $(SODIUM_CFLAGS) $(SQLITE_CFLAGS) \
	-I$(top_srcdir)/db $(WORDS_CFLAGS) -I$(top_srcdir)/mail
MAIL_LIBS = mail/libmail.a $(WEB_LIBS)
mail_libmail_a_SOURCES = \
	mail/compose.c mail/compose.h mail/compose_links.c \
	mail/compose_signin.c mail/compose_signin.h \
	mail/compose_menu.c mail/compose_menu.h mail/loop.h \
	mail/compose_table.c mail/compose_table.h \
	mail/compose_talk.c mail/compose_talk.h \
	mail/message.c mail/message.h \
	mail/send.c mail/send.h \
	mail/mailer.c mail/mailer.h mail/courier.c mail/courier.h

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
mail_libinbound_a_CFLAGS = $(BASE_CFLAGS) $(GMIME_CFLAGS) $(XML_CFLAGS) \
	-DXML_SONAME='"$(XML_SONAME)"' \
	$(SODIUM_CFLAGS) $(SQLITE_CFLAGS) -I$(top_srcdir)/db \
	$(WORDS_CFLAGS) -I$(top_srcdir)/mail
INBOUND_LIBS = mail/libinbound.a words/libwords.a $(GMIME_LIBS)

# Replies acted on (buffertime inbound): the token, the sender, the
# move, the answer, Authentication-Results read as RFC 8601 says.
mail_libinbound_a_SOURCES += mail/inbound_act.c mail/inbound_act.h \
	mail/inbound_answer.c mail/inbound_answer.h \
	mail/authres.c mail/authres.h
