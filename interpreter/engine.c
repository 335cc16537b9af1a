/*
** engine.c
** A game in progress: the sandboxed rules on a live Lua state, decisions
** applied as transactions, the decisions asked now, views and render.
**
** The live Lua table is the truth between decisions; nothing copies the
** state per decision. A decision: apply(g, seat, id) on the live table, the
** plain-data check (luaval_check: a walk that builds nothing), the optional
** checks, then decisions(g) read into tables the engine owns. Any failure
** takes the game back to the position before it (history.c: the nearest
** checkpoint, then replay of the log, which replays exactly), so nothing is
** ever half-applied. The state as a tree (saves, views, hashes) is made
** only when someone asks for it.
**
** Outline: handler calls (engine_call) -> the decisions asked (engine_ask,
** lookups, explanations, labels on demand) -> transactions (engine_apply)
** -> answers and bots -> events, state and views -> building a game.
*/
#include "engine_internal.h"
#include "guard.h"
#include "limits.h"
#include "luaval.h"
#include "suggest.h"

#include <lauxlib.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

const char *const engine_handler_names[H_COUNT] = {
    "setup", "decisions", "apply", "score", "render", "check", "heuristic",
    "label", "prompt", "reason", "determinize",
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

int engine_grow(void **p, size_t *cap, size_t need, size_t size) {
    if (need <= *cap) return 0;
    size_t c = *cap ? *cap * 2 : 16;
    while (c < need) c *= 2;
    void *np = realloc(*p, c * size);
    if (!np) return -1;
    *p = np;
    *cap = c;
    return 0;
}

char *engine_first_error(const cerr_list *errs) {
    if (errs->n > 0) return cerr_format(&errs->items[0]);
    return cairn_strdup(errs->oom ? "out of memory" : "failed");
}

const char *engine_status_name(engine_status s) {
    switch (s) {
    case ENGINE_OK: return "ok";
    case ENGINE_NOT_ASKED: return "not asked";
    case ENGINE_DISABLED: return "disabled";
    case ENGINE_UNKNOWN: return "unknown option";
    case ENGINE_GAME_OVER: return "game over";
    case ENGINE_RULES_ERROR: return "rules error";
    case ENGINE_NO_MEMORY: return "out of memory";
    }
    return "?";
}

void engine_decision_list_free(engine_decision_list *l) {
    if (!l || !l->items) return;
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
    for (size_t i = 0; i < src->n; i++) {
        const engine_decision *s = &src->items[i];
        engine_decision *d = &dst->items[i];
        d->seat = s->seat;
        d->hidden = s->hidden;
        d->prompt = cairn_strdup(s->prompt);
        d->options = calloc(s->n_options ? s->n_options : 1, sizeof *d->options);
        if (!d->prompt || !d->options) goto fail;
        d->n_options = s->n_options;
        for (size_t j = 0; j < s->n_options; j++) {
            engine_option *o = &d->options[j];
            o->id = cairn_strdup(s->options[j].id);
            o->label = cairn_strdup(s->options[j].label);
            if (s->options[j].disabled) o->disabled = cairn_strdup(s->options[j].disabled);
            if (!o->id || !o->label || (s->options[j].disabled && !o->disabled)) goto fail;
        }
    }
    return 0;
fail:
    engine_decision_list_free(dst);
    return -1;
}

/* ------------------------------------------------------------ accessors */

const ruleset *engine_ruleset(const engine *e) { return e->rt.rules->rs; }
const char *engine_ruleset_arg(const engine *e) { return e->cfg.ruleset; }
int engine_seat_count(const engine *e) { return e->cfg.players; }
const char *engine_seat_name(const engine *e, int seat) {
    return seat >= 1 && seat <= e->cfg.players ? e->cfg.names[seat - 1] : NULL;
}
const char *engine_seat_bot(const engine *e, int seat) {
    return seat >= 1 && seat <= e->cfg.players ? e->cfg.bots[seat - 1] : NULL;
}
int engine_set_seat_bot(engine *e, int seat, const char *kind) {
    if (seat < 1 || seat > e->cfg.players) return -1;
    char *k = kind ? cairn_strdup(kind) : NULL;
    if (kind && !k) return -1;
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
rng engine_rng(const engine *e) { return e->rng; }
size_t engine_position(const engine *e) { return e->pos; }
const engine_logged *engine_log(const engine *e, size_t *n) {
    *n = e->n_log;
    return e->log;
}
void engine_set_profiling(engine *e, int on) { e->profiling = on; }
void engine_get_stats(const engine *e, engine_stats *out) { *out = e->stats; }

void engine_moved(engine *e) {
    e->state_cache_valid = 0;
    e->asked_labelled = 0;
    if (e->shown_valid) {
        engine_decision_list_free(&e->shown);
        e->shown_valid = 0;
    }
}

/* -------------------------------------------------------- handler calls */

/* The sandbox's contract: every Lua API call that may allocate runs
** protected, or an allocation at the memory cap aborts the process. The hot
** calls (apply with an offered id, decisions and heuristic of a fast game)
** push only what exists already, which allocates nothing; every other call
** is prepared by p_prepare under lua_pcall. Only script code runs through
** sandbox_call. */

/* Whether g.state is a read-only view in this call (else the live table). */
static int guarded(const call_ctx *c) {
    if (c->writable || c->kind == ARGS_RENDER || c->kind == ARGS_DETERMINIZE) return 0;
    return !(c->e->cfg.fast && (c->h == H_DECISIONS || c->h == H_HEURISTIC));
}

/* Pushes the handler, g and the arguments of c. With may_alloc 0 only what
** allocates nothing (the caller has made stack room). */
static void push_call(call_ctx *c, int may_alloc) {
    engine *e = c->e;
    game_rt *rt = &e->rt;
    lua_State *L = rt->L;
    lua_rawgeti(L, LUA_REGISTRYINDEX, rt->ref_h[c->h]);
    if (c->kind == ARGS_RENDER) {
        if (luaval_push(L, c->v) != 0) luaL_error(L, "out of memory");
        if (c->seat > 0) lua_pushinteger(L, c->seat);
        else lua_pushnil(L);
        gapi_push(e, 0, 1);
        return;
    }
    if (c->kind == ARGS_DETERMINIZE) { /* the view, the seat, g.rng, render's g: no state */
        if (luaval_push(L, c->v) != 0) luaL_error(L, "out of memory");
        lua_pushinteger(L, c->seat);
        lua_rawgeti(L, LUA_REGISTRYINDEX, rt->kit->ref_gfields);
        lua_getfield(L, -1, "rng");
        lua_remove(L, -2);
        gapi_push(e, 0, 1);
        return;
    }
    if (may_alloc && guarded(c)) {
        lua_rawgeti(L, LUA_REGISTRYINDEX, rt->kit->ref_grofields);
        lua_rawgeti(L, LUA_REGISTRYINDEX, rt->ref_state);
        guard_push(L, -1);
        lua_setfield(L, -3, "state");
        lua_pop(L, 2);
    }
    gapi_push(e, c->writable, 0);
    if (c->kind == ARGS_G) return;
    lua_pushinteger(L, c->seat);
    if (c->kind == ARGS_SEAT) return;
    if (c->id_index > 0) {
        lua_rawgeti(L, LUA_REGISTRYINDEX, rt->ref_ids);
        lua_rawgeti(L, -1, c->id_index);
        lua_remove(L, -2);
    } else {
        lua_pushstring(L, c->id);
    }
}

static int p_prepare(lua_State *L) {
    call_ctx *c = lua_touserdata(L, 1);
    lua_settop(L, 0);
    luaL_checkstack(L, 12, "engine");
    push_call(c, 1);
    return lua_gettop(L);
}

/* Calls the handler c->h with nres results left on the stack: 1 on success,
** 0 when the ruleset has no such handler (nothing pushed), -1 on failure
** (nothing pushed, the error in errs with the script's file:line), -2 when a
** call that may have changed the state ran long under the budget's timer
** (sandbox_set_timed): the caller takes the decision back and runs it again
** counted. A call that changed nothing is run again here. */
int engine_call(engine *e, call_ctx *c, int nres, cerr_list *errs) {
    lua_State *L = e->rt.L;
    c->e = e;
    c->found = e->rt.ref_h[c->h] != LUA_NOREF;
    if (!c->found) return 0;
    if (e->live_stale) {
        cerr_list local;
        cerr_init(&local, 0);
        int bad = history_restore(e, e->pos, &local);
        cerr_free(&local);
        if (bad) {
            cerr_add(errs, NULL, 0, 0, NULL, "%s: out of memory rebuilding the state",
                     engine_handler_names[c->h]);
            return -1;
        }
    }
    int top = lua_gettop(L);
    int guard = guarded(c);
    int counted = 0; /* run again with the exact count */
    for (;;) {
        if (!guard && c->kind != ARGS_RENDER && (c->kind < ARGS_APPLY || c->id_index > 0 ||
                                                 c->kind == ARGS_SEAT) && lua_checkstack(L, 8)) {
            push_call(c, 0);
        } else {
            lua_pushcfunction(L, p_prepare);
            lua_pushlightuserdata(L, c);
            if (lua_pcall(L, 1, LUA_MULTRET, 0) != LUA_OK) {
                cerr_add(errs, NULL, 0, 0, NULL, "%s: %s", engine_handler_names[c->h],
                         lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "out of memory");
                lua_settop(L, top);
                if (counted) sandbox_set_timed(e->rt.sb, 1);
                return -1;
            }
        }
        int nargs = lua_gettop(L) - top - 1;
        struct timespec t0, t1;
        e->stats.handler_calls++;
        if (e->profiling) clock_gettime(CLOCK_MONOTONIC, &t0);
        int st = sandbox_call(e->rt.sb, nargs, nres, errs);
        if (e->profiling) {
            clock_gettime(CLOCK_MONOTONIC, &t1);
            e->stats.handler_ns +=
                (uint64_t)((t1.tv_sec - t0.tv_sec) * 1000000000LL + (t1.tv_nsec - t0.tv_nsec));
        }
        if (guard) {
            guard_end(L);
            if (gapi_refresh_state(e) != 0) e->live_stale = 1;
        }
        if (st == SANDBOX_RETRY) {
            e->stats.recounted++;
            lua_settop(L, top);
            if (c->writable || !guard) return -2;
            counted = 1;
            sandbox_set_timed(e->rt.sb, 0);
            continue;
        }
        if (counted) sandbox_set_timed(e->rt.sb, 1);
        if (st != SANDBOX_OK) {
            lua_settop(L, top);
            return -1;
        }
        return 1;
    }
}

/* ------------------------------------------------- the decisions asked */

typedef struct ask_ctx {
    engine *e;
    int bad;
    char where[48];
    char why[160];
} ask_ctx;

static int ask_bad(ask_ctx *c, size_t i, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

static int ask_bad(ask_ctx *c, size_t i, const char *fmt, ...) {
    if (i) snprintf(c->where, sizeof c->where, "decisions[%zu]", i);
    else snprintf(c->where, sizeof c->where, "decisions");
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->why, sizeof c->why, fmt, ap);
    va_end(ap);
    c->bad = 1;
    return 0;
}

/* The table at idx, or the live table behind a read-only view of it (a
** handler may return part of g.state): its index, perhaps pushed. */
static int see_through(lua_State *L, int idx) {
    if (guard_target(L, idx)) return lua_gettop(L);
    return lua_absindex(L, idx);
}

/* A fresh engine table in place of the one at *ref. */
static void fresh_table(lua_State *L, int *ref) {
    lua_newtable(L);
    int r = luaL_ref(L, LUA_REGISTRYINDEX);
    luaL_unref(L, LUA_REGISTRYINDEX, *ref);
    *ref = r;
}

/* Protected: reads decisions(g)'s result (arg 2) into e->asked. Shape
** errors are reported in the context, not raised. */
static int p_read_asked(lua_State *L) {
    ask_ctx *c = lua_touserdata(L, 1);
    engine *e = c->e;
    game_rt *rt = &e->rt;
    asked_set *a = &e->asked;
    int strict = !e->cfg.fast;
    a->n = 0;
    a->n_opts = 0;
    if (a->extras) {
        fresh_table(L, &rt->ref_labels);
        fresh_table(L, &rt->ref_reasons);
        fresh_table(L, &rt->ref_prompts);
        a->extras = 0;
    }
    lua_settop(L, 2);
    enum { IDS = 3, LABELS, REASONS, PROMPTS };
    lua_rawgeti(L, LUA_REGISTRYINDEX, rt->ref_ids);
    lua_rawgeti(L, LUA_REGISTRYINDEX, rt->ref_labels);
    lua_rawgeti(L, LUA_REGISTRYINDEX, rt->ref_reasons);
    lua_rawgeti(L, LUA_REGISTRYINDEX, rt->ref_prompts);
    size_t k = 0;
    if (lua_isnil(L, 2)) goto done;
    if (!lua_istable(L, 2)) return ask_bad(c, 0, "decisions(g) must return a list, not %s", luaL_typename(L, 2));
    int res = see_through(L, 2);
    size_t nd = lua_rawlen(L, res);
    if (nd == 0) {
        lua_pushnil(L);
        if (lua_next(L, res)) return ask_bad(c, 0, "decisions(g) must return a list, not a map");
        goto done;
    }
    if (engine_grow((void **)&a->items, &a->cap, nd, sizeof *a->items) != 0)
        return luaL_error(L, "out of memory");
    for (size_t i = 1; i <= nd; i++) {
        int base = lua_gettop(L);
        lua_rawgeti(L, res, (lua_Integer)i);
        if (!lua_istable(L, -1)) return ask_bad(c, i, "needs seat = 1..%d", e->cfg.players);
        int d = see_through(L, -1);
        lua_pushliteral(L, "seat");
        int ok, st = lua_rawget(L, d);
        lua_Integer seat = lua_tointegerx(L, -1, &ok);
        lua_pop(L, 1);
        if (!ok || st != LUA_TNUMBER || seat < 1 || seat > e->cfg.players)
            return ask_bad(c, i, "needs seat = 1..%d", e->cfg.players);
        for (size_t j = 0; j < a->n; j++)
            if (a->items[j].seat == seat) return ask_bad(c, i, "seat %d is asked twice at once", (int)seat);
        asked_item *it = &a->items[a->n];
        it->seat = (int)seat;
        it->first = k + 1;
        it->n = it->n_enabled = 0;
        lua_pushliteral(L, "hidden");
        it->hidden = lua_rawget(L, d) == LUA_TBOOLEAN && lua_toboolean(L, -1);
        lua_pop(L, 1);
        lua_pushliteral(L, "prompt");
        if (lua_rawget(L, d) == LUA_TSTRING) {
            lua_rawseti(L, PROMPTS, (lua_Integer)(a->n + 1));
            a->extras = 1;
        } else {
            lua_pop(L, 1);
        }
        lua_pushliteral(L, "options");
        lua_rawget(L, d);
        if (!lua_istable(L, -1)) return ask_bad(c, i, "needs a non-empty list of options");
        int opts = see_through(L, -1);
        size_t no = lua_rawlen(L, opts);
        if (no == 0) return ask_bad(c, i, "needs a non-empty list of options");
        if (engine_grow((void **)&a->disabled, &a->cap_opts, k + no + 1, 1) != 0)
            return luaL_error(L, "out of memory");
        for (size_t j = 1; j <= no; j++) {
            int top = lua_gettop(L);
            int t = lua_rawgeti(L, opts, (lua_Integer)j);
            int dis = 0;
            if (t == LUA_TSTRING) {
                if (lua_rawlen(L, -1) == 0) return ask_bad(c, i, "options[%zu] is an empty id", j);
            } else if (t == LUA_TTABLE) {
                int o = see_through(L, -1);
                lua_pushliteral(L, "disabled");
                int dt = lua_rawget(L, o);
                if (dt != LUA_TNIL && dt != LUA_TSTRING && dt != LUA_TBOOLEAN)
                    return ask_bad(c, i, "options[%zu].disabled must be a string (the reason)", j);
                dis = dt == LUA_TSTRING || (dt == LUA_TBOOLEAN && lua_toboolean(L, -1));
                if (dt == LUA_TSTRING) { /* `disabled = true`: reason(g, seat, id) says why */
                    lua_rawseti(L, REASONS, (lua_Integer)(k + 1));
                    a->extras = 1;
                } else {
                    lua_pop(L, 1);
                }
                lua_pushliteral(L, "label");
                if (lua_rawget(L, o) == LUA_TSTRING) {
                    lua_rawseti(L, LABELS, (lua_Integer)(k + 1));
                    a->extras = 1;
                } else {
                    lua_pop(L, 1);
                }
                lua_pushliteral(L, "id");
                if (lua_rawget(L, o) != LUA_TSTRING || lua_rawlen(L, -1) == 0)
                    return ask_bad(c, i, "options[%zu] needs a non-empty string id", j);
            } else {
                return ask_bad(c, i, "options[%zu] must be an id (a string) or {id = ..., label = ...}", j);
            }
            /* the id is on top */
            if (strict) { /* no id twice in one decision */
                for (size_t q = it->first; q <= k; q++) {
                    lua_rawgeti(L, IDS, (lua_Integer)q);
                    int same = lua_rawequal(L, -1, -2);
                    lua_pop(L, 1);
                    if (same) return ask_bad(c, i, "option id \"%s\" appears twice", lua_tostring(L, -1));
                }
            }
            lua_rawseti(L, IDS, (lua_Integer)(++k));
            a->disabled[k] = (unsigned char)dis;
            it->n++;
            it->n_enabled += !dis;
            lua_settop(L, top);
        }
        a->n++;
        lua_settop(L, base);
    }
done:
    for (size_t q = k + 1; q <= a->n_opts_filled; q++) { /* what the last list left */
        lua_pushnil(L);
        lua_rawseti(L, IDS, (lua_Integer)q);
    }
    a->n_opts = k;
    if (k > a->n_opts_filled) a->n_opts_filled = k;
    return 0;
}

/* Calls decisions(g) on the live state and reads the result into e->asked
** (on failure e->asked is empty). */
int engine_ask(engine *e, cerr_list *errs) {
    lua_State *L = e->rt.L;
    int top = lua_gettop(L);
    e->asked.n = 0;
    call_ctx c = {.h = H_DECISIONS, .kind = ARGS_G};
    int rc = engine_call(e, &c, 1, errs);
    if (rc <= 0) {
        if (rc == 0) cerr_add(errs, NULL, 0, 0, NULL, "the rules define no decisions(g) handler");
        return rc == -2 ? -2 : -1;
    }
    ask_ctx ac;
    memset(&ac, 0, sizeof ac);
    ac.e = e;
    lua_pushcfunction(L, p_read_asked);
    lua_insert(L, -2);
    lua_pushlightuserdata(L, &ac);
    lua_insert(L, -2);
    int st = lua_pcall(L, 2, 0, 0);
    lua_settop(L, top);
    if (st != LUA_OK) {
        e->asked.n = 0;
        return errs->oom = 1, -1;
    }
    if (ac.bad) {
        e->asked.n = 0;
        cerr_add(errs, NULL, 0, 0, ac.where, "%s", ac.why);
        return -1;
    }
    return 0;
}

int engine_is_over(const engine *e) { return e->asked.n == 0; }

static const asked_item *item_for(const engine *e, int seat) {
    for (size_t i = 0; i < e->asked.n; i++)
        if (e->asked.items[i].seat == seat) return &e->asked.items[i];
    return NULL;
}

int engine_is_asked(const engine *e, int seat) { return item_for(e, seat) != NULL; }

int engine_next_bot_seat(const engine *e) {
    for (size_t i = 0; i < e->asked.n; i++)
        if (engine_seat_bot(e, e->asked.items[i].seat)) return e->asked.items[i].seat;
    return 0;
}

/* The id of option k (1-based, of the engine's table), borrowed until the
** next decision; NULL if it is not a string (cannot happen: read so). */
static const char *option_id(const engine *e, size_t k, size_t *len) {
    lua_State *L = e->rt.L;
    lua_rawgeti(L, LUA_REGISTRYINDEX, e->rt.ref_ids);
    lua_rawgeti(L, -1, (lua_Integer)k);
    const char *s = lua_type(L, -1) == LUA_TSTRING ? lua_tolstring(L, -1, len) : NULL;
    lua_pop(L, 2); /* the string stays alive in the engine's table */
    return s;
}

/* The option of item whose id is id: its index, or 0. */
static size_t find_option(const engine *e, const asked_item *it, const char *id) {
    size_t n = strlen(id);
    for (size_t k = it->first; k < it->first + it->n; k++) {
        size_t len;
        const char *s = option_id(e, k, &len);
        if (s && len == n && memcmp(s, id, n) == 0) return k;
    }
    return 0;
}

/* Text from the engine table at ref, index k; NULL if none. Borrowed. */
static const char *engine_text_at(const engine *e, int ref, size_t k) {
    lua_State *L = e->rt.L;
    lua_rawgeti(L, LUA_REGISTRYINDEX, ref);
    lua_rawgeti(L, -1, (lua_Integer)k);
    const char *s = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : NULL;
    lua_pop(L, 2);
    return s;
}

/* A read-only handler's text result for seat (and id), malloc'd; NULL when
** the handler is missing, fails or returns no string (*failed says which;
** the error goes to why when given). */
static char *handler_text(engine *e, handler_id h, int seat, const char *id, char **why) {
    lua_State *L = e->rt.L;
    int top = lua_gettop(L);
    cerr_list errs;
    cerr_init(&errs, 0);
    call_ctx c = {.h = h, .kind = id ? ARGS_SEAT_ID : ARGS_SEAT, .seat = seat, .id = id};
    int rc = engine_call(e, &c, 1, &errs);
    char *out = NULL;
    if (rc > 0 && lua_type(L, -1) == LUA_TSTRING) out = cairn_strdup(lua_tostring(L, -1));
    else if (rc > 0 && why) *why = cairn_strfmt("%s must return a string, not %s", engine_handler_names[h],
                                                luaL_typename(L, -1));
    else if (rc < 0 && why) *why = engine_first_error(&errs);
    lua_settop(L, top);
    cerr_free(&errs);
    return out;
}

/* Why option k (offered disabled) may not be chosen: the table form's
** reason, else reason(g, seat, id), else "not available". Malloc'd. */
static char *reason_of(engine *e, int seat, size_t k, const char *id) {
    const char *r = e->asked.extras ? engine_text_at(e, e->rt.ref_reasons, k) : NULL;
    if (r) return cairn_strdup(r);
    char *why = NULL, *t = engine_has_handler(e, H_REASON) ? handler_text(e, H_REASON, seat, id, &why) : NULL;
    if (!t) t = why ? cairn_strfmt("not available (reason failed: %s)", why) : cairn_strdup("not available");
    free(why);
    return t;
}

/* The decisions asked now with their prompts and labels, made on demand:
** from the table form where the rules gave them, else from the prompt and
** label handlers, else the id; disabled(g, seat) adds what is offered
** disabled. Cached for the position. */
static int build_shown(engine *e) {
    if (e->shown_valid) return 0;
    if (e->cfg.fast && !e->asked_labelled) {
        /* a playout asked for ids only (g.labels false): ask again for the
        ** labels, prompts and reasons a person reads; the same options */
        cerr_list errs;
        cerr_init(&errs, 0);
        size_t n = e->asked.n, opts = e->asked.n_opts;
        int bad = gapi_set_labels(e, 1) != 0 || engine_ask(e, &errs) != 0;
        bad |= gapi_set_labels(e, 0) != 0;
        cerr_free(&errs);
        if (bad || e->asked.n != n || e->asked.n_opts != opts) return -1;
        e->asked_labelled = 1;
    }
    engine_decision_list *l = &e->shown;
    l->n = 0;
    l->items = e->asked.n ? calloc(e->asked.n, sizeof *l->items) : NULL;
    if (e->asked.n && !l->items) return -1;
    for (size_t i = 0; i < e->asked.n; i++) {
        const asked_item *it = &e->asked.items[i];
        engine_decision *d = &l->items[i];
        l->n++;
        d->seat = it->seat;
        d->hidden = it->hidden;
        const char *p = e->asked.extras ? engine_text_at(e, e->rt.ref_prompts, i + 1) : NULL;
        char *why = NULL;
        d->prompt = p ? cairn_strdup(p)
                      : engine_has_handler(e, H_PROMPT) ? handler_text(e, H_PROMPT, it->seat, NULL, &why)
                                                        : cairn_strdup("");
        if (!d->prompt) d->prompt = why ? cairn_strfmt("(prompt failed: %s)", why) : NULL;
        free(why);
        d->options = calloc(it->n, sizeof *d->options);
        if (!d->prompt || !d->options) goto fail;
        for (size_t k = it->first; k < it->first + it->n; k++) {
            engine_option *o = &d->options[d->n_options];
            size_t len;
            const char *id = option_id(e, k, &len);
            const char *label = e->asked.extras ? engine_text_at(e, e->rt.ref_labels, k) : NULL;
            if (!(o->id = cairn_strdup(id ? id : "?"))) goto fail;
            d->n_options++;
            why = NULL;
            o->label = label ? cairn_strdup(label)
                       : engine_has_handler(e, H_LABEL) ? handler_text(e, H_LABEL, it->seat, o->id, &why)
                                                        : NULL;
            if (!o->label) o->label = why ? cairn_strfmt("%s (label failed: %s)", o->id, why) : cairn_strdup(o->id);
            free(why);
            if (!o->label) goto fail;
            if (e->asked.disabled[k] && !(o->disabled = reason_of(e, it->seat, k, o->id))) goto fail;
        }
    }
    e->shown_valid = 1;
    return 0;
fail:
    engine_decision_list_free(l);
    return -1;
}

int engine_decisions(const engine *ce, engine_decision_list *out) {
    engine *e = (engine *)ce; /* labels are made on demand and cached: logically const */
    out->items = NULL;
    out->n = 0;
    if (build_shown(e) != 0) return -1;
    return decision_list_copy(out, &e->shown);
}

/* ------------------------------------------------- legality, explanation */

/* "did you mean" for an id matching no option: the enabled ids it is a
** prefix of, else the enabled ids within a small edit distance, else all
** enabled ids (up to 8). */
static char *unknown_option(const engine *e, const asked_item *it, const char *id) {
    enum { MAXN = 8 };
    const char *pick[MAXN];
    size_t n = 0;
    size_t len = strlen(id), l;
    for (size_t k = it->first; k < it->first + it->n && n < MAXN; k++) {
        const char *s = option_id(e, k, &l);
        if (s && !e->asked.disabled[k] && len && strncmp(s, id, len) == 0) pick[n++] = s;
    }
    if (n == 0) {
        suggest_nearest near = suggest_start(id, len / 3 > 2 ? len / 3 : 2, 0);
        for (size_t k = it->first; k < it->first + it->n; k++) {
            const char *s = option_id(e, k, &l);
            if (s && !e->asked.disabled[k]) suggest_try(&near, s);
        }
        for (size_t k = it->first; k < it->first + it->n && n < MAXN && near.best; k++) {
            const char *s = option_id(e, k, &l);
            if (s && !e->asked.disabled[k] && suggest_distance(id, s) == near.dist) pick[n++] = s;
        }
    }
    const char *lead = "did you mean";
    if (n == 0) {
        lead = "choose one of";
        for (size_t k = it->first; k < it->first + it->n && n < MAXN; k++) {
            const char *s = option_id(e, k, &l);
            if (s && !e->asked.disabled[k]) pick[n++] = s;
        }
    }
    char *out = cairn_strfmt("no option \"%s\"; %s:", id, lead);
    for (size_t i = 0; out && i < n; i++) {
        char *next = cairn_strfmt("%s%s %s", out, i ? "," : "", pick[i]);
        free(out);
        out = next;
    }
    return out;
}

/* Why seat may not answer id now (status set), or NULL with ENGINE_OK and
** *index set to the option's index. */
static char *explain(engine *e, int seat, const char *id, engine_status *status, size_t *index) {
    *status = ENGINE_OK;
    *index = 0;
    if (engine_is_over(e)) {
        *status = ENGINE_GAME_OVER;
        return cairn_strdup("the game is over");
    }
    const asked_item *it = item_for(e, seat);
    if (!it) {
        *status = ENGINE_NOT_ASKED;
        char *who = cairn_strdup("");
        for (size_t i = 0; who && i < e->asked.n; i++) {
            if (e->asked.items[i].hidden) continue;
            char *next = cairn_strfmt("%s%s%s", who, *who ? ", " : "",
                                      engine_seat_name(e, e->asked.items[i].seat));
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
    size_t k = find_option(e, it, id);
    if (k && !e->asked.disabled[k]) {
        *index = k;
        return NULL;
    }
    if (k) {
        *status = ENGINE_DISABLED;
        return reason_of(e, seat, k, id);
    }
    *status = ENGINE_UNKNOWN;
    return unknown_option(e, it, id);
}

char *engine_explain(const engine *e, int seat, const char *id, engine_status *status) {
    size_t k;
    return explain((engine *)e, seat, id, status, &k); /* disabled() is cached: logically const */
}

/* ------------------------------------------------------------ transactions */

void engine_drop_events_from(engine *e, size_t from) {
    for (size_t i = from; i < e->n_events; i++) free(e->events[i].text);
    if (from < e->n_events) e->n_events = from;
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

/* The live state as a tree (a new one), or NULL with the error. */
static value *materialize(engine *e, cerr_list *errs) {
    lua_State *L = e->rt.L;
    if (!lua_checkstack(L, 2)) return errs->oom = 1, NULL;
    lua_rawgeti(L, LUA_REGISTRYINDEX, e->rt.ref_state);
    value *v = luaval_to_value(L, -1, "state", errs);
    lua_pop(L, 1);
    if (v) empty_tables_as_lists(v);
    return v;
}

int engine_check_plain(engine *e, const char *what, cerr_list *errs) {
    lua_State *L = e->rt.L;
    if (!lua_checkstack(L, 2)) return errs->oom = 1, -1;
    lua_rawgeti(L, LUA_REGISTRYINDEX, e->rt.ref_state);
    int rc = luaval_check(L, -1, what, errs);
    lua_pop(L, 1);
    return rc;
}

/* The post-decision checks: state schema, then check(g). */
static int run_checks(engine *e, cerr_list *errs) {
    const engine_rules *r = e->rt.rules;
    if (r->state_schema) {
        const value *st = engine_state(e);
        if (!st) return errs->oom = 1, -1;
        if (schema_validate(r->schemas, r->state_schema, NULL, st, "state", errs) != 0) return -1;
    }
    lua_State *L = e->rt.L;
    int top = lua_gettop(L);
    call_ctx c = {.h = H_CHECK, .kind = ARGS_G};
    int rc = engine_call(e, &c, 1, errs);
    if (rc <= 0) return rc;
    rc = 0;
    if (!lua_isnil(L, -1) && !(lua_isboolean(L, -1) && !lua_toboolean(L, -1))) {
        const char *msg = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : NULL;
        cerr_add(errs, NULL, 0, 0, NULL, "check: %s", msg ? msg : "invariant broken");
        rc = -1;
    }
    lua_settop(L, top);
    return rc;
}

/* What follows setup or apply in the same transaction: the state must be
** plain data (after each decision in a strict game; in a fast one every
** CAIRN_FAST_CHECK_EVERY decisions and at the end), the checks, the next
** decisions. */
static int settle(engine *e, cerr_list *errs) {
    if (gapi_adopt_state(e) != 0) return errs->oom = 1, -1;
    engine_moved(e);
    int fast = e->cfg.fast;
    if (!fast && engine_check_plain(e, "state", errs) != 0) return -1;
    if (e->cfg.checks && run_checks(e, errs) != 0) return -1;
    int rc = engine_ask(e, errs);
    if (rc != 0) return rc;
    if (fast && (++e->since_check >= CAIRN_FAST_CHECK_EVERY || e->asked.n == 0)) {
        e->since_check = 0;
        if (engine_check_plain(e, "state", errs) != 0) {
            cerr_add(errs, NULL, 0, 0, NULL,
                     "(a fast game checks the state every %d decisions: the decision that "
                     "broke it is one of the last %d; a strict game, as `cairn play --seed` "
                     "plays it, names it)",
                     CAIRN_FAST_CHECK_EVERY, CAIRN_FAST_CHECK_EVERY);
            return -1;
        }
    }
    return 0;
}

engine_status engine_apply(engine *e, int seat, const char *id, int id_index, int keep_log,
                           cerr_list *errs) {
    lua_State *L = e->rt.L;
    if (e->dead) {
        cerr_add(errs, NULL, 0, 0, NULL, "this fork failed before and is over");
        return ENGINE_RULES_ERROR;
    }
    int top = lua_gettop(L);
    rng saved_rng = e->rng;
    size_t ev_before = e->n_events;
    char *idc = NULL;
    engine_status st = ENGINE_RULES_ERROR;
    if (engine_grow((void **)&e->log, &e->cap_log, e->pos + 1, sizeof *e->log) != 0) {
        errs->oom = 1;
        return ENGINE_NO_MEMORY;
    }
    /* the id as the log keeps it, before the next decisions replace it */
    if (id_index > 0) {
        size_t len;
        const char *s = option_id(e, (size_t)id_index, &len);
        idc = s ? cairn_strdup(s) : NULL;
    } else {
        idc = cairn_strdup(id);
    }
    if (!idc) {
        errs->oom = 1;
        return ENGINE_NO_MEMORY;
    }
    call_ctx c = {.h = H_APPLY, .kind = ARGS_APPLY, .seat = seat, .id = idc, .id_index = id_index,
                  .writable = 1};
    e->in_apply = 1;
    e->cur_decision = e->pos + 1;
    int rc = engine_call(e, &c, 0, errs);
    e->in_apply = 0;
    if (rc == 0) cerr_add(errs, NULL, 0, 0, NULL, "the rules define no apply(g, seat, id) handler");
    if (rc > 0) {
        int sr = settle(e, errs);
        rc = sr == 0 ? 1 : sr;
    }
    if (rc <= 0) goto fail;

    /* commit */
    history_drop_after(e, e->pos);
    if (keep_log && e->pos < e->n_log) {
        free(e->log[e->pos].id); /* the redo tail's entry: this very decision */
    } else {
        for (size_t i = e->pos; i < e->n_log; i++) free(e->log[i].id);
        e->n_log = e->pos + 1;
    }
    e->log[e->pos].seat = seat;
    e->log[e->pos].id = idc;
    e->pos++;
    if (!e->cfg.fast && e->pos % CAIRN_CHECKPOINT_EVERY == 0 && history_checkpoint(e, errs) != 0)
        errs->oom = 0; /* a missing checkpoint only makes undo replay further */
    lua_settop(L, top);
    return ENGINE_OK;

fail:
    free(idc);
    lua_settop(L, top);
    if (errs->oom && cerr_count(errs) == 0) st = ENGINE_NO_MEMORY;
    if (e->fork_of_pos != (size_t)-1) { /* a fork is thrown away, not taken back */
        e->asked.n = 0;
        e->dead = 1;
        return st;
    }
    e->rng = saved_rng;
    engine_drop_events_from(e, ev_before);
    cerr_list local;
    cerr_init(&local, 0);
    if (history_restore(e, e->pos, &local) != 0) e->live_stale = 1;
    cerr_free(&local);
    if (rc == -2 && !e->live_stale) { /* it ran long: again, counted from the start */
        sandbox_set_timed(e->rt.sb, 0);
        st = engine_apply(e, seat, id, id_index, keep_log, errs);
        sandbox_set_timed(e->rt.sb, 1);
    }
    return st;
}

/* ------------------------------------------------------ answers and bots */

engine_status engine_answer(engine *e, int seat, const char *id, char **why) {
    if (why) *why = NULL;
    engine_status st;
    size_t k;
    char *msg = explain(e, seat, id, &st, &k);
    if (st != ENGINE_OK) {
        if (why) *why = msg;
        else free(msg);
        return st;
    }
    cerr_list errs;
    cerr_init(&errs, 0);
    st = engine_apply(e, seat, id, (int)k, 0, &errs);
    if (st != ENGINE_OK && why) *why = engine_first_error(&errs);
    cerr_free(&errs);
    return st;
}

/* The random bot's pick for seat: an option index, 0 if none. Uniform over
** the enabled options, drawn from a stream of the game seed, the decision
** index and the seat (never the game RNG), so a game with bots replays. */
size_t engine_bot_pick(const engine *e, int seat) {
    const asked_item *it = item_for(e, seat);
    if (!it || !it->n_enabled) return 0;
    rng r;
    rng_seed_stream(&r, e->cfg.seed, (uint64_t)e->pos * (ENGINE_MAX_SEATS + 1) + (uint64_t)seat);
    uint64_t k = rng_below(&r, it->n_enabled);
    for (size_t q = it->first; q < it->first + it->n; q++)
        if (!e->asked.disabled[q] && k-- == 0) return q;
    return 0;
}

char *engine_bot_choice(const engine *e, int seat) {
    size_t k = engine_bot_pick(e, seat), len;
    const char *s = k ? option_id(e, k, &len) : NULL;
    return s ? cairn_strdup(s) : NULL;
}

engine_status engine_bot_move(engine *e, int seat, char **why) {
    if (why) *why = NULL;
    size_t k = engine_bot_pick(e, seat);
    if (!k) return ENGINE_NOT_ASKED;
    cerr_list errs;
    cerr_init(&errs, 0);
    engine_status st = engine_apply(e, seat, NULL, (int)k, 0, &errs);
    if (st != ENGINE_OK && why) *why = engine_first_error(&errs);
    cerr_free(&errs);
    return st;
}

int engine_heuristic(engine *e, int seat, int64_t *out, cerr_list *errs) {
    lua_State *L = e->rt.L;
    int top = lua_gettop(L);
    call_ctx c = {.h = H_HEURISTIC, .kind = ARGS_SEAT, .seat = seat};
    int rc = engine_call(e, &c, 1, errs);
    if (rc == -2) { /* ran long under the timer (a fast game's, unguarded): again, counted */
        sandbox_set_timed(e->rt.sb, 0);
        rc = engine_call(e, &c, 1, errs);
        sandbox_set_timed(e->rt.sb, 1);
    }
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

/* ------------------------------------------------------------------ events */

void engine_event_list_free(engine_event_list *l) {
    if (!l) return;
    for (size_t i = 0; i < l->n; i++) free(l->items[i].text);
    free(l->items);
    l->items = NULL;
    l->n = 0;
}

size_t engine_event_count(const engine *e) { return e->n_events; }

int engine_events(const engine *e, size_t since, int seat, engine_event_list *out) {
    out->items = NULL;
    out->n = 0;
    size_t end = e->n_events;
    uint32_t all = e->cfg.players >= 32 ? 0xffffffffu : (1u << e->cfg.players) - 1;
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

/* ------------------------------------------------------ state and views */

const value *engine_state(const engine *ce) {
    engine *e = (engine *)ce; /* a cache of the live state: logically const */
    if (e->state_cache_valid) return e->state_cache;
    cerr_list errs;
    cerr_init(&errs, 0);
    value *v = materialize(e, &errs);
    cerr_free(&errs);
    if (!v) return NULL;
    value_free(e->state_cache);
    e->state_cache = v;
    e->state_cache_valid = 1;
    return v;
}

uint64_t engine_state_hash(const engine *e) {
    const value *s = engine_state(e);
    return s ? value_hash(s) : 0;
}

const struct view_rules *engine_visibility(const engine *e) { return e->rt.rules->vis; }

value *engine_view(const engine *e, int seat) {
    const value *s = engine_state(e);
    return s ? view_of(e->rt.rules->vis, s, seat) : NULL;
}

char *engine_render(engine *e, int seat, cerr_list *errs) {
    lua_State *L = e->rt.L;
    int top = lua_gettop(L);
    value *v = engine_view(e, seat);
    if (!v) return errs->oom = 1, NULL;
    call_ctx c = {.h = H_RENDER, .kind = ARGS_RENDER, .seat = seat, .v = v};
    int rc = engine_call(e, &c, 1, errs);
    if (rc == 0) {
        /* no render: the view as YAML is still readable */
        char *y = value_to_yaml(v);
        value_free(v);
        if (!y) errs->oom = 1;
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
        if ((out = malloc(n + 1))) {
            memcpy(out, s, n);
            out[n] = '\0';
        } else {
            errs->oom = 1;
        }
    }
    lua_settop(L, top);
    return out;
}

/* ---------------------------------------------------------------- building */

static void cfg_free(game_cfg *c) {
    free(c->ruleset);
    strv_free(c->choices, c->n_choices);
    free(c->preset);
    strv_free(c->names, (size_t)c->players);
    strv_free(c->bots, (size_t)c->players);
    free(c->lang);
    value_free(c->scenario);
    free(c->scenario_rng);
}

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
    d->fast = c->fast;
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

/* Pops the value on top into the registry; -1 on OOM (value popped). */
static int p_ref(lua_State *L) {
    int *ref = lua_touserdata(L, 1);
    lua_settop(L, 2);
    *ref = luaL_ref(L, LUA_REGISTRYINDEX);
    return 0;
}

static int ref_top(lua_State *L, int *ref) {
    lua_pushcfunction(L, p_ref);
    lua_insert(L, -2);
    lua_pushlightuserdata(L, ref);
    lua_insert(L, -2);
    if (lua_pcall(L, 2, 0, 0) != LUA_OK) {
        lua_pop(L, 1);
        return -1;
    }
    return 0;
}

/* The rules table: the main script, then each option script wrapping it. */
static int build_rules(engine *e, cerr_list *errs) {
    game_rt *rt = &e->rt;
    lua_State *L = rt->L;
    const ruleset *rs = rt->rules->rs;
    for (size_t i = 0; i < rs->n_scripts; i++) {
        const char *path = rs->scripts[i];
        if (sandbox_run_file(rt->sb, path, script_shown(rs, path), 1, errs) != 0) return -1;
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
            rt->ref_rules = LUA_NOREF;
        }
        if (ref_top(L, &rt->ref_rules) != 0) return errs->oom = 1, -1;
    }
    return 0;
}

/* Protected: the handler functions from the rules table (raw: a metatable
** on it must not run unbudgeted), and the engine's own option tables. */
static int p_handlers(lua_State *L) {
    game_rt *rt = lua_touserdata(L, 1);
    lua_rawgeti(L, LUA_REGISTRYINDEX, rt->ref_rules);
    for (int h = 0; h < H_COUNT; h++) {
        lua_pushstring(L, engine_handler_names[h]);
        if (lua_rawget(L, -2) == LUA_TFUNCTION) rt->ref_h[h] = luaL_ref(L, LUA_REGISTRYINDEX);
        else lua_pop(L, 1);
    }
    int *tables[] = {&rt->ref_ids, &rt->ref_labels, &rt->ref_reasons, &rt->ref_prompts};
    for (int i = 0; i < 4; i++) {
        lua_newtable(L);
        *tables[i] = luaL_ref(L, LUA_REGISTRYINDEX);
    }
    lua_newtable(L); /* the live state starts as {} for setup */
    rt->ref_state = luaL_ref(L, LUA_REGISTRYINDEX);
    return 0;
}

/* Protected: the live table becomes a fresh copy of a value. */
typedef struct live_ctx {
    const value *v;
    int ref;
} live_ctx;

static int p_live(lua_State *L) {
    live_ctx *c = lua_touserdata(L, 1);
    if (luaval_push(L, c->v) != 0) return luaL_error(L, "out of memory");
    c->ref = luaL_ref(L, LUA_REGISTRYINDEX);
    return 0;
}

int engine_set_live(engine *e, const value *v) {
    lua_State *L = e->rt.L;
    live_ctx c = {v, LUA_NOREF};
    lua_pushcfunction(L, p_live);
    lua_pushlightuserdata(L, &c);
    if (lua_pcall(L, 1, 0, 0) != LUA_OK) {
        lua_pop(L, 1);
        return -1;
    }
    luaL_unref(L, LUA_REGISTRYINDEX, e->rt.ref_state);
    e->rt.ref_state = c.ref;
    engine_moved(e);
    return gapi_refresh_state(e);
}

/* Position 0 from nothing: setup on an empty state (or the scenario), then
** the first decisions. */
int engine_restart(engine *e, cerr_list *errs) {
    engine_drop_events_from(e, 0);
    e->pos = 0;
    e->since_check = 0;
    if (!e->cfg.scenario) {
        value *empty = value_map();
        int bad = !empty || engine_set_live(e, empty) != 0;
        value_free(empty);
        if (bad) return errs->oom = 1, -1;
    }
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
        /* through Lua and back (as checkpoint 0), so the state has the shape
        ** a decision would give it (no nulls in maps, empty tables as lists) */
        if (engine_set_live(e, e->cfg.scenario) != 0) {
            cerr_add(errs, NULL, 0, 0, "state", "the scenario state cannot be given to Lua "
                     "(out of memory, or a null inside a list)");
            return -1;
        }
        if (engine_check_plain(e, "state", errs) != 0) return -1;
        if ((e->cfg.checks && run_checks(e, errs) != 0) || engine_ask(e, errs) != 0) return -1;
    } else {
        call_ctx c = {.h = H_SETUP, .kind = ARGS_G, .writable = 1};
        e->in_apply = 1;
        int rc = engine_call(e, &c, 0, errs);
        e->in_apply = 0;
        if (rc == -2) { /* it ran long: from an empty state again, counted */
            value *empty = value_map();
            int bad = !empty || engine_set_live(e, empty) != 0;
            value_free(empty);
            if (bad) return errs->oom = 1, -1;
            rng_seed(&e->rng, e->cfg.seed);
            engine_drop_events_from(e, 0);
            sandbox_set_timed(e->rt.sb, 0);
            e->in_apply = 1;
            rc = engine_call(e, &c, 0, errs);
            e->in_apply = 0;
            sandbox_set_timed(e->rt.sb, 1);
        }
        if (rc == 0) cerr_add(errs, NULL, 0, 0, NULL, "the rules define no setup(g) handler");
        if (rc <= 0) return -1;
        /* setup is checked strictly in every game: a fast one would
        ** otherwise find a bad start only many decisions later */
        if (gapi_adopt_state(e) != 0) return errs->oom = 1, -1;
        if (engine_check_plain(e, "state", errs) != 0) return -1;
        if ((e->cfg.checks && run_checks(e, errs) != 0) || engine_ask(e, errs) != 0) return -1;
    }
    return 0;
}

/* A new game's position 0, kept as checkpoint 0 in a strict game (a fast
** one takes nothing back but a failed decision: it starts over for that). */
static int start_game(engine *e, cerr_list *errs) {
    if (engine_restart(e, errs) != 0) return -1;
    return e->cfg.fast ? 0 : history_checkpoint(e, errs);
}

engine *engine_new(const engine_config *c, cerr_list *errs) {
    engine *e = engine_build(c, errs);
    if (e && start_game(e, errs) != 0) {
        engine_free(e);
        return NULL;
    }
    return e;
}

engine *engine_build(const engine_config *c, cerr_list *errs) {
    if (!c || !c->ruleset) {
        cerr_add(errs, NULL, 0, 0, NULL, "no ruleset given");
        return NULL;
    }
    engine *e = calloc(1, sizeof *e);
    if (!e) return errs->oom = 1, NULL;
    game_rt *rt = &e->rt;
    rt->ref_rules = rt->ref_state = LUA_NOREF;
    rt->ref_ids = rt->ref_labels = rt->ref_reasons = rt->ref_prompts = LUA_NOREF;
    for (int h = 0; h < H_COUNT; h++) rt->ref_h[h] = LUA_NOREF;
    e->fork_of_pos = (size_t)-1;
    if (cfg_copy(&e->cfg, c) != 0) goto oom;
    if (c->rules) {
        rt->rules = c->rules;
    } else {
        if (!(rt->rules = engine_rules_new(c, errs))) goto fail;
        rt->owns_rules = 1;
    }
    if (!e->cfg.players) e->cfg.players = rt->rules->players;
    if (e->cfg.players < 1 || e->cfg.players > ENGINE_MAX_SEATS) {
        cerr_add(errs, NULL, 0, 0, NULL, "%d seats: cairn plays 1 to %d", e->cfg.players, ENGINE_MAX_SEATS);
        goto fail;
    }
    free(e->cfg.lang); /* the rules' language: given, found in the manifest, or en */
    if (!(e->cfg.lang = cairn_strdup(rt->rules->lang))) goto oom;
    if (cfg_seats(&e->cfg, c) != 0) goto oom;
    if (rules_take_sandbox(rt->rules, rt, errs) != 0) goto fail;
    e->hub = rt->kit->hub;
    e->hub->e = e;
    if (build_rules(e, errs) != 0) goto fail;
    lua_pushcfunction(rt->L, p_handlers);
    lua_pushlightuserdata(rt->L, rt);
    if (lua_pcall(rt->L, 1, 0, 0) != LUA_OK) {
        lua_pop(rt->L, 1);
        goto oom;
    }
    if (gapi_start(e, errs) != 0) goto fail;
    sandbox_set_timed(rt->sb, 1); /* handler calls from here on: the budget's CPU timer */
    return e;
oom:
    errs->oom = 1;
fail:
    engine_free(e);
    return NULL;
}

void engine_free(engine *e) {
    if (!e) return;
    history_free(e);
    engine_drop_events_from(e, 0);
    free(e->events);
    for (size_t i = 0; i < e->n_log; i++) free(e->log[i].id);
    free(e->log);
    engine_moved(e);
    value_free(e->state_cache);
    free(e->asked.items);
    free(e->asked.disabled);
    rules_give_sandbox(e->rt.owns_rules ? NULL : e->rt.rules, &e->rt);
    if (e->rt.owns_rules) engine_rules_free(e->rt.rules);
    cfg_free(&e->cfg);
    free(e);
}
