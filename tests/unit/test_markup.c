/*
** test_markup.c
** The colour markup (ANSI and stripped), literal braces, display widths of
** UTF-8 and ANSI text, and wrapping.
*/
#include "testutil.h"

#include <locale.h>
#include <wchar.h>
#include "markup.h"

static void check_render(const char *src, int ansi, const char *want) {
    char *got = markup_render(src, ansi);
    assert_non_null(got);
    assert_string_equal(got, want);
    free(got);
}

static void test_strip(void **st) {
    (void)st;
    check_render("{red}X{/} wins", 0, "X wins");
    check_render("{bold}{green}ok{/}", 0, "ok");
    check_render("plain", 0, "plain");
    check_render("", 0, "");
}

static void test_ansi(void **st) {
    (void)st;
    check_render("{red}X{/} wins", 1, "\033[31mX\033[0m wins");
    check_render("{grey}a{dim}b{/}", 1, "\033[90ma\033[2mb\033[0m");
    /* an unclosed style is reset at the end so it cannot bleed */
    check_render("{bold}loud", 1, "\033[1mloud\033[0m");
}

static void test_literal_braces(void **st) {
    (void)st;
    check_render("{{red}", 1, "{red}");
    check_render("a {{ b", 0, "a { b");
    /* unknown tags and Lua-ish tables stay as written */
    check_render("{1,2} {foo} {", 1, "{1,2} {foo} {");
    check_render("}", 0, "}");
    char *e = markup_escape("{red} {{");
    assert_non_null(e);
    assert_string_equal(e, "{{red} {{{{");
    check_render(e, 1, "{red} {{");
    free(e);
}

static void test_width(void **st) {
    (void)st;
    assert_int_equal(markup_width("abc", 3), 3);
    assert_int_equal(markup_width("\033[31mab\033[0m", 11), 2);
    assert_int_equal(markup_width("\xc3\xa9t\xc3\xa9", 5), 3);      /* été */
    assert_int_equal(markup_width("e\xcc\x81", 3), 1);              /* e + combining acute */
    assert_int_equal(markup_width("\xe5\xb1\xb1", 3), 2);           /* 山 */
    assert_int_equal(markup_width("\xff", 1), 1);                   /* broken UTF-8 */
}

static void check_wrap(const char *src, int width, int indent, const char *want) {
    char *got = markup_wrap(src, width, indent);
    assert_non_null(got);
    assert_string_equal(got, want);
    free(got);
}

static void test_wrap(void **st) {
    (void)st;
    check_wrap("short line", 20, 0, "short line");
    check_wrap("one two three four", 9, 0, "one two\nthree\nfour");
    check_wrap("one two three four", 9, 2, "one two\n  three\n  four");
    /* a line's own indentation is kept; a long word is never split */
    check_wrap("  aa bbbbbbbbbbbb cc", 8, 4, "  aa\n    bbbbbbbbbbbb\n    cc");
    /* escapes take no room */
    check_wrap("\033[2mab cd\033[0m", 5, 0, "\033[2mab cd\033[0m");
    check_wrap("x\ny", 1, 0, "x\ny");
    check_wrap("a b", 0, 0, "a b");
}

static void test_buf(void **st) {
    (void)st;
    markup_buf b = {0};
    char *s = markup_buf_take(&b);
    assert_non_null(s);
    assert_string_equal(s, "");
    free(s);
    markup_buf_puts(&b, "a");
    markup_buf_printf(&b, "%d-%s", 42, "b");
    s = markup_buf_take(&b);
    assert_string_equal(s, "a42-b");
    free(s);
}

static void test_term_width(void **st) {
    (void)st;
    /* fd -1 is no terminal: $COLUMNS, else 80, never below 20 */
    assert_int_equal(setenv("COLUMNS", "100", 1), 0);
    assert_int_equal(markup_term_width(-1), 100);
    assert_int_equal(setenv("COLUMNS", "5", 1), 0);
    assert_int_equal(markup_term_width(-1), 20);
    assert_int_equal(setenv("COLUMNS", "junk", 1), 0);
    assert_int_equal(markup_term_width(-1), 80);
    assert_int_equal(unsetenv("COLUMNS"), 0);
    assert_int_equal(markup_term_width(-1), 80);
}

