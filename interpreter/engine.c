/*
** engine.c
** A game in progress: the sandboxed rules, the committed state as a value
** tree, decisions applied as transactions, a snapshot per decision for
** undo/redo/goto, events with visibility, scores, and hot reload.
**
** Outline: config copy -> ruleset + sandbox + scripts (build_game) -> setup
** -> for each answer: check legality, apply(g) on the live Lua table,
** convert it back to a value (validating plain data), run the optional
** checks, ask decisions(g); any failure rebuilds the live table from the
** last snapshot, so nothing is ever half-applied.
*/
#include "engine.h"
#include "limits.h"
#include "luaval.h"
#include "sandbox.h"
#include "schema.h"
#include "suggest.h"
#include "view.h"
#include "yload.h"

#include <lauxlib.h>
#include <lua.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* The most seats a game may have: events keep their audience in 32 bits,
** and the manifest schema allows 16. */
#define ENGINE_MAX_SEATS 16

typedef struct event_rec {
    char *text;
    uint32_t to;
    size_t decision;
} event_rec;

/* The committed game after k decisions. */
typedef struct snapshot {
    value *state;
    rng rng;
    size_t n_events;
    engine_decision_list asked;
} snapshot;

/* What the game was made from: a deep copy of engine_config. */
typedef struct game_cfg {
    char *ruleset;
    char **choices;
    size_t n_choices;
    char *preset;
    int players;
    char **names;
    char **bots;
    uint64_t seed;
    char *lang;
    int checks;
    long budget;
    size_t mem_cap;
    int no_budget;
    value *scenario;
    char *scenario_rng;
} game_cfg;

/* Everything that a reload rebuilds from disk. */
typedef struct game_rt {
    ruleset *rs;
    view_rules *vis;
    schema_set *schemas;
    const value *state_schema;
    value *text_lang, *text_en;
    sandbox *sb;
    lua_State *L;
    int ref_rules, ref_data, ref_options, ref_seats, ref_state;
} game_rt;

/* The sandbox's print hook needs a pointer that survives engine_reload
** swapping the insides of two engines: it gets the hub, which follows. */
typedef struct engine_hub {
    engine *e;
} engine_hub;

struct engine {
    engine_hub *hub;
    game_cfg cfg;
    game_rt rt;
    rng rng;             /* live: the committed one between calls */
    value *state;        /* committed; owned by snaps[pos] */
    event_rec *events;
    size_t n_events, cap_events;
    snapshot *snaps;     /* snaps[k]: after k decisions; k < n_snaps */
    size_t n_snaps, cap_snaps;
    engine_logged *log;
    size_t n_log, cap_log;
    size_t pos;
    int in_apply;        /* g.log is allowed only while setup/apply run */
    int live_stale;      /* the live table could not be rebuilt (OOM): retry first */
    size_t cur_decision; /* decision index stamped on new events */
    int profiling;       /* engine_set_profiling */
    engine_stats stats;
};

/* ------------------------------------------------------------ utilities */

static void strv_free(char **v, size_t n) {
    if (!v) return;
    for (size_t i = 0; i < n; i++) free(v[i]);
    free(v);
}

static char **strv_dup(const char *const *v, size_t n, int *oom) {
    if (!v || n == 0) return NULL;
    char **d = calloc(n, sizeof *d);
    if (!d) {
        *oom = 1;
        return NULL;
    }
    for (size_t i = 0; i < n; i++) {
        if (v[i] && !(d[i] = cairn_strdup(v[i]))) *oom = 1;
    }
    return d;
}

const char *engine_status_name(engine_status s) {
    switch (s) {
    case ENGINE_OK: return "ok";
    case ENGINE_NOT_ASKED: return "not asked";
    case ENGINE_DISABLED: return "option disabled";
    case ENGINE_UNKNOWN: return "no such option";
    case ENGINE_GAME_OVER: return "the game is over";
    case ENGINE_RULES_ERROR: return "rules error";
    case ENGINE_NO_MEMORY: return "out of memory";
    }
    return "?";
}

void engine_decision_list_free(engine_decision_list *l) {
    if (!l) return;
    for (size_t i = 0; i < l->n; i++) {
        engine_decision *d = &l->items[i];
        free(d->prompt);
        for (size_t j = 0; j < d->n_options; j++) {
            free(d->options[j].id);
            free(d->options[j].label);
            free(d->options[j].disabled);
        }
        free(d->options);
    }
    free(l->items);
    l->items = NULL;
    l->n = 0;
}

static int decision_list_copy(engine_decision_list *dst, const engine_decision_list *src) {
    dst->items = NULL;
    dst->n = 0;
    if (src->n == 0) return 0;
    dst->items = calloc(src->n, sizeof *dst->items);
    if (!dst->items) return -1;
    dst->n = src->n;
    int oom = 0;
    for (size_t i = 0; i < src->n; i++) {
        const engine_decision *s = &src->items[i];
        engine_decision *d = &dst->items[i];
        d->seat = s->seat;
        d->hidden = s->hidden;
        if (s->prompt && !(d->prompt = cairn_strdup(s->prompt))) oom = 1;
        if (s->n_options) {
            d->options = calloc(s->n_options, sizeof *d->options);
            if (!d->options) {
                oom = 1;
                continue;
            }
            d->n_options = s->n_options;
            for (size_t j = 0; j < s->n_options; j++) {
                const engine_option *so = &s->options[j];
                engine_option *o = &d->options[j];
                if (!(o->id = cairn_strdup(so->id))) oom = 1;
                if (so->label && !(o->label = cairn_strdup(so->label))) oom = 1;
                if (so->disabled && !(o->disabled = cairn_strdup(so->disabled))) oom = 1;
            }
        }
    }
    if (oom) {
        engine_decision_list_free(dst);
        return -1;
    }
    return 0;
}

static void snapshot_clear(snapshot *s) {
    value_free(s->state);
    s->state = NULL;
    engine_decision_list_free(&s->asked);
}

static void cfg_free(game_cfg *c) {
    free(c->ruleset);
    strv_free(c->choices, c->n_choices);
    free(c->preset);
    strv_free(c->names, (size_t)c->players);
    strv_free(c->bots, (size_t)c->players);
    free(c->lang);
    value_free(c->scenario);
    free(c->scenario_rng);
    memset(c, 0, sizeof *c);
}

static void rt_free(game_rt *rt) {
    if (rt->sb) sandbox_free(rt->sb);
    view_rules_free(rt->vis);
    schema_set_free(rt->schemas);
    value_free(rt->text_lang);
    value_free(rt->text_en);
    ruleset_free(rt->rs);
    memset(rt, 0, sizeof *rt);
}

static void history_free(engine *e) {
    for (size_t i = 0; i < e->n_snaps; i++) snapshot_clear(&e->snaps[i]);
    free(e->snaps);
    e->snaps = NULL;
    e->n_snaps = e->cap_snaps = 0;
    for (size_t i = 0; i < e->n_log; i++) free(e->log[i].id);
    free(e->log);
    e->log = NULL;
    e->n_log = e->cap_log = 0;
    for (size_t i = 0; i < e->n_events; i++) free(e->events[i].text);
    free(e->events);
    e->events = NULL;
    e->n_events = e->cap_events = 0;
    e->pos = 0;
    e->state = NULL;
}

void engine_free(engine *e) {
    if (!e) return;
    history_free(e);
    rt_free(&e->rt);
    cfg_free(&e->cfg);
    free(e->hub);
    free(e);
}

/* ------------------------------------------------------------- accessors */

const ruleset *engine_ruleset(const engine *e) { return e->rt.rs; }
const char *engine_ruleset_arg(const engine *e) { return e->cfg.ruleset; }
int engine_seat_count(const engine *e) { return e->cfg.players; }
const char *engine_seat_name(const engine *e, int seat) {
    return seat >= 1 && seat <= e->cfg.players ? e->cfg.names[seat - 1] : NULL;
}
const char *engine_seat_bot(const engine *e, int seat) {
    return seat >= 1 && seat <= e->cfg.players && e->cfg.bots ? e->cfg.bots[seat - 1] : NULL;
}
int engine_set_seat_bot(engine *e, int seat, const char *kind) {
    if (seat < 1 || seat > e->cfg.players || !e->cfg.bots) return -1;
    char *k = NULL;
    if (kind && !(k = cairn_strdup(kind))) return -1;
    free(e->cfg.bots[seat - 1]);
    e->cfg.bots[seat - 1] = k;
    return 0;
}
uint64_t engine_seed(const engine *e) { return e->cfg.seed; }
const char *engine_lang(const engine *e) { return e->cfg.lang; }
const char *const *engine_choices(const engine *e, size_t *n) {
    *n = e->cfg.n_choices;
    return (const char *const *)e->cfg.choices;
}
const char *engine_preset(const engine *e) { return e->cfg.preset; }
const value *engine_scenario(const engine *e) { return e->cfg.scenario; }
const char *engine_scenario_rng(const engine *e) { return e->cfg.scenario_rng; }
void engine_set_checks(engine *e, int on) { e->cfg.checks = on; }
const value *engine_state(const engine *e) { return e->state; }
uint64_t engine_state_hash(const engine *e) { return value_hash(e->state); }
rng engine_rng(const engine *e) { return e->rng; }
size_t engine_position(const engine *e) { return e->pos; }
const engine_logged *engine_log(const engine *e, size_t *n) {
    *n = e->n_log;
    return e->log;
}
size_t engine_event_count(const engine *e) { return e->snaps[e->pos].n_events; }

