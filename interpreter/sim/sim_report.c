/*
** sim_report.c
** What `cairn sim` prints: the table per seat and per turn position with
** 95% intervals, the breakdown, game lengths, the failures and their
** replay commands, the comparison of two variants; and the same figures as
** the "summary" object of the JSON layout (docs/simulation.md).
*/
#include "plural.h"
#include "sim_internal.h"
#include "termsafe.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Widths of the name column and of each seat's column. */
#define NAME_W 22
#define CELL_W 22
/* Distinct scores listed one by one in the histogram; more are binned. */
#define HIST_BINS 10

typedef char cell[48];

static void print_row(FILE *out, const char *name, const cell *c, int n) {
    int w = fprintf(out, "%s", name);
    fprintf(out, "%*s", w < NAME_W ? NAME_W - w : 1, "");
    for (int i = 0; i < n; i++) fprintf(out, "%*s", CELL_W, c[i]);
    fputc('\n', out);
}

/* A table with a column per seat, kept until it ends and then printed whole
** when it fits the width (h->width; 0: any), else in blocks of as many seats
** as fit, each block with all the rows (its own header row first): at 80
** columns a 4-seat table is two blocks of two seats, not rows the terminal
** wraps. A heading row is a line of text printed in every block. */
typedef struct table_row {
    char name[NAME_W * 4];
    int heading;
    cell c[CAIRN_MAX_SEATS];
} table_row;

typedef struct seat_table {
    FILE *out;
    int seats, width;
    table_row *rows; /* NULL when out of memory: each row printed at once, whole */
    size_t n, cap;
} seat_table;

static void table_begin(seat_table *tb, FILE *out, int seats, int width, size_t rows) {
    tb->out = out;
    tb->seats = seats;
    tb->width = width;
    tb->n = 0;
    tb->cap = rows;
    tb->rows = width > 0 && NAME_W + seats * CELL_W > width ? malloc(rows * sizeof *tb->rows) : NULL;
}

static void row(seat_table *tb, const char *name, cell *c, int n) {
    if (!tb->rows || tb->n == tb->cap) {
        print_row(tb->out, name, c, n);
        return;
    }
    table_row *r = &tb->rows[tb->n++];
    snprintf(r->name, sizeof r->name, "%s", name);
    r->heading = 0;
    memcpy(r->c, c, (size_t)n * sizeof *c);
}

static void heading(seat_table *tb, const char *text) {
    if (!tb->rows || tb->n == tb->cap) {
        fprintf(tb->out, "%s\n", text);
        return;
    }
    table_row *r = &tb->rows[tb->n++];
    snprintf(r->name, sizeof r->name, "%s", text);
    r->heading = 1;
}

static void table_end(seat_table *tb) {
    if (tb->rows) {
        int per = (tb->width - NAME_W) / CELL_W;
        if (per < 1) per = 1;
        for (int first = 0; first < tb->seats; first += per) {
            int k = tb->seats - first < per ? tb->seats - first : per;
            for (size_t i = 0; i < tb->n; i++) {
                const table_row *r = &tb->rows[i];
                if (r->heading) fprintf(tb->out, "%s\n", r->name);
                else print_row(tb->out, r->name, r->c + first, k);
            }
        }
    }
    free(tb->rows);
    tb->rows = NULL;
}

/* A sample of n values known by its sum and sum of squares. */
static stats_acc acc_of(long n, double sum, double sumsq) {
    stats_acc a = {n, sum, sumsq, 0, 0};
    return a;
}

static void mean_cell(cell c, const stats_acc *a) {
    stats_interval i = stats_mean_ci(a);
    snprintf(c, sizeof(cell), "%.2f [%.2f, %.2f]", stats_mean(a), i.lo, i.hi);
}

static void share_cell(cell c, double wins, long games) {
    stats_interval i = stats_wilson(wins, (double)games);
    snprintf(c, sizeof(cell), "%.1f%% [%.1f, %.1f]", 100 * wins / (double)games, 100 * i.lo, 100 * i.hi);
}

static const char *ordinal(int p) {
    static const char *const names[] = {"1st", "2nd", "3rd"};
    return p <= 3 ? names[p - 1] : NULL;
}

