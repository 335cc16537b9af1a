/*
** schema.h
** Validating value trees against schemas: a documented subset of JSON Schema
** draft 2020-12, written as YAML (see docs/schemas.md for the subset).
*/
#ifndef CAIRN_SCHEMA_H
#define CAIRN_SCHEMA_H

#include <stddef.h>

#include "error.h"
#include "limits.h"
#include "value.h"


/* A cache of loaded and checked schema files, keyed by canonical path
** (realpath). It owns every schema it returns: pointers stay valid until
** schema_set_free. Not thread-safe. */
typedef struct schema_set schema_set;

/* NULL on OOM. */
schema_set *schema_set_new(void);
/* A folder where a $ref'd file that is missing beside the referring schema
** is looked up by its name (cairn's own schemas folder), so that a ruleset
** folder copied out of the tree still finds components.schema.yaml. The
** string is copied; NULL turns the fallback off. 0, or -1 on OOM. */
int schema_set_fallback_dir(schema_set *s, const char *dir);

/* Adds a folder a $ref may lead into (resolved with realpath, so symlinks
** and ".." cannot lead out). A $ref'd file must lie inside the fallback
** folder or one of these; while none was added, inside the folder of the
** file the caller asked for (schema_load's path, schema_load_string's
** name) instead. A file outside is refused before it is opened.
** ruleset_schema_folders (ruleset.h) adds a ruleset's folders. The
** files the caller itself asks for are not checked: that is the caller's
** choice. A missing folder is ignored. 0, or -1 on OOM. */
int schema_set_allow_dir(schema_set *s, const char *dir);

/* Frees the set and every schema loaded into it. NULL-safe. */
void schema_set_free(schema_set *s);

/* Loads the schema file at path (once: later calls return the cached root),
** checks it, and loads and checks every file it $refs (resolved relative to
** the directory of the referring file). A fragment is allowed:
** "schemas/components.schema.yaml#/$defs/bag" returns that subschema.
** Returns the schema, owned by the set, or NULL after appending errors that
** point into the schema file (file:line:col). Checking refuses: a keyword
** outside the supported subset (keys starting with "x-" are ignored), a
** keyword value of the wrong type, a pattern outside the ECMA-262 subset
** pattern.h accepts, a $ref whose target is missing or outside the allowed
** folders (schema_set_allow_dir), and $ref cycles that never descend into
** the instance. Asking again for a file that failed appends its errors
** again. */
const value *schema_load(schema_set *s, const char *path, cerr_list *errs);

/* Same, from memory: name is what errors and locations call the text, and
** its directory is where relative $refs are looked up. Each call makes a
** new schema (strings are not cached by name). text need not be
** NUL-terminated. */
const value *schema_load_string(schema_set *s, const char *name, const char *text, size_t len,
                                cerr_list *errs);

/* Validates instance against schema and appends every violation to errs
** (past errs' cap they are counted, not stored). Returns the number of
** violations found (stored plus dropped); 0 means valid.
**
** schema: a schema this set returned (schema_load, schema_load_string) or
** any subschema inside one; or NULL, and then schema_path (a file path,
** optionally with a "#/json/pointer" fragment) is loaded first, and any
** load errors are appended and counted. schema_path may be NULL when schema
** is given; it is not used then. A schema the set did not load is refused
** with one error (its $refs and patterns were never checked).
**
** Each error points at the instance node (its file:line:col; for an unknown
** key, the key's own location) with the path inside the instance, prefixed
** by root_path ("" or NULL for none): `carts[2].capacity`. Messages say what
** was expected and what was found: `expected integer >= 0, got string
** "four"`. instance is not modified; it may be built in code (no location). */
int schema_validate(schema_set *s, const value *schema, const char *schema_path,
                    const value *instance, const char *root_path, cerr_list *errs);

#endif
