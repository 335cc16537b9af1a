/*
** sim_factorial.c
** `cairn sim GAME --factorial OPT,OPT[,OPT]`: every seed played in all 2^k
** combinations of k options (or DATA.PATH=VALUE overrides) on and off, and
** each factor's main effect on each figure: per game, the mean of the
** figure over the combinations with the factor on minus the mean over those
** with it off, then the mean over the games with its t interval. With many
** figures some differ by chance, so each effect's p-value is adjusted by
** Holm's step-down method and only those below 5% after it are flagged.
*/
#include "sim_internal.h"
#include "json_string.h"
#include "error.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The figures followed per game: decisions, then each seat's win share and score. */
#define FIG_DECISIONS 0
#define FIGS(seats) (1 + 2 * (seats))

struct sim_factorial {
    int k, combos, seats;
    char *factor[SIM_FACTORIAL_MAX];
    double *now;        /* this game's figures, combos x FIGS */
    int *ok;            /* per combination: the game finished */
    long index;         /* the game being gathered; -1 none */
    stats_acc *effect;  /* k x FIGS */
    long games, dropped;
};

int sim_factorial_specs(const char *list, char **spec, FILE *err) {
    char *copy = cairn_strdup(list);
    char *factor[SIM_FACTORIAL_MAX];
    int k = 0;
    if (!copy) return fprintf(err, "cairn sim: out of memory\n"), -1;
    for (char *save = NULL, *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        if (k == SIM_FACTORIAL_MAX) {
            k = SIM_FACTORIAL_MAX + 1;
            break;
        }
        factor[k++] = t;
    }
    if (k < 2 || k > SIM_FACTORIAL_MAX) {
        free(copy);
        fprintf(err, "cairn sim: --factorial takes 2 or 3 options (a switch's id or DATA.PATH=VALUE), got \"%s\"\n", list);
        return -1;
    }
    int combos = 1 << k;
    for (int c = 0; c < combos; c++) { /* combination c: factor j on when bit j is set */
        char buf[512] = "";
        for (int j = 0; j < k; j++)
            if (c & (1 << j)) snprintf(buf + strlen(buf), sizeof buf - strlen(buf), "%s%s", *buf ? "," : "", factor[j]);
        if (!(spec[c] = cairn_strdup(buf))) {
            for (int i = 0; i < c; i++) free(spec[i]);
            free(copy);
            return fprintf(err, "cairn sim: out of memory\n"), -1;
        }
    }
    free(copy);
    return combos;
}

sim_factorial *sim_factorial_new(const char *list, int seats) {
    sim_factorial *f = calloc(1, sizeof *f);
    if (!f) return NULL;
    char *copy = cairn_strdup(list);
    if (!copy) return free(f), NULL;
    for (char *save = NULL, *t = strtok_r(copy, ",", &save); t && f->k < SIM_FACTORIAL_MAX; t = strtok_r(NULL, ",", &save))
        if (!(f->factor[f->k++] = cairn_strdup(t))) break;
    free(copy);
    f->combos = 1 << f->k, f->seats = seats, f->index = -1;
    f->now = calloc((size_t)f->combos * FIGS(seats), sizeof *f->now);
    f->ok = calloc((size_t)f->combos, sizeof *f->ok);
    f->effect = calloc((size_t)f->k * FIGS(seats), sizeof *f->effect);
    if (!f->now || !f->ok || !f->effect) return sim_factorial_free(f), NULL;
    return f;
}

void sim_factorial_free(sim_factorial *f) {
    if (!f) return;
    for (int j = 0; j < f->k; j++) free(f->factor[j]);
    free(f->now);
    free(f->ok);
    free(f->effect);
    free(f);
}

