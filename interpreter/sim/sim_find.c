/*
** sim_find.c
** `cairn sim --find EXPR`: a Lua expression over a game's end, evaluated in a
** sandbox of its own (the allow-listed globals, the instruction budget and
** the memory cap of every ruleset script), never in the game's. EXPR sees
** g.state (the final state, a copy), g.totals (each seat's total) and
** g.decisions.
*/
#include "sim_internal.h"
#include "error.h"
#include "luaval.h"
#include "sandbox.h"

#include <stdlib.h>
#include <string.h>

struct sim_find {
    sandbox *sb; /* the compiled expression stays at stack index 1 */
};

sim_find *sim_find_new(const char *expr, FILE *err) {
    sim_find *f = calloc(1, sizeof *f);
    char *code = cairn_strfmt("return function(state, totals, decisions)\n"
                              "  local g = {state = state, totals = totals, decisions = decisions}\n"
                              "  return (%s)\nend\n",
                              expr);
    cerr_list errs;
    cerr_init(&errs, 0);
    sandbox_config c;
    sandbox_default_config(&c);
    int ok = f && code && (f->sb = sandbox_new(&c, &errs)) &&
             sandbox_run_string(f->sb, code, strlen(code), "--find", 1, &errs) == SANDBOX_OK &&
             lua_isfunction(sandbox_state(f->sb), -1);
    if (!ok) {
        fprintf(err, "cairn sim: --find \"%s\" is not a Lua expression:\n", expr);
        cerr_print(err, &errs);
        sim_find_free(f);
        f = NULL;
    }
    cerr_free(&errs);
    free(code);
    return f;
}

void sim_find_free(sim_find *f) {
    if (!f) return;
    sandbox_free(f->sb);
    free(f);
}

int sim_find_eval(sim_find *f, const value *state, const sim_rec *r, char **why) {
    lua_State *L = sandbox_state(f->sb);
    *why = NULL;
    value *totals = value_list();
    for (int i = 0; totals && i < r->n; i++) {
        value *t = value_int(r->seats[i].total);
        if (!t || value_list_push(totals, t) != 0) value_free(t), value_free(totals), totals = NULL;
    }
    if (!totals) return *why = cairn_strdup("out of memory"), -1;
    lua_settop(L, 1);
    lua_pushvalue(L, 1);
    int rc = -1;
    if (luaval_push(L, state) != 0) {
        lua_settop(L, 1);
        *why = cairn_strdup("the final state does not fit in the --find sandbox");
    } else if (luaval_push(L, totals) != 0) {
        lua_settop(L, 1);
        *why = cairn_strdup("out of memory");
    } else {
        lua_pushinteger(L, r->decisions);
        cerr_list errs;
        cerr_init(&errs, 0);
        if (sandbox_call(f->sb, 3, 1, &errs) == SANDBOX_OK) {
            rc = lua_toboolean(L, -1) ? 1 : 0;
        } else {
            *why = errs.n ? cerr_format(&errs.items[errs.n - 1]) : cairn_strdup("--find failed");
        }
        cerr_free(&errs);
        lua_settop(L, 1);
    }
    value_free(totals);
    return rc;
}
