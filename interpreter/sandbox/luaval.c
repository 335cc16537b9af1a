/*
** luaval.c
** Value trees to Lua and back. Pushing runs protected (it allocates in Lua);
** reading back allocates only with malloc, so it needs no protection and
** cannot be stopped half-way by a Lua error.
*/
#include "luaval.h"
#include "luaval_internal.h"
#include "limits.h"
#include "limits_env.h"
#include "sandbox.h"

#include <ctype.h>
#include <stdint.h>
#include <stdarg.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include <lauxlib.h>

/* ------------------------------------------------------------------ paths */

/* The path of the node being converted, grown and cut as the walk goes. */
typedef struct vpath {
    char *s;
    size_t n, cap;
    int oom;
    int off; /* a first walk keeps no path: one is walked again to say where it failed */
} vpath;

static void path_init(vpath *p, const char *what) {
    memset(p, 0, sizeof *p);
    size_t n = strlen(what);
    p->cap = n + 64;
    p->s = malloc(p->cap);
    if (!p->s) {
        p->oom = 1;
        p->cap = 0;
        return;
    }
    memcpy(p->s, what, n + 1);
    p->n = n;
}

/* Appends a printf-formatted segment; returns the old length, to cut back
** to with path_cut. */
static size_t path_add(vpath *p, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

static size_t path_add(vpath *p, const char *fmt, ...) {
    size_t old = p->n;
    if (p->oom || p->off) return old;
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(p->s + p->n, p->cap - p->n, fmt, ap);
    va_end(ap);
    if (k < 0) {
        p->oom = 1;
        return old;
    }
    if ((size_t)k >= p->cap - p->n) {
        size_t cap = p->cap * 2 + (size_t)k;
        char *s = realloc(p->s, cap);
        if (!s) {
            p->oom = 1;
            return old;
        }
        p->s = s;
        p->cap = cap;
        va_start(ap, fmt);
        vsnprintf(p->s + p->n, p->cap - p->n, fmt, ap);
        va_end(ap);
    }
    p->n += (size_t)k;
    return old;
}

static void path_cut(vpath *p, size_t n) {
    if (p->oom || !p->s) return;
    p->n = n;
    p->s[n] = '\0';
}

static const char *path_str(const vpath *p) { return p->oom || !p->s ? "?" : p->s; }

static int is_ident(const char *s, size_t n) {
    if (n == 0 || !(isalpha((unsigned char)s[0]) || s[0] == '_')) return 0;
    for (size_t i = 0; i < n; i++)
        if (!(isalnum((unsigned char)s[i]) || s[i] == '_')) return 0;
    return 1;
}

/* Appends the segment for map key k: ".name" or ["odd key"]. */
static size_t path_key(vpath *p, const char *k, size_t n) {
    if (p->off) return p->n;
    if (is_ident(k, n)) return path_add(p, ".%.*s", (int)n, k);
    return path_add(p, "[\"%.*s\"]", (int)n, k);
}

/* -------------------------------------------------------- value -> Lua */

typedef struct push_ctx {
    const value *root;
    cerr_list *errs;
    vpath path;
    int reported; /* an error was added to errs */
} push_ctx;

/* Records an error at node v and raises (the caller's lua_pcall catches it;
** everything malloc'd lives in ctx). */
static void push_fail(lua_State *L, push_ctx *c, const value *v, const char *msg) {
    if (c->errs) {
        cerr_add(c->errs, v && v->file ? v->file->name : NULL, v ? v->line : 0, v ? v->col : 0,
                 path_str(&c->path), "%s", msg);
        c->reported = 1;
    }
    luaL_error(L, "%s", msg);
}

static void push_rec(lua_State *L, push_ctx *c, const value *v, int depth) {
    if (depth > CAIRN_YAML_MAX_DEPTH) push_fail(L, c, v, "nested too deeply");
    luaL_checkstack(L, 4, "nested too deeply");
    switch (v->type) {
    case CV_NULL: lua_pushnil(L); break;
    case CV_BOOL: lua_pushboolean(L, v->u.b); break;
    case CV_INT: lua_pushinteger(L, (lua_Integer)v->u.i); break;
    case CV_STR: lua_pushlstring(L, v->u.str.s, v->u.str.len); break;
    case CV_LIST: {
        size_t n = v->u.list.n;
        if (n > (size_t)INT32_MAX) push_fail(L, c, v, "list too long");
        lua_createtable(L, (int)n, 0);
        for (size_t i = 0; i < n; i++) {
            const value *item = v->u.list.items[i];
            size_t cut = path_add(&c->path, "[%zu]", i + 1);
            if (item->type == CV_NULL)
                push_fail(L, c, item, "a list cannot hold null (Lua would see a hole)");
            push_rec(L, c, item, depth + 1);
            lua_rawseti(L, -2, (lua_Integer)i + 1);
            path_cut(&c->path, cut);
        }
        break;
    }
    case CV_MAP: {
        size_t n = v->u.map.n;
        if (n > (size_t)INT32_MAX) push_fail(L, c, v, "map too large");
        lua_createtable(L, 0, (int)n);
        for (size_t i = 0; i < n; i++) {
            const cv_entry *e = &v->u.map.items[i];
            if (e->val->type == CV_NULL) continue;
            size_t cut = path_key(&c->path, e->key->u.str.s, e->key->u.str.len);
            lua_pushlstring(L, e->key->u.str.s, e->key->u.str.len);
            push_rec(L, c, e->val, depth + 1);
            lua_rawset(L, -3);
            path_cut(&c->path, cut);
        }
        break;
    }
    }
}

void luaval_push_raw(lua_State *L, const value *v) {
    push_ctx c = {v, NULL, {0}, 0};
    c.path.off = 1; /* no path: a failure raises the message alone */
    push_rec(L, &c, v, 1);
}

static int push_protected(lua_State *L) {
    push_ctx *c = lua_touserdata(L, 1);
    lua_settop(L, 0);
    push_rec(L, c, c->root, 1);
    return 1;
}

static int push_walk(lua_State *L, const value *v, const char *what, cerr_list *errs, int paths);

int luaval_push_checked(lua_State *L, const value *v, const char *what, cerr_list *errs) {
    /* as luaval_to_value: paths only for a walk that failed, walked again */
    if (push_walk(L, v, what, NULL, 0) == 0) return 0;
    return errs ? push_walk(L, v, what, errs, 1) : -1;
}

static int push_walk(lua_State *L, const value *v, const char *what, cerr_list *errs, int paths) {
    push_ctx c = {v, errs, {0}, 0};
    if (!v) return -1;
    if (!lua_checkstack(L, 3)) {
        if (errs) cerr_add(errs, NULL, 0, 0, what, "no room on the Lua stack");
        return -1;
    }
    path_init(&c.path, what ? what : "value");
    c.path.off = !paths;
    lua_pushcfunction(L, push_protected);
    lua_pushlightuserdata(L, &c);
    int status = lua_pcall(L, 1, 1, 0);
    if (status != LUA_OK) {
        if (errs && !c.reported)
            cerr_add(errs, NULL, 0, 0, path_str(&c.path), "cannot convert to Lua: %s",
                     status == LUA_ERRMEM ? "out of memory (memory cap reached?)"
                                          : lua_tostring(L, -1) ? lua_tostring(L, -1) : "?");
        lua_pop(L, 1);
    }
    free(c.path.s);
    return status == LUA_OK ? 0 : -1;
}

int luaval_push(lua_State *L, const value *v) { return luaval_push_checked(L, v, NULL, NULL); }

int luaval_push_readonly(lua_State *L, const value *v, const char *what, cerr_list *errs) {
    if (luaval_push_checked(L, v, what, errs) != 0) return -1;
    if (sandbox_freeze(L, -1, what ? what : "value") != 0) {
        lua_pop(L, 1);
        if (errs) cerr_add(errs, NULL, 0, 0, what, "cannot make read-only: out of memory");
        return -1;
    }
    return 0;
}

/* The game state's node bound, read from the environment once: a walk
** runs after every decision, and the environment does not change under a
** running cairn (the one static of this file, for that reason). */
static long state_nodes_max(void) {
    static long max;
    if (!max) max = limits_env_count("CAIRN_STATE_MAX_NODES", CAIRN_STATE_MAX_NODES);
    return max;
}

long luaval_nodes_max(const char *what) {
    size_t n = strlen("state");
    if (!what || (strncmp(what, "state", n) == 0 && (!what[n] || what[n] == '.' || what[n] == '['))) {
        long s = state_nodes_max();
        return s < CAIRN_YAML_MAX_NODES ? s : CAIRN_YAML_MAX_NODES;
    }
    return CAIRN_YAML_MAX_NODES;
}

/* -------------------------------------------------------- Lua -> value */

typedef struct read_ctx {
    lua_State *L;
    cerr_list *errs;
    vpath path;
    const void *open[CAIRN_YAML_MAX_DEPTH + 2]; /* tables being read: cycles */
    int depth;
    long nodes, max_nodes; /* luaval_nodes_max */
    size_t bytes; /* of string values so far: CAIRN_PLAIN_MAX_BYTES */
} read_ctx;

/* Records why the value cannot be read, with its key (base/error.h): fmt's
** only conversions are %s, taken by a0, a1, a2 in order (NULL past the
** last), and the console words it by "error.KEY" in the game's language.
** Returns NULL. */
static value *read_fail(read_ctx *c, const char *key, const char *fmt, const char *a0, const char *a1,
                         const char *a2) {
    if (c->errs) cerr_addk(c->errs, NULL, 0, 0, path_str(&c->path), key, fmt, a0, a1, a2);
    return NULL;
}

/* Strict UTF-8: no overlong forms, no surrogates, nothing past U+10FFFF. */
static int utf8_valid(const unsigned char *s, size_t n) {
    size_t i = 0;
    while (i < n) {
        unsigned c = s[i];
        size_t k;
        unsigned cp, min;
        if (c < 0x80) {
            i++;
            continue;
        } else if ((c & 0xE0) == 0xC0) {
            k = 1, cp = c & 0x1F, min = 0x80;
        } else if ((c & 0xF0) == 0xE0) {
            k = 2, cp = c & 0x0F, min = 0x800;
        } else if ((c & 0xF8) == 0xF0) {
            k = 3, cp = c & 0x07, min = 0x10000;
        } else {
            return 0;
        }
        if (n - i <= k) return 0; /* truncated */
        for (size_t j = 1; j <= k; j++) {
            if ((s[i + j] & 0xC0) != 0x80) return 0;
            cp = (cp << 6) | (s[i + j] & 0x3F);
        }
        if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
        i += k + 1;
    }
    return 1;
}

/* Checks a string (value or key) can be written to YAML and read back. */
static int string_ok(read_ctx *c, const char *s, size_t n, int is_key) {
    if (n > (size_t)CAIRN_YAML_MAX_STRING) {
        char len[24], most[24];
        snprintf(len, sizeof len, "%zu", n);
        snprintf(most, sizeof most, "%ld", (long)CAIRN_YAML_MAX_STRING);
        if (is_key)
            read_fail(c, "plain.key_too_long", "a key of %s bytes is longer than the limit of %s", len, most, NULL);
        else
            read_fail(c, "plain.string_too_long", "a string of %s bytes is longer than the limit of %s", len, most,
                       NULL);
        return 0;
    }
    if (!utf8_valid((const unsigned char *)s, n)) {
        if (is_key) read_fail(c, "plain.key_utf8", "a key is not valid UTF-8", NULL, NULL, NULL);
        else read_fail(c, "plain.string_utf8", "a string is not valid UTF-8", NULL, NULL, NULL);
        return 0;
    }
    if (is_key && memchr(s, '\0', n)) {
        read_fail(c, "plain.key_nul", "a key contains a NUL byte", NULL, NULL, NULL);
        return 0;
    }
    return 1;
}

static value *read_rec(read_ctx *c, int idx);


int luaval_skey_cmp(const void *pa, const void *pb) {
    const skey *a = pa, *b = pb;
    size_t n = a->len < b->len ? a->len : b->len;
    int r = memcmp(a->s, b->s, n);
    if (r) return r < 0 ? -1 : 1;
    return a->len < b->len ? -1 : a->len > b->len;
}

static value *read_list(read_ctx *c, int t, lua_Integer n) {
    lua_State *L = c->L;
    value *list = value_list();
    if (!list) return read_fail(c, "oom", "out of memory", NULL, NULL, NULL);
    for (lua_Integer i = 1; i <= n; i++) {
        size_t cut = path_add(&c->path, "[%lld]", (long long)i);
        lua_rawgeti(L, t, i);
        value *item = read_rec(c, lua_gettop(L));
        lua_pop(L, 1);
        path_cut(&c->path, cut);
        if (!item) {
            value_free(list);
            return NULL;
        }
        if (value_list_push(list, item) != 0) {
            value_free(list);
            return read_fail(c, "oom", "out of memory", NULL, NULL, NULL);
        }
    }
    return list;
}

/* Reads a table with n string keys as a map, keys sorted by bytes. */
static value *read_map(read_ctx *c, int t, lua_Integer n) {
    lua_State *L = c->L;
    if (n > CAIRN_YAML_MAX_NODES || !lua_checkstack(L, (int)n + 4)) {
        char nk[24];
        snprintf(nk, sizeof nk, "%lld", (long long)n);
        return read_fail(c, "plain.map_too_large", "a map of %s keys is too large", nk, NULL, NULL);
    }
    int base = lua_gettop(L);
    lua_pushnil(L);
    while (lua_next(L, t)) { /* keep a copy of each key below the iteration key */
        lua_pop(L, 1);
        lua_pushvalue(L, -1);
        lua_insert(L, -2);
    }
    skey *ks = malloc((size_t)(n ? n : 1) * sizeof *ks);
    value *map = value_map();
    cv_entry *items = malloc((size_t)(n ? n : 1) * sizeof *items);
    if (!ks || !map || !items) {
        free(ks);
        free(items);
        value_free(map);
        lua_settop(L, base);
        return read_fail(c, "oom", "out of memory", NULL, NULL, NULL);
    }
    for (lua_Integer i = 0; i < n; i++) {
        ks[i].slot = base + 1 + (int)i;
        ks[i].s = lua_tolstring(L, ks[i].slot, &ks[i].len); /* keys are strings: no conversion */
    }
    qsort(ks, (size_t)n, sizeof *ks, luaval_skey_cmp);
    /* the map owns items from here; n grows as entries are complete */
    map->u.map.items = items;
    map->u.map.cap = (size_t)(n ? n : 1);
    for (lua_Integer i = 0; i < n; i++) {
        size_t cut = path_key(&c->path, ks[i].s, ks[i].len);
        if (!string_ok(c, ks[i].s, ks[i].len, 1)) goto fail;
        value *k = value_strn(ks[i].s, ks[i].len);
        if (!k) {
            read_fail(c, "oom", "out of memory", NULL, NULL, NULL);
            goto fail;
        }
        lua_pushvalue(L, ks[i].slot);
        lua_rawget(L, t);
        value *v = read_rec(c, lua_gettop(L));
        lua_pop(L, 1);
        if (!v) {
            value_free(k);
            goto fail;
        }
        path_cut(&c->path, cut);
        items[map->u.map.n].key = k;
        items[map->u.map.n].val = v;
        map->u.map.n++;
    }
    free(ks);
    lua_settop(L, base);
    return map;
fail:
    free(ks);
    value_free(map);
    lua_settop(L, base);
    return NULL;
}

int luaval_plain_table(lua_State *L, int idx) {
    if (!lua_getmetatable(L, idx)) return idx; /* the usual plain table, asked first */
    lua_pop(L, 1);
    return sandbox_readonly_target(L, idx) ? lua_gettop(L) : 0; /* a view walks its target */
}

static value *read_table(read_ctx *c, int idx) {
    lua_State *L = c->L;
    if (c->depth >= CAIRN_YAML_MAX_DEPTH) {
        char most[16];
        snprintf(most, sizeof most, "%d", CAIRN_YAML_MAX_DEPTH);
        return read_fail(c, "plain.too_deep", "nested deeper than %s levels", most, NULL, NULL);
    }
    if (!lua_checkstack(L, 8))
        return read_fail(c, "plain.too_deep_stack", "nested too deeply for the Lua stack", NULL, NULL, NULL);
    int top = lua_gettop(L);
    int t = luaval_plain_table(L, idx);
    if (!t) return read_fail(c, "plain.metatable", "a table with a metatable is not plain data", NULL, NULL, NULL);
    const void *self = lua_topointer(L, t);
    for (int i = 0; i < c->depth; i++) {
        if (c->open[i] == self) {
            lua_settop(L, top);
            return read_fail(c, "plain.cycle", "a table that contains itself (a cycle) cannot be stored", NULL, NULL,
                              NULL);
        }
    }

    /* what kind of keys */
    lua_Integer n_int = 0, n_str = 0, max_int = 0, min_int = 0;
    const char *bad = NULL;
    lua_pushnil(L);
    while (lua_next(L, t)) {
        lua_pop(L, 1);
        int kt = lua_type(L, -1);
        if (kt == LUA_TSTRING) {
            n_str++;
        } else if (kt == LUA_TNUMBER && lua_isinteger(L, -1)) {
            lua_Integer k = lua_tointeger(L, -1);
            if (n_int == 0 || k > max_int) max_int = k;
            if (n_int == 0 || k < min_int) min_int = k;
            n_int++;
        } else if (!bad) {
            bad = kt == LUA_TNUMBER ? "float" : lua_typename(L, kt);
        }
    }
    value *r = NULL;
    if (bad) {
        r = read_fail(c, "plain.bad_key", "keys must be strings (a map) or integers 1..n (a list); found a %s key", bad,
                       NULL, NULL);
    } else if (n_int && n_str) {
        r = read_fail(c, "plain.mixed", "a table mixes list items (integer keys) and map fields (string keys)", NULL,
                       NULL, NULL);
    } else if (n_int && (min_int != 1 || max_int != n_int)) {
        char nk[24], lo[24], hi[24];
        snprintf(nk, sizeof nk, "%lld", (long long)n_int);
        snprintf(lo, sizeof lo, "%lld", (long long)min_int);
        snprintf(hi, sizeof hi, "%lld", (long long)max_int);
        r = read_fail(c, "plain.holes",
                      "not a list: integer keys must be 1..n without holes (found %s keys from %s to %s)", nk, lo,
                      hi);
    } else {
        c->open[c->depth++] = self;
        r = n_int ? read_list(c, t, n_int) : read_map(c, t, n_str);
        c->depth--;
    }
    lua_settop(L, top);
    return r;
}

static value *read_rec(read_ctx *c, int idx) {
    lua_State *L = c->L;
    if (++c->nodes > c->max_nodes) {
        char most[24];
        snprintf(most, sizeof most, "%ld", c->max_nodes);
        return c->max_nodes == CAIRN_YAML_MAX_NODES
                   ? read_fail(c, "plain.nodes_document", "more than %s values (the limit for a document)", most, NULL,
                                NULL)
                   : read_fail(c, "plain.nodes_state", "more than %s values (the limit for a game "
                                "state, CAIRN_STATE_MAX_NODES: each is copied to C after every "
                                "decision; keep fewer, larger values)", most, NULL, NULL);
    }
    value *v = NULL;
    switch (lua_type(L, idx)) {
    case LUA_TNIL: v = value_null(); break;
    case LUA_TBOOLEAN: v = value_bool(lua_toboolean(L, idx)); break;
    case LUA_TNUMBER:
        if (!lua_isinteger(L, idx)) {
            lua_Number x = lua_tonumber(L, idx);
            /* the range first: casting NaN or a huge float is undefined */
            char got[48];
            if (x > -1e18 && x < 1e18 && x == (lua_Number)(long long)x) {
                snprintf(got, sizeof got, "%.1f", (double)x);
                return read_fail(c, "plain.float_whole", "floats are not allowed (use integers), got %s; "
                                  "use // or math.tointeger", got, NULL, NULL);
            }
            snprintf(got, sizeof got, "%.14g", (double)x);
            return read_fail(c, "plain.float", "floats are not allowed (use integers), got %s", got, NULL, NULL);
        }
        v = value_int((int64_t)lua_tointeger(L, idx));
        break;
    case LUA_TSTRING: {
        size_t n;
        const char *s = lua_tolstring(L, idx, &n);
        if (!string_ok(c, s, n, 0)) return NULL;
        if ((c->bytes += n) > (size_t)CAIRN_PLAIN_MAX_BYTES)
        {
            char most[24];
            snprintf(most, sizeof most, "%ld", (long)CAIRN_PLAIN_MAX_BYTES);
            return read_fail(c, "plain.bytes", "more than %s bytes of strings (the limit for a document, "
                              "CAIRN_PLAIN_MAX_BYTES; a string kept in many places counts at each)", most, NULL, NULL);
        }
        v = value_strn(s, n);
        break;
    }
    case LUA_TTABLE: return read_table(c, idx);
    default:
        return read_fail(c, "plain.cannot_store", "a %s cannot be stored (state is plain data: maps, lists, strings, "
                          "integers, booleans)", luaL_typename(L, idx), NULL, NULL);
    }
    if (!v) return read_fail(c, "oom", "out of memory", NULL, NULL, NULL);
    return v;
}

/* One walk; with paths 0 no path is formatted and nothing reported. */
static value *read_walk(lua_State *L, int idx, const char *what, cerr_list *errs, int paths) {
    read_ctx c;
    memset(&c, 0, sizeof c);
    c.L = L;
    c.errs = paths ? errs : NULL;
    path_init(&c.path, what ? what : "value");
    c.path.off = !paths;
    c.max_nodes = luaval_nodes_max(what);
    value *v = read_rec(&c, lua_absindex(L, idx));
    free(c.path.s);
    return v;
}

value *luaval_to_value(lua_State *L, int idx, const char *what, cerr_list *errs) {
    /* formatting the path of every node costs more than the walk: only a
    ** walk that failed is walked again, with paths, to say where */
    value *v = read_walk(L, idx, what, errs, 0);
    if (!v && errs) v = read_walk(L, idx, what, errs, 1);
    return v;
}

/* ------------------------------------------- checking without building */

/* The plain-data check of the hot path: luaval_to_value's rules, plus "a
** tree" (no table reachable twice: a copy would come back from a save or a
** checkpoint as two tables, and the game would no longer replay), walked
** without allocating in Lua or formatting paths. Only when it fails does
** luaval_to_value walk again to say where. */

void luaval_seen_init(seen_set *c) {
    c->seen = c->inline_seen;
    c->seen_cap = LUAVAL_SEEN_INLINE;
    c->seen_n = 0;
    memset(c->inline_seen, 0, sizeof c->inline_seen);
}

void luaval_seen_free(seen_set *c) {
    if (c->seen != c->inline_seen) free(c->seen);
}

typedef struct check_ctx {
    lua_State *L;
    const void *open[CAIRN_YAML_MAX_DEPTH + 2];
    int depth;
    long nodes, max_nodes; /* luaval_nodes_max */
    size_t bytes;      /* of string values: CAIRN_PLAIN_MAX_BYTES, as read_ctx */
    seen_set set;
    int alias;         /* failed on the tree rule */
    int oom;
    /* the last strings found plain, by object: a state repeats a few
    ** strings many times (a board's cells), checked once each */
    const void *plain_str[4];
    size_t plain_len[4];
    unsigned plain_next;
} check_ctx;

/* Adds p to the set; 1 if it was there already, -1 out of memory. */
int luaval_seen_add(seen_set *c, const void *p) {
    if ((c->seen_n + 1) * 2 > c->seen_cap) {
        size_t cap = c->seen_cap * 4;
        const void **s = calloc(cap, sizeof *s);
        if (!s) return -1;
        for (size_t i = 0; i < c->seen_cap; i++) {
            if (!c->seen[i]) continue;
            size_t h = ((uintptr_t)c->seen[i] >> 4) & (cap - 1);
            while (s[h]) h = (h + 1) & (cap - 1);
            s[h] = c->seen[i];
        }
        if (c->seen != c->inline_seen) free(c->seen);
        c->seen = s;
        c->seen_cap = cap;
    }
    size_t h = ((uintptr_t)p >> 4) & (c->seen_cap - 1);
    while (c->seen[h]) {
        if (c->seen[h] == p) return 1;
        h = (h + 1) & (c->seen_cap - 1);
    }
    c->seen[h] = p;
    c->seen_n++;
    return 0;
}

int luaval_string_plain(const char *s, size_t n, int is_key) {
    return n <= (size_t)CAIRN_YAML_MAX_STRING && utf8_valid((const unsigned char *)s, n) &&
           !(is_key && memchr(s, '\0', n));
}

static int check_rec(check_ctx *c, int idx);

/* The string at idx (a value): counted, and plain (luaval_string_plain). */
static int check_string(check_ctx *c, int idx) {
    lua_State *L = c->L;
    const void *p = lua_topointer(L, idx);
    size_t n;
    for (unsigned i = 0; i < 4; i++) {
        if (c->plain_str[i] == p) {
            n = c->plain_len[i];
            return (c->bytes += n) > (size_t)CAIRN_PLAIN_MAX_BYTES ? -1 : 0;
        }
    }
    const char *s = lua_tolstring(L, idx, &n);
    if ((c->bytes += n) > (size_t)CAIRN_PLAIN_MAX_BYTES || !luaval_string_plain(s, n, 0)) return -1;
    c->plain_str[c->plain_next & 3] = p;
    c->plain_len[c->plain_next & 3] = n;
    c->plain_next++;
    return 0;
}

static int check_table(check_ctx *c, int idx) {
    lua_State *L = c->L;
    if (c->depth >= CAIRN_YAML_MAX_DEPTH || !lua_checkstack(L, 6)) return -1;
    int top = lua_gettop(L);
    int t = luaval_plain_table(L, idx);
    if (!t) return -1;
    const void *self = lua_topointer(L, t);
    int dup = luaval_seen_add(&c->set, self);
    if (dup != 0) {
        if (dup < 0) c->oom = 1;
        else c->alias = 1;
        lua_settop(L, top);
        return -1;
    }
    c->open[c->depth++] = self;
    int rc = 0;
    size_t len = lua_rawlen(L, t);
    if (len > 0) {
        /* a list, most of a big state: its items by index (no lua_next
        ** each); t[len + 1] is nil (a border), so a key past the items
        ** makes it no list, and no plain data */
        for (size_t i = 1; rc == 0 && i <= len; i++) {
            int vt = lua_rawgeti(L, t, (lua_Integer)i);
            if (vt == LUA_TNIL) rc = -1;
            else if (vt == LUA_TNUMBER) rc = ++c->nodes > c->max_nodes || !lua_isinteger(L, -1) ? -1 : 0;
            else if (vt == LUA_TSTRING) rc = ++c->nodes > c->max_nodes ? -1 : check_string(c, -1);
            else rc = check_rec(c, lua_gettop(L)); /* check_rec's own rules, as for any value */
            lua_pop(L, 1);
        }
        if (rc == 0) {
            lua_pushinteger(L, (lua_Integer)len); /* a key that is there: next cannot raise */
            if (lua_next(L, t)) rc = -1;
        }
        c->depth--;
        lua_settop(L, top);
        return rc;
    }
    lua_Integer n_int = 0, n_str = 0, max_int = 0, min_int = 0;
    lua_pushnil(L);
    while (rc == 0 && lua_next(L, t)) {
        int kt = lua_type(L, -2);
        if (kt == LUA_TSTRING) {
            size_t n;
            const char *k = lua_tolstring(L, -2, &n);
            if (!luaval_string_plain(k, n, 1)) rc = -1;
            n_str++;
        } else if (kt == LUA_TNUMBER && lua_isinteger(L, -2)) {
            lua_Integer k = lua_tointeger(L, -2);
            if (n_int == 0 || k > max_int) max_int = k;
            if (n_int == 0 || k < min_int) min_int = k;
            n_int++;
        } else {
            rc = -1;
        }
        if (rc == 0 && (n_int && n_str)) rc = -1;
        if (rc == 0) rc = check_rec(c, lua_gettop(L));
        lua_pop(L, 1);
    }
    if (rc == 0 && n_int && (min_int != 1 || max_int != n_int)) rc = -1;
    c->depth--;
    lua_settop(L, top);
    return rc;
}

static int check_rec(check_ctx *c, int idx) {
    lua_State *L = c->L;
    if (++c->nodes > c->max_nodes) return -1;
    switch (lua_type(L, idx)) {
    case LUA_TNIL:
    case LUA_TBOOLEAN: return 0;
    case LUA_TNUMBER: return lua_isinteger(L, idx) ? 0 : -1;
    case LUA_TSTRING: return check_string(c, idx);
    case LUA_TTABLE: return check_table(c, idx);
    default: return -1;
    }
}

int luaval_check(lua_State *L, int idx, const char *what, cerr_list *errs) {
    check_ctx c;
    c.L = L;
    c.depth = 0;
    c.nodes = 0;
    c.max_nodes = luaval_nodes_max(what);
    c.bytes = 0;
    luaval_seen_init(&c.set);
    c.alias = c.oom = 0;
    memset(c.plain_str, 0, sizeof c.plain_str);
    c.plain_next = 0;
    idx = lua_absindex(L, idx);
    int rc = check_rec(&c, idx);
    luaval_seen_free(&c.set);
    if (rc == 0) return 0;
    if (c.oom) {
        if (errs) errs->oom = 1;
        return -1;
    }
    /* walk again, the slow way, to say where */
    cerr_list local;
    cerr_init(&local, 0);
    value *v = luaval_to_value(L, idx, what, errs ? errs : &local);
    cerr_free(&local);
    if (v) {
        value_free(v);
        if (errs)
        {
            if (c.alias)
                cerr_addk(errs, NULL, 0, 0, what, "plain.alias",
                          "the same table is stored twice in it (state must be a tree: "
                          "store a copy, or an id to look it up by)");
            else
                cerr_addk(errs, NULL, 0, 0, what, "plain.not_plain", "not plain data");
        }
    }
    return -1;
}

/* ------------------------------------------- copying between two states */

typedef struct copy_ctx {
    lua_State *from;
    int idx;
    int depth;
    const char *bad; /* what could not be copied */
} copy_ctx;

/* Pushes onto L (protected) a copy of the value at idx of c->from. Reads
** from c->from allocate nothing (lua_next, strings as they are). */
static void copy_rec(lua_State *L, copy_ctx *c, int idx) {
    lua_State *F = c->from;
    switch (lua_type(F, idx)) {
    case LUA_TNIL: lua_pushnil(L); return;
    case LUA_TBOOLEAN: lua_pushboolean(L, lua_toboolean(F, idx)); return;
    case LUA_TNUMBER:
        if (lua_isinteger(F, idx)) lua_pushinteger(L, lua_tointeger(F, idx));
        else lua_pushnumber(L, lua_tonumber(F, idx));
        return;
    case LUA_TSTRING: {
        size_t n;
        const char *s = lua_tolstring(F, idx, &n);
        lua_pushlstring(L, s, n);
        return;
    }
    case LUA_TTABLE: break;
    default:
        c->bad = lua_typename(F, lua_type(F, idx));
        luaL_error(L, "cannot copy a %s", c->bad);
        return;
    }
    if (++c->depth > CAIRN_YAML_MAX_DEPTH || !lua_checkstack(F, 4)) luaL_error(L, "nested too deeply to copy");
    luaL_checkstack(L, 4, "copy");
    int top = lua_gettop(F);
    int t = idx;
    if (sandbox_readonly_target(F, idx)) t = lua_gettop(F);
    /* made at its size: filled key by key, a table of n entries was
    ** rebuilt about log2(n) times (a fork copies the state every
    ** iteration); a list's length, else the entries counted. The sizes
    ** change the layout only: pairs and # answer from the contents */
    lua_Unsigned narr = lua_rawlen(F, t), nrec = 0;
    if (narr == 0) {
        lua_pushnil(F);
        while (lua_next(F, t)) {
            nrec++;
            lua_pop(F, 1);
        }
    }
    lua_createtable(L, narr > INT_MAX ? INT_MAX : (int)narr, nrec > INT_MAX ? INT_MAX : (int)nrec);
    lua_pushnil(F);
    while (lua_next(F, t)) {
        copy_rec(L, c, lua_gettop(F) - 1); /* key */
        copy_rec(L, c, lua_gettop(F));     /* value */
        lua_rawset(L, -3);
        lua_pop(F, 1);
    }
    lua_settop(F, top);
    c->depth--;
}

static int p_copy(lua_State *L) {
    copy_ctx *c = lua_touserdata(L, 1);
    lua_settop(L, 0);
    copy_rec(L, c, c->idx);
    return 1;
}

int luaval_copy(lua_State *from, int idx, lua_State *to) {
    copy_ctx c = {from, lua_absindex(from, idx), 0, NULL};
    if (!lua_checkstack(to, 3)) return -1;
    int top = lua_gettop(from);
    lua_pushcfunction(to, p_copy);
    lua_pushlightuserdata(to, &c);
    int st = lua_pcall(to, 1, 1, 0);
    lua_settop(from, top);
    if (st != LUA_OK) {
        lua_pop(to, 1);
        return -1;
    }
    return 0;
}
