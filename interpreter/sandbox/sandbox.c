/*
** sandbox.c
** The Lua sandbox: which globals a ruleset sees, the instruction budget and
** the memory cap. Everything a script can reach starts from the allow-lists below.
**
** Outline: allow-lists -> capped allocator -> budget hook and trips ->
** building the environment -> public API. Where errors happened (the
** traceback) is sandbox_trace.c; the functions that catch errors (pcall,
** coroutines, load), made unable to swallow a trip, sandbox_catch.c; the
** replaced library functions (printing without addresses, work charged by
** its size) sandbox_lib.c; require sandbox_require.c; deterministic
** pairs/next, read-only tables and the table library sandbox_tables.c;
** string matching sandbox_pattern.c; the loaded rules kept from one game to
** the next and put back, sandbox_keep.c.
*/
/* realpath is XSI: confining require to its folders needs it */
#if !defined(_XOPEN_SOURCE)
#define _XOPEN_SOURCE 700
#endif

#include "sandbox_internal.h"
#include "limits_env.h"
#include "guard.h"
#include "limits.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <lauxlib.h>
#include <lualib.h>


/* ------------------------------------------------------------------------
** The allow-lists. A script's global environment is built from these and
** nothing else; the functions marked "sandbox version" are defined below.
** ------------------------------------------------------------------------ */

/* Base functions taken as they are. */
static const char *const base_allowed[] = {
    "assert", "error", "getmetatable", "ipairs", "rawequal", "select",
    "tonumber", "type", "_VERSION", NULL};
/* Base functions replaced by sandbox versions: see base_replaced[] below
** (pairs next tostring print pcall xpcall load require rawget rawset rawlen
** setmetatable).
**
** Removed on purpose:
**   dofile, loadfile  read the file system (use require)
**   collectgarbage    controls the collector; its "count" differs between runs
**   warn              writes to the process's stderr
** Libraries never opened: io, os, debug, package (so no C modules, no
** package.loadlib, no debug.sethook to lift the budget). */

static const char *const string_allowed[] = {
    "byte", "char", "len", "lower", "pack", "packsize", "reverse", "sub",
    "unpack", "upper", NULL};
/* Replaced: format (no %p; tables print without their address), rep (size
** checked before allocating), find, match, gmatch, gsub (the matcher
** backtracks in C, unseen by the hook: their worst case is charged before
** they run, and patterns are at most CAIRN_LUA_MAX_PATTERN bytes).
** Removed: dump (bytecode). */

static const char *const table_allowed[] = {"concat", "pack", "unpack", NULL};
/* Replaced: sort (stable merge sort: Lua's quicksort picks a pivot from the
** clock on large inputs, so ties came out in a different order per run),
** insert, remove, move (their C loops are charged to the budget). */

static const char *const math_allowed[] = {
    "abs", "acos", "asin", "atan", "ceil", "cos", "exp", "floor", "fmod",
    "huge", "log", "max", "maxinteger", "min", "mininteger", "modf", "pi",
    "sin", "sqrt", "tan", "tointeger", "type", "ult", NULL};
/* Removed: random, randomseed (chance comes only from the engine's RNG). */

static const char *const utf8_allowed[] = {
    "char", "charpattern", "codepoint", "codes", "len", "offset", NULL};

static const char *const coroutine_allowed[] = {
    "isyieldable", "running", "status", "yield", NULL};
/* Replaced: create, resume, wrap (hooked threads; a trip inside cannot be
** caught). Removed: close (runs __close handlers outside those wrappers). */

/* Registry keys: addresses no script can name. LIB, LOADED, LOADING, GUARD
** and CHUNKS are shared with sandbox_require.c (sandbox_internal.h). */
const char sandbox_lib_key = 'l', sandbox_loaded_key = 'm', sandbox_loading_key = 'i',
           sandbox_guard_key = 'g', sandbox_chunks_key = 'c', sandbox_found_key = 'f';
static const char ENVMT_KEY = 'v'; /* the environment's metatable, for sandbox_reset */

/* ------------------------------------------------------------ allocator */

/* Records the line of the Lua code whose allocation the cap refused: Lua
** unwinds a memory error without a message handler, so this is the only
** moment it is known. (The hook used to fire at every instruction past
** half the cap to know it, which made such a game 17 times slower.) Only
** lua_getstack and lua_getinfo "Sl", which allocate nothing; the VM saves
** its pc before every instruction that may allocate. */
static void refused_at(sandbox *sb) {
    lua_State *L = sb->running;
    if (!L || sb->mem_line > 0) return; /* the first refusal of the call is the one */
    lua_Debug ar;
    for (int lv = 0; lv < 8 && lua_getstack(L, lv, &ar); lv++) {
        if (lua_getinfo(L, "Sl", &ar) && ar.currentline > 0) {
            sb_frame_file(&ar, sb->mem_file, sizeof sb->mem_file);
            sb->mem_line = ar.currentline;
            return;
        }
    }
}

