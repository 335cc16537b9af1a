/*
** pattern.c
** ECMA-262 regular expressions (u flag, no other flags) for JSON Schema's
** `pattern`: a parser that accepts exactly the subset docs/schemas.md lists
** and names whatever else it meets, a compiler to a small instruction list,
** and a Pike VM that searches UTF-8 text by code point in linear time.
** Only "is there a match" is asked, so greedy and lazy quantifiers, and
** capturing and non-capturing groups, are the same thing here.
*/
#include "pattern.h"
#include "grow.h"
#include "limits.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NONE 0xFFFFFFFFu   /* "no character": before the start, past the end */
#define MAX_CP 0x10FFFFu
#define REP_INF 0xFFFFFFFFu
#define COUNT_CAP 100000u  /* counts are clamped here while parsing; the program cap refuses them */

/* ------------------------------------------------------------- code points */

typedef struct range {
    uint32_t lo, hi;
} range;

/* A set of code points: sorted, non-overlapping ranges once normalised. */
typedef struct cpset {
    range *r;
    size_t n, cap;
} cpset;

static int set_add(cpset *s, uint32_t lo, uint32_t hi) {
    if (GROW(s->r, s->cap, s->n + 1) != 0) return -1;
    s->r[s->n++] = (range){lo, hi};
    return 0;
}

static int range_cmp(const void *a, const void *b) {
    const range *x = a, *y = b;
    return x->lo < y->lo ? -1 : x->lo > y->lo;
}

static void set_normalise(cpset *s) {
    if (!s->n) return;
    qsort(s->r, s->n, sizeof *s->r, range_cmp);
    size_t w = 0;
    for (size_t i = 1; i < s->n; i++) {
        if (s->r[i].lo <= s->r[w].hi + 1) {
            if (s->r[i].hi > s->r[w].hi) s->r[w].hi = s->r[i].hi;
        } else {
            s->r[++w] = s->r[i];
        }
    }
    s->n = w + 1;
}

static int set_has(const cpset *s, uint32_t c) {
    size_t lo = 0, hi = s->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (c < s->r[mid].lo) hi = mid;
        else if (c > s->r[mid].hi) lo = mid + 1;
        else return 1;
    }
    return 0;
}

/* The class escapes, as ECMA-262 defines them without the i flag: \d and \w
** are ASCII; \s is WhiteSpace plus LineTerminator (Unicode Zs included). */
static const range digit_ranges[] = {{0x30, 0x39}};
static const range word_ranges[] = {{0x30, 0x39}, {0x41, 0x5A}, {0x5F, 0x5F}, {0x61, 0x7A}};
static const range space_ranges[] = {{0x09, 0x0D}, {0x20, 0x20},     {0xA0, 0xA0},
                                     {0x1680, 0x1680}, {0x2000, 0x200A}, {0x2028, 0x2029},
                                     {0x202F, 0x202F}, {0x205F, 0x205F}, {0x3000, 0x3000},
                                     {0xFEFF, 0xFEFF}};

typedef struct builtin {
    const range *r;
    size_t n;
} builtin;

static builtin class_escape(char letter) {
    switch (letter) {
    case 'd': case 'D': return (builtin){digit_ranges, 1};
    case 'w': case 'W': return (builtin){word_ranges, 4};
    default: return (builtin){space_ranges, sizeof space_ranges / sizeof space_ranges[0]};
    }
}

/* Adds the ranges of b (sorted), or everything outside them. */
static int set_add_builtin(cpset *s, builtin b, int complement) {
    if (!complement) {
        for (size_t i = 0; i < b.n; i++)
            if (set_add(s, b.r[i].lo, b.r[i].hi) != 0) return -1;
        return 0;
    }
    uint32_t next = 0;
    for (size_t i = 0; i < b.n; i++) {
        if (b.r[i].lo > next && set_add(s, next, b.r[i].lo - 1) != 0) return -1;
        next = b.r[i].hi + 1;
    }
    return next <= MAX_CP ? set_add(s, next, MAX_CP) : 0;
}

static int is_word(uint32_t c) {
    return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') || c == '_' || (c >= 'a' && c <= 'z');
}

static int is_line_terminator(uint32_t c) { return c == 0x0A || c == 0x0D || c == 0x2028 || c == 0x2029; }

