/*
** limits.h
** Every bound cairn enforces, named once. Each may be overridden at build
** time (-DCAIRN_YAML_MAX_DEPTH=128) and is documented in docs/limits.md.
*/
#ifndef CAIRN_LIMITS_H
#define CAIRN_LIMITS_H

/* Largest YAML file cairn reads. Rulesets and saves are far smaller. */
#if !defined(CAIRN_YAML_MAX_FILE_BYTES)
#define CAIRN_YAML_MAX_FILE_BYTES (8L * 1024 * 1024)
#endif

/* Deepest nesting of lists and maps in one YAML document. */
#if !defined(CAIRN_YAML_MAX_DEPTH)
#define CAIRN_YAML_MAX_DEPTH 64
#endif

/* Longest scalar (string) in bytes. */
#if !defined(CAIRN_YAML_MAX_STRING)
#define CAIRN_YAML_MAX_STRING (64L * 1024)
#endif

/* Most nodes one document may expand to, aliases included: what stops a
** "billion laughs" file long before it costs memory (~100 bytes a node). */
#if !defined(CAIRN_YAML_MAX_NODES)
#define CAIRN_YAML_MAX_NODES 250000L
#endif

/* Most errors reported for one file; the rest are counted, not listed. */
#if !defined(CAIRN_MAX_ERRORS)
#define CAIRN_MAX_ERRORS 50
#endif

/* Depth of `extends` chains between rulesets. */
#if !defined(CAIRN_MAX_EXTENDS)
#define CAIRN_MAX_EXTENDS 16
#endif

/* Memory one game's Lua state may use. */
#if !defined(CAIRN_LUA_MEMORY_CAP)
#define CAIRN_LUA_MEMORY_CAP (64L * 1024 * 1024)
#endif

/* Lua VM instructions one handler call may run (counted in steps of
** CAIRN_LUA_HOOK_STEP). No shipped rule comes within 1% of it. */
#if !defined(CAIRN_LUA_INSTRUCTION_BUDGET)
#define CAIRN_LUA_INSTRUCTION_BUDGET 200000000L
#endif

#if !defined(CAIRN_LUA_HOOK_STEP)
#define CAIRN_LUA_HOOK_STEP 1000
#endif

/* Largest script file `require` or sandbox_run_file reads. */
#if !defined(CAIRN_LUA_MAX_SOURCE_BYTES)
#define CAIRN_LUA_MAX_SOURCE_BYTES (4L * 1024 * 1024)
#endif

/* Largest chunk `load` compiles (a string, or what a reader function
** returns in all). */
#if !defined(CAIRN_LUA_MAX_LOAD_BYTES)
#define CAIRN_LUA_MAX_LOAD_BYTES (1L * 1024 * 1024)
#endif

/* Most terms in one chain of a chunk: fields and indices (`a.b.c`), `and`/
** `or` terms of one expression, `elseif` branches of one `if`. Lua 5.4.4's
** compiler is quadratic in the last two and its error messages recurse once
** per field of the first (sandbox_chunk.c). */
#if !defined(CAIRN_LUA_MAX_CHAIN)
#define CAIRN_LUA_MAX_CHAIN 1000
#endif

/* Longest pattern string.find, match, gmatch and gsub accept, in bytes.
** Their worst case is charged to the instruction budget before they run
** (docs/sandbox.md); this keeps that estimate quick to make. */
#if !defined(CAIRN_LUA_MAX_PATTERN)
#define CAIRN_LUA_MAX_PATTERN 256
#endif

/* The budget's CPU timer: a tick every this many microseconds of CPU time,
** and what no Lua VM beats: a handler call that used fewer ticks than its
** budget allows at this speed cannot have passed it (budget.c). */
#if !defined(CAIRN_BUDGET_TICK_US)
#define CAIRN_BUDGET_TICK_US 5000
#endif
#if !defined(CAIRN_LUA_MIN_NS_PER_INSTRUCTION)
#define CAIRN_LUA_MIN_NS_PER_INSTRUCTION 0.25
#endif

/* CPU time one handler call may take, counted or not, in milliseconds:
** what stops work the instruction budget cannot see (hash collisions, `==`
** of long strings, C loops). Not deterministic, so far above any real
** handler (milliseconds); the environment variable of the same name
** overrides it. */
#if !defined(CAIRN_LUA_CALL_CPU_MS)
#define CAIRN_LUA_CALL_CPU_MS 5000L
#endif

/* CPU time all handler calls of one game may take together, in ms (a long
** sim game takes well under a second); the environment overrides it too. */
#if !defined(CAIRN_LUA_GAME_CPU_MS)
#define CAIRN_LUA_GAME_CPU_MS 120000L
#endif

/* CPU time the smoke play of one `cairn check` may take, in ms: past it the
** remaining games are not played and check fails (environment overrides). */
#if !defined(CAIRN_CHECK_CPU_MS)
#define CAIRN_CHECK_CPU_MS 600000L
#endif

/* What one game keeps outside its Lua state: event texts (g.log, print)
** and checkpoints; one score's breakdown texts are held to it too. */
#if !defined(CAIRN_GAME_MEMORY_CAP)
#define CAIRN_GAME_MEMORY_CAP (256L * 1024 * 1024)
#endif

/* A checkpoint (the whole state kept as a tree) every this many decisions:
** undo, goto and taking back a failed decision replay at most this many. */
#if !defined(CAIRN_CHECKPOINT_EVERY)
#define CAIRN_CHECKPOINT_EVERY 16
#endif

/* Fast games (sim, forks) check that the state is plain data every this
** many decisions and when the game ends, instead of after each. */
#if !defined(CAIRN_FAST_CHECK_EVERY)
#define CAIRN_FAST_CHECK_EVERY 64
#endif

/* How deep schema application may nest on one instance node ($ref, allOf,
** anyOf, oneOf, not, if/then/else chains) plus instance depth. Load-time
** checks already refuse cycles; this only stops absurdly long chains. */
#if !defined(CAIRN_SCHEMA_MAX_DEPTH)
#define CAIRN_SCHEMA_MAX_DEPTH 512
#endif

/* Deepest nesting of groups `(...)` in a schema pattern; the parser and
** compiler recurse once per level. */
#if !defined(CAIRN_PATTERN_MAX_DEPTH)
#define CAIRN_PATTERN_MAX_DEPTH 32
#endif

/* Largest compiled schema pattern, in matcher steps (roughly one per
** character, class or assertion, with counted repetitions written out:
** `[0-9a-f]{64}` is 64). Matching costs the subject's length times this at
** worst, so it also bounds the time one `pattern` can take. */
#if !defined(CAIRN_PATTERN_MAX_PROGRAM)
#define CAIRN_PATTERN_MAX_PROGRAM 4000
#endif

#endif
