/*
** engine.h
** A game: ruleset + options + seats + seed + decision log. The engine runs
** the ruleset's Lua handlers in a sandbox on a live Lua table (the truth
** between decisions), applies each decision as a transaction, keeps sparse
** checkpoints (a state tree every CAIRN_CHECKPOINT_EVERY decisions) and
** replays the log from them for undo/redo/goto, forks positions for the
** bots, and reloads rules under a running game. The engine's files are
** listed in engine_internal.h and docs/architecture.md.
**
** Seats are numbered from 1. Seat 0 means "spectator" wherever a seat is
** asked for a view. Strings returned in structs are owned by the struct and
** freed by its _free function; functions returning `char *` return malloc'd
** text the caller frees. Nothing here prints.
*/
#ifndef CAIRN_ENGINE_H
#define CAIRN_ENGINE_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "rng.h"
#include "ruleset.h"
#include "value.h"

typedef struct engine engine;

/* A ruleset loaded, validated and compiled once, for many games in one
** process (sim, bots, bench): engine_config.rules. */
typedef struct engine_rules engine_rules;

/* ------------------------------------------------------------ creation */

typedef struct engine_config {
    const char *ruleset;          /* name (search path) or folder */
    const char *const *choices;   /* option choices as for ruleset_request */
    size_t n_choices;
    const char *preset;           /* NULL: none */
    const char *const *sets;      /* data overrides "DATA.PATH=VALUE" (--set; ruleset_request) */
    size_t n_sets;
    int players;                  /* seat count; 0: the manifest's default, else min */
    const char *const *names;     /* `players` names, or NULL: "Seat 1", ... */
    const char *const *bots;      /* `players` bot kinds (NULL entry: human), or NULL */
    uint64_t seed;
    const char *lang;             /* NULL: lang_wanted when the manifest lists it, else the
                                     manifest's first language, else "en" */
    const char *lang_wanted;      /* NULL, or the language the person reads (the console
                                     passes the locale's): taken when lang is NULL and the
                                     ruleset ships it */
    const char *(*seat_name_format)(const char *lang); /* NULL, or a seat without a name's
                                     default in the game's language, one %d ("Platz %d");
                                     NULL or a format without exactly one %d: "Seat %d" */
    int checks;                   /* validate state schema + run check() after each decision */
    int track_data_reads;         /* cairn check --unread: note every read of g.data
                                     (engine_data_reads); costs a C call per read */
    long budget;                  /* instructions per handler call; 0: CAIRN_LUA_INSTRUCTION_BUDGET */
    size_t mem_cap;               /* Lua memory cap in bytes; 0: CAIRN_LUA_MEMORY_CAP */
    int no_budget;                /* make bench only: no instruction budget at all, to
                                     measure what the budget costs; never for play */
    int fast;                     /* playouts (sim, forks, bench): the plain-data check
                                     every CAIRN_FAST_CHECK_EVERY decisions and at the end
                                     instead of after each, decisions() on the live state
                                     (a write there is part of the decision), no events
                                     kept, one checkpoint. Play, check and test are strict. */
    engine_rules *rules;          /* borrowed, outlives the engine; NULL: load ruleset.
                                     Given, it fixes the ruleset, options, seat count
                                     (players 0 takes its), lang, budget and cap. */
    const value *scenario;        /* borrowed; non-NULL: start from this state, setup not run */
    const char *scenario_rng;     /* with scenario: rng state (rng_format); NULL: seeded */
    int trust;                    /* save_start_scenario: the file's ruleset may be any folder */
    void (*debug)(void *ud, const char *line); /* the debug channel from setup on (engine_set_debug) */
    void *debug_ud;
} engine_config;