static const engine_decision_list *asked_now(const engine *e) { return &e->snaps[e->pos].asked; }

int engine_decisions(const engine *e, engine_decision_list *out) {
    return decision_list_copy(out, asked_now(e));
}

int engine_is_over(const engine *e) { return asked_now(e)->n == 0; }

int engine_is_asked(const engine *e, int seat) {
    const engine_decision_list *a = asked_now(e);
    for (size_t i = 0; i < a->n; i++)
        if (a->items[i].seat == seat) return 1;
    return 0;
}

/* ------------------------------------------------------ the g API in Lua */

/* Every C function below gets the engine as upvalue 1. Scripts reach them
** only through g, rebuilt for each handler call. */
static engine *up_engine(lua_State *L) { return lua_touserdata(L, lua_upvalueindex(1)); }

/* Chance is part of the game only where the game moves: a draw from render,
** decisions, score, check or a heuristic would make the game depend on how
** often the board was shown, and saves would no longer replay. */
static engine *rng_engine(lua_State *L, const char *fn) {
    engine *e = up_engine(L);
    if (!e->in_apply) luaL_error(L, "g.rng.%s: only setup and apply may draw random numbers", fn);
    return e;
}

static int l_rng_int(lua_State *L) {
    engine *e = rng_engine(L, "int");
    lua_Integer lo = luaL_checkinteger(L, 1), hi = luaL_checkinteger(L, 2);
    int64_t x;
    if (rng_range(&e->rng, lo, hi, &x) != 0)
        return luaL_error(L, "g.rng.int(%I, %I): empty range", lo, hi);
    lua_pushinteger(L, x);
    return 1;
}

static int l_rng_die(lua_State *L) {
    engine *e = rng_engine(L, "die");
    lua_Integer sides = luaL_checkinteger(L, 1);
    int64_t x;
    if (sides < 1 || rng_range(&e->rng, 1, sides, &x) != 0)
        return luaL_error(L, "g.rng.die(%I): a die needs at least one side", sides);
    lua_pushinteger(L, x);
    return 1;
}

static int l_rng_shuffle(lua_State *L) {
    engine *e = rng_engine(L, "shuffle");
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_Integer n = luaL_len(L, 1); /* not raw: read-only data is a proxy */
    /* Fisher-Yates from the top: swap item i with a uniform j in [1, i] */
    for (lua_Integer i = n; i > 1; i--) {
        lua_Integer j = (lua_Integer)rng_below(&e->rng, (uint64_t)i) + 1;
        lua_geti(L, 1, i);
        lua_geti(L, 1, j);
        lua_seti(L, 1, i);
        lua_seti(L, 1, j);
    }
    lua_settop(L, 1);
    return 1;
}

static int l_rng_pick(lua_State *L) {
    engine *e = rng_engine(L, "pick");
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_Integer n = luaL_len(L, 1);
    if (n < 1) return luaL_error(L, "g.rng.pick: the list is empty");
    lua_geti(L, 1, (lua_Integer)rng_below(&e->rng, (uint64_t)n) + 1);
    return 1;
}

static int l_rng_weighted(lua_State *L) {
    engine *e = rng_engine(L, "weighted");
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_Integer len = luaL_len(L, 1);
    size_t n = len > 0 ? (size_t)len : 0;
    if (n == 0 || n > 100000) return luaL_error(L, "g.rng.weighted: needs 1 to 100000 weights");
    int64_t *w = lua_newuserdatauv(L, n * sizeof *w, 0); /* freed by the GC, even on error */
    for (size_t i = 0; i < n; i++) {
        lua_geti(L, 1, (lua_Integer)i + 1);
        int ok;
        lua_Integer x = lua_tointegerx(L, -1, &ok);
        lua_pop(L, 1);
        if (!ok || x < 0) return luaL_error(L, "g.rng.weighted: weight %d is not an integer >= 0", (int)i + 1);
        w[i] = x;
    }
    long k = rng_weighted(&e->rng, w, n);
    if (k < 0) return luaL_error(L, "g.rng.weighted: the weights add up to 0 (or overflow)");
    lua_pushinteger(L, (lua_Integer)k + 1);
    return 1;
}

/* Reads the audience of an event: `to` (a seat or list of seats) and
** `except` (a seat or list). Returns the bit mask. */
static uint32_t seat_mask_of(lua_State *L, int idx, const char *field, int nseats) {
    uint32_t m = 0;
    int t = lua_getfield(L, idx, field);
    if (t == LUA_TNUMBER || t == LUA_TTABLE) {
        lua_Integer len = t == LUA_TTABLE ? luaL_len(L, -1) : 1;
        if (len > 64) luaL_error(L, "g.log: %s lists more seats than there are", field);
        int n = (int)len;
        for (int i = 1; i <= n; i++) {
            if (t == LUA_TTABLE) lua_geti(L, -1, i);
            else lua_pushvalue(L, -1);
            int ok;
            lua_Integer s = lua_tointegerx(L, -1, &ok);
            lua_pop(L, 1);
            if (!ok || s < 1 || s > nseats)
                luaL_error(L, "g.log: %s must name seats 1..%d", field, nseats);
            m |= 1u << (s - 1);
        }
    } else if (t != LUA_TNIL) {
        luaL_error(L, "g.log: %s must be a seat number or a list of them", field);
    }
    lua_pop(L, 1);
    return m;
}

static int push_event(engine *e, const char *text, uint32_t to) {
    if (e->n_events == e->cap_events) {
        size_t cap = e->cap_events ? e->cap_events * 2 : 64;
        event_rec *ev = realloc(e->events, cap * sizeof *ev);
        if (!ev) return -1;
        e->events = ev;
        e->cap_events = cap;
    }
    char *t = cairn_strdup(text);
    if (!t) return -1;
    e->events[e->n_events].text = t;
    e->events[e->n_events].to = to;
    e->events[e->n_events].decision = e->cur_decision;
    e->n_events++;
    return 0;
}

static uint32_t all_seats(const engine *e) {
    return e->cfg.players >= 32 ? 0xffffffffu : (1u << e->cfg.players) - 1;
}

static int l_log(lua_State *L) {
    engine *e = up_engine(L);
    if (!e->in_apply) return luaL_error(L, "g.log: events can only be logged in setup and apply");
    uint32_t to = all_seats(e);
    const char *text;
    if (lua_type(L, 1) == LUA_TTABLE) {
        if (lua_getfield(L, 1, "text") != LUA_TSTRING)
            return luaL_error(L, "g.log{...}: text must be a string");
        text = lua_tostring(L, -1);
        int has_to = lua_getfield(L, 1, "to") != LUA_TNIL;
        lua_pop(L, 1);
        uint32_t only = seat_mask_of(L, 1, "to", e->cfg.players);
        uint32_t except = seat_mask_of(L, 1, "except", e->cfg.players);
        if (has_to) to = only; /* `to = {}` is nobody: an audience fails closed */
        to &= ~except;
    } else {
        text = luaL_checkstring(L, 1);
    }
    if (push_event(e, text, to) != 0) return luaL_error(L, "g.log: out of memory");
    return 0;
}

/* print(...) from a script: a public event, values joined by tabs. Outside
** setup/apply there is no event log to write to, so it is dropped. */
static void on_print(void *ud, const char *text) {
    engine *e = ((engine_hub *)ud)->e;
    if (e->in_apply) (void)push_event(e, text, all_seats(e));
}

static const char *text_lookup(const engine *e, const char *key) {
    const char *s = value_get_str(e->rt.text_lang, key, NULL);
    if (!s) s = value_get_str(e->rt.text_en, key, NULL);
    return s;
}

static int l_text(lua_State *L) {
    engine *e = up_engine(L);
    const char *key = luaL_checkstring(L, 1);
    const char *fmt = text_lookup(e, key);
    int nargs = lua_gettop(L) - 1;
    if (!fmt) {
        lua_settop(L, 1);
        return 1; /* the key itself */
    }
    /* string.format from the string library, reached through the string
    ** metatable so it works whatever the sandbox's globals are */
    lua_pushliteral(L, "");
    if (!luaL_getmetafield(L, -1, "__index")) return luaL_error(L, "g.text: no string library");
    lua_getfield(L, -1, "format");
    lua_pushstring(L, fmt);
    for (int i = 0; i < nargs; i++) lua_pushvalue(L, 2 + i);
    lua_call(L, nargs + 1, 1);
    return 1;
}

typedef struct api_fn {
    const char *name;
    lua_CFunction fn;
} api_fn;

/* g.rng: the only chance a script has. */
static const api_fn rng_api[] = {
    {"int", l_rng_int},         {"die", l_rng_die},       {"shuffle", l_rng_shuffle},
    {"pick", l_rng_pick},       {"weighted", l_rng_weighted}, {NULL, NULL},
};

