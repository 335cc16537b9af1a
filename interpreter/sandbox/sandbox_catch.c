/*
** sandbox_catch.c
** The functions that catch errors, made unable to swallow a trip of the
** budget or the memory cap: pcall, xpcall, load (text only, under the
** same rules as the ruleset's files), and coroutines (hooked threads whose
** trips reach the caller).
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

/* ------------------------------------------------- pcall, xpcall, load */

/* As lbaselib's finishpcall, plus sb_no_swallow. */
static int sb_finishpcall(lua_State *L, int status, lua_KContext extra) {
    if (status != LUA_OK && status != LUA_YIELD) {
        sb_no_swallow(L, status);
        if (lua_topointer(L, -1) == SB(L)->syntax_msg) SB(L)->syntax_msg = NULL;
        lua_pushboolean(L, 0);
        lua_pushvalue(L, -2);
        return 2;
    }
    if (SB(L)->tripped) sb_raise_tripped(L);
    return lua_gettop(L) - (int)extra;
}

int sb_pcall(lua_State *L) {
    luaL_checkany(L, 1);
    lua_pushboolean(L, 1);
    lua_insert(L, 1);
    int status = lua_pcallk(L, lua_gettop(L) - 2, LUA_MULTRET, 0, 0, sb_finishpcall);
    return sb_finishpcall(L, status, 0);
}

/* The message handler xpcall installs around the script's own (upvalue 1).
** A trip raised by the hook runs message handlers while Lua has hooks
** switched off, so the script's handler must not run then: it could loop
** forever unseen. */
static int sb_xpcall_handler(lua_State *L) {
    if (SB(L)->tripped) return 1;
    int n = lua_gettop(L);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, n, LUA_MULTRET);
    return lua_gettop(L);
}

int sb_xpcall(lua_State *L) {
    int n = lua_gettop(L);
    luaL_checktype(L, 2, LUA_TFUNCTION);
    lua_pushvalue(L, 2);
    lua_pushcclosure(L, sb_xpcall_handler, 1);
    lua_replace(L, 2);
    lua_pushboolean(L, 1);
    lua_pushvalue(L, 1);
    lua_rotate(L, 3, 2);
    int status = lua_pcallk(L, n - 2, LUA_MULTRET, 2, 2, sb_finishpcall);
    return sb_finishpcall(L, status, 2);
}

/* What load compiles, at most CAIRN_LUA_MAX_LOAD_BYTES: a reader
** function's pieces are joined first (each call of it is budgeted Lua).
** Pushes the text and returns it, or pushes nothing and returns NULL with
** the reason in why. */
static const char *load_text(lua_State *L, size_t *len, char *why, size_t whysz) {
    if (lua_type(L, 1) == LUA_TSTRING) {
        const char *s = lua_tolstring(L, 1, len);
        if (*len > (size_t)CAIRN_LUA_MAX_LOAD_BYTES) goto too_big;
        lua_pushvalue(L, 1);
        return s;
    }
    luaL_checktype(L, 1, LUA_TFUNCTION);
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    size_t total = 0;
    for (;;) {
        lua_pushvalue(L, 1);
        lua_call(L, 0, 1);
        if (lua_isnil(L, -1)) {
            lua_pop(L, 1);
            break;
        }
        if (!lua_isstring(L, -1)) luaL_error(L, "reader function must return a string");
        size_t n;
        lua_tolstring(L, -1, &n);
        if (n == 0) {
            lua_pop(L, 1);
            break;
        }
        total += n;
        if (total > (size_t)CAIRN_LUA_MAX_LOAD_BYTES) {
            lua_pop(L, 1);
            goto too_big;
        }
        luaL_addvalue(&b);
    }
    luaL_pushresult(&b);
    return lua_tolstring(L, -1, len);
too_big:
    snprintf(why, whysz, "load: chunk larger than %ld bytes (limit CAIRN_LUA_MAX_LOAD_BYTES)",
             (long)CAIRN_LUA_MAX_LOAD_BYTES);
    return NULL;
}