/* The ruleset's check_data(g) on the data c chooses, without playing
** (`cairn check` runs it before its smoke games): 0 when the data passes or
** there is no such handler, -1 with each problem at its file:line:col. */
int engine_check_ruleset_data(const engine_config *c, cerr_list *errs);
/* The same on rs, already loaded as c asks (its choices, preset, --set and
** seat count; `cairn check` loads it once): nothing is read from disk
** again unless a seat count not given makes the default one force an
** option, and only the sandbox the check runs in is built. */
int engine_check_loaded_data(const ruleset *rs, const engine_config *c, cerr_list *errs);
/* Whether engine_check_loaded_data builds a sandbox for rs: some Lua file
** of rs may define the check_data handler (it spells "check_data"). */
int engine_may_check_data(const ruleset *rs);

/* Loads the ruleset, builds the sandbox, runs setup (or takes the scenario)
** and asks for the first decisions. Returns NULL after appending errors
** (ruleset errors, script errors with file:line, bad seat count). */
engine *engine_new(const engine_config *cfg, cerr_list *errs);
void engine_free(engine *e); /* NULL-safe */

/* Loads, validates and compiles what engine_new would for cfg (ruleset,
** choices, preset, players, lang, budget, mem_cap), for many games:
** engine_config.rules. Games hand their sandboxes back to it when freed, and
** the next game resets one instead of building it. Not for two threads. */
engine_rules *engine_rules_new(const engine_config *cfg, cerr_list *errs);
/* The same around a ruleset already loaded for `players` seats, borrowed:
** it must outlive the rules, and engine_rules_free leaves it alone. */
engine_rules *engine_rules_borrow(const ruleset *rs, int players, const engine_config *cfg,
                                  cerr_list *errs);
void engine_rules_free(engine_rules *r); /* NULL-safe; after every game made with it */
int engine_rules_players(const engine_rules *r);
const ruleset *engine_rules_ruleset(const engine_rules *r);

/* What the game was made from (borrowed, valid until engine_free/reload). */
const ruleset *engine_ruleset(const engine *e);
/* With engine_config.track_data_reads: calls fn with the path of every
** read of g.data this game's rules made ("g.data.game.refill.free",
** "g.data.cards[3]"; "g.data.cards[*]" for a pairs or next loop over that
** table), in no particular order, until fn returns non-zero (returned). 0
** when nothing was read or reads are not tracked; -1 when out of memory. */
int engine_data_reads(const engine *e, int (*fn)(void *ud, const char *path), void *ud);
/* The ruleset name or folder as given in engine_config.ruleset. */
const char *engine_ruleset_arg(const engine *e);
int engine_seat_count(const engine *e);
const char *engine_seat_name(const engine *e, int seat);   /* NULL if no such seat */
const char *engine_seat_bot(const engine *e, int seat);    /* NULL: human */
/* Puts a bot of `kind` in seat (NULL: a person). Who plays a seat is not
** part of the game (rules never see the change; g.seats keeps the kinds the
** game started with until a reload), but saves record it. 0, or -1 for no
** such seat or out of memory. */
int engine_set_seat_bot(engine *e, int seat, const char *kind);
uint64_t engine_seed(const engine *e);
const char *engine_lang(const engine *e);
/* The option choices the game was created with, as given (for saves). */
const char *const *engine_choices(const engine *e, size_t *n);
const char *engine_preset(const engine *e);
/* The data overrides (--set) the game was created with. */
const char *const *engine_sets(const engine *e, size_t *n);
/* The scenario the game started from, or NULL (borrowed). */
const value *engine_scenario(const engine *e);
const char *engine_scenario_rng(const engine *e);
/* Turns the post-decision checks on or off (see engine_config.checks). */
void engine_set_checks(engine *e, int on);

/* ------------------------------------------- debug channel and trace */

