/*
** engine_internal.h
** The inside of a game, shared by the engine's files (as Lua's lstate.h is)
** and by nothing else (the Makefile defines CAIRN_FOLDER_engine for them
** alone): engine.c (transactions, decisions asked, views), engine_build.c
** (building and freeing a game), engine_api.c (g and its functions),
** engine_rules.c (a ruleset loaded once for many games), engine_decisions.c,
** engine_disclosure.c, engine_score.c, engine_history.c (checkpoints, undo,
** replay, reload), engine_fork.c, engine_data_check.c, engine_debug_channel.c
** (g.debug lines and the trace), engine_edit.c (`set PATH VALUE` as a log
** step) and engine_eval.c (`eval EXPR`).
*/
#ifndef CAIRN_ENGINE_INTERNAL_H
#define CAIRN_ENGINE_INTERNAL_H

#if !defined(CAIRN_FOLDER_engine)
#error "engine_internal.h is for interpreter/engine/ only: include its public header"
#endif

#include "engine.h"
#include "grow.h"
#include "limits.h"
#include "sandbox.h"
#include "schema.h"
#include "view.h"

#include <lua.h>

typedef struct event_rec {
    char *text;
    uint32_t to;
    size_t decision;
} event_rec;

/* A position kept whole, for undo/goto and for taking back a failed
** decision: every CAIRN_CHECKPOINT_EVERY decisions (and position 0). */
typedef struct checkpoint {
    size_t pos;
    size_t bytes; /* its share of engine.kept_bytes */
    value *state;
    rng rng;
    size_t n_events;
} checkpoint;

/* What the game was made from: a deep copy of engine_config. */
typedef struct game_cfg {
    char *ruleset;
    char **choices;
    size_t n_choices;
    char *preset;
    char **sets;
    size_t n_sets;
    int players;
    char **names;
    char **bots;
    uint64_t seed;
    char *lang;
    char *lang_wanted; /* NULL: none (engine_config's) */
    const char *(*seat_name_format)(const char *lang); /* engine_config's */
    int checks;
    long budget;
    size_t mem_cap;
    int no_budget;
    int fast;
    value *scenario;
    char *scenario_rng;
} game_cfg;

/* One decision asked now. Its options are ids[first .. first + n) of the
** engine's option table (Lua, engine-owned: see asked_set). */
typedef struct asked_item {
    int seat;
    int hidden;
    size_t first, n;
    size_t n_enabled;
    size_t n_avoided; /* enabled options marked `bot = false` (search bots pass them by) */
} asked_item;

/* The decisions asked now, read from decisions(g) into tables the engine
** owns (a script cannot change them afterwards): ref_ids holds every
** option id in order; only the table form fills ref_labels/ref_reasons
** (by option index) and ref_prompts (by decision index). */
typedef struct asked_set {
    asked_item *items;
    size_t n, cap;
    size_t n_opts, n_opts_filled; /* ids set now; ids the engine's table holds (to clear) */
    unsigned char *disabled;      /* per option: ASK_DISABLED when offered disabled, ASK_AVOIDED
                                  ** when `bot = false` (both from the table form) */
    const void **id_obj;          /* per option: its id's string object in ref_ids (lua_topointer),
                                     which tells a fast game an unchanged id without a lookup */
    size_t cap_opts;              /* of disabled and id_obj */
    int extras;                   /* labels, reasons or prompts were given */
} asked_set;

/* asked_set.disabled's bits */
enum { ASK_DISABLED = 1, ASK_AVOIDED = 2 };

/* The engine's ids table is made with room for this many ids in its list
** part: a usual decision list fills it without growing, and a fast game's
** plain read (engine_decisions.c), which may not allocate, stores no
** further. */
#define ASK_IDS_ROOM 16

/* A ruleset loaded, validated and compiled once for many games
** (engine_rules.c). */
struct engine_rules {
    ruleset *rs;
    int borrowed_rs; /* engine_rules_borrow: rs is the caller's, not freed here */
    view_rules *vis;
    schema_set *schemas;
    const value *state_schema;
    const value *text_lang, *text_en; /* borrowed from rs->text */
    char *lang;
    int players;
    long budget;
    size_t mem_cap;
    int no_budget;
    int strict_len; /* sandbox_config.strict_len, from engine_config.checks */
    int track_reads; /* sandbox_config.track_reads, from engine_config.track_data_reads */
    /* check_data(g) passed once for this data (engine_data_check.c): the data
    ** does not change while the rules are loaded, so later games skip it */
    int data_checked;
    /* sandboxes of finished games, kept for the next (sandbox_reset) */
    struct sandbox_kit *pool[4];
    int n_pool;
};

