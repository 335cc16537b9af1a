/*
** engine.c
** A game in progress: the sandboxed rules on a live Lua state, decisions
** applied as transactions, the decisions asked now, views and render.
**
** The live Lua table is the truth between decisions; nothing copies the
** state per decision. A decision: apply(g, seat, id) on the live table, the
** plain-data check (luaval_check: a walk that builds nothing), the optional
** checks, then decisions(g) read into tables the engine owns. Any failure
** takes the game back to the position before it (engine_history.c: the nearest
** checkpoint, then replay of the log, which replays exactly), so nothing is
** ever half-applied. The state as a tree (saves, views, hashes) is made
** only when someone asks for it; once made it is kept and brought up to
** date reading only what changed (luaval_refresh), and in a strict game
** that keeps it, that walk is the plain-data check. A seat's view for
** render goes into Lua straight from the tree (engine_view_lua.c).
**
** Outline: handler calls (engine_call) -> transactions (engine_apply) ->
** answers and bots -> events, state and views. The decisions asked are read
** in engine_decisions.c; a game is built, started and freed in engine_build.c.
*/
#include "engine_internal.h"
#include "grow.h"
#include "guard.h"
#include "limits.h"
#include "luaval.h"
#include "engine_view_lua.h"

#include <lauxlib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

const char *const engine_handler_names[H_COUNT] = {
    "setup", "decisions", "apply", "score", "render", "check", "heuristic",
    "label", "prompt", "reason", "determinize", "check_data", "start_seat", "parse",
    "metrics",
};

/* ------------------------------------------------------------ utilities */

