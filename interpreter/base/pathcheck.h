/*
** pathcheck.h
** Confinement by folder: whether a path, symlinks resolved, lies inside a
** folder. The one test behind every "may only read (or write) here" rule.
*/
#ifndef CAIRN_PATHCHECK_H
#define CAIRN_PATHCHECK_H

/* 1 if real (a realpath result) is canon_dir itself or lies below it, else
** 0. canon_dir must be a realpath result too (no trailing slash except for
** "/" itself); then "/a/bc" is not inside "/a/b". Either NULL gives 0. */
int pathcheck_inside(const char *real, const char *canon_dir);

/* 1 if path, symlinks resolved, is dir or lies below it (both resolved
** here). path may name a file that does not exist yet, perhaps in folders
** that do not either: then the nearest folder of it that exists must be
** inside, and the rest may not climb out with "..". 0 otherwise, and when
** dir does not exist or memory runs out. `cairn test --regen` writes
** nowhere else. */
int pathcheck_path_inside(const char *path, const char *dir);

#endif
