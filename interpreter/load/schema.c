/*
** schema.c
** JSON Schema (a draft 2020-12 subset, written as YAML): loading and checking
** schema files, resolving $ref, and validating value trees with messages a
** modder can act on. The supported keywords are the table below. Each
** refusal also carries a key and its parts as phrases (base/error.h), for
** the console to word in the game's language; the message stays English.
*/
#if !defined(_XOPEN_SOURCE)
#define _XOPEN_SOURCE 700 /* realpath */
#endif
#include "schema.h"
#include "grow.h"
#include "pathcheck.h"
#include "pattern.h"
#include "strbuf.h"
#include "suggest.h"
#include "yload.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* No <limits.h>: -Iinterpreter makes that name cairn's own limits.h. */
#define INT_CAP 2147483647

/* ------------------------------------------------------------ keywords */

/* What a keyword's value must be; checked when a schema is loaded. */
typedef enum {
    KW_DIALECT,     /* the draft 2020-12 URI */
    KW_STRING,      /* any string */
    KW_ANY,         /* any value (annotations, const) */
    KW_LIST,        /* any list */
    KW_ENUM,        /* a non-empty list */
    KW_SCHEMA,      /* one schema */
    KW_SCHEMA_MAP,  /* a map of name -> schema */
    KW_SCHEMA_LIST, /* a non-empty list of schemas */
    KW_PATTERN_MAP, /* a map of regex -> schema */
    KW_NONNEG,      /* an integer >= 0 */
    KW_INT,         /* any integer */
    KW_POSINT,      /* an integer > 0 */
    KW_BOOL,        /* true or false */
    KW_TYPE,        /* a type name or a non-empty list of distinct ones */
    KW_STRLIST,     /* a list of distinct strings */
    KW_PATTERN,     /* a regex */
    KW_REF,         /* a reference: [file]#/json/pointer */
    KW_DEPREQ       /* a map of key -> list of distinct key names */
} kw_kind;

/* The whole supported subset. Anything else in a schema is an error, except
** keys starting with "x-" (extensions, ignored). */
static const struct keyword {
    const char *name;
    kw_kind kind;
} keywords[] = {
    {"$schema", KW_DIALECT},
    {"$id", KW_STRING},
    {"$defs", KW_SCHEMA_MAP},
    {"$ref", KW_REF},
    {"$comment", KW_STRING},
    {"title", KW_STRING},
    {"description", KW_STRING},
    {"default", KW_ANY},
    {"examples", KW_LIST},
    {"type", KW_TYPE},
    {"enum", KW_ENUM},
    {"const", KW_ANY},
    {"properties", KW_SCHEMA_MAP},
    {"required", KW_STRLIST},
    {"additionalProperties", KW_SCHEMA},
    {"patternProperties", KW_PATTERN_MAP},
    {"propertyNames", KW_SCHEMA},
    {"dependentRequired", KW_DEPREQ},
    {"unevaluatedProperties", KW_SCHEMA},
    {"minProperties", KW_NONNEG},
    {"maxProperties", KW_NONNEG},
    {"items", KW_SCHEMA},
    {"contains", KW_SCHEMA},
    {"minContains", KW_NONNEG},
    {"maxContains", KW_NONNEG},
    {"prefixItems", KW_SCHEMA_LIST},
    {"minItems", KW_NONNEG},
    {"maxItems", KW_NONNEG},
    {"uniqueItems", KW_BOOL},
    {"minimum", KW_INT},
    {"maximum", KW_INT},
    {"exclusiveMinimum", KW_INT},
    {"exclusiveMaximum", KW_INT},
    {"multipleOf", KW_POSINT},
    {"minLength", KW_NONNEG},
    {"maxLength", KW_NONNEG},
    {"pattern", KW_PATTERN},
    {"allOf", KW_SCHEMA_LIST},
    {"anyOf", KW_SCHEMA_LIST},
    {"oneOf", KW_SCHEMA_LIST},
    {"not", KW_SCHEMA},
    {"if", KW_SCHEMA},
    {"then", KW_SCHEMA},
    {"else", KW_SCHEMA},
};
#define N_KEYWORDS (sizeof keywords / sizeof keywords[0])

/* Real JSON Schema keywords cairn does not implement: refused with a
** clearer message than "unknown" (a schema relying on them would pass
** things it means to refuse). */
static const char *const unsupported[] = {
    "$anchor", "$dynamicRef", "$dynamicAnchor", "$vocabulary", "$recursiveRef",
    "$recursiveAnchor", "definitions", "dependencies", "unevaluatedItems",
    "dependentSchemas", "format", "contentEncoding", "contentMediaType", "contentSchema",
    "deprecated", "readOnly", "writeOnly", "additionalItems", NULL};

static const char *const dialect = "https://json-schema.org/draft/2020-12/schema";

/* Type bits, one per cv_type. JSON Schema's "number" means integer here:
** cairn has no floats. */
enum { T_NULL = 1, T_BOOL = 2, T_INT = 4, T_STR = 8, T_LIST = 16, T_MAP = 32, T_ALL = 63 };

static const struct type_name {
    const char *name;
    int bit;
} type_names[] = {
    {"null", T_NULL},      {"boolean", T_BOOL}, {"integer", T_INT}, {"number", T_INT},
    {"string", T_STR},     {"array", T_LIST},   {"object", T_MAP},
};

/* ------------------------------------------------------ string building */

/* A string in double quotes, escaped, cut after max bytes. */
static void put_quoted(strbuf *b, const char *s, size_t len, size_t max) {
    strbuf_putc(b, '"');
    for (size_t i = 0; i < len && i < max; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '"' || c == '\\') {
            strbuf_putc(b, '\\');
            strbuf_putc(b, s[i]);
        } else if (c == '\n') {
            strbuf_puts(b, "\\n");
        } else if (c < 0x20 || c == 0x7f) {
            strbuf_printf(b, "\\x%02x", c);
        } else {
            strbuf_putc(b, s[i]);
        }
    }
    if (len > max) strbuf_puts(b, "...");
    strbuf_putc(b, '"');
}

/* A value written inline as in YAML flow style, for messages: "red", 3,
** [1, 2], {a: 1}. Deep or long values are cut with "...". */
static void put_inline(strbuf *b, const value *v, int depth) {
    switch (v->type) {
    case CV_NULL: strbuf_puts(b, "null"); break;
    case CV_BOOL: strbuf_puts(b, v->u.b ? "true" : "false"); break;
    case CV_INT: strbuf_printf(b, "%" PRId64, v->u.i); break;
    case CV_STR: put_quoted(b, v->u.str.s, v->u.str.len, 40); break;
    case CV_LIST:
        if (depth > 2 && v->u.list.n) {
            strbuf_puts(b, "[...]");
            break;
        }
        strbuf_putc(b, '[');
        for (size_t i = 0; i < v->u.list.n; i++) {
            if (i) strbuf_puts(b, ", ");
            if (i == 8) {
                strbuf_puts(b, "...");
                break;
            }
            put_inline(b, v->u.list.items[i], depth + 1);
        }
        strbuf_putc(b, ']');
        break;
    case CV_MAP:
        if (depth > 2 && v->u.map.n) {
            strbuf_puts(b, "{...}");
            break;
        }
        strbuf_putc(b, '{');
        for (size_t i = 0; i < v->u.map.n; i++) {
            if (i) strbuf_puts(b, ", ");
            if (i == 8) {
                strbuf_puts(b, "...");
                break;
            }
            strbuf_puts(b, v->u.map.items[i].key->u.str.s);
            strbuf_puts(b, ": ");
            put_inline(b, v->u.map.items[i].val, depth + 1);
        }
        strbuf_putc(b, '}');
        break;
    }
}

/* value_describe, appended. */
static void put_description(strbuf *b, const value *v) {
    char *d = value_describe(v);
    if (!d) {
        b->oom = 1;
        return;
    }
    strbuf_puts(b, d);
    free(d);
}

/* Path segments: `.key` (or `key` first) when the key is a plain word,
** else `["key"]`; `[3]` for list items. */
static int plain_key(const char *k) {
    if (!*k) return 0;
    for (const char *p = k; *p; p++) {
        unsigned char c = (unsigned char)*p;
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '_' || c == '-' || c == '$'))
            return 0;
    }
    return 1;
}

static size_t path_key(strbuf *p, const char *key) {
    size_t old = p->n;
    if (plain_key(key)) {
        if (p->n) strbuf_putc(p, '.');
        strbuf_puts(p, key);
    } else {
        strbuf_putc(p, '[');
        put_quoted(p, key, strlen(key), SIZE_MAX);
        strbuf_putc(p, ']');
    }
    return old;
}

static size_t path_index(strbuf *p, size_t i) {
    size_t old = p->n;
    char digits[24], *d = digits + sizeof digits; /* "[%zu]" without printf: one per list item */
    *--d = ']';
    do *--d = (char)('0' + i % 10);
    while (i /= 10);
    *--d = '[';
    strbuf_putn(p, d, (size_t)(digits + sizeof digits - d));
    return old;
}

/* ------------------------------------------------------ did you mean */

/* How far a misspelling may be from what was meant: none for words of one
** or two letters (everything is close to them), 1 up to 5 letters, else 2.
** A swap of two neighbouring letters counts as one edit. */
static size_t hint_limit(const char *word) {
    size_t n = strlen(word);
    return n < 3 ? 0 : n < 6 ? 1 : 2;
}

static suggest_nearest hint_start(const char *word) {
    return suggest_start(word, hint_limit(word), 1);
}

/* The key of map m closest to word, or NULL. */
static const char *hint_key(const char *word, const value *m) {
    suggest_nearest s = hint_start(word);
    if (m && m->type == CV_MAP)
        for (size_t i = 0; i < m->u.map.n; i++) suggest_try(&s, m->u.map.items[i].key->u.str.s);
    return s.best;
}

/* The string item of list l closest to word, or NULL. */
static const char *hint_item(const char *word, const value *l) {
    suggest_nearest s = hint_start(word);
    if (l && l->type == CV_LIST)
        for (size_t i = 0; i < l->u.list.n; i++)
            if (l->u.list.items[i]->type == CV_STR) suggest_try(&s, l->u.list.items[i]->u.str.s);
    return s.best;
}

/* ------------------------------------------------------ annotations */

/* What the set knows about a node of a loaded schema, by node address:
** that it is a checked schema, where a $ref leads, a compiled pattern. */
enum { ANN_SCHEMA = 1, ANN_REF, ANN_REGEX };
enum { WHITE = 0, GREY, BLACK };

typedef struct ann {
    const void *key;     /* NULL: empty slot */
    unsigned char kind;
    unsigned char mark;  /* cycle check colour, valid while gen is current */
    unsigned gen;
    struct sfile *owner; /* ANN_SCHEMA, ANN_REF: the file holding the node */
    const value *target; /* ANN_REF: the resolved schema; NULL until resolved */
    char *where;         /* ANN_REF: schema path of the $ref, for messages */
    pattern *re;         /* ANN_REGEX */
    /* ANN_SCHEMA maps: a bit per key (key_bit) of every key the node has,
    ** so validation skips looking up keywords a node cannot have */
    uint64_t keys;
    unsigned char has_keys;
} ann;

typedef struct pvec {
    const value **v;
    size_t n, cap;
} pvec;

static int pvec_push(pvec *p, const value *x) {
    if (GROW(p->v, p->cap, p->n + 1) != 0) return -1;
    p->v[p->n++] = x;
    return 0;
}

enum { SF_LOADING, SF_OK, SF_FAILED };

/* One schema file (or string) the set holds. */
typedef struct sfile {
    char *canon;    /* realpath; NULL for schemas loaded from strings */
    char *name;     /* as given or joined from a $ref; locations use it */
    char *dir;      /* name's directory with its '/', or "" */
    value *root;    /* NULL when the YAML did not load */
    int state;
    pvec nodes;     /* every schema node, for the cycle check */
    pvec refs;      /* every $ref string node, to resolve */
    cerr_list errs; /* its errors, replayed when it is asked for again */
} sfile;

struct schema_set {
    sfile **files;
    size_t n, cap;
    ann *tab;
    size_t tab_n, tab_cap; /* tab_cap is 0 or a power of two */
    unsigned gen;          /* cycle check generation */
    int depth;             /* nesting of loads in progress */
    sfile **batch;         /* files loaded by the outermost load in progress */
    size_t nbatch, capbatch;
    char *fallback_dir;    /* where a $ref'd file missing beside its schema is looked up by name */
    char *fallback_canon;  /* its realpath: always a folder $ref may lead into; NULL if missing */
    char **roots;          /* realpaths of the other folders $ref may lead into */
    size_t nroots;
    char *batch_root;      /* with no roots: the folder of the file the caller asked for */
};

static size_t ptr_hash(const void *p) {
    uint64_t x = (uint64_t)(uintptr_t)p;
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    return (size_t)x;
}

static ann *ann_find(const schema_set *s, const void *key) {
    if (!s->tab_cap) return NULL;
    size_t mask = s->tab_cap - 1;
    for (size_t i = ptr_hash(key) & mask;; i = (i + 1) & mask) {
        if (s->tab[i].key == key) return &s->tab[i];
        if (!s->tab[i].key) return NULL;
    }
}

static int ann_grow(schema_set *s) {
    size_t cap = s->tab_cap ? s->tab_cap * 2 : 256;
    ann *t = calloc(cap, sizeof *t);
    if (!t) return -1;
    for (size_t j = 0; j < s->tab_cap; j++) {
        if (!s->tab[j].key) continue;
        size_t i = ptr_hash(s->tab[j].key) & (cap - 1);
        while (t[i].key) i = (i + 1) & (cap - 1);
        t[i] = s->tab[j];
    }
    free(s->tab);
    s->tab = t;
    s->tab_cap = cap;
    return 0;
}

/* The annotation of key, created as kind if absent. NULL on OOM. The
** pointer is valid until the next ann_add. */
static ann *ann_add(schema_set *s, const void *key, int kind) {
    ann *a = ann_find(s, key);
    if (a) return a;
    if ((s->tab_n + 1) * 2 > s->tab_cap && ann_grow(s) != 0) return NULL;
    size_t mask = s->tab_cap - 1;
    size_t i = ptr_hash(key) & mask;
    while (s->tab[i].key) i = (i + 1) & mask;
    memset(&s->tab[i], 0, sizeof s->tab[i]);
    s->tab[i].key = key;
    s->tab[i].kind = (unsigned char)kind;
    s->tab_n++;
    return &s->tab[i];
}

/* --------------------------------------------------------------- sets */

schema_set *schema_set_new(void) { return calloc(1, sizeof(schema_set)); }

static void sfile_free(sfile *f) {
    if (!f) return;
    free(f->canon);
    free(f->name);
    free(f->dir);
    value_free(f->root);
    free(f->nodes.v);
    free(f->refs.v);
    cerr_free(&f->errs);
    free(f);
}

int schema_set_fallback_dir(schema_set *s, const char *dir) {
    char *d = dir ? cairn_strdup(dir) : NULL;
    if (dir && !d) return -1;
    errno = 0;
    char *canon = dir ? realpath(dir, NULL) : NULL;
    if (dir && !canon && errno == ENOMEM) {
        free(d);
        return -1;
    }
    free(s->fallback_dir);
    free(s->fallback_canon);
    s->fallback_dir = d;
    s->fallback_canon = canon;
    return 0;
}

