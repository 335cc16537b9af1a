/*
** cpus.c
** How many CPUs this process may use (`cairn sim`'s default --jobs, the
** processes of a bot's search): the CPUs of its affinity mask (taskset, a
** Slurm task's cpuset, a container's cpuset), capped by its cgroup CPU quota,
** rounded up: cgroup v2's cpu.max (a Kubernetes CPU limit, a Slurm task under
** cgroup v2, docker --cpus) or, on a machine with cgroup v1, the cpu
** controller's cpu.cfs_quota_us over cpu.cfs_period_us (docker --cpus there,
** a Kubernetes limit on an older node).
*/
#define _GNU_SOURCE /* sched_getaffinity, CPU_COUNT */
#include "cpus.h"

#include <sched.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* Whether the comma-separated controller list of a /proc/self/cgroup line
** ("cpu,cpuacct") names the cpu controller. */
static int names_cpu(const char *list, size_t len) {
    while (len > 0) {
        size_t n = 0;
        while (n < len && list[n] != ',') n++;
        if (n == 3 && strncmp(list, "cpu", 3) == 0) return 1;
        list += n;
        len -= n;
        if (len > 0) { list++; len--; }
    }
    return 0;
}

/* This process's cgroup from /proc/self/cgroup into path: v2's "0::PATH"
** line, or with v1 the "N:cpu,cpuacct:PATH" line of the cpu controller.
** 0, or -1 when there is none. */
static int own_cgroup(const char *proc_cgroup, int v1, char *path, size_t size) {
    FILE *f = fopen(proc_cgroup, "r");
    if (!f) return -1;
    char line[4096];
    int found = -1;
    while (found && fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = '\0';
        char *a = strchr(line, ':'), *b = a ? strchr(a + 1, ':') : NULL;
        if (!b) continue;
        int match = v1 ? (b > a + 1 && names_cpu(a + 1, (size_t)(b - a - 1))) : (strncmp(line, "0::", 3) == 0);
        if (match && snprintf(path, size, "%s", b + 1) < (int)size) found = 0;
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

/* The v1 quota of the cgroup folder dir (cpu.cfs_quota_us, -1 when none, over
** cpu.cfs_period_us) in CPUs rounded up; 0 when there is no limit or no file. */
static int cfs_quota(const char *dir) {
    char file[4300];
    long quota = 0, period = 0;
    if (snprintf(file, sizeof file, "%s/cpu.cfs_quota_us", dir) >= (int)sizeof file) return 0;
    FILE *f = fopen(file, "r");
    if (!f) return 0;
    int n = fscanf(f, "%ld", &quota);
    fclose(f);
    if (n != 1 || quota <= 0) return 0;
    if (snprintf(file, sizeof file, "%s/cpu.cfs_period_us", dir) >= (int)sizeof file) return 0;
    f = fopen(file, "r");
    if (!f) return 0;
    n = fscanf(f, "%ld", &period);
    fclose(f);
    if (n != 1 || period <= 0) return 0;
    return (int)((quota + period - 1) / period);
}

/* cpus capped by the limit of the cgroup path (under root, the hierarchy's
** mount) and of each one above it: the lowest binds. A container sees its own
** cgroup as the mount's root while /proc names the host's path: the walk up
** reaches it there. */
static int walk_limits(const char *root, const char *own, int v1, int cpus) {
    char path[4096], dir[4200];
    if (snprintf(path, sizeof path, "%s", own) >= (int)sizeof path) return cpus;
    for (;;) {
        if (snprintf(dir, sizeof dir, "%s%s", root, strcmp(path, "/") ? path : "") < (int)sizeof dir) {
            int q;
            if (v1) {
                q = cfs_quota(dir);
            } else {
                char file[4300];
                q = snprintf(file, sizeof file, "%s/cpu.max", dir) < (int)sizeof file ? cpu_max(file) : 0;
            }
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

int cpus_limit(const char *proc_cgroup, const char *cgroup_root, int cpus) {
    char path[4096], root[4200];
    if (cpus < 1) cpus = 1;
    if (own_cgroup(proc_cgroup, 0, path, sizeof path) == 0)
        cpus = walk_limits(cgroup_root, path, 0, cpus);
    /* cgroup v1: the cpu controller's hierarchy, mounted as cpu,cpuacct or cpu */
    if (own_cgroup(proc_cgroup, 1, path, sizeof path) == 0) {
        static const char *const mounts[] = {"cpu,cpuacct", "cpu"};
        for (size_t i = 0; i < sizeof mounts / sizeof mounts[0]; i++)
            if (snprintf(root, sizeof root, "%s/%s", cgroup_root, mounts[i]) < (int)sizeof root)
                cpus = walk_limits(root, path, 1, cpus);
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
