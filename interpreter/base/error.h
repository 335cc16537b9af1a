/*
** error.h
** Errors as values: where (file:line:column, path inside the document),
** what went wrong and what was expected. Callers decide how to show them.
*/
#ifndef CAIRN_ERROR_H
#define CAIRN_ERROR_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

typedef struct cairn_error {
    char *file;    /* may be NULL; owned */
    int line, col; /* 1-based; 0 when unknown */
    char *path;    /* instance path such as "carts[2].capacity"; may be NULL; owned */
    char *message; /* owned; never NULL */
} cairn_error;

/* A list of errors with a cap: past `limit` errors are counted in
** `dropped` but not stored. Zero-initialise, then cerr_init. */
typedef struct cerr_list {
    cairn_error *items;
    size_t n, cap, limit;
    size_t dropped;
    int oom; /* set when an error could not be recorded for lack of memory */
} cerr_list;

void cerr_init(cerr_list *l, size_t limit); /* limit 0: CAIRN_MAX_ERRORS */
void cerr_free(cerr_list *l);
void cerr_clear(cerr_list *l);

/* Records one error. file and path may be NULL. Never fails loudly: on
** out-of-memory it sets l->oom. */
void cerr_add(cerr_list *l, const char *file, int line, int col, const char *path,
              const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 6, 7)))
#endif
    ;

/* For a function that failed after `before` errors were in l: when it
** added none (every failure but a lack of memory adds one) or could not
** record one, adds "out of memory <what>", so that the person reads why.
** Nothing when an error saying so is there already. */
void cerr_note_oom(cerr_list *l, size_t before, const char *what);

/* Total count including dropped ones. */
size_t cerr_count(const cerr_list *l);

/* Appends every error of src to dst (keeps dst's cap). */
void cerr_merge(cerr_list *dst, const cerr_list *src);

/* Formats one error as "file:line:col: path: message" (parts omitted when
** unknown). Returns a malloc'd string the caller frees, or NULL on OOM. */
char *cerr_format(const cairn_error *e);

/* Prints every error, one a line, then "(N more errors not shown)". */
void cerr_print(FILE *out, const cerr_list *l);

/* printf into a fresh malloc'd string; NULL on OOM. */
char *cairn_strfmt(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;
char *cairn_vstrfmt(const char *fmt, va_list ap); /* the same with a va_list */
char *cairn_strdup(const char *s); /* NULL in, NULL out; NULL on OOM */

#endif
