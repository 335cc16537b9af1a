/*
** faults.c
** make faults: allocation failure at every site of a short game. For each
** ruleset the scenario is: start a game, ten decisions, undo, save, load,
** reload, one more decision. Each step is run again and again on the same
** game with the 1st, 2nd, ... allocation inside it failing (failalloc.c),
** until a run of the step makes fewer allocations than the one failed: the
** step then completed with every one of its allocation sites having failed
** once. After every failed run the driver checks that the error says "out
** of memory", that the game's state hash and position are as before (no
** half-applied step) and that files on disk are as they were; a run that
** succeeded despite the failure must give the same game as the run without
** faults. Memory comes back right after the failure, and the game goes on.
** Leaks are LeakSanitizer's (the build uses ASan).
**
**   faults [-k K] [-v] [RULESET...]    default: every shipped ruleset
**
** -k K: at most K failure points per step (0: all); past K, the points are
** spread evenly over the rest (K/4 of them), so a long step is still
** sampled to its end. Exit status 0 when every check passed, 1 otherwise.
*/
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "engine.h"
#include "error.h"
#include "failalloc.h"
#include "save.h"

/* Global on purpose: the driver's options and tallies, set once in main. */
static long opt_k = 0;
static int opt_verbose = 0;
static int failures = 0;
static long total_points = 0;
static char save_path[256];

#define FAIL(...)                                                                                  \
    do {                                                                                           \
        fprintf(stderr, "faults: FAIL: " __VA_ARGS__);                                             \
        fputc('\n', stderr);                                                                       \
        failures++;                                                                                \
    } while (0)

/* ------------------------------------------------------------ helpers */
/* FAULTS_TRACE=1: each failure point on stderr before it is tried, so a
** crash names it. FAULTS_ONLY=N: only failure point N of each step. */
static void trace(const char *ruleset, const char *step, long n) {
    static int on = -1;
    if (on < 0) on = getenv("FAULTS_TRACE") != NULL;
    if (on) fprintf(stderr, "faults: trying %s %s allocation %ld\n", ruleset, step, n);
}

/* Lua's own word for it ("not enough memory") is as clear. */
static int says_oom(const char *text) {
    return text && (strstr(text, "out of memory") || strstr(text, "not enough memory"));
}

static int errs_say_oom(const cerr_list *errs) {
    if (errs->oom) return 1;
    for (size_t i = 0; i < errs->n; i++)
        if (says_oom(errs->items[i].message)) return 1;
    return 0;
}

static char *errs_text(const cerr_list *errs) {
    return errs->n ? cerr_format(&errs->items[0]) : cairn_strdup(errs->oom ? "(lost: out of memory)" : "(no error)");
}

static char *read_file(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    char *buf = NULL;
    size_t n = 0, cap = 0;
    for (;;) {
        if (n + 4096 > cap) {
            cap = cap ? cap * 2 : 8192;
            char *nb = realloc(buf, cap);
            if (!nb) break;
            buf = nb;
        }
        size_t r = fread(buf + n, 1, cap - n, f);
        n += r;
        if (r == 0) break;
    }
    fclose(f);
    *len = n;
    return buf;
}

/* Which allocations of a step to fail, ascending, ending with LONG_MAX (a
** point past the step's end: the run that completes it). Every point up to
** k; then the first allocation of every call site not yet failed in this
** step (so each site of cairn's code the step reaches fails at least
** once; Lua's own allocations all come through one site, the sandbox
** allocator, and are reached by the first k and the samples); then k/4
** points spread evenly over the rest. k = 0: every point.
** FAULTS_FROM=N skips the points before N (to reproduce one). */
typedef struct plan {
    long *v;
    size_t n;
} plan;

static int cmp_long(const void *a, const void *b) {
    long x = *(const long *)a, y = *(const long *)b;
    return x < y ? -1 : x > y;
}

static plan last_plan; /* freed by the next make_plan and at exit */