/* The sandbox's print hook and every closure in g need a pointer that
** survives engine_reload swapping the insides of two engines: they get the
** hub, which follows. It lives as long as its sandbox. */
typedef struct engine_hub {
    engine *e;
    int state_assigned; /* g.state = ... ran since gapi_adopt_state last looked */
} engine_hub;

/* The handlers cairn calls, looked up once when a game starts. */
/* (H_EDIT is no handler: `set PATH VALUE` traced as one, see engine_edit.c.) */
typedef enum {
    H_SETUP, H_DECISIONS, H_APPLY, H_SCORE, H_RENDER, H_CHECK, H_HEURISTIC,
    H_LABEL, H_PROMPT, H_REASON, H_DETERMINIZE, H_CHECK_DATA, H_START_SEAT, H_PARSE, H_METRICS, H_COUNT
} handler_id;
#define H_EDIT H_COUNT
extern const char *const engine_handler_names[H_COUNT];

/* A sandbox and what it keeps from one game to the next: g.data and
** g.options (frozen; a fast game's g.data a plain copy, gapi_start), the three g tables with their closures (bound to the
** hub), and the last g.seats (made again only when the seats differ).
** Engine-side only, never reachable from a script: the registry slots each
** game's handler functions are put in (slot_h, made on first use and never
** released, holding false between games so that luaL_ref's border never
** falls below one), the handler names as Lua strings, and the engine's own
** option tables (ids, labels, reasons, prompts), handed back emptied. */
typedef struct sandbox_kit {
    sandbox *sb;
    engine_hub *hub;
    int ref_data, ref_options, ref_seats;
    int ref_data_plain, ref_seats_plain; /* a fast game's g.data, g.seats: plain copies (LUA_NOREF: made at the first) */
    int ref_g, ref_gfields, ref_gro, ref_grofields, ref_grender, ref_grenderfields;
    int slot_h[H_COUNT];
    int ref_hnames;
    int ref_ids, ref_labels, ref_reasons, ref_prompts; /* LUA_NOREF: made at the next start */
    /* the rules table a fast game loaded and kept for the next fast game
    ** (sandbox_keep: put back as loaded at every start); LUA_NOREF: none */
    int ref_rules_kept;
    /* with kept rules: the handler slots keep their functions between games
    ** (bit h of kept_h set: slot_h[h] holds handler h), looked up once */
    int handlers_kept;
    unsigned kept_h;
    /* the keys the decision reader reads by, as Lua strings (ask_keys_push,
    ** made with the kit's option tables) */
    int ref_ask_keys;
    /* the ids table has held more than ASK_IDS_ROOM ids (its list part may
    ** have been resized since): no plain reads in this sandbox */
    int ids_grown;
    value *seats;
} sandbox_kit;

/* The Lua side of one game. */
typedef struct game_rt {
    engine_rules *rules;
    int owns_rules;
    sandbox_kit *kit;
    sandbox *sb;                 /* kit->sb */
    lua_State *L;
    int ref_rules, ref_state;
    int ref_ids, ref_labels, ref_reasons, ref_prompts;
    int ref_h[H_COUNT];          /* the handler functions (LUA_NOREF: none) */
} game_rt;

/* What one log entry disclosed (engine_disclosure.c), with the entry it is about. */
typedef struct disclosure_rec {
    int seat;
    char *id;
    engine_disclosure d;
} disclosure_rec;

/* A decision being applied, as engine_disclosure.c saw it before apply ran. */
typedef struct disclosure_pending {
    int on;
    value *before;
    char *label;
    rng rng;
} disclosure_pending;