/* The capped allocator. Growth past the cap is refused, which Lua turns into
** a "not enough memory" error after one emergency collection. Shrinking
** never fails (Lua assumes it cannot). Blocks of up to SB_BLOCK_SMALL bytes
** come from and go back to the kept blocks (sandbox_blocks.c). */
static void *sb_realloc(sandbox *sb, void *ptr, size_t osize, size_t nsize) {
    if (nsize > SB_BLOCK_SMALL) {
        if (!ptr || osize > SB_BLOCK_SMALL) return realloc(ptr, nsize);
        void *p = malloc(nsize); /* a small block grows past the classes */
        if (p) {
            memcpy(p, ptr, osize);
            sb_block_give(&sb->blocks, ptr, osize);
        }
        return p;
    }
    if (ptr && osize <= SB_BLOCK_SMALL && sb_block_same_class(osize, nsize)) return ptr;
    void *p = sb_block_take(&sb->blocks, nsize);
    if (p && ptr) {
        memcpy(p, ptr, osize < nsize ? osize : nsize);
        if (osize <= SB_BLOCK_SMALL) sb_block_give(&sb->blocks, ptr, osize);
        else free(ptr);
    }
    return p;
}

static void *sb_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
    sandbox *sb = ud;
    if (!ptr) osize = 0; /* osize is then a type tag */
    if (nsize == 0) {
        budget_in_alloc = 1; /* a hard stop waits for the heap (budget.h) */
        if (ptr && osize <= SB_BLOCK_SMALL) sb_block_give(&sb->blocks, ptr, osize);
        else free(ptr);
        budget_in_alloc = 0;
        sb->mem_used -= osize;
        if (budget_escape_pending) budget_alloc_leave();
        return NULL;
    }
    if (nsize > osize && nsize - osize > sb->mem_cap - sb->mem_used) {
        sb->mem_refusals++;
        refused_at(sb);
        return NULL;
    }
    budget_in_alloc = 1;
    void *p = sb_realloc(sb, ptr, osize, nsize);
    budget_in_alloc = 0;
    if (budget_escape_pending) {
        sb->unclaimed = p; /* kept where the abandoned state is kept */
        budget_alloc_leave();
    }
    if (!p) return nsize <= osize ? ptr : NULL;
    sb->mem_used = sb->mem_used - osize + nsize;
    return p;
}

/* "64 MiB", "1536 KiB" or "100000 bytes": the cap as a person sets it. */
static void cap_text(size_t cap, char *out, size_t size) {
    if (cap % (1024 * 1024) == 0)
        snprintf(out, size, "%zu MiB", cap / (1024 * 1024));
    else if (cap % 1024 == 0)
        snprintf(out, size, "%zu KiB", cap / 1024);
    else
        snprintf(out, size, "%zu bytes", cap);
}

/* --------------------------------------------------- budget and trips */

/* Raises the error of the current trip. Never returns. */
int sb_raise_tripped(lua_State *L) {
    sandbox *sb = SB(L);
    if (sb->tripped == TRIP_BUDGET) {
        lua_pushfstring(L, "instruction budget of %I exceeded", (lua_Integer)sb->budget);
    } else if (sb->tripped == TRIP_RETRY) {
        lua_pushliteral(L, "long call: to be run again with the budget counted");
    } else if (sb->tripped == TRIP_CPU) {
        lua_pushfstring(L, SANDBOX_CPU_LIMIT_PHRASE " %I ms for one handler call exceeded",
                        (lua_Integer)sb->call_cpu_ms);
    } else if (sb->tripped == TRIP_GAME_CPU) {
        lua_pushfstring(L, "the game's " SANDBOX_CPU_LIMIT_PHRASE " %I ms exceeded", (lua_Integer)sb->game_cpu_ms);
    } else {
        char cap[64];
        cap_text(sb->mem_cap, cap, sizeof cap);
        lua_pushfstring(L, "memory cap of %s exceeded", cap);
    }
    return lua_error(L);
}

/* Starts a trip (first one wins: it records location and traceback from
** level) and makes the hook of L fire before every instruction, so that
** whatever catches the error is interrupted at once (as Redis does). */
void sb_trip(lua_State *L, int kind, int level) {
    sandbox *sb = SB(L);
    if (!sb->tripped) {
        sb->tripped = kind;
        sb_capture(sb, L, level, NULL);
        if (kind == TRIP_MEMORY && sb->mem_line > 0) {
            /* the instruction that allocated, not the pcall that caught it */
            memcpy(sb->err_file, sb->mem_file, sizeof sb->err_file);
            sb->err_line = sb->mem_line;
            sb->err_found = 1;
        }
    }
    lua_sethook(L, sb_hook, LUA_MASKCOUNT, 1);
}

/* The count hook, every CAIRN_LUA_HOOK_STEP instructions of each thread
** (every instruction after a trip or once the CPU timer fired). */
void sb_hook(lua_State *L, lua_Debug *ar) {
    sandbox *sb = SB(L);
    int step = lua_gethookcount(L);
    if (sb->tripped) {
        lua_sethook(L, sb_hook, LUA_MASKCOUNT, 1);
        sb_raise_tripped(L);
    }
    if (sb->watch.expired) { /* the CPU deadline, counted or not: not deterministic, final */
        sb_trip(L, sb->game_limit_hit ? TRIP_GAME_CPU : TRIP_CPU, 0);
        sb_raise_tripped(L);
    }
    if (sb->timed) { /* no counting: the CPU timer fired */
        if (sb->watch.fired) {
            sb_trip(L, TRIP_RETRY, 0);
            sb_raise_tripped(L);
        }
        if (lua_getinfo(L, "Sl", ar) && ar->currentline > 0) {
            sb_frame_file(ar, sb->last_file, sizeof sb->last_file);
            sb->last_line = ar->currentline;
        }
        return;
    }
    if (step != CAIRN_LUA_HOOK_STEP) /* left at 1 by an earlier call */
        lua_sethook(L, sb_hook, LUA_MASKCOUNT, CAIRN_LUA_HOOK_STEP);
    sb->count += step;
    if (sb->count > sb->budget) {
        sb_trip(L, TRIP_BUDGET, 0);
        sb_raise_tripped(L);
    }
    if (lua_getinfo(L, "Sl", ar) && ar->currentline > 0) {
        /* copied every time: a collected chunk's name may be reused by another */
        sb_frame_file(ar, sb->last_file, sizeof sb->last_file);
        sb->last_line = ar->currentline;
    }
}