int schema_set_allow_dir(schema_set *s, const char *dir) {
    errno = 0;
    char *canon = realpath(dir, NULL);
    if (!canon) return errno == ENOMEM ? -1 : 0; /* a missing folder holds nothing to read */
    char **nr = realloc(s->roots, (s->nroots + 1) * sizeof *nr);
    if (!nr) {
        free(canon);
        return -1;
    }
    s->roots = nr;
    s->roots[s->nroots++] = canon;
    return 0;
}

/* Whether a $ref may lead to the file at canon (a realpath). */
static int ref_allowed(const schema_set *s, const char *canon) {
    if (pathcheck_inside(canon, s->fallback_canon)) return 1;
    for (size_t i = 0; i < s->nroots; i++)
        if (pathcheck_inside(canon, s->roots[i])) return 1;
    return !s->nroots && pathcheck_inside(canon, s->batch_root);
}

/* Sets batch_root to the realpath of the folder of file (a path; "" or no
** slash: the current folder). Only the outermost load calls it. */
static void set_batch_root(schema_set *s, const char *file) {
    free(s->batch_root);
    s->batch_root = NULL;
    const char *slash = strrchr(file, '/');
    if (!slash) {
        s->batch_root = realpath(".", NULL);
        return;
    }
    size_t n = slash == file ? 1 : (size_t)(slash - file);
    char *dir = malloc(n + 1);
    if (!dir) return; /* then no implicit folder: only the explicit ones are allowed */
    memcpy(dir, file, n);
    dir[n] = '\0';
    s->batch_root = realpath(dir, NULL);
    free(dir);
}

void schema_set_free(schema_set *s) {
    if (!s) return;
    for (size_t i = 0; i < s->tab_cap; i++) {
        if (!s->tab[i].key) continue;
        free(s->tab[i].where);
        pattern_free(s->tab[i].re);
    }
    free(s->tab);
    for (size_t i = 0; i < s->n; i++) sfile_free(s->files[i]);
    free(s->files);
    free(s->fallback_dir);
    free(s->fallback_canon);
    for (size_t i = 0; i < s->nroots; i++) free(s->roots[i]);
    free(s->roots);
    free(s->batch_root);
    free(s->batch);
    free(s);
}

/* A new file entry, added to the set. NULL on OOM. */
static sfile *sfile_add(schema_set *s, const char *name, const char *canon) {
    if (GROW(s->files, s->cap, s->n + 1) != 0) return NULL;
    sfile *f = calloc(1, sizeof *f);
    if (!f) return NULL;
    cerr_init(&f->errs, 0);
    const char *slash = strrchr(name, '/');
    size_t dlen = slash ? (size_t)(slash - name) + 1 : 0;
    f->name = cairn_strdup(name);
    f->dir = malloc(dlen + 1);
    f->canon = canon ? cairn_strdup(canon) : NULL;
    if (!f->name || !f->dir || (canon && !f->canon)) {
        sfile_free(f);
        return NULL;
    }
    memcpy(f->dir, name, dlen);
    f->dir[dlen] = '\0';
    f->state = SF_LOADING;
    s->files[s->n++] = f;
    return f;
}

static sfile *sfile_by_canon(const schema_set *s, const char *canon) {
    for (size_t i = 0; i < s->n; i++)
        if (s->files[i]->canon && strcmp(s->files[i]->canon, canon) == 0) return s->files[i];
    return NULL;
}

/* The file loaded from a path spelt exactly as name (not one made from a
** string). The set takes its files not to move while it lives. */
static sfile *sfile_by_name(const schema_set *s, const char *name) {
    for (size_t i = 0; i < s->n; i++)
        if (s->files[i]->canon && strcmp(s->files[i]->name, name) == 0) return s->files[i];
    return NULL;
}

/* ------------------------------------------------- checking a schema */

typedef struct cctx {
    schema_set *set;
    sfile *f;
    cerr_list *errs;
    strbuf path; /* where we are in the schema file, as an instance path */
} cctx;

/* A schema error at node `at` (its location; the file's name if built in
** code) with the current schema path. */
#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
static void c_error(cctx *c, const value *at, const char *fmt, ...) {
    strbuf msg = {0};
    va_list ap;
    va_start(ap, fmt);
    strbuf_vprintf(&msg, fmt, ap);
    va_end(ap);
    if (msg.oom || c->path.oom) c->errs->oom = 1;
    cerr_add(c->errs, at && at->file ? at->file->name : c->f->name, at ? at->line : 0,
             at ? at->col : 0, strbuf_str(&c->path), "%s", msg.oom ? "(out of memory)" : strbuf_str(&msg));
    strbuf_free(&msg);
}

/* A schema error at `at` with its key for the console's languages
** (base/error.h, cerr_vaddk): fmt's only conversions are %s, its arguments
** strings, the key's arguments in order. */
static void c_errk(cctx *c, const value *at, const char *key, const char *fmt, ...) {
    if (c->path.oom) c->errs->oom = 1;
    va_list ap;
    va_start(ap, fmt);
    cerr_vaddk(c->errs, at && at->file ? at->file->name : c->f->name, at ? at->line : 0, at ? at->col : 0,
               strbuf_str(&c->path), key, fmt, ap);
    va_end(ap);
}

static void c_oom(cctx *c, const value *at) { c_errk(c, at, "oom", "out of memory while checking the schema"); }

static char *got_phrase(const value *inst);

/* What c_expected's callers ask for, with the key of its words for the
** console's languages. */
static const struct {
    const char *what, *key;
} c_wants[] = {
    {"a type name or a non-empty list of type names", "schema.c.type_names"},
    {"a type name", "schema.c.type_name"},
    {"a regular expression (string)", "schema.c.regex"},
    {"a map of schemas", "schema.c.schema_map"},
    {"list of strings", "schema.c.strings"},
    {"string", "schema.c.string"},
    {"\"https://json-schema.org/draft/2020-12/schema\" (the only draft cairn reads)", "schema.c.dialect"},
    {"list", "schema.c.list"},
    {"non-empty list", "schema.c.non_empty_list"},
    {"non-empty list of schemas", "schema.c.schema_list"},
    {"map of pattern -> schema", "schema.c.pattern_map"},
    {"integer >= 0", "schema.c.non_negative"},
    {"integer", "schema.c.integer"},
    {"integer > 0", "schema.c.positive"},
    {"boolean", "schema.c.boolean"},
    {"map of key -> list of keys", "schema.c.dependent"},
    {"string (a reference such as \"#/$defs/name\")", "schema.c.ref"},
    {"schema (map or boolean)", "schema.c.schema"},
};

/* "expected <what>, got <description of v>" at v; keyed as
** "schema.expected_what" when what is one of c_wants. */
static void c_expected(cctx *c, const value *v, const char *what) {
    strbuf d = {0};
    put_description(&d, v);
    size_t before = c->errs->n;
    c_error(c, v, "expected %s, got %s", what, d.oom ? "?" : strbuf_str(&d));
    strbuf_free(&d);
    for (size_t i = 0; i < sizeof c_wants / sizeof c_wants[0]; i++) {
        if (strcmp(what, c_wants[i].what) != 0) continue;
        char *want = cerr_phrase(c_wants[i].key, NULL), *got = got_phrase(v);
        if (want && got) cerr_key4(c->errs, before, "schema.expected_what", want, got, NULL, NULL);
        free(want);
        free(got);
    }
}

/* A key's bit in ann.keys: a cheap mix of its first bytes (two keys may
** share a bit; a set bit only means "look it up"). */
static uint64_t key_bit(const char *k) {
    unsigned h = (unsigned char)k[0] * 7u;
    if (k[0]) h += (unsigned char)k[1] * 13u + (k[1] ? (unsigned char)k[2] : 0u);
    return 1ull << (h & 63u);
}

static const struct keyword *keyword_find(const char *name) {
    for (size_t i = 0; i < N_KEYWORDS; i++)
        if (strcmp(keywords[i].name, name) == 0) return &keywords[i];
    return NULL;
}

static int type_bit(const char *name) {
    for (size_t i = 0; i < sizeof type_names / sizeof type_names[0]; i++)
        if (strcmp(type_names[i].name, name) == 0) return type_names[i].bit;
    return 0;
}

static void check_schema(cctx *c, const value *node);

static void check_type(cctx *c, const value *v) {
    if (v->type == CV_STR) {
        if (!type_bit(v->u.str.s))
            c_errk(c, v, "schema.c.unknown_type",
                   "unknown type \"%s\" (expected null, boolean, integer, number, string, array "
                   "or object)",
                   v->u.str.s);
        return;
    }
    if (v->type != CV_LIST || v->u.list.n == 0) {
        c_expected(c, v, "a type name or a non-empty list of type names");
        return;
    }
    for (size_t i = 0; i < v->u.list.n; i++) {
        const value *t = v->u.list.items[i];
        size_t old = path_index(&c->path, i);
        if (t->type != CV_STR)
            c_expected(c, t, "a type name");
        else if (!type_bit(t->u.str.s))
            check_type(c, t);
        else
            for (size_t j = 0; j < i; j++)
                if (value_equal(v->u.list.items[j], t, 0))
                    c_errk(c, t, "schema.c.type_twice", "type \"%s\" is listed twice", t->u.str.s);
        strbuf_cut(&c->path, old);
    }
}

/* Compiles the pattern held by string node re_node (or, for
** patternProperties, by a key node) and records it. */
static void check_pattern(cctx *c, const value *re_node) {
    if (re_node->type != CV_STR) {
        c_expected(c, re_node, "a regular expression (string)");
        return;
    }
    char why[256];
    pattern *re = pattern_compile(re_node->u.str.s, re_node->u.str.len, why, sizeof why);
    if (!re) {
        strbuf q = {0};
        put_quoted(&q, re_node->u.str.s, re_node->u.str.len, 80);
        c_error(c, re_node, "invalid pattern %s: %s", q.oom ? "?" : strbuf_str(&q), why);
        strbuf_free(&q);
        return;
    }
    ann *a = ann_add(c->set, re_node, ANN_REGEX);
    if (!a) {
        pattern_free(re);
        c_oom(c, re_node);
        return;
    }
    if (a->re) { /* already compiled (cannot happen: each node is checked once) */
        pattern_free(re);
        return;
    }
    a->re = re;
}

static void check_schema_map(cctx *c, const value *v) {
    if (v->type != CV_MAP) {
        c_expected(c, v, "a map of schemas");
        return;
    }
    for (size_t i = 0; i < v->u.map.n; i++) {
        size_t old = path_key(&c->path, v->u.map.items[i].key->u.str.s);
        check_schema(c, v->u.map.items[i].val);
        strbuf_cut(&c->path, old);
    }
}

/* A list of distinct key names (required, dependentRequired). */
static void check_key_list(cctx *c, const value *v) {
    if (v->type != CV_LIST) {
        c_expected(c, v, "list of strings");
        return;
    }
    for (size_t i = 0; i < v->u.list.n; i++) {
        const value *t = v->u.list.items[i];
        size_t old = path_index(&c->path, i);
        if (t->type != CV_STR)
            c_expected(c, t, "string");
        else if (strlen(t->u.str.s) != t->u.str.len)
            c_errk(c, t, "schema.c.key_nul", "a key name cannot contain a NUL byte");
        else
            for (size_t j = 0; j < i; j++)
                if (value_equal(v->u.list.items[j], t, 0))
                    c_errk(c, t, "schema.c.listed_twice", "\"%s\" is listed twice", t->u.str.s);
        strbuf_cut(&c->path, old);
    }
}

static void check_keyword(cctx *c, const struct keyword *kw, const value *v) {
    switch (kw->kind) {
    case KW_DIALECT:
        if (v->type != CV_STR ||
            (strcmp(v->u.str.s, dialect) != 0 &&
             !(strncmp(v->u.str.s, dialect, strlen(dialect)) == 0 &&
               strcmp(v->u.str.s + strlen(dialect), "#") == 0)))
            c_expected(c, v, "\"https://json-schema.org/draft/2020-12/schema\" (the only draft cairn reads)");
        break;
    case KW_STRING:
        if (v->type != CV_STR) c_expected(c, v, "string");
        break;
    case KW_ANY: break;
    case KW_LIST:
        if (v->type != CV_LIST) c_expected(c, v, "list");
        break;
    case KW_ENUM:
        if (v->type != CV_LIST || v->u.list.n == 0) c_expected(c, v, "non-empty list");
        break;
    case KW_SCHEMA: check_schema(c, v); break;
    case KW_SCHEMA_MAP: check_schema_map(c, v); break;
    case KW_SCHEMA_LIST:
        if (v->type != CV_LIST || v->u.list.n == 0) {
            c_expected(c, v, "non-empty list of schemas");
            break;
        }
        for (size_t i = 0; i < v->u.list.n; i++) {
            size_t old = path_index(&c->path, i);
            check_schema(c, v->u.list.items[i]);
            strbuf_cut(&c->path, old);
        }
        break;
    case KW_PATTERN_MAP:
        if (v->type != CV_MAP) {
            c_expected(c, v, "map of pattern -> schema");
            break;
        }
        for (size_t i = 0; i < v->u.map.n; i++) {
            size_t old = path_key(&c->path, v->u.map.items[i].key->u.str.s);
            check_pattern(c, v->u.map.items[i].key);
            check_schema(c, v->u.map.items[i].val);
            strbuf_cut(&c->path, old);
        }
        break;
    case KW_NONNEG:
        if (v->type != CV_INT || v->u.i < 0) c_expected(c, v, "integer >= 0");
        break;
    case KW_INT:
        if (v->type != CV_INT) c_expected(c, v, "integer");
        break;
    case KW_POSINT:
        if (v->type != CV_INT || v->u.i <= 0) c_expected(c, v, "integer > 0");
        break;
    case KW_BOOL:
        if (v->type != CV_BOOL) c_expected(c, v, "boolean");
        break;
    case KW_TYPE: check_type(c, v); break;
    case KW_STRLIST: check_key_list(c, v); break;
    case KW_DEPREQ:
        if (v->type != CV_MAP) {
            c_expected(c, v, "map of key -> list of keys");
            break;
        }
        for (size_t i = 0; i < v->u.map.n; i++) {
            size_t old = path_key(&c->path, v->u.map.items[i].key->u.str.s);
            check_key_list(c, v->u.map.items[i].val);
            strbuf_cut(&c->path, old);
        }
        break;
    case KW_PATTERN: check_pattern(c, v); break;
    case KW_REF: {
        if (v->type != CV_STR) {
            c_expected(c, v, "string (a reference such as \"#/$defs/name\")");
            break;
        }
        char *where = cairn_strdup(strbuf_str(&c->path));
        ann *a = where ? ann_add(c->set, v, ANN_REF) : NULL;
        if (!a || pvec_push(&c->f->refs, v) != 0) {
            free(where);
            c_oom(c, v);
            break;
        }
        a->where = where;
        a->owner = c->f;
        break;
    }
    }
}

