/*
** cpus.c
** How many CPUs this process may use (`cairn sim`'s default --jobs, the
** processes of a bot's search): the
** CPUs of its affinity mask (taskset, a Slurm task's cpuset, a container's
** cpuset), capped by its cgroup v2 CPU quota (cpu.max: a Kubernetes CPU
** limit, a Slurm task under cgroup v2, docker --cpus), rounded up.
*/
#define _GNU_SOURCE /* sched_getaffinity, CPU_COUNT */
#include "cpus.h"

#include <sched.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* The unified (v2) cgroup of this process from /proc/self/cgroup's "0::PATH"
** line, into path. 0, or -1 when there is none (cgroup v1 only). */
static int unified_cgroup(const char *proc_cgroup, char *path, size_t size) {
    FILE *f = fopen(proc_cgroup, "r");
    if (!f) return -1;
    char line[4096];
    int found = -1;
    while (found && fgets(line, sizeof line, f)) {
        if (strncmp(line, "0::", 3) != 0) continue;
        line[strcspn(line, "\n")] = '\0';
        if (snprintf(path, size, "%s", line + 3) < (int)size) found = 0;
    }
    fclose(f);
    return found;
}

/* The quota of one cgroup's cpu.max ("QUOTA PERIOD", or "max PERIOD") in
** CPUs rounded up; 0 when there is no limit or no file. */
static int cpu_max(const char *file) {
    FILE *f = fopen(file, "r");
    if (!f) return 0;
    char quota[32];
    long period = 0;
    int n = fscanf(f, "%31s %ld", quota, &period);
    fclose(f);
    if (n != 2 || period <= 0 || strcmp(quota, "max") == 0) return 0;
    char *end;
    long q = strtol(quota, &end, 10);
    if (*end || q <= 0) return 0;
    return (int)((q + period - 1) / period);
}

int cpus_limit(const char *proc_cgroup, const char *cgroup_root, int cpus) {
    char path[4096], file[4200];
    if (cpus < 1) cpus = 1;
    if (unified_cgroup(proc_cgroup, path, sizeof path) != 0) return cpus;
    /* the limit of the cgroup and of each one above it: the lowest binds */
    for (;;) {
        if (snprintf(file, sizeof file, "%s%s/cpu.max", cgroup_root, strcmp(path, "/") ? path : "") < (int)sizeof file) {
            int q = cpu_max(file);
            if (q > 0 && q < cpus) cpus = q;
        }
        char *slash = strrchr(path, '/');
        if (!slash || slash == path) {
            if (strcmp(path, "/") == 0 || !slash) break;
            strcpy(path, "/");
            continue;
        }
        *slash = '\0';
    }
    return cpus;
}

int cpus_usable(void) {
    int cpus = 0;
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0) cpus = CPU_COUNT(&set);
    if (cpus < 1) {
        long online = sysconf(_SC_NPROCESSORS_ONLN);
        cpus = online > 0 ? (int)online : 1;
    }
    cpus = cpus_limit("/proc/self/cgroup", "/sys/fs/cgroup", cpus);
    return cpus > 256 ? 256 : cpus;
}
