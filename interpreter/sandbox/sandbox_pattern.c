/*
** sandbox_pattern.c
** Lua's string matching with its cost charged to the instruction budget: the
** matcher backtracks in C, where the hook never fires, so each search's
** worst case is estimated first (below) and charged, or refused when it
** cannot fit in what is left of the budget.
*/
#include "sandbox_internal.h"
#include "limits.h"

#include <ctype.h>
#include <limits.h>
#include <string.h>

/* Distinct character classes whose longest run in a subject a search
** measures to estimate its worst case. */
#define SANDBOX_PATTERN_SCANS 8
/* The least a call of the matcher is charged: about what the call itself
** costs, in the time of VM instructions. */
#define SANDBOX_PATTERN_CALL 64
/* Bytes a pass measuring the subject reads for one instruction charged
** (about 1 ns a byte, against 8 for an instruction). */
#define SANDBOX_PATTERN_SCAN_BYTES 8
/* Quantified items a pattern can hold: each takes two bytes at least. */
#define SANDBOX_PATTERN_ITEMS (CAIRN_LUA_MAX_PATTERN / 2 + 1)

/* --------------------------------------------------------------- patterns */

/* Lua's matcher backtracks in C, where the hook never fires: one search
** could run for hours. So before a search runs, its worst case is estimated
** from the pattern and the subject; a search whose worst case does not fit
** in what is left of the budget trips it, and the others are charged.
**
** The estimate, in steps (one step is charged as one instruction): from one
** start, the matcher tries every way its quantified items (x* x+ x- x?) can
** share the subject, and each try reads at most the whole pattern, plus the
** rest of the subject for each %b and back-reference. So one start costs at
** most
**     (plen + linear * m) * min((e1 + 1) * (e2 + 1) * ..., C(m + q, q))
** for m bytes of subject, plen bytes of pattern, `linear` %b and %1-%9, and
** ei the most item i can take: m, at most 1 for x?, and no more than the
** longest run of its class in the subject when measuring that run (charged
** m / SANDBOX_PATTERN_SCAN_BYTES) makes the estimate smaller; q items take
** something (ei > 0), and C(m + q, q) counts the ways they can share m
** bytes. A search tries one
** start when anchored with '^', else up to m + 1; when the first item must
** match a byte (x or x+), a start at a byte it cannot match costs only the
** pattern up to it ("light"). Everything saturates at LUA_MAXINTEGER, which
** no budget reaches. */

typedef struct cset {
    unsigned char bit[32];
} cset;

typedef struct pat_cost {
    lua_Integer plen; /* bytes of pattern: what one try reads at most */
    lua_Integer linear; /* %b and back-references: each reads up to m */
    int anchored;       /* '^': one start only */
    int lead;           /* the first item must match a byte of lead_set */
    cset lead_set;
    lua_Integer light;  /* a start where it cannot: the pattern up to it */
    int n;              /* quantified items */
    size_t ext[SANDBOX_PATTERN_ITEMS]; /* the most each can take */
} pat_cost;

static lua_Integer cost_mul(lua_Integer a, lua_Integer b) {
    if (a == 0 || b == 0) return 0;
    return a > LUA_MAXINTEGER / b ? LUA_MAXINTEGER : a * b;
}

static lua_Integer cost_add(lua_Integer a, lua_Integer b) {
    return a > LUA_MAXINTEGER - b ? LUA_MAXINTEGER : a + b;
}

static void cset_add(cset *s, int c) { s->bit[(unsigned char)c >> 3] |= 1u << (c & 7); }

static int cset_has(const cset *s, int c) { return s->bit[(unsigned char)c >> 3] >> (c & 7) & 1; }

