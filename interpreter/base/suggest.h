/*
** suggest.h
** "Did you mean": edit distances between short words, and the nearest of
** a set of candidates. How far a hint may be stays with each caller.
*/
#ifndef CAIRN_SUGGEST_H
#define CAIRN_SUGGEST_H

#include <stddef.h>
#include <stdint.h>

/* Words longer than this (in bytes) are never near anything. */
#if !defined(SUGGEST_MAX_LEN)
#define SUGGEST_MAX_LEN 64
#endif

#define SUGGEST_FAR SIZE_MAX /* the distance of words too long to compare */

/* Levenshtein distance: insertions, deletions and substitutions of one
** byte each count 1. SUGGEST_FAR past SUGGEST_MAX_LEN. */
size_t suggest_distance(const char *a, const char *b);

/* The same, where swapping two neighbouring bytes also counts 1 (optimal
** string alignment: no substring is edited twice). */
size_t suggest_distance_swaps(const char *a, const char *b);

/* The closest candidate to a word: start, try each candidate, read best.
** Strings are borrowed and must outlive the search. */
typedef struct suggest_nearest {
    const char *word;
    size_t limit;     /* the farthest a candidate may be */
    int swaps;        /* measure with suggest_distance_swaps */
    const char *best; /* the first of the closest candidates, NULL if none is within limit */
    size_t dist;      /* best's distance; SUGGEST_FAR while best is NULL */
} suggest_nearest;

suggest_nearest suggest_start(const char *word, size_t limit, int swaps);

/* Considers one candidate. One equal to the word is skipped: it is not
** a misspelling of itself. */
void suggest_try(suggest_nearest *s, const char *candidate);

#endif
