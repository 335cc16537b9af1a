/*
** tools/bench/games.c
** cairn games with a random bot in every seat, through the public engine
** API only: throughput with and without the instruction budget, the rules'
** share of the time (engine_set_profiling + engine_get_stats), the REPL's
** work per answer, and undo/redo/goto/reload on a long game.
*/
#include "bench.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testrun.h"

#define MAX_SEATS 16

/* The rulesets loaded once for playouts, by ruleset, seat count and budget.
** Global on purpose: the bench is one process measuring many games, and
** loading once per process is what it measures; freed by games_forget. */
static struct loaded {
    const char *ruleset;
    int seats, no_budget;
    engine_rules *rules;
} loaded[64];
static size_t n_loaded;

static engine_rules *rules_for(const engine_config *cfg, cerr_list *errs) {
    for (size_t i = 0; i < n_loaded; i++)
        if (strcmp(loaded[i].ruleset, cfg->ruleset) == 0 && loaded[i].seats == cfg->players &&
            loaded[i].no_budget == cfg->no_budget)
            return loaded[i].rules;
    if (n_loaded == sizeof loaded / sizeof loaded[0]) return NULL;
    engine_rules *r = engine_rules_new(cfg, errs);
    if (r) loaded[n_loaded++] = (struct loaded){cfg->ruleset, cfg->players, cfg->no_budget, r};
    return r;
}

void games_forget(void) {
    for (size_t i = 0; i < n_loaded; i++) engine_rules_free(loaded[i].rules);
    n_loaded = 0;
}

engine *games_start(const game_config *g, uint64_t seed, int no_budget) {
    const char *bots[MAX_SEATS];
    if (g->seats < 1 || g->seats > MAX_SEATS) {
        bench_fail("%s: %d seats is outside 1..%d", g->ruleset, g->seats, MAX_SEATS);
        return NULL;
    }
    for (int i = 0; i < g->seats; i++)
        bots[i] = "random";
    engine_config cfg = {0};
    cfg.ruleset = g->ruleset;
    cfg.players = g->seats;
    cfg.bots = bots;
    cfg.seed = seed;
    cfg.no_budget = no_budget;
    cerr_list errs;
    cerr_init(&errs, 0);
    engine *e = NULL;
    if (g->playout) {
        cfg.fast = 1;
        cfg.rules = rules_for(&cfg, &errs);
    }
    if (!g->playout || cfg.rules) e = engine_new(&cfg, &errs);
    if (!e) {
        char *msg = errs.n ? cerr_format(&errs.items[0]) : NULL;
        bench_fail("%s %d seats seed %llu: the game does not start: %s", g->ruleset, g->seats,
                   (unsigned long long)seed, msg ? msg : "no error given");
        free(msg);
    }
    cerr_free(&errs);
    return e;
}

/* The random bot's choice for the seat asked next (*seat), or NULL after
** bench_fail: no seat may answer, or the game runs past the decision limit. */
static char *bot_pick(engine *e, const game_config *g, uint64_t seed, int *seat) {
    size_t at = engine_position(e);
    if (at >= CAIRN_TEST_MAX_DECISIONS) {
        bench_fail("%s %d seats seed %llu: no end after %d decisions", g->ruleset, g->seats,
                   (unsigned long long)seed, CAIRN_TEST_MAX_DECISIONS);
        return NULL;
    }
    *seat = engine_next_bot_seat(e);
    char *id = *seat ? engine_bot_choice(e, *seat) : NULL;
    if (!id)
        bench_fail("%s %d seats seed %llu decision %zu: no bot seat is asked or seat %d has no "
                   "enabled option",
                   g->ruleset, g->seats, (unsigned long long)seed, at + 1, *seat);
    return id;
}

/* Answers for seat; 0, or -1 after bench_fail. */
static int answer(engine *e, const game_config *g, uint64_t seed, int seat, const char *id) {
    size_t at = engine_position(e);
    char *why = NULL;
    engine_status st = engine_answer(e, seat, id, &why);
    if (st != ENGINE_OK)
        bench_fail("%s %d seats seed %llu decision %zu: seat %d \"%s\": %s", g->ruleset, g->seats,
                   (unsigned long long)seed, at + 1, seat, id, why ? why : engine_status_name(st));
    free(why);
    return st == ENGINE_OK ? 0 : -1;
}

