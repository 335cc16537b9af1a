/*
** sandbox.c
** The Lua sandbox: which globals a ruleset sees, the instruction budget and
** the memory cap. Everything a script can reach starts from the allow-lists below.
**
** Outline: allow-lists -> capped allocator -> where errors happened
** (traceback) -> budget hook and trips -> the functions that catch errors
** (pcall, coroutines, load), made unable to swallow a trip -> deterministic
** pairs/next -> read-only tables -> replaced library functions -> require
** -> building the environment -> public API.
*/
/* realpath is XSI: confining require to its folders needs it */
#if !defined(_XOPEN_SOURCE)
#define _XOPEN_SOURCE 700
#endif

#include "sandbox.h"
#include "budget.h"
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

/* Frames kept in a trimmed traceback. */
#define SANDBOX_TRACEBACK_FRAMES 20
/* Nesting sandbox_freeze follows before giving up (data from YAML is
** bounded far lower, by CAIRN_YAML_MAX_DEPTH). */
#define SANDBOX_FREEZE_MAX_DEPTH 200
/* Longest module name `require` accepts. */
#define SANDBOX_MODULE_NAME_MAX 128
/* Room for a chunk name in an error location. */
#define SANDBOX_WHERE_MAX 512
/* Distinct character classes whose longest run in a subject a search
** measures to estimate its worst case. */
/* pairs over at most this many keys iterates with next (no allocation,
** O(n) a step) instead of sorting the keys up front. */
#define SANDBOX_PAIRS_SMALL 12
/* table.sort of at most this many items sorts by insertion on the stack. */
#define SANDBOX_SORT_SMALL 12
#define SANDBOX_PATTERN_SCANS 8
/* The least a call of the matcher is charged: about what the call itself
** costs, in the time of VM instructions. */
#define SANDBOX_PATTERN_CALL 64
/* Bytes a pass measuring the subject reads for one instruction charged
** (about 1 ns a byte, against 8 for an instruction). */
#define SANDBOX_PATTERN_SCAN_BYTES 8
/* Quantified items a pattern can hold: each takes two bytes at least. */
#define SANDBOX_PATTERN_ITEMS (CAIRN_LUA_MAX_PATTERN / 2 + 1)

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

/* ------------------------------------------------------------ the state */

enum { TRIP_NONE, TRIP_BUDGET, TRIP_MEMORY, TRIP_RETRY };

struct sandbox {
    lua_State *L;
    size_t mem_used, mem_cap;
    unsigned long mem_refusals; /* allocations the cap refused, ever */
    unsigned long refusals_at_call;
    long budget, count;
    int no_budget; /* sandbox_config.no_budget: calls run without the hook */
    /* The budget's CPU-time trigger (budget.c): a top-level call runs with no
    ** count hook while `timed`; a call that runs long trips TRIP_RETRY and
    ** its caller runs it again counted. Only callers that can take a call
    ** back ask for it (sandbox_set_timed); tick_limit 0: budget too small. */
    budget_watch watch;
    int timed, timed_allowed, tick_limit;
    int depth;   /* nesting of sandbox_call */
    int tripped; /* TRIP_*: sticky until the top-level call returns */
    /* The thread running Lua code now (the main one or a coroutine being
    ** resumed; always alive), and whether its hook fires at every
    ** instruction because memory passed half the cap. */
    lua_State *running;
    int precise;

    /* Where the failing call went wrong, set by the message handler or by a
    ** trip (a trip wins: the handler then sees only our re-raise). */
    char err_file[SANDBOX_WHERE_MAX];
    int err_line;
    int err_found;         /* err_file/err_line are set */
    size_t err_strip;      /* length of the "file:line: " prefix in the message */
    const void *err_msg;   /* the message object that prefix was found in */
    const void *syntax_msg; /* message object of the last compile error */
    char syntax_file[SANDBOX_WHERE_MAX];
    char *traceback;       /* malloc'd; NULL when none */

    /* Where the hook last fired, and where the called function starts: the
    ** best we can say about a memory error nobody caught (Lua unwinds those
    ** without calling a message handler). */
    char last_file[SANDBOX_WHERE_MAX];
    int last_line;
    char def_file[SANDBOX_WHERE_MAX];
    int def_line;

    char **dirs;  /* module folders as configured (for chunk names) */
    char **canon; /* the same, resolved by realpath; NULL when missing */
    size_t n_dirs;
    size_t n_stdlib; /* 1 when dirs[n_dirs - 1] is the stdlib */

    void (*print)(void *ud, const char *text);
    void *print_ud;
};

/* Every thread of a sandbox's state carries the sandbox pointer in its extra
** space (lua_newthread copies the main thread's). */
static sandbox *SB(lua_State *L) { return *(sandbox **)lua_getextraspace(L); }

/* Registry keys: addresses no script can name. */
static const char LIB_KEY = 'l';     /* library entries of the environment */
static const char LOADED_KEY = 'm';  /* require's cache */
static const char LOADING_KEY = 'i'; /* modules being loaded (loops) */
static const char GUARD_KEY = 'g';   /* metatable of require's close guard */
static const char CHUNKS_KEY = 'c';  /* compiled chunks by file: load once, run per game */
static const char ENVMT_KEY = 'v';   /* the environment's metatable, for sandbox_reset */
/* Metatable keys of read-only proxies and of the environment. */
static const char PROXY_KEY = 'p'; /* -> the hidden table with the contents */
static const char PATH_KEY = 'n';  /* -> the name used in messages */
static const char ENV_KEY = 'e';   /* marks the global environment */

/* ------------------------------------------------------------ allocator */

static void sb_hook(lua_State *L, lua_Debug *ar);

/* The capped allocator. Growth past the cap is refused, which Lua turns into
** a "not enough memory" error after one emergency collection. Shrinking
** never fails (Lua assumes it cannot). */
static void *sb_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
    sandbox *sb = ud;
    if (!ptr) osize = 0; /* osize is then a type tag */
    if (nsize == 0) {
        free(ptr);
        sb->mem_used -= osize;
        return NULL;
    }
    if (nsize > osize && nsize - osize > sb->mem_cap - sb->mem_used) {
        sb->mem_refusals++;
        return NULL;
    }
    void *p = realloc(ptr, nsize);
    if (!p) return nsize <= osize ? ptr : NULL;
    sb->mem_used = sb->mem_used - osize + nsize;
    if (!sb->precise && sb->running && sb->mem_used > sb->mem_cap / 2) {
        /* Lua unwinds a memory error without a message handler, so the line
        ** of the failing allocation is only known if the hook recorded it
        ** just before: from here on it fires at every instruction.
        ** lua_sethook is safe here: it may even be called from a signal. */
        sb->precise = 1;
        lua_sethook(sb->running, sb_hook, LUA_MASKCOUNT, 1);
    }
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

/* --------------------------------------------------- where errors happen */

typedef struct sbuf {
    char *s;
    size_t n, cap;
    int oom;
} sbuf;

static void sbuf_add(sbuf *b, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

static void sbuf_add(sbuf *b, const char *fmt, ...) {
    if (b->oom) return;
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int k = vsnprintf(b->s ? b->s + b->n : NULL, b->s ? b->cap - b->n : 0, fmt, ap);
        va_end(ap);
        if (k < 0) {
            b->oom = 1;
            return;
        }
        if (b->s && (size_t)k < b->cap - b->n) {
            b->n += (size_t)k;
            return;
        }
        size_t cap = b->cap ? b->cap * 2 : 256;
        while (cap < b->n + (size_t)k + 1) cap *= 2;
        char *s = realloc(b->s, cap);
        if (!s) {
            b->oom = 1;
            return;
        }
        b->s = s;
        b->cap = cap;
    }
}

/* The chunk name a person reads: the full path for file chunks (Lua's
** short_src may cut it), short_src for strings. */
static void frame_file(const lua_Debug *ar, char *out, size_t size) {
    const char *s = ar->source && (ar->source[0] == '@' || ar->source[0] == '=') ? ar->source + 1
                                                                              : ar->short_src;
    size_t n = strlen(s);
    if (n >= size) n = size - 1;
    memcpy(out, s, n);
    out[n] = '\0';
}

static int is_stdlib(const sandbox *sb, const char *file) {
    if (!sb->n_stdlib) return 0;
    const char *dir = sb->dirs[sb->n_dirs - 1];
    size_t n = strlen(dir);
    return strncmp(file, dir, n) == 0 && file[n] == '/';
}

/* Finds "<file>:<digits>: " at the start of msg (a location Lua or a
** script put there). */
static int parse_where(const char *msg, size_t *file_len, int *line, size_t *strip) {
    for (const char *p = msg; *p && *p != '\n'; p++) {
        if (p == msg || *p != ':' || !isdigit((unsigned char)p[1])) continue;
        const char *q = p + 1;
        long n = 0;
        while (isdigit((unsigned char)*q) && n < 100000000L) n = n * 10 + (*q++ - '0');
        if (q[0] == ':' && q[1] == ' ') {
            *file_len = (size_t)(p - msg);
            *line = (int)n;
            *strip = (size_t)(q + 2 - msg);
            return 1;
        }
    }
    return 0;
}

/* Records where an error happened and the trimmed traceback, walking the
** stack of L from level. msg (may be NULL) is the error message: when it
** starts with a frame's "short_src:line: " that frame is the location (the
** prefix is then stripped from the reported message). Assumes no Lua
** allocation: uses only lua_getstack/lua_getinfo and malloc. */
static void sb_capture(sandbox *sb, lua_State *L, int level, const char *msg) {
    lua_Debug ar;
    int found = 0;
    sb->err_found = 0;
    sb->err_strip = 0;
    for (int lv = level; lua_getstack(L, lv, &ar); lv++) {
        if (!lua_getinfo(L, "Sl", &ar) || ar.currentline <= 0) continue;
        if (!sb->err_found) {
            frame_file(&ar, sb->err_file, sizeof sb->err_file);
            sb->err_line = ar.currentline;
            sb->err_found = 1;
        }
        if (msg) {
            char pre[LUA_IDSIZE + 32];
            int k = snprintf(pre, sizeof pre, "%s:%d: ", ar.short_src, ar.currentline);
            if (k > 0 && (size_t)k < sizeof pre && strncmp(msg, pre, (size_t)k) == 0) {
                frame_file(&ar, sb->err_file, sizeof sb->err_file);
                sb->err_line = ar.currentline;
                sb->err_strip = (size_t)k;
                found = 1;
                break;
            }
        } else {
            break;
        }
    }
    size_t flen, strip;
    int line;
    if (!found && msg && parse_where(msg, &flen, &line, &strip)) {
        if (flen >= sizeof sb->err_file) flen = sizeof sb->err_file - 1;
        memcpy(sb->err_file, msg, flen);
        sb->err_file[flen] = '\0';
        sb->err_line = line;
        sb->err_strip = strip;
        sb->err_found = 1;
    }

    /* The traceback: Lua frames only, the stdlib only if the error is in it. */
    int keep_std = sb->err_found && is_stdlib(sb, sb->err_file);
    sbuf b = {0};
    int shown = 0, more = 0;
    sbuf_add(&b, "stack traceback:");
    for (int lv = level; lua_getstack(L, lv, &ar); lv++) {
        char file[SANDBOX_WHERE_MAX];
        if (!lua_getinfo(L, "Slnt", &ar) || strcmp(ar.what, "C") == 0) continue;
        frame_file(&ar, file, sizeof file);
        if (!keep_std && is_stdlib(sb, file)) continue;
        if (++shown > SANDBOX_TRACEBACK_FRAMES) {
            more++;
            continue;
        }
        sbuf_add(&b, "\n\t%s:%d: in ", file, ar.currentline);
        if (ar.namewhat && *ar.namewhat)
            sbuf_add(&b, "%s '%s'", strcmp(ar.namewhat, "global") == 0 ? "function" : ar.namewhat,
                     ar.name ? ar.name : "?");
        else if (*ar.what == 'm')
            sbuf_add(&b, "main chunk");
        else
            sbuf_add(&b, "function <%s:%d>", file, ar.linedefined);
        if (ar.istailcall) sbuf_add(&b, "\n\t(...tail calls...)");
    }
    if (more) sbuf_add(&b, "\n\t(...%d more)", more);
    free(sb->traceback);
    sb->traceback = b.oom ? NULL : b.s;
    if (b.oom) free(b.s);
}

