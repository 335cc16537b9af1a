/*
** value.c
** The value tree: construction, lookup, copy, equality, hashing, YAML dump
** and the deep merge used by ruleset overlays.
*/
#include "value.h"
#include "grow.h"
#include "error.h"
#include "strbuf.h"
#include "termsafe.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- files */

cv_file *cv_file_new(const char *name) {
    size_t n = strlen(name) + 1;
    cv_file *f = malloc(sizeof *f + n);
    if (!f) return NULL;
    f->refs = 1;
    memcpy(f->name, name, n);
    return f;
}

cv_file *cv_file_ref(cv_file *f) {
    if (f) f->refs++;
    return f;
}

void cv_file_unref(cv_file *f) {
    if (f && --f->refs == 0) free(f);
}

/* --------------------------------------------------------- construction */

static value *new_value(cv_type t) {
    value *v = calloc(1, sizeof *v);
    if (v) v->type = t;
    return v;
}

value *value_null(void) { return new_value(CV_NULL); }

value *value_bool(int b) {
    value *v = new_value(CV_BOOL);
    if (v) v->u.b = b ? 1 : 0;
    return v;
}

value *value_int(int64_t i) {
    value *v = new_value(CV_INT);
    if (v) v->u.i = i;
    return v;
}

value *value_strn(const char *s, size_t len) {
    value *v = new_value(CV_STR);
    if (!v) return NULL;
    v->u.str.s = malloc(len + 1);
    if (!v->u.str.s) {
        free(v);
        return NULL;
    }
    if (len) memcpy(v->u.str.s, s, len);
    v->u.str.s[len] = '\0';
    v->u.str.len = len;
    return v;
}

value *value_str(const char *s) { return value_strn(s, strlen(s)); }
value *value_list(void) { return new_value(CV_LIST); }
value *value_map(void) { return new_value(CV_MAP); }

void value_set_loc(value *v, cv_file *file, int line, int col) {
    cv_file *old = v->file;
    v->file = cv_file_ref(file);
    cv_file_unref(old);
    v->line = line;
    v->col = col;
}

void value_free(value *v) {
    if (!v) return;
    switch (v->type) {
    case CV_STR: free(v->u.str.s); break;
    case CV_LIST:
        for (size_t i = 0; i < v->u.list.n; i++) value_free(v->u.list.items[i]);
        free(v->u.list.items);
        break;
    case CV_MAP:
        for (size_t i = 0; i < v->u.map.n; i++) {
            value_free(v->u.map.items[i].key);
            value_free(v->u.map.items[i].val);
        }
        free(v->u.map.items);
        break;
    default: break;
    }
    cv_file_unref(v->file);
    free(v);
}

value *value_clone(const value *v) {
    value *c = NULL;
    switch (v->type) {
    case CV_NULL: c = value_null(); break;
    case CV_BOOL: c = value_bool(v->u.b); break;
    case CV_INT: c = value_int(v->u.i); break;
    case CV_STR: c = value_strn(v->u.str.s, v->u.str.len); break;
    case CV_LIST:
        c = value_list();
        if (!c) return NULL;
        if (v->u.list.n && !(c->u.list.items = malloc(v->u.list.n * sizeof *c->u.list.items))) {
            free(c);
            return NULL;
        }
        c->u.list.cap = v->u.list.n; /* the copy's size known: no growing */
        for (size_t i = 0; i < v->u.list.n; i++) {
            value *item = value_clone(v->u.list.items[i]);
            if (!item || value_list_push(c, item) != 0) {
                value_free(c);
                return NULL;
            }
        }
        break;
    case CV_MAP:
        c = value_map();
        if (!c) return NULL;
        if (v->u.map.n && !(c->u.map.items = malloc(v->u.map.n * sizeof *c->u.map.items))) {
            free(c);
            return NULL;
        }
        c->u.map.cap = v->u.map.n;
        for (size_t i = 0; i < v->u.map.n; i++) {
            value *k = value_clone(v->u.map.items[i].key);
            value *val = k ? value_clone(v->u.map.items[i].val) : NULL;
            if (!val) {
                value_free(k);
                value_free(c);
                return NULL;
            }
            if (value_map_append(c, k, val) != 0) { /* a copy's keys are unique */
                value_free(c);
                return NULL;
            }
        }
        break;
    }
    if (c) value_set_loc(c, v->file, v->line, v->col);
    return c;
}