static plan make_plan(long allocs) {
    free(last_plan.v);
    plan p = {NULL, 0};
    long n_sites = 0;
    void *const *sites = failalloc_sites(&n_sites);
    p.v = malloc(((size_t)allocs + 2) * sizeof *p.v);
    if (!p.v) {
        fprintf(stderr, "faults: out of memory planning\n");
        exit(2);
    }
    const char *f = getenv("FAULTS_FROM");
    long from = f && atol(f) > 0 ? atol(f) : 1;
    long k = opt_k <= 0 || opt_k > allocs ? allocs : opt_k;
    for (long i = 1; i <= k; i++) p.v[p.n++] = i;
    if (k < allocs) {
        /* first occurrence of each site past k (a small quadratic scan: sites are few) */
        void **done = calloc((size_t)n_sites + 1, sizeof *done);
        size_t n_done = 0;
        for (long i = 0; done && i < n_sites; i++) {
            if (i < k) { /* sites already failed by the first k */
                size_t j = 0;
                while (j < n_done && done[j] != sites[i]) j++;
                if (j == n_done) done[n_done++] = sites[i];
                continue;
            }
            size_t j = 0;
            while (j < n_done && done[j] != sites[i]) j++;
            if (j == n_done) {
                done[n_done++] = sites[i];
                p.v[p.n++] = i + 1;
            }
        }
        free(done);
        long samples = k / 4 > 0 ? k / 4 : 1, rest = allocs - k;
        for (long j = 1; j <= samples; j++) {
            long at = k + rest * j / (samples + 1);
            if (at > k && at <= allocs) p.v[p.n++] = at;
        }
        qsort(p.v, p.n, sizeof *p.v, cmp_long);
        size_t w = 0; /* drop repeats */
        for (size_t i = 0; i < p.n; i++)
            if (!w || p.v[w - 1] != p.v[i]) p.v[w++] = p.v[i];
        p.n = w;
    }
    size_t w = 0;
    for (size_t i = 0; i < p.n; i++)
        if (p.v[i] >= from) p.v[w++] = p.v[i];
    p.n = w;
    p.v[p.n++] = LONG_MAX;
    last_plan = p;
    return p;
}

/* Allocations a step makes without faults (to place the samples). */
typedef struct step_ctx {
    const char *ruleset;
    const char *step;
    long points;   /* failure points tried */
    long allocs;   /* allocations of the step without faults */
    plan plan;     /* the points to try */
} step_ctx;

static void step_done(step_ctx *s) {
    total_points += s->points;
    if (opt_verbose)
        printf("  %-10s %-10s %6ld allocations, %6ld failure points\n", s->ruleset, s->step,
               s->allocs, s->points);
}

/* ------------------------------------------------------------ the steps */
static engine *start_game(const char *ruleset) {
    engine_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.ruleset = ruleset;
    cfg.seed = 11;
    cfg.checks = 1;
    cerr_list errs;
    cerr_init(&errs, 0);
    engine *e = engine_new(&cfg, &errs);
    if (!e) {
        fprintf(stderr, "faults: %s does not start without faults:\n", ruleset);
        cerr_print(stderr, &errs);
    }
    cerr_free(&errs);
    return e;
}

