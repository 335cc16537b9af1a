/*
** test_chunk_store.c
** A Lua text compiled once per process (chunk_store.c): the second load of
** the same name and text, in another state, is served from the stored
** bytecode and behaves as the compiled text does (same results, same
** line numbers in its errors); a different text or name is compiled; only
** a function is kept; a text given as bytecode is never loaded as such.
*/
#include "testutil.h"
#include "chunk_store.h"

#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>

static const char TEXT[] = "local t = {}\n"
                           "for i = 1, 3 do t[i] = i * i end\n"
                           "local function f(x)\n"
                           "  if x then return t[3] end\n"
                           "  error('refused here')\n"
                           "end\n"
                           "return f\n";

/* Loads text as the sandbox does (sandbox_require.c, without its rewrite):
** the kept function, else compiled and kept. */
static int load_kept(lua_State *L, const char *text, size_t len, const char *name) {
    if (chunk_store_find(L, text, len, name) == LUA_OK) return LUA_OK;
    int st = luaL_loadbufferx(L, text, len, name, "t");
    if (st == LUA_OK) chunk_store_keep(L, text, len, name);
    return st;
}

/* Loads TEXT as name in a new state, calls its f(true) and f(false); the
** result and the error text. */
static void run(const char *text, const char *name, lua_Integer *got, char *err, size_t errsz) {
    lua_State *L = luaL_newstate();
    assert_non_null(L);
    luaL_openlibs(L);
    assert_int_equal(load_kept(L, text, strlen(text), name), LUA_OK);
    assert_int_equal(lua_pcall(L, 0, 1, 0), LUA_OK);
    lua_pushvalue(L, -1);
    lua_pushboolean(L, 1);
    assert_int_equal(lua_pcall(L, 1, 1, 0), LUA_OK);
    *got = lua_tointeger(L, -1);
    lua_pop(L, 1);
    lua_pushboolean(L, 0);
    assert_int_equal(lua_pcall(L, 1, 1, 0), LUA_ERRRUN);
    snprintf(err, errsz, "%s", lua_tostring(L, -1));
    lua_close(L);
}

static void test_second_load_is_stored(void **st) {
    (void)st;
    chunk_store_clear();
    size_t h0, m0, h1, m1, h2, m2;
    chunk_store_counts(&h0, &m0);
    lua_Integer a, b;
    char ea[200], eb[200];
    run(TEXT, "@rules/f.lua", &a, ea, sizeof ea);
    chunk_store_counts(&h1, &m1);
    assert_int_equal(h1 - h0, 0);
    assert_int_equal(m1 - m0, 1);
    run(TEXT, "@rules/f.lua", &b, eb, sizeof eb);
    chunk_store_counts(&h2, &m2);
    assert_int_equal(h2 - h1, 1); /* served from the store */
    assert_int_equal(m2 - m1, 0);
    /* t[3] = 3 * 3; the error names line 5 of the same chunk either way */
    assert_int_equal(a, 9);
    assert_int_equal(b, 9);
    assert_string_equal(ea, "rules/f.lua:5: refused here");
    assert_string_equal(eb, ea);
    chunk_store_clear();
}

static void test_other_text_or_name_compiles(void **st) {
    (void)st;
    chunk_store_clear();
    lua_Integer v;
    char e[200];
    run(TEXT, "@rules/f.lua", &v, e, sizeof e);
    size_t h0, m0, h1, m1;
    chunk_store_counts(&h0, &m0);
    run(TEXT, "@rules/g.lua", &v, e, sizeof e); /* same text, other name */
    assert_string_equal(e, "rules/g.lua:5: refused here");
    char other[sizeof TEXT + 8];
    snprintf(other, sizeof other, "\n%s", TEXT); /* one line lower */
    run(other, "@rules/f.lua", &v, e, sizeof e);
    assert_string_equal(e, "rules/f.lua:6: refused here");
    chunk_store_counts(&h1, &m1);
    assert_int_equal(h1 - h0, 0);
    assert_int_equal(m1 - m0, 2);
    chunk_store_clear();
}

static void test_only_functions_are_kept(void **st) {
    (void)st;
    chunk_store_clear();
    lua_State *L = luaL_newstate();
    assert_non_null(L);
    const char *bad = "local x = = 1\n";
    size_t h0, m0, h1, m1;
    chunk_store_counts(&h0, &m0);
    for (int i = 0; i < 2; i++) { /* the message is not kept as the text's chunk */
        assert_int_equal(load_kept(L, bad, strlen(bad), "@bad.lua"), LUA_ERRSYNTAX);
        assert_string_equal(lua_tostring(L, -1), "bad.lua:1: unexpected symbol near '='");
        chunk_store_keep(L, bad, strlen(bad), "@bad.lua");
        lua_pop(L, 1);
    }
    lua_pushcfunction(L, luaopen_base); /* nor a C function */
    chunk_store_keep(L, bad, strlen(bad), "@bad.lua");
    lua_pop(L, 1);
    assert_int_equal(chunk_store_find(L, bad, strlen(bad), "@bad.lua"), -1);
    assert_int_equal(lua_gettop(L), 0);
    chunk_store_counts(&h1, &m1);
    assert_int_equal(h1 - h0, 0);
    assert_int_equal(m1 - m0, 3); /* two loads and the find */
    /* bytecode given as a text is never loaded as bytecode: not found, and
    ** refused as in text mode */
    const char binary[] = "\x1bLua";
    assert_int_equal(chunk_store_find(L, binary, 4, "@bin.lua"), -1);
    assert_int_equal(load_kept(L, binary, 4, "@bin.lua"), LUA_ERRSYNTAX);
    assert_non_null(strstr(lua_tostring(L, -1), "attempt to load a binary chunk"));
    lua_close(L);
    chunk_store_clear();
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_second_load_is_stored),
        cmocka_unit_test(test_other_text_or_name_compiles),
        cmocka_unit_test(test_only_functions_are_kept),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
