/*
** budget.c
** The CPU-time trigger of the instruction budget: a process-wide profiling
** timer (setitimer ITIMER_PROF, CAIRN_BUDGET_TICK_US of CPU time a tick)
** whose signal handler counts ticks and, once the watched call has used its
** ticks, sets a count hook on the thread running it. sandbox.c then stops
** the call and runs it again under the exact count.
**
** Why it is exact: a call that did not trip ran for less than limit ticks of
** CPU time, so it executed fewer than limit * tick / MIN_NS instructions,
** which budget_ticks_for keeps below half the budget; the C functions'
** charges are held below the other half (sandbox.c). So every call that
** completes here completes under counting too, with the same result, and
** every call that would pass the budget trips and is counted.
**
** The deadline (CAIRN_LUA_CALL_CPU_MS) is met by the same hook; a call stuck
** in a C function runs no instruction and makes no call, so the hook never
** runs. Past the deadline and a grace (CAIRN_LUA_HARD_STOP_GRACE_MS) the
** handler leaves the call by siglongjmp to the escape its embedder set (the
** console: the call's Lua state is abandoned and the game built again from
** its log), or, with none set, ends the process with the sandbox's
** message: no C work of a rules call outlives its deadline by more than the
** grace.
*/
#define _XOPEN_SOURCE 700
#include "budget.h"
#include "limits.h"

#include <pthread.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

/* Global mutable state, on purpose: a signal handler can reach nothing
** else, and there is one CPU timer per process. Written by the handler
** (ticks) and by the one thread that runs sandboxes (the rest). */
static volatile sig_atomic_t ticks;
static budget_watch *volatile watched;
static int armed;       /* handler and timer installed in this process */
/* The hard stop's way out (budget_set_escape), the watch it left, and a
** stop that fell inside the allocator and waits for it to return. */
static sigjmp_buf *volatile escape;
static budget_watch *volatile escaped;
volatile sig_atomic_t budget_in_alloc, budget_escape_pending;
static int atfork_set;  /* the child-side reset is registered */

/* Leaves the watched call for the escape. Never returns. */
static void leave_call(budget_watch *w) {
    sigjmp_buf *jb = escape;
    escaped = w;
    watched = NULL;
    escape = NULL; /* set again by the embedder for its next command */
    budget_escape_pending = 0;
    siglongjmp(*jb, 1);
}

void budget_alloc_leave(void) {
    budget_in_alloc = 0;
    budget_watch *w = watched;
    if (budget_escape_pending && escape && w) leave_call(w);
}

void budget_set_escape(sigjmp_buf *jb) {
    budget_escape_pending = 0;
    escape = jb;
}

budget_watch *budget_take_escaped(void) {
    budget_watch *w = escaped;
    escaped = NULL;
    return w;
}

static void on_tick(int sig) {
    (void)sig;
    ticks++;
    budget_watch *w = watched;
    if (!w) return;
    if (w->limit > 0 && !w->fired && ticks - w->start >= w->limit) {
        w->fired = 1;
        lua_State *L = w->running;
        /* lua_sethook may be called from a signal handler (lua.c does) */
        if (L) lua_sethook(L, w->hook, LUA_MASKCOUNT, 1);
    }
    if (w->deadline > 0 && !w->expired && ticks - w->start >= w->deadline) {
        w->expired = 1;
        lua_State *L = w->running;
        /* on calls too: a C loop calling C functions (table.concat as its
        ** own __index) runs no instruction */
        if (L) lua_sethook(L, w->hook, LUA_MASKCOUNT | LUA_MASKCALL, 1);
    }
    if (w->hard > 0 && w->expired && ticks - w->start >= w->hard) {
        /* the hook has had the grace and never ran: the call is stuck in C */
        if (escape) {
            if (budget_in_alloc) { /* the heap first: budget_alloc_leave jumps */
                budget_escape_pending = 1;
                return;
            }
            leave_call(w);
        }
        if (w->hard_msg && w->hard_len > 0) {
            ssize_t k = write(STDERR_FILENO, w->hard_msg, (size_t)w->hard_len);
            (void)k; /* nothing better to do if stderr is gone */
        }
        _exit(1);
    }
}

/* A forked child has no timer (POSIX): install it again on first use. */
static void child_after_fork(void) {
    armed = 0;
    watched = NULL;
    escape = NULL; /* the parent's frames are not this process's to jump to */
    budget_escape_pending = 0;
}

int budget_ticks_for(long instructions) {
    double ns = (double)instructions / 2 * CAIRN_LUA_MIN_NS_PER_INSTRUCTION;
    double n = ns / (CAIRN_BUDGET_TICK_US * 1000.0);
    /* not tripped means fewer than limit ticks passed: under limit + 1 ticks of time */
    int limit = n >= 1e6 ? 1000000 : (int)n - 1;
    return limit >= 2 ? limit : 0;
}

static int arm(void) {
    if (armed) return 0;
    if (!atfork_set) {
        if (pthread_atfork(NULL, NULL, child_after_fork) != 0) return -1;
        atfork_set = 1;
    }
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_tick;
    sa.sa_flags = SA_RESTART; /* a tick must not make a read or write fail */
    sigemptyset(&sa.sa_mask);
    if (sigaction(SIGPROF, &sa, NULL) != 0) return -1;
    struct itimerval it;
    it.it_interval.tv_sec = 0;
    it.it_interval.tv_usec = CAIRN_BUDGET_TICK_US;
    it.it_value = it.it_interval;
    if (setitimer(ITIMER_PROF, &it, NULL) != 0) return -1;
    armed = 1;
    return 0;
}

int budget_watch_start(budget_watch *w) {
    w->fired = 0;
    w->expired = 0;
    if ((w->limit <= 0 && w->deadline <= 0) || arm() != 0) return -1;
    w->start = ticks;
    watched = w;
    return 0;
}

long budget_watch_stop(budget_watch *w) {
    if (watched != w) return 0;
    watched = NULL;
    return (long)(ticks - w->start);
}

long budget_ticks_of_ms(long ms) {
    long t = ms * 1000L / CAIRN_BUDGET_TICK_US;
    return t > 0 ? t : 1;
}
