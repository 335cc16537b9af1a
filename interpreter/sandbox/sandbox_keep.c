/*
** sandbox_keep.c
** Loaded rules kept from one game to the next, and put back as they were.
** Running the rules file and its modules again for every game (sandbox_reset)
** cost a connect4 game about a tenth of its instructions. Instead, once the
** rules are loaded and the globals sealed, sandbox_keep records everything a
** game could change that the loading left behind: every table reachable from
** the rules table, from require's cache and from the sealed globals (its
** contents and its metatable, copied), and every upvalue of every Lua
** function reached (the variable, and the value it held). sandbox_restore_kept
** then starts the next game by putting each of them back: a table that a game
** changed gets its recorded contents and metatable again, a variable its value,
** and require's cache the modules the loading made (a module first required
** during a game is loaded again in the next). What a game made and hung on
** them is dropped with them, so the next game sees the very objects the
** loading made, in the state the loading left them: as if the chunks had run
** again, except that they did not.
**
** Not recorded, because no script can change them: read-only proxies (the
** libraries, g.data), the environment (empty once sealed, refusing writes),
** the library table and the metatable guard. Rules whose loading leaves a
** coroutine, a userdata, or a C function carrying state (an iterator of
** pairs or gmatch) where a game could reach it cannot be put back this way:
** sandbox_keep says so and the engine runs their chunks again every game.
*/
#include "sandbox_internal.h"

#include <lauxlib.h>

/* Registry key of the record: {tables, cells}; tables holds T, copy,
** metatable (false: none) and the entry count of each table, four slots a
** table; cells holds function, upvalue index, value, three slots each. */
static const char KEEP_KEY = 'k';

enum { KEEP_OK = 0, KEEP_REFUSED = 1 };

/* Whether the table at idx is the engine's and read-only to scripts. */
static int engine_owned(lua_State *L, int idx, int lib, int strmt) {
    if (lua_rawequal(L, idx, lib) || lua_rawequal(L, idx, strmt)) return 1;
    return sb_table_protected(L, idx);
}

/* Pushes the value at v onto the work list at work (n entries) when it can
** hold something: tables and functions (and what is refused later). */
static void work_push(lua_State *L, int v, int work, lua_Integer *n) {
    int t = lua_type(L, v);
    if (t != LUA_TTABLE && t != LUA_TFUNCTION && t != LUA_TTHREAD && t != LUA_TUSERDATA) return;
    lua_pushvalue(L, v);
    lua_rawseti(L, work, ++*n);
}

