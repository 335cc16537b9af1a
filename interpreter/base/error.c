/*
** error.c
** The cairn_error list: recording, formatting and printing errors.
*/
#include "error.h"
#include "grow.h"
#include "limits.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

char *cairn_strdup(const char *s) {
    if (!s) return NULL;
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d) memcpy(d, s, n);
    return d;
}

char *cairn_vstrfmt(const char *fmt, va_list ap) {
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap2);
    va_end(ap2);
    if (n < 0) return NULL;
    char *s = malloc((size_t)n + 1);
    if (!s) return NULL;
    vsnprintf(s, (size_t)n + 1, fmt, ap);
    return s;
}

char *cairn_strfmt(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    char *s = cairn_vstrfmt(fmt, ap);
    va_end(ap);
    return s;
}

void cerr_init(cerr_list *l, size_t limit) {
    memset(l, 0, sizeof *l);
    l->limit = limit ? limit : CAIRN_MAX_ERRORS;
}

void cerr_clear(cerr_list *l) {
    for (size_t i = 0; i < l->n; i++) {
        free(l->items[i].file);
        free(l->items[i].path);
        free(l->items[i].message);
        for (int a = 0; a < CERR_MAX_ARGS; a++) free(l->items[i].args[a]);
    }
    l->n = 0;
    l->dropped = 0;
    l->oom = 0;
}

void cerr_free(cerr_list *l) {
    cerr_clear(l);
    free(l->items);
    l->items = NULL;
    l->cap = 0;
}

static void add_owned(cerr_list *l, char *file, int line, int col, char *path, char *msg) {
    if (!msg) {
        l->oom = 1;
        free(file);
        free(path);
        return;
    }
    if (l->n >= l->limit) {
        l->dropped++;
        free(file);
        free(path);
        free(msg);
        return;
    }
    if (GROW(l->items, l->cap, l->n + 1) != 0) {
        l->oom = 1;
        free(file);
        free(path);
        free(msg);
        return;
    }
    cairn_error *e = &l->items[l->n++];
    memset(e, 0, sizeof *e);
    e->file = file;
    e->line = line;
    e->col = col;
    e->path = path;
    e->message = msg;
}

void cerr_add(cerr_list *l, const char *file, int line, int col, const char *path,
              const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    char *msg = cairn_vstrfmt(fmt, ap);
    va_end(ap);
    add_owned(l, cairn_strdup(file), line, col, cairn_strdup(path), msg);
}

size_t cerr_count(const cerr_list *l) { return l->n + l->dropped; }

static void key_last(cerr_list *l, size_t before, const char *key, int sys_errno,
                     const char *const in[CERR_MAX_ARGS]) {
    if (l->n == 0 || l->n != before + 1) return;
    cairn_error *e = &l->items[l->n - 1];
    char *args[CERR_MAX_ARGS] = {NULL};
    for (int a = 0; a < CERR_MAX_ARGS && in[a]; a++) {
        if (!(args[a] = cairn_strdup(in[a]))) {
            for (int b = 0; b < a; b++) free(args[b]);
            return;
        }
    }
    for (int a = 0; a < CERR_MAX_ARGS; a++) {
        free(e->args[a]);
        e->args[a] = args[a];
    }
    e->key = key;
    e->sys_errno = sys_errno;
}

void cerr_key(cerr_list *l, size_t before, const char *key, int sys_errno, const char *arg0,
              const char *arg1) {
    const char *in[CERR_MAX_ARGS] = {arg0, arg1};
    key_last(l, before, key, sys_errno, in);
}

void cerr_key4(cerr_list *l, size_t before, const char *key, const char *arg0, const char *arg1,
               const char *arg2, const char *arg3) {
    const char *in[CERR_MAX_ARGS] = {arg0, arg1, arg2, arg3};
    key_last(l, before, key, 0, in);
}

/* Whether text is a phrase (balanced marks) or plain text without marks. */
static int phrase_arg_ok(const char *text) {
    int depth = 0;
    for (const char *p = text; *p; p++) {
        if (*p == CERR_PHRASE_OPEN) depth++;
        else if (*p == CERR_PHRASE_CLOSE && --depth < 0) return 0;
        else if (*p == CERR_PHRASE_SEP && depth == 0) return 0;
    }
    return depth == 0 && (text[0] == CERR_PHRASE_OPEN || !strchr(text, CERR_PHRASE_CLOSE));
}

char *cerr_phrasev(const char *key, const char *const *args, size_t n) {
    size_t len = strlen(key) + 3;
    for (size_t i = 0; i < n; i++) {
        if (!args[i] || !phrase_arg_ok(args[i])) return NULL;
        len += strlen(args[i]) + 1;
    }
    char *out = malloc(len);
    if (!out) return NULL;
    char *w = out;
    *w++ = CERR_PHRASE_OPEN;
    memcpy(w, key, strlen(key));
    w += strlen(key);
    for (size_t i = 0; i < n; i++) {
        *w++ = CERR_PHRASE_SEP;
        memcpy(w, args[i], strlen(args[i]));
        w += strlen(args[i]);
    }
    *w++ = CERR_PHRASE_CLOSE;
    *w = '\0';
    return out;
}