/* Charges n instructions for work a C function does in a loop the hook
** cannot see (table.move, sorting, pairs). Raises the budget error when the
** budget runs out. */
/* What the charges may reach: the budget, or half of it in a timed call
** (the other half is for the instructions the timer bounds; budget.c). */
static long charge_cap(const sandbox *sb) { return sb->timed ? sb->budget / 2 : sb->budget; }

void sb_charge(lua_State *L, lua_Integer n) {
    sandbox *sb = SB(L);
    if (n <= 0) return;
    if (sb->tripped || n > (lua_Integer)(charge_cap(sb) - sb->count)) {
        if (sb->timed && !sb->tripped) { /* only counting can say where it runs out */
            sb_trip(L, TRIP_RETRY, 1);
            sb_raise_tripped(L);
        }
        sb->count = sb->budget + 1;
        sb_trip(L, TRIP_BUDGET, 1);
        sb_raise_tripped(L);
    }
    sb->count += (long)n;
}

/* Whether n more instructions fit in what is left of the budget. */
int sb_fits(lua_State *L, lua_Integer n) {
    sandbox *sb = SB(L);
    return !sb->tripped && n <= (lua_Integer)(charge_cap(sb) - sb->count);
}

/* Raises the budget error, as sb_charge would, unless n instructions fit in
** what is left of the budget. Charges nothing. */
void sb_afford(lua_State *L, lua_Integer n) {
    if (!sb_fits(L, n)) sb_charge(L, n);
}

/* Called by everything that catches errors (pcall, xpcall, resume, load)
** with the status it caught: a memory error or a trip is raised again, so
** no script can swallow it. */
void sb_no_swallow(lua_State *L, int status) {
    sandbox *sb = SB(L);
    if (status == LUA_ERRMEM && !sb->tripped) sb_trip(L, TRIP_MEMORY, 1);
    if (sb->tripped) sb_raise_tripped(L);
}

/* --------------------------------------------------- the environment */

static const luaL_Reg base_replaced[] = {
    {"pairs", sb_pairs},       {"next", sb_next},     {"tostring", sb_tostring},
    {"print", sb_print},       {"pcall", sb_pcall},   {"xpcall", sb_xpcall},
    {"load", sb_load},         {"require", sb_require}, {"rawget", sb_rawget},
    {"rawset", sb_rawset},     {"rawlen", sb_rawlen}, {NULL, NULL}};

static const luaL_Reg coroutine_replaced[] = {
    {"create", sb_cocreate}, {"resume", sb_coresume}, {"wrap", sb_cowrap}, {NULL, NULL}};

static const luaL_Reg table_replaced[] = {
    {"sort", sb_tsort}, {"insert", sb_tinsert}, {"remove", sb_tremove}, {NULL, NULL}};

/* Copies the allowed fields of the table at from into the table on top. */
static void copy_allowed(lua_State *L, int from, const char *const *names) {
    for (int i = 0; names[i]; i++) {
        lua_getfield(L, from, names[i]);
        lua_setfield(L, -2, names[i]);
    }
}

/* Sets field name of the table on top to a closure of f over the field of
** the same name in the table at from (the original it wraps). */
static void wrap_original(lua_State *L, int from, const char *name, lua_CFunction f) {
    lua_getfield(L, from, name);
    lua_pushcclosure(L, f, 1);
    lua_setfield(L, -2, name);
}

/* Opens library openf, pushes a new table holding only the allowed names of
** it, and leaves the original just below it (for wrap_original). */
static void open_allowed(lua_State *L, const char *name, lua_CFunction openf,
                         const char *const *allowed) {
    luaL_requiref(L, name, openf, 0);
    lua_newtable(L);
    copy_allowed(L, -2, allowed);
}

/* Freezes the library table on top, stores it in LIB (at lib) under name
** and pops it and the original below it. */
static void store_library(lua_State *L, int lib, const char *name) {
    lua_newtable(L); /* memo */
    lua_pushstring(L, name);
    sb_freeze_rec(L, lua_gettop(L) - 2, lua_gettop(L), lua_gettop(L) - 1, 0);
    lua_setfield(L, lib, name);
    lua_pop(L, 4);
}

