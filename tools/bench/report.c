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

/* A JSON writer. Each open object or array knows whether it has a member
** yet and whether its members go one a line (indented by depth). */
typedef struct jw {
    FILE *f;
    int depth;
    int first[8], lines[8];
} jw;

static void str(FILE *f, const char *s) {
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
        if (*p == '"' || *p == '\\') fprintf(f, "\\%c", *p);
        else if (*p < 0x20) fprintf(f, "\\u%04x", *p);
        else fputc(*p, f);
    }
    fputc('"', f);
}

static void newline(jw *w, int depth) { fprintf(w->f, "\n%*s", 2 * depth, ""); }

/* The separator before a member, and its key when k is not NULL. */
static void member(jw *w, const char *k) {
    if (w->depth == 0) return;
    if (!w->first[w->depth]) fputs(w->lines[w->depth] ? "," : ", ", w->f);
    if (w->lines[w->depth]) newline(w, w->depth);
    w->first[w->depth] = 0;
    if (k) {
        str(w->f, k);
        fputs(": ", w->f);
    }
}

/* Opens an object ('{') or array ('[') as member k; lines: its members
** one a line. */
static void jopen(jw *w, const char *k, char c, int lines) {
    member(w, k);
    fputc(c, w->f);
    if (w->depth < 7) w->depth++;
    w->first[w->depth] = 1;
    w->lines[w->depth] = lines;
}

static void jclose(jw *w, char c) {
    if (w->lines[w->depth] && !w->first[w->depth]) newline(w, w->depth - 1);
    if (w->depth > 0) w->depth--;
    fputc(c, w->f);
}

/* A number JSON can hold (NaN and infinities become null). */
static void num(jw *w, const char *k, double v) {
    member(w, k);
    if (isfinite(v)) fprintf(w->f, "%.6g", v);
    else fputs("null", w->f);
}

static void integer(jw *w, const char *k, long v) {
    member(w, k);
    fprintf(w->f, "%ld", v);
}

static void text(jw *w, const char *k, const char *v) {
    member(w, k);
    str(w->f, v);
}

static void boolean(jw *w, const char *k, int v) {
    member(w, k);
    fputs(v ? "true" : "false", w->f);
}

static void rate_obj(jw *w, const char *k, const rate *r) {
    jopen(w, k, '{', 0);
    integer(w, "games", r->games);
    integer(w, "decisions", r->decisions);
    num(w, "seconds", r->seconds);
    num(w, "cpu_seconds", r->cpu_seconds);
    num(w, "games_per_s", rate_games(r));
    num(w, "decisions_per_s", rate_decisions(r));
    jclose(w, '}');
}

static void tally_obj(jw *w, const char *k, const c4_tally *t) {
    static const char *const names[] = {"games", "decisions", "wins1", "wins2", "draws"};
    const long v[] = {t->games, t->decisions, t->wins1, t->wins2, t->draws};
    jopen(w, k, '{', 0);
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) integer(w, names[i], v[i]);
    jclose(w, '}');
}

static void games(jw *w, const bench_report *r) {
    double lua_g = rate_games(&r->base.lua), lua_d = rate_decisions(&r->base.lua);
    jopen(w, "games", '[', 1);
    for (size_t i = 0; i < r->n_configs; i++) {
        const throughput *tp = &r->tp[i];
        const latency *l = &r->repl[i];
        jopen(w, NULL, '{', 0);
        text(w, "ruleset", r->configs[i].ruleset);
        integer(w, "seats", r->configs[i].seats);
        boolean(w, "ok", tp->ok && l->ok);
        rate_obj(w, "with_budget", &tp->with_budget);
        rate_obj(w, "no_budget", &tp->no_budget);
        rate_obj(w, "profiled", &tp->profiled);
        num(w, "games_per_s", rate_games(&tp->with_budget));
        num(w, "decisions_per_s", rate_decisions(&tp->with_budget));
        num(w, "vs_lua_games", lua_g > 0 ? rate_games(&tp->with_budget) / lua_g : 0);
        num(w, "vs_lua_decisions", lua_d > 0 ? rate_decisions(&tp->with_budget) / lua_d : 0);
        num(w, "start_seconds", tp->start_seconds);
        num(w, "loop_seconds", tp->loop_seconds);
        num(w, "handler_seconds", tp->handler_seconds);
        num(w, "lua_share", tp->lua_share);
        num(w, "engine_overhead", tp->overhead);
        num(w, "engine_overhead_with_start", tp->overhead_with_start);
        num(w, "budget_overhead", tp->budget_ratio);
        integer(w, "peak_rss_kib", r->peak[i].peak_kib);
        integer(w, "fork_rss_kib", r->peak[i].fork_kib);
        jopen(w, "repl", '{', 0);
        integer(w, "games", l->games);
        integer(w, "samples", (long)l->samples);
        num(w, "p50_ms", l->p50_ms);
        num(w, "p99_ms", l->p99_ms);
        num(w, "max_ms", l->max_ms);
        num(w, "cpu_p50_ms", l->cpu_p50_ms);
        num(w, "cpu_p99_ms", l->cpu_p99_ms);
        num(w, "cpu_max_ms", l->cpu_max_ms);
        jclose(w, '}');
        jclose(w, '}');
    }
    jclose(w, ']');
}