char *cerr_phrase(const char *key, ...) {
    const char *args[16];
    size_t n = 0;
    va_list ap;
    va_start(ap, key);
    for (const char *a; (a = va_arg(ap, const char *));) {
        if (n == sizeof args / sizeof args[0]) {
            va_end(ap);
            return NULL;
        }
        args[n++] = a;
    }
    va_end(ap);
    return cerr_phrasev(key, args, n);
}

/* The number of %s in fmt, or -1 when it has another conversion */
static int count_string_args(const char *fmt) {
    int n = 0;
    for (const char *p = fmt; (p = strchr(p, '%')); p += 2) {
        if (p[1] == '%') continue;
        if (p[1] != 's') return -1;
        n++;
    }
    return n;
}

void cerr_addk(cerr_list *l, const char *file, int line, int col, const char *path,
               const char *key, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    cerr_vaddk(l, file, line, col, path, key, fmt, ap);
    va_end(ap);
}

void cerr_vaddk(cerr_list *l, const char *file, int line, int col, const char *path,
                const char *key, const char *fmt, va_list ap) {
    va_list args;
    va_copy(args, ap);
    size_t before = l->n;
    add_owned(l, cairn_strdup(file), line, col, cairn_strdup(path), cairn_vstrfmt(fmt, ap));
    int n = count_string_args(fmt);
    if (n >= 0 && n <= CERR_MAX_ARGS) {
        const char *in[CERR_MAX_ARGS] = {NULL};
        for (int a = 0; a < n; a++) in[a] = va_arg(args, const char *);
        key_last(l, before, key, 0, in);
    }
    va_end(args);
}

const char *cerr_errno_key(int e) {
    switch (e) {
    case ENOENT: return "sys.not_found";
    case EACCES:
    case EPERM: return "sys.permission_denied";
    case EISDIR: return "sys.is_folder";
    case ENOTDIR: return "sys.not_folder";
    case ENOSPC:
#ifdef EDQUOT
    case EDQUOT:
#endif
        return "sys.disk_full";
    case EROFS: return "sys.read_only";
    case ELOOP: return "sys.too_many_links";
    case ENAMETOOLONG: return "sys.name_too_long";
    case ENXIO:
    case EINVAL: return "sys.not_regular";
    case ENOMEM: return "sys.out_of_memory";
    case EFBIG: return "sys.too_big";
    default: return "sys.other";
    }
}

void cerr_note_oom(cerr_list *l, size_t before, const char *what) {
    if (cerr_count(l) != before && !l->oom) return;
    for (size_t i = 0; i < l->n; i++)
        if (strstr(l->items[i].message, "out of memory")) return;
    size_t n = l->n;
    cerr_add(l, NULL, 0, 0, NULL, "out of memory %s", what);
    cerr_key(l, n, "oom", 0, NULL, NULL);
}

void cerr_merge(cerr_list *dst, const cerr_list *src) {
    for (size_t i = 0; i < src->n; i++) {
        const cairn_error *e = &src->items[i];
        size_t n = dst->n;
        add_owned(dst, cairn_strdup(e->file), e->line, e->col, cairn_strdup(e->path),
                  cairn_strdup(e->message));
        if (e->key) key_last(dst, n, e->key, e->sys_errno, (const char *const *)e->args);
    }
    dst->dropped += src->dropped;
    dst->oom |= src->oom;
}

char *cerr_format(const cairn_error *e) {
    char where[64] = "";
    if (e->line > 0 && e->col > 0)
        snprintf(where, sizeof where, ":%d:%d", e->line, e->col);
    else if (e->line > 0)
        snprintf(where, sizeof where, ":%d", e->line);
    const char *file = e->file ? e->file : "";
    const char *sep1 = (e->file || where[0]) ? ": " : "";
    const char *path = (e->path && e->path[0]) ? e->path : "";
    const char *sep2 = path[0] ? ": " : "";
    return cairn_strfmt("%s%s%s%s%s%s", file, where, sep1, path, sep2, e->message);
}

void cerr_print(FILE *out, const cerr_list *l) {
    for (size_t i = 0; i < l->n; i++) {
        char *s = cerr_format(&l->items[i]);
        fprintf(out, "%s\n", s ? s : l->items[i].message);
        free(s);
    }
    if (l->dropped)
        fprintf(out, "(%zu more error%s not shown)\n", l->dropped, l->dropped == 1 ? "" : "s");
    if (l->oom) fprintf(out, "(some errors were lost: out of memory)\n");
}
