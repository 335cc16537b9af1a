/*
** engine_build.c
** Building a game and taking it down: the configuration copied, the rules
** table made from the main script and each option script wrapping it, the
** handlers and the engine's option tables taken from the pooled sandbox,
** position 0 (setup on an empty state, or a scenario's state) and the
** first decisions; engine_new, engine_build, engine_restart, engine_free.
** The game that runs on what is built here is engine.c's.
*/
#include "engine_internal.h"
#include "luaval.h"

#include <lauxlib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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


static void cfg_free(game_cfg *c) {
    free(c->ruleset);
    strv_free(c->choices, c->n_choices);
    strv_free(c->sets, c->n_sets);
    free(c->preset);
    strv_free(c->names, (size_t)c->players);
    strv_free(c->bots, (size_t)c->players);
    free(c->lang);
    free(c->lang_wanted);
    value_free(c->scenario);
    free(c->scenario_rng);
}

static int cfg_copy(game_cfg *d, const engine_config *c) {
    int oom = 0;
    memset(d, 0, sizeof *d);
    d->ruleset = cairn_strdup(c->ruleset);
    d->choices = strv_dup(c->choices, c->n_choices, &oom);
    d->n_choices = d->choices ? c->n_choices : 0;
    d->sets = strv_dup(c->sets, c->n_sets, &oom);
    d->n_sets = d->sets ? c->n_sets : 0;
    d->preset = cairn_strdup(c->preset);
    d->players = c->players;
    d->seed = c->seed;
    d->lang = cairn_strdup(c->lang ? c->lang : "");
    d->lang_wanted = cairn_strdup(c->lang_wanted);
    d->seat_name_format = c->seat_name_format;
    d->checks = c->checks;
    d->budget = c->budget;
    d->mem_cap = c->mem_cap;
    d->no_budget = c->no_budget;
    d->fast = c->fast;
    d->scenario = c->scenario ? value_clone(c->scenario) : NULL;
    d->scenario_rng = cairn_strdup(c->scenario_rng);
    if (!d->ruleset || !d->lang || (c->lang_wanted && !d->lang_wanted) || (c->preset && !d->preset) || (c->scenario && !d->scenario) ||
        (c->scenario_rng && !d->scenario_rng))
        oom = 1;
    return oom ? -1 : 0;
}

/* 1 when fmt is a short printf format whose one conversion is %d (%% aside) */
static int one_number(const char *fmt) {
    if (!fmt || strlen(fmt) > 40) return 0;
    int d = 0;
    for (const char *p = fmt; (p = strchr(p, '%')); p += 2) {
        if (p[1] == '%') continue;
        if (p[1] != 'd' || d++) return 0;
    }
    return d == 1;
}

