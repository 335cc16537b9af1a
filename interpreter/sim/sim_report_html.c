/*
** sim_report_html.c
** `cairn sim ... --report FILE.html`: the run as one self-contained page
** a designer opens in any browser: inline SVG charts (no script, no
** network, no external file), each with the numbers beside it. Every value
** drawn carries the JSON path of the same value in the --json file
** (data-key="summary.seats.0.share", data-v="0.456667"; a second and third
** as data-key2/data-v2, data-key3/data-v3), printed with the same format,
** so a test can check each figure of the page against the JSON. The page is
** well-formed XML (XHTML syntax: every element closed, every attribute
** quoted, text escaped).
*/
#include "sim_internal.h"
#include "rating.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Chart geometry, in CSS pixels. */
#define CHART_W 720
#define LABEL_W 220
#define ROW_H 26
#define PLOT_H 220
#define MARGIN 30

typedef char key[128];

static void esc(FILE *f, const char *s) {
    for (; s && *s; s++) {
        switch (*s) {
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '&': fputs("&amp;", f); break;
        case '"': fputs("&quot;", f); break;
        case '\'': fputs("&#39;", f); break;
        default: fputc(*s, f);
        }
    }
}

/* data-key="k" data-v="v" (and the second and third when given). */
static void data(FILE *f, const char *k1, double v1, const char *k2, double v2, const char *k3, double v3) {
    const char *k[3] = {k1, k2, k3};
    double v[3] = {v1, v2, v3};
    static const char *const suffix[3] = {"", "2", "3"};
    for (int i = 0; i < 3; i++)
        if (k[i] && *k[i]) fprintf(f, " data-key%s=\"%s\" data-v%s=\"%.6f\"", suffix[i], k[i], suffix[i], v[i]);
}

typedef sim_html_row irow;

