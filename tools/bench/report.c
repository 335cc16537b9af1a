/*
** tools/bench/report.c
** bench.json: every figure of `make bench`, and each target with its pass
** flag. The layout (version 1) is documented key by key in docs/bench.md.
*/
#include "bench.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

static void str(FILE *f, const char *s) {
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
        if (*p == '"' || *p == '\\')
            fprintf(f, "\\%c", *p);
        else if (*p < 0x20)
            fprintf(f, "\\u%04x", *p);
        else
            fputc(*p, f);
    }
    fputc('"', f);
}

/* A number JSON can hold (NaN and infinities become null). */
static void num(FILE *f, double v) {
    if (isfinite(v))
        fprintf(f, "%.6g", v);
    else
        fputs("null", f);
}

static void key(FILE *f, const char *k, int *first) {
    fputs(*first ? "" : ", ", f);
    *first = 0;
    str(f, k);
    fputs(": ", f);
}

static void kv_num(FILE *f, const char *k, double v, int *first) {
    key(f, k, first);
    num(f, v);
}

static void kv_int(FILE *f, const char *k, long v, int *first) {
    key(f, k, first);
    fprintf(f, "%ld", v);
}

static void kv_str(FILE *f, const char *k, const char *v, int *first) {
    key(f, k, first);
    str(f, v);
}

static void kv_bool(FILE *f, const char *k, int v, int *first) {
    key(f, k, first);
    fputs(v ? "true" : "false", f);
}

static void rate_obj(FILE *f, const char *k, const rate *r, int *first) {
    key(f, k, first);
    int one = 1;
    fputc('{', f);
    kv_int(f, "games", r->games, &one);
    kv_int(f, "decisions", r->decisions, &one);
    kv_num(f, "seconds", r->seconds, &one);
    kv_num(f, "games_per_s", rate_games(r), &one);
    kv_num(f, "decisions_per_s", rate_decisions(r), &one);
    fputc('}', f);
}

static void tally_obj(FILE *f, const char *k, const c4_tally *t, int *first) {
    key(f, k, first);
    int one = 1;
    fputc('{', f);
    kv_int(f, "games", t->games, &one);
    kv_int(f, "decisions", t->decisions, &one);
    kv_int(f, "wins1", t->wins1, &one);
    kv_int(f, "wins2", t->wins2, &one);
    kv_int(f, "draws", t->draws, &one);
    fputc('}', f);
}

static void games(FILE *f, const bench_report *r) {
    double lua_g = rate_games(&r->base.lua), lua_d = rate_decisions(&r->base.lua);
    fputs(",\n  \"games\": [", f);
    for (size_t i = 0; i < r->n_configs; i++) {
        const throughput *tp = &r->tp[i];
        const latency *l = &r->repl[i];
        int one = 1;
        fputs(i ? ",\n    {" : "\n    {", f);
        kv_str(f, "ruleset", r->configs[i].ruleset, &one);
        kv_int(f, "seats", r->configs[i].seats, &one);
        rate_obj(f, "with_budget", &tp->with_budget, &one);
        rate_obj(f, "no_budget", &tp->no_budget, &one);
        rate_obj(f, "profiled", &tp->profiled, &one);
        kv_num(f, "games_per_s", rate_games(&tp->with_budget), &one);
        kv_num(f, "decisions_per_s", rate_decisions(&tp->with_budget), &one);
        kv_num(f, "vs_lua_games", lua_g > 0 ? rate_games(&tp->with_budget) / lua_g : 0, &one);
        kv_num(f, "vs_lua_decisions", lua_d > 0 ? rate_decisions(&tp->with_budget) / lua_d : 0,
               &one);
        kv_num(f, "start_seconds", tp->start_seconds, &one);
        kv_num(f, "loop_seconds", tp->loop_seconds, &one);
        kv_num(f, "handler_seconds", tp->handler_seconds, &one);
        kv_num(f, "lua_share", tp->lua_share, &one);
        kv_num(f, "engine_overhead", tp->overhead, &one);
        kv_num(f, "engine_overhead_with_start", tp->overhead_with_start, &one);
        kv_num(f, "budget_overhead", tp->budget_ratio, &one);
        key(f, "repl", &one);
        int two = 1;
        fputc('{', f);
        kv_int(f, "games", l->games, &two);
        kv_int(f, "samples", (long)l->samples, &two);
        kv_num(f, "p50_ms", l->p50_ms, &two);
        kv_num(f, "p99_ms", l->p99_ms, &two);
        kv_num(f, "max_ms", l->max_ms, &two);
        fputs("}}", f);
    }
    fputs("\n  ]", f);
}

