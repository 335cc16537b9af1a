/*
** sim_internal.h
** What the modules of `cairn sim` share: a game's record (sim_record.c),
** the worker processes that play games in order (sim_jobs.c), the totals
** and comparisons (sim_totals.c), and the report (sim_report.c). Nothing
** here is for callers outside sim.
*/
#ifndef CAIRN_SIM_INTERNAL_H
#define CAIRN_SIM_INTERNAL_H

#if !defined(CAIRN_FOLDER_sim)
#error "sim_internal.h is for interpreter/sim/ only: include its public header"
#endif

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "sim.h"
#include "bot.h"
#include "ruleset.h"
#include "json_string.h"
#include "stats.h"
#include "value.h"
#include "limits.h"
#include "sim_keyindex.h"

/* -------------------------------------------------------- sim_flags.c */

/* What the flags of one run asked for. */
/* The lab's questions about skilled play (sim_lab_flags.c). */
typedef struct sim_lab_opts {
    const char *tournament; /* --tournament SPEC,SPEC,...: the bots, rotated over the seats */
    const char *skill;      /* --skill KIND:PARAM=V1,V2,...: the levels */
    const char *field;      /* --field BOT: who --skill's levels play against */
    int trajectory;         /* --trajectory round|N: 0 off, -1 each round, N every N decisions */
    const char *report;     /* --report FILE.html */
    double until_width;     /* --until-width W: 0 off */
    const char *factorial;  /* --factorial OPT,OPT[,OPT]: every combination, main effects */
    const char *tune, *target; /* --tune DATA.PATH=LO..HI --target '...' */
    FILE *tune_err;            /* where --tune's runs say what went wrong */
    const char *command;    /* the command line, shell-quoted (for the report) */
} sim_lab_opts;

typedef struct sim_opts {
    const char *ruleset;
    ruleset_flags flags;            /* --option, --preset, --players (0: the ruleset's default) */
    long games;
    uint64_t seed;
    int checks, quiet, jobs;        /* jobs 0: the cores */
    long shard_k, shard_n;          /* --shard K/N; 0/0: the whole run */
    const char *json, *csv;
    const char *starter;            /* the state field naming the first seat */
    int starter_given;              /* --starter: the field, not the ruleset's start_seat(g) */
    const char *compare[2];         /* --compare A B; NULL: one variant */
    const char *sweep;              /* --sweep KEY=V1,V2,...: one variant per value */
    const char *bot[CAIRN_MAX_SEATS]; /* each seat's bot kind (NULL: "random"); see sim_choose */
    char *bot_spec[CAIRN_MAX_SEATS];  /* --bots: the specs, owned (bot[] points at them) */
    int n_bots;
    bot *bots[CAIRN_MAX_SEATS];       /* the search bots, made once before the games (NULL: random) */
    const char *ban[CAIRN_MAX_SEATS]; /* --ban SEAT:PREFIX: that seat never takes such an option */
    int coverage;                   /* --coverage */
    const char *find;               /* --find EXPR */
    int leads;                      /* --leads: score(g) after every decision */
    const char *set[CAIRN_SIM_MAX_SETS];  /* --set DATA.PATH=VALUE, for every variant */
    size_t n_sets;
    sim_lab_opts lab;               /* --tournament ... (sim_lab_flags.c) */
} sim_opts;

/* Fills o from argv. Returns 0, 1 when out of memory, or 2 after printing
** a usage error. o->flags must be freed in every case. */
int sim_parse(int argc, char **argv, sim_opts *o, FILE *err);

/* The version of the --json and --csv layouts (docs/simulation.md). */
#define SIM_FORMAT_VERSION 1

/* ------------------------------------------------------- sim_record.c */

typedef struct sim_item {
    char *key;
    int64_t points;
} sim_item;

typedef struct sim_seatrec {
    int64_t total;
    int rank;
    sim_item *items;
    size_t n_items;
} sim_seatrec;

/* How often options whose id starts with `prefix` (the id up to its first
** digit: "drop 4" and "build 2 3" count as "drop" and "build", "card stupa"
** as itself) were offered enabled, offered disabled, and taken. */
typedef struct sim_cov {
    char *prefix;
    long offered, disabled, taken;
    long games_offered, games_taken; /* in totals: games with any */
    unsigned long took;              /* in a record: the seats that took it (bit s-1 for seat s) */
    double with_wins, without_wins;  /* in totals: the win shares of the seats that took it, and not */
    long with_n, without_n;          /* in totals: such seats (one per seat and game) */
} sim_cov;