/* Adds the bytes of "%<cl>": a class letter (upper case: its complement;
** %z is the zero byte, deprecated but still matched), or cl itself. Uses
** the C library's ctype, as Lua does. */
static void cset_add_class(cset *s, int cl) {
    if (!cl || !strchr("acdglpsuwxz", tolower(cl))) {
        cset_add(s, cl);
        return;
    }
    for (int c = 0; c < 256; c++) {
        int in = 0;
        switch (tolower(cl)) {
        case 'a': in = isalpha(c); break;
        case 'c': in = iscntrl(c); break;
        case 'd': in = isdigit(c); break;
        case 'g': in = isgraph(c); break;
        case 'l': in = islower(c); break;
        case 'p': in = ispunct(c); break;
        case 's': in = isspace(c); break;
        case 'u': in = isupper(c); break;
        case 'w': in = isalnum(c); break;
        case 'x': in = isxdigit(c); break;
        case 'z': in = c == 0; break;
        }
        if (isupper(cl) ? !in : in) cset_add(s, c);
    }
}

/* The end of the single-character class at p ('.', "%a", "[a-z]", 'x'), and
** its bytes in *s; NULL when it is malformed (the matcher raises there). */
static const char *class_parse(const char *p, const char *e, cset *s) {
    memset(s, 0, sizeof *s);
    if (*p == '.') {
        memset(s, 0xff, sizeof *s);
        return p + 1;
    }
    if (*p == '%') {
        if (p + 1 >= e) return NULL;
        cset_add_class(s, (unsigned char)p[1]);
        return p + 2;
    }
    if (*p != '[') {
        cset_add(s, (unsigned char)*p);
        return p + 1;
    }
    /* a set: its first byte is a member even when it is ']' */
    const char *first = p + 1, *q;
    int neg = first < e && *first == '^';
    if (neg) first++;
    q = first;
    do {
        if (q >= e) return NULL;
        if (*q++ == '%' && q < e) q++;
    } while (q >= e || *q != ']');
    for (const char *r = first; r < q; r++) {
        if (*r == '%' && r + 1 < q) {
            cset_add_class(s, (unsigned char)*++r);
        } else if (r + 2 < q && r[1] == '-') {
            for (int c = (unsigned char)r[0]; c <= (unsigned char)r[2]; c++) cset_add(s, c);
            r += 2;
        } else {
            cset_add(s, (unsigned char)*r);
        }
    }
    if (neg)
        for (int i = 0; i < 32; i++) s->bit[i] = (unsigned char)~s->bit[i];
    return q + 1;
}

/* Longest run of bytes of s in the subject. */
static size_t cset_run(const cset *set, const char *s, size_t m) {
    size_t best = 0, run = 0;
    for (size_t i = 0; i < m; i++) {
        run = cset_has(set, (unsigned char)s[i]) ? run + 1 : 0;
        if (run > best) best = run;
    }
    return best;
}

static int cset_full(const cset *s) {
    for (int i = 0; i < 32; i++)
        if (s->bit[i] != 0xff) return 0;
    return 1;
}

/* The most one start can cost with m bytes of subject after it. */
static lua_Integer pat_per_start(const pat_cost *pc, size_t m) {
    lua_Integer ways = 1, shares = 1;
    int q = 0;
    for (int i = 0; i < pc->n && ways < LUA_MAXINTEGER; i++) {
        size_t e = pc->ext[i] < m ? pc->ext[i] : m;
        if (e == 0) continue;
        ways = cost_mul(ways, (lua_Integer)e + 1);
        q++;
    }
    /* the q items share the m bytes: at most C(m + q, q) ways */
    for (int i = 1; i <= q && shares < ways; i++) {
        lua_Integer f = (lua_Integer)m + i;
        shares = shares > LUA_MAXINTEGER / f ? LUA_MAXINTEGER : shares * f / i;
    }
    if (shares < ways) ways = shares;
    return cost_mul(cost_add(pc->plen, cost_mul(pc->linear, (lua_Integer)m)), ways);
}

/* The most the starts a..b (1-based; b at most n + 1) of a search in s (n
** bytes) can cost: per each, but pc->light where the first item cannot
** match (pc NULL: per everywhere). Reads the b - a bytes once. */
static lua_Integer pat_range_cost(const pat_cost *pc, lua_Integer per, const char *s, size_t n,
                                  size_t a, size_t b) {
    if (b < a) return 0;
    lua_Integer k = (lua_Integer)(b - a + 1), h = k;
    if (pc && pc->lead) {
        h = 0;
        for (size_t i = a; i <= b && i <= n; i++)
            h += cset_has(&pc->lead_set, (unsigned char)s[i - 1]);
    }
    return cost_add(cost_mul(k - h, pc ? pc->light : 0), cost_mul(h, per));
}

