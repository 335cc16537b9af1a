/*
** guard.c
** Read-only views of the live game state, made lazily. The handlers that
** must not change the state (decisions, score, check, heuristic, label,
** prompt, disabled) get g.state as a proxy: an empty table but for one key
** no script can name (a light userdata) holding the live table, with a
** shared metatable whose __index reads the live value and wraps tables in
** proxies too. Cost: a C call per field read, and one proxy per live table
** a read-only call ever reaches: a proxy holds nothing but the live table,
** so the proxy made for it once serves every later call (a weak-keyed
** registry table maps each live table to its proxy, and lets both go
** when the state drops the table); nothing that grows with the state.
**
** Scripts never see the hidden key or the live table: the sandbox's pairs,
** next, rawget, rawset and rawlen look through proxies with guard_target
** (sandbox.c), and luaval reads through them.
*/
#include "guard.h"

#include <lauxlib.h>

/* Registry and proxy keys: addresses no script can name. */
static const char TARGET_KEY = 't';  /* in a proxy: the live table */
static const char MT_KEY = 'm';      /* registry: the proxies' shared metatable */
static const char MARK_KEY = 'k';    /* in that metatable: marks it as ours */
static const char SESSION_KEY = 's'; /* registry: live table -> its proxy (weak keys) */

static int guard_index(lua_State *L);
static int guard_newindex(lua_State *L);
static int guard_len(lua_State *L);

/* Pushes the shared metatable, made on first use. May raise (memory). */
static void push_metatable(lua_State *L) {
    if (lua_rawgetp(L, LUA_REGISTRYINDEX, &MT_KEY) == LUA_TTABLE) return;
    lua_pop(L, 1);
    lua_createtable(L, 0, 5);
    lua_pushcfunction(L, guard_index);
    lua_setfield(L, -2, "__index");
    lua_pushcfunction(L, guard_newindex);
    lua_setfield(L, -2, "__newindex");
    lua_pushcfunction(L, guard_len);
    lua_setfield(L, -2, "__len");
    lua_pushboolean(L, 0); /* getmetatable sees false; setmetatable refuses */
    lua_setfield(L, -2, "__metatable");
    lua_pushboolean(L, 1);
    lua_rawsetp(L, -2, &MARK_KEY);
    lua_pushvalue(L, -1);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &MT_KEY);
}

int guard_target(lua_State *L, int idx) {
    if (lua_type(L, idx) != LUA_TTABLE || !lua_getmetatable(L, idx)) return 0;
    int ours = lua_rawgetp(L, -1, &MARK_KEY) == LUA_TBOOLEAN;
    lua_pop(L, 2);
    if (!ours) return 0;
    if (lua_rawgetp(L, idx, &TARGET_KEY) == LUA_TTABLE) return 1;
    lua_pop(L, 1);
    return 0;
}

/* Replaces the table on top with its proxy (made if needed). */
static void wrap_top(lua_State *L) {
    int t = lua_gettop(L);
    if (guard_target(L, t)) { /* already a view */
        lua_pop(L, 1);
        return;
    }
    if (lua_rawgetp(L, LUA_REGISTRYINDEX, &SESSION_KEY) != LUA_TTABLE) {
        lua_pop(L, 1);
        lua_newtable(L);
        lua_createtable(L, 0, 1); /* weak keys: a proxy lives while its live table does */
        lua_pushliteral(L, "k");
        lua_setfield(L, -2, "__mode");
        lua_setmetatable(L, -2);
        lua_pushvalue(L, -1);
        lua_rawsetp(L, LUA_REGISTRYINDEX, &SESSION_KEY);
    }
    int session = t + 1;
    lua_pushvalue(L, t);
    if (lua_rawget(L, session) == LUA_TTABLE) {
        lua_replace(L, t);
        lua_settop(L, t);
        return;
    }
    lua_pop(L, 1);
    lua_createtable(L, 0, 1); /* the proxy */
    lua_pushvalue(L, t);
    lua_rawsetp(L, -2, &TARGET_KEY);
    push_metatable(L);
    lua_setmetatable(L, -2);
    lua_pushvalue(L, t);
    lua_pushvalue(L, -2);
    lua_rawset(L, session);
    lua_replace(L, t);
    lua_settop(L, t);
}

void guard_push(lua_State *L, int idx) {
    luaL_checkstack(L, 6, "guard");
    lua_pushvalue(L, idx);
    if (lua_type(L, -1) == LUA_TTABLE) wrap_top(L);
}

/* __index(proxy, key): the live value, tables as proxies. */
static int guard_index(lua_State *L) {
    lua_settop(L, 2);
    if (lua_rawgetp(L, 1, &TARGET_KEY) != LUA_TTABLE) return luaL_error(L, "not a view of the state");
    lua_pushvalue(L, 2);
    if (lua_rawget(L, 3) == LUA_TTABLE) wrap_top(L);
    return 1;
}

static int guard_newindex(lua_State *L) {
    if (lua_type(L, 2) == LUA_TSTRING)
        return luaL_error(L, "g.state is read-only here (field '%s'): only setup and apply "
                             "change the state", lua_tostring(L, 2));
    if (lua_isinteger(L, 2))
        return luaL_error(L, "g.state is read-only here (index %I): only setup and apply "
                             "change the state", lua_tointeger(L, 2));
    return luaL_error(L, "g.state is read-only here: only setup and apply change the state");
}

static int guard_len(lua_State *L) {
    if (lua_rawgetp(L, 1, &TARGET_KEY) != LUA_TTABLE) return luaL_error(L, "not a view of the state");
    lua_pushinteger(L, (lua_Integer)lua_rawlen(L, -1));
    return 1;
}
