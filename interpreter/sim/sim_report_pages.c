/*
** sim_report_pages.c
** `--report FILE.html` for the runs made of whole runs: a --sweep
** players=... or bots=... series (the first-player advantage and every
** position's share per value, and the game length) and a --tune search (the
** target share at every value tried). The same kind of page as
** sim_report_html.c's, from its pieces: inline SVG, no script, every figure
** carrying the JSON path of the same figure in the --json file.
*/
#include "sim_internal.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The command that makes the page again, and the seeds. */
static void page_intro(FILE *f, const char *what, const char *command, uint64_t seed) {
    fputs("</h1>\n<p>", f);
    sim_html_text(f, what);
    fprintf(f, " Seeds from %" PRIu64 ". Every interval is 95%% (Wilson).</p>\n<p>To make this report again:</p>\n<pre>",
            seed);
    sim_html_text(f, command);
    fputs("</pre>\n", f);
}

/* What the text report printed, escaped. */
static void page_text(FILE *f, const char *text) {
    fputs("<pre>", f);
    sim_html_text(f, text);
    fputs("</pre>\n", f);
}

static void value_name(const sim_series *s, int k, char *name, size_t size) {
    if (s->players) snprintf(name, size, "players=%d", s->seats[k]);
    else snprintf(name, size, "bots=%s", s->bot[k]);
}

int sim_series_html(const char *path, const sim_series *s, const sim_series_page *pg, FILE *err) {
    char title[300];
    snprintf(title, sizeof title, "%s: sweep %s", pg->ruleset, pg->sweep);
    FILE *f = sim_html_open(path, title, err);
    if (!f) return 1;
    char what[200];
    snprintf(what, sizeof what, "One run of %ld games per value, each on the same seeds.", pg->games);
    page_intro(f, what, pg->command, pg->seed);
    sim_html_row r[CAIRN_SIM_MAX_VARIANTS > CAIRN_MAX_SEATS ? CAIRN_SIM_MAX_VARIANTS : CAIRN_MAX_SEATS];
    int n = 0;
    for (int k = 0; k < s->n; k++) { /* the first player's share, one row per value */
        const sim_series_point *p = &s->point[k];
        if (!p->games) continue;
        sim_html_row *q = &r[n++];
        stats_interval w = stats_wilson(p->wins[0], (double)p->games);
        char name[64];
        value_name(s, k, name, sizeof name);
        snprintf(q->label, sizeof q->label, "%s (even %.1f%%)%s", name, 100.0 / (p->seats ? p->seats : 1),
                 p->by_position ? "" : " *");
        q->v = p->wins[0] / (double)p->games, q->lo = w.lo, q->hi = w.hi;
        snprintf(q->kv, sizeof q->kv, "values.%d.shares.0.share", k);
        snprintf(q->klo, sizeof q->klo, "values.%d.shares.0.lo", k);
        snprintf(q->khi, sizeof q->khi, "values.%d.shares.0.hi", k);
    }
    fputs("<section>\n<h2>First-player advantage</h2>\n", f);
    sim_html_intervals(f, "Win share of turn position 1 (the seat that started) per value; its even share in brackets",
                       r, n, 1, NAN, 1);
    fputs("</section>\n<section>\n<h2>Every position</h2>\n", f);
    for (int k = 0; k < s->n; k++) {
        const sim_series_point *p = &s->point[k];
        if (!p->games) continue;
        for (int i = 0; i < p->seats; i++) {
            stats_interval w = stats_wilson(p->wins[i], (double)p->games);
            snprintf(r[i].label, sizeof r[i].label, "%s %d", p->by_position ? "position" : "seat", i + 1);
            r[i].v = p->wins[i] / (double)p->games, r[i].lo = w.lo, r[i].hi = w.hi;
            snprintf(r[i].kv, sizeof r[i].kv, "values.%d.shares.%d.share", k, i);
            snprintf(r[i].klo, sizeof r[i].klo, "values.%d.shares.%d.lo", k, i);
            snprintf(r[i].khi, sizeof r[i].khi, "values.%d.shares.%d.hi", k, i);
        }
        char name[64], t[160];
        value_name(s, k, name, sizeof name);
        snprintf(t, sizeof t, "%s: win share by %s, %ld games (dashed: the even share)", name,
                 p->by_position ? "turn position" : "seat", p->games);
        sim_html_intervals(f, t, r, p->seats, 1, 1.0 / p->seats, 1);
    }
    fputs("</section>\n<section>\n<h2>Game length</h2>\n<table><tr><th>value</th><th>games</th><th>failed</th>"
          "<th>mean decisions</th></tr>\n", f);
    for (int k = 0; k < s->n; k++) {
        const sim_series_point *p = &s->point[k];
        char name[64], key[64];
        value_name(s, k, name, sizeof name);
        snprintf(key, sizeof key, "values.%d.decisions", k);
        fputs("<tr><td>", f);
        sim_html_text(f, name);
        fprintf(f, "</td><td>%ld</td><td>%ld</td><td", p->games, p->failed);
        sim_html_data(f, key, stats_mean(&p->decisions));
        fprintf(f, ">%.1f</td></tr>\n", stats_mean(&p->decisions));
    }
    fputs("</table>\n</section>\n<section>\n<h2>The table</h2>\n", f);
    page_text(f, pg->text);
    fputs("</section>\n", f);
    return sim_html_close(f, path, err);
}

int sim_tune_html(const char *path, const sim_tune *t, const sim_series_page *pg, FILE *err) {
    char title[400];
    snprintf(title, sizeof title, "%s: tune %s in %" PRId64 "..%" PRId64, pg->ruleset, t->path, t->lo, t->hi);
    FILE *f = sim_html_open(path, title, err);
    if (!f) return 1;
    char what[300];
    snprintf(what, sizeof what, "Target: %s %d win share = %.3f, by bisection; every value tried plays the same %ld seeds.",
             t->by_position ? "position" : "seat", t->which, t->target, pg->games);
    page_intro(f, what, pg->command, pg->seed);
    sim_html_row *r = calloc((size_t)(t->n ? t->n : 1), sizeof *r);
    if (!r) {
        fclose(f);
        return fprintf(err, "cairn sim: out of memory\n"), 1;
    }
    for (int i = 0; i < t->n; i++) {
        const sim_tune_point *p = &t->point[i];
        stats_interval w = stats_wilson(p->wins, (double)p->games);
        snprintf(r[i].label, sizeof r[i].label, "%.60s = %" PRId64, t->path, p->value);
        r[i].v = p->games ? p->wins / (double)p->games : 0, r[i].lo = w.lo, r[i].hi = w.hi;
        snprintf(r[i].kv, sizeof r[i].kv, "points.%d.share", i);
        snprintf(r[i].klo, sizeof r[i].klo, "points.%d.lo", i);
        snprintf(r[i].khi, sizeof r[i].khi, "points.%d.hi", i);
    }
    fputs("<section>\n<h2>The values tried</h2>\n", f);
    char caption[200];
    snprintf(caption, sizeof caption, "%s %d win share at each value tried (dashed: the target)",
             t->by_position ? "Position" : "Seat", t->which);
    sim_html_intervals(f, caption, r, t->n, 1, t->target, 1);
    free(r);
    page_text(f, pg->text);
    fputs("</section>\n", f);
    return sim_html_close(f, path, err);
}