/* The message handler of a top-level sandbox_call: records location and
** traceback, returns the message (converted to a string) unchanged. A trip
** already recorded its own. */
static int sb_msgh(lua_State *L) {
    sandbox *sb = SB(L);
    const char *msg = lua_tostring(L, 1);
    if (!msg) {
        msg = lua_pushfstring(L, "(error object is a %s value)", luaL_typename(L, 1));
        lua_replace(L, 1);
    }
    if (!sb->tripped) {
        sb_capture(sb, L, 1, msg);
        sb->err_msg = lua_topointer(L, 1);
    }
    lua_settop(L, 1);
    return 1;
}

/* --------------------------------------------------- budget and trips */

/* Raises the error of the current trip. Never returns. */
static int sb_raise_tripped(lua_State *L) {
    sandbox *sb = SB(L);
    if (sb->tripped == TRIP_BUDGET) {
        lua_pushfstring(L, "instruction budget of %I exceeded", (lua_Integer)sb->budget);
    } else if (sb->tripped == TRIP_RETRY) {
        lua_pushliteral(L, "long call: to be run again with the budget counted");
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
static void sb_trip(lua_State *L, int kind, int level) {
    sandbox *sb = SB(L);
    if (!sb->tripped) {
        sb->tripped = kind;
        sb_capture(sb, L, level, NULL);
        if (kind == TRIP_MEMORY && sb->precise && sb->last_line > 0) {
            /* the instruction that allocated, not the pcall that caught it */
            memcpy(sb->err_file, sb->last_file, sizeof sb->err_file);
            sb->err_line = sb->last_line;
            sb->err_found = 1;
        }
    }
    lua_sethook(L, sb_hook, LUA_MASKCOUNT, 1);
}

/* The count hook, every CAIRN_LUA_HOOK_STEP instructions of each thread
** (every instruction after a trip, or past half the memory cap). */
static void sb_hook(lua_State *L, lua_Debug *ar) {
    sandbox *sb = SB(L);
    int step = lua_gethookcount(L);
    if (sb->tripped) {
        lua_sethook(L, sb_hook, LUA_MASKCOUNT, 1);
        sb_raise_tripped(L);
    }
    if (sb->timed) { /* no counting: the CPU timer fired, or memory is past half the cap */
        if (sb->watch.fired) {
            sb_trip(L, TRIP_RETRY, 0);
            sb_raise_tripped(L);
        }
        if (lua_getinfo(L, "Sl", ar) && ar->currentline > 0) {
            frame_file(ar, sb->last_file, sizeof sb->last_file);
            sb->last_line = ar->currentline;
        }
        return;
    }
    if (step != CAIRN_LUA_HOOK_STEP && !sb->precise) /* left at 1 by an earlier call */
        lua_sethook(L, sb_hook, LUA_MASKCOUNT, CAIRN_LUA_HOOK_STEP);
    sb->count += step;
    if (sb->count > sb->budget) {
        sb_trip(L, TRIP_BUDGET, 0);
        sb_raise_tripped(L);
    }
    if (lua_getinfo(L, "Sl", ar) && ar->currentline > 0) {
        /* copied every time: a collected chunk's name may be reused by another */
        frame_file(ar, sb->last_file, sizeof sb->last_file);
        sb->last_line = ar->currentline;
    }
}

/* Charges n instructions for work a C function does in a loop the hook
** cannot see (table.move, sorting, pairs). Raises the budget error when the
** budget runs out. */
/* What the charges may reach: the budget, or half of it in a timed call
** (the other half is for the instructions the timer bounds; budget.c). */
static long charge_cap(const sandbox *sb) { return sb->timed ? sb->budget / 2 : sb->budget; }

static void sb_charge(lua_State *L, lua_Integer n) {
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
static int sb_fits(lua_State *L, lua_Integer n) {
    sandbox *sb = SB(L);
    return !sb->tripped && n <= (lua_Integer)(charge_cap(sb) - sb->count);
}

/* Raises the budget error, as sb_charge would, unless n instructions fit in
** what is left of the budget. Charges nothing. */
static void sb_afford(lua_State *L, lua_Integer n) {
    if (!sb_fits(L, n)) sb_charge(L, n);
}

/* Called by everything that catches errors (pcall, xpcall, resume, load)
** with the status it caught: a memory error or a trip is raised again, so
** no script can swallow it. */
static void sb_no_swallow(lua_State *L, int status) {
    sandbox *sb = SB(L);
    if (status == LUA_ERRMEM && !sb->tripped) sb_trip(L, TRIP_MEMORY, 1);
    if (sb->tripped) sb_raise_tripped(L);
}

/* ------------------------------------------------- pcall, xpcall, load */

/* As lbaselib's finishpcall, plus sb_no_swallow. */
static int sb_finishpcall(lua_State *L, int status, lua_KContext extra) {
    if (status != LUA_OK && status != LUA_YIELD) {
        sb_no_swallow(L, status);
        if (lua_topointer(L, -1) == SB(L)->syntax_msg) SB(L)->syntax_msg = NULL;
        lua_pushboolean(L, 0);
        lua_pushvalue(L, -2);
        return 2;
    }
    if (SB(L)->tripped) sb_raise_tripped(L);
    return lua_gettop(L) - (int)extra;
}

static int sb_pcall(lua_State *L) {
    luaL_checkany(L, 1);
    lua_pushboolean(L, 1);
    lua_insert(L, 1);
    int status = lua_pcallk(L, lua_gettop(L) - 2, LUA_MULTRET, 0, 0, sb_finishpcall);
    return sb_finishpcall(L, status, 0);
}

/* The message handler xpcall installs around the script's own (upvalue 1).
** A trip raised by the hook runs message handlers while Lua has hooks
** switched off, so the script's handler must not run then: it could loop
** forever unseen. */
static int sb_xpcall_handler(lua_State *L) {
    if (SB(L)->tripped) return 1;
    int n = lua_gettop(L);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, n, LUA_MULTRET);
    return lua_gettop(L);
}

static int sb_xpcall(lua_State *L) {
    int n = lua_gettop(L);
    luaL_checktype(L, 2, LUA_TFUNCTION);
    lua_pushvalue(L, 2);
    lua_pushcclosure(L, sb_xpcall_handler, 1);
    lua_replace(L, 2);
    lua_pushboolean(L, 1);
    lua_pushvalue(L, 1);
    lua_rotate(L, 3, 2);
    int status = lua_pcallk(L, n - 2, LUA_MULTRET, 2, 2, sb_finishpcall);
    return sb_finishpcall(L, status, 2);
}

#define LOAD_RESERVED 5

/* As lbaselib's generic_reader. */
static const char *sb_reader(lua_State *L, void *ud, size_t *size) {
    (void)ud;
    luaL_checkstack(L, 2, "too many nested functions");
    lua_pushvalue(L, 1);
    lua_call(L, 0, 1);
    if (lua_isnil(L, -1)) {
        lua_pop(L, 1);
        *size = 0;
        return NULL;
    }
    if (!lua_isstring(L, -1)) luaL_error(L, "reader function must return a string");
    lua_replace(L, LOAD_RESERVED);
    return lua_tolstring(L, LOAD_RESERVED, size);
}

/* load(chunk [, chunkname [, mode [, env]]]): text chunks only. An env
** argument is allowed: it can only be a table the script already holds. */
static int sb_load(lua_State *L) {
    size_t l;
    const char *s = lua_tolstring(L, 1, &l);
    const char *mode = luaL_optstring(L, 3, "t");
    int env = !lua_isnone(L, 4) ? 4 : 0;
    int status;
    if (strchr(mode, 'b'))
        return luaL_error(L, "load: binary chunks are not allowed in the sandbox "
                             "(mode must be \"t\")");
    if (s) {
        const char *chunkname = luaL_optstring(L, 2, s);
        status = luaL_loadbufferx(L, s, l, chunkname, "t");
    } else {
        const char *chunkname = luaL_optstring(L, 2, "=(load)");
        luaL_checktype(L, 1, LUA_TFUNCTION);
        lua_settop(L, LOAD_RESERVED);
        status = lua_load(L, sb_reader, NULL, chunkname, "t");
    }
    if (status != LUA_OK) {
        sb_no_swallow(L, status); /* the reader's budget error lands here */
        luaL_pushfail(L);
        lua_insert(L, -2);
        return 2;
    }
    if (env) {
        lua_pushvalue(L, env);
        if (!lua_setupvalue(L, -2, 1)) lua_pop(L, 1);
    }
    return 1;
}

/* ----------------------------------------------------------- coroutines */

static int sb_cocreate(lua_State *L) {
    luaL_checktype(L, 1, LUA_TFUNCTION);
    /* A thread runs up to one step before its hook first fires: charge that
    ** now, or many short coroutines would run unseen. */
    sb_charge(L, CAIRN_LUA_HOOK_STEP);
    lua_State *co = lua_newthread(L);
    if (SB(L)->tripped || !SB(L)->timed) /* a timed call's coroutines run under the timer */
        lua_sethook(co, sb_hook, LUA_MASKCOUNT, SB(L)->tripped ? 1 : CAIRN_LUA_HOOK_STEP);
    lua_pushvalue(L, 1);
    lua_xmove(L, co, 1);
    return 1;
}

/* As lcorolib's auxresume, plus sb_no_swallow. */
static int sb_auxresume(lua_State *L, lua_State *co, int narg) {
    int nres;
    if (!lua_checkstack(co, narg)) {
        lua_pushliteral(L, "too many arguments to resume");
        return -1;
    }
    lua_xmove(L, co, narg);
    sandbox *sb = SB(L);
    lua_State *prev = sb->running;
    sb->running = sb->watch.running = co;
    if (sb->precise || sb->watch.fired) lua_sethook(co, sb_hook, LUA_MASKCOUNT, 1);
    int status = lua_resume(co, L, narg, &nres);
    sb->running = sb->watch.running = prev;
    if (status == LUA_OK || status == LUA_YIELD) {
        if (SB(L)->tripped) sb_raise_tripped(L);
        if (!lua_checkstack(L, nres + 1)) {
            lua_pop(co, nres);
            lua_pushliteral(L, "too many results to resume");
            return -1;
        }
        lua_xmove(co, L, nres);
        return nres;
    }
    sb_no_swallow(L, status);
    lua_xmove(co, L, 1);
    return -1;
}

static int sb_coresume(lua_State *L) {
    lua_State *co = lua_tothread(L, 1);
    luaL_argexpected(L, co, 1, "coroutine");
    int r = sb_auxresume(L, co, lua_gettop(L) - 1);
    if (r < 0) {
        lua_pushboolean(L, 0);
        lua_insert(L, -2);
        return 2;
    }
    lua_pushboolean(L, 1);
    lua_insert(L, -(r + 1));
    return r + 1;
}

/* As lcorolib's auxwrap. */
static int sb_auxwrap(lua_State *L) {
    lua_State *co = lua_tothread(L, lua_upvalueindex(1));
    int r = sb_auxresume(L, co, lua_gettop(L));
    if (r < 0) {
        int stat = lua_status(co);
        /* After a trip the coroutine died inside the hook, with hooks off:
        ** its __close handlers would run unbudgeted, so they do not run. */
        if (SB(L)->tripped) return lua_error(L);
        if (stat != LUA_OK && stat != LUA_YIELD) {
            sandbox *sb = SB(L);
            lua_State *prev = sb->running;
            sb->running = sb->watch.running = co;
            stat = lua_resetthread(co); /* close its to-be-closed variables */
            sb->running = sb->watch.running = prev;
            lua_xmove(co, L, 1);
            sb_no_swallow(L, stat);
        }
        if (lua_type(L, -1) == LUA_TSTRING) {
            luaL_where(L, 1);
            lua_insert(L, -2);
            lua_concat(L, 2);
        }
        return lua_error(L);
    }
    return r;
}

static int sb_cowrap(lua_State *L) {
    sb_cocreate(L);
    lua_pushcclosure(L, sb_auxwrap, 1);
    return 1;
}

/* ------------------------------------------------- deterministic order */

/* A key in the sandbox's fixed order: integers ascending, then strings by
** bytes, then false, true. */
typedef struct okey {
    int rank; /* 0 integer, 1 string, 2 boolean */
    lua_Integer i;
    const char *s;
    size_t len;
    lua_Integer pos; /* where the key sits in the unsorted key list */
} okey;

/* Reads the key at idx. Raises for keys that have no fixed order. The
** string pointer stays valid while the key is in its table. */
static void okey_of(lua_State *L, int idx, okey *k, const char *fn) {
    switch (lua_type(L, idx)) {
    case LUA_TNUMBER:
        if (!lua_isinteger(L, idx))
            luaL_error(L, "%s: a table with the float key %f has no fixed order "
                          "(keys must be integers, strings or booleans)",
                       fn, lua_tonumber(L, idx));
        k->rank = 0;
        k->i = lua_tointeger(L, idx);
        break;
    case LUA_TSTRING:
        k->rank = 1;
        k->s = lua_tolstring(L, idx, &k->len);
        break;
    case LUA_TBOOLEAN:
        k->rank = 2;
        k->i = lua_toboolean(L, idx);
        break;
    default:
        luaL_error(L, "%s: a table with a %s key has no fixed order "
                      "(keys must be integers, strings or booleans)",
                   fn, luaL_typename(L, idx));
    }
}

static int okey_cmp(const okey *a, const okey *b) {
    if (a->rank != b->rank) return a->rank < b->rank ? -1 : 1;
    if (a->rank == 1) {
        size_t n = a->len < b->len ? a->len : b->len;
        int c = memcmp(a->s, b->s, n);
        if (c) return c < 0 ? -1 : 1;
        return a->len < b->len ? -1 : a->len > b->len;
    }
    return a->i < b->i ? -1 : a->i > b->i;
}

static int okey_qcmp(const void *a, const void *b) { return okey_cmp(a, b); }

/* The iterator pairs returns: upvalues table, sorted keys, position. Keys
** removed during the loop are skipped. */
static int sb_pairs_iter(lua_State *L) {
    lua_Integer i = lua_tointeger(L, lua_upvalueindex(3));
    lua_Integer n = (lua_Integer)lua_rawlen(L, lua_upvalueindex(2));
    while (++i <= n) {
        lua_rawgeti(L, lua_upvalueindex(2), i);
        lua_pushvalue(L, -1);
        if (lua_rawget(L, lua_upvalueindex(1)) != LUA_TNIL) {
            if (lua_istable(L, lua_upvalueindex(4))) { /* a state view: values as views */
                lua_pop(L, 1);
                lua_pushvalue(L, -1);
                lua_gettable(L, lua_upvalueindex(4));
            }
            lua_pushinteger(L, i);
            lua_replace(L, lua_upvalueindex(3));
            return 2;
        }
        lua_pop(L, 2);
    }
    lua_pushinteger(L, n);
    lua_replace(L, lua_upvalueindex(3));
    lua_pushnil(L);
    return 1;
}

static int sb_next(lua_State *L);

/* pairs(t): every key in the fixed order. Costs O(n log n) time and O(n)
** memory up front (charged n instructions); read-only proxies iterate
** their contents; a __pairs metamethod is honoured as in Lua 5.4. */
static int sb_pairs(lua_State *L) {
    luaL_checkany(L, 1);
    lua_settop(L, 1);
    int view = 0; /* a view of the state made by guard.c: kept at 2 */
    if (guard_target(L, 1)) {
        lua_insert(L, 1);
        view = 2;
    } else if (sandbox_readonly_target(L, 1)) {
        lua_replace(L, 1);
    } else if (luaL_getmetafield(L, 1, "__pairs") != LUA_TNIL) {
        lua_pushvalue(L, 1);
        lua_call(L, 1, 3);
        return 3;
    }
    luaL_checktype(L, 1, LUA_TTABLE);
    if (!view) {
        lua_settop(L, 1);
        lua_pushnil(L); /* 2: no view */
    }
    lua_Integer n = 0;
    lua_pushnil(L);
    while (lua_next(L, 1)) {
        lua_pop(L, 1);
        n++;
    }
    sb_charge(L, n);
    if (n >= INT_MAX) return luaL_error(L, "pairs: table too large");
    if (n <= SANDBOX_PAIRS_SMALL) {
        /* the same order with no allocation: next finds the key after the
        ** last in the fixed order, a scan of a few keys each step */
        lua_pushcfunction(L, sb_next);
        lua_pushvalue(L, view ? 2 : 1);
        lua_pushnil(L);
        return 3;
    }
    lua_createtable(L, (int)n, 0); /* 3: keys in raw order */
    okey *ks = lua_newuserdatauv(L, (size_t)n * sizeof *ks, 0); /* 4 */
    lua_Integer j = 0;
    lua_pushnil(L);
    while (lua_next(L, 1)) {
        lua_pop(L, 1);
        if (j == n) return luaL_error(L, "pairs: table changed while being read");
        okey_of(L, -1, &ks[j], "pairs");
        ks[j].pos = j + 1;
        lua_pushvalue(L, -1);
        lua_rawseti(L, 3, ++j);
    }
    qsort(ks, (size_t)j, sizeof *ks, okey_qcmp);
    lua_createtable(L, (int)j, 0); /* 5: keys in order */
    for (lua_Integer i = 0; i < j; i++) {
        lua_rawgeti(L, 3, ks[i].pos);
        lua_rawseti(L, 5, i + 1);
    }
    lua_pushvalue(L, 1);
    lua_pushvalue(L, 5);
    lua_pushinteger(L, 0);
    lua_pushvalue(L, 2);
    lua_pushcclosure(L, sb_pairs_iter, 4);
    lua_pushvalue(L, view ? 2 : 1);
    lua_pushnil(L);
    return 3;
}

/* next(t [, k]): the key after k in the fixed order. O(n) a call (a scan,
** charged n instructions): fine for `next(t) == nil`, quadratic as a loop,
** so loops should use pairs. */
static int sb_next(lua_State *L) {
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_settop(L, 2);
    int view = 0; /* a view of the state made by guard.c: at 3, its table at 1 */
    if (guard_target(L, 1)) {
        lua_rotate(L, 1, 1); /* T, P, k */
        lua_rotate(L, 2, 1); /* T, k, P */
        view = 3;
    } else if (sandbox_readonly_target(L, 1)) {
        lua_replace(L, 1);
    }
    okey prev = {0}, best = {0}, k = {0};
    int has_prev = !lua_isnil(L, 2), has_best = 0;
    if (has_prev) okey_of(L, 2, &prev, "next");
    lua_pushnil(L); /* the best key so far */
    int best_slot = lua_gettop(L);
    lua_Integer n = 0;
    lua_pushnil(L);
    while (lua_next(L, 1)) {
        lua_pop(L, 1);
        n++;
        okey_of(L, -1, &k, "next");
        if ((!has_prev || okey_cmp(&k, &prev) > 0) && (!has_best || okey_cmp(&k, &best) < 0)) {
            best = k;
            has_best = 1;
            lua_pushvalue(L, -1);
            lua_replace(L, best_slot);
        }
    }
    sb_charge(L, n);
    if (!has_best) {
        lua_pushnil(L);
        return 1;
    }
    lua_pushvalue(L, best_slot);
    lua_pushvalue(L, best_slot);
    if (view) lua_gettable(L, view);
    else lua_rawget(L, 1);
    return 2;
}

/* ------------------------------------------------------ read-only tables */

int sandbox_readonly_target(lua_State *L, int idx) {
    if (guard_target(L, idx)) return 1;
    if (lua_type(L, idx) != LUA_TTABLE || !lua_getmetatable(L, idx)) return 0;
    if (lua_rawgetp(L, -1, &PROXY_KEY) == LUA_TTABLE) {
        lua_remove(L, -2);
        return 1;
    }
    lua_pop(L, 2);
    return 0;
}

/* 1 if the table at idx is a read-only proxy, 2 if it is the global
** environment, else 0. */
static int protection_of(lua_State *L, int idx) {
    int r = 0;
    if (guard_target(L, idx)) {
        lua_pop(L, 1);
        return 1;
    }
    if (lua_type(L, idx) != LUA_TTABLE || !lua_getmetatable(L, idx)) return 0;
    if (lua_rawgetp(L, -1, &PROXY_KEY) != LUA_TNIL)
        r = 1;
    else if (lua_rawgetp(L, -2, &ENV_KEY) != LUA_TNIL)
        r = 2;
    lua_settop(L, r == 1 ? -3 : -4); /* the metatable and what was fetched */
    return r;
}

/* Pushes the name of the proxy at idx for messages. */
static const char *proxy_name(lua_State *L, int idx) {
    if (lua_getmetatable(L, idx)) {
        lua_rawgetp(L, -1, &PATH_KEY);
        lua_remove(L, -2);
        if (lua_type(L, -1) == LUA_TSTRING) return lua_tostring(L, -1);
        lua_pop(L, 1);
    }
    return lua_pushliteral(L, "?");
}

/* Pushes "field 'k'", "index 3" or "a boolean key" for the key at idx. */
static const char *key_text(lua_State *L, int idx) {
    if (lua_type(L, idx) == LUA_TSTRING)
        return lua_pushfstring(L, "field '%s'", lua_tostring(L, idx));
    if (lua_isinteger(L, idx)) return lua_pushfstring(L, "index %I", lua_tointeger(L, idx));
    return lua_pushfstring(L, "a %s key", luaL_typename(L, idx));
}

static int ro_newindex(lua_State *L) {
    const char *name = proxy_name(L, 1);
    const char *key = key_text(L, 2);
    return luaL_error(L, "attempt to modify read-only table %s (%s)", name, key);
}

static int ro_len(lua_State *L) {
    if (!sandbox_readonly_target(L, 1)) return luaL_error(L, "not a read-only table");
    lua_pushinteger(L, (lua_Integer)lua_rawlen(L, -1));
    return 1;
}

/* Pushes the name of t[key] given the name at name_idx and the key on top
** of the stack (left in place). */
static void child_name(lua_State *L, int name_idx) {
    const char *name = lua_tostring(L, name_idx);
    if (lua_type(L, -1) == LUA_TSTRING) {
        size_t n;
        const char *k = lua_tolstring(L, -1, &n);
        int ident = n > 0 && (isalpha((unsigned char)k[0]) || k[0] == '_');
        for (size_t i = 0; ident && i < n; i++)
            ident = isalnum((unsigned char)k[i]) || k[i] == '_';
        if (ident)
            lua_pushfstring(L, "%s.%s", name, k);
        else
            lua_pushfstring(L, "%s[\"%s\"]", name, k);
    } else if (lua_isinteger(L, -1)) {
        lua_pushfstring(L, "%s[%I]", name, lua_tointeger(L, -1));
    } else {
        lua_pushfstring(L, "%s[?]", name);
    }
}

/* Pushes the proxy of the table at t, named by the string at name_idx.
** memo maps tables already seen to their proxies (shared tables, cycles). */
static void freeze_rec(lua_State *L, int t, int name_idx, int memo, int depth) {
    if (depth > SANDBOX_FREEZE_MAX_DEPTH) luaL_error(L, "table nested too deeply to freeze");
    luaL_checkstack(L, 10, "table nested too deeply to freeze");
    if (protection_of(L, t) == 1) {
        lua_pushvalue(L, t);
        return;
    }
    lua_pushvalue(L, t);
    if (lua_rawget(L, memo) != LUA_TNIL) return;
    lua_pop(L, 1);
    lua_newtable(L); /* the proxy */
    int proxy = lua_gettop(L);
    lua_newtable(L); /* the hidden contents */
    int shadow = lua_gettop(L);
    lua_pushvalue(L, t);
    lua_pushvalue(L, proxy);
    lua_rawset(L, memo);

    lua_createtable(L, 0, 8);
    lua_pushvalue(L, shadow);
    lua_setfield(L, -2, "__index");
    lua_pushcfunction(L, ro_newindex);
    lua_setfield(L, -2, "__newindex");
    lua_pushcfunction(L, ro_len);
    lua_setfield(L, -2, "__len");
    lua_pushcfunction(L, sb_pairs);
    lua_setfield(L, -2, "__pairs");
    lua_pushboolean(L, 0); /* getmetatable sees false; setmetatable refuses */
    lua_setfield(L, -2, "__metatable");
    lua_pushvalue(L, shadow);
    lua_rawsetp(L, -2, &PROXY_KEY);
    lua_pushvalue(L, name_idx);
    lua_rawsetp(L, -2, &PATH_KEY);
    lua_setmetatable(L, proxy);

    lua_pushnil(L);
    while (lua_next(L, t)) { /* key, value */
        if (lua_type(L, -1) == LUA_TTABLE) {
            int val = lua_gettop(L);
            lua_pushvalue(L, val - 1); /* the key, for child_name */
            child_name(L, name_idx);
            freeze_rec(L, val, lua_gettop(L), memo, depth + 1);
            lua_replace(L, val);
            lua_settop(L, val);
        }
        lua_pushvalue(L, -2);
        lua_insert(L, -2);
        lua_rawset(L, shadow);
    }
    lua_settop(L, proxy);
}

static int freeze_protected(lua_State *L) {
    lua_newtable(L); /* 3: memo */
    freeze_rec(L, 1, 2, 3, 0);
    return 1;
}

int sandbox_freeze(lua_State *L, int idx, const char *name) {
    idx = lua_absindex(L, idx);
    if (lua_type(L, idx) != LUA_TTABLE) return 0;
    if (!lua_checkstack(L, 4)) return -1;
    lua_pushcfunction(L, freeze_protected);
    lua_pushvalue(L, idx);
    lua_pushstring(L, name ? name : "?");
    /* lua_pushstring can raise at the cap; run even that protected */
    if (lua_pcall(L, 2, 1, 0) != LUA_OK) {
        lua_pop(L, 1);
        return -1;
    }
    lua_replace(L, idx);
    return 0;
}

void sandbox_mark_readonly(lua_State *L, int mt, int target, const char *name) {
    mt = lua_absindex(L, mt);
    target = lua_absindex(L, target);
    lua_pushvalue(L, target);
    lua_rawsetp(L, mt, &PROXY_KEY);
    lua_pushstring(L, name);
    lua_rawsetp(L, mt, &PATH_KEY);
}

/* rawget and rawlen see through proxies (scripts get the same answers as
** with plain reads). */
static int sb_rawget(lua_State *L) {
    luaL_checktype(L, 1, LUA_TTABLE);
    luaL_checkany(L, 2);
    lua_settop(L, 2);
    if (guard_target(L, 1)) { /* a view of the state: the value through it */
        lua_pop(L, 1);
        lua_gettable(L, 1);
        return 1;
    }
    if (sandbox_readonly_target(L, 1)) lua_replace(L, 1);
    lua_rawget(L, 1);
    return 1;
}

static int sb_rawlen(lua_State *L) {
    int t = lua_type(L, 1);
    luaL_argexpected(L, t == LUA_TTABLE || t == LUA_TSTRING, 1, "table or string");
    if (sandbox_readonly_target(L, 1)) lua_replace(L, 1);
    lua_pushinteger(L, (lua_Integer)lua_rawlen(L, 1));
    return 1;
}

/* rawset is how a script would write past __newindex: it refuses proxies,
** and on the global environment it assigns as `_G[k] = v` would (library
** entries stay protected). */
static int sb_rawset(lua_State *L) {
    luaL_checktype(L, 1, LUA_TTABLE);
    luaL_checkany(L, 2);
    luaL_checkany(L, 3);
    lua_settop(L, 3);
    switch (protection_of(L, 1)) {
    case 1: {
        const char *name = proxy_name(L, 1);
        return luaL_error(L, "rawset: attempt to modify read-only table %s", name);
    }
    case 2: lua_settable(L, 1); break;
    default: lua_rawset(L, 1); break;
    }
    return 1;
}

/* Finalizers and weak tables depend on when the collector runs, which is
** not part of a game: a metatable with __gc or __mode is refused. */
static int sb_setmetatable(lua_State *L) {
    if (lua_type(L, 2) == LUA_TTABLE) {
        static const char *const refused[] = {"__gc", "__mode", NULL};
        for (int i = 0; refused[i]; i++) {
            lua_pushstring(L, refused[i]);
            int t = lua_rawget(L, 2);
            lua_pop(L, 1);
            if (t != LUA_TNIL)
                return luaL_error(L, "setmetatable: %s is not allowed in the sandbox "
                                     "(it depends on when memory is collected)",
                                  refused[i]);
        }
    }
    int n = lua_gettop(L);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, n, 1);
    return 1;
}

/* The environment's __newindex: new globals are fine, library names are
** not. Upvalue 1 is the library table. */
static int env_newindex(lua_State *L) {
    lua_settop(L, 3);
    lua_pushvalue(L, 2);
    if (lua_rawget(L, lua_upvalueindex(1)) != LUA_TNIL)
        return luaL_error(L, "attempt to replace the library global '%s'", lua_tostring(L, 2));
    lua_pop(L, 1);
    lua_rawset(L, 1);
    return 0;
}

/* -------------------------------------------- printing without addresses */

/* Pushes the text of the value at idx: __tostring when it has one, the
** plain type name for tables, functions and threads (their addresses differ
** between runs, and a script must not be able to see them). */
static const char *sb_tolstring(lua_State *L, int idx, size_t *len) {
    idx = lua_absindex(L, idx);
    switch (lua_type(L, idx)) {
    case LUA_TNIL:
    case LUA_TBOOLEAN:
    case LUA_TNUMBER:
    case LUA_TSTRING: return luaL_tolstring(L, idx, len);
    default:
        if (luaL_getmetafield(L, idx, "__tostring") != LUA_TNIL) {
            lua_pop(L, 1);
            return luaL_tolstring(L, idx, len);
        }
        lua_pushstring(L, luaL_typename(L, idx));
        return lua_tolstring(L, -1, len);
    }
}

static int sb_tostring(lua_State *L) {
    luaL_checkany(L, 1);
    sb_tolstring(L, 1, NULL);
    return 1;
}

static int sb_print(lua_State *L) {
    sandbox *sb = SB(L);
    int n = lua_gettop(L);
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    for (int i = 1; i <= n; i++) {
        if (i > 1) luaL_addchar(&b, '\t');
        sb_tolstring(L, i, NULL);
        luaL_addvalue(&b);
    }
    luaL_pushresult(&b);
    if (sb->print) sb->print(sb->print_ud, lua_tostring(L, -1));
    return 0;
}

/* string.format without %p, and with %s of a table giving its type name. */
static int sb_format(lua_State *L) {
    size_t fl;
    const char *f = luaL_checklstring(L, 1, &fl);
    const char *e = f + fl;
    int top = lua_gettop(L), arg = 1;
    for (const char *p = f; p < e; p++) {
        if (*p != '%') continue;
        if (++p >= e) break;
        if (*p == '%') continue;
        arg++;
        while (p < e && *p && strchr("-+ #0123456789.", *p)) p++;
        if (p >= e) break;
        if (*p == 'p')
            return luaL_error(L, "string.format: %%p is not allowed in the sandbox "
                                 "(addresses differ between runs)");
        if (*p == 's' && arg <= top && lua_type(L, arg) >= LUA_TTABLE) {
            sb_tolstring(L, arg, NULL);
            lua_replace(L, arg);
        }
    }
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, top, 1);
    return 1;
}

