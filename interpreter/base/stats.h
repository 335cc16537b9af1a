/*
** stats.h
** The statistics `cairn sim` reports: 95% Wilson intervals for shares, mean
** and standard deviation with a t interval, and paired differences. Pure
** arithmetic on doubles; the caller adds values in a fixed order, so the
** same values give the same figures, bit for bit.
*/
#ifndef CAIRN_STATS_H
#define CAIRN_STATS_H

#include <stdint.h>

/* The normal quantile for a two-sided 95% interval. */
#define STATS_Z95 1.959963984540054

/* A running sample: count, sum, sum of squares, extremes. */
typedef struct stats_acc {
    long n;
    double sum, sumsq, min, max;
} stats_acc;

typedef struct stats_interval {
    double lo, hi;
} stats_interval;

void stats_add(stats_acc *a, double x);
double stats_mean(const stats_acc *a);      /* 0 when empty */
double stats_sd(const stats_acc *a);        /* sample sd (n - 1); 0 below 2 values */

/* Samples of this many values and more use the normal quantile; below it
** Student's t (at 119 degrees of freedom t is 1.980, 1% above 1.960). */
#define STATS_T_UNTIL 120

/* Two-sided 95% quantile of Student's t with df degrees of freedom (df < 1
** gives the df 1 value): a table to df 30, an expansion to within 1e-6
** after it, the normal one from STATS_T_UNTIL - 1 on. */
double stats_t95(long df);

/* The 95% upper bound on a rate of which none was seen in n trials (the
** Wilson bound for 0 of n: z^2 / (n + z^2), about 3.84 / n): 1 for n 0. */
double stats_none_seen(long n);

/* The 95% interval of the mean: mean -/+ t95(n-1) sd / sqrt(n). A sample
** with no spread (or one value) is never given a zero-width interval: it
** is mean -/+ stats_none_seen(n), the figure's values taken as whole units
** (no game moved it by one unit, so at most that share of games could). */
stats_interval stats_mean_ci(const stats_acc *a);

/* The interval of the mean of a figure that takes only the values low and
** high, high in k of n games: Wilson's interval for k of n, scaled onto
** [low, high] (inside them, and never zero width). */
stats_interval stats_two_valued(double low, double high, double k, double n);

/* Wilson's 95% score interval for `successes` out of n trials (successes
** may be fractional: a shared win counts its part). n 0 gives [0, 1]. */
stats_interval stats_wilson(double successes, double n);

/* 1 when the interval excludes 0: the difference it bounds is significant
** at the 5% level. */
int stats_excludes_zero(stats_interval i);

/* 1 when the interval holds x. */
int stats_holds(stats_interval i, double x);

#endif
