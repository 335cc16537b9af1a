/*
** test_bot_cores.c
** A search bot on several cores (bot_mcts_root.c, bot_parallel.c): one
** decision with an iteration budget gives the same choice and the same
** merged statistics on 1, 2 and 4 processes (connect4, and goofspiel's
** sampled states); the workers run and their CPU is counted; an error in a
** search only a worker ran comes back as the single-core error; a worker
** killed is reported with its signal; Ctrl-C stops every worker with what
** it has; `cairn sim` plays the same games with --jobs 1 and --jobs 2.
*/
#define _GNU_SOURCE /* open_memstream, gettid */
#include "testutil.h"
#include "bot.h"
#include "engine.h"
#include "sim.h"
#include "testbot.h"

#include <signal.h>
#include <stdio.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

static engine *game(const char *rs, uint64_t seed, int players) {
    cerr_list errs;
    cerr_init(&errs, 0);
    engine_config c;
    memset(&c, 0, sizeof c);
    c.ruleset = rs;
    c.seed = seed;
    c.players = players;
    engine *e = engine_new(&c, &errs);
    if (!e && errs.n) fprintf(stderr, "%s\n", errs.items[0].message);
    assert_non_null(e);
    cerr_free(&errs);
    return e;
}

/* The first seat asked. */
static int asked(engine *e, int players) {
    for (int s = 1; s <= players; s++)
        if (engine_is_asked(e, s)) return s;
    fail_msg("no seat is asked");
    return 0;
}

/* spec's choice for seat (must succeed), its explanation into *why. */
static char *choose(const char *spec, engine *e, int seat, const bot_hooks *h, char **why) {
    bot *b;
    char *id = test_bot_decide(spec, e, seat, h, &b);
    *why = bot_why(b);
    bot_free(b);
    return id;
}

/* The first error of spec's decision, which must fail (malloc'd). */
static char *choose_fails(const char *spec, engine *e, int seat, const bot_hooks *h) {
    cerr_list errs;
    cerr_init(&errs, 0);
    bot *b = bot_new(spec, &errs);
    assert_non_null(b);
    char *id = bot_choose(b, e, seat, h, &errs);
    if (id) fprintf(stderr, "%s chose %s\n", spec, id);
    assert_null(id);
    assert_true(errs.n > 0);
    char *m = strdup(errs.items[0].message);
    bot_free(b);
    cerr_free(&errs);
    return m;
}

/* The decision of `spec` + ",cores=N" for N = 1, 2, 4: one choice, and the
** same statistics (every line of the explanation after the first, which
** holds the time and the cores); the first line names the cores, and
** the workers' CPU grows only when there are workers. */
static void same_on_1_2_4(const char *rs, int players, uint64_t seed, const char *spec, const char *iterations) {
    engine *e = game(rs, seed, players);
    int seat = asked(e, players);
    char *first_id = NULL, *first_stats = NULL;
    for (int cores = 1; cores <= 4; cores *= 2) {
        char s[128], *why, says[64];
        snprintf(s, sizeof s, "%s,cores=%d", spec, cores);
        int64_t cpu = bot_workers_cpu_ns();
        char *id = choose(s, e, seat, NULL, &why);
        if (cores == 1) assert_true(bot_workers_cpu_ns() == cpu);
        else assert_true(bot_workers_cpu_ns() > cpu); /* the workers ran, and cost something */
        /* 4 searches (CAIRN_BOT_SEARCHES), on min(cores, 4) processes */
        snprintf(says, sizeof says, "; 4 searches merged, on %d core%s\n", cores, cores == 1 ? "" : "s");
        if (!strstr(why, says) || !strstr(why, iterations)) fprintf(stderr, "%s\n", why);
        assert_non_null(strstr(why, says));
        assert_non_null(strstr(why, iterations));
        const char *stats = strchr(why, '\n');
        assert_non_null(stats);
        if (!first_id) {
            first_id = id, first_stats = strdup(stats);
            assert_non_null(strstr(stats, "<- chosen"));
        } else {
            assert_string_equal(id, first_id);
            assert_string_equal(stats, first_stats);
            free(id);
        }
        free(why);
    }
    free(first_id);
    free(first_stats);
    engine_free(e);
}

static void test_same_on_any_core_count(void **st) {
    (void)st;
    /* 300 iterations split 75, 75, 75, 75 */
    same_on_1_2_4("connect4", 2, 3, "mcts:iterations=300", ": 300 iterations,");
    /* a game with secrets: every iteration on a sampled state; 90 split 23, 23, 22, 22 */
    same_on_1_2_4("goofspiel", 2, 5, "mcts:iterations=90,depth=4", ": 90 iterations,");
    /* kept samples (pool=5): each search samples 5 states and reuses them; 4 x 5 = 20 */
    same_on_1_2_4("goofspiel", 2, 5, "mcts:iterations=90,depth=4,pool=5", "(on 20 states sampled");
}

/* fewer iterations than searches: as many searches as iterations */
static void test_fewer_iterations_than_searches(void **st) {
    (void)st;
    engine *e = game("connect4", 1, 2);
    char *why, *id = choose("mcts:iterations=3,cores=2", e, 1, NULL, &why);
    if (!strstr(why, ": 3 iterations,") || !strstr(why, "; 3 searches merged, on 2 cores")) fprintf(stderr, "%s\n", why);
    assert_non_null(strstr(why, ": 3 iterations,"));
    assert_non_null(strstr(why, "; 3 searches merged, on 2 cores"));
    free(why);
    free(id);
    engine_free(e);
}

