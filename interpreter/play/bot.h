/*
** bot.h
** Bots: one interface for every kind of player the program can seat
** (random, greedy, mcts, ismcts, a ruleset's own), used by REPL seats,
** `--bot SEAT=KIND[:PARAM=V,...]` and `cairn sim --bots`. A bot sees what
** its seat may see: its options and its view. For look-ahead it runs the
** rules on forks: of the real position when the game has no secrets, else
** of states sampled from its view by the ruleset's determinize hook.
** docs/bots.md.
**
** Determinism: a bot's choice depends only on the game seed, the position,
** the seat, the view and its parameters, never on how many cores its
** search ran on (`cores=`: its `searches=` are merged in order); a time
** budget (`time=`) is the one exception, and says so (bot_is_timed).
*/
#ifndef CAIRN_BOT_H
#define CAIRN_BOT_H

#include <stddef.h>
#include <stdint.h>

#include "engine.h"
#include "error.h"
#include "limits.h" /* CAIRN_BOT_*: the bots' defaults and bounds */

typedef struct bot bot;

/* What a bot is told while it thinks (the REPL's spinner and Ctrl-C): tick
** every ~0.1 s with the iterations so far; interrupted() returning 1 makes
** the bot answer with its best so far. Either may be NULL. */
typedef struct bot_hooks {
    void (*tick)(void *ud, long iterations, double seconds);
    int (*interrupted)(void *ud);
    void *ud;
    /* A line for whoever runs the game (no newline): an outside agent
    ** (exec:) that failed, with its seat and decision, and which fallback
    ** decides instead. NULL: such lines go to stderr as "cairn: ...". */
    void (*notice)(void *ud, const char *line);
} bot_hooks;

/* Parses "KIND[:PARAM=V,...]" (random, greedy, mcts:iterations=2000,
** mcts:time=0.5, ismcts, RULESET:NAME for a ruleset's bot,
** exec:COMMAND[,timeout=SECONDS][,fallback=KIND] for an outside program
** speaking the seat protocol, docs/bots.md). NULL after
** appending an error that names the kinds or the parameters. Free with
** bot_free. */
bot *bot_new(const char *spec, cerr_list *errs);
void bot_free(bot *b); /* NULL-safe */

/* The spec as given; the kind ("mcts"). Borrowed. */
const char *bot_spec(const bot *b);
const char *bot_kind(const bot *b);

/* 1 when the bot's choices follow a time budget and so may differ from
** run to run. */
int bot_is_timed(const bot *b);

/* Whether this bot may play game e: 0, or -1 after appending why not (a
** search bot on a game with secrets and no determinize; a ruleset bot the
** ruleset does not have). */
int bot_check(const bot *b, engine *e, cerr_list *errs);

/* The bot's choice for seat in e: a malloc'd option id, or NULL after
** appending an error (the seat is not asked, a rules error in a fork).
** The choice's explanation is kept for bot_why. */
char *bot_choose(bot *b, engine *e, int seat, const bot_hooks *hooks, cerr_list *errs);

/* Game e is over, or is being left: an outside agent (exec:) playing it
** is sent the final state and ended (waited for: no zombie). Nothing for
** the other kinds. Call it at every game's end; bot_free ends them too. */
void bot_end_game(bot *b, engine *e);

/* 1 when spec is an outside program (exec:COMMAND): a kind that runs a
** command, and so is never taken from a file (a save) unasked. */
int bot_spec_is_exec(const char *spec);

/* Why the bot made its last choice: the top options with their visits and
** values (search), scores (greedy), or one line; malloc'd, NULL on OOM. */
char *bot_why(const bot *b);

/* How many processes a search bot's decision runs on when its spec gives
** no `cores=`: CAIRN_BOT_CORES from the environment when it is a whole
** number from 1, else what the program set here (cairn sim sets 1 when it
** plays games on several --jobs: games, not searches, are split), else the
** CPUs this process may use (cpus.h). 0 sets it back to the CPUs. The
** choice never changes for an iteration budget (docs/bots.md). */
void bot_set_default_cores(int cores);

/* The CPU time, in nanoseconds, of every search worker process this
** process has waited for: what a bot's decisions cost beyond this
** process's own clock (cairn sim's CPU per decision adds it). */
int64_t bot_workers_cpu_ns(void);

/* Why the bot made its last choice as facts, for a console to word in its
** own language (the play layer has no catalogue; bot_why is the English). */
#define BOT_WHY_ROWS 6 /* the options a reason lists at most */

typedef enum {
    BOT_WHY_NONE,    /* no choice made yet */
    BOT_WHY_ONLY,    /* the only option */
    BOT_WHY_UNIFORM, /* random: uniform over `options` */
    BOT_WHY_RULESET, /* the ruleset's own bot chose rows[0] */
    BOT_WHY_GREEDY,  /* one move ahead; rows: the best options by `value` (a score) */
    BOT_WHY_SEARCH   /* tree search; rows: the most visited, `value` the mean reward in % */
} bot_why_kind;

typedef struct bot_why_row {
    char *id;        /* the option's id (malloc'd) */
    double value;
    unsigned visits; /* search */
    int chosen;
} bot_why_row;

typedef struct bot_reasons {
    bot_why_kind kind;
    size_t options;          /* UNIFORM: how many; SEARCH: how many more than rows */
    long iterations, depth;  /* SEARCH: the rollouts' length (depth_is_limit: "up to") */
    int depth_is_limit, sampled, stopped, timed; /* sampled: on states sampled from the seat's view */
    int pooled;              /* SEARCH: on `samples` states sampled, each reused in turn (`pool=`) */
    long samples;            /* SEARCH: the states determinize sampled, summed over the searches */
    long checked;            /* SEARCH: ... of them checked against the seat's view (CAIRN_BOT_CHECKED_SAMPLES) */
    double seconds;
    bot_why_row rows[BOT_WHY_ROWS];
    size_t n_rows;
} bot_reasons;

/* A deep copy of the bot's last reasons into out: 0, or -1 when out of
** memory (out is then empty). bot_reasons_free frees a copy. */
int bot_reasons_copy(const bot *b, bot_reasons *out);
void bot_reasons_free(bot_reasons *r);

/* The kinds, for help and errors: "random, greedy, mcts, ismcts". */
const char *bot_kinds(void);

/* Checks that every spec names a bot (for flags parsed before any game
** exists). 0, or -1 after appending the error. */
int bot_spec_valid(const char *spec, cerr_list *errs);

#endif