/* A seat's time in one game: the decisions it made and the CPU they took
** (the bot's choice and its move applied). It travels from a worker to the
** parent but is never written to --json records: it differs between runs. */
typedef struct sim_cpu {
    long asked;
    int64_t ns;
} sim_cpu;

/* --trajectory: a game's figures at each point (the end of each round, or
** every N decisions): the seats' provisional scores ("score", seat) and
** the ruleset's metrics(g) (name, seat; seat 0 for the whole game). A
** figure a point lacks counts 0. */
typedef struct sim_traj {
    int every;           /* 0: at the end of each round (state.round); N: every N decisions */
    int n_cols;
    char **name;         /* n_cols names */
    int *seat;           /* n_cols seats (0: the game) */
    long n_points;
    int64_t *v;          /* n_points rows of n_cols */
} sim_traj;

/* One game's result, all a report needs: integers and strings only, so it
** travels through a pipe or a JSON part without loss. */
typedef struct sim_rec {
    long index;          /* 0-based game number in the run */
    int variant;         /* 0; with --compare, 0 is A and 1 is B */
    uint64_t seed;
    int ok;
    long decisions;      /* decisions made (for a failure: before it) */
    long rounds;         /* g.state.round at the end; -1 when there is none */
    int starter;         /* the seat that started (state field); 0 unknown */
    long branch;         /* enabled options summed over the decisions */
    int n;               /* seats */
    sim_seatrec *seats;  /* seats[i] is seat i+1 (ok games only) */
    char *error;         /* a failure's message; in a game that finished, --find's */
    int found;           /* with --find: 1 it held at the end, 0 not, -1 it failed */
    long leads;          /* with --leads: lead changes; -1 off, or score(g) failed mid-game */
    sim_cov *cov;        /* with --coverage: per option id prefix */
    size_t n_cov;
    sim_keyindex cov_index; /* cov by prefix (sim_keyindex.h) */
    sim_cpu *cpu;        /* per seat, n_cpu of them; NULL once counted */
    int n_cpu;
    sim_traj *traj;      /* with --trajectory; NULL off, or when score(g) failed mid-game */
    int traj_failed;     /* 1: score(g) or metrics(g) failed mid-game (with *error's reason kept out) */
} sim_rec;

/* The entry of id's prefix (up to its first digit) in *cov, added when
** new, found through idx (the index of *cov). NULL on OOM. */
sim_cov *sim_cov_get(sim_cov **cov, size_t *n, sim_keyindex *idx, const char *id);

void sim_rec_free(sim_rec *r); /* the contents; NULL-safe */
/* r as one line of JSON (no newline), malloc'd; NULL on OOM. */
char *sim_rec_json(const sim_rec *r);
/* Fills r from a record's JSON tree. 0, or -1 when v is not one. */
int sim_rec_from_value(const value *v, sim_rec *r);
/* The same from one line of text. */
int sim_rec_parse(const char *line, size_t len, sim_rec *r);
/* JSON strings are written by json_string.h's writer (json_string_writez). */

/* ---------------------------------------------------- sim_trajectory.c */

struct engine;
/* Appends a point to r->traj (made on the first, with `every`): the scores
** now and metrics(g). 0; -1 when score(g) or metrics(g) failed (the
** trajectory is dropped, r->traj_failed set) or on OOM (*oom set). */
int sim_traj_sample(sim_rec *r, struct engine *e, int every, int *oom);
void sim_traj_free(sim_traj *t); /* NULL-safe */
/* The record's "traj" member (", \"traj\": {...}") into f, when it has one. */
void sim_traj_json(FILE *f, const sim_rec *r);
/* r->traj from a record's "traj" member (absent: none). 0, or -1 when bad. */
int sim_traj_from_value(const value *rec, sim_rec *r);

/* The trajectories of a run summed: per point, per figure. */
typedef struct sim_traj_col {
    char *name;
    int seat;
    stats_acc *at; /* per point */
} sim_traj_col;

typedef struct sim_traj_totals {
    int every;
    long points;              /* the most any game reached */
    long *games;              /* per point: games that reached it */
    stats_acc *lead;          /* per point: the best score minus the next */
    double *leader_won;       /* per point: the sole leader's final share, summed */
    long *led;                /* per point: games with a sole leader */
    sim_traj_col *col;
    int n_cols;
} sim_traj_totals;

