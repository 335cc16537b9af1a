/*
** engine_fork.c
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

/* A fork of e with no state yet: the same rules, a sandbox from their
** pool, fast, e's RNG (reseeded when reseed is not 0). NULL after an error. */
static engine *fork_shell(engine *e, uint64_t reseed, cerr_list *errs) {
    engine_config c = engine_config_of(&e->cfg);
    if (reseed) c.seed = reseed;
    c.checks = 0; /* a fork is fast: no per-decision checks, no scenario of its own */
    c.scenario = NULL;
    c.scenario_rng = NULL;
    c.fast = 1;
    c.rules = e->rt.rules;
    engine *f = engine_build(&c, errs);
    if (!f) return NULL;
    /* a fork's calls run under the budget's CPU timer, as a fast game's: a
    ** decision that runs long is played again counted, with the decisions
    ** before it, from where the fork was filled (engine_fork_recount.c);
    ** counting every call from the start (a hook every CAIRN_LUA_HOOK_STEP
    ** instructions makes Lua check before each one) cost a search a fifth
    ** of its speed */
    f->fork_of_pos = e->pos;
    f->rng = e->rng;
    if (reseed) rng_seed_stream(&f->rng, reseed, e->pos);
    f->check_first = (size_t)CAIRN_BOT_CHECKED_SAMPLES;
    return f;
}

/* Makes the table on top of f's stack the fork's live state (popping it),
** then asks the first decisions. 0, or -1 after an error (f is then freed
** by the caller). */
int engine_fork_adopt(engine *f, cerr_list *errs) {
    lua_State *to = f->rt.L;
    int ref = luaL_ref(to, LUA_REGISTRYINDEX); /* allocates: only a slot, checked */
    int bad = ref == LUA_REFNIL || ref == LUA_NOREF;
    if (!bad) {
        luaL_unref(to, LUA_REGISTRYINDEX, f->rt.ref_state);
        f->rt.ref_state = ref;
        bad = gapi_refresh_state(f) != 0;
    }
    if (bad) {
        cerr_addk(errs, NULL, 0, 0, "state", "fork.oom", "cannot fork: out of memory");
        return -1;
    }
    return engine_ask(f, errs) == 0 ? 0 : -1;
}

/* e's live state copied onto f's Lua stack, for engine_fork_adopt. 0, or -1 with
** the error. */
static int copy_state(engine *e, engine *f, cerr_list *errs) {
    lua_State *from = e->rt.L, *to = f->rt.L;
    int bad = !lua_checkstack(from, 2);
    if (!bad) {
        lua_rawgeti(from, LUA_REGISTRYINDEX, e->rt.ref_state);
        bad = luaval_copy(from, -1, to) != 0;
        lua_pop(from, 1);
    }
    if (bad) {
        cerr_addk(errs, NULL, 0, 0, NULL, "fork.oom_or_not_plain", "cannot fork: out of memory, or the state is not plain data");
        return -1;
    }
    return 0;
}

/* Where f is filled from, for engine_fork_fill. */
static void fork_source(engine *f, engine *e, const value *view, int seat, uint64_t reseed) {
    f->fork_src = e;
    f->fork_view = view;
    f->fork_kept = NULL;
    f->fork_seat = seat;
    f->fork_reseed = reseed;
}

engine *engine_fork(engine *e, uint64_t reseed, cerr_list *errs) {
    engine *f = fork_shell(e, reseed, errs);
    if (!f) return NULL;
    fork_source(f, e, NULL, 0, reseed);
    if (copy_state(e, f, errs) != 0) {
        engine_free(f);
        return NULL;
    }
    if (engine_fork_adopt(f, errs) != 0) {
        engine_free(f);
        return NULL;
    }
    return f;
}

size_t engine_fork_origin(const engine *f) { return f->fork_of_pos == (size_t)-1 ? 0 : f->fork_of_pos; }

