/*
** sandbox_require.c
** Loading code: text files only (never bytecode), read whole and bounded;
** require confined to the ruleset's folders and the stdlib by realpath;
** compiled chunks kept per state so that a new game (sandbox_reset) runs
** them again instead of reading and compiling them again.
*/
/* realpath is XSI: confining require to its folders needs it */
#if !defined(_XOPEN_SOURCE)
#define _XOPEN_SOURCE 700
#endif

#include "sandbox_internal.h"
#include "chunk_store.h"
#include "limits.h"
#include "safe_open.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Longest module name `require` accepts. */
#define SANDBOX_MODULE_NAME_MAX 128

/* ---------------------------------------------------------------- require */

/* Reads a whole script file into a malloc'd buffer (safe_open.h: a regular
** file, inside within when not NULL, at most CAIRN_LUA_MAX_SOURCE_BYTES).
** Returns NULL with why set on failure. */
char *sb_read_source(const char *path, const char *within, size_t *len, char *why, size_t whysz) {
    char *buf = safe_read_file(path, within, (size_t)CAIRN_LUA_MAX_SOURCE_BYTES, len, why, whysz);
    if (!buf && errno == EFBIG)
        snprintf(why, whysz, "file too large for a script (more than %ld bytes, "
                 "CAIRN_LUA_MAX_SOURCE_BYTES)", (long)CAIRN_LUA_MAX_SOURCE_BYTES);
    return buf;
}

/* Letters, digits, '_' and '.', no empty part, so that "a.b" can only mean
** a/b.lua below a module folder ("..", "/" and absolute paths are out). */
static int valid_module_name(const char *s, size_t n) {
    if (n == 0 || n > SANDBOX_MODULE_NAME_MAX || s[0] == '.' || s[n - 1] == '.') return 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (!(isalnum(c) || c == '_' || c == '.')) return 0;
        if (c == '.' && s[i + 1] == '.') return 0;
    }
    return 1;
}

/* Pushes "<name>:<why>" for the chunk name "@<name>" at 1 and the text at
** light userdata 2. */
static int push_chunk_error(lua_State *L) {
    lua_pushfstring(L, "%s:%s", lua_tostring(L, 1) + 1, (const char *)lua_touserdata(L, 2));
    return 1;
}

/* Compiles buf as the sandbox compiles every chunk (sb_chunk_check, then
** sb_chunk_rewrite), named chunkname, once per process: a text compiled so
** before is loaded from the chunk store, rewrite and all. Returns -1
** with nothing pushed and why filled when the text is refused before Lua
** sees it; else 0 with the function or Lua's message pushed and its status
** in *status. Raises nothing. */
static int compile_as_sandbox(lua_State *L, const char *buf, size_t len, const char *chunkname, int *status,
                              char *why, size_t whysz) {
    if (chunk_store_find(L, buf, len, chunkname) == LUA_OK) {
        *status = LUA_OK;
        return 0;
    }
    if (sb_chunk_check(buf, len, why, whysz) != 0) return -1;
    /* `#` the same in every run, room in empty tables (sb_chunk_rewrite) */
    size_t rlen = 0;
    char *rewritten = sb_chunk_rewrite(buf, len, &rlen, why, whysz);
    if (!rewritten && rlen == (size_t)-1) return -1;
    const char *code = rewritten ? rewritten : buf;
    size_t code_len = rewritten ? rlen : len;
    *status = luaL_loadbufferx(L, code, code_len, chunkname, "t");
    if (*status == LUA_ERRSYNTAX && rewritten && sb_len_unprefix(rewritten, &code_len)) {
        lua_pop(L, 1); /* a chunk at Lua's limits: again without the `#` local */
        *status = luaL_loadbufferx(L, code, code_len, chunkname, "t");
    }
    if (*status == LUA_OK) chunk_store_keep(L, buf, len, chunkname);
    free(rewritten);
    return 0;
}

/* Loads a chunk in text mode, named by the "@<chunk name>" string on top of
** the stack, which it replaces with the function or the error. Raises
** nothing (the caller may hold malloc'd memory); a compile error is
** recorded as such for report(). */
int sb_load_text(lua_State *L, const char *buf, size_t len) {
    sandbox *sb = SB(L);
    char why[160];
    int status;
    if (compile_as_sandbox(L, buf, len, lua_tostring(L, -1), &status, why, sizeof why) != 0) {
        /* the message is made protected: this function raises nothing */
        lua_pushcfunction(L, push_chunk_error);
        lua_pushvalue(L, -2);
        lua_pushlightuserdata(L, why);
        status = lua_pcall(L, 2, 1, 0);
        if (status == LUA_OK) status = LUA_ERRSYNTAX;
    }
    if (status == LUA_ERRSYNTAX) {
        sb->syntax_msg = lua_topointer(L, -1);
        snprintf(sb->syntax_file, sizeof sb->syntax_file, "%s", lua_tostring(L, -2) + 1);
    }
    lua_remove(L, -2);
    return status;
}