int games_step(engine *e, const game_config *g, uint64_t seed) {
    if (engine_is_over(e)) return 0;
    if (g->playout) { /* as cairn sim: the bot's pick applied without copying it */
        size_t at = engine_position(e);
        int seat = at < CAIRN_TEST_MAX_DECISIONS ? engine_next_bot_seat(e) : 0;
        char *why = NULL;
        engine_status st = seat ? engine_bot_move(e, seat, &why) : ENGINE_NOT_ASKED;
        if (st != ENGINE_OK)
            bench_fail("%s %d seats seed %llu decision %zu: seat %d: %s", g->ruleset, g->seats,
                       (unsigned long long)seed, at + 1, seat, why ? why : engine_status_name(st));
        free(why);
        return st == ENGINE_OK ? 1 : -1;
    }
    int seat = 0;
    char *id = bot_pick(e, g, seed, &seat);
    if (!id) return -1;
    int rc = answer(e, g, seed, seat, id);
    free(id);
    return rc == 0 ? 1 : -1;
}

long games_play_out(engine *e, const game_config *g, uint64_t seed) {
    long n = 0;
    int rc;
    while ((rc = games_step(e, g, seed)) == 1)
        n++;
    return rc < 0 ? -1 : n;
}

/* What one game cost. */
typedef struct game_cost {
    long decisions;
    double start, loop, total; /* engine_new; the decision loop; new to free */
    double handler;            /* handler time while profiling (loop only) */
    double cpu;                /* the thread's CPU time, new to free */
} game_cost;

static int play_one(const game_config *g, uint64_t seed, int no_budget, int profile, game_cost *c) {
    double c0 = bench_cpu_now(), t0 = bench_now();
    engine *e = games_start(g, seed, no_budget);
    if (!e) return -1;
    double t1 = bench_now();
    if (profile) engine_set_profiling(e, 1);
    c->decisions = games_play_out(e, g, seed);
    double t2 = bench_now();
    engine_stats st = {0};
    engine_get_stats(e, &st);
    engine_free(e);
    double t3 = bench_now();
    c->cpu = bench_cpu_now() - c0;
    c->start = t1 - t0;
    c->loop = t2 - t1;
    c->total = t3 - t0;
    c->handler = profile ? (double)st.handler_ns / 1e9 : 0;
    return c->decisions < 0 ? -1 : 0;
}

int games_play_timed(const game_config *g, uint64_t seed, long *decisions, double *cpu) {
    game_cost c;
    int rc = play_one(g, seed, 0, 0, &c);
    *decisions = c.decisions;
    *cpu = c.cpu;
    return rc;
}

static void add_cost(rate *r, const game_cost *c) {
    r->games++;
    r->decisions += c->decisions;
    r->seconds += c->total;
    r->cpu_seconds += c->cpu;
}

int games_throughput(const game_config *g, double seconds, throughput *out) {
    *out = (throughput){0};
    /* The same seeds with and without the budget, alternating which goes
    ** first, so that both sides see the same games and the same noise. */
    double t0 = bench_now();
    for (uint64_t seed = 1; bench_now() - t0 < 2 * seconds; seed++) {
        game_cost c[2];
        for (int k = 0; k < 2; k++) {
            int nb = k ^ (int)(seed & 1);
            if (play_one(g, seed, nb, 0, &c[nb]) != 0) return -1;
        }
        if (c[0].decisions != c[1].decisions) {
            bench_fail("%s %d seats seed %llu: %ld decisions with the budget, %ld without",
                       g->ruleset, g->seats, (unsigned long long)seed, c[0].decisions,
                       c[1].decisions);
            return -1;
        }
        add_cost(&out->with_budget, &c[0]);
        add_cost(&out->no_budget, &c[1]);
    }
    out->budget_ratio =
        out->no_budget.cpu_seconds > 0 ? out->with_budget.cpu_seconds / out->no_budget.cpu_seconds
                                       : 0;
    t0 = bench_now();
    for (uint64_t seed = 1; bench_now() - t0 < seconds; seed++) {
        game_cost c;
        if (play_one(g, seed, 0, 1, &c) != 0) return -1;
        add_cost(&out->profiled, &c);
        out->start_seconds += c.start;
        out->loop_seconds += c.loop;
        out->handler_seconds += c.handler;
    }
    if (out->handler_seconds > 0) {
        out->overhead = out->loop_seconds / out->handler_seconds;
        out->overhead_with_start = (out->start_seconds + out->loop_seconds) / out->handler_seconds;
    }
    if (out->loop_seconds > 0) out->lua_share = out->handler_seconds / out->loop_seconds;
    out->ok = 1;
    return 0;
}

