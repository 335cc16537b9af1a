/*
** sandbox_len.c
** The length operator, the same in every run. `#t` on a table with holes
** ({1, nil, 3}) may give any border, and which one Lua gives depends on how
** the table's parts were sized, which depends on the string hash seed Lua
** draws from addresses and the clock: the same rules gave different games
** from run to run, and saves made in play failed to load. Lua cannot be
** asked for another `#`, so every chunk is rewritten before it is compiled:
** `#X` becomes `__cairn_len(X)` (only parentheses are added, so every line
** keeps its number), and the length every table function and rawlen take
** goes through sb_len_of too. A chunk so rewritten starts, on its first
** line, with `local __cairn_len <const> = __cairn_len; `, so each `#` reads
** an upvalue, not the global environment through its __index; a chunk that
** one more local or upvalue takes past Lua's limits is compiled again
** without it (sb_len_unprefix).
**
** Two answers, both from the table's contents alone (never its layout):
** - check mode (`cairn check`, `cairn test`) counts: a table whose positive
**   integer keys are not exactly 1..n is a rules error naming the line, so
**   a designer finds the hole;
** - play, sims and playouts take the border a doubling then binary search
**   from 1 finds (t[b] ~= nil and t[b+1] == nil, probing t[1], t[2], t[4]...):
**   O(log n) raw reads (no pop per read: searched_border), the one border
**   of a table without holes (Lua's answer), and for a table with holes
**   one that depends only on which keys are set, so it is the same in every
**   run, build and mode that answers. Counting there cost connect4's sim
**   15-25% (docs/sandbox.md).
** Strings, and tables or userdata with a __len metamethod, behave as `#`
** does.
**
** The rewrite reads tokens as Lua's lexer does (strings, long brackets and
** comments are copied as they are) and wraps the operand `#` applies to: a
** name or parenthesised expression with its suffixes (`.f`, `[k]`, `:m(...)`,
** calls), a table constructor or a string. Anything else (`#...`, `#-x`,
** `#a^b`, which is `#(a^b)`) keeps Lua's own `#`.
*/
#include "sandbox_internal.h"
#include "strbuf.h"

#include <ctype.h>
#include <lauxlib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LEN_NAME SB_LEN_NAME
/* Nested `#` inside an operand (`#t[#u[#v]]`) are rewritten recursively
** up to this depth; deeper ones keep Lua's own `#` (Lua refuses such
** nesting long before it matters). */
#define LEN_MAX_NEST 64

static int is_name_start(char c) { return isalpha((unsigned char)c) || c == '_'; }
static int is_name_char(char c) { return isalnum((unsigned char)c) || c == '_'; }

static const char *skip_name(const char *p, const char *e) {
    while (p < e && is_name_char(*p)) p++;
    return p;
}

/* After blanks and comments. */
static const char *skip_blank(const char *p, const char *e) {
    for (;;) {
        while (p < e && isspace((unsigned char)*p)) p++;
        if (p + 1 < e && p[0] == '-' && p[1] == '-') {
            p += 2;
            const char *q = p < e && *p == '[' ? sb_lua_long_end(p, e) : NULL;
            if (q) {
                p = q;
                continue;
            }
            while (p < e && *p != '\n') p++;
            continue;
        }
        return p;
    }
}

/* After the bracketed group opening at p ((, [ or {), strings, long
** brackets and comments inside skipped. */
static const char *skip_group(const char *p, const char *e) {
    int depth = 0;
    while (p < e) {
        char c = *p;
        if (c == '"' || c == '\'') {
            p = sb_lua_quoted_end(p, e);
            continue;
        }
        if (c == '-' && p + 1 < e && p[1] == '-') {
            p = skip_blank(p, e);
            continue;
        }
        if (c == '[') {
            const char *q = sb_lua_long_end(p, e);
            if (q) {
                p = q;
                continue;
            }
        }
        if (c == '(' || c == '[' || c == '{') {
            depth++;
        } else if (c == ')' || c == ']' || c == '}') {
            if (--depth == 0) return p + 1;
        }
        p++;
    }
    return e;
}