/* load(chunk [, chunkname [, mode [, env]]]): text chunks only, at most
** CAIRN_LUA_MAX_LOAD_BYTES, checked by sb_chunk_check and charged a step
** per 8 bytes (compiling is C work the hook does not see). An env argument
** is allowed: it can only be a table the script already holds. */
int sb_load(lua_State *L) {
    const char *mode = luaL_optstring(L, 3, "t");
    int env = !lua_isnone(L, 4) ? 4 : 0;
    if (strchr(mode, 'b'))
        return luaL_error(L, "load: binary chunks are not allowed in the sandbox "
                             "(mode must be \"t\")");
    const char *chunkname = luaL_optstring(L, 2, lua_type(L, 1) == LUA_TSTRING ? lua_tostring(L, 1)
                                                                               : "=(load)");
    char why[200];
    size_t l;
    const char *text = load_text(L, &l, why, sizeof why);
    if (!text) {
        luaL_pushfail(L);
        lua_pushstring(L, why);
        return 2;
    }
    sb_charge(L, (lua_Integer)(l / 8));
    char cwhy[160];
    int status;
    if (sb_chunk_check(text, l, cwhy, sizeof cwhy) != 0) {
        luaL_pushfail(L);
        lua_pushfstring(L, "load: line %s", cwhy);
        return 2;
    }
    size_t rl; /* `#` the same in every run, room in empty tables (sb_chunk_rewrite) */
    char *rewritten = sb_chunk_rewrite(text, l, &rl, cwhy, sizeof cwhy);
    if (!rewritten && rl == (size_t)-1) {
        luaL_pushfail(L);
        lua_pushfstring(L, "load: line %s", cwhy);
        return 2;
    }
    status = rewritten ? luaL_loadbufferx(L, rewritten, rl, chunkname, "t")
                       : luaL_loadbufferx(L, text, l, chunkname, "t");
    if (status == LUA_ERRSYNTAX && rewritten && sb_len_unprefix(rewritten, &rl)) {
        lua_pop(L, 1); /* a chunk at Lua's limits: again without the `#` local */
        status = luaL_loadbufferx(L, rewritten, rl, chunkname, "t");
    }
    free(rewritten);
    if (status != LUA_OK) {
        sb_no_swallow(L, status);
        luaL_pushfail(L);
        lua_insert(L, -2);
        return 2;
    }
    if (env) {
        lua_pushvalue(L, env);
        if (!lua_setupvalue(L, -2, 1)) lua_pop(L, 1);
    }
    return 1;
}

/* ----------------------------------------------------------- coroutines */

int sb_cocreate(lua_State *L) {
    luaL_checktype(L, 1, LUA_TFUNCTION);
    /* A thread runs up to one step before its hook first fires: charge that
    ** now, or many short coroutines would run unseen. */
    sb_charge(L, CAIRN_LUA_HOOK_STEP);
    lua_State *co = lua_newthread(L);
    if (SB(L)->tripped || !SB(L)->timed) /* a timed call's coroutines run under the timer */
        lua_sethook(co, sb_hook, LUA_MASKCOUNT, SB(L)->tripped ? 1 : CAIRN_LUA_HOOK_STEP);
    lua_pushvalue(L, 1);
    lua_xmove(L, co, 1);
    return 1;
}

/* As lcorolib's auxresume, plus sb_no_swallow. */
static int sb_auxresume(lua_State *L, lua_State *co, int narg) {
    int nres;
    if (!lua_checkstack(co, narg)) {
        lua_pushliteral(L, "too many arguments to resume");
        return -1;
    }
    lua_xmove(L, co, narg);
    sandbox *sb = SB(L);
    lua_State *prev = sb->running;
    sb->running = sb->watch.running = co;
    if (sb->watch.fired) lua_sethook(co, sb_hook, LUA_MASKCOUNT, 1);
    int status = lua_resume(co, L, narg, &nres);
    sb->running = sb->watch.running = prev;
    /* the timer may have fired while co ran and set its hook only on co:
    ** the resumer must stop too, or it runs on unwatched */
    if (sb->watch.fired || sb->watch.expired) lua_sethook(L, sb_hook, LUA_MASKCOUNT, 1);
    if (status == LUA_OK || status == LUA_YIELD) {
        if (SB(L)->tripped) sb_raise_tripped(L);
        if (!lua_checkstack(L, nres + 1)) {
            lua_pop(co, nres);
            lua_pushliteral(L, "too many results to resume");
            return -1;
        }
        lua_xmove(co, L, nres);
        return nres;
    }
    sb_no_swallow(L, status);
    lua_xmove(co, L, 1);
    return -1;
}

int sb_coresume(lua_State *L) {
    lua_State *co = lua_tothread(L, 1);
    luaL_argexpected(L, co, 1, "coroutine");
    int r = sb_auxresume(L, co, lua_gettop(L) - 1);
    if (r < 0) {
        lua_pushboolean(L, 0);
        lua_insert(L, -2);
        return 2;
    }
    lua_pushboolean(L, 1);
    lua_insert(L, -(r + 1));
    return r + 1;
}

/* As lcorolib's auxwrap. */
static int sb_auxwrap(lua_State *L) {
    lua_State *co = lua_tothread(L, lua_upvalueindex(1));
    int r = sb_auxresume(L, co, lua_gettop(L));
    if (r < 0) {
        int stat = lua_status(co);
        /* After a trip the coroutine died inside the hook, with hooks off:
        ** its __close handlers would run unbudgeted, so they do not run. */
        if (SB(L)->tripped) return lua_error(L);
        if (stat != LUA_OK && stat != LUA_YIELD) {
            sandbox *sb = SB(L);
            lua_State *prev = sb->running;
            sb->running = sb->watch.running = co;
            stat = lua_resetthread(co); /* close its to-be-closed variables */
            sb->running = sb->watch.running = prev;
            lua_xmove(co, L, 1);
            sb_no_swallow(L, stat);
        }
        if (lua_type(L, -1) == LUA_TSTRING) {
            luaL_where(L, 1);
            lua_insert(L, -2);
            lua_concat(L, 2);
        }
        return lua_error(L);
    }
    return r;
}

int sb_cowrap(lua_State *L) {
    sb_cocreate(L);
    lua_pushcclosure(L, sb_auxwrap, 1);
    return 1;
}