/* string.rep, with the result's size checked against the cap before
** anything is allocated (and a loop of 10^15 empty copies skipped). */
static int sb_srep(lua_State *L) {
    sandbox *sb = SB(L);
    size_t l, lsep;
    luaL_checklstring(L, 1, &l);
    lua_Integer n = luaL_checkinteger(L, 2);
    luaL_optlstring(L, 3, "", &lsep);
    if (n <= 0 || (l == 0 && lsep == 0)) {
        lua_pushliteral(L, "");
        return 1;
    }
    size_t un = (size_t)n, total;
    if (l + lsep < l || un > SIZE_MAX / (l + lsep))
        total = SIZE_MAX;
    else
        total = un * l + (un - 1) * lsep;
    if (total > sb->mem_cap - sb->mem_used) {
        lua_gc(L, LUA_GCCOLLECT); /* garbage may be what stands in the way */
        if (total > sb->mem_cap - sb->mem_used) {
            sb->mem_refusals++;
            sb_trip(L, TRIP_MEMORY, 1);
            sb_raise_tripped(L);
        }
    }
    lua_settop(L, 3);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, 3, 1);
    return 1;
}

/* --------------------------------------------------------------- patterns */

/* Lua's matcher backtracks in C, where the hook never fires: one search
** could run for hours. So before a search runs, its worst case is estimated
** from the pattern and the subject; a search whose worst case does not fit
** in what is left of the budget trips it, and the others are charged.
**
** The estimate, in steps (one step is charged as one instruction): from one
** start, the matcher tries every way its quantified items (x* x+ x- x?) can
** share the subject, and each try reads at most the whole pattern, plus the
** rest of the subject for each %b and back-reference. So one start costs at
** most
**     (plen + linear * m) * min((e1 + 1) * (e2 + 1) * ..., C(m + q, q))
** for m bytes of subject, plen bytes of pattern, `linear` %b and %1-%9, and
** ei the most item i can take: m, at most 1 for x?, and no more than the
** longest run of its class in the subject when measuring that run (charged
** m / SANDBOX_PATTERN_SCAN_BYTES) makes the estimate smaller; q items take
** something (ei > 0), and C(m + q, q) counts the ways they can share m
** bytes. A search tries one
** start when anchored with '^', else up to m + 1; when the first item must
** match a byte (x or x+), a start at a byte it cannot match costs only the
** pattern up to it ("light"). Everything saturates at LUA_MAXINTEGER, which
** no budget reaches. */