/* Pushes a fresh g for one handler call: state (the live table; a
** read-only view of it for handlers that must not change it), data,
** options, seats (read-only), rng, log, text, lang. Runs protected. */
/* with_state 0 leaves g.state out: render gets its seat's view and nothing
** more, so a ruleset cannot draw another seat's secrets on the board. */
static void push_g(engine *e, int readonly_state, int with_state) {
    lua_State *L = e->rt.L;
    lua_createtable(L, 0, 8);
    if (with_state) {
        lua_rawgeti(L, LUA_REGISTRYINDEX, e->rt.ref_state);
        if (readonly_state && sandbox_freeze(L, -1, "g.state") != 0) luaL_error(L, "out of memory");
        lua_setfield(L, -2, "state");
    }
    lua_rawgeti(L, LUA_REGISTRYINDEX, e->rt.ref_data);
    lua_setfield(L, -2, "data");
    lua_rawgeti(L, LUA_REGISTRYINDEX, e->rt.ref_options);
    lua_setfield(L, -2, "options");
    lua_rawgeti(L, LUA_REGISTRYINDEX, e->rt.ref_seats);
    lua_setfield(L, -2, "seats");
    lua_createtable(L, 0, 5);
    for (const api_fn *f = rng_api; f->name; f++) {
        lua_pushlightuserdata(L, e);
        lua_pushcclosure(L, f->fn, 1);
        lua_setfield(L, -2, f->name);
    }
    sandbox_freeze(L, -1, "g.rng");
    lua_setfield(L, -2, "rng");
    lua_pushlightuserdata(L, e);
    lua_pushcclosure(L, l_log, 1);
    lua_setfield(L, -2, "log");
    lua_pushlightuserdata(L, e);
    lua_pushcclosure(L, l_text, 1);
    lua_setfield(L, -2, "text");
    lua_pushstring(L, e->cfg.lang);
    lua_setfield(L, -2, "lang");
}

/* -------------------------------------------------------- handler calls */

/* The sandbox's contract: every Lua API call that may allocate runs
** protected, or an allocation at the memory cap aborts the process. So
** everything the engine pushes (g, the live state, views) is pushed by the
** p_* functions below, run with lua_pcall; only script code runs through
** sandbox_call. */

typedef enum { ARGS_G, ARGS_APPLY, ARGS_RENDER, ARGS_SEAT } args_kind;

typedef struct call_ctx {
    engine *e;
    const char *handler;
    args_kind kind;
    int seat;
    const char *id;
    const value *v;  /* render: the view; set_state: the state */
    int readonly;    /* g.state is read-only in this handler */
    int found;       /* out: the handler exists */
    int ref;         /* out: p_set_state's new reference */
} call_ctx;

/* Pushes rules[name]. Returns 1 if it is a function, else pops and 0. */
static int push_handler(engine *e, const char *name) {
    lua_State *L = e->rt.L;
    lua_rawgeti(L, LUA_REGISTRYINDEX, e->rt.ref_rules);
    lua_pushstring(L, name);
    lua_rawget(L, -2); /* raw: a metatable on the rules must not run unbudgeted */
    lua_remove(L, -2);
    if (lua_isfunction(L, -1)) return 1;
    lua_pop(L, 1);
    return 0;
}

/* Protected: pushes g, then (if the handler exists) the handler and its
** arguments. Returns everything pushed: [g] or [g, fn, args...]. */
static int p_prepare(lua_State *L) {
    call_ctx *c = lua_touserdata(L, 1);
    lua_settop(L, 0);
    luaL_checkstack(L, 10, "engine");
    push_g(c->e, c->readonly, c->kind != ARGS_RENDER);
    c->found = push_handler(c->e, c->handler);
    if (!c->found) return 1;
    switch (c->kind) {
    case ARGS_G: lua_pushvalue(L, 1); break;
    case ARGS_APPLY:
        lua_pushvalue(L, 1);
        lua_pushinteger(L, c->seat);
        lua_pushstring(L, c->id);
        break;
    case ARGS_SEAT:
        lua_pushvalue(L, 1);
        lua_pushinteger(L, c->seat);
        break;
    case ARGS_RENDER:
        if (luaval_push(L, c->v) != 0) return luaL_error(L, "out of memory");
        if (c->seat > 0) lua_pushinteger(L, c->seat);
        else lua_pushnil(L);
        lua_pushvalue(L, 1);
        break;
    }
    return lua_gettop(L);
}

/* Calls rules[handler] with the arguments of kind and nres results left
** above g: on success the stack gains [g, results...] and 1 is returned;
** 0 when the handler does not exist (stack gains [g]); -1 on failure (stack
** unchanged, error in errs). */
static int set_live_state(engine *e, const value *v);

static int call_handler(engine *e, call_ctx *c, int nres, cerr_list *errs) {
    lua_State *L = e->rt.L;
    int top = lua_gettop(L);
    c->e = e;
    if (e->live_stale) {
        if (set_live_state(e, e->state) != 0) {
            cerr_add(errs, NULL, 0, 0, NULL, "%s: out of memory rebuilding the state", c->handler);
            return -1;
        }
        e->live_stale = 0;
    }
    lua_pushcfunction(L, p_prepare);
    lua_pushlightuserdata(L, c);
    if (lua_pcall(L, 1, LUA_MULTRET, 0) != LUA_OK) {
        cerr_add(errs, NULL, 0, 0, NULL, "%s: %s", c->handler,
                 lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "out of memory");
        lua_settop(L, top);
        return -1;
    }
    if (!c->found) return 0;
    int nargs = lua_gettop(L) - top - 2;
    struct timespec t0, t1;
    e->stats.handler_calls++;
    if (e->profiling) clock_gettime(CLOCK_MONOTONIC, &t0);
    int st = sandbox_call(e->rt.sb, nargs, nres, errs);
    if (e->profiling) {
        clock_gettime(CLOCK_MONOTONIC, &t1);
        e->stats.handler_ns += (uint64_t)((t1.tv_sec - t0.tv_sec) * 1000000000LL + (t1.tv_nsec - t0.tv_nsec));
    }
    if (st != SANDBOX_OK) {
        lua_settop(L, top);
        return -1;
    }
    return 1;
}

/* Protected: pushes a fresh Lua copy of the value and refs it. */
static int p_set_state(lua_State *L) {
    call_ctx *c = lua_touserdata(L, 1);
    if (luaval_push(L, c->v) != 0) return luaL_error(L, "out of memory");
    c->ref = luaL_ref(L, LUA_REGISTRYINDEX);
    return 0;
}

/* Protected: refs the table on top (arg 2). */
static int p_ref(lua_State *L) {
    call_ctx *c = lua_touserdata(L, 1);
    lua_settop(L, 2);
    c->ref = luaL_ref(L, LUA_REGISTRYINDEX);
    return 0;
}

/* Pops the value on top into the registry; -1 on OOM (value popped). */
static int ref_top(lua_State *L, int *ref) {
    call_ctx c = {.ref = LUA_NOREF};
    lua_pushcfunction(L, p_ref);
    lua_insert(L, -2);
    lua_pushlightuserdata(L, &c);
    lua_insert(L, -2);
    if (lua_pcall(L, 2, 0, 0) != LUA_OK) {
        lua_pop(L, 1);
        return -1;
    }
    *ref = c.ref;
    return 0;
}

/* Replaces the live state table with a fresh copy of v. */
static int set_live_state(engine *e, const value *v) {
    lua_State *L = e->rt.L;
    call_ctx c = {.e = e, .v = v, .ref = LUA_NOREF};
    lua_pushcfunction(L, p_set_state);
    lua_pushlightuserdata(L, &c);
    if (lua_pcall(L, 1, 0, 0) != LUA_OK) {
        lua_pop(L, 1);
        return -1;
    }
    luaL_unref(L, LUA_REGISTRYINDEX, e->rt.ref_state);
    e->rt.ref_state = c.ref;
    return 0;
}

/* Lua cannot tell an empty list from an empty map, and luaval reads `{}`
** as a map. In the state, empty piles, hands and lists of things won are
** far more common than empty maps, so an empty table is kept as an empty
** list: `hands[2]: []` survives a round trip, and a state schema saying
** `type: array` holds (docs/lua-api.md). */
static void empty_tables_as_lists(value *v) {
    if (v->type == CV_MAP && v->u.map.n == 0) {
        free(v->u.map.items);
        v->type = CV_LIST;
        v->u.list.items = NULL;
        v->u.list.n = v->u.list.cap = 0;
    } else if (v->type == CV_MAP) {
        for (size_t i = 0; i < v->u.map.n; i++) empty_tables_as_lists(v->u.map.items[i].val);
    } else if (v->type == CV_LIST) {
        for (size_t i = 0; i < v->u.list.n; i++) empty_tables_as_lists(v->u.list.items[i]);
    }
}

/* Reads g.state (g at stack index gi) back as a value, validating that it
** is plain data. On success that table becomes the live one. */
static value *take_state(engine *e, int gi, const char *handler, cerr_list *errs) {
    lua_State *L = e->rt.L;
    lua_getfield(L, gi, "state"); /* g is a plain table: no metamethod, no allocation */
    if (!lua_istable(L, -1)) {
        cerr_add(errs, NULL, 0, 0, "state", "%s: g.state must be a table, not %s", handler,
                 luaL_typename(L, -1));
        lua_pop(L, 1);
        return NULL;
    }
    value *v = luaval_to_value(L, -1, "state", errs);
    if (!v) {
        lua_pop(L, 1);
        return NULL;
    }
    empty_tables_as_lists(v);
    int ref;
    if (ref_top(L, &ref) != 0) {
        value_free(v);
        errs->oom = 1;
        return NULL;
    }
    luaL_unref(L, LUA_REGISTRYINDEX, e->rt.ref_state);
    e->rt.ref_state = ref;
    return v;
}