/* Builds the environment. Runs protected, on an empty stack. */
static int sb_setup(lua_State *L) {
    lua_newtable(L); /* 2: LIB */
    int lib = lua_gettop(L);
    lua_pushvalue(L, lib);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &LIB_KEY);

    luaL_requiref(L, "_G", luaopen_base, 0); /* the original globals */
    int g = lua_gettop(L);
    for (int i = 0; base_allowed[i]; i++) {
        lua_getfield(L, g, base_allowed[i]);
        lua_setfield(L, lib, base_allowed[i]);
    }
    lua_pushvalue(L, lib);
    luaL_setfuncs(L, base_replaced, 0);
    lua_getfield(L, g, "setmetatable");
    lua_pushcclosure(L, sb_setmetatable, 1);
    lua_setfield(L, lib, "setmetatable");
    lua_settop(L, lib);

    open_allowed(L, LUA_STRLIBNAME, luaopen_string, string_allowed);
    wrap_original(L, -2, "format", sb_format);
    wrap_original(L, -2, "rep", sb_srep);
    wrap_original(L, -2, "gsub", sb_sgsub);
    wrap_original(L, -2, "find", sb_sfind);
    static const char *const by_bytes[] = {"upper", "lower", "reverse", "byte", "sub", NULL};
    for (int i = 0; by_bytes[i]; i++) wrap_original(L, -2, by_bytes[i], sb_bytes_charged);
    lua_getfield(L, -2, "find"); /* match and gmatch search with find */
    lua_pushvalue(L, -1);
    lua_pushcclosure(L, sb_smatch, 1);
    lua_setfield(L, -3, "match");
    lua_pushcclosure(L, sb_gmatch, 1);
    lua_setfield(L, -2, "gmatch");
    store_library(L, lib, LUA_STRLIBNAME);
    /* strings index the frozen library; getmetatable("") gives false */
    lua_pushliteral(L, "");
    lua_getmetatable(L, -1);
    lua_getfield(L, lib, LUA_STRLIBNAME);
    lua_setfield(L, -2, "__index");
    lua_pushboolean(L, 0);
    lua_setfield(L, -2, "__metatable");
    lua_settop(L, lib);

    open_allowed(L, LUA_TABLIBNAME, luaopen_table, table_allowed);
    luaL_setfuncs(L, table_replaced, 0);
    wrap_original(L, -2, "move", sb_tmove);
    wrap_original(L, -2, "concat", sb_tconcat);
    wrap_original(L, -2, "unpack", sb_tunpack);
    store_library(L, lib, LUA_TABLIBNAME);

    open_allowed(L, LUA_MATHLIBNAME, luaopen_math, math_allowed);
    store_library(L, lib, LUA_MATHLIBNAME);

    open_allowed(L, LUA_UTF8LIBNAME, luaopen_utf8, utf8_allowed);
    wrap_original(L, -2, "len", sb_bytes_charged);
    wrap_original(L, -2, "codepoint", sb_bytes_charged);
    store_library(L, lib, LUA_UTF8LIBNAME);

    open_allowed(L, LUA_COLIBNAME, luaopen_coroutine, coroutine_allowed);
    luaL_setfuncs(L, coroutine_replaced, 0);
    store_library(L, lib, LUA_COLIBNAME);

    /* `#` (sandbox_len.c): a library entry, so no script can assign the global */
    lua_pushcfunction(L, sb_len_checked);
    lua_setfield(L, lib, SB_LEN_NAME);

    /* require's close guard */
    lua_newtable(L);
    lua_pushcfunction(L, sb_clear_loading);
    lua_setfield(L, -2, "__close");
    lua_rawsetp(L, LUA_REGISTRYINDEX, &GUARD_KEY);

    /* the environment: script globals live in it, library entries are read
    ** through __index and cannot be replaced */
    lua_newtable(L);
    int env = lua_gettop(L);
    lua_createtable(L, 0, 4);
    lua_pushvalue(L, lib);
    lua_setfield(L, -2, "__index");
    lua_pushvalue(L, lib);
    lua_pushcclosure(L, sb_env_newindex, 1);
    lua_setfield(L, -2, "__newindex");
    lua_pushboolean(L, 0);
    lua_setfield(L, -2, "__metatable");
    lua_pushboolean(L, 1);
    lua_rawsetp(L, -2, &ENV_KEY);
    lua_pushvalue(L, -1);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &ENVMT_KEY);
    lua_setmetatable(L, env);
    lua_pushvalue(L, env);
    lua_setfield(L, lib, "_G");
    /* every chunk loaded from now on gets env as its _ENV */
    lua_pushvalue(L, env);
    lua_rawseti(L, LUA_REGISTRYINDEX, LUA_RIDX_GLOBALS);
    return 0;
}

/* ------------------------------------------------------------ public API */

void sandbox_default_config(sandbox_config *c) {
    memset(c, 0, sizeof *c);
    c->mem_cap = (size_t)CAIRN_LUA_MEMORY_CAP;
    c->instr_budget = CAIRN_LUA_INSTRUCTION_BUDGET;
}

static int add_dir(sandbox *sb, const char *dir) {
    sb->dirs[sb->n_dirs] = cairn_strdup(dir);
    if (!sb->dirs[sb->n_dirs]) return -1;
    sb->canon[sb->n_dirs] = realpath(dir, NULL); /* NULL: missing, searched as empty */
    sb->n_dirs++;
    return 0;
}