/* A line of text for whoever debugs the rules (no newline; borrowed). */
typedef void (*engine_line_fn)(void *ud, const char *line);
/* Where g.debug(...) and print(...) go: lines "debug <file>:<line>: <text>"
** (the file relative to the ruleset's folder). NULL (the default): they
** are dropped, at the cost of one test (nothing is converted). Never part
** of the events, the log, saves or golden files; nothing is said while the
** log is replayed (undo, load, reload), nor by forks. Kept over a reload. */
void engine_set_debug(engine *e, engine_line_fn fn, void *ud);
/* Where trace lines go: one per handler call, "trace <handler> <ms> ms",
** and for apply (and an edit) the state paths it changed: "trace apply
** 0.21 ms: players[1].food, market[3]". NULL (the default): off. */
void engine_set_trace(engine *e, engine_line_fn fn, void *ud);

/* ------------------------------------------------------------ decisions */

typedef struct engine_option {
    char *id;
    char *label;
    char *disabled; /* NULL when the option may be chosen, else the reason */
} engine_option;

typedef struct engine_decision {
    int seat;
    char *prompt;
    int hidden; /* other seats are not told this seat is being asked */
    engine_option *options;
    size_t n_options;
} engine_decision;

typedef struct engine_decision_list {
    engine_decision *items;
    size_t n;
} engine_decision_list;

/* Copies the decisions asked now into out (empty when the game is over).
** Returns 0, or -1 on OOM (out is then empty). */
int engine_decisions(const engine *e, engine_decision_list *out);
void engine_decision_list_free(engine_decision_list *l);

/* 1 when the ruleset asks no one anything (the game is over). */
int engine_is_over(const engine *e);

/* 1 when `seat` is asked now. */
int engine_is_asked(const engine *e, int seat);

typedef enum {
    ENGINE_OK = 0,
    ENGINE_NOT_ASKED,    /* that seat is not being asked anything now */
    ENGINE_DISABLED,     /* the option is offered but disabled: why holds the reason */
    ENGINE_UNKNOWN,      /* no such option: why lists the nearest ids */
    ENGINE_GAME_OVER,    /* nobody is asked anything */
    ENGINE_RULES_ERROR,  /* apply() failed (error, budget, memory, bad data,
                            schema or check): the state is as before */
    ENGINE_NO_MEMORY
} engine_status;

/* Why answering `id` for `seat` would be refused now, as one line of text
** ("column 4 is full", "no option \"drop 9\"; did you mean: drop 1, drop 2"),
** with *status set; NULL (and ENGINE_OK) when the answer is legal. */
char *engine_explain(const engine *e, int seat, const char *id, engine_status *status);

/* Applies one answer as a transaction. On success the decision is logged
** (dropping any redo tail) and ENGINE_OK returned. Otherwise nothing
** changed and, when why is not NULL, *why gets a malloc'd explanation
** (for ENGINE_RULES_ERROR: the script error with file:line). */
engine_status engine_answer(engine *e, int seat, const char *id, char **why);
/* The same with the reasons as errors in errs (their keys kept, for the
** console's languages: base/error.h). */
engine_status engine_answer_errs(engine *e, int seat, const char *id, cerr_list *errs);

/* --------------------------------------------------------------- bots */

/* A random bot's choice for seat: uniform over the enabled options of the
** seat's decision, drawn from a stream derived from the game seed, the
** decision index and the seat (never the game RNG), so a game with bots
** replays exactly. Returns a malloc'd id, or NULL if the seat is not asked
** or has no enabled option. */
char *engine_bot_choice(const engine *e, int seat);

/* The random bot's move for seat, applied: engine_bot_choice then
** engine_answer without copying the option. ENGINE_OK, or the status of a
** failure with *why (malloc'd) when why is not NULL; ENGINE_NOT_ASKED when
** seat has nothing to choose. */
engine_status engine_bot_move(engine *e, int seat, char **why);

/* ------------------------------------------------- forks and playouts */

