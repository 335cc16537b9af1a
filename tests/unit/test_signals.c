/*
** test_signals.c
** Signals, from outside the process as a person or the system sends them:
** SIGTERM at the REPL's prompt and SIGHUP while a bot searches save the game
** to a recovery file named in the message and ask nothing; a replay (reload)
** asked to stop keeps the game as it was; `cairn sim ... | head` exits
** quietly. (SIGINT during a long `cairn sim` is test_sim.c's test_interrupt.)
** Runs build/cairn (next to this test binary) in child processes.
*/
#include "testutil.h"
#include "save.h"
#include "testchild.h"

#include <errno.h>
#include <fcntl.h>
#include <pty.h>
#include <signal.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>


/* The CPU time (user + system, ms) process pid has used, from /proc; -1 if unreadable. */
static long cpu_ms_of(pid_t pid) {
    char path[64], buf[1024];
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    FILE *f = fopen(path, "r");
    if (!f) return -1;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    const char *p = strrchr(buf, ')'); /* the name may hold spaces: fields follow its ')' */
    unsigned long ut = 0, st = 0;
    if (!p || sscanf(p + 1, " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu", &ut, &st) != 2) return -1;
    return (long)((ut + st) * 1000 / (unsigned long)sysconf(_SC_CLK_TCK));
}

/* The recovery file the message names ("... is saved in PATH; ..."), loaded: its position. */
static size_t recovered_position(const child *c, const char *signame) {
    char want[64];
    snprintf(want, sizeof want, "cairn: %s: the game (decision ", signame);
    const char *m = strstr(c->buf, want);
    assert_non_null(m);
    const char *p = strstr(m, " is saved in ");
    assert_non_null(p);
    p += strlen(" is saved in ");
    const char *end = strchr(p, ';');
    assert_non_null(end);
    char path[4096];
    snprintf(path, sizeof path, "%.*s", (int)(end - p), p);
    assert_non_null(strstr(path, tmpdir)); /* the working folder, as documented */
    cerr_list errs;
    cerr_init(&errs, 0);
    save_load_opts o = {.checks = 1, .trust = 1};
    engine *e = save_load(path, &o, NULL, &errs);
    if (!e) cerr_print(stderr, &errs);
    assert_non_null(e);
    size_t pos = engine_position(e);
    engine_free(e);
    cerr_free(&errs);
    unlink(path);
    return pos;
}

/* SIGTERM while the REPL waits at the prompt (input from a pipe): no
** "quit?" question, the game saved, status 128 + 15. */
static void test_sigterm_at_prompt(void **st) {
    (void)st;
    char rs[4200];
    snprintf(rs, sizeof rs, "%s/rulesets/connect4", root);
    char *argv[] = {"cairn", "play", rs, NULL};
    child c;
    spawn(&c, argv);
    say(&c, "drop 4\ndrop 3\n");
    wait_for(&c, "> drop 3");
    pause_ms(300); /* the decision is applied and the REPL reads again */
    assert_int_equal(kill(c.pid, SIGTERM), 0);
    assert_int_equal(wait_end(&c), 128 + SIGTERM);
    assert_null(strstr(c.buf, "quit?"));
    assert_int_equal(recovered_position(&c, "SIGTERM"), 2);
}

/* SIGHUP (the terminal went away) while a bot searches for 30 s: the bot
** answers with its best so far at once, the game with that move is saved. */
static void test_sighup_during_bot_search(void **st) {
    (void)st;
    char rs[4200];
    snprintf(rs, sizeof rs, "%s/rulesets/connect4", root);
    char *argv[] = {"cairn", "play", rs, "--bot", "1=mcts:time=30", NULL};
    child c;
    spawn(&c, argv);
    pause_ms(1500); /* the ruleset loaded, the bot searching */
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    assert_int_equal(kill(c.pid, SIGHUP), 0);
    assert_int_equal(wait_end(&c), 128 + SIGHUP);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    assert_true(t1.tv_sec - t0.tv_sec < 15); /* not the 30 s of the search */
    assert_int_equal(recovered_position(&c, "SIGHUP"), 1);
}

/* Ctrl-C on a terminal while a bot searches for 30 s: the bot answers with
** its best so far, the game goes on (the next seat is asked); SIGTERM then
** saves it. The REPL runs on a pseudo-terminal, as a person's would. */
static void test_sigint_bot_search_on_a_terminal(void **st) {
    (void)st;
    char rs[4200];
    snprintf(rs, sizeof rs, "%s/rulesets/connect4", root);
    char *argv[] = {"cairn", "play", rs, "--bot", "1=mcts:time=30", NULL};
    child c;
    spawn_on_pty(&c, argv);
    wait_for(&c, "thinking"); /* the spinner: the search runs */
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    assert_int_equal(kill(c.pid, SIGINT), 0);
    c.n = 0;
    c.buf[0] = '\0';
    wait_for(&c, "Seat 2"); /* answered: the next seat is asked */
    clock_gettime(CLOCK_MONOTONIC, &t1);
    assert_true(t1.tv_sec - t0.tv_sec < 15);
    pause_ms(300);
    assert_int_equal(kill(c.pid, 0), 0); /* Ctrl-C never ends the game */
    assert_int_equal(kill(c.pid, SIGTERM), 0);
    assert_int_equal(wait_end(&c), 128 + SIGTERM);
    assert_int_equal(recovered_position(&c, "SIGTERM"), 1);
}

