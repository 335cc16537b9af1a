/*
** guard.h
** Read-only views of the live game state, made lazily, for the handlers that
** must not change it. A proxy is made for a table only when a script reaches
** it, so a call costs what it reads, not what the state holds; a write raises
** an error at the script's line.
*/
#ifndef CAIRN_GUARD_H
#define CAIRN_GUARD_H

#include <lua.h>

/* Pushes a read-only view of the value at idx: a table becomes its proxy
** (the same proxy for the same table while it lives), anything else is
** pushed as it is. Reading a field of a proxy gives the live value, tables
** again as proxies; `#`, ipairs and the sandbox's pairs/next/rawget/rawlen
** work on it; every write raises "g.state is read-only here (field 'k'):
** only setup and apply change the state". May raise (memory): call
** protected. */
void guard_push(lua_State *L, int idx);

/* If the value at idx is a proxy made by guard_push, pushes the live table
** it shows and returns 1; otherwise pushes nothing and returns 0. Never
** raises or allocates; needs two free stack slots. */
int guard_target(lua_State *L, int idx);

#endif