static int parse_seat(const engine *e, const value *v, int *seat) {
    if (!v || v->type != CV_INT || v->u.i < 1 || v->u.i > e->cfg.players) return -1;
    *seat = (int)v->u.i;
    return 0;
}

/* Turns decisions(g)'s result into C structs, checking its shape. */
static int parse_decisions(const engine *e, const value *v, engine_decision_list *out,
                           cerr_list *errs) {
    out->items = NULL;
    out->n = 0;
    if (value_len(v) == 0 && (v->type == CV_LIST || v->type == CV_MAP)) return 0;
    if (v->type != CV_LIST) {
        cerr_add(errs, NULL, 0, 0, "decisions", "decisions(g) must return a list, not %s",
                 value_type_name(v->type));
        return -1;
    }
    out->items = calloc(v->u.list.n, sizeof *out->items);
    if (!out->items) {
        errs->oom = 1;
        return -1;
    }
    out->n = v->u.list.n;
    for (size_t i = 0; i < v->u.list.n; i++) {
        const value *d = v->u.list.items[i];
        engine_decision *dd = &out->items[i];
        char where[48];
        snprintf(where, sizeof where, "decisions[%zu]", i + 1);
        const value *opts = value_map_get(d, "options");
        if (d->type != CV_MAP || parse_seat(e, value_map_get(d, "seat"), &dd->seat) != 0) {
            cerr_add(errs, NULL, 0, 0, where, "needs seat = 1..%d", e->cfg.players);
            goto fail;
        }
        if (!opts || opts->type != CV_LIST || opts->u.list.n == 0) {
            cerr_add(errs, NULL, 0, 0, where, "needs a non-empty list of options");
            goto fail;
        }
        for (size_t k = 0; k < i; k++)
            if (out->items[k].seat == dd->seat) {
                cerr_add(errs, NULL, 0, 0, where, "seat %d is asked twice at once", dd->seat);
                goto fail;
            }
        dd->prompt = cairn_strdup(value_get_str(d, "prompt", ""));
        dd->hidden = value_get_bool(d, "hidden", 0);
        dd->options = calloc(opts->u.list.n, sizeof *dd->options);
        if (!dd->prompt || !dd->options) {
            errs->oom = 1;
            goto fail;
        }
        dd->n_options = opts->u.list.n;
        for (size_t j = 0; j < opts->u.list.n; j++) {
            const value *o = opts->u.list.items[j];
            engine_option *oo = &dd->options[j];
            const char *id = value_get_str(o, "id", NULL);
            if (!id || !*id) {
                cerr_add(errs, NULL, 0, 0, where, "options[%zu] needs a non-empty string id", j + 1);
                goto fail;
            }
            for (size_t k = 0; k < j; k++)
                if (strcmp(dd->options[k].id, id) == 0) {
                    cerr_add(errs, NULL, 0, 0, where, "option id \"%s\" appears twice", id);
                    goto fail;
                }
            const value *dis = value_map_get(o, "disabled");
            if (dis && dis->type != CV_STR && dis->type != CV_BOOL) {
                cerr_add(errs, NULL, 0, 0, where, "options[%zu].disabled must be a string (the reason)", j + 1);
                goto fail;
            }
            oo->id = cairn_strdup(id);
            oo->label = cairn_strdup(value_get_str(o, "label", id));
            if (dis && dis->type == CV_STR) oo->disabled = cairn_strdup(dis->u.str.s);
            else if (dis && dis->u.b) oo->disabled = cairn_strdup("not available");
            if (!oo->id || !oo->label || (dis && !oo->disabled && (dis->type == CV_STR || dis->u.b))) {
                errs->oom = 1;
                goto fail;
            }
        }
    }
    return 0;
fail:
    engine_decision_list_free(out);
    return -1;
}

/* Calls decisions(g) on the live state. */
static int ask_decisions(engine *e, engine_decision_list *out, cerr_list *errs) {
    lua_State *L = e->rt.L;
    int top = lua_gettop(L);
    out->items = NULL;
    out->n = 0;
    call_ctx c = {.handler = "decisions", .kind = ARGS_G, .readonly = 1};
    int rc = call_handler(e, &c, 1, errs);
    if (rc <= 0) {
        if (rc == 0) cerr_add(errs, NULL, 0, 0, NULL, "the rules define no decisions(g) handler");
        lua_settop(L, top);
        return -1;
    }
    value *v = lua_isnil(L, -1) ? value_list() : luaval_to_value(L, -1, "decisions", errs);
    lua_settop(L, top);
    if (!v) return -1;
    rc = parse_decisions(e, v, out, errs);
    value_free(v);
    return rc;
}

/* Runs the post-decision checks: state schema, then check(g). */
static int run_checks(engine *e, const value *state, cerr_list *errs) {
    if (e->rt.state_schema &&
        schema_validate(e->rt.schemas, e->rt.state_schema, NULL, state, "state", errs) != 0)
        return -1;
    lua_State *L = e->rt.L;
    int top = lua_gettop(L);
    call_ctx c = {.handler = "check", .kind = ARGS_G, .readonly = 1};
    int rc = call_handler(e, &c, 1, errs);
    if (rc <= 0) {
        lua_settop(L, top);
        return rc;
    }
    rc = 0;
    if (!lua_isnil(L, -1) && !(lua_isboolean(L, -1) && !lua_toboolean(L, -1))) {
        const char *msg = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : NULL;
        cerr_add(errs, NULL, 0, 0, NULL, "check: %s", msg ? msg : "invariant broken");
        rc = -1;
    }
    lua_settop(L, top);
    return rc;
}

/* ------------------------------------------------- legality, explanation */

static const engine_decision *decision_for(const engine *e, int seat) {
    const engine_decision_list *a = asked_now(e);
    for (size_t i = 0; i < a->n; i++)
        if (a->items[i].seat == seat) return &a->items[i];
    return NULL;
}

/* "did you mean" for an id matching no option: the enabled ids it is a
** prefix of, else the enabled ids within a small edit distance, else all
** enabled ids (up to 8). */
static char *unknown_option(const engine_decision *d, const char *id) {
    const size_t MAXN = 8;
    const char *pick[8];
    size_t n = 0;
    size_t len = strlen(id);
    for (size_t i = 0; i < d->n_options && n < MAXN; i++)
        if (!d->options[i].disabled && len && strncmp(d->options[i].id, id, len) == 0)
            pick[n++] = d->options[i].id;
    if (n == 0) {
        suggest_nearest near = suggest_start(id, len / 3 > 2 ? len / 3 : 2, 0);
        for (size_t i = 0; i < d->n_options; i++)
            if (!d->options[i].disabled) suggest_try(&near, d->options[i].id);
        for (size_t i = 0; i < d->n_options && n < MAXN && near.best; i++)
            if (!d->options[i].disabled && suggest_distance(id, d->options[i].id) == near.dist)
                pick[n++] = d->options[i].id;
    }
    const char *lead = "did you mean";
    if (n == 0) {
        lead = "choose one of";
        for (size_t i = 0; i < d->n_options && n < MAXN; i++)
            if (!d->options[i].disabled) pick[n++] = d->options[i].id;
    }
    char *out = cairn_strfmt("no option \"%s\"; %s:", id, lead);
    for (size_t i = 0; out && i < n; i++) {
        char *next = cairn_strfmt("%s%s %s", out, i ? "," : "", pick[i]);
        free(out);
        out = next;
    }
    return out;
}

char *engine_explain(const engine *e, int seat, const char *id, engine_status *status) {
    *status = ENGINE_OK;
    if (engine_is_over(e)) {
        *status = ENGINE_GAME_OVER;
        return cairn_strdup("the game is over");
    }
    const engine_decision *d = decision_for(e, seat);
    if (!d) {
        *status = ENGINE_NOT_ASKED;
        const engine_decision_list *a = asked_now(e);
        char *who = cairn_strdup("");
        for (size_t i = 0; who && i < a->n; i++) {
            if (a->items[i].hidden) continue;
            char *next = cairn_strfmt("%s%s%s", who, *who ? ", " : "",
                                      engine_seat_name(e, a->items[i].seat));
            free(who);
            who = next;
        }
        char *msg = who && *who ? cairn_strfmt("%s is not asked anything now (waiting for %s)",
                                               seat >= 1 && seat <= e->cfg.players
                                                   ? engine_seat_name(e, seat) : "that seat",
                                               who)
                                : cairn_strdup("that seat is not asked anything now");
        free(who);
        return msg;
    }
    for (size_t i = 0; i < d->n_options; i++) {
        if (strcmp(d->options[i].id, id) != 0) continue;
        if (!d->options[i].disabled) return NULL;
        *status = ENGINE_DISABLED;
        return cairn_strdup(d->options[i].disabled);
    }
    *status = ENGINE_UNKNOWN;
    return unknown_option(d, id);
}

/* ------------------------------------------------------------ transactions */

static void drop_events_from(engine *e, size_t from) {
    for (size_t i = from; i < e->n_events; i++) free(e->events[i].text);
    if (from < e->n_events) e->n_events = from;
}