typedef struct cset {
    unsigned char bit[32];
} cset;

typedef struct pat_cost {
    lua_Integer plen; /* bytes of pattern: what one try reads at most */
    lua_Integer linear; /* %b and back-references: each reads up to m */
    int anchored;       /* '^': one start only */
    int lead;           /* the first item must match a byte of lead_set */
    cset lead_set;
    lua_Integer light;  /* a start where it cannot: the pattern up to it */
    int n;              /* quantified items */
    size_t ext[SANDBOX_PATTERN_ITEMS]; /* the most each can take */
} pat_cost;

static lua_Integer cost_mul(lua_Integer a, lua_Integer b) {
    if (a == 0 || b == 0) return 0;
    return a > LUA_MAXINTEGER / b ? LUA_MAXINTEGER : a * b;
}

static lua_Integer cost_add(lua_Integer a, lua_Integer b) {
    return a > LUA_MAXINTEGER - b ? LUA_MAXINTEGER : a + b;
}

static void cset_add(cset *s, int c) { s->bit[(unsigned char)c >> 3] |= 1u << (c & 7); }

static int cset_has(const cset *s, int c) { return s->bit[(unsigned char)c >> 3] >> (c & 7) & 1; }

/* Adds the bytes of "%<cl>": a class letter (upper case: its complement;
** %z is the zero byte, deprecated but still matched), or cl itself. Uses
** the C library's ctype, as Lua does. */
static void cset_add_class(cset *s, int cl) {
    if (!cl || !strchr("acdglpsuwxz", tolower(cl))) {
        cset_add(s, cl);
        return;
    }
    for (int c = 0; c < 256; c++) {
        int in = 0;
        switch (tolower(cl)) {
        case 'a': in = isalpha(c); break;
        case 'c': in = iscntrl(c); break;
        case 'd': in = isdigit(c); break;
        case 'g': in = isgraph(c); break;
        case 'l': in = islower(c); break;
        case 'p': in = ispunct(c); break;
        case 's': in = isspace(c); break;
        case 'u': in = isupper(c); break;
        case 'w': in = isalnum(c); break;
        case 'x': in = isxdigit(c); break;
        case 'z': in = c == 0; break;
        }
        if (isupper(cl) ? !in : in) cset_add(s, c);
    }
}

