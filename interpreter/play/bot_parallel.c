/*
** bot_parallel.c
** A search bot's decision on several cores: its searches (bot_mcts_root.c)
** run in worker processes forked from this one once the position is ready,
** each on its own copy of the engine, so no sandbox, chunk store or CPU
** timer is ever shared (budget.c's timer is per process and installs itself
** again in a child). Worker p runs searches p, p + procs, ... and sends their
** root statistics back over a pipe; this process runs searches 0, procs, ...
** itself, then reads, reaps and checks every worker. A worker's error comes
** back as an error of the decision; a worker that dies (a signal, the
** sandbox's hard stop) is reported with its status. Ctrl-C and the REPL's
** end signals reach this process's hooks: it closes the stop pipe and every
** worker answers with what it has. Workers ignore SIGINT, SIGTERM and SIGHUP
** (a terminal sends them to the whole process group): the parent decides,
** and a worker whose parent is gone sees the stop pipe close and ends.
*/
#define _GNU_SOURCE /* pipe2, wait4 */
#include "bot_internal.h"
#include "cpus.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* Global mutable state, on purpose: both are facts about this process
** (what the program lets one decision use, what its workers have cost),
** not about any one bot. Written by the one thread that runs bots. */
static int default_cores;      /* bot_set_default_cores; 0: the CPUs */
static int64_t workers_cpu_ns; /* the reaped workers' CPU, summed */

void bot_set_default_cores(int cores) { default_cores = cores > 0 ? cores : 0; }

int64_t bot_workers_cpu_ns(void) { return workers_cpu_ns; }

int bot_cores_of(const bot *b) {
    if (b->cores > 0) return (int)b->cores;
    const char *env = getenv("CAIRN_BOT_CORES");
    if (env && *env) {
        char *end;
        long n = strtol(env, &end, 10);
        if (!*end && n >= 1) return n > CAIRN_BOT_MAX_CORES ? CAIRN_BOT_MAX_CORES : (int)n;
    }
    if (default_cores > 0) return default_cores;
    return cpus_usable();
}

/* ------------------------------------------------------------ the wire */

/* What a worker sends, per search it ran: the search's index, its
** status, iterations, states sampled, whether it was stopped, its root's arms and, when it
** failed, its errors. Integers in this machine's byte order (the two ends
** are one program on one machine). */

static void put_u64(strbuf *s, uint64_t v) { strbuf_putn(s, (const char *)&v, sizeof v); }

static void put_str(strbuf *s, const char *t) {
    put_u64(s, t ? (uint64_t)strlen(t) : UINT64_MAX);
    if (t) strbuf_putn(s, t, strlen(t));
}

static void put_search(strbuf *s, size_t index, int rc, const mcts_root *r, const cerr_list *errs) {
    put_u64(s, index);
    put_u64(s, rc == 0 ? 0 : 1);
    put_u64(s, (uint64_t)r->iterations);
    put_u64(s, (uint64_t)r->samples);
    put_u64(s, (uint64_t)r->checked);
    put_u64(s, (uint64_t)r->stopped);
    put_u64(s, r->n);
    for (size_t i = 0; i < r->n; i++) {
        put_str(s, r->arms[i].id);
        put_u64(s, r->arms[i].n);
        put_u64(s, r->arms[i].avail);
        strbuf_putn(s, (const char *)&r->arms[i].w, sizeof r->arms[i].w); /* every bit: the sums stay exact */
    }
    put_u64(s, (uint64_t)errs->oom);
    put_u64(s, errs->n);
    for (size_t i = 0; i < errs->n; i++) {
        const cairn_error *e = &errs->items[i];
        put_str(s, e->file);
        put_u64(s, (uint64_t)(int64_t)e->line);
        put_u64(s, (uint64_t)(int64_t)e->col);
        put_str(s, e->path);
        put_str(s, e->message);
    }
}

typedef struct reader {
    const char *p;
    size_t n, at;
    int bad; /* ran past the end */
} reader;

static uint64_t get_u64(reader *r) {
    uint64_t v = 0;
    if (r->bad || r->n - r->at < sizeof v) return r->bad = 1, 0;
    memcpy(&v, r->p + r->at, sizeof v);
    r->at += sizeof v;
    return v;
}

