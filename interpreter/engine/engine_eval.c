/*
** engine_eval.c
** `eval EXPR` (engine_eval): a Lua expression evaluated against one seat's
** view in a sandbox of its own, made for this eval and thrown away after:
** a fresh Lua state with the game's caps and budget, the sandbox's globals
** and `view`, `data`, `options`, `seat`, all read-only copies. It shares
** nothing with the game's Lua state: `require` there loads a module afresh
** (its cache is empty: no other seat's secret in it), and a module or a
** global changed there is gone with the state, so an eval can neither
** change the rules of the game nor read what the rules keep, and the next
** save replays as it was made.
*/
#include "engine_internal.h"
#include "luaval.h"
#include "ruleset.h"

#include <lauxlib.h>
#include <stdlib.h>
#include <string.h>

typedef struct env_ctx {
    const engine *e;
    const value *view;
    int seat;
} env_ctx;

/* Protected, in the eval's own state: the globals view, data, options
** (read-only copies) and seat. */
static int p_env(lua_State *L) {
    env_ctx *c = lua_touserdata(L, 1);
    const ruleset *rs = c->e->rt.rules->rs;
    if (luaval_push_readonly(L, c->view, "view", NULL) != 0) return luaL_error(L, "out of memory");
    lua_setglobal(L, "view");
    if (luaval_push_readonly(L, rs->data, "data", NULL) != 0) return luaL_error(L, "out of memory");
    lua_setglobal(L, "data");
    if (luaval_push_readonly(L, rs->options, "options", NULL) != 0) return luaL_error(L, "out of memory");
    lua_setglobal(L, "options");
    if (c->seat > 0) lua_pushinteger(L, c->seat);
    else lua_pushnil(L);
    lua_setglobal(L, "seat");
    return 0;
}

/* Compiles text with the sandbox's own load (its limits, text only): the
** function on the stack, or 0 with the message of the failure in *why. */
static int compile(sandbox *sb, const char *text, char **why, cerr_list *errs) {
    lua_State *L = sandbox_state(sb);
    lua_getglobal(L, "load");
    lua_pushstring(L, text);
    lua_pushliteral(L, "=eval");
    lua_pushliteral(L, "t");
    if (sandbox_call(sb, 3, 2, errs) != SANDBOX_OK) return -1;
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

/* The eval's own sandbox: the game's caps, module folders and stdlib. */
static sandbox *eval_sandbox(const engine *e, cerr_list *errs) {
    const engine_rules *r = e->rt.rules;
    sandbox_config sc;
    sandbox_default_config(&sc);
    sc.mem_cap = r->mem_cap;
    sc.instr_budget = r->budget;
    sc.strict_len = r->strict_len;
    sc.module_dirs = (const char *const *)r->rs->module_dirs;
    sc.n_module_dirs = r->rs->n_module_dirs;
    sc.stdlib_dir = ruleset_stdlib_dir();
    return sandbox_new(&sc, errs);
}

char *engine_eval(engine *e, int seat, const char *expr, value **out, cerr_list *errs) {
    if (out) *out = NULL;
    sandbox *sb = eval_sandbox(e, errs);
    if (!sb) return NULL;
    if (e->rt.kit) gapi_bind_print(sb, e->rt.kit->hub); /* print: the debug channel */
    lua_State *L = sandbox_state(sb);
    value *view = engine_view(e, seat);
    if (!view) {
        sandbox_free(sb);
        return errs->oom = 1, NULL;
    }
    env_ctx c = {e, view, seat};
    lua_pushcfunction(L, p_env);
    lua_pushlightuserdata(L, &c);
    int built = lua_pcall(L, 1, 0, 0) == LUA_OK;
    value_free(view);
    if (!built) {
        sandbox_free(sb);
        return errs->oom = 1, NULL;
    }
    char *text = NULL, *why = NULL;
    sandbox_set_timed(sb, 0); /* counted exactly: an eval is never run twice */
    char *ret = cairn_strfmt("return %s", expr);
    int got = ret ? compile(sb, ret, &why, errs) : -1;
    free(ret);
    if (got == 0) { /* not an expression: a chunk that returns something */
        char *first = why;
        why = NULL;
        got = compile(sb, expr, &why, errs);
        /* Lua's message already names the chunk ("eval:1: ..."), and the
        ** console says `eval: ` before it: no third "eval: " here */
        if (got == 0) cerr_add(errs, NULL, 0, 0, NULL, "%s", first ? first : why);
        free(first);
    }
    free(why);
    if (got == 1 && sandbox_call(sb, 0, 1, errs) == SANDBOX_OK) text = result_text(L, out);
    sandbox_free(sb);
    if (!text && cerr_count(errs) == 0) errs->oom = 1;
    return text;
}