/* Raises unless the pattern is short enough; fn names the function. */
static void pat_check(lua_State *L, size_t pl, const char *fn) {
    if (pl > (size_t)CAIRN_LUA_MAX_PATTERN)
        luaL_error(L, "string.%s: pattern longer than %d bytes (limit CAIRN_LUA_MAX_PATTERN)", fn,
                   (int)CAIRN_LUA_MAX_PATTERN);
}

/* Whether string.find takes pattern p as plain text: it has none of
** "^$*+?.([%-". */
static int pat_literal(const char *p, size_t pl) {
    for (size_t i = 0; i < pl; i++)
        if (p[i] && strchr("^$*+?.([%-", p[i])) return 0;
    return 1;
}

/* Fills pc for pattern p (pl bytes, at most CAIRN_LUA_MAX_PATTERN) searched
** in the m bytes at s; with gmatch set a leading '^' is a plain character,
** as in string.gmatch. Charges the runs it measures. Reads the pattern as
** far as it is well formed: the matcher raises where it is not, so nothing
** past that point runs. */
static void pat_cost_of(lua_State *L, const char *p, size_t pl, int gmatch, const char *s,
                        size_t m, pat_cost *pc) {
    cset set[SANDBOX_PATTERN_ITEMS];
    int once[SANDBOX_PATTERN_ITEMS], measured[SANDBOX_PATTERN_ITEMS];
    const char *e = p + pl;
    pc->plen = (lua_Integer)pl;
    pc->linear = 0;
    pc->n = 0;
    const char *p0 = p;
    int first = 1; /* no item read yet */
    pc->anchored = !gmatch && p < e && *p == '^';
    if (pc->anchored) p++;
    pc->lead = 0;
    while (p < e && pc->n < SANDBOX_PATTERN_ITEMS) {
        if (*p == '(') {
            p += p + 1 < e && p[1] == ')' ? 2 : 1; /* a capture, or a position */
            continue;
        }
        if (*p == ')' || (*p == '$' && p + 1 == e)) {
            p++;
            continue;
        }
        int item = first;
        first = 0;
        if (*p == '%' && p + 1 < e && (p[1] == 'b' || isdigit((unsigned char)p[1]))) {
            pc->linear++; /* %bxy scans for its closer, %1 compares a capture */
            p += p[1] == 'b' ? 4 : 2;
            continue;
        }
        if (*p == '%' && p + 1 < e && p[1] == 'f') { /* a frontier reads one set */
            if (p + 2 >= e || p[2] != '[' || !(p = class_parse(p + 2, e, &set[pc->n]))) break;
            continue;
        }
        const char *ce = class_parse(p, e, &set[pc->n]);
        if (!ce) break;
        p = ce;
        if (item && (p == e || (*p != '*' && *p != '-' && *p != '?'))) {
            pc->lead = 1; /* x or x+: a start needs a byte of x */
            pc->lead_set = set[pc->n];
            pc->light = (lua_Integer)(p - p0);
        }
        if (p < e && (*p == '*' || *p == '+' || *p == '-' || *p == '?')) {
            once[pc->n] = *p == '?';
            measured[pc->n] = 0;
            pc->ext[pc->n] = once[pc->n] ? 1 : m;
            pc->n++;
            p++;
        }
    }
    /* Measure the runs of the classes while that costs less than what it
    ** may save (the same class is measured once). */
    for (int i = 0, scans = 0; i < pc->n && scans < SANDBOX_PATTERN_SCANS; i++) {
        if (measured[i] || cset_full(&set[i])) continue;
        if (m == 0 || pat_per_start(pc, m) <= (lua_Integer)(m / SANDBOX_PATTERN_SCAN_BYTES)) break;
        sb_charge(L, (lua_Integer)(m / SANDBOX_PATTERN_SCAN_BYTES) + 1);
        scans++;
        size_t run = cset_run(&set[i], s, m);
        for (int j = i; j < pc->n; j++) {
            if (measured[j] || memcmp(&set[j], &set[i], sizeof set[i]) != 0) continue;
            pc->ext[j] = once[j] && run > 1 ? 1 : run;
            measured[j] = 1;
        }
    }
}

