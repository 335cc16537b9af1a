/*
** tools/bench/memory.c
** The measurements made in forked children, each answering over a pipe, so
** that one does not pollute the next (or the parent): the search for a long
** game, the peak RSS of that game (getrusage RUSAGE_SELF in the child), the
** RSS growth over many connect4 games (/proc/self/statm); and the time of
** `cairn check` without smoke play (ruleset_load, in the parent).
*/
#include "bench.h"
#include <fcntl.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ruleset.h"

/* ------------------------------------------------------------ children */

/* Forks; the child runs fn(arg, answer) and writes the answer (size bytes)
** to the pipe, then exits 0 (1 when fn failed). */
static int child_start(int (*fn)(const void *arg, void *answer), const void *arg, size_t size,
                       const char *what, child *c) {
    int fds[2];
    if (pipe(fds) != 0) {
        bench_fail("%s: pipe: %s", what, strerror(errno));
        return -1;
    }
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        bench_fail("%s: fork: %s", what, strerror(errno));
        close(fds[0]);
        close(fds[1]);
        return -1;
    }
    if (pid == 0) {
        close(fds[0]);
        unsigned char
            answer[sizeof(rss_growth) > sizeof(long_game) ? sizeof(rss_growth) : sizeof(long_game)];
        memset(answer, 0, sizeof answer);
        int rc = size <= sizeof answer ? fn(arg, answer) : -1;
        const unsigned char *p = answer;
        size_t left = size;
        while (rc == 0 && left > 0) {
            ssize_t w = write(fds[1], p, left);
            if (w < 0 && errno == EINTR) continue;
            if (w <= 0)
                rc = -1;
            else {
                p += w;
                left -= (size_t)w;
            }
        }
        fflush(NULL);
        _exit(rc == 0 ? 0 : 1);
    }
    close(fds[1]);
    c->pid = (int)pid;
    c->fd = fds[0];
    return 0;
}

/* Reads the child's answer and reaps it. 0 when it answered in full and
** exited 0 (a failing child has printed its own failure; it is recorded
** here again so the parent's exit status says so). */
static int child_finish(child *c, void *answer, size_t size, const char *what) {
    unsigned char *p = answer;
    size_t got = 0;
    while (got < size) {
        ssize_t r = read(c->fd, p + got, size - got);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) break;
        got += (size_t)r;
    }
    close(c->fd);
    int status = 0;
    pid_t w;
    while ((w = waitpid((pid_t)c->pid, &status, 0)) < 0 && errno == EINTR) {
    }
    if (w < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0 || got != size) {
        bench_fail("%s: the child process failed (%s)", what,
                   w < 0                 ? strerror(errno)
                   : WIFSIGNALED(status) ? strsignal(WTERMSIG(status))
                                         : "no complete answer");
        return -1;
    }
    return 0;
}

/* --------------------------------------------------------- long game */

static int long_search(const void *arg, void *answer) {
    const bench_settings *s = arg;
    long_game *lg = answer;
    const game_config g = {BENCH_LONG_RULESET, BENCH_LONG_SEATS, 1};
    for (int seed = 1; seed <= s->long_seeds; seed++) {
        /* game length does not depend on the budget: search without it */
        engine *e = games_start(&g, (uint64_t)seed, 1);
        if (!e) return -1;
        long n = games_play_out(e, &g, (uint64_t)seed);
        engine_free(e);
        if (n < 0) return -1;
        lg->searched = seed;
        if (n > lg->decisions) {
            lg->decisions = n;
            lg->seed = (uint64_t)seed;
        }
        if (n >= BENCH_LONG_AT) break;
    }
    return 0;
}

int memory_long_search_start(const bench_settings *s, child *c) {
    return child_start(long_search, s, sizeof(long_game), "long-game search", c);
}

int memory_long_search_finish(child *c, long_game *out) {
    return child_finish(c, out, sizeof *out, "long-game search");
}

/* What the peak-RSS child is asked, and answers. */
typedef struct peak_ask {
    game_config g;
    uint64_t seed;
} peak_ask;

static int peak_child(const void *arg, void *answer) {
    const peak_ask *in = arg;
    peak_rss *p = answer;
    p->fork_kib = bench_rss_kib();
    engine *e = games_start(&in->g, in->seed, 0);
    if (!e) return -1;
    p->decisions = games_play_out(e, &in->g, in->seed);
    struct rusage ru;
    int rc = getrusage(RUSAGE_SELF, &ru);
    engine_free(e);
    if (rc != 0) {
        bench_fail("getrusage: %s", strerror(errno));
        return -1;
    }
    p->peak_kib = ru.ru_maxrss; /* KiB on Linux */
    return p->decisions < 0 ? -1 : 0;
}

