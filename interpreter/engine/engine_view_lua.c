/*
** engine_view_lua.c
** A seat's view pushed into Lua straight from the state tree: render's
** argument. view_emit (view.c) streams the view; each node becomes a Lua
** value as luaval_push would make it from view_of's tree, with no tree of
** the view built and freed in between.
*/
#include "engine_view_lua.h"

#include "luaval.h"

#include <lauxlib.h>

static int sink_whole(void *ud, const value *v) {
    luaval_push_raw(ud, v);
    return 0;
}

/* The table sizes luaval_push gives. */
static int sink_open(void *ud, const value *container, size_t n) {
    lua_State *L = ud;
    if (n > (size_t)INT32_MAX) luaL_error(L, container->type == CV_MAP ? "map too large" : "list too long");
    luaL_checkstack(L, 4, "nested too deeply");
    if (container->type == CV_MAP) lua_createtable(L, 0, (int)n);
    else lua_createtable(L, (int)n, 0);
    return 0;
}

static int sink_child(void *ud, const value *container, size_t k) {
    lua_State *L = ud;
    if (container->type == CV_MAP) {
        const value *key = container->u.map.items[k].key;
        lua_pushlstring(L, key->u.str.s, key->u.str.len);
    }
    return 0;
}

/* A null child: left out of a map, refused in a list (luaval_push's rules). */
static int sink_done_child(void *ud, const value *container, size_t k) {
    lua_State *L = ud;
    if (container->type == CV_MAP) {
        if (lua_isnil(L, -1)) lua_pop(L, 2);
        else lua_rawset(L, -3);
    } else {
        if (lua_isnil(L, -1)) luaL_error(L, "a list cannot hold null (Lua would see a hole)");
        lua_rawseti(L, -2, (lua_Integer)k + 1);
    }
    return 0;
}

static int sink_close(void *ud, const value *container) {
    (void)ud;
    (void)container;
    return 0;
}

void view_push_raw(lua_State *L, const view_rules *r, const value *state, int seat) {
    luaL_checkstack(L, 4, "view");
    view_sink o = {L, sink_whole, sink_open, sink_child, sink_done_child, sink_close};
    if (view_emit(r, state, seat, &o) == 0) return;
    /* rules whose paths meet: the view as a tree, then pushed */
    value *v = view_of(r, state, seat);
    if (!v) luaL_error(L, "out of memory");
    int rc = luaval_push(L, v);
    value_free(v);
    if (rc != 0) luaL_error(L, "out of memory");
}
