/*
** sim.h
** `cairn sim`: the balance lab. Plays many seeded games with a bot in every
** seat and reports win shares, scores and breakdowns with 95% intervals,
** compares two variants on paired seeds, and spreads a run over worker
** processes or machines (--jobs, --shard, merge). docs/simulation.md.
*/
#ifndef CAIRN_SIM_H
#define CAIRN_SIM_H

#include <stdio.h>

#include "cliflags.h"

/* The flags of `cairn sim` (the ruleset's shared ones, then sim's own,
** sim_flags.c) and of `cairn sim merge`. */
extern const cli_table *const sim_flag_tables[];
extern const cli_table *const sim_merge_flag_tables[];

#define SIM_USAGE                                                                              \
    "cairn sim RULESET [--games N] [--players N] [--option ID[=VALUE]]... [--preset NAME]\n"     \
    "                 [--seed S] [--bots KIND,...] [--checks] [--compare A B] [--set DATA.PATH=VALUE]...\n"     \
    "                 [--jobs J] [--shard K/N]\n"                                               \
    "                 [--json FILE] [--csv FILE] [--starter FIELD] [--ban SEAT:PREFIX]\n"      \
    "                 [--coverage] [--find EXPR] [--sweep KEY=V1,V2,...] [--leads]\n"         \
    "                 [--quiet] [--tournament BOT,BOT,...] [--skill KIND:PARAM=V1,V2,...]\n"   \
    "                 [--field BOT] [--trajectory round|N] [--report FILE.html]\n"             \
    "                 [--until-width W] [--factorial OPT,OPT[,OPT]]\n"                         \
    "                 [--tune DATA.PATH=LO..HI --target 'position N win share = X']\n"      \
    "       cairn sim merge PARTS... [--json FILE] [--csv FILE] [--report FILE.html]"
#define SIM_MERGE_USAGE "cairn sim merge PARTS... [--json FILE] [--csv FILE] [--report FILE.html]"
#define SIM_SUMMARY "the balance lab: many bot games, win shares and scores with 95% intervals"
#define SIM_HELP                                                                               \
    "Plays N seeded games (seeds S, S+1, ...) with a bot in every seat and reports, per\n"     \
    "seat and per turn position, win shares with 95% Wilson intervals, score mean with\n"      \
    "its interval, sd, min, max and histogram, each breakdown line's mean, game length\n"     \
    "in decisions (and rounds when g.state.round exists) and a note saying whether the\n"    \
    "seats differ beyond noise. The report is the same on every run and for any --jobs.\n"   \
    "docs/simulation.md explains it.\n"                                                       \
    "\n"                                                                                       \
    "  --games N            games to play (default 100, at most 1000000)\n"                    \
    "  --players N          seat count (default: the ruleset's)\n"                            \
    "  --option ID[=VALUE]  turn an option on (ID=false: off; a choice: ID=ITEM)\n"            \
    "  --preset NAME        a named bundle of options\n"                                      \
    "  --seed S             the first game's seed (default 1)\n"                              \
    "  --bots KIND,...      one bot per seat (mcts:iterations=500,random; docs/bots.md)\n"   \
    "  --checks             check the state schema and check() after every decision\n"        \
    "  --compare A B        play each seed in A and B and report B - A with intervals; A\n"  \
    "                       and B are option lists (\"\", \"tricks,cards=5\"), data overrides\n"  \
    "                       (\"scoring.bonus=4\") or ruleset folders\n"                        \
    "  --set DATA.PATH=VALUE  a data override for the whole run (repeatable)\n"             \
    "  --sweep KEY=V1,V2,...  one column per value (an option or a DATA.PATH), each\n"     \
    "                       against the first on paired seeds\n"                            \
    "  --jobs J             worker processes (default: the CPUs this process may use, its\n"  \
    "                       affinity mask and cgroup CPU quota)\n"                          \
    "  --shard K/N          play the K-th of N slices of the games and write a JSON part\n"   \
    "                       (--json, default sim-part-K-of-N.json) for cairn sim merge,\n"   \
    "                       which matches parts by fingerprint and writes --json, --csv\n" \
    "  --json FILE          the games and the figures as JSON (layout version 1)\n"           \
    "  --csv FILE           one row per game as CSV (layout version 1)\n"                     \
    "  --starter FIELD      the state field naming the seat that starts (default\n"          \
    "                       start_seat); gives the table by turn position\n"                 \
    "  --ban SEAT:PREFIX    that seat's bot never takes an option whose id starts with\n"   \
    "                       PREFIX (unless nothing else is enabled)\n"                       \
    "  --coverage           how often each option id (up to its first digit) was\n"           \
    "                       offered and taken; those never taken are listed\n"               \
    "  --leads              count lead changes (score(g) after every decision: slower)\n"  \
    "  --find EXPR          list the seeds of games where a Lua expression over g.state,\n" \
    "                       g.totals and g.decisions held at the end (sandboxed)\n"        \
    "  --quiet              no progress on stderr\n"                                          \
    "  --tournament BOT,BOT,...  every bot in every seat and order, each seed in every\n"  \
    "                       seating: ratings with 95% intervals and the pairwise table\n" \
    "  --skill KIND:PARAM=V1,V2,...  each level in each seat against the field (--field\n" \
    "                       BOT, default random): the win-share curve and a verdict\n"     \
    "  --report FILE.html   the run as one self-contained page of charts (inline SVG)\n"   \
    "  --until-width W      stop once every win-share interval is at most W wide\n"       \
    "  --factorial OPT,OPT  every combination of 2 or 3 options: main effects, Holm\n"    \
    "  --tune DATA.PATH=LO..HI --target T  the value that brings a win share to T\n"     \
    "  --trajectory round|N  provisional scores and metrics(g) at the end of each round\n" \
    "                       or every N decisions: means with bands, the leader's fate\n"  \
    "  --time               accepted for old scripts (the timing line is always printed)\n" \
    "\n"                                                                                       \
    "A game that fails is counted and listed with the command that replays it; the\n"        \
    "run goes on. Ctrl-C stops the run, prints the report of the games finished and\n"       \
    "writes the files.\n"                                                                     \
    "Exit status: 0 ok, 1 a game failed or the ruleset has errors, 2 usage error,\n"         \
    "130 interrupted.\n"


/* `cairn sim ...`, argv[0] being "sim": the report to stdout, errors to
** stderr. Returns the exit status (0 ok, 1 a game failed or the ruleset has
** errors, 2 usage). */
int sim_command(int argc, char **argv);

/* The same with the streams given: the report goes to out, usage and rules
** errors to err (what the tests call). */
int sim_run(int argc, char **argv, FILE *out, FILE *err);

#endif