/* The game gathered so far, into the effects (when every combination finished). */
static void close_game(sim_factorial *f) {
    if (f->index < 0) return;
    int all = 1, n = FIGS(f->seats), half = f->combos / 2;
    for (int c = 0; c < f->combos; c++) all &= f->ok[c];
    if (!all) {
        f->dropped++;
    } else {
        f->games++;
        for (int j = 0; j < f->k; j++)
            for (int x = 0; x < n; x++) {
                double on = 0, off = 0;
                for (int c = 0; c < f->combos; c++)
                    if (c & (1 << j)) on += f->now[c * n + x];
                    else off += f->now[c * n + x];
                stats_add(&f->effect[j * n + x], (on - off) / half);
            }
    }
    memset(f->ok, 0, (size_t)f->combos * sizeof *f->ok);
    f->index = -1;
}

void sim_factorial_add(sim_factorial *f, const sim_rec *r) {
    if (r->index != f->index) close_game(f), f->index = r->index;
    if (r->variant < 0 || r->variant >= f->combos || !r->ok || r->n != f->seats) return;
    int n = FIGS(f->seats);
    double share[CAIRN_MAX_SEATS], *row = f->now + r->variant * n;
    sim_rec_shares(r, share);
    row[FIG_DECISIONS] = (double)r->decisions;
    for (int s = 0; s < f->seats; s++) row[1 + 2 * s] = share[s], row[2 + 2 * s] = (double)r->seats[s].total;
    f->ok[r->variant] = 1;
    if (r->variant == f->combos - 1) close_game(f);
}

double sim_two_sided_p(const stats_acc *a) {
    double sd = stats_sd(a), m = stats_mean(a);
    if (a->n < 2) return 1;
    if (sd == 0) return m == 0 ? 1 : 0;
    double z = fabs(m) / (sd / sqrt((double)a->n));
    return erfc(z / sqrt(2.0));
}

void sim_holm(const double *p, double *adj, int m) {
    int *order = malloc((size_t)m * sizeof *order);
    if (!order) { /* Bonferroni then, which Holm never exceeds */
        for (int i = 0; i < m; i++) adj[i] = p[i] * m > 1 ? 1 : p[i] * m;
        return;
    }
    for (int i = 0; i < m; i++) order[i] = i;
    for (int i = 1; i < m; i++) /* insertion sort, ascending p (ties by index: stable) */
        for (int j = i; j > 0 && p[order[j]] < p[order[j - 1]]; j--) {
            int t = order[j];
            order[j] = order[j - 1], order[j - 1] = t;
        }
    double run = 0;
    for (int r = 0; r < m; r++) {
        double a = (m - r) * p[order[r]];
        if (a > 1) a = 1;
        if (a > run) run = a;
        adj[order[r]] = run;
    }
    free(order);
}

static void fig_name(char *buf, size_t size, int x) {
    if (x == FIG_DECISIONS) snprintf(buf, size, "decisions");
    else snprintf(buf, size, "seat %d %s", (x - 1) / 2 + 1, (x - 1) % 2 ? "score" : "win share");
}

/* Each effect's Holm-adjusted p-value, into adj (k x FIGS). */
static void adjusted(const sim_factorial *f, double *adj) {
    int m = f->k * FIGS(f->seats);
    double *p = malloc((size_t)m * sizeof *p);
    if (!p) {
        for (int i = 0; i < m; i++) adj[i] = 1;
        return;
    }
    for (int i = 0; i < m; i++) p[i] = sim_two_sided_p(&f->effect[i]);
    sim_holm(p, adj, m);
    free(p);
}

