/*
** sandbox_tables.c
** Tables in the sandbox: pairs and next in a fixed order (Lua's own order
** depends on addresses and the per-process string hash seed), read-only
** proxies (sandbox_freeze: the libraries, g.data), raw access that sees
** through them and never hands out their hidden tables, setmetatable
** without __gc or __mode, the environment's guard, and the table library's
** loops charged to the budget.
*/
#include "sandbox_internal.h"
#include "guard.h"
#include "limits.h"

#include <ctype.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* Nesting sandbox_freeze follows before giving up (data from YAML is
** bounded far lower, by CAIRN_YAML_MAX_DEPTH). */
#define SANDBOX_FREEZE_MAX_DEPTH 200
/* pairs over at most this many keys iterates with next (no allocation,
** O(n) a step) instead of sorting the keys up front. */
#define SANDBOX_PAIRS_SMALL 4
/* table.sort of at most this many items sorts by insertion on the stack. */
#define SANDBOX_SORT_SMALL 12

const char sandbox_proxy_key = 'p', sandbox_path_key = 'n', sandbox_env_key = 'e';

/* ------------------------------------------------- deterministic order */

/* A key in the sandbox's fixed order: integers ascending, then strings by
** bytes, then false, true. */
typedef struct okey {
    int rank; /* 0 integer, 1 string, 2 boolean */
    lua_Integer i;
    const char *s;
    size_t len;
    lua_Integer pos; /* where the key sits in the unsorted key list */
} okey;

/* Reads the key at idx, a key read from a table when table_key (a table
** stores a float with an integer's value, 2.0, as the integer 2, so one
** conversion tells integers from floats there; next's argument may be
** 2.0). Raises for keys that have no fixed order. The string pointer stays
** valid while the key is in its table. */
static void okey_of(lua_State *L, int idx, okey *k, const char *fn, int table_key) {
    int is_integer;
    switch (lua_type(L, idx)) {
    case LUA_TNUMBER:
        k->i = lua_tointegerx(L, idx, &is_integer);
        /* a float: which one is met first depends on addresses, so none */
        if (!is_integer || (!table_key && !lua_isinteger(L, idx)))
            luaL_error(L, "%s: a table with a float key has no fixed order "
                          "(keys must be integers, strings or booleans)", fn);
        k->rank = 0;
        break;
    case LUA_TSTRING:
        k->rank = 1;
        k->s = lua_tolstring(L, idx, &k->len);
        break;
    case LUA_TBOOLEAN:
        k->rank = 2;
        k->i = lua_toboolean(L, idx);
        break;
    default:
        luaL_error(L, "%s: a table with a %s key has no fixed order "
                      "(keys must be integers, strings or booleans)",
                   fn, luaL_typename(L, idx));
    }
}

static inline int okey_cmp(const okey *a, const okey *b) {
    if (a->rank != b->rank) return a->rank < b->rank ? -1 : 1;
    if (a->rank == 1) {
        size_t n = a->len < b->len ? a->len : b->len;
        int c = memcmp(a->s, b->s, n);
        if (c) return c < 0 ? -1 : 1;
        return a->len < b->len ? -1 : a->len > b->len;
    }
    return a->i < b->i ? -1 : a->i > b->i;
}

static int okey_qcmp(const void *a, const void *b) { return okey_cmp(a, b); }

/* The iterator pairs returns: upvalues table, sorted keys, position. Keys
** removed during the loop are skipped. */
static int sb_pairs_iter(lua_State *L) {
    lua_Integer i = lua_tointeger(L, lua_upvalueindex(3));
    lua_Integer n = (lua_Integer)lua_rawlen(L, lua_upvalueindex(2));
    while (++i <= n) {
        lua_rawgeti(L, lua_upvalueindex(2), i);
        lua_pushvalue(L, -1);
        if (lua_rawget(L, lua_upvalueindex(1)) != LUA_TNIL) {
            if (lua_istable(L, lua_upvalueindex(4))) { /* a state view: values as views */
                lua_pop(L, 1);
                lua_pushvalue(L, -1);
                lua_gettable(L, lua_upvalueindex(4));
            }
            lua_pushinteger(L, i);
            lua_replace(L, lua_upvalueindex(3));
            return 2;
        }
        lua_pop(L, 2);
    }
    lua_pushinteger(L, n);
    lua_replace(L, lua_upvalueindex(3));
    lua_pushnil(L);
    return 1;
}

