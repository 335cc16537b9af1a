/*
** sim_lab_flags.c
** The flags of the lab's questions about skilled play (--tournament, and
** those that follow it): each is a row of sim_flags.c's table whose setter
** hands the value here, where the lab's checks live.
*/
#include "sim_internal.h"

#include <stdlib.h>
#include <string.h>

static int lab_usage(FILE *err, const char *flag, const char *what, const char *got) {
    fprintf(err, "cairn sim: %s takes %s, got \"%s\"\nusage: %s\n", flag, what, got, SIM_USAGE);
    return 2;
}

int sim_lab_flag(sim_lab_opts *l, const char *arg, const char *v, FILE *err) {
    if (!strcmp(arg, "--trajectory")) {
        char *end;
        long n = strtol(v, &end, 10);
        if (!strcmp(v, "round")) l->trajectory = -1;
        else if (*v >= '1' && *v <= '9' && !*end && n <= CAIRN_TEST_MAX_DECISIONS) l->trajectory = (int)n;
        else return lab_usage(err, arg, "round (the end of each round) or N (every N decisions, 1 to 10000)", v);
        return 0;
    }
    if (!strcmp(arg, "--until-width")) {
        char *end;
        double w = strtod(v, &end);
        if (*end || !(w > 0 && w < 1)) return lab_usage(err, arg, "a width between 0 and 1 (0.05: 5 points of win share)", v);
        l->until_width = w;
        return 0;
    }
    const char **slot = !strcmp(arg, "--tournament") ? &l->tournament
                        : !strcmp(arg, "--report")   ? &l->report
                        : !strcmp(arg, "--factorial") ? &l->factorial
                        : !strcmp(arg, "--tune")     ? &l->tune
                        : !strcmp(arg, "--target")   ? &l->target
                        : !strcmp(arg, "--skill")    ? &l->skill
                        : !strcmp(arg, "--field")    ? &l->field
                                                     : NULL;
    if (!slot) return fprintf(err, "cairn sim: unknown flag \"%s\"\nusage: %s\n", arg, SIM_USAGE), 2;
    if (slot == &l->tournament && !strchr(v, ','))
        return lab_usage(err, arg, "two bots or more (random,greedy,mcts:iterations=100)", v);
    if (slot == &l->skill && !strchr(v, ','))
        return lab_usage(err, arg, "KIND:PARAM=V1,V2,... (mcts:iterations=10,100,1000)", v);
    *slot = v;
    return 0;
}

char *sim_lab_command(int argc, char **argv) {
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f) return NULL;
    fputs("cairn", f);
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        int plain = *a != '\0';
        for (const char *p = a; *p; p++)
            plain &= (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
                     strchr("-_./:=,+@%", *p) != NULL;
        fputc(' ', f);
        if (plain) {
            fputs(a, f);
            continue;
        }
        fputc('\'', f); /* quoted for a POSIX shell: ' as '\'' */
        for (const char *p = a; *p; p++) fputs(*p == '\'' ? "'\\''" : (char[]){*p, 0}, f);
        fputc('\'', f);
    }
    return fclose(f) == 0 ? buf : (free(buf), NULL);
}

int sim_lab_check(const sim_lab_opts *l, int compare, int sweep, int shard, int bots, FILE *err) {
    if (l->field && !l->skill)
        return fprintf(err, "cairn sim: --field goes with --skill\nusage: %s\n", SIM_USAGE), 2;
    if ((l->tune != NULL) != (l->target != NULL))
        return fprintf(err, "cairn sim: --tune and --target go together\nusage: %s\n", SIM_USAGE), 2;
    if (l->tune && shard) { /* docs/simulation.md, "Many machines" */
        fprintf(err, "cairn sim: --tune cannot be split with --shard: each value it tries is chosen from the shares of "
                     "the values before it (a bisection), so no machine knows its next value until the last run is "
                     "whole. Run --tune on one machine with --jobs N, or play each value yourself with --set "
                     "PATH=VALUE --shard K/N and cairn sim merge\n");
        return 2;
    }
    if (l->until_width > 0 && shard) {
        fprintf(err, "cairn sim: --until-width cannot be split with --shard: it stops at the first game count, in game "
                     "order, at which every interval is narrow enough, which no slice can see alone. Run it on one "
                     "machine with --jobs N, or shard a run of a fixed --games and merge them\n");
        return 2;
    }
    if (l->tune && (compare || sweep || l->tournament || l->skill || l->until_width > 0 || l->factorial)) {
        fprintf(err, "cairn sim: --tune plays its own runs: not with --compare, --sweep, --tournament, --skill, "
                     "--until-width or --factorial\nusage: %s\n", SIM_USAGE);
        return 2;
    }
    if (l->factorial && (compare || sweep || l->tournament || l->skill || l->until_width > 0)) {
        fprintf(err, "cairn sim: --factorial plays its own combinations: not with --compare, --sweep, "
                     "--tournament, --skill or --until-width\nusage: %s\n", SIM_USAGE);
        return 2;
    }
    if (l->until_width > 0 && (compare || sweep || l->tournament || l->skill)) {
        fprintf(err, "cairn sim: --until-width stops a run of one variant: not with --compare, --sweep, "
                     "--tournament or --skill\nusage: %s\n", SIM_USAGE);
        return 2;
    }
    if (!l->tournament && !l->skill) return 0;
    const char *flag = l->tournament ? "--tournament" : "--skill";
    const char *other = l->tournament && l->skill ? "--skill"
                        : compare                 ? "--compare"
                        : sweep                   ? "--sweep"
                        : bots                    ? "--bots"
                                                  : NULL;
    if (!other) return 0;
    fprintf(err, "cairn sim: %s seats its own bots and plays one run: not with %s\nusage: %s\n", flag, other,
            SIM_USAGE);
    return 2;
}
