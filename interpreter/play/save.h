/*
** save.h
** Saved games and scenarios. A save holds what makes the game (ruleset id,
** version and fingerprint, options, seats, seed, the decision log) plus a
** snapshot of the state and RNG; loading replays the log and checks that it
** reproduces the snapshot. Writes are atomic: a temporary file in the same
** folder, fsync, rename, fsync of the folder. See docs/saves.md.
*/
#ifndef CAIRN_SAVE_H
#define CAIRN_SAVE_H

#include "engine.h"
#include "error.h"
#include "value.h"

/* The save as a value tree (what save_write writes). NULL on OOM. */
value *save_to_value(const engine *e);

/* Writes the game to path atomically: on any failure the file at path is
** as it was. Returns 0, or -1 with an error naming the path. */
int save_write(const engine *e, const char *path, cerr_list *errs);

/* Writes text to path atomically, as a save is written (temporary file,
** fsync, rename): cairn test --regen writes golden files with it. Returns
** 0, or -1 with an error naming the path (the file is then as it was). */
int save_write_text(const char *path, const char *text, cerr_list *errs);

/* What save_load's note says, as facts for a caller that words them in its
** own language (the console): the save was loaded as a scenario (the
** ruleset changed), and how many seats an outside program played (exec:),
** played by people now. */
typedef struct save_load_facts {
    int as_scenario;
    size_t unseated;
} save_load_facts;

typedef struct save_load_opts {
    /* The ruleset changed since the save (fingerprint differs): start a new
    ** game from the saved snapshot as a scenario instead of refusing. */
    int as_scenario;
    int checks;    /* as engine_config.checks */
    long budget;   /* as engine_config; 0: default */
    size_t mem_cap;
    /* The save may name a ruleset folder anywhere (--trust). Without it, a
    ** folder that is neither on the search path nor beside the save is
    ** refused before any of its Lua runs (save_ruleset_trusted). */
    int trust;
    /* Without trust: asked about such a folder before it is refused (the
    ** REPL asks the person at the keyboard); returns 1 to open it. NULL:
    ** refused. */
    int (*ask_trust)(void *ud, const char *folder);
    void *ask_ud;
    save_load_facts *facts; /* when not NULL: filled as the note is written */
} save_load_opts;

/* Whether the ruleset a save or scenario at path names (a name, or a
** folder when it holds a '/') may be opened: a name, a folder on the search
** path, a folder beside the file (inside the save's own folder), or trust.
** Returns 0, or -1 with an error saying which folder and what to do. */
int save_ruleset_trusted(const char *path, const char *ruleset, int trust, cerr_list *errs);
/* The same, asking ask (when not NULL) before refusing. */
int save_ruleset_trusted_ask(const char *path, const char *ruleset, int trust,
                             int (*ask)(void *ud, const char *folder), void *ud, cerr_list *errs);

/* Reads, validates (schemas/save.schema.yaml) and replays a save into a new
** engine. The caller's current game is never touched: on any failure
** (unreadable, truncated, not a cairn save, schema violation, ruleset
** changed without as_scenario, replay not reproducing the snapshot) NULL is
** returned with errors saying what is wrong. opts may be NULL. *note, when
** not NULL, gets a malloc'd one-line remark (e.g. "loaded as a scenario:
** the ruleset changed since the save") or NULL. */
engine *save_load(const char *path, const save_load_opts *opts, char **note, cerr_list *errs);

/* Writes the current state as a scenario file (state + rng + ruleset +
** seat count + option choices), atomically; meant to be edited by hand. */
int save_export_scenario(const engine *e, const char *path, cerr_list *errs);

/* Reads a scenario file (validated against save.schema.yaml#/$defs/scenario)
** and starts a game from it. cfg gives seats, seed, language and may leave
** ruleset NULL and players 0 (then the file's values are used); its own
** scenario fields are ignored. NULL with errors on failure. */
engine *save_start_scenario(const char *path, const engine_config *cfg, cerr_list *errs);

/* Test hook, called after the temporary file is written and synced and
** before the rename (a test makes it _exit to simulate a crash there).
** Process-wide on purpose: it exists only for that test. */
extern void (*save_before_rename_hook)(const char *tmp_path);
/* Test hook, called right after the temporary file is created, with its
** descriptor (a test points it at /dev/full to make the disk full).
** Process-wide on purpose, as the one above. */
extern void (*save_after_create_hook)(int fd);

#endif
