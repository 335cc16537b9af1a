/*
** serve_queue.c
** The requests a connection's thread hands to the console's thread (the
** only one that touches the engine): a bounded queue under a lock, a pipe
** that wakes the console's wait, and a condition the connection waits on
** until its job is done.
*/
#include "serve_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

int serve_queue_init(serve_queue *q) {
    memset(q, 0, sizeof *q);
    q->wake[0] = q->wake[1] = -1;
    if (pipe(q->wake) != 0) return -1;
    for (int i = 0; i < 2; i++) {
        int fl = fcntl(q->wake[i], F_GETFL);
        if (fl < 0 || fcntl(q->wake[i], F_SETFL, fl | O_NONBLOCK) != 0 ||
            fcntl(q->wake[i], F_SETFD, FD_CLOEXEC) != 0)
            goto fail;
    }
    if (pthread_mutex_init(&q->lock, NULL) != 0) goto fail;
    pthread_condattr_t ca;
    if (pthread_condattr_init(&ca) != 0) goto fail_lock;
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    int rc = pthread_cond_init(&q->done, &ca);
    pthread_condattr_destroy(&ca);
    if (rc != 0) goto fail_lock;
    return 0;
fail_lock:
    pthread_mutex_destroy(&q->lock);
fail:
    close(q->wake[0]);
    close(q->wake[1]);
    q->wake[0] = q->wake[1] = -1;
    return -1;
}

void serve_queue_destroy(serve_queue *q) {
    if (q->wake[0] < 0) return;
    pthread_cond_destroy(&q->done);
    pthread_mutex_destroy(&q->lock);
    close(q->wake[0]);
    close(q->wake[1]);
    q->wake[0] = q->wake[1] = -1;
}

static void remove_job(serve_queue *q, serve_job *job) {
    for (size_t i = 0; i < q->n; i++)
        if (q->jobs[i] == job) {
            memmove(&q->jobs[i], &q->jobs[i + 1], (q->n - i - 1) * sizeof q->jobs[0]);
            q->n--;
            return;
        }
}

int serve_queue_run(serve_queue *q, serve_job *job) {
    struct timespec until;
    clock_gettime(CLOCK_MONOTONIC, &until);
    until.tv_sec += CAIRN_SERVE_REPLY_WAIT_MS / 1000;
    until.tv_nsec += (long)(CAIRN_SERVE_REPLY_WAIT_MS % 1000) * 1000000L;
    if (until.tv_nsec >= 1000000000L) {
        until.tv_sec++;
        until.tv_nsec -= 1000000000L;
    }
    pthread_mutex_lock(&q->lock);
    if (q->closed || q->n >= CAIRN_SERVE_MAX_QUEUED) {
        pthread_mutex_unlock(&q->lock);
        return -1;
    }
    job->taken = job->done = 0;
    q->jobs[q->n++] = job;
    char byte = 1;
    if (write(q->wake[1], &byte, 1) < 0 && errno != EAGAIN) { /* a full pipe is awake already */
    }
    while (!job->done) {
        if (job->taken) {
            /* the console's thread has it: it finishes in finite time */
            pthread_cond_wait(&q->done, &q->lock);
            continue;
        }
        if (q->closed || pthread_cond_timedwait(&q->done, &q->lock, &until) == ETIMEDOUT) {
            if (!job->taken && !job->done) {
                remove_job(q, job);
                pthread_mutex_unlock(&q->lock);
                return -1;
            }
        }
    }
    pthread_mutex_unlock(&q->lock);
    return 0;
}

serve_job *serve_queue_next(serve_queue *q) {
    pthread_mutex_lock(&q->lock);
    serve_job *job = NULL;
    if (q->n > 0) {
        job = q->jobs[0];
        memmove(&q->jobs[0], &q->jobs[1], (q->n - 1) * sizeof q->jobs[0]);
        q->n--;
        job->taken = 1;
    }
    pthread_mutex_unlock(&q->lock);
    return job;
}

void serve_queue_finish(serve_queue *q, serve_job *job) {
    pthread_mutex_lock(&q->lock);
    job->done = 1;
    pthread_cond_broadcast(&q->done);
    pthread_mutex_unlock(&q->lock);
}

void serve_queue_drain(serve_queue *q) {
    char buf[256];
    while (read(q->wake[0], buf, sizeof buf) > 0) {
    }
}