/* Step "start": engine_new from nothing. */
static engine *step_start(const char *ruleset, uint64_t want_hash) {
    step_ctx s = {ruleset, "start", 0, 0, {NULL, 0}};
    failalloc_arm(0);
    engine *ref = start_game(ruleset);
    s.allocs = failalloc_disarm();
    if (!ref) return NULL;
    s.plan = make_plan(s.allocs);
    for (size_t pi = 0; pi < s.plan.n; pi++) {
        long n = s.plan.v[pi];
        engine_config cfg;
        memset(&cfg, 0, sizeof cfg);
        cfg.ruleset = ruleset;
        cfg.seed = 11;
        cfg.checks = 1;
        cerr_list errs;
        cerr_init(&errs, 0);
        trace(s.ruleset, s.step, n);
        failalloc_arm(n);
        engine *e = engine_new(&cfg, &errs);
        failalloc_disarm();
        if (!failalloc_fired()) {
            engine_free(e);
            cerr_free(&errs);
            break;
        }
        s.points++;
        if (!e && !errs_say_oom(&errs)) {
            char *t = errs_text(&errs);
            FAIL("%s start, allocation %ld failed: the error does not say out of memory: %s", ruleset, n, t);
            free(t);
        }
        if (e && engine_state_hash(e) != want_hash)
            FAIL("%s start, allocation %ld failed: the game started, but not as without faults", ruleset, n);
        engine_free(e);
        cerr_free(&errs);
    }
    (void)want_hash;
    step_done(&s);
    return ref;
}

/* Step "decide": seat answers id. */
static int step_decide(engine *e, const char *ruleset, int seat, const char *id, int k) {
    step_ctx s = {ruleset, "decision", 0, 0, {NULL, 0}};
    char label[32];
    snprintf(label, sizeof label, "decision %d", k);
    s.step = label;
    uint64_t before = engine_state_hash(e);
    size_t pos = engine_position(e);
    /* the step's length, and the state it should reach */
    failalloc_arm(0);
    engine_status st = engine_answer(e, seat, id, NULL);
    s.allocs = failalloc_disarm();
    if (st != ENGINE_OK) {
        FAIL("%s %s: %s refused without faults", ruleset, label, id);
        return -1;
    }
    uint64_t want = engine_state_hash(e);
    if (engine_undo(e) != 0 || engine_state_hash(e) != before) {
        FAIL("%s %s: undo without faults does not come back", ruleset, label);
        return -1;
    }
    s.plan = make_plan(s.allocs);
    for (size_t pi = 0; pi < s.plan.n; pi++) {
        long n = s.plan.v[pi];
        char *why = NULL;
        trace(s.ruleset, s.step, n);
        failalloc_arm(n);
        st = engine_answer(e, seat, id, &why);
        failalloc_disarm();
        int fired = failalloc_fired();
        if (!fired) {
            free(why);
            if (st != ENGINE_OK || engine_state_hash(e) != want) {
                FAIL("%s %s: the decision does not apply once memory is back", ruleset, label);
                return -1;
            }
            break;
        }
        s.points++;
        if (st == ENGINE_OK) {
            if (engine_state_hash(e) != want)
                FAIL("%s %s, allocation %ld failed: applied, but not as without faults", ruleset, label, n);
            if (engine_undo(e) != 0 || engine_state_hash(e) != before) {
                FAIL("%s %s, allocation %ld failed: applied, and undo does not come back", ruleset, label, n);
                free(why);
                return -1;
            }
        } else {
            if (!says_oom(why))
                FAIL("%s %s, allocation %ld failed: %s: \"%s\" does not say out of memory", ruleset,
                     label, n, engine_status_name(st), why ? why : "(no reason)");
            if (engine_state_hash(e) != before || engine_position(e) != pos) {
                FAIL("%s %s, allocation %ld failed: the refused decision changed the game", ruleset, label, n);
                free(why);
                return -1;
            }
        }
        free(why);
    }
    step_done(&s);
    return 0;
}