/* Checks that node is a schema of the supported subset, and records it
** and every schema below it. Recursion is bounded by the YAML depth. */
static void check_schema(cctx *c, const value *node) {
    if (node->type != CV_MAP && node->type != CV_BOOL) {
        c_expected(c, node, "schema (map or boolean)");
        return;
    }
    ann *a = ann_add(c->set, node, ANN_SCHEMA);
    if (!a || pvec_push(&c->f->nodes, node) != 0) {
        c_oom(c, node);
        return;
    }
    a->owner = c->f;
    if (node->type == CV_BOOL) return;
    a->keys = 0;
    for (size_t i = 0; i < node->u.map.n; i++) a->keys |= key_bit(node->u.map.items[i].key->u.str.s);
    a->has_keys = 1; /* before the loop below: a recursive ann_add may move the table */
    for (size_t i = 0; i < node->u.map.n; i++) {
        const value *k = node->u.map.items[i].key;
        const char *name = k->u.str.s;
        if (strncmp(name, "x-", 2) == 0) continue;
        const struct keyword *kw = keyword_find(name);
        if (!kw) {
            int known = 0;
            for (size_t j = 0; unsupported[j]; j++)
                if (strcmp(unsupported[j], name) == 0) known = 1;
            if (known) {
                c_errk(c, k, "schema.c.unsupported", "schema keyword \"%s\" is not supported by cairn (see docs/schemas.md)",
                       name);
                continue;
            }
            suggest_nearest sg = hint_start(name);
            for (size_t j = 0; j < N_KEYWORDS; j++) suggest_try(&sg, keywords[j].name);
            if (sg.best)
                c_errk(c, k, "schema.c.unknown_keyword_hint", "unknown schema keyword \"%s\" (did you mean \"%s\"?)", name,
                       sg.best);
            else
                c_errk(c, k, "schema.c.unknown_keyword", "unknown schema keyword \"%s\"", name);
            continue;
        }
        size_t old = path_key(&c->path, name);
        check_keyword(c, kw, node->u.map.items[i].val);
        strbuf_cut(&c->path, old);
    }
}

/* ------------------------------------------------------ resolving $ref */

static sfile *load_file(schema_set *s, const char *name, const char *canon, cerr_list *errs);

/* Follows the JSON pointer frag ("" or "/$defs/bag"; ~0 ~1 and %XX are
** decoded) from root. On failure returns NULL and says why in *why. */
static const value *follow_pointer(const value *root, const char *frag, strbuf *why) {
    const value *cur = root;
    const char *p = frag;
    if (*p && *p != '/') {
        strbuf_puts(why, "a fragment must be a JSON pointer such as #/$defs/name (anchors are not supported)");
        return NULL;
    }
    while (*p == '/') {
        strbuf seg = {0};
        for (p++; *p && *p != '/'; p++) {
            char ch = *p;
            if (p[0] == '~' && (p[1] == '0' || p[1] == '1')) {
                ch = p[1] == '0' ? '~' : '/';
                p++;
            } else if (p[0] == '%' && p[1] && p[2] && strchr("0123456789abcdefABCDEF", p[1]) &&
                       strchr("0123456789abcdefABCDEF", p[2])) {
                char hex[3] = {p[1], p[2], 0};
                ch = (char)strtol(hex, NULL, 16);
                p += 2;
            }
            strbuf_putc(&seg, ch);
        }
        if (seg.oom) {
            strbuf_puts(why, "out of memory");
            return NULL;
        }
        const char *k = strbuf_str(&seg);
        const value *next = NULL;
        if (cur->type == CV_MAP) {
            next = value_map_get(cur, k);
            if (!next) {
                const char *hint = hint_key(k, cur);
                strbuf_printf(why, "no key \"%s\"", k);
                if (hint) strbuf_printf(why, " (did you mean \"%s\"?)", hint);
            }
        } else if (cur->type == CV_LIST) {
            char *end;
            errno = 0;
            unsigned long long ix = strtoull(k, &end, 10);
            if (*k >= '0' && *k <= '9' && !*end && errno == 0 && ix < cur->u.list.n)
                next = cur->u.list.items[ix];
            else
                strbuf_printf(why, "no item \"%s\" in a list of %zu", k, cur->u.list.n);
        } else {
            strbuf_printf(why, "cannot look up \"%s\" inside a %s", k, value_type_name(cur->type));
        }
        strbuf_free(&seg);
        if (!next) return NULL;
        cur = next;
    }
    return cur;
}

/* Removes "." and "dir/.." segments from path, as URI resolution does
** (and so as editors resolve a $ref): "a/b/../c.yaml" -> "a/c.yaml". */
static void normalize_path(strbuf *out, const char *path) {
    const char *p = path;
    size_t keep = 0; /* length of the leading "/" or "../" part that cannot be popped */
    if (*p == '/') {
        strbuf_putc(out, '/');
        keep = 1;
    }
    while (*p) {
        while (*p == '/') p++;
        const char *end = strchr(p, '/');
        size_t n = end ? (size_t)(end - p) : strlen(p);
        if (n == 0) break;
        if (n == 1 && p[0] == '.') {
            /* nothing */
        } else if (n == 2 && p[0] == '.' && p[1] == '.') {
            if (out->n > keep) {
                size_t cut = out->n;
                while (cut > keep && out->s[cut - 1] != '/') cut--;
                strbuf_cut(out, cut > keep ? cut - 1 : keep);
            } else if (keep != 1 || !out->n || out->s[0] != '/') {
                if (out->n) strbuf_putc(out, '/');
                strbuf_puts(out, "..");
                keep = out->n;
            }
        } else {
            if (out->n && out->s[out->n - 1] != '/') strbuf_putc(out, '/');
            strbuf_putn(out, p, n);
        }
        p += n;
    }
    if (!out->n) strbuf_puts(out, ".");
}

/* Resolves one $ref node of file f, loading the file it names if needed. */
static void resolve_ref(cctx *c, const value *ref) {
    const char *text = ref->u.str.s;
    const char *hash = strchr(text, '#');
    size_t flen = hash ? (size_t)(hash - text) : strlen(text);
    const char *frag = hash ? hash + 1 : "";
    ann *a = ann_find(c->set, ref);
    strbuf_cut(&c->path, 0);
    strbuf_puts(&c->path, a && a->where ? a->where : "");
    if (memchr(text, ':', flen)) {
        c_errk(c, ref, "schema.c.ref_uri", "$ref \"%s\": only local files can be referenced, not URIs", text);
        return;
    }
    sfile *tf = c->f;
    if (flen) {
        strbuf joined = {0}, name = {0};
        if (text[0] != '/') strbuf_puts(&joined, c->f->dir);
        strbuf_putn(&joined, text, flen);
        normalize_path(&name, strbuf_str(&joined));
        if (joined.oom) name.oom = 1;
        strbuf_free(&joined);
        if (name.oom) {
            strbuf_free(&name);
            c_oom(c, ref);
            return;
        }
        char *canon = realpath(strbuf_str(&name), NULL);
        if (!canon && c->set->fallback_dir) {
            /* a ruleset folder copied out of the tree loses its ../../../schemas:
            ** look the file up by name among cairn's own schemas */
            int err = errno;
            const char *base = strrchr(strbuf_str(&name), '/');
            base = base ? base + 1 : strbuf_str(&name);
            strbuf alt = {0};
            strbuf_printf(&alt, "%s/%s", c->set->fallback_dir, base);
            canon = alt.oom ? NULL : realpath(strbuf_str(&alt), NULL);
            if (canon) {
                strbuf_free(&name);
                name = alt;
            } else {
                strbuf_free(&alt);
                errno = err;
            }
        }
        if (!canon) {
            int e = errno;
            size_t before = c->errs->n;
            c_error(c, ref, "$ref \"%s\": cannot read %s: %s", text, strbuf_str(&name), strerror(e));
            cerr_key(c->errs, before, "schema.c.ref_unreadable", e, text, strbuf_str(&name));
            strbuf_free(&name);
            return;
        }
        if (!ref_allowed(c->set, canon)) {
            /* refused before it is opened: its text never reaches a message */
            c_errk(c, ref, "schema.c.ref_outside",
                   "$ref \"%s\": %s is outside the folders a schema may refer to (the "
                   "ruleset's folders, or the schema's own folder, and cairn's schemas folder)",
                   text, strbuf_str(&name));
            free(canon);
            strbuf_free(&name);
            return;
        }
        tf = load_file(c->set, strbuf_str(&name), canon, c->errs);
        free(canon);
        if (!tf) {
            c_oom(c, ref);
            strbuf_free(&name);
            return;
        }
        if (tf->state == SF_FAILED || !tf->root) {
            c_errk(c, ref, "schema.c.ref_has_errors", "$ref \"%s\": schema file %s has errors", text, strbuf_str(&name));
            strbuf_free(&name);
            return;
        }
        strbuf_free(&name);
    }
    strbuf why = {0};
    const value *target = follow_pointer(tf->root, frag, &why);
    if (!target) {
        c_error(c, ref, "$ref \"%s\" not found: %s", text, why.oom ? "?" : strbuf_str(&why));
    } else {
        ann *t = ann_find(c->set, target);
        if (!t || t->kind != ANN_SCHEMA) {
            c_errk(c, ref, "schema.c.ref_not_schema", "$ref \"%s\" does not point at a schema", text);
        } else {
            a = ann_find(c->set, ref); /* loading may have moved the table */
            if (a) a->target = target;
        }
    }
    strbuf_free(&why);
}

/* ---------------------------------------------- $ref cycles (no progress) */

/* The idx-th schema applied to the same instance node as sch ($ref, allOf,
** anyOf, oneOf, not, if, then, else), or NULL past the last. *via is the
** $ref node when that edge is a $ref. */
static const value *inplace_child(const schema_set *s, const value *sch, size_t idx,
                                  const value **via) {
    *via = NULL;
    if (sch->type != CV_MAP) return NULL;
    for (size_t i = 0; i < sch->u.map.n; i++) {
        const char *k = sch->u.map.items[i].key->u.str.s;
        const value *v = sch->u.map.items[i].val;
        if (strcmp(k, "$ref") == 0) {
            if (idx == 0) {
                const ann *a = ann_find(s, v);
                *via = v;
                return a && a->target ? a->target : sch; /* unresolved: a harmless self-loop marker */
            }
            idx--;
        } else if (strcmp(k, "allOf") == 0 || strcmp(k, "anyOf") == 0 || strcmp(k, "oneOf") == 0) {
            if (v->type != CV_LIST) continue;
            if (idx < v->u.list.n) return v->u.list.items[idx];
            idx -= v->u.list.n;
        } else if (strcmp(k, "not") == 0 || strcmp(k, "if") == 0 || strcmp(k, "then") == 0 ||
                   strcmp(k, "else") == 0) {
            if (idx == 0) return v;
            idx--;
        }
    }
    return NULL;
}

typedef struct frame {
    const value *node;
    size_t next;      /* index of the next child to visit */
    const value *via; /* $ref node of the edge being followed from here */
} frame;

/* Marks f failed for a reason found after its own load finished, keeping
** the error so that asking for f again reports it. */
static void fail_later(sfile *f, const value *at, const char *where, const char *msg,
                       cerr_list *errs) {
    const char *file = at && at->file ? at->file->name : f->name;
    int line = at ? at->line : 0, col = at ? at->col : 0;
    f->state = SF_FAILED;
    cerr_add(&f->errs, file, line, col, where, "%s", msg);
    if (errs) cerr_add(errs, file, line, col, where, "%s", msg);
}

/* Depth-first search over in-place edges from every schema node of the
** files loaded together; an edge back to a node on the stack is a cycle
** that would validate the same instance node forever. Iterative: chains
** of $ref can be long. The file holding the $ref that closes a cycle fails. */
static void check_cycles(schema_set *s, sfile **files, size_t nfiles, cerr_list *errs) {
    s->gen++;
    size_t cap = 64, top = 0;
    frame *st = malloc(cap * sizeof *st);
    if (!st) goto oom;
    for (size_t fi = 0; fi < nfiles; fi++) {
        const sfile *f = files[fi];
        if (f->state == SF_FAILED) continue;
        for (size_t n = 0; n < f->nodes.n; n++) {
            ann *a = ann_find(s, f->nodes.v[n]);
            if (!a || (a->gen == s->gen && a->mark != WHITE)) continue;
            a->gen = s->gen;
            a->mark = GREY;
            top = 0;
            st[top++] = (frame){f->nodes.v[n], 0, NULL};
            while (top) {
                frame *fr = &st[top - 1];
                const value *via;
                const value *child = inplace_child(s, fr->node, fr->next++, &via);
                if (!child) {
                    ann *d = ann_find(s, fr->node);
                    if (d) d->mark = BLACK;
                    top--;
                    continue;
                }
                fr->via = via;
                ann *ca = ann_find(s, child);
                if (!ca || ca->kind != ANN_SCHEMA) continue;
                if (via) {
                    const ann *ra = ann_find(s, via);
                    if (!ra || !ra->target) continue; /* unresolved: already an error */
                }
                if (ca->gen != s->gen) {
                    ca->gen = s->gen;
                    ca->mark = WHITE;
                }
                if (ca->mark == BLACK) continue;
                if (ca->mark == GREY) {
                    /* report at the first $ref of the loop */
                    const value *ref = NULL;
                    for (size_t i = top; i-- > 0;) {
                        if (st[i].via) ref = st[i].via;
                        if (st[i].node == child) break;
                    }
                    const ann *ra = ref ? ann_find(s, ref) : NULL;
                    if (!ra || !ra->owner) continue; /* a loop without $ref: cannot be built */
                    char *msg = cairn_strfmt(
                        "$ref \"%s\" makes a cycle that never descends into the instance",
                        ref->u.str.s);
                    if (!msg) goto oom;
                    fail_later(ra->owner, ref, ra->where, msg, errs);
                    free(msg);
                    continue;
                }
                ca->mark = GREY;
                if (GROW(st, cap, top + 1) != 0) goto oom;
                st[top++] = (frame){child, 0, NULL};
            }
        }
    }
    free(st);
    return;
oom:
    free(st);
    for (size_t fi = 0; fi < nfiles; fi++)
        if (files[fi]->state != SF_FAILED)
            fail_later(files[fi], NULL, NULL, "out of memory while checking the schema", errs);
}

/* ----------------------------------------------------------- loading */

/* Copies the errors appended to errs since (n0 stored, c0 counted) into
** the file's own list, to replay them on a later request. */
static void keep_errors(sfile *f, const cerr_list *errs, size_t n0, size_t c0) {
    for (size_t i = n0; i < errs->n; i++) {
        const cairn_error *e = &errs->items[i];
        cerr_add(&f->errs, e->file, e->line, e->col, e->path, "%s", e->message);
    }
    size_t counted = cerr_count(errs) - c0, stored = errs->n - n0;
    if (counted > stored) f->errs.dropped += counted - stored;
}

/* Ends the outermost load: files that $ref each other are only known good
** together. Looks for cycles across all of them, then fails every file
** that refers into a failed one, and declares the rest good. */
static void finish_batch(schema_set *s, cerr_list *errs) {
    check_cycles(s, s->batch, s->nbatch, errs);
    for (int changed = 1; changed;) {
        changed = 0;
        for (size_t i = 0; i < s->nbatch; i++) {
            sfile *f = s->batch[i];
            if (f->state == SF_FAILED) continue;
            for (size_t r = 0; r < f->refs.n; r++) {
                const ann *ra = ann_find(s, f->refs.v[r]);
                const ann *ta = ra && ra->target ? ann_find(s, ra->target) : NULL;
                if (!ta || !ta->owner || ta->owner->state != SF_FAILED) continue;
                char *msg = cairn_strfmt("$ref \"%s\": schema file %s has errors",
                                         f->refs.v[r]->u.str.s, ta->owner->name);
                fail_later(f, f->refs.v[r], ra->where, msg ? msg : "out of memory", NULL);
                free(msg);
                changed = 1;
                break;
            }
        }
    }
    for (size_t i = 0; i < s->nbatch; i++)
        if (s->batch[i]->state == SF_LOADING) s->batch[i]->state = SF_OK;
    s->nbatch = 0;
}

