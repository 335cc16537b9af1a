/*
** engine_eval.c
** `eval EXPR` (engine_eval): a Lua expression evaluated in the game's
** sandbox, under its instruction budget, against one seat's view. It gets
** the sandbox's globals and `view`, `data`, `options`, `seat`, never g, so
** it has no way to write the state, log an event or draw: the view is a
** read-only copy, and the rules' globals are read, never written. As defence in depth the state hash and the RNG are
** compared before and after, and a game that moved anyway (a ruleset that
** kept g in a global) is put back and the eval refused.
*/
#include "engine_internal.h"
#include "luaval.h"

#include <lauxlib.h>
#include <stdlib.h>
#include <string.h>

typedef struct env_ctx {
    engine *e;
    const value *view;
    int seat;
    int ref; /* out: the environment table */
} env_ctx;

/* Protected: the environment { view, data, options, seat } over _G. */
static int p_env(lua_State *L) {
    env_ctx *c = lua_touserdata(L, 1);
    const sandbox_kit *k = c->e->rt.kit;
    lua_createtable(L, 0, 4);
    if (luaval_push_readonly(L, c->view, "view", NULL) != 0) return luaL_error(L, "out of memory");
    lua_setfield(L, -2, "view");
    lua_rawgeti(L, LUA_REGISTRYINDEX, k->ref_data);
    lua_setfield(L, -2, "data");
    lua_rawgeti(L, LUA_REGISTRYINDEX, k->ref_options);
    lua_setfield(L, -2, "options");
    if (c->seat > 0) lua_pushinteger(L, c->seat);
    else lua_pushnil(L);
    lua_setfield(L, -2, "seat");
    /* the globals are read through, never written: a new name lands in the
    ** environment (thrown away after), `_G` is the environment itself and
    ** its metatable is hidden, so the rules' globals stay out of reach */
    lua_pushvalue(L, -1);
    lua_setfield(L, -2, "_G");
    lua_createtable(L, 0, 2);
    lua_rawgeti(L, LUA_REGISTRYINDEX, LUA_RIDX_GLOBALS);
    lua_setfield(L, -2, "__index");
    lua_pushliteral(L, "eval");
    lua_setfield(L, -2, "__metatable");
    lua_setmetatable(L, -2);
    c->ref = luaL_ref(L, LUA_REGISTRYINDEX);
    return 0;
}

/* Compiles text with the sandbox's own load (its limits, text only) in env:
** the function on the stack, or 0 with the message of the failure in *why. */
static int compile(engine *e, const char *text, int env, char **why, cerr_list *errs) {
    lua_State *L = e->rt.L;
    lua_getglobal(L, "load");
    lua_pushstring(L, text);
    lua_pushliteral(L, "=eval");
    lua_pushliteral(L, "t");
    lua_rawgeti(L, LUA_REGISTRYINDEX, env);
    if (sandbox_call(e->rt.sb, 4, 2, errs) != SANDBOX_OK) return -1;
    if (lua_isfunction(L, -2)) {
        lua_pop(L, 1);
        return 1;
    }
    free(*why);
    *why = cairn_strdup(lua_tostring(L, -1) ? lua_tostring(L, -1) : "does not compile");
    lua_pop(L, 2);
    return 0;
}

/* The result at the top as text (and tree), popped. */
static char *result_text(lua_State *L, value **out) {
    value *v = lua_isnil(L, -1) ? NULL : luaval_to_value(L, -1, "eval", NULL);
    char *text;
    if (lua_isnil(L, -1)) {
        text = cairn_strdup("nil");
    } else if (v) {
        text = value_to_yaml(v);
        size_t n = text ? strlen(text) : 0;
        while (n && text[n - 1] == '\n') text[--n] = '\0';
    } else {
        text = cairn_strfmt("(a %s: not plain data)", luaL_typename(L, -1));
    }
    lua_pop(L, 1);
    if (out) *out = v;
    else value_free(v);
    return text;
}

char *engine_eval(engine *e, int seat, const char *expr, value **out, cerr_list *errs) {
    if (out) *out = NULL;
    lua_State *L = e->rt.L;
    int top = lua_gettop(L);
    value *view = engine_view(e, seat);
    if (!view) return errs->oom = 1, NULL;
    uint64_t hash = engine_state_hash(e);
    rng before = e->rng;
    env_ctx c = {e, view, seat, LUA_NOREF};
    lua_pushcfunction(L, p_env);
    lua_pushlightuserdata(L, &c);
    int built = lua_pcall(L, 1, 0, 0) == LUA_OK;
    value_free(view);
    if (!built) {
        lua_settop(L, top);
        return errs->oom = 1, NULL;
    }
    char *text = NULL, *why = NULL;
    sandbox_set_timed(e->rt.sb, 0); /* counted exactly: an eval is never run twice */
    char *ret = cairn_strfmt("return %s", expr);
    int got = ret ? compile(e, ret, c.ref, &why, errs) : -1;
    free(ret);
    if (got == 0) { /* not an expression: a chunk that returns something */
        char *first = why;
        why = NULL;
        got = compile(e, expr, c.ref, &why, errs);
        if (got == 0) cerr_add(errs, NULL, 0, 0, NULL, "eval: %s", first ? first : why);
        free(first);
    }
    free(why);
    if (got == 1 && sandbox_call(e->rt.sb, 0, 1, errs) == SANDBOX_OK) text = result_text(L, out);
    sandbox_set_timed(e->rt.sb, 1);
    luaL_unref(L, LUA_REGISTRYINDEX, c.ref);
    lua_settop(L, top);
    engine_moved(e); /* the state tree is made again from the live table */
    if (engine_state_hash(e) != hash || memcmp(&before, &e->rng, sizeof before) != 0) {
        e->rng = before;
        cerr_list local;
        cerr_init(&local, 0);
        if (history_restore(e, e->pos, &local) != 0) e->live_stale = 1;
        cerr_free(&local);
        free(text);
        if (out) value_free(*out), *out = NULL;
        cerr_add(errs, NULL, 0, 0, NULL, "eval may not change the game (it reached the state through a "
                                         "global the rules keep): put back as it was");
        return NULL;
    }
    if (!text && cerr_count(errs) == 0) errs->oom = 1;
    return text;
}