/* A fast copy of e at its position, for look-ahead (engine_fork.c): the live state
** and the RNG copied, the same loaded rules (borrowed from e: free the fork
** before e, and before engine_reload of e), no log, no checkpoints, no
** events. reseed 0 keeps e's RNG and seed (the fork plays exactly as e
** would); otherwise chance and the fork's bot streams are drawn afresh from
** reseed. Whatever happens in the fork never reaches e. A decision that
** fails ends the fork (nothing is taken back). NULL after appending an
** error. */
engine *engine_fork(engine *e, uint64_t reseed, cerr_list *errs);

/* A policy for playouts: which of seat's n options a search bot considers
** (0..n-1, as engine_bot_option_id numbers them) to take. */
typedef long (*engine_policy)(engine *fork, int seat, size_t n_enabled, void *ud);

/* Plays f on until the game is over or max decisions were made, the first
** asked seat answering each time: policy's choice, or the random bot's when
** policy is NULL. Returns the decisions made, or -1 with one error naming
** the seed, the position forked and the fork's decision. */
long engine_playout(engine *f, size_t max, engine_policy policy, void *ud, cerr_list *errs);

/* How many options seat may choose now (0: not asked). */
size_t engine_enabled_count(const engine *e, int seat);

/* How many of them a search bot considers: the enabled options less those
** marked `bot = false` (unless nothing else is enabled). */
size_t engine_bot_option_count(const engine *e, int seat);

/* The origin's position when f was forked (0 for a game that is no fork). */
size_t engine_fork_origin(const engine *f);

/* The ruleset's optional heuristic(g, seat): an integer, higher is better
** for seat (for bots that look ahead). Returns 1 with *out set, 0 when the
** ruleset has no heuristic, -1 after appending an error. */
int engine_heuristic(engine *e, int seat, int64_t *out, cerr_list *errs);

/* The ruleset's optional start_seat(g): which seat starts the game, asked
** right after setup (the balance lab's turn positions). 1 with *out set, 0
** when the ruleset has no such handler, -1 after appending an error. */
int engine_start_seat(engine *e, int *out, cerr_list *errs);

/* The ruleset's optional metrics(g): the figures a designer wants followed
** through a game (`cairn sim --trajectory`), a table of name = integer (the
** whole game) or name = {integer per seat}. 1 with *out (a map; free with
** value_free), 0 when the ruleset has none, -1 after appending an error. */
int engine_metrics(engine *e, value **out, cerr_list *errs);

/* The ruleset's optional parse(g, seat, text): a line a person typed that
** no option matches, read the ruleset's way (Himalaya: `program dirt ice
** deal rest stone deal`) into option ids to answer in order. 1 with *ids
** (malloc'd, free with engine_parse_free) and *n set, 0 when there is no
** such handler or it returned nil, -1 with *why (malloc'd): the reason it
** returned (a string: the line is the ruleset's but cannot be answered), or
** its error. */
int engine_parse_answer(engine *e, int seat, const char *text, char ***ids, size_t *n, char **why);
void engine_parse_free(char **ids, size_t n);

/* The id of the k-th (from 0) of the options a search bot considers for
** seat now (engine_bot_option_count), borrowed until e moves; NULL when
** there is none. Costs no labels (bots, fast games). */
const char *engine_bot_option_id(const engine *e, int seat, size_t k);

/* Applies that k-th option as engine_answer would. */
engine_status engine_bot_answer(engine *e, int seat, size_t k, char **why);

/* 1 when the visibility rules hide something from some seat: a search bot
** may then look only through determinize (engine_fork_sampled). */
int engine_has_secrets(const engine *e);

/* 1 when the ruleset has a determinize(view, seat, rng, g) hook. */
int engine_has_determinize(const engine *e);

/* A fork of e that does not start from e's state but from one sampled
** through the ruleset's determinize(view, seat, rng, g): view is what seat
** sees (engine_view), rng draws from a stream of reseed and g is render's
** (no state). The hook must return a full state whose view for seat equals
** view; one that does not (it changed something the seat can see) is
** refused with the hook's file:line and the first path that differs. The
** fork's own chance is then drawn afresh from reseed. Nothing of e's
** state or RNG reaches the fork. NULL after appending an error. */
engine *engine_fork_sampled(engine *e, const value *view, int seat, uint64_t reseed, cerr_list *errs);