/* The note under a share table: which shares are outside the even share. */
static void share_note(FILE *out, const char *what, const double *wins, long games, int n) {
    if (n < 2) return; /* one seat always wins */
    double even = 1.0 / n;
    int outside = 0;
    for (int i = 0; i < n; i++) {
        stats_interval iv = stats_wilson(wins[i], (double)games);
        if (stats_holds(iv, even)) continue;
        outside++;
        fprintf(out, "note: %s %d's win share %.1f%% [%.1f, %.1f] is outside the even share %.1f%%: "
                     "more than noise\n",
                what, i + 1, 100 * wins[i] / (double)games, 100 * iv.lo, 100 * iv.hi, 100 * even);
    }
    if (!outside)
        fprintf(out, "note: every %s's 95%% interval holds the even share %.1f%%: the differences between "
                     "%ss are within noise (%ld game%s)\n",
                what, 100 * even, what, games, games == 1 ? "" : "s");
}

static void hist_line(FILE *out, int seat, const sim_hist *h) {
    fprintf(out, "  seat %d:", seat);
    if (h->n <= HIST_BINS) {
        for (size_t i = 0; i < h->n; i++) fprintf(out, " %" PRId64 ":%ld", h->value[i], h->count[i]);
    } else { /* HIST_BINS equal bins from the least to the most */
        /* as offsets from the least, unsigned: scores from INT64_MIN to
        ** INT64_MAX span 2^64 values, which no int64_t holds */
        int64_t lo = h->value[0];
        uint64_t range = (uint64_t)h->value[h->n - 1] - (uint64_t)lo; /* span - 1 */
        uint64_t w = range / HIST_BINS + 1;                              /* >= span / HIST_BINS */
        size_t k = 0;
        for (int b = 0; b < HIST_BINS && k < h->n; b++) {
            uint64_t from = (uint64_t)b * w, to = from + (w - 1);
            if (to > range || to < from) to = range; /* the last bin ends at the most */
            long c = 0;
            for (; k < h->n && (uint64_t)h->value[k] - (uint64_t)lo <= to; k++) c += h->count[k];
            fprintf(out, " %" PRId64 "..%" PRId64 ":%ld", (int64_t)((uint64_t)lo + from),
                    (int64_t)((uint64_t)lo + to), c);
        }
    }
    fputc('\n', out);
}

static void length_line(FILE *out, const char *name, const stats_acc *a) {
    stats_interval i = stats_mean_ci(a);
    fprintf(out, "%s per game: mean %.2f [%.2f, %.2f], sd %.2f, min %.0f, max %.0f\n", name, stats_mean(a),
            i.lo, i.hi, stats_sd(a), a->min, a->max);
}

/* --coverage: each option id prefix, offered and taken; those never taken
** are possibly dead. */
static void coverage(FILE *out, const sim_totals *t) {
    if (!t->n_cov) return;
    long games = t->games + t->failed;
    fprintf(out, "rule coverage (option ids up to the first digit, %ld game%s):\n", games, games == 1 ? "" : "s");
    fprintf(out, "  %-20s%12s%12s%12s%16s   %s\n", "option", "offered", "disabled", "taken", "games taken",
            "taken when offered [95%]");
    int dead = 0;
    for (size_t i = 0; i < t->n_cov; i++) {
        const sim_cov *c = &t->cov[i];
        fprintf(out, "  %-20s%12ld%12ld%12ld%16ld", c->prefix, c->offered, c->disabled, c->taken, c->games_taken);
        if (c->offered > 0) { /* the share of the enabled offers taken, with Wilson's interval */
            stats_interval w = stats_wilson((double)c->taken, (double)c->offered);
            fprintf(out, "   %5.1f%% [%.1f, %.1f]", 100.0 * (double)c->taken / (double)c->offered, 100.0 * w.lo,
                    100.0 * w.hi);
        }
        fputc('\n', out);
        dead += c->taken == 0;
    }
    if (dead) {
        fprintf(out, "possibly dead (offered, never taken in %ld %s):", games, plural_en(games, "game", "games"));
        for (size_t i = 0; i < t->n_cov; i++)
            if (!t->cov[i].taken) fprintf(out, " %s", t->cov[i].prefix);
        fputc('\n', out);
    }
    sim_option_effects(out, t);
}

