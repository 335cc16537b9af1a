/*
** sandbox_reads.c
** What `cairn check --unread` asks of the sandbox: with
** sandbox_config.track_reads, every read through a read-only proxy made by
** sandbox_freeze (g.data) is noted by its path ("g.data.game.refill.free",
** "g.data.cards[3]"; a `pairs` or `next` over a proxy notes "PATH[*]", every
** entry), so that a check can list the data values no rule read. Off (the
** default), proxies index their contents directly and nothing is noted.
*/
#include "sandbox_internal.h"

/* Registry key of the table of noted paths (path -> true). */
static const char READS_KEY = 'r';

void sb_note_read(lua_State *L, int idx) {
    idx = lua_absindex(L, idx);
    if (lua_rawgetp(L, LUA_REGISTRYINDEX, &READS_KEY) != LUA_TTABLE) {
        lua_pop(L, 1);
        lua_newtable(L);
        lua_pushvalue(L, -1);
        lua_rawsetp(L, LUA_REGISTRYINDEX, &READS_KEY);
    }
    lua_pushvalue(L, idx);
    lua_pushboolean(L, 1);
    lua_rawset(L, -3);
    lua_pop(L, 1);
}

void sb_note_read_all(lua_State *L, const char *path) {
    lua_pushfstring(L, "%s[*]", path);
    sb_note_read(L, -1);
    lua_pop(L, 1);
}

void sb_reads_clear(lua_State *L) {
    lua_pushnil(L); /* Lua 5.4 inserts no key for a nil: this allocates nothing */
    lua_rawsetp(L, LUA_REGISTRYINDEX, &READS_KEY);
}

int sandbox_reads(sandbox *sb, int (*fn)(void *ud, const char *path), void *ud) {
    lua_State *L = sb->L;
    if (!lua_checkstack(L, 3)) return -1;
    if (lua_rawgetp(L, LUA_REGISTRYINDEX, &READS_KEY) != LUA_TTABLE) {
        lua_pop(L, 1);
        return 0;
    }
    int t = lua_gettop(L), rc = 0;
    lua_pushnil(L);
    while (lua_next(L, t)) { /* every key is a string: see sb_note_read's callers */
        lua_pop(L, 1);
        if (rc == 0 && lua_type(L, -1) == LUA_TSTRING) rc = fn(ud, lua_tostring(L, -1));
    }
    lua_settop(L, t - 1);
    return rc;
}