/* ---------------------------------------------------------------- lists */

int value_list_room(value *list) {
    return GROW(list->u.list.items, list->u.list.cap, list->u.list.n + 1);
}

int value_list_push(value *list, value *item) {
    if (!item || list->type != CV_LIST || value_list_room(list) != 0) {
        value_free(item);
        return -1;
    }
    list->u.list.items[list->u.list.n++] = item;
    return 0;
}

/* ----------------------------------------------------------------- maps */

cv_entry *value_map_entry(const value *m, const char *key) {
    if (!m || m->type != CV_MAP) return NULL;
    for (size_t i = 0; i < m->u.map.n; i++)
        if (strcmp(m->u.map.items[i].key->u.str.s, key) == 0) return &m->u.map.items[i];
    return NULL;
}

value *value_map_get(const value *m, const char *key) {
    cv_entry *e = value_map_entry(m, key);
    return e ? e->val : NULL;
}

/* A NULL key or val (a value_str that ran out of memory, passed straight
** in) is refused like a bad one: a map never holds a NULL. */
int value_map_append(value *m, value *key, value *val) {
    if (!key || !val || m->type != CV_MAP || key->type != CV_STR) {
        value_free(key);
        value_free(val);
        return -1;
    }
    if (GROW(m->u.map.items, m->u.map.cap, m->u.map.n + 1) != 0) {
        value_free(key);
        value_free(val);
        return -1;
    }
    m->u.map.items[m->u.map.n].key = key;
    m->u.map.items[m->u.map.n].val = val;
    m->u.map.n++;
    return 0;
}

int value_map_set_node(value *m, value *key, value *val) {
    if (!key || !val || m->type != CV_MAP || key->type != CV_STR) {
        value_free(key);
        value_free(val);
        return -1;
    }
    cv_entry *e = value_map_entry(m, key->u.str.s);
    if (e) {
        value_free(e->key);
        value_free(e->val);
        e->key = key;
        e->val = val;
        return 0;
    }
    return value_map_append(m, key, val);
}

int value_map_set(value *m, const char *key, value *val) {
    value *k = value_str(key);
    if (!k) {
        value_free(val);
        return -1;
    }
    return value_map_set_node(m, k, val);
}

int value_map_del(value *m, const char *key) {
    cv_entry *e = value_map_entry(m, key);
    if (!e) return 0;
    size_t i = (size_t)(e - m->u.map.items);
    value_free(e->key);
    value_free(e->val);
    memmove(&m->u.map.items[i], &m->u.map.items[i + 1],
            (m->u.map.n - i - 1) * sizeof(cv_entry));
    m->u.map.n--;
    return 1;
}

int64_t value_get_int(const value *m, const char *key, int64_t dflt) {
    value *v = value_map_get(m, key);
    return v && v->type == CV_INT ? v->u.i : dflt;
}

const char *value_get_str(const value *m, const char *key, const char *dflt) {
    value *v = value_map_get(m, key);
    return v && v->type == CV_STR ? v->u.str.s : dflt;
}

int value_get_bool(const value *m, const char *key, int dflt) {
    value *v = value_map_get(m, key);
    return v && v->type == CV_BOOL ? v->u.b : dflt;
}

/* ------------------------------------------------- equality and hashing */

int value_equal(const value *a, const value *b, int ordered) {
    if (a->type != b->type) return 0;
    switch (a->type) {
    case CV_NULL: return 1;
    case CV_BOOL: return a->u.b == b->u.b;
    case CV_INT: return a->u.i == b->u.i;
    case CV_STR:
        return a->u.str.len == b->u.str.len && memcmp(a->u.str.s, b->u.str.s, a->u.str.len) == 0;
    case CV_LIST:
        if (a->u.list.n != b->u.list.n) return 0;
        for (size_t i = 0; i < a->u.list.n; i++)
            if (!value_equal(a->u.list.items[i], b->u.list.items[i], ordered)) return 0;
        return 1;
    case CV_MAP:
        if (a->u.map.n != b->u.map.n) return 0;
        for (size_t i = 0; i < a->u.map.n; i++) {
            const cv_entry *ea = &a->u.map.items[i];
            const value *vb;
            if (ordered) {
                const cv_entry *eb = &b->u.map.items[i];
                if (strcmp(ea->key->u.str.s, eb->key->u.str.s) != 0) return 0;
                vb = eb->val;
            } else {
                vb = value_map_get(b, ea->key->u.str.s);
                if (!vb) return 0;
            }
            if (!value_equal(ea->val, vb, ordered)) return 0;
        }
        return 1;
    }
    return 0;
}

