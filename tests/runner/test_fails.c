/*
** test_fails.c
** A cmocka test binary that always fails: the runner's self-test
** (tests/runner/selftest) puts it in a tiny tree and checks that
** tools/run-tests counts it. Not one of the unit tests.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

static void one_plus_one_is_three(void **state) {
    (void)state;
    assert_int_equal(1 + 1, 3);
}

int main(void) {
    const struct CMUnitTest tests[] = {cmocka_unit_test(one_plus_one_is_three)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
