/*
** sim_until.c
** Runs that stop when they know, and say how far from knowing they are:
** --until-width W (stop once every win-share interval is at most W wide),
** the running estimate in each 10% progress line, and, under a comparison,
** how many paired games a win-share shift of the size seen would need to be
** detected.
*/
#include "sim_internal.h"

#include <math.h>
#include <string.h>

/* The normal quantile of 80% power (one-sided 0.80). */
#define Z_POWER80 0.8416212335729143

/* The widest win-share interval of t (seats, and turn positions when every
** game named its starter). 1 with no games. */
static double widest(const sim_totals *t) {
    if (!t->games) return 1;
    double w = 0;
    for (int i = 0; i < t->seats; i++) {
        stats_interval iv = stats_wilson(t->share[i], (double)t->games);
        if (iv.hi - iv.lo > w) w = iv.hi - iv.lo;
        if (t->with_starter == t->games && t->other_starter) {
            iv = stats_wilson(t->pos_share[i], (double)t->games);
            if (iv.hi - iv.lo > w) w = iv.hi - iv.lo;
        }
    }
    return w;
}

int sim_until_done(const sim_totals *t, double width) {
    return width > 0 && t->games >= SIM_UNTIL_MIN_GAMES && widest(t) <= width;
}

void sim_until_line(FILE *out, const sim_totals *t, double width, long asked, int stopped) {
    if (width <= 0) return;
    double w = widest(t);
    if (stopped)
        fprintf(out, "until width %.3f: stopped after %ld of at most %ld games, the widest win-share interval %.3f wide\n",
                width, t->games, asked, w);
    else
        fprintf(out, "until width %.3f: not reached in %ld games (the widest win-share interval is %.3f wide; about "
                     "%.0f games would do)\n",
                width, t->games, w, w > 0 ? ceil((double)t->games * (w / width) * (w / width)) : 0.0);
}

void sim_until_json(FILE *f, const sim_totals *t, double width, int stopped) {
    fprintf(f, "{\"width\": %.6f, \"reached\": %s, \"games\": %ld, \"widest\": %.6f}", width, stopped ? "true" : "false",
            t->games, widest(t));
}

void sim_until_estimate(FILE *err, const sim_totals *t, const sim_compare *c) {
    if (t && t->games) {
        fputs("; so far", err);
        for (int i = 0; i < t->seats; i++) {
            stats_interval iv = stats_wilson(t->share[i], (double)t->games);
            fprintf(err, "%s seat %d %.1f%% [%.1f, %.1f]", i ? "," : "", i + 1, 100 * t->share[i] / (double)t->games,
                    100 * iv.lo, 100 * iv.hi);
        }
    } else if (c && c->pairs) {
        fputs("; so far, B - A", err);
        int k = 0;
        for (size_t i = 0; i < c->n_pairs; i++) {
            const sim_pair *p = &c->pair[i];
            if (p->seat < 1 || strcmp(p->name, "win share") != 0) continue;
            stats_interval d = stats_mean_ci(&p->d);
            fprintf(err, "%s seat %d %+.1f [%+.1f, %+.1f]", k++ ? "," : "", p->seat, 100 * stats_mean(&p->d), 100 * d.lo,
                    100 * d.hi);
        }
    }
}

long sim_games_to_detect(const stats_acc *d) {
    double m = fabs(stats_mean(d)), sd = stats_sd(d);
    if (m == 0 || d->n < 2) return -1;
    double n = (STATS_Z95 + Z_POWER80) * sd / m;
    n *= n;
    return n > 1e9 ? -1 : (long)ceil(n);
}

void sim_detect_lines(FILE *out, const sim_compare *c) {
    int any = 0;
    for (size_t i = 0; i < c->n_pairs; i++) {
        const sim_pair *p = &c->pair[i];
        if (p->seat < 1 || strcmp(p->name, "win share") != 0) continue;
        fputs(any++ ? ", " : "games to detect each win-share shift of the size seen (5% level, 80% power, paired): ",
              out);
        long n = sim_games_to_detect(&p->d);
        if (n < 0) fprintf(out, "seat %d none seen", p->seat);
        else
            fprintf(out, "seat %d %+.1f needs about %ld%s", p->seat, 100 * stats_mean(&p->d), n,
                    n <= c->pairs ? " (these games suffice)" : "");
    }
    if (any) fputc('\n', out);
}