#define FNV_OFFSET 1469598103934665603ULL
#define FNV_PRIME 1099511628211ULL

static uint64_t fnv(uint64_t h, const void *p, size_t n) {
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++) {
        h ^= b[i];
        h *= FNV_PRIME;
    }
    return h;
}

static uint64_t fnv_u64(uint64_t h, uint64_t x) {
    unsigned char b[8];
    for (int i = 0; i < 8; i++) b[i] = (unsigned char)(x >> (8 * i));
    return fnv(h, b, 8);
}

static uint64_t hash_into(uint64_t h, const value *v) {
    unsigned char tag = (unsigned char)v->type;
    h = fnv(h, &tag, 1);
    switch (v->type) {
    case CV_NULL: break;
    case CV_BOOL: h = fnv_u64(h, (uint64_t)v->u.b); break;
    case CV_INT: h = fnv_u64(h, (uint64_t)v->u.i); break;
    case CV_STR:
        h = fnv_u64(h, v->u.str.len);
        h = fnv(h, v->u.str.s, v->u.str.len);
        break;
    case CV_LIST:
        h = fnv_u64(h, v->u.list.n);
        for (size_t i = 0; i < v->u.list.n; i++) h = hash_into(h, v->u.list.items[i]);
        break;
    case CV_MAP:
        h = fnv_u64(h, v->u.map.n);
        for (size_t i = 0; i < v->u.map.n; i++) {
            h = hash_into(h, v->u.map.items[i].key);
            h = hash_into(h, v->u.map.items[i].val);
        }
        break;
    }
    return h;
}

uint64_t value_hash(const value *v) { return hash_into(FNV_OFFSET, v); }

const char *value_type_name(cv_type t) {
    switch (t) {
    case CV_NULL: return "null";
    case CV_BOOL: return "boolean";
    case CV_INT: return "integer";
    case CV_STR: return "string";
    case CV_LIST: return "list";
    case CV_MAP: return "map";
    }
    return "?";
}

char *value_describe(const value *v) {
    switch (v->type) {
    case CV_NULL: return cairn_strdup("null");
    case CV_BOOL: return cairn_strfmt("boolean %s", v->u.b ? "true" : "false");
    case CV_INT: return cairn_strfmt("integer %" PRId64, v->u.i);
    case CV_STR: {
        /* messages go to terminals: control bytes are shown as \xNN, never sent */
        strbuf b = {0};
        strbuf_puts(&b, "string \"");
        size_t n = v->u.str.len > 40 ? 37 : v->u.str.len;
        for (size_t i = 0; i < n; i++) {
            unsigned char c = (unsigned char)v->u.str.s[i];
            if (c < 0x20 || c == 0x7f) strbuf_printf(&b, "\\x%02x", c);
            else strbuf_putc(&b, (char)c);
        }
        strbuf_puts(&b, v->u.str.len > 40 ? "...\"" : "\"");
        return strbuf_take(&b);
    }
    case CV_LIST:
        return cairn_strfmt("a list of %zu item%s", v->u.list.n, v->u.list.n == 1 ? "" : "s");
    case CV_MAP:
        return cairn_strfmt("a map of %zu key%s", v->u.map.n, v->u.map.n == 1 ? "" : "s");
    }
    return cairn_strdup("?");
}

/* ------------------------------------------------------------- dumping */

/* A string may be written plain only if YAML would read it back as the
** same string: not empty, no leading/trailing space, no indicator at the
** start, no ": " or " #", and not something the core schema resolves to
** null, a boolean or a number. */
/* The Unicode line breaks YAML folds (NEL, LS, PS) and the byte-order mark
** that a reader drops: length of the one at s, else 0. Written as escapes. */
static size_t yaml_special_char(const unsigned char *s, size_t left) {
    if (left >= 2 && s[0] == 0xc2 && s[1] == 0x85) return 2;                   /* U+0085 */
    if (left >= 3 && s[0] == 0xe2 && s[1] == 0x80 && (s[2] == 0xa8 || s[2] == 0xa9))
        return 3;                                                              /* U+2028/9 */
    if (left >= 3 && s[0] == 0xef && s[1] == 0xbb && s[2] == 0xbf) return 3;  /* U+FEFF */
    return 0;
}