/* The end of the single-character class at p ('.', "%a", "[a-z]", 'x'), and
** its bytes in *s; NULL when it is malformed (the matcher raises there). */
static const char *class_parse(const char *p, const char *e, cset *s) {
    memset(s, 0, sizeof *s);
    if (*p == '.') {
        memset(s, 0xff, sizeof *s);
        return p + 1;
    }
    if (*p == '%') {
        if (p + 1 >= e) return NULL;
        cset_add_class(s, (unsigned char)p[1]);
        return p + 2;
    }
    if (*p != '[') {
        cset_add(s, (unsigned char)*p);
        return p + 1;
    }
    /* a set: its first byte is a member even when it is ']' */
    const char *first = p + 1, *q;
    int neg = first < e && *first == '^';
    if (neg) first++;
    q = first;
    do {
        if (q >= e) return NULL;
        if (*q++ == '%' && q < e) q++;
    } while (q >= e || *q != ']');
    for (const char *r = first; r < q; r++) {
        if (*r == '%' && r + 1 < q) {
            cset_add_class(s, (unsigned char)*++r);
        } else if (r + 2 < q && r[1] == '-') {
            for (int c = (unsigned char)r[0]; c <= (unsigned char)r[2]; c++) cset_add(s, c);
            r += 2;
        } else {
            cset_add(s, (unsigned char)*r);
        }
    }
    if (neg)
        for (int i = 0; i < 32; i++) s->bit[i] = (unsigned char)~s->bit[i];
    return q + 1;
}

/* Longest run of bytes of s in the subject. */
static size_t cset_run(const cset *set, const char *s, size_t m) {
    size_t best = 0, run = 0;
    for (size_t i = 0; i < m; i++) {
        run = cset_has(set, (unsigned char)s[i]) ? run + 1 : 0;
        if (run > best) best = run;
    }
    return best;
}

static int cset_full(const cset *s) {
    for (int i = 0; i < 32; i++)
        if (s->bit[i] != 0xff) return 0;
    return 1;
}

/* The most one start can cost with m bytes of subject after it. */
static lua_Integer pat_per_start(const pat_cost *pc, size_t m) {
    lua_Integer ways = 1, shares = 1;
    int q = 0;
    for (int i = 0; i < pc->n && ways < LUA_MAXINTEGER; i++) {
        size_t e = pc->ext[i] < m ? pc->ext[i] : m;
        if (e == 0) continue;
        ways = cost_mul(ways, (lua_Integer)e + 1);
        q++;
    }
    /* the q items share the m bytes: at most C(m + q, q) ways */
    for (int i = 1; i <= q && shares < ways; i++) {
        lua_Integer f = (lua_Integer)m + i;
        shares = shares > LUA_MAXINTEGER / f ? LUA_MAXINTEGER : shares * f / i;
    }
    if (shares < ways) ways = shares;
    return cost_mul(cost_add(pc->plen, cost_mul(pc->linear, (lua_Integer)m)), ways);
}

/* The most the starts a..b (1-based; b at most n + 1) of a search in s (n
** bytes) can cost: per each, but pc->light where the first item cannot
** match (pc NULL: per everywhere). Reads the b - a bytes once. */
static lua_Integer pat_range_cost(const pat_cost *pc, lua_Integer per, const char *s, size_t n,
                                  size_t a, size_t b) {
    if (b < a) return 0;
    lua_Integer k = (lua_Integer)(b - a + 1), h = k;
    if (pc && pc->lead) {
        h = 0;
        for (size_t i = a; i <= b && i <= n; i++)
            h += cset_has(&pc->lead_set, (unsigned char)s[i - 1]);
    }
    return cost_add(cost_mul(k - h, pc ? pc->light : 0), cost_mul(h, per));
}

/* Raises unless the pattern is short enough; fn names the function. */
static void pat_check(lua_State *L, size_t pl, const char *fn) {
    if (pl > (size_t)CAIRN_LUA_MAX_PATTERN)
        luaL_error(L, "string.%s: pattern longer than %d bytes (limit CAIRN_LUA_MAX_PATTERN)", fn,
                   (int)CAIRN_LUA_MAX_PATTERN);
}

/* Whether string.find takes pattern p as plain text: it has none of
** "^$*+?.([%-". */
static int pat_literal(const char *p, size_t pl) {
    for (size_t i = 0; i < pl; i++)
        if (p[i] && strchr("^$*+?.([%-", p[i])) return 0;
    return 1;
}

/* Fills pc for pattern p (pl bytes, at most CAIRN_LUA_MAX_PATTERN) searched
** in the m bytes at s; with gmatch set a leading '^' is a plain character,
** as in string.gmatch. Charges the runs it measures. Reads the pattern as
** far as it is well formed: the matcher raises where it is not, so nothing
** past that point runs. */
static void pat_cost_of(lua_State *L, const char *p, size_t pl, int gmatch, const char *s,
                        size_t m, pat_cost *pc) {
    cset set[SANDBOX_PATTERN_ITEMS];
    int once[SANDBOX_PATTERN_ITEMS], measured[SANDBOX_PATTERN_ITEMS];
    const char *e = p + pl;
    pc->plen = (lua_Integer)pl;
    pc->linear = 0;
    pc->n = 0;
    const char *p0 = p;
    int first = 1; /* no item read yet */
    pc->anchored = !gmatch && p < e && *p == '^';
    if (pc->anchored) p++;
    pc->lead = 0;
    while (p < e && pc->n < SANDBOX_PATTERN_ITEMS) {
        if (*p == '(') {
            p += p + 1 < e && p[1] == ')' ? 2 : 1; /* a capture, or a position */
            continue;
        }
        if (*p == ')' || (*p == '$' && p + 1 == e)) {
            p++;
            continue;
        }
        int item = first;
        first = 0;
        if (*p == '%' && p + 1 < e && (p[1] == 'b' || isdigit((unsigned char)p[1]))) {
            pc->linear++; /* %bxy scans for its closer, %1 compares a capture */
            p += p[1] == 'b' ? 4 : 2;
            continue;
        }
        if (*p == '%' && p + 1 < e && p[1] == 'f') { /* a frontier reads one set */
            if (p + 2 >= e || p[2] != '[' || !(p = class_parse(p + 2, e, &set[pc->n]))) break;
            continue;
        }
        const char *ce = class_parse(p, e, &set[pc->n]);
        if (!ce) break;
        p = ce;
        if (item && (p == e || (*p != '*' && *p != '-' && *p != '?'))) {
            pc->lead = 1; /* x or x+: a start needs a byte of x */
            pc->lead_set = set[pc->n];
            pc->light = (lua_Integer)(p - p0);
        }
        if (p < e && (*p == '*' || *p == '+' || *p == '-' || *p == '?')) {
            once[pc->n] = *p == '?';
            measured[pc->n] = 0;
            pc->ext[pc->n] = once[pc->n] ? 1 : m;
            pc->n++;
            p++;
        }
    }
    /* Measure the runs of the classes while that costs less than what it
    ** may save (the same class is measured once). */
    for (int i = 0, scans = 0; i < pc->n && scans < SANDBOX_PATTERN_SCANS; i++) {
        if (measured[i] || cset_full(&set[i])) continue;
        if (m == 0 || pat_per_start(pc, m) <= (lua_Integer)(m / SANDBOX_PATTERN_SCAN_BYTES)) break;
        sb_charge(L, (lua_Integer)(m / SANDBOX_PATTERN_SCAN_BYTES) + 1);
        scans++;
        size_t run = cset_run(&set[i], s, m);
        for (int j = i; j < pc->n; j++) {
            if (measured[j] || memcmp(&set[j], &set[i], sizeof set[i]) != 0) continue;
            pc->ext[j] = once[j] && run > 1 ? 1 : run;
            measured[j] = 1;
        }
    }
}

/* The 1-based start of a search from the integer argument arg (default 1):
** negative counts from the end of the n bytes; past the end gives n + 2. */
static size_t str_init(lua_State *L, int arg, size_t n) {
    lua_Integer i = luaL_optinteger(L, arg, 1);
    if (i > 0) return (lua_Unsigned)i > n + 1 ? n + 2 : (size_t)i;
    if (i == 0 || i < -(lua_Integer)n) return 1;
    return n + 1 - (size_t)-i;
}

/* Calls the library function below its nargs arguments, leaving all its
** results. An error it raises (a malformed pattern) is raised again with
** the caller's "file:line: ", as when a script calls it directly; a trip
** or a memory error is raised as such. */
static void pat_call(lua_State *L, int nargs) {
    int status = lua_pcall(L, nargs, LUA_MULTRET, 0);
    if (status == LUA_OK) return;
    sb_no_swallow(L, status);
    if (lua_type(L, -1) == LUA_TSTRING) {
        luaL_where(L, 1);
        lua_insert(L, -2);
        lua_concat(L, 2);
    }
    lua_error(L);
}

