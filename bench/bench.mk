# bench/bench.mk - included by Makefile.am: the benchmarks' programs (built
# by make check, so the shell tests can run them small; scripts/bench runs
# them whole) and their scripts.  They take the tests' flags and
# libraries (tests/tests.mk) unless they say otherwise.

# the FastCGI responder that does nothing: the web bench's yardstick
check_PROGRAMS += bench/bare_fcgi
bench_bare_fcgi_LDADD = $(FCGI_LIBS)

check_PROGRAMS += bench/store_bench

# the post-game review's ratings against the games' outcomes
# (tests/bots.sh runs it small), and their fit
check_PROGRAMS += bench/calibration bench/calibration_fit
bench_calibration_SOURCES = bench/calibration.c bench/interval.c \
	bench/interval.h cli/args.c cli/args.h
bench_calibration_CFLAGS = $(BASE_CFLAGS) -I$(top_srcdir)/bots -I$(top_srcdir)/cli
bench_calibration_LDADD = $(BOTS_LIBS) $(PTHREAD_LIBS)
bench_calibration_fit_SOURCES = bench/calibration_fit.c bench/interval.c \
	bench/interval.h
bench_calibration_fit_CFLAGS = $(BASE_CFLAGS) -I$(top_srcdir)/bots
bench_calibration_fit_LDADD = $(LIBM)

# The fastest fake sendmail.  It stands for another program (a real
# sendmail is not built with our sanitizers): without them its exit is as
# quick as a real one's, and the kill test measures the mailer's window,
# not ASan's teardown.
check_PROGRAMS += bench/fake_sendmail
bench_fake_sendmail_CFLAGS = $(PLAIN_CFLAGS)
bench_fake_sendmail_LDFLAGS =
bench_fake_sendmail_LDADD =

# bench/inbound.sh times each run of the tool with this
check_PROGRAMS += bench/spawn_time
bench_spawn_time_LDADD =

EXTRA_DIST += bench/web.sh bench/play.lua bench/bots.sh bench/review.sh bench/botlag.sh \
	bench/engines.sh \
	bench/mailer.sh bench/notices.sh bench/inbound.sh bench/talk.sh
