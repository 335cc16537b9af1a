/*
** tools/bench/main.c
** `make bench`: cairn's speed and memory figures side by side with a
** plain-Lua and a native-C Connect Four, each printed with its target and a
** pass/MISS mark, and written to bench.json (docs/bench.md). It measures,
** it does not gate: the exit status is 0 when targets are missed, 1 only
** when a game or a measurement fails to run, 2 for a bad BENCH_* setting
** or when not run from the repository root.
** Run from the repository root (it reads ./rulesets and tools/bench).
*/
#include "bench.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "ruleset.h"

/* ------------------------------------------------------------ settings */

static int env_double(const char *name, double dflt, double *out) {
    const char *s = getenv(name);
    *out = dflt;
    if (!s || !*s) return 0;
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || *end || !(v > 0) || v > 3600) {
        fprintf(stderr, "bench: %s=\"%s\": expected seconds, more than 0, at most 3600\n", name, s);
        return -1;
    }
    *out = v;
    return 0;
}

static int env_long(const char *name, long dflt, long max, long *out) {
    const char *s = getenv(name);
    *out = dflt;
    if (!s || !*s) return 0;
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || *end || v < 1 || v > max) {
        fprintf(stderr, "bench: %s=\"%s\": expected a whole number from 1 to %ld\n", name, s, max);
        return -1;
    }
    *out = v;
    return 0;
}

static int read_settings(bench_settings *s) {
    long seeds = 0;
    int rc = env_double("BENCH_SECONDS", 1.0, &s->seconds) |
             env_long("BENCH_C4_GAMES", 100000, 10000000, &s->c4_games) |
             env_double("BENCH_C4_SECONDS", 40.0, &s->c4_seconds) |
             env_long("BENCH_LONG_SEEDS", 200, 100000, &seeds);
    s->long_seeds = (int)seeds;
    s->json_path =
        getenv("BENCH_JSON") && *getenv("BENCH_JSON") ? getenv("BENCH_JSON") : "bench.json";
    s->only = getenv("BENCH_ONLY") && *getenv("BENCH_ONLY") ? getenv("BENCH_ONLY") : NULL;
    return rc;
}

/* ------------------------------------------------------ machine facts */

