/*
** engine_view_lua.h
** A seat's view pushed into Lua straight from the state tree (render's
** argument): the table luaval_push(view_of(r, state, seat)) would push,
** without the view's tree.
*/
#ifndef CAIRN_VIEW_LUA_H
#define CAIRN_VIEW_LUA_H

#include <lua.h>

#include "view.h"

/* Pushes the view of state for seat (0: a spectator's) as one fresh Lua
** value, or raises a Lua error (out of memory, a null in a list): only
** inside a protected call. */
void view_push_raw(lua_State *L, const view_rules *r, const value *state, int seat);

#endif