/* Adds r's trajectory (none: nothing) with its final win shares. 0, -1 OOM. */
int sim_traj_add(sim_traj_totals **tt, const sim_rec *r);
void sim_traj_totals_free(sim_traj_totals *tt); /* NULL-safe */
void sim_traj_report(FILE *out, const sim_traj_totals *tt, int seats);
/* The "trajectory" member of the JSON summary: an object, or null. */
void sim_traj_report_json(FILE *f, const sim_traj_totals *tt);

/* --------------------------------------------------------- sim_jobs.c */

/* Plays game `index` (variant v) into r; 0, or -1 only when out of memory
** (a failing game is a record with ok 0). */
typedef int (*sim_play_fn)(long index, int variant, sim_rec *r, void *ud);
/* Takes a finished record (ownership passes); 0 to go on. */
typedef int (*sim_sink_fn)(sim_rec *r, void *ud);

/* Set by the SIGINT handler sim installs for a run: stop after the games
** finished. Global because a signal handler can reach nothing else. */
extern volatile int sim_interrupted;

/* Plays games first..last-1, each in `variants` variants, in `jobs` worker
** processes (1: in this process), and hands the records to sink in the
** order (index, variant) whatever the jobs. Returns 0, 1 when interrupted
** (the finished records are handed on first), -1 after printing to err why
** the workers failed. */
int sim_jobs_run(long first, long last, int variants, int jobs, sim_play_fn play, sim_sink_fn sink,
                 void *ud, FILE *err);

/* ------------------------------------------------------- sim_totals.c */

typedef struct sim_hist {
    int64_t *value;
    long *count;
    size_t n, cap;
} sim_hist;

/* One label's points per seat: a game without the line counts 0. The
** first two values the line took (any seat, any game) and how often each
** seat had each are kept, so that a line with two values (a bonus won or
** not) gets Wilson's interval (sim_label_ci). */
typedef struct sim_label {
    char *key;
    double sum[CAIRN_MAX_SEATS], sumsq[CAIRN_MAX_SEATS];
    double val[2];                  /* the values seen, in the order met */
    int n_val;                      /* 0 to 2; 3 when a third value was seen */
    long at[CAIRN_MAX_SEATS][2];    /* games seat i had val[k] */
    long present[CAIRN_MAX_SEATS];  /* games seat i had the line at all */
    double least, most;             /* the extremes it took (n_val > 0) */
} sim_label;

typedef struct sim_totals {
    int seats;
    long games, failed, shared, with_rounds, with_starter;
    long other_starter; /* games a seat other than 1 started: else positions are the seats */
    stats_acc decisions, rounds, leads;
    double branch, margin;
    stats_acc score[CAIRN_MAX_SEATS];
    double share[CAIRN_MAX_SEATS], sharesq[CAIRN_MAX_SEATS]; /* wins, a tie split */
    sim_hist hist[CAIRN_MAX_SEATS];
    stats_acc pos_score[CAIRN_MAX_SEATS];                  /* by turn position */
    double pos_share[CAIRN_MAX_SEATS];
    sim_label *label;
    size_t n_labels;
    sim_keyindex label_index;                            /* label by key */
    long found, find_failed;                             /* --find */
    char *find_error;                                    /* the first failure's message */
    uint64_t *found_seeds;                               /* the first CAIRN_SIM_KEEP_FOUND */
    size_t n_found_seeds;
    sim_cov *cov;                                        /* --coverage, summed */
    size_t n_cov;
    sim_keyindex cov_index;
    sim_rec *fails;                                      /* the first few, kept */
    size_t n_fails;
    struct sim_traj_totals *traj;                        /* --trajectory, or NULL */
    sim_hist dec_hist;                                   /* decisions per game */
    long traj_failed;                                    /* games whose trajectory was dropped */
} sim_totals;

/* The paired differences B - A, one per figure. */
typedef struct sim_pair {
    char *name;   /* "win share", "score", "decisions", "rounds" or a breakdown key */
    int seat;     /* 0: the whole game; -1: a breakdown line's mean over the seats */
    stats_acc a, b, d;
} sim_pair;

typedef struct sim_compare {
    sim_totals t[2];
    sim_pair *pair;
    size_t n_pairs;
    long pairs;   /* games both variants finished */
    sim_rec held; /* variant A of the game whose B is next */
    int holding;
} sim_compare;

