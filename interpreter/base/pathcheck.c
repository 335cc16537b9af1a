/*
** pathcheck.c
** Confinement by folder: a prefix test on canonical paths that respects
** path segments. Callers resolve both sides with realpath first, so ".."
** and symlinks cannot lead out (schema.c confines $ref targets with it).
*/
#include "pathcheck.h"

#include <string.h>

int pathcheck_inside(const char *real, const char *canon_dir) {
    if (!real || !canon_dir) return 0;
    size_t n = strlen(canon_dir);
    if (n == 1 && canon_dir[0] == '/') return real[0] == '/';
    return strncmp(real, canon_dir, n) == 0 && (real[n] == '\0' || real[n] == '/');
}