void sim_factorial_report(FILE *out, const sim_factorial *f) {
    sim_factorial *g = (sim_factorial *)f;
    close_game(g); /* the last game, if it was not closed */
    int n = FIGS(f->seats), m = f->k * n;
    fprintf(out, "factorial: %d factors, %d combinations, each seed in every one; %ld games in all of them", f->k, f->combos,
            f->games);
    if (f->dropped) fprintf(out, " (%ld left out: a combination failed)", f->dropped);
    fputc('\n', out);
    double *adj = malloc((size_t)m * sizeof *adj);
    if (!adj) return;
    adjusted(f, adj);
    fprintf(out, "%-24s", "main effect (on - off)");
    for (int j = 0; j < f->k; j++) fprintf(out, "%28.26s", f->factor[j]);
    fputc('\n', out);
    int flagged = 0;
    for (int x = 0; x < n; x++) {
        char name[48];
        fig_name(name, sizeof name, x);
        int any = 0;
        for (int j = 0; j < f->k; j++) any |= f->effect[j * n + x].sumsq != 0;
        if (!any) continue;
        char line[512];
        int at = snprintf(line, sizeof line, "%-24s", name);
        double k = x && (x - 1) % 2 == 0 ? 100 : 1; /* shares in points */
        for (int j = 0; j < f->k; j++) {
            const stats_acc *a = &f->effect[j * n + x];
            stats_interval iv = stats_mean_ci(a);
            char cell[64];
            int flag = adj[j * n + x] < 0.05;
            flagged += flag;
            snprintf(cell, sizeof cell, k > 1 ? "%+.1f [%+.1f, %+.1f]%s" : "%+.2f [%+.2f, %+.2f]%s", k * stats_mean(a),
                     k * iv.lo, k * iv.hi, flag ? " *" : "  ");
            if (at < (int)sizeof line) at += snprintf(line + at, sizeof line - (size_t)at, "%28s", cell);
        }
        while (at > 0 && at < (int)sizeof line && line[at - 1] == ' ') line[--at] = '\0'; /* no trailing blanks */
        fprintf(out, "%s\n", line);
    }
    fprintf(out, "*: beyond noise after Holm's adjustment over all %d effects (family-wise 5%%); %d flagged; win shares in "
                 "points\n",
            m, flagged);
    free(adj);
}

void sim_factorial_json(FILE *out, const sim_factorial *f) {
    close_game((sim_factorial *)f);
    int n = FIGS(f->seats), m = f->k * n;
    double *adj = malloc((size_t)m * sizeof *adj);
    if (!adj) {
        fputs("null", out);
        return;
    }
    adjusted(f, adj);
    fprintf(out, "{\"games\": %ld, \"dropped\": %ld, \"effects\": [", f->games, f->dropped);
    for (int j = 0; j < f->k; j++)
        for (int x = 0; x < n; x++) {
            char name[48];
            fig_name(name, sizeof name, x);
            const stats_acc *a = &f->effect[j * n + x];
            stats_interval iv = stats_mean_ci(a);
            fprintf(out, "%s\n  {\"factor\": ", j || x ? "," : "");
            json_string_writez(out, f->factor[j]);
            fprintf(out, ", \"figure\": \"%s\", \"effect\": %.6f, \"lo\": %.6f, \"hi\": %.6f, \"p\": %.6g, \"p_holm\": %.6g, "
                         "\"flagged\": %s}",
                    name, stats_mean(a), iv.lo, iv.hi, sim_two_sided_p(a), adj[j * n + x], adj[j * n + x] < 0.05 ? "true" : "false");
        }
    fputs("]}", out);
    free(adj);
}

int sim_factorial_rows(const sim_factorial *f, sim_html_row *r, int max) {
    close_game((sim_factorial *)f);
    int n = FIGS(f->seats), rows = 0;
    for (int j = 0; j < f->k; j++)
        for (int x = 0; x < n && rows < max; x++, rows++) { /* in the JSON's order: effects.(j * n + x) */
            char name[48];
            fig_name(name, sizeof name, x);
            const stats_acc *a = &f->effect[j * n + x];
            stats_interval iv = stats_mean_ci(a);
            sim_html_row *q = &r[rows];
            snprintf(q->label, sizeof q->label, "%.40s: %s", f->factor[j], name);
            q->v = stats_mean(a), q->lo = iv.lo, q->hi = iv.hi;
            snprintf(q->kv, sizeof q->kv, "summary.factorial.effects.%d.effect", j * n + x);
            snprintf(q->klo, sizeof q->klo, "summary.factorial.effects.%d.lo", j * n + x);
            snprintf(q->khi, sizeof q->khi, "summary.factorial.effects.%d.hi", j * n + x);
        }
    return rows;
}