/* Loads f's YAML (from text, or from the file f->name when text is NULL),
** checks it and resolves its $refs, loading the files they name. While a
** load is in progress, files stay SF_LOADING: their schema nodes are known,
** so files may $ref each other; the outermost load settles them all. */
static sfile *load_entry(schema_set *s, sfile *f, const char *text, size_t len, cerr_list *errs) {
    size_t n0 = errs->n, c0 = cerr_count(errs);
    int oom0 = errs->oom;
    if (GROW(s->batch, s->capbatch, s->nbatch + 1) != 0) {
        cerr_addk(errs, f->name, 0, 0, NULL, "oom", "out of memory loading the schema");
        f->state = SF_FAILED;
        keep_errors(f, errs, n0, c0);
        return f;
    }
    s->batch[s->nbatch++] = f;
    s->depth++;
    f->root = text ? yload_string(f->name, text, len, NULL, errs) : yload_file(f->name, errs);
    if (f->root) {
        cctx c = {s, f, errs, {0}};
        check_schema(&c, f->root);
        for (size_t i = 0; i < f->refs.n; i++) resolve_ref(&c, f->refs.v[i]);
        if (c.path.oom) errs->oom = 1;
        strbuf_free(&c.path);
    }
    if (!f->root || cerr_count(errs) != c0 || (errs->oom && !oom0)) {
        f->state = SF_FAILED;
        keep_errors(f, errs, n0, c0);
    }
    if (--s->depth == 0) finish_batch(s, errs);
    return f;
}

/* The file entry for canon, loading it on first use. NULL on OOM (after
** appending an error). */
static sfile *load_file(schema_set *s, const char *name, const char *canon, cerr_list *errs) {
    sfile *f = sfile_by_canon(s, canon);
    if (f) return f;
    f = sfile_add(s, name, canon);
    if (!f) {
        cerr_addk(errs, name, 0, 0, NULL, "oom", "out of memory loading the schema");
        return NULL;
    }
    return load_entry(s, f, NULL, 0, errs);
}

/* The subschema at fragment frag of a loaded file, or NULL with an error. */
static const value *file_fragment(schema_set *s, sfile *f, const char *frag, cerr_list *errs) {
    if (!*frag) return f->root;
    strbuf why = {0};
    const value *t = follow_pointer(f->root, frag, &why);
    const ann *a = t ? ann_find(s, t) : NULL;
    if (!t)
        cerr_add(errs, f->name, 0, 0, NULL, "\"#%s\" not found: %s", frag, why.oom ? "?" : strbuf_str(&why));
    else if (!a || a->kind != ANN_SCHEMA)
        cerr_addk(errs, f->name, 0, 0, NULL, "schema.c.fragment_not_schema", "\"#%s\" does not point at a schema", frag);
    strbuf_free(&why);
    return a && a->kind == ANN_SCHEMA ? t : NULL;
}

const value *schema_load(schema_set *s, const char *path, cerr_list *errs) {
    const char *hash = strchr(path, '#');
    char *file = hash ? malloc((size_t)(hash - path) + 1) : cairn_strdup(path);
    if (!file) {
        cerr_addk(errs, path, 0, 0, NULL, "oom", "out of memory loading the schema");
        return NULL;
    }
    if (hash) {
        memcpy(file, path, (size_t)(hash - path));
        file[hash - path] = '\0';
    }
    /* a file asked for again by the same name is the one loaded then: no
    ** realpath (some five system calls) each time a load names it */
    sfile *f = sfile_by_name(s, file);
    char *canon = f ? NULL : realpath(file, NULL);
    if (!f && !canon) {
        int e = errno;
        size_t before = errs->n;
        cerr_add(errs, file, 0, 0, NULL, "cannot read schema file: %s", strerror(e));
        cerr_key(errs, before, "schema.c.unreadable", e, NULL, NULL);
        free(file);
        return NULL;
    }
    if (!f) f = sfile_by_canon(s, canon);
    const value *result = NULL;
    if (f) {
        if (f->state == SF_FAILED) cerr_merge(errs, &f->errs);
    } else {
        set_batch_root(s, canon);
        f = load_file(s, file, canon, errs);
    }
    if (f && f->state == SF_OK) result = file_fragment(s, f, hash ? hash + 1 : "", errs);
    free(canon);
    free(file);
    return result;
}

const value *schema_load_string(schema_set *s, const char *name, const char *text, size_t len,
                                cerr_list *errs) {
    sfile *f = sfile_add(s, name, NULL);
    if (!f) {
        cerr_addk(errs, name, 0, 0, NULL, "oom", "out of memory loading the schema");
        return NULL;
    }
    set_batch_root(s, name);
    load_entry(s, f, text, len, errs);
    return f->state == SF_OK ? f->root : NULL;
}

/* --------------------------------------------------------- validating */

typedef struct vctx {
    schema_set *set;
    cerr_list *errs;   /* where errors go (a scratch list inside anyOf/oneOf/not/if) */
    strbuf *path;      /* the instance path so far */
    const char *key;   /* validating a map key (propertyNames): the key's text */
    int quick;         /* only valid/invalid matters: stop at the first error */
    int depth;
    int *oom;
    const value *keys_of; /* the schema node whose ann.keys is in `keys` */
    uint64_t keys;
    struct pattern_memo *memo; /* each long string matched once per pattern */
} vctx;

/* What one validation learned of its long strings: whether pattern re
** matched the text (len bytes at s, hash h), so that the same text under
** the same pattern is matched once per validation, however many nodes hold
** a copy of it (a state of 30 references to one 64 KB string was matched
** 30 times after every decision). Short strings are matched each time:
** cheaper than hashing them. */
#define MEMO_MIN_LEN 256
typedef struct memo_entry {
    const value *re;
    const char *s;
    size_t len;
    uint64_t h;
    int result;
} memo_entry;
typedef struct pattern_memo {
    memo_entry *tab;
    size_t cap, n;
} pattern_memo;

static uint64_t memo_hash(const value *re, const char *s, size_t len) {
    uint64_t h = 1469598103934665603ull ^ (uint64_t)(uintptr_t)re;
    for (size_t i = 0; i < len; i++) h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
    return h;
}

/* The entry for (re, text): found (its result >= 0), or an empty one to
** fill (result -1); NULL when out of memory. */
static memo_entry *memo_slot(pattern_memo *m, const value *re, const char *s, size_t len, uint64_t h) {
    if (2 * (m->n + 1) > m->cap) {
        size_t cap = m->cap ? 2 * m->cap : 16;
        memo_entry *t = calloc(cap, sizeof *t);
        if (!t) return NULL;
        for (size_t i = 0; i < m->cap; i++) {
            if (!m->tab[i].re) continue;
            size_t j = (size_t)m->tab[i].h & (cap - 1);
            while (t[j].re) j = (j + 1) & (cap - 1);
            t[j] = m->tab[i];
        }
        free(m->tab);
        m->tab = t, m->cap = cap;
    }
    size_t j = (size_t)h & (m->cap - 1);
    for (; m->tab[j].re; j = (j + 1) & (m->cap - 1)) {
        memo_entry *e = &m->tab[j];
        if (e->h == h && e->re == re && e->len == len && memcmp(e->s, s, len) == 0) return e;
    }
    memo_entry *e = &m->tab[j];
    *e = (memo_entry){re, s, len, h, -1};
    m->n++;
    return e;
}

static void v_node(vctx *c, const value *sch, const value *inst);

/* The instance path grown by a key or an index, except in a pass-or-fail
** probe, which shows no path. Returns the length to cut back to. */
static size_t v_path_key(vctx *c, const char *key) { return c->quick ? c->path->n : path_key(c->path, key); }
static size_t v_path_index(vctx *c, size_t i) { return c->quick ? c->path->n : path_index(c->path, i); }

/* sch's keyword k, skipping the lookup when the node has no key with k's
** bit (validation asks some twenty keywords of every node it visits, most
** of them absent). */
static const value *sg(vctx *c, const value *sch, const char *k) {
    if (!sch || sch->type != CV_MAP) return NULL;
    if (c->keys_of != sch) {
        const ann *a = ann_find(c->set, sch);
        c->keys = a && a->has_keys ? a->keys : ~0ull;
        c->keys_of = sch;
    }
    if (!(c->keys & key_bit(k))) return NULL;
    return value_map_get(sch, k);
}

/* A failure in a pass-or-fail probe (c->quick): counted, never shown (the
** probe's scratch list is only counted, then freed), so no text is made. */
static void quick_fail(vctx *c) { c->errs->dropped++; }

/* One error at instance node `at`, with the current instance path. */
static void v_emit(vctx *c, const value *at, strbuf *msg) {
    if (c->quick) { /* pass or fail only (v_valid): the text is never shown */
        strbuf_free(msg);
        quick_fail(c);
        return;
    }
    if (msg->oom || c->path->oom) *c->oom = 1;
    const char *text = msg->oom ? "(out of memory)" : strbuf_str(msg);
    const char *file = at->file ? at->file->name : NULL;
    if (c->key)
        cerr_add(c->errs, file, at->line, at->col, strbuf_str(c->path), "key \"%s\": %s", c->key, text);
    else
        cerr_add(c->errs, file, at->line, at->col, strbuf_str(c->path), "%s", text);
    strbuf_free(msg);
}

/* "expected <expected>, got <inst>[<tail>]" */
static void v_expected(vctx *c, const value *inst, strbuf *expected, const char *tail) {
    if (c->quick) {
        strbuf_free(expected);
        quick_fail(c);
        return;
    }
    strbuf msg = {0};
    strbuf_puts(&msg, "expected ");
    strbuf_puts(&msg, strbuf_str(expected));
    strbuf_puts(&msg, ", got ");
    put_description(&msg, inst);
    if (tail) strbuf_puts(&msg, tail);
    if (expected->oom) msg.oom = 1;
    strbuf_free(expected);
    v_emit(c, inst, &msg);
}

static int inst_bit(const value *v) {
    switch (v->type) {
    case CV_NULL: return T_NULL;
    case CV_BOOL: return T_BOOL;
    case CV_INT: return T_INT;
    case CV_STR: return T_STR;
    case CV_LIST: return T_LIST;
    case CV_MAP: return T_MAP;
    }
    return 0;
}

static int type_mask(const value *t) {
    if (t->type == CV_STR) return type_bit(t->u.str.s);
    int m = 0;
    if (t->type == CV_LIST)
        for (size_t i = 0; i < t->u.list.n; i++)
            if (t->u.list.items[i]->type == CV_STR) m |= type_bit(t->u.list.items[i]->u.str.s);
    return m;
}

static const value *kw_int_c(vctx *c, const value *sch, const char *k) {
    const value *v = sg(c, sch, k);
    return v && v->type == CV_INT ? v : NULL;
}

static const value *kw_int(const value *sch, const char *k) {
    const value *v = value_map_get(sch, k);
    return v && v->type == CV_INT ? v : NULL;
}

/* " >= 0", " between 1 and 6", " > 0 and multiple of 5": what sch asks of
** an integer, with a leading space; nothing if it asks nothing. */
static void int_quals(strbuf *b, const value *sch) {
    const value *mn = kw_int(sch, "minimum"), *mx = kw_int(sch, "maximum");
    const value *xmn = kw_int(sch, "exclusiveMinimum"), *xmx = kw_int(sch, "exclusiveMaximum");
    const value *mul = kw_int(sch, "multipleOf");
    const char *sep = " ";
    if (mn && mx) {
        strbuf_printf(b, "%sbetween %" PRId64 " and %" PRId64, sep, mn->u.i, mx->u.i);
        sep = " and ";
    } else if (mn) {
        strbuf_printf(b, "%s>= %" PRId64, sep, mn->u.i);
        sep = " and ";
    }
    if (xmn) {
        strbuf_printf(b, "%s> %" PRId64, sep, xmn->u.i);
        sep = " and ";
    }
    if (mx && !mn) {
        strbuf_printf(b, "%s<= %" PRId64, sep, mx->u.i);
        sep = " and ";
    }
    if (xmx) {
        strbuf_printf(b, "%s< %" PRId64, sep, xmx->u.i);
        sep = " and ";
    }
    if (mul) strbuf_printf(b, "%smultiple of %" PRId64, sep, mul->u.i);
}

static const char *cv_names[] = {"null", "boolean", "integer", "string", "list", "map"};

/* "integer >= 0", "string or null", "null, integer or map". */
static void describe_types(strbuf *b, int mask, const value *sch) {
    int n = 0, total = 0;
    for (int i = 0; i < 6; i++)
        if (mask & (1 << i)) total++;
    for (int i = 0; i < 6; i++) {
        if (!(mask & (1 << i))) continue;
        if (n) strbuf_puts(b, n == total - 1 ? " or " : ", ");
        strbuf_puts(b, cv_names[i]);
        if ((1 << i) == T_INT && sch) int_quals(b, sch);
        n++;
    }
}

static void type_codes(strbuf *types, strbuf *bounds, int mask, const value *sch);

/* Gives the error v_expected added last (when l->n was `before`) the key
** "schema.expected" for the console's languages (base/error.h), with the
** words of the message in a form no language owns: the expected types
** ("integer string", cv_names), the integer's bounds ("min=1 max=6",
** also xmin, xmax, mul; "" when none), the type of what was got (cv_names)
** and what it was: a scalar as the message quotes it ("\"abc\"", "3",
** "true"; "" for null), a list's or map's size ("2"). A map key's error
** gets its "key ...: " prefix into its key after (key_prefixed). */
static void key_expected(vctx *c, size_t before, int mask, const value *sch, const value *inst) {
    if (c->errs->n != before + 1) return;
    int type_index = 0;
    while (type_index < 5 && inst_bit(inst) != 1 << type_index) type_index++;
    strbuf types = {0}, bounds = {0}, got = {0};
    type_codes(&types, &bounds, mask, sch);
    strbuf_puts(&got, "");
    if (inst->type == CV_LIST || inst->type == CV_MAP) {
        strbuf_printf(&got, "%zu", value_len(inst));
    } else if (inst->type != CV_NULL) {
        char *d = value_describe(inst); /* "string \"abc\"", "integer 3", "boolean true" */
        const char *sp = d ? strchr(d, ' ') : NULL;
        if (sp) strbuf_puts(&got, sp + 1);
        else got.oom = 1;
        free(d);
    }
    if (!types.oom && !bounds.oom && !got.oom)
        cerr_key4(c->errs, before, "schema.expected", strbuf_str(&types), strbuf_str(&bounds),
                  cv_names[type_index], strbuf_str(&got));
    strbuf_free(&types);
    strbuf_free(&bounds);
    strbuf_free(&got);
}

/* Gives an enum's refusal ("expected one of a, b, got string "x"") the key
** "schema.one_of" (or "schema.one_of_hint" with the nearest item) for the
** console's languages: the items as the message lists them (data, no
** language's words) and what was got, a scalar as the message quotes it. */
static void key_one_of(vctx *c, size_t before, const strbuf *items, const value *inst, const char *hint) {
    if (c->quick || c->errs->n != before + 1 || items->oom) return;
    if (inst->type == CV_LIST || inst->type == CV_MAP || inst->type == CV_NULL) return;
    char *d = value_describe(inst); /* "string \"abc\"", "integer 3" */
    const char *sp = d ? strchr(d, ' ') : NULL;
    if (sp) cerr_key4(c->errs, before, hint ? "schema.one_of_hint" : "schema.one_of", strbuf_str(items), sp + 1, hint, NULL);
    free(d);
}

/* Whether the error just added (c->errs->n was `before`) can be given a
** key for the console's languages: not in a pass-or-fail probe, and it was
** stored. A map key's error (propertyNames) is keyed as if it had no
** "key ...: " prefix; key_prefixed puts the prefix in its key after. */
static int keyable(const vctx *c, size_t before) {
    return !c->quick && c->errs->n == before + 1;
}

