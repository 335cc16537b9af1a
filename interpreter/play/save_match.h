/*
** save_match.h
** Whether a file about to be saved over holds the game being saved (the
** same ruleset, seed, options and seats, its decisions the first of this
** game's) or something else, which the console asks about before it is
** replaced.
*/
#ifndef CAIRN_SAVE_MATCH_H
#define CAIRN_SAVE_MATCH_H

#include "engine.h"

typedef enum {
    SAVE_MATCH_NONE,     /* no file there */
    SAVE_MATCH_SAME,     /* this game, at or before where it is now: saving loses nothing */
    SAVE_MATCH_OTHER,    /* another game, or another line of this one */
    SAVE_MATCH_NOT_SAVE  /* a file that is no cairn save */
} save_match_kind;

/* OTHER: how the file's game differs from this one */
typedef enum {
    SAVE_MATCH_FURTHER,    /* this game, `decisions` decisions further on */
    SAVE_MATCH_OTHER_LINE, /* this game with `decisions` decisions, departing at decision `departs` */
    SAVE_MATCH_OTHER_GAME  /* a game of `ruleset`, `seed`, with `decisions` decisions */
} save_match_how;

typedef struct save_match {
    save_match_kind kind;
    /* OTHER: the facts the console words in the game's language (the play
    ** layer has no catalogue; `what` is the same in English, for logs) */
    save_match_how how;
    size_t decisions, departs;
    char ruleset[64]; /* the file's ruleset id, cut to fit */
    long long seed;
    /* OTHER: what the file holds, for the question (malloc'd): "a game of
    ** yak, seed 5, with 87 decisions", "another line of this game, with 87
    ** decisions (this one departs from it at decision 13)", "this game, 4
    ** decisions further on"; NOT_SAVE: "no cairn save". NULL otherwise. */
    char *what;
} save_match;

/* Reads the file at path (only as YAML: no ruleset is opened, nothing
** runs) and compares it with e. Returns 0 with m filled, or -1 when out of
** memory. */
int save_match_file(const char *path, const engine *e, save_match *m);
void save_match_free(save_match *m);

#endif
