# cgi/cgi.mk - included by Makefile.am: the web layer's library (the
# building blocks: escaping writer, templates, request input), the
# FastCGI program's sources, its templates and its static files.  Keep
# the lists explicit.
noinst_LIBRARIES += cgi/libweb.a
cgi_libweb_a_SOURCES = \
	cgi/out.c cgi/out.h cgi/template.c cgi/template.h \
	cgi/input.c cgi/input.h cgi/fields.c cgi/fields.h \
	cgi/client.c cgi/client.h cgi/agent.c cgi/agent.h \
	cgi/since.c cgi/since.h cgi/talk.h cgi/talk_text.c \
	cgi/review_chart.c cgi/review_chart.h \
	cgi/crew_chart.c cgi/crew_chart.h
cgi_libweb_a_CFLAGS = $(BASE_CFLAGS) $(SODIUM_CFLAGS) -I$(top_srcdir)/db \
	$(WORDS_CFLAGS) -I$(top_srcdir)/bots -I$(top_srcdir)/conf
WEB_LIBS = cgi/libweb.a conf/libconf.a $(WORDS_LIBS)

sbin_PROGRAMS = buffertime.fcgi
buffertime_fcgi_SOURCES = \
	cgi/main.c cgi/web.h cgi/accept_wait.c cgi/accept_wait.h \
	cgi/request.c cgi/request.h \
	cgi/route.c cgi/response.c cgi/seat.c cgi/seat_link.c \
	cgi/keys.c cgi/keys.h cgi/vals.c cgi/vals.h \
	cgi/page_home.c cgi/home.h cgi/page_create.c cgi/page_join.c \
	cgi/page_created.c cgi/created.h \
	cgi/page_table.c cgi/table.h cgi/table_cards.c \
	cgi/action_forms.c cgi/action_forms.h cgi/cardview.c cgi/cardview.h \
	cgi/moves.c cgi/moves.h cgi/mail_ctx.c cgi/mail_ctx.h \
	cgi/page_act.c cgi/page_record.c cgi/page_error.c \
	cgi/page_settings.c cgi/page_unsub.c cgi/page_games.c cgi/page_feed.c \
	cgi/table_view.c cgi/table_life.c cgi/table_talk.c cgi/table_review.c \
	cgi/table_crew.c cgi/table_since.c cgi/table_deal.c \
	cgi/table_shown.c \
	cgi/marks.c cgi/marks.h \
	cgi/live.c \
	cgi/page_history.c cgi/page_say.c cgi/page_nudge.c cgi/page_takeback.c cgi/page_standin.c \
	cgi/page_again.c cgi/page_watch.c cgi/page_rules.c \
	cgi/page_block.c cgi/page_end.c cgi/ended.h \
	cgi/page_signin.c cgi/signin.c cgi/signin.h \
	cgi/settings_browsers.c cgi/settings_browsers.h \
	cgi/page_push.c cgi/settings_push.c \
	cgi/page_hook.c cgi/settings_hook.c

dist_template_DATA = \
	templates/layout.html templates/error.html templates/home.html \
	templates/created.html templates/table.html templates/card.html \
	templates/form.html templates/select.html templates/order.html \
	templates/settings.html templates/unsub.html templates/games.html \
	templates/feed.xml \
	templates/talk.html templates/history.html templates/rules.html \
	templates/block.html templates/closed.html templates/signin.html

dist_www_DATA = \
	www/style.css www/live.js www/icon.svg \
	www/target.svg www/effort.svg www/officer.svg www/leisure.svg \
	www/app.js www/sw.js www/push.js www/manifest.json \
	www/icon-192.png www/icon-512.png

buffertime_fcgi_CFLAGS = $(BASE_CFLAGS) $(SODIUM_CFLAGS) $(SQLITE_CFLAGS) \
	-I$(top_srcdir)/db -I$(top_srcdir)/cgi -I$(top_srcdir)/conf \
	$(WORDS_CFLAGS) -I$(top_srcdir)/mail -I$(top_srcdir)/bots \
	-I$(top_srcdir)/push -I$(top_srcdir)/notify \
	-DBT_VERSION='"$(PACKAGE_VERSION)"'
buffertime_fcgi_LDADD = $(MAIL_LIBS) bots/libbots.a $(RULES_LIBS) \
	notify/libnotify.a $(PUSH_LIBS) $(FCGI_LIBS) $(LIBM)

templatedir = $(pkgdatadir)/templates
wwwdir = $(pkgdatadir)/www
