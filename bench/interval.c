/*
 * interval.c - the 95% interval of a share won, counting games (see
 * interval.h).
 */
#include <math.h>

#include "interval.h"

void interval_by_games(uint64_t won, uint64_t n, uint64_t sq, double *lo,
                       double *hi)
{
	const double z = 1.959963984540054;
	double p = (double)won / (double)n;
	double trials = (double)n * (double)n / (double)sq;
	double d = 1 + z * z / trials;
	double mid = (p + z * z / (2 * trials)) / d;
	double half = z / d * sqrt(p * (1 - p) / trials +
	                           z * z / (4 * trials * trials));

	*lo = mid - half < 0 ? 0 : mid - half;
	*hi = mid + half > 1 ? 1 : mid + half;
}