/* Frees snapshots after position pos and, if drop_log, the log tail. */
static void drop_tail(engine *e, int drop_log) {
    for (size_t i = e->pos + 1; i < e->n_snaps; i++) snapshot_clear(&e->snaps[i]);
    if (e->n_snaps > e->pos + 1) e->n_snaps = e->pos + 1;
    if (drop_log) {
        for (size_t i = e->pos; i < e->n_log; i++) free(e->log[i].id);
        if (e->n_log > e->pos) e->n_log = e->pos;
    }
}

static int grow(void **p, size_t *cap, size_t need, size_t size) {
    if (need <= *cap) return 0;
    size_t c = *cap ? *cap * 2 : 16;
    while (c < need) c *= 2;
    void *np = realloc(*p, c * size);
    if (!np) return -1;
    *p = np;
    *cap = c;
    return 0;
}

/* Runs apply(g, seat, id) as a transaction; the answer is already known
** to be legal. On success the snapshot is pushed, the log gets the entry
** (replacing the tail when drop_log, else the tail entry at pos must be
** this very decision) and pos moves on. On failure nothing changed. */
static engine_status apply_decision(engine *e, int seat, const char *id, int drop_log,
                                    cerr_list *errs) {
    lua_State *L = e->rt.L;
    int top = lua_gettop(L);
    rng saved_rng = e->rng;
    size_t ev_before = e->n_events;
    size_t ev_keep = e->snaps[e->pos].n_events; /* events of the current position */
    value *nstate = NULL;
    engine_decision_list asked = {NULL, 0};
    engine_status st = ENGINE_RULES_ERROR;

    if (grow((void **)&e->snaps, &e->cap_snaps, e->pos + 2, sizeof *e->snaps) != 0 ||
        grow((void **)&e->log, &e->cap_log, e->pos + 1, sizeof *e->log) != 0 ||
        !lua_checkstack(L, 8)) {
        errs->oom = 1;
        return ENGINE_NO_MEMORY;
    }
    call_ctx c = {.handler = "apply", .kind = ARGS_APPLY, .seat = seat, .id = id};
    e->in_apply = 1;
    e->cur_decision = e->pos + 1;
    int rc = call_handler(e, &c, 0, errs);
    e->in_apply = 0;
    if (rc == 0) cerr_add(errs, NULL, 0, 0, NULL, "the rules define no apply(g, seat, id) handler");
    if (rc <= 0) goto fail;
    int gi = top + 1;
    if (!(nstate = take_state(e, gi, "apply", errs))) goto fail;
    if (e->cfg.checks && run_checks(e, nstate, errs) != 0) goto fail;
    if (ask_decisions(e, &asked, errs) != 0) goto fail;

    char *idc = cairn_strdup(id);
    if (!idc) {
        errs->oom = 1;
        st = ENGINE_NO_MEMORY;
        goto fail;
    }
    /* commit: move this decision's events down over the dropped tail's */
    size_t n_new = e->n_events - ev_before;
    for (size_t i = ev_keep; i < ev_before; i++) free(e->events[i].text);
    if (n_new && ev_keep != ev_before)
        memmove(&e->events[ev_keep], &e->events[ev_before], n_new * sizeof *e->events);
    e->n_events = ev_keep + n_new;
    drop_tail(e, drop_log);
    if (!drop_log && e->pos < e->n_log) {
        free(e->log[e->pos].id);
    } else {
        e->n_log = e->pos + 1;
    }
    e->log[e->pos].seat = seat;
    e->log[e->pos].id = idc;
    snapshot *s = &e->snaps[e->pos + 1];
    s->state = nstate;
    s->rng = e->rng;
    s->n_events = e->n_events;
    s->asked = asked;
    e->n_snaps = e->pos + 2;
    e->pos++;
    e->state = nstate;
    lua_settop(L, top);
    return ENGINE_OK;

fail:
    value_free(nstate);
    engine_decision_list_free(&asked);
    e->rng = saved_rng;
    drop_events_from(e, ev_before);
    lua_settop(L, top);
    if (set_live_state(e, e->state) != 0) {
        e->live_stale = 1;
        errs->oom = 1;
    }
    if (errs->oom && st != ENGINE_NO_MEMORY && cerr_count(errs) == 0) st = ENGINE_NO_MEMORY;
    return st;
}

static char *first_error(const cerr_list *errs) {
    if (errs->n > 0) return cerr_format(&errs->items[0]);
    return cairn_strdup(errs->oom ? "out of memory" : "failed");
}

engine_status engine_answer(engine *e, int seat, const char *id, char **why) {
    if (why) *why = NULL;
    engine_status st;
    char *msg = engine_explain(e, seat, id, &st);
    if (st != ENGINE_OK) {
        if (why) *why = msg;
        else free(msg);
        return st;
    }
    cerr_list errs;
    cerr_init(&errs, 0);
    st = apply_decision(e, seat, id, 1, &errs);
    if (st != ENGINE_OK && why) *why = first_error(&errs);
    cerr_free(&errs);
    return st;
}

/* ---------------------------------------------------------------- history */

static int restore(engine *e, size_t k) {
    if (set_live_state(e, e->snaps[k].state) != 0) return -1;
    e->pos = k;
    e->state = e->snaps[k].state;
    e->rng = e->snaps[k].rng;
    return 0;
}

int engine_undo(engine *e) {
    if (e->pos == 0) return -1;
    return restore(e, e->pos - 1);
}

/* Redo one decision: from its snapshot if kept, else by applying it. */
static int redo_one(engine *e, cerr_list *errs) {
    if (e->pos >= e->n_log) return -1;
    if (e->pos + 1 < e->n_snaps) return restore(e, e->pos + 1);
    const engine_logged *l = &e->log[e->pos];
    engine_status st;
    char *why = engine_explain(e, l->seat, l->id, &st);
    if (st != ENGINE_OK) {
        cerr_add(errs, NULL, 0, 0, NULL, "decision %zu (seat %d, \"%s\"): %s", e->pos + 1,
                 l->seat, l->id, why ? why : engine_status_name(st));
        free(why);
        return -1;
    }
    return apply_decision(e, l->seat, l->id, 0, errs) == ENGINE_OK ? 0 : -1;
}

int engine_redo(engine *e) {
    cerr_list errs;
    cerr_init(&errs, 0);
    int rc = redo_one(e, &errs);
    cerr_free(&errs);
    return rc;
}

int engine_goto_why(engine *e, size_t n, cerr_list *errs) {
    if (n > e->n_log) return -1;
    if (n < e->n_snaps) return restore(e, n);
    if (restore(e, e->n_snaps - 1) != 0) return -1;
    while (e->pos < n)
        if (redo_one(e, errs) != 0) return -1;
    return 0;
}

int engine_goto(engine *e, size_t n) {
    cerr_list errs;
    cerr_init(&errs, 0);
    int rc = engine_goto_why(e, n, &errs);
    cerr_free(&errs);
    return rc;
}

/* ------------------------------------------------------------------ events */

void engine_event_list_free(engine_event_list *l) {
    if (!l) return;
    for (size_t i = 0; i < l->n; i++) free(l->items[i].text);
    free(l->items);
    l->items = NULL;
    l->n = 0;
}

int engine_events(const engine *e, size_t since, int seat, engine_event_list *out) {
    out->items = NULL;
    out->n = 0;
    size_t end = engine_event_count(e);
    uint32_t all = all_seats(e);
    if (since >= end) return 0;
    out->items = calloc(end - since, sizeof *out->items);
    if (!out->items) return -1;
    for (size_t i = since; i < end; i++) {
        const event_rec *r = &e->events[i];
        int pub = (r->to & all) == all;
        int sees = seat == 0 ? pub : seat >= 1 && seat <= 32 && (r->to >> (seat - 1)) & 1u;
        if (!sees) continue;
        engine_event *ev = &out->items[out->n];
        if (!(ev->text = cairn_strdup(r->text))) {
            engine_event_list_free(out);
            return -1;
        }
        ev->index = i;
        ev->decision = r->decision;
        ev->to = r->to;
        ev->is_public = pub;
        out->n++;
    }
    return 0;
}

/* ------------------------------------------------------ views and render */

const struct view_rules *engine_visibility(const engine *e) { return e->rt.vis; }

value *engine_view(const engine *e, int seat) { return view_of(e->rt.vis, e->state, seat); }

char *engine_render(engine *e, int seat, cerr_list *errs) {
    lua_State *L = e->rt.L;
    int top = lua_gettop(L);
    value *v = engine_view(e, seat);
    if (!v) {
        errs->oom = 1;
        return NULL;
    }
    call_ctx c = {.handler = "render", .kind = ARGS_RENDER, .seat = seat, .v = v, .readonly = 1};
    int rc = call_handler(e, &c, 1, errs);
    if (rc == 0) {
        /* no render: the view as YAML is still readable */
        char *y = value_to_yaml(v);
        value_free(v);
        if (!y) errs->oom = 1;
        lua_settop(L, top);
        return y;
    }
    value_free(v);
    if (rc < 0) return NULL;
    char *out = NULL;
    if (lua_type(L, -1) != LUA_TSTRING) {
        cerr_add(errs, NULL, 0, 0, NULL, "render must return a string, not %s", luaL_typename(L, -1));
    } else {
        size_t n;
        const char *s = lua_tolstring(L, -1, &n);
        out = malloc(n + 1);
        if (out) {
            memcpy(out, s, n);
            out[n] = '\0';
        } else {
            errs->oom = 1;
        }
    }
    lua_settop(L, top);
    return out;
}