/* Starts fork f (of e, or of e's rules) over at e's position, without
** building a new sandbox: from e's state (view NULL, as engine_fork) or
** from one sampled from view (as engine_fork_sampled), with chance drawn
** from reseed. The forks of one search share the sandbox: what a script
** keeps in a global reaches the next refill, never the game. 0, or -1
** after appending an error (f may then only be freed). */
int engine_fork_refill(engine *f, engine *e, const value *view, int seat, uint64_t reseed, cerr_list *errs);

/* A pool of sampled states (engine_fork_pool.c): a search may keep the
** states determinize sampled and start later iterations from them instead
** of sampling again (the bots' `pool=K`).
**
** The state fork f holds at its start (no decision made yet) as a new value
** (free it with value_free): taken right after engine_fork_sampled or
** engine_fork_refill with a view, the state determinize sampled. NULL after
** appending an error: f is no fork at its start, the state is not plain
** data, or out of memory. */
value *engine_fork_take_sample(engine *f, cerr_list *errs);

/* Starts fork f (of e's rules) over at e's position from state, a sample
** taken by engine_fork_take_sample at this position, without calling
** determinize or checking it again (the fork's first samples are checked
** when drawn: CAIRN_BOT_CHECKED_SAMPLES); chance is drawn afresh from
** reseed, as a fresh sample's would be. state is borrowed and must stay as
** it is while f is used (a decision that runs long under the budget's timer
** is played again from it). 0, or -1 after appending an error (f may then
** only be freed). */
int engine_fork_refill_sample(engine *f, engine *e, const value *state, uint64_t reseed, cerr_list *errs);

/* How many states determinize has sampled into fork f (engine_fork_sampled
** and every engine_fork_refill with a view); 0 for a copied fork. */
size_t engine_fork_samples(const engine *f);
/* How many of them were checked against the seat's view: the first
** CAIRN_BOT_CHECKED_SAMPLES, or the first n after engine_fork_check_first
** (every one when the game runs with checks on). */
size_t engine_fork_checked(const engine *f);
/* Fork f checks its first n samples (counting the one it was made with,
** which was checked: at least that one). A decision's searches share
** CAIRN_BOT_CHECKED_SAMPLES this way (bot_mcts_root.c). */
void engine_fork_check_first(engine *f, size_t n);

/* A bot the ruleset ships: rules.bots[name](view, seat, options, g) with
** seat's view, its enabled option ids and render's g (no state). It runs
** in a fork with a sandbox of its own, never beside the true state: in a
** game with secrets the fork holds a state sampled from the view by
** determinize (without one the bot is refused), else the position itself;
** nothing it does reaches the game. 1 when the ruleset has it. */
int engine_has_ruleset_bot(engine *e, const char *name);
/* Its choice for seat (malloc'd), or NULL after appending an error (a
** script error with file:line, or an id the seat may not choose now).
** reseed: the fork's stream (the sample and its chance), not 0. */
char *engine_ruleset_bot(engine *e, const char *name, int seat, uint64_t reseed, cerr_list *errs);

/* The first asked seat that has a bot kind (engine_seat_bot), or 0. */
int engine_next_bot_seat(const engine *e);

/* ------------------------------------------------------------- events */

typedef struct engine_event {
    size_t index;     /* position in the whole log of events, from 0 */
    size_t decision;  /* decisions applied before it (0: during setup) */
    char *text;
    uint32_t to;      /* bit s-1 set: seat s sees it */
    int is_public;    /* every seat sees it */
} engine_event;

typedef struct engine_event_list {
    engine_event *items;
    size_t n;
} engine_event_list;

/* Number of events so far (the current position's). */
size_t engine_event_count(const engine *e);