/* Calls string.find (upvalue 1) as find(s, p, init, plain) for the subject
** (n bytes) and pattern at stack indices s and p, which may try `starts`
** starts costing per each, or less as pat_range_cost says (pc NULL for a
** plain find). When `starts * per` fits in the budget left, that is one
** call, charged the worst case of the starts it tried (find returns where
** its match starts). Otherwise the starts are tried one at a time with the
** pattern anchored, each charged before it runs for the subject left after
** it, so the first match is still found when it is near; a start where the
** first item cannot match is charged pc->light and skipped. A literal pattern is searched as plain
** text, with no starts to try one by one. Every call of find is charged at
** least SANDBOX_PATTERN_CALL. Leaves find's results above the old top and
** returns their number (0: no match). */
static int pat_find(lua_State *L, int s, int p, size_t init, size_t n, lua_Integer per,
                    lua_Integer starts, const pat_cost *pc, int plain) {
    int base = lua_gettop(L);
    lua_Integer worst = cost_mul(starts, per);
    size_t pl;
    const char *ps = lua_tolstring(L, p, &pl), *ss = lua_tostring(L, s);
    if (plain || starts == 1 || pat_literal(ps, pl) || sb_fits(L, worst)) {
        sb_afford(L, worst);
        lua_pushvalue(L, lua_upvalueindex(1));
        lua_pushvalue(L, s);
        lua_pushvalue(L, p);
        lua_pushinteger(L, (lua_Integer)init);
        lua_pushboolean(L, plain);
        pat_call(L, 4);
        size_t last = lua_isnil(L, base + 1) ? init + (size_t)starts - 1
                                             : (size_t)lua_tointeger(L, base + 1);
        lua_Integer cost = pat_range_cost(pc, per, ss, n, init, last);
        sb_charge(L, cost > SANDBOX_PATTERN_CALL ? cost : SANDBOX_PATTERN_CALL);
        if (lua_isnil(L, base + 1)) {
            lua_settop(L, base);
            return 0;
        }
        return lua_gettop(L) - base;
    }
    lua_pushliteral(L, "^");
    lua_pushvalue(L, p);
    lua_concat(L, 2); /* base + 1: anchored */
    for (size_t pos = init; pos <= n + 1; pos++) {
        if (pc && pc->lead) { /* skip to a byte the first item can match */
            size_t from = pos;
            while (pos <= n && !cset_has(&pc->lead_set, (unsigned char)ss[pos - 1])) pos++;
            sb_charge(L, cost_mul((lua_Integer)(pos - from) + (pos > n), pc->light));
            if (pos > n) break;
        }
        lua_Integer here = pc ? pat_per_start(pc, n + 1 - pos) : per; /* what is left */
        sb_charge(L, here > SANDBOX_PATTERN_CALL ? here : SANDBOX_PATTERN_CALL);
        lua_pushvalue(L, lua_upvalueindex(1));
        lua_pushvalue(L, s);
        lua_pushvalue(L, base + 1);
        lua_pushinteger(L, (lua_Integer)pos);
        pat_call(L, 3);
        if (!lua_isnil(L, base + 2)) {
            lua_remove(L, base + 1);
            return lua_gettop(L) - base;
        }
        lua_settop(L, base + 1);
    }
    lua_settop(L, base);
    return 0;
}

/* Pushes what match and gmatch answer for find's results (nres of them, on
** top, above the subject s): the captures, or the whole match when there
** are none. Returns how many. */
static int pat_captures(lua_State *L, const char *s, int nres) {
    if (nres > 2) return nres - 2;
    lua_Integer st = lua_tointeger(L, -2), en = lua_tointeger(L, -1);
    lua_pushlstring(L, s + st - 1, (size_t)(en - st + 1));
    return 1;
}

/* string.find takes a literal pattern (pat_literal) as plain text, yet the
** matcher raises at a ')' in it once it gets there (no capture is open):
** match and gmatch, which search with find, must raise as Lua's do.
** Returns 0 for other patterns; else raises when the text before the ')'
** occurs in s from the 1-based start init, and returns 1 (no match). */
static int pat_stray_paren(lua_State *L, const char *s, size_t n, const char *p, size_t pl,
                           size_t init) {
    const char *close = memchr(p, ')', pl);
    if (!close || !pat_literal(p, pl)) return 0;
    size_t k = (size_t)(close - p);
    sb_charge(L, cost_mul((lua_Integer)(n + 2 - init), (lua_Integer)k + 1));
    for (size_t i = init - 1; i + k <= n; i++)
        if (memcmp(s + i, p, k) == 0) luaL_error(L, "invalid pattern capture");
    return 1;
}

/* find (want_pos) and match: s, p, init at 1, 2, 3. */
static int pat_search(lua_State *L, int want_pos, int plain) {
    size_t n, pl;
    const char *s = luaL_checklstring(L, 1, &n);
    const char *p = luaL_checklstring(L, 2, &pl);
    size_t init = str_init(L, 3, n);
    if (!plain) pat_check(L, pl, want_pos ? "find" : "match");
    if (init > n + 1) {
        luaL_pushfail(L);
        return 1;
    }
    if (!want_pos && !plain && pat_stray_paren(L, s, n, p, pl, init)) {
        luaL_pushfail(L);
        return 1;
    }
    size_t m = n + 1 - init;
    lua_Integer per, starts = (lua_Integer)m + 1;
    pat_cost pc;
    if (plain) { /* compares at the starts where p fits */
        per = cost_add((lua_Integer)pl, 1);
        starts = pl < m ? (lua_Integer)(m - pl) + 1 : 1;
    } else {
        pat_cost_of(L, p, pl, 0, s + init - 1, m, &pc);
        per = pat_per_start(&pc, m);
        if (pc.anchored) starts = 1;
    }
    int nres = pat_find(L, 1, 2, init, n, per, starts, plain ? NULL : &pc, plain);
    if (nres == 0) {
        luaL_pushfail(L);
        return 1;
    }
    return want_pos ? nres : pat_captures(L, s, nres);
}

/* string.find(s, p [, init [, plain]]); a plain find costs #p + 1 at each
** start where p fits. */
static int sb_sfind(lua_State *L) { return pat_search(L, 1, lua_toboolean(L, 4)); }

/* string.match(s, p [, init]), answered by string.find (upvalue 1). */
static int sb_smatch(lua_State *L) { return pat_search(L, 0, 0); }

/* A gmatch in progress: the next start, the end of the last match (0:
** none), and the estimate for the subject from the first start. */
typedef struct gm_state {
    size_t src, lastmatch;
    pat_cost pc;
} gm_state;

/* The iterator string.gmatch returns. Upvalues: string.find, the subject,
** the pattern (a leading '^' escaped), the gm_state. Each iteration is a
** find from the next start, charged as a find is; as in Lua, an empty
** match where the last one ended is skipped. */
static int sb_gmatch_iter(lua_State *L) {
    gm_state *g = lua_touserdata(L, lua_upvalueindex(4));
    size_t n;
    const char *s = lua_tolstring(L, lua_upvalueindex(2), &n);
    lua_settop(L, 0);
    lua_pushvalue(L, lua_upvalueindex(2)); /* 1 */
    lua_pushvalue(L, lua_upvalueindex(3)); /* 2 */
    size_t pl;
    const char *p = lua_tolstring(L, 2, &pl);
    if (g->src <= n + 1 && pat_stray_paren(L, s, n, p, pl, g->src)) {
        g->src = n + 2;
        return 0;
    }
    while (g->src <= n + 1) {
        size_t m = n + 1 - g->src;
        int nres =
            pat_find(L, 1, 2, g->src, n, pat_per_start(&g->pc, m), (lua_Integer)m + 1, &g->pc, 0);
        if (nres == 0) {
            g->src = n + 2;
            return 0;
        }
        size_t st = (size_t)lua_tointeger(L, 3), en = (size_t)lua_tointeger(L, 4);
        if (en + 1 == g->lastmatch) { /* empty, where the last match ended */
            g->src = st + 1;
            lua_settop(L, 2);
            continue;
        }
        g->src = g->lastmatch = en + 1;
        return pat_captures(L, s, nres);
    }
    return 0;
}

/* string.gmatch(s, p [, init]); upvalue 1 is string.find. The subject's
** runs are measured once, here. */
static int sb_gmatch(lua_State *L) {
    size_t n, pl;
    const char *s = luaL_checklstring(L, 1, &n);
    const char *p = luaL_checklstring(L, 2, &pl);
    size_t init = str_init(L, 3, n);
    pat_check(L, pl, "gmatch");
    lua_settop(L, 2);
    gm_state *g = lua_newuserdatauv(L, sizeof *g, 0); /* 3 */
    g->src = init;
    g->lastmatch = 0;
    size_t m = init <= n + 1 ? n + 1 - init : 0;
    pat_cost_of(L, p, pl, 1, s + (init <= n + 1 ? init - 1 : n), m, &g->pc);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_pushvalue(L, 1);
    if (pl > 0 && p[0] == '^') { /* a plain character to gmatch, an anchor to find */
        lua_pushliteral(L, "%");
        lua_pushvalue(L, 2);
        lua_concat(L, 2);
    } else {
        lua_pushvalue(L, 2);
    }
    lua_pushvalue(L, 3);
    lua_pushcclosure(L, sb_gmatch_iter, 4);
    return 1;
}

/* string.gsub(s, p, repl [, n]): it tries every start, so the whole worst
** case is charged before it runs. Upvalue 1 is the original. A replacement
** string runs no Lua, so the errors are gsub's own and get the caller's
** location; a function's or a table's errors pass as they are. */
static int sb_sgsub(lua_State *L) {
    size_t n, pl;
    const char *s = luaL_checklstring(L, 1, &n);
    const char *p = luaL_checklstring(L, 2, &pl);
    pat_check(L, pl, "gsub");
    pat_cost pc;
    pat_cost_of(L, p, pl, 0, s, n, &pc);
    lua_Integer per = pat_per_start(&pc, n);
    lua_Integer worst = pc.anchored ? per : pat_range_cost(&pc, per, s, n, 1, n + 1);
    sb_charge(L, worst > SANDBOX_PATTERN_CALL ? worst : SANDBOX_PATTERN_CALL);
    int top = lua_gettop(L);
    int plain_repl = lua_type(L, 3) == LUA_TSTRING || lua_type(L, 3) == LUA_TNUMBER;
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    if (plain_repl)
        pat_call(L, top);
    else
        lua_call(L, top, LUA_MULTRET);
    return lua_gettop(L);
}

/* ------------------------------------------------------------------ table */

/* Calls the comparator (or <) on the values at a and b. */
static int sort_less(lua_State *L, int a, int b) {
    a = lua_absindex(L, a);
    b = lua_absindex(L, b);
    if (lua_isnil(L, 2)) return lua_compare(L, a, b, LUA_OPLT);
    lua_pushvalue(L, 2);
    lua_pushvalue(L, a);
    lua_pushvalue(L, b);
    lua_call(L, 2, 1);
    int r = lua_toboolean(L, -1);
    lua_pop(L, 1);
    return r;
}