int sb_next(lua_State *L);

static const char *proxy_name(lua_State *L, int idx);

/* With tracked reads: notes every entry of the proxy at idx as read (a
** pairs or next loop over it). */
static void note_all(lua_State *L, int idx) {
    sb_note_read_all(L, proxy_name(L, idx));
    lua_pop(L, 1);
}

/* pairs(t): every key in the fixed order. Costs O(n log n) time and O(n)
** memory up front (charged n instructions); read-only proxies iterate
** their contents; a __pairs metamethod is honoured as in Lua 5.4. The
** table pairs returns for the loop is t itself, never the hidden table of
** a proxy (a script holding that could write to read-only data).
** Stack: 1 the table read, 2 t (handed back), 3 the view or nil. */
int sb_pairs(lua_State *L) {
    luaL_checkany(L, 1);
    lua_settop(L, 1);
    int view = 0; /* a view of the state made by guard.c */
    /* views, proxies and __pairs need a metatable: a plain table skips
    ** asking for them */
    int has_mt = lua_getmetatable(L, 1);
    if (has_mt) lua_pop(L, 1);
    if (!has_mt) {
        lua_pushvalue(L, 1);
    } else if (guard_target(L, 1)) {
        lua_insert(L, 1);
        view = 1;
    } else if (sandbox_readonly_target(L, 1)) {
        lua_insert(L, 1);
        if (SB(L)->track_reads) note_all(L, 2);
    } else if (luaL_getmetafield(L, 1, "__pairs") != LUA_TNIL) {
        lua_pushvalue(L, 1);
        lua_call(L, 1, 3);
        return 3;
    } else {
        lua_pushvalue(L, 1);
    }
    luaL_checktype(L, 1, LUA_TTABLE);
    if (view) lua_pushvalue(L, 2);
    else lua_pushnil(L); /* 3: no view */
    lua_Integer n = 0;
    lua_pushnil(L);
    while (lua_next(L, 1)) {
        lua_pop(L, 1);
        n++;
    }
    sb_charge(L, n);
    if (n >= INT_MAX) return luaL_error(L, "pairs: table too large");
    if (n <= SANDBOX_PAIRS_SMALL) {
        /* the same order with no allocation: next finds the key after the
        ** last in the fixed order, a scan of a few keys each step */
        lua_pushcfunction(L, sb_next);
        lua_pushvalue(L, 2);
        lua_pushnil(L);
        return 3;
    }
    lua_createtable(L, (int)n, 0); /* 4: keys in raw order */
    okey *ks = lua_newuserdatauv(L, (size_t)n * sizeof *ks, 0); /* 5 */
    lua_Integer j = 0;
    lua_pushnil(L);
    while (lua_next(L, 1)) {
        lua_pop(L, 1);
        if (j == n) return luaL_error(L, "pairs: table changed while being read");
        okey_of(L, -1, &ks[j], "pairs", 1);
        ks[j].pos = j + 1;
        lua_pushvalue(L, -1);
        lua_rawseti(L, 4, ++j);
    }
    qsort(ks, (size_t)j, sizeof *ks, okey_qcmp);
    lua_createtable(L, (int)j, 0); /* 6: keys in order */
    for (lua_Integer i = 0; i < j; i++) {
        lua_rawgeti(L, 4, ks[i].pos);
        lua_rawseti(L, 6, i + 1);
    }
    lua_pushvalue(L, 1);
    lua_pushvalue(L, 6);
    lua_pushinteger(L, 0);
    lua_pushvalue(L, 3);
    lua_pushcclosure(L, sb_pairs_iter, 4);
    lua_pushvalue(L, 2);
    lua_pushnil(L);
    return 3;
}