/* Found in review: control bytes in a seat name or a ruleset's text went
** to the terminal as they were (window retitled, screen cleared). */
static void test_control_bytes_dropped(void **st) {
    (void)st;
    /* ESC, BEL, the C1 CSI (U+009B) and DEL go; tab and newline stay */
    char *out = markup_render("A\x1b]0;x\x07" "B\xc2\x9b" "C\tD\nE\x7f{red}F", 1);
    assert_non_null(out);
    assert_string_equal(out, "A]0;xBC\tD\nE\033[31mF\033[0m");
    free(out);
    /* U+00E9 (C3 A9) and U+0100 (C4 80) are text, not controls */
    out = markup_render("\xc3\xa9\xc4\x80", 0);
    assert_string_equal(out, "\xc3\xa9\xc4\x80");
    free(out);
}

/* The widths of tools/gen-width-table's table (docs/repl.md, "Display
** width"): emoji that the old hand-made table counted as one column, and
** each rule of the generator, against the terminal's own wcwidth. */
static void test_display_width_from_unicode(void **st) {
    (void)st;
    /* U+26FA tent (E2 9B BA), U+1F680 rocket (F0 9F 9A 80), U+2705 check mark (E2 9C 85): East Asian Wide */
    assert_int_equal(markup_width("\xe2\x9b\xba", 3), 2);
    assert_int_equal(markup_width("\xf0\x9f\x9a\x80", 4), 2);
    assert_int_equal(markup_width("\xe2\x9c\x85", 3), 2);
    /* "⛺ camp ✅": 2 + 1 + 4 + 1 + 2 = 10 columns */
    assert_int_equal(markup_width("\xe2\x9b\xba camp \xe2\x9c\x85", 12), 10);
    assert_int_equal(markup_cp_width(0x26FA), 2);
    assert_int_equal(markup_cp_width(0x1F680), 2);
    assert_int_equal(markup_cp_width(0x2705), 2);
    /* one each: é, the soft hyphen (Cf but drawn), an Arabic number sign (a prepended mark) */
    assert_int_equal(markup_cp_width(0xE9), 1);
    assert_int_equal(markup_cp_width(0xAD), 1);
    assert_int_equal(markup_cp_width(0x600), 1);
    /* zero: a combining acute (Mn), the zero-width joiner (Cf), a Hangul vowel that joins */
    assert_int_equal(markup_cp_width(0x301), 0);
    assert_int_equal(markup_cp_width(0x200D), 0);
    assert_int_equal(markup_cp_width(0x1161), 0);
    /* two: a fullwidth A, a CJK ideograph in the reserved places, a Yijing hexagram */
    assert_int_equal(markup_cp_width(0xFF21), 2);
    assert_int_equal(markup_cp_width(0x2A6E0), 2);
    assert_int_equal(markup_cp_width(0x4DC0), 2);
    /* the same as glibc's wcwidth where a UTF-8 locale is there to ask */
    locale_t utf8 = newlocale(LC_CTYPE_MASK, "C.UTF-8", (locale_t)0);
    if (utf8) {
        locale_t was = uselocale(utf8);
        static const uint32_t cps[] = {0x26FA, 0x1F680, 0x2705, 0xE9, 0xAD, 0x301, 0x200D, 0x1161, 0xFF21, 0x4E2D};
        for (size_t i = 0; i < sizeof cps / sizeof cps[0]; i++)
            assert_int_equal((int)markup_cp_width(cps[i]), wcwidth((wchar_t)cps[i]));
        uselocale(was);
        freelocale(utf8);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_display_width_from_unicode),
        cmocka_unit_test(test_control_bytes_dropped),
        cmocka_unit_test(test_strip),    cmocka_unit_test(test_ansi),
        cmocka_unit_test(test_literal_braces), cmocka_unit_test(test_width),
        cmocka_unit_test(test_wrap),     cmocka_unit_test(test_buf),
        cmocka_unit_test(test_term_width),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