/* table.sort(t [, less]): a stable bottom-up merge sort. Equal elements keep
** their order, so a sort gives the same result in every run. Uses two
** scratch tables of #t entries; charged n*log2(n) instructions. */
static int sb_tsort(lua_State *L) {
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_Integer n = luaL_len(L, 1);
    if (n < 2) return 0;
    luaL_argcheck(L, n < INT_MAX, 1, "array too big");
    if (!lua_isnoneornil(L, 2)) luaL_checktype(L, 2, LUA_TFUNCTION);
    lua_settop(L, 2);
    lua_Integer logn = 0;
    for (lua_Integer m = n; m > 1; m >>= 1) logn++;
    sb_charge(L, n * (logn + 1));
    if (n <= SANDBOX_SORT_SMALL) {
        /* insertion sort on the stack: stable, and no tables to make */
        luaL_checkstack(L, (int)n + 4, "sort");
        int base = lua_gettop(L);
        for (lua_Integer i = 1; i <= n; i++) lua_geti(L, 1, i);
        for (int i = 2; i <= (int)n; i++) {
            int j = i;
            while (j > 1 && sort_less(L, base + j, base + j - 1)) {
                lua_pushvalue(L, base + j);
                lua_copy(L, base + j - 1, base + j);
                lua_replace(L, base + j - 1);
                j--;
            }
        }
        for (lua_Integer i = 1; i <= n; i++) {
            lua_pushvalue(L, base + (int)i);
            lua_seti(L, 1, i);
        }
        lua_settop(L, base);
        return 0;
    }
    lua_createtable(L, (int)n, 0); /* 3 */
    lua_createtable(L, (int)n, 0); /* 4 */
    for (lua_Integer i = 1; i <= n; i++) {
        lua_geti(L, 1, i);
        lua_rawseti(L, 3, i);
    }
    int src = 3, dst = 4;
    for (lua_Integer w = 1; w < n; w *= 2) {
        for (lua_Integer lo = 1; lo <= n; lo += 2 * w) {
            lua_Integer mid = lo + w < n + 1 ? lo + w : n + 1;
            lua_Integer hi = lo + 2 * w < n + 1 ? lo + 2 * w : n + 1;
            lua_Integer i = lo, j = mid, k = lo;
            while (i < mid && j < hi) {
                lua_rawgeti(L, src, i);
                lua_rawgeti(L, src, j);
                if (sort_less(L, -1, -2)) { /* right strictly first */
                    lua_rawseti(L, dst, k++);
                    lua_pop(L, 1);
                    j++;
                } else {
                    lua_pop(L, 1);
                    lua_rawseti(L, dst, k++);
                    i++;
                }
            }
            for (; i < mid; i++) {
                lua_rawgeti(L, src, i);
                lua_rawseti(L, dst, k++);
            }
            for (; j < hi; j++) {
                lua_rawgeti(L, src, j);
                lua_rawseti(L, dst, k++);
            }
        }
        int t = src;
        src = dst;
        dst = t;
    }
    for (lua_Integer i = 1; i <= n; i++) {
        lua_rawgeti(L, src, i);
        lua_seti(L, 1, i);
    }
    return 0;
}

/* As ltablib's tinsert, with the shift charged (a __len of 10^15 would
** otherwise loop in C, where the hook never fires). */
static int sb_tinsert(lua_State *L) {
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_Integer e = luaL_len(L, 1);
    lua_Integer pos;
    e = (lua_Integer)((lua_Unsigned)e + 1u); /* first empty element */
    switch (lua_gettop(L)) {
    case 2: pos = e; break;
    case 3:
        pos = luaL_checkinteger(L, 2);
        luaL_argcheck(L, (lua_Unsigned)pos - 1u < (lua_Unsigned)e, 2, "position out of bounds");
        if (e > pos) sb_charge(L, e - pos); /* same sign here: no overflow */
        for (lua_Integer i = e; i > pos; i--) {
            lua_geti(L, 1, i - 1);
            lua_seti(L, 1, i);
        }
        break;
    default: return luaL_error(L, "wrong number of arguments to 'insert'");
    }
    lua_seti(L, 1, pos);
    return 0;
}

/* As ltablib's tremove, charged likewise. */
static int sb_tremove(lua_State *L) {
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_Integer size = luaL_len(L, 1);
    lua_Integer pos = luaL_optinteger(L, 2, size);
    if (pos != size)
        luaL_argcheck(L, (lua_Unsigned)pos - 1u <= (lua_Unsigned)size, 2, "position out of bounds");
    lua_geti(L, 1, pos);
    if (size > pos) sb_charge(L, size - pos);
    for (; pos < size; pos++) {
        lua_geti(L, 1, pos + 1);
        lua_seti(L, 1, pos);
    }
    lua_pushnil(L);
    lua_seti(L, 1, pos);
    return 1;
}

/* table.move, charged one instruction per element moved. */
static int sb_tmove(lua_State *L) {
    lua_Integer f = luaL_checkinteger(L, 2);
    lua_Integer e = luaL_checkinteger(L, 3);
    if (e >= f) {
        lua_Unsigned cnt = (lua_Unsigned)e - (lua_Unsigned)f + 1u;
        sb_charge(L, cnt > (lua_Unsigned)LUA_MAXINTEGER ? LUA_MAXINTEGER : (lua_Integer)cnt);
    }
    int n = lua_gettop(L);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, n, 1);
    return 1;
}

/* ---------------------------------------------------------------- require */

/* Reads a whole file into a malloc'd buffer. Returns NULL and sets *why
** (a static string or strerror) on failure. */
static char *read_source(const char *path, size_t *len, const char **why) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        *why = strerror(errno);
        return NULL;
    }
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    if (!buf) {
        fclose(f);
        *why = "out of memory";
        return NULL;
    }
    for (;;) {
        if (n == cap) {
            if (cap > (size_t)CAIRN_LUA_MAX_SOURCE_BYTES) {
                free(buf);
                fclose(f);
                *why = "file too large for a script";
                return NULL;
            }
            char *b = realloc(buf, cap * 2);
            if (!b) {
                free(buf);
                fclose(f);
                *why = "out of memory";
                return NULL;
            }
            buf = b;
            cap *= 2;
        }
        size_t k = fread(buf + n, 1, cap - n, f);
        n += k;
        if (k == 0) break;
    }
    int bad = ferror(f);
    fclose(f);
    if (bad || n > (size_t)CAIRN_LUA_MAX_SOURCE_BYTES) {
        free(buf);
        *why = bad ? "read error" : "file too large for a script";
        return NULL;
    }
    *len = n;
    return buf;
}

/* Letters, digits, '_' and '.', no empty part, so that "a.b" can only mean
** a/b.lua below a module folder ("..", "/" and absolute paths are out). */
static int valid_module_name(const char *s, size_t n) {
    if (n == 0 || n > SANDBOX_MODULE_NAME_MAX || s[0] == '.' || s[n - 1] == '.') return 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (!(isalnum(c) || c == '_' || c == '.')) return 0;
        if (c == '.' && s[i + 1] == '.') return 0;
    }
    return 1;
}

/* Loads a chunk in text mode, named by the "@<chunk name>" string on top of
** the stack, which it replaces with the function or the error. Raises
** nothing (the caller may hold malloc'd memory); a compile error is
** recorded as such for report(). */
static int load_text(lua_State *L, const char *buf, size_t len) {
    sandbox *sb = SB(L);
    int status = luaL_loadbufferx(L, buf, len, lua_tostring(L, -1), "t");
    if (status == LUA_ERRSYNTAX) {
        sb->syntax_msg = lua_topointer(L, -1);
        snprintf(sb->syntax_file, sizeof sb->syntax_file, "%s", lua_tostring(L, -2) + 1);
    }
    lua_remove(L, -2);
    return status;
}

/* The relative file of module name (validated): "a.b" -> "a/b.lua". */
static void module_file(const char *name, char rel[SANDBOX_MODULE_NAME_MAX + 8]) {
    size_t i;
    for (i = 0; name[i]; i++) rel[i] = name[i] == '.' ? '/' : name[i];
    memcpy(rel + i, ".lua", 5);
}

/* Which module folder holds rel: the first where <dir>/<rel> exists and,
** symlinks resolved, is still inside <dir>. Fills real (malloc'd, the path
** to open). Returns the folder's index, or -1. Touches no Lua. */
static int find_module(const sandbox *sb, const char *rel, char **real) {
    for (size_t d = 0; d < sb->n_dirs; d++) {
        if (!sb->canon[d]) continue;
        size_t cl = strlen(sb->canon[d]);
        size_t pl = cl + 1 + strlen(rel) + 1;
        char *p = malloc(pl);
        if (!p) return -1;
        snprintf(p, pl, "%s/%s", sb->canon[d], rel);
        *real = realpath(p, NULL);
        free(p);
        if (!*real) continue;
        if (strncmp(*real, sb->canon[d], cl) == 0 && (*real)[cl] == '/') return (int)d;
        free(*real);
        *real = NULL;
    }
    return -1;
}

static int clear_loading(lua_State *L) {
    lua_rawgetp(L, LUA_REGISTRYINDEX, &LOADING_KEY);
    lua_rawgeti(L, 1, 1);
    lua_pushnil(L);
    lua_rawset(L, -3);
    return 0;
}

/* Pushes the registry table at key, creating it when missing. */
static void registry_table(lua_State *L, const void *key) {
    if (lua_rawgetp(L, LUA_REGISTRYINDEX, key) != LUA_TTABLE) {
        lua_pop(L, 1);
        lua_newtable(L);
        lua_pushvalue(L, -1);
        lua_rawsetp(L, LUA_REGISTRYINDEX, key);
    }
}

/* The compiled-chunk cache. A file is read and compiled once per state; each
** game (sandbox_reset) runs the same compiled function again with its own
** fresh environment as _ENV, which gives exactly what a fresh load would:
** a main chunk's only upvalue is _ENV, so every local, closure and table it
** makes is new, and nothing of an earlier game is reachable from it. The
** files are taken as unchanged for the state's life: hot reload builds a
** new sandbox. */

/* If the chunk for the file named at key_idx is cached, pushes it with the
** current environment as its _ENV and returns 1; else pushes nothing, 0. */
static int push_cached_chunk(lua_State *L, int key_idx) {
    key_idx = lua_absindex(L, key_idx);
    if (lua_rawgetp(L, LUA_REGISTRYINDEX, &CHUNKS_KEY) != LUA_TTABLE) {
        lua_pop(L, 1);
        return 0;
    }
    lua_pushvalue(L, key_idx);
    if (lua_rawget(L, -2) != LUA_TFUNCTION) {
        lua_pop(L, 2);
        return 0;
    }
    lua_remove(L, -2);
    lua_rawgeti(L, LUA_REGISTRYINDEX, LUA_RIDX_GLOBALS);
    if (!lua_setupvalue(L, -2, 1)) lua_pop(L, 1);
    return 1;
}

/* Stores the function at fn_idx as the compiled chunk of the file named at
** key_idx. May raise (memory): call protected. */
static void cache_chunk(lua_State *L, int key_idx, int fn_idx) {
    key_idx = lua_absindex(L, key_idx);
    fn_idx = lua_absindex(L, fn_idx);
    registry_table(L, &CHUNKS_KEY);
    lua_pushvalue(L, key_idx);
    lua_pushvalue(L, fn_idx);
    lua_rawset(L, -3);
    lua_pop(L, 1);
}

