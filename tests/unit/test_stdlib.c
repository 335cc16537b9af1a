/*
** test_stdlib.c
** Runs every tests/lua/test_*.lua inside the real sandbox (the one games
** use), with the Lua stdlib (interpreter/lua) and rulesets/yak on the
** require path. Each Lua file is one cmocka test; it passes when the chunk
** runs to the end (its own asserts raise otherwise).
*/
#include "testutil.h"
#include "error.h"
#include "luaval.h"
#include "ruleset.h"
#include "sandbox.h"
#include "yload.h"

#include <glob.h>
#include <stdio.h>

/* The Lua tests were first written for the stand-alone interpreter and set
** package.path; the sandbox has no `package`, so give them an inert one. */
static const char prelude[] = "package = { path = '' }";

static void run_lua_test(void **state) {
    const char *path = *state;
    static const char *const dirs[] = {"tests/lua", "rulesets/yak"};
    sandbox_config c;
    sandbox_default_config(&c);
    c.module_dirs = dirs;
    c.n_module_dirs = 2;
    c.stdlib_dir = "interpreter/lua";
    cerr_list errs;
    cerr_init(&errs, 0);
    sandbox *sb = sandbox_new(&c, &errs);
    assert_non_null(sb);
    assert_int_equal(sandbox_run_string(sb, prelude, sizeof prelude - 1, "prelude", 0, &errs),
                     SANDBOX_OK);
    int rc = sandbox_run_file(sb, path, path, 0, &errs);
    if (rc != SANDBOX_OK) {
        cerr_print(stderr, &errs);
        fprintf(stderr, "%s\n", sandbox_traceback(sb));
    }
    sandbox_free(sb);
    cerr_free(&errs);
    assert_int_equal(rc, SANDBOX_OK);
}

/* tests/lua/yak_data.lua is the Yak data written as Lua (so the Lua tests and
** the developer scripts run without a YAML parser). It is generated; this
** test fails as soon as it no longer matches rulesets/yak, so a data edit
** cannot leave the Lua tests checking yesterday's numbers. */
static void yak_fixture_is_current(void **state) {
    (void)state;
    cerr_list errs;
    cerr_init(&errs, 0);
    ruleset *r = ruleset_load("rulesets/yak", NULL, &errs);
    if (!r) cerr_print(stderr, &errs);
    assert_non_null(r);
    static const char *const dirs[] = {"tests/lua"};
    sandbox_config c;
    sandbox_default_config(&c);
    c.module_dirs = dirs;
    c.n_module_dirs = 1;
    c.stdlib_dir = "interpreter/lua";
    sandbox *sb = sandbox_new(&c, &errs);
    assert_non_null(sb);
    static const char code[] = "return require('yak_data')";
    assert_int_equal(sandbox_run_string(sb, code, sizeof code - 1, "fixture", 1, &errs), SANDBOX_OK);
    value *fx = luaval_to_value(sandbox_state(sb), -1, "yak_data", &errs);
    if (!fx) cerr_print(stderr, &errs);
    assert_non_null(fx);
    int data_ok = value_equal(value_map_get(fx, "data"), r->data, 0);
    int text_ok = value_equal(value_map_get(fx, "text"), r->text, 0);
    /* the master-builder overlay, as the option's file has it */
    value *ov = yload_file("rulesets/yak/options/master_builder.yaml", &errs);
    assert_non_null(ov);
    int overlay_ok =
        value_equal(value_map_get(value_map_get(fx, "overlays"), "master_builder"), ov, 0);
    if (!data_ok || !text_ok || !overlay_ok)
        fprintf(stderr, "tests/lua/yak_data.lua is out of date (data %s, text %s, overlay %s): "
                        "run python3 tests/lua/gen_yak_data.py\n",
                data_ok ? "ok" : "differs", text_ok ? "ok" : "differs", overlay_ok ? "ok" : "differs");
    value_free(ov);
    value_free(fx);
    sandbox_free(sb);
    ruleset_free(r);
    cerr_free(&errs);
    assert_true(data_ok && text_ok && overlay_ok);
}

int main(void) {
    glob_t g;
    if (glob("tests/lua/test_*.lua", 0, NULL, &g) != 0) {
        fprintf(stderr, "test_stdlib: no tests/lua/test_*.lua found (run from the repo root)\n");
        return 1;
    }
    struct CMUnitTest *tests = calloc(g.gl_pathc + 1, sizeof *tests);
    if (!tests) return 1;
    for (size_t i = 0; i < g.gl_pathc; i++) {
        tests[i].name = g.gl_pathv[i];
        tests[i].test_func = run_lua_test;
        tests[i].initial_state = g.gl_pathv[i];
    }
    tests[g.gl_pathc].name = "yak_fixture_is_current";
    tests[g.gl_pathc].test_func = yak_fixture_is_current;
    int rc = _cmocka_run_group_tests("stdlib", tests, g.gl_pathc + 1, NULL, NULL);
    free(tests);
    globfree(&g);
    return rc;
}