/* Decodes one UTF-8 sequence at s[*i] (strictly: no overlong forms, no
** surrogates, nothing past U+10FFFF). Returns the code point, or NONE for
** an invalid byte; *i moves past what was read (one byte when invalid). */
static uint32_t utf8_next(const unsigned char *s, size_t len, size_t *i) {
    unsigned char b = s[*i];
    if (b < 0x80) {
        (*i)++;
        return b;
    }
    size_t need = b >= 0xF0 ? (b <= 0xF4 ? 3 : 0) : b >= 0xE0 ? 2 : b >= 0xC2 ? 1 : 0;
    if (!need || len - *i <= need) {
        (*i)++;
        return NONE;
    }
    uint32_t c = b & (need == 1 ? 0x1F : need == 2 ? 0x0F : 0x07);
    for (size_t k = 1; k <= need; k++) {
        unsigned char cb = s[*i + k];
        if ((cb & 0xC0) != 0x80) {
            (*i)++;
            return NONE;
        }
        c = (c << 6) | (cb & 0x3F);
    }
    if ((need == 2 && (c < 0x800 || (c >= 0xD800 && c <= 0xDFFF))) ||
        (need == 3 && (c < 0x10000 || c > MAX_CP))) {
        (*i)++;
        return NONE;
    }
    *i += need + 1;
    return c;
}

/* ------------------------------------------------------------ syntax tree */

typedef enum {
    N_CHAR,   /* one code point */
    N_ANY,    /* . : anything but a line terminator */
    N_SET,    /* a class; neg: its complement */
    N_BOL,    /* ^ */
    N_EOL,    /* $ */
    N_WORDB,  /* \b */
    N_NWORDB, /* \B */
    N_CAT,    /* kids in order (none: the empty pattern) */
    N_ALT,    /* one of kids */
    N_REP     /* kids[0] repeated min..max times */
} ntype;

typedef struct node {
    ntype t;
    int neg;
    uint32_t c;   /* N_CHAR */
    size_t set;   /* N_SET: index in pattern.sets */
    uint32_t min, max;
    struct node **kids;
    size_t nk, capk;
} node;

static void node_free(node *n) {
    if (!n) return;
    for (size_t i = 0; i < n->nk; i++) node_free(n->kids[i]);
    free(n->kids);
    free(n);
}

static node *node_new(ntype t) {
    node *n = calloc(1, sizeof *n);
    if (n) n->t = t;
    return n;
}

/* Appends kid to n (n takes it; on failure it is freed). 0 or -1. */
static int node_push(node *n, node *kid) {
    if (GROW(n->kids, n->capk, n->nk + 1) != 0) {
        node_free(kid);
        return -1;
    }
    n->kids[n->nk++] = kid;
    return 0;
}

/* ----------------------------------------------------------------- program */

typedef enum { OP_CHAR, OP_ANY, OP_SET, OP_BOL, OP_EOL, OP_WORDB, OP_NWORDB, OP_SPLIT, OP_JMP, OP_MATCH } opcode;

typedef struct inst {
    opcode op;
    int neg;     /* OP_SET */
    uint32_t c;  /* OP_CHAR */
    size_t x, y; /* OP_SET: x is the set; OP_JMP: x; OP_SPLIT: x and y */
} inst;

struct pattern {
    inst *prog;
    size_t n;
    cpset *sets;
    size_t nsets, capsets;
};

void pattern_free(pattern *re) {
    if (!re) return;
    for (size_t i = 0; i < re->nsets; i++) free(re->sets[i].r);
    free(re->sets);
    free(re->prog);
    free(re);
}

/* A new empty set in re; its index, or SIZE_MAX on OOM. */
static size_t new_set(pattern *re) {
    if (GROW(re->sets, re->capsets, re->nsets + 1) != 0) return SIZE_MAX;
    re->sets[re->nsets] = (cpset){0};
    return re->nsets++;
}

/* ------------------------------------------------------------------ parser */

typedef struct parser {
    const unsigned char *src;
    size_t len, i;  /* i: the next byte */
    pattern *re;
    char *why;
    size_t whylen;
    int failed;
    int depth;
} parser;

/* The 1-based character number of byte offset at, for messages. */
static size_t char_no(const parser *ps, size_t at) {
    size_t n = 1;
    for (size_t i = 0; i < at && i < ps->len; i++)
        if ((ps->src[i] & 0xC0) != 0x80) n++;
    return n;
}