/* A malloc'd string, or NULL (sent as none, or bad, or OOM: *oom). */
static char *get_str(reader *r, int *oom) {
    uint64_t len = get_u64(r);
    if (r->bad || len == UINT64_MAX) return NULL;
    if (len > r->n - r->at) return r->bad = 1, NULL;
    char *t = malloc((size_t)len + 1);
    if (!t) return *oom = 1, NULL;
    memcpy(t, r->p + r->at, (size_t)len);
    t[len] = '\0';
    r->at += (size_t)len;
    return t;
}

/* Reads one search into roots[] (its index checked against [0, n)) and its
** errors into errs. 0; 1 when the search failed; -1 when the bytes end or
** make no sense. */
static int get_search(reader *r, mcts_root *roots, size_t n, cerr_list *errs) {
    uint64_t index = get_u64(r), failed = get_u64(r), iters = get_u64(r), samples = get_u64(r), checked = get_u64(r);
    uint64_t stopped = get_u64(r), arms = get_u64(r);
    if (r->bad || index >= n) return -1;
    mcts_root *root = &roots[index];
    root->iterations += (long)iters;
    root->samples += (long)samples;
    root->checked += (long)checked;
    root->stopped |= stopped != 0;
    for (uint64_t i = 0; i < arms && !r->bad; i++) {
        int oom = 0;
        char *id = get_str(r, &oom);
        uint64_t vn = get_u64(r), avail = get_u64(r);
        double w = 0;
        if (!r->bad && r->n - r->at >= sizeof w) memcpy(&w, r->p + r->at, sizeof w), r->at += sizeof w;
        else r->bad = 1;
        if (oom || (id && mcts_root_add(root, id, vn, avail, w) != 0)) errs->oom = 1;
        if (!id && !oom) r->bad = 1;
        free(id);
    }
    if (get_u64(r)) errs->oom = 1;
    uint64_t n_errs = get_u64(r);
    for (uint64_t i = 0; i < n_errs && !r->bad; i++) {
        int oom = 0;
        char *file = get_str(r, &oom);
        int line = (int)(int64_t)get_u64(r), col = (int)(int64_t)get_u64(r);
        char *path = get_str(r, &oom), *msg = get_str(r, &oom);
        if (oom) errs->oom = 1;
        else if (msg) cerr_add(errs, file, line, col, path, "%s", msg);
        free(file), free(path), free(msg);
    }
    if (r->bad) return -1;
    return failed ? 1 : 0;
}

/* ------------------------------------------------------------ a worker */

/* The stop pipe's read end, as a worker's interrupted hook: 1 once the
** parent closed it (a stop) or died. */
static int stop_asked(void *ud) {
    struct pollfd p = {.fd = *(int *)ud, .events = POLLIN};
    return poll(&p, 1, 0) > 0;
}

static int write_all(int fd, const char *p, size_t n) {
    while (n > 0) {
        ssize_t k = write(fd, p, n);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) return -1;
        p += k, n -= (size_t)k;
    }
    return 0;
}

/* The worker: runs searches first, first + step, ... below n, sends them
** and ends (never returns; _exit leaves this process's buffers and
** handlers to the parent). */
static void worker(bot *b, engine *e, int seat, const mcts_share *shares, size_t n, size_t first, size_t step,
                   int stop_fd, int out_fd) {
    signal(SIGINT, SIG_IGN);
    signal(SIGTERM, SIG_IGN);
    signal(SIGHUP, SIG_IGN);
    signal(SIGPIPE, SIG_DFL); /* the parent gone: end */
    bot_hooks h = {.tick = NULL, .interrupted = stop_asked, .ud = &stop_fd, .notice = NULL};
    strbuf out = {0};
    for (size_t i = first; i < n; i += step) {
        if (i != first && stop_asked(&stop_fd)) break;
        mcts_root root;
        memset(&root, 0, sizeof root);
        cerr_list errs;
        cerr_init(&errs, 0);
        int rc = bot_mcts_search(b, e, seat, &shares[i], &h, &root, &errs);
        put_search(&out, i, rc, &root, &errs);
        if (rc != 0) break;
    }
    int ok = !out.oom && write_all(out_fd, out.s ? out.s : "", out.n) == 0;
    _exit(ok ? 0 : 2);
}