static void memory(FILE *f, const bench_report *r) {
    fputs(",\n  \"check\": [", f);
    for (size_t i = 0; i < r->n_rulesets; i++) {
        int one = 1;
        fputs(i ? ", {" : "{", f);
        kv_str(f, "ruleset", r->rulesets[i], &one);
        kv_num(f, "ms", r->check[i].ms, &one);
        kv_int(f, "runs", r->check[i].runs, &one);
        fputc('}', f);
    }
    const long_game *lg = &r->lg;
    int one = 1;
    fputs("],\n  \"long_game\": {", f);
    kv_str(f, "ruleset", BENCH_LONG_RULESET, &one);
    kv_int(f, "seats", BENCH_LONG_SEATS, &one);
    kv_int(f, "seed", (long)lg->seed, &one);
    kv_int(f, "decisions", lg->decisions, &one);
    kv_int(f, "seeds_searched", lg->searched, &one);
    kv_int(f, "measured_at", lg->at, &one);
    kv_num(f, "undo_ms", lg->undo_ms, &one);
    kv_num(f, "redo_ms", lg->redo_ms, &one);
    kv_num(f, "goto_ms", lg->goto_ms, &one);
    kv_num(f, "reload_ms", lg->reload_ms, &one);
    kv_int(f, "reload_replayed", lg->reload_replayed, &one);
    kv_int(f, "peak_rss_kib", lg->peak_rss_kib, &one);
    kv_int(f, "fork_rss_kib", lg->fork_rss_kib, &one);
    const rss_growth *g = &r->rss;
    one = 1;
    fputs("},\n  \"rss_growth\": {", f);
    kv_int(f, "target_games", g->target, &one);
    kv_int(f, "games", g->games, &one);
    kv_bool(f, "complete", g->complete, &one);
    kv_num(f, "seconds", g->seconds, &one);
    kv_int(f, "warm_games", g->warm_games, &one);
    kv_int(f, "warm_kib", g->warm_kib, &one);
    kv_int(f, "end_kib", g->end_kib, &one);
    kv_int(f, "growth_kib", g->growth_kib, &one);
    key(f, "samples", &one);
    fputc('[', f);
    for (size_t i = 0; i < g->n_samples; i++)
        fprintf(f, "%s[%ld, %ld]", i ? ", " : "", g->sample_games[i], g->sample_kib[i]);
    fputs("]}", f);
}

static void targets(FILE *f, const bench_report *r) {
    fputs(",\n  \"targets\": [", f);
    for (size_t i = 0; i < r->n_targets; i++) {
        const target *t = &r->targets[i];
        int one = 1;
        fputs(i ? ",\n    {" : "\n    {", f);
        kv_str(f, "name", t->name, &one);
        kv_str(f, "what", t->what, &one);
        kv_num(f, "figure", t->figure, &one);
        kv_str(f, "op", t->at_least ? ">=" : t->strict ? "<" : "<=", &one);
        kv_num(f, "target", t->limit, &one);
        if (t->goal > 0) kv_num(f, "goal", t->goal, &one);
        kv_bool(f, "measured", t->measured, &one);
        kv_bool(f, "pass", t->pass, &one);
        fputc('}', f);
    }
    fputs("\n  ]", f);
}

int report_json(const bench_report *r, const char *path) {
    FILE *f = fopen(path, "w");
    if (!f) {
        bench_fail("%s: %s", path, strerror(errno));
        return -1;
    }
    const bench_settings *s = r->settings;
    int one = 1;
    fputs("{\n  ", f);
    kv_int(f, "version", 1, &one);
    kv_str(f, "date", r->date, &one);
    fputs(",\n  \"machine\": {", f);
    int m = 1;
    kv_int(f, "nproc", r->nproc, &m);
    kv_str(f, "cpu", r->cpu, &m);
    fputs("},\n  \"settings\": {", f);
    m = 1;
    kv_num(f, "bench_seconds", s->seconds, &m);
    kv_int(f, "c4_games", s->c4_games, &m);
    kv_num(f, "c4_seconds", s->c4_seconds, &m);
    kv_int(f, "long_seeds", s->long_seeds, &m);
    fputs("},\n  \"baselines\": {", f);
    m = 1;
    rate_obj(f, "lua", &r->base.lua, &m);
    rate_obj(f, "native", &r->base.native, &m);
    kv_bool(f, "agree", r->base.agree, &m);
    tally_obj(f, "lua_check", &r->base.lua_check, &m);
    tally_obj(f, "native_check", &r->base.native_check, &m);
    fputc('}', f);
    if (r->tp && r->repl) games(f, r);
    if (r->check) memory(f, r);
    targets(f, r);
    fputs(",\n  \"failures\": [", f);
    for (size_t i = 0; i < bench_failure_count(); i++) {
        if (i) fputs(", ", f);
        str(f, bench_failure(i) ? bench_failure(i) : "(more failures, not kept)");
    }
    fputs("],\n  ", f);
    m = 1;
    kv_bool(f, "ok", bench_failure_count() == 0, &m);
    fputs("\n}\n", f);
    if (ferror(f) | fclose(f)) {
        bench_fail("%s: write failed", path);
        return -1;
    }
    return 0;
}