int sandbox_precompile(lua_State *L, const char *text, size_t len, const char *chunkname) {
    char why[160];
    int status;
    if (compile_as_sandbox(L, text, len, chunkname, &status, why, sizeof why) != 0) return LUA_ERRSYNTAX;
    if (status != LUA_OK) lua_pop(L, 1);
    return status;
}

/* The relative file of module name (validated): "a.b" -> "a/b.lua". */
static void module_file(const char *name, char rel[SANDBOX_MODULE_NAME_MAX + 8]) {
    size_t i;
    for (i = 0; name[i]; i++) rel[i] = name[i] == '.' ? '/' : name[i];
    memcpy(rel + i, ".lua", 5);
}

/* Which module folder holds rel: the first where <dir>/<rel> exists and,
** symlinks resolved, is still inside <dir>. Fills real (malloc'd, the path
** to open). Returns the folder's index, or -1. Touches no Lua. */
static int find_module(const sandbox *sb, const char *rel, char **real) {
    for (size_t d = 0; d < sb->n_dirs; d++) {
        if (!sb->canon[d]) continue;
        size_t cl = strlen(sb->canon[d]);
        size_t pl = cl + 1 + strlen(rel) + 1;
        char *p = malloc(pl);
        if (!p) return -2; /* out of memory: not "not found" */
        snprintf(p, pl, "%s/%s", sb->canon[d], rel);
        *real = realpath(p, NULL);
        free(p);
        if (!*real && errno == ENOMEM) return -2;
        if (!*real) continue;
        if (strncmp(*real, sb->canon[d], cl) == 0 && (*real)[cl] == '/') return (int)d;
        free(*real);
        *real = NULL;
    }
    return -1;
}

int sb_clear_loading(lua_State *L) {
    lua_rawgetp(L, LUA_REGISTRYINDEX, &LOADING_KEY);
    lua_rawgeti(L, 1, 1);
    lua_pushnil(L);
    lua_rawset(L, -3);
    return 0;
}

/* Pushes the registry table at key, creating it when missing. */
void sb_registry_table(lua_State *L, const void *key) {
    if (lua_rawgetp(L, LUA_REGISTRYINDEX, key) != LUA_TTABLE) {
        lua_pop(L, 1);
        lua_newtable(L);
        lua_pushvalue(L, -1);
        lua_rawsetp(L, LUA_REGISTRYINDEX, key);
    }
}

/* The compiled-chunk cache. A file is read and compiled once per state; each
** game (sandbox_reset) runs the same compiled function again with its own
** fresh environment as _ENV, which gives exactly what a fresh load would:
** a main chunk's only upvalue is _ENV, so every local, closure and table it
** makes is new, and nothing of an earlier game is reachable from it. The
** files are taken as unchanged for the state's life: hot reload builds a
** new sandbox. */

/* If the chunk for the file named at key_idx is cached, pushes it with the
** current environment as its _ENV and returns 1; else pushes nothing, 0. */
int sb_push_cached_chunk(lua_State *L, int key_idx) {
    key_idx = lua_absindex(L, key_idx);
    if (lua_rawgetp(L, LUA_REGISTRYINDEX, &CHUNKS_KEY) != LUA_TTABLE) {
        lua_pop(L, 1);
        return 0;
    }
    lua_pushvalue(L, key_idx);
    if (lua_rawget(L, -2) != LUA_TFUNCTION) {
        lua_pop(L, 2);
        return 0;
    }
    lua_remove(L, -2);
    lua_rawgeti(L, LUA_REGISTRYINDEX, LUA_RIDX_GLOBALS);
    if (!lua_setupvalue(L, -2, 1)) lua_pop(L, 1);
    return 1;
}

/* Stores the function at fn_idx as the compiled chunk of the file named at
** key_idx. May raise (memory): call protected. */
void sb_cache_chunk(lua_State *L, int key_idx, int fn_idx) {
    key_idx = lua_absindex(L, key_idx);
    fn_idx = lua_absindex(L, fn_idx);
    sb_registry_table(L, &CHUNKS_KEY);
    lua_pushvalue(L, key_idx);
    lua_pushvalue(L, fn_idx);
    lua_rawset(L, -3);
    lua_pop(L, 1);
}