/* Protected: records what the rules (argument 1) reach. Returns one result:
** true when kept, false when refused (nothing is kept then). */
static int p_keep(lua_State *L) {
    lua_settop(L, 1);
    lua_newtable(L); /* 2: seen (objects, and upvalue ids as light userdata) */
    lua_newtable(L); /* 3: work list */
    lua_newtable(L); /* 4: tables record */
    lua_newtable(L); /* 5: cells record */
    lua_rawgetp(L, LUA_REGISTRYINDEX, &LIB_KEY); /* 6 */
    lua_pushliteral(L, "");
    if (!lua_getmetatable(L, -1)) lua_pushnil(L);
    lua_remove(L, -2); /* 7: the string metatable */
    const int seen = 2, work = 3, tables = 4, cells = 5, lib = 6, strmt = 7;
    lua_Integer n = 0, nt = 0, nc = 0;

    work_push(L, 1, work, &n);
    lua_rawgetp(L, LUA_REGISTRYINDEX, &LOADED_KEY);
    work_push(L, lua_gettop(L), work, &n);
    lua_pop(L, 1);
    if (sb_push_sealed(L)) { /* the sealed globals' values, in the library table */
        int names = lua_gettop(L);
        lua_pushnil(L);
        while (lua_next(L, names)) {
            lua_pop(L, 1);
            lua_pushvalue(L, -1);
            lua_rawget(L, lib);
            work_push(L, lua_gettop(L), work, &n);
            lua_pop(L, 1);
        }
    }
    lua_settop(L, strmt);

    while (n > 0) {
        luaL_checkstack(L, 8, "keeping the rules");
        lua_rawgeti(L, work, n);
        lua_pushnil(L);
        lua_rawseti(L, work, n--);
        int v = lua_gettop(L);
        int type = lua_type(L, v);
        if (type == LUA_TTHREAD || type == LUA_TUSERDATA) {
            lua_pushboolean(L, 0);
            return 1;
        }
        lua_pushvalue(L, v);
        if (lua_rawget(L, seen) != LUA_TNIL) {
            lua_settop(L, strmt);
            continue;
        }
        lua_pop(L, 1);
        lua_pushvalue(L, v);
        lua_pushboolean(L, 1);
        lua_rawset(L, seen);
        if (type == LUA_TTABLE) {
            if (engine_owned(L, v, lib, strmt)) {
                lua_settop(L, strmt);
                continue;
            }
            lua_newtable(L); /* the copy */
            int copy = lua_gettop(L);
            lua_Integer count = 0;
            lua_pushnil(L);
            while (lua_next(L, v)) {
                count++;
                work_push(L, lua_gettop(L) - 1, work, &n);
                work_push(L, lua_gettop(L), work, &n);
                lua_pushvalue(L, -2);
                lua_insert(L, -2);
                lua_rawset(L, copy);
            }
            lua_pushvalue(L, v);
            lua_rawseti(L, tables, ++nt);
            lua_pushvalue(L, copy);
            lua_rawseti(L, tables, ++nt);
            if (lua_getmetatable(L, v)) work_push(L, lua_gettop(L), work, &n);
            else lua_pushboolean(L, 0);
            lua_rawseti(L, tables, ++nt);
            lua_pushinteger(L, count);
            lua_rawseti(L, tables, ++nt);
        } else if (lua_iscfunction(L, v)) {
            /* a C closure over C functions only (a library wrapper) keeps
            ** nothing; any other carries state no record can put back */
            for (int i = 1; lua_getupvalue(L, v, i); i++) {
                if (!lua_iscfunction(L, -1)) {
                    lua_pushboolean(L, 0);
                    return 1;
                }
                work_push(L, lua_gettop(L), work, &n);
                lua_pop(L, 1);
            }
        } else { /* a Lua function: each variable it shares, once */
            for (int i = 1; lua_getupvalue(L, v, i); i++) {
                int val = lua_gettop(L);
                lua_pushlightuserdata(L, lua_upvalueid(L, v, i));
                if (lua_rawget(L, seen) == LUA_TNIL) {
                    lua_pop(L, 1);
                    lua_pushlightuserdata(L, lua_upvalueid(L, v, i));
                    lua_pushboolean(L, 1);
                    lua_rawset(L, seen);
                    lua_pushvalue(L, v);
                    lua_rawseti(L, cells, ++nc);
                    lua_pushinteger(L, i);
                    lua_rawseti(L, cells, ++nc);
                    lua_pushvalue(L, val);
                    lua_rawseti(L, cells, ++nc);
                    work_push(L, val, work, &n);
                }
                lua_settop(L, v);
            }
        }
        lua_settop(L, strmt);
    }
    SB(L)->kept_tables = nt / 4;
    SB(L)->kept_cells = nc / 3;
    lua_createtable(L, 2, 0);
    lua_pushvalue(L, tables);
    lua_rawseti(L, -2, 1);
    lua_pushvalue(L, cells);
    lua_rawseti(L, -2, 2);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &KEEP_KEY);
    lua_pushboolean(L, 1);
    return 1;
}

int sandbox_keep(sandbox *sb, int idx) {
    lua_State *L = sb->L;
    idx = lua_absindex(L, idx);
    sandbox_drop_kept(sb);
    if (!lua_checkstack(L, 3)) return -1;
    lua_pushcfunction(L, p_keep);
    lua_pushvalue(L, idx);
    if (lua_pcall(L, 1, 1, 0) != LUA_OK) {
        lua_pop(L, 1);
        sandbox_drop_kept(sb);
        return -1;
    }
    int kept = lua_toboolean(L, -1);
    lua_pop(L, 1);
    if (!kept) {
        sandbox_drop_kept(sb);
        return KEEP_REFUSED;
    }
    sb->kept = 1;
    return KEEP_OK;
}

