/*
** test_pathcheck.c
** Confinement by folder (base/pathcheck.c): the segment-respecting prefix
** test, and the resolved test `cairn test --regen` writes under (a file that
** does not exist yet, "..", a symlink out); and the environment's overrides
** of the CPU limits (base/limits_env.c).
*/
#include "testutil.h"
#include "limits_env.h"
#include "pathcheck.h"

#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

static void test_prefix_respects_segments(void **st) {
    (void)st;
    assert_int_equal(pathcheck_inside("/a/b", "/a/b"), 1);
    assert_int_equal(pathcheck_inside("/a/b/c", "/a/b"), 1);
    assert_int_equal(pathcheck_inside("/a/bc", "/a/b"), 0); /* a prefix, not a folder */
    assert_int_equal(pathcheck_inside("/x", "/"), 1);
    assert_int_equal(pathcheck_inside(NULL, "/a"), 0);
    assert_int_equal(pathcheck_inside("/a", NULL), 0);
}

static void test_resolved_paths(void **st) {
    (void)st;
    char tmpl[] = "/tmp/cairn-pathcheck-XXXXXX";
    char *root = mkdtemp(tmpl);
    assert_non_null(root);
    char in[128], out[128], file[256], link[256], p[512];
    snprintf(in, sizeof in, "%s/in", root);
    snprintf(out, sizeof out, "%s/out", root);
    assert_int_equal(mkdir(in, 0700), 0);
    assert_int_equal(mkdir(out, 0700), 0);
    snprintf(file, sizeof file, "%s/f.txt", in);
    FILE *f = fopen(file, "w");
    assert_non_null(f);
    fclose(f);
    snprintf(link, sizeof link, "%s/away", in);
    assert_int_equal(symlink(out, link), 0);

    assert_int_equal(pathcheck_path_inside(file, in), 1); /* exists, inside */
    snprintf(p, sizeof p, "%s/new/deeper/g.txt", in);
    assert_int_equal(pathcheck_path_inside(p, in), 1); /* not yet, in new folders */
    snprintf(p, sizeof p, "%s/new/../../out/g.txt", in);
    assert_int_equal(pathcheck_path_inside(p, in), 0); /* climbs out with .. */
    snprintf(p, sizeof p, "%s/away/g.txt", in);
    assert_int_equal(pathcheck_path_inside(p, in), 0); /* a link out */
    snprintf(p, sizeof p, "%s/g.txt", out);
    assert_int_equal(pathcheck_path_inside(p, in), 0);
    snprintf(p, sizeof p, "%s/missing", root);
    assert_int_equal(pathcheck_path_inside(file, p), 0); /* no such folder */

    unlink(link);
    unlink(file);
    rmdir(in);
    rmdir(out);
    rmdir(root);
}

static void test_env_limits(void **st) {
    (void)st;
    const char *name = "CAIRN_TEST_LIMIT_MS";
    unsetenv(name);
    assert_int_equal(limits_env_ms(name, 5000), 5000); /* unset: the default */
    setenv(name, "250", 1);
    assert_int_equal(limits_env_ms(name, 5000), 250);
    setenv(name, "", 1);
    assert_int_equal(limits_env_ms(name, 5000), 5000);
    setenv(name, "0", 1);
    assert_int_equal(limits_env_ms(name, 5000), 5000); /* not above 0 */
    setenv(name, "-3", 1);
    assert_int_equal(limits_env_ms(name, 5000), 5000);
    setenv(name, "12ms", 1);
    assert_int_equal(limits_env_ms(name, 5000), 5000); /* not a whole number */
    unsetenv(name);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_prefix_respects_segments),
        cmocka_unit_test(test_resolved_paths),
        cmocka_unit_test(test_env_limits),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
