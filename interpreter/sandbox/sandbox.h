/*
** sandbox.h
** The Lua sandbox a ruleset runs in: one lua_State per game, allow-listed
** globals, an instruction budget per call, a memory cap, read-only tables and
** a deterministic `pairs`. docs/sandbox.md says what scripts can reach.
*/
#ifndef CAIRN_SANDBOX_H
#define CAIRN_SANDBOX_H

#include <setjmp.h>
#include <stddef.h>

#include <lua.h>

#include "error.h"

typedef struct sandbox sandbox;

/* What a call ended with. SANDBOX_OK is 0; every failure is positive. */
typedef enum sandbox_status {
    SANDBOX_OK = 0,
    SANDBOX_ERR_RUN,    /* the script raised an error */
    SANDBOX_ERR_SYNTAX, /* a chunk did not compile (also inside require) */
    SANDBOX_ERR_BUDGET, /* the instruction budget of the call ran out */
    SANDBOX_ERR_MEMORY, /* the memory cap was reached (or malloc failed) */
    SANDBOX_ERR_FILE,   /* a script file could not be read */
    SANDBOX_RETRY       /* timed calls only: it ran long; take back what it did and
                           call it again (it then runs with the exact count) */
} sandbox_status;

typedef struct sandbox_config {
    /* Bytes the whole Lua state may hold. Default CAIRN_LUA_MEMORY_CAP. */
    size_t mem_cap;
    /* VM instructions one top-level sandbox_call may run, counted in steps
    ** of CAIRN_LUA_HOOK_STEP. Must be > 0. Default CAIRN_LUA_INSTRUCTION_BUDGET. */
    long instr_budget;
    /* make bench only: run with no budget and no hook, to measure what the
    ** budget costs. Never set for a ruleset a person plays. */
    int no_budget;
    /* Check mode (`cairn check`, `cairn test`): `#` on a table with holes,
    ** whose answer Lua leaves open (and which changes from run to run), is
    ** an error naming the line (sandbox_len.c). Off (play, sims, playouts),
    ** such a `#` answers the border a search from 1 finds, which depends on
    ** the table's contents only: the same in every run. */
    int strict_len;
    /* `cairn check --unread`: every read of a table frozen by
    ** sandbox_freeze (g.data) is noted by its path, for sandbox_reads. Costs
    ** a C call per read; play, sims and bots leave it off. */
    int track_reads;
    /* Folders `require` searches, in order: the ruleset, then its extends
    ** parents. Chunk names are "<dir>/<a/b>.lua", so pass the path a modder
    ** should read in messages ("rulesets/yak"). Copied by sandbox_new. */
    const char *const *module_dirs;
    size_t n_module_dirs;
    /* The engine's Lua stdlib (stdlib), searched last. Its frames are
    ** left out of tracebacks unless the error is raised inside it. May be
    ** NULL. Copied. */
    const char *stdlib_dir;
    /* Where `print` (and whatever else the embedder binds to the same C
    ** function, g.debug) goes: the debug channel. Called first with text
    ** NULL to ask whether anything listens now: 0 and the arguments are not
    ** even converted (print costs nothing when nobody reads it). Otherwise
    ** called again with where, the calling frame as "file:line" ("?" when
    ** unknown), and text, the arguments converted as tostring does, joined
    ** by single spaces. The callback must not call into Lua. NULL: print
    ** output is dropped. */
    int (*print)(void *ud, const char *where, const char *text);
    void *print_ud;
} sandbox_config;

/* Fills c with the defaults: the caps from limits.h, no module folders, no
** print callback. */
void sandbox_default_config(sandbox_config *c);

/* Creates the Lua state with the capped allocator and the allow-listed
** globals. Returns NULL (with a message in errs) on failure. The caller
** frees the result with sandbox_free. */
sandbox *sandbox_new(const sandbox_config *c, cerr_list *errs);

/* With sandbox_config.track_reads: calls fn with the path of every read
** of frozen data noted since sandbox_new or the last sandbox_reset
** ("g.data.game.refill.free", "g.data.cards[3]", and "g.data.cards[*]" when
** a pairs/next loop went over that table), in no particular order, until fn
** returns non-zero (returned). 0 when nothing was noted; -1 when the Lua
** stack cannot grow. */
int sandbox_reads(sandbox *sb, int (*fn)(void *ud, const char *path), void *ud);

/* Closes the state and frees everything. NULL-safe. */
void sandbox_free(sandbox *sb);

/* The main thread, for pushing functions and arguments. Contract: every Lua
** API call that allocates must run inside sandbox_call (or a lua_pcall): at
** the memory cap an unprotected allocation makes Lua panic and abort. Never
** call script functions with plain lua_call/lua_pcall either: only
** sandbox_call applies the budget and makes its errors uncatchable. */
lua_State *sandbox_state(sandbox *sb);

