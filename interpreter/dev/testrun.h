/*
** testrun.h
** A ruleset's own tests: `cairn test RULESET [--regen]` runs the files its
** generators make (`generate:`), its Lua unit tests (`unit:`, luatest.c),
** the scenario tests named in the manifest (`tests:`) and its golden
** playthroughs (`golden:`); `cairn check` smoke-plays seeded random games
** for every seat count and option combination with the invariants on.
** Formats are in docs/testing.md.
*/
#ifndef CAIRN_TESTRUN_H
#define CAIRN_TESTRUN_H

#include <stdio.h>

#include "cliflags.h"
#include "error.h"

/* The flags of `cairn test`. */
extern const cli_table *const testrun_flag_tables[];

/* What `cairn check` and `cairn test` give every game they make: the data
** overrides of `check --set DATA.PATH=VALUE`, and with --debug a stream the
** rules' g.debug/print lines go to ("debug rules.lua:12: text", one a line,
** interleaved with the report; NULL: dropped). Set once, before the run. */
struct unread_set;
typedef struct testrun_opts {
    const char *const *sets;
    size_t n_sets;
    FILE *debug;
    /* cairn check --unread: the scenario tests' and golden games' reads of
    ** g.data are added here (unread.h); NULL: not tracked */
    struct unread_set *unread;
} testrun_opts;
void testrun_configure(const testrun_opts *o);

/* `cairn test RULESET [--regen] [--verbose] [--debug]`, argv[0] being "test". Prints
** one line per failing test (every test with --verbose) and a summary to
** stdout, errors to stderr. Returns the exit status: 0 all passed, 1 a test
** failed or the ruleset has errors, 2 usage. */
int testrun_command(int argc, char **argv);

/* Runs the generators, Lua unit tests, scenario tests and golden
** playthroughs of a ruleset; with regen, (re)writes the generated and
** golden files instead of comparing, and only those inside the ruleset's
** own folder (a mod's inherited golden files count as failed). Reports to
** out. Returns the number of failed tests, or -1 when the ruleset itself
** does not load (errors appended). */
int testrun_ruleset(const char *ruleset, int regen, int verbose, FILE *out, cerr_list *errs);

/* Smoke play: `games` random games (seeds 1..games) for every seat count
** and option combination, with state schema and check() after every
** decision, render at the start and end, and score at the end. A
** combination is skipped only when the manifest forbids it (requires/
** excludes, seat-count forcing); one that fails to load for any other
** reason is a failure. Stops at the first failure and appends one error
** naming the seat count, options, seed, decision index, seat and id.
** Prints a one-line summary to out (may be NULL) with the reasons for the
** skipped combinations and no verdict (the caller's last line is the
** verdict). With cover_each only the pairs of seat count and combination
** that play a seat count or an option value no earlier pair played are
** played (in manifest order: every seat count and every option value at
** least once, for a quick run such as make asan's). Returns 0 when every
** game passed, -1 otherwise. */
int testrun_smoke(const char *ruleset, int games, int cover_each, FILE *out, cerr_list *errs);

/* What smoke play did, as facts for the caller to word (cairn check words
** them in its language): games played, option combinations, the pairs of
** seat count and combination the manifest forbids (with up to
** TESTRUN_MAX_REASONS distinct reasons, each the manifest's message and how
** many it refused, and how many for other reasons), the combinations past
** CAIRN_SMOKE_MAX_COMBINATIONS not played and the pairs --cover each left
** out. Zero-initialise; testrun_tally_free frees the reasons. */
#define TESTRUN_MAX_REASONS 4
typedef struct testrun_tally {
    long played, combos, skipped, capped, thinned;
    char *reason[TESTRUN_MAX_REASONS]; /* owned; NULL past the last */
    long reason_count[TESTRUN_MAX_REASONS];
    /* reason[i]'s error as the manifest gave it (its key and arguments, for
    ** the console's languages), where why.n > i; zero until the first reason */
    cerr_list why;
    long other_reasons;
} testrun_tally;
void testrun_tally_free(testrun_tally *t);

/* testrun_smoke with its summary as facts in tally (not NULL) instead of a
** line, and with unread (may be NULL; unread.h) every game noting which
** data values its rules read, for `cairn check --unread`. */
int testrun_smoke_reads(const char *ruleset, int games, int cover_each, testrun_tally *tally,
                        struct unread_set *unread, cerr_list *errs);

#endif
