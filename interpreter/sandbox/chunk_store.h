/*
** chunk_store.h
** Each Lua text compiled once per process. `cairn check` compiles every
** script for its syntax (sandbox_precompile), then the data check's sandbox
** loads the rules and modules it runs; a reload, a bot's worker and each
** game of `cairn test` build new sandboxes that load the same files again.
** The sandbox rewrites a text before Lua compiles it (sandbox_len.c,
** sandbox_presize.c); the store keeps what came of a text by the text as
** given, so a second load is spared the rewrite and the compile (debug
** information kept: the same lines, names and messages). Only bytecode
** this process made from text that compiled is ever loaded: a ruleset can
** still give no bytecode of its own. Not for two threads.
*/
#ifndef CAIRN_CHUNK_STORE_H
#define CAIRN_CHUNK_STORE_H

#include <stddef.h>

#include <lua.h>

/* Pushes the function kept for text under chunkname and returns LUA_OK,
** or pushes nothing and returns -1 (compile it, then keep it). Raises
** nothing. */
int chunk_store_find(lua_State *L, const char *text, size_t len, const char *chunkname);

/* Keeps the Lua function on top of L's stack (left there) as the one text,
** as given, compiles to under chunkname. Out of memory only means it is not
** kept. */
void chunk_store_keep(lua_State *L, const char *text, size_t len, const char *chunkname);

/* Forgets every stored chunk (tests; the store is also bounded, below). */
void chunk_store_clear(void);

/* How many loads the store answered, and how many compiled (tests). */
void chunk_store_counts(size_t *hits, size_t *misses);

#endif