static void header(FILE *out, const sim_header *h) {
    fprintf(out, "%s %s: %ld %s, %d %s, seeds %" PRIu64 "-%" PRIu64 ", checks %s, bots %s\n", h->id,
            h->version, h->games, plural_en(h->games, "game", "games"), h->players,
            plural_en(h->players, "player", "players"), h->seed,
            h->seed + (uint64_t)((h->games - 1) / (h->seatings > 1 ? h->seatings : 1)), h->checks ? "on" : "off",
            h->bots);
    if (h->sweep)
        for (int i = 0; i < CAIRN_SIM_MAX_VARIANTS && h->label[i] && *h->label[i]; i++)
            fprintf(out, "%c: %s\n", 'A' + i, h->label[i]);
    else if (h->compare) fprintf(out, "A: %s\nB: %s\n", h->label[0], h->label[1]);
    else fprintf(out, "options: %s\n", h->options);
}

static void failures(FILE *out, const sim_header *h, const sim_totals *t, int variant) {
    if (!t->failed) return;
    fprintf(out, "failed games: %ld%s\n", t->failed, t->failed > (long)t->n_fails ? " (the first listed)" : "");
    for (size_t i = 0; i < t->n_fails; i++)
        fprintf(out, "  %s\n    replay: %s --seed %" PRIu64 "\n", t->fails[i].error, h->play[variant],
                t->fails[i].seed);
}

/* Seeds listed in the text report (the JSON has CAIRN_SIM_KEEP_FOUND). */
#define FOUND_SHOWN 20

static void find_lines(FILE *out, const sim_header *h, const sim_totals *t) {
    if (!h->find) return;
    fprintf(out, "find (%s): held in %ld of %ld games", h->find, t->found, t->games);
    if (t->find_failed) fprintf(out, "; failed in %ld (%s)", t->find_failed, t->find_error ? t->find_error : "?");
    fputc('\n', out);
    if (!t->n_found_seeds) return;
    fprintf(out, "  seeds:");
    for (size_t i = 0; i < t->n_found_seeds && i < FOUND_SHOWN; i++) fprintf(out, " %" PRIu64, t->found_seeds[i]);
    fprintf(out, "%s\n  replay: %s --seed %" PRIu64 "\n", t->n_found_seeds > FOUND_SHOWN ? " ..." : "", h->play[0],
            t->found_seeds[0]);
}

