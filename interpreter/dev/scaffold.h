/*
** scaffold.h
** `cairn new NAME [--extends RULESET]`: a ruleset folder (or a mod) that
** passes `cairn check` and `cairn test` as soon as it is made.
*/
#ifndef CAIRN_SCAFFOLD_H
#define CAIRN_SCAFFOLD_H

#include <stdio.h>

#include "cliflags.h"
#include "error.h"

/* The flags of `cairn new`. */
extern const cli_table *const scaffold_flag_tables[];

#define SCAFFOLD_USAGE "cairn new NAME [--extends RULESET]"
#define SCAFFOLD_SUMMARY "make a new ruleset folder (a small working game) or a mod of one"
#define SCAFFOLD_HELP                                                                     \
    "Makes the folder NAME in the current folder: a small complete game (Nim: take 1\n"    \
    "to 3 stones in turn, who takes the last wins) with its manifest, a data table and\n"  \
    "its schema, text, the rules in the fast decision form, a state schema, scenario\n"    \
    "tests and a golden playthrough, and a README that walks through each file. It\n"     \
    "passes `cairn check` and `cairn test` as it is; edit it into your game.\n"           \
    "\n"                                                                                  \
    "  --extends RULESET   a mod of RULESET instead, restating nothing yet\n"             \
    "\n"                                                                                  \
    "Nothing that exists is written over. Exit status: 0 made, 1 an error, 2 usage.\n"

/* Makes dir (which must not exist) for a ruleset named name: a game, or a
** mod of extends. The golden file is written by running the new ruleset's
** tests. Returns 0, or -1 with the errors. */
int scaffold_new(const char *dir, const char *name, const char *extends, FILE *out, cerr_list *errs);

/* `cairn new ...`, argv[0] being "new". */
int scaffold_command(int argc, char **argv);

#endif