sandbox *sandbox_new(const sandbox_config *c, cerr_list *errs) {
    sandbox_config def;
    if (!c) {
        sandbox_default_config(&def);
        c = &def;
    }
    if (c->mem_cap == 0 || c->instr_budget <= 0) {
        if (errs)
            cerr_add(errs, NULL, 0, 0, NULL,
                     "sandbox: the memory cap and the instruction budget must be positive");
        return NULL;
    }
    sandbox *sb = calloc(1, sizeof *sb);
    size_t nd = c->n_module_dirs + (c->stdlib_dir ? 1 : 0);
    if (!sb || !(sb->dirs = calloc(nd + 1, sizeof *sb->dirs)) ||
        !(sb->canon = calloc(nd + 1, sizeof *sb->canon)))
        goto oom;
    sb->mem_cap = c->mem_cap;
    /* the count may pass the budget by a step and charges: keep it far from overflow */
    sb->budget = c->instr_budget < LONG_MAX / 2 ? c->instr_budget : LONG_MAX / 2;
    sb->no_budget = c->no_budget;
    sb->strict_len = c->strict_len;
    sb->track_reads = c->track_reads;
    sb->tick_limit = budget_ticks_for(sb->budget);
    sb->stop_timed_every = limits_env_count("CAIRN_TEST_STOP_TIMED_EVERY", 0);
    sb->call_cpu_ms = limits_env_ms("CAIRN_LUA_CALL_CPU_MS", CAIRN_LUA_CALL_CPU_MS);
    sb->game_cpu_ms = limits_env_ms("CAIRN_LUA_GAME_CPU_MS", CAIRN_LUA_GAME_CPU_MS);
    sb->call_ticks_max = budget_ticks_of_ms(sb->call_cpu_ms);
    sb->game_ticks_max = budget_ticks_of_ms(sb->game_cpu_ms);
    long grace_ms = limits_env_ms("CAIRN_LUA_HARD_STOP_GRACE_MS", CAIRN_LUA_HARD_STOP_GRACE_MS);
    sb->hard_grace_ticks = budget_ticks_of_ms(grace_ms);
    sb->print = c->print;
    sb->print_ud = c->print_ud;
    for (size_t i = 0; i < c->n_module_dirs; i++)
        if (c->module_dirs[i] && add_dir(sb, c->module_dirs[i]) != 0) goto oom;
    if (c->stdlib_dir) {
        if (add_dir(sb, c->stdlib_dir) != 0) goto oom;
        sb->n_stdlib = 1;
    }
    /* made now: the signal handler that writes it can format nothing */
    snprintf(sb->hard_msg, sizeof sb->hard_msg,
             "cairn: stopped: a call into the rules%s%s ran %ld ms past its CPU time limit (%ld ms, "
             "limit CAIRN_LUA_CALL_CPU_MS, or the game's) inside a C function Lua cannot interrupt "
             "(a table.sort comparing long strings, a rehash of keys that collide...): "
             "CAIRN_LUA_HARD_STOP_GRACE_MS; cairn ends here, the game as it was at the last save\n",
             c->n_module_dirs ? " of " : "", c->n_module_dirs && c->module_dirs[0] ? c->module_dirs[0] : "",
             grace_ms, sb->call_cpu_ms);
    for (char *q = sb->hard_msg; *q; q++) /* raw to fd 2: no control byte from a folder name */
        if ((unsigned char)*q < 0x20 ? *q != '\n' : (unsigned char)*q >= 0x7f) *q = '?';
    sb->hard_len = strlen(sb->hard_msg); /* once: every top-level call hands it to the watch */
    sb->L = lua_newstate(sb_alloc, sb);
    if (!sb->L) {
        char cap[64];
        cap_text(sb->mem_cap, cap, sizeof cap);
        if (errs && sb->mem_refusals)
            cerr_addk(errs, NULL, 0, 0, NULL, "sandbox.state_cap",
                      "sandbox: cannot create a Lua state within a memory cap of %s", cap);
        else if (errs)
            cerr_addk(errs, NULL, 0, 0, NULL, "sandbox.state_oom",
                      "sandbox: out of memory creating a Lua state (memory cap %s)", cap);
        sandbox_free(sb);
        return NULL;
    }
    *(sandbox **)lua_getextraspace(sb->L) = sb;
    /* generational collection: a game keeps a large state that lives long
    ** and makes short-lived garbage on every call (views, boards, labels);
    ** an incremental cycle marks the whole heap again and lands its pauses
    ** on single answers (the REPL's p99, docs/bench.md), a minor collection
    ** visits the young objects only */
    lua_gc(sb->L, LUA_GCGEN, 0, 0);
    lua_pushcfunction(sb->L, sb_setup);
    if (lua_pcall(sb->L, 0, 0, 0) != LUA_OK) {
        char cap[64];
        cap_text(sb->mem_cap, cap, sizeof cap);
        if (errs)
            cerr_addk(errs, NULL, 0, 0, NULL, "sandbox.setup_failed",
                      "sandbox: cannot set up the Lua state: %s (memory cap %s)",
                      lua_tostring(sb->L, -1) ? lua_tostring(sb->L, -1) : "?", cap);
        sandbox_free(sb);
        return NULL;
    }
    return sb;
oom:
    if (errs) cerr_addk(errs, NULL, 0, 0, NULL, "oom", "sandbox: out of memory");
    sandbox_free(sb);
    return NULL;
}

void sandbox_free(sandbox *sb) {
    if (!sb) return;
    if (sb->lost) return; /* kept whole: its Lua state may be half-changed (sandbox_escaped) */
    if (sb->L) lua_close(sb->L);
    sb_blocks_free(&sb->blocks);
    for (size_t i = 0; i < sb->n_dirs; i++) {
        free(sb->dirs[i]);
        free(sb->canon[i]);
    }
    free(sb->dirs);
    free(sb->canon);
    free(sb->traceback);
    free(sb->own_traceback);
    free(sb);
}

lua_State *sandbox_state(sandbox *sb) { return sb->L; }

void sandbox_set_timed(sandbox *sb, int on) { sb->timed_allowed = on; }
void sandbox_count_always(sandbox *sb, int on) { sb->counted_only = on; }

