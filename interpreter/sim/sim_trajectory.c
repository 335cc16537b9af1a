/*
** sim_trajectory.c
** `cairn sim --trajectory round|N`: each game's provisional scores and the
** ruleset's metrics(g) at the end of each round (g.state.round) or every N
** decisions, carried in the records, and summed per point into means with
** their 95% intervals, the leader's lead, and how often the seat leading at
** that point went on to win (high early: snowballing; near even: catch-up).
*/
#include "sim_internal.h"
#include "json_string.h"
#include "engine.h"
#include "error.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

void sim_traj_free(sim_traj *t) {
    if (!t) return;
    for (int i = 0; i < t->n_cols; i++) free(t->name[i]);
    free(t->name);
    free(t->seat);
    free(t->v);
    free(t);
}

/* The column (name, seat), added when new (the points so far get 0). */
static int col_of(sim_traj *t, const char *name, int seat) {
    for (int i = 0; i < t->n_cols; i++)
        if (t->seat[i] == seat && !strcmp(t->name[i], name)) return i;
    int n = t->n_cols + 1;
    char **nn = realloc(t->name, (size_t)n * sizeof *nn);
    if (!nn) return -1;
    t->name = nn;
    int *ns = realloc(t->seat, (size_t)n * sizeof *ns);
    if (!ns) return -1;
    t->seat = ns;
    int64_t *nv = calloc((size_t)(t->n_points ? t->n_points : 1) * (size_t)n, sizeof *nv);
    if (!nv) return -1;
    for (long p = 0; p < t->n_points; p++) memcpy(nv + p * n, t->v + p * t->n_cols, (size_t)t->n_cols * sizeof *nv);
    if (!(t->name[t->n_cols] = cairn_strdup(name))) return free(nv), -1;
    free(t->v);
    t->v = nv, t->seat[t->n_cols] = seat, t->n_cols = n;
    return n - 1;
}

/* One more point, all 0. 0, or -1 on OOM. */
static int new_point(sim_traj *t) {
    int64_t *nv = realloc(t->v, (size_t)(t->n_points + 1) * (size_t)(t->n_cols ? t->n_cols : 1) * sizeof *nv);
    if (!nv) return -1;
    t->v = nv;
    memset(t->v + t->n_points * t->n_cols, 0, (size_t)t->n_cols * sizeof *nv);
    t->n_points++;
    return 0;
}

static int set(sim_traj *t, const char *name, int seat, int64_t x) {
    int c = col_of(t, name, seat);
    if (c < 0) return -1;
    t->v[(t->n_points - 1) * t->n_cols + c] = x;
    return 0;
}

int sim_traj_sample(sim_rec *r, engine *e, int every, int *oom) {
    if (r->traj_failed) return -1;
    if (!r->traj) {
        if (!(r->traj = calloc(1, sizeof *r->traj))) return *oom = 1, -1;
        r->traj->every = every;
    }
    sim_traj *t = r->traj;
    if (t->n_points >= CAIRN_SIM_MAX_POINTS) return 0; /* the rest of a long game is not followed */
    cerr_list errs;
    cerr_init(&errs, 0);
    engine_score s = {0};
    value *m = NULL;
    int bad = engine_score_get(e, &s, &errs) != 0 || engine_metrics(e, &m, &errs) < 0;
    if (!bad) {
        bad = new_point(t) != 0;
        for (size_t i = 0; !bad && i < s.n; i++) bad = set(t, "score", (int)i + 1, s.seats[i].total) != 0;
        for (size_t i = 0; !bad && m && i < m->u.map.n; i++) {
            const char *name = m->u.map.items[i].key->u.str.s;
            const value *x = m->u.map.items[i].val;
            if (x->type == CV_INT) bad = set(t, name, 0, x->u.i) != 0;
            else if (x->type == CV_LIST)
                for (size_t k = 0; !bad && k < x->u.list.n; k++)
                    if (x->u.list.items[k]->type == CV_INT) bad = set(t, name, (int)k + 1, x->u.list.items[k]->u.i) != 0;
        }
        if (bad) *oom = 1;
    }
    value_free(m);
    engine_score_free(&s);
    cerr_free(&errs);
    if (bad) {
        sim_traj_free(r->traj);
        r->traj = NULL, r->traj_failed = 1;
        return -1;
    }
    return 0;
}

