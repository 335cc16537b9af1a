/*
** yload.c
** The YAML loader: libyaml events in, a located value tree out. Owns scalar
** resolution (YAML 1.2 core schema without floats), anchors, aliases and
** `<<` merge keys, and the limits that make a hostile file cheap to refuse.
** Its refusals carry keys for the console's languages (base/error.h),
** libyaml's commonest texts among them (yaml_texts).
*/
#include "yload.h"
#include "grow.h"
#include "limits.h"
#include "safe_open.h"
#include "strbuf.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <yaml.h>

/* Longest excerpt of a scalar quoted inside an error message. */
#define QUOTE_MAX 60

/* ============================================================ string table */

/* Open-addressing hash from a byte string to an int, used for duplicate-key
** detection (key -> line of its first occurrence) and the anchor table
** (name -> index). value_map_entry is a linear scan, which would make a
** large flat map quadratic to load. Strings are borrowed, never copied. */
typedef struct strtab_slot {
    const char *s; /* NULL: empty slot */
    size_t len;
    int val;
} strtab_slot;

typedef struct strtab {
    strtab_slot *slots;
    size_t n, cap; /* cap is 0 or a power of two */
} strtab;

static uint64_t hash_bytes(const char *s, size_t len) {
    uint64_t h = 1469598103934665603ULL;
    for (size_t i = 0; i < len; i++) {
        h ^= (unsigned char)s[i];
        h *= 1099511628211ULL;
    }
    return h;
}

/* The slot holding s, or the empty slot where it would go. cap must be > 0. */
static strtab_slot *strtab_slot_for(const strtab *t, const char *s, size_t len) {
    size_t mask = t->cap - 1;
    size_t i = (size_t)hash_bytes(s, len) & mask;
    for (;;) {
        strtab_slot *sl = &t->slots[i];
        if (!sl->s || (sl->len == len && memcmp(sl->s, s, len) == 0)) return sl;
        i = (i + 1) & mask;
    }
}

/* Returns 1 and sets *val when s is present, else 0. */
static int strtab_get(const strtab *t, const char *s, size_t len, int *val) {
    if (t->cap == 0) return 0;
    strtab_slot *sl = strtab_slot_for(t, s, len);
    if (!sl->s) return 0;
    if (val) *val = sl->val;
    return 1;
}

static int strtab_grow(strtab *t) {
    size_t cap = t->cap ? t->cap * 2 : 16;
    strtab old = *t;
    t->slots = calloc(cap, sizeof *t->slots);
    if (!t->slots) {
        *t = old;
        return -1;
    }
    t->cap = cap;
    for (size_t i = 0; i < old.cap; i++)
        if (old.slots[i].s) *strtab_slot_for(t, old.slots[i].s, old.slots[i].len) = old.slots[i];
    free(old.slots);
    return 0;
}

/* Inserts s or updates its value. Returns 0, or -1 on OOM. */
static int strtab_put(strtab *t, const char *s, size_t len, int val) {
    if ((t->n + 1) * 4 > t->cap * 3 && strtab_grow(t) != 0) return -1;
    strtab_slot *sl = strtab_slot_for(t, s, len);
    if (!sl->s) {
        sl->s = s;
        sl->len = len;
        t->n++;
    }
    sl->val = val;
    return 0;
}

static void strtab_free(strtab *t) {
    free(t->slots);
    memset(t, 0, sizeof *t);
}

/* ================================================================ quoting */

/* Appends s in double quotes, escaping what would garble a one-line
** message, and cut after QUOTE_MAX bytes. */
static void put_quoted(strbuf *b, const char *s, size_t len) {
    strbuf_putc(b, '"');
    size_t n = len > QUOTE_MAX ? QUOTE_MAX : len;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '"' || c == '\\') {
            strbuf_putc(b, '\\');
            strbuf_putc(b, (char)c);
        } else if (c < 0x20 || c == 0x7f) {
            strbuf_printf(b, "\\x%02X", c);
        } else {
            strbuf_putc(b, (char)c);
        }
    }
    if (n < len) strbuf_puts(b, "...");
    strbuf_putc(b, '"');
}

/* A quoted excerpt of s for messages (caller frees; NULL on OOM). */
static char *quoted(const char *s, size_t len) {
    strbuf b = {0};
    put_quoted(&b, s, len);
    return strbuf_take(&b);
}

/* ========================================================== loader state */

/* One list or map being filled. */
typedef struct frame {
    value *node;      /* owned until delivered to its parent */
    char *anchor;     /* to register when the node completes; owned */
    long start_nodes; /* node count before this node was charged */
    int height;       /* tallest child so far (scalars 0) */
    /* maps only */
    strtab keys;      /* key -> line of first occurrence */
    value *key;       /* pending key, waiting for its value; owned */
    int have_key;     /* a key (possibly refused) waits for its value */
    int discard;      /* the pending key was refused: drop its value */
    int merge;        /* the pending key is the << merge key */
    int merge_line;   /* line of this map's << key, 0 if none yet */
    const value *merge_src; /* borrowed: an anchored node or one in the graveyard */
    size_t merge_at;  /* explicit entries that came before the << key */
    int merge_vline, merge_vcol; /* where the << value is, for errors */
} frame;

typedef struct anchor_def {
    char *name;        /* owned */
    const value *node; /* borrowed: lives in the tree or the graveyard */
    long size;         /* nodes below it, itself and map keys included */
    int height;        /* collection levels it adds (scalar 0) */
} anchor_def;

typedef struct loader {
    const char *name;
    cv_file *file;
    yload_limits lim;
    cerr_list *errs;
    int nerr;   /* errors this load recorded */
    int fatal;  /* stop at once: a limit, a syntax error or OOM */
    long nodes; /* nodes charged so far */

    frame *stack;
    int depth; /* open frames */
    size_t cap;

    value *root;
    int docs;

    anchor_def *anchors;
    size_t nanchors, capanchors;
    strtab anchor_index;

    /* Nodes taken out of the tree (refused keys' values, merge sources)
    ** stay alive here until the end, so no anchor ever dangles. */
    value *graveyard;

    const char *given_path; /* when set, errors take this path (pre-count) */

    const char *text; /* the input, to place reader errors */
    size_t len;
} loader;

/* ================================================================ errors */

enum { AT_NONE, AT_PARENT, AT_CHILD };

/* Appends the path segment for a map key to b: `.name`, or `["odd key"]`
** when the key is not a plain identifier (the merge key `<<` shows bare). */
static void path_key(strbuf *b, const char *s, size_t len) {
    int ident = len > 0 && (s[0] == '_' || (s[0] >= 'a' && s[0] <= 'z') ||
                            (s[0] >= 'A' && s[0] <= 'Z'));
    for (size_t i = 1; ident && i < len; i++) {
        char c = s[i];
        ident = c == '_' || c == '-' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                (c >= '0' && c <= '9');
    }
    if (len == 2 && memcmp(s, "<<", 2) == 0) ident = 1;
    if (ident) {
        if (b->n) strbuf_putc(b, '.');
        strbuf_putn(b, s, len);
    } else {
        strbuf_putc(b, '[');
        put_quoted(b, s, len);
        strbuf_putc(b, ']');
    }
}

