/*
** yload.h
** Loading one YAML file into a value tree, every node (map keys included)
** remembering its file, line and column. Bounded in size, depth, string
** length and alias expansion; see docs/limits.md.
*/
#ifndef CAIRN_YLOAD_H
#define CAIRN_YLOAD_H

#include <stddef.h>

#include "error.h"
#include "value.h"

/* The bounds one load enforces. Defaults come from limits.h. */
typedef struct yload_limits {
    long max_file_bytes; /* input size in bytes */
    int max_depth;       /* nested lists and maps; a scalar root is depth 0 */
    long max_string;     /* one scalar's length in bytes */
    long max_nodes;      /* nodes in the result, alias copies and map keys included */
} yload_limits;

/* Fills l with CAIRN_YAML_MAX_FILE_BYTES, _DEPTH, _STRING and _NODES. */
void yload_default_limits(yload_limits *l);

/* Loads the single document in the file at path.
** Returns the root value, which the caller frees with value_free; an empty
** file (or one holding only comments) gives CV_NULL. On any problem returns
** NULL after appending at least one error to errs (file = path, 1-based
** line and column, and the path inside the document where known).
**
** What the loader accepts (YAML 1.2 core schema, minus floats):
** - plain scalars: null ~ and empty -> CV_NULL; true/false (also True, TRUE,
**   False, FALSE) -> CV_BOOL; [-+]?[0-9]+, [-+]?0x[0-9a-fA-F]+ and
**   [-+]?0o[0-7]+ -> CV_INT (must fit int64); floats (1.5, 1e3, .inf, .nan)
**   are errors; anything else is a string. Quoted and block scalars are
**   always strings.
** - tags: !!str (always a string), !!int, !!bool, !!null (the scalar must
**   resolve to that type, quoted or not), !!map and !!seq on maps and
**   lists, and the non-specific tag ! (a string). Any other tag is an error.
** - map keys must be scalars and become CV_STR holding the key as written
**   (`3:` gives "3"); an alias to a non-string scalar used as a key gives
**   its canonical text ("3", "true", "null"). Duplicate keys are errors,
**   and so is a key holding a NUL byte ("a\0b"): keys are C strings
**   everywhere else. String values may hold NULs (str.len says how long).
** - anchors and aliases (expanded by deep copy; the copy's root takes the
**   alias's location, the nodes below keep the anchor's), and `<<` merge
**   keys whose value is a map or a list of maps: explicit keys win over
**   merged ones, earlier maps in the list win over later ones, and merged
**   entries are placed where the `<<` key stood.
** - exactly one document; a second one is an error. Input must be UTF-8.
*/
value *yload_file(const char *path, cerr_list *errs);

/* Same, with explicit limits (lim must not be NULL). */
value *yload_file_opts(const char *path, const yload_limits *lim, cerr_list *errs);

/* Same, from memory: name is what errors and node locations call the file;
** text need not be NUL-terminated; lim NULL means the defaults. The file-size
** limit applies to len. */
value *yload_string(const char *name, const char *text, size_t len, const yload_limits *lim,
                    cerr_list *errs);

#endif
