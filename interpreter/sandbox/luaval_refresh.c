/*
** luaval_refresh.c
** A tree of a Lua value kept up to date (luaval_refresh): the game state's
** tree brought from one position to the next by reading only what changed,
** with luaval_check's rules on the way.
*/
#include "luaval.h"
#include "luaval_internal.h"
#include "limits.h"
#include "sandbox.h"

#include <stdlib.h>
#include <string.h>

#include <lauxlib.h>

/* luaval_refresh: the walk of luaval_check, comparing each node with the
** old tree's as it goes. A node equal to the old one is kept (no malloc, no
** free, no sort, a string not validated again: it was when it was read);
** only what changed is read anew. Any doubt (not plain data, out of
** memory) gives up: the caller reads or checks the slow way, which says
** why. */
typedef struct refresh_ctx {
    lua_State *L;
    int depth;
    long nodes, max_nodes; /* the state's bound (luaval_nodes_max) */
    size_t bytes; /* of string values, kept or new: CAIRN_PLAIN_MAX_BYTES */
    int empty_as_list;
    seen_set set;
} refresh_ctx;

static value *refresh_rec(refresh_ctx *c, int idx, value *old);

/* The entry of sorted map m whose key is s (bytes, luaval_skey_cmp's order), or -1. */
static long map_find(const value *m, const char *s, size_t len) {
    size_t lo = 0, hi = m->u.map.n;
    skey want = {s, len, 0};
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const value *k = m->u.map.items[mid].key;
        skey have = {k->u.str.s, k->u.str.len, 0};
        int r = luaval_skey_cmp(&have, &want);
        if (r == 0) return (long)mid;
        if (r < 0) lo = mid + 1;
        else hi = mid;
    }
    return -1;
}

/* Item i (0-based) of list, refreshed from the value on top: an old item
** there is compared, else one is read (the list grows). 0, or -1 with the
** list freed. */
static int refresh_item(refresh_ctx *c, value *list, size_t i) {
    if (i == list->u.list.n && value_list_room(list) != 0) {
        value_free(list);
        return -1;
    }
    value *was = NULL;
    if (i < list->u.list.n) {
        was = list->u.list.items[i];
        list->u.list.items[i] = NULL; /* value_free skips it */
    } else {
        list->u.list.items[list->u.list.n++] = NULL;
    }
    value *item = refresh_rec(c, lua_gettop(c->L), was);
    list->u.list.items[i] = item;
    if (!item) {
        value_free(list);
        return -1;
    }
    return 0;
}

/* The rest of a list of n items whose first `done` are up to date (the
** walk that counted the keys met them in order), then old items past n
** dropped. The list, or NULL (freed). */
static value *refresh_list_rest(refresh_ctx *c, int t, lua_Integer n, value *list, size_t done) {
    lua_State *L = c->L;
    for (size_t i = done; i < (size_t)n; i++) {
        lua_rawgeti(L, t, (lua_Integer)i + 1);
        int rc = refresh_item(c, list, i);
        lua_pop(L, 1);
        if (rc != 0) return NULL;
    }
    for (size_t i = (size_t)n; i < list->u.list.n; i++) value_free(list->u.list.items[i]);
    list->u.list.n = (size_t)n;
    return list;
}

/* A map whose keys are those of m, at[i] the entry of the i-th key the
** walk meets: the values refreshed in place. 0, or -1 with m freed. */
static int refresh_same_keys(refresh_ctx *c, int t, value *m, const size_t *at) {
    lua_State *L = c->L;
    lua_pushnil(L);
    for (size_t i = 0; lua_next(L, t); i++) {
        size_t j = at[i];
        value *v = refresh_rec(c, lua_gettop(L), m->u.map.items[j].val);
        m->u.map.items[j].val = v;
        lua_pop(L, 1);
        if (!v) { /* the NULL value: value_free skips it */
            lua_pop(L, 1);
            value_free(m);
            return -1;
        }
    }
    return 0;
}

