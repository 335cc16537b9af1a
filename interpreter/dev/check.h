/*
** check.h
** What `cairn check` verifies beyond loading the ruleset as asked: every
** value of every option loaded in a combination the manifest allows (its
** overlay merged over the data and validated, its scripts found, whatever
** the defaults), every Lua script of the ruleset compiled without running
** it, and what a mod's tests are.
*/
#ifndef CAIRN_CHECK_H
#define CAIRN_CHECK_H

#include <stdio.h>

#include "error.h"
#include "ruleset.h"

struct load_cache;

/* Loads the ruleset `name` once for each value of each option of r (each
** switch on and off, each item of each choice) chosen on its own, at the
** first seat count from players.min where the manifest allows it. Appends
** every error found, each once. A value the manifest forbids at every seat
** count is not an error (another combination may allow it; smoke play tries
** them): it gets a note on notes (may be NULL; see check_note_tests).
** Returns the number of
** values whose load failed. cache (may be NULL) is what the loads share
** (load_cache.h): r's own load, made with it, leaves it ready. */
int check_option_values(const char *name, const ruleset *r, struct load_cache *cache, cerr_list *notes,
                        cerr_list *errs);

/* Compiles, without running it, every script the manifest names (the main
** rules, every option's scripts chosen or not, the `unit:` tests and the
** `generate:` scripts) and every other .lua file of the ruleset's folders
** (modules, test helpers), in text mode as the sandbox does. Appends
** "file:line: message" for each that does not compile, and an error at the
** manifest's line for a `unit:` or `generate:` file that is not there.
** sandboxes_follow: sandboxes will load the scripts in this process (smoke
** play, the data check), so each is compiled as the sandbox compiles it and
** kept (sandbox_precompile), sparing them the work; else each is compiled
** as written, the cheaper pass. Returns the number of failures. */
int check_compile_scripts(const ruleset *r, int sandboxes_follow, cerr_list *errs);

/* cairn check's notes are not errors but are kept as cairn_errors in a
** list of their own: an English message and a key ("check.note.*") with
** its arguments, so that the caller words each in its language (main.c:
** the console's catalogue, "error.check.note.*", after "note: ").
**
** Adds a note when r is a mod (its manifest `extends` another) that has no
** tests at all (scenario, golden, unit, generated): it inherits its
** parent's only when its manifest says so (`inherit:`). */
void check_note_tests(const ruleset *r, cerr_list *notes);

/* Adds a note for each language of r that lacks keys of English
** (check_text.c): those texts would show in English. */
void check_note_texts(const ruleset *r, cerr_list *notes);

#endif
