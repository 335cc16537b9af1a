/*
** cpus.h
** How many CPUs this process may use: its affinity mask capped by its
** cgroup CPU quota (v2's cpu.max, or v1's cpu.cfs_quota_us). `cairn sim`'s default --jobs and the number of
** processes a bot's search runs on (docs/bots.md).
*/
#ifndef CAIRN_CPUS_H
#define CAIRN_CPUS_H

/* The CPUs of this process's affinity mask, capped by its cgroup CPU quota
** (v2's cpu.max or v1's cfs quota, rounded up), 1 to 256. */
int cpus_usable(void);

/* The cap itself: cpus lowered to the quota of the cgroup named in
** proc_cgroup (/proc/self/cgroup) and of each cgroup above it, read under
** cgroup_root (/sys/fs/cgroup; v1's cpu controller under its cpu,cpuacct or
** cpu folder there); cpus when there is no limit. For tests. */
int cpus_limit(const char *proc_cgroup, const char *cgroup_root, int cpus);

#endif