/* ------------------------------------------------------- REPL latency */

#define REPL_MIN_GAMES 3
#define REPL_ENOUGH_SAMPLES 1000

/* What the console does after a person's answer: the answer, the events
** the seat has not seen, its view, the board rendered for it and the
** decisions asked next. 0, or -1 after bench_fail. */
static int repl_answer(engine *e, const game_config *g, uint64_t seed, int seat, const char *id) {
    size_t since = engine_event_count(e);
    if (answer(e, g, seed, seat, id) != 0) return -1;
    engine_event_list ev = {0};
    engine_decision_list dl = {0};
    cerr_list errs;
    cerr_init(&errs, 0);
    value *view = engine_view(e, seat);
    char *board = engine_render(e, seat, &errs);
    int ok =
        engine_events(e, since, seat, &ev) == 0 && view && board && engine_decisions(e, &dl) == 0;
    if (!ok) {
        char *msg = errs.n ? cerr_format(&errs.items[0]) : NULL;
        bench_fail("%s %d seats seed %llu: seat %d: events, view, render or decisions failed: %s",
                   g->ruleset, g->seats, (unsigned long long)seed, seat,
                   msg ? msg : "out of memory");
        free(msg);
    }
    engine_event_list_free(&ev);
    engine_decision_list_free(&dl);
    value_free(view);
    free(board);
    cerr_free(&errs);
    return ok ? 0 : -1;
}

/* What the console shows before the first answer, untimed: the board for
** the seat asked first and its decisions (the console draws the turn
** screen before it reads an answer, so a person's first answer does not
** come to a game that has drawn nothing). 0, or -1 after bench_fail. */
static int first_screen(engine *e, const game_config *g, uint64_t seed) {
    int seat = engine_next_bot_seat(e);
    if (!seat) return 0;
    cerr_list errs;
    cerr_init(&errs, 0);
    engine_decision_list dl = {0};
    char *board = engine_render(e, seat, &errs);
    int ok = board && engine_decisions(e, &dl) == 0;
    if (!ok)
        bench_fail("%s %d seats seed %llu: the first board or decisions failed", g->ruleset,
                   g->seats, (unsigned long long)seed);
    engine_decision_list_free(&dl);
    free(board);
    cerr_free(&errs);
    return ok ? 0 : -1;
}

/* One REPL answer's cost: wall time, and this thread's CPU time (which
** leaves out the time other processes held the core). */
typedef struct sample {
    double wall, cpu;
} sample;

static void percentiles(sample *v, size_t n, int cpu, double *p50, double *p99, double *max) {
    double *x = malloc((n ? n : 1) * sizeof *x);
    if (!x) {
        bench_fail("out of memory");
        return;
    }
    for (size_t i = 0; i < n; i++) x[i] = (cpu ? v[i].cpu : v[i].wall) * 1e3;
    *p50 = bench_percentile(x, n, 0.50);
    *p99 = bench_percentile(x, n, 0.99);
    *max = n ? x[n - 1] : 0;
    free(x);
}

int games_repl_latency(const game_config *gc, double seconds, latency *out) {
    game_config as_played = *gc; /* the REPL plays strict games, one at a time */
    as_played.playout = 0;
    const game_config *g = &as_played;
    *out = (latency){0};
    size_t cap = 1024, n = 0;
    sample *v = malloc(cap * sizeof *v);
    if (!v) {
        bench_fail("out of memory");
        return -1;
    }
    int rc = 0;
    double t_start = bench_now();
    for (uint64_t seed = 1; rc == 0; seed++) {
        if (out->games >= REPL_MIN_GAMES &&
            (n >= REPL_ENOUGH_SAMPLES || bench_now() - t_start >= seconds))
            break;
        engine *e = games_start(g, seed, 0);
        if (!e) {
            rc = -1;
            break;
        }
        rc = first_screen(e, g, seed);
        while (rc == 0 && !engine_is_over(e)) {
            int seat = 0;
            char *id = bot_pick(e, g, seed, &seat);
            if (!id) {
                rc = -1;
                break;
            }
            double w0 = bench_now(), c0 = bench_cpu_now();
            rc = repl_answer(e, g, seed, seat, id);
            double c1 = bench_cpu_now(), w1 = bench_now();
            free(id);
            if (n == cap) {
                sample *grown = realloc(v, 2 * cap * sizeof *v);
                if (!grown) {
                    bench_fail("out of memory");
                    rc = -1;
                    break;
                }
                v = grown;
                cap *= 2;
            }
            v[n++] = (sample){w1 - w0, c1 - c0};
        }
        engine_free(e);
        out->games++;
    }
    out->samples = n;
    percentiles(v, n, 0, &out->p50_ms, &out->p99_ms, &out->max_ms);
    percentiles(v, n, 1, &out->cpu_p50_ms, &out->cpu_p99_ms, &out->cpu_max_ms);
    out->ok = rc == 0;
    free(v);
    return rc;
}

