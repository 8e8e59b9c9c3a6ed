# etc/install.mk - included by Makefile.am: what a self-hoster needs
# besides the programs, templates and static files (which Makefile.am and
# cgi/pages.mk install): example configurations, installed under
# $(docdir)/examples with this build's folders filled in, and README.md.
#
# With configure's --with-systemdsystemunitdir, the systemd units are
# installed there too (a package's), and the nginx snippets go to
# --with-nginxsnippetdir (default: the examples' nginx/ folder, where the
# example site includes them from).
#
# The .in files name folders as @bindir@, @sbindir@, @sysconfdir@,
# @localstatedir@, @pkgdatadir@, @docdir@ and @nginxsnippetdir@; they are
# replaced here, at make time, so that `make prefix=...` and --prefix
# both hold (the autoconf manual's "Installation Directory Variables").

examplesdir = $(docdir)/examples
UNITS = etc/buffertime-fcgi.socket etc/buffertime-fcgi.service \
	etc/buffertime-worker.service etc/buffertime-backup.service
examples_DATA = etc/buffertime.conf etc/nginx-site.conf \
	$(UNITS) etc/postfix-buffertime.cf
dist_examples_DATA = etc/buffertime-backup.timer
dist_doc_DATA = README.md
if INSTALL_UNITS
systemdsystemunit_DATA = $(UNITS)
dist_systemdsystemunit_DATA = etc/buffertime-backup.timer
endif

# Named as nginx users know them: buffertime.conf for a server block,
# buffertime-http.conf for the http level, buffertime-headers.conf
# included by the first.
NGINX_SNIPPETS = etc/nginx/buffertime.conf etc/nginx/buffertime-http.conf \
	etc/nginx/buffertime-headers.conf
nginxsnippet_DATA = $(NGINX_SNIPPETS)

ETC_IN = $(examples_DATA:=.in) etc/nginx-snippet.conf.in \
	etc/nginx-http.conf.in etc/nginx-headers.conf.in
EXTRA_DIST += $(ETC_IN)
CLEANFILES += $(examples_DATA) $(NGINX_SNIPPETS)

# The "[@]" keeps configure from replacing these in the Makefile itself.
etc_subst = sed \
	-e 's|@bindir[@]|$(bindir)|g' \
	-e 's|@sbindir[@]|$(sbindir)|g' \
	-e 's|@sysconfdir[@]|$(sysconfdir)|g' \
	-e 's|@localstatedir[@]|$(localstatedir)|g' \
	-e 's|@pkgdatadir[@]|$(pkgdatadir)|g' \
	-e 's|@docdir[@]|$(docdir)|g' \
	-e 's|@nginxsnippetdir[@]|$(nginxsnippetdir)|g'

# Written to a temporary name first: an interrupted make leaves no half
# file that looks done.  Refuses a placeholder it does not know.
etc_make = $(AM_V_GEN)$(MKDIR_P) $(@D) && \
	$(etc_subst) $< >$@.tmp && \
	if grep -n '@[A-Za-z_]*@' $@.tmp; then \
		echo "$<: unknown placeholder" >&2; rm -f $@.tmp; exit 1; \
	fi && mv $@.tmp $@

etc/buffertime.conf: $(srcdir)/etc/buffertime.conf.in Makefile
	$(etc_make)
etc/nginx-site.conf: $(srcdir)/etc/nginx-site.conf.in Makefile
	$(etc_make)
etc/buffertime-fcgi.socket: $(srcdir)/etc/buffertime-fcgi.socket.in Makefile
	$(etc_make)
etc/buffertime-fcgi.service: $(srcdir)/etc/buffertime-fcgi.service.in Makefile
	$(etc_make)
etc/buffertime-worker.service: $(srcdir)/etc/buffertime-worker.service.in Makefile
	$(etc_make)
etc/buffertime-backup.service: $(srcdir)/etc/buffertime-backup.service.in Makefile
	$(etc_make)
etc/postfix-buffertime.cf: $(srcdir)/etc/postfix-buffertime.cf.in Makefile
	$(etc_make)
etc/nginx/buffertime.conf: $(srcdir)/etc/nginx-snippet.conf.in Makefile
	$(etc_make)
etc/nginx/buffertime-http.conf: $(srcdir)/etc/nginx-http.conf.in Makefile
	$(etc_make)
etc/nginx/buffertime-headers.conf: $(srcdir)/etc/nginx-headers.conf.in Makefile
	$(etc_make)
