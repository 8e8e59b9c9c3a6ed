/*
 * review_chart.h - the post-game review (bots/review.h) as HTML: the
 * crew's chance of winning after every move drawn as an inline SVG chart
 * (made by the program, no JavaScript, scales to a 390 px phone), and the
 * same figures as a table for screen readers and for anyone who prefers
 * numbers.
 *
 * Both write into an out buffer (cgi/out.h) and follow its rules: failure
 * is sticky, so check o->failed once at the end.  Figures outside 0..1
 * are clamped, and nothing is read past r->nmoves (itself clamped to
 * 0..REVIEW_MAX_MOVES).
 */
#ifndef BT_REVIEW_CHART_H
#define BT_REVIEW_CHART_H

#include "out.h"
#include "review.h"

/* The size of the chart's text in its user units, which www/style.css
 * sets (.review-chart text): 13 of the viewBox's 360 are 12 px or more
 * at 390 px, when the page's padding leaves the chart 340 px. */
enum { REVIEW_CHART_TEXT_UNITS = 13 };

/*
 * An <svg> element (role="img", named by its <title>, described in words
 * by its <desc>): the moves across,
 * the chance 0-100% up, a band per round, and the turning points marked
 * 1, 2, 3 in the order of r->turning.  Styled by the chart-* classes of
 * www/style.css.  names (seat names, names[seat - 1]) is not drawn; it is
 * there so both functions take the same arguments.
 */
void review_chart_svg(out *o, const review *r, const char *const names[],
                      int nnames);

/*
 * A <table> of the same figures, one row per move: Move, Round, Player
 * (names[seat - 1] if given and not empty, else "Seat N"; escaped),
 * Chance before, Chance after (whole percent).
 */
void review_chart_table(out *o, const review *r, const char *const names[],
                        int nnames);

#endif