/* next(t [, k]): the key after k in the fixed order. O(n) a call (a scan,
** charged n instructions): fine for `next(t) == nil`, quadratic as a loop,
** so loops should use pairs. */
int sb_next(lua_State *L) {
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_settop(L, 2);
    int view = 0; /* a view of the state made by guard.c: at 3, its table at 1 */
    /* views and proxies have a metatable; a plain table (a loop's common
    ** case) skips asking for their marks */
    int has_mt = lua_getmetatable(L, 1);
    if (has_mt) lua_pop(L, 1);
    if (has_mt && guard_target(L, 1)) {
        lua_rotate(L, 1, 1); /* T, P, k */
        lua_rotate(L, 2, 1); /* T, k, P */
        view = 3;
    } else if (has_mt && sandbox_readonly_target(L, 1)) {
        if (SB(L)->track_reads) note_all(L, 1);
        lua_replace(L, 1);
    }
    okey prev = {0}, best = {0}, k = {0};
    int has_prev = !lua_isnil(L, 2), has_best = 0;
    if (has_prev) okey_of(L, 2, &prev, "next", 0);
    lua_pushnil(L); /* the best key so far */
    int best_slot = lua_gettop(L);
    lua_Integer n = 0;
    lua_pushnil(L);
    while (lua_next(L, 1)) {
        lua_pop(L, 1);
        n++;
        okey_of(L, -1, &k, "next", 1);
        if ((!has_prev || okey_cmp(&k, &prev) > 0) && (!has_best || okey_cmp(&k, &best) < 0)) {
            best = k;
            has_best = 1;
            lua_pushvalue(L, -1);
            lua_replace(L, best_slot);
        }
    }
    sb_charge(L, n);
    if (!has_best) {
        lua_pushnil(L);
        return 1;
    }
    lua_pushvalue(L, best_slot);
    lua_pushvalue(L, best_slot);
    if (view) lua_gettable(L, view);
    else lua_rawget(L, 1);
    return 2;
}

/* ------------------------------------------------------ read-only tables */

int sandbox_readonly_target(lua_State *L, int idx) {
    if (guard_target(L, idx)) return 1;
    if (lua_type(L, idx) != LUA_TTABLE || !lua_getmetatable(L, idx)) return 0;
    if (lua_rawgetp(L, -1, &PROXY_KEY) == LUA_TTABLE) {
        lua_remove(L, -2);
        return 1;
    }
    lua_pop(L, 2);
    return 0;
}

/* 1 if the table at idx is a read-only proxy, 2 if it is the global
** environment, else 0. */
static int protection_of(lua_State *L, int idx) {
    int r = 0;
    if (guard_target(L, idx)) {
        lua_pop(L, 1);
        return 1;
    }
    if (lua_type(L, idx) != LUA_TTABLE || !lua_getmetatable(L, idx)) return 0;
    if (lua_rawgetp(L, -1, &PROXY_KEY) != LUA_TNIL)
        r = 1;
    else if (lua_rawgetp(L, -2, &ENV_KEY) != LUA_TNIL)
        r = 2;
    lua_settop(L, r == 1 ? -3 : -4); /* the metatable and what was fetched */
    return r;
}

static void push_mtguard(lua_State *L);

int sb_table_protected(lua_State *L, int idx) {
    idx = lua_absindex(L, idx);
    if (protection_of(L, idx)) return 1;
    if (lua_type(L, idx) != LUA_TTABLE) return 0;
    push_mtguard(L);
    int r = lua_rawequal(L, -1, idx);
    lua_pop(L, 1);
    return r;
}

/* Pushes the name of the proxy at idx for messages. */
static const char *proxy_name(lua_State *L, int idx) {
    if (lua_getmetatable(L, idx)) {
        lua_rawgetp(L, -1, &PATH_KEY);
        lua_remove(L, -2);
        if (lua_type(L, -1) == LUA_TSTRING) return lua_tostring(L, -1);
        lua_pop(L, 1);
    }
    return lua_pushliteral(L, "?");
}

/* Pushes "field 'k'", "index 3" or "a boolean key" for the key at idx. */
static const char *key_text(lua_State *L, int idx) {
    if (lua_type(L, idx) == LUA_TSTRING)
        return lua_pushfstring(L, "field '%s'", lua_tostring(L, idx));
    if (lua_isinteger(L, idx)) return lua_pushfstring(L, "index %I", lua_tointeger(L, idx));
    return lua_pushfstring(L, "a %s key", luaL_typename(L, idx));
}

static int ro_newindex(lua_State *L) {
    const char *name = proxy_name(L, 1);
    const char *key = key_text(L, 2);
    return luaL_error(L, "attempt to modify read-only table %s (%s)", name, key);
}

static int ro_len(lua_State *L) {
    if (!sandbox_readonly_target(L, 1)) return luaL_error(L, "not a read-only table");
    lua_pushinteger(L, (lua_Integer)lua_rawlen(L, -1));
    return 1;
}

