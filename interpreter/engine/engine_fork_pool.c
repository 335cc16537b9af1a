/*
** engine_fork_pool.c
** Sampled states kept for reuse: a search on a game with secrets may keep
** the states determinize sampled into its fork (as values) and start later
** iterations from them, copied in as a game without secrets copies its live
** state, instead of calling determinize every iteration (the bots'
** `pool=K`, docs/bots.md). A fork filled from a kept sample draws its
** chance afresh from the iteration's stream, as a fresh sample's would be,
** and remembers the sample, so that a decision that runs long under the
** budget's timer is played again from it (engine_fork_recount.c).
*/
#include "engine_internal.h"
#include "luaval.h"

value *engine_fork_take_sample(engine *f, cerr_list *errs) {
    if (f->fork_of_pos == (size_t)-1 || f->pos != 0 || engine_is_over(f)) {
        cerr_add(errs, NULL, 0, 0, NULL, "engine_fork_take_sample: not a fork at its start");
        return NULL;
    }
    lua_State *L = f->rt.L;
    if (!lua_checkstack(L, 2)) {
        errs->oom = 1;
        return NULL;
    }
    lua_rawgeti(L, LUA_REGISTRYINDEX, f->rt.ref_state);
    value *v = luaval_to_value(L, -1, "state", errs);
    lua_pop(L, 1);
    return v;
}

int engine_fork_refill_sample(engine *f, engine *e, const value *state, uint64_t reseed, cerr_list *errs) {
    if (f->fork_of_pos == (size_t)-1 || f->rt.rules != e->rt.rules || !state) {
        cerr_add(errs, NULL, 0, 0, NULL, "engine_fork_refill_sample: not a fork of these rules, or no state");
        return -1;
    }
    if (!reseed) reseed = 1;
    engine_fork_rewind(f, e);
    f->cfg.seed = reseed; /* the fork's random bot streams */
    f->fork_src = e;
    f->fork_view = NULL;
    f->fork_kept = state;
    f->fork_reseed = reseed;
    return engine_fork_fill(f, errs);
}

int engine_fork_fill_kept(engine *f, cerr_list *errs) {
    lua_State *L = f->rt.L;
    int top = lua_gettop(L);
    if (luaval_push(L, f->fork_kept) != 0) {
        cerr_addk(errs, NULL, 0, 0, "state", "fork.oom", "cannot fork: out of memory");
        return -1;
    }
    /* the chance of a state just sampled at this position (fill_sampled) */
    rng_seed_stream(&f->rng, f->fork_reseed, (uint64_t)f->fork_src->pos + ENGINE_SAMPLE_CHANCE_TAG);
    int bad = engine_fork_adopt(f, errs);
    lua_settop(L, top);
    return bad;
}

size_t engine_fork_samples(const engine *f) { return f->samples; }

size_t engine_fork_checked(const engine *f) { return f->checked; }

void engine_fork_check_first(engine *f, size_t n) {
    /* the sample the fork was made with was checked already: at least that one */
    f->check_first = n > f->samples ? n : f->samples;
}