void sim_report_text(FILE *out, const sim_header *h, const sim_totals *t, int interrupted) {
    int n = t->seats;
    long g = t->games;
    cell c[CAIRN_MAX_SEATS];
    header(out, h);
    if (interrupted) fprintf(out, "interrupted: %ld of %ld games finished\n", g + t->failed, h->games);
    fprintf(out, "games: %ld finished%s", g, t->failed ? "" : "\n");
    if (t->failed) fprintf(out, ", %ld failed (not counted below)\n", t->failed);
    failures(out, h, t, 0);
    if (!g) return;
    seat_table tb;
    table_begin(&tb, out, n, h->width, 8 + t->n_labels); /* 7 rows, a heading, the labels */
    for (int i = 0; i < n; i++) snprintf(c[i], sizeof c[i], "seat %d", i + 1);
    row(&tb, "", c, n);
    for (int i = 0; i < n; i++) snprintf(c[i], sizeof c[i], "%.2f", t->share[i]);
    row(&tb, "wins", c, n);
    for (int i = 0; i < n; i++) share_cell(c[i], t->share[i], g);
    row(&tb, "win share", c, n);
    int scored = 0;
    for (int i = 0; i < n; i++) scored |= t->score[i].min != 0 || t->score[i].max != 0;
    if (scored) {
        for (int i = 0; i < n; i++) mean_cell(c[i], &t->score[i]);
        row(&tb, "score mean", c, n);
        for (int i = 0; i < n; i++) snprintf(c[i], sizeof c[i], "%.2f", stats_sd(&t->score[i]));
        row(&tb, "score sd", c, n);
        for (int i = 0; i < n; i++) snprintf(c[i], sizeof c[i], "%.0f", t->score[i].min);
        row(&tb, "score min", c, n);
        for (int i = 0; i < n; i++) snprintf(c[i], sizeof c[i], "%.0f", t->score[i].max);
        row(&tb, "score max", c, n);
    }
    int shown = 0;
    for (size_t l = 0; l < t->n_labels; l++) {
        const sim_label *lb = &t->label[l];
        int any = 0;
        for (int i = 0; i < n; i++) any |= lb->sumsq[i] != 0;
        if (!any) continue; /* always zero */
        if (!shown++) heading(&tb, "breakdown, mean points per game [95%]:");
        for (int i = 0; i < n; i++) {
            stats_interval iv = sim_label_ci(t, lb, i, NULL);
            snprintf(c[i], sizeof(cell), "%.2f [%.2f, %.2f]", lb->sum[i] / (double)g, iv.lo, iv.hi);
        }
        char name[NAME_W * 4];
        snprintf(name, sizeof name, "  %s", lb->key);
        row(&tb, name, c, n);
    }
    table_end(&tb);
    if (t->shared) fprintf(out, "shared wins: %ld of %ld games (a tie splits the win)\n", t->shared, g);
    fprintf(out, "mean winning margin: %.2f\n", t->margin / (double)g);
    share_note(out, "seat", t->share, g, n);
    if (t->with_starter == g && n > 1 && !t->other_starter)
        fprintf(out, "seat 1 starts every game: the turn positions are the seats\n");
    if (t->with_starter == g && n > 1 && t->other_starter) {
        fprintf(out, "by turn position (from %s%s at the start):\n", strchr(h->starter, '(') ? "" : "state.",
                h->starter);
        table_begin(&tb, out, n, h->width, 3);
        for (int p = 0; p < n; p++) {
            const char *o = ordinal(p + 1);
            if (o) snprintf(c[p], sizeof c[p], "%s", o);
            else snprintf(c[p], sizeof c[p], "%dth", p + 1);
        }
        row(&tb, "", c, n);
        for (int p = 0; p < n; p++) share_cell(c[p], t->pos_share[p], g);
        row(&tb, "win share", c, n);
        if (scored) {
            for (int p = 0; p < n; p++) mean_cell(c[p], &t->pos_score[p]);
            row(&tb, "score mean", c, n);
        }
        table_end(&tb);
        share_note(out, "position", t->pos_share, g, n);
    }
    if (scored) {
        fprintf(out, "score histogram (score:games):\n");
        for (int i = 0; i < n; i++) hist_line(out, i + 1, &t->hist[i]);
    }
    coverage(out, t);
    find_lines(out, h, t);
    length_line(out, "decisions", &t->decisions);
    if (t->with_rounds == g) length_line(out, "rounds", &t->rounds);
    if (t->leads.n) {
        length_line(out, "lead changes", &t->leads);
        if (t->leads.n < g) fprintf(out, "  (%ld games left out: score(g) failed before the end)\n", g - t->leads.n);
    }
    if (t->decisions.sum > 0)
        fprintf(out, "branching factor: %.2f options per decision\n", t->branch / t->decisions.sum);
    sim_traj_report(out, t->traj, n);
    if (t->traj_failed)
        fprintf(out, "(%ld %s left out of the trajectory: score(g) or metrics(g) failed before the end)\n",
                t->traj_failed, plural_en(t->traj_failed, "game", "games"));
}

/* ------------------------------------------------------------ compare */

static void pair_name(char *buf, size_t size, const sim_pair *p) {
    if (p->seat < 0) snprintf(buf, size, "any seat: %s", p->name + 1);
    else if (!p->seat) snprintf(buf, size, "%s", p->name);
    else if (p->name[0] == ':') snprintf(buf, size, "seat %d: %s", p->seat, p->name + 1);
    else snprintf(buf, size, "seat %d %s", p->seat, p->name);
}

/* A percentage for win shares, two decimals for the rest. */
static int is_share(const sim_pair *p) { return !strcmp(p->name, "win share"); }