/* The 1-based start of a search from the integer argument arg (default 1):
** negative counts from the end of the n bytes; past the end gives n + 2. */
static size_t str_init(lua_State *L, int arg, size_t n) {
    lua_Integer i = luaL_optinteger(L, arg, 1);
    if (i > 0) return (lua_Unsigned)i > n + 1 ? n + 2 : (size_t)i;
    if (i == 0 || i < -(lua_Integer)n) return 1;
    return n + 1 - (size_t)-i;
}

/* Calls the library function below its nargs arguments, leaving all its
** results. An error it raises (a malformed pattern) is raised again with
** the caller's "file:line: ", as when a script calls it directly; a trip
** or a memory error is raised as such. */
static void pat_call(lua_State *L, int nargs) {
    int status = lua_pcall(L, nargs, LUA_MULTRET, 0);
    if (status == LUA_OK) return;
    sb_no_swallow(L, status);
    if (lua_type(L, -1) == LUA_TSTRING) {
        luaL_where(L, 1);
        lua_insert(L, -2);
        lua_concat(L, 2);
    }
    lua_error(L);
}

/* Calls string.find (upvalue 1) as find(s, p, init, plain) for the subject
** (n bytes) and pattern at stack indices s and p, which may try `starts`
** starts costing per each, or less as pat_range_cost says (pc NULL for a
** plain find). When `starts * per` fits in the budget left, that is one
** call, charged the worst case of the starts it tried (find returns where
** its match starts). Otherwise the starts are tried one at a time with the
** pattern anchored, each charged before it runs for the subject left after
** it, so the first match is still found when it is near; a start where the
** first item cannot match is charged pc->light and skipped. A literal pattern is searched as plain
** text, with no starts to try one by one. Every call of find is charged at
** least SANDBOX_PATTERN_CALL. Leaves find's results above the old top and
** returns their number (0: no match). */
static int pat_find(lua_State *L, int s, int p, size_t init, size_t n, lua_Integer per,
                    lua_Integer starts, const pat_cost *pc, int plain) {
    int base = lua_gettop(L);
    lua_Integer worst = cost_mul(starts, per);
    size_t pl;
    const char *ps = lua_tolstring(L, p, &pl), *ss = lua_tostring(L, s);
    if (plain || starts == 1 || pat_literal(ps, pl) || sb_fits(L, worst)) {
        sb_afford(L, worst);
        lua_pushvalue(L, lua_upvalueindex(1));
        lua_pushvalue(L, s);
        lua_pushvalue(L, p);
        lua_pushinteger(L, (lua_Integer)init);
        lua_pushboolean(L, plain);
        pat_call(L, 4);
        size_t last = lua_isnil(L, base + 1) ? init + (size_t)starts - 1
                                             : (size_t)lua_tointeger(L, base + 1);
        lua_Integer cost = pat_range_cost(pc, per, ss, n, init, last);
        sb_charge(L, cost > SANDBOX_PATTERN_CALL ? cost : SANDBOX_PATTERN_CALL);
        if (lua_isnil(L, base + 1)) {
            lua_settop(L, base);
            return 0;
        }
        return lua_gettop(L) - base;
    }
    lua_pushliteral(L, "^");
    lua_pushvalue(L, p);
    lua_concat(L, 2); /* base + 1: anchored */
    for (size_t pos = init; pos <= n + 1; pos++) {
        if (pc && pc->lead) { /* skip to a byte the first item can match */
            size_t from = pos;
            while (pos <= n && !cset_has(&pc->lead_set, (unsigned char)ss[pos - 1])) pos++;
            sb_charge(L, cost_mul((lua_Integer)(pos - from) + (pos > n), pc->light));
            if (pos > n) break;
        }
        lua_Integer here = pc ? pat_per_start(pc, n + 1 - pos) : per; /* what is left */
        sb_charge(L, here > SANDBOX_PATTERN_CALL ? here : SANDBOX_PATTERN_CALL);
        lua_pushvalue(L, lua_upvalueindex(1));
        lua_pushvalue(L, s);
        lua_pushvalue(L, base + 1);
        lua_pushinteger(L, (lua_Integer)pos);
        pat_call(L, 3);
        if (!lua_isnil(L, base + 2)) {
            lua_remove(L, base + 1);
            return lua_gettop(L) - base;
        }
        lua_settop(L, base + 1);
    }
    lua_settop(L, base);
    return 0;
}

