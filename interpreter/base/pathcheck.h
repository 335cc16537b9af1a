/*
** pathcheck.h
** Confinement by folder: whether a path, symlinks resolved, lies inside a
** folder. The one test behind every "may only read from here" rule.
*/
#ifndef CAIRN_PATHCHECK_H
#define CAIRN_PATHCHECK_H

/* 1 if real (a realpath result) is canon_dir itself or lies below it, else
** 0. canon_dir must be a realpath result too (no trailing slash except for
** "/" itself); then "/a/bc" is not inside "/a/b". Either NULL gives 0. */
int pathcheck_inside(const char *real, const char *canon_dir);

#endif
