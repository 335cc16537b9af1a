/*
** statepath.c
** Paths into state trees: parse `players[2].food`, walk, name, and diff
** (see statepath.h).
*/
#include "statepath.h"
#include "error.h"
#include "strbuf.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

void statepath_free(statepath *p) {
    for (size_t i = 0; i < p->n; i++) free(p->steps[i].key);
    free(p->steps);
    p->steps = NULL;
    p->n = 0;
}

static int add_step(statepath *p, char *key, long index) {
    statepath_step *s = realloc(p->steps, (p->n + 1) * sizeof *s);
    if (!s) return free(key), -1;
    p->steps = s;
    s[p->n].key = key;
    s[p->n].index = index;
    p->n++;
    return 0;
}

static int is_key_char(char c) { return isalnum((unsigned char)c) || c == '_' || c == '-' || (unsigned char)c >= 0x80; }

/* One error in errs: "\"TEXT\": what" keyed "path.KEY" with text (and rest). */
static void path_error(cerr_list *errs, const char *key, const char *text, const char *rest,
                       const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;
static void path_error(cerr_list *errs, const char *key, const char *text, const char *rest,
                       const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    char *what = cairn_vstrfmt(fmt, ap);
    va_end(ap);
    size_t n = errs->n;
    if (!what) {
        errs->oom = 1;
        return;
    }
    cerr_add(errs, NULL, 0, 0, NULL, "\"%s\": %s", text, what);
    cerr_key(errs, n, key, 0, text, rest);
    free(what);
}

int statepath_parse_errs(const char *text, statepath *p, cerr_list *errs) {
    const char *s = text;
    while (*s == ' ') s++;
    int first = 1;
    while (*s && *s != ' ') {
        if (*s == '[') {
            char *end;
            long i = strtol(s + 1, &end, 10);
            if (end == s + 1 || *end != ']' || i < 1) {
                path_error(errs, "path.index", text, NULL, "[N] takes a list index from 1");
                goto fail;
            }
            if (add_step(p, NULL, i) != 0) goto oom;
            s = end + 1;
        } else {
            if (*s == '.') {
                if (first) {
                    path_error(errs, "path.first_name", text, NULL, "a path starts with a name (players[2].food)");
                    goto fail;
                }
                s++;
            } else if (!first) {
                path_error(errs, "path.expected_dot", text, s, "expected `.` or `[` before \"%s\"", s);
                goto fail;
            }
            const char *b = s;
            while (is_key_char(*s)) s++;
            if (s == b) {
                path_error(errs, "path.expected_name", text, NULL, "expected a name after `.`");
                goto fail;
            }
            char *k = strndup(b, (size_t)(s - b));
            if (!k || add_step(p, k, 0) != 0) goto oom;
        }
        first = 0;
    }
    while (*s == ' ') s++;
    if (*s) {
        path_error(errs, "path.blank", text, NULL, "a path has no blanks");
        goto fail;
    }
    return 0;
oom:
    {
        size_t n = errs->n;
        cerr_add(errs, NULL, 0, 0, NULL, "out of memory");
        cerr_key(errs, n, "oom", 0, NULL, NULL);
    }
fail:
    statepath_free(p);
    return -1;
}

int statepath_parse(const char *text, statepath *p, char **why) {
    *why = NULL;
    cerr_list errs;
    cerr_init(&errs, 1);
    int rc = statepath_parse_errs(text, p, &errs);
    if (rc != 0) *why = cairn_strdup(errs.n ? errs.items[0].message : "out of memory");
    cerr_free(&errs);
    return rc;
}

/* The child of v one step names, or NULL. */
static value *child(const value *v, const statepath_step *st) {
    long i = st->index;
    if (v->type == CV_LIST) {
        if (st->key) {
            char *end;
            i = strtol(st->key, &end, 10);
            if (*end || end == st->key) return NULL;
        }
        return i >= 1 && (size_t)i <= v->u.list.n ? v->u.list.items[i - 1] : NULL;
    }
    if (v->type == CV_MAP) {
        if (st->key) return value_map_get(v, st->key);
        char num[32];
        snprintf(num, sizeof num, "%ld", i);
        return value_map_get(v, num);
    }
    return NULL;
}

value *statepath_get(const value *root, const statepath *p, size_t *reached) {
    value *v = (value *)root;
    size_t k = 0;
    for (; v && k < p->n; k++) {
        value *c = child(v, &p->steps[k]);
        if (!c) break;
        v = c;
    }
    if (reached) *reached = k;
    return k == p->n ? v : NULL;
}

static int plain_key(const char *k) {
    if (!*k || isdigit((unsigned char)*k)) return 0;
    for (const char *s = k; *s; s++)
        if (!is_key_char(*s)) return 0;
    return 1;
}

static void put_key(strbuf *b, const char *k, int first) {
    if (plain_key(k)) {
        if (!first) strbuf_putc(b, '.');
        strbuf_puts(b, k);
    } else {
        strbuf_printf(b, "[\"%s\"]", k);
    }
}

char *statepath_format(const statepath *p, size_t n) {
    strbuf b = {0};
    strbuf_puts(&b, "");
    for (size_t i = 0; i < n && i < p->n; i++) {
        if (p->steps[i].key) put_key(&b, p->steps[i].key, i == 0);
        else strbuf_printf(&b, "[%ld]", p->steps[i].index);
    }
    return strbuf_take(&b);
}

/* ------------------------------------------------------------- diff */

typedef struct diff_ctx {
    strbuf *out;
    strbuf path;
    size_t max;
    long count;
} diff_ctx;

static void report(diff_ctx *c) {
    if ((size_t)c->count++ >= c->max) return;
    if (c->count > 1) strbuf_puts(c->out, ", ");
    strbuf_puts(c->out, c->path.n ? strbuf_str(&c->path) : "(the whole state)");
}

static void diff(diff_ctx *c, const value *a, const value *b, int depth) {
    if (!a || !b || a->type != b->type || depth > 64) {
        if (a != b) report(c);
        return;
    }
    size_t mark = c->path.n;
    if (a->type == CV_MAP) {
        for (size_t i = 0; i < a->u.map.n; i++) {
            const char *k = a->u.map.items[i].key->u.str.s;
            put_key(&c->path, k, mark == 0);
            diff(c, a->u.map.items[i].val, value_map_get(b, k), depth + 1);
            strbuf_cut(&c->path, mark);
        }
        for (size_t i = 0; i < b->u.map.n; i++) {
            const char *k = b->u.map.items[i].key->u.str.s;
            if (value_map_get(a, k)) continue;
            put_key(&c->path, k, mark == 0);
            report(c);
            strbuf_cut(&c->path, mark);
        }
    } else if (a->type == CV_LIST) {
        if (a->u.list.n != b->u.list.n) {
            report(c);
            return;
        }
        for (size_t i = 0; i < a->u.list.n; i++) {
            strbuf_printf(&c->path, "[%zu]", i + 1);
            diff(c, a->u.list.items[i], b->u.list.items[i], depth + 1);
            strbuf_cut(&c->path, mark);
        }
    } else if (!value_equal(a, b, 1)) {
        report(c);
    }
}

long statepath_diff(const value *a, const value *b, size_t max, strbuf *out) {
    diff_ctx c = {out, {0}, max ? max : 1, 0};
    strbuf_puts(&c.path, "");
    diff(&c, a, b, 0);
    if ((size_t)c.count > c.max) strbuf_printf(out, " and %ld more", c.count - (long)c.max);
    int oom = c.path.oom || out->oom;
    strbuf_free(&c.path);
    return oom ? -1 : c.count;
}