/* Pushes what match and gmatch answer for find's results (nres of them, on
** top, above the subject s): the captures, or the whole match when there
** are none. Returns how many. */
static int pat_captures(lua_State *L, const char *s, int nres) {
    if (nres > 2) return nres - 2;
    lua_Integer st = lua_tointeger(L, -2), en = lua_tointeger(L, -1);
    lua_pushlstring(L, s + st - 1, (size_t)(en - st + 1));
    return 1;
}

/* string.find takes a literal pattern (pat_literal) as plain text, yet the
** matcher raises at a ')' in it once it gets there (no capture is open):
** match and gmatch, which search with find, must raise as Lua's do.
** Returns 0 for other patterns; else raises when the text before the ')'
** occurs in s from the 1-based start init, and returns 1 (no match). */
static int pat_stray_paren(lua_State *L, const char *s, size_t n, const char *p, size_t pl,
                           size_t init) {
    const char *close = memchr(p, ')', pl);
    if (!close || !pat_literal(p, pl)) return 0;
    size_t k = (size_t)(close - p);
    sb_charge(L, cost_mul((lua_Integer)(n + 2 - init), (lua_Integer)k + 1));
    for (size_t i = init - 1; i + k <= n; i++)
        if (memcmp(s + i, p, k) == 0) luaL_error(L, "invalid pattern capture");
    return 1;
}

/* find (want_pos) and match: s, p, init at 1, 2, 3. */
static int pat_search(lua_State *L, int want_pos, int plain) {
    size_t n, pl;
    const char *s = luaL_checklstring(L, 1, &n);
    const char *p = luaL_checklstring(L, 2, &pl);
    size_t init = str_init(L, 3, n);
    if (!plain) pat_check(L, pl, want_pos ? "find" : "match");
    if (init > n + 1) {
        luaL_pushfail(L);
        return 1;
    }
    if (!want_pos && !plain && pat_stray_paren(L, s, n, p, pl, init)) {
        luaL_pushfail(L);
        return 1;
    }
    size_t m = n + 1 - init;
    lua_Integer per, starts = (lua_Integer)m + 1;
    pat_cost pc;
    if (plain) { /* compares at the starts where p fits */
        per = cost_add((lua_Integer)pl, 1);
        starts = pl < m ? (lua_Integer)(m - pl) + 1 : 1;
    } else {
        pat_cost_of(L, p, pl, 0, s + init - 1, m, &pc);
        per = pat_per_start(&pc, m);
        if (pc.anchored) starts = 1;
    }
    int nres = pat_find(L, 1, 2, init, n, per, starts, plain ? NULL : &pc, plain);
    if (nres == 0) {
        luaL_pushfail(L);
        return 1;
    }
    return want_pos ? nres : pat_captures(L, s, nres);
}

/* string.find(s, p [, init [, plain]]); a plain find costs #p + 1 at each
** start where p fits. */
int sb_sfind(lua_State *L) { return pat_search(L, 1, lua_toboolean(L, 4)); }

/* string.match(s, p [, init]), answered by string.find (upvalue 1). */
int sb_smatch(lua_State *L) { return pat_search(L, 0, 0); }

/* A gmatch in progress: the next start, the end of the last match (0:
** none), and the estimate for the subject from the first start. */
typedef struct gm_state {
    size_t src, lastmatch;
    pat_cost pc;
} gm_state;