int sim_totals_init(sim_totals *t, int seats);
void sim_totals_free(sim_totals *t);
/* Adds one game (ok or failed). 0, or -1 on OOM. */
int sim_totals_add(sim_totals *t, const sim_rec *r);
/* The 95% interval of a breakdown line's mean for seat i (0-based) over
** t->games: Wilson's, scaled, when the line took two values in every seat
** and game (a game without it counting 0), else the t interval of its mean
** (stats_mean_ci) kept within the least and the most the line took in any
** seat (a bonus line's interval does not go below 0). *two (may be NULL)
** says which. */
stats_interval sim_label_ci(const sim_totals *t, const sim_label *l, int i, int *two);
/* The win share of each seat in the game r, in games (a 2-way tie: 0.5). */
void sim_rec_shares(const sim_rec *r, double *share);
int sim_compare_init(sim_compare *c, int seats);
void sim_compare_free(sim_compare *c);
/* Adds a record of variant A or B, in game order; B completes the pair. A
** is kept (moved out of r, which is then empty). 0, or -1 on OOM. */
int sim_compare_add(sim_compare *c, sim_rec *r);
/* Adds a record of a run with `variants` variants, in (game, variant)
** order: one variant goes to t; else variant 0 is A of every comparison in
** cmp (cmp[k-1] compares variant k with it) and variant k is B of cmp[k-1].
** r is used up. 0, or -1 on OOM. A run and `cairn sim merge` both add so. */
int sim_variants_add(sim_totals *t, sim_compare *cmp, int variants, sim_rec *r);
/* The variants of a --sweep KEY=V1,V2,...: its values. */
int sim_sweep_variants(const char *sweep);

/* ---------------------------------------------------------- sim_set.c */

/* A temporary mod of ruleset `base` (a name or a folder) with each
** "DATA.PATH=VALUE" of sets applied to its data files: the folder
** (malloc'd), or NULL after printing what is wrong and where. */
char *sim_set_mod(const char *base, const char *const *sets, size_t n_sets, FILE *err);
/* Removes the folder and frees the string (NULL-safe). */
void sim_set_remove(char *dir);

/* --------------------------------------------------------- sim_find.c */

typedef struct sim_find sim_find;
/* Compiles EXPR in a sandbox of its own. NULL after printing why. After a
** fork the copy in each worker is its own. */
sim_find *sim_find_new(const char *expr, FILE *err);
void sim_find_free(sim_find *f); /* NULL-safe */
/* Evaluates EXPR over the game's end (state, r's totals and decisions):
** 1 it held, 0 it did not, -1 with *why (malloc'd) when it failed. */
int sim_find_eval(sim_find *f, const value *state, const sim_rec *r, char **why);

/* ---------------------------------------------------------- sim_cpu.c */

/* Each seat's decisions and CPU over a run (what `cpu per decision` says). */
typedef struct sim_cpu_totals {
    long asked[CAIRN_MAX_SEATS];
    double ns[CAIRN_MAX_SEATS];
} sim_cpu_totals;

/* The thread's CPU time now, in nanoseconds. */
int64_t sim_cpu_now(void);
/* "cpu per decision: seat 1 (random) 0.004 ms, ..." after the time line,
** names[i] being seat i+1's bot. Nothing when no seat was asked. */
void sim_cpu_line(FILE *out, const sim_cpu_totals *c, const char *const *names, int seats);
/* The same as a JSON list [{seat, bot, decisions, ms_per_decision}]. */
void sim_cpu_json(FILE *f, const sim_cpu_totals *c, const char *const *names, int seats);

/* ---------------------------------------------------- sim_lab_flags.c */

/* The flags of the questions about skilled play (docs/simulation.md). */

/* One of the lab's flags ("--trajectory", ...) with its value: 0 taken, 2
** after printing a usage error (sim_flags.c's rows call it). */
int sim_lab_flag(sim_lab_opts *l, const char *flag, const char *v, FILE *err);
/* "cairn sim ARGS..." with each argument quoted for a POSIX shell where it
** needs it (argv[0] is "sim"), malloc'd; NULL on OOM. */
char *sim_lab_command(int argc, char **argv);
/* 0, or 2 after printing why these flags cannot go with the others given. */
int sim_lab_check(const sim_lab_opts *l, int compare, int sweep, int shard, int bots, FILE *err);

/* --------------------------------------------------- sim_tournament.c */

struct bot;
struct rating_model;

