/*
** test_grow.c
** grow_array (base/grow.c), the one way cairn grows an array: the capacity
** it reaches, that it keeps what was there, and that an impossible size
** leaves the array as it was.
*/
#include "testutil.h"
#include "grow.h"

#include <stdint.h>

/* From nothing: 4 (the first capacity); need 5 doubles to 8; need 100:
** 8 -> 16 -> 32 -> 64 -> 128. A need within the capacity changes nothing. */
static void test_doubles(void **st) {
    (void)st;
    int *a = NULL;
    size_t cap = 0;
    assert_int_equal(GROW(a, cap, 1), 0);
    assert_int_equal(cap, 4);
    for (int i = 0; i < 4; i++) a[i] = i * 10;
    int *before = a;
    assert_int_equal(GROW(a, cap, 3), 0);
    assert_ptr_equal(a, before); /* already room */
    assert_int_equal(GROW(a, cap, 5), 0);
    assert_int_equal(cap, 8);
    assert_int_equal(GROW(a, cap, 100), 0);
    assert_int_equal(cap, 128);
    for (int i = 0; i < 4; i++) assert_int_equal(a[i], i * 10); /* kept */
    free(a);
}

/* A byte count that overflows size_t fails and leaves items and cap. */
static void test_overflow_refused(void **st) {
    (void)st;
    int *a = NULL;
    size_t cap = 0;
    assert_int_equal(GROW(a, cap, 2), 0);
    a[0] = 7;
    int *before = a;
    assert_int_equal(GROW(a, cap, SIZE_MAX / 2), -1);
    assert_ptr_equal(a, before);
    assert_int_equal(cap, 4);
    assert_int_equal(a[0], 7);
    free(a);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_doubles),
        cmocka_unit_test(test_overflow_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
