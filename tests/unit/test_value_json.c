/*
** test_value_json.c
** value_write_json: every kind of value, escapes, order and nesting, against
** JSON text written by hand.
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

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_scalars),
        cmocka_unit_test(test_escapes),
        cmocka_unit_test(test_nesting_keeps_order),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