/* Step "undo" (and its redo, to check it; the game stays undone). */
static int step_undo(engine *e, const char *ruleset) {
    step_ctx s = {ruleset, "undo", 0, 0, {NULL, 0}};
    uint64_t before = engine_state_hash(e);
    size_t pos = engine_position(e);
    failalloc_arm(0);
    int r = engine_undo(e);
    s.allocs = failalloc_disarm();
    uint64_t want = engine_state_hash(e);
    if (r != 0 || engine_redo(e) != 0 || engine_state_hash(e) != before) {
        FAIL("%s undo: undo/redo without faults does not come back", ruleset);
        return -1;
    }
    s.plan = make_plan(s.allocs);
    for (size_t pi = 0; pi < s.plan.n; pi++) {
        long n = s.plan.v[pi];
        trace(s.ruleset, s.step, n);
        failalloc_arm(n);
        r = engine_undo(e);
        failalloc_disarm();
        if (!failalloc_fired()) {
            if (r != 0 || engine_state_hash(e) != want) {
                FAIL("%s undo: does not undo once memory is back", ruleset);
                return -1;
            }
            break;
        }
        s.points++;
        if (r == 0) {
            if (engine_state_hash(e) != want)
                FAIL("%s undo, allocation %ld failed: undone, but not to the position before", ruleset, n);
            if (engine_redo(e) != 0) return -1;
        } else if (engine_state_hash(e) != before || engine_position(e) != pos) {
            FAIL("%s undo, allocation %ld failed: a refused undo changed the game", ruleset, n);
            return -1;
        }
    }
    step_done(&s);
    return 0;
}

/* Step "save": the previous save at save_path must survive a failed save. */
static int step_save(engine *e, const char *ruleset) {
    step_ctx s = {ruleset, "save", 0, 0, {NULL, 0}};
    cerr_list errs;
    cerr_init(&errs, 0);
    /* the previous save: of the game one decision back */
    uint64_t before = engine_state_hash(e);
    if (engine_undo(e) != 0 || save_write(e, save_path, &errs) != 0 || engine_redo(e) != 0) {
        FAIL("%s save: cannot write the previous save without faults", ruleset);
        cerr_free(&errs);
        return -1;
    }
    size_t old_len = 0, want_len = 0;
    char *old = read_file(save_path, &old_len);
    char want_path[300];
    snprintf(want_path, sizeof want_path, "%s.want", save_path);
    failalloc_arm(0);
    int r = save_write(e, want_path, &errs);
    s.allocs = failalloc_disarm();
    char *want = read_file(want_path, &want_len);
    unlink(want_path);
    if (r != 0 || !old || !want) {
        FAIL("%s save: cannot save without faults", ruleset);
        free(old);
        free(want);
        cerr_free(&errs);
        return -1;
    }
    s.plan = make_plan(s.allocs);
    for (size_t pi = 0; pi < s.plan.n; pi++) {
        long n = s.plan.v[pi];
        cerr_clear(&errs);
        trace(s.ruleset, s.step, n);
        failalloc_arm(n);
        r = save_write(e, save_path, &errs);
        failalloc_disarm();
        size_t len = 0;
        char *now = read_file(save_path, &len);
        int fired = failalloc_fired();
        if (fired) s.points++;
        if (r == 0) {
            if (!now || len != want_len || memcmp(now, want, len) != 0) {
                FAIL("%s save, allocation %ld failed: saved, but not the game's save (kept as %s.bad)",
                     ruleset, n, save_path);
                char bad[300];
                snprintf(bad, sizeof bad, "%s.bad", save_path);
                FILE *f = fopen(bad, "wb");
                if (f) {
                    if (now) fwrite(now, 1, len, f);
                    fclose(f);
                }
            }
        } else {
            if (!fired) FAIL("%s save: fails once memory is back", ruleset);
            if (!errs_say_oom(&errs)) {
                char *t = errs_text(&errs);
                FAIL("%s save, allocation %ld failed: the error does not say out of memory: %s", ruleset, n, t);
                free(t);
            }
            if (!now || len != old_len || memcmp(now, old, len) != 0)
                FAIL("%s save, allocation %ld failed: the previous save did not survive", ruleset, n);
        }
        if (engine_state_hash(e) != before) FAIL("%s save, allocation %ld failed: the game changed", ruleset, n);
        free(now);
        if (!fired) break;
        /* put the previous save back for the next point */
        FILE *f = fopen(save_path, "wb");
        if (!f || fwrite(old, 1, old_len, f) != old_len || fclose(f) != 0) {
            FAIL("%s save: cannot restore the previous save", ruleset);
            break;
        }
    }
    free(old);
    free(want);
    cerr_free(&errs);
    step_done(&s);
    /* leave the game's own save for the load step */
    cerr_init(&errs, 0);
    r = save_write(e, save_path, &errs);
    cerr_free(&errs);
    return r;
}

