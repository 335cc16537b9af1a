/*
** sandbox_chunk.c
** Checks on a Lua text chunk before Lua compiles it: what Lua 5.4.4 (the
** version Debian ships) handles badly enough to hang or crash the process.
** Its compiler links each `and`/`or` term and each `elseif` into a jump
** list it walks from the start (quadratic: 100k terms took 11 s), and its
** error-message code (getobjname) recurses once per field of a chain such
** as `a.b.b.b...`, so an error raised in a 100k-field chain overflows the C
** stack (fixed upstream in 7923dbbf, not in 5.4.4). So a chunk may hold at
** most CAIRN_LUA_MAX_CHAIN terms in one such chain; the scan is one linear
** pass over the tokens (strings, comments and long brackets skipped).
**
** A chain is what getobjname walks back, not what the text shows: `(a.b).c`
** compiles to the same GETFIELDs as `a.b.c`, and an index's key is walked
** too (`a[b.c.d]` is 4 deep). So a bracket that is not a call (a grouping
** `(`, an index `[`) hands the longest chain seen inside it to the chain it
** continues; a call's result starts afresh (getobjname stops at OP_CALL), as
** does a table constructor's. Where the scan cannot tell a grouping from a
** call it counts it as a grouping: it may count too many, never too few.
*/
#include "sandbox_internal.h"
#include "limits.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

/* Brackets and blocks tracked; deeper nesting is refused by Lua itself
** (LUAI_MAXCCALLS, 200), so past this the scan just stops counting. */
#define CHUNK_MAX_NEST 256

typedef struct scan {
    const char *p, *e;
    int line;
    /* per bracket depth: terms of the current field chain, the longest
    ** field chain seen inside the bracket, terms of the current and/or
    ** chain, and what opened the bracket */
    int depth;
    long fields[CHUNK_MAX_NEST], longest[CHUNK_MAX_NEST], logic[CHUNK_MAX_NEST];
    unsigned char opener[CHUNK_MAX_NEST];
    /* per block: 1 for an `if` block (counts its elseifs), 0 other */
    int nblock;
    unsigned char is_if[CHUNK_MAX_NEST];
    long elseifs[CHUNK_MAX_NEST];
} scan;

const char *sb_lua_long_end(const char *p, const char *e) {
    const char *q = p + 1;
    size_t level = 0;
    while (q < e && *q == '=') q++, level++;
    if (q >= e || *q != '[') return NULL;
    for (q++; q < e; q++) {
        if (*q != ']') continue;
        const char *r = q + 1;
        size_t l = 0;
        while (r < e && *r == '=') r++, l++;
        if (l == level && r < e && *r == ']') return r + 1;
    }
    return e; /* unfinished: Lua reports it */
}