/* A map read anew (read_map's order), taking the old values of keys it
** had: both key lists are sorted, so one pass over old's finds them. */
static value *refresh_new_map(refresh_ctx *c, int t, lua_Integer n, value *old) {
    lua_State *L = c->L;
    if (n > CAIRN_YAML_MAX_NODES || !lua_checkstack(L, (int)n + 4)) {
        value_free(old);
        return NULL;
    }
    if (old && old->type != CV_MAP) {
        value_free(old);
        old = NULL;
    }
    int base = lua_gettop(L);
    lua_pushnil(L);
    while (lua_next(L, t)) {
        lua_pop(L, 1);
        lua_pushvalue(L, -1);
        lua_insert(L, -2);
    }
    skey *ks = malloc((size_t)n * sizeof *ks);
    value *map = value_map();
    cv_entry *items = malloc((size_t)n * sizeof *items);
    if (!ks || !map || !items) {
        free(ks);
        free(items);
        value_free(map);
        value_free(old);
        lua_settop(L, base);
        return NULL;
    }
    for (lua_Integer i = 0; i < n; i++) {
        ks[i].slot = base + 1 + (int)i;
        ks[i].s = lua_tolstring(L, ks[i].slot, &ks[i].len);
    }
    qsort(ks, (size_t)n, sizeof *ks, luaval_skey_cmp);
    map->u.map.items = items;
    map->u.map.cap = (size_t)n;
    size_t j = 0;
    for (lua_Integer i = 0; i < n; i++) {
        value *k = NULL, *was = NULL;
        int r = -1;
        while (old && j < old->u.map.n) {
            const value *ok = old->u.map.items[j].key;
            skey have = {ok->u.str.s, ok->u.str.len, 0};
            if ((r = luaval_skey_cmp(&have, &ks[i])) >= 0) break;
            j++;
        }
        if (old && j < old->u.map.n && r == 0) { /* take the key and value out of old */
            k = old->u.map.items[j].key;
            was = old->u.map.items[j].val;
            old->u.map.items[j].key = NULL; /* value_free skips them */
            old->u.map.items[j].val = NULL;
            j++;
        } else if (luaval_string_plain(ks[i].s, ks[i].len, 1)) {
            k = value_strn(ks[i].s, ks[i].len);
        }
        lua_pushvalue(L, ks[i].slot);
        lua_rawget(L, t);
        value *v = k ? refresh_rec(c, lua_gettop(L), was) : (value_free(was), NULL);
        lua_pop(L, 1);
        if (!v) {
            value_free(k);
            goto fail;
        }
        items[map->u.map.n].key = k;
        items[map->u.map.n].val = v;
        map->u.map.n++;
    }
    free(ks);
    value_free(old);
    lua_settop(L, base);
    return map;
fail:
    free(ks);
    value_free(map);
    value_free(old);
    lua_settop(L, base);
    return NULL;
}

