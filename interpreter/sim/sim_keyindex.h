/*
** sim_keyindex.h
** A hash index over the keys of an array that only grows (the coverage
** ids and score labels of cairn sim): finding a key costs about one string
** compare, not one per key, so 20,000 new keys a game stay linear.
*/
#ifndef CAIRN_SIM_KEYINDEX_H
#define CAIRN_SIM_KEYINDEX_H

#include <stddef.h>

/* Zero-initialise. Indexes the first n keys of its array; when the array
** and the index disagree (a record moved or read from elsewhere), the next
** find builds it again from the array. */
typedef struct sim_keyindex {
    size_t *slot; /* position + 1 of a key, 0 for an empty slot */
    size_t cap, n;
} sim_keyindex;

/* The position of key (len bytes, no NUL needed) among the n keys
** key_at(array, i) gives (each NUL-terminated): found, or n when it is not
** there, and then indexed as position n (the caller appends it there).
** (size_t)-1 when out of memory (nothing is indexed then). */
size_t sim_keyindex_find(sim_keyindex *x, const char *key, size_t len, size_t n,
                         const char *(*key_at)(const void *array, size_t i), const void *array);

void sim_keyindex_free(sim_keyindex *x); /* zeroes it */

/* The capacity an array that grows by sim_grow holds n items in. */
size_t sim_grow_cap(size_t n);

#endif