/* A run whose seats' bots change from game to game by a table of
** seatings: --tournament (every bot in every seat) and --skill (each level
** in each seat against a field). Game i plays seating i % m on seed S + i / m. */
typedef struct sim_tour {
    int k, players;
    char *spec[CAIRN_SIM_MAX_BOTS];
    struct bot *bot[CAIRN_SIM_MAX_BOTS];     /* NULL: random */
    char *names;                             /* "random,greedy,..." */
    int *seating;                            /* m rows of `players` bot numbers */
    long m;
    long games, failed;
    long played[CAIRN_SIM_MAX_BOTS];         /* games a bot sat in */
    double wins[CAIRN_SIM_MAX_BOTS];         /* its seats' win shares, summed */
    double over[CAIRN_SIM_MAX_BOTS][CAIRN_SIM_MAX_BOTS]; /* row's seat ahead of column's, a tie half */
    long met[CAIRN_SIM_MAX_BOTS][CAIRN_SIM_MAX_BOTS];    /* such seat pairs */
    long asked[CAIRN_SIM_MAX_BOTS];
    double ns[CAIRN_SIM_MAX_BOTS];
    double *share;                           /* each game's seat shares (NAN: failed), by index */
    long n_share;
    struct rating_model *model;
    const char *skill;                       /* --skill: the levels' spec; the field is bot k-1 */
} sim_tour;

/* The tournament of the bots in specs ("random,mcts:iterations=100", a
** spec's own commas kept as --bots keeps them) over `players` seats: every
** seating (an assignment of bots to seats using as many different bots as
** there are seats, or every bot when there are fewer), game i playing
** seating i % M on seed S + i / M. NULL after printing why. */
sim_tour *sim_tour_new(const char *specs, int players, FILE *err);
/* Splits "mcts:iterations=500,depth=20,random" into specs as --bots does
** (a comma starts a new spec unless PARAM=VALUE follows; a kind never holds
** "="), malloc'd into out: how many, or -1 on OOM and -2 for more than max
** (with nothing kept). */
int sim_split_bot_specs(const char *arg, char **out, int max);
/* The same from specs (owned from here, freed on failure too) and a table
** of m seatings of `players` bot numbers each (owned likewise). */
sim_tour *sim_tour_new_seated(char **specs, int k, int *seating, long m, int players, FILE *err);
void sim_tour_free(sim_tour *t); /* NULL-safe */
long sim_tour_seatings(const sim_tour *t);
/* Seat s's (1-based) bot in game `index`: its spec, and the bot made from
** it (NULL for random). */
const char *sim_tour_spec(const sim_tour *t, long index, int seat);
struct bot *sim_tour_bot(const sim_tour *t, long index, int seat);
/* The bots, comma-joined, for the header. Borrowed. */
const char *sim_tour_names(const sim_tour *t);
/* Counts a record (its CPU too, before the sink drops it). 0, or -1 on OOM. */
int sim_tour_add(sim_tour *t, const sim_rec *r);
/* --skill KIND:PARAM=V1,V2,...: one level per value, each in every seat
** in turn, the field (a bot spec; NULL: random) in the others. NULL after
** printing why. */
sim_tour *sim_skill_new(const char *skill, const char *field, int players, FILE *err);
void sim_skill_report(FILE *out, const sim_tour *t);
/* Level `level`'s paired differences from the first level, per seed and seat. */
stats_acc sim_skill_vs_first(const sim_tour *t, int level);
/* The bots' centred strengths and their standard errors; *prior 1 when the
** win-and-loss prior was needed. 0, or -1 when no fit settles. */
int sim_tour_ratings(const sim_tour *t, double *theta, double *se, int *prior);
void sim_skill_json(FILE *f, const sim_tour *t);
/* The ratings and the pairwise table (--skill: the curve); the CPU per
** decision of each bot. */
void sim_tour_report(FILE *out, const sim_tour *t);
void sim_tour_cpu_line(FILE *out, const sim_tour *t);
/* The same as the value of "tournament" in --json. */
void sim_tour_json(FILE *f, const sim_tour *t);

/* ------------------------------------------------------- sim_report.c */

/* What a report says of the run besides the totals: from the loaded rules,
** or from a JSON part being merged. Strings borrowed. */
typedef struct sim_header {
    const char *ruleset, *id, *version, *fingerprint, *options; /* options: "k=v k=v" */
    const char *label[CAIRN_SIM_MAX_VARIANTS]; /* with --compare: what A and B are (--sweep: each value) */
    const char *play[CAIRN_SIM_MAX_VARIANTS]; /* "cairn play RULESET ..." that replays a game of A (B)
                                 given --seed S: the flags and bots */
    const char *starter;      /* the state field that names the first seat */
    const char *find;         /* --find EXPR, or NULL */
    const char *sweep;        /* --sweep KEY=V1,..., or NULL */
    int players, checks, compare;
    long games;               /* asked for */
    uint64_t seed;
    const char *bots;         /* "random,random" */
    long seatings;            /* --tournament: each seed plays this many games (0: one) */
    int width;                /* the columns the report fits in (markup_tty_width; 0: any) */
} sim_header;