/* Records the first failure: fmt names the construct, then " at character N". */
#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
static void fail(parser *ps, size_t at, const char *fmt, ...) {
    if (ps->failed) return;
    ps->failed = 1;
    char msg[200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    snprintf(ps->why, ps->whylen, "%s (at character %zu)", msg, char_no(ps, at));
}

static void fail_oom(parser *ps) {
    if (ps->failed) return;
    ps->failed = 1;
    snprintf(ps->why, ps->whylen, "out of memory");
}

static int at_end(const parser *ps) { return ps->i >= ps->len; }
static int peek(const parser *ps) { return at_end(ps) ? -1 : ps->src[ps->i]; }
static int peek2(const parser *ps) { return ps->i + 1 >= ps->len ? -1 : ps->src[ps->i + 1]; }

static int hexval(int ch) {
    if (ch >= '0' && ch <= '9') return ch - '0';
    if (ch >= 'a' && ch <= 'f') return ch - 'a' + 10;
    if (ch >= 'A' && ch <= 'F') return ch - 'A' + 10;
    return -1;
}

static int is_syntax_char(int ch) { return ch != -1 && ch != 0 && strchr("^$\\.*+?()[]{}|/", ch) != NULL; }

/* Reads exactly n hex digits; the value, or -1. */
static long hex_digits(parser *ps, int n) {
    long v = 0;
    for (int k = 0; k < n; k++) {
        int h = hexval(peek(ps));
        if (h < 0) return -1;
        v = v * 16 + h;
        ps->i++;
    }
    return v;
}

/* The rest of a \u escape (after "\u"): \uHHHH, a surrogate pair written as
** two of them, or \u{H...}. NONE after a failure. */
static uint32_t unicode_escape(parser *ps, size_t at) {
    if (peek(ps) == '{') {
        ps->i++;
        uint32_t v = 0;
        int digits = 0;
        while (hexval(peek(ps)) >= 0) {
            v = v * 16 + (uint32_t)hexval(peek(ps));
            if (v > MAX_CP) {
                fail(ps, at, "\\u{...} past U+10FFFF is not a character");
                return NONE;
            }
            digits++;
            ps->i++;
        }
        if (!digits || peek(ps) != '}') {
            fail(ps, at, "\\u{ must be followed by hex digits and }");
            return NONE;
        }
        ps->i++;
        if (v >= 0xD800 && v <= 0xDFFF) {
            fail(ps, at, "\\u{%X} is a lone surrogate, which no UTF-8 string holds", v);
            return NONE;
        }
        return v;
    }
    long v = hex_digits(ps, 4);
    if (v < 0) {
        fail(ps, at, "\\u must be followed by four hex digits or {hex digits}");
        return NONE;
    }
    if (v >= 0xD800 && v <= 0xDBFF && peek(ps) == '\\' && peek2(ps) == 'u') {
        size_t save = ps->i;
        ps->i += 2;
        long lo = hex_digits(ps, 4);
        if (lo >= 0xDC00 && lo <= 0xDFFF) return 0x10000 + (((uint32_t)v - 0xD800) << 10) + ((uint32_t)lo - 0xDC00);
        ps->i = save;
    }
    if (v >= 0xD800 && v <= 0xDFFF) {
        fail(ps, at, "\\u%04lX is a lone surrogate, which no UTF-8 string holds; write \\u{...} "
                     "for characters past U+FFFF", v);
        return NONE;
    }
    return (uint32_t)v;
}

/* What an escape stands for. */
typedef enum { E_CHAR, E_CLASS, E_WORDB, E_NWORDB } ekind;

typedef struct esc {
    ekind k;
    uint32_t c;  /* E_CHAR */
    char letter; /* E_CLASS: d D w W s S */
} esc;

/* Reads the escape after a backslash (ps->i is past it; at is the backslash).
** in_class: inside [...], where \b is a backspace and \- a dash. */
static esc read_escape(parser *ps, size_t at, int in_class) {
    esc e = {E_CHAR, 0, 0};
    if (at_end(ps)) {
        fail(ps, at, "a pattern cannot end with a lone backslash");
        return e;
    }
    int ch = ps->src[ps->i++];
    switch (ch) {
    case 'd': case 'D': case 'w': case 'W': case 's': case 'S':
        e.k = E_CLASS;
        e.letter = (char)ch;
        return e;
    case 'b':
        if (in_class) e.c = 0x08;
        else e.k = E_WORDB;
        return e;
    case 'B':
        if (in_class) fail(ps, at, "\\B inside [...] is not an escape");
        e.k = E_NWORDB;
        return e;
    case 't': e.c = 0x09; return e;
    case 'n': e.c = 0x0A; return e;
    case 'v': e.c = 0x0B; return e;
    case 'f': e.c = 0x0C; return e;
    case 'r': e.c = 0x0D; return e;
    case 'c': {
        int l = peek(ps);
        if (!((l >= 'a' && l <= 'z') || (l >= 'A' && l <= 'Z'))) {
            fail(ps, at, "\\c must be followed by a letter (\\cA to \\cZ)");
            return e;
        }
        ps->i++;
        e.c = (uint32_t)(l % 32);
        return e;
    }
    case '0':
        if (peek(ps) >= '0' && peek(ps) <= '9') {
            fail(ps, at, "octal escape \\0%c is not supported; write \\xHH", peek(ps));
            return e;
        }
        e.c = 0;
        return e;
    case 'x': {
        long v = hex_digits(ps, 2);
        if (v < 0) fail(ps, at, "\\x must be followed by two hex digits");
        e.c = v < 0 ? 0 : (uint32_t)v;
        return e;
    }
    case 'u': e.c = unicode_escape(ps, at); return e;
    case 'p': case 'P':
        fail(ps, at, "Unicode property escape \\%c{...} is not supported", ch);
        return e;
    case 'k':
        fail(ps, at, "named back-reference \\k<...> is not supported");
        return e;
    case '-':
        if (!in_class) fail(ps, at, "\\- is only an escape inside [...]; write - outside");
        e.c = '-';
        return e;
    default: break;
    }
    if (ch >= '1' && ch <= '9') {
        fail(ps, at, "back-reference \\%c is not supported", ch);
        return e;
    }
    if (is_syntax_char(ch)) {
        e.c = (uint32_t)ch;
        return e;
    }
    if (ch >= 0x20 && ch < 0x7F)
        fail(ps, at,
             "\\%c is not an escape in ECMA-262 (only \\ before one of ^$\\.*+?()[]{}|/ and, "
             "inside [...], -); write %c",
             ch, ch);
    else
        fail(ps, at, "a backslash before this character is not an escape in ECMA-262");
    return e;
}

/* The next pattern character (UTF-8 decoded). */
static uint32_t read_char(parser *ps) {
    size_t at = ps->i;
    uint32_t c = utf8_next(ps->src, ps->len, &ps->i);
    if (c == NONE) fail(ps, at, "the pattern is not valid UTF-8");
    return c;
}

/* One class atom: a character (*c) or a class escape (*letter != 0). */
static void class_atom(parser *ps, uint32_t *c, char *letter) {
    *letter = 0;
    size_t at = ps->i;
    if (peek(ps) == '\\') {
        ps->i++;
        esc e = read_escape(ps, at, 1);
        if (e.k == E_CLASS) *letter = e.letter;
        else *c = e.c;
        return;
    }
    if (peek(ps) == '[' && (peek2(ps) == ':' || peek2(ps) == '.' || peek2(ps) == '=')) {
        int k = peek2(ps);
        fail(ps, at,
             "POSIX bracket expression %s is not ECMA-262 (there it is the characters "
             "themselves); write \\s, \\d, \\w or list the characters",
             k == ':' ? "[:name:]" : k == '=' ? "[=x=]" : "[.x.]");
        return;
    }
    *c = read_char(ps);
}

/* [...] after the '['; at is the '['. */
static node *parse_class(parser *ps, size_t at) {
    node *n = node_new(N_SET);
    size_t si = n ? new_set(ps->re) : SIZE_MAX;
    if (!n || si == SIZE_MAX) {
        node_free(n);
        fail_oom(ps);
        return NULL;
    }
    n->set = si;
    if (peek(ps) == '^') {
        n->neg = 1;
        ps->i++;
    }
    while (!ps->failed) {
        if (at_end(ps)) {
            fail(ps, at, "[ without its closing ]");
            break;
        }
        if (peek(ps) == ']') {
            ps->i++;
            break;
        }
        size_t a_at = ps->i;
        uint32_t lo = 0, hi;
        char la, lb;
        class_atom(ps, &lo, &la);
        if (ps->failed) break;
        cpset *set = &ps->re->sets[si];
        if (peek(ps) == '-' && peek2(ps) != ']' && peek2(ps) != -1) {
            ps->i++;
            class_atom(ps, &hi, &lb);
            if (ps->failed) break;
            if (la || lb) {
                fail(ps, a_at, "a class escape (\\%c) cannot be the end of a range", la ? la : lb);
                break;
            }
            if (lo > hi) {
                fail(ps, a_at, "range out of order (U+%04X to U+%04X)", lo, hi);
                break;
            }
            if (set_add(set, lo, hi) != 0) fail_oom(ps);
        } else if (la) {
            if (set_add_builtin(set, class_escape(la), la >= 'A' && la <= 'Z') != 0) fail_oom(ps);
        } else if (set_add(set, lo, lo) != 0) {
            fail_oom(ps);
        }
    }
    if (ps->failed) {
        node_free(n);
        return NULL;
    }
    set_normalise(&ps->re->sets[si]);
    return n;
}

static node *parse_alt(parser *ps);

/* A decimal count, clamped at COUNT_CAP; -1 if there are no digits. */
static long read_count(parser *ps) {
    if (!(peek(ps) >= '0' && peek(ps) <= '9')) return -1;
    long v = 0;
    while (peek(ps) >= '0' && peek(ps) <= '9') {
        v = v * 10 + (peek(ps) - '0');
        if (v > (long)COUNT_CAP) v = COUNT_CAP;
        ps->i++;
    }
    return v;
}

/* A quantifier at ps->i, if any: fills min/max and returns 1; 0 if none;
** fails on a '{' that does not make one. */
static int parse_quantifier(parser *ps, uint32_t *min, uint32_t *max) {
    int ch = peek(ps);
    size_t at = ps->i;
    if (ch == '*' || ch == '+' || ch == '?') {
        ps->i++;
        *min = ch == '+' ? 1 : 0;
        *max = ch == '?' ? 1 : REP_INF;
    } else if (ch == '{') {
        ps->i++;
        long a = read_count(ps), b;
        if (a < 0) {
            fail(ps, at, "{ that does not start a count {n}, {n,} or {n,m}; write \\{ for the character");
            return 0;
        }
        b = a;
        if (peek(ps) == ',') {
            ps->i++;
            b = read_count(ps);
            if (b < 0) b = (long)REP_INF;
        }
        if (peek(ps) != '}') {
            fail(ps, at, "{ that does not start a count {n}, {n,} or {n,m}; write \\{ for the character");
            return 0;
        }
        ps->i++;
        if (b != (long)REP_INF && b < a) {
            fail(ps, at, "count {%ld,%ld} has its numbers out of order", a, b);
            return 0;
        }
        *min = (uint32_t)a;
        *max = b == (long)REP_INF ? REP_INF : (uint32_t)b;
    } else {
        return 0;
    }
    if (peek(ps) == '?') ps->i++; /* lazy: the same verdict */
    return 1;
}

/* A new node of type t with kid as its first child. Takes kid; NULL after
** recording the failure (kid is freed then). */
static node *node_wrap(parser *ps, ntype t, node *kid) {
    node *n = node_new(t);
    if (!n || node_push(n, kid) != 0) {
        if (!n) node_free(kid);
        node_free(n);
        fail_oom(ps);
        return NULL;
    }
    return n;
}

/* Wraps atom in the quantifier that follows it, if any. Takes atom. */
static node *quantify(parser *ps, node *atom, int quantifiable) {
    size_t at = ps->i;
    uint32_t min, max;
    if (!parse_quantifier(ps, &min, &max)) {
        if (ps->failed) {
            node_free(atom);
            return NULL;
        }
        return atom;
    }
    if (!quantifiable) {
        node_free(atom);
        fail(ps, at, "an assertion (^, $, \\b, \\B) cannot be repeated");
        return NULL;
    }
    if (peek(ps) == '*' || peek(ps) == '+' || peek(ps) == '?' || peek(ps) == '{') {
        node_free(atom);
        fail(ps, ps->i, "a quantifier cannot follow another (no possessive *+ or ++)");
        return NULL;
    }
    node *r = node_wrap(ps, N_REP, atom);
    if (!r) return NULL;
    r->min = min;
    r->max = max;
    return r;
}

static node *parse_class_term(parser *ps, size_t at) {
    node *n = parse_class(ps, at);
    return n ? quantify(ps, n, 1) : NULL;
}

/* One term (an assertion, or an atom and its quantifier), or NULL at the
** end of an alternative (| or ) or the end) or after a failure. *done is
** set when there is no term. */
static node *parse_term(parser *ps, int *done) {
    *done = 0;
    int ch = peek(ps);
    size_t at = ps->i;
    if (ch == -1 || ch == '|' || ch == ')') {
        *done = 1;
        return NULL;
    }
    node *atom = NULL;
    int quantifiable = 1;
    switch (ch) {
    case '^': ps->i++; atom = node_new(N_BOL); quantifiable = 0; break;
    case '$': ps->i++; atom = node_new(N_EOL); quantifiable = 0; break;
    case '.': ps->i++; atom = node_new(N_ANY); break;
    case '[': ps->i++; return parse_class_term(ps, at);
    case '(': {
        ps->i++;
        if (peek(ps) == '?') {
            int k = peek2(ps);
            if (k == ':') {
                ps->i += 2;
            } else if (k == '=' || k == '!') {
                fail(ps, at, "lookahead (?%c...) is not supported", k);
                return NULL;
            } else if (k == '<' && ps->i + 2 < ps->len &&
                       (ps->src[ps->i + 2] == '=' || ps->src[ps->i + 2] == '!')) {
                fail(ps, at, "lookbehind (?<%c...) is not supported", ps->src[ps->i + 2]);
                return NULL;
            } else if (k == '<') {
                fail(ps, at, "named group (?<name>...) is not supported; write (...)");
                return NULL;
            } else {
                fail(ps, at, "(? that is not (?:...) is not supported (no modifiers, no lookaround)");
                return NULL;
            }
        }
        if (++ps->depth > CAIRN_PATTERN_MAX_DEPTH) {
            fail(ps, at, "groups nested more than %d deep (limit CAIRN_PATTERN_MAX_DEPTH)",
                 CAIRN_PATTERN_MAX_DEPTH);
            return NULL;
        }
        atom = parse_alt(ps);
        ps->depth--;
        if (!atom) return NULL;
        if (peek(ps) != ')') {
            node_free(atom);
            fail(ps, at, "( without its closing )");
            return NULL;
        }
        ps->i++;
        break;
    }
    case '*': case '+': case '?':
        fail(ps, at, "%c with nothing to repeat before it; write \\%c for the character", ch, ch);
        return NULL;
    case '{':
        fail(ps, at, "{ with nothing to repeat before it; write \\{ for the character");
        return NULL;
    case '}':
        fail(ps, at, "lone }; write \\} for the character");
        return NULL;
    case ']':
        fail(ps, at, "lone ]; write \\] for the character");
        return NULL;
    case '\\': {
        ps->i++;
        esc e = read_escape(ps, at, 0);
        if (ps->failed) return NULL;
        if (e.k == E_WORDB || e.k == E_NWORDB) {
            atom = node_new(e.k == E_WORDB ? N_WORDB : N_NWORDB);
            quantifiable = 0;
        } else if (e.k == E_CLASS) {
            atom = node_new(N_SET);
            size_t si = atom ? new_set(ps->re) : SIZE_MAX;
            if (si == SIZE_MAX || set_add_builtin(&ps->re->sets[si], class_escape(e.letter), 0) != 0) {
                node_free(atom);
                fail_oom(ps);
                return NULL;
            }
            atom->set = si;
            atom->neg = e.letter >= 'A' && e.letter <= 'Z';
        } else {
            atom = node_new(N_CHAR);
            if (atom) atom->c = e.c;
        }
        break;
    }
    default: {
        uint32_t c = read_char(ps);
        if (ps->failed) return NULL;
        atom = node_new(N_CHAR);
        if (atom) atom->c = c;
        break;
    }
    }
    if (!atom) {
        fail_oom(ps);
        return NULL;
    }
    return quantify(ps, atom, quantifiable);
}

/* An alternative: terms in order. */
static node *parse_cat(parser *ps) {
    node *cat = node_new(N_CAT);
    if (!cat) {
        fail_oom(ps);
        return NULL;
    }
    for (;;) {
        int done;
        node *t = parse_term(ps, &done);
        if (done) return cat;
        if (!t || node_push(cat, t) != 0) {
            if (t) fail_oom(ps);
            node_free(cat);
            return NULL;
        }
    }
}

/* Alternatives separated by |, up to ) or the end. */
static node *parse_alt(parser *ps) {
    node *first = parse_cat(ps);
    if (!first || peek(ps) != '|') return first;
    node *alt = node_wrap(ps, N_ALT, first);
    if (!alt) return NULL;
    while (peek(ps) == '|') {
        ps->i++;
        node *next = parse_cat(ps);
        if (!next || node_push(alt, next) != 0) {
            if (next) fail_oom(ps);
            node_free(alt);
            return NULL;
        }
    }
    return alt;
}

/* ---------------------------------------------------------------- compiler */

static size_t sat_add(size_t a, size_t b) { return a > SIZE_MAX - b ? SIZE_MAX : a + b; }
static size_t sat_mul(size_t a, size_t b) { return b && a > SIZE_MAX / b ? SIZE_MAX : a * b; }

/* Instructions n compiles to (saturating; at least that many, so that the
** cap bounds the time compiling takes too). */
static size_t prog_size(const node *n) {
    size_t s = 0;
    switch (n->t) {
    case N_CAT:
        for (size_t i = 0; i < n->nk; i++) s = sat_add(s, prog_size(n->kids[i]));
        return s;
    case N_ALT:
        for (size_t i = 0; i < n->nk; i++) s = sat_add(s, prog_size(n->kids[i]));
        return sat_add(s, 2 * (n->nk - 1)); /* a split and a jump per extra alternative */
    case N_REP: {
        /* an empty body still costs a step per copy: ((){99999}){99999}
        ** compiles to nothing but would take 10^10 steps to compile */
        size_t e = prog_size(n->kids[0]);
        if (e == 0) e = 1;
        s = sat_mul(e, n->min);
        if (n->max == REP_INF) return sat_add(s, sat_add(e, 2));
        return sat_add(s, sat_mul(sat_add(e, 1), n->max - n->min));
    }
    default: return 1;
    }
}

typedef struct emitter {
    inst *prog;
    size_t n;
} emitter;

static size_t emit(emitter *em, inst in) {
    em->prog[em->n] = in;
    return em->n++;
}

/* Writes n's instructions; the program has room (prog_size). */
static void compile(emitter *em, const node *n) {
    switch (n->t) {
    case N_CHAR: emit(em, (inst){OP_CHAR, 0, n->c, 0, 0}); break;
    case N_ANY: emit(em, (inst){OP_ANY, 0, 0, 0, 0}); break;
    case N_SET: emit(em, (inst){OP_SET, n->neg, 0, n->set, 0}); break;
    case N_BOL: emit(em, (inst){OP_BOL, 0, 0, 0, 0}); break;
    case N_EOL: emit(em, (inst){OP_EOL, 0, 0, 0, 0}); break;
    case N_WORDB: emit(em, (inst){OP_WORDB, 0, 0, 0, 0}); break;
    case N_NWORDB: emit(em, (inst){OP_NWORDB, 0, 0, 0, 0}); break;
    case N_CAT:
        for (size_t i = 0; i < n->nk; i++) compile(em, n->kids[i]);
        break;
    case N_ALT: {
        /* split L1, L2; L1: a; jmp end; L2: split ...; last. Until the end
        ** is known each jump's x links to the previous jump. */
        size_t chain = SIZE_MAX;
        for (size_t i = 0; i < n->nk; i++) {
            if (i + 1 == n->nk) {
                compile(em, n->kids[i]);
                break;
            }
            size_t sp = emit(em, (inst){OP_SPLIT, 0, 0, 0, 0});
            em->prog[sp].x = em->n;
            compile(em, n->kids[i]);
            size_t j = emit(em, (inst){OP_JMP, 0, 0, chain, 0});
            chain = j;
            em->prog[sp].y = em->n;
        }
        while (chain != SIZE_MAX) {
            size_t prev = em->prog[chain].x;
            em->prog[chain].x = em->n;
            chain = prev;
        }
        break;
    }
    case N_REP: {
        const node *e = n->kids[0];
        for (uint32_t k = 0; k < n->min; k++) compile(em, e);
        if (n->max == REP_INF) {
            size_t loop = emit(em, (inst){OP_SPLIT, 0, 0, 0, 0});
            em->prog[loop].x = em->n;
            compile(em, e);
            emit(em, (inst){OP_JMP, 0, 0, loop, 0});
            em->prog[loop].y = em->n;
        } else {
            for (uint32_t k = n->min; k < n->max; k++) {
                size_t sp = emit(em, (inst){OP_SPLIT, 0, 0, 0, 0});
                em->prog[sp].x = em->n;
                compile(em, e);
                em->prog[sp].y = em->n;
            }
        }
        break;
    }
    }
}

pattern *pattern_compile(const char *src, size_t len, char *why, size_t whylen) {
    pattern *re = calloc(1, sizeof *re);
    if (!re) {
        snprintf(why, whylen, "out of memory");
        return NULL;
    }
    parser ps = {(const unsigned char *)src, len, 0, re, why, whylen, 0, 0};
    node *root = parse_alt(&ps);
    if (root && !ps.failed && !at_end(&ps)) fail(&ps, ps.i, "unmatched ); write \\) for the character");
    if (root && !ps.failed) {
        size_t size = sat_add(prog_size(root), 1);
        if (size > CAIRN_PATTERN_MAX_PROGRAM) {
            ps.failed = 1;
            snprintf(why, whylen,
                     "pattern is too large: it compiles to more than %d steps (limit "
                     "CAIRN_PATTERN_MAX_PROGRAM); use smaller counts in {n,m}",
                     CAIRN_PATTERN_MAX_PROGRAM);
        } else if (!(re->prog = malloc(size * sizeof *re->prog))) {
            fail_oom(&ps);
        } else {
            emitter em = {re->prog, 0};
            compile(&em, root);
            emit(&em, (inst){OP_MATCH, 0, 0, 0, 0});
            re->n = em.n;
        }
    }
    if (!root && !ps.failed) fail_oom(&ps);
    node_free(root);
    if (ps.failed) {
        pattern_free(re);
        return NULL;
    }
    return re;
}

/* ---------------------------------------------------------------- matching */

/* Pike VM: the set of program counters alive at one position of the
** subject, each added once (mark holds the position's generation). */
typedef struct vm {
    const pattern *re;
    size_t *mark;
    size_t *list[2];
    size_t nlist[2];
    size_t *stack;
    int matched;
} vm;

/* Adds pc and everything reachable from it without consuming a character,
** at a position between characters prev and next, to list l. */
static void vm_add(vm *m, int l, size_t pc, size_t gen, uint32_t prev, uint32_t next) {
    size_t top = 0;
    m->stack[top++] = pc;
    while (top) {
        pc = m->stack[--top];
        if (m->mark[pc] == gen) continue;
        m->mark[pc] = gen;
        const inst *in = &m->re->prog[pc];
        switch (in->op) {
        case OP_JMP: m->stack[top++] = in->x; break;
        case OP_SPLIT:
            m->stack[top++] = in->y;
            m->stack[top++] = in->x;
            break;
        case OP_BOL:
            if (prev == NONE) m->stack[top++] = pc + 1;
            break;
        case OP_EOL:
            if (next == NONE) m->stack[top++] = pc + 1;
            break;
        case OP_WORDB:
        case OP_NWORDB:
            if ((is_word(prev) != is_word(next)) == (in->op == OP_WORDB)) m->stack[top++] = pc + 1;
            break;
        case OP_MATCH: m->matched = 1; break;
        default: m->list[l][m->nlist[l]++] = pc; break;
        }
    }
}

static int consumes(const pattern *re, const inst *in, uint32_t c) {
    switch (in->op) {
    case OP_CHAR: return in->c == c;
    case OP_ANY: return !is_line_terminator(c);
    case OP_SET: return set_has(&re->sets[in->x], c) != in->neg;
    default: return 0;
    }
}

int pattern_search(const pattern *re, const char *s, size_t len) {
    const unsigned char *u = (const unsigned char *)s;
    size_t n = re->n;
    vm m = {re, calloc(n, sizeof(size_t)), {malloc(n * sizeof(size_t)), malloc(n * sizeof(size_t))},
            {0, 0}, malloc((2 * n + 1) * sizeof(size_t)), 0};
    int rc = -1;
    if (!m.mark || !m.list[0] || !m.list[1] || !m.stack) goto done;
    size_t gen = 1, i = 0;
    int cur = 0;
    uint32_t prev = NONE;
    size_t j = 0;
    uint32_t c = len ? utf8_next(u, len, &j) : NONE;
    if (c == NONE && len) c = 0xFFFD;
    vm_add(&m, cur, 0, gen, prev, c);
    while (!m.matched && i < len) {
        /* step over c: from position i to j */
        size_t k = j;
        uint32_t next = NONE;
        if (k < len) {
            next = utf8_next(u, len, &k);
            if (next == NONE) next = 0xFFFD;
        }
        int nx = !cur;
        m.nlist[nx] = 0;
        gen++;
        for (size_t t = 0; t < m.nlist[cur] && !m.matched; t++) {
            size_t pc = m.list[cur][t];
            if (consumes(re, &re->prog[pc], c)) vm_add(&m, nx, pc + 1, gen, c, next);
        }
        if (!m.matched) vm_add(&m, nx, 0, gen, c, next); /* a match may start here */
        cur = nx;
        prev = c;
        c = next;
        i = j;
        j = k;
    }
    rc = m.matched;
done:
    free(m.mark);
    free(m.list[0]);
    free(m.list[1]);
    free(m.stack);
    return rc;
}
