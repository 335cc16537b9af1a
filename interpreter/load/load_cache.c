/*
** load_cache.c
** The parts of a ruleset load that the next load of the same ruleset in
** one process can reuse: parsed YAML files, one compiled schema set, the
** tables a schema passed, fingerprints (load_cache.h says what is kept and
** when it is dropped). Small lists searched linearly: a ruleset has tens of
** files and tables.
*/
#include "load_cache.h"
#include "grow.h"
#include "yload.h"

#include <stdlib.h>
#include <string.h>

typedef struct parsed_file {
    char *path;
    value *v; /* the master copy; loads get clones */
} parsed_file;

typedef struct passed_table {
    const value *schema; /* a node of the kept schema set */
    value *inst;         /* a copy of the instance that passed it */
} passed_table;

typedef struct known_fact {
    char *key; /* key_len bytes, then the len bytes remembered (one block) */
    size_t key_len;
    const char *bytes;
    size_t len;
} known_fact;

struct load_cache {
    parsed_file *files;
    size_t n_files, cap_files;
    parsed_file *trees; /* load_cache_keep_tree: the key in place of a path */
    size_t n_trees, cap_trees;
    schema_set *schemas;
    passed_table *passed;
    size_t n_passed, cap_passed;
    known_fact *known;
    size_t n_known, cap_known;
};

load_cache *load_cache_new(void) { return calloc(1, sizeof(load_cache)); }

static void forget_passes(load_cache *c) {
    for (size_t i = 0; i < c->n_passed; i++) value_free(c->passed[i].inst);
    c->n_passed = 0;
}

void load_cache_free(load_cache *c) {
    if (!c) return;
    for (size_t i = 0; i < c->n_files; i++) {
        free(c->files[i].path);
        value_free(c->files[i].v);
    }
    free(c->files);
    for (size_t i = 0; i < c->n_trees; i++) {
        free(c->trees[i].path);
        value_free(c->trees[i].v);
    }
    free(c->trees);
    forget_passes(c);
    free(c->passed);
    schema_set_free(c->schemas);
    for (size_t i = 0; i < c->n_known; i++) free(c->known[i].key);
    free(c->known);
    free(c);
}

value *load_cache_yaml(load_cache *c, const char *path, cerr_list *errs) {
    for (size_t i = 0; i < c->n_files; i++)
        if (strcmp(c->files[i].path, path) == 0) {
            value *copy = value_clone(c->files[i].v);
            if (!copy) cerr_addk(errs, path, 0, 0, NULL, "oom", "out of memory copying the file's values");
            return copy;
        }
    value *v = yload_file(path, errs);
    if (!v) return NULL;
    /* kept when there is room; a load works without it */
    value *master = value_clone(v);
    char *p = master ? cairn_strdup(path) : NULL;
    if (!p || GROW(c->files, c->cap_files, c->n_files + 1) != 0) {
        free(p);
        value_free(master);
        return v;
    }
    c->files[c->n_files++] = (parsed_file){p, master};
    return v;
}

const value *load_cache_shared(load_cache *c, const char *path) {
    for (size_t i = 0; i < c->n_files; i++)
        if (strcmp(c->files[i].path, path) == 0) return c->files[i].v;
    cerr_list quiet;
    cerr_init(&quiet, 1);
    value *v = yload_file(path, &quiet);
    cerr_free(&quiet);
    char *p = v ? cairn_strdup(path) : NULL;
    if (!p || GROW(c->files, c->cap_files, c->n_files + 1) != 0) {
        free(p);
        value_free(v);
        return NULL;
    }
    c->files[c->n_files++] = (parsed_file){p, v};
    return v;
}

void load_cache_keep_tree(load_cache *c, const char *key, value *v) {
    char *k = load_cache_tree(c, key) ? NULL : cairn_strdup(key);
    if (!k || GROW(c->trees, c->cap_trees, c->n_trees + 1) != 0) {
        free(k);
        value_free(v);
        return;
    }
    c->trees[c->n_trees++] = (parsed_file){k, v};
}

const value *load_cache_tree(const load_cache *c, const char *key) {
    for (size_t i = 0; i < c->n_trees; i++)
        if (strcmp(c->trees[i].path, key) == 0) return c->trees[i].v;
    return NULL;
}

schema_set *load_cache_take_schemas(load_cache *c) {
    schema_set *s = c->schemas;
    c->schemas = NULL;
    return s;
}

void load_cache_keep_schemas(load_cache *c, schema_set *s) {
    if (c->schemas && c->schemas != s) schema_set_free(c->schemas);
    if (!s) forget_passes(c); /* their schema nodes are gone */
    c->schemas = s;
}

int load_cache_validate(load_cache *c, schema_set *s, const value *sch, const char *sp,
                        const value *inst, cerr_list *errs) {
    for (size_t i = 0; i < c->n_passed; i++)
        if (c->passed[i].schema == sch && value_equal(c->passed[i].inst, inst, 1)) return 0;
    int oom_before = errs->oom;
    int n = schema_validate(s, sch, sp, inst, "", errs);
    if (n != 0 || errs->oom != oom_before) return n;
    value *copy = value_clone(inst);
    if (!copy || GROW(c->passed, c->cap_passed, c->n_passed + 1) != 0) {
        value_free(copy); /* not remembered: validated again next time */
        return 0;
    }
    c->passed[c->n_passed++] = (passed_table){sch, copy};
    return 0;
}

const char *load_cache_recall(const load_cache *c, const char *key, size_t key_len, size_t *len) {
    for (size_t i = 0; i < c->n_known; i++)
        if (c->known[i].key_len == key_len && memcmp(c->known[i].key, key, key_len) == 0) {
            *len = c->known[i].len;
            return c->known[i].bytes;
        }
    return NULL;
}

void load_cache_remember(load_cache *c, const char *key, size_t key_len, const char *bytes, size_t len) {
    char *k = malloc(key_len + len + 1);
    if (!k || GROW(c->known, c->cap_known, c->n_known + 1) != 0) {
        free(k);
        return;
    }
    memcpy(k, key, key_len);
    memcpy(k + key_len, bytes, len);
    k[key_len + len] = '\0';
    c->known[c->n_known++] = (known_fact){k, key_len, k + key_len, len};
}
