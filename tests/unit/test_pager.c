/*
** test_pager.c
** The console's screens on a terminal (issue 25, item 2), driven on a
** pseudo-terminal of 80x24 as a person's would be: a turn taller than the
** terminal shows its news first and stops at a `--More--` line, Space shows
** the board and the question together; a turn that fits has no `--More--`;
** a letter typed at `--More--` begins the answer; a pipe gets the same
** screen whole, with no `--More--`; after the
** terminal is resized to 120x40, `look` draws the turn for the new size.
** Runs build/cairn (next to this test binary).
*/
#include "testutil.h"

#include "error.h"

#include <fcntl.h>
#include <pty.h>
#include <signal.h>
#include <stdio.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static char *cairn;         /* the binary under test */
static char root[4096];     /* the repo root (the working folder of make test) */
static char tmpdir[] = "/tmp/cairn-pager-XXXXXX";

typedef struct child {
    pid_t pid;
    int tty;  /* the pseudo-terminal's master: we type and read here */
    char buf[262144];
    size_t n;
} child;

static void pause_ms(long ms) { nanosleep(&(struct timespec){ms / 1000, (ms % 1000) * 1000000L}, NULL); }

static void drain(child *c) {
    for (;;) {
        ssize_t k = read(c->tty, c->buf + c->n, sizeof c->buf - 1 - c->n);
        if (k <= 0) return;
        c->n += (size_t)k;
        c->buf[c->n] = '\0';
    }
}

/* Waits (up to 60 s: a loaded machine is slow) until the output after `from` holds text. */
static void wait_for(child *c, size_t from, const char *text) {
    for (int i = 0; i < 6000; i++) {
        drain(c);
        if (strstr(c->buf + from, text)) return;
        pause_ms(10);
    }
    fprintf(stderr, "never saw \"%s\" in:\n%s\n", text, c->buf + from);
    fail();
}

static void type(child *c, const char *s) {
    assert_int_equal(write(c->tty, s, strlen(s)), (ssize_t)strlen(s));
}

/* cairn with argv on a pseudo-terminal of cols x rows. */
static void spawn_on_pty(child *c, char *const argv[], int cols, int rows) {
    struct winsize ws = {.ws_row = (unsigned short)rows, .ws_col = (unsigned short)cols};
    int master = -1, slave = -1;
    assert_int_equal(openpty(&master, &slave, NULL, NULL, &ws), 0);
    c->n = 0;
    c->buf[0] = '\0';
    c->pid = fork();
    assert_true(c->pid >= 0);
    if (c->pid == 0) {
        setsid();
        dup2(slave, 0);
        dup2(slave, 1);
        dup2(slave, 2);
        close(master);
        if (chdir(tmpdir) != 0) _exit(98);
        setenv("HOME", tmpdir, 1);
        setenv("XDG_STATE_HOME", tmpdir, 1);
        setenv("TERM", "dumb", 1);
        setenv("NO_COLOR", "1", 1);
        unsetenv("LINES");
        unsetenv("COLUMNS");
        execv(cairn, argv);
        _exit(99);
    }
    close(slave);
    c->tty = master;
    fcntl(c->tty, F_SETFL, O_NONBLOCK);
}

static void stop(child *c) {
    kill(c->pid, SIGKILL);
    waitpid(c->pid, NULL, 0);
    close(c->tty);
}

/* The rows printed in buf[from..] before `until` (not counting it). */
static int rows_before(const char *buf, size_t from, const char *until) {
    const char *end = strstr(buf + from, until);
    int rows = 0;
    for (const char *p = buf + from; p && end && p < end; p++) rows += *p == '\n';
    return rows;
}

/* Kathmandu's die choice for 4 seats, with its setup news, fits 24 rows now
** (its board 13 rows, the news 2, the question 7 with the options in two
** columns, the prompt): no --More--, every option on the screen. A turn whose
** news is too long to share the screen (seed 7: Platz 4's whole first turn
** before Platz 1's die choice) shows the news first and stops at --More--
** before the board; Space: the board and the question, together on one
** screen. Then, resized to 120x40, `look` draws the turn for the new size. */
static void test_more_on_a_terminal(void **state) {
    (void)state;
    char rs[4200];
    snprintf(rs, sizeof rs, "%s/rulesets/kathmandu", root);
    char *fits[] = {"cairn", "play", rs, "--preset", "full", "--lang", "de", "--seed", "3", "--bot", "2=greedy",
                    "--bot", "3=greedy", "--bot", "4=greedy", NULL};
    child c;
    spawn_on_pty(&c, fits, 80, 24);
    wait_for(&c, 0, "cairn:Platz 1>");
    size_t from = c.n;
    type(&c, "start 2\r");
    wait_for(&c, from, "schwarz ablegen, Rest neu werfen"); /* option 12, the last */
    wait_for(&c, from, "cairn:Platz 1>");
    assert_null(strstr(c.buf + from, "--Weiter--"));
    assert_in_range(rows_before(c.buf, from, "cairn:Platz 1>"), 20, 24); /* the echoed line, then the screen */
    stop(&c);

    char *news[] = {"cairn", "play", rs, "--preset", "full", "--lang", "de", "--seed", "7", "--bot", "2=greedy",
                    "--bot", "3=greedy", "--bot", "4=greedy", NULL};
    spawn_on_pty(&c, news, 80, 24);
    wait_for(&c, 0, "cairn:Platz 1>");
    from = c.n;
    type(&c, "3\r");
    wait_for(&c, from, "--Weiter--");
    /* the news so far; the board and the question not yet */
    assert_non_null(strstr(c.buf + from, "Platz 4 stellt das Yak auf Startfeld 2."));
    assert_null(strstr(c.buf + from, "KATHMANDU"));
    assert_null(strstr(c.buf + from, "cairn:Platz 1>"));
    size_t more = c.n;
    type(&c, " ");
    wait_for(&c, more, "cairn:Platz 1>");
    assert_non_null(strstr(c.buf + more, "KATHMANDU"));
    assert_non_null(strstr(c.buf + more, "schwarz ablegen, Rest neu werfen"));
    assert_in_range(rows_before(c.buf, more, "cairn:Platz 1>"), 12, 23); /* board and question: one screen */
    /* the pager's own line is erased on the terminal, not shown as ^M or ^[ */
    assert_null(strstr(c.buf + from, "^M"));
    assert_null(strstr(c.buf + from, "^["));
    /* resized to 120x40: `look` draws the full header line (one row at 120) */
    struct winsize ws = {.ws_row = 40, .ws_col = 120};
    assert_int_equal(ioctl(c.tty, TIOCSWINSZ, &ws), 0);
    from = c.n;
    type(&c, "look\r");
    wait_for(&c, from, "cairn:Platz 1>");
    assert_non_null(strstr(c.buf + from, "Sturmwand an Streifen 0  Wetter:")); /* 80 columns broke it there */
    assert_null(strstr(c.buf + from, "--Weiter--"));                            /* 40 rows: it fits */
    stop(&c);
}