/* Gives that error key and up to four arguments (phrases, base/error.h, or
** text; NULL past the last), when keyable and none of the first n is NULL
** for lack of memory (then its English message stands). Frees them. */
static void key_error(vctx *c, size_t before, const char *key, int n, char *a0, char *a1, char *a2,
                      char *a3) {
    char *a[4] = {a0, a1, a2, a3};
    int ok = keyable(c, before);
    for (int i = 0; i < n; i++)
        if (!a[i]) ok = 0;
    if (ok) cerr_key4(c->errs, before, key, a[0], a[1], a[2], a[3]);
    for (int i = 0; i < 4; i++) free(a[i]);
}

/* The types of mask and an integer's bounds from sch, as codes no
** language owns (key_expected): "integer string", "min=1 max=6". */
static void type_codes(strbuf *types, strbuf *bounds, int mask, const value *sch) {
    for (int i = 0; i < 6; i++)
        if (mask & (1 << i)) strbuf_printf(types, "%s%s", types->n ? " " : "", cv_names[i]);
    strbuf_puts(types, "");
    strbuf_puts(bounds, "");
    if (mask & T_INT && sch) {
        const char *names[] = {"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"};
        const char *codes[] = {"min", "max", "xmin", "xmax", "mul"};
        for (int i = 0; i < 5; i++) {
            const value *b = kw_int(sch, names[i]);
            if (b) strbuf_printf(bounds, "%s%s=%" PRId64, bounds->n ? " " : "", codes[i], b->u.i);
        }
    }
}

/* describe_types as a phrase the console words ("schema.types"). NULL on OOM. */
static char *types_phrase(int mask, const value *sch) {
    strbuf types = {0}, bounds = {0};
    type_codes(&types, &bounds, mask, sch);
    char *p = types.oom || bounds.oom ? NULL : cerr_phrase("schema.types", strbuf_str(&types), strbuf_str(&bounds), NULL);
    strbuf_free(&types);
    strbuf_free(&bounds);
    return p;
}

/* What inst is, as the console words the "got" of a message: the phrase
** "schema.got" with its type (cv_names) and its text (a scalar as the
** message quotes it, a list's or map's size, "" for null). NULL on OOM. */
static char *got_phrase(const value *inst) {
    int t = 0;
    while (t < 5 && inst_bit(inst) != 1 << t) t++;
    char size[24];
    const char *what = "";
    char *d = NULL;
    if (inst->type == CV_LIST || inst->type == CV_MAP) {
        snprintf(size, sizeof size, "%zu", value_len(inst));
        what = size;
    } else if (inst->type != CV_NULL) {
        d = value_describe(inst); /* "string \"abc\"", "integer 3", "boolean true" */
        const char *sp = d ? strchr(d, ' ') : NULL;
        if (!sp) {
            free(d);
            return NULL;
        }
        what = sp + 1;
    }
    char *p = cerr_phrase("schema.got", cv_names[t], what, NULL);
    free(d);
    return p;
}

/* The text of b, or NULL when it ran out of memory; a copy. */
static char *text_of(const strbuf *b) { return b->oom ? NULL : cairn_strdup(strbuf_str(b)); }

/* s in double quotes as put_quoted writes it; a copy, NULL on OOM. */
static char *quoted_copy(const char *s, size_t len, size_t max) {
    strbuf b = {0};
    put_quoted(&b, s, len, max);
    char *t = text_of(&b);
    strbuf_free(&b);
    return t;
}

/* count_phrase as a phrase the console words: "schema.list.at_least" and
** its number, for what "string", "list" or "map". NULL on OOM. */
static char *count_code(const char *what, const value *mn, const value *mx) {
    char a[24], b[24], key[40];
    const char *kind;
    if (mn && mx && mn->u.i == mx->u.i) kind = "exactly";
    else if (mn && mx) kind = "range";
    else if (mn) kind = "at_least";
    else kind = "at_most";
    snprintf(key, sizeof key, "schema.%s.%s", what, kind);
    snprintf(a, sizeof a, "%" PRId64, mn ? mn->u.i : mx->u.i);
    snprintf(b, sizeof b, "%" PRId64, mx ? mx->u.i : 0);
    return strcmp(kind, "range") == 0 ? cerr_phrase(key, a, b, NULL) : cerr_phrase(key, a, NULL);
}

/* "at least 2 items", "1 to 3 keys", "exactly 1 character". */
static void count_phrase(strbuf *b, const value *mn, const value *mx, const char *one,
                         const char *many) {
    if (mn && mx && mn->u.i == mx->u.i)
        strbuf_printf(b, "exactly %" PRId64 " %s", mn->u.i, mn->u.i == 1 ? one : many);
    else if (mn && mx)
        strbuf_printf(b, "%" PRId64 " to %" PRId64 " %s", mn->u.i, mx->u.i, many);
    else if (mn)
        strbuf_printf(b, "at least %" PRId64 " %s", mn->u.i, mn->u.i == 1 ? one : many);
    else
        strbuf_printf(b, "at most %" PRId64 " %s", mx->u.i, mx->u.i == 1 ? one : many);
}

/* A size check shared by strings, lists and maps: "expected list of at
** least 2 items, got a list of 1 item". */
static void v_count(vctx *c, const value *sch, const value *inst, int64_t n, const char *kmin,
                    const char *kmax, const char *what, const char *one, const char *many) {
    const value *mn = kw_int_c(c, sch, kmin), *mx = kw_int_c(c, sch, kmax);
    if ((!mn || n >= mn->u.i) && (!mx || n <= mx->u.i)) return;
    strbuf e = {0};
    strbuf_printf(&e, "%s of ", what);
    count_phrase(&e, mn, mx, one, many);
    size_t before = c->errs->n;
    v_expected(c, inst, &e, NULL);
    if (keyable(c, before))
        key_error(c, before, "schema.expected_what", 2, count_code(what, mn, mx), got_phrase(inst), NULL, NULL);
}

static int64_t utf8_length(const char *s, size_t len) {
    int64_t n = 0;
    for (size_t i = 0; i < len; i++)
        if (((unsigned char)s[i] & 0xC0) != 0x80) n++;
    return n;
}

static void v_int(vctx *c, const value *sch, const value *inst) {
    int64_t i = inst->u.i;
    const value *mn = kw_int_c(c, sch, "minimum"), *mx = kw_int_c(c, sch, "maximum");
    const value *xmn = kw_int_c(c, sch, "exclusiveMinimum"), *xmx = kw_int_c(c, sch, "exclusiveMaximum");
    const value *mul = kw_int_c(c, sch, "multipleOf");
    if ((mn && i < mn->u.i) || (mx && i > mx->u.i) || (xmn && i <= xmn->u.i) ||
        (xmx && i >= xmx->u.i) || (mul && i % mul->u.i != 0)) {
        strbuf e = {0};
        strbuf_puts(&e, "integer");
        int_quals(&e, sch);
        size_t before = c->errs->n;
        v_expected(c, inst, &e, NULL);
        key_expected(c, before, T_INT, sch, inst);
    }
}

/* Whether the pattern at re_node matches somewhere in string node str
** (its whole length: NUL bytes are characters). Out of memory counts as a
** match, after flagging it, so that it does not add a false error. */
static int regex_match(const vctx *c, const value *re_node, const value *str) {
    const ann *a = ann_find(c->set, re_node);
    if (!a || !a->re) return 0;
    memo_entry *e = NULL;
    if (c->memo && str->u.str.len >= MEMO_MIN_LEN) {
        uint64_t h = memo_hash(re_node, str->u.str.s, str->u.str.len);
        e = memo_slot(c->memo, re_node, str->u.str.s, str->u.str.len, h);
        if (e && e->result >= 0) return e->result;
    }
    int r = pattern_search(a->re, str->u.str.s, str->u.str.len);
    if (r < 0) {
        *c->oom = 1;
        if (e) e->result = 1; /* as below: out of memory counts as a match */
    } else if (e) {
        e->result = r != 0;
    }
    return r != 0;
}

static void v_str(vctx *c, const value *sch, const value *inst) {
    v_count(c, sch, inst, utf8_length(inst->u.str.s, inst->u.str.len), "minLength", "maxLength",
            "string", "character", "characters");
    const value *pat = sg(c, sch, "pattern");
    if (pat && !regex_match(c, pat, inst)) {
        strbuf e = {0};
        strbuf_puts(&e, "string matching ");
        put_quoted(&e, pat->u.str.s, pat->u.str.len, SIZE_MAX);
        size_t before = c->errs->n;
        v_expected(c, inst, &e, NULL);
        if (keyable(c, before)) {
            char *q = quoted_copy(pat->u.str.s, pat->u.str.len, SIZE_MAX);
            key_error(c, before, "schema.expected_what", 2, q ? cerr_phrase("schema.matching", q, NULL) : NULL,
                      got_phrase(inst), NULL, NULL);
            free(q);
        }
    }
}

/* Order-independent hash for maps (JSON equality ignores key order), so
** duplicates can be found by sorting rather than comparing every pair. */
static uint64_t eq_hash(const value *v) {
    uint64_t h = 1469598103934665603ULL ^ (uint64_t)v->type;
    switch (v->type) {
    case CV_NULL: break;
    case CV_BOOL: h = (h ^ (uint64_t)v->u.b) * 1099511628211ULL; break;
    case CV_INT: h = (h ^ (uint64_t)v->u.i) * 1099511628211ULL; break;
    case CV_STR:
        for (size_t i = 0; i < v->u.str.len; i++)
            h = (h ^ (unsigned char)v->u.str.s[i]) * 1099511628211ULL;
        break;
    case CV_LIST:
        for (size_t i = 0; i < v->u.list.n; i++) h = (h ^ eq_hash(v->u.list.items[i])) * 1099511628211ULL;
        break;
    case CV_MAP: {
        uint64_t sum = 0;
        for (size_t i = 0; i < v->u.map.n; i++)
            sum += eq_hash(v->u.map.items[i].key) * 31 + eq_hash(v->u.map.items[i].val);
        h = (h ^ sum) * 1099511628211ULL;
        break;
    }
    }
    return h;
}

typedef struct hidx {
    uint64_t h;
    size_t i;
} hidx;

static int hidx_cmp(const void *a, const void *b) {
    const hidx *x = a, *y = b;
    if (x->h != y->h) return x->h < y->h ? -1 : 1;
    return x->i < y->i ? -1 : x->i > y->i;
}

static void v_unique(vctx *c, const value *inst) {
    size_t n = inst->u.list.n;
    if (n < 2) return;
    hidx *hs = malloc(n * sizeof *hs);
    size_t *dup = malloc(n * sizeof *dup);
    if (!hs || !dup) {
        free(hs);
        free(dup);
        *c->oom = 1;
        return;
    }
    for (size_t i = 0; i < n; i++) {
        hs[i] = (hidx){eq_hash(inst->u.list.items[i]), i};
        dup[i] = SIZE_MAX;
    }
    qsort(hs, n, sizeof *hs, hidx_cmp);
    for (size_t g = 0; g < n;) {
        size_t e = g + 1;
        while (e < n && hs[e].h == hs[g].h) e++;
        for (size_t j = g + 1; j < e; j++)
            for (size_t i = g; i < j; i++)
                if (value_equal(inst->u.list.items[hs[i].i], inst->u.list.items[hs[j].i], 0)) {
                    dup[hs[j].i] = hs[i].i;
                    break;
                }
        g = e;
    }
    for (size_t j = 0; j < n; j++) {
        if (dup[j] == SIZE_MAX) continue;
        size_t old = v_path_index(c, j);
        strbuf e = {0}, tail = {0};
        strbuf_puts(&e, "unique items");
        strbuf_printf(&tail, " again (first at [%zu])", dup[j]);
        size_t before = c->errs->n;
        v_expected(c, inst->u.list.items[j], &e, tail.oom ? "" : strbuf_str(&tail));
        if (keyable(c, before) && !tail.oom) {
            char first[24];
            snprintf(first, sizeof first, "%zu", dup[j]);
            key_error(c, before, "schema.unique_again", 2, got_phrase(inst->u.list.items[j]),
                      cairn_strdup(first), NULL, NULL);
        }
        strbuf_free(&tail);
        strbuf_cut(c->path, old);
        if (c->quick) break;
    }
    free(hs);
    free(dup);
}

static int v_valid(vctx *c, const value *sch, const value *inst);
static void label_or_inline(const schema_set *s, strbuf *b, const value *sch);
static char *label_code(const schema_set *s, const value *sch, size_t index, int depth);

/* contains, minContains (default 1), maxContains: how many items match. */
static void v_contains(vctx *c, const value *sch, const value *inst) {
    const value *has = sg(c, sch, "contains");
    if (!has) return;
    value one = {0};
    one.type = CV_INT;
    one.u.i = 1;
    const value *mn = kw_int_c(c, sch, "minContains"), *mx = kw_int_c(c, sch, "maxContains");
    if (!mn) mn = &one;
    size_t count = 0, first[5];
    for (size_t i = 0; i < inst->u.list.n; i++) {
        if (!v_valid(c, has, inst->u.list.items[i])) continue;
        if (count < 5) first[count] = i;
        count++;
    }
    if ((int64_t)count >= mn->u.i && (!mx || (int64_t)count <= mx->u.i)) return;
    if (c->quick) { /* only pass or fail matters: no text */
        quick_fail(c);
        return;
    }
    /* the text only for a failure: the first five matches */
    strbuf where = {0};
    for (size_t j = 0; j < count && j <= 5; j++) {
        if (j < 5) strbuf_printf(&where, "%s[%zu]", j ? ", " : "", first[j]);
        else strbuf_puts(&where, ", ...");
    }
    strbuf e = {0}, tail = {0};
    strbuf_puts(&e, "list with ");
    count_phrase(&e, mn->u.i ? mn : NULL, mx, "item", "items");
    strbuf_puts(&e, " matching ");
    label_or_inline(c->set, &e, has);
    if (count == 0) strbuf_puts(&tail, " (none matches)");
    else strbuf_printf(&tail, " (%zu match%s: %s)", count, count == 1 ? "es" : "", strbuf_str(&where));
    if (where.oom) tail.oom = 1;
    /* the same for the console's languages */
    char *items = count_code("items", mn->u.i ? mn : NULL, mx), *lab = label_code(c->set, has, SIZE_MAX, 0);
    char *want = items && lab ? cerr_phrase("schema.list_with", items, lab, NULL) : NULL;
    char number[24];
    snprintf(number, sizeof number, "%zu", count);
    char *matches = count ? cerr_phrase("schema.matches", number, where.oom ? "" : strbuf_str(&where), NULL)
                          : cerr_phrase("schema.none_matches", NULL);
    free(items);
    free(lab);
    size_t before = c->errs->n;
    v_expected(c, inst, &e, tail.oom ? NULL : strbuf_str(&tail));
    if (!tail.oom && keyable(c, before))
        key_error(c, before, "schema.expected_what_then", 3, want, got_phrase(inst), matches, NULL);
    else
        free(want), free(matches);
    strbuf_free(&tail);
    strbuf_free(&where);
}

