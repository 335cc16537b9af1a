/*
** tools/bench/paired.c
** The Connect Four ratio to the plain-Lua baseline, measured in alternating
** slices: a batch of baseline games, then a batch of cairn games, again and
** again, each side timed in the thread's CPU time. A ratio of two runs made
** one after the other swings with whatever the machine did in between (the
** baseline alone measured 20,000 to 25,000 games/s in three runs a minute
** apart); slices a few milliseconds long see the same machine on both sides.
*/
#include "bench.h"

/* Games per slice: the baseline's, and cairn's (about half as fast), so a
** slice is a few milliseconds on each side. */
#define LUA_SLICE_GAMES 100
#define CAIRN_SLICE_GAMES 50

int paired_connect4(const game_config *g, double seconds, paired *out) {
    *out = (paired){0};
    struct lua_State *L = baseline_lua_open();
    if (!L) return -1;
    uint64_t lua_seed = 1, cairn_seed = 1;
    int rc = 0;
    double t0 = bench_now();
    while (rc == 0 && (out->slices == 0 || bench_now() - t0 < seconds)) {
        c4_tally t;
        double c0 = bench_cpu_now();
        rc = baseline_lua_games(L, LUA_SLICE_GAMES, lua_seed, &t);
        out->lua.cpu_seconds += bench_cpu_now() - c0;
        lua_seed += LUA_SLICE_GAMES;
        out->lua.games += t.games;
        out->lua.decisions += t.decisions;
        for (int i = 0; rc == 0 && i < CAIRN_SLICE_GAMES; i++) {
            long decisions;
            double cpu;
            rc = games_play_timed(g, cairn_seed++, &decisions, &cpu);
            out->cairn.games++;
            out->cairn.decisions += decisions;
            out->cairn.cpu_seconds += cpu;
        }
        out->slices++;
    }
    baseline_lua_close(L);
    out->lua.seconds = out->cairn.seconds = bench_now() - t0; /* both, together */
    double lua_rate = rate_games(&out->lua);
    out->ratio = lua_rate > 0 ? rate_games(&out->cairn) / lua_rate : 0;
    out->ok = rc == 0;
    return rc;
}
