/*
** tools/bench/bots.c
** `make bench`'s bot section: cairn's mcts iterations per CPU-second on
** Connect Four, Yak 4, Himalaya 6 and Kathmandu 4 against a UCT written in
** plain Lua over the same rules in the same process (tools/bench/uct.lua),
** measured in alternating slices (as paired.c measures Connect Four): a
** slice of cairn's search (one bot_choose of BOTS_SLICE iterations, on one
** core), then one of the plain UCT's from the same position, again and
** again, each timed in the thread's CPU time. The position: seed 1, random
** moves until decision BOTS_AT or later asks a seat with more than one
** option; in a game with secrets both sample every iteration's state from
** that seat's view with the ruleset's determinize. docs/bench.md, "Bots".
** BENCH_BOTS_SLICE changes the slice (default BOTS_SLICE) and
** BENCH_BOTS_SPEC adds parameters to cairn's mcts (`pool=16,searches=1`),
** for measuring a bot's options; the default run is neither.
*/
#include "bench.h"
#include "bot.h"
#include "luaval.h"
#include "ruleset.h"

#include <lauxlib.h>
#include <lualib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BOTS_SLICE 100      /* iterations per slice, on each side (BENCH_BOTS_SLICE) */
#define BOTS_AT 8           /* the position: at least this many decisions in */
#define BOTS_UCT_LUA "tools/bench/uct.lua"
#define BOTS_STDLIB "stdlib"

static const struct {
    const char *ruleset;
    int seats;
} bot_games[] = {{"connect4", 2}, {"yak", 4}, {"himalaya", 6}, {"kathmandu", 4}};
#define N_BOT_GAMES (sizeof bot_games / sizeof bot_games[0])

/* A plain Lua state with the ruleset's rules loaded and the plain UCT's
** search function at index 1; NULL after bench_fail. */
static lua_State *plain_open(const ruleset *rs, int seats) {
    lua_State *L = luaL_newstate();
    if (!L) return bench_fail("no memory for a Lua state"), NULL;
    luaL_openlibs(L);
    luaL_Buffer b;
    lua_getglobal(L, "package");
    luaL_buffinit(L, &b);
    for (size_t i = 0; i < rs->n_module_dirs; i++) {
        luaL_addstring(&b, rs->module_dirs[i]);
        luaL_addstring(&b, "/?.lua;");
    }
    luaL_addstring(&b, BOTS_STDLIB "/?.lua");
    luaL_pushresult(&b);
    lua_setfield(L, -2, "path");
    lua_pop(L, 1);
    const char *path = value_get_str(rs->manifest, "rules", "rules.lua"); /* resolved by the loader */
    int bad = luaL_loadfile(L, BOTS_UCT_LUA) != LUA_OK || lua_pcall(L, 0, 1, 0) != LUA_OK; /* new */
    bad = bad || luaL_loadfile(L, path) != LUA_OK || lua_pcall(L, 0, 1, 0) != LUA_OK;     /* rules */
    if (!bad) {
        bad = luaval_push(L, rs->data) != 0 || luaval_push(L, rs->options) != 0;
        lua_createtable(L, seats, 0);
        for (int s = 1; s <= seats; s++) {
            lua_createtable(L, 0, 1);
            lua_pushfstring(L, "Seat %d", s);
            lua_setfield(L, -2, "name");
            lua_rawseti(L, -2, s);
        }
        bad = bad || lua_pcall(L, 4, 1, 0) != LUA_OK || !lua_isfunction(L, -1);
    }
    if (bad) {
        bench_fail("bots: the plain UCT on %s: %s", rs->id, lua_isstring(L, -1) ? lua_tostring(L, -1) : "failed");
        lua_close(L);
        return NULL;
    }
    return L;
}

/* One slice of the plain UCT; its CPU seconds, or -1 after bench_fail. */
static double plain_slice(lua_State *L, const value *state, const value *view, int seat, long slice, long depth,
                          uint64_t seed) {
    lua_settop(L, 1);
    lua_pushvalue(L, 1);
    if (luaval_push(L, state) != 0 || (view ? luaval_push(L, view) : (lua_pushnil(L), 0)) != 0) {
        bench_fail("bots: out of memory");
        return -1;
    }
    lua_pushinteger(L, seat);
    lua_pushinteger(L, slice);
    lua_pushinteger(L, depth);
    lua_pushinteger(L, (lua_Integer)seed);
    double c0 = bench_cpu_now();
    int rc = lua_pcall(L, 6, 1, 0);
    double cpu = bench_cpu_now() - c0;
    if (rc != LUA_OK) {
        bench_fail("bots: the plain UCT: %s", lua_isstring(L, -1) ? lua_tostring(L, -1) : "failed");
        return -1;
    }
    return cpu;
}

/* The game at its bench position: the seat to search for, or 0. */
static int position(engine *e) {
    for (int k = 0; k < 10000 && !engine_is_over(e); k++) {
        int seat = engine_next_bot_seat(e);
        for (int s = 1; !seat && s <= engine_seat_count(e); s++)
            if (engine_is_asked(e, s)) seat = s;
        if (!seat) return 0;
        if (k >= BOTS_AT && engine_bot_option_count(e, seat) > 1) return seat;
        if (engine_bot_move(e, seat, NULL) != ENGINE_OK) return 0;
    }
    return 0;
}

