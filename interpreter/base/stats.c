/*
** stats.c
** Intervals and running samples for `cairn sim` (stats.h). The formulas are
** the textbook ones, written out so a test can check them by hand.
*/
#include "stats.h"

#include <math.h>

void stats_add(stats_acc *a, double x) {
    if (a->n == 0 || x < a->min) a->min = x;
    if (a->n == 0 || x > a->max) a->max = x;
    a->n++;
    a->sum += x;
    a->sumsq += x * x;
}

double stats_mean(const stats_acc *a) { return a->n ? a->sum / (double)a->n : 0.0; }

double stats_sd(const stats_acc *a) {
    if (a->n < 2) return 0.0;
    double n = (double)a->n, m = a->sum / n;
    double ss = a->sumsq - n * m * m; /* sum of squared deviations */
    return ss > 0 ? sqrt(ss / (n - 1)) : 0.0;
}

/* t(0.975, df) for df 1..30 (any statistics table). */
static const double t975[30] = {
    12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
    2.201,  2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
    2.080,  2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
};

/* Past the table, the Cornish-Fisher expansion of t in powers of 1/df
** around z (Abramowitz and Stegun 26.7.5, four terms): within 1e-6 of the
** exact quantile from df 30 on (df 60: 2.000298, df 100: 1.983972). */
static double t_expansion(double df) {
    double z = STATS_Z95, z2 = z * z;
    double g1 = (z2 * z + z) / 4;
    double g2 = (5 * z2 * z2 * z + 16 * z2 * z + 3 * z) / 96;
    double g3 = (3 * z2 * z2 * z2 * z + 19 * z2 * z2 * z + 17 * z2 * z - 15 * z) / 384;
    double g4 = (79 * z2 * z2 * z2 * z2 * z + 776 * z2 * z2 * z2 * z + 1482 * z2 * z2 * z - 1920 * z2 * z - 945 * z) / 92160;
    return z + g1 / df + g2 / (df * df) + g3 / (df * df * df) + g4 / (df * df * df * df);
}

double stats_t95(long df) {
    if (df < 1) df = 1;
    if (df <= 30) return t975[df - 1];
    return df < STATS_T_UNTIL - 1 ? t_expansion((double)df) : STATS_Z95;
}

double stats_none_seen(long n) {
    double z2 = STATS_Z95 * STATS_Z95;
    return n > 0 ? z2 / ((double)n + z2) : 1.0;
}

stats_interval stats_mean_ci(const stats_acc *a) {
    double m = stats_mean(a), sd = stats_sd(a);
    if (a->n < 2 || sd == 0) { /* no spread seen: at most one unit, as often as "none in n" allows */
        double u = stats_none_seen(a->n);
        return (stats_interval){m - u, m + u};
    }
    double half = stats_t95(a->n - 1) * sd / sqrt((double)a->n);
    return (stats_interval){m - half, m + half};
}

stats_interval stats_two_valued(double low, double high, double k, double n) {
    stats_interval w = stats_wilson(k, n);
    return (stats_interval){low + (high - low) * w.lo, low + (high - low) * w.hi};
}

stats_interval stats_wilson(double k, double n) {
    if (n <= 0) return (stats_interval){0, 1};
    double z = STATS_Z95, z2 = z * z, p = k / n;
    double denom = 1 + z2 / n;
    double center = (p + z2 / (2 * n)) / denom;
    double half = z / denom * sqrt(p * (1 - p) / n + z2 / (4 * n * n));
    double lo = center - half, hi = center + half;
    return (stats_interval){lo < 0 ? 0 : lo, hi > 1 ? 1 : hi};
}

int stats_excludes_zero(stats_interval i) { return i.lo > 0 || i.hi < 0; }

int stats_holds(stats_interval i, double x) { return i.lo <= x && x <= i.hi; }
