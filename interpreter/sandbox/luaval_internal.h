/*
** luaval_internal.h
** What luaval.c shares with luaval_refresh.c: the string rule, the key
** order of maps and the set of tables met (the tree rule).
*/
#ifndef CAIRN_LUAVAL_INTERNAL_H
#define CAIRN_LUAVAL_INTERNAL_H

#if !defined(CAIRN_FOLDER_sandbox)
#error "luaval_internal.h is for interpreter/sandbox/ only: include its public header"
/* The most nodes a walk of the value named what may meet: the game
** state's bound (CAIRN_STATE_MAX_NODES, or its environment override) for
** "state" and the paths below it, and for NULL (the state's refresh);
** CAIRN_YAML_MAX_NODES for anything else. */
long luaval_nodes_max(const char *what);

#endif

#include <stddef.h>

#include <lua.h>

/* A string (or, with is_key, a map key) that a save can hold: not longer
** than CAIRN_YAML_MAX_STRING, valid UTF-8, a key without NUL bytes. */
int luaval_string_plain(const char *s, size_t n, int is_key);

/* A map key as the walks sort them: by bytes, then by length. */
typedef struct skey {
    const char *s;
    size_t len;
    int slot;
} skey;
int luaval_skey_cmp(const void *pa, const void *pb);

/* Every table met, for the tree rule: an open-addressing set, on the stack
** up to a state of several hundred tables (a calloc of the size of a state
** was most of a check's cost: it makes malloc consolidate what the last
** trees freed). */
#define LUAVAL_SEEN_INLINE 1024
typedef struct seen_set {
    const void **seen;
    size_t seen_cap, seen_n;
    const void *inline_seen[LUAVAL_SEEN_INLINE];
} seen_set;
void luaval_seen_init(seen_set *c);
void luaval_seen_free(seen_set *c);
/* Adds p to the set; 1 if it was there already, -1 out of memory. */
int luaval_seen_add(seen_set *c, const void *p);

/* The table a walk of plain data reads for the table at idx: idx itself
** when it has no metatable, the contents of a read-only view (pushed), or
** 0 for any other metatable (nothing pushed). Needs two free stack slots. */
int luaval_plain_table(lua_State *L, int idx);

/* The most nodes a walk of the value named what may meet: the game
** state's bound (CAIRN_STATE_MAX_NODES, or its environment override) for
** "state" and the paths below it, and for NULL (the state's refresh);
** CAIRN_YAML_MAX_NODES for anything else. */
long luaval_nodes_max(const char *what);

#endif
