/*
** sim_tune.c
** `cairn sim GAME --tune DATA.PATH=LO..HI --target 'position 1 win share =
** 0.5'`: the whole value of a data path that brings a win share to a target,
** found by bisection on paired seeds (every value plays the same seeds, so
** most of the noise is common to all of them and cancels in the
** comparison). Each value tried is a whole run; the report lists them with
** their intervals, the value closest to the target, and the values whose
** interval holds the target: the range the games cannot tell apart.
*/
#include "sim_internal.h"
#include "json_string.h"
#include "error.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

int sim_tune_parse(const char *tune, const char *target, sim_tune *t, FILE *err) {
    memset(t, 0, sizeof *t);
    const char *eq = strrchr(tune, '=');
    int used = 0;
    if (!eq || eq == tune || sscanf(eq + 1, "%" SCNd64 "..%" SCNd64 "%n", &t->lo, &t->hi, &used) != 2 || eq[1 + used] ||
        t->hi <= t->lo || !memchr(tune, '.', (size_t)(eq - tune))) {
        fprintf(err, "cairn sim: --tune takes DATA.PATH=LO..HI (whole numbers, LO < HI), got \"%s\"\nusage: %s\n", tune,
                SIM_USAGE);
        return -1;
    }
    snprintf(t->path, sizeof t->path, "%.*s", (int)(eq - tune), tune);
    char what[16];
    int n = 0;
    used = 0;
    if (!target ||
        (sscanf(target, " position %d win share = %lf %n", &n, &t->target, &used) != 2 &&
         sscanf(target, " seat %d win share = %lf %n", &n, &t->target, &used) != 2) ||
        target[used] || n < 1 || n > CAIRN_MAX_SEATS || !(t->target > 0 && t->target < 1)) {
        fprintf(err, "cairn sim: --tune needs --target 'position N win share = X' or 'seat N win share = X' (0 < X < 1), "
                     "got \"%s\"\nusage: %s\n",
                target ? target : "", SIM_USAGE);
        return -1;
    }
    sscanf(target, " %15s", what);
    t->by_position = !strcmp(what, "position"), t->which = n;
    return 0;
}

/* The value v's point, run when not yet. NULL when the run failed. */
static const sim_tune_point *at(sim_tune *t, int64_t v, sim_tune_run run, void *ud) {
    for (int i = 0; i < t->n; i++)
        if (t->point[i].value == v) return &t->point[i];
    if (t->n == SIM_TUNE_MAX_POINTS) return NULL;
    sim_tune_point *p = &t->point[t->n];
    p->value = v;
    if (run(ud, t, v, p) != 0) return NULL;
    t->n++;
    return p;
}

static double share(const sim_tune_point *p) { return p->games ? p->wins / (double)p->games : 0; }

int sim_tune_search(sim_tune *t, sim_tune_run run, void *ud) {
    const sim_tune_point *a = at(t, t->lo, run, ud), *b = a ? at(t, t->hi, run, ud) : NULL;
    if (!a || !b) return -1;
    int64_t lo = t->lo, hi = t->hi;
    double flo = share(a) - t->target, fhi = share(b) - t->target;
    t->bracketed = (flo <= 0 && fhi >= 0) || (flo >= 0 && fhi <= 0);
    while (t->bracketed && hi - lo > 1) { /* keep the sign change between lo and hi */
        int64_t mid = lo + (hi - lo) / 2;
        const sim_tune_point *m = at(t, mid, run, ud);
        if (!m) return -1;
        double fm = share(m) - t->target;
        if ((fm <= 0) == (flo <= 0)) lo = mid, flo = fm;
        else hi = mid, fhi = fm;
    }
    return 0;
}

static int by_value(const void *x, const void *y) {
    const sim_tune_point *a = x, *b = y;
    return (a->value > b->value) - (a->value < b->value);
}

void sim_tune_report(FILE *out, sim_tune *t) {
    qsort(t->point, (size_t)t->n, sizeof *t->point, by_value);
    fprintf(out, "tune %s in %" PRId64 "..%" PRId64 ": %s %d win share = %.3f, by bisection on the same seeds\n", t->path,
            t->lo, t->hi, t->by_position ? "position" : "seat", t->which, t->target);
    fprintf(out, "%12s%8s%24s%22s\n", "value", "games", "win share [95%]", "holds the target");
    int best = -1, first = -1, last = -1, holds_at[SIM_TUNE_MAX_POINTS];
    for (int i = 0; i < t->n; i++) {
        const sim_tune_point *p = &t->point[i];
        stats_interval w = stats_wilson(p->wins, (double)p->games);
        int holds = stats_holds(w, t->target);
        char cell[48];
        snprintf(cell, sizeof cell, "%.1f%% [%.1f, %.1f]", 100 * p->wins / (double)(p->games ? p->games : 1), 100 * w.lo,
                 100 * w.hi); /* as the run's own report prints it */
        fprintf(out, "%12" PRId64 "%8ld%24s%22s\n", p->value, p->games, cell, holds ? "yes" : "no");
        double d = share(p) - t->target, bd = best >= 0 ? share(&t->point[best]) - t->target : 0;
        if (best < 0 || (d < 0 ? -d : d) < (bd < 0 ? -bd : bd)) best = i;
        holds_at[i] = holds;
    }
    if (best >= 0 && holds_at[best]) { /* the run of values around the closest whose interval holds the target */
        for (first = best; first > 0 && holds_at[first - 1]; first--) {
        }
        for (last = best; last + 1 < t->n && holds_at[last + 1]; last++) {
        }
    }
    if (!t->bracketed) {
        fprintf(out, "tune: the target is not between the shares at %" PRId64 " and %" PRId64
                     "; widen LO..HI (or the target cannot be reached by this value)\n",
                t->lo, t->hi);
        return;
    }
    fprintf(out, "tune: %s = %" PRId64 " comes closest (%.1f%%)", t->path, t->point[best].value, 100 * share(&t->point[best]));
    if (first >= 0)
        fprintf(out, "; around it, the values tried whose interval holds the target: %" PRId64 " to %" PRId64
                     " (the games cannot tell these apart)\n",
                t->point[first].value, t->point[last].value);
    else fputs("; its interval does not hold the target: a step of one is coarser than the noise\n", out);
}

void sim_tune_json(FILE *f, sim_tune *t) {
    fputs("{\"path\": ", f);
    json_string_writez(f, t->path);
    fprintf(f, ", \"lo\": %" PRId64 ", \"hi\": %" PRId64 ", \"target\": %.6f, \"by_position\": %s, \"which\": %d, "
               "\"bracketed\": %s, \"points\": [",
            t->lo, t->hi, t->target, t->by_position ? "true" : "false", t->which, t->bracketed ? "true" : "false");
    for (int i = 0; i < t->n; i++) {
        stats_interval w = stats_wilson(t->point[i].wins, (double)t->point[i].games);
        fprintf(f, "%s{\"value\": %" PRId64 ", \"games\": %ld, \"share\": %.6f, \"lo\": %.6f, \"hi\": %.6f}", i ? ", " : "",
                t->point[i].value, t->point[i].games, share(&t->point[i]), w.lo, w.hi);
    }
    fputs("]}\n", f);
}