/* Every error of a CPU-time limit (one call's, or the game's total) holds
** this phrase. Those limits trip by the clock, not by the rules, so where
** one trips may differ between two plays of one game. */
#define SANDBOX_CPU_LIMIT_PHRASE "CPU time limit of"
int sandbox_is_cpu_limit_error(const char *message);

/* Calls the function below nargs arguments on the stack, like lua_pcall,
** with a fresh instruction budget. On success leaves nresults results
** (LUA_MULTRET allowed) and returns SANDBOX_OK. On failure pops the
** function and arguments, adds one error to errs (may be NULL) naming the
** ruleset file:line ("instruction budget of N exceeded", "memory cap of N
** MiB exceeded", or the script's own message) and returns the status; the
** trimmed traceback is then available from sandbox_traceback.
** Nested calls (from a C function a script called) share the outer call's
** budget; the C function should then raise an error to propagate failure.
** Not supported from a C function running inside a coroutine (the call
** would run on the main thread, which is then suspended in resume). */
int sandbox_call(sandbox *sb, int nargs, int nresults, cerr_list *errs);

/* Loads the text file at path (never bytecode) with chunk name chunkname
** (NULL: path), in the sandbox environment, and runs it like sandbox_call
** with no arguments. Results are left on the stack on success. The compiled
** chunk is kept: the same path runs again without reading the file. */
int sandbox_run_file(sandbox *sb, const char *path, const char *chunkname, int nresults,
                     cerr_list *errs);

/* Same, for a chunk held in memory (REPL evaluation, tests). */
int sandbox_run_string(sandbox *sb, const char *code, size_t len, const char *chunkname,
                       int nresults, cerr_list *errs);

/* Compiles text as a sandbox compiles a script it loads (`#` rewritten:
** sandbox_len.c), in any Lua state L, and keeps the bytecode in the chunk
** store, so that a sandbox that later loads the same text under the same
** chunk name ("@<path>") is spared the compile (`cairn check` compiles
** every script before its data check loads them). LUA_OK with the function
** pushed; otherwise nothing pushed (compile the text as it is for the
** message Lua gives). Raises nothing. */
int sandbox_precompile(lua_State *L, const char *text, size_t len, const char *chunkname);

/* "stack traceback:\n\t<file>:<line>: in ..." of the last failed call,
** trimmed to ruleset frames; "" after a success. Owned by sb, valid until
** the next call. */
const char *sandbox_traceback(const sandbox *sb);
/* The same traceback with only the ruleset's own frames (no stdlib, no C),
** each line "\n  <file>:<line>: in ..."; *frames gets how many. "" after a
** success. Owned by sb, valid until the next call. */
const char *sandbox_own_traceback(const sandbox *sb, int *frames);

/* Pops the value on top of the stack and makes it the global `name`, a
** library entry scripts cannot replace (the table itself stays writable
** unless frozen first with sandbox_freeze). For the engine's own API.
** Returns 0, or -1 on out-of-memory or a bad name (the value is popped
** either way). */
int sandbox_set_global(sandbox *sb, const char *name);

/* Replaces the table at idx with a deeply read-only proxy; other values are
** left as they are. Writes through the proxy (or rawset on it) raise
** "attempt to modify read-only table <name>.<path> (field 'k')". Nested
** tables become proxies too (shared tables and cycles keep their shape);
** the original table is not modified and should no longer be handed out.
** Reads, #, ipairs, pairs and next behave as on the original; its
** metatable is not carried over. Works on any state (needs no sandbox).
** Returns 0, or -1 on out-of-memory (the value at idx is then unchanged). */
int sandbox_freeze(lua_State *L, int idx, const char *name);

/* Makes the metatable at mt that of a read-only front for the table at
** target, as sandbox_freeze's proxies are: rawset refuses it, pairs, next,
** rawget and rawlen read target, messages call it name. Its own __index and
** __newindex are the caller's. May raise (memory): call protected. */
void sandbox_mark_readonly(lua_State *L, int mt, int target, const char *name);

/* If the value at idx is a proxy made by sandbox_freeze, pushes the hidden
** table holding its contents (nested tables there are proxies too) and
** returns 1; otherwise pushes nothing and returns 0. Never allocates or
** raises; needs two free stack slots. */
int sandbox_readonly_target(lua_State *L, int idx);

/* With on, top-level calls run without the count hook under a CPU-time
** watch (budget.c): the budget then costs nothing, and a call that runs
** long enough to have possibly passed it ends with SANDBOX_RETRY, nothing
** added to errs. The caller takes back what the call did and calls again
** with timing off, which counts exactly: the verdict is what counting from
** the start gives. Off by default. */
void sandbox_set_timed(sandbox *sb, int on);
/* on: every top-level call runs counted, whatever sandbox_set_timed says
** (a count hook makes Lua check before every instruction: a fifth slower).
** For a fork that ran long once and now plays again counted
** (engine_fork_recount.c), so that no call of it ends with SANDBOX_RETRY. */
void sandbox_count_always(sandbox *sb, int on);