/* Copies the events with index >= since that `seat` may see (seat 0: only
** the public ones). Returns 0 or -1 on OOM. */
int engine_events(const engine *e, size_t since, int seat, engine_event_list *out);
void engine_event_list_free(engine_event_list *l);

/* ------------------------------------------------------ state and views */

/* The full committed state as a tree, made from the live Lua state when
** asked (borrowed; valid until the position changes). NULL when out of
** memory, or in a fast game whose state is not plain data. */
const value *engine_state(const engine *e);

/* An integer field at the top of the state, as engine_state(e) shows it:
** dflt when it is missing or not an integer, or the state is not plain
** data. Read off the live table when the state is known to be plain data
** (checked since it last moved, as at a game's end): no tree is made. */
int64_t engine_state_int(const engine *e, const char *field, int64_t dflt);

/* What `seat` may see (0: spectator), through the visibility rules. A new
** tree the caller frees; NULL on OOM. */
value *engine_view(const engine *e, int seat);

/* The ruleset's render(view, seat, g) for seat's view (seat 0: spectator,
** passed as nil). Returns the text, or NULL after appending the error. */
char *engine_render(engine *e, int seat, cerr_list *errs);

/* The same for a screen: render's g.width and g.height are width columns
** and the height rows the board may take (0: nil, not known), so that a
** render can offer a compact form on a short terminal. */
char *engine_render_screen(engine *e, int seat, int width, int height, cerr_list *errs);

/* The parsed visibility rules (borrowed), for view_perturb_secrets. */
struct view_rules;
const struct view_rules *engine_visibility(const engine *e);

/* State hash (value_hash of the committed state). */
uint64_t engine_state_hash(const engine *e);

/* The RNG state now (copy). */
rng engine_rng(const engine *e);

/* ----------------------------------------------------------- disclosure */

/* What one applied decision let the seats see (engine_disclosure.c): whether its
** choice is hidden from a seat, and whether it drew from chance or revealed
** a secret. Kept only while disclosure is on (the console turns it on;
** sims, bots and tests never pay for it). */
typedef struct engine_disclosure {
    char *label;          /* the chosen option's label as it was offered */
    uint32_t hidden_from; /* bit s: seat s may not know which option was chosen; bit 0: spectators */
    int chance;           /* the decision drew from g.rng */
    int reveal;           /* it changed another seat's `owner` part or a `count`/`order` pool */
    uint32_t revealed_of; /* bit s: it changed an `owner` part of seat s, another than the decider's
                             (a simultaneous reveal clears each seat's hidden choice) */
    int label_public;     /* the decider held no secret before or after (no non-empty `owner`
                             part): its label, made from the whole state, may be shown to others */
} engine_disclosure;

void engine_set_disclosure(engine *e, int on);
/* What log entry `index` (from 0) disclosed: 1 with *out set (borrowed until
** that entry is applied again or the engine is freed), 0 when unknown (it
** was applied with disclosure off, or came with a save's redo tail). */
int engine_disclosure_of(const engine *e, size_t index, const engine_disclosure **out);

/* ---------------------------------------------------------------- score */

typedef struct engine_score_item {
    char *label;   /* what a person reads: may carry details ("7 single stones") */
    char *key;     /* the line's stable name for statistics: the script's `key`, else the label */
    int64_t points;
} engine_score_item;

typedef struct engine_seat_score {
    int64_t total;
    int64_t tiebreak;      /* 0 unless has_tiebreak */
    int has_tiebreak;
    engine_score_item *items;
    size_t n_items;
    int rank;              /* 1 = best; tied seats share a rank */
} engine_seat_score;

typedef struct engine_score {
    engine_seat_score *seats; /* seats[i] is seat i+1 */
    size_t n;
} engine_score;

