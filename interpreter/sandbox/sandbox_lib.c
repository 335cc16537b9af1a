/*
** sandbox_lib.c
** Library functions the sandbox replaces: tostring, print and
** string.format without addresses (a table prints the same on every run),
** string.rep sized before it allocates, and C work charged to the budget
** by its size (string and utf8 functions by the bytes they read,
** table.concat, table.unpack).
*/
#include "sandbox_internal.h"
#include "guard.h"
#include "limits.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <lauxlib.h>
#include <lualib.h>

/* C work charged to the budget: one instruction per this many bytes a
** library function reads or builds (string.upper of 16 MB is one VM
** instruction, but must not be one unit of the budget). */
#define CHARGE_BYTES 8

/* -------------------------------------------- printing without addresses */

/* Pushes the text of the value at idx: __tostring when it has one, the
** plain type name for tables, functions and threads (their addresses differ
** between runs, and a script must not be able to see them). */
static const char *sb_tolstring(lua_State *L, int idx, size_t *len) {
    idx = lua_absindex(L, idx);
    switch (lua_type(L, idx)) {
    case LUA_TNIL:
    case LUA_TBOOLEAN:
    case LUA_TNUMBER:
    case LUA_TSTRING: return luaL_tolstring(L, idx, len);
    default:
        if (luaL_getmetafield(L, idx, "__tostring") != LUA_TNIL) {
            lua_pop(L, 1);
            return luaL_tolstring(L, idx, len);
        }
        lua_pushstring(L, luaL_typename(L, idx));
        return lua_tolstring(L, -1, len);
    }
}

int sb_tostring(lua_State *L) {
    luaL_checkany(L, 1);
    sb_tolstring(L, 1, NULL);
    return 1;
}

/* print(...) and g.debug(...): the debug channel. Nothing is converted
** when nobody listens. */
int sb_print(lua_State *L) {
    sandbox *sb = SB(L);
    if (!sb->print || !sb->print(sb->print_ud, NULL, NULL)) return 0;
    int n = lua_gettop(L);
    char where[SANDBOX_WHERE_MAX + 16] = "?";
    lua_Debug ar;
    if (lua_getstack(L, 1, &ar) && lua_getinfo(L, "Sl", &ar) && ar.currentline > 0) {
        char file[SANDBOX_WHERE_MAX];
        sb_frame_file(&ar, file, sizeof file);
        snprintf(where, sizeof where, "%s:%d", file, ar.currentline);
    }
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    for (int i = 1; i <= n; i++) {
        if (i > 1) luaL_addchar(&b, ' ');
        sb_tolstring(L, i, NULL);
        luaL_addvalue(&b);
    }
    luaL_pushresult(&b);
    sb->print(sb->print_ud, where, lua_tostring(L, -1));
    return 0;
}

int sandbox_print_function(lua_State *L) { return sb_print(L); }

/* string.format without %p, and with %s of a table giving its type name. */
int sb_format(lua_State *L) {
    size_t fl;
    const char *f = luaL_checklstring(L, 1, &fl);
    const char *e = f + fl;
    int top = lua_gettop(L), arg = 1;
    for (const char *p = f; p < e; p++) {
        if (*p != '%') continue;
        if (++p >= e) break;
        if (*p == '%') continue;
        arg++;
        while (p < e && *p && strchr("-+ #0123456789.", *p)) p++;
        if (p >= e) break;
        if (*p == 'p')
            return luaL_error(L, "string.format: %%p is not allowed in the sandbox "
                                 "(addresses differ between runs)");
        if (*p == 's' && arg <= top && lua_type(L, arg) >= LUA_TTABLE) {
            sb_tolstring(L, arg, NULL);
            lua_replace(L, arg);
        }
    }
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, top, 1);
    return 1;
}

/* string.rep, with the result's size checked against the cap before
** anything is allocated (and a loop of 10^15 empty copies skipped). */
int sb_srep(lua_State *L) {
    sandbox *sb = SB(L);
    size_t l, lsep;
    luaL_checklstring(L, 1, &l);
    lua_Integer n = luaL_checkinteger(L, 2);
    luaL_optlstring(L, 3, "", &lsep);
    if (n <= 0 || (l == 0 && lsep == 0)) {
        lua_pushliteral(L, "");
        return 1;
    }
    size_t un = (size_t)n, total;
    if (l + lsep < l || un > SIZE_MAX / (l + lsep))
        total = SIZE_MAX;
    else
        total = un * l + (un - 1) * lsep;
    if (total > sb->mem_cap - sb->mem_used) {
        lua_gc(L, LUA_GCCOLLECT); /* garbage may be what stands in the way */
        if (total > sb->mem_cap - sb->mem_used) {
            sb->mem_refusals++;
            sb_trip(L, TRIP_MEMORY, 1);
            sb_raise_tripped(L);
        }
    }
    sb_charge(L, (lua_Integer)(total / CHARGE_BYTES)); /* the copying is C work too */
    lua_settop(L, 3);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, 3, 1);
    return 1;
}

/* ------------------------------------------ C work charged by its size */

/* Calls upvalue 1 (the library's own function) with every argument and
** returns what it returns. */
static int call_original(lua_State *L) {
    int n = lua_gettop(L);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, n, LUA_MULTRET);
    return lua_gettop(L);
}

/* upper, lower, reverse, byte, sub, utf8.len, utf8.codepoint: charged by
** the bytes of their string arguments before they run. */
int sb_bytes_charged(lua_State *L) {
    size_t total = 0;
    for (int i = 1, n = lua_gettop(L); i <= n; i++)
        if (lua_type(L, i) == LUA_TSTRING) total += lua_rawlen(L, i);
    sb_charge(L, (lua_Integer)(total / CHARGE_BYTES));
    return call_original(L);
}

/* The items i..j a table function would visit (0 when none), saturated.
** A missing j becomes the deterministic length (sb_len_of), passed on to
** the original function as its j, so it never takes Lua's border itself. */
static lua_Integer range_of(lua_State *L, int tidx, int iidx, int jidx, const char *fn) {
    lua_Integer i = luaL_optinteger(L, iidx, 1);
    if (lua_isnoneornil(L, jidx)) {
        lua_Integer n = sb_len_of(L, tidx, fn, 0);
        if (lua_gettop(L) < jidx) lua_settop(L, jidx);
        lua_pushinteger(L, n);
        lua_replace(L, jidx);
    }
    lua_Integer j = luaL_checkinteger(L, jidx);
    if (i > j) return 0;
    lua_Unsigned cnt = (lua_Unsigned)j - (lua_Unsigned)i + 1u;
    return cnt > (lua_Unsigned)LUA_MAXINTEGER || cnt == 0 ? LUA_MAXINTEGER : (lua_Integer)cnt;
}

/* table.concat: one instruction per item before it runs (a concat whose
** __index is table.concat loops in C, where no hook fires), and the
** result's bytes after. */
int sb_tconcat(lua_State *L) {
    luaL_checktype(L, 1, LUA_TTABLE);
    sb_charge(L, range_of(L, 1, 3, 4, "table.concat"));
    int r = call_original(L);
    if (lua_type(L, -1) == LUA_TSTRING) sb_charge(L, (lua_Integer)(lua_rawlen(L, -1) / CHARGE_BYTES));
    return r;
}

/* table.unpack: one instruction per value. */
int sb_tunpack(lua_State *L) {
    if (lua_type(L, 1) == LUA_TTABLE) sb_charge(L, range_of(L, 1, 2, 3, "table.unpack"));
    return call_original(L);
}

void sandbox_charge(lua_State *L, lua_Integer n) { sb_charge(L, n); }