static int is_keyword(const char *w, const char *end) {
    static const char *const kw[] = {"and", "break", "do", "else", "elseif", "end", "false", "for",
                                     "function", "goto", "if", "in", "local", "nil", "not", "or",
                                     "repeat", "return", "then", "true", "until", "while", NULL};
    size_t n = (size_t)(end - w);
    for (int i = 0; kw[i]; i++)
        if (strlen(kw[i]) == n && memcmp(kw[i], w, n) == 0) return 1;
    return 0;
}

/* Call arguments at p: (...), {...} or a string. After them, or NULL. */
static const char *skip_args(const char *p, const char *e) {
    if (p >= e) return NULL;
    if (*p == '(' || *p == '{') return skip_group(p, e);
    if (*p == '"' || *p == '\'') return sb_lua_quoted_end(p, e);
    if (*p == '[') return sb_lua_long_end(p, e);
    return NULL;
}

/* The end of the operand starting at p, or NULL when it is not one the
** rewrite wraps. */
static const char *operand_end(const char *p, const char *e) {
    if (p >= e) return NULL;
    char c = *p;
    if (c == '"' || c == '\'') return sb_lua_quoted_end(p, e);
    if (c == '[') return sb_lua_long_end(p, e);
    if (c == '{') return skip_group(p, e);
    const char *q;
    if (is_name_start(c)) {
        q = skip_name(p, e);
        if (is_keyword(p, q)) return NULL;
    } else if (c == '(') {
        q = skip_group(p, e);
    } else {
        return NULL;
    }
    for (;;) { /* the suffixes */
        const char *r = skip_blank(q, e);
        if (r >= e) return q;
        c = *r;
        if (c == '.' && !(r + 1 < e && r[1] == '.')) {
            r = skip_blank(r + 1, e);
            if (r >= e || !is_name_start(*r)) return NULL;
            q = skip_name(r, e);
        } else if (c == ':' && !(r + 1 < e && r[1] == ':')) {
            r = skip_blank(r + 1, e);
            if (r >= e || !is_name_start(*r)) return NULL;
            if (!(q = skip_args(skip_blank(skip_name(r, e), e), e))) return NULL;
        } else if (c == '[') {
            const char *s = sb_lua_long_end(r, e); /* t[[text]]: a call with a long string */
            q = s ? s : skip_group(r, e);
        } else if (c == '(' || c == '{' || c == '"' || c == '\'') {
            q = skip_args(r, e);
        } else {
            return q;
        }
    }
}

typedef struct rewrite {
    strbuf out;
    const char *start; /* the whole chunk, for line numbers */
    int changed;
    int bad_line;      /* > 0: the reserved name appears on this line */
} rewrite;

static int line_of(const rewrite *w, const char *p) {
    int line = 1;
    for (const char *q = w->start; q < p; q++) line += *q == '\n';
    return line;
}

/* Copies [p, e) to w->out with each `#X` wrapped: the text between two
** rewrites in one piece. */
static void rewrite_range(rewrite *w, const char *p, const char *e, int nest) {
    const char *copied = p; /* [copied, p) is still to be copied */
    while (p < e && !w->bad_line) {
        const char *from = p;
        char c = *p;
        if (c == '"' || c == '\'') {
            p = sb_lua_quoted_end(p, e);
        } else if (c == '-' && p + 1 < e && p[1] == '-') {
            p = skip_blank(p, e);
        } else if (c == '[' && (p = sb_lua_long_end(from, e)) != NULL) {
            /* a long string, copied below */
        } else if (is_name_start(c)) {
            p = skip_name(from, e);
            if ((size_t)(p - from) == strlen(LEN_NAME) && memcmp(from, LEN_NAME, strlen(LEN_NAME)) == 0)
                w->bad_line = line_of(w, from);
        } else if (c == '#' && nest < LEN_MAX_NEST && !(from == w->start)) {
            const char *at = skip_blank(from + 1, e);
            const char *end = operand_end(at, e);
            const char *after = end ? skip_blank(end, e) : NULL;
            if (end && !(after < e && *after == '^')) {
                strbuf_putn(&w->out, copied, (size_t)(from - copied));
                strbuf_puts(&w->out, LEN_NAME "(");
                strbuf_putn(&w->out, from + 1, (size_t)(at - from - 1)); /* blanks, lines */
                rewrite_range(w, at, end, nest + 1);
                strbuf_putc(&w->out, ')');
                w->changed = 1;
                p = copied = end;
                continue;
            }
            p = from + 1;
        } else {
            p = from + 1;
        }
    }
    strbuf_putn(&w->out, copied, (size_t)(p - copied));
}

