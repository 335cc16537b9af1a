/*
** test_help_wrap.c
** A command's help fitted to the terminal (help_wrap.c): lines that fit are
** left as written; a line too wide breaks at its last space that fits, and
** its left-over words go on to the line continuing it, at the hanging indent
** of an option row, a usage line or prose; a further usage form and a line
** of another indent are never joined. Widths worked out by hand below.
*/
#include "testutil.h"

#include "help_wrap.h"

static void check(const char *text, int width, const char *want) {
    char *got = help_wrap(text, width);
    assert_non_null(got);
    assert_string_equal(got, want);
    free(got);
}

static void test_lines_that_fit_stay(void **st) {
    (void)st;
    /* hand-made breaks are kept: "short" would fit after "Exit status:" */
    check("Exit status:\nshort\n", 20, "Exit status:\nshort\n");
    check("no newline at the end", 40, "no newline at the end");
    check("", 10, "");
    check("a b c\n", 0, "a b c\n"); /* width 0: unchanged */
}

static void test_option_row(void **st) {
    (void)st;
    /* "  --x N   one two three" is 23 columns; at 20 "three" (5) does not
    ** fit after "two" (col 17 + 1 + 5 = 23), so it goes to the next line,
    ** which continues the row at column 10 ("          four"): "three four" */
    check("  --x N   one two three\n          four\n", 20,
          "  --x N   one two\n          three four\n");
    /* no continuation line: the description's column (10) is the indent */
    check("  --x N   one two three\n  --y      y\n", 20, "  --x N   one two\n          three\n  --y      y\n");
}

static void test_usage(void **st) {
    (void)st;
    /* "usage: cairn run A [--b] [--c]" is 30 columns; at 28 "[--c]" (ending
    ** at 30) goes on at the column after "usage: cairn run " (17); the next
    ** form starts a line of its own, though it is not indented as deep */
    check("usage: cairn run A [--b] [--c]\n       cairn run --d\n", 28,
          "usage: cairn run A [--b]\n                 [--c]\n       cairn run --d\n");
    /* a continuation at the arguments' column takes the left-over words:
    ** 17 + "[--c] [--e]" (11) = 28 fits */
    check("usage: cairn run A [--b] [--c]\n                 [--e]\n", 28,
          "usage: cairn run A [--b]\n                 [--c] [--e]\n");
    /* at 24 that is too wide again (28): "[--e]" goes on alone */
    check("usage: cairn run A [--b] [--c]\n                 [--e]\n", 24,
          "usage: cairn run A [--b]\n                 [--c]\n                 [--e]\n");
}

static void test_prose(void **st) {
    (void)st;
    /* 15 columns: "aaa bbb ccc ddd" is 15 and fits; "eee" goes on to the next
    ** prose line ("fff"); "eee fff ggg hhh" is 15 and fits */
    check("aaa bbb ccc ddd eee\nfff ggg hhh\n", 15, "aaa bbb ccc ddd\neee fff ggg hhh\n");
    /* a blank line ends the paragraph: the words go on a line of their own */
    check("aaa bbb ccc ddd eee\n\nnext\n", 15, "aaa bbb ccc ddd\neee\n\nnext\n");
    /* a word longer than the line stays whole */
    check("abcdefghijklmnop q\n", 10, "abcdefghijklmnop\nq\n");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lines_that_fit_stay),
        cmocka_unit_test(test_option_row),
        cmocka_unit_test(test_usage),
        cmocka_unit_test(test_prose),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