/* require(name): a/b.lua from the module folders, loaded once per state in
** the sandbox environment. */
static int sb_require(lua_State *L) {
    size_t len;
    const char *name = luaL_checklstring(L, 1, &len);
    lua_settop(L, 1);
    if (!valid_module_name(name, len) || strlen(name) != len)
        return luaL_error(L, "require: bad module name \"%s\" (letters, digits, '_' and '.' "
                             "as in \"lib.bag\"; no paths)",
                          name);
    registry_table(L, &LOADED_KEY); /* 2 */
    lua_pushvalue(L, 1);
    if (lua_rawget(L, 2) != LUA_TNIL) return 1;
    lua_pop(L, 1);
    registry_table(L, &LOADING_KEY); /* 3 */
    lua_pushvalue(L, 1);
    if (lua_rawget(L, 3) != LUA_TNIL)
        return luaL_error(L, "require: module '%s' is already being loaded (require loop)", name);
    lua_pop(L, 1);

    sandbox *sb = SB(L);
    char rel[SANDBOX_MODULE_NAME_MAX + 8];
    char *real = NULL;
    module_file(name, rel);
    int d = find_module(sb, rel, &real);
    free(real); /* only its existence mattered; reopened below */
    if (d < 0)
        return luaL_error(L, "require: module '%s' not found in the ruleset or the stdlib", name);
    lua_pushfstring(L, "%s/%s", sb->canon[d], rel);   /* 4: the file */
    lua_pushfstring(L, "@%s/%s", sb->dirs[d], rel);   /* 5: the chunk name */
    if (!push_cached_chunk(L, 4)) {
        /* from here to load_text nothing may raise: buf is malloc'd */
        const char *why = NULL;
        size_t n = 0;
        char *buf = read_source(lua_tostring(L, 4), &n, &why);
        if (!buf) return luaL_error(L, "require: cannot read %s: %s", lua_tostring(L, 5) + 1, why);
        int status = load_text(L, buf, n); /* 5: the chunk */
        free(buf);
        if (status != LUA_OK) {
            sb_no_swallow(L, status);
            return lua_error(L);
        }
        cache_chunk(L, 4, 5);
    } else {
        lua_replace(L, 5);
    }

    /* mark as loading until the chunk returns or fails */
    lua_remove(L, 4);
    lua_createtable(L, 1, 0); /* 5: guard */
    lua_pushvalue(L, 1);
    lua_rawseti(L, -2, 1);
    lua_rawgetp(L, LUA_REGISTRYINDEX, &GUARD_KEY);
    lua_setmetatable(L, -2);
    lua_pushvalue(L, 1);
    lua_pushboolean(L, 1);
    lua_rawset(L, 3);
    lua_toclose(L, 5);

    lua_pushvalue(L, 4);
    lua_pushvalue(L, 1);
    lua_call(L, 1, 1); /* 6 */
    if (lua_isnil(L, 6)) {
        lua_pushboolean(L, 1);
        lua_replace(L, 6);
    }
    lua_pushvalue(L, 1);
    lua_pushvalue(L, 6);
    lua_rawset(L, 2);
    lua_closeslot(L, 5);
    lua_pushvalue(L, 6);
    return 1;
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
    freeze_rec(L, lua_gettop(L) - 2, lua_gettop(L), lua_gettop(L) - 1, 0);
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
    store_library(L, lib, LUA_TABLIBNAME);

    open_allowed(L, LUA_MATHLIBNAME, luaopen_math, math_allowed);
    store_library(L, lib, LUA_MATHLIBNAME);

    open_allowed(L, LUA_UTF8LIBNAME, luaopen_utf8, utf8_allowed);
    store_library(L, lib, LUA_UTF8LIBNAME);

    open_allowed(L, LUA_COLIBNAME, luaopen_coroutine, coroutine_allowed);
    luaL_setfuncs(L, coroutine_replaced, 0);
    store_library(L, lib, LUA_COLIBNAME);

    /* require's close guard */
    lua_newtable(L);
    lua_pushcfunction(L, clear_loading);
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
    lua_pushcclosure(L, env_newindex, 1);
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
    sb->tick_limit = budget_ticks_for(sb->budget);
    sb->print = c->print;
    sb->print_ud = c->print_ud;
    for (size_t i = 0; i < c->n_module_dirs; i++)
        if (c->module_dirs[i] && add_dir(sb, c->module_dirs[i]) != 0) goto oom;
    if (c->stdlib_dir) {
        if (add_dir(sb, c->stdlib_dir) != 0) goto oom;
        sb->n_stdlib = 1;
    }
    sb->L = lua_newstate(sb_alloc, sb);
    if (!sb->L) {
        char cap[64];
        cap_text(sb->mem_cap, cap, sizeof cap);
        if (errs)
            cerr_add(errs, NULL, 0, 0, NULL,
                     "sandbox: cannot create a Lua state within a memory cap of %s", cap);
        sandbox_free(sb);
        return NULL;
    }
    *(sandbox **)lua_getextraspace(sb->L) = sb;
    lua_pushcfunction(sb->L, sb_setup);
    if (lua_pcall(sb->L, 0, 0, 0) != LUA_OK) {
        char cap[64];
        cap_text(sb->mem_cap, cap, sizeof cap);
        if (errs)
            cerr_add(errs, NULL, 0, 0, NULL,
                     "sandbox: cannot set up the Lua state: %s (memory cap %s)",
                     lua_tostring(sb->L, -1) ? lua_tostring(sb->L, -1) : "?", cap);
        sandbox_free(sb);
        return NULL;
    }
    return sb;
oom:
    if (errs) cerr_add(errs, NULL, 0, 0, NULL, "sandbox: out of memory");
    sandbox_free(sb);
    return NULL;
}

void sandbox_free(sandbox *sb) {
    if (!sb) return;
    if (sb->L) lua_close(sb->L);
    for (size_t i = 0; i < sb->n_dirs; i++) {
        free(sb->dirs[i]);
        free(sb->canon[i]);
    }
    free(sb->dirs);
    free(sb->canon);
    free(sb->traceback);
    free(sb);
}

lua_State *sandbox_state(sandbox *sb) { return sb->L; }

void sandbox_set_timed(sandbox *sb, int on) { sb->timed_allowed = on; }

void sandbox_set_print(sandbox *sb, void (*print)(void *ud, const char *text), void *ud) {
    sb->print = print;
    sb->print_ud = ud;
}
size_t sandbox_memory_used(const sandbox *sb) { return sb->mem_used; }
long sandbox_instructions_used(const sandbox *sb) { return sb->count; }
const char *sandbox_traceback(const sandbox *sb) { return sb->traceback ? sb->traceback : ""; }

void sandbox_forget_modules(sandbox *sb) {
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
    sb->last_file[0] = '\0';
    sb->last_line = 0;
    sb->def_file[0] = '\0';
    sb->def_line = 0;
    sb->precise = 0;
    sb->running = L;
    sb->timed = 0;
    /* garbage past half the cap would put the hook in its every-instruction
    ** mode for the whole call; a full collection is cheaper (finalizers
    ** cannot run scripts: __gc is refused) */
    if (sb->mem_used > sb->mem_cap / 2) lua_gc(L, LUA_GCCOLLECT);
    (void)fn; /* where it is defined is looked up only if it fails (def_of) */
    if (sb->no_budget) return;
    if (sb->timed_allowed && sb->tick_limit) {
        sb->watch.running = L;
        sb->watch.hook = sb_hook;
        sb->watch.limit = sb->tick_limit;
        if (budget_watch_start(&sb->watch) == 0) {
            sb->timed = 1;
            return;
        }
    }
    sb->watch.fired = 0;
    lua_sethook(L, sb_hook, LUA_MASKCOUNT, CAIRN_LUA_HOOK_STEP);
}

/* Records where the function at fn is defined: what a memory error nobody
** caught is blamed on when no line was seen. Only after a failure: looking
** it up costs more than many a handler call. */
static void def_of(sandbox *sb, int fn) {
    lua_Debug ar;
    lua_pushvalue(sb->L, fn);
    if (lua_getinfo(sb->L, ">S", &ar) && ar.source[0] != '=') {
        frame_file(&ar, sb->def_file, sizeof sb->def_file);
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
    if (sb->tripped == TRIP_BUDGET) {
        kind = SANDBOX_ERR_BUDGET;
        if (errs)
            cerr_add(errs, sb->err_found ? sb->err_file : NULL, sb->err_found ? sb->err_line : 0, 0,
                     NULL, "instruction budget of %ld exceeded", sb->budget);
    } else if (sb->tripped == TRIP_MEMORY || status == LUA_ERRMEM) {
        kind = SANDBOX_ERR_MEMORY;
        const char *file = NULL;
        int line = 0;
        if (sb->tripped && sb->err_found) {
            file = sb->err_file;
            line = sb->err_line;
        } else if (sb->last_line > 0) {
            file = sb->last_file;
            line = sb->last_line;
        } else if (sb->def_file[0]) {
            file = sb->def_file;
            line = sb->def_line;
        }
        if (errs) {
            if (sb->mem_refusals > sb->refusals_at_call)
                cerr_add(errs, file, line, 0, NULL, "memory cap of %s exceeded", cap);
            else
                cerr_add(errs, file, line, 0, NULL, "out of memory");
        }
    } else if (obj && obj == sb->syntax_msg && msg) {
        size_t flen, strip;
        int line = 0;
        kind = SANDBOX_ERR_SYNTAX;
        if (!parse_where(msg, &flen, &line, &strip)) strip = 0;
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

int sandbox_call(sandbox *sb, int nargs, int nresults, cerr_list *errs) {
    lua_State *L = sb->L;
    int fn = lua_gettop(L) - nargs;
    int top = sb->depth == 0;
    if (nargs < 0 || fn < 1 || !lua_checkstack(L, 4)) {
        if (errs)
            cerr_add(errs, NULL, 0, 0, NULL, "sandbox_call: no function to call (or no stack room)");
        return SANDBOX_ERR_RUN;
    }
    if (top) begin_call(sb, fn);
    /* below the function: a copy of it (for def_of after a failure), then
    ** the message handler */
    lua_pushvalue(L, fn);
    lua_insert(L, fn);
    lua_pushcfunction(L, sb_msgh);
    lua_insert(L, fn + 1);
    sb->depth++;
    int status = lua_pcall(L, nargs, nresults, fn + 1);
    sb->depth--;
    lua_remove(L, fn + 1);
    if (top && status != LUA_OK && !sb->def_file[0]) def_of(sb, fn);
    lua_remove(L, fn);
    if (top) {
        if (sb->timed) budget_watch_stop(&sb->watch);
        lua_sethook(L, NULL, 0, 0);
        sb->running = sb->watch.running = NULL;
        sb->precise = 0;
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
    if (src->key && push_cached_chunk(L, 1)) {
        lua_remove(L, 1);
    } else if (!src->buf) {
        src->missing = 1;
        return 0;
    } else {
        lua_pushfstring(L, "@%s", src->chunkname);
        int status = load_text(L, src->buf, src->len);
        if (status != LUA_OK) {
            sb_no_swallow(L, status);
            return lua_error(L);
        }
        if (src->key) {
            cache_chunk(L, 1, 2);
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
    const char *why = NULL;
    size_t len = 0;
    char *buf = read_source(path, &len, &why);
    if (!buf) {
        if (errs)
            cerr_add(errs, chunkname ? chunkname : path, 0, 0, NULL, "cannot read script: %s", why);
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
    lua_settop(L, 0);
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