void sim_traj_json(FILE *f, const sim_rec *r) {
    if (r->traj_failed) fputs(", \"traj_failed\": true", f);
    const sim_traj *t = r->traj;
    if (!t) return;
    fprintf(f, ", \"traj\": {\"every\": %d, \"cols\": [", t->every);
    for (int i = 0; i < t->n_cols; i++) {
        fputs(i ? ", [" : "[", f);
        json_string_writez(f, t->name[i]);
        fprintf(f, ", %d]", t->seat[i]);
    }
    fputs("], \"at\": [", f);
    for (long p = 0; p < t->n_points; p++) {
        fputs(p ? ", [" : "[", f);
        for (int i = 0; i < t->n_cols; i++) fprintf(f, "%s%" PRId64, i ? ", " : "", t->v[p * t->n_cols + i]);
        fputc(']', f);
    }
    fputs("]}", f);
}

int sim_traj_from_value(const value *rec, sim_rec *r) {
    r->traj_failed = value_get_bool(rec, "traj_failed", 0);
    const value *v = value_map_get(rec, "traj");
    if (!v) return 0;
    const value *cols = value_map_get(v, "cols"), *at = value_map_get(v, "at");
    if (!cols || cols->type != CV_LIST || !at || at->type != CV_LIST) return -1;
    sim_traj *t = calloc(1, sizeof *t);
    if (!t) return -1;
    r->traj = t;
    t->every = (int)value_get_int(v, "every", 0);
    for (size_t i = 0; i < cols->u.list.n; i++) {
        const value *c = cols->u.list.items[i];
        if (c->type != CV_LIST || c->u.list.n != 2 || c->u.list.items[0]->type != CV_STR ||
            c->u.list.items[1]->type != CV_INT || col_of(t, c->u.list.items[0]->u.str.s, (int)c->u.list.items[1]->u.i) != (int)i)
            return -1;
    }
    for (size_t p = 0; p < at->u.list.n; p++) {
        const value *row = at->u.list.items[p];
        if (row->type != CV_LIST || row->u.list.n != (size_t)t->n_cols || new_point(t) != 0) return -1;
        for (int i = 0; i < t->n_cols; i++) {
            if (row->u.list.items[i]->type != CV_INT) return -1;
            t->v[(long)p * t->n_cols + i] = row->u.list.items[i]->u.i;
        }
    }
    return 0;
}

/* ------------------------------------------------------------- totals */

void sim_traj_totals_free(sim_traj_totals *tt) {
    if (!tt) return;
    for (int i = 0; i < tt->n_cols; i++) free(tt->col[i].name), free(tt->col[i].at);
    free(tt->col);
    free(tt->games);
    free(tt->lead);
    free(tt->leader_won);
    free(tt->led);
    free(tt);
}

/* Room for n points in every per-point array. */
static int grow_points(sim_traj_totals *tt, long n) {
    if (n <= tt->points) return 0;
    long *g = realloc(tt->games, (size_t)n * sizeof *g);
    if (!g) return -1;
    tt->games = g;
    stats_acc *l = realloc(tt->lead, (size_t)n * sizeof *l);
    if (!l) return -1;
    tt->lead = l;
    double *w = realloc(tt->leader_won, (size_t)n * sizeof *w);
    if (!w) return -1;
    tt->leader_won = w;
    long *d = realloc(tt->led, (size_t)n * sizeof *d);
    if (!d) return -1;
    tt->led = d;
    for (int i = 0; i < tt->n_cols; i++) {
        stats_acc *a = realloc(tt->col[i].at, (size_t)n * sizeof *a);
        if (!a) return -1;
        tt->col[i].at = a;
        memset(a + tt->points, 0, (size_t)(n - tt->points) * sizeof *a);
    }
    for (long p = tt->points; p < n; p++) {
        tt->games[p] = 0, tt->leader_won[p] = 0, tt->led[p] = 0;
        memset(&tt->lead[p], 0, sizeof tt->lead[p]);
    }
    tt->points = n;
    return 0;
}

