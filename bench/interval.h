/*
 * interval.h - the 95% interval of the share of rated positions whose
 * games were won (bench/calibration and bench/calibration_fit print it).
 */
#ifndef BENCH_INTERVAL_H
#define BENCH_INTERVAL_H

#include <stdint.h>

/* Of n positions (n > 0), won were in games won; sq sums, over their
 * games, the square of how many positions each has.  A game's positions
 * are won or lost together, so the games are the independent trials:
 * their effective number is n^2 / sq (the number of games when each has
 * as many positions, 1 when one game has them all), and the interval is
 * Wilson's for that many. */
void interval_by_games(uint64_t won, uint64_t n, uint64_t sq, double *lo,
                       double *hi);

#endif
