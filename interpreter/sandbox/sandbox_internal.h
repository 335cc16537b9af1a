/*
** sandbox_internal.h
** What the sandbox's files share (sandbox.c: the state, allocator, budget,
** the environment, the public API; sandbox_trace.c: where errors happened;
** sandbox_catch.c: pcall, load and coroutines; sandbox_lib.c: the replaced
** library functions; sandbox_require.c: require; sandbox_tables.c: deterministic pairs/next,
** read-only tables, raw access and the table library; sandbox_pattern.c:
** string matching charged to the budget; sandbox_keep.c: loaded rules kept
** for the next game and put back). Nothing else includes it.
*/
#ifndef CAIRN_SANDBOX_INTERNAL_H
#define CAIRN_SANDBOX_INTERNAL_H

#if !defined(CAIRN_FOLDER_sandbox)
#error "sandbox_internal.h is for interpreter/sandbox/ only: include its public header"
#endif

#include "budget.h"
#include "sandbox.h"
#include "sandbox_blocks.h"

#include <lauxlib.h>
#include <lua.h>

/* Room for a chunk name in an error location. */
#define SANDBOX_WHERE_MAX 512

/* ------------------------------------------------------------ the state */

enum { TRIP_NONE, TRIP_BUDGET, TRIP_MEMORY, TRIP_RETRY, TRIP_CPU, TRIP_GAME_CPU };

struct sandbox {
    lua_State *L;
    size_t mem_used, mem_cap;
    sb_blocks blocks; /* small freed blocks kept for reuse (sandbox_blocks.c) */
    unsigned long mem_refusals; /* allocations the cap refused, ever */
    unsigned long refusals_at_call;
    long budget, count;
    int no_budget; /* sandbox_config.no_budget: calls run without the hook */
    int strict_len; /* sandbox_config.strict_len: check mode's `#` */
    int track_reads; /* sandbox_config.track_reads: reads of frozen data noted */
    /* The budget's CPU-time trigger (budget.c): a top-level call runs with no
    ** count hook while `timed`; a call that runs long trips TRIP_RETRY and
    ** its caller runs it again counted. Only callers that can take a call
    ** back ask for it (sandbox_set_timed); tick_limit 0: budget too small. */
    budget_watch watch;
    int timed, timed_allowed, tick_limit;
    /* CAIRN_TEST_STOP_TIMED_EVERY (docs/testing.md): every Nth timed call
    ** is stopped 5 instructions in, as if the timer had fired, so a
    ** test can show that no caller lets a re-run call change a game; 0 off */
    long stop_timed_every, timed_calls;
    int counted_only; /* sandbox_count_always: never timed, whatever sandbox_set_timed says (forks) */
    /* CPU time, in timer ticks: the most one call may use (the deadline,
    ** counted or not), the most all calls since sandbox_new or
    ** sandbox_reset may use, and what they used (CAIRN_LUA_CALL_CPU_MS,
    ** CAIRN_LUA_GAME_CPU_MS). The call's deadline is the smaller of its
    ** own and what is left of the game's; game_limit_hit says which. */
    long call_ticks_max, game_ticks_max, game_ticks_used;
    long call_cpu_ms, game_cpu_ms;
    /* the hard stop's grace in ticks, and the message it writes (budget.h) */
    long hard_grace_ticks;
    char hard_msg[512];
    size_t hard_len; /* strlen(hard_msg) */
    int game_limit_hit;
    /* Left by a hard stop (sandbox_escaped): L is never touched again, not
    ** even freed; unclaimed is a block the allocator got as the stop came. */
    int lost;
    void *unclaimed;
    int sealed; /* sandbox_seal_globals: assigning a global is an error */
    /* sandbox_keep (sandbox_keep.c): the loaded rules are kept for the next
    ** game; the record holds kept_tables tables and kept_cells upvalues */
    int kept;
    lua_Integer kept_tables, kept_cells;
    int game_limit_off; /* sandbox_set_game_limit(sb, 0): taking a decision back */
    int watched; /* the timer watches the current top-level call */
    int depth;   /* nesting of sandbox_call */
    int tripped; /* TRIP_*: sticky until the top-level call returns */
    /* The thread running Lua code now (the main one or a coroutine being
    ** resumed; always alive). */
    lua_State *running;

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
    char *own_traceback;   /* the ruleset's frames only (malloc'd; NULL when none) */
    int own_frames;        /* how many frames own_traceback holds */

    /* Where the hook last fired, and where the called function starts: the
    ** best we can say about a memory error nobody caught (Lua unwinds those
    ** without calling a message handler). */
    char last_file[SANDBOX_WHERE_MAX];
    int last_line;
    char def_file[SANDBOX_WHERE_MAX];
    int def_line;
    /* Where the first allocation the cap refused in this call was made. */
    char mem_file[SANDBOX_WHERE_MAX];
    int mem_line;

    char **dirs;  /* module folders as configured (for chunk names) */
    char **canon; /* the same, resolved by realpath; NULL when missing */
    size_t n_dirs;
    size_t n_stdlib; /* 1 when dirs[n_dirs - 1] is the stdlib */