/* ------------------------------------------------------------ the parent */

typedef struct parent_ctx {
    const bot_hooks *hooks;
    int stop_fd;  /* the stop pipe's write end, -1 once closed */
    int stopped;  /* the caller's interrupted said yes once: it stays so */
} parent_ctx;

static void stop_workers(parent_ctx *pc) {
    if (pc->stop_fd >= 0) close(pc->stop_fd);
    pc->stop_fd = -1;
}

static void parent_tick(void *ud, long iterations, double seconds) {
    parent_ctx *pc = ud;
    if (pc->hooks && pc->hooks->tick) pc->hooks->tick(pc->hooks->ud, iterations, seconds);
}

static int parent_interrupted(void *ud) {
    parent_ctx *pc = ud;
    if (!pc->stopped && pc->hooks && pc->hooks->interrupted && pc->hooks->interrupted(pc->hooks->ud)) {
        pc->stopped = 1;
        stop_workers(pc); /* now, not after this process's own searches */
    }
    return pc->stopped;
}

static double now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double thread_cpu_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

typedef struct child {
    pid_t pid;
    int fd;       /* its results, -1 once read to the end */
    strbuf got;
} child;

/* Reads every worker's pipe to its end, keeping the hooks alive (the
** spinner, Ctrl-C) while they work. */
static void read_workers(child *kids, int k, parent_ctx *pc, long counted, double start) {
    double last_tick = now_seconds();
    for (;;) {
        struct pollfd p[CAIRN_BOT_MAX_SEARCHES];
        int idx[CAIRN_BOT_MAX_SEARCHES], open = 0;
        for (int i = 0; i < k; i++)
            if (kids[i].fd >= 0) p[open] = (struct pollfd){.fd = kids[i].fd, .events = POLLIN}, idx[open++] = i;
        if (!open) return;
        int ready = poll(p, (nfds_t)open, 100);
        for (int j = 0; ready > 0 && j < open; j++) {
            if (!p[j].revents) continue;
            child *c = &kids[idx[j]];
            char buf[8192];
            ssize_t got = read(c->fd, buf, sizeof buf);
            if (got < 0 && (errno == EINTR || errno == EAGAIN)) continue;
            if (got <= 0) {
                close(c->fd);
                c->fd = -1;
            } else strbuf_putn(&c->got, buf, (size_t)got);
        }
        parent_interrupted(pc);
        double now = now_seconds();
        if (now - last_tick >= 0.1) parent_tick(pc, counted, now - start), last_tick = now;
    }
}

