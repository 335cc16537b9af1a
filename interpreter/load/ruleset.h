/*
** ruleset.h
** Ruleset resolution: find a ruleset folder along the search path, follow
** `extends`, pick option values (defaults, presets, seat-count forcing,
** requires/excludes), apply option data overlays, validate every data file
** against its schema, list the Lua scripts to run, and fingerprint every
** file that took part. The result is immutable input for a game.
*/
#ifndef CAIRN_RULESET_H
#define CAIRN_RULESET_H

#include <stddef.h>
#include "cliflags.h"
#include "error.h"
#include "schema.h"
#include "value.h"

typedef enum { ROPT_SWITCH, ROPT_CHOICE } ropt_type;

typedef struct ruleset_option {
    const char *id;          /* points into manifest */
    const char *name;
    const char *description;
    ropt_type type;
    const value *def;        /* the option's manifest entry */
} ruleset_option;

typedef struct ruleset {
    char *id, *name, *version;
    int min_players, max_players;
    char *dir;                /* folder of the ruleset asked for */
    char **module_dirs;       /* this folder, then each extends parent, for require() */
    size_t n_module_dirs;
    value *manifest;          /* manifest after extends merge (file refs made absolute) */
    value *data;              /* map: data name -> contents, overlays applied (g.data) */
    value *options;           /* map: option id -> chosen value (bool or item id) (g.options) */
    ruleset_option *opts;     /* every declared option, manifest order */
    size_t n_opts;
    char **scripts;           /* main rules script, then each chosen option's scripts */
    size_t n_scripts;
    value *text;              /* map: language code -> map key -> text (may be empty) */
    value *visibility;        /* the manifest's visibility list (borrowed from manifest; may be NULL) */
    int players;              /* seat count used to force options (0: not given) */
    char fingerprint[65];     /* hex SHA-256 over every file that took part */
    size_t n_files;           /* how many files took part */
} ruleset;

/* What the caller asks for: option choices as "id" (switch on), "id=value"
** ("id=false" turns a switch off; a choice takes an item id), a preset name
** and a seat count (0 when unknown). Strings are borrowed. */
typedef struct ruleset_request {
    const char *const *choices;
    size_t n_choices;
    const char *preset;
    int players;
    /* data overrides "DATA.PATH=VALUE" (--set), applied in order after the
    ** option overlays and before validation (ruleset_apply_set) */
    const char *const *sets;
    size_t n_sets;
} ruleset_request;

/* The command-line flags that choose a ruleset's variant, shared by
** `cairn check`, `play` and `sim` so they read them alike (ruleset_flags.c):
** --option/-o ID[=VALUE], --preset NAME, --players/-p N, and for check and
** play --set DATA.PATH=VALUE (sim reads --set per variant, in its own
** table). Strings are borrowed from argv. */
typedef struct ruleset_flags {
    const char **choices; /* room for every argument */
    size_t n_choices;
    const char *preset;
    int players; /* 0: not given */
    const char **sets; /* --set, room for every argument */
    size_t n_sets;
} ruleset_flags;

/* The rows a command adds to its flag tables (cliflags.h). */
extern const cli_table ruleset_flag_table;     /* --option, --preset, --players */
extern const cli_table ruleset_set_flag_table; /* --set */

/* 0, or -1 on OOM. */
int ruleset_flags_init(ruleset_flags *f, int argc);
void ruleset_flags_free(ruleset_flags *f);
/* Takes a flag read by cli_next when it is one of the two tables' above.
** Returns 1 when taken, 0 when it is another flag, -1 with one error in
** errs saying what was expected (keyed for the console's languages,
** "flags.*"): a seat count outside 1..16, a --preset or --players given
** twice, a --set that is not DATA.PATH=VALUE. */
int ruleset_flags_apply(ruleset_flags *f, const cli_item *it, cerr_list *errs);
/* The request the flags make (borrows from f). */
ruleset_request ruleset_flags_request(const ruleset_flags *f);

/* --set: a data override without writing a mod. Puts the YAML value text at
** the dotted path below root ("a.b.2.c": maps by key, lists by index from
** 1, as Lua counts). The path must exist. 0, or -1 with *why (malloc'd):
** `no "c" there in the data`, a value that does not read as YAML; and, when
** phrase is not NULL, *phrase: the same reason as a phrase the console words
** (base/error.h, cerr_phrase; malloc'd, NULL without memory). */
int ruleset_data_set(value *root, const char *path, const char *yaml, char **why, char **phrase);
/* Splits "DATA.PATH=VALUE" (scoring.bonus=4); 0, or -1 with *why saying
** what was expected. name and path are malloc'd, *value points into set. */
int ruleset_set_split(const char *set, char **name, char **path, const char **value, char **why);
/* Applies one "DATA.PATH=VALUE" to data (a map: data name -> contents, as
** ruleset.data). 0, or -1 with *why naming the data, the path or the value. */
int ruleset_apply_set(value *data, const char *set, char **why, char **phrase);