static void machine_facts(bench_report *r) {
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    r->nproc = n > 0 ? (int)n : 0;
    snprintf(r->cpu, sizeof r->cpu, "unknown");
    FILE *f = fopen("/proc/cpuinfo", "r");
    char line[512];
    while (f && fgets(line, sizeof line, f)) {
        char *colon = strchr(line, ':');
        if (strncmp(line, "model name", 10) != 0 || !colon) continue;
        colon += 1 + strspn(colon + 1, " \t");
        colon[strcspn(colon, "\n")] = 0;
        snprintf(r->cpu, sizeof r->cpu, "%s", colon);
        break;
    }
    if (f) fclose(f);
    f = fopen("/proc/loadavg", "r");
    if (!f || fscanf(f, "%lf", &r->loadavg) != 1) r->loadavg = -1;
    if (f) fclose(f);
    time_t t = time(NULL);
    struct tm tm;
    if (gmtime_r(&t, &tm)) strftime(r->date, sizeof r->date, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* ------------------------------------------------------ what to play */

static int cmp_str(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The shipped rulesets: the folders of ./rulesets with a ruleset.yaml
** (only those BENCH_ONLY names, when it is set). */
static char **shipped_rulesets(const char *only, size_t *n) {
    *n = 0;
    DIR *d = opendir("rulesets");
    if (!d) {
        bench_fail("rulesets: %s (run make bench from the repository root)", strerror(errno));
        return NULL;
    }
    char **names = NULL;
    size_t cap = 0;
    struct dirent *de;
    while ((de = readdir(d))) {
        if (de->d_name[0] == '.' || (only && !bench_listed(only, de->d_name))) continue;
        char path[4096];
        struct stat st;
        snprintf(path, sizeof path, "rulesets/%s/ruleset.yaml", de->d_name);
        if (stat(path, &st) != 0 || !S_ISREG(st.st_mode)) continue;
        if (*n == cap) {
            cap = cap ? 2 * cap : 8;
            char **grown = realloc(names, cap * sizeof *names);
            if (!grown) break;
            names = grown;
        }
        if (!(names[*n] = strdup(de->d_name))) break;
        (*n)++;
    }
    closedir(d);
    if (!*n) bench_fail("rulesets: none%s%s", only ? " named by BENCH_ONLY=" : "", only ? only : "");
    if (*n) qsort(names, *n, sizeof *names, cmp_str);
    return names;
}

/* Every shipped ruleset with every seat count of its manifest. */
static game_config *game_configs(char **names, size_t n_names, size_t *n) {
    *n = 0;
    game_config *c = NULL;
    for (size_t i = 0; i < n_names; i++) {
        cerr_list errs;
        cerr_init(&errs, 0);
        ruleset *r = ruleset_load(names[i], NULL, &errs);
        if (!r) bench_fail("%s: does not load (`cairn check %s`)", names[i], names[i]);
        int lo = r ? r->min_players : 1, hi = r ? r->max_players : 0;
        ruleset_free(r);
        cerr_free(&errs);
        for (int p = lo; p <= hi; p++) {
            game_config *grown = realloc(c, (*n + 1) * sizeof *c);
            if (!grown) {
                bench_fail("out of memory");
                return c;
            }
            c = grown;
            c[(*n)++] = (game_config){names[i], p, 1};
        }
    }
    return c;
}

/* ------------------------------------------------------------ targets */

static target *add_target(bench_report *r, const char *what, double figure, double limit,
                          int at_least, int measured) {
    target *grown = realloc(r->targets, (r->n_targets + 1) * sizeof *grown);
    if (!grown) {
        bench_fail("out of memory");
        return NULL;
    }
    r->targets = grown;
    target *t = &r->targets[r->n_targets++];
    *t = (target){
        .what = what, .figure = figure, .limit = limit, .at_least = at_least, .measured = measured};
    t->pass = measured && (at_least ? figure >= limit : figure <= limit);
    return t;
}

#define TARGET(r, what, figure, limit, at_least, measured, ...)                                    \
    do {                                                                                           \
        target *t_ = add_target(r, what, figure, limit, at_least, measured);                       \
        if (t_) snprintf(t_->name, sizeof t_->name, __VA_ARGS__);                                  \
    } while (0)

/* Strictly below: "p99 < 1 ms". */
static void strict_below(bench_report *r) {
    target *t = &r->targets[r->n_targets - 1];
    t->strict = 1;
    t->pass = t->measured && t->figure < t->limit;
}

static void judge(bench_report *r) {
    for (size_t i = 0; i < r->n_configs; i++) {
        const game_config *g = &r->configs[i];
        const throughput *tp = &r->tp[i];
        double gps = rate_games(&tp->with_budget);
        int ran = tp->ok;
        if (strcmp(g->ruleset, "connect4") == 0) {
            TARGET(r, "games per CPU second vs the plain-Lua baseline, alternating slices (x)",
                   r->c4.ratio, 0.5, 1, r->c4.ok, "%s_%d_vs_lua", g->ruleset, g->seats);
            r->targets[r->n_targets - 1].goal = 0.7;
        }
        if (strcmp(g->ruleset, "yak") == 0 && (g->seats == 2 || g->seats == 4))
            TARGET(r, "games/s", gps, g->seats == 2 ? 300 : 150, 1, ran, "%s_%d_games_per_s",
                   g->ruleset, g->seats);
        TARGET(r, "engine overhead: loop time / handler time (x)", tp->overhead, 1.5, 0, ran,
               "%s_%d_overhead", g->ruleset, g->seats);
        TARGET(r, "budget overhead: CPU time with budget / without (x)", tp->budget_ratio, 1.1, 0, ran,
               "%s_%d_budget", g->ruleset, g->seats);
        TARGET(r, "REPL answer p99, CPU time (ms)", r->repl[i].cpu_p99_ms, 1.0, 0, r->repl[i].ok,
               "%s_%d_repl_p99", g->ruleset, g->seats);
        strict_below(r);
    }
    for (size_t i = 0; i < r->n_rulesets; i++) {
        TARGET(r, "check without smoke play (ms)", r->check[i].ms, 30, 0, r->check[i].runs > 0,
               "%s_check", r->rulesets[i]);
        strict_below(r);
    }
    TARGET(r, "undo at the long game's measured decision (ms)", r->lg.undo_ms, 5, 0, r->lg.timed,
           "long_game_undo");
    strict_below(r);
    TARGET(r, "peak RSS of the long game (KiB; 12 MB = 12e6 bytes)", (double)r->lg.peak_rss_kib,
           12e6 / 1024, 0, r->lg.peak_rss_kib > 0, "long_game_peak_rss");
    strict_below(r);
    TARGET(r, "RSS growth over the connect4 run (KiB)", (double)r->rss.growth_kib,
           BENCH_RSS_GROWTH_MAX_KIB, 0, r->rss.games > r->rss.warm_games, "rss_growth");
    strict_below(r);
}

/* ----------------------------------------------------------- printing */

static void print_table(const bench_report *r) {
    const bench_settings *s = r->settings;
    printf("\ncairn make bench, %s, %d x %s, load %.2f at the start, BENCH_SECONDS=%g\n\n",
           r->date, r->nproc, r->cpu, r->loadavg, s->seconds);
    printf("%-20s %8s %9s %7s %5s %7s %7s %7s %7s %7s %7s %8s\n", "random games", "games/s",
           "dec/s", "x Lua", "Lua%", "overhd", "+start", "budget", "p50 ms", "p99 ms", "cpu p99",
           "peak KiB");
    double lua_g = rate_games(&r->base.lua), lua_d = rate_decisions(&r->base.lua);
    const char *dash = "-";
    printf("%-20s %8.0f %9.0f %7.2f %5s %7s %7s %7s %7s %7s %7s %8s\n", "plain Lua connect4 2",
           lua_g, lua_d, 1.0, "100", dash, dash, dash, dash, dash, dash, dash);
    printf("%-20s %8.0f %9.0f %7.2f %5s %7s %7s %7s %7s %7s %7s %8s\n", "native C connect4 2",
           rate_games(&r->base.native), rate_decisions(&r->base.native),
           lua_g > 0 ? rate_games(&r->base.native) / lua_g : 0, dash, dash, dash, dash, dash, dash,
           dash, dash);
    for (size_t i = 0; i < r->n_configs; i++) {
        const throughput *tp = &r->tp[i];
        char label[64];
        snprintf(label, sizeof label, "cairn %s %d", r->configs[i].ruleset, r->configs[i].seats);
        /* x Lua: games/s for connect4 (the same game); decisions/s elsewhere */
        int same_game = strcmp(r->configs[i].ruleset, "connect4") == 0;
        double x = same_game ? (lua_g > 0 ? rate_games(&tp->with_budget) / lua_g : 0)
                             : (lua_d > 0 ? rate_decisions(&tp->with_budget) / lua_d : 0);
        printf("%-20s %8.1f %9.0f %6.3f%s %5.1f %6.2fx %6.2fx %6.3fx %7.3f %7.3f %7.3f %8ld\n",
               label, rate_games(&tp->with_budget), rate_decisions(&tp->with_budget), x,
               same_game ? " " : "d", 100 * tp->lua_share, tp->overhead, tp->overhead_with_start,
               tp->budget_ratio, r->repl[i].p50_ms, r->repl[i].p99_ms, r->repl[i].cpu_p99_ms,
               r->peak[i].peak_kib);
    }
    printf("  x Lua: games/s over the plain-Lua baseline's run above (d: decisions/s, another\n"
           "  game; connect4's target is judged on the alternating run below); Lua%%: handler\n"
           "  time / loop time; overhd: loop / handler; +start: the same with engine_new;\n"
           "  budget: CPU time with budget / without; p50/p99: REPL answer (answer,\n"
           "  events, view, render, decisions), wall time; cpu p99: the same in the thread's\n"
           "  CPU time (without other processes' turns); peak KiB: ru_maxrss of a child\n"
           "  playing seed 1\n\n");
    if (r->c4.slices)
        printf("connect4 against the plain-Lua baseline in %ld alternating slices, CPU time: cairn "
               "%.0f games/s, plain Lua %.0f games/s: %.3fx\n\n",
               r->c4.slices, rate_games(&r->c4.cairn), rate_games(&r->c4.lua), r->c4.ratio);
    printf("check without smoke play (`cairn check NAME --games 0`, CPU time of the process):");
    for (size_t i = 0; i < r->n_rulesets; i++)
        printf(" %s %.2f ms%s", r->rulesets[i], r->check[i].ms, i + 1 < r->n_rulesets ? "," : "\n");
    const long_game *lg = &r->lg;
    if (!lg->seed)
        printf("long game: %s\n", s->only ? "not run (BENCH_ONLY)" : "the search failed");
    else
        printf("long game %s %d seats seed %llu: %ld decisions (longest of %d seeds%s)\n",
               BENCH_LONG_RULESET, BENCH_LONG_SEATS, (unsigned long long)lg->seed, lg->decisions,
               lg->searched,
               lg->decisions >= BENCH_LONG_AT ? ", first to reach 500" : "; none reached 500");
    if (lg->seed && !lg->timed) printf("  undo, redo, goto or reload failed\n");
    if (lg->timed)
        printf("  at decision %ld: undo %.3f ms, redo %.3f ms, goto 0 -> %ld %.3f ms\n", lg->at,
               lg->undo_ms, lg->redo_ms, lg->at, lg->goto_ms);
    if (lg->timed)
        printf("  at the end: reload (%ld decisions replayed) %.1f ms\n", lg->reload_replayed,
               lg->reload_ms);
    if (lg->peak_rss_kib)
        printf("  peak RSS of the whole game in a forked child %ld KiB (it started at %ld KiB)\n",
               lg->peak_rss_kib, lg->fork_rss_kib);
    const rss_growth *g = &r->rss;
    if (!g->games)
        printf("RSS growth: %s\n\n", s->only ? "not run (BENCH_ONLY)" : "the run failed");
    else
        printf(
            "RSS growth: %ld of %ld connect4 games in %.1f s%s: %ld KiB after %ld, %ld KiB at the "
            "end, growth %ld KiB\n\n",
            g->games, g->target, g->seconds, g->complete ? "" : " (stopped at BENCH_C4_SECONDS)",
            g->warm_kib, g->warm_games, g->end_kib, g->growth_kib);
    printf("targets:\n");
    for (size_t i = 0; i < r->n_targets; i++) {
        const target *t = &r->targets[i];
        char goal[32] = "";
        if (t->goal > 0) snprintf(goal, sizeof goal, " (goal %g)", t->goal);
        printf("  %-4s %-22s %10.3f %s %g%s  %s\n",
               !t->measured ? "n/a"
               : t->pass    ? "pass"
                            : "MISS",
               t->name, t->figure,
               t->at_least ? ">="
               : t->strict ? "<"
                           : "<=",
               t->limit, goal, t->what);
    }
}

/* --------------------------------------------------------------- main */

static void progress(const char *what) { fprintf(stderr, "bench: %s\n", what); }

int main(void) {
    bench_settings s;
    if (read_settings(&s) != 0) return 2;
    bots_result bots[BENCH_BOT_GAMES];
    size_t n_bots = 0;
    if (getenv("BENCH_BOTS_ONLY") && *getenv("BENCH_BOTS_ONLY")) { /* make bench-bots: this section alone */
        bots_bench(s.seconds, bots, &n_bots);
        bots_print(bots, n_bots);
        return bench_failure_count() ? 1 : 0;
    }
    if (access("rulesets", R_OK) != 0 || access(BENCH_BASELINE_LUA, R_OK) != 0) {
        fprintf(stderr, "bench: no ./rulesets or %s here: run make bench from the repository root\n",
                BENCH_BASELINE_LUA);
        return 2;
    }
    bench_report r = {.settings = &s};
    machine_facts(&r);

    /* The children first, while this process is small: the RSS-growth run
    ** and the long-game search measure no time, so they run side by side;
    ** then the peak RSS of the long game and of one game per ruleset and
    ** seat count, each in its own child. */
    progress("forking the RSS-growth run and the long-game search");
    child growth, search;
    /* BENCH_ONLY: a quick look at some rulesets, without the memory runs */
    int growth_ok = !s.only && memory_rss_growth_start(&s, &growth) == 0;
    if (!s.only && memory_long_search_start(&s, &search) == 0 &&
        memory_long_search_finish(&search, &r.lg) == 0) {
        progress("long game found; its peak RSS");
        const game_config long_cfg = {BENCH_LONG_RULESET, BENCH_LONG_SEATS, 0};
        peak_rss p;
        if (memory_peak_rss(&long_cfg, r.lg.seed, &p) == 0 && p.decisions != r.lg.decisions)
            bench_fail("%s %d seats seed %llu: %ld decisions in the peak-RSS child, %ld before",
                       long_cfg.ruleset, long_cfg.seats, (unsigned long long)r.lg.seed,
                       p.decisions, r.lg.decisions);
        else {
            r.lg.peak_rss_kib = p.peak_kib;
            r.lg.fork_rss_kib = p.fork_kib;
        }
    }
    r.rulesets = shipped_rulesets(s.only, &r.n_rulesets);
    r.configs = game_configs(r.rulesets, r.n_rulesets, &r.n_configs);
    r.check = calloc(r.n_rulesets ? r.n_rulesets : 1, sizeof *r.check);
    r.tp = calloc(r.n_configs ? r.n_configs : 1, sizeof *r.tp);
    r.repl = calloc(r.n_configs ? r.n_configs : 1, sizeof *r.repl);
    r.peak = calloc(r.n_configs ? r.n_configs : 1, sizeof *r.peak);
    if (!r.check || !r.tp || !r.repl || !r.peak) {
        bench_fail("out of memory");
        return 1;
    }
    progress("peak RSS of one game per ruleset and seat count");
    for (size_t i = 0; i < r.n_configs; i++) memory_peak_rss(&r.configs[i], 1, &r.peak[i]);
    progress("waiting for the RSS-growth run");
    if (growth_ok) memory_rss_growth_finish(&growth, &r.rss);

    progress("check times");
    for (size_t i = 0; i < r.n_rulesets; i++) memory_check_time(r.rulesets[i], &r.check[i]);

    progress("baselines");
    baseline_run(s.seconds, &r.base);

    for (size_t i = 0; i < r.n_configs; i++) {
        char what[96];
        snprintf(what, sizeof what, "%s %d seats", r.configs[i].ruleset, r.configs[i].seats);
        progress(what);
        games_throughput(&r.configs[i], s.seconds, &r.tp[i]);
        if (strcmp(r.configs[i].ruleset, "connect4") == 0 && r.configs[i].seats == 2) {
            progress("connect4 against the plain-Lua baseline, alternating");
            paired_connect4(&r.configs[i], 2 * s.seconds, &r.c4);
        }
        games_repl_latency(&r.configs[i], s.seconds, &r.repl[i]);
        games_forget(); /* one loaded ruleset at a time, as in `cairn sim` */
    }
    if (r.lg.seed) {
        progress("undo, goto and reload on the long game");
        games_long_timings(&r.lg);
    }

    progress("bots: mcts against a plain-Lua UCT, alternating");
    bots_bench(s.seconds, bots, &n_bots);

    judge(&r);
    print_table(&r);
    bots_print(bots, n_bots);
    report_json(&r, s.json_path);
    printf("\nwrote %s%s\n", s.json_path,
           bench_failure_count() ? "; some games or measurements FAILED (see above)" : "");

    for (size_t i = 0; i < r.n_rulesets; i++)
        free(r.rulesets[i]);
    free(r.rulesets);
    free(r.check);
    free(r.configs);
    free(r.tp);
    free(r.repl);
    free(r.peak);
    free(r.targets);
    games_forget();
    return bench_failure_count() ? 1 : 0;
}