/* ------------------------------------------------- undo, goto, reload */

#define UNDO_REPS 21
#define GOTO_REPS 11
#define RELOAD_REPS 3

int games_long_timings(long_game *out) {
    const game_config g = {BENCH_LONG_RULESET, BENCH_LONG_SEATS, 0};
    engine *e = games_start(&g, out->seed, 0);
    if (!e) return -1;
    int st = 1;
    while (st == 1 && (long)engine_position(e) < BENCH_LONG_AT)
        st = games_step(e, &g, out->seed);
    if (st < 0) {
        engine_free(e);
        return -1;
    }
    int rc = 0;
    size_t at = engine_position(e);
    out->at = (long)at;
    double undo[UNDO_REPS], redo[UNDO_REPS], jump[GOTO_REPS], reload[RELOAD_REPS];
    for (int i = 0; i < UNDO_REPS && rc == 0; i++) {
        double t0 = bench_now();
        int u = engine_undo(e);
        double t1 = bench_now();
        int r = engine_redo(e);
        double t2 = bench_now();
        undo[i] = (t1 - t0) * 1e3;
        redo[i] = (t2 - t1) * 1e3;
        if (u != 0 || r != 0 || engine_position(e) != at) {
            bench_fail("%s %d seats seed %llu: undo/redo at decision %zu failed", g.ruleset,
                       g.seats, (unsigned long long)out->seed, at);
            rc = -1;
        }
    }
    for (int i = 0; i < GOTO_REPS && rc == 0; i++) {
        if (engine_goto(e, 0) != 0) rc = -1;
        double t0 = bench_now();
        if (rc == 0 && engine_goto(e, at) != 0) rc = -1;
        jump[i] = (bench_now() - t0) * 1e3;
        if (rc != 0 || engine_position(e) != at) {
            bench_fail("%s %d seats seed %llu: goto 0 and back to %zu failed", g.ruleset, g.seats,
                       (unsigned long long)out->seed, at);
            rc = -1;
        }
    }
    if (rc == 0 && games_play_out(e, &g, out->seed) < 0) rc = -1;
    for (int i = 0; i < RELOAD_REPS && rc == 0; i++) {
        engine_reload_report rep = {0};
        cerr_list errs;
        cerr_init(&errs, 0);
        double t0 = bench_now();
        int r = engine_reload(e, &rep, &errs);
        reload[i] = (bench_now() - t0) * 1e3;
        if (r != 0 || rep.stopped || rep.replayed != rep.total) {
            char *msg = errs.n ? cerr_format(&errs.items[0]) : NULL;
            bench_fail("%s %d seats seed %llu: reload at the end: %s", g.ruleset, g.seats,
                       (unsigned long long)out->seed,
                       msg          ? msg
                       : rep.reason ? rep.reason
                                    : "replay stopped");
            free(msg);
            rc = -1;
        }
        out->reload_replayed = (long)rep.replayed;
        engine_reload_report_free(&rep);
        cerr_free(&errs);
    }
    engine_free(e);
    if (rc != 0) return -1;
    out->undo_ms = bench_percentile(undo, UNDO_REPS, 0.5);
    out->redo_ms = bench_percentile(redo, UNDO_REPS, 0.5);
    out->goto_ms = bench_percentile(jump, GOTO_REPS, 0.5);
    out->reload_ms = bench_percentile(reload, RELOAD_REPS, 0.5);
    out->timed = 1;
    return 0;
}