/* Pushes the name of t[key] given the name at name_idx and the key on top
** of the stack (left in place). */
static void child_name(lua_State *L, int name_idx) {
    const char *name = lua_tostring(L, name_idx);
    if (lua_type(L, -1) == LUA_TSTRING) {
        size_t n;
        const char *k = lua_tolstring(L, -1, &n);
        int ident = n > 0 && (isalpha((unsigned char)k[0]) || k[0] == '_');
        for (size_t i = 0; ident && i < n; i++)
            ident = isalnum((unsigned char)k[i]) || k[i] == '_';
        if (ident)
            lua_pushfstring(L, "%s.%s", name, k);
        else
            lua_pushfstring(L, "%s[\"%s\"]", name, k);
    } else if (lua_isinteger(L, -1)) {
        lua_pushfstring(L, "%s[%I]", name, lua_tointeger(L, -1));
    } else {
        lua_pushfstring(L, "%s[?]", name);
    }
}

/* A proxy's __index when reads are tracked (sandbox_reads.c): notes the
** path of proxy[key], then reads it from the hidden contents (upvalue 1;
** upvalue 2 is the proxy's path). */
static int tracked_index(lua_State *L) {
    lua_settop(L, 2); /* proxy, key */
    child_name(L, lua_upvalueindex(2));
    sb_note_read(L, -1);
    lua_settop(L, 2);
    lua_rawget(L, lua_upvalueindex(1));
    return 1;
}

/* Pushes the proxy of the table at t, named by the string at name_idx.
** memo maps tables already seen to their proxies (shared tables, cycles). */
void sb_freeze_rec(lua_State *L, int t, int name_idx, int memo, int depth) {
    if (depth > SANDBOX_FREEZE_MAX_DEPTH) luaL_error(L, "table nested too deeply to freeze");
    luaL_checkstack(L, 10, "table nested too deeply to freeze");
    if (protection_of(L, t) == 1) {
        lua_pushvalue(L, t);
        return;
    }
    lua_pushvalue(L, t);
    if (lua_rawget(L, memo) != LUA_TNIL) return;
    lua_pop(L, 1);
    lua_newtable(L); /* the proxy */
    int proxy = lua_gettop(L);
    lua_newtable(L); /* the hidden contents */
    int shadow = lua_gettop(L);
    lua_pushvalue(L, t);
    lua_pushvalue(L, proxy);
    lua_rawset(L, memo);

    lua_createtable(L, 0, 8);
    lua_pushvalue(L, shadow);
    if (SB(L)->track_reads) {
        lua_pushvalue(L, name_idx);
        lua_pushcclosure(L, tracked_index, 2);
    }
    lua_setfield(L, -2, "__index");
    lua_pushcfunction(L, ro_newindex);
    lua_setfield(L, -2, "__newindex");
    lua_pushcfunction(L, ro_len);
    lua_setfield(L, -2, "__len");
    lua_pushcfunction(L, sb_pairs);
    lua_setfield(L, -2, "__pairs");
    lua_pushboolean(L, 0); /* getmetatable sees false; setmetatable refuses */
    lua_setfield(L, -2, "__metatable");
    lua_pushvalue(L, shadow);
    lua_rawsetp(L, -2, &PROXY_KEY);
    lua_pushvalue(L, name_idx);
    lua_rawsetp(L, -2, &PATH_KEY);
    lua_setmetatable(L, proxy);

    lua_pushnil(L);
    while (lua_next(L, t)) { /* key, value */
        if (lua_type(L, -1) == LUA_TTABLE) {
            int val = lua_gettop(L);
            lua_pushvalue(L, val - 1); /* the key, for child_name */
            child_name(L, name_idx);
            sb_freeze_rec(L, val, lua_gettop(L), memo, depth + 1);
            lua_replace(L, val);
            lua_settop(L, val);
        }
        lua_pushvalue(L, -2);
        lua_insert(L, -2);
        lua_rawset(L, shadow);
    }
    lua_settop(L, proxy);
}

static int freeze_protected(lua_State *L) {
    lua_newtable(L); /* 3: memo */
    sb_freeze_rec(L, 1, 2, 3, 0);
    return 1;
}

int sandbox_freeze(lua_State *L, int idx, const char *name) {
    idx = lua_absindex(L, idx);
    if (lua_type(L, idx) != LUA_TTABLE) return 0;
    if (!lua_checkstack(L, 4)) return -1;
    lua_pushcfunction(L, freeze_protected);
    lua_pushvalue(L, idx);
    lua_pushstring(L, name ? name : "?");
    /* lua_pushstring can raise at the cap; run even that protected */
    if (lua_pcall(L, 2, 1, 0) != LUA_OK) {
        lua_pop(L, 1);
        return -1;
    }
    lua_replace(L, idx);
    return 0;
}