void sandbox_set_game_limit(sandbox *sb, int on) { sb->game_limit_off = !on; }

void sandbox_set_print(sandbox *sb, int (*print)(void *ud, const char *where, const char *text), void *ud) {
    sb->print = print;
    sb->print_ud = ud;
}
size_t sandbox_memory_used(const sandbox *sb) { return sb->mem_used; }
long sandbox_instructions_used(const sandbox *sb) { return sb->count; }
const char *sandbox_traceback(const sandbox *sb) { return sb->traceback ? sb->traceback : ""; }
const char *sandbox_own_traceback(const sandbox *sb, int *frames) {
    if (frames) *frames = sb->own_traceback ? sb->own_frames : 0;
    return sb->own_traceback ? sb->own_traceback : "";
}

void sandbox_forget_modules(sandbox *sb) {
    sandbox_drop_kept(sb);
    /* setting an existing registry key to nil allocates nothing */
    lua_pushnil(sb->L);
    lua_rawsetp(sb->L, LUA_REGISTRYINDEX, &LOADED_KEY);
}

/* Resets the per-call record before a top-level call of the function at
** index fn. */
static void begin_call(sandbox *sb, int fn) {
    lua_State *L = sb->L;
    sb->count = 0;
    sb->tripped = TRIP_NONE;
    sb->refusals_at_call = sb->mem_refusals;
    sb->err_found = 0;
    sb->err_msg = NULL;
    sb->syntax_msg = NULL;
    free(sb->traceback);
    sb->traceback = NULL;
    free(sb->own_traceback);
    sb->own_traceback = NULL;
    sb->own_frames = 0;
    sb->last_file[0] = '\0';
    sb->last_line = 0;
    sb->mem_file[0] = '\0';
    sb->mem_line = 0;
    sb->def_file[0] = '\0';
    sb->def_line = 0;
    sb->running = L;
    sb->timed = 0;
    /* garbage past half the cap would put the hook in its every-instruction
    ** mode for the whole call; a full collection is cheaper (finalizers
    ** cannot run scripts: __gc is refused) */
    if (sb->mem_used > sb->mem_cap / 2) lua_gc(L, LUA_GCCOLLECT);
    (void)fn; /* where it is defined is looked up only if it fails (def_of) */
    if (sb->no_budget) return;
    /* the deadline: this call's own CPU limit, or what is left of the game's */
    long left = sb->game_limit_off ? sb->call_ticks_max : sb->game_ticks_max - sb->game_ticks_used;
    sb->game_limit_hit = left < sb->call_ticks_max;
    sb->watch.deadline = (sig_atomic_t)(left < sb->call_ticks_max ? (left > 0 ? left : 1)
                                                                  : sb->call_ticks_max);
    sb->watch.running = L;
    sb->watch.hook = sb_hook;
    /* the hard stop: the deadline and a grace, for C work no hook reaches */
    long hard = (long)sb->watch.deadline + sb->hard_grace_ticks;
    sb->watch.hard = (sig_atomic_t)(hard > 0 && hard < INT_MAX ? hard : INT_MAX);
    sb->watch.hard_msg = sb->hard_msg;
    sb->watch.hard_len = (sig_atomic_t)sb->hard_len;
    if (sb->timed_allowed && !sb->counted_only && sb->tick_limit) {
        sb->watch.limit = sb->tick_limit;
        if (budget_watch_start(&sb->watch) == 0) {
            sb->timed = 1;
            sb->watched = 1;
            if (sb->stop_timed_every > 0 && ++sb->timed_calls % sb->stop_timed_every == 0) {
                /* what the timer's signal handler does, 5 instructions in:
                ** far enough for a rule to have changed something */
                sb->watch.fired = 1;
                lua_sethook(L, sb_hook, LUA_MASKCOUNT, 5);
            }
            return;
        }
    }
    sb->watch.limit = 0; /* counted: the timer keeps only the deadline */
    sb->watched = budget_watch_start(&sb->watch) == 0;
    lua_sethook(L, sb_hook, LUA_MASKCOUNT, CAIRN_LUA_HOOK_STEP);
}

/* Records where the function at fn is defined: what a memory error nobody
** caught is blamed on when no line was seen. Only after a failure: looking
** it up costs more than many a handler call. */
static void def_of(sandbox *sb, int fn) {
    lua_Debug ar;
    lua_pushvalue(sb->L, fn);
    if (lua_getinfo(sb->L, ">S", &ar) && ar.source[0] != '=') {
        sb_frame_file(&ar, sb->def_file, sizeof sb->def_file);
        sb->def_line = ar.linedefined;
    }
}

