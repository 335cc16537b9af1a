/*
** testchild.h
** Runs the cairn binary under test in a child process, as a person or a
** shell would: on pipes or on a pseudo-terminal, with helpers to feed it
** lines, wait for its output and for its end. Static functions: a test
** file includes it once. The including file defines `cairn` (the binary)
** and `tmpdir` (the child's working folder, also its HOME and
** XDG_STATE_HOME).
*/
#ifndef CAIRN_TESTCHILD_H
#define CAIRN_TESTCHILD_H

#include <fcntl.h>
#include <pty.h>
#include <signal.h>
#include <stdio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "error.h" /* cairn_strfmt */

static char *cairn;         /* the binary under test */
static char tmpdir[] = "/tmp/cairn-child-XXXXXX";
static char root[4096];      /* the repo root (the working folder of make test) */

typedef struct child {
    pid_t pid;
    int in;   /* its stdin (we write) */
    int out;  /* its stdout and stderr (we read) */
    char buf[65536];
    size_t n;
} child;

/* Starts cairn with argv (argv[0] ignored) in tmpdir, stdin and stdout on pipes. */
static void spawn(child *c, char *const argv[]) {
    int in[2], out[2];
    assert_int_equal(pipe(in), 0);
    assert_int_equal(pipe(out), 0);
    c->n = 0;
    c->buf[0] = '\0'; /* wait_for may search before anything was read */
    c->pid = fork();
    assert_true(c->pid >= 0);
    if (c->pid == 0) {
        dup2(in[0], 0);
        dup2(out[1], 1);
        dup2(out[1], 2);
        close(in[1]);
        close(out[0]);
        if (chdir(tmpdir) != 0) _exit(98);
        setenv("XDG_STATE_HOME", tmpdir, 1); /* the recovery saves go there */
        execv(cairn, argv);
        _exit(99);
    }
    close(in[0]);
    close(out[1]);
    c->in = in[1];
    c->out = out[0];
    fcntl(c->out, F_SETFL, O_NONBLOCK);
}

/* Reads what is there; 1 once the child closed its output. */
static int drain(child *c) {
    for (;;) {
        ssize_t k = read(c->out, c->buf + c->n, sizeof c->buf - 1 - c->n);
        if (k > 0) {
            c->n += (size_t)k;
            c->buf[c->n] = '\0';
            continue;
        }
        return k == 0;
    }
}

static void pause_ms(long ms) { nanosleep(&(struct timespec){ms / 1000, (ms % 1000) * 1000000L}, NULL); }

/* How long a wait may take before the test fails: generous, because a test
** that passes never waits it out, and a machine at a load of 6 on 2 cores
** stretched a 20 s wait past its end (the step of the slow fixture is 50 ms
** of CPU time). */
#define WAIT_TICKS 6000 /* of 10 ms: 60 s */

/* The longest any one wait_for may take while the child keeps printing: a
** child still at work is slow, not stuck (under ASan at a load of 20 on 2
** cores, the slow fixture's 40 steps took longer than 60 s of the clock). */
#define WAIT_TICKS_WHILE_PRINTING 30000 /* of 10 ms: 5 min */

/* Waits until the output holds text: up to 60 s after the child last printed
** anything, and 5 min in all. */
static void wait_for(child *c, const char *text) {
    size_t seen = c->n;
    int quiet = 0;
    for (int i = 0; i < WAIT_TICKS_WHILE_PRINTING && quiet < WAIT_TICKS; i++, quiet++) {
        drain(c);
        if (strstr(c->buf, text)) return;
        if (c->n != seen) {
            seen = c->n;
            quiet = 0;
        }
        pause_ms(10);
    }
    fprintf(stderr, "never saw \"%s\" in:\n%s\n", text, c->buf);
    fail();
}

/* Waits (up to 60 s) for the child's end; its exit status, or 128 + signal. */
static int wait_end(child *c) {
    int status = 0;
    for (int i = 0; i < WAIT_TICKS; i++) {
        drain(c);
        pid_t w = waitpid(c->pid, &status, WNOHANG);
        if (w == c->pid) {
            drain(c);
            close(c->in);
            close(c->out);
            return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
        }
        pause_ms(10);
    }
    kill(c->pid, SIGKILL);
    waitpid(c->pid, &status, 0);
    fprintf(stderr, "the child did not end; its output:\n%s\n", c->buf);
    fail();
    return -1;
}

static void say(child *c, const char *line) {
    size_t n = strlen(line);
    assert_int_equal(write(c->in, line, n), (ssize_t)n);
}

/* Starts cairn with argv on a pseudo-terminal (its controlling terminal). */
static void spawn_on_pty(child *c, char *const argv[]) {
    int master = -1, slave = -1;
    struct winsize ws = {.ws_row = 24, .ws_col = 80}; /* tmux's default, and the issue's */
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
        setenv("HOME", tmpdir, 1); /* the history file goes there */
        setenv("XDG_STATE_HOME", tmpdir, 1);
        setenv("TERM", "dumb", 1);
        execv(cairn, argv);
        _exit(99);
    }
    close(slave);
    c->in = master;
    c->out = dup(master);
    fcntl(c->out, F_SETFL, O_NONBLOCK);
}

/* build/test_X -> build/cairn, absolute (the children run elsewhere); NULL when out of memory. */
static char *cairn_next_to(const char *argv0) {
    char here[4096];
    const char *slash = strrchr(argv0, '/');
    if (!getcwd(here, sizeof here)) return NULL;
    if (argv0[0] == '/') return cairn_strfmt("%.*s/cairn", (int)(slash - argv0), argv0);
    if (slash) return cairn_strfmt("%s/%.*s/cairn", here, (int)(slash - argv0), argv0);
    return cairn_strfmt("%s/cairn", here);
}

/* The group's setup and teardown: the scratch folder made, the repo root
** noted; the scratch folder removed. */
static int testchild_setup(void **st) {
    (void)st;
    return mkdtemp(tmpdir) && getcwd(root, sizeof root) ? 0 : -1;
}

static int testchild_teardown(void **st) {
    (void)st;
    char *cmd = cairn_strfmt("rm -rf '%s'", tmpdir);
    int rc = cmd ? system(cmd) : -1;
    free(cmd);
    return rc == 0 ? 0 : -1;
}

#endif