static void memory(jw *w, const bench_report *r) {
    jopen(w, "check", '[', 1);
    for (size_t i = 0; i < r->n_rulesets; i++) {
        jopen(w, NULL, '{', 0);
        text(w, "ruleset", r->rulesets[i]);
        num(w, "ms", r->check[i].ms);
        integer(w, "runs", r->check[i].runs);
        jclose(w, '}');
    }
    jclose(w, ']');
    const long_game *lg = &r->lg;
    jopen(w, "long_game", '{', 0);
    text(w, "ruleset", BENCH_LONG_RULESET);
    integer(w, "seats", BENCH_LONG_SEATS);
    integer(w, "seed", (long)lg->seed);
    integer(w, "decisions", lg->decisions);
    integer(w, "seeds_searched", lg->searched);
    integer(w, "measured_at", lg->at);
    boolean(w, "timed", lg->timed);
    num(w, "undo_ms", lg->undo_ms);
    num(w, "redo_ms", lg->redo_ms);
    num(w, "goto_ms", lg->goto_ms);
    num(w, "reload_ms", lg->reload_ms);
    integer(w, "reload_replayed", lg->reload_replayed);
    integer(w, "peak_rss_kib", lg->peak_rss_kib);
    integer(w, "fork_rss_kib", lg->fork_rss_kib);
    jclose(w, '}');
    const rss_growth *g = &r->rss;
    jopen(w, "rss_growth", '{', 0);
    integer(w, "target_games", g->target);
    integer(w, "games", g->games);
    boolean(w, "complete", g->complete);
    num(w, "seconds", g->seconds);
    integer(w, "warm_games", g->warm_games);
    integer(w, "warm_kib", g->warm_kib);
    integer(w, "end_kib", g->end_kib);
    integer(w, "growth_kib", g->growth_kib);
    jopen(w, "samples", '[', 0);
    for (size_t i = 0; i < g->n_samples; i++) {
        jopen(w, NULL, '[', 0);
        integer(w, NULL, g->sample_games[i]);
        integer(w, NULL, g->sample_kib[i]);
        jclose(w, ']');
    }
    jclose(w, ']');
    jclose(w, '}');
}

static void targets(jw *w, const bench_report *r) {
    jopen(w, "targets", '[', 1);
    for (size_t i = 0; i < r->n_targets; i++) {
        const target *t = &r->targets[i];
        jopen(w, NULL, '{', 0);
        text(w, "name", t->name);
        text(w, "what", t->what);
        num(w, "figure", t->figure);
        text(w, "op", t->at_least ? ">=" : t->strict ? "<" : "<=");
        num(w, "target", t->limit);
        if (t->goal > 0) num(w, "goal", t->goal);
        boolean(w, "measured", t->measured);
        boolean(w, "pass", t->pass);
        jclose(w, '}');
    }
    jclose(w, ']');
}

int report_json(const bench_report *r, const char *path) {
    jw w = {.f = fopen(path, "w")};
    if (!w.f) {
        bench_fail("%s: %s", path, strerror(errno));
        return -1;
    }
    const bench_settings *s = r->settings;
    jopen(&w, NULL, '{', 1);
    integer(&w, "version", 1);
    text(&w, "date", r->date);
    jopen(&w, "machine", '{', 0);
    integer(&w, "nproc", r->nproc);
    text(&w, "cpu", r->cpu);
    num(&w, "loadavg", r->loadavg);
    jclose(&w, '}');
    jopen(&w, "settings", '{', 0);
    num(&w, "bench_seconds", s->seconds);
    integer(&w, "c4_games", s->c4_games);
    num(&w, "c4_seconds", s->c4_seconds);
    integer(&w, "long_seeds", s->long_seeds);
    jclose(&w, '}');
    jopen(&w, "baselines", '{', 0);
    rate_obj(&w, "lua", &r->base.lua);
    rate_obj(&w, "native", &r->base.native);
    boolean(&w, "agree", r->base.agree);
    tally_obj(&w, "lua_check", &r->base.lua_check);
    tally_obj(&w, "native_check", &r->base.native_check);
    jclose(&w, '}');
    jopen(&w, "connect4_paired", '{', 0);
    rate_obj(&w, "lua", &r->c4.lua);
    rate_obj(&w, "cairn", &r->c4.cairn);
    integer(&w, "slices", r->c4.slices);
    num(&w, "ratio", r->c4.ratio);
    boolean(&w, "ok", r->c4.ok);
    jclose(&w, '}');
    if (r->tp && r->repl && r->peak) games(&w, r);
    if (r->check) memory(&w, r);
    targets(&w, r);
    jopen(&w, "failures", '[', 1);
    for (size_t i = 0; i < bench_failure_count(); i++)
        text(&w, NULL, bench_failure(i) ? bench_failure(i) : "(more failures, not kept)");
    jclose(&w, ']');
    boolean(&w, "ok", bench_failure_count() == 0);
    jclose(&w, '}');
    fputc('\n', w.f);
    if (ferror(w.f) | fclose(w.f)) {
        bench_fail("%s: write failed", path);
        return -1;
    }
    return 0;
}
