/*
** tools/bot-speed.c
** The CPU time a bot takes per decision (docs/bots.md, Speed): one seeded
** game with the bot in seat 1 and random bots elsewhere; every seat-1
** decision with more than one enabled option is timed with the process CPU
** clock around bot_choose, its search workers' CPU included (forced moves are played as the engine's random
** bot would and not counted). The game is played as `cairn play` plays it
** (strict, not fast). Prints the count, mean, median, 90th
** percentile and maximum. Built and run by tools/bot-speed.
**   bot-speed RULESET PLAYERS SEED SPEC [MAX_DECISIONS]
*/
#include "bot.h"
#include "engine.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double cpu_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int by_value(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv) {
    if (argc < 5) {
        fprintf(stderr, "usage: bot-speed RULESET PLAYERS SEED SPEC [MAX_DECISIONS]\n");
        return 2;
    }
    int players = atoi(argv[2]);
    long limit = argc > 5 ? atol(argv[5]) : 100000;
    cerr_list errs;
    cerr_init(&errs, 0);
    engine_config c;
    memset(&c, 0, sizeof c);
    c.ruleset = argv[1];
    c.players = players;
    c.seed = strtoull(argv[3], NULL, 10);
    engine *e = engine_new(&c, &errs);
    bot *b = e ? bot_new(argv[4], &errs) : NULL;
    if (!e || !b || bot_check(b, e, &errs) != 0) {
        fprintf(stderr, "bot-speed: %s\n", errs.n ? errs.items[0].message : "out of memory");
        return 1;
    }
    size_t cap = 64, n = 0;
    double *t = malloc(cap * sizeof *t);
    if (!t) return 1;
    while (!engine_is_over(e) && (long)n < limit) {
        int seat = 0;
        for (int s = 1; s <= players && !seat; s++)
            if (engine_is_asked(e, s)) seat = s;
        if (!seat) break;
        if (seat == 1 && engine_enabled_count(e, 1) > 1) {
            double t0 = cpu_now() + bot_workers_cpu_ns() / 1e9;
            char *id = bot_choose(b, e, 1, NULL, &errs);
            double dt = cpu_now() + bot_workers_cpu_ns() / 1e9 - t0;
            if (!id) {
                fprintf(stderr, "bot-speed: %s\n", errs.n ? errs.items[0].message : "out of memory");
                return 1;
            }
            char *why = NULL;
            if (engine_answer(e, 1, id, &why) != ENGINE_OK) {
                fprintf(stderr, "bot-speed: %s: %s\n", id, why ? why : "?");
                return 1;
            }
            free(id);
            if (n == cap) {
                double *m = realloc(t, 2 * cap * sizeof *t);
                if (!m) return 1;
                t = m;
                cap *= 2;
            }
            t[n++] = dt;
        } else if (engine_bot_move(e, seat, NULL) != ENGINE_OK) {
            fprintf(stderr, "bot-speed: seat %d's random move failed\n", seat);
            return 1;
        }
    }
    if (!n) {
        printf("%s %d seats seed %s %s: no decision of seat 1 with a choice\n", argv[1], players, argv[3], argv[4]);
        return 0;
    }
    double sum = 0;
    for (size_t i = 0; i < n; i++) sum += t[i];
    qsort(t, n, sizeof *t, by_value);
    printf("%s %d seats seed %s %s: %zu decisions, CPU per decision mean %.3f s, median %.3f, 90%% %.3f, max %.3f\n",
           argv[1], players, argv[3], argv[4], n, sum / (double)n, t[n / 2], t[(n * 9) / 10], t[n - 1]);
    free(t);
    bot_free(b);
    engine_free(e);
    cerr_free(&errs);
    return 0;
}
