/*
** load_cache.h
** What loading one ruleset many times in one process can share between the
** loads (`cairn check` loads it once as asked and once more per option
** value): each YAML file parsed once (every load gets its own copy to merge
** overlays into), one schema set (each schema read and compiled once), the
** tables a schema has already passed (an equal table is not validated
** again) and what was worked out from the files alone (the fingerprint of
** a file list, a folder's .lua files, whether a path stays inside, which
** combinations of options loaded cleanly, the manifest a clean load left).
** The files are taken not to change while the cache lives; a load that finds errors
** reports them as an uncached load would, and the schema set and the passes
** it vouched for are dropped after it. Not for two threads.
*/
#ifndef CAIRN_LOAD_CACHE_H
#define CAIRN_LOAD_CACHE_H

#include "error.h"
#include "schema.h"
#include "value.h"

typedef struct load_cache load_cache;

load_cache *load_cache_new(void); /* NULL: out of memory */
void load_cache_free(load_cache *c); /* NULL-safe */

/* A copy of the YAML file at path (the caller owns it), parsed the first
** time only. A file that does not parse is not kept: each load parses it
** again and reports the same errors. */
value *load_cache_yaml(load_cache *c, const char *path, cerr_list *errs);

/* The cache's own parse of the YAML file at path, parsed now if it was
** not: read only, and alive as long as the cache (a load that only wants
** a verdict reads the tables nothing changes without copying them). NULL
** when the file does not parse (nothing is reported: a load that reads it
** reports that) or there was no room to keep it. */
const value *load_cache_shared(load_cache *c, const char *path);

/* A tree kept under key (the cache owns it from now on; a second one
** under the same key is freed), and the tree kept under key, or NULL. */
void load_cache_keep_tree(load_cache *c, const char *key, value *v);
const value *load_cache_tree(const load_cache *c, const char *key);

/* The schema set kept by an earlier load, handed over (the caller owns it
** until it gives it back), or NULL: make a new one. */
schema_set *load_cache_take_schemas(load_cache *c);
/* Gives a schema set back for the next load (owned by the cache from now
** on). NULL: the set taken was freed (a load failed), and every pass
** remembered with it is forgotten. */
void load_cache_keep_schemas(load_cache *c, schema_set *s);

/* schema_validate(s, sch, sp, inst, "", errs), unless an equal instance
** (values and map order) passed sch in this set before: a pass is
** remembered, an error never. Returns the number of errors. */
int load_cache_validate(load_cache *c, schema_set *s, const value *sch, const char *sp,
                        const value *inst, cerr_list *errs);

/* What a load worked out from the files and nothing else (a fingerprint,
** a folder's .lua files, whether a path stays inside its folder), by a key
** of key_len bytes: the bytes remembered (borrowed, *len set), or NULL.
** load_cache_remember keeps a copy (nothing on out of memory: it is worked
** out again next time). */
const char *load_cache_recall(const load_cache *c, const char *key, size_t key_len, size_t *len);
void load_cache_remember(load_cache *c, const char *key, size_t key_len, const char *bytes, size_t len);

#endif