/* Step "load": save_load of the save just written, compared with e. */
static int step_load(engine *e, const char *ruleset) {
    step_ctx s = {ruleset, "load", 0, 0, {NULL, 0}};
    save_load_opts o = {.checks = 1};
    cerr_list errs;
    cerr_init(&errs, 0);
    failalloc_arm(0);
    engine *ref = save_load(save_path, &o, NULL, &errs);
    s.allocs = failalloc_disarm();
    if (!ref || engine_state_hash(ref) != engine_state_hash(e)) {
        FAIL("%s load: the save does not load as the game without faults", ruleset);
        cerr_print(stderr, &errs);
        engine_free(ref);
        cerr_free(&errs);
        return -1;
    }
    engine_free(ref);
    s.plan = make_plan(s.allocs);
    for (size_t pi = 0; pi < s.plan.n; pi++) {
        long n = s.plan.v[pi];
        cerr_clear(&errs);
        char *note = NULL;
        trace(s.ruleset, s.step, n);
        failalloc_arm(n);
        engine *l = save_load(save_path, &o, &note, &errs);
        failalloc_disarm();
        free(note);
        int fired = failalloc_fired();
        if (l && (engine_state_hash(l) != engine_state_hash(e) || engine_position(l) != engine_position(e)))
            FAIL("%s load, allocation %ld failed: loaded, but not as the game saved", ruleset, n);
        if (!l && !fired) FAIL("%s load: does not load once memory is back", ruleset);
        if (!l && fired && !errs_say_oom(&errs)) {
            char *t = errs_text(&errs);
            FAIL("%s load, allocation %ld failed: the error does not say out of memory: %s", ruleset, n, t);
            free(t);
        }
        engine_free(l);
        if (!fired) break;
        s.points++;
    }
    cerr_free(&errs);
    step_done(&s);
    return 0;
}

/* Step "reload": the rules re-read and the log replayed; a failure keeps the game. */
static int step_reload(engine *e, const char *ruleset) {
    step_ctx s = {ruleset, "reload", 0, 0, {NULL, 0}};
    cerr_list errs;
    cerr_init(&errs, 0);
    uint64_t before = engine_state_hash(e);
    size_t pos = engine_position(e), n_log = 0;
    engine_log(e, &n_log);
    engine_reload_report rep;
    memset(&rep, 0, sizeof rep);
    failalloc_arm(0);
    int r = engine_reload(e, &rep, &errs);
    s.allocs = failalloc_disarm();
    if (r != 0 || rep.stopped || engine_state_hash(e) != before) {
        FAIL("%s reload: does not reload to the same game without faults", ruleset);
        engine_reload_report_free(&rep);
        cerr_free(&errs);
        return -1;
    }
    engine_reload_report_free(&rep);
    s.plan = make_plan(s.allocs);
    for (size_t pi = 0; pi < s.plan.n; pi++) {
        long n = s.plan.v[pi];
        cerr_clear(&errs);
        memset(&rep, 0, sizeof rep);
        trace(s.ruleset, s.step, n);
        failalloc_arm(n);
        r = engine_reload(e, &rep, &errs);
        failalloc_disarm();
        int fired = failalloc_fired();
        size_t n_now = 0;
        engine_log(e, &n_now);
        if (engine_state_hash(e) != before || engine_position(e) != pos || n_now != n_log) {
            FAIL("%s reload, allocation %ld failed: the game changed (position %zu -> %zu%s%s)", ruleset,
                 n, pos, engine_position(e), rep.reason ? ": " : "", rep.reason ? rep.reason : "");
            engine_reload_report_free(&rep);
            cerr_free(&errs);
            return -1;
        }
        if (r != 0 && !errs_say_oom(&errs)) {
            char *t = errs_text(&errs);
            FAIL("%s reload, allocation %ld failed: the error does not say out of memory: %s", ruleset, n, t);
            free(t);
        }
        if (r != 0 && !fired) FAIL("%s reload: fails once memory is back", ruleset);
        engine_reload_report_free(&rep);
        if (!fired) break;
        s.points++;
    }
    cerr_free(&errs);
    step_done(&s);
    return 0;
}