void sim_report_text(FILE *out, const sim_header *h, const sim_totals *t, int interrupted);

void sim_report_compare(FILE *out, const sim_header *h, const sim_compare *c, int interrupted);
/* The summary object of the JSON layout (after "summary": ). */
void sim_report_json(FILE *f, const sim_totals *t);
void sim_report_compare_json(FILE *f, const sim_compare *c);
/* --sweep: one column per variant, each against the first (c[k-1] pairs
** variant 0 with variant k). */
void sim_report_sweep(FILE *out, const sim_header *h, const sim_compare *c, int variants, int interrupted);
void sim_report_sweep_json(FILE *f, const char *sweep, const sim_compare *c, int variants);
/* The CSV layout: the version line and the header, then a row per record. */
void sim_csv_head(FILE *f, int players);
void sim_csv_row(FILE *f, const sim_rec *r, int players);

/* ---------------------------------------------------------- sim_tune.c */

/* Most values one --tune tries (a bisection over 2^30 values takes 32). */
#define SIM_TUNE_MAX_POINTS 40

typedef struct sim_tune_point {
    int64_t value;
    long games;
    double wins;      /* the target seat's or position's */
} sim_tune_point;

typedef struct sim_tune {
    char path[256];
    int64_t lo, hi;
    double target;
    int by_position, which, bracketed;
    sim_tune_point point[SIM_TUNE_MAX_POINTS];
    int n;
} sim_tune;

/* Plays the run with the path at v into p (games, wins). 0, or -1. */
typedef int (*sim_tune_run)(void *ud, const sim_tune *t, int64_t v, sim_tune_point *p);
/* Reads --tune DATA.PATH=LO..HI and --target. 0, or -1 after a usage error. */
int sim_tune_parse(const char *tune, const char *target, sim_tune *t, FILE *err);
/* The bisection: LO and HI, then the middle of the bracket until it is 1 wide. */
int sim_tune_search(sim_tune *t, sim_tune_run run, void *ud);
void sim_tune_report(FILE *out, sim_tune *t);
void sim_tune_json(FILE *f, sim_tune *t);

/* ----------------------------------------------------- sim_factorial.c */

/* Most factors of --factorial: 2^3 combinations fill CAIRN_SIM_MAX_VARIANTS. */
#define SIM_FACTORIAL_MAX 3

typedef struct sim_factorial sim_factorial;
/* The 2^k variant specs of "OPT,OPT[,OPT]" (combination c has factor j on
** when bit j is set; malloc'd): their count, or -1 after printing why. */
int sim_factorial_specs(const char *list, char **spec, FILE *err);
sim_factorial *sim_factorial_new(const char *list, int seats); /* NULL on OOM */
void sim_factorial_free(sim_factorial *f);                     /* NULL-safe */
/* Takes a record of combination r->variant, in game order. */
void sim_factorial_add(sim_factorial *f, const sim_rec *r);
void sim_factorial_report(FILE *out, const sim_factorial *f);
void sim_factorial_json(FILE *out, const sim_factorial *f);
/* The main effects as chart rows (keys: the JSON's summary.factorial.effects),
** at most max; how many. sim_html_row is in sim_report_html.c's part. */
struct sim_html_row;
int sim_factorial_rows(const sim_factorial *f, struct sim_html_row *r, int max);
/* The two-sided p-value of a mean being 0 (normal approximation to t). */
double sim_two_sided_p(const stats_acc *a);
/* Holm's step-down adjustment of m p-values (adj[i] for p[i]). */
void sim_holm(const double *p, double *adj, int m);

/* ------------------------------------------------------- sim_options.c */

/* The difference of two win shares (with - without) and its 95% interval
** (the normal one for two independent proportions, each share's variance
** taken from its Wilson centre so that 0 or all wins still has one). */
stats_interval sim_share_difference(double wins1, long n1, double wins2, long n2, double *diff);
/* After --coverage's table: per option prefix, the win share of the seats
** that took it in a game against the seats that did not, flagged as a
** correlation, with the --ban that tests it. */
void sim_option_effects(FILE *out, const sim_totals *t);
/* {with, with_n, without, without_n, diff, lo, hi, flagged} or null. */
void sim_option_effect_json(FILE *f, const sim_cov *c);

