/*
** suggest.c
** "Did you mean": the edit distance every hint in cairn is measured with,
** and the search for the nearest candidate.
*/
#include "suggest.h"

#include <string.h>

static size_t min2(size_t x, size_t y) { return x < y ? x : y; }

/* Three rows of the distance table (the one before the previous is what
** a swap looks back to). */
static size_t distance(const char *a, const char *b, int swaps) {
    size_t la = strlen(a), lb = strlen(b);
    if (la > SUGGEST_MAX_LEN || lb > SUGGEST_MAX_LEN) return SUGGEST_FAR;
    size_t rows[3][SUGGEST_MAX_LEN + 1];
    size_t *before = rows[0], *prev = rows[1], *cur = rows[2];
    for (size_t j = 0; j <= lb; j++) prev[j] = j;
    for (size_t i = 1; i <= la; i++) {
        cur[0] = i;
        for (size_t j = 1; j <= lb; j++) {
            size_t best = min2(prev[j] + 1, cur[j - 1] + 1);
            best = min2(best, prev[j - 1] + (a[i - 1] != b[j - 1]));
            if (swaps && i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
                best = min2(best, before[j - 2] + 1);
            cur[j] = best;
        }
        size_t *t = before;
        before = prev;
        prev = cur;
        cur = t;
    }
    return prev[lb];
}

size_t suggest_distance(const char *a, const char *b) { return distance(a, b, 0); }

size_t suggest_distance_swaps(const char *a, const char *b) { return distance(a, b, 1); }

suggest_nearest suggest_start(const char *word, size_t limit, int swaps) {
    suggest_nearest s = {word, limit, swaps, NULL, SUGGEST_FAR};
    return s;
}

void suggest_try(suggest_nearest *s, const char *candidate) {
    if (strcmp(candidate, s->word) == 0) return;
    size_t d = distance(s->word, candidate, s->swaps);
    if (d <= s->limit && d < s->dist) {
        s->dist = d;
        s->best = candidate;
    }
}