void sandbox_mark_readonly(lua_State *L, int mt, int target, const char *name) {
    mt = lua_absindex(L, mt);
    target = lua_absindex(L, target);
    lua_pushvalue(L, target);
    lua_rawsetp(L, mt, &PROXY_KEY);
    lua_pushstring(L, name);
    lua_rawsetp(L, mt, &PATH_KEY);
}

static int refused_mt_key(lua_State *L, int k);
static int is_guarded_mt(lua_State *L, int idx);

/* rawget and rawlen see through proxies (scripts get the same answers as
** with plain reads). */
int sb_rawget(lua_State *L) {
    luaL_checktype(L, 1, LUA_TTABLE);
    luaL_checkany(L, 2);
    lua_settop(L, 2);
    if (guard_target(L, 1)) { /* a view of the state: the value through it */
        lua_pop(L, 1);
        lua_gettable(L, 1);
        return 1;
    }
    if (sandbox_readonly_target(L, 1)) lua_replace(L, 1);
    lua_rawget(L, 1);
    return 1;
}

int sb_rawlen(lua_State *L) {
    int t = lua_type(L, 1);
    luaL_argexpected(L, t == LUA_TTABLE || t == LUA_TSTRING, 1, "table or string");
    if (sandbox_readonly_target(L, 1)) lua_replace(L, 1);
    lua_pushinteger(L, sb_len_of(L, 1, "rawlen", 1)); /* the deterministic length */
    return 1;
}

/* rawset is how a script would write past __newindex: it refuses proxies,
** and on the global environment it assigns as `_G[k] = v` would (library
** entries stay protected). */
int sb_rawset(lua_State *L) {
    luaL_checktype(L, 1, LUA_TTABLE);
    luaL_checkany(L, 2);
    luaL_checkany(L, 3);
    lua_settop(L, 3);
    switch (protection_of(L, 1)) {
    case 1: {
        const char *name = proxy_name(L, 1);
        return luaL_error(L, "rawset: attempt to modify read-only table %s", name);
    }
    case 2: lua_settable(L, 1); break;
    default:
        if (refused_mt_key(L, 2) && is_guarded_mt(L, 1))
            return luaL_error(L, "setmetatable: %s cannot be added to a metatable (weak tables "
                                 "and finalizers depend on when memory is collected)",
                              lua_tostring(L, 2));
        lua_rawset(L, 1);
        break;
    }
    return 1;
}

/* Finalizers and weak tables depend on when the collector runs, which is
** not part of a game, and Lua 5.4.4 has a double free when an emergency
** collection clears a weak table that is being resized (upstream 983bc433):
** a metatable with __gc or __mode is refused, and neither can be added to
** it later. A table becomes a metatable here only: it gets MTGUARD as its
** own metatable, whose __newindex refuses those two keys (every other new
** key is written as usual), and sb_rawset checks them too. So a table with
** a metatable of its own (the environment, a proxy, a table with another
** metatable) cannot be a metatable, and a metatable in use cannot be given
** one (its __metatable is false). */
static const char MTGUARD_KEY = 'w'; /* registry: the guard metatable */

static int refused_mt_key(lua_State *L, int k) {
    if (lua_type(L, k) != LUA_TSTRING) return 0;
    const char *s = lua_tostring(L, k);
    return strcmp(s, "__mode") == 0 || strcmp(s, "__gc") == 0;
}

static int mtguard_newindex(lua_State *L) {
    if (refused_mt_key(L, 2))
        return luaL_error(L, "setmetatable: %s cannot be added to a metatable (weak tables and "
                             "finalizers depend on when memory is collected)", lua_tostring(L, 2));
    lua_settop(L, 3);
    lua_rawset(L, 1);
    return 0;
}

/* Pushes the guard metatable, made on first use. */
static void push_mtguard(lua_State *L) {
    if (lua_rawgetp(L, LUA_REGISTRYINDEX, &MTGUARD_KEY) == LUA_TTABLE) return;
    lua_pop(L, 1);
    lua_createtable(L, 0, 2);
    lua_pushcfunction(L, mtguard_newindex);
    lua_setfield(L, -2, "__newindex");
    lua_pushboolean(L, 0);
    lua_setfield(L, -2, "__metatable");
    lua_pushvalue(L, -1);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &MTGUARD_KEY);
}

