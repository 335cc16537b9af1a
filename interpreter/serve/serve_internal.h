/*
** serve_internal.h
** The seat server's parts as its files share them: the server (serve.c),
** the queue of requests for the console's thread (serve_queue.c), tokens
** (serve_token.c), rate limits (serve_rate.c), the page's files
** (serve_page.c) and the seat protocol's messages (serve_seat.c).
*/
#ifndef CAIRN_SERVE_INTERNAL_H
#define CAIRN_SERVE_INTERNAL_H

#if !defined(CAIRN_FOLDER_serve)
#error "serve_internal.h is for interpreter/serve/ only: include serve.h"
#endif

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "limits.h"
#include "strbuf.h"

struct engine;

/* ---- serve_token.c ---- */

/* A token: SERVE_TOKEN_BYTES random bytes, written as hex. */
#define SERVE_TOKEN_BYTES 16
#define SERVE_TOKEN_HEX (2 * SERVE_TOKEN_BYTES)

/* Fills hex (SERVE_TOKEN_HEX + 1 bytes) with a fresh token from
** getrandom(). 0, or -1 when the system gives no randomness. */
int serve_token_new(char *hex);
/* 1 when a (n bytes) equals token, in time that does not depend on where
** they differ. */
int serve_token_equal(const char *a, size_t n, const char *token);

/* ---- serve_rate.c ---- */

/* A token bucket: `rate` requests a second, `burst` at once. */
typedef struct serve_bucket {
    double tokens;
    double last; /* seconds, CLOCK_MONOTONIC */
} serve_bucket;

/* 1 when one more request may pass now (and counts it), 0 when it is over
** the limit. The caller holds the lock that guards b. */
int serve_bucket_take(serve_bucket *b, double rate, double burst);

/* ---- serve_queue.c: requests for the console's thread ---- */

typedef enum { SERVE_JOB_STATE, SERVE_JOB_ANSWER } serve_job_kind;

typedef struct serve_job {
    serve_job_kind kind;
    int seat;
    const char *body; /* an answer's body (NUL-terminated), the request's */
    int cols;         /* a state's: the columns the page's board has (0: not said) */
    strbuf reply;     /* the message to send */
    int status;       /* the HTTP status */
    int taken, done;
} serve_job;

typedef struct serve_queue {
    pthread_mutex_t lock;
    pthread_cond_t done; /* a job was done */
    serve_job *jobs[CAIRN_SERVE_MAX_QUEUED];
    size_t n;
    int wake[2]; /* a pipe: a byte written for each job queued */
    int closed;  /* the server stops: no job is taken */
} serve_queue;

int serve_queue_init(serve_queue *q);
void serve_queue_destroy(serve_queue *q);
/* On a connection's thread: queues job and waits until the console's
** thread did it, at most CAIRN_SERVE_REPLY_WAIT_MS while it is not taken.
** 0 when done, -1 when the queue is full, closed or the wait ran out
** (the job is then out of the queue). */
int serve_queue_run(serve_queue *q, serve_job *job);
/* On the console's thread: the next job (marked taken), or NULL. */
serve_job *serve_queue_next(serve_queue *q);
/* On the console's thread: job is done; its thread goes on. */
void serve_queue_finish(serve_queue *q, serve_job *job);
/* Empties the wake pipe. */
void serve_queue_drain(serve_queue *q);

/* ---- serve_page.c: the page's files ---- */

typedef struct serve_file {
    const char *name; /* as in the URL after /s/TOKEN/: "" the page */
    const char *type; /* its Content-Type */
    const char *body;
} serve_file;

/* The file named so, or NULL: a fixed table, nothing from a request ever
** reaches the file system. */
const serve_file *serve_page_file(const char *name);

/* ---- serve_seat.c: the seat protocol's messages ---- */

/* seat's state message (one JSON object) into out, with the newest
** CAIRN_SERVE_NEWS_KEPT news and the page's language, the board drawn for
** cols columns (g.width; 0: the ruleset's own size). 0, or -1 with an
** error message in out. */
int serve_seat_state(struct engine *e, int seat, const char *lang, int cols, strbuf *out);
/* Applies one answer body for seat; the protocol's reply in reply. 1 when
** the game moved, 0 when it did not (the reply says why). */
int serve_seat_answer(struct engine *e, int seat, const char *body, strbuf *reply);

#endif