/* ------------------------------------------------------------------ score */

void engine_score_free(engine_score *s) {
    if (!s || !s->seats) return;
    for (size_t i = 0; i < s->n; i++) {
        for (size_t j = 0; j < s->seats[i].n_items; j++) {
            free(s->seats[i].items[j].label);
            free(s->seats[i].items[j].key);
        }
        free(s->seats[i].items);
    }
    free(s->seats);
    s->seats = NULL;
    s->n = 0;
}

/* Pushes t[k] without metamethods (the table comes from a script). */
static int raw_field(lua_State *L, int idx, const char *k) {
    idx = lua_absindex(L, idx);
    lua_pushstring(L, k);
    return lua_rawget(L, idx);
}

/* Reads an integer field of the table at idx; -1 if present but not an integer. */
static int int_field(lua_State *L, int idx, const char *k, int64_t *out, int *present) {
    int t = raw_field(L, idx, k);
    *present = t != LUA_TNIL;
    int ok = 1;
    if (*present) *out = lua_tointegerx(L, -1, &ok);
    lua_pop(L, 1);
    return ok ? 0 : -1;
}

/* Ranks by total, then tiebreak; equal seats share the better rank. */
static void rank_by_total(engine_score *s) {
    for (size_t i = 0; i < s->n; i++) {
        int better = 0;
        for (size_t j = 0; j < s->n; j++) {
            const engine_seat_score *a = &s->seats[j], *b = &s->seats[i];
            if (a->total > b->total || (a->total == b->total && a->tiebreak > b->tiebreak))
                better++;
        }
        s->seats[i].rank = better + 1;
    }
}

/* The score table is read straight from Lua: it mixes a list of seats with
** a `ranking` key, which plain-data conversion refuses. */
static int parse_score(engine *e, int si, engine_score *out, cerr_list *errs) {
    lua_State *L = e->rt.L;
    int n = e->cfg.players;
    if (!lua_istable(L, si)) {
        cerr_add(errs, NULL, 0, 0, "score", "score(g) must return a table, not %s", luaL_typename(L, si));
        return -1;
    }
    out->seats = calloc((size_t)n, sizeof *out->seats);
    if (!out->seats) {
        errs->oom = 1;
        return -1;
    }
    out->n = (size_t)n;
    for (int s = 1; s <= n; s++) {
        engine_seat_score *ss = &out->seats[s - 1];
        char where[32];
        snprintf(where, sizeof where, "score[%d]", s);
        lua_rawgeti(L, si, s);
        int ei = lua_gettop(L), present;
        if (!lua_istable(L, ei)) {
            cerr_add(errs, NULL, 0, 0, where, "each seat needs {total = <integer>, ...}");
            return -1;
        }
        if (int_field(L, ei, "total", &ss->total, &present) != 0 || !present) {
            cerr_add(errs, NULL, 0, 0, where, "total must be an integer");
            return -1;
        }
        if (int_field(L, ei, "tiebreak", &ss->tiebreak, &ss->has_tiebreak) != 0) {
            cerr_add(errs, NULL, 0, 0, where, "tiebreak must be an integer");
            return -1;
        }
        if (raw_field(L, ei, "breakdown") == LUA_TTABLE) {
            size_t m = lua_rawlen(L, -1);
            if (m) {
                ss->items = calloc(m, sizeof *ss->items);
                if (!ss->items) {
                    errs->oom = 1;
                    return -1;
                }
            }
            for (size_t j = 1; j <= m; j++) {
                lua_rawgeti(L, -1, (lua_Integer)j);
                int bi = lua_gettop(L);
                const char *label = NULL;
                if (lua_istable(L, bi) && raw_field(L, bi, "label") == LUA_TSTRING)
                    label = lua_tostring(L, -1);
                int64_t pts = 0;
                if (!label || int_field(L, bi, "points", &pts, &present) != 0 || !present) {
                    cerr_add(errs, NULL, 0, 0, where, "breakdown[%zu] needs label (string) and points (integer)", j);
                    return -1;
                }
                if (!(ss->items[j - 1].label = cairn_strdup(label))) {
                    errs->oom = 1;
                    return -1;
                }
                /* optional stable name of the line, for statistics over many games */
                int kt = raw_field(L, bi, "key");
                if (kt != LUA_TNIL && kt != LUA_TSTRING) {
                    cerr_add(errs, NULL, 0, 0, where, "breakdown[%zu].key must be a string", j);
                    return -1;
                }
                if (!(ss->items[j - 1].key = cairn_strdup(kt == LUA_TSTRING ? lua_tostring(L, -1) : label))) {
                    errs->oom = 1;
                    return -1;
                }
                ss->items[j - 1].points = pts;
                ss->n_items = j;
                lua_settop(L, bi - 1);
            }
        }
        lua_settop(L, ei - 1);
    }
    if (raw_field(L, si, "ranking") == LUA_TTABLE) {
        int ri = lua_gettop(L), next = 1, seen[ENGINE_MAX_SEATS + 1] = {0};
        size_t tiers = lua_rawlen(L, ri);
        for (size_t t = 1; t <= tiers; t++) {
            lua_rawgeti(L, ri, (lua_Integer)t);
            size_t m = lua_istable(L, -1) ? lua_rawlen(L, -1) : 0;
            for (size_t j = 1; j <= m; j++) {
                lua_rawgeti(L, -1, (lua_Integer)j);
                int ok;
                lua_Integer s = lua_tointegerx(L, -1, &ok);
                lua_pop(L, 1);
                if (!ok || s < 1 || s > n || seen[s]) {
                    cerr_add(errs, NULL, 0, 0, "score.ranking", "tier %zu: each seat 1..%d once", t, n);
                    return -1;
                }
                seen[s] = 1;
                out->seats[s - 1].rank = next;
            }
            next += (int)m;
            lua_pop(L, 1);
        }
        for (int s = 1; s <= n; s++)
            if (!seen[s]) {
                cerr_add(errs, NULL, 0, 0, "score.ranking", "seat %d is missing from the ranking", s);
                return -1;
            }
    } else {
        rank_by_total(out);
    }
    return 0;
}

typedef struct score_ctx {
    engine *e;
    engine_score *out;
    cerr_list *errs;
    int rc;
} score_ctx;

static int p_parse_score(lua_State *L) {
    score_ctx *c = lua_touserdata(L, 1);
    c->rc = parse_score(c->e, 2, c->out, c->errs);
    return 0;
}

int engine_score_get(engine *e, engine_score *out, cerr_list *errs) {
    lua_State *L = e->rt.L;
    int top = lua_gettop(L);
    out->seats = NULL;
    out->n = 0;
    call_ctx c = {.handler = "score", .kind = ARGS_G, .readonly = 1};
    int rc = call_handler(e, &c, 1, errs);
    if (rc == 0) cerr_add(errs, NULL, 0, 0, NULL, "the rules define no score(g) handler");
    if (rc > 0) {
        /* parsing pushes key strings: protected, like every allocation */
        score_ctx sc = {e, out, errs, -1};
        lua_pushcfunction(L, p_parse_score);
        lua_insert(L, -2);
        lua_pushlightuserdata(L, &sc);
        lua_insert(L, -2);
        if (lua_pcall(L, 2, 0, 0) != LUA_OK) errs->oom = 1;
        rc = sc.rc;
    } else {
        rc = -1;
    }
    if (rc != 0) engine_score_free(out);
    lua_settop(L, top);
    return rc;
}

/* ------------------------------------------------------------ measurement */

void engine_set_profiling(engine *e, int on) { e->profiling = on; }
void engine_get_stats(const engine *e, engine_stats *out) { *out = e->stats; }

/* ------------------------------------------------------------------- bots */

char *engine_bot_choice(const engine *e, int seat) {
    const engine_decision *d = decision_for(e, seat);
    if (!d) return NULL;
    size_t enabled = 0;
    for (size_t i = 0; i < d->n_options; i++) enabled += !d->options[i].disabled;
    if (!enabled) return NULL;
    rng r;
    rng_seed_stream(&r, e->cfg.seed, (uint64_t)e->pos * (ENGINE_MAX_SEATS + 1) + (uint64_t)seat);
    uint64_t k = rng_below(&r, enabled);
    for (size_t i = 0; i < d->n_options; i++)
        if (!d->options[i].disabled && k-- == 0) return cairn_strdup(d->options[i].id);
    return NULL;
}

int engine_heuristic(engine *e, int seat, int64_t *out, cerr_list *errs) {
    lua_State *L = e->rt.L;
    int top = lua_gettop(L);
    call_ctx c = {.handler = "heuristic", .kind = ARGS_SEAT, .seat = seat, .readonly = 1};
    int rc = call_handler(e, &c, 1, errs);
    if (rc > 0) {
        int ok;
        *out = lua_tointegerx(L, -1, &ok);
        if (!ok) {
            cerr_add(errs, NULL, 0, 0, NULL, "heuristic must return an integer, not %s", luaL_typename(L, -1));
            rc = -1;
        }
    }
    lua_settop(L, top);
    return rc;
}

