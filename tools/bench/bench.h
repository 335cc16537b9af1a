/*
** tools/bench/bench.h
** `make bench`: what the parts of the bench share. main.c runs the
** measurements in order and prints the table; baseline.c runs the plain-Lua
** and native-C Connect Four baselines; games.c plays cairn games through the
** public engine API (throughput, Lua share, budget cost, REPL latency, undo,
** goto, reload); memory.c runs the forked children (long-game search, peak
** RSS, RSS growth) and the check timing; report.c writes bench.json.
** docs/bench.md says what each figure means.
*/
#ifndef CAIRN_BENCH_H
#define CAIRN_BENCH_H

#include <stddef.h>
#include <stdint.h>

#include "engine.h"

/* ------------------------------------------------------------ settings */

typedef struct bench_settings {
    double seconds;        /* BENCH_SECONDS: time per throughput figure */
    long c4_games;         /* BENCH_C4_GAMES: games of the RSS-growth run */
    double c4_seconds;     /* BENCH_C4_SECONDS: time cap of the RSS-growth run */
    int long_seeds;        /* BENCH_LONG_SEEDS: seeds searched for a long game */
    const char *json_path; /* BENCH_JSON */
    const char *only;      /* BENCH_ONLY: comma-separated rulesets, or NULL for all */
} bench_settings;

/* The ruleset and seat count whose games are long enough for the figures
** "at decision 500", and that decision. */
#define BENCH_LONG_RULESET "yak"
#define BENCH_LONG_SEATS 4
#define BENCH_LONG_AT 500

/* The plain-Lua baseline, read at run time (from the repository root). */
#define BENCH_BASELINE_LUA "tools/bench/connect4.lua"

/* The bound on RSS growth over the connect4 run (docs/bench.md says why). */
#define BENCH_RSS_GROWTH_MAX_KIB 1024

/* ----------------------------------------------------------- utilities */

/* Whether NAME is one of the comma-separated names of LIST (BENCH_ONLY). */
int bench_listed(const char *list, const char *name);
double bench_now(void);     /* monotonic seconds */
double bench_cpu_now(void); /* this thread's CPU time, seconds */
long bench_rss_kib(void); /* resident set now (/proc/self/statm), -1 unknown */
double bench_percentile(double *v, size_t n, double p); /* sorts v; 0 when n == 0 */
/* Records a failed game or measurement: printed to stderr at once, kept for
** bench.json, and makes the exit status 1. */
void bench_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
size_t bench_failure_count(void);
const char *bench_failure(size_t i);

/* ---------------------------------------------------------- baselines */

typedef struct c4_tally {
    long games, decisions, wins1, wins2, draws;
} c4_tally;

/* tools/bench/connect4.c: n games from seed, into out. */
void c4_native_play(long n, uint64_t seed, c4_tally *out);

typedef struct rate {
    long games, decisions;
    double seconds;     /* wall time */
    double cpu_seconds; /* the thread's CPU time */
} rate;

/* Per second of the thread's CPU time (time the neighbours took on the core
** is not counted); 0 when no time. */
double rate_games(const rate *r);
double rate_decisions(const rate *r);

typedef struct baseline_result {
    rate lua, native;
    int agree; /* both played the same games from the same seed */
    c4_tally lua_check, native_check;
} baseline_result;

/* Runs both baselines for `seconds` each. Returns 0, or -1 after
** bench_fail (the Lua file does not load or fails). */
int baseline_run(double seconds, baseline_result *out);

/* The plain-Lua baseline in pieces, for paired.c: a state holding the play
** function (NULL after bench_fail), n games from seed (0, or -1 after
** bench_fail), and the state closed. */
struct lua_State;
struct lua_State *baseline_lua_open(void);
int baseline_lua_games(struct lua_State *L, long n, uint64_t seed, c4_tally *out);
void baseline_lua_close(struct lua_State *L);

/* --------------------------------------------------------- cairn games */

typedef struct game_config {
    const char *ruleset;
    int seats;
    int playout; /* random playouts as cairn sim plays them: the ruleset loaded once
                    (engine_rules), fast games, engine_bot_move; 0: as the REPL plays */
} game_config;

typedef struct throughput {
    rate with_budget;           /* unprofiled, budget on: the games/s figure */
    rate no_budget;             /* the same seeds with cfg.no_budget, interleaved */
    double budget_ratio;        /* CPU seconds with budget / CPU seconds without */
    rate profiled;              /* a separate run with engine_set_profiling */
    double start_seconds;       /* of profiled: time inside engine_new */
    double loop_seconds;        /* of profiled: the decision loop after engine_new */
    double handler_seconds;     /* of profiled: engine_stats.handler_ns */
    double lua_share;           /* handler / loop */
    double overhead;            /* loop / handler */
    double overhead_with_start; /* (start + loop) / handler */
    int ok;                     /* every game ran */
} throughput;

/* Returns 0, or -1 after bench_fail. */
int games_throughput(const game_config *g, double seconds, throughput *out);

/* One seeded game as games_throughput plays it (budget on, not profiled):
** its decisions and the thread's CPU time from engine_new to engine_free.
** 0, or -1 after bench_fail. */
int games_play_timed(const game_config *g, uint64_t seed, long *decisions, double *cpu);

/* tools/bench/paired.c: cairn's Connect Four against the plain-Lua baseline
** in alternating slices, each side in the thread's CPU time, so that both
** see the same machine at the same moments. */
typedef struct paired {
    rate lua, cairn; /* seconds: CPU time */
    long slices;
    double ratio; /* cairn games per CPU second over the baseline's */
    int ok;
} paired;