struct engine {
    engine_hub *hub;
    game_cfg cfg;
    game_rt rt;
    rng rng;             /* live: the committed one between calls */
    event_rec *events;   /* the current position's events */
    size_t n_events, cap_events;
    engine_logged *log;  /* [0, pos) applied, [pos, n_log) the redo tail */
    size_t n_log, cap_log;
    size_t pos;
    checkpoint *cps;     /* by position, ascending; cps[0] is position 0 */
    size_t n_cps, cap_cps;
    /* What the game keeps outside the Lua state (event texts, checkpoints),
    ** in bytes, held under CAIRN_GAME_MEMORY_CAP: past it g.log fails and
    ** checkpoints are skipped (undo then replays further). */
    size_t kept_bytes;
    asked_set asked;
    engine_decision_list shown;  /* engine_decisions' labelled copy ... */
    int shown_valid;             /* ... valid for the current position */
    int asked_labelled;          /* a fast game's asked set was read with g.labels on */
    int labels_on;               /* a fast game's read-only g.labels is on now (gapi_set_labels) */
    value *state_cache;          /* engine_state's tree of the live state ... */
    int state_cache_valid;       /* ... valid for the current position */
    int state_plain;             /* the plain-data check passed since the state last moved */
    int in_apply;        /* g.log and g.rng are allowed only while setup/apply run */
    int texts_unread;    /* the running call's texts are read by nobody: g.text gives its key (engine_texts.c) */
    int live_stale;      /* the live table could not be rebuilt (OOM): retry first */
    int guard_batch;     /* > 0: g.state stays read-only between guarded calls (engine_guard_batch) */
    size_t cur_decision; /* decision index stamped on new events */
    size_t since_check;  /* fast mode: decisions since the last plain-data check */
    int profiling;
    engine_stats stats;
    size_t fork_of_pos;  /* a fork: the origin's position when forked; else (size_t)-1 */
    size_t samples;      /* a fork: states determinize has filled it with */
    size_t check_first;  /* a fork: how many of its first samples are checked against the view */
    size_t checked;      /* a fork: the samples checked so far */
    int dead;            /* a fork whose decision failed: it plays no more */
    /* a fork: where it was last filled from, so that a decision that ran
    ** long under the budget's timer can be played again counted from there
    ** (engine_fork_recount.c); src and view are borrowed and must stay as
    ** they were while the fork is used (a bot's decision: they do) */
    engine *fork_src;
    const value *fork_view; /* NULL: the state was copied, not sampled */
    const value *fork_kept; /* not NULL: filled from this sample, kept earlier (engine_fork_pool.c) */
    int fork_seat;
    uint64_t fork_reseed;
    int fork_recounting; /* replaying its decisions counted: no second replay */
    int started;         /* setup has run once (its state is no longer the first {}) */
    int disclose;        /* keep what each decision disclosed (engine_set_disclosure) */
    int screen_width, screen_height; /* render's g.width/g.height during engine_render_screen; 0: nil */
    disclosure_rec *disc; /* by log index; valid where seat and id match the log */
    size_t n_disc, cap_disc;
    /* engine_debug_channel.c: where g.debug/print lines and trace lines go (NULL:
    ** dropped), and what a traced apply keeps until it is reported */
    engine_line_fn debug_fn, trace_fn;
    void *debug_ud, *trace_ud;
    /* debug output sent in the current handler call: at most
    ** CAIRN_DEBUG_MAX_BYTES (engine_debug_channel.c); past it, dropped */
    size_t debug_used;
    int debug_dropped;
    int quiet;           /* > 0 while the log is replayed: nothing said twice */
    struct trace_hold *trace_hold; /* an apply being traced, or NULL */
};

/* ---- engine_edit.c */
/* A logged edit (seat 0, id "set PATH VALUE"): whether it may be applied
** now (NULL, ENGINE_OK) or why not (malloc'd, status set). */
char *edit_explain(engine *e, const char *id, engine_status *status);
/* The same into errs, keyed for the console's languages: 0, or -1. */
int edit_explain_errs(engine *e, const char *id, cerr_list *errs);
/* Applies it to the live state (engine_apply's part for seat 0): 1, or -1
** after appending why. */
int edit_run(engine *e, const char *id, cerr_list *errs);

/* ---- engine_debug_channel.c */
/* 1 when a g.debug/print line would reach someone now. */
int debug_channel_wanted(const engine *e);
/* A handler call starts: its debug output is counted from 0 again. */
void debug_channel_new_call(engine *e);
/* Sends "debug <file>:<line>: <text>" (file relative to the ruleset). */
void debug_channel_print(engine *e, const char *where, const char *text);
/* 1 when handler calls are traced now. */
#define trace_on(e) ((e)->trace_fn != NULL && (e)->quiet == 0)
/* One handler call took ns nanoseconds (engine_call). */
void trace_call(engine *e, handler_id h, uint64_t ns);
/* Around a decision or an edit (engine_apply): the state before it is
** kept so the report names what changed; trace_end reports the apply
** call (with the paths it changed, when ok) and then the calls it made. */
void trace_begin(engine *e);
void trace_end(engine *e, int ok);
/* The traced apply is an edit (engine_edit.c) that took ns. */
void trace_mark_edit(engine *e, uint64_t ns);