int memory_peak_rss(const game_config *g, uint64_t seed, peak_rss *out) {
    child c;
    peak_ask ask = {*g, seed};
    ask.g.playout = 0; /* a game as a person plays it: strict, with its history */
    *out = (peak_rss){0};
    if (child_start(peak_child, &ask, sizeof *out, "peak RSS", &c) != 0 ||
        child_finish(&c, out, sizeof *out, "peak RSS") != 0) {
        *out = (peak_rss){0};
        return -1;
    }
    return 0;
}

/* -------------------------------------------------------- RSS growth */

/* The games after which the resident set is first sampled: allocator pools,
** Lua's string table and the page cache of the ruleset files are settled by
** then. */
static long warm_games(long target) {
    return target >= 2000 ? 1000 : target / 2 > 0 ? target / 2 : 1;
}

static void sample(rss_growth *r) {
    if (r->n_samples == RSS_MAX_SAMPLES) return;
    r->sample_games[r->n_samples] = r->games;
    r->sample_kib[r->n_samples] = bench_rss_kib();
    r->n_samples++;
}

static int growth_child(const void *arg, void *answer) {
    const bench_settings *s = arg;
    rss_growth *r = answer;
    const game_config g = {"connect4", 2, 1};
    r->target = s->c4_games;
    long warm = r->warm_games = warm_games(r->target),
         step = r->target / 10 > 0 ? r->target / 10 : 1;
    double t0 = bench_now();
    while (r->games < r->target) {
        uint64_t seed = (uint64_t)r->games + 1;
        engine *e = games_start(&g, seed, 0);
        if (!e) return -1;
        long n = games_play_out(e, &g, seed);
        engine_free(e);
        if (n < 0) return -1;
        r->games++;
        if (r->games == warm) {
            sample(r);
            r->warm_kib = r->sample_kib[r->n_samples - 1];
        } else if (r->games % step == 0 && r->games < r->target) {
            sample(r);
        }
        if (bench_now() - t0 >= s->c4_seconds) break;
    }
    r->seconds = bench_now() - t0;
    r->complete = r->games == r->target;
    r->end_kib = bench_rss_kib();
    if (r->n_samples < RSS_MAX_SAMPLES && r->games > warm) sample(r);
    if (r->games < warm) r->warm_kib = r->end_kib; /* stopped before the first sample */
    r->growth_kib = r->end_kib - r->warm_kib;
    return r->warm_kib < 0 || r->end_kib < 0 ? -1 : 0;
}

int memory_rss_growth_start(const bench_settings *s, child *c) {
    return child_start(growth_child, s, sizeof(rss_growth), "RSS growth", c);
}

int memory_rss_growth_finish(child *c, rss_growth *out) {
    return child_finish(c, out, sizeof *out, "RSS growth");
}

/* ------------------------------------------------------- check time */

#define CHECK_RUNS 15

/* `cairn check RULESET --games 0` is ruleset_load (resolve, extends,
** overlays, validation of every data file) and one line of output. */
/* One `cairn check NAME --games 0` in a child process: its CPU time (user +
** system, from wait4) in ms, or -1. The whole command a designer runs:
** resolving, every option's values, compiling every script, no smoke play. */
static double check_once(const char *cairn, const char *name) {
    pid_t pid = fork();
    if (pid < 0) return -1;
    if (pid == 0) {
        int null = open("/dev/null", O_WRONLY);
        if (null >= 0) {
            dup2(null, 1);
            dup2(null, 2);
        }
        execl(cairn, cairn, "check", name, "--games", "0", (char *)NULL);
        _exit(127);
    }
    int status;
    struct rusage before, after;
    if (getrusage(RUSAGE_CHILDREN, &before) != 0) return -1; /* children waited for so far */
    if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0) return -1;
    if (getrusage(RUSAGE_CHILDREN, &after) != 0) return -1;
    return (double)(after.ru_utime.tv_sec - before.ru_utime.tv_sec + after.ru_stime.tv_sec -
                    before.ru_stime.tv_sec) * 1e3 +
           (double)(after.ru_utime.tv_usec - before.ru_utime.tv_usec + after.ru_stime.tv_usec -
                    before.ru_stime.tv_usec) / 1e3;
}

int memory_check_time(const char *name, check_time *out) {
    double ms[CHECK_RUNS];
    const char *build = getenv("BUILD");
    char cairn[4096];
    snprintf(cairn, sizeof cairn, "%s/cairn", build && *build ? build : "build");
    for (int i = 0; i < CHECK_RUNS; i++) {
        ms[i] = check_once(cairn, name);
        if (ms[i] < 0) {
            bench_fail("%s: `%s check %s --games 0` failed", name, cairn, name);
            return -1;
        }
    }
    out->runs = CHECK_RUNS;
    out->ms = bench_percentile(ms, CHECK_RUNS, 0.5);
    return 0;
}
