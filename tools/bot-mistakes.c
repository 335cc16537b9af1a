/*
** tools/bot-mistakes.c
** The bots' strength in numbers one can read (issue 27, item 5): how often a
** bot throws away a won or drawn Connect Four position. Two modes:
**   bot-mistakes gen N SEED > tests/fixtures/connect4-suite.txt
**     N positions from random play (seeded, 16 to 30 discs), each solved
**     (tools/c4solve.h): kept when the seat to move has no win in one, has a
**     win or a draw, and has at least one move that throws it away. One line each: the columns played (1-7), the
**     position's value for the seat to move (W or D), and each column's
**     value after playing it (W, D, L; - when full).
**   bot-mistakes run SUITE SPEC...
**     each bot spec on every position (a connect4 game replayed to it, seed
**     = the line's number, the bot asked for the seat to move): a mistake is
**     a move whose value is below the position's. Prints one row per spec:
**     positions, mistakes, the rate with Wilson's 95% interval, CPU seconds.
** `make bot-mistakes` runs it for the table in docs/bots.md; not part of
** make test.
*/
#include "bot.h"
#include "rng.h"
#include "stats.h"

#include "../tools/c4solve.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define SUITE_MIN_MOVES 16
#define SUITE_MAX_MOVES 30

static char value_char(int v) { return v > 0 ? 'W' : v < 0 ? 'L' : 'D'; }

static int gen(long n, uint64_t seed) {
    c4_solver s;
    if (c4_solver_new(&s) != 0) return fprintf(stderr, "bot-mistakes: out of memory\n"), 1;
    rng r;
    rng_seed_stream(&r, seed, 0);
    long kept = 0;
    while (kept < n) {
        int len = SUITE_MIN_MOVES + (int)rng_below(&r, SUITE_MAX_MOVES - SUITE_MIN_MOVES + 1);
        char moves[C4_W * C4_H + 1];
        c4pos p;
        memset(&p, 0, sizeof p);
        int k = 0, ok = 1;
        while (k < len && ok) {
            int legal[C4_W], m = 0;
            for (int c = 0; c < C4_W; c++)
                if (c4_can_play(&p, c)) legal[m++] = c;
            int c = legal[rng_below(&r, (uint64_t)m)];
            if (c4_wins(&p, c)) ok = 0; /* a finished game: drawn again */
            else {
                c4_play(&p, c);
                moves[k++] = (char)('1' + c);
            }
        }
        if (!ok) continue;
        moves[k] = '\0';
        int immediate = 0; /* a win in one: every bot sees it; not kept */
        for (int c = 0; c < C4_W; c++) immediate |= c4_can_play(&p, c) && c4_wins(&p, c);
        if (immediate) continue;
        int v = c4_value(&s, &p);
        if (v < 0) continue;
        char cols[C4_W + 1];
        int throwable = 0;
        for (int c = 0; c < C4_W; c++) {
            if (!c4_can_play(&p, c)) {
                cols[c] = '-';
                continue;
            }
            int mv = c4_move_value(&s, &p, c);
            cols[c] = value_char(mv);
            throwable |= mv < v;
        }
        cols[C4_W] = '\0';
        if (!throwable) continue;
        printf("%s %c %s\n", moves, value_char(v), cols);
        kept++;
    }
    c4_solver_free(&s);
    return 0;
}

typedef struct entry {
    char moves[C4_W * C4_H + 1];
    char value;
    char cols[C4_W + 1];
} entry;

static entry *read_suite(const char *path, size_t *n) {
    FILE *f = fopen(path, "r");
    if (!f) return NULL;
    entry *v = NULL;
    size_t cap = 0;
    *n = 0;
    char line[256];
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#' || line[0] == '\n') continue;
        if (*n == cap) {
            cap = cap ? cap * 2 : 256;
            entry *g = realloc(v, cap * sizeof *v);
            if (!g) break;
            v = g;
        }
        entry *e = &v[*n];
        if (sscanf(line, "%42s %c %7s", e->moves, &e->value, e->cols) == 3) (*n)++;
    }
    fclose(f);
    return v;
}

