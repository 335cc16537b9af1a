/*
** luaval.h
** Between value trees and Lua: ruleset data and state go into the sandbox
** as fresh tables; state comes back out as plain data (maps, lists,
** strings, integers, booleans), checked on the way.
*/
#ifndef CAIRN_LUAVAL_H
#define CAIRN_LUAVAL_H

#include <lua.h>

#include "error.h"
#include "value.h"

/* Pushes v as a fresh Lua value: null -> nil, bool, integer, string, list
** -> table 1..n, map -> table with string keys. Map entries whose value is
** null are left out (Lua cannot hold a nil field). A null inside a list is
** refused (it would leave a hole). Runs protected: safe at the memory cap.
** Returns 0 with one value pushed, or -1 with nothing pushed. */
int luaval_push(lua_State *L, const value *v);

/* luaval_push's conversion, unprotected: pushes v or raises a Lua error
** (out of memory, a null in a list, nesting too deep). Only inside a
** protected call. */
void luaval_push_raw(lua_State *L, const value *v);

/* Same, reporting why it failed in errs (may be NULL): the path below
** what ("g.data.carts[2]") and the YAML location of the offending node. */
int luaval_push_checked(lua_State *L, const value *v, const char *what, cerr_list *errs);

/* Pushes v and freezes it with sandbox_freeze (for g.data): scripts can
** read it but any write raises "attempt to modify read-only table <what>...".
** Returns 0 or -1 (nothing pushed). */
int luaval_push_readonly(lua_State *L, const value *v, const char *what, cerr_list *errs);

/* Reads the Lua value at idx as plain data. Returns a new tree (the caller
** frees it with value_free), or NULL with one error in errs naming the path
** below what (Lua indices, 1-based: `state.players[2].food`).
**
** The rules: nil -> null; booleans; integers (a float is refused, even 3.0:
** "floats are not allowed (use integers)"); strings (valid UTF-8, at most
** CAIRN_YAML_MAX_STRING bytes, so that a save reads back); a table whose
** keys are exactly 1..n -> list; a table with only string keys -> map, keys
** sorted by bytes (Lua has no key order; sorting keeps saves identical
** between runs); an empty table -> empty map. Refused: mixed or sparse
** integer keys, other key types, functions, threads, userdata, tables with
** a metatable, cycles, nesting past CAIRN_YAML_MAX_DEPTH and more than
** CAIRN_YAML_MAX_NODES nodes. Read-only proxies (sandbox_freeze) are read
** through. Never allocates in Lua and never raises: safe outside a
** protected call. Needs a few free stack slots per level (checked). */
value *luaval_to_value(lua_State *L, int idx, const char *what, cerr_list *errs);

/* Checks, building nothing and allocating nothing in Lua, that the value at
** idx is what luaval_to_value would accept, and a tree: no table reachable
** twice. Returns 0, or -1 with one error in errs (may be NULL): the same one
** luaval_to_value gives, or "the same table is stored twice". Never raises. */
int luaval_check(lua_State *L, int idx, const char *what, cerr_list *errs);

/* Makes *tree (an earlier luaval_to_value of the same place, or NULL) the
** tree luaval_to_value would read from the value at idx now, keeping the
** nodes that did not change and reading only what did: the game state's
** tree kept up to date between decisions. With empty_as_list an empty
** table is an empty list (the engine's rule for the state). Returns 0 when
** the value passes luaval_check (plain data and a tree); else -1 with *tree
** freed and NULL (read or check again to say why). Never raises; allocates
** nothing in Lua. */
int luaval_refresh(lua_State *L, int idx, value **tree, int empty_as_list);

/* Pushes onto `to` a deep copy of the value at idx of `from` (another
** state): tables (read-only proxies read through), strings, numbers,
** booleans; nothing goes through a value tree. Protected on `to`. Returns
** 0, or -1 with nothing pushed (out of memory, a function or userdata
** inside, nesting past CAIRN_YAML_MAX_DEPTH). */
int luaval_copy(lua_State *from, int idx, lua_State *to);

#endif