/* ---- engine_decisions.c */
/* The id of option k (1-based, of the engine's option table), borrowed until
** the next decision; NULL if it is not a string (*len set otherwise). */
const char *engine_option_id(const engine *e, size_t k, size_t *len);
/* Why seat may not answer id now (status set, malloc'd text), or NULL with
** ENGINE_OK and *index the option's index. */
char *engine_explain_at(engine *e, int seat, const char *id, engine_status *status, size_t *index);

/* ---- engine_disclosure.c */
/* Before apply: the state, the label and the RNG (nothing when disclosure
** is off). After a committed decision at log index: the record. */
void disclosure_begin(engine *e, int seat, const char *id, disclosure_pending *p);
void disclosure_commit(engine *e, size_t index, int seat, const char *id, disclosure_pending *p);
void disclosure_abort(disclosure_pending *p);
void disclosure_free(engine *e);

/* ---- engine_build.c */
/* engine_new up to, not including, position 0: rules, sandbox, g. */
engine *engine_build(const engine_config *c, cerr_list *errs);
/* An engine_config that borrows everything from g: what rebuilds a game
** (reload, replay; engine_history.c) and makes a fork (engine_fork.c, which
** then changes what a fork does differently). c.rules is NULL: the rules
** are read from disk again, as reload wants. */
engine_config engine_config_of(const game_cfg *g);
/* The random bot's option index for seat (0: none); engine_decisions.c. */
size_t engine_bot_pick(const engine *e, int seat);
/* Calls rules[handler] with g (read-only unless writable) and the extra
** arguments of kind; see engine.c. */
/* ARGS_DETERMINIZE: (view, seat, g.rng, g for render): engine_fork.c's sampled forks. */
typedef enum { ARGS_G, ARGS_APPLY, ARGS_RENDER, ARGS_SEAT, ARGS_SEAT_ID, ARGS_DETERMINIZE } args_kind;
typedef struct call_ctx {
    engine *e;
    handler_id h;
    args_kind kind;
    int seat;
    const char *id;   /* ARGS_APPLY / ARGS_SEAT_ID: the id as C text, or ... */
    int id_index;     /* ... > 0: ids[id_index] of the option table */
    const value *v;   /* render: the state (the seat's view is pushed); determinize: the view */
    int writable;     /* g.state is the live table (setup, apply) */
    int found;        /* out: the handler exists */
    int totals_only;  /* score: only the totals are read (the bots' evaluation) */
} call_ctx;
/* Whether nobody will read a text c's handler makes (a playout's decisions,
** heuristic, the totals of its score): g.text then gives its key
** unformatted (engine_texts.c, docs/lua-api.md). */
int engine_texts_unread(const call_ctx *c);
int engine_call(engine *e, call_ctx *c, int nres, cerr_list *errs);
/* Between begin and end, the guarded (read-only) calls leave g.state the
** read-only view and it is given back to the live table once, at the end.
** Only around calls that cannot change the state (labels, prompts,
** reasons) and make no unguarded call. */
void engine_guard_batch_begin(engine *e);
void engine_guard_batch_end(engine *e);
#define engine_has_handler(e, h) ((e)->rt.ref_h[h] != LUA_NOREF)
/* Asks decisions(g) on the live state into e->asked. */
int engine_ask(engine *e, cerr_list *errs);

/* engine_fork.c: fork f back to its start at e's position (no decision
** made, alive), and filled again from what it was last filled from (its
** fork_src, fork_view or fork_kept, fork_seat and fork_reseed): 0, or -1
** after an error. */
void engine_fork_rewind(engine *f, engine *e);
int engine_fork_fill(engine *f, cerr_list *errs);
/* What a sampled fork's chance stream is drawn from beside its reseed: the
** origin's position plus this (determinize drew from the position alone). */
#define ENGINE_SAMPLE_CHANCE_TAG 0x9e3779b97f4a7c15ull
/* engine_fork.c: makes the table on top of f's stack the fork's live state
** (popping it), then asks the first decisions. 0, or -1 after an error. */
int engine_fork_adopt(engine *f, cerr_list *errs);
/* engine_fork_pool.c: fills f from its fork_kept sample, its chance drawn
** from fork_reseed. 0, or -1 after an error. */
int engine_fork_fill_kept(engine *f, cerr_list *errs);