/* What a rewritten chunk starts with (after a "#!" line): see the end of
** sb_len_rewrite. */
#define LEN_PREFIX "local " LEN_NAME " <const> = " LEN_NAME "; "

char *sb_len_rewrite(const char *src, size_t len, size_t *out_len, char *why, size_t whysz) {
    rewrite w;
    memset(&w, 0, sizeof w);
    w.start = src;
    const char *p = src, *e = src + len;
    if (len > 0 && src[0] == '#') { /* a first line "#!..." Lua skips */
        while (p < e && *p != '\n') p++;
        strbuf_putn(&w.out, src, (size_t)(p - src));
    }
    rewrite_range(&w, p, e, 0);
    if (w.bad_line) {
        snprintf(why, whysz, "%d: `" LEN_NAME "` is a name cairn reserves (its `#`)", w.bad_line);
        strbuf_free(&w.out);
        *out_len = (size_t)-1;
        return NULL;
    }
    if (w.out.oom) {
        snprintf(why, whysz, "out of memory");
        strbuf_free(&w.out);
        *out_len = (size_t)-1;
        return NULL;
    }
    if (!w.changed) {
        strbuf_free(&w.out);
        *out_len = 0;
        return NULL; /* nothing to do: the caller compiles src */
    }
    /* the function as a constant local of the chunk, in front of its first
    ** line (after a "#!" line) and on it, so every line keeps its number:
    ** each `#` then reads an upvalue, not the global environment through
    ** its __index (a table miss and a metamethod a time, in the hottest
    ** loops of a playout); scripts cannot name it, so nothing else changes */
    size_t at = (len > 0 && src[0] == '#') ? (size_t)(p - src) + 1 : 0;
    if (at > w.out.n) at = w.out.n; /* a "#!" line alone: nothing after it */
    strbuf joined = {0};
    strbuf_putn(&joined, w.out.s, at);
    strbuf_putn(&joined, LEN_PREFIX, sizeof LEN_PREFIX - 1);
    strbuf_putn(&joined, w.out.s + at, w.out.n - at);
    strbuf_free(&w.out);
    if (joined.oom) {
        snprintf(why, whysz, "out of memory");
        strbuf_free(&joined);
        *out_len = (size_t)-1;
        return NULL;
    }
    *out_len = joined.n;
    return strbuf_take(&joined);
}

int sb_len_unprefix(char *text, size_t *len) {
    size_t at = 0, n = sizeof LEN_PREFIX - 1;
    if (*len > 0 && text[0] == '#') { /* after the "#!" line */
        const char *nl = memchr(text, '\n', *len);
        if (!nl) return 0;
        at = (size_t)(nl - text) + 1;
    }
    if (*len - at < n || memcmp(text + at, LEN_PREFIX, n) != 0) return 0;
    memmove(text + at, text + at + n, *len - at - n);
    *len -= n;
    return 1;
}

/* Counts the table at idx (absolute): its length when its positive integer
** keys are exactly 1..n, else an error naming fn. Charged one instruction
** per 8 entries. */
static lua_Integer counted_len(lua_State *L, int idx, const char *fn) {
    lua_Unsigned n = (lua_Unsigned)lua_rawlen(L, idx);
    lua_Unsigned in_range = 0, entries = 0;
    lua_Integer beyond = 0;
    lua_pushnil(L);
    while (lua_next(L, idx)) {
        entries++;
        if (lua_isinteger(L, -2)) {
            lua_Integer k = lua_tointeger(L, -2);
            if (k >= 1 && (lua_Unsigned)k <= n) in_range++;
            else if (k > 0 && (lua_Unsigned)k > n && (beyond == 0 || k < beyond)) beyond = k;
        }
        lua_pop(L, 1);
    }
    sb_charge(L, (lua_Integer)(entries / 8));
    if (beyond)
        return luaL_error(L, "%s of a table with holes: keys 1..%I are set, and %I, so its length "
                             "is not defined (Lua may answer either, differently from run to run; "
                             "keep lists without holes, or count them yourself)",
                          fn, (lua_Integer)n, beyond);
    if (in_range != n)
        return luaL_error(L, "%s of a table with holes: %I of keys 1..%I are set, so its length "
                             "is not defined (Lua may answer differently from run to run; keep "
                             "lists without holes, or count them yourself)",
                          fn, (lua_Integer)in_range, (lua_Integer)n);
    return (lua_Integer)n;
}

