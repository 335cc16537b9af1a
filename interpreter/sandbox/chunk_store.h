/*
** chunk_store.h
** Each Lua text compiled once per process. `cairn check` compiles every
** script for its syntax, then the data check's sandbox compiles the rules
** and modules it runs; a reload builds a new sandbox that compiles the same
** files again. chunk_store_load gives what luaL_loadbufferx(L, text, len,
** name, "t") gives, but a text compiled before under the same chunk name
** is loaded from the bytecode Lua dumped of it then (debug information
** kept: the same lines, names and messages). Only bytecode this process
** made from text that compiled is ever loaded: a ruleset can still give no
** bytecode of its own. Not for two threads.
*/
#ifndef CAIRN_CHUNK_STORE_H
#define CAIRN_CHUNK_STORE_H

#include <stddef.h>

#include <lua.h>

/* Pushes the compiled function, or the error message as luaL_loadbufferx
** does; returns its status. Raises nothing. */
int chunk_store_load(lua_State *L, const char *text, size_t len, const char *chunkname);

/* Forgets every stored chunk (tests; the store is also bounded, below). */
void chunk_store_clear(void);

/* How many loads the store answered, and how many compiled (tests). */
void chunk_store_counts(size_t *hits, size_t *misses);

#endif