/* Raises require's error for find_module's failure d. */
static int not_found(lua_State *L, const char *name, int d) {
    if (d == -2) return luaL_error(L, "require: out of memory looking for module '%s'", name);
    return luaL_error(L, "require: module '%s' not found in the ruleset or the stdlib", name);
}

/* require(name): a/b.lua from the module folders, loaded once per state in
** the sandbox environment. */
int sb_require(lua_State *L) {
    size_t len;
    const char *name = luaL_checklstring(L, 1, &len);
    lua_settop(L, 1);
    if (!valid_module_name(name, len) || strlen(name) != len)
        return luaL_error(L, "require: bad module name \"%s\" (letters, digits, '_' and '.' "
                             "as in \"lib.bag\"; no paths)",
                          name);
    sb_registry_table(L, &LOADED_KEY); /* 2 */
    lua_pushvalue(L, 1);
    if (lua_rawget(L, 2) != LUA_TNIL) return 1;
    lua_pop(L, 1);
    sb_registry_table(L, &LOADING_KEY); /* 3 */
    lua_pushvalue(L, 1);
    if (lua_rawget(L, 3) != LUA_TNIL)
        return luaL_error(L, "require: module '%s' is already being loaded (require loop)", name);
    lua_pop(L, 1);

    sandbox *sb = SB(L);
    char rel[SANDBOX_MODULE_NAME_MAX + 8];
    char *real = NULL;
    module_file(name, rel);
    /* the file, its folder resolved (realpath) once per state: like the
    ** compiled chunks, the files are taken as unchanged for the state's
    ** life (hot reload builds a new sandbox), and every game of a pooled
    ** sandbox and every fork requires the same modules again; the file's
    ** name is kept too (formatting it cost more than running a small
    ** module's chunk) */
    sb_registry_table(L, &FOUND_KEY); /* 4 */
    lua_pushvalue(L, 1);
    int d = -1;
    if (lua_rawget(L, 4) != LUA_TSTRING) {
        lua_pop(L, 1);
        d = find_module(sb, rel, &real);
        free(real); /* only its existence mattered; reopened below */
        real = NULL;
        if (d < 0) return not_found(L, name, d);
        lua_pushfstring(L, "%s/%s", sb->canon[d], rel);
        lua_pushvalue(L, 1);
        lua_pushvalue(L, -2);
        lua_rawset(L, 4);
    }
    lua_replace(L, 4); /* 4: the file */
    if (!sb_push_cached_chunk(L, 4)) { /* 5: the chunk */
        if (d < 0) { /* found in an earlier game, whose load failed */
            d = find_module(sb, rel, &real);
            free(real);
            if (d < 0) return not_found(L, name, d);
        }
        lua_pushfstring(L, "@%s/%s", sb->dirs[d], rel); /* 5: the chunk name */
        /* from here to load_text nothing may raise: buf is malloc'd */
        char why[160];
        size_t n = 0;
        char *buf = sb_read_source(lua_tostring(L, 4), sb->canon[d], &n, why, sizeof why);
        if (!buf) return luaL_error(L, "require: cannot read %s: %s", lua_tostring(L, 5) + 1, why);
        int status = sb_load_text(L, buf, n); /* 5: the chunk */
        free(buf);
        if (status != LUA_OK) {
            sb_no_swallow(L, status);
            return lua_error(L);
        }
        sb_cache_chunk(L, 4, 5);
    }

    /* mark as loading until the chunk returns or fails */
    lua_remove(L, 4);
    lua_createtable(L, 1, 0); /* 5: guard */
    lua_pushvalue(L, 1);
    lua_rawseti(L, -2, 1);
    lua_rawgetp(L, LUA_REGISTRYINDEX, &GUARD_KEY);
    lua_setmetatable(L, -2);
    lua_pushvalue(L, 1);
    lua_pushboolean(L, 1);
    lua_rawset(L, 3);
    lua_toclose(L, 5);

    lua_pushvalue(L, 4);
    lua_pushvalue(L, 1);
    lua_call(L, 1, 1); /* 6 */
    if (lua_isnil(L, 6)) {
        lua_pushboolean(L, 1);
        lua_replace(L, 6);
    }
    lua_pushvalue(L, 1);
    lua_pushvalue(L, 6);
    lua_rawset(L, 2);
    lua_closeslot(L, 5);
    lua_pushvalue(L, 6);
    return 1;
}
