/*
** bench.c
** `make bench`: speed and memory figures, printed with ratios. Not a test:
** nothing here passes or fails, it measures.
**   - YAML: how fast a billion-laughs file is refused, and a real data file loads
**   - rulesets: resolve + validate time for each shipped ruleset
**   - games: a full seeded game with random bots per ruleset (time per
**     decision), then a hot reload of the finished game (replay of the log),
**     and reload time as a ratio of play time
*/
#include "engine.h"
#include "ruleset.h"
#include "yload.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static long peak_rss_kb(void) {
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_maxrss;
}

static void bench_yaml(void) {
    const char *laughs = "tests/fixtures/yaml/billion_laughs.yaml";
    const int n = 200;
    double t0 = now_ms();
    int refused = 0;
    for (int i = 0; i < n; i++) {
        cerr_list errs;
        cerr_init(&errs, 0);
        value *v = yload_file(laughs, &errs);
        refused += v == NULL;
        value_free(v);
        cerr_free(&errs);
    }
    double per = (now_ms() - t0) / n;
    printf("yaml   billion laughs refused %d/%d, %.3f ms each, peak RSS so far %ld KiB\n", refused,
           n, per, peak_rss_kb());
}

static void bench_ruleset(const char *name) {
    const int n = 20;
    double t0 = now_ms();
    for (int i = 0; i < n; i++) {
        cerr_list errs;
        cerr_init(&errs, 0);
        ruleset *r = ruleset_load(name, NULL, &errs);
        ruleset_free(r);
        cerr_free(&errs);
    }
    printf("load   %-10s resolve+validate %.2f ms\n", name, (now_ms() - t0) / n);
}

static void bench_game(const char *name, int players) {
    const char *bots[16];
    for (int i = 0; i < players; i++) bots[i] = "random";
    engine_config cfg = {0};
    cfg.ruleset = name;
    cfg.players = players;
    cfg.bots = bots;
    cfg.seed = 12345;
    cerr_list errs;
    cerr_init(&errs, 0);
    double t0 = now_ms();
    engine *e = engine_new(&cfg, &errs);
    if (!e) {
        printf("game   %-10s could not start:\n", name);
        cerr_print(stdout, &errs);
        cerr_free(&errs);
        return;
    }
    size_t decisions = 0;
    while (!engine_is_over(e) && decisions < 100000) {
        int seat = engine_next_bot_seat(e);
        char *id = seat ? engine_bot_choice(e, seat) : NULL;
        if (!id) break;
        char *why = NULL;
        engine_status st = engine_answer(e, seat, id, &why);
        free(id);
        if (st != ENGINE_OK) {
            printf("game   %-10s stopped: %s\n", name, why ? why : engine_status_name(st));
            free(why);
            break;
        }
        decisions++;
    }
    double play = now_ms() - t0;
    engine_reload_report rep = {0};
    double t1 = now_ms();
    int rc = engine_reload(e, &rep, &errs);
    double reload = now_ms() - t1;
    printf("game   %-10s %d seats: %zu decisions in %.1f ms (%.3f ms/decision); "
           "reload+replay %.1f ms (%s, %.2fx play time)\n",
           name, players, decisions, play, decisions ? play / decisions : 0.0, reload,
           rc == 0 && !rep.stopped ? "exact" : "STOPPED", play > 0 ? reload / play : 0.0);
    engine_reload_report_free(&rep);
    engine_free(e);
    cerr_free(&errs);
}

int main(void) {
    bench_yaml();
    size_t n;
    char **names = ruleset_list(&n);
    for (size_t i = 0; i < n; i++) bench_ruleset(names[i]);
    for (size_t i = 0; i < n; i++) {
        cerr_list errs;
        cerr_init(&errs, 0);
        ruleset *r = ruleset_load(names[i], NULL, &errs);
        int lo = r ? r->min_players : 0, hi = r ? r->max_players : 0;
        ruleset_free(r);
        cerr_free(&errs);
        for (int p = lo; p <= hi && p > 0; p++) bench_game(names[i], p);
    }
    ruleset_list_free(names, n);
    printf("peak RSS %ld KiB\n", peak_rss_kb());
    return 0;
}