void sandbox_drop_kept(sandbox *sb) {
    lua_State *L = sb->L;
    sb->kept = 0;
    sb->kept_tables = sb->kept_cells = 0;
    /* setting a registry key to nil allocates nothing */
    lua_pushnil(L);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &KEEP_KEY);
}

int sandbox_is_kept(const sandbox *sb) { return sb->kept; }

/* Puts the table at t back to the copy at copy (count entries) and the
** metatable at mt (false: none). */
static void put_back_table(lua_State *L, int t, int copy, int mt, lua_Integer count) {
    if (lua_getmetatable(L, t) ? !lua_rawequal(L, -1, mt) : lua_toboolean(L, mt)) {
        if (lua_toboolean(L, mt)) lua_pushvalue(L, mt);
        else lua_pushnil(L);
        lua_setmetatable(L, t);
    }
    lua_settop(L, mt + 1);
    /* unchanged: the same count of entries, each equal to the copy's */
    lua_Integer seen = 0;
    int changed = 0;
    lua_pushnil(L);
    while (lua_next(L, t)) { /* key, value */
        seen++;
        lua_pushvalue(L, -2);
        lua_rawget(L, copy);
        changed = !lua_rawequal(L, -1, -2);
        lua_pop(L, 2);
        if (changed) {
            lua_pop(L, 1);
            break;
        }
    }
    if (!changed && seen == count) return;
    /* emptied (clearing a field while traversing is allowed), then refilled */
    lua_pushnil(L);
    while (lua_next(L, t)) {
        lua_pop(L, 1);
        lua_pushvalue(L, -1);
        lua_pushnil(L);
        lua_rawset(L, t);
    }
    lua_pushnil(L);
    while (lua_next(L, copy)) {
        lua_pushvalue(L, -2);
        lua_insert(L, -2);
        lua_rawset(L, t);
    }
}

static int p_restore(lua_State *L) {
    sandbox *sb = SB(L);
    lua_settop(L, 0);
    lua_rawgetp(L, LUA_REGISTRYINDEX, &KEEP_KEY);
    lua_rawgeti(L, 1, 1); /* 2: tables */
    lua_rawgeti(L, 1, 2); /* 3: cells */
    for (lua_Integer i = 0; i < sb->kept_tables; i++) {
        lua_rawgeti(L, 2, 4 * i + 1); /* 4: t */
        lua_rawgeti(L, 2, 4 * i + 2); /* 5: copy */
        lua_rawgeti(L, 2, 4 * i + 3); /* 6: metatable or false */
        lua_rawgeti(L, 2, 4 * i + 4); /* 7: count */
        lua_Integer count = lua_tointeger(L, 7);
        put_back_table(L, 4, 5, 6, count);
        lua_settop(L, 3);
    }
    for (lua_Integer i = 0; i < sb->kept_cells; i++) {
        lua_rawgeti(L, 3, 3 * i + 1); /* 4: function */
        lua_rawgeti(L, 3, 3 * i + 2); /* 5: upvalue index */
        lua_rawgeti(L, 3, 3 * i + 3); /* 6: value */
        int up = (int)lua_tointeger(L, 5);
        lua_getupvalue(L, 4, up);
        if (!lua_rawequal(L, -1, 6)) {
            lua_pushvalue(L, 6);
            lua_setupvalue(L, 4, up);
        }
        lua_settop(L, 3);
    }
    lua_pushnil(L); /* no module half loaded by the last game */
    lua_rawsetp(L, LUA_REGISTRYINDEX, &LOADING_KEY);
    return 0;
}

int sandbox_restore_kept(sandbox *sb) {
    lua_State *L = sb->L;
    if (!sb->kept) return -1;
    sb->game_ticks_used = 0; /* a new game: a new CPU total */
    lua_settop(L, 0);
    sb_reads_clear(L); /* a new game: its own reads */
    lua_pushcfunction(L, p_restore);
    if (lua_pcall(L, 0, 0, 0) != LUA_OK) {
        lua_pop(L, 1);
        return -1;
    }
    return 0;
}