/* Whether the table at idx is a metatable in use (guarded). */
static int is_guarded_mt(lua_State *L, int idx) {
    if (lua_type(L, idx) != LUA_TTABLE || !lua_getmetatable(L, idx)) return 0;
    push_mtguard(L);
    int r = lua_rawequal(L, -1, -2);
    lua_pop(L, 2);
    return r;
}

int sb_setmetatable(lua_State *L) {
    if (lua_type(L, 2) == LUA_TTABLE) {
        static const char *const refused[] = {"__gc", "__mode", NULL};
        for (int i = 0; refused[i]; i++) {
            lua_pushstring(L, refused[i]);
            int t = lua_rawget(L, 2);
            lua_pop(L, 1);
            if (t != LUA_TNIL)
                return luaL_error(L, "setmetatable: %s is not allowed in the sandbox "
                                     "(it depends on when memory is collected)",
                                  refused[i]);
        }
        if (!is_guarded_mt(L, 2)) {
            if (lua_getmetatable(L, 2))
                return luaL_error(L, "setmetatable: a table with a metatable of its own cannot be "
                                     "a metatable in the sandbox");
            push_mtguard(L);
            lua_setmetatable(L, 2);
        }
    }
    int n = lua_gettop(L);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, n, 1);
    return 1;
}

/* The environment's __newindex: new globals are fine, library names are
** not, and once sealed (sandbox_seal.c) no global is. Upvalue 1 is the
** library table. */
int sb_env_newindex(lua_State *L) {
    lua_settop(L, 3);
    if (SB(L)->sealed)
        return luaL_error(L, "attempt to set the global '%s' once the rules are loaded: a handler "
                             "keeps nothing in globals (a call the CPU timer stops is run again, and "
                             "the stopped run must leave nothing the next can see); keep game facts "
                             "in g.state, and set globals only while the rules load",
                          lua_type(L, 2) == LUA_TSTRING ? lua_tostring(L, 2) : luaL_typename(L, 2));
    lua_pushvalue(L, 2);
    if (lua_rawget(L, lua_upvalueindex(1)) != LUA_TNIL)
        return luaL_error(L, "attempt to replace the library global '%s'", lua_tostring(L, 2));
    lua_pop(L, 1);
    lua_rawset(L, 1);
    return 0;
}

/* ------------------------------------------------------------------ table */

/* Calls the comparator (or <) on the values at a and b. */
static int sort_less(lua_State *L, int a, int b) {
    a = lua_absindex(L, a);
    b = lua_absindex(L, b);
    if (lua_isnil(L, 2)) return lua_compare(L, a, b, LUA_OPLT);
    lua_pushvalue(L, 2);
    lua_pushvalue(L, a);
    lua_pushvalue(L, b);
    lua_call(L, 2, 1);
    int r = lua_toboolean(L, -1);
    lua_pop(L, 1);
    return r;
}

