/*
** fork.c
** Forks and playouts, the building blocks of search bots. A fork is a fast
** game of its own that starts where another game stands: the live state
** copied Lua to Lua (luaval_copy), the RNG, the same loaded rules and a
** sandbox from their pool; no log, no checkpoints, no events. Nothing done
** in a fork reaches the game it came from. A decision that fails in a fork
** is not taken back: the fork is over, and the error names the game's seed,
** the position forked and the fork's own decision.
*/
#include "engine_internal.h"
#include "luaval.h"

#include <inttypes.h>
#include <lauxlib.h>
#include <stdlib.h>
#include <string.h>

engine *engine_fork(engine *e, uint64_t reseed, cerr_list *errs) {
    engine_config c;
    memset(&c, 0, sizeof c);
    const game_cfg *g = &e->cfg;
    c.ruleset = g->ruleset;
    c.choices = (const char *const *)g->choices;
    c.n_choices = g->n_choices;
    c.preset = g->preset;
    c.players = g->players;
    c.names = (const char *const *)g->names;
    c.bots = (const char *const *)g->bots;
    c.seed = reseed ? reseed : g->seed;
    c.lang = g->lang;
    c.budget = g->budget;
    c.mem_cap = g->mem_cap;
    c.no_budget = g->no_budget;
    c.fast = 1;
    c.rules = e->rt.rules;
    engine *f = engine_build(&c, errs);
    if (!f) return NULL;
    f->fork_of_pos = e->pos;
    f->rng = e->rng;
    if (reseed) rng_seed_stream(&f->rng, reseed, e->pos);
    lua_State *from = e->rt.L, *to = f->rt.L;
    int bad = !lua_checkstack(from, 2);
    if (!bad) {
        lua_rawgeti(from, LUA_REGISTRYINDEX, e->rt.ref_state);
        bad = luaval_copy(from, -1, to) != 0;
        lua_pop(from, 1);
    }
    if (!bad) {
        lua_pushvalue(to, -1);
        int ref = luaL_ref(to, LUA_REGISTRYINDEX); /* allocates: only a slot, checked */
        lua_pop(to, 1);
        if (ref == LUA_REFNIL || ref == LUA_NOREF) bad = 1;
        else {
            luaL_unref(to, LUA_REGISTRYINDEX, f->rt.ref_state);
            f->rt.ref_state = ref;
            bad = gapi_refresh_state(f) != 0;
        }
    }
    if (bad) {
        cerr_add(errs, NULL, 0, 0, "state", "cannot fork: out of memory, or the state is not plain data");
        engine_free(f);
        return NULL;
    }
    if (engine_ask(f, errs) != 0) {
        engine_free(f);
        return NULL;
    }
    return f;
}

size_t engine_fork_origin(const engine *f) { return f->fork_of_pos == (size_t)-1 ? 0 : f->fork_of_pos; }

/* The option index of seat's k-th enabled option (from 0), or 0. */
static size_t enabled_option(const engine *f, int seat, size_t k, size_t *n_enabled) {
    *n_enabled = 0;
    for (size_t i = 0; i < f->asked.n; i++) {
        const asked_item *it = &f->asked.items[i];
        if (it->seat != seat) continue;
        *n_enabled = it->n_enabled;
        for (size_t q = it->first; q < it->first + it->n; q++)
            if (!f->asked.disabled[q] && k-- == 0) return q;
    }
    return 0;
}

size_t engine_enabled_count(const engine *f, int seat) {
    size_t n;
    enabled_option(f, seat, (size_t)-1, &n);
    return n;
}

long engine_playout(engine *f, size_t max, engine_policy policy, void *ud, cerr_list *errs) {
    long made = 0;
    while (!engine_is_over(f) && (size_t)made < max) {
        int seat = f->asked.items[0].seat; /* answer order never matters (DESIGN.md) */
        size_t k = 0, n = 0;
        if (policy) {
            enabled_option(f, seat, (size_t)-1, &n);
            long pick = n ? policy(f, seat, n, ud) : -1;
            if (pick >= 0 && (size_t)pick < n) k = enabled_option(f, seat, (size_t)pick, &n);
        } else {
            k = engine_bot_pick(f, seat);
        }
        if (!k) {
            cerr_add(errs, NULL, 0, 0, NULL,
                     "fork of seed %" PRIu64 " at decision %zu, fork decision %ld: seat %d has no "
                     "enabled option%s", f->cfg.seed, engine_fork_origin(f), made + 1, seat,
                     policy && n ? " the policy chose" : "");
            return -1;
        }
        cerr_list local;
        cerr_init(&local, 0);
        engine_status st = engine_apply(f, seat, NULL, (int)k, 0, &local);
        if (st != ENGINE_OK) {
            char *why = engine_first_error(&local);
            cerr_add(errs, NULL, 0, 0, NULL, "fork of seed %" PRIu64 " at decision %zu, fork decision %ld (seat %d): %s",
                     f->cfg.seed, engine_fork_origin(f), made + 1, seat, why ? why : engine_status_name(st));
            free(why);
            cerr_free(&local);
            return -1;
        }
        cerr_free(&local);
        made++;
    }
    return made;
}
