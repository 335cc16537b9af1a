/*
** luatest.h
** A ruleset's Lua unit tests and generators, run by `cairn test` inside the
** sandbox games use, against the ruleset's real data: nothing outside the
** ruleset folder holds a copy of it. A unit test file (manifest `unit:`)
** passes when its chunk runs to the end; a generator (`generate:`) returns
** {[file] = text} for files of the ruleset folder, compared with them, or
** written by --regen. Scripts reach the loaded ruleset through the global
** `test` (docs/testing.md).
*/
#ifndef CAIRN_LUATEST_H
#define CAIRN_LUATEST_H

#include "ruleset.h"
#include "strbuf.h"

/* Runs one Lua unit test file of rs (loaded from `name`, as the user gave
** it) in a fresh sandbox whose `require` looks in the file's own folder,
** then the ruleset's folders, then the stdlib. Returns 0 when it ran to the
** end, -1 with why (file:line: message and the traceback) otherwise. */
int luatest_run_unit(const ruleset *rs, const char *name, const char *file, strbuf *why);
/* Where the unit tests' print/g.debug lines go ("debug FILE:LINE: text"):
** cairn test --debug gives stdout; NULL (the default) drops them. Set
** before the run (one command per process). */
void luatest_set_debug(FILE *out);

/* One file a generator made: path from the working folder (inside the
** ruleset's folder) and its text. */
typedef struct luatest_file {
    char *path;
    char *text;
} luatest_file;

/* Runs the generator script `file` the same way; it must return a table
** {[PATH] = TEXT} where each PATH is relative to the ruleset's folder and
** stays inside it (no "..", not absolute). Fills *files (sorted by path;
** free with luatest_files_free) and returns 0, or -1 with why. */
int luatest_run_generator(const ruleset *rs, const char *name, const char *file, luatest_file **files,
                          size_t *n, strbuf *why);

void luatest_files_free(luatest_file *files, size_t n);

#endif
