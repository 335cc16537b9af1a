/*
** tools/bench/baseline.c
** The two Connect Four baselines: tools/bench/connect4.lua run in a plain
** Lua state (luaL_newstate + luaL_openlibs: no sandbox, no budget, no
** engine), and tools/bench/connect4.c. Each plays batches of games for the
** time given; both first play the same seeded games to show they agree.
*/
#include "bench.h"

#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>

#define BATCH 200        /* games per call into the baseline */
#define AGREE_GAMES 1000 /* games both play from AGREE_SEED */
#define AGREE_SEED 42

/* Calls the play function (at stack index 1) for n games from seed. */
static int lua_play(lua_State *L, long n, uint64_t seed, c4_tally *out) {
    if (n < 1) return *out = (c4_tally){0}, 0;
    lua_pushvalue(L, 1);
    lua_pushinteger(L, (lua_Integer)n);
    lua_pushinteger(L, (lua_Integer)seed);
    if (lua_pcall(L, 2, 5, 0) != LUA_OK) {
        bench_fail("%s: %s", BENCH_BASELINE_LUA, lua_isstring(L, -1) ? lua_tostring(L, -1) : "error");
        lua_settop(L, 1);
        return -1;
    }
    long v[5];
    for (int i = 0; i < 5; i++) {
        int ok = 0;
        v[i] = (long)lua_tointegerx(L, i - 5, &ok);
        if (!ok) {
            bench_fail("%s: play() did not return 5 integers", BENCH_BASELINE_LUA);
            lua_settop(L, 1);
            return -1;
        }
    }
    lua_settop(L, 1);
    *out = (c4_tally){v[0], v[1], v[2], v[3], v[4]};
    return 0;
}

static void add(rate *r, const c4_tally *t) {
    r->games += t->games;
    r->decisions += t->decisions;
}

static int same(const c4_tally *a, const c4_tally *b) {
    return a->games == b->games && a->decisions == b->decisions && a->wins1 == b->wins1 &&
           a->wins2 == b->wins2 && a->draws == b->draws;
}

lua_State *baseline_lua_open(void) {
    lua_State *L = luaL_newstate();
    if (!L) {
        bench_fail("no memory for a Lua state");
        return NULL;
    }
    luaL_openlibs(L);
    if (luaL_loadfile(L, BENCH_BASELINE_LUA) != LUA_OK || lua_pcall(L, 0, 1, 0) != LUA_OK ||
        !lua_isfunction(L, -1)) {
        bench_fail("%s: %s", BENCH_BASELINE_LUA,
                   lua_isstring(L, -1) ? lua_tostring(L, -1) : "does not return a function");
        lua_close(L);
        return NULL;
    }
    lua_settop(L, 1); /* the play function at index 1, as lua_play wants it */
    return L;
}

int baseline_lua_games(lua_State *L, long n, uint64_t seed, c4_tally *out) {
    return lua_play(L, n, seed, out);
}

void baseline_lua_close(lua_State *L) {
    if (L) lua_close(L);
}

int baseline_run(double seconds, baseline_result *out) {
    *out = (baseline_result){0};
    lua_State *L = baseline_lua_open();
    if (!L) return -1;
    int rc = lua_play(L, AGREE_GAMES, AGREE_SEED, &out->lua_check);
    c4_native_play(AGREE_GAMES, AGREE_SEED, &out->native_check);
    out->agree = rc == 0 && same(&out->lua_check, &out->native_check);
    if (rc == 0 && !out->agree)
        bench_fail(
            "the Lua and C baselines disagree on %d games from seed %d: %ld vs %ld decisions",
            AGREE_GAMES, AGREE_SEED, out->lua_check.decisions, out->native_check.decisions);
    uint64_t seed = 1;
    double t0 = bench_now(), c0 = bench_cpu_now();
    while (rc == 0 && bench_now() - t0 < seconds) {
        c4_tally b;
        rc = lua_play(L, BATCH, seed++, &b);
        add(&out->lua, &b);
    }
    out->lua.seconds = bench_now() - t0;
    out->lua.cpu_seconds = bench_cpu_now() - c0;
    lua_close(L);
    t0 = bench_now(), c0 = bench_cpu_now();
    while (bench_now() - t0 < seconds) {
        c4_tally b;
        c4_native_play(BATCH, seed++, &b);
        add(&out->native, &b);
    }
    out->native.seconds = bench_now() - t0;
    out->native.cpu_seconds = bench_cpu_now() - c0;
    return rc == 0 && out->agree ? 0 : -1;
}
