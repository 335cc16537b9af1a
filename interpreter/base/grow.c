/*
** grow.c
** Growing arrays by doubling (grow.h).
*/
#include "grow.h"

#include <stdint.h>
#include <stdlib.h>

int grow_array(void **items, size_t *cap, size_t need, size_t size) {
    if (need <= *cap) return 0;
    if (size == 0) return -1;
    size_t c = *cap ? *cap : 4;
    while (c < need) {
        if (c > SIZE_MAX / 2) return -1;
        c *= 2;
    }
    if (c > SIZE_MAX / size) return -1;
    void *p = realloc(*items, c * size);
    if (!p) return -1;
    *items = p;
    *cap = c;
    return 0;
}