static sim_traj_col *total_col(sim_traj_totals *tt, const char *name, int seat) {
    for (int i = 0; i < tt->n_cols; i++)
        if (tt->col[i].seat == seat && !strcmp(tt->col[i].name, name)) return &tt->col[i];
    sim_traj_col *nc = realloc(tt->col, (size_t)(tt->n_cols + 1) * sizeof *nc);
    if (!nc) return NULL;
    tt->col = nc;
    sim_traj_col *c = &tt->col[tt->n_cols];
    c->seat = seat;
    c->at = calloc((size_t)(tt->points ? tt->points : 1), sizeof *c->at);
    if (!c->at || !(c->name = cairn_strdup(name))) return free(c->at), NULL;
    tt->n_cols++;
    return c;
}

int sim_traj_add(sim_traj_totals **ttp, const sim_rec *r) {
    const sim_traj *t = r->traj;
    if (!t || !r->ok) return 0;
    if (!*ttp) {
        if (!(*ttp = calloc(1, sizeof **ttp))) return -1;
        (*ttp)->every = t->every;
    }
    sim_traj_totals *tt = *ttp;
    if (grow_points(tt, t->n_points) != 0) return -1;
    double share[CAIRN_MAX_SEATS];
    sim_rec_shares(r, share);
    for (int i = 0; i < t->n_cols; i++) {
        sim_traj_col *c = total_col(tt, t->name[i], t->seat[i]);
        if (!c) return -1;
        for (long p = 0; p < t->n_points; p++) stats_add(&c->at[p], (double)t->v[p * t->n_cols + i]);
    }
    for (long p = 0; p < t->n_points; p++) {
        tt->games[p]++;
        int64_t best = INT64_MIN, next = INT64_MIN;
        int leader = 0, n = 0;
        for (int i = 0; i < t->n_cols; i++) {
            if (strcmp(t->name[i], "score") != 0 || t->seat[i] < 1 || t->seat[i] > r->n) continue;
            int64_t x = t->v[p * t->n_cols + i];
            n++;
            if (x > best) next = best, best = x, leader = t->seat[i];
            else if (x == best) next = x, leader = 0;
            else if (x > next) next = x;
        }
        if (n >= 2) stats_add(&tt->lead[p], (double)(best - next));
        if (n >= 2 && leader) tt->led[p]++, tt->leader_won[p] += share[leader - 1];
    }
    return 0;
}

/* ------------------------------------------------------------- report */

static void mean_cell(char *c, size_t size, const stats_acc *a) {
    stats_interval i = stats_mean_ci(a);
    snprintf(c, size, "%.2f [%.2f, %.2f]", stats_mean(a), i.lo, i.hi);
}

/* Rows printed in the text (the JSON has them all). */
#define TRAJ_SHOWN 40

