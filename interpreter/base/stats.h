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

/* Two-sided 95% quantile of Student's t with df degrees of freedom (df < 1
** gives the df 1 value; past 30 the normal one, within 0.04). */
double stats_t95(long df);

/* The 95% interval of the mean: mean -/+ t95(n-1) sd / sqrt(n); a single
** value or no spread gives [mean, mean]. */
stats_interval stats_mean_ci(const stats_acc *a);

/* Wilson's 95% score interval for `successes` out of n trials (successes
** may be fractional: a shared win counts its part). n 0 gives [0, 1]. */
stats_interval stats_wilson(double successes, double n);

/* 1 when the interval excludes 0: the difference it bounds is significant
** at the 5% level. */
int stats_excludes_zero(stats_interval i);

/* 1 when the interval holds x. */
int stats_holds(stats_interval i, double x);

#endif