/* Where print goes from now on (as sandbox_config.print), for a state that
** passes from one game to the next. */
void sandbox_set_print(sandbox *sb, int (*print)(void *ud, const char *where, const char *text), void *ud);

/* The sandbox's print function (a C function needing no upvalues), for
** binding it under another name (g.debug). */
int sandbox_print_function(lua_State *L);

/* The hard stop's escape (sandbox_escape.c): past its deadline and
** CAIRN_LUA_HARD_STOP_GRACE_MS a rules call still in C is left by
** siglongjmp(*jb, 1) (jb made by sigsetjmp(*jb, 1) in a frame live for as
** long as it is set), or, with jb NULL (the default), cairn ends with a
** message. Set again after each jump. Whoever sets it owns everything the
** calls under it touch: after a jump nothing on the way (engines, forks,
** bots, sandboxes) may be run or freed, only kept, and the game is built
** again from its log. */
void sandbox_set_escape(sigjmp_buf *jb);
/* Brackets for C code the rules call that uses the C heap (g.log's
** events, the debug channel): a hard stop that falls between them waits
** for sandbox_heap_end, as one inside Lua's allocator waits for it to
** return, so the heap is never left half-changed. Not nested. */
void sandbox_heap_begin(void);
void sandbox_heap_end(void);
/* After a jump to the escape: the sandbox whose call was left, now lost
** (every later sandbox_call on it fails at once, sandbox_free leaves it be),
** with the error (the rules' file:line that called the C work, the limits)
** added to errs; NULL when no call was left. Keep the result reachable (it
** is never freed). */
sandbox *sandbox_escaped(cerr_list *errs);

/* Bytes the Lua state holds now. */
size_t sandbox_memory_used(const sandbox *sb);

/* Instructions counted by the last (or running) top-level call, in steps of
** CAIRN_LUA_HOOK_STEP, plus what C library functions were charged. */
long sandbox_instructions_used(const sandbox *sb);

/* Makes the state as a new one would be for the next game: a fresh global
** environment (script globals of the last game are gone), require's module
** cache emptied, so every chunk runs again and makes new locals, closures
** and tables. Compiled chunks are kept (sandbox_run_file and require do not
** read or compile a file twice in one state); libraries, g.data proxies and
** the string metatable are shared, and read-only. Assumes an empty stack
** (leaves it empty). Returns 0, or -1 out of memory. */
int sandbox_reset(sandbox *sb);

/* Fixes the globals (sandbox_seal.c): those set so far are read as before,
** and assigning any global from now on is a rules error naming the line,
** so a call stopped and run again leaves nothing in globals. The engine
** seals a game's sandbox once its rules are loaded; sandbox_reset unseals.
** Returns 0, or -1 out of memory (nothing changed). */
int sandbox_seal_globals(sandbox *sb);

/* Keeps the loaded rules for the next game (sandbox_keep.c): records every
** table reachable from the value at idx (the rules table), from require's
** cache and from the sealed globals (contents and metatable), and every
** upvalue of every Lua function reached, so that sandbox_restore_kept can
** put them all back as they are now. Call once the rules are loaded and the
** globals sealed, before any handler runs. Returns 0 (kept), 1 when the
** rules reach something no record can put back (a coroutine, a userdata, a
** C function carrying state; nothing kept: run the chunks again with
** sandbox_reset), -1 out of memory (nothing kept). */
int sandbox_keep(sandbox *sb, int idx);

/* Starts the next game on the kept rules: every table and upvalue recorded
** by sandbox_keep is put back (a table a game changed gets its recorded
** contents and metatable again, a variable its value; a module first
** required during a game is forgotten), the game's CPU total and reads
** start afresh. The globals stay sealed. Assumes an empty stack. Returns 0,
** or -1 (nothing kept, or out of memory: then sandbox_reset and load
** again). */
int sandbox_restore_kept(sandbox *sb);

/* Forgets what sandbox_keep recorded (sandbox_reset and
** sandbox_forget_modules do too). */
void sandbox_drop_kept(sandbox *sb);

/* Whether the loaded rules are kept (sandbox_keep since the last reset). */
int sandbox_is_kept(const sandbox *sb);

/* Forgets every module `require` has loaded, so the next require reads the
** file again (hot reload). */
void sandbox_forget_modules(sandbox *sb);

/* Charges n instructions to the running call's budget for work a C
** function of the engine's API does in a loop the hook cannot see
** (g.rng.shuffle of n items). Raises the budget error when it runs out;
** call only from a C function a script called. */
void sandbox_charge(lua_State *L, lua_Integer n);

/* Whether the game's CPU total (CAIRN_LUA_GAME_CPU_MS) applies to the next
** calls (on by default); each call's own limit always does. The engine
** turns it off while it takes a failed decision back (replaying from a
** checkpoint), so that a game out of CPU time still ends where it stood.
** The time such calls take is counted all the same. */
void sandbox_set_game_limit(sandbox *sb, int on);

#endif