int engine_data_reads(const engine *e, int (*fn)(void *ud, const char *path), void *ud) {
    return e->rt.sb ? sandbox_reads(e->rt.sb, fn, ud) : 0;
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
const char *const *engine_sets(const engine *e, size_t *n) {
    *n = e->cfg.n_sets;
    return (const char *const *)e->cfg.sets;
}
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
const char *engine_stats_handler(int i) { return i >= 0 && i < H_COUNT ? engine_handler_names[i] : NULL; }

void engine_moved(engine *e) {
    e->state_cache_valid = 0;
    e->state_plain = 0;
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
    /* a fast game's hot read-only calls see the live table: decisions after
    ** every decision, heuristic and score at every search bot's cut-off
    ** (the guard's proxies cost score a third of its time in a Yak fork);
    ** strict games (check, test, the console) keep them guarded */
    return !(c->e->cfg.fast && (c->h == H_DECISIONS || c->h == H_HEURISTIC || c->h == H_SCORE));
}

/* Pushes the handler, g and the arguments of c. With may_alloc 0 only what
** allocates nothing (the caller has made stack room). */
static void push_call(call_ctx *c, int may_alloc) {
    engine *e = c->e;
    game_rt *rt = &e->rt;
    lua_State *L = rt->L;
    lua_rawgeti(L, LUA_REGISTRYINDEX, rt->ref_h[c->h]);
    if (c->kind == ARGS_RENDER) {
        /* the screen the board is for: g.width and g.height (nil: not known) */
        lua_rawgeti(L, LUA_REGISTRYINDEX, rt->kit->ref_grenderfields);
        if (e->screen_width > 0) lua_pushinteger(L, e->screen_width);
        else lua_pushnil(L);
        lua_setfield(L, -2, "width");
        if (e->screen_height > 0) lua_pushinteger(L, e->screen_height);
        else lua_pushnil(L);
        lua_setfield(L, -2, "height");
        lua_pop(L, 1);
        view_push_raw(L, e->rt.rules->vis, c->v, c->seat); /* the seat's view, no tree of it */
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

/* A failed call's message gets the ruleset's own frames when there is more
** than the one the message names already: how the rules got there. */
static void add_traceback(engine *e, cerr_list *errs) {
    int frames;
    const char *tb = sandbox_own_traceback(e->rt.sb, &frames);
    if (frames < 2 || !errs || errs->n == 0 || errs->dropped) return; /* the last one is the call's */
    cairn_error *last = &errs->items[errs->n - 1];
    char *m = cairn_strfmt("%s\ntraceback (the ruleset's files):%s", last->message, tb);
    if (!m) return; /* the message alone still says what and where */
    free(last->message);
    last->message = m;
}

/* Calls the handler c->h with nres results left on the stack: 1 on success,
** 0 when the ruleset has no such handler (nothing pushed), -1 on failure
** (nothing pushed, the error in errs with the script's file:line), -2 when a
** call that writes (apply, setup) or draws (determinize) ran long under the
** budget's timer (sandbox_set_timed): the caller takes it back and runs it
** again counted. Any other call changed nothing and is run again here. */
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
            cerr_addk(errs, NULL, 0, 0, NULL, "handler.rebuild_oom", "%s: out of memory rebuilding the state",
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
                if (lua_type(L, -1) == LUA_TSTRING) /* Lua's own message, as written */
                    cerr_add(errs, NULL, 0, 0, NULL, "%s: %s", engine_handler_names[c->h], lua_tostring(L, -1));
                else
                    cerr_addk(errs, NULL, 0, 0, NULL, "handler.oom", "%s: out of memory", engine_handler_names[c->h]);
                lua_settop(L, top);
                if (counted) sandbox_set_timed(e->rt.sb, 1);
                return -1;
            }
        }
        int nargs = lua_gettop(L) - top - 1;
        struct timespec t0, t1;
        e->stats.handler_calls++;
        debug_channel_new_call(e);
        int timed = e->profiling || trace_on(e);
        if (timed) clock_gettime(CLOCK_MONOTONIC, &t0);
        int was_unread = e->texts_unread;
        e->texts_unread = engine_texts_unread(c);
        int st = sandbox_call(e->rt.sb, nargs, nres, errs);
        e->texts_unread = was_unread;
        if (timed) {
            clock_gettime(CLOCK_MONOTONIC, &t1);
            uint64_t ns =
                (uint64_t)((t1.tv_sec - t0.tv_sec) * 1000000000LL + (t1.tv_nsec - t0.tv_nsec));
            if (e->profiling) {
                e->stats.handler_ns += ns;
                e->stats.ns_by_handler[c->h] += ns;
            }
            trace_call(e, c->h, ns);
        }
        if (st != SANDBOX_OK && st != SANDBOX_RETRY) add_traceback(e, errs);
        if (guard && !e->guard_batch && gapi_refresh_state(e) != 0) e->live_stale = 1;
        if (st == SANDBOX_RETRY) {
            e->stats.recounted++;
            lua_settop(L, top);
            /* only a call that writes (apply, setup) or draws (determinize)
            ** goes back to its caller, which undoes it first; every other
            ** call changed nothing and runs again here, counted. A read
            ** call that returned -2 was a failure to most callers (a fast
            ** game's decisions(g) after setup: "out of memory starting the
            ** game"), so a game's result hung on the CPU timer */
            if (c->writable || c->kind == ARGS_DETERMINIZE) return -2;
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

void engine_guard_batch_begin(engine *e) { e->guard_batch++; }

void engine_guard_batch_end(engine *e) {
    if (e->guard_batch == 0 || --e->guard_batch > 0) return;
    if (gapi_refresh_state(e) != 0) e->live_stale = 1;
}

/* ------------------------------------------------------------ transactions */

void engine_drop_events_from(engine *e, size_t from) {
    for (size_t i = from; i < e->n_events; i++) {
        size_t b = strlen(e->events[i].text) + 1 + sizeof *e->events;
        e->kept_bytes -= b < e->kept_bytes ? b : e->kept_bytes;
        free(e->events[i].text);
    }
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

/* Brings the state's tree (an earlier position's) up to date with the live
** state, reading only what changed (luaval_refresh); 0 and the tree valid,
** or -1 (not plain data, out of memory) with no tree kept. */
static int refresh_state_tree(engine *e) {
    lua_State *L = e->rt.L;
    if (!e->state_cache || !lua_checkstack(L, 2)) return -1;
    lua_rawgeti(L, LUA_REGISTRYINDEX, e->rt.ref_state);
    int rc = luaval_refresh(L, -1, &e->state_cache, 1);
    lua_pop(L, 1);
    e->state_cache_valid = rc == 0;
    return rc;
}

int engine_check_plain(engine *e, const char *what, cerr_list *errs) {
    lua_State *L = e->rt.L;
    if (!lua_checkstack(L, 2)) return errs->oom = 1, -1;
    lua_rawgeti(L, LUA_REGISTRYINDEX, e->rt.ref_state);
    int rc = luaval_check(L, -1, what, errs);
    lua_pop(L, 1);
    if (rc == 0) e->state_plain = 1;
    return rc;
}

/* Protected (the field's name may be a new string): the field of the live
** table (arg 2) named by arg 1, pushed. Plain data: a table, perhaps a
** read-only view of one (walked through, as the check and luaval_to_value
** do), with no metatable of its own. */
static int p_state_field(lua_State *L) {
    int t = sandbox_readonly_target(L, 2) ? lua_gettop(L) : 2;
    lua_pushstring(L, lua_touserdata(L, 1));
    lua_rawget(L, t);
    return 1;
}

int64_t engine_state_int(const engine *ce, const char *field, int64_t dflt) {
    engine *e = (engine *)ce; /* engine_state's cache: logically const */
    lua_State *L = e->rt.L;
    if (e->state_cache_valid || !e->state_plain || e->live_stale || !lua_checkstack(L, 4)) {
        const value *s = engine_state(e);
        const value *v = s && s->type == CV_MAP ? value_map_get(s, field) : NULL;
        return v && v->type == CV_INT ? v->u.i : dflt;
    }
    int top = lua_gettop(L);
    int64_t out = dflt;
    lua_pushcfunction(L, p_state_field);
    lua_pushlightuserdata(L, (void *)field);
    lua_rawgeti(L, LUA_REGISTRYINDEX, e->rt.ref_state);
    if (lua_type(L, -1) == LUA_TTABLE && lua_pcall(L, 2, 1, 0) == LUA_OK && lua_isinteger(L, -1))
        out = lua_tointeger(L, -1);
    lua_settop(L, top);
    return out;
}

/* The post-decision checks: state schema, then check(g). */
int engine_run_checks(engine *e, cerr_list *errs) {
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
        if (msg) /* the rules' own words */
            cerr_addk(errs, NULL, 0, 0, NULL, "handler.check", "check: %s", msg);
        else
            cerr_addk(errs, NULL, 0, 0, NULL, "handler.check_broken", "check: invariant broken");
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
    /* a strict game's plain-data check: when the state's tree is kept (the
    ** console, a bench or a save asked for it at an earlier position) the
    ** walk that brings it up to date is the check (luaval_refresh passes
    ** exactly what luaval_check passes); else the check alone, and on a
    ** failure the check says why */
    if (!fast && refresh_state_tree(e) != 0 && engine_check_plain(e, "state", errs) != 0) return -1;
    if (e->cfg.checks && engine_run_checks(e, errs) != 0) return -1;
    int rc = engine_ask(e, errs);
    if (rc != 0) return rc;
    if (fast && (++e->since_check >= CAIRN_FAST_CHECK_EVERY || e->asked.n == 0)) {
        e->since_check = 0;
        if (engine_check_plain(e, "state", errs) != 0) {
            char every[24];
            snprintf(every, sizeof every, "%d", CAIRN_FAST_CHECK_EVERY);
            cerr_addk(errs, NULL, 0, 0, NULL, "handler.fast_check",
                      "(a fast game checks the state every %s decisions: the decision that "
                      "broke it is one of the last %s; a strict game, as `cairn play --seed` "
                      "plays it, names it)",
                      every, every);
            return -1;
        }
    }
    return 0;
}

engine_status engine_apply(engine *e, int seat, const char *id, int id_index, int keep_log,
                           cerr_list *errs) {
    lua_State *L = e->rt.L;
    if (e->dead) {
        cerr_addk(errs, NULL, 0, 0, NULL, "handler.fork_over", "this fork failed before and is over");
        return ENGINE_RULES_ERROR;
    }
    int top = lua_gettop(L);
    rng saved_rng = e->rng;
    size_t ev_before = e->n_events;
    char *idc = NULL;
    engine_status st = ENGINE_RULES_ERROR;
    if (grow_array((void **)&e->log, &e->cap_log, e->pos + 1, sizeof *e->log) != 0) {
        errs->oom = 1;
        return ENGINE_NO_MEMORY;
    }
    /* the id as the log keeps it, before the next decisions replace it */
    if (id_index > 0) {
        size_t len;
        const char *s = engine_option_id(e, (size_t)id_index, &len);
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
    disclosure_pending disc;
    disclosure_begin(e, seat, idc, &disc);
    trace_begin(e);
    e->in_apply = seat != 0; /* an edit (seat 0, engine_edit.c) logs nothing */
    e->cur_decision = e->pos + 1;
    int rc = seat == 0 ? edit_run(e, idc, errs) : engine_call(e, &c, 0, errs);
    e->in_apply = 0;
    if (rc == 0)
        cerr_addk(errs, NULL, 0, 0, NULL, "handler.no_apply", "the rules define no apply(g, seat, id) handler");
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
    disclosure_commit(e, e->pos - 1, seat, idc, &disc);
    if (!e->cfg.fast && e->pos % CAIRN_CHECKPOINT_EVERY == 0 && history_checkpoint(e, errs) != 0)
        errs->oom = 0; /* a missing checkpoint only makes undo replay further */
    lua_settop(L, top);
    trace_end(e, 1);
    return ENGINE_OK;

fail:
    disclosure_abort(&disc);
    trace_end(e, 0);
    lua_settop(L, top);
    if (rc == -2 && e->fork_of_pos != (size_t)-1 && cerr_count(errs) == 0) {
        /* a fork is not taken back: it plays its decisions again, counted */
        st = engine_fork_recount(e, seat, idc, errs);
        free(idc);
        return st;
    }
    free(idc);
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
    sandbox_set_game_limit(e->rt.sb, 0); /* taking back must work even out of CPU time */
    if (history_restore(e, e->pos, &local) != 0) e->live_stale = 1;
    sandbox_set_game_limit(e->rt.sb, 1);
    cerr_free(&local);
    if (rc == -2 && e->live_stale) /* say why, or the caller has no reason to show */
        cerr_addk(errs, NULL, 0, 0, NULL, "handler.apply_long",
                  "apply ran long and the position could not be restored to run it again counted");
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
    char *msg = engine_explain_at(e, seat, id, &st, &k);
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

engine_status engine_answer_errs(engine *e, int seat, const char *id, cerr_list *errs) {
    engine_status st;
    size_t k;
    if (seat == 0 && strncmp(id, "set ", 4) == 0) { /* an edit says why not keyed (engine_edit.c) */
        if (edit_explain_errs(e, id, errs) != 0) return errs->n ? ENGINE_DISABLED : ENGINE_NO_MEMORY;
        return engine_apply(e, seat, id, 0, 0, errs);
    }
    explain_why w;
    char *msg = engine_explain_why(e, seat, id, &st, &k, &w);
    if (st != ENGINE_OK) { /* the engine's own reasons keyed (explain.*), the rules' as they are */
        if (msg) explain_why_add(errs, &w, id, msg);
        else errs->oom = 1;
        explain_why_free(&w);
        free(msg);
        return st;
    }
    explain_why_free(&w);
    free(msg);
    return engine_apply(e, seat, id, (int)k, 0, errs);
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
    if (rc > 0) {
        int ok;
        *out = lua_tointegerx(L, -1, &ok);
        if (!ok) {
            cerr_addk(errs, NULL, 0, 0, NULL, "handler.heuristic_type", "heuristic must return an integer, not %s",
                      luaL_typename(L, -1));
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
    if (refresh_state_tree(e) == 0) return e->state_cache;
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

char *engine_render_screen(engine *e, int seat, int width, int height, cerr_list *errs) {
    e->screen_width = width;
    e->screen_height = height;
    char *text = engine_render(e, seat, errs);
    e->screen_width = e->screen_height = 0;
    return text;
}

char *engine_render(engine *e, int seat, cerr_list *errs) {
    lua_State *L = e->rt.L;
    int top = lua_gettop(L);
    const value *st = engine_state(e);
    if (!st) return errs->oom = 1, NULL;
    if (!engine_has_handler(e, H_RENDER)) {
        /* no render: the view as YAML is still readable */
        value *v = engine_view(e, seat);
        char *y = v ? value_to_yaml(v) : NULL;
        value_free(v);
        if (!y) errs->oom = 1;
        return y;
    }
    call_ctx c = {.h = H_RENDER, .kind = ARGS_RENDER, .seat = seat, .v = st};
    int rc = engine_call(e, &c, 1, errs);
    if (rc <= 0) return NULL;
    char *out = NULL;
    if (lua_type(L, -1) != LUA_TSTRING) {
        cerr_addk(errs, NULL, 0, 0, NULL, "handler.render_type", "render must return a string, not %s",
                  luaL_typename(L, -1));
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
