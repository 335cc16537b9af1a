/*
** tools/decision-latency.c
** How long a person waits for a bot in the REPL (docs/bots.md, Every core):
** seeded games with the bot in seat 1 and random bots elsewhere, played as
** `cairn play` plays them; every seat-1 decision with more than one enabled
** option is timed on the wall clock (what the person waits) and on the CPU
** clock (this process and the bot's search workers), and the CPU of the
** busier of this process and its workers (what an idle machine makes a
** person wait with one worker: 2 cores). Prints the count and percentiles
** (p50, p99; the wall's p90 and maximum too), and the load average when it
** ended (the machine may be shared: the wall clock then stretches). Built and run by
** tools/decision-latency.
**   decision-latency RULESET PLAYERS FIRST_SEED GAMES SPEC [MAX_PER_GAME]
*/
#include "bot.h"
#include "engine.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double clock_now(clockid_t id) {
    struct timespec ts;
    clock_gettime(id, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double workers_now(void) { return bot_workers_cpu_ns() / 1e9; }

static int by_value(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The q-th quantile of the sorted v[0..n) (nearest rank). */
static double quantile(const double *v, size_t n, double q) {
    size_t k = (size_t)(q * (double)n + 0.999999);
    if (k < 1) k = 1;
    return v[(k > n ? n : k) - 1];
}

typedef struct times {
    double *wall, *cpu, *path;
    size_t n, cap;
} times;

static int add(times *t, double wall, double cpu, double path) {
    if (t->n == t->cap) {
        size_t cap = t->cap ? 2 * t->cap : 256;
        double *w = realloc(t->wall, cap * sizeof *w);
        if (!w) return -1;
        t->wall = w;
        double *c = realloc(t->cpu, cap * sizeof *c);
        if (!c) return -1;
        t->cpu = c;
        double *p = realloc(t->path, cap * sizeof *p);
        if (!p) return -1;
        t->path = p;
        t->cap = cap;
    }
    t->wall[t->n] = wall, t->cpu[t->n] = cpu, t->path[t->n] = path, t->n++;
    return 0;
}

/* One game from seed; 0, or -1 after printing why. */
static int play(const char *ruleset, int players, unsigned long long seed, bot *b, long limit, times *t) {
    cerr_list errs;
    cerr_init(&errs, 0);
    engine_config c;
    memset(&c, 0, sizeof c);
    c.ruleset = ruleset;
    c.players = players;
    c.seed = seed;
    engine *e = engine_new(&c, &errs);
    if (!e || bot_check(b, e, &errs) != 0) {
        fprintf(stderr, "decision-latency: %s\n", errs.n ? errs.items[0].message : "out of memory");
        return -1;
    }
    long mine = 0;
    while (!engine_is_over(e) && mine < limit) {
        int seat = 0;
        for (int s = 1; s <= players && !seat; s++)
            if (engine_is_asked(e, s)) seat = s;
        if (!seat) break;
        if (seat == 1 && engine_enabled_count(e, 1) > 1) {
            double w0 = clock_now(CLOCK_MONOTONIC), c0 = clock_now(CLOCK_PROCESS_CPUTIME_ID), k0 = workers_now();
            char *id = bot_choose(b, e, 1, NULL, &errs);
            double wall = clock_now(CLOCK_MONOTONIC) - w0, own = clock_now(CLOCK_PROCESS_CPUTIME_ID) - c0,
                   workers = workers_now() - k0;
            char *why = NULL;
            if (!id || engine_answer(e, 1, id, &why) != ENGINE_OK) {
                fprintf(stderr, "decision-latency: seed %llu: %s\n", seed,
                        why ? why : errs.n ? errs.items[0].message : "out of memory");
                return -1;
            }
            free(id);
            /* on an idle machine a person waits for the busier process: with
            ** one worker (2 cores) the larger of the two CPU times */
            if (add(t, wall, own + workers, own > workers ? own : workers) != 0) return -1;
            mine++;
        } else if (engine_bot_move(e, seat, NULL) != ENGINE_OK) {
            fprintf(stderr, "decision-latency: seat %d's random move failed\n", seat);
            return -1;
        }
    }
    engine_free(e);
    cerr_free(&errs);
    return 0;
}

int main(int argc, char **argv) {
    if (argc < 6) {
        fprintf(stderr, "usage: decision-latency RULESET PLAYERS FIRST_SEED GAMES SPEC [MAX_PER_GAME]\n");
        return 2;
    }
    int players = atoi(argv[2]);
    unsigned long long first = strtoull(argv[3], NULL, 10);
    long games = atol(argv[4]), limit = argc > 6 ? atol(argv[6]) : 100000;
    cerr_list errs;
    cerr_init(&errs, 0);
    bot *b = bot_new(argv[5], &errs);
    if (!b) {
        fprintf(stderr, "decision-latency: %s\n", errs.n ? errs.items[0].message : "out of memory");
        return 1;
    }
    times t = {0};
    for (long g = 0; g < games; g++)
        if (play(argv[1], players, first + (unsigned long long)g, b, limit, &t) != 0) return 1;
    if (!t.n) {
        printf("%s %d seats %s: no decision of seat 1 with a choice\n", argv[1], players, argv[5]);
        return 0;
    }
    qsort(t.wall, t.n, sizeof *t.wall, by_value);
    qsort(t.cpu, t.n, sizeof *t.cpu, by_value);
    qsort(t.path, t.n, sizeof *t.path, by_value);
    double load = 0;
    FILE *f = fopen("/proc/loadavg", "r");
    if (f) {
        if (fscanf(f, "%lf", &load) != 1) load = 0;
        fclose(f);
    }
    printf("%-10s %d seats %-22s %4zu decisions (%ld games)  wall p50 %.3f p90 %.3f p99 %.3f max %.3f s  "
           "cpu p50 %.3f p99 %.3f s  busier process p50 %.3f p99 %.3f s  load %.1f\n",
           argv[1], players, argv[5], t.n, games, quantile(t.wall, t.n, 0.5), quantile(t.wall, t.n, 0.9),
           quantile(t.wall, t.n, 0.99), t.wall[t.n - 1], quantile(t.cpu, t.n, 0.5), quantile(t.cpu, t.n, 0.99),
           quantile(t.path, t.n, 0.5), quantile(t.path, t.n, 0.99), load);
    free(t.wall);
    free(t.cpu);
    free(t.path);
    bot_free(b);
    cerr_free(&errs);
    return 0;
}
