/*
** error.h
** Errors as values: where (file:line:column, path inside the document),
** what went wrong and what was expected. Callers decide how to show them.
** The message is English; an error may also carry a key and arguments
** that the console words in the game's language (docs/repl.md, "One
** language"): the layers below the console have no catalogue.
*/
#ifndef CAIRN_ERROR_H
#define CAIRN_ERROR_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

#define CERR_MAX_ARGS 6

typedef struct cairn_error {
    char *file;    /* may be NULL; owned */
    int line, col; /* 1-based; 0 when unknown */
    char *path;    /* instance path such as "carts[2].capacity"; may be NULL; owned */
    char *message; /* owned; never NULL */
    /* For the console's languages: a stable id of the message ("file.open")
    ** or NULL (a string literal, not owned), its arguments (owned; NULL past
    ** the last) and the system's errno it reports (0: none), which the
    ** console words by cerr_errno_key. */
    const char *key;
    char *args[CERR_MAX_ARGS];
    int sys_errno;
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

/* A key written where it is kept (a table, a field) before it reaches
** cerr_key: the same literal, marked so that test_error_keys finds it and
** checks the catalogue has its wording. */
#define CERR_KEY(k) (k)

/* Records one error with its key in one call: fmt's only conversions are
** %s (and %%), and their arguments, strings, are the key's arguments in
** order (at most CERR_MAX_ARGS), so the English message and the console's
** catalogue entry "error.KEY" take the same values. A number is passed as
** its text. A fmt with another conversion or more than CERR_MAX_ARGS %s
** records the English message with no key. */
void cerr_addk(cerr_list *l, const char *file, int line, int col, const char *path,
               const char *key, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 7, 8)))
#endif
    ;
/* The same with a va_list (for a function that takes a key and a format) */
void cerr_vaddk(cerr_list *l, const char *file, int line, int col, const char *path,
                const char *key, const char *fmt, va_list ap)
#if defined(__GNUC__)
    __attribute__((format(printf, 7, 0)))
#endif
    ;

/* For a function that failed after `before` errors were in l: when it
** added none (every failure but a lack of memory adds one) or could not
** record one, adds "out of memory <what>" (key "oom"), so that the person
** reads why. Nothing when an error saying so is there already. */
void cerr_note_oom(cerr_list *l, size_t before, const char *what);

/* Gives the error recorded last its key, errno and arguments (arg0, arg1
** may be NULL), when it was stored: `before` is l->n read just before it
** was added (an error dropped past the cap or lost for memory gets none). Without memory for the
** arguments the error keeps no key: its English message stands. */
void cerr_key(cerr_list *l, size_t before, const char *key, int sys_errno, const char *arg0,
              const char *arg1);
/* The same with four arguments and no errno (the state schema's
** "schema.expected"). */
void cerr_key4(cerr_list *l, size_t before, const char *key, const char *arg0, const char *arg1,
               const char *arg2, const char *arg3);

/* A key's argument that the console words by a catalogue entry of its own
** (a phrase), for a message made of parts: CERR_PHRASE_OPEN, the entry's
** key, each argument after CERR_PHRASE_SEP (a phrase again, or text), then
** CERR_PHRASE_CLOSE; "\x1eschema.list.at_least\x1f2\x1d" is "list of at
** least 2 items". The entry's plural form is its first argument's number.
** cerr_phrase builds one from its key and string arguments, the list ended
** by NULL; it returns a malloc'd string, or NULL on OOM (or for an argument
** holding one of the three marks outside a phrase of its own). */
#define CERR_PHRASE_OPEN '\x1e'
#define CERR_PHRASE_SEP '\x1f'
#define CERR_PHRASE_CLOSE '\x1d'
char *cerr_phrase(const char *key, ...)
#if defined(__GNUC__)
    __attribute__((sentinel))
#endif
    ;
/* The same with its n arguments in an array. */
char *cerr_phrasev(const char *key, const char *const *args, size_t n);

/* The key of the reason an errno gives, for the console's catalogue:
** "sys.not_found" (ENOENT), "sys.permission_denied" (EACCES, EPERM),
** "sys.is_folder" (EISDIR), "sys.not_folder" (ENOTDIR), "sys.disk_full"
** (ENOSPC, EDQUOT), "sys.read_only" (EROFS), "sys.too_many_links" (ELOOP),
** "sys.name_too_long" (ENAMETOOLONG), "sys.not_regular" (ENXIO, EINVAL:
** safe_open.c's refusal of a FIFO, device or socket), "sys.out_of_memory"
** (ENOMEM), "sys.too_big" (EFBIG), else "sys.other" (worded with the
** number). */
const char *cerr_errno_key(int e);

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