/* Turns a failed call's error object (on top) into one cairn_error. */
static int report(sandbox *sb, int status, cerr_list *errs) {
    lua_State *L = sb->L;
    const void *obj = lua_topointer(L, -1);
    const char *msg = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : NULL;
    char cap[64];
    int kind;
    cap_text(sb->mem_cap, cap, sizeof cap);
    if (sb->tripped == TRIP_RETRY) {
        lua_pop(L, 1);
        return SANDBOX_RETRY;
    }
    if (sb->tripped == TRIP_CPU || sb->tripped == TRIP_GAME_CPU) {
        kind = SANDBOX_ERR_BUDGET;
        if (errs) {
            const char *file = sb->err_found ? sb->err_file : sb->last_line > 0 ? sb->last_file : NULL;
            int line = sb->err_found ? sb->err_line : sb->last_line;
            char ms[24];
            snprintf(ms, sizeof ms, "%ld", sb->tripped == TRIP_CPU ? sb->call_cpu_ms : sb->game_cpu_ms);
            if (sb->tripped == TRIP_CPU)
                cerr_addk(errs, file, line, 0, NULL, "sandbox.call_cpu",
                          SANDBOX_CPU_LIMIT_PHRASE " %s ms for one handler call exceeded (limit "
                          "CAIRN_LUA_CALL_CPU_MS): the call runs work the instruction budget does not see", ms);
            else
                cerr_addk(errs, file, line, 0, NULL, "sandbox.game_cpu",
                          "the game's " SANDBOX_CPU_LIMIT_PHRASE " %s ms exceeded (limit CAIRN_LUA_GAME_CPU_MS)", ms);
        }
    } else if (sb->tripped == TRIP_BUDGET) {
        kind = SANDBOX_ERR_BUDGET;
        if (errs) {
            char budget[24];
            snprintf(budget, sizeof budget, "%ld", sb->budget);
            cerr_addk(errs, sb->err_found ? sb->err_file : NULL, sb->err_found ? sb->err_line : 0, 0, NULL,
                      "sandbox.budget", "instruction budget of %s exceeded", budget);
        }
    } else if (sb->tripped == TRIP_MEMORY || status == LUA_ERRMEM) {
        kind = SANDBOX_ERR_MEMORY;
        const char *file = NULL;
        int line = 0;
        if (sb->tripped && sb->err_found) {
            file = sb->err_file;
            line = sb->err_line;
        } else if (sb->mem_line > 0) {
            file = sb->mem_file;
            line = sb->mem_line;
        } else if (sb->last_line > 0) {
            file = sb->last_file;
            line = sb->last_line;
        } else if (sb->def_file[0]) {
            file = sb->def_file;
            line = sb->def_line;
        }
        if (errs) {
            if (sb->mem_refusals > sb->refusals_at_call)
                cerr_addk(errs, file, line, 0, NULL, "sandbox.memory_cap", "memory cap of %s exceeded", cap);
            else
                cerr_addk(errs, file, line, 0, NULL, "oom", "out of memory");
        }
    } else if (obj && obj == sb->syntax_msg && msg) {
        size_t flen, strip;
        int line = 0;
        kind = SANDBOX_ERR_SYNTAX;
        if (!sb_parse_where(msg, &flen, &line, &strip)) strip = 0;
        if (errs) cerr_add(errs, sb->syntax_file, line, 0, NULL, "%s", msg + strip);
    } else {
        kind = SANDBOX_ERR_RUN;
        if (!msg) msg = "(error object is not a string)";
        size_t strip = 0;
        if (obj && obj == sb->err_msg && sb->err_strip <= strlen(msg)) strip = sb->err_strip;
        if (errs)
            cerr_add(errs, sb->err_found ? sb->err_file : NULL, sb->err_found ? sb->err_line : 0, 0,
                     NULL, "%s", msg + strip);
    }
    lua_pop(L, 1);
    return kind;
}

int sandbox_is_cpu_limit_error(const char *message) {
    return message && strstr(message, SANDBOX_CPU_LIMIT_PHRASE) != NULL;
}

int sandbox_call(sandbox *sb, int nargs, int nresults, cerr_list *errs) {
    if (sb->lost) { /* never touched again (sandbox_escaped) */
        if (errs) cerr_addk(errs, NULL, 0, 0, NULL, "sandbox.abandoned",
                            "the rules' Lua state was abandoned after a hard stop");
        return SANDBOX_ERR_RUN;
    }
    lua_State *L = sb->L;
    int fn = lua_gettop(L) - nargs;
    int top = sb->depth == 0;
    if (nargs < 0 || fn < 1 || !lua_checkstack(L, 4)) {
        if (errs)
            cerr_add(errs, NULL, 0, 0, NULL, "sandbox_call: no function to call (or no stack room)");
        return SANDBOX_ERR_RUN;
    }
    if (top) begin_call(sb, fn);
    /* below the function: the message handler, then a copy of the function
    ** (for def_of after a failure), both moved there in one rotation */
    lua_pushcfunction(L, sb_msgh);
    lua_pushvalue(L, fn);
    lua_rotate(L, fn, 2);
    sb->depth++;
    int status = lua_pcall(L, nargs, nresults, fn);
    sb->depth--;
    if (top && status != LUA_OK && !sb->def_file[0]) def_of(sb, fn + 1);
    if (status == LUA_OK && nresults == 0) { /* the handler and the copy off */
        lua_settop(L, fn - 1);
    } else if (status != LUA_OK || nresults == 1) { /* the one value in the handler's place */
        lua_copy(L, -1, fn);
        lua_settop(L, fn);
    } else {
        lua_rotate(L, fn, -2); /* the handler and the copy to the top, then off */
        lua_pop(L, 2);
    }
    if (top) {
        if (sb->watched) sb->game_ticks_used += budget_watch_stop(&sb->watch);
        sb->watched = 0;
        sb->watch.fired = sb->watch.expired = 0;
        lua_sethook(L, NULL, 0, 0);
        sb->running = sb->watch.running = NULL;
        }
    if (status == LUA_OK && !(top && sb->tripped)) return SANDBOX_OK;
    if (status == LUA_OK) { /* a trip nothing raised: cannot happen, but fail closed */
        lua_settop(L, fn - 1);
        lua_pushnil(L);
    }
    return report(sb, status, errs);
}

