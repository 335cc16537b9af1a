/*
** sim_cpu.c
** What each seat's bot costs in a `cairn sim` run: the CPU time of its
** decisions (choosing and applying the move), summed from the records and
** printed per decision after the time line. Like the time line it differs
** between runs, so it is kept out of the report above it and out of the
** game records of --json (which has it once, as "cpu").
*/
#include "sim_internal.h"
#include "bot.h" /* bot_workers_cpu_ns: a search's worker processes */
#include "json_string.h"

#include <time.h>

int64_t sim_cpu_now(void) {
    struct timespec ts;
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0) return 0;
    /* and the CPU of the worker processes a search ran on (--jobs 1) */
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec + bot_workers_cpu_ns();
}

static double ms_per_decision(const sim_cpu_totals *c, int i) {
    return c->asked[i] ? c->ns[i] / 1e6 / (double)c->asked[i] : 0.0;
}

void sim_cpu_line(FILE *out, const sim_cpu_totals *c, const char *const *names, int seats) {
    long any = 0;
    for (int i = 0; i < seats; i++) any += c->asked[i];
    if (!any) return;
    fputs("cpu per decision:", out);
    for (int i = 0; i < seats; i++)
        fprintf(out, "%s seat %d (%s) %.3f ms", i ? "," : "", i + 1, names[i], ms_per_decision(c, i));
    fputc('\n', out);
}

void sim_cpu_json(FILE *f, const sim_cpu_totals *c, const char *const *names, int seats) {
    fputc('[', f);
    for (int i = 0; i < seats; i++) {
        fprintf(f, "%s{\"seat\": %d, \"bot\": ", i ? ", " : "", i + 1);
        json_string_writez(f, names[i]);
        fprintf(f, ", \"decisions\": %ld, \"ms_per_decision\": %.6f}", c->asked[i], ms_per_decision(c, i));
    }
    fputc(']', f);
}