    int (*print)(void *ud, const char *where, const char *text);
    void *print_ud;
};

/* Every thread of a sandbox's state carries the sandbox pointer in its extra
** space (lua_newthread copies the main thread's). */
static inline sandbox *SB(lua_State *L) { return *(sandbox **)lua_getextraspace(L); }

/* Metatable keys of read-only proxies and of the environment: addresses no
** script can name (sandbox_tables.c). */
extern const char sandbox_proxy_key, sandbox_path_key, sandbox_env_key;
#define PROXY_KEY sandbox_proxy_key /* -> the hidden table with the contents */
#define PATH_KEY sandbox_path_key   /* -> the name used in messages */
#define ENV_KEY sandbox_env_key     /* marks the global environment */

/* sandbox.c: the budget. sb_charge charges n instructions for work a C
** function does in a loop the hook cannot see, raising the budget error
** when it runs out; sb_fits says whether n more fit; sb_afford raises as
** sb_charge would unless they fit, charging nothing. */
void sb_charge(lua_State *L, lua_Integer n);
int sb_fits(lua_State *L, lua_Integer n);
void sb_afford(lua_State *L, lua_Integer n);
/* Called with the status of anything that caught an error: a memory error
** or a trip is raised again, so no script can swallow it. */
void sb_no_swallow(lua_State *L, int status);

/* sandbox.c: the count hook, a trip (the budget, the memory cap or the CPU
** timer: kind TRIP_*, raised at `level`), and the error a tripped state
** raises again wherever a script tries to go on. */
void sb_hook(lua_State *L, lua_Debug *ar);
void sb_trip(lua_State *L, int kind, int level);
int sb_raise_tripped(lua_State *L);

/* sandbox_trace.c: the chunk name of a frame (out, size bytes); where a
** message names its file and line (1 when it does: the file's length, the
** line, the bytes of the "file:line: " prefix); the traceback of an error
** kept in the sandbox (from `level`, with msg); the message handler. */
void sb_frame_file(const lua_Debug *ar, char *out, size_t size);
int sb_parse_where(const char *msg, size_t *file_len, int *line, size_t *strip);
void sb_capture(sandbox *sb, lua_State *L, int level, const char *msg);
int sb_msgh(lua_State *L);

/* sandbox_reads.c (sandbox_config.track_reads): sb_note_read notes the
** path string at idx as read; sb_note_read_all notes "path[*]" (every entry
** of the proxy named path); sb_reads_clear forgets them (a new game). Each
** allocates: call them inside a protected call. */
void sb_note_read(lua_State *L, int idx);
void sb_note_read_all(lua_State *L, const char *path);
void sb_reads_clear(lua_State *L);

/* sandbox_catch.c: pcall, xpcall, load and coroutine.create/resume/wrap as
** scripts see them. */
int sb_pcall(lua_State *L);
int sb_xpcall(lua_State *L);
int sb_load(lua_State *L);
int sb_cocreate(lua_State *L);
int sb_coresume(lua_State *L);
int sb_cowrap(lua_State *L);

/* sandbox_lib.c: tostring, print, string.format and string.rep as scripts
** see them; string and utf8 functions wrapped to be charged by the bytes
** of their string arguments; table.concat and table.unpack charged by
** their size. */
int sb_tostring(lua_State *L);
int sb_print(lua_State *L);
int sb_format(lua_State *L);
int sb_srep(lua_State *L);
int sb_bytes_charged(lua_State *L);
int sb_tconcat(lua_State *L);
int sb_tunpack(lua_State *L);

/* Registry keys shared by sandbox.c and sandbox_require.c. */
extern const char sandbox_lib_key, sandbox_loaded_key, sandbox_loading_key, sandbox_guard_key,
    sandbox_chunks_key, sandbox_found_key;
#define LIB_KEY sandbox_lib_key         /* library entries of the environment */
#define LOADED_KEY sandbox_loaded_key   /* require's cache */
#define LOADING_KEY sandbox_loading_key /* modules being loaded (loops) */
#define GUARD_KEY sandbox_guard_key     /* metatable of require's close guard */
#define CHUNKS_KEY sandbox_chunks_key   /* compiled chunks by file: load once, run per game */
#define FOUND_KEY sandbox_found_key     /* module name -> its file (folder resolved once) */

/* sandbox_require.c. sb_read_source reads a whole script file (malloc'd;
** NULL with why; a regular file, inside within when given: safe_open.h); sb_load_text compiles buf as text, named by the
** "@name" string on top, which it replaces with the chunk or the error;
** sb_push_cached_chunk pushes the chunk compiled before for the file named
** at key_idx, with the current environment as _ENV (1), or nothing (0);
** sb_cache_chunk keeps the function at fn_idx for it; sb_registry_table
** pushes the registry table at key, made if missing; sb_clear_loading is
** require's close guard; sb_require is require. */
char *sb_read_source(const char *path, const char *within, size_t *len, char *why, size_t whysz);
int sb_load_text(lua_State *L, const char *buf, size_t len);
int sb_push_cached_chunk(lua_State *L, int key_idx);
void sb_cache_chunk(lua_State *L, int key_idx, int fn_idx);
void sb_registry_table(lua_State *L, const void *key);
int sb_clear_loading(lua_State *L);
int sb_require(lua_State *L);

