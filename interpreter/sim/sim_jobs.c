/*
** sim_jobs.c
** `cairn sim --jobs J`: games played in J worker processes, worker w taking
** games w, w+J, w+2J, ... and writing each record as a line of JSON to its
** pipe. The parent puts the records back in game order before counting
** them, so the report is the same whatever J is.
*/
#include "sim_internal.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

volatile int sim_interrupted;

/* In one process: play and hand on, in order. */
static int run_here(long first, long last, int variants, sim_play_fn play, sim_sink_fn sink, void *ud,
                    FILE *err) {
    for (long i = first; i < last; i++)
        for (int v = 0; v < variants; v++) {
            if (sim_interrupted) return 1;
            sim_rec r;
            memset(&r, 0, sizeof r);
            if (play(i, v, &r, ud) != 0) return fprintf(err, "cairn sim: out of memory\n"), sim_rec_free(&r), -1;
            if (sink(&r, ud) != 0) return -1;
        }
    return 0;
}

static int write_all(int fd, const char *p, size_t n) {
    while (n) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return -1;
        p += w, n -= (size_t)w;
    }
    return 0;
}

/* A worker's life: its share of the games, one line each; exits. */
static void worker(int w, int jobs, long first, long last, int variants, sim_play_fn play, void *ud, int fd) {
    signal(SIGINT, SIG_DFL); /* the parent decides what an interruption keeps */
    for (long i = first + w; i < last; i += jobs)
        for (int v = 0; v < variants; v++) {
            sim_rec r;
            memset(&r, 0, sizeof r);
            if (play(i, v, &r, ud) != 0) _exit(3);
            char *line = sim_rec_json(&r);
            sim_rec_free(&r);
            if (!line || write_all(fd, line, strlen(line)) != 0 || write_all(fd, "\n", 1) != 0) _exit(3);
            free(line);
        }
    _exit(0);
}

/* A worker as the parent sees it: its pipe and what arrived unfinished. */
typedef struct job {
    pid_t pid;
    int fd;
    char *buf;
    size_t len, cap;
} job;

/* The records not yet handed on, by (index - first) * variants + variant. */
typedef struct reorder {
    sim_rec **slot;
    long n, next;
} reorder;

static int deliver(reorder *q, sim_sink_fn sink, void *ud, int all) {
    for (; q->next < q->n; q->next++) {
        sim_rec *r = q->slot[q->next];
        if (!r) {
            if (all) continue;
            return 0;
        }
        q->slot[q->next] = NULL;
        int rc = sink(r, ud);
        free(r);
        if (rc) return -1;
    }
    return 0;
}

/* Takes the whole lines in j's buffer into q. -1 on a line that is no
** record or out of memory. */
static int take_lines(job *j, reorder *q, long first, int variants) {
    size_t start = 0;
    for (size_t k = 0; k < j->len; k++) {
        if (j->buf[k] != '\n') continue;
        sim_rec *r = malloc(sizeof *r);
        if (!r || sim_rec_parse(j->buf + start, k - start, r) != 0) return free(r), -1;
        long at = (r->index - first) * variants + r->variant;
        if (at < 0 || at >= q->n || q->slot[at]) return sim_rec_free(r), free(r), -1;
        q->slot[at] = r;
        start = k + 1;
    }
    memmove(j->buf, j->buf + start, j->len - start);
    j->len -= start;
    return 0;
}

static int read_job(job *j, reorder *q, long first, int variants) {
    if (j->cap - j->len < 4096) {
        size_t cap = j->cap ? j->cap * 2 : 65536;
        char *b = realloc(j->buf, cap);
        if (!b) return -1;
        j->buf = b, j->cap = cap;
    }
    ssize_t n = read(j->fd, j->buf + j->len, j->cap - j->len);
    if (n < 0 && errno == EINTR) return 0;
    if (n <= 0) return close(j->fd), j->fd = -1, 0;
    j->len += (size_t)n;
    return take_lines(j, q, first, variants);
}

int sim_jobs_run(long first, long last, int variants, int jobs, sim_play_fn play, sim_sink_fn sink,
                 void *ud, FILE *err) {
    if (jobs <= 1 || last - first <= 1) return run_here(first, last, variants, play, sink, ud, err);
    if (jobs > last - first) jobs = (int)(last - first);
    reorder q = {calloc((size_t)((last - first) * variants), sizeof(sim_rec *)), (last - first) * variants, 0};
    job *js = calloc((size_t)jobs, sizeof *js);
    struct pollfd *pf = calloc((size_t)jobs, sizeof *pf);
    int rc = 0, started = 0;
    if (!q.slot || !js || !pf) {
        fprintf(err, "cairn sim: out of memory\n");
        rc = -1;
        goto done;
    }
    fflush(NULL); /* nothing buffered is written twice by a child */
    for (; started < jobs; started++) {
        int fds[2];
        if (pipe(fds) != 0) {
            fprintf(err, "cairn sim: cannot make a pipe for worker %d: %s\n", started + 1, strerror(errno));
            rc = -1;
            break;
        }
        pid_t pid = fork();
        if (pid < 0) {
            fprintf(err, "cairn sim: cannot start worker %d: %s\n", started + 1, strerror(errno));
            close(fds[0]), close(fds[1]);
            rc = -1;
            break;
        }
        if (pid == 0) {
            close(fds[0]);
            for (int k = 0; k < started; k++) close(js[k].fd);
            worker(started, jobs, first, last, variants, play, ud, fds[1]);
        }
        close(fds[1]);
        js[started] = (job){pid, fds[0], NULL, 0, 0};
    }
    while (rc == 0) {
        int open = 0;
        for (int k = 0; k < started; k++) {
            pf[k].fd = js[k].fd, pf[k].events = POLLIN, pf[k].revents = 0;
            open += js[k].fd >= 0;
        }
        if (!open || sim_interrupted) break;
        if (poll(pf, (nfds_t)started, -1) < 0) {
            if (errno == EINTR) continue;
            fprintf(err, "cairn sim: poll: %s\n", strerror(errno));
            rc = -1;
            break;
        }
        for (int k = 0; k < started && rc == 0; k++)
            if (js[k].fd >= 0 && pf[k].revents && read_job(&js[k], &q, first, variants) != 0) {
                fprintf(err, "cairn sim: worker %d sent a line that is not a game record\n", k + 1);
                rc = -1;
            }
        if (rc == 0 && deliver(&q, sink, ud, 0) != 0) rc = -1;
    }
    if (rc == 0 && sim_interrupted) rc = 1;
    for (int k = 0; k < started; k++) {
        int status = 0;
        if (rc != 0) kill(js[k].pid, SIGTERM);
        if (js[k].fd >= 0) close(js[k].fd);
        while (waitpid(js[k].pid, &status, 0) < 0 && errno == EINTR) {
        }
        if (rc == 0 && !(WIFEXITED(status) && WEXITSTATUS(status) == 0)) {
            fprintf(err, "cairn sim: worker %d stopped before its games were done (status %d)\n", k + 1, status);
            rc = -1;
        }
        free(js[k].buf);
    }
    if (rc >= 0 && deliver(&q, sink, ud, rc == 1) != 0) rc = -1;
    if (rc == 0 && q.next < q.n) {
        fprintf(err, "cairn sim: %ld game records missing from the workers\n", q.n - q.next);
        rc = -1;
    }
done:
    for (long k = 0; q.slot && k < q.n; k++)
        if (q.slot[k]) sim_rec_free(q.slot[k]), free(q.slot[k]);
    free(q.slot);
    free(js);
    free(pf);
    return rc;
}
