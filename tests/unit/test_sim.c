/*
** test_sim.c
** `cairn sim`: the report is the same on every run, its numbers fit the
** rules (connect4's game lengths, win shares adding up to 100.0%), bad
** flags and options are refused with a message, and a failing game is
** reported with its seed and decision; so is one that never ends.
*/
#include "testutil.h"
#include "error.h"
#include "sim.h"

#include <stdio.h>
#include <unistd.h>

/* What one sim run printed, and its exit status. */
typedef struct run {
    int rc;
    char out[8192], err[8192];
} run;

static void slurp(FILE *f, char *buf, size_t size) {
    fflush(f);
    rewind(f);
    size_t n = fread(buf, 1, size - 1, f);
    buf[n] = '\0';
    fclose(f);
}

/* Runs `cairn sim` with the NULL-terminated arguments after "sim". */
static void sim(run *r, const char *const *args) {
    char *argv[32] = {(char *)"sim"};
    int argc = 1;
    while (args[argc - 1]) {
        argv[argc] = (char *)args[argc - 1];
        argc++;
    }
    FILE *out = tmpfile(), *err = tmpfile();
    assert_non_null(out);
    assert_non_null(err);
    r->rc = sim_run(argc, argv, out, err);
    slurp(out, r->out, sizeof r->out);
    slurp(err, r->err, sizeof r->err);
}

/* The numbers after "name" on the report's line starting with name, as
** tenths ("57.5%" -> 575); returns how many were read. */
static int percent_row(const char *report, const char *name, long *tenths, int max) {
    const char *p = strstr(report, name);
    assert_non_null(p);
    p += strlen(name);
    int n = 0;
    long whole, tenth;
    int used;
    while (n < max && sscanf(p, " %ld.%ld%%%n", &whole, &tenth, &used) == 2) {
        tenths[n++] = whole * 10 + tenth;
        p += used;
    }
    return n;
}

/* Twenty games of Connect Four: the same report twice. Each game takes at
** least 7 decisions (seat 1's fourth disc is the 7th drop, the first that
** can make four in a row) and at most 42 (the 7x6 grid full). */
static void test_connect4_report(void **st) {
    (void)st;
    static const char *const args[] = {"rulesets/connect4", "--games", "20", "--seed", "7", NULL};
    run a, b;
    sim(&a, args);
    sim(&b, args);
    if (a.rc != 0) fprintf(stderr, "%s", a.err);
    assert_int_equal(a.rc, 0);
    assert_int_equal(b.rc, 0);
    assert_string_equal(a.out, b.out);
    assert_string_equal(a.err, "");
    assert_non_null(strstr(a.out, "connect4 1.0: 20 games, 2 players, seeds 7-26, checks off\n"));

    const char *d = strstr(a.out, "decisions per game: min ");
    assert_non_null(d);
    unsigned lo, hi;
    char mean[16];
    assert_int_equal(sscanf(d, "decisions per game: min %u, mean %15[0-9.], max %u", &lo, mean, &hi), 3);
    assert_true(lo >= 7);
    assert_true(hi <= 42);
    assert_true(lo <= hi);

    long share[2];
    assert_int_equal(percent_row(a.out, "\nwin share", share, 2), 2);
    assert_int_equal(share[0] + share[1], 1000);
    /* connect4's breakdown has one label; its mean is the seat's mean score */
    assert_non_null(strstr(a.out, "breakdown, mean points per game:\n"));
}

/* Checks on, three seats, a preset: goofspiel's shares still add up,
** three-way ties included (largest-remainder rounding). */
static void test_goofspiel_three_seats(void **st) {
    (void)st;
    static const char *const args[] = {"goofspiel", "--players", "3", "--preset", "quick",
                                       "--games", "12", "--checks", NULL};
    run r;
    sim(&r, args);
    if (r.rc != 0) fprintf(stderr, "%s", r.err);
    assert_int_equal(r.rc, 0);
    assert_non_null(strstr(r.out, "goofspiel 1.0: 12 games, 3 players, seeds 1-12, checks on\n"));
    assert_non_null(strstr(r.out, "options: cards=5 tricks=true (preset quick)\n"));
    /* 5 rounds of 3 bids each */
    assert_non_null(strstr(r.out, "decisions per game: min 15, mean 15.00, max 15\n"));
    long share[3];
    assert_int_equal(percent_row(r.out, "\nwin share", share, 3), 3);
    assert_int_equal(share[0] + share[1] + share[2], 1000);
}

