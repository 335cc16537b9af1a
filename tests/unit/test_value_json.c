/*
** test_value_json.c
** value_write_json: every kind of value, escapes, order and nesting, against
** JSON text written by hand; value_json_put, the same compact on one line.
*/
#include "testutil.h"
#include "value_json.h"
#include "yload.h"

#include <stdio.h>

/* the JSON written for the YAML text */
static char *json_of(const char *yaml) {
    cerr_list errs;
    cerr_init(&errs, 0);
    value *v = yload_string("t.yaml", yaml, strlen(yaml), NULL, &errs);
    assert_non_null(v);
    cerr_free(&errs);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    assert_int_equal(value_write_json(f, v), 0);
    fclose(f);
    value_free(v);
    return buf;
}

static void test_scalars(void **st) {
    (void)st;
    char *s = json_of("[1, -7, true, false, null, text]");
    assert_string_equal(s, "[\n  1,\n  -7,\n  true,\n  false,\n  null,\n  \"text\"\n]\n");
    free(s);
}

static void test_escapes(void **st) {
    (void)st;
    /* a quote, a backslash, a tab and a newline escaped; UTF-8 as it is */
    char *s = json_of("a: \"say \\\"hi\\\" \\\\ \\t\\n\"\nb: \"\xce\xb3\"\n");
    assert_string_equal(s, "{\n  \"a\": \"say \\\"hi\\\" \\\\ \\t\\n\",\n  \"b\": \"\xce\xb3\"\n}\n");
    free(s);
}

static void test_nesting_keeps_order(void **st) {
    (void)st;
    /* maps keep the file's order (z before a); empty ones stay on one line */
    char *s = json_of("z: {y: [1, {}], x: []}\na: {}\n");
    assert_string_equal(s, "{\n  \"z\": {\n    \"y\": [\n      1,\n      {}\n    ],\n    \"x\": []\n  },\n  \"a\": {}\n}\n");
    free(s);
}

static void test_compact(void **st) {
    (void)st;
    /* one line, no blanks, the file's order, a newline escaped; NULL is null */
    cerr_list errs;
    cerr_init(&errs, 0);
    const char *yaml = "z: {y: [1, {}, \"a\\nb\"], x: []}\na: {t: true, n: null, i: -3}\n";
    value *v = yload_string("t.yaml", yaml, strlen(yaml), NULL, &errs);
    assert_non_null(v);
    strbuf b = {0};
    value_json_put(&b, v);
    assert_string_equal(strbuf_str(&b), "{\"z\":{\"y\":[1,{},\"a\\nb\"],\"x\":[]},\"a\":{\"t\":true,\"n\":null,\"i\":-3}}");
    strbuf_cut(&b, 0);
    value_json_put(&b, NULL);
    assert_string_equal(strbuf_str(&b), "null");
    strbuf_free(&b);
    value_free(v);
    cerr_free(&errs);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_scalars),
        cmocka_unit_test(test_escapes),
        cmocka_unit_test(test_nesting_keeps_order),
        cmocka_unit_test(test_compact),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
