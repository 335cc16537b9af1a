/*
** bot_internal.h
** The inside of a bot, shared by bot.c (the interface, random, greedy,
** ruleset bots) and bot_mcts.c (UCT and information-set MCTS). Nothing else
** includes it.
*/
#ifndef CAIRN_BOT_INTERNAL_H
#define CAIRN_BOT_INTERNAL_H

#if !defined(CAIRN_FOLDER_play)
#error "bot_internal.h is for interpreter/play/ only: include its public header"
#endif

#include "bot.h"
#include "rng.h"
#include "strbuf.h"

typedef enum { BOT_RANDOM, BOT_GREEDY, BOT_MCTS, BOT_ISMCTS, BOT_RULESET } bot_kind_id;

struct bot {
    char *spec;       /* as given */
    char *kind;       /* "mcts", or the ruleset's id for a ruleset bot */
    bot_kind_id k;
    long iterations;  /* search: the budget (0: none, time alone) */
    int iterations_given, depth_given; /* in the spec: the ruleset's bot_defaults do not apply */
    double time;      /* search: seconds per decision (0: none) */
    double c;         /* UCT exploration */
    long depth;       /* rollout decisions before the heuristic scores (0: to the end) */
    double hscale;    /* heuristic points for a clear lead */
    long samples;     /* greedy: sampled states per option (games with secrets) */
    int guided;       /* search: rollouts pick by the heuristic (rollout=heuristic) */
    double epsilon;   /* guided rollouts: the share of random moves */
    char *name;       /* ruleset bot: its name in the manifest */
    char *why;        /* the last choice explained */
    bot_reasons reasons; /* the same as facts (bot.h) */
};

/* Starts the reasons of a new choice: kind, no rows. */
void bot_reasons_start(bot *b, bot_why_kind kind);
/* Adds a row (the id copied); -1 when out of memory or full. */
int bot_reasons_row(bot *b, const char *id, double value, unsigned visits, int chosen);

/* A seed for the bot's own stream at e's position for seat, from the game
** seed: never time, never the game's RNG. tag keeps kinds apart. */
uint64_t bot_stream_seed(const engine *e, int seat, uint64_t tag);

/* What the bots judge a position by, for every seat into v[0..seats): the
** rules' own provisional score (score(g)'s total, which options and mods
** wrap; 0 where the rules have no score) plus the ruleset's heuristic(g,
** seat), an addition the ruleset opts into by defining it (what the score
** does not show yet: food on the way to a tower). Never the heuristic
** alone: a rule the heuristic does not know would be invisible. 0, or -1
** after appending an error. */
int bot_evaluate(engine *f, double *v, cerr_list *errs);

/* The value of the position in fork f for seat, for a one-ply choice
** (greedy, guided rollouts): in a finished game the result first (a win
** far above anything unfinished, a loss far below, a shared win in
** between) plus the final margin; else the evaluation's margin over the
** best other seat (bot_evaluate). 0, or -1 after appending an error. */
int bot_margin(engine *f, int seat, double *out, cerr_list *errs);

/* How good the position of fork f is for each seat, in [0, 1], into r[0..n)
** (r[s-1] for seat s): the win share at the end of a game, else the
** evaluation (bot_evaluate) against the best other seat's. 0, or -1 after
** appending an error. */
int bot_rewards(engine *f, const bot *b, double *r, cerr_list *errs);

/* Settles the search budget for game e: iterations and depth the spec did
** not give come from the ruleset's manifest (`bot_defaults:`), else from
** CAIRN_BOT_ITERATIONS and CAIRN_BOT_DEPTH. Deterministic: the same for
** every decision of one ruleset. */
void bot_settle_defaults(bot *b, const engine *e);

/* Replaces b->why (takes s, which may be NULL). */
void bot_set_why(bot *b, char *s);

/* bot_mcts.c: the mcts and ismcts choice. */
char *bot_mcts_choose(bot *b, engine *e, int seat, const bot_hooks *hooks, cerr_list *errs);

#endif