int engine_next_bot_seat(const engine *e) {
    const engine_decision_list *a = asked_now(e);
    for (size_t i = 0; i < a->n; i++)
        if (engine_seat_bot(e, a->items[i].seat)) return a->items[i].seat;
    return 0;
}

/* ---------------------------------------------------------------- building */

static int cfg_copy(game_cfg *d, const engine_config *c) {
    int oom = 0;
    memset(d, 0, sizeof *d);
    d->ruleset = cairn_strdup(c->ruleset);
    d->choices = strv_dup(c->choices, c->n_choices, &oom);
    d->n_choices = d->choices ? c->n_choices : 0;
    d->preset = cairn_strdup(c->preset);
    d->players = c->players;
    d->seed = c->seed;
    d->lang = cairn_strdup(c->lang ? c->lang : "");
    d->checks = c->checks;
    d->budget = c->budget;
    d->mem_cap = c->mem_cap;
    d->no_budget = c->no_budget;
    d->scenario = c->scenario ? value_clone(c->scenario) : NULL;
    d->scenario_rng = cairn_strdup(c->scenario_rng);
    if (!d->ruleset || !d->lang || (c->preset && !d->preset) || (c->scenario && !d->scenario) ||
        (c->scenario_rng && !d->scenario_rng))
        oom = 1;
    return oom ? -1 : 0;
}

/* Seat names and bots, once the seat count is known. */
static int cfg_seats(game_cfg *d, const engine_config *c) {
    size_t n = (size_t)d->players;
    d->names = calloc(n, sizeof *d->names);
    d->bots = calloc(n, sizeof *d->bots);
    if (!d->names || !d->bots) return -1;
    for (size_t i = 0; i < n; i++) {
        d->names[i] = c->names && c->names[i] ? cairn_strdup(c->names[i])
                                              : cairn_strfmt("Seat %zu", i + 1);
        if (!d->names[i]) return -1;
        if (c->bots && c->bots[i] && !(d->bots[i] = cairn_strdup(c->bots[i]))) return -1;
    }
    return 0;
}

/* Protected: a read-only copy of c->v named c->id, referenced in c->ref. */
static int p_frozen(lua_State *L) {
    call_ctx *c = lua_touserdata(L, 1);
    if (luaval_push_readonly(L, c->v, c->id, NULL) != 0) return luaL_error(L, "out of memory");
    c->ref = luaL_ref(L, LUA_REGISTRYINDEX);
    return 0;
}

static int frozen_ref(lua_State *L, const value *v, const char *name, int *ref) {
    call_ctx c = {.v = v, .id = name, .ref = LUA_NOREF};
    lua_pushcfunction(L, p_frozen);
    lua_pushlightuserdata(L, &c);
    if (lua_pcall(L, 1, 0, 0) != LUA_OK) {
        lua_pop(L, 1);
        return -1;
    }
    *ref = c.ref;
    return 0;
}

static value *seats_value(const game_cfg *c) {
    value *l = value_list();
    for (int i = 0; l && i < c->players; i++) {
        value *m = value_map();
        if (!m || value_list_push(l, m) != 0 || value_map_set(m, "name", value_str(c->names[i])) != 0 ||
            (c->bots[i] && value_map_set(m, "bot", value_str(c->bots[i])) != 0)) {
            value_free(l);
            return NULL;
        }
    }
    return l;
}

/* A script's name as errors show it: relative to the ruleset's parent folder
** when it lies below it ("connect4/rules.lua"), else the path. */
static const char *script_shown(const ruleset *rs, const char *path) {
    const char *d = rs->dir;
    size_t n = strlen(d);
    while (n > 0 && d[n - 1] == '/') n--;
    size_t p = n;
    while (p > 0 && d[p - 1] != '/') p--;
    if (strncmp(path, d, n) == 0 && path[n] == '/') return path + p;
    return path;
}

/* Loads the ruleset and builds the sandbox, g's read-only tables and the
** rules table (main script, then each option script wrapping it). */
static int rt_build(engine *e, game_rt *rt, cerr_list *errs) {
    game_cfg *c = &e->cfg;
    memset(rt, 0, sizeof *rt);
    rt->ref_rules = rt->ref_data = rt->ref_options = rt->ref_seats = rt->ref_state = LUA_NOREF;
    ruleset_request req = {(const char *const *)c->choices, c->n_choices, c->preset, c->players};
    if (!(rt->rs = ruleset_load(c->ruleset, &req, errs))) return -1;
    if (!(rt->vis = view_rules_new(rt->rs->visibility, errs))) return -1;
    const value *ss = value_map_get(rt->rs->manifest, "state_schema");
    if (ss && ss->type == CV_STR) {
        if (!(rt->schemas = schema_set_new()) ||
            schema_set_fallback_dir(rt->schemas, ruleset_schemas_dir()) != 0)
            return errs->oom = 1, -1;
        if (!(rt->state_schema = schema_load(rt->schemas, ss->u.str.s, errs))) return -1;
    }
    value *tl = value_map_get(rt->rs->text, c->lang), *te = value_map_get(rt->rs->text, "en");
    if ((tl && !(rt->text_lang = value_clone(tl))) || (te && !(rt->text_en = value_clone(te))))
        return errs->oom = 1, -1;

    sandbox_config sc;
    memset(&sc, 0, sizeof sc);
    sc.mem_cap = c->mem_cap ? c->mem_cap : (size_t)CAIRN_LUA_MEMORY_CAP;
    sc.instr_budget = c->budget ? c->budget : CAIRN_LUA_INSTRUCTION_BUDGET;
    sc.no_budget = c->no_budget;
    sc.module_dirs = (const char *const *)rt->rs->module_dirs;
    sc.n_module_dirs = rt->rs->n_module_dirs;
    sc.stdlib_dir = ruleset_stdlib_dir();
    sc.print = on_print;
    sc.print_ud = e->hub;
    if (!(rt->sb = sandbox_new(&sc, errs))) return -1;
    lua_State *L = rt->L = sandbox_state(rt->sb);
    value *seats = seats_value(c);
    value *empty = value_map();
    int bad = !seats || !empty || frozen_ref(L, rt->rs->data, "g.data", &rt->ref_data) != 0 ||
              frozen_ref(L, rt->rs->options, "g.options", &rt->ref_options) != 0 ||
              frozen_ref(L, seats, "g.seats", &rt->ref_seats) != 0;
    value_free(seats);
    if (!bad) {
        /* the live state starts as {} for setup */
        call_ctx sc2 = {.v = empty, .ref = LUA_NOREF};
        lua_pushcfunction(L, p_set_state);
        lua_pushlightuserdata(L, &sc2);
        if (lua_pcall(L, 1, 0, 0) != LUA_OK) {
            lua_pop(L, 1);
            bad = 1;
        }
        rt->ref_state = sc2.ref;
    }
    value_free(empty);
    if (bad) return errs->oom = 1, -1;

    for (size_t i = 0; i < rt->rs->n_scripts; i++) {
        const char *path = rt->rs->scripts[i];
        if (sandbox_run_file(rt->sb, path, script_shown(rt->rs, path), 1, errs) != 0) return -1;
        if (i == 0) {
            if (!lua_istable(L, -1)) {
                cerr_add(errs, path, 0, 0, NULL, "the rules script must return a table of handlers, not %s",
                         luaL_typename(L, -1));
                lua_pop(L, 1);
                return -1;
            }
        } else {
            /* an option script returns function(rules) -> rules */
            if (!lua_isfunction(L, -1)) {
                cerr_add(errs, path, 0, 0, NULL, "an option script must return function(rules), not %s",
                         luaL_typename(L, -1));
                lua_pop(L, 1);
                return -1;
            }
            lua_rawgeti(L, LUA_REGISTRYINDEX, rt->ref_rules); /* fn, rules */
            lua_pushvalue(L, -1);
            lua_rotate(L, -3, 1); /* rules, fn, rules */
            if (sandbox_call(rt->sb, 1, 1, errs) != 0) {
                lua_pop(L, 1);
                return -1;
            }
            if (lua_isnil(L, -1)) lua_pop(L, 1); /* modified in place */
            else if (!lua_istable(L, -1)) {
                cerr_add(errs, path, 0, 0, NULL, "the function must return the rules table, not %s",
                         luaL_typename(L, -1));
                lua_pop(L, 2);
                return -1;
            } else lua_remove(L, -2);
            luaL_unref(L, LUA_REGISTRYINDEX, rt->ref_rules);
        }
        if (ref_top(L, &rt->ref_rules) != 0) return errs->oom = 1, -1;
    }
    return 0;
}

