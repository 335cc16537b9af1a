/*
** sim_progress.c
** How far `cairn sim` is, on stderr: on a terminal a bar redrawn in place
** at most ten times a second, with the games done, the rate and the time
** left (status_line.c draws it); on a pipe or a file a plain line at each
** tenth. The rate is written so that it never reads "0.0": games/s with the
** digits it needs, or seconds a game when a game takes longer than ten
** seconds.
*/
#include "sim_internal.h"
#include "status_line.h"

#include <stdio.h>
#include <time.h>

static double now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void sim_rate_text(double games_per_second, char *buf, size_t size) {
    double r = games_per_second;
    if (r <= 0) snprintf(buf, size, "- games/s");
    else if (r >= 100) snprintf(buf, size, "%.0f games/s", r);
    else if (r >= 1) snprintf(buf, size, "%.1f games/s", r);
    else if (r >= 0.1) snprintf(buf, size, "%.2f games/s", r);
    else snprintf(buf, size, "%.0f s a game", 1 / r); /* 0.1 games/s and less: 10 s a game and more */
}

/* Seconds as "42 s", "3 min 05 s" or "2 h 07 min". */
static void duration_text(double s, char *buf, size_t size) {
    long t = (long)(s + 0.5);
    if (t < 60) snprintf(buf, size, "%ld s", t);
    else if (t < 3600) snprintf(buf, size, "%ld min %02ld s", t / 60, t % 60);
    else snprintf(buf, size, "%ld h %02ld min", t / 3600, t % 3600 / 60);
}

void sim_progress_start(sim_progress *p, FILE *err, int quiet, long total, int variants) {
    p->quiet = quiet || total <= 0;
    p->total = total;
    p->variants = variants > 0 ? variants : 1;
    p->start = now_seconds();
    p->last_draw = -1;
    p->last_tenth = 0;
    status_line_open(&p->line, err);
    p->err = err;
    if (!p->quiet) sim_progress_note(p, 0); /* the bar from the start: a slow first game shows it runs */
}

int sim_progress_note(sim_progress *p, long done) {
    if (p->quiet) return 0;
    double t = now_seconds(), spent = t - p->start;
    double rate = done > 0 && spent > 0 ? (double)done / spent : 0; /* records a second */
    long games = done / p->variants, all = p->total / p->variants;
    char rtext[32];
    sim_rate_text(rate / p->variants, rtext, sizeof rtext);
    if (p->line.fd >= 0) {
        if (p->last_draw >= 0 && t - p->last_draw < 0.1 && done < p->total) return 0;
        p->last_draw = t;
        int w = (int)(30 * done / p->total);
        char eta[32] = "-", text[160];
        if (rate > 0) duration_text((double)(p->total - done) / rate, eta, sizeof eta);
        snprintf(text, sizeof text, "[%.*s%*s] %3ld%% %ld/%ld games, %s, ETA %s", w,
                 "##############################", 30 - w, "", 100 * done / p->total, games, all, rtext,
                 done < p->total ? eta : "0 s");
        status_line_show(&p->line, text);
        if (done == p->total) status_line_keep(&p->line);
        return 0;
    }
    int tenth = (int)(10 * done / p->total);
    if (tenth == p->last_tenth) return 0;
    p->last_tenth = tenth;
    fprintf(p->err, "cairn sim: %d%% (%ld of %ld games, %s)", 10 * tenth, games, all, rtext);
    return 1; /* the caller may add to the line (the estimate so far), then ends it */
}

void sim_progress_stop(sim_progress *p) {
    if (!p->quiet) status_line_keep(&p->line);
}
