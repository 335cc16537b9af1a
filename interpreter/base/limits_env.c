/*
** limits_env.c
** The environment's overrides of the CPU-time limits (limits_env.h): one
** reader for the sandbox's per-call and per-game limits, cairn check's and
** the state's node bound.
*/
#include "limits_env.h"

#include <stdlib.h>

long limits_env_ms(const char *name, long dflt) {
    const char *v = getenv(name);
    if (!v || !*v) return dflt;
    char *end;
    long n = strtol(v, &end, 10);
    return *end || n <= 0 ? dflt : n;
}

long limits_env_count(const char *name, long dflt) { return limits_env_ms(name, dflt); }
