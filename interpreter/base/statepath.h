/*
** statepath.h
** Paths into a state or a view as a modder writes them: `players[2].food`,
** `market`, `board.cells[3][4]` (lists from 1, as Lua counts; `a.2` is
** `a[2]`). Parsing, walking a value tree, naming the longest prefix that
** exists, and listing the paths where two trees differ (trace). Used by
** the REPL's `state PATH` and `set PATH VALUE` (repl_inspect.c, engine_edit.c) and
** by the trace (engine_debug_channel.c).
*/
#ifndef CAIRN_STATEPATH_H
#define CAIRN_STATEPATH_H

#include <stddef.h>

#include "value.h"

typedef struct statepath_step {
    char *key;  /* a map key (malloc'd), or NULL for ... */
    long index; /* ... a list index from 1 */
} statepath_step;

typedef struct statepath {
    statepath_step *steps;
    size_t n;
} statepath;

/* Reads text into p (zero it first). 0, or -1 with *why (malloc'd) saying
** what is wrong and where ("players[x]: an index is a number from 1"). An
** empty path is the whole tree. */
int statepath_parse(const char *text, statepath *p, char **why);
/* The same with the error added to errs, keyed for the console's languages
** (base/error.h: "path.index", "path.first_name", "path.expected_dot",
** "path.expected_name", "path.blank" with the text, and for expected_dot
** the rest that follows; "oom"). */
struct cerr_list;
int statepath_parse_errs(const char *text, statepath *p, struct cerr_list *errs);
void statepath_free(statepath *p);

/* The node p names below root, or NULL; *reached gets how many steps exist
** (the longest existing prefix). A key step on a list is an index when it
** is a number; an index step on a map is that key as text. */
value *statepath_get(const value *root, const statepath *p, size_t *reached);

/* The first n steps as text ("players[2].food"; "" for none). malloc'd. */
char *statepath_format(const statepath *p, size_t n);

/* Appends to out (", "-separated) the paths where a and b differ, the
** shallowest that tell the change (a map key added, removed or changed; a
** list item changed; a list whose length changed is named itself); at most
** max paths, then "and N more". Returns how many differ (0: equal), or -1
** on OOM. */
struct strbuf;
long statepath_diff(const value *a, const value *b, size_t max, struct strbuf *out);

#endif