/* -------------------------------------------------------- sim_series.c */

/* One run's figures in a --sweep players=... or bots=... series. */
typedef struct sim_series_point {
    int seats, by_position;          /* by_position: wins are by turn position, else by seat */
    long games, failed;
    double wins[CAIRN_MAX_SEATS];
    stats_acc decisions;
} sim_series_point;

typedef struct sim_series {
    int n, players;                  /* players: the values are seat counts, else bots */
    int seats[CAIRN_SIM_MAX_VARIANTS];
    char *bot[CAIRN_SIM_MAX_VARIANTS];
    sim_series_point point[CAIRN_SIM_MAX_VARIANTS];
    const char *const *seat_bots; /* borrowed: a players sweep's --bots, seat by seat */
    int n_seat_bots;              /* 0: every seat random */
} sim_series;

/* 1 when sweep is players=... or bots=... (s filled), 0 when it is another
** --sweep, -1 after printing a usage error. */
int sim_series_parse(const char *sweep, sim_series *s, FILE *err);
void sim_series_free(sim_series *s);
/* Keeps value k's run's figures. */
void sim_series_take(sim_series *s, int k, const sim_totals *t);
void sim_series_report(FILE *out, const sim_series *s, const char *sweep);
/* The --json file of a series: its table, not the games. */
void sim_series_json(FILE *f, const sim_series *s, const char *sweep);

/* A series' part (--shard): what its run line says. */
typedef struct sim_series_part {
    const char *sweep, *ruleset;                     /* borrowed */
    char *id, *version, *fingerprint, *options;      /* from the first value's rules */
    int n, players, checks;
    long games, shard_k, shard_n;
    uint64_t seed;
} sim_series_part;
/* Keeps the first value's ruleset identity. 0, or -1 out of memory. */
int sim_series_part_note(sim_series_part *p, const ruleset *rs, const char *options, int players);
void sim_series_part_free(sim_series_part *p);
/* The part file: its run line, the games' lines (joined), the slice's table. */
void sim_series_part_write(FILE *f, const sim_series_part *p, const char *games, int interrupted, const sim_series *s);
/* cairn sim merge of a series' parts: recs in game order, their variant the
** value's index. Prints the table; json: the whole run's --json file;
** report: its page (command: the merge's, made again). The
** exit status. */
int sim_series_merge(sim_rec *recs, size_t n, const value *run, const char *json, const char *report,
                     const char *command, FILE *out, FILE *err);

/* ------------------------------------------------- sim_report_pages.c */

/* What a page of a run made of runs says besides its figures. */
typedef struct sim_series_page {
    const char *ruleset, *sweep, *command; /* sweep: the --sweep value (a series) */
    const char *text;                      /* the text report, as printed */
    long games;
    uint64_t seed;
} sim_series_page;

/* --report of a --sweep players=.../bots=... series and of a --tune: 0, or
** 1 after printing why not. */
int sim_series_html(const char *path, const sim_series *s, const sim_series_page *pg, FILE *err);
int sim_tune_html(const char *path, const sim_tune *t, const sim_series_page *pg, FILE *err);

/* --------------------------------------------------------- sim_until.c */

/* --until-width checks no run shorter than this many games. */
#define SIM_UNTIL_MIN_GAMES 10

/* Whether every win-share interval of t is at most width wide (and t has
** SIM_UNTIL_MIN_GAMES games or more). */
int sim_until_done(const sim_totals *t, double width);
/* "until width 0.100: stopped after N of at most M games, ..." or how far
** from it the run ended. Nothing when width is 0. */
void sim_until_line(FILE *out, const sim_totals *t, double width, long asked, int stopped);
void sim_until_json(FILE *f, const sim_totals *t, double width, int stopped);
/* The running estimate appended to a progress line: the seats' win shares
** (one variant, t) or their B - A (c). */
void sim_until_estimate(FILE *err, const sim_totals *t, const sim_compare *c);
/* Paired games that a shift of d's mean would need to be detected at the 5%
** level with 80% power: ((1.96 + 0.84) sd / |mean|)^2; -1 when no shift. */
long sim_games_to_detect(const stats_acc *d);
/* That, for each seat's win share of a comparison, in one line. */
void sim_detect_lines(FILE *out, const sim_compare *c);