/* The first asked seat and the random bot's choice for it (no faults). */
static char *next_move(engine *e, int *seat) {
    for (int s = 1; s <= engine_seat_count(e); s++)
        if (engine_is_asked(e, s)) {
            *seat = s;
            return engine_bot_choice(e, s);
        }
    return NULL;
}

static void run_ruleset(const char *ruleset) {
    long before_points = total_points;
    int before_failures = failures;
    /* the game without faults, for the hash to expect */
    engine *ref = start_game(ruleset);
    if (!ref) {
        failures++;
        return;
    }
    uint64_t h0 = engine_state_hash(ref);
    engine_free(ref);
    engine *e = step_start(ruleset, h0);
    if (!e) {
        failures++;
        return;
    }
    int ok = 1;
    for (int k = 1; k <= 10 && ok && !engine_is_over(e); k++) {
        int seat = 0;
        char *id = next_move(e, &seat);
        if (!id) break;
        ok = step_decide(e, ruleset, seat, id, k) == 0;
        free(id);
    }
    ok = ok && step_undo(e, ruleset) == 0;
    ok = ok && step_save(e, ruleset) == 0;
    ok = ok && step_load(e, ruleset) == 0;
    ok = ok && step_reload(e, ruleset) == 0;
    /* the game goes on */
    int seat = 0;
    char *id = ok ? next_move(e, &seat) : NULL;
    if (ok && !engine_is_over(e) && (!id || engine_answer(e, seat, id, NULL) != ENGINE_OK))
        FAIL("%s: the game does not go on after the faults", ruleset);
    free(id);
    engine_free(e);
    printf("faults: %-10s %7ld failure points  %s\n", ruleset, total_points - before_points,
           failures == before_failures ? "ok" : "FAILED");
    fflush(stdout);
}

int main(int argc, char **argv) {
    static const char *const shipped[] = {"connect4", "goofspiel", "yak", "himalaya", "kathmandu"};
    int i = 1;
    for (; i < argc && argv[i][0] == '-'; i++) {
        if (strcmp(argv[i], "-k") == 0 && i + 1 < argc)
            opt_k = atol(argv[++i]);
        else if (strcmp(argv[i], "-v") == 0)
            opt_verbose = 1;
        else {
            fprintf(stderr, "usage: faults [-k K] [-v] [RULESET...]\n");
            return 2;
        }
    }
    const char *tmp = getenv("TMPDIR");
    snprintf(save_path, sizeof save_path, "%s/cairn-faults-%ld.save", tmp && *tmp ? tmp : "/tmp", (long)getpid());
    if (i < argc)
        for (; i < argc; i++) run_ruleset(argv[i]);
    else
        for (size_t r = 0; r < sizeof shipped / sizeof shipped[0]; r++) run_ruleset(shipped[r]);
    unlink(save_path);
    free(last_plan.v);
    printf("faults: %ld failure points in all, %d failed checks (k = %ld per step%s); "
           "call sites: %ld seen, %ld made to fail\n", total_points, failures, opt_k,
           opt_k ? ", then each call site's first allocation and samples" : ": every allocation",
           failalloc_sites_seen(), failalloc_sites_failed());
    return failures ? 1 : 0;
}