/* Ctrl-C on a terminal during a long `reload` (40 decisions of a ruleset
** whose every decision takes a while): the replay stops, the game is as
** it was (40 decisions), the session goes on. */
static void test_sigint_reload_on_a_terminal(void **st) {
    (void)st;
    char rs[4200];
    snprintf(rs, sizeof rs, "%s/tests/fixtures/rulesets/slow", root);
    /* four times the fixture's work a decision: its own 1.5 million loop turns
    ** took about 9 ms of CPU here, so the whole replay (360 ms) ended before
    ** the 400 ms of CPU the test waits for; now it takes about 1.4 s */
    char *argv[] = {"cairn", "play", rs, "--set", "pace.work=6000000", NULL};
    child c;
    spawn_on_pty(&c, argv);
    wait_for(&c, "step");
    for (int i = 0; i < 40; i++) say(&c, "step\n");
    /* the 40 decisions are made when the state shows the 40th (waiting for the
    ** output to stop growing for a second was fooled under ASan at a load of 2:
    ** the reload was typed, and the CPU time counted, with 14 steps to go) */
    wait_for(&c, "\"n\": 40");
    c.n = 0;
    c.buf[0] = '\0';
    long before = cpu_ms_of(c.pid);
    assert_true(before >= 0);
    say(&c, "reload\n");
    wait_for(&c, "reload");
    /* well inside the replay (40 decisions of about 50 ms of CPU each): by the
    ** CPU time cairn spent, not the clock, which a loaded machine stretches
    ** (a fixed 400 ms could end before the replay had begun) */
    for (int i = 0; i < 3000 && cpu_ms_of(c.pid) - before < 400; i++) pause_ms(10);
    assert_true(cpu_ms_of(c.pid) - before >= 400);
    assert_int_equal(kill(c.pid, SIGINT), 0);
    wait_for(&c, "interrupted at decision");
    assert_non_null(strstr(c.buf, "the game is as it was"));
    assert_null(strstr(c.buf, "Replayed 40"));
    pause_ms(200);
    assert_int_equal(kill(c.pid, SIGTERM), 0);
    assert_int_equal(wait_end(&c), 128 + SIGTERM);
    assert_int_equal(recovered_position(&c, "SIGTERM"), 40);
}

/* A replay asked to stop (what Ctrl-C and SIGTERM do to `reload` in the
** REPL) ends with an error saying where, and the game is as it was. */
static int stop_after_three(void *ud) {
    int *calls = ud;
    return ++*calls > 3;
}

static void test_reload_stopped_keeps_game(void **st) {
    (void)st;
    engine_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.ruleset = "rulesets/connect4";
    cfg.seed = 5;
    cerr_list errs;
    cerr_init(&errs, 0);
    engine *e = engine_new(&cfg, &errs);
    assert_non_null(e);
    for (int i = 0; i < 8; i++) assert_int_equal(engine_bot_move(e, engine_is_asked(e, 1) ? 1 : 2, NULL), ENGINE_OK);
    assert_int_equal(engine_undo(e), 0); /* a redo tail too */
    uint64_t hash = engine_state_hash(e);
    size_t n_log = 0;
    engine_log(e, &n_log);
    int calls = 0;
    engine_reload_report rep;
    assert_int_equal(engine_reload_until(e, stop_after_three, &calls, &rep, &errs), -1);
    assert_int_equal(calls, 4); /* asked before decisions 1-4; stopped before the 4th */
    assert_true(errs.n == 1);
    assert_string_equal(errs.items[0].message, "interrupted at decision 4 of 7; the game is as it was");
    size_t n_now = 0;
    engine_log(e, &n_now);
    assert_true(engine_state_hash(e) == hash);
    assert_int_equal(engine_position(e), 7);
    assert_int_equal(n_now, n_log);
    assert_int_equal(engine_redo(e), 0); /* and it goes on */
    engine_reload_report_free(&rep);
    engine_free(e);
    cerr_free(&errs);
}

/* `cairn sim ... | head -n 1`: head leaves after one line; sim says nothing
** about the closed pipe (no error, no crash) and ends with 0 or 141 (SIGPIPE). */
static void test_sim_into_head_is_quiet(void **st) {
    (void)st;
    char *cmd = cairn_strfmt("cd '%s' && { '%s' sim connect4 --games 300 --quiet 2>'%s/sim.err'; "
                             "echo $? >'%s/sim.status'; } | head -n 1 >'%s/head.out'",
                             root, cairn, tmpdir, tmpdir, tmpdir);
    assert_non_null(cmd);
    assert_int_equal(system(cmd), 0);
    free(cmd);
    char path[4200];
    snprintf(path, sizeof path, "%s/sim.err", tmpdir);
    struct stat sb;
    assert_int_equal(stat(path, &sb), 0);
    assert_int_equal(sb.st_size, 0); /* quiet */
    snprintf(path, sizeof path, "%s/sim.status", tmpdir);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    int status = -1;
    assert_int_equal(fscanf(f, "%d", &status), 1);
    fclose(f);
    assert_true(status == 0 || status == 128 + SIGPIPE);
    snprintf(path, sizeof path, "%s/head.out", tmpdir);
    assert_int_equal(stat(path, &sb), 0);
    assert_true(sb.st_size > 0); /* head got its line */
}

int main(int argc, char **argv) {
    (void)argc;
    cairn = cairn_next_to(argv[0]);
    if (!cairn) return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sigterm_at_prompt),
        cmocka_unit_test(test_sighup_during_bot_search),
        cmocka_unit_test(test_sigint_bot_search_on_a_terminal),
        cmocka_unit_test(test_sigint_reload_on_a_terminal),
        cmocka_unit_test(test_reload_stopped_keeps_game),
        cmocka_unit_test(test_sim_into_head_is_quiet),
    };
    int rc = cmocka_run_group_tests(tests, testchild_setup, testchild_teardown);
    free(cairn);
    return rc;
}