/* The iterator string.gmatch returns. Upvalues: string.find, the subject,
** the pattern (a leading '^' escaped), the gm_state. Each iteration is a
** find from the next start, charged as a find is; as in Lua, an empty
** match where the last one ended is skipped. */
static int sb_gmatch_iter(lua_State *L) {
    gm_state *g = lua_touserdata(L, lua_upvalueindex(4));
    size_t n;
    const char *s = lua_tolstring(L, lua_upvalueindex(2), &n);
    lua_settop(L, 0);
    lua_pushvalue(L, lua_upvalueindex(2)); /* 1 */
    lua_pushvalue(L, lua_upvalueindex(3)); /* 2 */
    size_t pl;
    const char *p = lua_tolstring(L, 2, &pl);
    if (g->src <= n + 1 && pat_stray_paren(L, s, n, p, pl, g->src)) {
        g->src = n + 2;
        return 0;
    }
    while (g->src <= n + 1) {
        size_t m = n + 1 - g->src;
        int nres =
            pat_find(L, 1, 2, g->src, n, pat_per_start(&g->pc, m), (lua_Integer)m + 1, &g->pc, 0);
        if (nres == 0) {
            g->src = n + 2;
            return 0;
        }
        size_t st = (size_t)lua_tointeger(L, 3), en = (size_t)lua_tointeger(L, 4);
        if (en + 1 == g->lastmatch) { /* empty, where the last match ended */
            g->src = st + 1;
            lua_settop(L, 2);
            continue;
        }
        g->src = g->lastmatch = en + 1;
        return pat_captures(L, s, nres);
    }
    return 0;
}

/* string.gmatch(s, p [, init]); upvalue 1 is string.find. The subject's
** runs are measured once, here. */
int sb_gmatch(lua_State *L) {
    size_t n, pl;
    const char *s = luaL_checklstring(L, 1, &n);
    const char *p = luaL_checklstring(L, 2, &pl);
    size_t init = str_init(L, 3, n);
    pat_check(L, pl, "gmatch");
    lua_settop(L, 2);
    gm_state *g = lua_newuserdatauv(L, sizeof *g, 0); /* 3 */
    g->src = init;
    g->lastmatch = 0;
    size_t m = init <= n + 1 ? n + 1 - init : 0;
    pat_cost_of(L, p, pl, 1, s + (init <= n + 1 ? init - 1 : n), m, &g->pc);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_pushvalue(L, 1);
    if (pl > 0 && p[0] == '^') { /* a plain character to gmatch, an anchor to find */
        lua_pushliteral(L, "%");
        lua_pushvalue(L, 2);
        lua_concat(L, 2);
    } else {
        lua_pushvalue(L, 2);
    }
    lua_pushvalue(L, 3);
    lua_pushcclosure(L, sb_gmatch_iter, 4);
    return 1;
}

/* string.gsub(s, p, repl [, n]): it tries every start, so the whole worst
** case is charged before it runs. Upvalue 1 is the original. A replacement
** string runs no Lua, so the errors are gsub's own and get the caller's
** location; a function's or a table's errors pass as they are. */
int sb_sgsub(lua_State *L) {
    size_t n, pl;
    const char *s = luaL_checklstring(L, 1, &n);
    const char *p = luaL_checklstring(L, 2, &pl);
    pat_check(L, pl, "gsub");
    pat_cost pc;
    pat_cost_of(L, p, pl, 0, s, n, &pc);
    lua_Integer per = pat_per_start(&pc, n);
    lua_Integer worst = pc.anchored ? per : pat_range_cost(&pc, per, s, n, 1, n + 1);
    sb_charge(L, worst > SANDBOX_PATTERN_CALL ? worst : SANDBOX_PATTERN_CALL);
    int top = lua_gettop(L);
    int plain_repl = lua_type(L, 3) == LUA_TSTRING || lua_type(L, 3) == LUA_TNUMBER;
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    if (plain_repl)
        pat_call(L, top);
    else
        lua_call(L, top, LUA_MULTRET);
    return lua_gettop(L);
}