/* Loads and runs the chunk described by the light userdata argument. With
** a key (a file's path) the compiled chunk is cached under it; without buf
** only the cache is tried, and `missing` says it held nothing. */
typedef struct chunk_src {
    const char *buf;
    size_t len;
    const char *chunkname;
    const char *key;
    int missing;
} chunk_src;

static int run_chunk(lua_State *L) {
    sandbox *sb = SB(L);
    chunk_src *src = lua_touserdata(L, 1);
    lua_settop(L, 0);
    if (src->key) lua_pushstring(L, src->key); /* 1 */
    if (src->key && sb_push_cached_chunk(L, 1)) {
        lua_remove(L, 1);
    } else if (!src->buf) {
        src->missing = 1;
        return 0;
    } else {
        lua_pushfstring(L, "@%s", src->chunkname);
        int status = sb_load_text(L, src->buf, src->len);
        if (status != LUA_OK) {
            sb_no_swallow(L, status);
            return lua_error(L);
        }
        if (src->key) {
            sb_cache_chunk(L, 1, 2);
            lua_remove(L, 1);
        }
    }
    if (sb->depth == 1) { /* the chunk is what a stray memory error is blamed on */
        snprintf(sb->def_file, sizeof sb->def_file, "%s", src->chunkname);
        sb->def_line = 0;
    }
    lua_call(L, 0, LUA_MULTRET);
    return lua_gettop(L);
}

static int run_source(sandbox *sb, chunk_src *src, int nresults, cerr_list *errs) {
    if (!lua_checkstack(sb->L, 2)) return SANDBOX_ERR_MEMORY;
    lua_pushcfunction(sb->L, run_chunk);
    lua_pushlightuserdata(sb->L, src);
    return sandbox_call(sb, 1, nresults, errs);
}

int sandbox_run_string(sandbox *sb, const char *code, size_t len, const char *chunkname,
                       int nresults, cerr_list *errs) {
    chunk_src src = {code, len, chunkname ? chunkname : "(string)", NULL, 0};
    return run_source(sb, &src, nresults, errs);
}

int sandbox_run_file(sandbox *sb, const char *path, const char *chunkname, int nresults,
                     cerr_list *errs) {
    /* compiled before in this state: run it again, no reading */
    chunk_src cached = {NULL, 0, chunkname ? chunkname : path, path, 0};
    int top = lua_gettop(sb->L);
    int r = run_source(sb, &cached, nresults, errs);
    if (r != SANDBOX_OK || !cached.missing) return r;
    lua_settop(sb->L, top);
    char why[160];
    size_t len = 0;
    char *buf = sb_read_source(path, NULL, &len, why, sizeof why);
    if (!buf) {
        if (errs)
            cerr_addk(errs, chunkname ? chunkname : path, 0, 0, NULL, "sandbox.cannot_read_script",
                      "cannot read script: %s", why);
        return SANDBOX_ERR_FILE;
    }
    chunk_src src = {buf, len, chunkname ? chunkname : path, path, 0};
    r = run_source(sb, &src, nresults, errs);
    free(buf);
    return r;
}

/* Protected: a fresh environment with the shared metatable, made the one
** every chunk and require sees; require's caches are emptied. */
static int p_reset(lua_State *L) {
    sb_unseal(L); /* the last game's globals leave the library table */
    lua_newtable(L);
    int env = lua_gettop(L);
    lua_rawgetp(L, LUA_REGISTRYINDEX, &ENVMT_KEY);
    lua_setmetatable(L, env);
    lua_rawgetp(L, LUA_REGISTRYINDEX, &LIB_KEY);
    lua_pushvalue(L, env);
    lua_setfield(L, -2, "_G");
    lua_pushvalue(L, env);
    lua_rawseti(L, LUA_REGISTRYINDEX, LUA_RIDX_GLOBALS);
    lua_pushnil(L);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &LOADED_KEY);
    lua_pushnil(L);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &LOADING_KEY);
    return 0;
}

int sandbox_reset(sandbox *sb) {
    lua_State *L = sb->L;
    sb->game_ticks_used = 0; /* a new game: a new CPU total */
    lua_settop(L, 0);
    sandbox_drop_kept(sb); /* the chunks run again: nothing of the last load is kept */
    sb_reads_clear(L); /* a new game: its own reads */
    lua_pushcfunction(L, p_reset);
    if (lua_pcall(L, 0, 0, 0) != LUA_OK) {
        lua_pop(L, 1);
        return -1;
    }
    return 0;
}

static int set_global(lua_State *L) {
    const char *name = lua_touserdata(L, 2);
    lua_rawgetp(L, LUA_REGISTRYINDEX, &LIB_KEY);
    lua_pushvalue(L, 1);
    lua_setfield(L, -2, name);
    return 0;
}

int sandbox_set_global(sandbox *sb, const char *name) {
    lua_State *L = sb->L;
    int ok = name && (isalpha((unsigned char)name[0]) || name[0] == '_');
    for (const char *p = name; ok && *p; p++) ok = isalnum((unsigned char)*p) || *p == '_';
    if (!ok || !lua_checkstack(L, 3)) {
        lua_pop(L, 1);
        return -1;
    }
    lua_pushcfunction(L, set_global);
    lua_insert(L, -2);
    lua_pushlightuserdata(L, (void *)name);
    if (lua_pcall(L, 2, 0, 0) != LUA_OK) {
        lua_pop(L, 1);
        return -1;
    }
    return 0;
}
