/*
** value.h
** The value tree: null, bool, integer, string, list and map, each node
** remembering the file, line and column it came from. YAML documents, ruleset
** data, game state and saves are all value trees. Maps keep insertion order.
*/
#ifndef CAIRN_VALUE_H
#define CAIRN_VALUE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef enum {
    CV_NULL,
    CV_BOOL,
    CV_INT,
    CV_STR,
    CV_LIST,
    CV_MAP
} cv_type;

/* A file name shared by every node loaded from that file (refcounted). */
typedef struct cv_file {
    unsigned refs;
    char name[];
} cv_file;

typedef struct value value;

typedef struct cv_entry {
    value *key; /* always CV_STR; carries the key's own location */
    value *val;
} cv_entry;

struct value {
    cv_type type;
    int line, col;  /* 1-based; 0 for values built in code */
    cv_file *file;  /* NULL for values built in code */
    union {
        int b;
        int64_t i;
        struct { char *s; size_t len; } str;  /* NUL-terminated too */
        struct { value **items; size_t n, cap; } list;
        struct { cv_entry *items; size_t n, cap; } map;
    } u;
};

/* --- file names --- */
cv_file *cv_file_new(const char *name);  /* refs = 1; NULL on OOM */
cv_file *cv_file_ref(cv_file *f);         /* NULL-safe */
void cv_file_unref(cv_file *f);           /* NULL-safe */

/* --- construction; every constructor returns NULL on OOM --- */
value *value_null(void);
value *value_bool(int b);
value *value_int(int64_t i);
value *value_str(const char *s);              /* copies */
value *value_strn(const char *s, size_t len);  /* copies; may hold NULs */
value *value_list(void);
value *value_map(void);

/* Sets where v came from; takes a new reference on file. */
void value_set_loc(value *v, cv_file *file, int line, int col);

/* Frees v and everything below it. NULL-safe. */
void value_free(value *v);

/* Deep copy, locations included; linear in the size of v. NULL on OOM. */
value *value_clone(const value *v);

/* --- lists --- */
/* Appends item (ownership passes to the list). Returns 0, or -1 on OOM
** (item is then freed). */
int value_list_push(value *list, value *item);
/* Room for one more item in a list (its capacity doubled when full): 0, or
** -1 on OOM, the list as it was. */
int value_list_room(value *list);
static inline size_t value_len(const value *v) {
    return v->type == CV_LIST ? v->u.list.n : v->type == CV_MAP ? v->u.map.n : 0;
}

/* --- maps --- */
/* Looks key up; NULL when absent or when m is not a map. */
value *value_map_get(const value *m, const char *key);
cv_entry *value_map_entry(const value *m, const char *key);
/* Sets key to val, replacing (and freeing) an existing value in place,
** else appending. Ownership of val passes to the map. Returns 0 or -1 on
** OOM (val is then freed). */
int value_map_set(value *m, const char *key, value *val);
/* Same, with a key node (ownership passes; must be CV_STR) so the key keeps
** its location. */
int value_map_set_node(value *m, value *key, value *val);
/* Appends key (CV_STR; ownership passes) and val WITHOUT looking for an
** existing entry: the caller guarantees the key is new (a copy of a map, a
** loader that checks duplicates itself). Linear where value_map_set_node is
** quadratic over a whole map. 0, or -1 on OOM (key and val are freed). */
int value_map_append(value *m, value *key, value *val);
/* Removes key if present; returns 1 if removed. */
int value_map_del(value *m, const char *key);

/* --- typed access with defaults --- */
int64_t value_get_int(const value *m, const char *key, int64_t dflt);
const char *value_get_str(const value *m, const char *key, const char *dflt);
int value_get_bool(const value *m, const char *key, int dflt);

/* --- comparison and hashing --- */
/* Structural equality; locations ignored; map order matters only if
** ordered != 0. */
int value_equal(const value *a, const value *b, int ordered);
/* 64-bit FNV-1a over a canonical encoding (map order matters). */
uint64_t value_hash(const value *v);

const char *value_type_name(cv_type t);

/* One-line description of a value for messages: `string "four"`,
** `integer 3`, `a list of 2 items`. Returns a malloc'd string. */
char *value_describe(const value *v);

/* --- dumping --- */
/* Writes v as block-style YAML, deterministic, 2-space indent. Strings are
** quoted when plain style would not read back as the same string. Returns 0
** or -1 on a write error. */
int value_dump_yaml(FILE *out, const value *v);
/* Same, into a malloc'd string (NULL on OOM). */
char *value_to_yaml(const value *v);

/* --- deep merge (ruleset overlays) --- */
/* Merges overlay into base in place: maps merge key by key, everything
** else is replaced. A list in the overlay written as a map
** `{append: [...]}` is appended to the base list instead of replacing it.
** Overlay is not consumed. Returns 0 or -1 on OOM. */
int value_merge(value *base, const value *overlay);

#endif
