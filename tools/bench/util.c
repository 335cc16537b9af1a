/*
** tools/bench/util.c
** Clocks, resident set, percentiles and the failure list of `make bench`.
*/
#include "bench.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double clock_seconds(clockid_t id) {
    struct timespec ts;
    clock_gettime(id, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

double bench_now(void) { return clock_seconds(CLOCK_MONOTONIC); }

double bench_cpu_now(void) { return clock_seconds(CLOCK_THREAD_CPUTIME_ID); }

long bench_rss_kib(void) {
    FILE *f = fopen("/proc/self/statm", "r");
    if (!f) return -1;
    long size = 0, resident = -1;
    if (fscanf(f, "%ld %ld", &size, &resident) != 2) resident = -1;
    fclose(f);
    long page = sysconf(_SC_PAGESIZE);
    return resident < 0 || page <= 0 ? -1 : resident * (page / 1024);
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Nearest rank: the smallest sample with at least p of the samples at or
** below it. */
double bench_percentile(double *v, size_t n, double p) {
    if (n == 0) return 0;
    qsort(v, n, sizeof *v, cmp_double);
    size_t rank = (size_t)ceil(p * (double)n);
    if (rank < 1) rank = 1;
    if (rank > n) rank = n;
    return v[rank - 1];
}

double rate_games(const rate *r) {
    return r->cpu_seconds > 0 ? (double)r->games / r->cpu_seconds : 0;
}
double rate_decisions(const rate *r) {
    return r->cpu_seconds > 0 ? (double)r->decisions / r->cpu_seconds : 0;
}

#define MAX_FAILURES 64

static char *failures[MAX_FAILURES];
static size_t n_failures, n_failures_dropped;

void bench_fail(const char *fmt, ...) {
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    fprintf(stderr, "bench: FAILED: %s\n", buf);
    char *copy = n_failures < MAX_FAILURES ? strdup(buf) : NULL;
    if (copy)
        failures[n_failures++] = copy;
    else
        n_failures_dropped++;
}

size_t bench_failure_count(void) { return n_failures + n_failures_dropped; }

const char *bench_failure(size_t i) { return i < n_failures ? failures[i] : NULL; }

int bench_listed(const char *list, const char *name) {
    size_t len = strlen(name);
    for (const char *p = list; *p;) {
        size_t n = strcspn(p, ",");
        if (n == len && strncmp(p, name, len) == 0) return 1;
        p += n + (p[n] == ',');
    }
    return 0;
}