/* Runs score(g). Returns 0, or -1 after appending the error (bad shape,
** script error). Ranks come from `ranking` if the script gives one, else by
** total then tiebreak, ties sharing a rank. */
int engine_score_get(engine *e, engine_score *out, cerr_list *errs);
void engine_score_free(engine_score *s);

/* The totals of score(g) alone, into totals[0..seats) (totals[s-1] for seat
** s): what the bots judge a position by, without copying the breakdown's
** texts. 1, 0 when the rules define no score, -1 after appending an error. */
int engine_score_totals(engine *e, int64_t *totals, cerr_list *errs);

/* --------------------------------------------------------------- history */

typedef struct engine_logged {
    int seat;
    char *id;
} engine_logged;

/* Decisions applied now (the current position in the log). */
size_t engine_position(const engine *e);
/* The whole log including the redo tail: entries [0, position) are applied,
** [position, n) can be redone. Borrowed. */
const engine_logged *engine_log(const engine *e, size_t *n);

/* Step back or forward one decision; 0, or -1 when there is none. */
int engine_undo(engine *e);
int engine_redo(engine *e);
/* Jump to position n (0 = right after setup, up to the log's length). */
int engine_goto(engine *e, size_t n);
/* Same, appending why a decision that had to be redone failed (the rules
** changed under it); the engine then stays at the last position reached. */
int engine_goto_why(engine *e, size_t n, cerr_list *errs);

/* ---------------------------------------------- edits and inspection */

/* `set PATH VALUE`: puts v at PATH of the state ("players[2].food"; lists
** from 1; a map may get a new key, a list an item appended at n+1) as one
** step of the log (seat 0, id "set PATH <v as JSON>"), so undo takes it
** back and every replay (load, reload, goto) makes it again. Checked as a
** decision is: plain data, the state schema, check(). ENGINE_OK, or the
** status with *why (malloc'd): ENGINE_DISABLED for a path that does not
** exist (naming the longest prefix that does), ENGINE_RULES_ERROR for a
** state the schema or check() refuses; the game is then as before. */
engine_status engine_edit(engine *e, const char *path, const value *v, char **why);
/* What engine_edit checks of PATH before anything changes, as a keyed error
** the console words in its languages (base/error.h): that it parses
** (statepath_parse_errs) and that its parent exists in the state
** ("state.no_such", "state.no_such_but"). 0, or -1 with an error in errs;
** the same English text engine_edit's *why would say. */
int engine_edit_check_path(engine *e, const char *path, cerr_list *errs);
/* engine_edit with the reasons as errors in errs (the state schema's
** keyed: "schema.expected"); the first is what engine_edit's *why says. */
engine_status engine_edit_errs(engine *e, const char *path, const value *v, cerr_list *errs);

/* 1 when the log entry is an edit (seat 0), not a decision. */
int engine_log_is_edit(const engine_logged *l);

/* `eval EXPR`: evaluates the Lua expression (or, if it is none, the chunk:
** `local n = 0 ... return n`) in the game's sandbox with the instruction
** budget, in an environment of the sandbox's globals plus `view` (what
** seat sees, read-only), `data` (g.data), `options` (g.options) and
** `seat` (nil for a spectator). It cannot change the game: no g, the view
** is a read-only copy, no draw is possible, and a state or RNG that moved
** anyway is put back and the eval refused. Returns the result as YAML
** text (a non-plain result as tostring gives it), and when out is not NULL
** also the result as a tree (NULL if not plain data); NULL after appending
** the error (syntax, runtime error with its line, budget). */
char *engine_eval(engine *e, int seat, const char *expr, value **out, cerr_list *errs);

/* ----------------------------------------------------------- hot reload */

