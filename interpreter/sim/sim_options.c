/*
** sim_options.c
** Which option matters (with --coverage): per option id prefix, the win
** share of the seats that took it in a game against the seats that did
** not. A difference beyond noise is a correlation, not a cause (a seat that
** is winning may take an option because it is winning), so each flagged
** line names the --ban that tests it causally.
*/
#include "sim_internal.h"

#include <math.h>

/* Seat-games a side needs before its share is compared. */
#define EFFECT_MIN_N 5

stats_interval sim_share_difference(double wins1, long n1, double wins2, long n2, double *diff) {
    double p1 = n1 ? wins1 / (double)n1 : 0, p2 = n2 ? wins2 / (double)n2 : 0;
    stats_interval w1 = stats_wilson(wins1, (double)n1), w2 = stats_wilson(wins2, (double)n2);
    double c1 = (w1.lo + w1.hi) / 2, c2 = (w2.lo + w2.hi) / 2; /* Wilson's centres: never 0 or 1 */
    double se = sqrt(c1 * (1 - c1) / (double)(n1 ? n1 : 1) + c2 * (1 - c2) / (double)(n2 ? n2 : 1));
    *diff = p1 - p2;
    return (stats_interval){p1 - p2 - STATS_Z95 * se, p1 - p2 + STATS_Z95 * se};
}

void sim_option_effects(FILE *out, const sim_totals *t) {
    int shown = 0, flagged = 0;
    const char *first = NULL; /* the first flagged prefix, for the example */
    for (size_t i = 0; i < t->n_cov; i++) {
        const sim_cov *c = &t->cov[i];
        if (c->with_n < EFFECT_MIN_N || c->without_n < EFFECT_MIN_N) continue;
        if (!shown++)
            fprintf(out, "option and win share (the seats that took it in a game against those that did not; a "
                         "correlation, not a cause):\n  %-20s%22s%22s%26s\n",
                    "option", "took it", "did not", "difference [95%]");
        double d;
        stats_interval iv = sim_share_difference(c->with_wins, c->with_n, c->without_wins, c->without_n, &d);
        int flag = stats_excludes_zero(iv);
        flagged += flag;
        if (flag && !first) first = c->prefix;
        char a[48], b[48], diff[48];
        snprintf(a, sizeof a, "%.1f%% (%ld)", 100 * c->with_wins / (double)c->with_n, c->with_n);
        snprintf(b, sizeof b, "%.1f%% (%ld)", 100 * c->without_wins / (double)c->without_n, c->without_n);
        snprintf(diff, sizeof diff, "%+.1f [%+.1f, %+.1f]", 100 * d, 100 * iv.lo, 100 * iv.hi);
        fprintf(out, "  %-20s%22s%22s%26s%s\n", c->prefix, a, b, diff, flag ? " *" : "");
    }
    if (flagged)
        fprintf(out, "*: beyond noise; whether taking it causes the difference is a question for --ban: that seat never "
                     "takes it (--ban 1:%s), and its win share against a run without the ban says\n",
                first);
}

void sim_option_effect_json(FILE *f, const sim_cov *c) {
    if (!c->with_n || !c->without_n) {
        fputs("null", f);
        return;
    }
    double d;
    stats_interval iv = sim_share_difference(c->with_wins, c->with_n, c->without_wins, c->without_n, &d);
    fprintf(f, "{\"with\": %.6f, \"with_n\": %ld, \"without\": %.6f, \"without_n\": %ld, \"diff\": %.6f, \"lo\": %.6f, "
               "\"hi\": %.6f, \"flagged\": %s}",
            c->with_wins / (double)c->with_n, c->with_n, c->without_wins / (double)c->without_n, c->without_n, d, iv.lo,
            iv.hi, stats_excludes_zero(iv) && c->with_n >= EFFECT_MIN_N && c->without_n >= EFFECT_MIN_N ? "true" : "false");
}