const char *sb_lua_quoted_end(const char *p, const char *e) {
    char quote = *p++;
    while (p < e && *p != quote) {
        if (*p == '\\' && p + 1 < e && p[1] == 'z') { /* \z: the blanks after it, lines too */
            p += 2;
            while (p < e && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r' || *p == '\f' || *p == '\v')) p++;
            continue;
        }
        if (*p == '\\' && p + 1 < e) p++; /* an escaped quote, or an escaped line end */
        else if (*p == '\n') return p;   /* unfinished: Lua reports it */
        p++;
    }
    return p < e ? p + 1 : e;
}

/* Moves s->p to q, counting the lines it passes. */
static void move_to(scan *s, const char *q) {
    for (const char *r = s->p; r < q; r++) s->line += *r == '\n';
    s->p = q;
}

/* Skips a long bracket [==[ ... ]==] starting at s->p (at '['). Returns 1 if
** there was one. */
static int skip_long(scan *s) {
    const char *q = sb_lua_long_end(s->p, s->e);
    if (!q) return 0;
    move_to(s, q);
    return 1;
}

static void skip_string(scan *s) { move_to(s, sb_lua_quoted_end(s->p, s->e)); }

/* The words the scan tells apart; every other name is W_NAME. */
enum word {
    W_NAME, W_AND, W_OR, W_NOT, W_NIL, W_TRUE, W_FALSE, W_IF, W_FUNCTION, W_DO, W_REPEAT, W_END,
    W_UNTIL, W_ELSEIF, W_LOCAL, W_THEN, W_ELSE, W_WHILE, W_RETURN, W_FOR, W_IN, W_GOTO, W_BREAK
};

/* Which word w (n bytes) is: one comparison per word of its length, not
** one per keyword (this scan runs on every chunk before it is compiled). */
static enum word word_of(const char *w, size_t n) {
    static const struct { const char *s; enum word w; } by_len[][6] = {
        [2] = {{"or", W_OR}, {"if", W_IF}, {"do", W_DO}, {"in", W_IN}},
        [3] = {{"and", W_AND}, {"not", W_NOT}, {"nil", W_NIL}, {"end", W_END}, {"for", W_FOR}},
        [4] = {{"true", W_TRUE}, {"then", W_THEN}, {"else", W_ELSE}, {"goto", W_GOTO}},
        [5] = {{"false", W_FALSE}, {"until", W_UNTIL}, {"local", W_LOCAL}, {"while", W_WHILE},
               {"break", W_BREAK}},
        [6] = {{"repeat", W_REPEAT}, {"elseif", W_ELSEIF}, {"return", W_RETURN}},
        [8] = {{"function", W_FUNCTION}},
    };
    if (n >= sizeof by_len / sizeof by_len[0]) return W_NAME;
    for (size_t i = 0; i < 6 && by_len[n][i].s; i++)
        if (memcmp(w, by_len[n][i].s, n) == 0) return by_len[n][i].w;
    return W_NAME;
}

/* A term was added to a chain: fails past the limit. */
static int over(long n) { return n > CAIRN_LUA_MAX_CHAIN; }

/* The field chain at depth d is now n terms long: remembers the longest,
** fails past the limit. */
static int chain_is(scan *s, int d, long n) {
    s->fields[d] = n;
    if (n > s->longest[d]) s->longest[d] = n;
    return over(n);
}

/* What opened a bracket: a call's `(`, a grouping `(`, an index `[`, a
** table's `{`. */
enum opener { OPEN_CALL, OPEN_GROUP, OPEN_INDEX, OPEN_TABLE };

int sb_chunk_check(const char *buf, size_t len, char *why, size_t whysz) {
    scan s;
    memset(&s, 0, sizeof s);
    s.p = buf;
    s.e = buf + len;
    s.line = 1;
    if (len >= 1 && buf[0] == '#') /* a first line "#!..." Lua skips */
        while (s.p < s.e && *s.p != '\n') s.p++;
    int after_dot = 0; /* the last token was `.` or `:` */
    /* the last token ends a prefix expression (a name, `)` or `]`), so a
    ** `(` after it is a call */
    int after_prefix = 0;
    while (s.p < s.e) {
        unsigned char c = (unsigned char)*s.p;
        int d = s.depth < CHUNK_MAX_NEST ? s.depth : CHUNK_MAX_NEST - 1;
        if (c == '\n') {
            s.line++;
            s.p++;
            continue;
        }
        if (isspace(c)) {
            s.p++;
            continue;
        }
        if (c == '-' && s.p + 1 < s.e && s.p[1] == '-') { /* a comment */
            s.p += 2;
            if (s.p < s.e && *s.p == '[' && skip_long(&s)) continue;
            while (s.p < s.e && *s.p != '\n') s.p++;
            continue;
        }
        if (c == '"' || c == '\'') {
            skip_string(&s);
            s.fields[d] = 0; /* a call with a string argument ends a chain */
            after_dot = 0;
            after_prefix = 0;
            continue;
        }
        if (c == '[' && s.p + 1 < s.e && (s.p[1] == '[' || s.p[1] == '=')) {
            const char *at = s.p;
            if (skip_long(&s)) {
                s.fields[d] = 0;
                after_dot = 0;
                after_prefix = 0;
                continue;
            }
            s.p = at;
        }
        if (isalpha(c) || c == '_') {
            const char *w = s.p;
            while (s.p < s.e && (isalnum((unsigned char)*s.p) || *s.p == '_')) s.p++;
            size_t n = (size_t)(s.p - w);
            if (after_dot) { /* the name of a field: the chain goes on */
                after_dot = 0;
                after_prefix = 1;
                continue;
            }
            enum word kw = word_of(w, n);
            after_prefix = kw == W_NAME;
            if (kw == W_AND || kw == W_OR) {
                s.fields[d] = 0;
                if (over(++s.logic[d])) {
                    snprintf(why, whysz, "%d: more than %d `and`/`or` terms in one expression "
                             "(limit CAIRN_LUA_MAX_CHAIN)", s.line, CAIRN_LUA_MAX_CHAIN);
                    return -1;
                }
                continue;
            }
            s.fields[d] = 0;
            if (kw == W_NOT || kw == W_NIL || kw == W_TRUE || kw == W_FALSE)
                continue; /* inside an expression */
            if (kw == W_IF || kw == W_FUNCTION || kw == W_DO || kw == W_REPEAT) {
                if (s.nblock < CHUNK_MAX_NEST) {
                    s.is_if[s.nblock] = kw == W_IF;
                    s.elseifs[s.nblock] = 0;
                }
                s.nblock++;
            } else if (kw == W_END || kw == W_UNTIL) {
                if (s.nblock > 0) s.nblock--;
            } else if (kw == W_ELSEIF && s.nblock > 0 && s.nblock <= CHUNK_MAX_NEST &&
                       s.is_if[s.nblock - 1] && over(++s.elseifs[s.nblock - 1])) {
                snprintf(why, whysz, "%d: more than %d `elseif` branches in one `if` "
                         "(limit CAIRN_LUA_MAX_CHAIN)", s.line, CAIRN_LUA_MAX_CHAIN);
                return -1;
            }
            /* a keyword that starts or ends a statement ends the and/or chain
            ** (a plain name does not: `a and b` is names); the others were
            ** handled above */
            if (kw != W_NAME) s.logic[d] = 0;
            continue;
        }
        if (isdigit(c) || (c == '.' && s.p + 1 < s.e && isdigit((unsigned char)s.p[1]))) {
            /* a number, with its exponent sign: 1e-5, 0x1p+4, 3.0 */
            while (s.p < s.e && (isalnum((unsigned char)*s.p) || *s.p == '.' || *s.p == '_' ||
                                 ((*s.p == '-' || *s.p == '+') && strchr("eEpP", s.p[-1]))))
                s.p++;
            s.fields[d] = 0;
            after_dot = 0;
            after_prefix = 0;
            continue;
        }
        s.p++;
        after_dot = 0;
        int was_prefix = after_prefix;
        after_prefix = 0;
        if (c == '.' && s.p < s.e && *s.p == '.') { /* `..` or `...` */
            while (s.p < s.e && *s.p == '.') s.p++;
            s.fields[d] = 0;
        } else if (c == ':' && s.p < s.e && *s.p == ':') { /* a ::label:: */
            s.p++;
            s.fields[d] = 0;
        } else if (c == '.' || c == ':') { /* a field or a method */
            after_dot = 1;
            if (chain_is(&s, d, s.fields[d] + 1)) goto chain;
        } else if (c == '[' || c == '(' || c == '{') {
            enum opener o = c == '[' ? OPEN_INDEX : c == '{' ? OPEN_TABLE
                          : was_prefix ? OPEN_CALL : OPEN_GROUP;
            if (o == OPEN_INDEX && chain_is(&s, d, s.fields[d] + 1)) goto chain;
            if (o == OPEN_CALL || o == OPEN_TABLE)
                s.fields[d] = 0; /* a call's result starts no chain Lua follows */
            s.depth++;
            if (s.depth < CHUNK_MAX_NEST) {
                s.fields[s.depth] = 0;
                s.longest[s.depth] = 0;
                s.logic[s.depth] = 0;
                s.opener[s.depth] = (unsigned char)o;
            }
        } else if (c == ']' || c == ')' || c == '}') {
            if (s.depth > 0) {
                /* a grouping or an index continues the chain outside it by
                ** the longest chain inside it (the key's, the grouped one's) */
                long inner = d == s.depth ? s.longest[d] : 0;
                enum opener o = d == s.depth ? (enum opener)s.opener[d] : OPEN_GROUP;
                s.depth--;
                int outer = s.depth < CHUNK_MAX_NEST ? s.depth : CHUNK_MAX_NEST - 1;
                if (o == OPEN_GROUP || o == OPEN_INDEX) {
                    if (chain_is(&s, outer, s.fields[outer] + inner)) goto chain;
                } else {
                    s.fields[outer] = 0;
                }
                after_prefix = c != '}';
            }
        } else if (c == '=' || c == ',' || c == ';') {
            s.logic[d] = 0;
            s.fields[d] = 0;
        } else { /* an operator */
            s.fields[d] = 0;
        }
        continue;
    chain:
        snprintf(why, whysz, "%d: more than %d fields or indices in one chain (`a.b.c...`; "
                 "limit CAIRN_LUA_MAX_CHAIN)", s.line, CAIRN_LUA_MAX_CHAIN);
        return -1;
    }
    return 0;
}