/* Folders searched for a ruleset given by name, in order: ./rulesets, the
** installed share folder, then each entry of CAIRN_PATH (colon-separated).
** Returns the folder (malloc'd) or NULL. A name containing '/' is a path. */
char *ruleset_find(const char *name);
/* The same, with *oom set when a folder could not be tried for lack of
** memory (NULL then does not mean "no such ruleset"). */
char *ruleset_find_oom(const char *name, int *oom);

/* 1 if the folder dir, symlinks resolved, lies inside a folder of the
** search path (./rulesets, the share folder, CAIRN_PATH): a save naming it
** may be opened without --trust (save.c). */
int ruleset_on_search_path(const char *dir);

/* Loads, resolves and validates. Returns NULL after appending every error
** found (all data files are checked, not just the first bad one). */
ruleset *ruleset_load(const char *name_or_path, const ruleset_request *req, cerr_list *errs);

/* The same, for one combination of options and seat count that `cairn
** check` tries: when the load fails only because the manifest itself
** forbids the request (requires/excludes that cannot settle, a value forced
** by the seat count against a choice, a seat count outside min..max),
** *refused is set to 1 and errs holds the reasons; after any other error
** (a missing overlay, a schema violation, ...) it is 0. */
ruleset *ruleset_load_combination(const char *name_or_path, const ruleset_request *req, int *refused,
                                  cerr_list *errs);

/* ruleset_load_combination for many loads of one ruleset in a row (`cairn
** check`): what cache (load_cache.h, may be NULL) kept from the loads before
** is reused, and this load's files, schemas and passes are kept for the
** next. The result and every error are those of an uncached load. */
struct load_cache;
ruleset *ruleset_load_cached(const char *name_or_path, const ruleset_request *req,
                             struct load_cache *cache, int *refused, cerr_list *errs);
/* Only the verdict of ruleset_load_cached: 0 loads, -1 failed (errors
** appended), with *refused as it sets it. A combination (the options it
** resolves to, and --set) that loaded without an error before in cache is
** not built again: its data, text and scripts depend on nothing else, and
** the seat count was checked before. What such a load would only read is
** not copied: the manifest an earlier clean load left and the data tables
** no overlay names are the cache's own, taken back before the ruleset is
** freed. */
int ruleset_verdict_cached(const char *name_or_path, const ruleset_request *req,
                           struct load_cache *cache, int *refused, cerr_list *errs);
void ruleset_free(ruleset *r);

/* A script's name as errors show it, and its chunk name in the sandbox:
** relative to the ruleset's parent folder when it lies below it
** ("connect4/rules.lua", a pointer into path), else path itself. */
const char *ruleset_script_shown(const ruleset *r, const char *path);

/* Every .lua file below the ruleset's folder and each extends parent's,
** tests/ included, as paths from the working folder. The caller frees the
** list and its strings (ruleset_list_free). *n is 0 and NULL returned when
** there are none (or out of memory). */
char **ruleset_lua_files(const ruleset *r, size_t *n);

/* 1 when a visibility rule hides anything (a policy other than public). */
int ruleset_has_secrets(const ruleset *r);

/* "2 players" or "2-4 players", into buf (always NUL-terminated). */
void ruleset_players_text(const ruleset *r, char *buf, size_t n);

/* The option declared with this id, or NULL. */
const ruleset_option *ruleset_option_find(const ruleset *r, const char *id);

/* The installed share folder (rulesets/, schemas/, lua/): <bin>/../share/cairn
** when present, else the one compiled in. Never NULL. */
const char *ruleset_share_dir(void);

/* The engine's Lua stdlib folder (stdlib in a checkout, else the
** installed share folder). Never NULL. */
const char *ruleset_stdlib_dir(void);

/* The schemas folder (./schemas in a checkout, else installed). Never NULL. */
const char *ruleset_schemas_dir(void);

/* Tells schema set s where this ruleset's schemas may $ref: its folder,
** its extends parents' and cairn's schemas folder (also the fallback for a
** $ref'd file missing beside its schema). Give every set that loads the
** ruleset's schemas the same folders, so that they agree. 0, or -1 on OOM. */
int ruleset_schema_folders(const ruleset *r, schema_set *s);

/* Every ruleset name found along the search path (malloc'd list of malloc'd
** strings, sorted, de-duplicated). */
char **ruleset_list(size_t *n);
void ruleset_list_free(char **names, size_t n);

#endif