/* The option index of seat's k-th enabled option (from 0), or 0. For a
** search bot (for_bots) the options marked `bot = false` are passed by
** while the seat has any other enabled option: they revise the seat's own
** unfinished choice (Himalaya's `back`), so a one-ply bot that likes the
** position before its last piece better would take it off and lay it again
** forever. */
static size_t enabled_option(const engine *f, int seat, size_t k, size_t *n_enabled, int for_bots) {
    *n_enabled = 0;
    for (size_t i = 0; i < f->asked.n; i++) {
        const asked_item *it = &f->asked.items[i];
        if (it->seat != seat) continue;
        int skip = for_bots && it->n_avoided && it->n_avoided < it->n_enabled;
        unsigned char mask = (unsigned char)(ASK_DISABLED | (skip ? ASK_AVOIDED : 0));
        *n_enabled = it->n_enabled - (skip ? it->n_avoided : 0);
        for (size_t q = it->first; q < it->first + it->n; q++)
            if (!(f->asked.disabled[q] & mask) && k-- == 0) return q;
    }
    return 0;
}

size_t engine_enabled_count(const engine *f, int seat) {
    size_t n;
    enabled_option(f, seat, (size_t)-1, &n, 0);
    return n;
}

size_t engine_bot_option_count(const engine *f, int seat) {
    size_t n;
    enabled_option(f, seat, (size_t)-1, &n, 1);
    return n;
}