void sim_report_compare(FILE *out, const sim_header *h, const sim_compare *c, int interrupted) {
    header(out, h);
    long asked = h->games;
    if (interrupted) fprintf(out, "interrupted: %ld of %ld games finished\n", c->pairs, asked);
    fprintf(out, "paired games: %ld (the same seed in A and B)", c->pairs);
    if (c->t[0].failed || c->t[1].failed)
        fprintf(out, "; failed: %ld in A, %ld in B (not counted)", c->t[0].failed, c->t[1].failed);
    fputc('\n', out);
    failures(out, h, &c->t[0], 0);
    failures(out, h, &c->t[1], 1);
    if (!c->pairs) return;
    fprintf(out, "%-28s%12s%12s   %s\n", "figure (mean per game)", "A", "B", "B - A [95%]");
    fprintf(out, "(\"any seat\": a breakdown line's mean per seat; per seat in --json)\n");
    int flagged = 0, shown = 0;
    for (size_t i = 0; i < c->n_pairs; i++) {
        const sim_pair *p = &c->pair[i];
        if (p->a.sumsq == 0 && p->b.sumsq == 0) continue; /* always zero */
        if (p->name[0] == ':' && p->seat > 0) continue;   /* per seat: in the JSON only */
        shown++;
        char name[96];
        pair_name(name, sizeof name, p);
        double k = is_share(p) ? 100 : 1;
        stats_interval d = stats_mean_ci(&p->d);
        int sig = stats_excludes_zero(d);
        flagged += sig;
        const char *fmt = is_share(p) ? "%-28s%11.1f%%%11.1f%%   %+.1f [%+.1f, %+.1f]%s\n"
                                      : "%-28s%12.2f%12.2f   %+.2f [%+.2f, %+.2f]%s\n";
        fprintf(out, fmt, name, k * stats_mean(&p->a), k * stats_mean(&p->b), k * stats_mean(&p->d), k * d.lo,
                k * d.hi, sig ? "  *" : "");
    }
    if (flagged)
        fprintf(out, "*: B differs from A beyond noise (95%% interval of the paired difference excludes 0); "
                     "%d of %d figures flagged, so about %.1f could be chance alone\n",
                flagged, shown, 0.05 * shown);
    else fprintf(out, "note: no figure differs beyond noise (%ld paired games)\n", c->pairs);
    sim_detect_lines(out, c);
}

/* -------------------------------------------------------------- sweep */

static const sim_pair *find_pair(const sim_compare *c, const sim_pair *like) {
    for (size_t i = 0; i < c->n_pairs; i++)
        if (c->pair[i].seat == like->seat && !strcmp(c->pair[i].name, like->name)) return &c->pair[i];
    return NULL;
}

/* Whether the row of p was printed already: the first comparison holding it
** comes before k. */
static int seen_before(const sim_compare *c, int k, const sim_pair *p) {
    for (int j = 0; j < k; j++)
        if (find_pair(&c[j], p)) return 1;
    return 0;
}

void sim_report_sweep(FILE *out, const sim_header *h, const sim_compare *c, int variants, int interrupted) {
    header(out, h);
    if (interrupted) fprintf(out, "interrupted: %ld of %ld games finished\n", c[0].pairs, h->games);
    fprintf(out, "paired games: %ld (the same seeds in every column); each column against A\n", c[0].pairs);
    for (int k = 0; k < variants - 1; k++) {
        if (!k) failures(out, h, &c[0].t[0], 0);
        failures(out, h, &c[k].t[1], k + 1);
    }
    fprintf(out, "%-28s", "figure (mean per game)");
    for (int v = 0; v < variants; v++) fprintf(out, "%11c  ", 'A' + v);
    fputc('\n', out);
    int flagged = 0, cells = 0;
    for (int k = 0; k < variants - 1; k++)
        for (size_t i = 0; i < c[k].n_pairs; i++) {
            const sim_pair *p = &c[k].pair[i];
            if (p->name[0] == ':' && p->seat > 0) continue; /* per seat: in the JSON only */
            if (seen_before(c, k, p)) continue;
            int zero = 1;
            for (int j = 0; j < variants - 1; j++) {
                const sim_pair *q = find_pair(&c[j], p);
                zero &= !q || (q->a.sumsq == 0 && q->b.sumsq == 0);
            }
            if (zero) continue; /* always zero */
            char name[96];
            pair_name(name, sizeof name, p);
            double scale = is_share(p) ? 100 : 1;
            fprintf(out, "%-28s", name);
            const sim_pair *a = find_pair(&c[0], p);
            fprintf(out, is_share(p) ? "%10.1f%%  " : "%11.2f  ", a ? scale * stats_mean(&a->a) : 0.0);
            for (int j = 0; j < variants - 1; j++) {
                const sim_pair *q = find_pair(&c[j], p);
                int sig = q && stats_excludes_zero(stats_mean_ci(&q->d));
                flagged += sig, cells++;
                fprintf(out, is_share(p) ? "%10.1f%%%s" : "%11.2f%s", q ? scale * stats_mean(&q->b) : 0.0,
                        sig ? "* " : "  ");
            }
            fputc('\n', out);
        }
    if (flagged)
        fprintf(out, "*: differs from A beyond noise (95%% interval of the paired difference excludes 0); "
                     "%d of %d cells flagged, about %.1f by chance alone; the differences are in --json\n",
                flagged, cells, 0.05 * cells);
    else fprintf(out, "note: no column differs from A beyond noise (%ld paired games)\n", c[0].pairs);
}