static void v_list(vctx *c, const value *sch, const value *inst) {
    size_t n = inst->u.list.n;
    v_count(c, sch, inst, (int64_t)n, "minItems", "maxItems", "list", "item", "items");
    if (value_get_bool(sch, "uniqueItems", 0)) v_unique(c, inst);
    v_contains(c, sch, inst);
    const value *prefix = sg(c, sch, "prefixItems");
    size_t np = prefix && prefix->type == CV_LIST ? prefix->u.list.n : 0;
    for (size_t i = 0; i < n && i < np; i++) {
        size_t old = v_path_index(c, i);
        v_node(c, prefix->u.list.items[i], inst->u.list.items[i]);
        strbuf_cut(c->path, old);
    }
    const value *items = sg(c, sch, "items");
    if (!items || n <= np) return;
    if (items->type == CV_BOOL && !items->u.b) {
        strbuf e = {0};
        strbuf_printf(&e, "list of at most %zu item%s", np, np == 1 ? "" : "s");
        size_t before = c->errs->n;
        v_expected(c, inst, &e, NULL);
        if (keyable(c, before)) {
            char most[24];
            snprintf(most, sizeof most, "%zu", np);
            key_error(c, before, "schema.expected_what", 2, cerr_phrase("schema.list.at_most", most, NULL),
                      got_phrase(inst), NULL, NULL);
        }
        return;
    }
    for (size_t i = np; i < n; i++) {
        size_t old = v_path_index(c, i);
        v_node(c, items, inst->u.list.items[i]);
        strbuf_cut(c->path, old);
    }
}


/* Whether key is covered by properties or patternProperties of sch. */
static int key_declared(const vctx *c, const value *sch, const value *key) {
    if (value_map_get(value_map_get(sch, "properties"), key->u.str.s)) return 1;
    const value *pp = value_map_get(sch, "patternProperties");
    if (pp && pp->type == CV_MAP)
        for (size_t i = 0; i < pp->u.map.n; i++)
            if (regex_match(c, pp->u.map.items[i].key, key)) return 1;
    return 0;
}

/* Whether a required key is missing only because of a misspelling that
** the "unknown key" error already points out. */
static int misspelt_in(const vctx *c, const value *sch, const value *inst, const char *req) {
    const value *ap = value_map_get(sch, "additionalProperties");
    if (!ap || ap->type != CV_BOOL || ap->u.b) return 0;
    const value *props = value_map_get(sch, "properties");
    for (size_t i = 0; i < inst->u.map.n; i++) {
        const value *k = inst->u.map.items[i].key;
        if (key_declared(c, sch, k)) continue;
        const char *hint = hint_key(k->u.str.s, props);
        if (hint && strcmp(hint, req) == 0) return 1;
    }
    return 0;
}

static char *error_phrase(const cairn_error *e);

/* The errors since index first, made for map key c->key (their message
** has the prefix "key "NAME": "), keyed as "schema.key_prefix": the name
** and the error's own entry as a phrase. One that cannot be said so loses
** its key (its English message stands). */
static void key_prefixed(vctx *c, size_t first) {
    for (size_t i = first; !c->quick && i < c->errs->n; i++) {
        cairn_error *e = &c->errs->items[i];
        if (!e->key) continue;
        char *inner = error_phrase(e), *name = cairn_strdup(c->key);
        for (int a = 0; a < CERR_MAX_ARGS; a++) {
            free(e->args[a]);
            e->args[a] = NULL;
        }
        e->sys_errno = 0;
        e->key = inner && name ? "schema.key_prefix" : NULL;
        if (e->key) {
            e->args[0] = name;
            e->args[1] = inner;
        } else {
            free(name);
            free(inner);
        }
    }
}

/* "unknown key "capcity" (did you mean "capacity"?)" at the key itself. */
static void v_unknown_key(vctx *c, const value *k, const char *hint) {
    strbuf msg = {0};
    strbuf_puts(&msg, "unknown key ");
    put_quoted(&msg, k->u.str.s, k->u.str.len, 60);
    if (hint) strbuf_printf(&msg, " (did you mean \"%s\"?)", hint);
    size_t before = c->errs->n;
    v_emit(c, k, &msg);
    if (keyable(c, before))
        key_error(c, before, hint ? "schema.unknown_key_hint" : "schema.unknown_key", hint ? 2 : 1,
                  quoted_copy(k->u.str.s, k->u.str.len, 60), hint ? cairn_strdup(hint) : NULL, NULL, NULL);
}

static void v_map(vctx *c, const value *sch, const value *inst) {
    const value *req = sg(c, sch, "required");
    if (req && req->type == CV_LIST)
        for (size_t i = 0; i < req->u.list.n; i++) {
            const value *r = req->u.list.items[i];
            if (r->type != CV_STR || value_map_get(inst, r->u.str.s)) continue;
            if (misspelt_in(c, sch, inst, r->u.str.s)) continue;
            strbuf msg = {0};
            strbuf_puts(&msg, "missing required key ");
            put_quoted(&msg, r->u.str.s, r->u.str.len, SIZE_MAX);
            size_t before = c->errs->n;
            v_emit(c, inst, &msg);
            if (c->quick) return;
            if (keyable(c, before))
                key_error(c, before, "schema.missing_key", 1, quoted_copy(r->u.str.s, r->u.str.len, SIZE_MAX),
                          NULL, NULL, NULL);
        }
    const value *dep = sg(c, sch, "dependentRequired");
    for (size_t i = 0; dep && dep->type == CV_MAP && i < dep->u.map.n; i++) {
        const char *if_key = dep->u.map.items[i].key->u.str.s;
        const value *needs = dep->u.map.items[i].val;
        if (!value_map_get(inst, if_key) || needs->type != CV_LIST) continue;
        for (size_t j = 0; j < needs->u.list.n; j++) {
            const value *r = needs->u.list.items[j];
            if (r->type != CV_STR || value_map_get(inst, r->u.str.s)) continue;
            strbuf msg = {0};
            strbuf_puts(&msg, "missing required key ");
            put_quoted(&msg, r->u.str.s, r->u.str.len, SIZE_MAX);
            strbuf_puts(&msg, " (required when ");
            put_quoted(&msg, if_key, strlen(if_key), SIZE_MAX);
            strbuf_puts(&msg, " is present)");
            size_t before = c->errs->n;
            v_emit(c, inst, &msg);
            if (c->quick) return;
            if (keyable(c, before))
                key_error(c, before, "schema.missing_key_when", 2, quoted_copy(r->u.str.s, r->u.str.len, SIZE_MAX),
                          quoted_copy(if_key, strlen(if_key), SIZE_MAX), NULL, NULL);
        }
    }
    v_count(c, sch, inst, (int64_t)inst->u.map.n, "minProperties", "maxProperties", "map", "key",
            "keys");
    const value *names = sg(c, sch, "propertyNames");
    if (names)
        for (size_t i = 0; i < inst->u.map.n; i++) {
            const char *saved = c->key;
            c->key = inst->u.map.items[i].key->u.str.s;
            size_t first = c->errs->n;
            v_node(c, names, inst->u.map.items[i].key);
            key_prefixed(c, first);
            c->key = saved;
        }
    const value *props = sg(c, sch, "properties");
    const value *pp = sg(c, sch, "patternProperties");
    const value *ap = sg(c, sch, "additionalProperties");
    for (size_t i = 0; i < inst->u.map.n; i++) {
        const value *k = inst->u.map.items[i].key;
        const value *v = inst->u.map.items[i].val;
        int matched = 0;
        if (strlen(k->u.str.s) != k->u.str.len) {
            /* only a tree built in code can get here (yload refuses such
            ** keys): looked up as a C string it would pass as a shorter one */
            strbuf msg = {0};
            strbuf_puts(&msg, "key ");
            put_quoted(&msg, k->u.str.s, k->u.str.len, 60);
            strbuf_puts(&msg, " contains a NUL byte");
            v_emit(c, k, &msg);
            if (c->quick) return;
            continue;
        }
        size_t old = v_path_key(c, k->u.str.s);
        const value *ps = value_map_get(props, k->u.str.s);
        if (ps) {
            matched = 1;
            v_node(c, ps, v);
        }
        if (pp && pp->type == CV_MAP)
            for (size_t j = 0; j < pp->u.map.n; j++)
                if (regex_match(c, pp->u.map.items[j].key, k)) {
                    matched = 1;
                    v_node(c, pp->u.map.items[j].val, v);
                }
        if (!matched && ap) {
            if (ap->type == CV_BOOL && !ap->u.b) {
                strbuf_cut(c->path, old); /* an unknown key is an error of the map */
                v_unknown_key(c, k, hint_key(k->u.str.s, props));
            } else {
                v_node(c, ap, v);
            }
        }
        strbuf_cut(c->path, old);
        if (c->quick && cerr_count(c->errs)) return;
    }
}

/* Runs sch on inst into a scratch list; returns the number of errors. With
** quick set only pass/fail is known. The scratch list is left for the
** caller to merge or free. */
static size_t v_into(vctx *c, const value *sch, const value *inst, cerr_list *scratch, int quick) {
    cerr_list *saved = c->errs;
    int saved_quick = c->quick;
    cerr_init(scratch, quick ? 1 : saved->limit);
    c->errs = scratch;
    c->quick = quick;
    v_node(c, sch, inst);
    c->errs = saved;
    c->quick = saved_quick;
    if (scratch->oom) *c->oom = 1;
    return cerr_count(scratch);
}

static int v_valid(vctx *c, const value *sch, const value *inst) {
    cerr_list t;
    size_t n = v_into(c, sch, inst, &t, 1);
    cerr_free(&t);
    return n == 0;
}

/* Marks seen[i] for every key i of map inst that sch evaluates, as
** 2020-12 collects annotations: properties, patternProperties,
** additionalProperties and (below the top, self = 0) unevaluatedProperties
** of sch itself, then its $ref and allOf, the anyOf/oneOf branches inst
** satisfies, and if+then or else. A failing allOf branch counts too: the
** value fails anyway, and its keys should not be reported twice. */
static void mark_evaluated(vctx *c, const value *sch, const value *inst, unsigned char *seen,
                           int self, int depth) {
    if (sch->type != CV_MAP || depth > CAIRN_SCHEMA_MAX_DEPTH) return;
    const value *props = sg(c, sch, "properties");
    const value *pp = sg(c, sch, "patternProperties");
    int all = sg(c, sch, "additionalProperties") ||
              (!self && sg(c, sch, "unevaluatedProperties"));
    for (size_t i = 0; i < inst->u.map.n; i++) {
        const value *k = inst->u.map.items[i].key;
        if (seen[i]) continue;
        if (all || value_map_get(props, k->u.str.s)) {
            seen[i] = 1;
            continue;
        }
        for (size_t j = 0; pp && pp->type == CV_MAP && j < pp->u.map.n && !seen[i]; j++)
            if (regex_match(c, pp->u.map.items[j].key, k)) seen[i] = 1;
    }
    const value *r = sg(c, sch, "$ref");
    const ann *a = r ? ann_find(c->set, r) : NULL;
    if (a && a->target) mark_evaluated(c, a->target, inst, seen, 0, depth + 1);
    const value *all_of = sg(c, sch, "allOf");
    for (size_t i = 0; all_of && all_of->type == CV_LIST && i < all_of->u.list.n; i++)
        mark_evaluated(c, all_of->u.list.items[i], inst, seen, 0, depth + 1);
    const char *choices[] = {"anyOf", "oneOf"};
    for (int j = 0; j < 2; j++) {
        const value *l = value_map_get(sch, choices[j]);
        for (size_t i = 0; l && l->type == CV_LIST && i < l->u.list.n; i++)
            if (v_valid(c, l->u.list.items[i], inst))
                mark_evaluated(c, l->u.list.items[i], inst, seen, 0, depth + 1);
    }
    const value *cond = sg(c, sch, "if");
    if (cond) {
        int ok = v_valid(c, cond, inst);
        if (ok) mark_evaluated(c, cond, inst, seen, 0, depth + 1);
        const value *branch = value_map_get(sch, ok ? "then" : "else");
        if (branch) mark_evaluated(c, branch, inst, seen, 0, depth + 1);
    }
}

/* Offers every property name sch declares in place (properties of sch, its
** $ref, allOf, anyOf, oneOf, if, then, else) to sg, except word itself:
** the did-you-mean of an unevaluated key. */
static void hint_declared(const schema_set *s, const value *sch, const char *word, suggest_nearest *sg,
                          int depth) {
    if (sch->type != CV_MAP || depth > 32) return;
    const value *props = value_map_get(sch, "properties");
    for (size_t i = 0; props && props->type == CV_MAP && i < props->u.map.n; i++)
        if (strcmp(props->u.map.items[i].key->u.str.s, word) != 0) /* declared, but not evaluated here */
            suggest_try(sg, props->u.map.items[i].key->u.str.s);
    const value *r = value_map_get(sch, "$ref");
    const ann *a = r ? ann_find(s, r) : NULL;
    if (a && a->target) hint_declared(s, a->target, word, sg, depth + 1);
    const char *lists[] = {"allOf", "anyOf", "oneOf"};
    for (int j = 0; j < 3; j++) {
        const value *l = value_map_get(sch, lists[j]);
        for (size_t i = 0; l && l->type == CV_LIST && i < l->u.list.n; i++)
            hint_declared(s, l->u.list.items[i], word, sg, depth + 1);
    }
    const char *one[] = {"if", "then", "else"};
    for (int j = 0; j < 3; j++) {
        const value *b = value_map_get(sch, one[j]);
        if (b) hint_declared(s, b, word, sg, depth + 1);
    }
}

/* Removes the error "missing required key "<key>"" reported for inst
** itself since index first, if there is one: the unknown key about to be
** reported is its misspelling, and one error says it (as with
** additionalProperties: false, see misspelt_in). */
static void drop_missing(vctx *c, const value *inst, const char *key, size_t first) {
    char *want = cairn_strfmt("missing required key \"%s\"", key);
    if (!want) return;
    const char *here = strbuf_str(c->path);
    cerr_list *l = c->errs;
    for (size_t i = first; i < l->n; i++) {
        cairn_error *e = &l->items[i];
        if (strcmp(e->message, want) != 0 || e->line != inst->line || e->col != inst->col ||
            strcmp(e->path ? e->path : "", here) != 0)
            continue;
        free(e->file);
        free(e->path);
        free(e->message);
        for (int a = 0; a < CERR_MAX_ARGS; a++) free(e->args[a]);
        memmove(e, e + 1, (l->n - i - 1) * sizeof *e);
        l->n--;
        break;
    }
    free(want);
}

/* unevaluatedProperties: the keys nothing else in sch (in place) looked at.
** first: where this node's errors start in c->errs. */
static void v_unevaluated(vctx *c, const value *sch, const value *uep, const value *inst, size_t first) {
    size_t n = inst->u.map.n;
    if (!n) return;
    unsigned char *seen = calloc(n, 1);
    if (!seen) {
        *c->oom = 1;
        cerr_addk(c->errs, NULL, 0, 0, NULL, "oom", "out of memory while validating");
        return;
    }
    mark_evaluated(c, sch, inst, seen, 1, 0);
    for (size_t i = 0; i < n; i++) {
        const value *k = inst->u.map.items[i].key;
        if (seen[i] || strlen(k->u.str.s) != k->u.str.len) continue;
        if (uep->type == CV_BOOL && !uep->u.b) {
            suggest_nearest sg = hint_start(k->u.str.s);
            hint_declared(c->set, sch, k->u.str.s, &sg, 0);
            if (sg.best && !value_map_get(inst, sg.best)) drop_missing(c, inst, sg.best, first);
            v_unknown_key(c, k, sg.best);
        } else {
            size_t old = v_path_key(c, k->u.str.s);
            v_node(c, uep, inst->u.map.items[i].val);
            strbuf_cut(c->path, old);
        }
        if (c->quick && cerr_count(c->errs)) break;
    }
    free(seen);
}