static int rank_of(char c) { return c == 'W' ? 1 : c == 'D' ? 0 : -1; }

static int run(const char *path, int nspecs, char **specs) {
    size_t n;
    entry *suite = read_suite(path, &n);
    if (!suite || !n) return fprintf(stderr, "bot-mistakes: cannot read %s\n", path), 1;
    size_t won = 0;
    for (size_t i = 0; i < n; i++) won += suite[i].value == 'W';
    printf("%s: %zu positions (%zu won, %zu drawn for the seat to move, each with a move that throws it away)\n",
           path, n, won, n - won);
    printf("| bot | positions | mistakes | mistake rate [95%%] | won thrown | drawn thrown | CPU s |\n");
    printf("|---|---|---|---|---|---|---|\n");
    for (int k = 0; k < nspecs; k++) {
        long mistakes = 0, won_lost = 0, drawn_lost = 0;
        clock_t c0 = clock();
        for (size_t i = 0; i < n; i++) {
            cerr_list errs;
            cerr_init(&errs, 0);
            engine_config c;
            memset(&c, 0, sizeof c);
            c.ruleset = "connect4";
            c.players = 2;
            c.seed = (uint64_t)i + 1;
            engine *e = engine_new(&c, &errs);
            bot *b = bot_new(specs[k], &errs);
            int seat = (int)(strlen(suite[i].moves) % 2) + 1;
            for (const char *m = suite[i].moves; e && *m; m++) {
                char id[16];
                snprintf(id, sizeof id, "drop %c", *m);
                int s = (int)((m - suite[i].moves) % 2) + 1;
                if (engine_answer(e, s, id, NULL) != ENGINE_OK) {
                    fprintf(stderr, "bot-mistakes: %s: %s refused\n", suite[i].moves, id);
                    return 1;
                }
            }
            char *id = e && b ? bot_choose(b, e, seat, NULL, &errs) : NULL;
            int col = id && !strncmp(id, "drop ", 5) ? atoi(id + 5) : 0;
            if (col < 1 || col > C4_W) {
                fprintf(stderr, "bot-mistakes: %s at %s: %s\n", specs[k], suite[i].moves,
                        errs.n ? errs.items[0].message : id ? id : "no choice");
                return 1;
            }
            if (rank_of(suite[i].cols[col - 1]) < rank_of(suite[i].value)) {
                mistakes++;
                if (suite[i].value == 'W') won_lost++;
                else drawn_lost++;
            }
            free(id);
            bot_free(b);
            engine_free(e);
            cerr_free(&errs);
        }
        double cpu = (double)(clock() - c0) / CLOCKS_PER_SEC;
        stats_interval w = stats_wilson((double)mistakes, (double)n);
        printf("| `%s` | %zu | %ld | %.1f%% [%.1f, %.1f] | %ld of %zu | %ld of %zu | %.1f |\n", specs[k], n, mistakes,
               100.0 * (double)mistakes / (double)n, 100.0 * w.lo, 100.0 * w.hi, won_lost, won, drawn_lost,
               n - won, cpu);
        fflush(stdout);
    }
    free(suite);
    return 0;
}

int main(int argc, char **argv) {
    (void)c4_from_moves; /* for tests/unit/test_c4solve.c */
    if (argc >= 4 && !strcmp(argv[1], "gen")) return gen(atol(argv[2]), strtoull(argv[3], NULL, 10));
    if (argc >= 4 && !strcmp(argv[1], "run")) return run(argv[2], argc - 3, argv + 3);
    fprintf(stderr, "usage: bot-mistakes gen N SEED > SUITE\n       bot-mistakes run SUITE SPEC...\n");
    return 2;
}