long engine_playout(engine *f, size_t max, engine_policy policy, void *ud, cerr_list *errs) {
    long made = 0;
    while (!engine_is_over(f) && (size_t)made < max) {
        int seat = f->asked.items[0].seat; /* answer order never matters (DESIGN.md) */
        size_t k = 0, n = 0;
        if (policy) {
            enabled_option(f, seat, (size_t)-1, &n, 1);
            long pick = n ? policy(f, seat, n, ud) : -1;
            if (pick >= 0 && (size_t)pick < n) k = enabled_option(f, seat, (size_t)pick, &n, 1);
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

/* ------------------------------------------------ bots' look at a fork */

const char *engine_bot_option_id(const engine *f, int seat, size_t k) {
    size_t n, q = enabled_option(f, seat, k, &n, 1);
    if (!q || k >= n) return NULL;
    lua_State *L = f->rt.L;
    if (!lua_checkstack(L, 2)) return NULL;
    lua_rawgeti(L, LUA_REGISTRYINDEX, f->rt.ref_ids);
    lua_rawgeti(L, -1, (lua_Integer)q);
    const char *s = lua_tostring(L, -1); /* kept alive by the ids table */
    lua_pop(L, 2);
    return s;
}

engine_status engine_bot_answer(engine *f, int seat, size_t k, char **why) {
    if (why) *why = NULL;
    if (engine_is_over(f)) return ENGINE_GAME_OVER;
    size_t n, q = enabled_option(f, seat, k, &n, 1);
    if (!q || k >= n) return ENGINE_NOT_ASKED;
    cerr_list errs;
    cerr_init(&errs, 0);
    engine_status st = engine_apply(f, seat, NULL, (int)q, 0, &errs);
    if (st != ENGINE_OK && why) *why = engine_first_error(&errs);
    cerr_free(&errs);
    return st;
}

/* --------------------------------------------------- sampled forks */

int engine_has_determinize(const engine *e) { return engine_has_handler(e, H_DETERMINIZE); }

int engine_has_secrets(const engine *e) { return view_rules_secret(e->rt.rules->vis); }

/* Structural equality as the state sees it: an empty list and an empty map
** are one value (Lua cannot tell them apart); map order is ignored. */
static int same_value(const value *a, const value *b) {
    int ea = (a->type == CV_LIST && a->u.list.n == 0) || (a->type == CV_MAP && a->u.map.n == 0);
    int eb = (b->type == CV_LIST && b->u.list.n == 0) || (b->type == CV_MAP && b->u.map.n == 0);
    if (ea || eb) return ea && eb;
    if (a->type != b->type) return 0;
    if (a->type == CV_LIST) {
        if (a->u.list.n != b->u.list.n) return 0;
        for (size_t i = 0; i < a->u.list.n; i++)
            if (!same_value(a->u.list.items[i], b->u.list.items[i])) return 0;
        return 1;
    }
    if (a->type == CV_MAP) {
        if (a->u.map.n != b->u.map.n) return 0;
        for (size_t i = 0; i < a->u.map.n; i++) {
            const value *bv = value_map_get(b, a->u.map.items[i].key->u.str.s);
            if (!bv || !same_value(a->u.map.items[i].val, bv)) return 0;
        }
        return 1;
    }
    return value_equal(a, b, 0);
}

/* The path of the first place where a and b differ ("chosen[2]", "bag"),
** into buf; "" when they are equal. */
static void first_diff(const value *a, const value *b, char *buf, size_t size, size_t at) {
    if (at >= size) return;
    buf[at] = '\0';
    if (same_value(a, b)) return;
    if (a->type != b->type || (a->type != CV_LIST && a->type != CV_MAP)) return;
    if (a->type == CV_LIST) {
        if (a->u.list.n != b->u.list.n) return;
        for (size_t i = 0; i < a->u.list.n; i++)
            if (!same_value(a->u.list.items[i], b->u.list.items[i])) {
                int w = snprintf(buf + at, size - at, "[%zu]", i + 1);
                if (w > 0) first_diff(a->u.list.items[i], b->u.list.items[i], buf, size, at + (size_t)w);
                return;
            }
        return;
    }
    for (size_t i = 0; i < a->u.map.n; i++) {
        const char *key = a->u.map.items[i].key->u.str.s;
        const value *bv = value_map_get(b, key);
        if (bv && same_value(a->u.map.items[i].val, bv)) continue;
        int w = snprintf(buf + at, size - at, "%s%s", at ? "." : "", key);
        if (w > 0 && bv) first_diff(a->u.map.items[i].val, bv, buf, size, at + (size_t)w);
        return;
    }
    for (size_t i = 0; i < b->u.map.n; i++) /* a key only b has */
        if (!value_map_get(a, b->u.map.items[i].key->u.str.s)) {
            snprintf(buf + at, size - at, "%s%s", at ? "." : "", b->u.map.items[i].key->u.str.s);
            return;
        }
}

/* "rules.lua:12", where the determinize hook is defined, into buf. */
static void hook_where(engine *f, char *buf, size_t size) {
    lua_State *L = f->rt.L;
    lua_Debug ar;
    snprintf(buf, size, "determinize");
    if (!lua_checkstack(L, 2)) return;
    lua_rawgeti(L, LUA_REGISTRYINDEX, f->rt.ref_h[H_DETERMINIZE]);
    if (lua_getinfo(L, ">S", &ar)) snprintf(buf, size, "%s:%d", ar.short_src, ar.linedefined);
}

/* Fills the fork f (of e's rules, no state yet or an old one) from
** determinize(view, seat, rng, g), checked against view. 0, or -1 after
** an error (f is then unusable). */
static int fill_sampled(engine *f, engine *e, const value *view, int seat, uint64_t reseed, cerr_list *errs) {
    lua_State *L = f->rt.L;
    int top = lua_gettop(L);
    rng_seed_stream(&f->rng, reseed, e->pos);
    rng before = f->rng;
    call_ctx c = {.h = H_DETERMINIZE, .kind = ARGS_DETERMINIZE, .seat = seat, .v = view};
    f->in_apply = 1; /* its g.rng draws, from the fork's own stream */
    int rc = engine_call(f, &c, 1, errs);
    if (rc == -2) { /* ran long under the timer: again, counted, from the same draws */
        f->rng = before;
        sandbox_set_timed(f->rt.sb, 0);
        rc = engine_call(f, &c, 1, errs);
        sandbox_set_timed(f->rt.sb, 1);
    }
    f->in_apply = 0;
    char where[256];
    if (rc <= 0) {
        hook_where(f, where, sizeof where);
        if (rc == -2) cerr_addk(errs, NULL, 0, 0, NULL, "fork.determinize_time", "determinize (%s) ran out of time", where);
        lua_settop(L, top);
        return -1;
    }
    if (!lua_istable(L, -1)) {
        hook_where(f, where, sizeof where);
        cerr_addk(errs, NULL, 0, 0, NULL, "fork.determinize_not_table", "determinize (%s) must return a state table, not %s",
                  where, luaL_typename(L, -1));
        lua_settop(L, top);
        return -1;
    }
    /* the contract: the state sampled shows the seat exactly what it saw;
    ** checked for the first samples of a fork (f->check_first: a bot
    ** decision's searches share CAIRN_BOT_CHECKED_SAMPLES; a hook that
    ** breaks it does so for the position, whatever it draws) and for
    ** every sample when the game runs with checks on; the check (the state
    ** made a value, its view taken and compared) cost a fifth of an
    ** iteration in Yak, Himalaya and Kathmandu */
    int check = f->samples++ < f->check_first || e->cfg.checks;
    if (check) f->checked++;
    value *got = check ? luaval_to_value(L, -1, "determinize", errs) : NULL;
    value *seen = got ? view_of(e->rt.rules->vis, got, seat) : NULL;
    int same = !check || (seen && same_value(seen, view));
    if (!same) hook_where(f, where, sizeof where);
    if (got && seen && !same) {
        char path[200];
        first_diff(view, seen, path, sizeof path, 0);
        char seat_text[24];
        snprintf(seat_text, sizeof seat_text, "%d", seat);
        if (path[0])
            cerr_addk(errs, NULL, 0, 0, NULL, "fork.determinize_shows",
                      "determinize (%s) returned a state that shows seat %s something else than its view, at %s",
                      where, seat_text, path);
        else
            cerr_addk(errs, NULL, 0, 0, NULL, "fork.determinize_shows_top",
                      "determinize (%s) returned a state that shows seat %s something else than its view, at the top",
                      where, seat_text);
    } else if (check && (!got || !seen)) {
        if (got)
            cerr_addk(errs, NULL, 0, 0, NULL, "fork.determinize_oom",
                      "determinize (%s) returned a state that is not plain data (out of memory)", where);
        else
            cerr_addk(errs, NULL, 0, 0, NULL, "fork.determinize_not_plain",
                      "determinize (%s) returned a state that is not plain data", where);
    }
    value_free(got);
    value_free(seen);
    if (!same) {
        lua_settop(L, top);
        return -1;
    }
    rng_seed_stream(&f->rng, reseed, (uint64_t)e->pos + ENGINE_SAMPLE_CHANCE_TAG);
    int bad = engine_fork_adopt(f, errs);
    lua_settop(L, top);
    return bad;
}

engine *engine_fork_sampled(engine *e, const value *view, int seat, uint64_t reseed, cerr_list *errs) {
    if (!engine_has_handler(e, H_DETERMINIZE)) {
        cerr_addk(errs, NULL, 0, 0, NULL, "fork.no_determinize", "%s has no determinize hook", e->rt.rules->rs->id);
        return NULL;
    }
    engine *f = fork_shell(e, reseed ? reseed : 1, errs);
    if (f) fork_source(f, e, view, seat, reseed ? reseed : 1);
    if (f && fill_sampled(f, e, view, seat, reseed ? reseed : 1, errs) != 0) {
        engine_free(f);
        return NULL;
    }
    return f;
}

int engine_fork_refill(engine *f, engine *e, const value *view, int seat, uint64_t reseed, cerr_list *errs) {
    if (f->fork_of_pos == (size_t)-1 || f->rt.rules != e->rt.rules) {
        cerr_add(errs, NULL, 0, 0, NULL, "engine_fork_refill: not a fork of these rules");
        return -1;
    }
    if (!reseed) reseed = 1;
    if (view && !engine_has_handler(e, H_DETERMINIZE)) {
        cerr_addk(errs, NULL, 0, 0, NULL, "fork.no_determinize", "%s has no determinize hook", e->rt.rules->rs->id);
        return -1;
    }
    engine_fork_rewind(f, e);
    f->cfg.seed = reseed; /* the fork's random bot streams */
    fork_source(f, e, view, seat, reseed);
    return engine_fork_fill(f, errs);
}

void engine_fork_rewind(engine *f, engine *e) {
    /* back to a fork's start: no log, no decision made, alive */
    for (size_t i = 0; i < f->n_log; i++) free(f->log[i].id);
    f->n_log = f->pos = 0;
    f->dead = 0;
    f->since_check = 0;
    f->cur_decision = 0;
    f->live_stale = 0;
    f->fork_of_pos = e->pos;
    engine_moved(f);
}

int engine_fork_fill(engine *f, cerr_list *errs) {
    engine *e = f->fork_src;
    if (f->fork_kept) return engine_fork_fill_kept(f, errs);
    if (f->fork_view) return fill_sampled(f, e, f->fork_view, f->fork_seat, f->fork_reseed, errs);
    f->rng = e->rng;
    if (f->fork_reseed) rng_seed_stream(&f->rng, f->fork_reseed, e->pos);
    if (copy_state(e, f, errs) != 0) return -1;
    return engine_fork_adopt(f, errs);
}

/* ------------------------------------------------------- ruleset bots */

typedef struct rbot_ctx {
    engine *run;         /* the fork the bot runs in: no true state in it */
    const char *name;
    const value *view;
    char **ids;          /* the seat's enabled ids in the real game */
    size_t n_ids;
    int seat;
    int found;
} rbot_ctx;

/* Protected: pushes rules.bots[name], the view, the seat, the ids bots consider
** and render's g (nothing when there is no such bot), all of the fork. */
static int p_rbot(lua_State *L) {
    rbot_ctx *c = lua_touserdata(L, 1);
    engine *f = c->run;
    lua_settop(L, 0);
    luaL_checkstack(L, 8, "engine");
    lua_rawgeti(L, LUA_REGISTRYINDEX, f->rt.ref_rules);
    if (lua_type(L, -1) != LUA_TTABLE || lua_getfield(L, -1, "bots") != LUA_TTABLE) return 0;
    if (lua_getfield(L, -1, c->name) != LUA_TFUNCTION) return 0;
    lua_replace(L, 1);
    lua_settop(L, 1);
    c->found = 1;
    if (luaval_push(L, c->view) != 0) return luaL_error(L, "out of memory");
    lua_pushinteger(L, c->seat);
    lua_createtable(L, (int)c->n_ids, 0);
    for (size_t k = 0; k < c->n_ids; k++) {
        lua_pushstring(L, c->ids[k]);
        lua_rawseti(L, -2, (lua_Integer)k + 1);
    }
    gapi_push(f, 0, 1);
    return lua_gettop(L);
}

int engine_has_ruleset_bot(engine *e, const char *name) {
    lua_State *L = e->rt.L;
    int top = lua_gettop(L), found = 0;
    if (!lua_checkstack(L, 4)) return 0;
    lua_rawgeti(L, LUA_REGISTRYINDEX, e->rt.ref_rules);
    if (lua_type(L, -1) == LUA_TTABLE) { /* raw: no metamethod runs unbudgeted */
        lua_pushstring(L, "bots");
        if (lua_rawget(L, -2) == LUA_TTABLE) {
            lua_pushstring(L, name);
            found = lua_rawget(L, -2) == LUA_TFUNCTION;
        }
    }
    lua_settop(L, top);
    return found;
}

/* Runs rules.bots[name] in the fork of c and checks its answer against
** c->ids: the chosen id (malloc'd), or NULL after appending an error. */
static char *run_rbot(rbot_ctx *c, cerr_list *errs) {
    engine *f = c->run;
    lua_State *L = f->rt.L;
    int top = lua_gettop(L);
    const char *name = c->name;
    char *out = NULL;
    for (int counted = 0; counted < 2; counted++) {
        lua_pushcfunction(L, p_rbot);
        lua_pushlightuserdata(L, c);
        if (lua_pcall(L, 1, LUA_MULTRET, 0) != LUA_OK) {
            cerr_add(errs, NULL, 0, 0, NULL, "bot %s: %s", name, lua_isstring(L, -1) ? lua_tostring(L, -1) : "out of memory");
            break;
        }
        if (!c->found) {
            cerr_addk(errs, NULL, 0, 0, NULL, "fork.no_bot", "%s has no bot \"%s\" (rules.bots.%s)", f->rt.rules->rs->id, name,
                      name);
            break;
        }
        if (counted) sandbox_set_timed(f->rt.sb, 0);
        int st = sandbox_call(f->rt.sb, lua_gettop(L) - top - 1, 1, errs);
        if (counted) sandbox_set_timed(f->rt.sb, 1);
        if (st == SANDBOX_RETRY) { /* ran long: again, counted (it changes nothing) */
            lua_settop(L, top);
            continue;
        }
        if (st != SANDBOX_OK) break;
        if (lua_type(L, -1) != LUA_TSTRING) {
            cerr_addk(errs, NULL, 0, 0, NULL, "fork.bot_not_id", "bot %s must return one of the option ids, not %s", name,
                      luaL_typename(L, -1));
        } else {
            const char *id = lua_tostring(L, -1);
            for (size_t k = 0; k < c->n_ids && !out; k++)
                if (!strcmp(c->ids[k], id) && !(out = cairn_strdup(id))) errs->oom = 1;
            if (!out && !errs->oom) {
                char seat_text[24];
                snprintf(seat_text, sizeof seat_text, "%d", c->seat);
                cerr_addk(errs, NULL, 0, 0, NULL, "fork.bot_chose",
                          "bot %s chose \"%s\", which seat %s may not choose now", name, id, seat_text);
            }
        }
        break;
    }
    lua_settop(L, top);
    return out;
}

char *engine_ruleset_bot(engine *e, const char *name, int seat, uint64_t reseed, cerr_list *errs) {
    int secret = engine_has_secrets(e);
    if (secret && !engine_has_handler(e, H_DETERMINIZE)) {
        cerr_addk(errs, NULL, 0, 0, NULL, "fork.bot_secrets",
                  "bot %s: %s keeps secrets and has no determinize hook, so its own bots could only run "
                  "beside the true state; they are refused (docs/bots.md)", name, e->rt.rules->rs->id);
        return NULL;
    }
    value *view = engine_view(e, seat);
    size_t n = engine_bot_option_count(e, seat);
    char **ids = calloc(n ? n : 1, sizeof *ids);
    char *out = NULL;
    int bad = !view || !ids;
    for (size_t k = 0; k < n && !bad; k++) {
        const char *id = engine_bot_option_id(e, seat, k);
        bad = !(ids[k] = cairn_strdup(id ? id : ""));
    }
    if (bad) {
        errs->oom = 1;
    } else {
        /* a fork with a sandbox of its own: a state sampled from the view
        ** (or, in a game without secrets, the position itself), so that
        ** nothing the rules keep can lead the bot to the true state, and
        ** nothing the bot does reaches the game */
        engine *f = secret ? engine_fork_sampled(e, view, seat, reseed ? reseed : 1, errs)
                           : engine_fork(e, reseed ? reseed : 1, errs);
        if (f) {
            rbot_ctx c = {f, name, view, ids, n, seat, 0};
            out = run_rbot(&c, errs);
            engine_free(f);
        }
    }
    for (size_t k = 0; ids && k < n; k++) free(ids[k]);
    free(ids);
    value_free(view);
    return out;
}