/* Runs setup (or takes the scenario) and records snapshot 0. Assumes the
** history is empty. */
static int start_game(engine *e, cerr_list *errs) {
    lua_State *L = e->rt.L;
    int top = lua_gettop(L);
    value *st = NULL;
    engine_decision_list asked = {NULL, 0};
    rng_seed(&e->rng, e->cfg.seed);
    if (e->cfg.scenario_rng && rng_parse(&e->rng, e->cfg.scenario_rng) != 0) {
        cerr_add(errs, NULL, 0, 0, "rng", "not a valid RNG state (%d hex digits expected)", RNG_HEX_LEN);
        return -1;
    }
    e->cur_decision = 0;
    if (e->cfg.scenario) {
        if (e->cfg.scenario->type != CV_MAP) {
            cerr_add(errs, NULL, 0, 0, "state", "a scenario state must be a map");
            return -1;
        }
        /* through Lua and back, so the committed state has the same shape
        ** a decision would give it (no nulls in maps, empty tables as lists) */
        if (set_live_state(e, e->cfg.scenario) != 0) {
            cerr_add(errs, NULL, 0, 0, "state", "the scenario state cannot be given to Lua "
                     "(out of memory, or a null inside a list)");
            return -1;
        }
        lua_rawgeti(L, LUA_REGISTRYINDEX, e->rt.ref_state);
        st = luaval_to_value(L, -1, "state", errs);
        lua_pop(L, 1);
        if (!st) return -1;
        empty_tables_as_lists(st);
    } else {
        call_ctx c = {.handler = "setup", .kind = ARGS_G};
        e->in_apply = 1;
        int rc = call_handler(e, &c, 0, errs);
        e->in_apply = 0;
        if (rc == 0) cerr_add(errs, NULL, 0, 0, NULL, "the rules define no setup(g) handler");
        if (rc <= 0 || !(st = take_state(e, top + 1, "setup", errs))) {
            lua_settop(L, top);
            return -1;
        }
        lua_settop(L, top);
    }
    if ((e->cfg.checks && run_checks(e, st, errs) != 0) || ask_decisions(e, &asked, errs) != 0) {
        value_free(st);
        lua_settop(L, top);
        return -1;
    }
    if (grow((void **)&e->snaps, &e->cap_snaps, 1, sizeof *e->snaps) != 0) {
        value_free(st);
        engine_decision_list_free(&asked);
        return errs->oom = 1, -1;
    }
    e->snaps[0].state = st;
    e->snaps[0].rng = e->rng;
    e->snaps[0].n_events = e->n_events;
    e->snaps[0].asked = asked;
    e->n_snaps = 1;
    e->pos = 0;
    e->state = st;
    return 0;
}

/* The seat count: asked for, else the manifest's default, else its min. */
static int pick_players(const engine_config *c, cerr_list *errs) {
    if (c->players) return c->players;
    ruleset_request req = {c->choices, c->n_choices, c->preset, 0};
    ruleset *rs = ruleset_load(c->ruleset, &req, errs);
    if (!rs) return -1;
    const value *p = value_map_get(rs->manifest, "players");
    int n = (int)value_get_int(p, "default", rs->min_players);
    ruleset_free(rs);
    return n;
}

engine *engine_new(const engine_config *c, cerr_list *errs) {
    if (!c || !c->ruleset) {
        cerr_add(errs, NULL, 0, 0, NULL, "no ruleset given");
        return NULL;
    }
    engine *e = calloc(1, sizeof *e);
    if (!e) return errs->oom = 1, NULL;
    if (!(e->hub = malloc(sizeof *e->hub))) goto oom;
    e->hub->e = e;
    if (cfg_copy(&e->cfg, c) != 0) goto oom;
    int players = pick_players(c, errs);
    if (players < 0) goto fail;
    if (players < 1 || players > ENGINE_MAX_SEATS) {
        cerr_add(errs, NULL, 0, 0, NULL, "%d seats: cairn plays 1 to %d", players, ENGINE_MAX_SEATS);
        goto fail;
    }
    e->cfg.players = players;
    if (cfg_seats(&e->cfg, c) != 0) goto oom;
    if (rt_build(e, &e->rt, errs) != 0) goto fail;
    if (!*e->cfg.lang) {
        const value *langs = value_map_get(e->rt.rs->manifest, "languages");
        const char *l = langs && langs->type == CV_LIST && langs->u.list.n &&
                                langs->u.list.items[0]->type == CV_STR
                            ? langs->u.list.items[0]->u.str.s : "en";
        free(e->cfg.lang);
        if (!(e->cfg.lang = cairn_strdup(l))) goto oom;
        value *tl = value_map_get(e->rt.rs->text, l);
        if (tl && !(e->rt.text_lang = value_clone(tl))) goto oom;
    }
    if (start_game(e, errs) != 0) goto fail;
    return e;
oom:
    errs->oom = 1;
fail:
    engine_free(e);
    return NULL;
}

/* ------------------------------------------------------- replay, reload */

/* Appends entries to the log beyond the applied ones (a redo tail). */
static int append_tail(engine *e, const engine_logged *l, size_t n) {
    if (grow((void **)&e->log, &e->cap_log, e->n_log + n, sizeof *e->log) != 0) return -1;
    for (size_t i = 0; i < n; i++) {
        char *id = cairn_strdup(l[i].id);
        if (!id) return -1;
        e->log[e->n_log].seat = l[i].seat;
        e->log[e->n_log].id = id;
        e->n_log++;
    }
    return 0;
}

static engine_logged *log_copy(const engine_logged *l, size_t n) {
    engine_logged *c = calloc(n ? n : 1, sizeof *c);
    if (!c) return NULL;
    for (size_t i = 0; i < n; i++) {
        c[i].seat = l[i].seat;
        if (!(c[i].id = cairn_strdup(l[i].id))) {
            for (size_t j = 0; j < i; j++) free(c[j].id);
            free(c);
            return NULL;
        }
    }
    return c;
}

static void log_free(engine_logged *l, size_t n) {
    for (size_t i = 0; l && i < n; i++) free(l[i].id);
    free(l);
}

int engine_replay(engine *e, const engine_logged *log, size_t n, size_t *failed_at,
                  cerr_list *errs) {
    engine_logged *copy = log_copy(log, n); /* log may be e's own */
    if (!copy) return errs->oom = 1, -1;
    *failed_at = n;
    if (restore(e, 0) != 0) {
        log_free(copy, n);
        return errs->oom = 1, -1;
    }
    drop_tail(e, 1);
    drop_events_from(e, e->snaps[0].n_events);
    int rc = 0;
    for (size_t i = 0; i < n; i++) {
        engine_status st;
        char *why = engine_explain(e, copy[i].seat, copy[i].id, &st);
        if (st == ENGINE_OK) {
            cerr_list local;
            cerr_init(&local, 0);
            st = apply_decision(e, copy[i].seat, copy[i].id, 1, &local);
            if (st != ENGINE_OK) why = first_error(&local);
            cerr_free(&local);
        }
        if (st != ENGINE_OK) {
            cerr_add(errs, NULL, 0, 0, NULL, "decision %zu (seat %d, \"%s\"): %s", i + 1, copy[i].seat,
                     copy[i].id, why ? why : engine_status_name(st));
            free(why);
            *failed_at = i;
            if (append_tail(e, copy + i, n - i) != 0) errs->oom = 1;
            rc = -1;
            break;
        }
    }
    log_free(copy, n);
    return rc;
}

int engine_set_redo_tail(engine *e, const engine_logged *log, size_t n) {
    engine_logged *copy = log_copy(log, n); /* log may be e's own */
    if (!copy) return -1;
    drop_tail(e, 1);
    int rc = append_tail(e, copy, n);
    log_free(copy, n);
    return rc;
}

void engine_reload_report_free(engine_reload_report *rep) {
    if (!rep) return;
    free(rep->id);
    free(rep->reason);
    rep->id = rep->reason = NULL;
}

static double now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* An engine_config that borrows everything from g (for rebuilding). */
static engine_config config_of(const game_cfg *g) {
    engine_config c;
    memset(&c, 0, sizeof c);
    c.ruleset = g->ruleset;
    c.choices = (const char *const *)g->choices;
    c.n_choices = g->n_choices;
    c.preset = g->preset;
    c.players = g->players;
    c.names = (const char *const *)g->names;
    c.bots = (const char *const *)g->bots;
    c.seed = g->seed;
    c.lang = g->lang;
    c.checks = g->checks;
    c.budget = g->budget;
    c.mem_cap = g->mem_cap;
    c.no_budget = g->no_budget;
    c.scenario = g->scenario;
    c.scenario_rng = g->scenario_rng;
    return c;
}

int engine_reload(engine *e, engine_reload_report *rep, cerr_list *errs) {
    memset(rep, 0, sizeof *rep);
    double t0 = now_seconds();
    engine_config c = config_of(&e->cfg);
    engine *n = engine_new(&c, errs);
    if (!n) return -1;
    rep->total = e->pos;
    size_t failed;
    cerr_list rerrs;
    cerr_init(&rerrs, 0);
    if (engine_replay(n, e->log, e->pos, &failed, &rerrs) != 0) {
        rep->stopped = 1;
        rep->replayed = failed;
        if (failed < e->pos) {
            rep->seat = e->log[failed].seat;
            rep->id = cairn_strdup(e->log[failed].id);
        }
        rep->reason = first_error(&rerrs);
    } else {
        rep->replayed = e->pos;
    }
    cerr_free(&rerrs);
    /* e->log is NULL before the first decision: no pointer arithmetic on it */
    if (e->n_log > e->pos && append_tail(n, e->log + e->pos, e->n_log - e->pos) != 0) {
        engine_free(n);
        engine_reload_report_free(rep);
        return errs->oom = 1, -1;
    }
    /* swap the insides; the sandbox's print hook follows through e->hub */
    engine tmp = *e;
    *e = *n;
    *n = tmp;
    e->hub->e = e;
    n->hub->e = n;
    engine_free(n);
    rep->seconds = now_seconds() - t0;
    return 0;
}
