/*
** sim.h
** `cairn sim`: self-play statistics. Plays many seeded games with a random
** bot in every seat and reports decisions per game, scores, win shares,
** winning margins and the score breakdown per seat. docs/sim.md.
*/
#ifndef CAIRN_SIM_H
#define CAIRN_SIM_H

#include <stdio.h>

/* Most games one run may play. */
#if !defined(CAIRN_SIM_MAX_GAMES)
#define CAIRN_SIM_MAX_GAMES 1000000L
#endif

/* Games played when --games is not given. */
#if !defined(CAIRN_SIM_GAMES)
#define CAIRN_SIM_GAMES 100
#endif

/* Breakdown labels reported (the first ones met, in order); the rest are
** counted in the report's last line, not shown. */
#if !defined(CAIRN_SIM_MAX_LABELS)
#define CAIRN_SIM_MAX_LABELS 10
#endif

#define SIM_USAGE                                                                         \
    "cairn sim RULESET [--games N] [--players N] [--option ID[=VALUE]]... [--preset NAME]\n" \
    "                 [--seed S] [--checks] [--time]"
#define SIM_SUMMARY "self-play statistics: many random-bot games, scores and win shares"
#define SIM_HELP                                                                            \
    "Plays N seeded games with the random bot in every seat (seeds S, S+1, ...) and\n"      \
    "prints decisions per game, each seat's score (mean, min, max), win share (a tie\n"     \
    "splits the win), the mean winning margin and the mean points per breakdown\n"          \
    "label. The report is the same on every run. docs/sim.md explains it.\n"                \
    "\n"                                                                                    \
    "  --games N            games to play (default 100, at most 1000000)\n"                 \
    "  --players N          seat count (default: the ruleset's)\n"                         \
    "  --option ID[=VALUE]  turn an option on (ID=false: off; a choice: ID=ITEM)\n"         \
    "  --preset NAME        a named bundle of options\n"                                   \
    "  --seed S             the first game's seed (default 1)\n"                           \
    "  --checks             check the state schema and check() after every decision\n"     \
    "  --time               add the run's wall time and games per second\n"                \
    "\n"                                                                                    \
    "A game that fails (a rules error, or no end within the decision limit) stops\n"        \
    "the run and is reported with its seed and decision index.\n"                           \
    "Exit status: 0 ok, 1 a game failed or the ruleset has errors, 2 usage error.\n"

/* `cairn sim ...`, argv[0] being "sim": the report to stdout, errors to
** stderr. Returns the exit status (0 ok, 1 a game failed or the ruleset has
** errors, 2 usage). */
int sim_command(int argc, char **argv);

/* The same with the streams given: the report goes to out, usage and rules
** errors to err (what the tests call). */
int sim_run(int argc, char **argv, FILE *out, FILE *err);

#endif
