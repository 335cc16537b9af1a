/*
** test_json_string.c
** The one JSON string writer (json_string.c): escapes, well-formed UTF-8
** kept, every stray byte replaced; each expected text worked out by hand
** from RFC 8259 and Unicode's table 3-7 of well-formed sequences.
*/
#include "testutil.h"
#include "json_string.h"

static char *put(const char *s, size_t n) {
    strbuf b = {0};
    json_string_put(&b, s, n);
    assert_false(b.oom);
    return strbuf_take(&b);
}

#define EXPECT(in, want)                                                                       \
    do {                                                                                       \
        char *got_ = put((in), sizeof(in) - 1);                                                \
        assert_string_equal(got_, (want));                                                     \
        free(got_);                                                                            \
    } while (0)

static void test_escapes(void **st) {
    (void)st;
    EXPECT("plain", "\"plain\"");
    EXPECT("say \"hi\" \\ bye", "\"say \\\"hi\\\" \\\\ bye\"");
    EXPECT("a\nb\rc\td", "\"a\\nb\\rc\\td\"");
    /* NUL (inside the length), BEL and DEL as \u00XX */
    EXPECT("x\0y\ad\x7f", "\"x\\u0000y\\u0007d\\u007f\"");
}

static void test_utf8_kept(void **st) {
    (void)st;
    /* é (C3 A9), ⛺ (E2 9B BA), 🚀 (F0 9F 9A 80): well-formed, written as they are */
    EXPECT("caf\xc3\xa9 \xe2\x9b\xba \xf0\x9f\x9a\x80", "\"caf\xc3\xa9 \xe2\x9b\xba \xf0\x9f\x9a\x80\"");
    /* U+10FFFF (F4 8F BF BF), the last code point, and U+D7FF (ED 9F BF), the last before the surrogates */
    EXPECT("\xf4\x8f\xbf\xbf\xed\x9f\xbf", "\"\xf4\x8f\xbf\xbf\xed\x9f\xbf\"");
}

static void test_stray_bytes_replaced(void **st) {
    (void)st;
    /* FF never starts a sequence: one \ufffd */
    EXPECT("a\xff" "b", "\"a\\ufffdb\"");
    /* C0 AF is an overlong '/': both bytes stray (C0 starts nothing, AF is a lone continuation) */
    EXPECT("\xc0\xaf", "\"\\ufffd\\ufffd\"");
    /* ED A0 80 is the surrogate U+D800: ED's second byte must be 80-9F, so three strays */
    EXPECT("\xed\xa0\x80", "\"\\ufffd\\ufffd\\ufffd\"");
    /* F4 90 80 80 is past U+10FFFF: four strays */
    EXPECT("\xf4\x90\x80\x80", "\"\\ufffd\\ufffd\\ufffd\\ufffd\"");
    /* E2 9B cut short by the end: two strays; then a lone continuation after a good é */
    EXPECT("\xc3\xa9\x80 \xe2\x9b", "\"\xc3\xa9\\ufffd \\ufffd\\ufffd\"");
}

static void test_lengths(void **st) {
    (void)st;
    assert_int_equal(json_utf8_len((const unsigned char *)"A", 1), 1);
    assert_int_equal(json_utf8_len((const unsigned char *)"\xc3\xa9", 2), 2);
    assert_int_equal(json_utf8_len((const unsigned char *)"\xe2\x9c\x85", 3), 3); /* ✅ */
    assert_int_equal(json_utf8_len((const unsigned char *)"\xe2\x9c\x85", 2), 0); /* cut */
    assert_int_equal(json_utf8_len((const unsigned char *)"\xe0\x80\x80", 3), 0); /* overlong */
    assert_int_equal(json_utf8_len((const unsigned char *)"\xf0\x9f\x9a\x80", 4), 4);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_escapes),
        cmocka_unit_test(test_utf8_kept),
        cmocka_unit_test(test_stray_bytes_replaced),
        cmocka_unit_test(test_lengths),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
