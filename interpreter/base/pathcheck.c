/*
** pathcheck.c
** Confinement by folder: a prefix test on canonical paths that respects
** path segments. Callers resolve both sides with realpath first, so ".."
** and symlinks cannot lead out (schema.c confines $ref targets with it).
*/
#include "pathcheck.h"

#include "error.h"

#include <stdlib.h>
#include <string.h>

int pathcheck_inside(const char *real, const char *canon_dir) {
    if (!real || !canon_dir) return 0;
    size_t n = strlen(canon_dir);
    if (n == 1 && canon_dir[0] == '/') return real[0] == '/';
    return strncmp(real, canon_dir, n) == 0 && (real[n] == '\0' || real[n] == '/');
}

int pathcheck_path_inside(const char *path, const char *dir) {
    char *rd = realpath(dir, NULL);
    char *rp = realpath(path, NULL);
    /* a new file, perhaps in new folders: the nearest folder that exists must
    ** be inside, and what follows it may not climb out with ".." */
    for (size_t cut = strlen(path); !rp && cut > 0;) {
        while (cut > 0 && path[cut - 1] != '/') cut--;
        const char *rest = path + cut;
        if (strstr(rest, "..")) break;
        char *parent = cut ? cairn_strfmt("%.*s", (int)(cut > 1 ? cut - 1 : 1), path) : cairn_strdup(".");
        char *rparent = parent ? realpath(parent, NULL) : NULL;
        if (rparent) rp = cairn_strfmt("%s/%s", rparent, rest);
        free(parent);
        free(rparent);
        if (cut) cut--;
        else break;
    }
    int in = pathcheck_inside(rp, rd);
    free(rd);
    free(rp);
    return in;
}
