/*
** sandbox_seal.c
** Globals fixed once the rules are loaded. A handler call that runs long
** under the budget's CPU timer is stopped, taken back and run again counted
** (budget.c); the game is taken back, the rules' globals could not be (Lua
** has no way to undo what a call wrote), so a handler that counted its calls
** in a global saw the stopped run too, and where the timer fires depends on
** the machine. So the engine seals a game's sandbox once its rules and the
** modules they require are loaded (sandbox_seal_globals): the globals the
** loading made move into the library table, read as before, and every
** assignment to a global from then on (a new name, an existing one, through
** _G or rawset) is a rules error naming the line. A stopped run then leaves
** nothing in globals for the run after it to see. sandbox_reset unseals (a
** new game loads its rules again).
*/
#include "sandbox_internal.h"

/* Registry key: the names moved into the library table, for the unsealing. */
static const char SEALED_KEY = 's';

/* Protected: every global of the environment moved into LIB, their names
** kept under SEALED_KEY, the environment left empty. */
static int p_seal(lua_State *L) {
    lua_rawgeti(L, LUA_REGISTRYINDEX, LUA_RIDX_GLOBALS); /* 1: env */
    lua_rawgetp(L, LUA_REGISTRYINDEX, &LIB_KEY);         /* 2: lib */
    lua_newtable(L);                                     /* 3: names moved */
    lua_pushnil(L);
    while (lua_next(L, 1)) {
        lua_pushvalue(L, -2);
        lua_insert(L, -2);
        lua_rawset(L, 2); /* lib[k] = v */
        lua_pushvalue(L, -1);
        lua_pushboolean(L, 1);
        lua_rawset(L, 3);
    }
    lua_pushnil(L);
    while (lua_next(L, 3)) { /* env[k] = nil: assigning nil to a field never allocates */
        lua_pop(L, 1);
        lua_pushvalue(L, -1);
        lua_pushnil(L);
        lua_rawset(L, 1);
    }
    lua_pushvalue(L, 3);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &SEALED_KEY);
    return 0;
}

int sandbox_seal_globals(sandbox *sb) {
    if (sb->sealed) return 0;
    lua_State *L = sb->L;
    int top = lua_gettop(L);
    if (!lua_checkstack(L, 3)) return -1;
    lua_rawgeti(L, LUA_REGISTRYINDEX, LUA_RIDX_GLOBALS);
    lua_pushnil(L);
    int none = !lua_next(L, -2); /* no global set: nothing to move (every shipped ruleset) */
    lua_settop(L, top);
    if (none) {
        sb->sealed = 1;
        return 0;
    }
    lua_pushcfunction(L, p_seal);
    if (lua_pcall(L, 0, 0, 0) != LUA_OK) {
        lua_settop(L, top);
        return -1;
    }
    sb->sealed = 1;
    return 0;
}

int sb_push_sealed(lua_State *L) {
    if (lua_rawgetp(L, LUA_REGISTRYINDEX, &SEALED_KEY) == LUA_TTABLE) return 1;
    lua_pop(L, 1);
    return 0;
}

void sb_unseal(lua_State *L) {
    sandbox *sb = SB(L);
    if (!sb->sealed) return;
    lua_rawgetp(L, LUA_REGISTRYINDEX, &LIB_KEY);
    int lib = lua_gettop(L);
    if (lua_rawgetp(L, LUA_REGISTRYINDEX, &SEALED_KEY) == LUA_TTABLE) {
        int moved = lua_gettop(L);
        lua_pushnil(L);
        while (lua_next(L, moved)) {
            lua_pop(L, 1);
            lua_pushvalue(L, -1);
            lua_pushnil(L);
            lua_rawset(L, lib);
        }
        lua_pushnil(L);
        lua_rawsetp(L, LUA_REGISTRYINDEX, &SEALED_KEY);
    }
    lua_settop(L, lib - 1);
    sb->sealed = 0;
}