static value *refresh_table(refresh_ctx *c, int idx, value *old) {
    lua_State *L = c->L;
    if (c->depth >= CAIRN_YAML_MAX_DEPTH || !lua_checkstack(L, 8)) goto fail;
    int top = lua_gettop(L);
    int t = luaval_plain_table(L, idx);
    if (!t) goto fail;
    if (luaval_seen_add(&c->set, lua_topointer(L, t)) != 0) { /* twice (or a cycle), or out of memory */
        lua_settop(L, top);
        goto fail;
    }
    /* One walk counts the keys (luaval_check's rules) and, as it goes,
    ** refreshes a list's items met in order (1, 2, ... as the array part
    ** gives them) and finds where an old map's keys are; what is left is
    ** done after it (a list's other items, a map's values or a new map). */
    lua_Integer n_int = 0, n_str = 0, max_int = 0, min_int = 0;
    int bad = 0, in_order = 1;
    value *list = NULL; /* made at key 1, when it comes first */
    size_t done = 0;
    size_t inline_at[64], *at = inline_at, n_at = 0;
    int same_keys = old && old->type == CV_MAP && old->u.map.n > 0;
    if (same_keys && old->u.map.n > sizeof inline_at / sizeof *inline_at &&
        !(at = malloc(old->u.map.n * sizeof *at))) {
        at = inline_at;
        same_keys = 0;
    }
    c->depth++;
    lua_pushnil(L);
    while (lua_next(L, t)) {
        int kt = lua_type(L, -2);
        if (kt == LUA_TSTRING) {
            n_str++;
            if (same_keys) {
                size_t len;
                const char *k = lua_tolstring(L, -2, &len);
                long j = n_at < old->u.map.n ? map_find(old, k, len) : -1;
                if (j < 0) same_keys = 0;
                else at[n_at++] = (size_t)j;
            }
        } else if (kt == LUA_TNUMBER && lua_isinteger(L, -2)) {
            lua_Integer k = lua_tointeger(L, -2);
            if (n_int == 0 || k > max_int) max_int = k;
            if (n_int == 0 || k < min_int) min_int = k;
            n_int++;
            if (in_order && n_str == 0 && k == (lua_Integer)done + 1) {
                if (done == 0) { /* the old tree's list, or a new one */
                    same_keys = 0;
                    if (old && old->type == CV_LIST) {
                        list = old;
                    } else {
                        value_free(old);
                        list = value_list();
                    }
                    old = NULL;
                }
                if (!list || refresh_item(c, list, done) != 0) {
                    list = NULL;
                    bad = 1;
                    lua_pop(L, 2);
                    break;
                }
                done++;
            } else {
                in_order = 0;
            }
        } else {
            bad = 1;
        }
        lua_pop(L, 1);
    }
    value *r = NULL;
    if (bad || (n_int && n_str) || (n_int && (min_int != 1 || max_int != n_int))) {
        value_free(list);
    } else if (n_int) {
        if (!list) {
            list = old && old->type == CV_LIST ? old : (value_free(old), value_list());
            old = NULL;
        }
        r = list ? refresh_list_rest(c, t, n_int, list, done) : NULL;
    } else if (n_str == 0) { /* an empty table */
        cv_type want = c->empty_as_list ? CV_LIST : CV_MAP;
        if (old && old->type == want && value_len(old) == 0) {
            r = old;
        } else {
            value_free(old);
            r = want == CV_LIST ? value_list() : value_map();
        }
        old = NULL;
    } else if (same_keys && n_at == old->u.map.n && (size_t)n_str == n_at) {
        r = refresh_same_keys(c, t, old, at) == 0 ? old : NULL;
        old = NULL;
    } else {
        r = refresh_new_map(c, t, n_str, old);
        old = NULL;
    }
    if (at != inline_at) free(at);
    c->depth--;
    lua_settop(L, top);
    if (r) return r;
    value_free(old); /* still ours when the table was refused */
    return NULL;
fail:
    value_free(old);
    return NULL;
}

static value *refresh_rec(refresh_ctx *c, int idx, value *old) {
    lua_State *L = c->L;
    if (++c->nodes > c->max_nodes) { /* the slow way says why */
        value_free(old);
        return NULL;
    }
    switch (lua_type(L, idx)) {
    case LUA_TNIL:
        if (old && old->type == CV_NULL) return old;
        value_free(old);
        return value_null();
    case LUA_TBOOLEAN:
        if (old && old->type == CV_BOOL) { /* a scalar node is kept and set */
            old->u.b = lua_toboolean(L, idx) ? 1 : 0;
            return old;
        }
        value_free(old);
        return value_bool(lua_toboolean(L, idx));
    case LUA_TNUMBER:
        if (!lua_isinteger(L, idx)) break;
        if (old && old->type == CV_INT) {
            old->u.i = (int64_t)lua_tointeger(L, idx);
            return old;
        }
        value_free(old);
        return value_int((int64_t)lua_tointeger(L, idx));
    case LUA_TSTRING: {
        size_t n;
        const char *s = lua_tolstring(L, idx, &n);
        if ((c->bytes += n) > (size_t)CAIRN_PLAIN_MAX_BYTES) { /* the slow way says why */
            value_free(old);
            return NULL;
        }
        if (old && old->type == CV_STR && old->u.str.len == n && memcmp(old->u.str.s, s, n) == 0)
            return old; /* valid when it was read */
        value_free(old);
        return luaval_string_plain(s, n, 0) ? value_strn(s, n) : NULL;
    }
    case LUA_TTABLE: return refresh_table(c, idx, old);
    default: break;
    }
    value_free(old);
    return NULL;
}

int luaval_refresh(lua_State *L, int idx, value **tree, int empty_as_list) {
    refresh_ctx c;
    c.L = L;
    c.depth = 0;
    c.nodes = 0;
    c.max_nodes = luaval_nodes_max(NULL);
    c.bytes = 0;
    c.empty_as_list = empty_as_list;
    luaval_seen_init(&c.set);
    value *v = refresh_rec(&c, lua_absindex(L, idx), *tree);
    luaval_seen_free(&c.set);
    *tree = v;
    return v ? 0 : -1;
}
