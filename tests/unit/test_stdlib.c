/*
** test_stdlib.c
** Runs every tests/lua/test_*.lua, the tests of the Lua stdlib, inside the
** real sandbox (the one games use), with the stdlib (stdlib) on
** the require path. Each Lua file is one cmocka test; it passes when the
** chunk runs to the end (its own asserts raise otherwise). A ruleset's own
** Lua tests live in its folder and run with `cairn test` (luatest.c).
*/
#include "testutil.h"
#include "error.h"
#include "sandbox.h"

#include <glob.h>
#include <stdio.h>

/* The Lua tests were first written for the stand-alone interpreter and set
** package.path; the sandbox has no `package`, so give them an inert one. */
static const char prelude[] = "package = { path = '' }";

static void run_lua_test(void **state) {
    const char *path = *state;
    static const char *const dirs[] = {"tests/lua"};
    sandbox_config c;
    sandbox_default_config(&c);
    c.module_dirs = dirs;
    c.n_module_dirs = 1;
    c.stdlib_dir = "stdlib";
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

int main(void) {
    glob_t g;
    if (glob("tests/lua/test_*.lua", 0, NULL, &g) != 0) {
        fprintf(stderr, "test_stdlib: no tests/lua/test_*.lua found (run from the repo root)\n");
        return 1;
    }
    struct CMUnitTest *tests = calloc(g.gl_pathc, sizeof *tests);
    if (!tests) return 1;
    for (size_t i = 0; i < g.gl_pathc; i++) {
        tests[i].name = g.gl_pathv[i];
        tests[i].test_func = run_lua_test;
        tests[i].initial_state = g.gl_pathv[i];
    }
    int rc = _cmocka_run_group_tests("stdlib", tests, g.gl_pathc, NULL, NULL);
    free(tests);
    globfree(&g);
    return rc;
}
