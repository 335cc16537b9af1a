/*
** test_strbuf.c
** The shared helpers: growable strings (growth, printf, the oom flag, take)
** and the "did you mean" distances, worked out by hand.
*/
#include "testutil.h"
#include "strbuf.h"
#include "suggest.h"

static void test_grows_and_stays_terminated(void **st) {
    (void)st;
    strbuf b = {0};
    for (int i = 0; i < 1000; i++) strbuf_putc(&b, (char)('a' + i % 26));
    assert_int_equal(b.n, 1000);
    assert_true(b.cap > 1000);
    assert_int_equal(strlen(b.s), 1000);
    assert_memory_equal(b.s, "abcdefghijklmnopqrstuvwxyzab", 28);
    strbuf_puts(&b, "!");
    strbuf_putn(&b, "xyz", 2);
    strbuf_repeat(&b, ' ', 3);
    assert_string_equal(b.s + 1000, "!xy   ");
    assert_false(b.oom);
    strbuf_free(&b);
    assert_null(b.s);
    assert_int_equal(b.n, 0);
}

static void test_printf(void **st) {
    (void)st;
    strbuf b = {0};
    strbuf_printf(&b, "[%d] %s", 7, "seven");
    assert_string_equal(b.s, "[7] seven");
    strbuf_printf(&b, "%0100d", 5); /* does not fit the first buffer */
    assert_int_equal(b.n, 9 + 100);
    assert_int_equal(b.s[b.n - 1], '5');
    assert_int_equal(b.s[9], '0');
    assert_int_equal(strlen(b.s), b.n);
    assert_false(b.oom);
    strbuf_free(&b);
}

static void test_empty_appends(void **st) {
    (void)st;
    strbuf b = {0};
    assert_string_equal(strbuf_str(&b), "");
    strbuf_printf(&b, "%s", "");
    assert_non_null(b.s); /* an empty append still gives a string */
    assert_string_equal(b.s, "");
    strbuf_repeat(&b, '-', 0);
    assert_int_equal(b.n, 0);
    strbuf_free(&b);
}

static void test_cut(void **st) {
    (void)st;
    strbuf b = {0};
    strbuf_puts(&b, "carts[2].capacity");
    strbuf_cut(&b, 8);
    assert_string_equal(strbuf_str(&b), "carts[2]");
    strbuf_cut(&b, 50); /* longer than the text: nothing */
    assert_string_equal(strbuf_str(&b), "carts[2]");
    strbuf_free(&b);
}

static void test_take_resets(void **st) {
    (void)st;
    strbuf b = {0};
    strbuf_puts(&b, "one");
    char *s = strbuf_take(&b);
    assert_string_equal(s, "one");
    assert_null(b.s);
    assert_int_equal(b.n, 0);
    assert_int_equal(b.cap, 0);
    strbuf_puts(&b, "two"); /* usable again */
    char *t = strbuf_take(&b);
    assert_string_equal(t, "two");
    char *empty = strbuf_take(&b);
    assert_string_equal(empty, "");
    free(s);
    free(t);
    free(empty);
}

static void test_oom_is_sticky(void **st) {
    (void)st;
    strbuf b = {0};
    strbuf_puts(&b, "kept");
    b.oom = 1; /* as after a failed realloc */
    strbuf_puts(&b, " lost");
    strbuf_printf(&b, "%d", 1);
    assert_string_equal(b.s, "kept");
    assert_null(strbuf_take(&b));
    assert_null(b.s);
    assert_false(b.oom);
}

static void test_distances(void **st) {
    (void)st;
    assert_int_equal(suggest_distance("capcity", "capacity"), 1); /* one insertion */
    assert_int_equal(suggest_distance("kitten", "sitting"), 3); /* k->s, e->i, +g */
    assert_int_equal(suggest_distance_swaps("kitten", "sitting"), 3);
    assert_int_equal(suggest_distance("", "abc"), 3);
    assert_int_equal(suggest_distance("same", "same"), 0);
    /* a swap of neighbours: two substitutions, or one swap */
    assert_int_equal(suggest_distance("acbd", "abcd"), 2);
    assert_int_equal(suggest_distance_swaps("acbd", "abcd"), 1);
    /* optimal string alignment edits no substring twice: "ca" -> "abc" is 3 */
    assert_int_equal(suggest_distance_swaps("ca", "abc"), 3);
}

static void test_long_words_are_far(void **st) {
    (void)st;
    char a[SUGGEST_MAX_LEN + 2], b[SUGGEST_MAX_LEN + 2];
    memset(a, 'x', SUGGEST_MAX_LEN);
    a[SUGGEST_MAX_LEN] = '\0';
    memset(b, 'x', SUGGEST_MAX_LEN);
    b[SUGGEST_MAX_LEN - 1] = 'y';
    b[SUGGEST_MAX_LEN] = '\0';
    assert_int_equal(suggest_distance(a, b), 1); /* at the limit: measured */
    strcat(a, "x");
    assert_true(suggest_distance(a, b) == SUGGEST_FAR);
    assert_true(suggest_distance_swaps(b, a) == SUGGEST_FAR);
}

static void test_nearest(void **st) {
    (void)st;
    const char *cands[] = {"capacity", "capital", "cap", "capcity"};
    suggest_nearest s = suggest_start("capcity", 2, 0);
    for (size_t i = 0; i < 4; i++) suggest_try(&s, cands[i]);
    assert_string_equal(s.best, "capacity"); /* the word itself is skipped */
    assert_int_equal(s.dist, 1);

    s = suggest_start("tkae", 1, 0); /* a swap costs 2 here */
    suggest_try(&s, "take");
    assert_null(s.best);
    s = suggest_start("tkae", 1, 1);
    suggest_try(&s, "take");
    assert_string_equal(s.best, "take");

    s = suggest_start("pass", 2, 0); /* ties keep the first */
    suggest_try(&s, "past");
    suggest_try(&s, "mass");
    assert_string_equal(s.best, "past");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_grows_and_stays_terminated), cmocka_unit_test(test_printf),
        cmocka_unit_test(test_empty_appends),              cmocka_unit_test(test_cut),
        cmocka_unit_test(test_take_resets),                cmocka_unit_test(test_oom_is_sticky),
        cmocka_unit_test(test_distances),                  cmocka_unit_test(test_long_words_are_far),
        cmocka_unit_test(test_nearest),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