/* Length of a C1 control, bidi control or other hidden format character
** at s (termsafe.h), else 0: a save or scenario writes it as an escape, so
** the file shows no raw OSC, override or isolate to whoever views it. */
static size_t hidden_at(const char *s, size_t left) {
    unsigned long cp;
    int k = termsafe_utf8(s, left, &cp);
    return k > 1 && termsafe_cp_hidden(cp) ? (size_t)k : 0;
}

static int needs_quotes(const char *s, size_t len) {
    if (len == 0) return 1;
    if (strcmp(s, "<<") == 0) return 1; /* a plain << is a merge key */
    if (strlen(s) != len) return 1;
    if (s[0] == ' ' || s[len - 1] == ' ') return 1;
    if (strchr("-?:,[]{}#&*!|>'\"%@`~", s[0])) return 1;
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c < 0x20 || c == 0x7f) return 1;
        if (c == ':' && (i + 1 == len || s[i + 1] == ' ')) return 1;
        if (c == '#' && i > 0 && s[i - 1] == ' ') return 1;
        if (c >= 0xc2 && yaml_special_char((const unsigned char *)s + i, len - i)) return 1;
        if (c >= 0xc2 && hidden_at(s + i, len - i)) return 1;
    }
    /* YAML 1.2's core schema and YAML 1.1's (PyYAML, SnakeYAML, libyaml
    ** users, old Go and Ruby readers): its booleans in each of their three
    ** spellings, its null, and "=", the value key that PyYAML refuses */
    static const char *const reserved[] = {
        "null", "Null", "NULL", "true", "True", "TRUE", "false", "False", "FALSE",
        "yes", "Yes", "YES", "no", "No", "NO", "on", "On", "ON", "off", "Off", "OFF",
        "y", "Y", "n", "N", "=", NULL};
    for (int i = 0; reserved[i]; i++)
        if (strcmp(s, reserved[i]) == 0) return 1;
    /* anything starting like a number (digit, sign, dot) stays quoted */
    if ((s[0] >= '0' && s[0] <= '9') || s[0] == '+' || s[0] == '.') return 1;
    return 0;
}

static void dump_string(strbuf *b, const char *s, size_t len) {
    if (!needs_quotes(s, len)) {
        strbuf_putn(b, s, len);
        return;
    }
    strbuf_putc(b, '"');
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        switch (c) {
        case '"': strbuf_puts(b, "\\\""); break;
        case '\\': strbuf_puts(b, "\\\\"); break;
        case '\n': strbuf_puts(b, "\\n"); break;
        case '\t': strbuf_puts(b, "\\t"); break;
        case '\r': strbuf_puts(b, "\\r"); break;
        default: {
            size_t special = c >= 0xc2 ? yaml_special_char((const unsigned char *)s + i, len - i) : 0;
            if (special) {
                /* \N \L \P \uFEFF: the double-quoted escapes YAML reads back as is */
                unsigned char last = (unsigned char)s[i + special - 1];
                strbuf_puts(b, special == 2 ? "\\N" : last == 0xa8 ? "\\L" : last == 0xa9 ? "\\P" : "\\uFEFF");
                i += special - 1;
            } else if (c < 0x20 || c == 0x7f) {
                strbuf_printf(b, "\\x%02x", c);
            } else if (c >= 0xc2 && hidden_at(s + i, len - i)) {
                unsigned long cp; /* C1, U+202E ...: \u escapes YAML reads back as is */
                size_t k = (size_t)termsafe_utf8(s + i, len - i, &cp);
                strbuf_printf(b, "\\u%04lX", cp);
                i += k - 1;
            } else {
                strbuf_putc(b, s[i]);
            }
        }
        }
    }
    strbuf_putc(b, '"');
}

static int is_scalar_or_empty(const value *v) {
    return (v->type != CV_LIST && v->type != CV_MAP) || value_len(v) == 0;
}

static void dump_scalar(strbuf *b, const value *v) {
    switch (v->type) {
    case CV_NULL: strbuf_puts(b, "null"); break;
    case CV_BOOL: strbuf_puts(b, v->u.b ? "true" : "false"); break;
    case CV_INT: strbuf_printf(b, "%" PRId64, v->u.i); break;
    case CV_STR: dump_string(b, v->u.str.s, v->u.str.len); break;
    case CV_LIST: strbuf_puts(b, "[]"); break;
    case CV_MAP: strbuf_puts(b, "{}"); break;
    }
}