/* table.sort(t [, less]): a stable bottom-up merge sort. Equal elements keep
** their order, so a sort gives the same result in every run. Uses two
** scratch tables of #t entries; charged n*log2(n) instructions. */
int sb_tsort(lua_State *L) {
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_Integer n = sb_len_of(L, 1, "table.sort", 0);
    if (n < 2) return 0;
    luaL_argcheck(L, n < INT_MAX, 1, "array too big");
    if (!lua_isnoneornil(L, 2)) luaL_checktype(L, 2, LUA_TFUNCTION);
    lua_settop(L, 2);
    lua_Integer logn = 0;
    for (lua_Integer m = n; m > 1; m >>= 1) logn++;
    sb_charge(L, n * (logn + 1));
    if (n <= SANDBOX_SORT_SMALL) {
        /* insertion sort on the stack: stable, and no tables to make */
        luaL_checkstack(L, (int)n + 4, "sort");
        int base = lua_gettop(L);
        for (lua_Integer i = 1; i <= n; i++) lua_geti(L, 1, i);
        for (int i = 2; i <= (int)n; i++) {
            int j = i;
            while (j > 1 && sort_less(L, base + j, base + j - 1)) {
                lua_pushvalue(L, base + j);
                lua_copy(L, base + j - 1, base + j);
                lua_replace(L, base + j - 1);
                j--;
            }
        }
        for (lua_Integer i = 1; i <= n; i++) {
            lua_pushvalue(L, base + (int)i);
            lua_seti(L, 1, i);
        }
        lua_settop(L, base);
        return 0;
    }
    lua_createtable(L, (int)n, 0); /* 3 */
    lua_createtable(L, (int)n, 0); /* 4 */
    for (lua_Integer i = 1; i <= n; i++) {
        lua_geti(L, 1, i);
        lua_rawseti(L, 3, i);
    }
    int src = 3, dst = 4;
    for (lua_Integer w = 1; w < n; w *= 2) {
        for (lua_Integer lo = 1; lo <= n; lo += 2 * w) {
            lua_Integer mid = lo + w < n + 1 ? lo + w : n + 1;
            lua_Integer hi = lo + 2 * w < n + 1 ? lo + 2 * w : n + 1;
            lua_Integer i = lo, j = mid, k = lo;
            while (i < mid && j < hi) {
                lua_rawgeti(L, src, i);
                lua_rawgeti(L, src, j);
                if (sort_less(L, -1, -2)) { /* right strictly first */
                    lua_rawseti(L, dst, k++);
                    lua_pop(L, 1);
                    j++;
                } else {
                    lua_pop(L, 1);
                    lua_rawseti(L, dst, k++);
                    i++;
                }
            }
            for (; i < mid; i++) {
                lua_rawgeti(L, src, i);
                lua_rawseti(L, dst, k++);
            }
            for (; j < hi; j++) {
                lua_rawgeti(L, src, j);
                lua_rawseti(L, dst, k++);
            }
        }
        int t = src;
        src = dst;
        dst = t;
    }
    for (lua_Integer i = 1; i <= n; i++) {
        lua_rawgeti(L, src, i);
        lua_seti(L, 1, i);
    }
    return 0;
}

/* As ltablib's tinsert, with the shift charged (a __len of 10^15 would
** otherwise loop in C, where the hook never fires). */
int sb_tinsert(lua_State *L) {
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_Integer e = sb_len_of(L, 1, "table.insert", 0);
    lua_Integer pos;
    e = (lua_Integer)((lua_Unsigned)e + 1u); /* first empty element */
    switch (lua_gettop(L)) {
    case 2: pos = e; break;
    case 3:
        pos = luaL_checkinteger(L, 2);
        luaL_argcheck(L, (lua_Unsigned)pos - 1u < (lua_Unsigned)e, 2, "position out of bounds");
        if (e > pos) sb_charge(L, e - pos); /* same sign here: no overflow */
        for (lua_Integer i = e; i > pos; i--) {
            lua_geti(L, 1, i - 1);
            lua_seti(L, 1, i);
        }
        break;
    default: return luaL_error(L, "wrong number of arguments to 'insert'");
    }
    lua_seti(L, 1, pos);
    return 0;
}

/* As ltablib's tremove, charged likewise. */
int sb_tremove(lua_State *L) {
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_Integer size = sb_len_of(L, 1, "table.remove", 0);
    lua_Integer pos = luaL_optinteger(L, 2, size);
    if (pos != size)
        luaL_argcheck(L, (lua_Unsigned)pos - 1u <= (lua_Unsigned)size, 2, "position out of bounds");
    lua_geti(L, 1, pos);
    /* the shift's length, saturated: with a __len of maxinteger and pos
    ** mininteger, size - pos overflows (and the loop would run 2^64 times) */
    if (size > pos) {
        lua_Unsigned shift = (lua_Unsigned)size - (lua_Unsigned)pos;
        sb_charge(L, shift > (lua_Unsigned)LUA_MAXINTEGER ? LUA_MAXINTEGER : (lua_Integer)shift);
    }
    for (; pos < size; pos++) {
        lua_geti(L, 1, pos + 1);
        lua_seti(L, 1, pos);
    }
    lua_pushnil(L);
    lua_seti(L, 1, pos);
    return 1;
}

/* table.move, charged one instruction per element moved. */
int sb_tmove(lua_State *L) {
    lua_Integer f = luaL_checkinteger(L, 2);
    lua_Integer e = luaL_checkinteger(L, 3);
    if (e >= f) {
        lua_Unsigned cnt = (lua_Unsigned)e - (lua_Unsigned)f + 1u;
        sb_charge(L, cnt > (lua_Unsigned)LUA_MAXINTEGER ? LUA_MAXINTEGER : (lua_Integer)cnt);
    }
    int n = lua_gettop(L);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, n, 1);
    return 1;
}