typedef struct engine_reload_report {
    size_t replayed;    /* decisions replayed successfully */
    size_t total;       /* decisions that were to be replayed (position) */
    int stopped;        /* 1 when replay stopped before the end */
    int seat;           /* the decision that failed */
    char *id;
    char *reason;       /* why it failed (malloc'd) */
    /* the reason alone, when it is the engine's own ("no option ..."), as
    ** a key for the console's languages and its arguments (malloc'd), or
    ** NULL: the message of an error of key reason_key is reason without
    ** its "decision N (seat S, "ID"): " */
    const char *reason_key;
    char *reason_args[2];
    double seconds;     /* wall time of the whole reload */
} engine_reload_report;

/* Re-reads the ruleset from disk (same name, options, seats, seed), builds
** a fresh sandbox, reruns setup and replays the applied decisions. If the
** ruleset no longer loads or setup fails, returns -1 with errors and the
** game is untouched. If a logged decision is refused or fails, the game
** stops at the last good decision (the rest of the log is kept as the redo
** tail), rep says which decision and why, and 0 is returned. */
int engine_reload(engine *e, engine_reload_report *rep, cerr_list *errs);
void engine_reload_report_free(engine_reload_report *rep);
/* The same under other option choices and data overrides (`option ID on`
** mid-game, --set): the game is made again with them (the preset and the
** rest kept) and the log replayed, reported as engine_reload does. */
int engine_reload_with(engine *e, const char *const *choices, size_t n_choices, const char *const *sets,
                       size_t n_sets, engine_reload_report *rep, cerr_list *errs);
/* engine_reload, asking stop(ud) before each replayed decision (the REPL's
** Ctrl-C): when it says 1, the reload ends, -1 is returned with an error
** saying where it stopped, and the game is untouched. */
int engine_reload_until(engine *e, int (*stop)(void *ud), void *ud, engine_reload_report *rep,
                        cerr_list *errs);

/* The game of e made again in a new engine (fresh rules and sandbox, read
** from disk as engine_reload does), e's log replayed up to pos and the rest
** kept as the redo tail; e's debug channel, trace and disclosure carried
** over. Reads only e's C side (settings and log), so it works on an engine
** whose Lua state was abandoned by a hard stop (sandbox_escaped), which the
** caller then keeps and never frees. rep as engine_reload's. NULL with
** errors when the game cannot be made. */
engine *engine_rebuild(const engine *e, size_t pos, engine_reload_report *rep, cerr_list *errs);

/* ------------------------------------------------------ for save/testrun */

/* Replaces the game's log: goes back to position 0 (setup or the
** scenario) and applies log[0..n) in order (log may be the engine's own).
** Returns 0 at position n with no redo tail. On the first refused or
** failing decision returns -1 with *failed_at set to its index and a
** message in errs naming it (number, seat, id, why); the engine then sits
** at the last good decision and log[*failed_at..n) is kept as the redo
** tail. */
int engine_replay(engine *e, const engine_logged *log, size_t n, size_t *failed_at,
                  cerr_list *errs);

/* Replaces the redo tail (the log after the current position) with
** log[0..n). Returns 0 or -1 on OOM. */
int engine_set_redo_tail(engine *e, const engine_logged *log, size_t n);

/* ------------------------------------------------------- measurement */

/* What make bench (tools/bench.c) reads: how much of a game's time went to
** the ruleset's own handlers. handler_ns is counted only while profiling is
** on (it costs two clock reads per call). */
typedef struct engine_stats {
    uint64_t handler_calls; /* ruleset handler calls made so far */
    uint64_t handler_ns;    /* wall time inside them while profiling was on */
    uint64_t recounted;     /* calls that ran long under the budget's CPU timer and
                               were run again counted */
    uint64_t ns_by_handler[12]; /* handler_ns by handler, in engine_stats_handler's order */
} engine_stats;
void engine_set_profiling(engine *e, int on);
/* The name of ns_by_handler[i] ("setup", "decisions", "apply", ...), NULL past the last. */
const char *engine_stats_handler(int i);
void engine_get_stats(const engine *e, engine_stats *out);

/* Explanation of a status, e.g. "not asked". */
const char *engine_status_name(engine_status s);

#endif