/* The instance path of the node being built (AT_CHILD) or of the innermost
** open collection (AT_PARENT). NULL for the root or on OOM. */
static char *path_string(const loader *L, int at) {
    if (L->given_path) return cairn_strdup(L->given_path);
    int upto = at == AT_CHILD ? L->depth : L->depth - 1;
    strbuf b = {0};
    for (int i = 0; i < upto; i++) {
        const frame *f = &L->stack[i];
        if (f->node->type == CV_LIST) {
            strbuf_printf(&b, "[%zu]", f->node->u.list.n);
        } else if (f->have_key && f->key) {
            path_key(&b, f->key->u.str.s, f->key->u.str.len);
        } else if (f->have_key && f->merge) {
            path_key(&b, "<<", 2);
        }
    }
    if (b.n == 0) {
        strbuf_free(&b);
        return NULL;
    }
    return strbuf_take(&b);
}

static void lerr_v(loader *L, int line, int col, int at, const char *fmt, va_list ap) {
    L->nerr++;
    char *msg = cairn_vstrfmt(fmt, ap);
    char *path = at == AT_NONE ? NULL : path_string(L, at);
    cerr_add(L->errs, L->name, line, col, path, "%s", msg ? msg : "out of memory");
    free(path);
    free(msg);
}

/* A problem in the document; loading goes on to find more. */
static void lerr(loader *L, int line, int col, int at, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;
static void lerr(loader *L, int line, int col, int at, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    lerr_v(L, line, col, at, fmt, ap);
    va_end(ap);
}

/* Gives the error just added (L->errs->n was `before`) a key and up to
** four arguments for the console's languages (base/error.h); a NULL
** argument ends them. */
static void lkey(loader *L, size_t before, const char *key, const char *a0, const char *a1,
                 const char *a2, const char *a3) {
    cerr_key4(L->errs, before, key, a0, a1, a2, a3);
}

/* A number as a key's argument. */
#define NUMBER_TEXT(buf, fmt, n) (snprintf(buf, sizeof buf, fmt, n), buf)

/* A problem that stops loading: a limit, a syntax error, out of memory. */
static void lfatal(loader *L, int line, int col, int at, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;
static void lfatal(loader *L, int line, int col, int at, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    lerr_v(L, line, col, at, fmt, ap);
    va_end(ap);
    L->fatal = 1;
}

static void oom(loader *L) {
    if (!L->fatal) {
        size_t before = L->errs->n;
        lfatal(L, 0, 0, AT_NONE, "out of memory while loading");
        lkey(L, before, "yaml.oom", NULL, NULL, NULL, NULL);
    }
    L->fatal = 1;
}

/* ================================================================ limits */

/* Counts n more nodes against max_nodes before anything is allocated for
** them. Returns 0, or -1 (fatal) when the budget would be exceeded. */
static int charge(loader *L, long n, int line, int col) {
    if (n > L->lim.max_nodes - L->nodes) {
        size_t before = L->errs->n;
        char most[24];
        lfatal(L, line, col, AT_CHILD,
               "document expands to more than %ld nodes (limit CAIRN_YAML_MAX_NODES); "
               "every alias counts as a full copy of its anchor",
               L->lim.max_nodes);
        lkey(L, before, "yaml.too_many_nodes", NUMBER_TEXT(most, "%ld", L->lim.max_nodes), NULL, NULL, NULL);
        return -1;
    }
    L->nodes += n;
    return 0;
}

/* Checks that height more levels fit below the open collections. */
static int check_depth(loader *L, int height, int line, int col, const char *alias) {
    if (L->depth + height <= L->lim.max_depth) return 0;
    size_t before = L->errs->n;
    char most[24];
    NUMBER_TEXT(most, "%d", L->lim.max_depth);
    if (alias) {
        lfatal(L, line, col, AT_CHILD,
               "alias *%s would nest deeper than %d levels (limit CAIRN_YAML_MAX_DEPTH)", alias,
               L->lim.max_depth);
        lkey(L, before, "yaml.alias_too_deep", alias, most, NULL, NULL);
    } else {
        lfatal(L, line, col, AT_CHILD, "nesting deeper than %d levels (limit CAIRN_YAML_MAX_DEPTH)",
               L->lim.max_depth);
        lkey(L, before, "yaml.too_deep", most, NULL, NULL, NULL);
    }
    return -1;
}

/* ========================================================= tree helpers */

/* "a list", "an integer": a type name with its article, for messages. */
static const char *a_type(cv_type t) {
    switch (t) {
    case CV_NULL: return "null";
    case CV_BOOL: return "a boolean";
    case CV_INT: return "an integer";
    case CV_STR: return "a string";
    case CV_LIST: return "a list";
    case CV_MAP: return "a map";
    }
    return "?";
}

/* a_type as a phrase the console words ("yaml.a.list"); NULL on OOM. */
static char *a_type_phrase(cv_type t) {
    const char *names[] = {"null", "boolean", "integer", "string", "list", "map"};
    char key[32];
    snprintf(key, sizeof key, "yaml.a.%s", (unsigned)t < 6 ? names[t] : "?");
    return cerr_phrase(key, NULL);
}

/* Nodes in v, map keys included, counting no further than cap + 1. */
static long count_nodes(const value *v, long cap) {
    long n = 1;
    if (v->type == CV_LIST) {
        for (size_t i = 0; i < v->u.list.n && n <= cap; i++)
            n += count_nodes(v->u.list.items[i], cap - n);
    } else if (v->type == CV_MAP) {
        for (size_t i = 0; i < v->u.map.n && n <= cap; i++)
            n += 1 + count_nodes(v->u.map.items[i].val, cap - n - 1);
    }
    return n;
}

/* Keeps v alive until the end of the load (see loader.graveyard). */
static int bury(loader *L, value *v) {
    if (value_list_push(L->graveyard, v) != 0) {
        oom(L);
        return -1;
    }
    return 0;
}

/* ============================================================ anchors */

static anchor_def *anchor_find(loader *L, const char *name) {
    int i;
    if (!strtab_get(&L->anchor_index, name, strlen(name), &i)) return NULL;
    return &L->anchors[i];
}

/* Records that name now refers to node (a later anchor of the same name
** replaces an earlier one, as YAML says). Takes ownership of name. */
static int anchor_define(loader *L, char *name, const value *node, long size, int height) {
    anchor_def *a = anchor_find(L, name);
    if (a) {
        free(name);
    } else {
        if (GROW(L->anchors, L->capanchors, L->nanchors + 1) != 0) goto fail;
        if (L->nanchors > INT32_MAX) goto fail;
        if (strtab_put(&L->anchor_index, name, strlen(name), (int)L->nanchors) != 0) goto fail;
        a = &L->anchors[L->nanchors++];
        a->name = name;
    }
    a->node = node;
    a->size = size;
    a->height = height;
    return 0;
fail:
    free(name);
    oom(L);
    return -1;
}

/* ========================================================== scalars */

typedef enum { R_NULL, R_BOOL, R_INT, R_RANGE, R_FLOAT, R_STR } rkind;

static int is_digit_in(char c, int base) {
    if (base == 8) return c >= '0' && c <= '7';
    if (base == 10) return c >= '0' && c <= '9';
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

static int digit_value(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    return c - 'A' + 10;
}

/* [-+]?(0x[0-9a-fA-F]+|0o[0-7]+|[0-9]+) -> R_INT (or R_RANGE when it does
** not fit int64); anything else -> R_STR. */
static rkind parse_int(const char *s, size_t len, int64_t *out) {
    size_t i = 0;
    int neg = 0;
    if (i < len && (s[i] == '-' || s[i] == '+')) neg = s[i++] == '-';
    int base = 10;
    if (len - i > 2 && s[i] == '0' && (s[i + 1] == 'x' || s[i + 1] == 'o')) {
        base = s[i + 1] == 'x' ? 16 : 8;
        i += 2;
    }
    if (i == len) return R_STR;
    /* magnitude up to 2^63, the most negative int64 */
    const uint64_t lim = (uint64_t)INT64_MAX + (neg ? 1 : 0);
    uint64_t m = 0;
    int over = 0;
    for (; i < len; i++) {
        if (!is_digit_in(s[i], base)) return R_STR;
        unsigned d = (unsigned)digit_value(s[i]);
        if (m > (lim - d) / (unsigned)base) over = 1;
        else m = m * (unsigned)base + d;
    }
    if (over) return R_RANGE;
    *out = neg ? (m == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)m) : (int64_t)m;
    return R_INT;
}

/* The core schema's float forms: [-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?,
** [-+]?\.(inf|Inf|INF) and \.(nan|NaN|NAN). Called after integers failed. */
static int looks_float(const char *s, size_t len) {
    size_t i = 0;
    if (len == 4 && (!memcmp(s, ".nan", 4) || !memcmp(s, ".NaN", 4) || !memcmp(s, ".NAN", 4)))
        return 1;
    if (i < len && (s[i] == '-' || s[i] == '+')) i++;
    if (len - i == 4 && (!memcmp(s + i, ".inf", 4) || !memcmp(s + i, ".Inf", 4) ||
                         !memcmp(s + i, ".INF", 4)))
        return 1;
    size_t int_digits = 0, frac_digits = 0;
    while (i < len && s[i] >= '0' && s[i] <= '9') i++, int_digits++;
    if (i < len && s[i] == '.') {
        i++;
        while (i < len && s[i] >= '0' && s[i] <= '9') i++, frac_digits++;
    }
    if (int_digits == 0 && frac_digits == 0) return 0;
    if (i < len && (s[i] == 'e' || s[i] == 'E')) {
        i++;
        if (i < len && (s[i] == '-' || s[i] == '+')) i++;
        size_t exp_digits = 0;
        while (i < len && s[i] >= '0' && s[i] <= '9') i++, exp_digits++;
        if (exp_digits == 0) return 0;
    }
    return i == len;
}

static int text_is(const char *s, size_t len, const char *const *words) {
    for (; *words; words++)
        if (strlen(*words) == len && memcmp(s, *words, len) == 0) return 1;
    return 0;
}

static const char *const null_words[] = {"", "~", "null", "Null", "NULL", NULL};
static const char *const true_words[] = {"true", "True", "TRUE", NULL};
static const char *const false_words[] = {"false", "False", "FALSE", NULL};

/* Resolves scalar text the way the core schema resolves a plain scalar. */
static rkind resolve_plain(const char *s, size_t len, int *b, int64_t *i) {
    if (text_is(s, len, null_words)) return R_NULL;
    if (text_is(s, len, true_words)) return *b = 1, R_BOOL;
    if (text_is(s, len, false_words)) return *b = 0, R_BOOL;
    rkind k = parse_int(s, len, i);
    if (k != R_STR) return k;
    return looks_float(s, len) ? R_FLOAT : R_STR;
}

/* --- tags --- */

#define CORE_TAG "tag:yaml.org,2002:"

typedef enum {
    T_NONE, T_PLAIN_STR, T_STR, T_INT, T_BOOL, T_NULL, T_FLOAT, T_MAP, T_SEQ, T_BAD
} tkind;

/* T_PLAIN_STR is the non-specific tag `!`, which makes a scalar a string. */
static tkind tag_kind(const char *tag) {
    if (!tag) return T_NONE;
    if (strcmp(tag, "!") == 0) return T_PLAIN_STR;
    if (strncmp(tag, CORE_TAG, strlen(CORE_TAG)) != 0) return T_BAD;
    const char *t = tag + strlen(CORE_TAG);
    static const struct { const char *name; tkind kind; } known[] = {
        {"str", T_STR}, {"int", T_INT}, {"bool", T_BOOL}, {"null", T_NULL},
        {"float", T_FLOAT}, {"map", T_MAP}, {"seq", T_SEQ},
    };
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
        if (strcmp(t, known[i].name) == 0) return known[i].kind;
    return T_BAD;
}

/* Reports an unusable tag, shown the way it was probably written. */
static void bad_tag(loader *L, int line, int col, const char *tag, const char *on) {
    int core = strncmp(tag, CORE_TAG, strlen(CORE_TAG)) == 0;
    size_t before = L->errs->n;
    lerr(L, line, col, AT_CHILD,
         "tag %s%s cannot be used on %s (cairn understands !!str, !!int, !!bool and !!null on "
         "scalars, !!map and !!seq on collections)",
         core ? "!!" : "", core ? tag + strlen(CORE_TAG) : tag, on);
    char *shown = cairn_strfmt("%s%s", core ? "!!" : "", core ? tag + strlen(CORE_TAG) : tag);
    char key[32];
    snprintf(key, sizeof key, "yaml.on.%s", on + strcspn(on, " ") + 1); /* "a scalar": yaml.on.scalar */
    char *what = cerr_phrase(key, NULL);
    if (shown && what) lkey(L, before, "yaml.tag", shown, what, NULL, NULL);
    free(shown);
    free(what);
}

static const char *kind_noun(tkind t) {
    switch (t) {
    case T_INT: return "an integer";
    case T_BOOL: return "a boolean";
    case T_NULL: return "null";
    default: return "?";
    }
}

/* --- scalar nodes --- */

static value *at_loc(loader *L, value *v, int line, int col) {
    if (!v) {
        oom(L);
        return NULL;
    }
    value_set_loc(v, L->file, line, col);
    return v;
}

/* Builds the value of a scalar that is not a map key. Problems with the
** text are reported and give a CV_NULL placeholder so loading can go on.
** NULL only on OOM. */
static value *scalar_value(loader *L, const char *s, size_t len, int plain, tkind tag,
                           const char *tagname, int line, int col) {
    if (tag == T_BAD || tag == T_MAP || tag == T_SEQ) {
        bad_tag(L, line, col, tagname, "a scalar");
        return value_null();
    }
    if (tag == T_STR || tag == T_PLAIN_STR || (tag == T_NONE && !plain)) return value_strn(s, len);
    int b = 0;
    int64_t i = 0;
    rkind r = resolve_plain(s, len, &b, &i);
    if (r == R_FLOAT || tag == T_FLOAT) {
        size_t before = L->errs->n;
        lerr(L, line, col, AT_CHILD,
             "floats are not allowed (cairn state is integers only); quote it if you meant a "
             "string");
        lkey(L, before, "yaml.float", NULL, NULL, NULL, NULL);
        return value_null();
    }
    if (r == R_RANGE) {
        char *q = quoted(s, len), lo[24], hi[24];
        size_t before = L->errs->n;
        lerr(L, line, col, AT_CHILD,
             "integer %s is out of range (cairn integers are 64-bit: %" PRId64 " to %" PRId64 ")",
             q ? q : "", INT64_MIN, INT64_MAX);
        if (q)
            lkey(L, before, "yaml.int_range", q, NUMBER_TEXT(lo, "%" PRId64, INT64_MIN),
                 NUMBER_TEXT(hi, "%" PRId64, INT64_MAX), NULL);
        free(q);
        return value_null();
    }
    if (tag != T_NONE) {
        tkind got = r == R_INT ? T_INT : r == R_BOOL ? T_BOOL : r == R_NULL ? T_NULL : T_STR;
        if (got != tag) {
            char *q = quoted(s, len);
            size_t before = L->errs->n;
            lerr(L, line, col, AT_CHILD, "%s is not %s (it is tagged !!%s)", q ? q : "",
                 kind_noun(tag), tagname + strlen(CORE_TAG));
            char *kind = a_type_phrase(tag == T_INT ? CV_INT : tag == T_BOOL ? CV_BOOL : CV_NULL);
            if (q && kind) lkey(L, before, "yaml.not_tagged", q, kind, tagname + strlen(CORE_TAG), NULL);
            free(kind);
            free(q);
            return value_null();
        }
    }
    switch (r) {
    case R_NULL: return value_null();
    case R_BOOL: return value_bool(b);
    case R_INT: return value_int(i);
    default: return value_strn(s, len);
    }
}

/* Builds a map key: always CV_STR holding the text as written, so `3:` and
** `03:` are different keys. A tag still has to fit the text. */
static value *scalar_key(loader *L, const char *s, size_t len, int plain, tkind tag,
                         const char *tagname, int line, int col) {
    if (tag != T_NONE && tag != T_STR && tag != T_PLAIN_STR) {
        value *check = scalar_value(L, s, len, plain, tag, tagname, line, col);
        if (!check) return NULL;
        value_free(check);
    }
    return value_strn(s, len);
}

/* A scalar from an alias used as a key: its canonical text. Takes v. */
static value *keyify(loader *L, value *v) {
    if (v->type == CV_STR) return v;
    char buf[32];
    switch (v->type) {
    case CV_NULL: snprintf(buf, sizeof buf, "null"); break;
    case CV_BOOL: snprintf(buf, sizeof buf, "%s", v->u.b ? "true" : "false"); break;
    default: snprintf(buf, sizeof buf, "%" PRId64, v->u.i); break;
    }
    value *k = value_str(buf);
    if (k) value_set_loc(k, v->file, v->line, v->col);
    value_free(v);
    if (!k) oom(L);
    return k;
}

/* ====================================================== building the tree */

static frame *top(loader *L) { return L->depth ? &L->stack[L->depth - 1] : NULL; }

/* The top frame is a map waiting for a key. */
static int wants_key(loader *L) {
    frame *f = top(L);
    return f && f->node->type == CV_MAP && !f->have_key;
}

/* A completed node v arrives as a map key. merge_key: v was the plain
** scalar `<<`. Takes v. */
static int take_key(loader *L, frame *f, value *v, int merge_key) {
    f->have_key = 1;
    f->discard = 0;
    f->merge = 0;
    f->key = NULL;
    if (v->type == CV_LIST || v->type == CV_MAP) {
        size_t before = L->errs->n;
        lerr(L, v->line, v->col, AT_PARENT, "map keys must be scalars, got %s", a_type(v->type));
        char *got = a_type_phrase(v->type);
        if (got) lkey(L, before, "yaml.key_not_scalar", got, NULL, NULL, NULL);
        free(got);
        f->discard = 1;
        return bury(L, v);
    }
    if (!(v = keyify(L, v))) return -1;
    if (merge_key) {
        if (f->merge_line) {
            size_t before = L->errs->n;
            char first[24];
            lerr(L, v->line, v->col, AT_PARENT, "duplicate key \"<<\" (first at line %d)",
                 f->merge_line);
            lkey(L, before, "yaml.duplicate_key", "\"<<\"", NUMBER_TEXT(first, "%d", f->merge_line), NULL, NULL);
            f->discard = 1;
        } else {
            f->merge_line = v->line;
            f->merge = 1;
        }
        return bury(L, v);
    }
    if (memchr(v->u.str.s, '\0', v->u.str.len)) {
        /* keys are looked up as C strings everywhere in cairn (and Lua
        ** refuses them too, luaval.c): "a\0b" would pass as "a" */
        char *q = quoted(v->u.str.s, v->u.str.len);
        size_t before = L->errs->n;
        lerr(L, v->line, v->col, AT_PARENT, "map key %s contains a NUL byte", q ? q : "");
        if (q) lkey(L, before, "yaml.key_nul", q, NULL, NULL, NULL);
        free(q);
        f->discard = 1;
        return bury(L, v);
    }
    int first;
    if (strtab_get(&f->keys, v->u.str.s, v->u.str.len, &first)) {
        char *q = quoted(v->u.str.s, v->u.str.len);
        size_t before = L->errs->n;
        char at[24];
        lerr(L, v->line, v->col, AT_PARENT, "duplicate key %s (first at line %d)", q ? q : "",
             first);
        if (q) lkey(L, before, "yaml.duplicate_key", q, NUMBER_TEXT(at, "%d", first), NULL, NULL);
        free(q);
        f->discard = 1;
        return bury(L, v);
    }
    if (strtab_put(&f->keys, v->u.str.s, v->u.str.len, v->line) != 0) {
        value_free(v);
        oom(L);
        return -1;
    }
    f->key = v;
    return 0;
}

/* Charges a merge source and remembers it for the end of the map, where
** its entries are copied. The whole source is charged now, whatever ends
** up overridden, so the work at the end is paid for in advance. */
static int record_merge(loader *L, frame *f, const value *src, long size, int line, int col) {
    if (charge(L, size, line, col) != 0) return -1;
    f->merge_src = src;
    f->merge_at = f->node->u.map.n;
    f->merge_vline = line;
    f->merge_vcol = col;
    f->have_key = 0;
    return 0;
}

/* A completed node v arrives as the value of the pending key. Takes v. */
static int take_value(loader *L, frame *f, value *v) {
    f->have_key = 0;
    if (f->discard) return bury(L, v);
    if (f->merge) {
        /* v may be anchored: keep it intact in the graveyard, copy from it */
        if (bury(L, v) != 0) return -1;
        return record_merge(L, f, v, count_nodes(v, L->lim.max_nodes), v->line, v->col);
    }
    value *key = f->key;
    f->key = NULL;
    if (value_map_append(f->node, key, v) != 0) {
        oom(L);
        return -1;
    }
    return 0;
}

/* Hands a completed node (owned) to whatever is open: the document root,
** a list, or a map's key or value. height: collection levels v adds. */
static int deliver(loader *L, value *v, int height, int merge_key) {
    frame *f = top(L);
    if (!f) {
        L->root = v;
        return 0;
    }
    if (height > f->height) f->height = height;
    if (f->node->type == CV_LIST) {
        if (value_list_push(f->node, v) != 0) {
            oom(L);
            return -1;
        }
        return 0;
    }
    return f->have_key ? take_value(L, f, v) : take_key(L, f, v, merge_key);
}

/* Copies the entries of one merged map that the target does not have yet. */
static int merge_map(loader *L, frame *f, const value *src, value *out) {
    for (size_t i = 0; i < src->u.map.n; i++) {
        const value *k = src->u.map.items[i].key;
        if (strtab_get(&f->keys, k->u.str.s, k->u.str.len, NULL)) continue;
        value *kc = value_clone(k);
        value *vc = kc ? value_clone(src->u.map.items[i].val) : NULL;
        if (!vc) {
            value_free(kc);
            oom(L);
            return -1;
        }
        if (value_map_append(out, kc, vc) != 0 ||
            strtab_put(&f->keys, kc->u.str.s, kc->u.str.len, kc->line) != 0) {
            oom(L);
            return -1;
        }
    }
    return 0;
}

/* Applies the map's << source: explicit keys win wherever they stand,
** earlier maps of a list win over later ones, and the merged entries go
** where the << key stood. */
static int finish_merge(loader *L, frame *f) {
    const value *src = f->merge_src;
    value *merged = value_map(); /* holds the copies until spliced in */
    if (!merged) {
        oom(L);
        return -1;
    }
    int rc = 0;
    if (src->type == CV_MAP) {
        rc = merge_map(L, f, src, merged);
    } else if (src->type == CV_LIST) {
        for (size_t i = 0; i < src->u.list.n && rc == 0; i++) {
            const value *item = src->u.list.items[i];
            if (item->type == CV_MAP) {
                rc = merge_map(L, f, item, merged);
            } else {
                size_t before = L->errs->n;
                lerr(L, item->line, item->col, AT_PARENT,
                     "the << merge key takes a map or a list of maps, got a list holding %s",
                     a_type(item->type));
                char *got = a_type_phrase(item->type);
                if (got) lkey(L, before, "yaml.merge_list", got, NULL, NULL, NULL);
                free(got);
            }
        }
    } else {
        size_t before = L->errs->n;
        lerr(L, f->merge_vline, f->merge_vcol, AT_PARENT,
             "the << merge key takes a map or a list of maps, got %s", a_type(src->type));
        char *got = a_type_phrase(src->type);
        if (got) lkey(L, before, "yaml.merge", got, NULL, NULL, NULL);
        free(got);
    }
    value *m = f->node;
    size_t add = merged->u.map.n;
    if (rc == 0 && add) {
        cv_entry *items = realloc(m->u.map.items, (m->u.map.n + add) * sizeof *items);
        if (!items) {
            oom(L);
            rc = -1;
        } else {
            size_t at = f->merge_at;
            memmove(&items[at + add], &items[at], (m->u.map.n - at) * sizeof *items);
            memcpy(&items[at], merged->u.map.items, add * sizeof *items);
            m->u.map.items = items;
            m->u.map.n += add;
            m->u.map.cap = m->u.map.n;
            merged->u.map.n = 0; /* entries now belong to m */
        }
    }
    value_free(merged);
    return rc;
}

/* ================================================================ events */

static int mark_line(yaml_mark_t m) { return (int)m.line + 1; }
static int mark_col(yaml_mark_t m) { return (int)m.column + 1; }

static int on_scalar(loader *L, const yaml_event_t *ev) {
    int line = mark_line(ev->start_mark), col = mark_col(ev->start_mark);
    const char *s = (const char *)ev->data.scalar.value;
    size_t len = ev->data.scalar.length;
    const char *tagname = (const char *)ev->data.scalar.tag;
    if (len > (size_t)L->lim.max_string) {
        size_t before = L->errs->n;
        char most[24];
        lfatal(L, line, col, AT_CHILD, "string longer than %ld bytes (limit CAIRN_YAML_MAX_STRING)",
               L->lim.max_string);
        lkey(L, before, "yaml.string_too_long", NUMBER_TEXT(most, "%ld", L->lim.max_string), NULL, NULL, NULL);
        return -1;
    }
    if (charge(L, 1, line, col) != 0) return -1;
    int plain = ev->data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
    tkind tag = tag_kind(tagname);
    int as_key = wants_key(L);
    value *v = as_key ? scalar_key(L, s, len, plain, tag, tagname, line, col)
                      : scalar_value(L, s, len, plain, tag, tagname, line, col);
    if (!at_loc(L, v, line, col)) return -1;
    const char *anchor = (const char *)ev->data.scalar.anchor;
    if (anchor) {
        char *name = cairn_strdup(anchor);
        if (!name) {
            value_free(v);
            oom(L);
            return -1;
        }
        if (anchor_define(L, name, v, 1, 0) != 0) {
            value_free(v);
            return -1;
        }
    }
    int merge_key = as_key && plain && tag == T_NONE && len == 2 && memcmp(s, "<<", 2) == 0;
    return deliver(L, v, 0, merge_key);
}

static int on_start(loader *L, const yaml_event_t *ev, int is_map) {
    int line = mark_line(ev->start_mark), col = mark_col(ev->start_mark);
    if (check_depth(L, 1, line, col, NULL) != 0) return -1;
    if (charge(L, 1, line, col) != 0) return -1;
    const char *tagname = (const char *)(is_map ? ev->data.mapping_start.tag
                                                : ev->data.sequence_start.tag);
    const char *anchor = (const char *)(is_map ? ev->data.mapping_start.anchor
                                               : ev->data.sequence_start.anchor);
    tkind tag = tag_kind(tagname);
    if (tag != T_NONE && tag != T_PLAIN_STR && tag != (is_map ? T_MAP : T_SEQ))
        bad_tag(L, line, col, tagname, is_map ? "a map" : "a list");
    if (GROW(L->stack, L->cap, (size_t)L->depth + 1) != 0) {
        oom(L);
        return -1;
    }
    frame *f = &L->stack[L->depth];
    memset(f, 0, sizeof *f);
    f->start_nodes = L->nodes - 1;
    f->node = at_loc(L, is_map ? value_map() : value_list(), line, col);
    if (!f->node) return -1;
    L->depth++;
    if (anchor && !(f->anchor = cairn_strdup(anchor))) {
        oom(L);
        return -1;
    }
    return 0;
}

/* Frees what a frame still owns (not its node). */
static void frame_release(frame *f) {
    strtab_free(&f->keys);
    value_free(f->key);
    f->key = NULL;
    free(f->anchor);
    f->anchor = NULL;
}

static int on_end(loader *L) {
    frame *f = top(L);
    if (f->node->type == CV_MAP && f->merge_src && finish_merge(L, f) != 0) return -1;
    int height = f->height + 1;
    value *node = f->node;
    char *anchor = f->anchor;
    long size = L->nodes - f->start_nodes;
    f->anchor = NULL;
    frame_release(f);
    L->depth--;
    if (anchor && anchor_define(L, anchor, node, size, height) != 0) {
        value_free(node);
        return -1;
    }
    return deliver(L, node, height, 0);
}

static int on_alias(loader *L, const yaml_event_t *ev) {
    int line = mark_line(ev->start_mark), col = mark_col(ev->start_mark);
    const char *name = (const char *)ev->data.alias.anchor;
    anchor_def *a = anchor_find(L, name);
    if (!a) {
        size_t before = L->errs->n;
        lerr(L, line, col, AT_CHILD,
             "unknown anchor *%s (an alias must come after its anchor's node is complete)", name);
        lkey(L, before, "yaml.unknown_anchor", name, NULL, NULL, NULL);
        if (charge(L, 1, line, col) != 0) return -1;
        value *v = at_loc(L, value_null(), line, col);
        return v ? deliver(L, v, 0, 0) : -1;
    }
    frame *f = top(L);
    if (f && f->node->type == CV_MAP && f->have_key && f->merge && !f->discard) {
        /* `<<: *x` copies x's entries into this map, one level up from where
        ** x's own entries sit. */
        int below = a->node->type == CV_MAP ? 1 : a->node->type == CV_LIST ? 2 : 0;
        int h = a->height > below ? a->height - below : 0;
        if (check_depth(L, h, line, col, name) != 0) return -1;
        if (h > f->height) f->height = h;
        return record_merge(L, f, a->node, a->size, line, col);
    }
    if (check_depth(L, a->height, line, col, name) != 0) return -1;
    if (charge(L, a->size, line, col) != 0) return -1;
    value *c = value_clone(a->node);
    if (!c) {
        oom(L);
        return -1;
    }
    value_set_loc(c, L->file, line, col);
    return deliver(L, c, a->height, 0);
}

/* =========================================================== libyaml glue */

/* Line and column (1-based, in characters) of a byte offset into the input:
** libyaml's reader errors give only the offset. */
static void offset_to_mark(const loader *L, size_t off, int *line, int *col) {
    int ln = 1, cl = 1;
    if (off > L->len) off = L->len;
    for (size_t i = 0; i < off; i++) {
        unsigned char c = (unsigned char)L->text[i];
        if (c == '\n' || (c == '\r' && (i + 1 >= L->len || L->text[i + 1] != '\n'))) {
            ln++;
            cl = 1;
        } else if ((c & 0xC0) != 0x80) {
            cl++;
        }
    }
    *line = ln;
    *col = cl;
}

/* libyaml's problem and context texts that a hand-written file meets
** most, each with the catalogue key the console words it by: a small
** fixed set of libyaml's own strings (scanner.c, parser.c, reader.c). Any
** other text is passed on as libyaml wrote it (English); so are the two
** with "unexpected" ("found unexpected end of stream", "... document
** indicator"): that word in the console's catalogue would count Lua's own
** "unexpected symbol" messages, English on purpose, as the console's
** (test_console_language). */
static const struct {
    const char *text, *key;
} yaml_texts[] = {
    {"did not find expected key", "yaml.p.expected_key"},
    {"did not find expected node content", "yaml.p.expected_node"},
    {"did not find expected '-' indicator", "yaml.p.expected_dash"},
    {"did not find expected ',' or ']'", "yaml.p.expected_comma_bracket"},
    {"did not find expected ',' or '}'", "yaml.p.expected_comma_brace"},
    {"did not find expected <document start>", "yaml.p.expected_document"},
    {"mapping values are not allowed in this context", "yaml.p.mapping_values"},
    {"block sequence entries are not allowed in this context", "yaml.p.sequence_entries"},
    {"could not find expected ':'", "yaml.p.expected_colon"},
    {"found character that cannot start any token", "yaml.p.bad_character"},
    {"found unknown escape character", "yaml.p.unknown_escape"},
    {"found a tab character that violates indentation", "yaml.p.tab_indent"},
    {"found a tab character where an indentation space is expected", "yaml.p.tab_space"},
    {"found undefined tag handle", "yaml.p.tag_handle"},
    {"did not find expected alphabetic or numeric character", "yaml.p.expected_name_char"},
    {"invalid leading UTF-8 octet", "yaml.p.utf8_leading"},
    {"invalid trailing UTF-8 octet", "yaml.p.utf8_trailing"},
    {"incomplete UTF-8 octet sequence", "yaml.p.utf8_incomplete"},
    {"control characters are not allowed", "yaml.p.control"},
    {"while parsing a block mapping", "yaml.c.block_mapping"},
    {"while parsing a block collection", "yaml.c.block_collection"},
    {"while parsing a flow sequence", "yaml.c.flow_sequence"},
    {"while parsing a flow mapping", "yaml.c.flow_mapping"},
    {"while parsing a node", "yaml.c.node"},
    {"while scanning a simple key", "yaml.c.simple_key"},
    {"while scanning for the next token", "yaml.c.next_token"},
    {"while scanning a quoted scalar", "yaml.c.quoted_scalar"},
    {"while parsing a quoted scalar", "yaml.c.quoted_scalar"},
    {"while scanning a plain scalar", "yaml.c.plain_scalar"},
    {"while scanning a block scalar", "yaml.c.block_scalar"},
    {"while scanning an anchor", "yaml.c.anchor"},
    {"while scanning an alias", "yaml.c.alias"},
};

/* libyaml's text as a key's argument: the phrase of its key when it is one
** of yaml_texts, else the text itself (a copy; NULL on OOM). */
static char *yaml_text_arg(const char *text) {
    for (size_t i = 0; i < sizeof yaml_texts / sizeof yaml_texts[0]; i++)
        if (strcmp(text, yaml_texts[i].text) == 0) return cerr_phrase(yaml_texts[i].key, NULL);
    return cairn_strdup(text);
}

static void parser_error(loader *L, const yaml_parser_t *p) {
    size_t before = L->errs->n;
    char *problem = NULL, *context = NULL;
    char a[24], b[24], c[24];
    switch (p->error) {
    case YAML_MEMORY_ERROR: oom(L); return;
    case YAML_READER_ERROR: {
        int line, col;
        offset_to_mark(L, p->problem_offset, &line, &col);
        /* libyaml's reader refuses bad UTF-8 (overlong forms, surrogates
        ** and code points past U+10FFFF included) and control characters */
        const char *why = p->problem ? p->problem : "unreadable input";
        const char *hint = strstr(why, "UTF-8") || strstr(why, "Unicode")
                               ? "; cairn reads UTF-8 only" : "";
        if (p->problem_value != -1)
            lfatal(L, line, col, AT_NONE, "%s (0x%X at byte %zu%s)", why,
                   (unsigned)p->problem_value, p->problem_offset, hint);
        else
            lfatal(L, line, col, AT_NONE, "%s (at byte %zu%s)", why, p->problem_offset, hint);
        problem = yaml_text_arg(why);
        char *utf8 = *hint ? cerr_phrase("yaml.utf8_only", NULL) : cairn_strdup("");
        NUMBER_TEXT(b, "%zu", p->problem_offset);
        if (problem && utf8 && p->problem_value != -1)
            lkey(L, before, "yaml.unreadable_value", problem, NUMBER_TEXT(a, "%X", (unsigned)p->problem_value), b, utf8);
        else if (problem && utf8)
            lkey(L, before, "yaml.unreadable", problem, b, utf8, NULL);
        free(utf8);
        free(problem);
        return;
    }
    case YAML_SCANNER_ERROR:
    case YAML_PARSER_ERROR:
        if (p->context) {
            lfatal(L, mark_line(p->problem_mark), mark_col(p->problem_mark), AT_NONE,
                   "%s (%s at line %d, column %d)", p->problem, p->context,
                   mark_line(p->context_mark), mark_col(p->context_mark));
            problem = p->problem ? yaml_text_arg(p->problem) : NULL;
            context = yaml_text_arg(p->context);
            if (problem && context)
                lkey(L, before, "yaml.syntax_in", problem, context, NUMBER_TEXT(a, "%d", mark_line(p->context_mark)),
                     NUMBER_TEXT(c, "%d", mark_col(p->context_mark)));
        } else {
            lfatal(L, mark_line(p->problem_mark), mark_col(p->problem_mark), AT_NONE, "%s",
                   p->problem ? p->problem : "syntax error");
            problem = p->problem ? yaml_text_arg(p->problem) : cerr_phrase("yaml.p.syntax", NULL);
            if (problem) lkey(L, before, "yaml.syntax", problem, NULL, NULL, NULL);
        }
        free(problem);
        free(context);
        return;
    default:
        lfatal(L, 0, 0, AT_NONE, "YAML error: %s", p->problem ? p->problem : "unknown");
        return;
    }
}

/* Handles one event. Returns 1 at the end of the stream, 0 to go on, -1 to
** stop. */
static int on_event(loader *L, const yaml_event_t *ev) {
    switch (ev->type) {
    case YAML_STREAM_END_EVENT: return 1;
    case YAML_DOCUMENT_START_EVENT:
        if (++L->docs > 1) {
            size_t before = L->errs->n;
            lfatal(L, mark_line(ev->start_mark), mark_col(ev->start_mark), AT_NONE,
                   "a second document starts here; a cairn YAML file holds exactly one document");
            lkey(L, before, "yaml.second_document", NULL, NULL, NULL, NULL);
            return -1;
        }
        return 0;
    case YAML_SCALAR_EVENT: return on_scalar(L, ev);
    case YAML_SEQUENCE_START_EVENT: return on_start(L, ev, 0);
    case YAML_MAPPING_START_EVENT: return on_start(L, ev, 1);
    case YAML_SEQUENCE_END_EVENT:
    case YAML_MAPPING_END_EVENT: return on_end(L);
    case YAML_ALIAS_EVENT: return on_alias(L, ev);
    default: return 0;
    }
}

static void run_parser(loader *L) {
    yaml_parser_t p;
    if (!yaml_parser_initialize(&p)) {
        oom(L);
        return;
    }
    yaml_parser_set_input_string(&p, (const unsigned char *)L->text, L->len);
    /* no encoding sniffing: a UTF-16 file is refused, not converted */
    yaml_parser_set_encoding(&p, YAML_UTF8_ENCODING);
    for (;;) {
        yaml_event_t ev;
        if (!yaml_parser_parse(&p, &ev)) {
            parser_error(L, &p);
            break;
        }
        int rc = on_event(L, &ev);
        yaml_event_delete(&ev);
        if (rc != 0) break;
    }
    yaml_parser_delete(&p);
}

/* ====================================================== alias pre-count */

/* An allocation-free first pass that only counts nodes, so that a file
** whose aliases expand past max_nodes (a "billion laughs") is refused
** before a single node is built; without it the real pass would build up
** to max_nodes nodes (about 25 MB at the default) before noticing. It runs
** only when the text holds a '*' and a '&', as without aliases (and
** anchors) the count is bounded by the text itself. Every other problem, and any limit reached other
** than by an alias, is left to the real pass. It tracks just enough of the
** tree (list indexes, pending keys) to name the path in its error. */
typedef struct count_frame {
    long start;   /* node count before this collection */
    char *anchor; /* owned */
    int is_map;
    int want_key;   /* map: the next node is a key */
    char *key;      /* map: the pending key's text, owned (NULL if not a scalar) */
    size_t keylen;
    size_t index;   /* list: items so far */
} count_frame;

typedef struct counter {
    count_frame *stack;
    int depth;
} counter;

static char *count_path(const counter *c) {
    strbuf b = {0};
    for (int i = 0; i < c->depth; i++) {
        const count_frame *f = &c->stack[i];
        if (!f->is_map) {
            strbuf_printf(&b, "[%zu]", f->index);
        } else if (!f->want_key && f->key) {
            path_key(&b, f->key, f->keylen);
        }
    }
    if (b.n == 0) {
        strbuf_free(&b);
        return NULL;
    }
    return strbuf_take(&b);
}

/* A node finished inside the top collection. */
static void count_child_done(counter *c) {
    if (c->depth == 0) return;
    count_frame *f = &c->stack[c->depth - 1];
    if (!f->is_map) {
        f->index++;
    } else if (f->want_key) {
        f->want_key = 0;
    } else {
        f->want_key = 1;
        free(f->key);
        f->key = NULL;
    }
}

static int count_anchor(loader *L, const unsigned char *name, long size) {
    if (!name) return 0;
    char *copy = cairn_strdup((const char *)name);
    if (!copy) {
        oom(L);
        return -1;
    }
    return anchor_define(L, copy, NULL, size, 0);
}

/* Returns 0 to go on, 1 to stop quietly, -1 after an error. */
static int precount_event(loader *L, counter *c, const yaml_event_t *ev) {
    count_frame *f = c->depth ? &c->stack[c->depth - 1] : NULL;
    switch (ev->type) {
    case YAML_SCALAR_EVENT:
        L->nodes++;
        if (f && f->is_map && f->want_key) {
            f->key = malloc(ev->data.scalar.length + 1);
            if (!f->key) {
                oom(L);
                return -1;
            }
            memcpy(f->key, ev->data.scalar.value, ev->data.scalar.length + 1);
            f->keylen = ev->data.scalar.length;
        }
        if (count_anchor(L, ev->data.scalar.anchor, 1) != 0) return -1;
        count_child_done(c);
        return 0;
    case YAML_SEQUENCE_START_EVENT:
    case YAML_MAPPING_START_EVENT: {
        if (c->depth >= L->lim.max_depth) return 1;
        int is_map = ev->type == YAML_MAPPING_START_EVENT;
        const unsigned char *aname = is_map ? ev->data.mapping_start.anchor
                                            : ev->data.sequence_start.anchor;
        count_frame *nf = &c->stack[c->depth];
        memset(nf, 0, sizeof *nf);
        nf->start = L->nodes++;
        nf->is_map = is_map;
        nf->want_key = 1;
        c->depth++;
        if (aname && !(nf->anchor = cairn_strdup((const char *)aname))) {
            oom(L);
            return -1;
        }
        return 0;
    }
    case YAML_SEQUENCE_END_EVENT:
    case YAML_MAPPING_END_EVENT: {
        char *name = f->anchor;
        long size = L->nodes - f->start;
        free(f->key);
        c->depth--;
        if (name && anchor_define(L, name, NULL, size, 0) != 0) return -1;
        count_child_done(c);
        return 0;
    }
    case YAML_ALIAS_EVENT: {
        anchor_def *a = anchor_find(L, (const char *)ev->data.alias.anchor);
        if (a && a->size > L->lim.max_nodes - L->nodes) {
            char *path = count_path(c);
            L->given_path = path;
            charge(L, a->size, mark_line(ev->start_mark), mark_col(ev->start_mark));
            L->given_path = NULL;
            free(path);
            return -1;
        }
        if (a) L->nodes += a->size;
        count_child_done(c);
        return 0;
    }
    case YAML_STREAM_END_EVENT: return 1;
    case YAML_DOCUMENT_START_EVENT: return ++L->docs > 1;
    default: return 0;
    }
}

/* Returns -1 after reporting the node limit (or running out of memory),
** else 0, with the loader as it was before. */
static int precount(loader *L) {
    /* an alias expands only an anchor (`&name`): without either character
    ** no alias adds a node (one naming no anchor is the real pass's error),
    ** and a '*' in a comment, a string or a pattern is common */
    if (!memchr(L->text, '*', L->len) || !memchr(L->text, '&', L->len)) return 0;
    size_t frames = L->lim.max_depth > 0 ? (size_t)L->lim.max_depth + 1 : 1;
    counter c = {calloc(frames, sizeof(count_frame)), 0};
    yaml_parser_t p;
    if (!c.stack || !yaml_parser_initialize(&p)) {
        oom(L);
    } else {
        yaml_parser_set_input_string(&p, (const unsigned char *)L->text, L->len);
        yaml_parser_set_encoding(&p, YAML_UTF8_ENCODING);
        for (;;) {
            yaml_event_t ev;
            if (!yaml_parser_parse(&p, &ev)) break;
            int rc = precount_event(L, &c, &ev);
            yaml_event_delete(&ev);
            if (rc != 0) break;
        }
        yaml_parser_delete(&p);
    }
    for (int i = 0; i < c.depth; i++) {
        free(c.stack[i].anchor);
        free(c.stack[i].key);
    }
    free(c.stack);
    for (size_t i = 0; i < L->nanchors; i++) free(L->anchors[i].name);
    L->nanchors = 0;
    strtab_free(&L->anchor_index);
    L->nodes = 0;
    L->docs = 0;
    return L->fatal ? -1 : 0;
}

/* ============================================================ entry points */

static void loader_free(loader *L) {
    for (int i = 0; i < L->depth; i++) {
        frame_release(&L->stack[i]);
        value_free(L->stack[i].node);
    }
    free(L->stack);
    for (size_t i = 0; i < L->nanchors; i++) free(L->anchors[i].name);
    free(L->anchors);
    strtab_free(&L->anchor_index);
    value_free(L->graveyard);
    value_free(L->root);
    cv_file_unref(L->file);
}

/* Parses L->text; returns the root or NULL after recording errors. */
static value *load(loader *L) {
    value *root = NULL;
    L->file = cv_file_new(L->name);
    L->graveyard = value_list();
    if (!L->file || !L->graveyard) {
        oom(L);
    } else if (precount(L) == 0) {
        run_parser(L);
        if (!L->fatal && !L->root && L->docs == 0) {
            /* an empty stream: no document at all */
            L->root = at_loc(L, value_null(), 1, 1);
        }
        if (!L->fatal && L->nerr == 0 && L->root) {
            root = L->root;
            L->root = NULL;
        } else if (L->nerr == 0) {
            lfatal(L, 0, 0, AT_NONE, "internal error: the document did not complete");
        }
    }
    loader_free(L);
    return root;
}

static void loader_init(loader *L, const char *name, const yload_limits *lim, cerr_list *errs) {
    memset(L, 0, sizeof *L);
    L->name = name;
    L->errs = errs;
    if (lim)
        L->lim = *lim;
    else
        yload_default_limits(&L->lim);
}

void yload_default_limits(yload_limits *l) {
    l->max_file_bytes = CAIRN_YAML_MAX_FILE_BYTES;
    l->max_depth = CAIRN_YAML_MAX_DEPTH;
    l->max_string = CAIRN_YAML_MAX_STRING;
    l->max_nodes = CAIRN_YAML_MAX_NODES;
}

static void too_big(loader *L, long long size) {
    size_t before = L->errs->n;
    char most[24], has[24];
    NUMBER_TEXT(most, "%ld", L->lim.max_file_bytes);
    if (size >= 0) {
        lerr(L, 0, 0, AT_NONE,
             "file larger than %ld bytes (limit CAIRN_YAML_MAX_FILE_BYTES): it has %lld bytes",
             L->lim.max_file_bytes, size);
        lkey(L, before, "yaml.too_big_has", most, NUMBER_TEXT(has, "%lld", size), NULL, NULL);
    } else {
        lerr(L, 0, 0, AT_NONE, "file larger than %ld bytes (limit CAIRN_YAML_MAX_FILE_BYTES)",
             L->lim.max_file_bytes);
        lkey(L, before, "yaml.too_big", most, NULL, NULL, NULL);
    }
}

/* Reads the whole file, refusing it before reading when it is not a
** regular file (a FIFO or device never blocks the open: safe_open.h) or
** fstat shows it is too big, and while reading when it grows. */
static char *read_file(loader *L, const char *path, size_t *len) {
    char why[128];
    int fd = safe_open_read(path, NULL, why, sizeof why);
    if (fd < 0) {
        int e = errno;
        size_t n = L->errs->n;
        lerr(L, 0, 0, AT_NONE, "cannot open: %s", why);
        cerr_key(L->errs, n, "file.open", e, NULL, NULL);
        return NULL;
    }
    struct stat sb;
    char *buf = NULL;
    size_t n = 0, cap;
    if (fstat(fd, &sb) != 0) {
        int e = errno;
        size_t n = L->errs->n;
        lerr(L, 0, 0, AT_NONE, "cannot stat: %s", strerror(e));
        cerr_key(L->errs, n, "file.read", e, NULL, NULL);
        goto fail;
    }
    if (S_ISDIR(sb.st_mode)) {
        size_t before = L->errs->n;
        lerr(L, 0, 0, AT_NONE, "is a directory, not a YAML file");
        lkey(L, before, "yaml.folder", NULL, NULL, NULL, NULL);
        goto fail;
    }
    if (S_ISREG(sb.st_mode) && sb.st_size > L->lim.max_file_bytes) {
        too_big(L, (long long)sb.st_size);
        goto fail;
    }
    cap = S_ISREG(sb.st_mode) ? (size_t)sb.st_size + 1 : 4096;
    if (!(buf = malloc(cap))) goto nomem;
    for (;;) {
        if (n == cap) {
            if (n > (size_t)L->lim.max_file_bytes) {
                too_big(L, -1);
                goto fail;
            }
            size_t ncap = cap * 2;
            if (ncap > (size_t)L->lim.max_file_bytes + 1) ncap = (size_t)L->lim.max_file_bytes + 1;
            if (ncap <= cap) ncap = cap + 1;
            char *nb = realloc(buf, ncap);
            if (!nb) goto nomem;
            buf = nb;
            cap = ncap;
        }
        ssize_t r = read(fd, buf + n, cap - n);
        if (r < 0) {
            if (errno == EINTR) continue;
            int e = errno;
            size_t n = L->errs->n;
            lerr(L, 0, 0, AT_NONE, "cannot read: %s", strerror(e));
            cerr_key(L->errs, n, "file.read", e, NULL, NULL);
            goto fail;
        }
        if (r == 0) break;
        n += (size_t)r;
    }
    if (n > (size_t)L->lim.max_file_bytes) {
        too_big(L, -1);
        goto fail;
    }
    close(fd);
    *len = n;
    return buf;
nomem:
    oom(L);
fail:
    free(buf);
    close(fd);
    return NULL;
}

value *yload_file_opts(const char *path, const yload_limits *lim, cerr_list *errs) {
    loader L;
    loader_init(&L, path, lim, errs);
    size_t len = 0;
    char *text = read_file(&L, path, &len);
    if (!text) return NULL;
    L.text = text;
    L.len = len;
    value *root = load(&L);
    free(text);
    return root;
}

value *yload_file(const char *path, cerr_list *errs) {
    yload_limits lim;
    yload_default_limits(&lim);
    return yload_file_opts(path, &lim, errs);
}

value *yload_string(const char *name, const char *text, size_t len, const yload_limits *lim,
                    cerr_list *errs) {
    loader L;
    loader_init(&L, name, lim, errs);
    if (len > (size_t)L.lim.max_file_bytes) {
        too_big(&L, (long long)len);
        return NULL;
    }
    L.text = text;
    L.len = len;
    return load(&L);
}
