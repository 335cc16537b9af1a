/*
** limits_env.h
** A bound of limits.h as the environment overrides it: the CPU-time limits
** (CAIRN_LUA_CALL_CPU_MS, CAIRN_LUA_GAME_CPU_MS, CAIRN_CHECK_CPU_MS) and the
** state's node bound (CAIRN_STATE_MAX_NODES) may be
** raised or lowered by whoever runs cairn (tests, sanitizer builds, long
** simulations), never by a ruleset. docs/limits.md.
*/
#ifndef CAIRN_LIMITS_ENV_H
#define CAIRN_LIMITS_ENV_H

/* The environment variable `name` read as a positive number of
** milliseconds; dflt when it is unset, empty, not a whole number or not
** above 0. */
long limits_env_ms(const char *name, long dflt);
/* The same for a count (CAIRN_STATE_MAX_NODES): a whole number above 0. */
long limits_env_count(const char *name, long dflt);

#endif