/* One table: rows the points, columns the figure `name` per seat (or the
** game), and with the scores the lead and how often the leader won. */
static void table(FILE *out, const sim_traj_totals *tt, const char *name, int seats) {
    int score = !strcmp(name, "score");
    fprintf(out, "%-6s%7s", tt->every ? "after" : "round", "games");
    for (int i = 0; i < tt->n_cols; i++)
        if (!strcmp(tt->col[i].name, name)) {
            char h[32];
            if (tt->col[i].seat) snprintf(h, sizeof h, "seat %d", tt->col[i].seat);
            else snprintf(h, sizeof h, "game");
            fprintf(out, "%22s", h);
        }
    if (score && seats > 1) fprintf(out, "%22s%22s", "lead", "leader wins");
    fputc('\n', out);
    for (long p = 0; p < tt->points && p < TRAJ_SHOWN; p++) {
        fprintf(out, "%-6ld%7ld", tt->every ? (p + 1) * tt->every : p + 1, tt->games[p]);
        for (int i = 0; i < tt->n_cols; i++)
            if (!strcmp(tt->col[i].name, name)) {
                char c[48];
                mean_cell(c, sizeof c, &tt->col[i].at[p]);
                fprintf(out, "%22s", c);
            }
        if (score && seats > 1) {
            char c[48] = "-", w[48] = "-";
            if (tt->lead[p].n) mean_cell(c, sizeof c, &tt->lead[p]);
            if (tt->led[p]) {
                stats_interval iv = stats_wilson(tt->leader_won[p], (double)tt->led[p]);
                snprintf(w, sizeof w, "%.1f%% [%.1f, %.1f]", 100 * tt->leader_won[p] / (double)tt->led[p], 100 * iv.lo,
                         100 * iv.hi);
            }
            fprintf(out, "%22s%22s", c, w);
        }
        fputc('\n', out);
    }
    if (tt->points > TRAJ_SHOWN) fprintf(out, "(%ld more points in --json)\n", tt->points - TRAJ_SHOWN);
}

void sim_traj_report(FILE *out, const sim_traj_totals *tt, int seats) {
    if (!tt) return;
    if (tt->every) fprintf(out, "trajectory: every %d decisions (after N), ", tt->every);
    else fprintf(out, "trajectory: at the end of each round (g.state.round), ");
    fprintf(out, "each figure's mean over the games that reached that point [95%%]:\n");
    table(out, tt, "score", seats);
    if (seats > 1)
        fprintf(out, "lead: the best provisional score minus the next; leader wins: how often the seat alone on top "
                     "then won in the end (a tie its part): high early means the lead snowballs, near %.1f%% means "
                     "anyone can catch up\n",
                100.0 / seats);
    for (int i = 0; i < tt->n_cols; i++) {
        int first = 1;
        for (int j = 0; j < i; j++) first &= strcmp(tt->col[j].name, tt->col[i].name) != 0;
        if (!first || !strcmp(tt->col[i].name, "score")) continue;
        fprintf(out, "metric %s:\n", tt->col[i].name);
        table(out, tt, tt->col[i].name, seats);
    }
}

static void json_acc(FILE *f, const stats_acc *a) {
    stats_interval i = stats_mean_ci(a);
    fprintf(f, "{\"mean\": %.6f, \"lo\": %.6f, \"hi\": %.6f, \"sd\": %.6f}", stats_mean(a), i.lo, i.hi, stats_sd(a));
}

void sim_traj_report_json(FILE *f, const sim_traj_totals *tt) {
    if (!tt) {
        fputs("null", f);
        return;
    }
    fprintf(f, "{\"every\": %d, \"points\": [", tt->every);
    for (long p = 0; p < tt->points; p++) {
        fprintf(f, "%s\n  {\"at\": %ld, \"games\": %ld, \"figures\": [", p ? "," : "", tt->every ? (p + 1) * tt->every : p + 1,
                tt->games[p]);
        for (int i = 0; i < tt->n_cols; i++) {
            fputs(i ? ", {\"name\": " : "{\"name\": ", f);
            json_string_writez(f, tt->col[i].name);
            fprintf(f, ", \"seat\": %d, \"value\": ", tt->col[i].seat);
            json_acc(f, &tt->col[i].at[p]);
            fputc('}', f);
        }
        fputs("], \"lead\": ", f);
        if (tt->lead[p].n) json_acc(f, &tt->lead[p]);
        else fputs("null", f);
        stats_interval iv = stats_wilson(tt->leader_won[p], (double)tt->led[p]);
        fprintf(f, ", \"leader_wins\": {\"games\": %ld, \"share\": %.6f, \"lo\": %.6f, \"hi\": %.6f}}", tt->led[p],
                tt->led[p] ? tt->leader_won[p] / (double)tt->led[p] : 0, iv.lo, iv.hi);
    }
    fputs("]}", f);
}