/* Flags sim does not know are usage errors (exit 2); an option the ruleset
** does not declare is the ruleset's error (exit 1), as `cairn check` says. */
static void test_refusals(void **st) {
    (void)st;
    run r;
    static const char *const unknown_option[] = {"connect4", "--option", "nope", NULL};
    sim(&r, unknown_option);
    assert_int_equal(r.rc, 1);
    assert_string_equal(r.out, "");
    assert_non_null(strstr(r.err, "no option \"nope\" in connect4"));

    static const char *const bad_players[] = {"connect4", "--players", "3", NULL};
    sim(&r, bad_players);
    assert_int_equal(r.rc, 1);
    assert_non_null(strstr(r.err, "not 3"));

    static const char *const unknown_flag[] = {"connect4", "--fast", NULL};
    sim(&r, unknown_flag);
    assert_int_equal(r.rc, 2);
    assert_non_null(strstr(r.err, "cairn sim: unknown flag \"--fast\"\nusage: cairn sim RULESET"));

    static const char *const bad_games[] = {"connect4", "--games", "0", NULL};
    sim(&r, bad_games);
    assert_int_equal(r.rc, 2);
    assert_non_null(strstr(r.err, "--games takes a number from 1 to 1000000, got \"0\""));

    static const char *const bad_seed[] = {"connect4", "--seed", "-1", NULL};
    sim(&r, bad_seed);
    assert_int_equal(r.rc, 2);
    assert_non_null(strstr(r.err, "--seed takes"));

    static const char *const none[] = {NULL};
    sim(&r, none);
    assert_int_equal(r.rc, 2);
    assert_non_null(strstr(r.err, "which ruleset?"));
}

static void write_file(const char *dir, const char *name, const char *text) {
    char *path = cairn_strfmt("%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    free(path);
}

/* A ruleset whose fourth decision raises an error: the run stops at the
** first game, naming its seed and the decision, and exits 1. */
static void test_failing_game(void **st) {
    (void)st;
    char dir[] = "/tmp/cairn-sim-XXXXXX";
    assert_non_null(mkdtemp(dir));
    write_file(dir, "ruleset.yaml",
               "id: cursed\nname: Cursed\nversion: \"1\"\nplayers: {min: 1, max: 1}\nrules: rules.lua\n");
    write_file(dir, "rules.lua",
               "local rules = {}\n"
               "function rules.setup(g) g.state.n = 0 end\n"
               "function rules.decisions(g)\n"
               "  if g.state.n >= 5 then return {} end\n"
               "  return { { seat = 1, options = { { id = 'step' } } } }\n"
               "end\n"
               "function rules.apply(g, seat, id)\n"
               "  if g.state.n == 3 then error('the fourth step is cursed') end\n"
               "  g.state.n = g.state.n + 1\n"
               "end\n"
               "function rules.score(g) return { { total = g.state.n, breakdown = {} } } end\n"
               "return rules\n");
    const char *args[] = {dir, "--seed", "5", NULL};
    run r;
    sim(&r, args);
    assert_int_equal(r.rc, 1);
    assert_string_equal(r.out, "");
    assert_non_null(strstr(r.err, "game 1 of 100 failed"));
    assert_non_null(strstr(r.err, "seed 5, decision 4 (seat 1, \"step\")"));
    assert_non_null(strstr(r.err, "the fourth step is cursed"));
    char *cmd = cairn_strfmt("rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
    free(cmd);
}

/* A game that never ends stops the run once it passes the decision limit. */
static void test_stuck_game(void **st) {
    (void)st;
    static const char *const args[] = {"tests/fixtures/engine/broken", "--games", "3", NULL};
    run r;
    sim(&r, args);
    assert_int_equal(r.rc, 1);
    assert_string_equal(r.out, "");
    assert_non_null(strstr(r.err, "game 1 of 3 failed\nseed 1: not over after 10000 decisions"));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_connect4_report),
        cmocka_unit_test(test_goofspiel_three_seats),
        cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_failing_game),
        cmocka_unit_test(test_stuck_game),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