/* Horizontal rows: a bar from 0 (bars) or a dot (else) at v, a whisker
** from lo to hi, a dashed line at ref (NAN: none); pct shows percentages. */
static void interval_chart(FILE *f, const char *title, const irow *r, int n, int bars, double ref, int pct) {
    double lo = bars ? 0 : INFINITY, hi = bars ? 0 : -INFINITY;
    for (int i = 0; i < n; i++) {
        if (r[i].lo < lo) lo = r[i].lo;
        if (r[i].hi > hi) hi = r[i].hi;
        if (r[i].v < lo) lo = r[i].v;
        if (r[i].v > hi) hi = r[i].v;
    }
    if (!isnan(ref)) lo = ref < lo ? ref : lo, hi = ref > hi ? ref : hi;
    if (pct && bars) lo = 0, hi = hi < 1 ? 1 : hi;
    if (hi - lo < 1e-9) lo -= 1, hi += 1;
    double pad = (hi - lo) * 0.05;
    if (!(pct && bars)) lo -= pad, hi += pad;
    int plot = CHART_W - LABEL_W - 160, h = n * ROW_H + 2 * MARGIN;
#define X(val) (LABEL_W + (int)lround(((val) - lo) / (hi - lo) * plot))
    fprintf(f, "<figure><figcaption>");
    esc(f, title);
    fprintf(f, "</figcaption>\n<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
               "role=\"img\">\n",
            CHART_W, h, CHART_W, h);
    fprintf(f, "<title>");
    esc(f, title);
    fprintf(f, "</title>\n");
    if (!isnan(ref))
        fprintf(f, "<line class=\"ref\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>\n", X(ref), MARGIN / 2, X(ref),
                h - MARGIN / 2);
    for (int i = 0; i < n; i++) {
        int y = MARGIN + i * ROW_H, mid = y + ROW_H / 2;
        fprintf(f, "<text x=\"%d\" y=\"%d\" class=\"label\">", LABEL_W - 8, mid + 4);
        esc(f, r[i].label);
        fputs("</text>\n", f);
        if (bars) {
            int x0 = X(0), x1 = X(r[i].v);
            fprintf(f, "<rect class=\"bar\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\"", x0 < x1 ? x0 : x1, y + 4,
                    abs(x1 - x0), ROW_H - 8);
        } else {
            fprintf(f, "<circle class=\"dot\" cx=\"%d\" cy=\"%d\" r=\"4\"", X(r[i].v), mid);
        }
        data(f, r[i].kv, r[i].v, NULL, 0, NULL, 0);
        fputs("/>\n", f);
        fprintf(f, "<line class=\"whisker\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"", X(r[i].lo), mid, X(r[i].hi), mid);
        data(f, r[i].klo, r[i].lo, r[i].khi, r[i].hi, NULL, 0);
        fputs("/>\n", f);
        fprintf(f, "<line class=\"whisker\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>", X(r[i].lo), mid - 5, X(r[i].lo), mid + 5);
        fprintf(f, "<line class=\"whisker\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>\n", X(r[i].hi), mid - 5, X(r[i].hi),
                mid + 5);
        char text[96];
        if (pct) snprintf(text, sizeof text, "%.1f%% [%.1f, %.1f]", 100 * r[i].v, 100 * r[i].lo, 100 * r[i].hi);
        else snprintf(text, sizeof text, "%+.2f [%+.2f, %+.2f]", r[i].v, r[i].lo, r[i].hi);
        fprintf(f, "<text x=\"%d\" y=\"%d\" class=\"value\">%s</text>\n", LABEL_W + plot + 10, mid + 4, text);
    }
#undef X
    fputs("</svg></figure>\n", f);
}

/* Vertical bars: count[i] games at value[i]; keys "prefix.i.0" and ".1". */
static void histogram(FILE *f, const char *title, const sim_hist *hh, const char *prefix) {
    if (!hh->n) return;
    long most = 1;
    for (size_t i = 0; i < hh->n; i++)
        if (hh->count[i] > most) most = hh->count[i];
    int64_t lo = hh->value[0], hi = hh->value[hh->n - 1];
    int w = CHART_W - 2 * MARGIN, h = PLOT_H;
    double span = (double)(hi - lo + 1), bw = w / span;
    fprintf(f, "<figure><figcaption>");
    esc(f, title);
    fprintf(f, "</figcaption>\n<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
               "role=\"img\">\n<title>",
            CHART_W, h + 2 * MARGIN, CHART_W, h + 2 * MARGIN);
    esc(f, title);
    fputs("</title>\n", f);
    for (size_t i = 0; i < hh->n; i++) {
        int bh = (int)lround((double)hh->count[i] / (double)most * h);
        double x = MARGIN + (double)(hh->value[i] - lo) * bw;
        key kv, kc;
        snprintf(kv, sizeof kv, "%s.%zu.0", prefix, i);
        snprintf(kc, sizeof kc, "%s.%zu.1", prefix, i);
        fprintf(f, "<rect class=\"bar\" x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\"", x, MARGIN + h - bh,
                bw > 2 ? bw - 1 : bw, bh);
        data(f, kv, (double)hh->value[i], kc, (double)hh->count[i], NULL, 0);
        fprintf(f, "><title>%" PRId64 ": %ld games</title></rect>\n", hh->value[i], hh->count[i]);
    }
    fprintf(f, "<text x=\"%d\" y=\"%d\" class=\"axis\">%" PRId64 "</text>", MARGIN, MARGIN + h + 18, lo);
    fprintf(f, "<text x=\"%d\" y=\"%d\" class=\"axis end\">%" PRId64 "</text>", CHART_W - MARGIN, MARGIN + h + 18, hi);
    fprintf(f, "<text x=\"%d\" y=\"%d\" class=\"axis\">%ld games</text>\n", MARGIN, MARGIN - 8, most);
    fputs("</svg></figure>\n", f);
}

typedef sim_html_line series;

/* Lines over points 1..n (x labels given), each point a dot with its
** interval as a band (a vertical whisker); ref a dashed level (NAN: none). */
static void curve(FILE *f, const char *title, const series *s, int ns, char (*xlabel)[64], int npts, double ref, int pct) {
    double lo = INFINITY, hi = -INFINITY;
    for (int k = 0; k < ns; k++)
        for (int i = 0; i < s[k].n; i++) {
            if (s[k].p[i].lo < lo) lo = s[k].p[i].lo;
            if (s[k].p[i].hi > hi) hi = s[k].p[i].hi;
        }
    if (!isnan(ref)) lo = ref < lo ? ref : lo, hi = ref > hi ? ref : hi;
    if (pct) lo = lo > 0 ? 0 : lo, hi = hi < 1 ? 1 : hi;
    if (!(hi > lo)) lo = (isfinite(lo) ? lo : 0) - 1, hi = lo + 2;
    int w = CHART_W - 2 * MARGIN - 60, h = PLOT_H;
#define PX(i) (MARGIN + 50 + (npts > 1 ? (int)lround((double)(i) / (npts - 1) * w) : w / 2))
#define PY(v) (MARGIN + h - (int)lround(((v) - lo) / (hi - lo) * h))
    fprintf(f, "<figure><figcaption>");
    esc(f, title);
    fprintf(f, "</figcaption>\n<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
               "role=\"img\">\n<title>",
            CHART_W, h + 2 * MARGIN + 30, CHART_W, h + 2 * MARGIN + 30);
    esc(f, title);
    fputs("</title>\n", f);
    fprintf(f, "<line class=\"axisline\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>\n", MARGIN + 50, MARGIN + h,
            MARGIN + 50 + w, MARGIN + h);
    char t[48];
    snprintf(t, sizeof t, pct ? "%.0f%%" : "%.2f", pct ? 100 * lo : lo);
    fprintf(f, "<text x=\"%d\" y=\"%d\" class=\"axis end\">%s</text>", MARGIN + 44, MARGIN + h + 4, t);
    snprintf(t, sizeof t, pct ? "%.0f%%" : "%.2f", pct ? 100 * hi : hi);
    fprintf(f, "<text x=\"%d\" y=\"%d\" class=\"axis end\">%s</text>\n", MARGIN + 44, MARGIN + 4, t);
    if (!isnan(ref))
        fprintf(f, "<line class=\"ref\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>\n", MARGIN + 50, PY(ref), MARGIN + 50 + w,
                PY(ref));
    for (int i = 0; i < npts; i++) { /* the end labels run inwards, so that a long one stays on the chart */
        const char *anchor = npts < 2 ? "mid" : i == 0 ? "start" : i == npts - 1 ? "end" : "mid";
        fprintf(f, "<text x=\"%d\" y=\"%d\" class=\"axis %s\">", PX(i), MARGIN + h + 18 + (i % 2) * 12, anchor);
        esc(f, xlabel[i]);
        fputs("</text>\n", f);
    }
    for (int k = 0; k < ns; k++) {
        fprintf(f, "<g class=\"s%d\"><polyline class=\"line\" points=\"", k % 8);
        for (int i = 0; i < s[k].n; i++) fprintf(f, "%s%d,%d", i ? " " : "", PX(i), PY(s[k].p[i].v));
        fputs("\"/>\n", f);
        for (int i = 0; i < s[k].n; i++) {
            fprintf(f, "<line class=\"band\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"", PX(i), PY(s[k].p[i].lo), PX(i),
                    PY(s[k].p[i].hi));
            data(f, s[k].p[i].klo, s[k].p[i].lo, s[k].p[i].khi, s[k].p[i].hi, NULL, 0);
            fputs("/>", f);
            fprintf(f, "<circle class=\"dot\" cx=\"%d\" cy=\"%d\" r=\"3\"", PX(i), PY(s[k].p[i].v));
            data(f, s[k].p[i].kv, s[k].p[i].v, NULL, 0, NULL, 0);
            fputs("><title>", f);
            esc(f, s[k].name);
            if (pct) fprintf(f, " %s: %.1f%% [%.1f, %.1f]", xlabel[i], 100 * s[k].p[i].v, 100 * s[k].p[i].lo, 100 * s[k].p[i].hi);
            else fprintf(f, " %s: %.2f [%.2f, %.2f]", xlabel[i], s[k].p[i].v, s[k].p[i].lo, s[k].p[i].hi);
            fputs("</title></circle>\n", f);
        }
        fputs("</g>\n", f);
        fprintf(f, "<text x=\"%d\" y=\"%d\" class=\"legend s%d\">", MARGIN + 60 + k * 130, MARGIN + h + 48, k % 8);
        esc(f, s[k].name);
        fputs("</text>\n", f);
    }
#undef PX
#undef PY
    fputs("</svg></figure>\n", f);
}

/* -------------------------------------------------------------- sections */

static void share_rows(irow *r, const double *wins, long games, int n, const char *what, const char *prefix,
                       const char *list) {
    for (int i = 0; i < n; i++) {
        stats_interval iv = stats_wilson(wins[i], (double)games);
        snprintf(r[i].label, sizeof r[i].label, "%s %d", what, i + 1);
        r[i].v = games ? wins[i] / (double)games : 0, r[i].lo = iv.lo, r[i].hi = iv.hi;
        snprintf(r[i].kv, sizeof r[i].kv, "%s.%s.%d.share", prefix, list, i);
        snprintf(r[i].klo, sizeof r[i].klo, "%s.%s.%d.share_lo", prefix, list, i);
        snprintf(r[i].khi, sizeof r[i].khi, "%s.%s.%d.share_hi", prefix, list, i);
    }
}

/* One variant's figures (prefix: its JSON summary's path). */
static void run_sections(FILE *f, const sim_totals *t, const char *prefix, const char *label, int full) {
    int n = t->seats;
    long g = t->games;
    if (!g) return;
    irow r[CAIRN_MAX_SEATS];
    char title[256];
    fputs("<section>\n<h2>", f);
    esc(f, label);
    fputs("</h2>\n", f);
    share_rows(r, t->share, g, n, "seat", prefix, "seats");
    snprintf(title, sizeof title, "Win share by seat, %ld games, with 95%% Wilson intervals (dashed: the even share)", g);
    interval_chart(f, title, r, n, 1, 1.0 / n, 1);
    if (t->with_starter == g && n > 1 && t->other_starter) {
        share_rows(r, t->pos_share, g, n, "position", prefix, "positions");
        interval_chart(f, "Win share by turn position (1: the seat that started)", r, n, 1, 1.0 / n, 1);
    }
    if (!full) {
        fputs("</section>\n", f);
        return;
    }
    for (int i = 0; i < n; i++) {
        key k;
        snprintf(k, sizeof k, "%s.seats.%d.histogram", prefix, i);
        snprintf(title, sizeof title, "Final score of seat %d (games per score)", i + 1);
        histogram(f, title, &t->hist[i], k);
    }
    key k;
    snprintf(k, sizeof k, "%s.decisions_histogram", prefix);
    histogram(f, "Game length in decisions (games per length)", &t->dec_hist, k);
    const sim_traj_totals *tt = t->traj;
    if (tt && tt->points) {
        series s[CAIRN_MAX_SEATS];
        int ns = 0;
        char(*xl)[64] = calloc((size_t)tt->points, sizeof *xl);
        irow *pts = calloc((size_t)tt->points * CAIRN_MAX_SEATS, sizeof *pts);
        if (xl && pts) {
            for (long p = 0; p < tt->points; p++) snprintf(xl[p], sizeof xl[p], "%ld", tt->every ? (p + 1) * tt->every : p + 1);
            for (int c = 0; c < tt->n_cols && ns < CAIRN_MAX_SEATS; c++) {
                if (strcmp(tt->col[c].name, "score") != 0) continue;
                series *sr = &s[ns];
                snprintf(sr->name, sizeof sr->name, "seat %d", tt->col[c].seat);
                sr->p = pts + (size_t)ns * (size_t)tt->points;
                sr->n = (int)tt->points;
                for (long p = 0; p < tt->points; p++) {
                    irow *q = &sr->p[p];
                    stats_interval iv = stats_mean_ci(&tt->col[c].at[p]);
                    q->v = stats_mean(&tt->col[c].at[p]), q->lo = iv.lo, q->hi = iv.hi;
                    snprintf(q->kv, sizeof q->kv, "%s.trajectory.points.%ld.figures.%d.value.mean", prefix, p, c);
                    snprintf(q->klo, sizeof q->klo, "%s.trajectory.points.%ld.figures.%d.value.lo", prefix, p, c);
                    snprintf(q->khi, sizeof q->khi, "%s.trajectory.points.%ld.figures.%d.value.hi", prefix, p, c);
                }
                ns++;
            }
            snprintf(title, sizeof title, "Provisional score %s (mean with its 95%% band)",
                     tt->every ? "every few decisions" : "at the end of each round");
            curve(f, title, s, ns, xl, (int)tt->points, NAN, 0);
            series lw = {.n = 0};
            snprintf(lw.name, sizeof lw.name, "leader wins");
            lw.p = pts;
            for (long p = 0; p < tt->points; p++) {
                if (!tt->led[p]) break;
                irow *q = &lw.p[lw.n++];
                stats_interval iv = stats_wilson(tt->leader_won[p], (double)tt->led[p]);
                q->v = tt->leader_won[p] / (double)tt->led[p], q->lo = iv.lo, q->hi = iv.hi;
                snprintf(q->kv, sizeof q->kv, "%s.trajectory.points.%ld.leader_wins.share", prefix, p);
                snprintf(q->klo, sizeof q->klo, "%s.trajectory.points.%ld.leader_wins.lo", prefix, p);
                snprintf(q->khi, sizeof q->khi, "%s.trajectory.points.%ld.leader_wins.hi", prefix, p);
            }
            if (lw.n && n > 1)
                curve(f, "How often the seat leading at that point went on to win (dashed: the even share)", &lw, 1, xl,
                      lw.n, 1.0 / n, 1);
        }
        free(xl);
        free(pts);
    }
    fputs("</section>\n", f);
}

/* The paired differences of one comparison (prefix: its JSON object). */
static void diff_section(FILE *f, const sim_compare *c, const char *prefix, const char *title) {
    irow *r = calloc(c->n_pairs ? c->n_pairs : 1, sizeof *r);
    if (!r) return;
    int n = 0;
    for (size_t i = 0; i < c->n_pairs; i++) {
        const sim_pair *p = &c->pair[i];
        if (p->a.sumsq == 0 && p->b.sumsq == 0) continue;
        if (p->name[0] == ':' && p->seat > 0) continue;
        stats_interval d = stats_mean_ci(&p->d);
        irow *q = &r[n++];
        if (p->seat < 0) snprintf(q->label, sizeof q->label, "any seat: %s", p->name + 1);
        else if (!p->seat) snprintf(q->label, sizeof q->label, "%s", p->name);
        else snprintf(q->label, sizeof q->label, "seat %d %s", p->seat, p->name);
        q->v = stats_mean(&p->d), q->lo = d.lo, q->hi = d.hi;
        snprintf(q->kv, sizeof q->kv, "%s.differences.%zu.diff", prefix, i);
        snprintf(q->klo, sizeof q->klo, "%s.differences.%zu.lo", prefix, i);
        snprintf(q->khi, sizeof q->khi, "%s.differences.%zu.hi", prefix, i);
    }
    if (n) interval_chart(f, title, r, n, 0, 0, 0);
    free(r);
}

/* Each bot's CPU per decision (the text report's last line): not in the
** JSON, which holds only what is the same on every run, so not keyed. */
static void tour_cpu(FILE *f, const sim_tour *t) {
    fputs("<table><caption>CPU per decision, each bot (changes from run to run)</caption>\n<tr><th>bot</th>"
          "<th>decisions</th><th>ms per decision</th></tr>\n", f);
    for (int i = 0; i < t->k; i++) {
        fputs("<tr><td>", f);
        esc(f, t->spec[i]);
        fprintf(f, "</td><td>%ld</td><td>%.3f</td></tr>\n", t->asked[i],
                t->asked[i] ? t->ns[i] / 1e6 / (double)t->asked[i] : 0.0);
    }
    fputs("</table>\n", f);
}

/* The text report's table (sim_tour_report), as it prints, escaped. */
static void tour_text(FILE *f, const sim_tour *t) {
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    if (!m) return;
    sim_tour_report(m, t);
    if (fclose(m) == 0) {
        fputs("<pre>", f);
        esc(f, buf);
        fputs("</pre>\n", f);
    }
    free(buf);
}

static void tour_section(FILE *f, const sim_tour *t) {
    irow r[CAIRN_SIM_MAX_BOTS];
    fputs("<section>\n", f);
    if (t->skill) {
        int n = t->k - 1;
        fputs("<h2>Skill</h2>\n<p>Each level in every seat in turn against ", f);
        esc(f, t->spec[n]);
        fputs(" in the others. A flat curve is a game of luck at these levels.</p>\n", f);
        series s = {.n = n, .p = r};
        char xl[CAIRN_SIM_MAX_BOTS][64];
        snprintf(s.name, sizeof s.name, "win share");
        for (int l = 0; l < n; l++) {
            stats_interval w = stats_wilson(t->wins[l], (double)t->played[l]);
            r[l].v = t->played[l] ? t->wins[l] / (double)t->played[l] : 0, r[l].lo = w.lo, r[l].hi = w.hi;
            snprintf(r[l].kv, sizeof r[l].kv, "skill.levels.%d.share", l);
            snprintf(r[l].klo, sizeof r[l].klo, "skill.levels.%d.share_lo", l);
            snprintf(r[l].khi, sizeof r[l].khi, "skill.levels.%d.share_hi", l);
            snprintf(xl[l], sizeof xl[l], "%s", t->spec[l]);
        }
        curve(f, "Win share of each level against the field (dashed: the even share)", &s, 1, xl, n, 1.0 / t->players, 1);
        int m = 0;
        for (int l = 1; l < n; l++) {
            stats_acc d = sim_skill_vs_first(t, l);
            stats_interval di = stats_mean_ci(&d);
            irow *q = &r[m++];
            snprintf(q->label, sizeof q->label, "%s", t->spec[l]);
            q->v = stats_mean(&d), q->lo = di.lo, q->hi = di.hi;
            snprintf(q->kv, sizeof q->kv, "skill.levels.%d.vs_first.diff", l);
            snprintf(q->klo, sizeof q->klo, "skill.levels.%d.vs_first.lo", l);
            snprintf(q->khi, sizeof q->khi, "skill.levels.%d.vs_first.hi", l);
        }
        interval_chart(f, "Each level's win share minus the first level's, on the same seeds and seats", r, m, 0, 0, 1);
        tour_text(f, t);
        tour_cpu(f, t);
        fputs("</section>\n", f);
        return;
    }
    double theta[CAIRN_SIM_MAX_BOTS], se[CAIRN_SIM_MAX_BOTS];
    int prior = 0;
    fputs("<h2>Ratings</h2>\n", f);
    if (sim_tour_ratings(t, theta, se, &prior) == 0) {
        for (int i = 0; i < t->k; i++) {
            snprintf(r[i].label, sizeof r[i].label, "%s", t->spec[i]);
            r[i].v = RATING_ELO * theta[i], r[i].lo = RATING_ELO * (theta[i] - STATS_Z95 * se[i]);
            r[i].hi = RATING_ELO * (theta[i] + STATS_Z95 * se[i]);
            snprintf(r[i].kv, sizeof r[i].kv, "tournament.bots.%d.rating", i);
            snprintf(r[i].klo, sizeof r[i].klo, "tournament.bots.%d.rating_lo", i);
            snprintf(r[i].khi, sizeof r[i].khi, "tournament.bots.%d.rating_hi", i);
        }
        interval_chart(f, t->players == 2 ? "Bradley-Terry rating on Elo's scale, mean 0, with 95% intervals"
                                          : "Plackett-Luce rating on Elo's scale, mean 0, with 95% intervals",
                       r, t->k, 0, 0, 0);
    }
    fputs("<table><caption>The row bot's share of its meetings with the column bot (ahead of it; a tie half)</caption>\n<tr><th></th>", f);
    for (int j = 0; j < t->k; j++) {
        fputs("<th>", f);
        esc(f, t->spec[j]);
        fputs("</th>", f);
    }
    fputs("</tr>\n", f);
    for (int i = 0; i < t->k; i++) {
        fputs("<tr><th>", f);
        esc(f, t->spec[i]);
        fputs("</th>", f);
        int a = 0; /* the index of j in the JSON's "against" list */
        for (int j = 0; j < t->k; j++) {
            if (i == j || !t->met[i][j]) {
                fputs("<td>-</td>", f);
                continue;
            }
            stats_interval w = stats_wilson(t->over[i][j], (double)t->met[i][j]);
            key kv, klo, khi;
            snprintf(kv, sizeof kv, "tournament.bots.%d.against.%d.share", i, a);
            snprintf(klo, sizeof klo, "tournament.bots.%d.against.%d.share_lo", i, a);
            snprintf(khi, sizeof khi, "tournament.bots.%d.against.%d.share_hi", i, a);
            a++;
            fputs("<td", f);
            data(f, kv, t->over[i][j] / (double)t->met[i][j], klo, w.lo, khi, w.hi);
            fprintf(f, ">%.1f%% [%.1f, %.1f]</td>", 100 * t->over[i][j] / (double)t->met[i][j], 100 * w.lo, 100 * w.hi);
        }
        fputs("</tr>\n", f);
    }
    fputs("</table>\n", f);
    tour_text(f, t);
    tour_cpu(f, t);
    fputs("</section>\n", f);
}

static const char STYLE[] =
    "body{font-family:system-ui,sans-serif;margin:2em;max-width:60em;color:#222}"
    "h1{font-size:1.4em}h2{font-size:1.15em;border-bottom:1px solid #ccc}"
    "figure{margin:1em 0}figcaption{font-weight:600;margin-bottom:.3em}"
    "svg{background:#fafafa;border:1px solid #ddd;max-width:100%;height:auto}"
    ".bar{fill:#6a9fd4}.dot{fill:#1f4e79}.whisker{stroke:#1f4e79;stroke-width:2}"
    ".ref{stroke:#c0392b;stroke-dasharray:4 3}.label{text-anchor:end;font-size:12px}"
    ".value,.axis{font-size:11px}.end{text-anchor:end}.mid{text-anchor:middle}.start{text-anchor:start}"
    ".axisline{stroke:#999}.line{fill:none;stroke-width:2}.band{stroke-width:6;stroke-opacity:.25}"
    ".s0 .line,.s0 .band{stroke:#1f77b4}.s1 .line,.s1 .band{stroke:#ff7f0e}.s2 .line,.s2 .band{stroke:#2ca02c}"
    ".s3 .line,.s3 .band{stroke:#d62728}.s4 .line,.s4 .band{stroke:#9467bd}.s5 .line,.s5 .band{stroke:#8c564b}"
    ".s6 .line,.s6 .band{stroke:#e377c2}.s7 .line,.s7 .band{stroke:#7f7f7f}"
    "text.legend.s0{fill:#1f77b4}text.legend.s1{fill:#ff7f0e}text.legend.s2{fill:#2ca02c}text.legend.s3{fill:#d62728}"
    "table{border-collapse:collapse;font-size:13px}td,th{border:1px solid #ccc;padding:3px 6px;text-align:right}"
    "code,pre{background:#f0f0f0;padding:.2em .4em;white-space:pre-wrap;overflow-wrap:anywhere}";

/* ------------------------------------------- the page, for other pages */

void sim_html_text(FILE *f, const char *s) { esc(f, s); }

void sim_html_intervals(FILE *f, const char *title, const sim_html_row *r, int n, int bars, double ref, int pct) {
    interval_chart(f, title, r, n, bars, ref, pct);
}

void sim_html_curve(FILE *f, const char *title, const sim_html_line *s, int ns, char (*xlabel)[64], int npts, double ref,
                    int pct) {
    curve(f, title, s, ns, xlabel, npts, ref, pct);
}

void sim_html_data(FILE *f, const char *k, double v) { data(f, k, v, NULL, 0, NULL, 0); }

FILE *sim_html_open(const char *path, const char *title, FILE *err) {
    FILE *f = fopen(path, "w");
    if (!f) return fprintf(err, "cairn sim: cannot write %s: %s\n", path, strerror(errno)), NULL;
    fputs("<!DOCTYPE html>\n<html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n"
          "<title>cairn sim: ", f);
    esc(f, title);
    fprintf(f, "</title>\n<style>%s</style>\n</head>\n<body>\n<h1>", STYLE);
    esc(f, title);
    return f;
}

int sim_html_close(FILE *f, const char *path, FILE *err) {
    fputs("<p>Made by cairn sim. The same figures are in the --json file.</p>\n</body>\n</html>\n", f);
    int bad = ferror(f);
    if (fclose(f) != 0 || bad) return fprintf(err, "cairn sim: writing %s failed\n", path), 1;
    return 0;
}

int sim_report_html(const char *path, const sim_html *in, FILE *err) {
    const sim_header *h = in->h;
    FILE *f = sim_html_open(path, h->id, err);
    if (!f) return 1;
    fprintf(f, " %s: %ld %s, %d %s</h1>\n<p>Bots: ", h->version, h->games, h->games == 1 ? "game" : "games", h->players,
            h->players == 1 ? "player" : "players");
    esc(f, h->bots);
    fprintf(f, ". Seeds from %" PRIu64 ". Every interval is 95%%.</p>\n<p>To make this report again:</p>\n<pre>", h->seed);
    esc(f, in->command);
    fputs("</pre>\n", f);
    if (in->tour) tour_section(f, in->tour); /* the question asked first */
    if (in->variants <= 1 && in->t) {
        fputs("<p>Options: ", f);
        esc(f, h->options);
        fputs("</p>\n", f);
        run_sections(f, in->t, "summary", "Who wins", 1);
    } else if (!h->sweep && in->variants == 2) {
        fputs("<p>A: ", f);
        esc(f, h->label[0]);
        fputs("<br/>B: ", f);
        esc(f, h->label[1]);
        fputs("</p>\n<section>\n<h2>B - A</h2>\n", f);
        char title[128];
        snprintf(title, sizeof title, "B - A on %ld paired games: the mean difference with its 95%% interval", in->cmp[0].pairs);
        diff_section(f, &in->cmp[0], "summary", title);
        fputs("</section>\n", f);
        run_sections(f, &in->cmp[0].t[0], "summary.a", "A", 1);
        run_sections(f, &in->cmp[0].t[1], "summary.b", "B", 1);
    } else if (h->sweep) {
        fputs("<p>Sweep ", f);
        esc(f, h->sweep);
        fputs(":</p>\n<ul>", f);
        for (int v = 0; v < in->variants; v++) {
            fprintf(f, "<li>%c: ", 'A' + v);
            esc(f, h->label[v]);
            fputs("</li>", f);
        }
        fputs("</ul>\n", f);
        const char *base = in->fact ? "summary.sweep" : "summary"; /* a factorial's columns: under "sweep" */
        if (in->fact) {
            int m = SIM_FACTORIAL_MAX * (3 + 2 * CAIRN_MAX_SEATS); /* more than the effects */
            irow *r = calloc((size_t)m, sizeof *r);
            int n = r ? sim_factorial_rows(in->fact, r, m) : 0;
            fputs("<section>\n<h2>Main effects</h2>\n", f);
            interval_chart(f, "Each factor's main effect (on - off), with its 95% interval (win shares as fractions)", r,
                           n, 0, 0, 0);
            fputs("</section>\n", f);
            free(r);
        }
        for (int k = 0; k + 1 < in->variants; k++) {
            char prefix[64], title[128];
            snprintf(prefix, sizeof prefix, "%s.against_a.%d", base, k);
            snprintf(title, sizeof title, "%c - A on %ld paired games, with 95%% intervals", 'B' + k, in->cmp[k].pairs);
            fprintf(f, "<section>\n<h2>%c - A</h2>\n", 'B' + k);
            diff_section(f, &in->cmp[k], prefix, title);
            fputs("</section>\n", f);
        }
        for (int v = 0; v < in->variants; v++) {
            char prefix[64], label[8];
            snprintf(prefix, sizeof prefix, "%s.against_a.%d.%s", base, v ? v - 1 : 0, v ? "b" : "a");
            snprintf(label, sizeof label, "%c", 'A' + v);
            run_sections(f, v ? &in->cmp[v - 1].t[1] : &in->cmp[0].t[0], prefix, label, 0);
        }
    }
    if (in->cpu && in->names) {
        fputs("<section>\n<h2>Cost</h2>\n<table><tr><th>seat</th><th>bot</th><th>ms per decision</th></tr>\n", f);
        for (int i = 0; i < h->players; i++) {
            double ms = in->cpu->asked[i] ? in->cpu->ns[i] / 1e6 / (double)in->cpu->asked[i] : 0.0;
            key k;
            snprintf(k, sizeof k, "cpu.%d.ms_per_decision", i);
            fprintf(f, "<tr><td>%d</td><td>", i + 1);
            esc(f, in->names[i]);
            fputs("</td><td", f);
            data(f, k, ms, NULL, 0, NULL, 0);
            fprintf(f, ">%.3f</td></tr>\n", ms);
        }
        fputs("</table>\n<p>CPU per decision changes from run to run; every other figure is the same on every run.</p>\n"
              "</section>\n",
              f);
    }
    fputs("<p>Made by cairn sim. The same figures, and every game, are in the --json file.</p>\n</body>\n</html>\n", f);
    int bad = ferror(f);
    if (fclose(f) != 0 || bad) return fprintf(err, "cairn sim: writing %s failed\n", path), 1;
    return 0;
}