void sim_report_sweep_json(FILE *f, const char *sweep, const sim_compare *c, int variants) {
    fputs("{\"sweep\": ", f);
    json_string_writez(f, sweep);
    fputs(", \"against_a\": [", f);
    for (int k = 0; k < variants - 1; k++) {
        fputs(k ? ",\n " : "\n ", f);
        sim_report_compare_json(f, &c[k]);
    }
    fputs("]}", f);
}

/* ---------------------------------------------------------------- CSV */

void sim_csv_head(FILE *f, int players) {
    fprintf(f, "#cairn-sim csv %d\nindex,variant,seed,ok,decisions,rounds,starter,branch", SIM_FORMAT_VERSION);
    for (int i = 1; i <= players; i++) fprintf(f, ",total_%d", i);
    for (int i = 1; i <= players; i++) fprintf(f, ",rank_%d", i);
    fputs(",error\n", f);
}

void sim_csv_row(FILE *f, const sim_rec *r, int players) {
    fprintf(f, "%ld,%d,%" PRIu64 ",%d,%ld,%ld,%d,%ld", r->index, r->variant, r->seed, r->ok, r->decisions, r->rounds,
            r->starter, r->branch);
    for (int i = 0; i < players; i++) {
        if (r->ok && i < r->n) fprintf(f, ",%" PRId64, r->seats[i].total);
        else fputc(',', f);
    }
    for (int i = 0; i < players; i++) {
        if (r->ok && i < r->n) fprintf(f, ",%d", r->seats[i].rank);
        else fputc(',', f);
    }
    fputc(',', f);
    if (!r->ok) { /* quoted, quotes doubled, controls shown as text (termsafe.h) */
        char *safe = termsafe_text(r->error ? r->error : "");
        fputc('"', f);
        for (const char *p = safe ? safe : "(out of memory)"; *p; p++) fprintf(f, *p == '"' ? "\"\"" : "%c", *p);
        fputc('"', f);
        free(safe);
    }
    fputc('\n', f);
}

/* --------------------------------------------------------------- JSON */

static void json_acc(FILE *f, const stats_acc *a, int extremes) {
    stats_interval i = stats_mean_ci(a);
    fprintf(f, "{\"mean\": %.6f, \"lo\": %.6f, \"hi\": %.6f, \"sd\": %.6f", stats_mean(a), i.lo, i.hi, stats_sd(a));
    if (extremes) fprintf(f, ", \"min\": %.0f, \"max\": %.0f", a->min, a->max);
    fputc('}', f);
}

static void json_share(FILE *f, double wins, long games) {
    stats_interval i = stats_wilson(wins, (double)games);
    fprintf(f, "\"wins\": %.6f, \"share\": %.6f, \"share_lo\": %.6f, \"share_hi\": %.6f", wins,
            games ? wins / (double)games : 0, i.lo, i.hi);
}