/* sandbox_tables.c: the library functions that replace Lua's (pairs, next,
** rawget, rawlen, rawset, setmetatable, table.sort/insert/remove/move), the
** environment's __newindex (upvalue 1: the library table) and the freezer
** store_library uses: pushes the proxy of the table at t, named by the
** string at name_idx; memo maps tables seen to their proxies. */
int sb_pairs(lua_State *L);
int sb_next(lua_State *L);
int sb_rawget(lua_State *L);
int sb_rawlen(lua_State *L);
int sb_rawset(lua_State *L);
int sb_setmetatable(lua_State *L);
int sb_env_newindex(lua_State *L);
/* sandbox_seal.c: undoes sandbox_seal_globals (the moved globals leave the
** library table). Protected callers only (sandbox_reset's). */
void sb_unseal(lua_State *L);
/* sandbox_seal.c: pushes the table whose keys name the sealed globals (1),
** or nothing when none were moved (0). */
int sb_push_sealed(lua_State *L);
/* sandbox_tables.c: whether the table at idx is one no script can change: a
** read-only proxy, the global environment, or the metatable guard. */
int sb_table_protected(lua_State *L, int idx);
void sb_freeze_rec(lua_State *L, int t, int name_idx, int memo, int depth);
int sb_tsort(lua_State *L);
int sb_tinsert(lua_State *L);
int sb_tremove(lua_State *L);
int sb_tmove(lua_State *L);

/* sandbox_chunk.c: checks a text chunk before it is compiled (chains Lua
** 5.4.4 compiles in quadratic time or whose error messages recurse once per
** term). Returns 0, or -1 with "LINE: what" in why. Touches no Lua. */
int sb_chunk_check(const char *buf, size_t len, char *why, size_t whysz);
/* Lua's lexical skips, shared by the chunk checks and check mode's `#`
** rewrite: the end of the long bracket [==[ ... ]==] at p (at '['), or NULL
** when p starts none; the end of the quoted string at p (after its closing
** quote, or at the line end or chunk end of an unfinished one). */
const char *sb_lua_long_end(const char *p, const char *e);
const char *sb_lua_quoted_end(const char *p, const char *e);

/* sandbox_presize.c: the chunk with each empty constructor `{}` made
** `{nil, ...}` (CAIRN_LUA_TABLE_ROOM nils, lines kept), malloc'd with its
** length in *out_len; NULL with *out_len 0 when nothing changed, NULL with
** *out_len (size_t)-1 when memory ran out. */
char *sb_presize_rewrite(const char *src, size_t len, size_t *out_len);

/* sandbox_len.c: `#`. sb_len_rewrite returns the chunk with
** each `#X` made SB_LEN_NAME(X) (malloc'd, its length in *out_len), or NULL
** with *out_len 0 when nothing changed, or NULL with *out_len (size_t)-1
** and "LINE: why" in why when the chunk uses the reserved name (or memory
** ran out). sb_len_checked is SB_LEN_NAME: `#` as sb_len_of answers it. */
#define SB_LEN_NAME "__cairn_len"
char *sb_len_rewrite(const char *src, size_t len, size_t *out_len, char *why, size_t whysz);
/* The chunk as the sandbox compiles it, for `load` and `require` alike:
** `#` rewritten (sb_len_rewrite), then room in each empty table
** (sb_presize_rewrite; without memory for it, the text as it is). Returns
** and fails as sb_len_rewrite does. */
char *sb_chunk_rewrite(const char *src, size_t len, size_t *out_len, char *why, size_t whysz);
/* A chunk sb_chunk_rewrite returned starts with one more local, the `#`
** function (sandbox_len.c), which can take a chunk at Lua's limits (200
** locals, 255 upvalues a function) past them. When the chunk failed to
** compile, sb_len_unprefix removes that local in place (its `#` then read
** the global: slower, the same answers) and returns 1 so that the caller
** compiles it again, whose error, if any, is about the text as written;
** 0 when text has no such local. */
int sb_len_unprefix(char *text, size_t *len);
int sb_len_checked(lua_State *L);
/* The length every table function and rawlen uses (sandbox_len.c): a
** string's bytes; a __len metamethod's answer (unless raw); with
** strict_len, a table's count, refusing a table with holes with an error
** naming fn ("table.insert"), as `#` does; else the border a search from 1
** finds (the contents' own, never the layout's). */
lua_Integer sb_len_of(lua_State *L, int idx, const char *fn, int raw);

/* sandbox_pattern.c: string.find, match, gmatch and gsub, each search's
** worst case charged before it runs (upvalue 1: Lua's own function). */
int sb_sfind(lua_State *L);
int sb_smatch(lua_State *L);
int sb_gmatch(lua_State *L);
int sb_sgsub(lua_State *L);

#endif