/* A key that is not the pager's, typed at --More--, begins the answer: the
** rest of the screen is shown whole (nothing dropped) and the letters typed
** make the answer, none eaten by the pager. Himalaya with the event tokens:
** Bob resolves first (seed 11, 3 seats) and is asked which tokens to play;
** "yeti" lists the 27 yeti footprints (a headline and 27 lines: taller than
** 24 rows), so the list stops at --More--. He types "25" there: the list is
** shown to its last option and 25 is his answer (yeti p04, the stone path
** Lukla-Thame), so the game goes on. */
static void test_typing_at_more_begins_the_answer(void **state) {
    (void)state;
    char rs[4200];
    snprintf(rs, sizeof rs, "%s/rulesets/himalaya", root);
    char *argv[] = {"cairn", "play", rs, "--players", "3", "--option", "events", "--name", "1=Ann", "--name",
                    "2=Bob", "--bot", "3=random", "--seed", "11", NULL};
    child c;
    spawn_on_pty(&c, argv, 80, 24);
    wait_for(&c, 0, "cairn:Ann>");
    size_t from = c.n;
    type(&c, "6\r");
    wait_for(&c, from, "then press Enter");
    type(&c, "\r");
    wait_for(&c, from, "cairn:Bob>");
    from = c.n;
    type(&c, "12\r");
    wait_for(&c, from, "Bob, play event tokens");
    wait_for(&c, from, "cairn:Bob>");
    from = c.n;
    type(&c, "yeti\r");
    wait_for(&c, from, "--More--");
    assert_null(strstr(c.buf + from, "yeti p27")); /* the last one: not yet shown */
    size_t more = c.n;
    type(&c, "25\r");
    wait_for(&c, more, "yeti p27"); /* the rest, whole */
    wait_for(&c, more, "Bob puts yeti footprints on the stone path Lukla-Thame.");
    assert_null(strstr(c.buf + more, "no option")); /* "25" came through whole: not "5" */
    stop(&c);
}

/* In a pipe there is no pager: the same turn is printed whole. */
static void test_no_pager_in_a_pipe(void **state) {
    (void)state;
    char *cmd = cairn_strfmt("printf 'start 2\\n' | LINES=24 COLUMNS=80 %s play %s/rulesets/kathmandu --preset full "
                             "--lang de --seed 3 --bot 2=greedy --bot 3=greedy --bot 4=greedy 2>&1",
                             cairn, root);
    assert_non_null(cmd);
    FILE *p = popen(cmd, "r");
    free(cmd);
    assert_non_null(p);
    static char out[262144];
    size_t n = fread(out, 1, sizeof out - 1, p);
    out[n] = '\0';
    assert_int_equal(pclose(p), 0);
    assert_null(strstr(out, "--Weiter--"));
    assert_null(strstr(out, "--More--"));
    assert_non_null(strstr(out, "schwarz ablegen, Rest neu werfen"));
}

int main(int argc, char **argv) {
    (void)argc;
    if (!getcwd(root, sizeof root)) return 1;
    const char *slash = strrchr(argv[0], '/');
    if (argv[0][0] == '/')
        cairn = cairn_strfmt("%.*s/cairn", (int)(slash - argv[0]), argv[0]);
    else if (slash)
        cairn = cairn_strfmt("%s/%.*s/cairn", root, (int)(slash - argv[0]), argv[0]);
    else
        cairn = cairn_strfmt("%s/cairn", root);
    if (!cairn || !mkdtemp(tmpdir)) return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_more_on_a_terminal),
        cmocka_unit_test(test_typing_at_more_begins_the_answer),
        cmocka_unit_test(test_no_pager_in_a_pipe),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    char *rm = cairn_strfmt("rm -rf %s", tmpdir);
    if (rm && system(rm) != 0) rc = rc ? rc : 1;
    free(rm);
    free(cairn);
    return rc;
}
