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
#include "stats.h"
#include "value.h"
#include "limits.h"

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
} sim_cov;

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
} sim_rec;

/* The entry of id's prefix (up to its first digit) in *cov, added when
** new. NULL on OOM. */
sim_cov *sim_cov_get(sim_cov **cov, size_t *n, const char *id);

void sim_rec_free(sim_rec *r); /* the contents; NULL-safe */
/* r as one line of JSON (no newline), malloc'd; NULL on OOM. */
char *sim_rec_json(const sim_rec *r);
/* Fills r from a record's JSON tree. 0, or -1 when v is not one. */
int sim_rec_from_value(const value *v, sim_rec *r);
/* The same from one line of text. */
int sim_rec_parse(const char *line, size_t len, sim_rec *r);
/* s as a JSON string literal into f. */
void sim_json_string(FILE *f, const char *s);

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

/* One label's points per seat: a game without the line counts 0. */
typedef struct sim_label {
    char *key;
    double sum[CAIRN_MAX_SEATS], sumsq[CAIRN_MAX_SEATS];
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
    long found, find_failed;                             /* --find */
    char *find_error;                                    /* the first failure's message */
    uint64_t *found_seeds;                               /* the first CAIRN_SIM_KEEP_FOUND */
    size_t n_found_seeds;
    sim_cov *cov;                                        /* --coverage, summed */
    size_t n_cov;
    sim_rec *fails;                                      /* the first few, kept */
    size_t n_fails;
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

/* -------------------------------------------------------- sim_merge.c */

/* `cairn sim merge PARTS... [--json FILE]`: argv[0] is "merge". Checks that
** the parts are one run's shards, sums their records and prints the report
** one run would have printed. Returns the process exit status. */
int sim_merge(int argc, char **argv, FILE *out, FILE *err);

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
void sim_progress_note(sim_progress *p, long done);
/* Leaves a bar cut short (an interrupt) on its own line. */
void sim_progress_stop(sim_progress *p);
/* A rate that never reads 0.0: "12.3 games/s", "0.25 games/s", "14 s a game". */
void sim_rate_text(double games_per_second, char *buf, size_t size);

#endif