/* Follows a chain of bare $refs to the schema that says something. */
static const value *deref(const schema_set *s, const value *sch) {
    for (int i = 0; i < 32 && sch->type == CV_MAP; i++) {
        const value *r = value_map_get(sch, "$ref");
        const ann *a = r ? ann_find(s, r) : NULL;
        if (!a || !a->target) break;
        sch = a->target;
    }
    return sch;
}

/* The instance types a schema can accept, as far as can be seen cheaply. */
static int schema_types(const schema_set *s, const value *sch, int depth) {
    if (sch->type == CV_BOOL) return sch->u.b ? T_ALL : 0;
    if (sch->type != CV_MAP || depth > 16) return T_ALL;
    const value *t = value_map_get(sch, "type");
    if (t) return type_mask(t);
    const value *k = value_map_get(sch, "const");
    if (k) return inst_bit(k);
    const value *e = value_map_get(sch, "enum");
    if (e && e->type == CV_LIST) {
        int m = 0;
        for (size_t i = 0; i < e->u.list.n; i++) m |= inst_bit(e->u.list.items[i]);
        return m;
    }
    const value *r = value_map_get(sch, "$ref");
    const ann *a = r ? ann_find(s, r) : NULL;
    if (a && a->target) return schema_types(s, a->target, depth + 1);
    const value *any[2] = {value_map_get(sch, "anyOf"), value_map_get(sch, "oneOf")};
    for (int j = 0; j < 2; j++)
        if (any[j] && any[j]->type == CV_LIST) {
            int m = 0;
            for (size_t i = 0; i < any[j]->u.list.n; i++)
                m |= schema_types(s, any[j]->u.list.items[i], depth + 1);
            return m;
        }
    return T_ALL;
}

/* For a map instance: 1 if a property of the branch holding const/enum
** matches the instance (the branch is the one meant), -1 if one does not
** match (the branch is not meant; *key names that property), 0 if the
** branch has no say. */
static int discriminate(const schema_set *s, const value *branch, const value *inst,
                        const char **key) {
    *key = NULL;
    if (inst->type != CV_MAP) return 0;
    const value *props = value_map_get(deref(s, branch), "properties");
    if (!props || props->type != CV_MAP) return 0;
    int verdict = 0;
    for (size_t i = 0; i < props->u.map.n; i++) {
        const value *ps = deref(s, props->u.map.items[i].val);
        const value *k = value_map_get(ps, "const");
        const value *e = value_map_get(ps, "enum");
        if (!k && !(e && e->type == CV_LIST)) continue;
        const value *iv = value_map_get(inst, props->u.map.items[i].key->u.str.s);
        if (!iv) continue;
        int ok = 0;
        if (k) ok = value_equal(k, iv, 0);
        if (e && e->type == CV_LIST)
            for (size_t j = 0; j < e->u.list.n && !ok; j++) ok = value_equal(e->u.list.items[j], iv, 0);
        if (!ok) {
            *key = props->u.map.items[i].key->u.str.s;
            return -1;
        }
        verdict = 1;
    }
    return verdict;
}

/* A tagged union where the tag matches no branch: "kind: expected one of
** "die", "deck", got string "dice"" at the tag. Returns 0 if the branches
** do not all reject the instance by the same key. */
static int v_bad_tag(vctx *c, const value *branches, const value *inst) {
    const char *tag = NULL;
    for (size_t i = 0; i < branches->u.list.n; i++) {
        const char *k;
        if (discriminate(c->set, branches->u.list.items[i], inst, &k) >= 0) return 0;
        if (tag && strcmp(tag, k) != 0) return 0;
        tag = k;
    }
    if (!tag) return 0;
    value *allowed = value_list();
    if (!allowed) {
        *c->oom = 1;
        return 0;
    }
    for (size_t i = 0; i < branches->u.list.n; i++) {
        const value *props = value_map_get(deref(c->set, branches->u.list.items[i]), "properties");
        const value *ps = deref(c->set, value_map_get(props, tag));
        const value *k = value_map_get(ps, "const");
        const value *e = value_map_get(ps, "enum");
        size_t n = k ? 1 : e->u.list.n;
        for (size_t j = 0; j < n; j++) {
            const value *x = k ? k : e->u.list.items[j];
            int seen = 0;
            for (size_t m = 0; m < allowed->u.list.n && !seen; m++)
                seen = value_equal(allowed->u.list.items[m], x, 0);
            value *copy = seen ? NULL : value_clone(x);
            if (!seen && (!copy || value_list_push(allowed, copy) != 0)) {
                *c->oom = 1;
                value_free(allowed);
                return 0;
            }
        }
    }
    const value *iv = value_map_get(inst, tag);
    size_t old = path_key(c->path, tag);
    strbuf e = {0}, tail = {0};
    if (allowed->u.list.n == 1) {
        put_inline(&e, allowed->u.list.items[0], 0);
    } else {
        strbuf_puts(&e, "one of ");
        for (size_t i = 0; i < allowed->u.list.n; i++) {
            if (i) strbuf_puts(&e, ", ");
            put_inline(&e, allowed->u.list.items[i], 0);
        }
    }
    const char *hint = iv->type == CV_STR ? hint_item(iv->u.str.s, allowed) : NULL;
    if (hint) strbuf_printf(&tail, " (did you mean \"%s\"?)", hint);
    /* the allowed values again for the key (v_expected takes e): data */
    char *want = NULL;
    if (!c->quick && !e.oom)
        want = allowed->u.list.n == 1 ? cairn_strdup(strbuf_str(&e))
                                      : cerr_phrase("schema.one_of_items", strbuf_str(&e) + strlen("one of "), NULL);
    size_t before = c->errs->n;
    v_expected(c, iv, &e, hint ? strbuf_str(&tail) : NULL);
    if (keyable(c, before))
        key_error(c, before, hint ? "schema.expected_what_hint" : "schema.expected_what", hint ? 3 : 2, want,
                  got_phrase(iv), hint ? cairn_strdup(hint) : NULL, NULL);
    else
        free(want);
    strbuf_free(&tail);
    strbuf_cut(c->path, old);
    value_free(allowed);
    return 1;
}

static void label(const schema_set *s, strbuf *b, const value *sch, size_t index, int depth);

/* The last segment of a $ref: "bag" for "components.schema.yaml#/$defs/bag". */
static void ref_name(strbuf *b, const char *ref) {
    const char *slash = strrchr(ref, '/');
    const char *hash = strrchr(ref, '#');
    if (slash && slash[1]) strbuf_puts(b, slash + 1);
    else if (hash && hash > ref) strbuf_putn(b, ref, (size_t)(hash - ref));
    else strbuf_puts(b, ref);
}

/* {kind: "die"}: the const properties of a map schema (a tagged branch),
** written as the map they select. Returns 1 if there were any. */
static int put_tags(const schema_set *s, strbuf *b, const value *sch) {
    const value *props = value_map_get(sch, "properties");
    int n = 0;
    for (size_t i = 0; props && props->type == CV_MAP && i < props->u.map.n; i++) {
        const value *k = value_map_get(deref(s, props->u.map.items[i].val), "const");
        if (!k) continue;
        strbuf_puts(b, n ? ", " : "{");
        strbuf_puts(b, props->u.map.items[i].key->u.str.s);
        strbuf_puts(b, ": ");
        put_inline(b, k, 1);
        n++;
    }
    if (n) strbuf_putc(b, '}');
    return n > 0;
}

/* How a branch of anyOf/oneOf is named in "matches none of": its title,
** the name of the definition it refers to, its const or enum, its const
** properties ({kind: "die"}), its types, the first line of its
** description, or its position (index SIZE_MAX: the schema written inline). */
static void label(const schema_set *s, strbuf *b, const value *sch, size_t index, int depth) {
    if (sch->type == CV_BOOL) {
        strbuf_puts(b, sch->u.b ? "anything" : "nothing");
        return;
    }
    const char *title = value_get_str(sch, "title", NULL);
    if (title) {
        strbuf_puts(b, title);
        return;
    }
    const value *r = value_map_get(sch, "$ref");
    if (r && r->type == CV_STR) {
        const ann *a = ann_find(s, r);
        const value *t = a ? a->target : NULL;
        if (t && t->type == CV_MAP && value_get_str(t, "title", NULL)) {
            strbuf_puts(b, value_get_str(t, "title", NULL));
        } else if (t && depth < 8 && !(schema_types(s, t, 0) & (T_LIST | T_MAP))) {
            label(s, b, t, index, depth + 1); /* a scalar says more by what it is */
        } else {
            ref_name(b, r->u.str.s);
        }
        return;
    }
    const value *k = value_map_get(sch, "const");
    if (k) {
        put_inline(b, k, 0);
        return;
    }
    const value *e = value_map_get(sch, "enum");
    if (e && e->type == CV_LIST) {
        strbuf_puts(b, "one of ");
        for (size_t i = 0; i < e->u.list.n; i++) {
            if (i) strbuf_puts(b, ", ");
            put_inline(b, e->u.list.items[i], 0);
        }
        return;
    }
    if (put_tags(s, b, sch)) return;
    const value *t = value_map_get(sch, "type");
    if (t) {
        describe_types(b, type_mask(t), sch);
        return;
    }
    const char *d = value_get_str(sch, "description", NULL);
    if (d) {
        size_t n = strcspn(d, "\n");
        if (n > 60) {
            n = 57;
            while (n && ((unsigned char)d[n] & 0xC0) == 0x80) n--; /* whole characters */
            strbuf_putn(b, d, n);
            strbuf_puts(b, "...");
        } else {
            strbuf_putn(b, d, n);
        }
        return;
    }
    if (index == SIZE_MAX)
        put_inline(b, sch, 0); /* the schema as written: {required: ["debug"]} */
    else
        strbuf_printf(b, "option %zu", index + 1);
}

/* A branch's label as a key's argument: the label itself where it is the
** author's data (a title, a definition's name, a const, const properties,
** a description, the schema written inline), a phrase the console words
** where label writes English (anything, nothing, "one of ...", the types,
** "option N"). NULL on OOM. */
static char *label_code(const schema_set *s, const value *sch, size_t index, int depth) {
    if (sch->type == CV_BOOL) return cerr_phrase(sch->u.b ? "schema.anything" : "schema.nothing", NULL);
    strbuf b = {0};
    label(s, &b, sch, index, depth);
    char *text = text_of(&b);
    strbuf_free(&b);
    if (!text || value_get_str(sch, "title", NULL)) return text;
    const value *r = value_map_get(sch, "$ref");
    if (r && r->type == CV_STR) { /* as label decides */
        const ann *a = ann_find(s, r);
        const value *t = a ? a->target : NULL;
        if (!(t && t->type == CV_MAP && value_get_str(t, "title", NULL)) && t && depth < 8 &&
            !(schema_types(s, t, 0) & (T_LIST | T_MAP))) {
            free(text);
            return label_code(s, t, index, depth + 1);
        }
        return text;
    }
    if (value_map_get(sch, "const")) return text;
    char *code = NULL;
    const value *e = value_map_get(sch, "enum");
    strbuf tags = {0};
    if (e && e->type == CV_LIST) {
        code = cerr_phrase("schema.one_of_items", text + strlen("one of "), NULL);
    } else if (put_tags(s, &tags, sch)) {
        strbuf_free(&tags);
        return text;
    } else if (value_map_get(sch, "type")) {
        code = types_phrase(type_mask(value_map_get(sch, "type")), sch);
    } else if (value_get_str(sch, "description", NULL) || index == SIZE_MAX) {
        strbuf_free(&tags);
        return text;
    } else {
        char number[24];
        snprintf(number, sizeof number, "%zu", index + 1);
        code = cerr_phrase("schema.option", number, NULL);
    }
    strbuf_free(&tags);
    free(text);
    return code;
}

/* The labels of branches (those with no errors when passing_only) as the
** phrase "list" of label_code's; NULL on OOM. */
static char *labels_code(const schema_set *s, const value *branches, const size_t *errs_by_branch,
                         int passing_only) {
    size_t n = branches->u.list.n, k = 0;
    char **codes = calloc(n ? n : 1, sizeof *codes);
    if (!codes) return NULL;
    int ok = 1;
    for (size_t i = 0; i < n; i++) {
        if (passing_only && errs_by_branch[i]) continue;
        if (!(codes[k++] = label_code(s, branches->u.list.items[i], i, 0))) ok = 0;
    }
    char *list = ok ? cerr_phrasev("list", (const char *const *)codes, k) : NULL;
    for (size_t i = 0; i < k; i++) free(codes[i]);
    free(codes);
    return list;
}

/* A schema's label, or when it has none, the schema itself written inline. */
static void label_or_inline(const schema_set *s, strbuf *b, const value *sch) {
    label(s, b, sch, SIZE_MAX, 0);
}

static void labels(const schema_set *s, strbuf *b, const value *branches, const size_t *errs_by_branch,
                   int passing_only) {
    int first = 1;
    for (size_t i = 0; i < branches->u.list.n; i++) {
        if (passing_only && errs_by_branch[i]) continue;
        if (!first) strbuf_puts(b, ", ");
        label(s, b, branches->u.list.items[i], i, 0);
        first = 0;
    }
}

/* Appends " (why)" after a branch's label (which starts at msg->s[start]):
** the branch's first error e, its path made relative to the value's and
** its ", got <the value>" dropped (the message ends with that once). Says
** nothing when the reason only restates the label ("expected integer"
** after "integer"). */
static void put_reason(const vctx *c, strbuf *msg, size_t start, const cairn_error *e, const value *inst) {
    const char *here = strbuf_str(c->path);
    const char *rel = e->path ? e->path : "";
    size_t hl = strlen(here);
    if (strncmp(rel, here, hl) == 0) rel += hl;
    if (*rel == '.') rel++;
    char *desc = value_describe(inst);
    strbuf why = {0};
    if (*rel) {
        strbuf_puts(&why, rel);
        strbuf_puts(&why, ": ");
        strbuf_puts(&why, e->message);
    } else {
        const char *text = e->message;
        const char *got = NULL;
        if (desc) {
            strbuf tail = {0};
            strbuf_puts(&tail, ", got ");
            strbuf_puts(&tail, desc);
            got = tail.oom ? NULL : strstr(text, strbuf_str(&tail));
            strbuf_free(&tail);
        }
        strbuf_putn(&why, text, got ? (size_t)(got - text) : strlen(text));
    }
    free(desc);
    const char *w = strbuf_str(&why);
    const char *lab = msg->s ? msg->s + start : "";
    int restates = strncmp(w, "expected ", 9) == 0 && strcmp(w + 9, lab) == 0;
    if (!why.oom && !restates) strbuf_printf(msg, " (%s)", w);
    strbuf_free(&why);
}

/* A keyed error as a phrase of its catalogue entry ("error.KEY" and its
** arguments); "schema.expected", whose arguments are codes, as the entry
** "error.schema.expected_what" with the types and the value got as
** phrases. NULL when it has no key, reports an errno, or for lack of memory. */
static char *error_phrase(const cairn_error *e) {
    if (!e->key || e->sys_errno) return NULL;
    if (strcmp(e->key, "schema.expected") == 0) {
        for (int i = 0; i < 4; i++)
            if (!e->args[i]) return NULL;
        char *want = cerr_phrase("schema.types", e->args[0], e->args[1], NULL);
        char *got = cerr_phrase("schema.got", e->args[2], e->args[3], NULL);
        char *p = want && got ? cerr_phrase("error.schema.expected_what", want, got, NULL) : NULL;
        free(want);
        free(got);
        return p;
    }
    char key[96];
    snprintf(key, sizeof key, "error.%s", e->key);
    size_t n = 0;
    while (n < CERR_MAX_ARGS && e->args[n]) n++;
    return cerr_phrasev(key, (const char *const *)e->args, n);
}

