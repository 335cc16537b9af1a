/*
** sandbox_escape.c
** The way out of a hard stop that keeps the process: the embedder sets an
** escape (sandbox_set_escape) around a command; a rules call stuck in C past
** its deadline and grace (budget.c) is left by siglongjmp to it, and
** sandbox_escaped then names the sandbox that was left, marks it lost (its
** Lua state is never run, read for anything but where it stood, or freed
** again: Lua may have been in the middle of a rehash) and says which rule
** line called the C work that overran. The heap brackets make C code the
** rules call wait for the jump until it has left the C heap.
*/
#include "sandbox_internal.h"
#include "limits.h"

#include <stddef.h>
#include <stdio.h>

void sandbox_set_escape(sigjmp_buf *jb) { budget_set_escape(jb); }

void sandbox_heap_begin(void) { budget_in_alloc = 1; }

void sandbox_heap_end(void) {
    budget_in_alloc = 0;
    if (budget_escape_pending) budget_alloc_leave();
}

/* The rules' line the stuck call stood on: the innermost frame with a line
** (the C function itself has none). lua_getstack and lua_getinfo "Sl" read
** the call chain and the function's line table, allocate nothing, and
** never touch the tables or strings a C function may be changing. */
static void stuck_at(lua_State *L, char *file, size_t size, int *line) {
    lua_Debug ar;
    file[0] = '\0';
    *line = 0;
    for (int lv = 0; L && lv < 64 && lua_getstack(L, lv, &ar); lv++) {
        if (lua_getinfo(L, "Sl", &ar) && ar.currentline > 0 && ar.source[0] != '=') {
            sb_frame_file(&ar, file, size);
            *line = ar.currentline;
            return;
        }
    }
}

sandbox *sandbox_escaped(cerr_list *errs) {
    budget_watch *w = budget_take_escaped();
    if (!w) return NULL;
    sandbox *sb = (sandbox *)(void *)((char *)w - offsetof(sandbox, watch));
    sb->lost = 1;
    char file[SANDBOX_WHERE_MAX];
    int line;
    stuck_at(w->running, file, sizeof file, &line);
    long grace_ms = sb->hard_grace_ticks * CAIRN_BUDGET_TICK_US / 1000;
    if (errs)
        cerr_add(errs, line > 0 ? file : NULL, line, 0, NULL,
                 "stopped: this rules call ran %ld ms past its CPU time limit (%ld ms, "
                 "CAIRN_LUA_CALL_CPU_MS, or what was left of the game's) in a C function Lua "
                 "cannot interrupt (CAIRN_LUA_HARD_STOP_GRACE_MS): the call was abandoned",
                 grace_ms, sb->call_cpu_ms);
    return sb;
}