void sim_report_json(FILE *f, const sim_totals *t) {
    long g = t->games;
    fprintf(f, "{\"games\": %ld, \"failed\": %ld, \"shared\": %ld, \"decisions\": ", g, t->failed, t->shared);
    json_acc(f, &t->decisions, 1);
    fputs(", \"rounds\": ", f);
    if (g && t->with_rounds == g) json_acc(f, &t->rounds, 1);
    else fputs("null", f);
    fputs(", \"leads\": ", f);
    if (t->leads.n) json_acc(f, &t->leads, 1);
    else fputs("null", f);
    fprintf(f, ", \"branching\": %.6f, \"margin\": %.6f, \"seats\": [",
            t->decisions.sum > 0 ? t->branch / t->decisions.sum : 0, g ? t->margin / (double)g : 0);
    for (int i = 0; i < t->seats; i++) {
        fprintf(f, "%s\n  {\"seat\": %d, ", i ? "," : "", i + 1);
        json_share(f, t->share[i], g);
        fputs(", \"score\": ", f);
        json_acc(f, &t->score[i], 1);
        fputs(", \"histogram\": [", f);
        for (size_t k = 0; k < t->hist[i].n; k++)
            fprintf(f, "%s[%" PRId64 ", %ld]", k ? ", " : "", t->hist[i].value[k], t->hist[i].count[k]);
        fputs("], \"breakdown\": {", f);
        for (size_t l = 0; l < t->n_labels; l++) {
            stats_acc a = acc_of(g, t->label[l].sum[i], t->label[l].sumsq[i]);
            int two;
            stats_interval iv = sim_label_ci(t, &t->label[l], i, &two);
            fputs(l ? ", " : "", f);
            json_string_writez(f, t->label[l].key);
            fprintf(f, ": {\"mean\": %.6f, \"lo\": %.6f, \"hi\": %.6f, \"sd\": %.6f, \"interval\": \"%s\"}",
                    stats_mean(&a), iv.lo, iv.hi, stats_sd(&a), two ? "wilson" : "t");
        }
        fputs("}}", f);
    }
    fputs("],\n \"positions\": ", f);
    if (g && t->with_starter == g) {
        fputc('[', f);
        for (int p = 0; p < t->seats; p++) {
            fprintf(f, "%s{\"position\": %d, ", p ? ", " : "", p + 1);
            json_share(f, t->pos_share[p], g);
            fputs(", \"score\": ", f);
            json_acc(f, &t->pos_score[p], 1);
            fputc('}', f);
        }
        fputc(']', f);
    } else {
        fputs("null", f);
    }
    fputs(", \"decisions_histogram\": [", f);
    for (size_t k = 0; k < t->dec_hist.n; k++)
        fprintf(f, "%s[%" PRId64 ", %ld]", k ? ", " : "", t->dec_hist.value[k], t->dec_hist.count[k]);
    fputs("], \"trajectory\": ", f);
    sim_traj_report_json(f, t->traj);
    fputs(", \"coverage\": [", f);
    for (size_t i = 0; i < t->n_cov; i++) {
        fputs(i ? ", {\"option\": " : "{\"option\": ", f);
        json_string_writez(f, t->cov[i].prefix);
        fprintf(f, ", \"offered\": %ld, \"disabled\": %ld, \"taken\": %ld, \"games_taken\": %ld, \"took\": ",
                t->cov[i].offered, t->cov[i].disabled, t->cov[i].taken, t->cov[i].games_taken);
        sim_option_effect_json(f, &t->cov[i]);
        fputc('}', f);
    }
    fprintf(f, "], \"find\": {\"held\": %ld, \"failed\": %ld, \"seeds\": [", t->found, t->find_failed);
    for (size_t i = 0; i < t->n_found_seeds; i++) fprintf(f, "%s%" PRIu64, i ? ", " : "", t->found_seeds[i]);
    fputs("]}, \"failures\": [", f);
    for (size_t i = 0; i < t->n_fails; i++) {
        fprintf(f, "%s{\"seed\": %" PRIu64 ", \"variant\": %d, \"error\": ", i ? ", " : "", t->fails[i].seed,
                t->fails[i].variant);
        json_string_writez(f, t->fails[i].error);
        fputc('}', f);
    }
    fputs("]}", f);
}

void sim_report_compare_json(FILE *f, const sim_compare *c) {
    fputs("{\"a\": ", f);
    sim_report_json(f, &c->t[0]);
    fputs(",\n \"b\": ", f);
    sim_report_json(f, &c->t[1]);
    fprintf(f, ",\n \"pairs\": %ld, \"differences\": [", c->pairs);
    for (size_t i = 0; i < c->n_pairs; i++) {
        const sim_pair *p = &c->pair[i];
        stats_interval d = stats_mean_ci(&p->d);
        fprintf(f, "%s\n  {\"figure\": ", i ? "," : "");
        json_string_writez(f, p->name[0] == ':' ? p->name + 1 : p->name);
        fprintf(f, ", \"breakdown\": %s, \"seat\": %d, \"a\": %.6f, \"b\": %.6f, \"diff\": %.6f, \"lo\": %.6f, "
                   "\"hi\": %.6f, \"significant\": %s}",
                p->name[0] == ':' ? "true" : "false", p->seat, stats_mean(&p->a), stats_mean(&p->b),
                stats_mean(&p->d), d.lo, d.hi, stats_excludes_zero(d) ? "true" : "false");
    }
    fputs("]}", f);
}