/* put_reason's " (why)" as a phrase: the branch's first error e, keyed,
** at its path relative to the value's ("schema.reason_at"), or at the
** value itself without its ", got ..." and what follows (the "expected
** ..." refusals, as "schema.expected_only").
** NULL when e has no key or it cannot be said so (then the line stays
** English). */
static char *reason_phrase(const vctx *c, const cairn_error *e, const value *inst) {
    const char *here = strbuf_str(c->path);
    const char *rel = e->path ? e->path : "";
    size_t hl = strlen(here);
    if (strncmp(rel, here, hl) == 0) rel += hl;
    if (*rel == '.') rel++;
    if (*rel) {
        char *sub = error_phrase(e);
        char *p = sub ? cerr_phrase("schema.reason_at", rel, sub, NULL) : NULL;
        free(sub);
        return p;
    }
    char *desc = value_describe(inst);
    char *tail = desc ? cairn_strfmt(", got %s", desc) : NULL;
    int has_got = tail && strstr(e->message, tail);
    free(desc);
    free(tail);
    if (!has_got) return error_phrase(e); /* the whole message is the reason */
    if (!e->key) return NULL;
    /* what is left is "expected X" (a did-you-mean after the got goes too) */
    char *want = NULL;
    if (strcmp(e->key, "schema.expected") == 0 && e->args[0] && e->args[1])
        want = cerr_phrase("schema.types", e->args[0], e->args[1], NULL);
    else if ((strcmp(e->key, "schema.expected_what") == 0 || strcmp(e->key, "schema.expected_what_hint") == 0) &&
             e->args[0])
        want = cairn_strdup(e->args[0]);
    else if ((strcmp(e->key, "schema.one_of") == 0 || strcmp(e->key, "schema.one_of_hint") == 0) && e->args[0])
        want = cerr_phrase("schema.one_of_items", e->args[0], NULL);
    else
        return NULL;
    char *p = want ? cerr_phrase("schema.expected_only", want, NULL) : NULL;
    free(want);
    return p;
}

/* anyOf (one = 0) and oneOf (one = 1). When no branch matches, the errors
** of the branch the author evidently meant are reported (picked by a
** const/enum property, or for lists and maps by being the only branch of
** the right type or the one with fewest errors); otherwise one line
** naming the branches, each with its first error. */
static void v_choice(vctx *c, const value *branches, const value *inst, int one) {
    size_t n = branches->u.list.n;
    /* pass or fail first, without the errors' text: a value that matches
    ** (nearly always) costs no message formatted for the branches it does
    ** not match; only a failure runs the branches again to explain it */
    size_t quick_passing = 0;
    for (size_t i = 0; i < n && quick_passing < (size_t)(one ? 2 : 1); i++)
        quick_passing += v_valid(c, branches->u.list.items[i], inst);
    int quick_ok = quick_passing > 0 && !(one && quick_passing > 1);
    if (c->quick) {
        if (!quick_ok) quick_fail(c);
        return;
    }
    if (quick_ok && !*c->oom) return;
    cerr_list *scratch = calloc(n, sizeof *scratch);
    size_t *count = calloc(n, sizeof *count);
    if (!scratch || !count) {
        free(scratch);
        free(count);
        *c->oom = 1;
        cerr_addk(c->errs, NULL, 0, 0, NULL, "oom", "out of memory while validating");
        return;
    }
    size_t passing = 0;
    for (size_t i = 0; i < n; i++) {
        count[i] = v_into(c, branches->u.list.items[i], inst, &scratch[i], 0);
        if (!count[i]) passing++;
    }
    if (passing && !(one && passing > 1)) goto done;
    strbuf msg = {0};
    if (passing) {
        strbuf_puts(&msg, "matches more than one of: ");
        labels(c->set, &msg, branches, count, 1);
        strbuf_puts(&msg, " (expected exactly one); got ");
        put_description(&msg, inst);
        size_t before = c->errs->n;
        v_emit(c, inst, &msg);
        if (keyable(c, before))
            key_error(c, before, "schema.more_than_one", 2, labels_code(c->set, branches, count, 1),
                      got_phrase(inst), NULL, NULL);
        goto done;
    }
    size_t pick = SIZE_MAX, positives = 0, candidates = 0, fewest = SIZE_MAX, nfewest = 0;
    size_t positive = 0, candidate = 0, least = 0;
    for (size_t i = 0; i < n; i++) {
        const value *b = branches->u.list.items[i];
        const char *tag;
        int d = discriminate(c->set, b, inst, &tag);
        if (!(schema_types(c->set, b, 0) & inst_bit(inst)) || d < 0) continue;
        candidates++;
        candidate = i;
        if (d > 0) {
            positives++;
            positive = i;
        }
        if (count[i] < fewest) {
            fewest = count[i];
            nfewest = 1;
            least = i;
        } else if (count[i] == fewest) {
            nfewest++;
        }
    }
    if (positives == 1)
        pick = positive;
    else if (inst->type == CV_LIST || inst->type == CV_MAP) {
        if (candidates == 1)
            pick = candidate;
        else if (candidates > 1 && nfewest == 1)
            pick = least;
    }
    if (pick != SIZE_MAX) {
        cerr_merge(c->errs, &scratch[pick]);
        goto done;
    }
    if (v_bad_tag(c, branches, inst)) goto done;
    strbuf_puts(&msg, "matches none of: ");
    /* the same for the console's languages: each label, with its reason
    ** as a phrase where one is shown */
    char **codes = calloc(n, sizeof *codes);
    int coded = codes != NULL;
    for (size_t i = 0; i < n; i++) {
        if (i) strbuf_puts(&msg, ", ");
        size_t start = msg.n;
        label(c->set, &msg, branches->u.list.items[i], i, 0);
        size_t labelled = msg.n;
        if (scratch[i].n) put_reason(c, &msg, start, &scratch[i].items[0], inst);
        if (!coded) continue;
        char *lab = label_code(c->set, branches->u.list.items[i], i, 0);
        if (lab && msg.n != labelled) { /* put_reason said why */
            char *why = reason_phrase(c, &scratch[i].items[0], inst);
            codes[i] = why ? cerr_phrase("schema.label_reason", lab, why, NULL) : NULL;
            free(why);
            free(lab);
        } else {
            codes[i] = lab;
        }
        if (!codes[i]) coded = 0;
    }
    strbuf_puts(&msg, "; got ");
    put_description(&msg, inst);
    size_t before = c->errs->n;
    v_emit(c, inst, &msg);
    if (coded && keyable(c, before))
        key_error(c, before, "schema.none_of", 2, cerr_phrasev("list", (const char *const *)codes, n), got_phrase(inst),
                  NULL, NULL);
    for (size_t i = 0; codes && i < n; i++) free(codes[i]);
    free(codes);
done:
    for (size_t i = 0; i < n; i++) cerr_free(&scratch[i]);
    free(scratch);
    free(count);
}

/* const and enum; did-you-mean for strings. */
static void v_const_enum(vctx *c, const value *sch, const value *inst) {
    const value *k = sg(c, sch, "const");
    if (k && !value_equal(k, inst, 0)) {
        if (c->quick) { /* only pass or fail matters: no text */
            quick_fail(c);
            return;
        }
        strbuf e = {0};
        put_inline(&e, k, 0);
        const char *tail = NULL;
        char buf[128], hint[104];
        if (k->type == CV_STR && inst->type == CV_STR &&
            suggest_distance_swaps(inst->u.str.s, k->u.str.s) <= hint_limit(inst->u.str.s)) {
            snprintf(buf, sizeof buf, " (did you mean \"%.100s\"?)", k->u.str.s);
            snprintf(hint, sizeof hint, "%.100s", k->u.str.s);
            tail = buf;
        }
        char *want = text_of(&e); /* the value itself: data */
        size_t before = c->errs->n;
        v_expected(c, inst, &e, tail);
        if (keyable(c, before))
            key_error(c, before, tail ? "schema.expected_what_hint" : "schema.expected_what", tail ? 3 : 2, want,
                      got_phrase(inst), tail ? cairn_strdup(hint) : NULL, NULL);
        else
            free(want);
        if (c->quick) return;
    }
    const value *en = sg(c, sch, "enum");
    if (!en || en->type != CV_LIST) return;
    for (size_t i = 0; i < en->u.list.n; i++)
        if (value_equal(en->u.list.items[i], inst, 0)) return;
    if (c->quick) {
        quick_fail(c);
        return;
    }
    strbuf e = {0};
    strbuf_puts(&e, "one of ");
    for (size_t i = 0; i < en->u.list.n; i++) {
        if (i) strbuf_puts(&e, ", ");
        if (i == 12) {
            strbuf_puts(&e, "...");
            break;
        }
        put_inline(&e, en->u.list.items[i], 0);
    }
    const char *hint = inst->type == CV_STR ? hint_item(inst->u.str.s, en) : NULL;
    strbuf tail = {0};
    if (hint) strbuf_printf(&tail, " (did you mean \"%s\"?)", hint);
    strbuf list = {0}; /* the items again, for the key: v_expected takes e */
    const char *listed = strbuf_str(&e);
    if (!e.oom && strlen(listed) > strlen("one of ")) strbuf_puts(&list, listed + strlen("one of "));
    else list.oom = 1;
    size_t before = c->errs->n;
    v_expected(c, inst, &e, hint ? strbuf_str(&tail) : NULL);
    key_one_of(c, before, &list, inst, hint);
    strbuf_free(&list);
    strbuf_free(&tail);
}

/* Applies one schema to one instance node. */
static void v_node(vctx *c, const value *sch, const value *inst) {
    size_t base = cerr_count(c->errs), first = c->errs->n;
#define STOP() if (c->quick && cerr_count(c->errs) > base) goto out
    if (c->depth >= CAIRN_SCHEMA_MAX_DEPTH) {
        strbuf msg = {0};
        strbuf_puts(&msg, "schema nesting too deep here");
        size_t before = c->errs->n;
        v_emit(c, inst, &msg);
        if (keyable(c, before)) key_error(c, before, "schema.too_deep", 0, NULL, NULL, NULL, NULL);
        return;
    }
    c->depth++;
    if (sch->type == CV_BOOL) {
        if (!sch->u.b) {
            strbuf msg = {0};
            strbuf_puts(&msg, "no value is allowed here, got ");
            put_description(&msg, inst);
            size_t before = c->errs->n;
            v_emit(c, inst, &msg);
            if (keyable(c, before))
                key_error(c, before, "schema.nothing_allowed", 1, got_phrase(inst), NULL, NULL, NULL);
        }
        goto out;
    }
    if (sch->type != CV_MAP) goto out;
    const value *t = sg(c, sch, "type");
    if (t && !(type_mask(t) & inst_bit(inst))) {
        /* a wrong type says it all: nothing else at this node is reported.
        ** With const/enum the list of values says more, but a value they
        ** accept is still of the wrong type: `{type: string, enum: [a, ~]}`
        ** refuses null. */
        if (c->quick) {
            quick_fail(c);
            goto out;
        }
        size_t before = cerr_count(c->errs);
        if (sg(c, sch, "const") || sg(c, sch, "enum")) v_const_enum(c, sch, inst);
        if (cerr_count(c->errs) == before) {
            strbuf e = {0};
            describe_types(&e, type_mask(t), sch);
            size_t n = c->errs->n;
            v_expected(c, inst, &e, NULL);
            key_expected(c, n, type_mask(t), sch, inst);
        }
        goto out;
    }
    v_const_enum(c, sch, inst);
    STOP();
    switch (inst->type) {
    case CV_INT: v_int(c, sch, inst); break;
    case CV_STR: v_str(c, sch, inst); break;
    case CV_LIST: v_list(c, sch, inst); break;
    case CV_MAP: v_map(c, sch, inst); break;
    default: break;
    }
    STOP();
    const value *r = sg(c, sch, "$ref");
    if (r) {
        const ann *a = ann_find(c->set, r);
        if (a && a->target) {
            v_node(c, a->target, inst);
        } else {
            strbuf msg = {0};
            strbuf_printf(&msg, "schema error: $ref \"%s\" is unresolved", r->type == CV_STR ? r->u.str.s : "?");
            v_emit(c, inst, &msg);
        }
        STOP();
    }
    const value *all = sg(c, sch, "allOf");
    if (all && all->type == CV_LIST)
        for (size_t i = 0; i < all->u.list.n; i++) {
            v_node(c, all->u.list.items[i], inst);
            STOP();
        }
    const value *any = sg(c, sch, "anyOf");
    if (any && any->type == CV_LIST) v_choice(c, any, inst, 0);
    STOP();
    const value *one = sg(c, sch, "oneOf");
    if (one && one->type == CV_LIST) v_choice(c, one, inst, 1);
    STOP();
    const value *neg = sg(c, sch, "not");
    if (neg && v_valid(c, neg, inst)) {
        /* name what was excluded: its label, or the schema itself */
        strbuf e = {0};
        strbuf_puts(&e, "anything except ");
        label_or_inline(c->set, &e, neg);
        char *what = e.oom ? NULL : cerr_phrase("schema.anything_except", strbuf_str(&e) + strlen("anything except "), NULL);
        size_t before = c->errs->n;
        v_expected(c, inst, &e, NULL);
        if (keyable(c, before))
            key_error(c, before, "schema.expected_what", 2, what, got_phrase(inst), NULL, NULL);
        else
            free(what);
    }
    STOP();
    const value *cond = sg(c, sch, "if");
    if (cond) {
        const value *branch = value_map_get(sch, v_valid(c, cond, inst) ? "then" : "else");
        if (branch) v_node(c, branch, inst);
    }
    STOP();
    /* last: it depends on what every other keyword here evaluated */
    const value *uep = sg(c, sch, "unevaluatedProperties");
    if (uep && inst->type == CV_MAP) v_unevaluated(c, sch, uep, inst, first);
out:
    c->depth--;
#undef STOP
}

int schema_validate(schema_set *s, const value *schema, const char *schema_path,
                    const value *instance, const char *root_path, cerr_list *errs) {
    size_t base = cerr_count(errs);
    if (!schema) {
        if (!schema_path) {
            cerr_add(errs, NULL, 0, 0, NULL, "schema_validate: no schema given");
            return (int)(cerr_count(errs) - base);
        }
        schema = schema_load(s, schema_path, errs);
        if (!schema) return (int)(cerr_count(errs) - base) ? (int)(cerr_count(errs) - base) : 1;
    }
    const ann *a = ann_find(s, schema);
    if (!a || a->kind != ANN_SCHEMA) {
        cerr_add(errs, schema_path, 0, 0, NULL,
                 "schema_validate: the schema was not loaded by this schema set");
        return (int)(cerr_count(errs) - base);
    }
    strbuf path = {0};
    strbuf_puts(&path, root_path ? root_path : "");
    int oom = 0;
    pattern_memo memo = {0};
    vctx c = {.set = s, .errs = errs, .path = &path, .oom = &oom, .memo = &memo};
    v_node(&c, schema, instance);
    free(memo.tab);
    if (oom || path.oom) {
        errs->oom = 1;
        cerr_addk(errs, NULL, 0, 0, NULL, "oom", "out of memory while validating");
    }
    strbuf_free(&path);
    size_t n = cerr_count(errs) - base;
    return n > INT_CAP ? INT_CAP : (int)n;
}
