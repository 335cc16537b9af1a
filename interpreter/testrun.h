/*
** testrun.h
** A ruleset's own tests: `cairn test RULESET [--regen]` runs the scenario
** tests named in the manifest (`tests:`) and its golden playthroughs
** (`golden:`); `cairn check` smoke-plays seeded random games for every seat
** count and option combination with the invariants on. Formats are in
** docs/testing.md.
*/
#ifndef CAIRN_TESTRUN_H
#define CAIRN_TESTRUN_H

#include <stdio.h>

#include "error.h"

/* Most decisions one smoke or golden game may take before it is called
** stuck (a ruleset whose game never ends). */
#if !defined(CAIRN_TEST_MAX_DECISIONS)
#define CAIRN_TEST_MAX_DECISIONS 10000
#endif

/* Most option combinations smoke-played; beyond it the first ones (in
** manifest order) are played and the rest counted as skipped. */
#if !defined(CAIRN_SMOKE_MAX_COMBINATIONS)
#define CAIRN_SMOKE_MAX_COMBINATIONS 64
#endif

/* Default number of smoke games per seat count and option combination. */
#if !defined(CAIRN_SMOKE_GAMES)
#define CAIRN_SMOKE_GAMES 3
#endif

/* `cairn test RULESET [--regen] [--verbose]`, argv[0] being "test". Prints
** one line per failing test (every test with --verbose) and a summary to
** stdout, errors to stderr. Returns the exit status: 0 all passed, 1 a test
** failed or the ruleset has errors, 2 usage. */
int testrun_command(int argc, char **argv);

/* Runs the scenario tests and golden playthroughs of a ruleset; with regen,
** (re)writes the golden files instead of comparing. Reports to out. Returns
** the number of failed tests, or -1 when the ruleset itself does not load
** (errors appended). */
int testrun_ruleset(const char *ruleset, int regen, int verbose, FILE *out, cerr_list *errs);

/* Smoke play: `games` random games (seeds 1..games) for every seat count
** and option combination, with state schema and check() after every
** decision, render at the start and end, and score at the end. Stops at
** the first failure and appends one error naming the seat count, options,
** seed, decision index, seat and id. Prints a one-line summary to out (may
** be NULL). Returns 0 when every game passed, -1 otherwise. */
int testrun_smoke(const char *ruleset, int games, FILE *out, cerr_list *errs);

#endif