/* The border of the table at idx (absolute) that a doubling, then binary,
** search from 1 finds: t[b] ~= nil (or b == 0) and t[b + 1] == nil. Reads
** keys only, so the answer is the table's contents', never its layout's.
** The doubling stops before lua_Integer would overflow (a table cannot hold
** 2^62 entries).
** Each probe is one lua_rawgeti, whose value stays on the stack: they are
** dropped `room` at a time, and the last *left of them by the caller (a C
** function's results are the top of its stack, so sb_len_checked pushes
** the answer over them and drops none). In a playout this search is the
** cost of `#`, and a pop per probe was a fifth of it. The caller
** guarantees `room` free stack slots (room >= 1). */
static lua_Integer searched_border(lua_State *L, int idx, int room, int *left) {
    int pushed = 0;
#define PROBE_IS_NIL(k)                                                                            \
    (pushed == room ? (lua_pop(L, room), pushed = 0) : 0, pushed++,                             \
     lua_rawgeti(L, idx, (k)) == LUA_TNIL)
    lua_Integer i = 0, j = 1;
    while (!PROBE_IS_NIL(j)) {
        i = j;
        if (j > LUA_MAXINTEGER / 2) break;
        j *= 2;
    }
    while (j - i > 1) { /* t[i] set (or i == 0), t[j] nil */
        lua_Integer m = i + (j - i) / 2;
        if (PROBE_IS_NIL(m)) j = m;
        else i = m;
    }
#undef PROBE_IS_NIL
    *left = pushed;
    return i;
}

/* The free stack slots searched_border may fill before it pops: Lua calls
** a C function with LUA_MINSTACK (20) free above its arguments, and
** sb_len_checked's fast path pushes nothing else before the search and one
** value after it, so 16 need no lua_checkstack there. A border below 2^8
** takes at most 17 probes. */
#define LEN_PROBE_ROOM 16

lua_Integer sb_len_of(lua_State *L, int idx, const char *fn, int raw) {
    idx = lua_absindex(L, idx);
    int t = lua_type(L, idx);
    if (t == LUA_TSTRING) return (lua_Integer)lua_rawlen(L, idx);
    /* lua_getmetatable first: a plain table has none, and asking for the
    ** field by name pushes a string every time */
    if (!raw && (t == LUA_TTABLE || t == LUA_TUSERDATA) && lua_getmetatable(L, idx)) {
        lua_pop(L, 1);
        if (luaL_getmetafield(L, idx, "__len") != LUA_TNIL) {
            lua_pop(L, 1);
            return luaL_len(L, idx);
        }
    }
    if (t != LUA_TTABLE) return luaL_error(L, "attempt to get length of a %s value", luaL_typename(L, idx));
    if (!SB(L)->strict_len) {
        int left, room = lua_checkstack(L, LEN_PROBE_ROOM) ? LEN_PROBE_ROOM : 1;
        lua_Integer b = searched_border(L, idx, room, &left);
        lua_pop(L, left);
        return b;
    }
    return counted_len(L, idx, fn);
}

/* __cairn_len(v): `#v`, refusing a table with holes. */
int sb_len_checked(lua_State *L) {
    if (lua_type(L, 1) == LUA_TTABLE && !SB(L)->strict_len && !lua_getmetatable(L, 1)) {
        int left; /* the probes' values stay under the result: Lua drops them */
        lua_pushinteger(L, searched_border(L, 1, LEN_PROBE_ROOM, &left)); /* the common case */
        return 1;
    }
    luaL_checkany(L, 1);
    lua_settop(L, 1);
    lua_pushinteger(L, sb_len_of(L, 1, "`#`", 0));
    return 1;
}