/* -------------------------------------------------- sim_report_html.c */

/* One row of an interval chart: a value with its 95% interval, each with
** the JSON path of the same figure (empty: none). */
typedef struct sim_html_row {
    char label[96];
    double v, lo, hi;
    char kv[128], klo[128], khi[128];
} sim_html_row;

/* One line of a curve: its points with their intervals. */
typedef struct sim_html_line {
    char name[64];
    int n;
    sim_html_row *p;
} sim_html_line;

/* The pieces of a page, for the pages of runs made of runs
** (sim_report_pages.c): open writes the head and "<h1>title" (the caller
** ends the heading), close the foot. */
FILE *sim_html_open(const char *path, const char *title, FILE *err); /* NULL after saying why */
int sim_html_close(FILE *f, const char *path, FILE *err);          /* 0, or 1 after saying why */
void sim_html_text(FILE *f, const char *s);                          /* escaped */
void sim_html_data(FILE *f, const char *key, double v);              /* data-key="key" data-v="v" */
/* Horizontal rows, a bar from 0 (bars) or a dot at v, each with its
** interval; ref a dashed level (NAN: none); pct: percentages. */
void sim_html_intervals(FILE *f, const char *title, const sim_html_row *r, int n, int bars, double ref, int pct);
void sim_html_curve(FILE *f, const char *title, const sim_html_line *s, int ns, char (*xlabel)[64], int npts, double ref,
                    int pct);

/* What --report FILE.html draws: the run's figures, as the JSON has them. */
typedef struct sim_html {
    const sim_header *h;
    const char *command;          /* the exact command that makes the report again */
    const sim_totals *t;          /* one variant (else NULL) */
    const sim_compare *cmp;       /* two variants or more: cmp[k-1] pairs variant 0 with k */
    int variants;
    const sim_tour *tour;         /* --tournament or --skill, or NULL */
    const sim_factorial *fact;    /* --factorial (its columns are a sweep's under summary.sweep), or NULL */
    const sim_cpu_totals *cpu;    /* each seat's CPU (NULL: none) */
    const char *const *names;     /* each seat's bot */
} sim_html;

/* Writes the page to path. 0, or 1 after printing why not. */
int sim_report_html(const char *path, const sim_html *in, FILE *err);

/* -------------------------------------------------------- sim_merge.c */

/* `cairn sim merge PARTS... [--json FILE]`: argv[0] is "merge". Checks that
** the parts are one run's shards, sums their records and prints the report
** one run would have printed. Returns the process exit status. */
int sim_merge(int argc, char **argv, FILE *out, FILE *err);

/* ---------------------------------------------------- sim_merge_lab.c */

/* What a merge counts besides the totals: the tournament or skill curve
** and the factorial the parts' run names ("tournament", "skill" and
** "field", "factorial"), each NULL when it names none. */
typedef struct sim_merge_lab {
    sim_tour *tour;
    sim_factorial *fact;
} sim_merge_lab;

/* From the run line (zeroed lab, NULL run: nothing). 0, or -1 after saying why. */
int sim_merge_lab_start(sim_merge_lab *l, const value *run, int players, FILE *err);
int sim_merge_lab_add(sim_merge_lab *l, const sim_rec *r); /* game order; 0, or -1 out of memory */
void sim_merge_lab_report(FILE *out, const sim_merge_lab *l); /* after the run's own report */
void sim_merge_lab_json(FILE *f, const sim_merge_lab *l);     /* ",\n \"tournament\": {...}" or skill, or nothing */
void sim_merge_lab_free(sim_merge_lab *l);

/* ------------------------------------------------------ sim_progress.c */

#include "status_line.h"

/* The progress of a run on stderr: a bar on a terminal, a line at each
** tenth elsewhere, nothing with --quiet. */
typedef struct sim_progress {
    FILE *err;
    status_line line;
    int quiet, variants, last_tenth;
    long total;                 /* records expected (games x variants) */
    double start, last_draw;    /* seconds, monotonic; last_draw -1: never drawn */
} sim_progress;

void sim_progress_start(sim_progress *p, FILE *err, int quiet, long total, int variants);
/* done records of total are finished. */
int sim_progress_note(sim_progress *p, long done);
/* Leaves a bar cut short (an interrupt) on its own line. */
void sim_progress_stop(sim_progress *p);
/* A rate that never reads 0.0: "12.3 games/s", "0.25 games/s", "14 s a game". */
void sim_rate_text(double games_per_second, char *buf, size_t size);

#endif
