/*
** sim_keyindex.c
** Open addressing over positions, hashed with FNV-1a, at most half full;
** the keys stay in the caller's array (no copy), so the index is only
** positions and can be rebuilt from the array whenever they disagree.
*/
#include "sim_keyindex.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static uint64_t hash_of(const char *s, size_t len) {
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < len; i++) h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
    return h;
}

static int same(const char *k, const char *key, size_t len) {
    return strncmp(k, key, len) == 0 && k[len] == '\0';
}

/* Puts position pos (its key k) into the table, which has room. */
static void put(sim_keyindex *x, const char *k, size_t pos) {
    size_t mask = x->cap - 1, i = (size_t)hash_of(k, strlen(k)) & mask;
    while (x->slot[i]) i = (i + 1) & mask;
    x->slot[i] = pos + 1;
}

/* A table for at least need keys, holding the array's first n. */
static int rebuild(sim_keyindex *x, size_t need, size_t n, const char *(*key_at)(const void *, size_t),
                   const void *array) {
    size_t cap = 16;
    while (cap < 2 * need) cap *= 2;
    size_t *slot = calloc(cap, sizeof *slot);
    if (!slot) return -1;
    free(x->slot);
    x->slot = slot, x->cap = cap, x->n = 0;
    for (size_t i = 0; i < n; i++) put(x, key_at(array, i), i);
    x->n = n;
    return 0;
}

size_t sim_keyindex_find(sim_keyindex *x, const char *key, size_t len, size_t n,
                         const char *(*key_at)(const void *array, size_t i), const void *array) {
    if ((x->n != n || 2 * (n + 1) > x->cap) && rebuild(x, n + 1, n, key_at, array) != 0) return (size_t)-1;
    size_t mask = x->cap - 1, i = (size_t)hash_of(key, len) & mask;
    for (; x->slot[i]; i = (i + 1) & mask)
        if (same(key_at(array, x->slot[i] - 1), key, len)) return x->slot[i] - 1;
    x->slot[i] = n + 1; /* new: the caller appends it at n */
    x->n = n + 1;
    return n;
}

void sim_keyindex_free(sim_keyindex *x) {
    free(x->slot);
    memset(x, 0, sizeof *x);
}

size_t sim_grow_cap(size_t n) {
    size_t cap = 1;
    while (cap < n) cap *= 2;
    return n ? cap : 0;
}