/* About `seconds` of alternating slices; 0, or -1 after bench_fail. */
int paired_connect4(const game_config *g, double seconds, paired *out);

typedef struct latency {
    size_t samples;
    long games;
    double p50_ms, p99_ms, max_ms;             /* wall time */
    double cpu_p50_ms, cpu_p99_ms, cpu_max_ms; /* the thread's CPU time */
    int ok; /* every game ran */
} latency;

/* What the REPL does per answer, timed per decision. 0 or -1. */
int games_repl_latency(const game_config *g, double seconds, latency *out);

typedef struct long_game {
    uint64_t seed;
    long decisions;                   /* the whole game's */
    int searched;                     /* seeds tried */
    long at;                          /* the decision undo/goto were measured at */
    double undo_ms, redo_ms, goto_ms; /* medians */
    double reload_ms;                 /* median reload at the end of the game */
    long reload_replayed;
    long peak_rss_kib; /* of a forked child playing the game */
    long fork_rss_kib; /* that child's resident set when it started */
    int timed;         /* undo, redo, goto and reload all ran */
} long_game;

/* Plays the long game (seed already in out) and times undo, redo and goto at
** out->at and reload at the end. 0 or -1. */
int games_long_timings(long_game *out);

/* Starts a seeded game with a random bot in every seat; NULL after bench_fail. */
engine *games_start(const game_config *g, uint64_t seed, int no_budget);
/* One bot decision: 1 made, 0 the game is over, -1 after bench_fail. */
int games_step(engine *e, const game_config *g, uint64_t seed);
/* Plays to the end; returns the decisions made or -1 after bench_fail. */
long games_play_out(engine *e, const game_config *g, uint64_t seed);
/* Frees the rulesets loaded for playouts. */
void games_forget(void);

/* -------------------------------------------------------------- memory */

#define RSS_MAX_SAMPLES 16

typedef struct rss_growth {
    long target, games;
    int complete; /* all target games played within the time cap */
    double seconds;
    size_t n_samples;
    long sample_games[RSS_MAX_SAMPLES];
    long sample_kib[RSS_MAX_SAMPLES];
    long warm_games;                    /* games played before the first sample */
    long warm_kib, end_kib, growth_kib; /* growth: end - warm */
} rss_growth;

/* A forked child; the parent reads its answer with *_finish. */
typedef struct child {
    int pid, fd;
} child;

int memory_rss_growth_start(const bench_settings *s, child *c);
int memory_rss_growth_finish(child *c, rss_growth *out);
int memory_long_search_start(const bench_settings *s, child *c);
int memory_long_search_finish(child *c, long_game *out);
typedef struct peak_rss {
    long decisions; /* of the game played */
    long peak_kib;  /* ru_maxrss of the child that played it */
    long fork_kib;  /* that child's resident set when it started */
} peak_rss;

/* Peak RSS of a forked child playing seed to the end. 0, or -1 after
** bench_fail (out is then zero). */
int memory_peak_rss(const game_config *g, uint64_t seed, peak_rss *out);

typedef struct check_time {
    double ms; /* median CPU time of `cairn check NAME --games 0`, a child process */
    int runs;
} check_time;

int memory_check_time(const char *name, check_time *out);

/* ------------------------------------------------------------- report */

typedef struct target {
    char name[64];
    const char *what; /* what the figure is, with its unit */
    double figure;
    double limit;
    double goal;  /* 0: none */
    int at_least; /* 1: figure >= limit passes; 0: figure <= limit (or <) */
    int strict;   /* with !at_least: figure < limit */
    int measured; /* 0: the measurement did not run (pass is 0) */
    int pass;
} target;

typedef struct bench_report {
    const bench_settings *settings;
    int nproc;
    char cpu[128];
    double loadavg; /* 1-minute load average when the run started; -1 unknown */
    char date[32];
    baseline_result base;
    paired c4; /* connect4 against the plain-Lua baseline, alternating */
    game_config *configs;
    size_t n_configs;
    throughput *tp;
    latency *repl;
    peak_rss *peak; /* one game (seed 1) per ruleset and seat count */
    char **rulesets;
    size_t n_rulesets;
    check_time *check;
    long_game lg;
    rss_growth rss;
    target *targets;
    size_t n_targets;
} bench_report;

/* Writes bench.json; 0, or -1 after bench_fail. */
int report_json(const bench_report *r, const char *path);

/* ---------------------------------------------------------------- bots */

#define BENCH_STR_(x) #x
#define BENCH_STR(x) BENCH_STR_(x)

/* tools/bench/bots.c: one game's mcts iterations per CPU-second, cairn's
** and the plain-Lua UCT's (tools/bench/uct.lua), in alternating slices. */
typedef struct bots_result {
    const char *ruleset;
    int seats;
    long depth, slices;
    long slice;       /* iterations per slice (BENCH_BOTS_SLICE) */
    char spec[256];   /* cairn's bot (BENCH_BOTS_SPEC added) */
    double cairn_cpu, plain_cpu, cairn_rate, plain_rate, ratio;
    int ok;
} bots_result;
#define BENCH_BOT_GAMES 4
/* Fills out[0..BENCH_BOT_GAMES) and *n; each game takes about seconds. */
/* The bot games BENCH_ONLY names (all when it is unset) are measured. */
int bots_bench(double seconds, bots_result *out, size_t *n);
void bots_print(const bots_result *r, size_t n);

#endif
