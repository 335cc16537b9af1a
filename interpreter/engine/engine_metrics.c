/*
** engine_metrics.c
** The ruleset's optional metrics(g) handler: the figures a designer wants
** followed through a game (docs/lua-api.md), asked by `cairn sim
** --trajectory` at each point it records. Read-only, like score(g).
*/
#include "engine_internal.h"
#include "luaval.h"

#include <lauxlib.h>

int engine_metrics(engine *e, value **out, cerr_list *errs) {
    lua_State *L = e->rt.L;
    int top = lua_gettop(L);
    *out = NULL;
    call_ctx c = {.h = H_METRICS, .kind = ARGS_G};
    int rc = engine_call(e, &c, 1, errs);
    if (rc > 0) {
        value *v = lua_istable(L, -1) ? luaval_to_value(L, -1, "metrics(g)", errs) : NULL;
        if (!lua_istable(L, -1))
            cerr_addk(errs, NULL, 0, 0, NULL, "engine.metrics_not_table",
                      "metrics must return a table of name = integer or {integer per seat}, not %s",
                      luaL_typename(L, -1));
        if (v && v->type == CV_LIST && v->u.list.n == 0) { /* an empty table reads as a list */
            value_free(v);
            v = value_map();
        }
        if (v && v->type != CV_MAP) {
            cerr_addk(errs, NULL, 0, 0, NULL, "engine.metrics_list",
                      "metrics must return a table of name = integer or {integer per seat}, not a list");
            value_free(v);
            v = NULL;
        }
        if (!v) rc = -1;
        else *out = v;
    }
    lua_settop(L, top);
    return rc;
}