/* Reaps worker c (number p), adds its CPU, and says how it ended: 0 when it
** exited 0, else -1 after appending an error. */
static int reap(child *c, int p, int procs, cerr_list *errs) {
    int status = 0;
    struct rusage ru;
    memset(&ru, 0, sizeof ru);
    pid_t w;
    do w = wait4(c->pid, &status, 0, &ru);
    while (w < 0 && errno == EINTR);
    char worker[24], of[24], code[24]; /* the numbers of its errors, as text */
    snprintf(worker, sizeof worker, "%d", p);
    snprintf(of, sizeof of, "%d", procs);
    if (w < 0) {
        int e = errno;
        size_t before = errs->n;
        cerr_add(errs, NULL, 0, 0, NULL, "mcts: search worker %s of %s could not be waited for: %s", worker, of,
                 strerror(e));
        cerr_key(errs, before, "mcts.worker_wait", e, worker, of);
        return -1;
    }
    workers_cpu_ns += ((int64_t)ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000000 +
                      ((int64_t)ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1000;
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return 0;
    snprintf(code, sizeof code, "%d", WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
    if (WIFSIGNALED(status))
        cerr_addk(errs, NULL, 0, 0, NULL, "mcts.worker_signal",
                  "mcts: search worker %s of %s (a process of this bot's search) was ended by signal %s (%s)", worker,
                  of, code, strsignal(WTERMSIG(status)));
    else if (WEXITSTATUS(status) == 1)
        cerr_addk(errs, NULL, 0, 0, NULL, "mcts.worker_status_above",
                  "mcts: search worker %s of %s (a process of this bot's search) ended with status %s (its message, "
                  "if any, is above)", worker, of, code);
    else
        cerr_addk(errs, NULL, 0, 0, NULL, "mcts.worker_status",
                  "mcts: search worker %s of %s (a process of this bot's search) ended with status %s", worker, of,
                  code);
    return -1;
}

/* The searches of worker p (shares p, p + procs, ... below n), read from
** what it sent. 0, or -1 after appending an error. */
static int take_results(child *c, int p, int procs, size_t n, mcts_root *roots, cerr_list *errs) {
    reader r = {c->got.s, c->got.n, 0, 0};
    int failed = 0; /* fewer searches than its share when stopped early (Ctrl-C): the rest stay empty */
    while (r.at < r.n) {
        int rc = get_search(&r, roots, n, errs);
        if (rc < 0) {
            char worker[24], of[24];
            snprintf(worker, sizeof worker, "%d", p);
            snprintf(of, sizeof of, "%d", procs);
            cerr_addk(errs, NULL, 0, 0, NULL, "mcts.worker_short",
                      "mcts: search worker %s of %s sent statistics that end short", worker, of);
            return -1;
        }
        if (rc > 0) failed = 1;
    }
    if (c->got.oom) errs->oom = 1;
    return failed || c->got.oom ? -1 : 0;
}

int bot_parallel_run(bot *b, engine *e, int seat, const mcts_share *shares, size_t n, int procs,
                     const bot_hooks *hooks, mcts_root *roots, cerr_list *errs) {
    if (procs > (int)n) procs = (int)n;
    if (procs > CAIRN_BOT_MAX_SEARCHES) procs = CAIRN_BOT_MAX_SEARCHES;
    parent_ctx pc = {hooks, -1, 0};
    int stop[2] = {-1, -1};
    child kids[CAIRN_BOT_MAX_SEARCHES];
    int k = 0; /* workers started: kids[0] is worker 1 */
    if (procs > 1 && pipe2(stop, O_CLOEXEC) != 0) procs = 1; /* no pipe: one core, as before */
    pc.stop_fd = stop[1];
    for (int p = 1; p < procs; p++) {
        int out[2];
        if (pipe2(out, O_CLOEXEC) != 0) break; /* fewer workers: this process runs the rest */
        pid_t pid = fork();
        if (pid == 0) {
            close(stop[1]); /* else the stop pipe would never close */
            close(out[0]);
            worker(b, e, seat, shares, n, (size_t)p, (size_t)procs, stop[0], out[1]);
        }
        close(out[1]);
        if (pid < 0) {
            close(out[0]);
            break;
        }
        kids[k++] = (child){pid, out[0], {0}};
    }
    if (stop[0] >= 0) close(stop[0]);
    /* the searches no worker took: this process's */
    bot_hooks mine = {.tick = parent_tick, .interrupted = parent_interrupted, .ud = &pc, .notice = NULL};
    int bad = 0;
    long counted = 0;
    double cpu0 = thread_cpu_ns();
    for (size_t i = 0; i < n && !bad; i++) {
        int owner = (int)(i % (size_t)procs);
        if (owner != 0 && owner <= k) continue;
        if (counted > 0 && parent_interrupted(&pc)) break;
        mcts_share s = shares[i];
        s.counted = counted;
        if (bot_mcts_search(b, e, seat, &s, &mine, &roots[i], errs) != 0) bad = 1;
        counted += roots[i].iterations;
    }
    if (counted > 0) b->iter_ns = (thread_cpu_ns() - cpu0) / (double)counted;
    if (bad) stop_workers(&pc); /* the decision fails: the workers need not go on */
    read_workers(kids, k, &pc, counted, n ? shares[0].start : now_seconds());
    stop_workers(&pc);
    for (int i = 0; i < k; i++) {
        int p = i + 1;
        if (reap(&kids[i], p, procs, errs) != 0) bad = 1; /* its status says why, not its bytes */
        else if (!bad && take_results(&kids[i], p, procs, n, roots, errs) != 0) bad = 1;
        strbuf_free(&kids[i].got);
    }
    return bad ? -1 : 0;
}