/* tests/fixtures/bots/flaky: a call fails when the fork's coin comes up 1.
** At seed 5 the first search's iterations pass (searches=1, 2 iterations:
** the decision succeeds) and the second search's one iteration fails; on 2
** cores the second search is the worker's, and its error is the one the
** same decision gives on one core, word for word. */
static void test_worker_error_reported(void **st) {
    (void)st;
    engine *e = game(FIXTURE("bots/flaky"), 5, 2);
    char *why, *id = choose("mcts:iterations=2,searches=1", e, 1, NULL, &why);
    free(why);
    free(id);
    char *one = choose_fails("mcts:iterations=2,searches=2,cores=1", e, 1, NULL);
    char *two = choose_fails("mcts:iterations=2,searches=2,cores=2", e, 1, NULL);
    if (!strstr(two, "flaky/rules.lua:15: flaky: the coin came up 1 for")) fprintf(stderr, "%s\n", two);
    assert_non_null(strstr(two, "flaky/rules.lua:15: flaky: the coin came up 1 for"));
    assert_string_equal(one, two);
    free(one);
    free(two);
    engine_free(e);
}

/* The spinner's tick, used to kill this process's children (the workers)
** once: a crash in a worker. */
static int killed;
static void kill_workers(void *ud, long iterations, double seconds) {
    (void)ud, (void)iterations, (void)seconds;
    if (killed) return;
    char path[64];
    snprintf(path, sizeof path, "/proc/self/task/%d/children", (int)getpid());
    FILE *f = fopen(path, "r");
    if (!f) return;
    int pid;
    while (fscanf(f, "%d", &pid) == 1) kill(pid, SIGKILL), killed++;
    fclose(f);
}

static void test_worker_killed_reported(void **st) {
    (void)st;
    char path[64];
    snprintf(path, sizeof path, "/proc/self/task/%d/children", (int)getpid());
    if (access(path, R_OK) != 0) skip(); /* a kernel without CONFIG_PROC_CHILDREN */
    engine *e = game("connect4", 2, 2);
    killed = 0;
    bot_hooks h = {.tick = kill_workers, .interrupted = NULL, .ud = NULL, .notice = NULL};
    /* a time budget: this process searches 0.6 s, ticking every 0.1 s */
    char *m = choose_fails("mcts:time=0.6,cores=2", e, 1, &h);
    assert_int_equal(killed, 1);
    if (!strstr(m, "search worker 1 of 2")) fprintf(stderr, "%s\n", m);
    assert_non_null(strstr(m, "search worker 1 of 2 (a process of this bot's search) was ended by signal 9"));
    free(m);
    engine_free(e);
}

/* Ctrl-C (the hook says so at once): a 30-second search on two cores
** answers with what it has, the worker stopped too. */
static int always(void *ud) {
    (void)ud;
    return 1;
}

static void test_interrupt_stops_workers(void **st) {
    (void)st;
    engine *e = game("connect4", 4, 2);
    bot_hooks h = {.tick = NULL, .interrupted = always, .ud = NULL, .notice = NULL};
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    char *why, *id = choose("mcts:time=30,cores=2", e, 1, &h, &why);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    assert_non_null(strstr(why, "stopped early (Ctrl-C); 2 searches merged, on 2 cores"));
    /* far below the 30 s budget: the worker did not run it out */
    assert_true(t1.tv_sec - t0.tv_sec < 20);
    free(why);
    free(id);
    engine_free(e);
}

/* `cairn sim --jobs 2` splits the games and runs each search on one core,
** `--jobs 1` runs the searches on every core: the same games, one report. */
static char *sim_report(const char *jobs) {
    char *argv[] = {"sim", "connect4", "--games", "4", "--jobs", (char *)jobs, "--quiet", "--bots",
                    "mcts:iterations=40,depth=4,mcts:iterations=20,depth=4", NULL};
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    assert_int_equal(sim_run(9, argv, out, stderr), 0);
    fclose(out);
    char *time = strstr(buf, "time: "); /* the time, jobs and CPU lines differ */
    assert_non_null(time);
    *time = '\0';
    return buf;
}

static void test_sim_jobs_same_games(void **st) {
    (void)st;
    char *one = sim_report("1"), *two = sim_report("2");
    assert_non_null(strstr(one, "win share"));
    assert_string_equal(one, two);
    free(one);
    free(two);
    bot_set_default_cores(0);
}

static void test_spec_bounds(void **st) {
    (void)st;
    const char *bad[] = {"mcts:cores=0", "mcts:searches=0", "mcts:searches=65", "mcts:cores=1.5"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        cerr_list errs;
        cerr_init(&errs, 0);
        assert_null(bot_new(bad[i], &errs));
        assert_true(errs.n > 0);
        assert_non_null(strstr(errs.items[0].message, "takes a whole number from 1 to"));
        cerr_free(&errs);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_same_on_any_core_count),
        cmocka_unit_test(test_fewer_iterations_than_searches),
        cmocka_unit_test(test_worker_error_reported),
        cmocka_unit_test(test_worker_killed_reported),
        cmocka_unit_test(test_interrupt_stops_workers),
        cmocka_unit_test(test_sim_jobs_same_games),
        cmocka_unit_test(test_spec_bounds),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