/* engine_fork_recount.c: fork f's decision (seat, id) ran long under the
** budget's CPU timer; plays it again counted, after the fork's decisions
** before it, from where f was filled. What engine_apply returns. */
engine_status engine_fork_recount(engine *f, int seat, const char *id, cerr_list *errs);
/* Runs apply for ids (id or the option index) as a transaction. */
engine_status engine_apply(engine *e, int seat, const char *id, int id_index, int keep_log,
                           cerr_list *errs);
/* Position 0 again, from setup (or the scenario): no checkpoint needed. */
int engine_restart(engine *e, cerr_list *errs);
/* The live table from a value (setup of a checkpoint or scenario). */
int engine_set_live(engine *e, const value *v);
/* Drops what engine_state and engine_decisions cached: the position moved. */
void engine_moved(engine *e);
void engine_drop_events_from(engine *e, size_t from);
char *engine_first_error(const cerr_list *errs);

/* Which of the engine's own reasons engine_explain gave (for the console's
** words around the names and ids it holds): kind "over" (the game is
** over), "not_asked" (a: the seat's name, b: who is asked), "waiting" (a:
** who is asked; the seat is none of the game's), "nobody" (no one is asked),
** "no_option" (a: the ids it may have meant), "choose_one" (a: the ids to
** choose from); NULL for a reason of the rules' (a disabled option's) or an
** edit's. a and b are malloc'd. */
typedef struct explain_why {
    const char *kind;
    char *a, *b;
} explain_why;
char *engine_explain_why(engine *e, int seat, const char *id, engine_status *status, size_t *index, explain_why *w);
void explain_why_free(explain_why *w);
/* Adds the reason to errs: keyed ("explain.*") when it is the engine's own
** (w->kind), else msg as it is (the rules' reason); id is the option asked
** for. */
void explain_why_add(cerr_list *errs, const explain_why *w, const char *id, const char *msg);
int engine_check_plain(engine *e, const char *what, cerr_list *errs);
/* The post-decision checks (state schema, then check(g)): 0, or -1 with errs. */
int engine_run_checks(engine *e, cerr_list *errs);
/* engine_data_check.c: the ruleset's check_data(g), once per loaded ruleset; its
** problems are reported at the data's file:line:col. 0 ok, -1 errors. */
int engine_check_data(engine *e, cerr_list *errs);

/* ---- engine_api.c */
/* Builds a kit's g tables and closures (once per sandbox). */
int gapi_build_kit(sandbox_kit *k, const engine_rules *r);
/* print in sb goes to the debug channel of hub's engine, as the game's does. */
void gapi_bind_print(sandbox *sb, engine_hub *hub);
/* Points g at a new game: its seats and its (empty) live state. */
int gapi_start(engine *e, cerr_list *errs);
/* Pushes the g a call gets; protected. */
void gapi_push(engine *e, int writable, int render);
/* g.labels: whether decisions(g) should give labels, prompts and reasons
** (a person will see them) or may give only ids (a playout). */
int gapi_set_labels(engine *e, int on);
/* After setup/apply: adopts a table the script put in g.state. */
int gapi_adopt_state(engine *e);
/* Keeps g.state pointing at the live table (after engine_set_live). */
int gapi_refresh_state(engine *e);

/* ---- engine_history.c */
int history_checkpoint(engine *e, cerr_list *errs);
void history_drop_after(engine *e, size_t pos);
void history_free(engine *e);
/* Back to position p: the nearest checkpoint, then replay. */
int history_restore(engine *e, size_t p, cerr_list *errs);

/* ---- engine_decisions.c */
/* Protected callers: pushes the list of keys a fast game's decision reader
** reads by (seat, hidden, options, disabled, id, bot; sandbox_kit.ref_ask_keys). */
void ask_keys_push(lua_State *L);

/* ---- engine_rules.c */
/* A sandbox for a game of these rules: from the pool or new, with g.data
** and g.options. A fast game given a pooled sandbox whose rules are kept
** gets them put back (rt->ref_rules set: nothing to load); otherwise the
** sandbox is reset and rt->ref_rules is LUA_NOREF (load the rules). */
int rules_take_sandbox(engine_rules *r, game_rt *rt, int fast, cerr_list *errs);
/* Once a fast game has loaded its rules (rt->ref_rules) and sealed the
** globals: keeps them for the sandbox's next fast game, when they can be
** put back (sandbox_keep); otherwise the next game loads them again. */
void rules_keep(game_rt *rt);
/* Gives a game's sandbox back to the pool of r (NULL: frees it). */
void rules_give_sandbox(engine_rules *r, game_rt *rt);

#endif