int bots_bench(double seconds, bots_result *out, size_t *n_out) {
    *n_out = 0;
    const char *only = getenv("BENCH_ONLY") && *getenv("BENCH_ONLY") ? getenv("BENCH_ONLY") : NULL;
    const char *extra = getenv("BENCH_BOTS_SPEC") && *getenv("BENCH_BOTS_SPEC") ? getenv("BENCH_BOTS_SPEC") : NULL;
    const char *slice_env = getenv("BENCH_BOTS_SLICE");
    long slice = slice_env && *slice_env ? strtol(slice_env, NULL, 10) : BOTS_SLICE;
    if (slice < 1 || slice > 1000000) {
        bench_fail("bots: BENCH_BOTS_SLICE takes iterations from 1 to 1000000, got \"%s\"", slice_env);
        return -1;
    }
    char spec[256];
    int w = snprintf(spec, sizeof spec, "mcts:iterations=%ld,cores=1%s%s", slice, extra ? "," : "", extra ? extra : "");
    if (w < 0 || (size_t)w >= sizeof spec) {
        bench_fail("bots: BENCH_BOTS_SPEC is too long");
        return -1;
    }
    for (size_t g = 0; g < N_BOT_GAMES; g++) {
        if (only && !bench_listed(only, bot_games[g].ruleset)) continue;
        bots_result *r = &out[(*n_out)++];
        memset(r, 0, sizeof *r);
        r->ruleset = bot_games[g].ruleset;
        r->seats = bot_games[g].seats;
        r->slice = slice;
        snprintf(r->spec, sizeof r->spec, "%s", spec);
        cerr_list errs;
        cerr_init(&errs, 0);
        engine_config c;
        memset(&c, 0, sizeof c);
        c.ruleset = r->ruleset;
        c.players = r->seats;
        c.seed = 1;
        engine *e = engine_new(&c, &errs);
        int seat = e ? position(e) : 0;
        /* cores=1: every search of the slice in this thread, whose CPU time is
        ** what is counted (a worker process's would not be: the first slice,
        ** before the bot knows an iteration's cost, forked one for half) */
        bot *b = seat ? bot_new(spec, &errs) : NULL;
        const ruleset *rs = e ? engine_ruleset(e) : NULL;
        lua_State *L = b ? plain_open(rs, r->seats) : NULL;
        value *view = L && engine_has_secrets(e) ? engine_view(e, seat) : NULL;
        const value *state = e ? engine_state(e) : NULL;
        const value *bd = rs ? value_map_get(rs->manifest, "bot_defaults") : NULL;
        long depth = bd ? (long)value_get_int(bd, "depth", CAIRN_BOT_DEPTH) : CAIRN_BOT_DEPTH;
        if (!L || !state || (engine_has_secrets(e) && !view)) {
            if (!L) bench_fail("bots: %s %d seats: %s", r->ruleset, r->seats,
                               errs.n ? errs.items[0].message : "no position to search");
        } else {
            double t0 = bench_now();
            uint64_t seed = 1;
            while (r->slices == 0 || bench_now() - t0 < seconds) {
                double c0 = bench_cpu_now();
                char *id = bot_choose(b, e, seat, NULL, &errs);
                r->cairn_cpu += bench_cpu_now() - c0;
                free(id);
                if (!id) {
                    bench_fail("bots: %s: %s", r->ruleset, errs.n ? errs.items[0].message : "no choice");
                    break;
                }
                double p = plain_slice(L, state, view, seat, slice, depth, seed++);
                if (p < 0) break;
                r->plain_cpu += p;
                r->slices++;
            }
            r->depth = depth;
            r->cairn_rate = r->cairn_cpu > 0 ? (double)(r->slices * slice) / r->cairn_cpu : 0;
            r->plain_rate = r->plain_cpu > 0 ? (double)(r->slices * slice) / r->plain_cpu : 0;
            r->ratio = r->plain_rate > 0 ? r->cairn_rate / r->plain_rate : 0;
            r->ok = r->slices > 0 && !bench_failure_count();
        }
        value_free(view);
        if (L) lua_close(L);
        bot_free(b);
        engine_free(e);
        cerr_free(&errs);
    }
    return 0;
}

void bots_print(const bots_result *r, size_t n) {
    printf("\nbots: mcts iterations per CPU-second, cairn against a UCT in plain Lua over the same rules\n"
           "(tools/bench/uct.lua), alternating slices of %ld iterations, from one position per game:\n",
           n ? r[0].slice : (long)BOTS_SLICE);
    if (n && (r[0].slice != BOTS_SLICE || getenv("BENCH_BOTS_SPEC"))) printf("  (cairn's bot: %s)\n", r[0].spec);
    printf("  %-14s %6s %7s %12s %12s %8s %s\n", "game", "depth", "slices", "cairn it/s", "plain it/s", "ratio",
           "target >= 0.5");
    for (size_t i = 0; i < n; i++)
        printf("  %-10s %3d %6ld %7ld %12.0f %12.0f %8.3f %s\n", r[i].ruleset, r[i].seats, r[i].depth,
               r[i].slices, r[i].cairn_rate, r[i].plain_rate, r[i].ratio,
               !r[i].ok ? "n/a" : r[i].ratio >= 0.5 ? "pass" : "MISS");
}
