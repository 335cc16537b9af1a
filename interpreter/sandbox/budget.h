/*
** budget.h
** The instruction budget's CPU-time trigger. Counting instructions with a
** Lua hook slows every instruction (Lua traps each one while a count hook
** is set); instead a handler call runs with no hook under a CPU-time
** watch, and only a call that runs long enough to have possibly passed its
** budget is stopped and run again with the exact count (sandbox.c), so the
** verdict is the same as with counting from the start.
*/
#ifndef CAIRN_BUDGET_H
#define CAIRN_BUDGET_H

#include <setjmp.h>
#include <signal.h>

#include <lua.h>

/* One watched call. `running` is the thread running Lua now (a coroutine
** while one is resumed); the signal handler sets `hook` on it when the call
** has used `limit` ticks of CPU time, and raises `fired`. */
typedef struct budget_watch {
    lua_State *volatile running;
    lua_Hook hook;
    volatile sig_atomic_t start, limit;
    volatile sig_atomic_t fired;
    /* The hard limit, counted or not: after `deadline` ticks (0: none) the
    ** handler sets `expired` and a hook on calls and instructions, which
    ** ends the call (CAIRN_LUA_CALL_CPU_MS, the game's CPU total). */
    volatile sig_atomic_t deadline;
    volatile sig_atomic_t expired;
    /* The hard stop (0: none): after `hard` ticks the call is still in C
    ** code no hook reaches (a sort comparing long strings, a rehash of keys
    ** that collide). With an escape set (budget_set_escape) the handler
    ** leaves the call by siglongjmp to it, and the call's Lua state is
    ** never touched again; without one it writes hard_msg (hard_len bytes)
    ** to stderr and ends the process with status 1 (_exit: nothing else is
    ** safe while Lua is in the middle of a C function). */
    volatile sig_atomic_t hard;
    const char *volatile hard_msg;
    volatile sig_atomic_t hard_len;
} budget_watch;

/* How many CPU ticks a call may use before it is run again with counting,
** for a budget of `instructions`: what the fastest Lua could not pass in
** that time, with CAIRN_LUA_MIN_NS_PER_INSTRUCTION. 0 when that is less
** than two ticks: such small budgets are always counted. */
int budget_ticks_for(long instructions);

/* Starts watching w (one call at a time in a process): its retry trigger
** `limit` (0: none, the call is counted) and its `deadline` (0: none).
** Installs the SIGPROF handler and the CPU timer on first use (and again
** in a forked child). Returns 0, or -1 when no timer could be had. */
int budget_watch_start(budget_watch *w);

/* Stops watching. Returns the ticks the call used. Never fails. */
long budget_watch_stop(budget_watch *w);

/* Where a hard stop goes: jb (set by sigsetjmp(*jb, 1) in a frame that is
** still live whenever a watched call runs), or NULL: the process ends. The
** embedder that sets it (the console, around each command) owns every
** engine and sandbox the command touches: after the jump it must never run
** or free them (their Lua state may be in the middle of a C function),
** only keep them and build the game again. Not in a forked child. */
void budget_set_escape(sigjmp_buf *jb);
/* After a jump to the escape: the watch of the call that was left (its
** `running` thread is the abandoned state's), or NULL. Clears it. */
budget_watch *budget_take_escaped(void);

/* The capped allocator's brackets (sandbox.c): a hard stop that falls
** inside malloc, realloc or free cannot leave there (the heap would be
** left half-changed), so the handler only marks it; budget_alloc_leave
** jumps once the allocator is done. */
extern volatile sig_atomic_t budget_in_alloc, budget_escape_pending;
void budget_alloc_leave(void);

/* Ticks for a CPU time in milliseconds (at least 1). */
long budget_ticks_of_ms(long ms);

#endif