/* Writes v whose first line is already positioned (after "key:" or "- ").
** indent is the column of nested block content. */
static void dump_node(strbuf *b, const value *v, int indent, int inline_first);

static void dump_map_body(strbuf *b, const value *v, int indent, int first_inline) {
    for (size_t i = 0; i < v->u.map.n; i++) {
        const cv_entry *e = &v->u.map.items[i];
        if (i > 0 || !first_inline) strbuf_repeat(b, ' ', indent);
        /* YAML allows an implicit key of at most 1024 characters: a longer
        ** one is written as an explicit `? key` line, then `:` */
        size_t key_at = b->n;
        dump_string(b, e->key->u.str.s, e->key->u.str.len);
        if (b->n - key_at > 1000 && !b->oom) {
            strbuf keyb = {0};
            strbuf_putn(&keyb, b->s + key_at, b->n - key_at);
            strbuf_cut(b, key_at);
            strbuf_puts(b, "? ");
            strbuf_putn(b, keyb.s ? keyb.s : "", keyb.n);
            if (keyb.oom) b->oom = 1;
            strbuf_free(&keyb);
            strbuf_putc(b, '\n');
            strbuf_repeat(b, ' ', indent);
        }
        strbuf_putc(b, ':');
        if (is_scalar_or_empty(e->val)) {
            strbuf_putc(b, ' ');
            dump_scalar(b, e->val);
            strbuf_putc(b, '\n');
        } else {
            strbuf_putc(b, '\n');
            dump_node(b, e->val, e->val->type == CV_LIST ? indent : indent + 2, 0);
        }
    }
}

static void dump_list_body(strbuf *b, const value *v, int indent, int first_inline) {
    for (size_t i = 0; i < v->u.list.n; i++) {
        const value *item = v->u.list.items[i];
        if (i > 0 || !first_inline) strbuf_repeat(b, ' ', indent);
        strbuf_puts(b, "- ");
        if (is_scalar_or_empty(item)) {
            dump_scalar(b, item);
            strbuf_putc(b, '\n');
        } else {
            dump_node(b, item, indent + 2, 1);
        }
    }
}

static void dump_node(strbuf *b, const value *v, int indent, int inline_first) {
    if (v->type == CV_MAP && v->u.map.n)
        dump_map_body(b, v, indent, inline_first);
    else if (v->type == CV_LIST && v->u.list.n)
        dump_list_body(b, v, indent, inline_first);
    else {
        if (!inline_first) strbuf_repeat(b, ' ', indent);
        dump_scalar(b, v);
        strbuf_putc(b, '\n');
    }
}

char *value_to_yaml(const value *v) {
    strbuf b = {0};
    dump_node(&b, v, 0, 0);
    return strbuf_take(&b);
}

int value_dump_yaml(FILE *out, const value *v) {
    char *s = value_to_yaml(v);
    if (!s) return -1;
    int rc = fputs(s, out) < 0 ? -1 : 0;
    free(s);
    return rc;
}

/* ---------------------------------------------------------------- merge */

/* `{append: [...]}` in an overlay asks to extend a list, not replace it. */
static const value *append_items(const value *overlay) {
    if (overlay->type != CV_MAP || overlay->u.map.n != 1) return NULL;
    const value *a = value_map_get(overlay, "append");
    return a && a->type == CV_LIST ? a : NULL;
}

int value_merge(value *base, const value *overlay) {
    if (base->type != CV_MAP || overlay->type != CV_MAP) return -1;
    for (size_t i = 0; i < overlay->u.map.n; i++) {
        const cv_entry *e = &overlay->u.map.items[i];
        value *cur = value_map_get(base, e->key->u.str.s);
        const value *app = append_items(e->val);
        if (cur && cur->type == CV_LIST && app) {
            for (size_t j = 0; j < app->u.list.n; j++) {
                value *c = value_clone(app->u.list.items[j]);
                if (!c || value_list_push(cur, c) != 0) return -1;
            }
        } else if (cur && cur->type == CV_MAP && e->val->type == CV_MAP && !app) {
            if (value_merge(cur, e->val) != 0) return -1;
        } else {
            value *k = value_clone(e->key);
            value *c = k ? value_clone(app ? app : e->val) : NULL;
            if (!c) {
                value_free(k);
                return -1;
            }
            if (value_map_set_node(base, k, c) != 0) return -1;
        }
    }
    return 0;
}