/* Seat names and bots, once the seat count and language are known. */
static int cfg_seats(game_cfg *d, const engine_config *c) {
    size_t n = (size_t)d->players;
    d->names = calloc(n, sizeof *d->names);
    d->bots = calloc(n, sizeof *d->bots);
    if (!d->names || !d->bots) return -1;
    const char *fmt = c->seat_name_format ? c->seat_name_format(d->lang) : NULL;
    if (!one_number(fmt)) fmt = "Seat %d";
    for (size_t i = 0; i < n; i++) {
        char dflt[64]; /* "Seat N": snprintf once (cairn_strfmt measures, then formats) */
        if (!(c->names && c->names[i])) snprintf(dflt, sizeof dflt, fmt, (int)i + 1);
        d->names[i] = cairn_strdup(c->names && c->names[i] ? c->names[i] : dflt);
        if (!d->names[i]) return -1;
        if (c->bots && c->bots[i] && !(d->bots[i] = cairn_strdup(c->bots[i]))) return -1;
    }
    return 0;
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
        if (sandbox_run_file(rt->sb, path, ruleset_script_shown(rs, path), 1, errs) != 0) return -1;
        if (i == 0) {
            if (!lua_istable(L, -1)) {
                cerr_addk(errs, path, 0, 0, NULL, "engine.rules_not_table",
                          "the rules script must return a table of handlers, not %s", luaL_typename(L, -1));
                lua_pop(L, 1);
                return -1;
            }
        } else {
            /* an option script returns function(rules) -> rules */
            if (!lua_isfunction(L, -1)) {
                cerr_addk(errs, path, 0, 0, NULL, "engine.option_not_function",
                          "an option script must return function(rules), not %s", luaL_typename(L, -1));
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
                cerr_addk(errs, path, 0, 0, NULL, "engine.option_not_rules",
                          "the function must return the rules table, not %s", luaL_typename(L, -1));
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
** on it must not run unbudgeted), each put in the kit's registry slot for
** it, and the engine's own option tables (the kit's, emptied by the last
** game, or new). */
static int p_handlers(lua_State *L) {
    game_rt *rt = lua_touserdata(L, 1);
    sandbox_kit *k = rt->kit;
    lua_settop(L, 1);
    if (k->ref_hnames == LUA_NOREF) { /* once per kit: lua_pushstring looks a name up by its bytes */
        lua_createtable(L, H_COUNT, 0);
        for (int h = 0; h < H_COUNT; h++) {
            lua_pushstring(L, engine_handler_names[h]);
            lua_rawseti(L, -2, h + 1);
        }
        k->ref_hnames = luaL_ref(L, LUA_REGISTRYINDEX);
    }
    if (k->handlers_kept) { /* kept rules, put back as loaded: the same handlers */
        for (int h = 0; h < H_COUNT; h++)
            if (k->kept_h & (1u << h)) rt->ref_h[h] = k->slot_h[h];
    } else {
        unsigned found = 0;
        lua_rawgeti(L, LUA_REGISTRYINDEX, rt->ref_rules); /* 2 */
        lua_rawgeti(L, LUA_REGISTRYINDEX, k->ref_hnames); /* 3 */
        for (int h = 0; h < H_COUNT; h++) {
            lua_rawgeti(L, 3, h + 1);
            if (lua_rawget(L, 2) != LUA_TFUNCTION) {
                lua_pop(L, 1);
                continue;
            }
            if (k->slot_h[h] == LUA_NOREF) k->slot_h[h] = luaL_ref(L, LUA_REGISTRYINDEX);
            else lua_rawseti(L, LUA_REGISTRYINDEX, k->slot_h[h]); /* its key exists: no allocation */
            rt->ref_h[h] = k->slot_h[h];
            found |= 1u << h;
        }
        if (rt->ref_rules != LUA_NOREF && rt->ref_rules == k->ref_rules_kept) {
            k->handlers_kept = 1;
            k->kept_h = found;
        }
    }
    int *tables[] = {&k->ref_ids, &k->ref_labels, &k->ref_reasons, &k->ref_prompts};
    for (int i = 0; i < 4; i++) {
        if (*tables[i] == LUA_NOREF) {
            /* the ids sized for a usual decision list: no growing on the first */
            lua_createtable(L, i == 0 ? ASK_IDS_ROOM : 0, 0);
            *tables[i] = luaL_ref(L, LUA_REGISTRYINDEX);
        }
    }
    if (k->ref_ask_keys == LUA_NOREF) {
        ask_keys_push(L);
        k->ref_ask_keys = luaL_ref(L, LUA_REGISTRYINDEX);
    }
    rt->ref_ids = k->ref_ids, rt->ref_labels = k->ref_labels;
    rt->ref_reasons = k->ref_reasons, rt->ref_prompts = k->ref_prompts;
    /* the live state starts as {} for setup, with room for a few fields
    ** (a size hint only: no script can tell) */
    lua_createtable(L, 0, 8);
    rt->ref_state = luaL_ref(L, LUA_REGISTRYINDEX);
    return 0;
}

/* Before the sandbox goes back to its kit: the engine's option tables go
** back too, as they are now (the decision reader may have replaced some),
** the ids emptied for the next game (setting a key that is there to nil
** allocates nothing). The labels, reasons and prompts a table-form list
** gave are dropped instead, for the next start to make anew. */
static void give_back_option_tables(engine *e) {
    game_rt *rt = &e->rt;
    sandbox_kit *k = rt->kit;
    lua_State *L = rt->L;
    if (!k || rt->ref_ids == LUA_NOREF) return; /* p_handlers never handed them out */
    k->ref_ids = rt->ref_ids, k->ref_labels = rt->ref_labels;
    k->ref_reasons = rt->ref_reasons, k->ref_prompts = rt->ref_prompts;
    rt->ref_ids = rt->ref_labels = rt->ref_reasons = rt->ref_prompts = LUA_NOREF;
    if (!lua_checkstack(L, 2)) { /* cannot empty them: the next start makes new ones */
        k->ref_ids = k->ref_labels = k->ref_reasons = k->ref_prompts = LUA_NOREF;
        return;
    }
    lua_rawgeti(L, LUA_REGISTRYINDEX, k->ref_ids);
    for (size_t q = 1; q <= e->asked.n_opts_filled; q++) {
        lua_pushnil(L);
        lua_rawseti(L, -2, (lua_Integer)q);
    }
    lua_pop(L, 1);
    if (e->asked.extras) {
        int *refs[] = {&k->ref_labels, &k->ref_reasons, &k->ref_prompts};
        for (int i = 0; i < 3; i++) {
            luaL_unref(L, LUA_REGISTRYINDEX, *refs[i]);
            *refs[i] = LUA_NOREF;
        }
    }
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
    if (!e->cfg.scenario && e->started) { /* a new game's live state is {} already */
        value *empty = value_map();
        int bad = !empty || engine_set_live(e, empty) != 0;
        value_free(empty);
        if (bad) return errs->oom = 1, -1;
    }
    e->started = 1;
    if (engine_check_data(e, errs) != 0) return -1;
    rng_seed(&e->rng, e->cfg.seed);
    if (e->cfg.scenario_rng && rng_parse(&e->rng, e->cfg.scenario_rng) != 0) {
        char digits[16];
        snprintf(digits, sizeof digits, "%d", RNG_HEX_LEN);
        cerr_addk(errs, NULL, 0, 0, "rng", "engine.bad_rng", "not a valid RNG state (%s hex digits expected)", digits);
        return -1;
    }
    e->cur_decision = 0;
    if (e->cfg.scenario) {
        if (e->cfg.scenario->type != CV_MAP) {
            cerr_addk(errs, NULL, 0, 0, "state", "engine.scenario_not_map", "a scenario state must be a map");
            return -1;
        }
        /* through Lua and back (as checkpoint 0), so the state has the shape
        ** a decision would give it (no nulls in maps, empty tables as lists) */
        if (engine_set_live(e, e->cfg.scenario) != 0) {
            cerr_addk(errs, NULL, 0, 0, "state", "engine.scenario_not_lua", "the scenario state cannot be given to Lua "
                      "(out of memory, or a null inside a list)");
            return -1;
        }
        if (engine_check_plain(e, "state", errs) != 0) return -1;
        if ((e->cfg.checks && engine_run_checks(e, errs) != 0) || engine_ask(e, errs) != 0) return -1;
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
        if (rc == 0) cerr_addk(errs, NULL, 0, 0, NULL, "engine.no_setup", "the rules define no setup(g) handler");
        if (rc <= 0) return -1;
        /* a fast game checks what setup made with its first check, as it
        ** does every decision's (settle) */
        if (gapi_adopt_state(e) != 0) return errs->oom = 1, -1;
        if (!e->cfg.fast && engine_check_plain(e, "state", errs) != 0) return -1;
        if ((e->cfg.checks && engine_run_checks(e, errs) != 0) || engine_ask(e, errs) != 0) return -1;
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
    size_t before = cerr_count(errs);
    engine *e = engine_build(c, errs);
    if (e && start_game(e, errs) != 0) {
        engine_free(e);
        e = NULL;
    }
    if (!e) cerr_note_oom(errs, before, "starting the game");
    return e;
}

engine *engine_build(const engine_config *c, cerr_list *errs) {
    if (!c || !c->ruleset) {
        cerr_addk(errs, NULL, 0, 0, NULL, "engine.no_ruleset", "no ruleset given");
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
    e->debug_fn = c->debug, e->debug_ud = c->debug_ud; /* setup's lines too */
    if (c->rules) {
        rt->rules = c->rules;
    } else {
        if (!(rt->rules = engine_rules_new(c, errs))) goto fail;
        rt->owns_rules = 1;
    }
    if (!e->cfg.players) e->cfg.players = rt->rules->players;
    if (e->cfg.players < 1 || e->cfg.players > CAIRN_MAX_SEATS) {
        char seats[16], most[16];
        snprintf(seats, sizeof seats, "%d", e->cfg.players);
        snprintf(most, sizeof most, "%d", CAIRN_MAX_SEATS);
        cerr_addk(errs, NULL, 0, 0, NULL, "engine.seats", "%s seats: cairn plays 1 to %s", seats, most);
        goto fail;
    }
    free(e->cfg.lang); /* the rules' language: given, found in the manifest, or en */
    if (!(e->cfg.lang = cairn_strdup(rt->rules->lang))) goto oom;
    if (cfg_seats(&e->cfg, c) != 0) goto oom;
    if (rules_take_sandbox(rt->rules, rt, e->cfg.fast, errs) != 0) goto fail;
    e->hub = rt->kit->hub;
    e->hub->e = e;
    if (rt->ref_rules == LUA_NOREF) { /* not kept from the last fast game: load them */
        if (build_rules(e, errs) != 0) goto fail;
        /* from here on handler calls may be stopped and run again: no globals */
        if (sandbox_seal_globals(rt->sb) != 0) goto oom;
        if (e->cfg.fast) rules_keep(rt); /* before any handler runs */
    }
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
    disclosure_free(e);
    engine_moved(e);
    value_free(e->state_cache);
    free(e->asked.items);
    free(e->asked.disabled);
    free(e->asked.id_obj);
    give_back_option_tables(e);
    rules_give_sandbox(e->rt.owns_rules ? NULL : e->rt.rules, &e->rt);
    if (e->rt.owns_rules) engine_rules_free(e->rt.rules);
    cfg_free(&e->cfg);
    free(e);
}

engine_config engine_config_of(const game_cfg *g) {
    engine_config c;
    memset(&c, 0, sizeof c);
    c.ruleset = g->ruleset;
    c.choices = (const char *const *)g->choices;
    c.n_choices = g->n_choices;
    c.sets = (const char *const *)g->sets;
    c.n_sets = g->n_sets;
    c.preset = g->preset;
    c.players = g->players;
    c.names = (const char *const *)g->names;
    c.bots = (const char *const *)g->bots;
    c.seed = g->seed;
    c.lang = g->lang;
    c.lang_wanted = g->lang_wanted;
    c.seat_name_format = g->seat_name_format;
    c.checks = g->checks;
    c.budget = g->budget;
    c.mem_cap = g->mem_cap;
    c.no_budget = g->no_budget;
    c.fast = g->fast;
    c.scenario = g->scenario;
    c.scenario_rng = g->scenario_rng;
    return c;
}
