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

typedef enum { BOT_RANDOM, BOT_GREEDY, BOT_MCTS, BOT_ISMCTS, BOT_RULESET, BOT_EXEC } bot_kind_id;

/* exec:COMMAND, an outside program in a seat (bot_exec.c). */
typedef struct bot_exec bot_exec;

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
    long searches;    /* search: the searches a decision is split into (root parallel) */
    long cores;       /* search: the processes they run on (0: bot_cores_default) */
    long pool;        /* search, games with secrets: states each search samples, then reuses in turn (0: none) */
    double iter_ns;   /* search: CPU per iteration in its last decision (0: none yet) */
    char *name;       /* ruleset bot: its name in the manifest */
    char *why;        /* the last choice explained */
    bot_exec *exec;   /* exec: the program and its running agents */
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

/* bot_exec.c: "exec:" + rest parsed (the command, then ,timeout=SECONDS
** and ,fallback=KIND); NULL after appending an error. */
bot_exec *bot_exec_parse(const char *spec, const char *rest, cerr_list *errs);
void bot_exec_free(bot_exec *x); /* NULL-safe; ends every program it runs */
/* Whether its fallback may play e. 0, or -1 after appending why not. */
int bot_exec_check(bot_exec *x, engine *e, cerr_list *errs);
char *bot_exec_choose(bot *b, engine *e, int seat, const bot_hooks *hooks, cerr_list *errs);
/* Game e is over or left: each program is sent the final state (when
** over), then ended and waited for. */
void bot_exec_end_game(bot_exec *x, engine *e);

/* ------------------------------------------------ search, root parallel */

/* The root's statistics of one seat: per option id, the visits, the times
** offered and the rewards summed; several searches' merged by id. */
typedef struct mcts_arm_total {
    char *id;
    uint64_t n, avail;
    double w;
} mcts_arm_total;

typedef struct mcts_root {
    mcts_arm_total *arms; /* in the order the ids were first added */
    size_t n, cap;
    long iterations;      /* summed */
    long samples;         /* states determinize sampled, summed */
    long checked;         /* ... of them checked against the seat's view, summed */
    int stopped;          /* a search was interrupted (Ctrl-C) */
} mcts_root;

/* Adds one option's statistics to r (a new id goes last). 0, or -1 on OOM. */
int mcts_root_add(mcts_root *r, const char *id, uint64_t n, uint64_t avail, double w);
/* Adds every arm of from to into, in from's order. 0, or -1 on OOM. */
int mcts_root_merge(mcts_root *into, const mcts_root *from);
void mcts_root_free(mcts_root *r);

/* One search's share of a decision: its iterations draw from the streams
** (stream, 0), (stream, 1), ...; it stops after `iterations` (0: no
** count) or when the monotonic clock passes `deadline` (0: none). start
** and counted only feed the hooks' tick (the seconds and the iterations of
** the decision so far). */
typedef struct mcts_share {
    uint64_t stream;
    long iterations;
    double start, deadline;
    long counted;
    long checked; /* the search's share of the decision's CAIRN_BOT_CHECKED_SAMPLES */
} mcts_share;

/* bot_mcts.c: one search (UCT, or ISMCTS in a game with secrets) from e for
** seat; the root's statistics for seat are added to out (and its
** iterations; out->stopped set when hooks->interrupted stopped it). 0, or
** -1 after appending an error. */
int bot_mcts_search(bot *b, engine *e, int seat, const mcts_share *share, const bot_hooks *hooks, mcts_root *out,
                    cerr_list *errs);

/* bot_parallel.c: the processes b's decision runs on: its `cores=`, else
** bot.h's default (bot_set_default_cores). */
int bot_cores_of(const bot *b);

/* bot_parallel.c: runs the searches of a decision, shares[0..n), on
** `procs` processes: this one runs shares 0, procs, 2 procs, ...; forked
** workers the others (worker p: shares p, p + procs, ...). Every share's
** root goes into roots[i]. A worker's error comes back as an error here;
** a worker that dies is reported with its signal or status. Ctrl-C
** (hooks->interrupted) stops them all with what they have. 0, or -1 after
** appending an error. */
int bot_parallel_run(bot *b, engine *e, int seat, const mcts_share *shares, size_t n, int procs,
                     const bot_hooks *hooks, mcts_root *roots, cerr_list *errs);

/* bot_mcts_root.c: the mcts and ismcts choice (plans the searches, merges
** their roots in order, picks the best mean among the well-visited options,
** explains). */
char *bot_mcts_choose(bot *b, engine *e, int seat, const bot_hooks *hooks, cerr_list *errs);

#endif
