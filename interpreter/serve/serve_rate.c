/*
** serve_rate.c
** Rate limits of the seat server: a token bucket per seat token (and one
** shared by requests without a valid token), refilled with the monotonic
** clock.
*/
#include "serve_internal.h"

#include <time.h>

static double now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int serve_bucket_take(serve_bucket *b, double rate, double burst) {
    double t = now_seconds();
    if (b->last == 0) b->tokens = burst; /* a fresh bucket is full */
    else b->tokens += (t - b->last) * rate;
    if (b->tokens > burst) b->tokens = burst;
    b->last = t;
    if (b->tokens < 1) return 0;
    b->tokens -= 1;
    return 1;
}
