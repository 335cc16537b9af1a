/*
** pattern.h
** JSON Schema's regular expressions: ECMA-262 patterns (read with the u
** flag, as yaml-language-server compiles them), limited to a subset in which
** every construct means here exactly what it means there. Anything outside
** it is refused with a message that names the construct. The subset is
** listed in docs/schemas.md ("Regular expressions").
*/
#ifndef CAIRN_PATTERN_H
#define CAIRN_PATTERN_H

#include <stddef.h>

typedef struct pattern pattern;

/* Compiles the len bytes at src (UTF-8; NUL bytes are ordinary characters).
** Returns the compiled pattern (free with pattern_free), or NULL with a
** NUL-terminated reason in why (at most whylen bytes) that names the
** refused construct and its position ("lookahead (?=...) at character 3 is
** not supported"), or "out of memory". Bounded by CAIRN_PATTERN_MAX_DEPTH
** and CAIRN_PATTERN_MAX_PROGRAM (limits.h). */
pattern *pattern_compile(const char *src, size_t len, char *why, size_t whylen);

/* Whether the pattern matches somewhere in the len bytes at s (a search, not
** anchored, as JSON Schema's `pattern` is). s is read as UTF-8 code points;
** a byte that does not start a valid sequence counts as one U+FFFD. Time is
** linear in len times the program size. Returns 1 (match), 0 (no match) or
** -1 (out of memory). */
int pattern_search(const pattern *re, const char *s, size_t len);

/* NULL-safe. */
void pattern_free(pattern *re);

#endif
