/*
** test_schema.c
** The schema validator: every keyword with a passing and a failing instance,
** the exact messages (they are the product), $ref across files, what is
** refused in a schema, did-you-mean, all errors reported, and the error cap.
*/
#define _XOPEN_SOURCE 700 /* mkdtemp, symlink, realpath */
#include "testutil.h"
#include "error.h"
#include "ruleset.h"
#include "schema.h"
#include "value.h"
#include "yload.h"

#include <stdio.h>
#include <unistd.h>

static schema_set *set;
static cerr_list errs;
static char *shown; /* the last errors() text */

static int setup(void **st) {
    (void)st;
    set = schema_set_new();
    cerr_init(&errs, 0);
    /* as cairn does: its own schemas folder is where $refs may always lead */
    return set && schema_set_fallback_dir(set, "schemas") == 0 ? 0 : -1;
}

static int teardown(void **st) {
    (void)st;
    schema_set_free(set);
    set = NULL;
    cerr_free(&errs);
    free(shown);
    shown = NULL;
    return 0;
}

/* Every stored error, formatted, one a line; "" when there is none. */
static const char *errors(void) {
    size_t len = 1;
    char **lines = calloc(errs.n + 1, sizeof *lines);
    assert_non_null(lines);
    for (size_t i = 0; i < errs.n; i++) {
        lines[i] = cerr_format(&errs.items[i]);
        assert_non_null(lines[i]);
        len += strlen(lines[i]) + 1;
    }
    free(shown);
    shown = malloc(len);
    assert_non_null(shown);
    shown[0] = '\0';
    for (size_t i = 0; i < errs.n; i++) {
        if (i) strcat(shown, "\n");
        strcat(shown, lines[i]);
        free(lines[i]);
    }
    free(lines);
    return shown;
}

/* A schema from text, called "s.yaml"; the test fails if it is refused. */
static const value *schema(const char *text) {
    cerr_clear(&errs);
    const value *s = schema_load_string(set, "s.yaml", text, strlen(text), &errs);
    if (!s) fail_msg("schema refused:\n%s", errors());
    assert_int_equal(cerr_count(&errs), 0);
    return s;
}

/* The errors of loading a schema that must be refused. */
static const char *refused(const char *text) {
    cerr_clear(&errs);
    assert_null(schema_load_string(set, "s.yaml", text, strlen(text), &errs));
    assert_true(cerr_count(&errs) > 0);
    return errors();
}

static value *instance(const char *text) {
    cerr_list e;
    cerr_init(&e, 0);
    value *v = yload_string("i.yaml", text, strlen(text), NULL, &e);
    if (!v) {
        cerr_print(stderr, &e);
        fail_msg("instance did not load: %s", text);
    }
    cerr_free(&e);
    return v;
}

/* Validates instance text ("i.yaml") against a loaded schema under
** root_path; returns the errors, one a line. */
static const char *validate_at(const value *s, const char *text, const char *root_path) {
    value *v = instance(text);
    cerr_clear(&errs);
    int n = schema_validate(set, s, NULL, v, root_path, &errs);
    assert_int_equal(n, (int)cerr_count(&errs));
    value_free(v);
    return errors();
}

static const char *validate(const value *s, const char *text) { return validate_at(s, text, ""); }

/* ------------------------------------------------------------- types */

static void test_type(void **st) {
    (void)st;
    const value *s = schema("type: integer");
    assert_string_equal(validate(s, "3"), "");
    assert_string_equal(validate(s, "four"), "i.yaml:1:1: expected integer, got string \"four\"");
    s = schema("type: [string, \"null\"]");
    assert_string_equal(validate(s, "~"), "");
    assert_string_equal(validate(s, "x"), "");
    assert_string_equal(validate(s, "3"), "i.yaml:1:1: expected null or string, got integer 3");
    s = schema("type: [object, array, boolean]");
    assert_string_equal(validate(s, "true"), "");
    assert_string_equal(validate(s, "[1]"), "");
    assert_string_equal(validate(s, "{}"), "");
    assert_string_equal(validate(s, "3"),
                        "i.yaml:1:1: expected boolean, list or map, got integer 3");
}

static void test_number_means_integer(void **st) {
    (void)st;
    const value *s = schema("type: number");
    assert_string_equal(validate(s, "-12"), "");
    assert_string_equal(validate(s, "[]"), "i.yaml:1:1: expected integer, got a list of 0 items");
}

static void test_const(void **st) {
    (void)st;
    const value *s = schema("const: red");
    assert_string_equal(validate(s, "red"), "");
    assert_string_equal(validate(s, "green"), "i.yaml:1:1: expected \"red\", got string \"green\"");
    assert_string_equal(validate(s, "rde"),
                        "i.yaml:1:1: expected \"red\", got string \"rde\" (did you mean \"red\"?)");
    /* maps compare without regard to key order */
    s = schema("const: {a: 1, b: [x]}");
    assert_string_equal(validate(s, "{b: [x], a: 1}"), "");
    assert_string_equal(validate(s, "{a: 2, b: [x]}"),
                        "i.yaml:1:1: expected {a: 1, b: [\"x\"]}, got a map of 2 keys");
}

static void test_enum(void **st) {
    (void)st;
    const value *s = schema("enum: [red, blue, 3]");
    assert_string_equal(validate(s, "3"), "");
    assert_string_equal(validate(s, "blue"), "");
    assert_string_equal(validate(s, "green"),
                        "i.yaml:1:1: expected one of \"red\", \"blue\", 3, got string \"green\"");
    assert_string_equal(validate(s, "bleu"), "i.yaml:1:1: expected one of \"red\", \"blue\", 3, "
                                             "got string \"bleu\" (did you mean \"blue\"?)");
    assert_string_equal(validate(s, "\"3\""),
                        "i.yaml:1:1: expected one of \"red\", \"blue\", 3, got string \"3\"");
    /* a wrong type is reported as the enum, not as the type */
    s = schema("{type: string, enum: [up, down]}");
    assert_string_equal(validate(s, "4"),
                        "i.yaml:1:1: expected one of \"up\", \"down\", got integer 4");
    /* every keyword applies: the enum accepts null, the type does not */
    s = schema("{type: string, enum: [low, high, ~]}");
    assert_string_equal(validate(s, "low"), "");
    assert_string_equal(validate(s, "~"), "i.yaml:1:1: expected string, got null");
    s = schema("{type: integer, const: \"3\"}");
    assert_string_equal(validate(s, "\"3\""), "i.yaml:1:1: expected integer, got string \"3\"");
    s = schema("{type: [string, \"null\"], enum: [low, ~]}");
    assert_string_equal(validate(s, "~"), "");
    s = schema("{enum: [1, 10], minimum: 5}");
    assert_string_equal(validate(s, "10"), "");
    assert_string_equal(validate(s, "1"), "i.yaml:1:1: expected integer >= 5, got integer 1");
}

/* ------------------------------------------------------------ integers */

static void test_minimum_maximum(void **st) {
    (void)st;
    const value *s = schema("{type: integer, minimum: 0}");
    assert_string_equal(validate(s, "0"), "");
    assert_string_equal(validate(s, "-1"), "i.yaml:1:1: expected integer >= 0, got integer -1");
    assert_string_equal(validate(s, "four"),
                        "i.yaml:1:1: expected integer >= 0, got string \"four\"");
    s = schema("maximum: 6");
    assert_string_equal(validate(s, "6"), "");
    assert_string_equal(validate(s, "7"), "i.yaml:1:1: expected integer <= 6, got integer 7");
    assert_string_equal(validate(s, "seven"), ""); /* bounds apply to integers only */
    s = schema("{minimum: 1, maximum: 6}");
    assert_string_equal(validate(s, "1"), "");
    assert_string_equal(validate(s, "7"),
                        "i.yaml:1:1: expected integer between 1 and 6, got integer 7");
}

static void test_exclusive_bounds(void **st) {
    (void)st;
    const value *s = schema("{exclusiveMinimum: 0, exclusiveMaximum: 10}");
    assert_string_equal(validate(s, "1"), "");
    assert_string_equal(validate(s, "9"), "");
    assert_string_equal(validate(s, "0"),
                        "i.yaml:1:1: expected integer > 0 and < 10, got integer 0");
    assert_string_equal(validate(s, "10"),
                        "i.yaml:1:1: expected integer > 0 and < 10, got integer 10");
}

static void test_multiple_of(void **st) {
    (void)st;
    const value *s = schema("multipleOf: 5");
    assert_string_equal(validate(s, "15"), "");
    assert_string_equal(validate(s, "-10"), "");
    assert_string_equal(validate(s, "7"),
                        "i.yaml:1:1: expected integer multiple of 5, got integer 7");
    s = schema("{minimum: 10, multipleOf: 5}");
    assert_string_equal(validate(s, "5"),
                        "i.yaml:1:1: expected integer >= 10 and multiple of 5, got integer 5");
}

/* ------------------------------------------------------------- strings */

static void test_length_counts_code_points(void **st) {
    (void)st;
    const value *s = schema("{type: string, minLength: 2, maxLength: 5}");
    assert_string_equal(validate(s, "h\xc3\xa9llo"), ""); /* 5 characters, 6 bytes */
    assert_string_equal(validate(s, "a"),
                        "i.yaml:1:1: expected string of 2 to 5 characters, got string \"a\"");
    assert_string_equal(validate(s, "h\xc3\xa9llo!"),
                        "i.yaml:1:1: expected string of 2 to 5 characters, got string "
                        "\"h\xc3\xa9llo!\"");
    s = schema("minLength: 1");
    assert_string_equal(validate(s, "\"\""),
                        "i.yaml:1:1: expected string of at least 1 character, got string \"\"");
    s = schema("maxLength: 1");
    assert_string_equal(validate(s, "ab"),
                        "i.yaml:1:1: expected string of at most 1 character, got string \"ab\"");
    s = schema("{minLength: 3, maxLength: 3}");
    assert_string_equal(validate(s, "ab"),
                        "i.yaml:1:1: expected string of exactly 3 characters, got string \"ab\"");
}

static void test_pattern_is_an_unanchored_search(void **st) {
    (void)st;
    const value *s = schema("pattern: \"[0-9]\"");
    assert_string_equal(validate(s, "a1b"), "");
    assert_string_equal(validate(s, "abc"),
                        "i.yaml:1:1: expected string matching \"[0-9]\", got string \"abc\"");
    s = schema("pattern: \"^[a-z]+$\"");
    assert_string_equal(validate(s, "abc"), "");
    assert_string_equal(validate(s, "abc1"),
                        "i.yaml:1:1: expected string matching \"^[a-z]+$\", got string \"abc1\"");
    assert_string_equal(validate(s, "12"), ""); /* pattern applies to strings only */
    /* ECMA-262, as the editor reads it: the backslash escapes the dash */
    s = schema("pattern: '^[a-z0-9\\-_]+$'");
    assert_string_equal(validate(s, "a-b"), "");
    assert_string_equal(validate(s, "a\\b"),
                        "i.yaml:1:1: expected string matching \"^[a-z0-9\\\\-_]+$\", got string \"a\\b\"");
    s = schema("patternProperties: {'^\\d+$': {type: integer}}");
    assert_string_equal(validate(s, "{\"12\": x, a: y}"), "i.yaml:1:8: 12: expected integer, got string \"x\"");
}

/* ---------------------------------------------------------------- maps */

static void test_properties_and_required(void **st) {
    (void)st;
    const value *s = schema("{type: object, required: [a, b],"
                            " properties: {a: {type: integer}, b: {type: string}}}");
    assert_string_equal(validate(s, "{a: 1, b: x}"), "");
    assert_string_equal(validate(s, "{a: 1, b: x, c: 3}"), ""); /* others allowed */
    assert_string_equal(validate(s, "{a: 1}"), "i.yaml:1:1: missing required key \"b\"");
    assert_string_equal(validate(s, "{a: x, b: y}"),
                        "i.yaml:1:5: a: expected integer, got string \"x\"");
    assert_string_equal(validate(s, "[]"), "i.yaml:1:1: expected map, got a list of 0 items");
}

static void test_additional_properties_false(void **st) {
    (void)st;
    const value *s = schema("{properties: {capacity: {type: integer}}, additionalProperties: false}");
    assert_string_equal(validate(s, "{capacity: 1}"), "");
    /* the error points at the key itself */
    assert_string_equal(validate(s, "{capcity: 1}"),
                        "i.yaml:1:2: unknown key \"capcity\" (did you mean \"capacity\"?)");
    assert_string_equal(validate(s, "{zzz: 1}"), "i.yaml:1:2: unknown key \"zzz\"");
    assert_string_equal(validate_at(s, "{capacity: 1,\n zzz: 2}", "carts[1]"),
                        "i.yaml:2:2: carts[1]: unknown key \"zzz\"");
}

static void test_misspelt_required_key_is_one_error(void **st) {
    (void)st;
    const value *s = schema("{required: [capacity], properties: {capacity: {}},"
                            " additionalProperties: false}");
    assert_string_equal(validate(s, "{capcity: 1}"),
                        "i.yaml:1:2: unknown key \"capcity\" (did you mean \"capacity\"?)");
    assert_string_equal(validate(s, "{}"), "i.yaml:1:1: missing required key \"capacity\"");
}

static void test_additional_properties_schema(void **st) {
    (void)st;
    const value *s = schema("additionalProperties: {type: integer}");
    assert_string_equal(validate(s, "{a: 1, b: 2}"), "");
    assert_string_equal(validate(s, "{a: 1, b: x}"),
                        "i.yaml:1:11: b: expected integer, got string \"x\"");
}

static void test_pattern_properties(void **st) {
    (void)st;
    const value *s = schema("{patternProperties: {\"^x-\": {type: string}},"
                            " additionalProperties: false}");
    assert_string_equal(validate(s, "{x-a: s}"), "");
    assert_string_equal(validate(s, "{x-a: 1}"), "i.yaml:1:7: x-a: expected string, got integer 1");
    assert_string_equal(validate(s, "{y: 1}"), "i.yaml:1:2: unknown key \"y\"");
}

static void test_property_names(void **st) {
    (void)st;
    const value *s = schema("propertyNames: {pattern: \"^[a-z]+$\"}");
    assert_string_equal(validate(s, "{abc: 1}"), "");
    assert_string_equal(validate(s, "{abc: 1, Abc: 2}"),
                        "i.yaml:1:10: key \"Abc\": expected string matching \"^[a-z]+$\", got "
                        "string \"Abc\"");
}

static void test_min_max_properties(void **st) {
    (void)st;
    const value *s = schema("{minProperties: 1, maxProperties: 2}");
    assert_string_equal(validate(s, "{a: 1}"), "");
    assert_string_equal(validate(s, "{}"), "i.yaml:1:1: expected map of 1 to 2 keys, got a map of 0 keys");
    assert_string_equal(validate(s, "{a: 1, b: 2, c: 3}"),
                        "i.yaml:1:1: expected map of 1 to 2 keys, got a map of 3 keys");
    s = schema("minProperties: 1");
    assert_string_equal(validate(s, "{}"),
                        "i.yaml:1:1: expected map of at least 1 key, got a map of 0 keys");
}

/* --------------------------------------------------------------- lists */

static void test_items(void **st) {
    (void)st;
    const value *s = schema("{type: array, items: {type: integer}}");
    assert_string_equal(validate(s, "[1, 2]"), "");
    assert_string_equal(validate(s, "[1, x, 3, y]"),
                        "i.yaml:1:5: [1]: expected integer, got string \"x\"\n"
                        "i.yaml:1:11: [3]: expected integer, got string \"y\"");
}

static void test_prefix_items(void **st) {
    (void)st;
    const value *s = schema("{prefixItems: [{type: string}, {type: integer}], items: false}");
    assert_string_equal(validate(s, "[a, 1]"), "");
    assert_string_equal(validate(s, "[a]"), ""); /* prefixItems does not require */
    assert_string_equal(validate(s, "[1, 1]"), "i.yaml:1:2: [0]: expected string, got integer 1");
    assert_string_equal(validate(s, "[a, 1, 2]"),
                        "i.yaml:1:1: expected list of at most 2 items, got a list of 3 items");
    s = schema("{prefixItems: [{type: string}], items: {type: integer}}");
    assert_string_equal(validate(s, "[a, 1, 2]"), "");
    assert_string_equal(validate(s, "[a, b]"), "i.yaml:1:5: [1]: expected integer, got string \"b\"");
}

static void test_min_max_items(void **st) {
    (void)st;
    const value *s = schema("{minItems: 2, maxItems: 3}");
    assert_string_equal(validate(s, "[1, 2]"), "");
    assert_string_equal(validate(s, "[1]"),
                        "i.yaml:1:1: expected list of 2 to 3 items, got a list of 1 item");
    assert_string_equal(validate(s, "[1, 2, 3, 4]"),
                        "i.yaml:1:1: expected list of 2 to 3 items, got a list of 4 items");
    s = schema("minItems: 1");
    assert_string_equal(validate(s, "[]"),
                        "i.yaml:1:1: expected list of at least 1 item, got a list of 0 items");
}

static void test_unique_items(void **st) {
    (void)st;
    const value *s = schema("uniqueItems: true");
    assert_string_equal(validate(s, "[ice, salt, 1, \"1\"]"), "");
    assert_string_equal(validate(s, "[ice, salt, ice, ice]"),
                        "i.yaml:1:13: [2]: expected unique items, got string \"ice\" again (first at [0])\n"
                        "i.yaml:1:18: [3]: expected unique items, got string \"ice\" again (first at [0])");
    /* maps are equal whatever their key order */
    assert_string_equal(validate(s, "[{x: 1, y: 2}, {y: 2, x: 1}]"),
                        "i.yaml:1:16: [1]: expected unique items, got a map of 2 keys again (first at [0])");
    s = schema("uniqueItems: false");
    assert_string_equal(validate(s, "[a, a]"), "");
}

/* ----------------------------------------------------------- combining */

static void test_all_of(void **st) {
    (void)st;
    const value *s = schema("allOf: [{type: integer}, {minimum: 3}, {maximum: 1}]");
    assert_string_equal(validate(s, "5"), "i.yaml:1:1: expected integer <= 1, got integer 5");
    /* every branch that fails is reported */
    assert_string_equal(validate(s, "2"), "i.yaml:1:1: expected integer >= 3, got integer 2\n"
                                          "i.yaml:1:1: expected integer <= 1, got integer 2");
    s = schema("allOf: [{minimum: 0}, {maximum: 9}]");
    assert_string_equal(validate(s, "4"), "");
}

static void test_any_of(void **st) {
    (void)st;
    const value *s = schema("anyOf: [{type: integer}, {type: string, maxLength: 2}]");
    assert_string_equal(validate(s, "3"), "");
    assert_string_equal(validate(s, "ab"), "");
    assert_string_equal(validate(s, "abc"),
                        "i.yaml:1:1: matches none of: integer, string (expected string of at most 2 "
                        "characters); got string \"abc\"");
    assert_string_equal(validate(s, "[1]"),
                        "i.yaml:1:1: matches none of: integer, string; got a list of 1 item");
}

static void test_one_of_scalars(void **st) {
    (void)st;
    const value *s = schema("oneOf: [{type: integer, minimum: 1}, {const: all}]");
    assert_string_equal(validate(s, "2"), "");
    assert_string_equal(validate(s, "all"), "");
    assert_string_equal(validate(s, "0"),
                        "i.yaml:1:1: matches none of: integer >= 1, \"all\"; got integer 0");
    s = schema("oneOf: [{type: integer}, {type: [integer, string]}]");
    assert_string_equal(validate(s, "x"), "");
    assert_string_equal(validate(s, "3"),
                        "i.yaml:1:1: matches more than one of: integer, integer or string "
                        "(expected exactly one); got integer 3");
}

static const char *const tagged =
    "oneOf:\n"
    "  - {type: object, required: [kind, sides],\n"
    "     properties: {kind: {const: die}, sides: {type: integer}}}\n"
    "  - {type: object, required: [kind, cards],\n"
    "     properties: {kind: {const: deck}, cards: {type: array}}}\n";

static void test_one_of_discriminated_by_const(void **st) {
    (void)st;
    const value *s = schema(tagged);
    assert_string_equal(validate(s, "{kind: die, sides: 6}"), "");
    /* kind says which branch was meant: report that branch's errors */
    assert_string_equal(validate(s, "{kind: deck, cards: 3}"),
                        "i.yaml:1:21: cards: expected list, got integer 3");
    assert_string_equal(validate(s, "{kind: die, sides: x}"),
                        "i.yaml:1:20: sides: expected integer, got string \"x\"");
    /* kind matches no branch: say so at kind */
    assert_string_equal(validate(s, "{kind: dice, sides: 6}"),
                        "i.yaml:1:8: kind: expected one of \"die\", \"deck\", got string \"dice\" "
                        "(did you mean \"die\"?)");
    assert_string_equal(validate(s, "7"),
                        "i.yaml:1:1: matches none of: {kind: \"die\"} (expected map), {kind: \"deck\"} "
                        "(expected map); got integer 7");
}

static void test_one_of_fewest_errors(void **st) {
    (void)st;
    const value *s = schema(
        "oneOf:\n"
        "  - {title: small cart, type: object, additionalProperties: false, required: [a],\n"
        "     properties: {a: {type: integer}}}\n"
        "  - {title: big cart, type: object, additionalProperties: false, required: [a, b, c],\n"
        "     properties: {a: {type: integer}, b: {type: integer}, c: {type: integer}}}\n");
    assert_string_equal(validate(s, "{a: 1}"), "");
    assert_string_equal(validate(s, "{a: x}"), "i.yaml:1:5: a: expected integer, got string \"x\"");
    /* a tie: name the branches by title */
    assert_string_equal(validate(s, "{b: 1}"),
                        "i.yaml:1:1: matches none of: small cart (missing required key \"a\"), big cart "
                        "(missing required key \"a\"); got a map of 1 key");
}

/* Without a title, a branch is named by what it is, and each says why it
** failed (its first error, relative to the value). */
static void test_any_of_says_why_each_branch_failed(void **st) {
    (void)st;
    const value *s = schema("anyOf:\n"
                            "  - {type: object, required: [sides]}\n"
                            "  - {type: object, required: [faces], properties: {faces: {type: array}}}\n");
    assert_string_equal(validate(s, "{faces: 3}"),
                        "i.yaml:1:1: matches none of: map (missing required key \"sides\"), map "
                        "(faces: expected list, got integer 3); got a map of 1 key");
    s = schema("anyOf: [{type: string, pattern: \"^[a-z]+$\"}, {type: integer, minimum: 1}]");
    assert_string_equal(validate(s, "ABC"),
                        "i.yaml:1:1: matches none of: string (expected string matching "
                        "\"^[a-z]+$\"), integer >= 1; got string \"ABC\"");
    s = schema("anyOf: [{minLength: 5}, {maxLength: 1}]");
    assert_string_equal(validate(s, "abc"),
                        "i.yaml:1:1: matches none of: option 1 (expected string of at least 5 "
                        "characters), option 2 (expected string of at most 1 character); got string "
                        "\"abc\"");
}

static void test_not(void **st) {
    (void)st;
    const value *s = schema("not: {const: admin}");
    assert_string_equal(validate(s, "bob"), "");
    assert_string_equal(validate(s, "admin"),
                        "i.yaml:1:1: expected anything except \"admin\", got string \"admin\"");
    /* an untitled schema is named by itself, not "option 1" */
    s = schema("not: {required: [debug]}");
    assert_string_equal(validate(s, "{release: 1}"), "");
    assert_string_equal(validate(s, "{debug: 1}"),
                        "i.yaml:1:1: expected anything except {required: [\"debug\"]}, got a map of 1 key");
    s = schema("not: {type: string}");
    assert_string_equal(validate(s, "x"), "i.yaml:1:1: expected anything except string, got string \"x\"");
    s = schema("not: {title: a debug build, required: [debug]}");
    assert_string_equal(validate(s, "{debug: 1}"),
                        "i.yaml:1:1: expected anything except a debug build, got a map of 1 key");
}

/* ------------------------------------------- contains, dependentRequired */

static void test_contains(void **st) {
    (void)st;
    /* "exactly one joker in a deck" */
    const value *s = schema("{contains: {const: joker}, minContains: 1, maxContains: 1}");
    assert_string_equal(validate(s, "[ace, joker, king]"), "");
    assert_string_equal(validate(s, "[ace, king]"),
                        "i.yaml:1:1: expected list with exactly 1 item matching \"joker\", got a list "
                        "of 2 items (none matches)");
    assert_string_equal(validate(s, "[joker, ace, joker]"),
                        "i.yaml:1:1: expected list with exactly 1 item matching \"joker\", got a list "
                        "of 3 items (2 match: [0], [2])");
    assert_string_equal(validate(s, "joker"), ""); /* lists only */
    /* minContains defaults to 1, so an empty list fails */
    s = schema("contains: {type: integer}");
    assert_string_equal(validate(s, "[a, 1]"), "");
    assert_string_equal(validate(s, "[]"),
                        "i.yaml:1:1: expected list with at least 1 item matching integer, got a list of "
                        "0 items (none matches)");
    s = schema("{contains: {type: integer}, minContains: 2}");
    assert_string_equal(validate(s, "[1, a]"),
                        "i.yaml:1:1: expected list with at least 2 items matching integer, got a list "
                        "of 2 items (1 matches: [0])");
    s = schema("{contains: {type: integer}, minContains: 0, maxContains: 1}");
    assert_string_equal(validate(s, "[]"), "");
    assert_string_equal(validate(s, "[a]"), "");
    assert_string_equal(validate(s, "[1, 2]"),
                        "i.yaml:1:1: expected list with at most 1 item matching integer, got a list of "
                        "2 items (2 match: [0], [1])");
    /* without contains, minContains and maxContains say nothing */
    s = schema("{minContains: 5, maxContains: 0}");
    assert_string_equal(validate(s, "[1]"), "");
    /* an untitled map schema is shown as written; a tagged one by its tag */
    s = schema("contains: {required: [joker]}");
    assert_string_equal(validate(s, "[{a: 1}]"),
                        "i.yaml:1:1: expected list with at least 1 item matching {required: "
                        "[\"joker\"]}, got a list of 1 item (none matches)");
    s = schema("contains: {required: [id], properties: {id: {const: joker}}}");
    assert_string_equal(validate(s, "[{id: ace}, {id: joker}]"), "");
    assert_string_equal(validate(s, "[{id: ace}]"),
                        "i.yaml:1:1: expected list with at least 1 item matching {id: \"joker\"}, got "
                        "a list of 1 item (none matches)");
    /* more than 5 matches are cut short */
    s = schema("{contains: {type: integer}, maxContains: 1}");
    assert_string_equal(validate(s, "[1, 2, 3, 4, 5, 6, 7]"),
                        "i.yaml:1:1: expected list with exactly 1 item matching integer, got a list of 7 "
                        "items (7 match: [0], [1], [2], [3], [4], ...)");
}

static void test_dependent_required(void **st) {
    (void)st;
    const value *s = schema("dependentRequired: {bid: [seat, amount]}");
    assert_string_equal(validate(s, "{bid: 1, seat: 2, amount: 3}"), "");
    assert_string_equal(validate(s, "{seat: 2}"), "");
    assert_string_equal(validate(s, "{bid: 1, amount: 3}"),
                        "i.yaml:1:1: missing required key \"seat\" (required when \"bid\" is present)");
    assert_string_equal(validate(s, "{bid: 1}"),
                        "i.yaml:1:1: missing required key \"seat\" (required when \"bid\" is present)\n"
                        "i.yaml:1:1: missing required key \"amount\" (required when \"bid\" is present)");
    assert_string_equal(validate(s, "[bid]"), ""); /* maps only */
    assert_string_equal(refused("dependentRequired: {a: b}"),
                        "s.yaml:1:24: dependentRequired.a: expected list of strings, got string \"b\"");
    assert_string_equal(refused("dependentRequired: [a]"),
                        "s.yaml:1:20: dependentRequired: expected map of key -> list of keys, got a list "
                        "of 1 item");
    assert_string_equal(refused("dependentRequired: {a: [b, b]}"),
                        "s.yaml:1:28: dependentRequired.a[1]: \"b\" is listed twice");
}

/* ------------------------------------------------- unevaluatedProperties */

static const char *const extended =
    "$defs:\n"
    "  piece: {type: object, required: [id], properties: {id: {type: string}, letter: {type: string}}}\n"
    "allOf: [{$ref: \"#/$defs/piece\"}]\n"
    "properties: {count: {type: integer}}\n";

/* Extending a component built with allOf without restating its keys. */
static void test_unevaluated_properties_extends(void **st) {
    (void)st;
    char text[512];
    snprintf(text, sizeof text, "%sunevaluatedProperties: false\n", extended);
    const value *s = schema(text);
    assert_string_equal(validate(s, "{id: a, count: 2}"), "");
    assert_string_equal(validate(s, "{id: a, letter: x, count: 2}"), "");
    assert_string_equal(validate(s, "{id: a, cuont: 2}"),
                        "i.yaml:1:9: unknown key \"cuont\" (did you mean \"count\"?)");
    /* a misspelt key that leaves a required one missing is one error */
    assert_string_equal(validate(s, "{ib: a}"), "i.yaml:1:1: missing required key \"id\"\n"
                                                "i.yaml:1:2: unknown key \"ib\"");
    assert_string_equal(validate(s, "{count: 1, lettre: x}"),
                        "i.yaml:1:1: missing required key \"id\"\n"
                        "i.yaml:1:12: unknown key \"lettre\" (did you mean \"letter\"?)");
    snprintf(text, sizeof text, "%srequired: [letter]\nunevaluatedProperties: false\n", extended);
    const value *s2 = schema(text);
    assert_string_equal(validate(s2, "{id: a, lettre: x}"),
                        "i.yaml:1:9: unknown key \"lettre\" (did you mean \"letter\"?)");
    /* the suggestion looks into the allOf branch too */
    assert_string_equal(validate(s, "{id: a, lettr: x}"),
                        "i.yaml:1:9: unknown key \"lettr\" (did you mean \"letter\"?)");
    /* additionalProperties cannot do this: it sees only its own properties */
    snprintf(text, sizeof text, "%sadditionalProperties: false\n", extended);
    s = schema(text);
    assert_string_equal(validate(s, "{id: a, letter: x}"),
                        "i.yaml:1:2: unknown key \"id\"\ni.yaml:1:9: unknown key \"letter\"");
    /* as a schema, it applies to the keys nothing else evaluated */
    s = schema("{properties: {a: {}}, unevaluatedProperties: {type: integer}}");
    assert_string_equal(validate(s, "{a: x, b: 1}"), "");
    assert_string_equal(validate(s, "{b: x}"), "i.yaml:1:5: b: expected integer, got string \"x\"");
    assert_string_equal(validate(s, "[1]"), ""); /* maps only */
}

/* Which subschemas count, as in 2020-12: anyOf/oneOf branches only when
** they pass, if with then or else by the condition, $ref beside it, a
** nested unevaluatedProperties; never what is under not. */
static void test_unevaluated_properties_annotations(void **st) {
    (void)st;
    const value *s = schema("anyOf:\n"
                            "  - {properties: {a: {type: integer}}, required: [a]}\n"
                            "  - {properties: {b: {type: integer}}, required: [b]}\n"
                            "unevaluatedProperties: false\n");
    assert_string_equal(validate(s, "{a: 1}"), "");
    assert_string_equal(validate(s, "{a: 1, b: 2}"), "");
    /* the second branch fails, so it evaluated nothing: b is left over */
    assert_string_equal(validate(s, "{a: 1, b: x}"), "i.yaml:1:8: unknown key \"b\"");
    s = schema("if: {properties: {kind: {const: die}}, required: [kind]}\n"
               "then: {properties: {sides: {type: integer}}}\n"
               "else: {properties: {faces: {type: array}}}\n"
               "unevaluatedProperties: false\n");
    /* kind is evaluated by if when if passes, and then sides by then */
    assert_string_equal(validate(s, "{kind: die, sides: 6}"), "");
    /* a failing if evaluated nothing: kind is left over; else took faces */
    assert_string_equal(validate(s, "{kind: coin, faces: [h, t]}"), "i.yaml:1:2: unknown key \"kind\"");
    s = schema("properties: {kind: {type: string}}\n"
               "if: {properties: {kind: {const: die}}, required: [kind]}\n"
               "then: {properties: {sides: {type: integer}}}\n"
               "else: {properties: {faces: {type: array}}}\n"
               "unevaluatedProperties: false\n");
    assert_string_equal(validate(s, "{kind: coin, faces: [h, t]}"), "");
    assert_string_equal(validate(s, "{kind: coin, sides: 6}"), "i.yaml:1:14: unknown key \"sides\"");
    s = schema("{$defs: {p: {properties: {a: {}}}}, $ref: \"#/$defs/p\", unevaluatedProperties: false}");
    assert_string_equal(validate(s, "{a: 1}"), "");
    assert_string_equal(validate(s, "{b: 1}"), "i.yaml:1:2: unknown key \"b\"");
    s = schema("{allOf: [{unevaluatedProperties: true}], unevaluatedProperties: false}");
    assert_string_equal(validate(s, "{z: 1}"), "");
    s = schema("{not: {not: {properties: {a: {}}}}, unevaluatedProperties: false}");
    assert_string_equal(validate(s, "{a: 1}"), "i.yaml:1:2: unknown key \"a\"");
    s = schema("{patternProperties: {\"^x-\": true}, unevaluatedProperties: false}");
    assert_string_equal(validate(s, "{x-note: 1}"), "");
    assert_string_equal(validate(s, "{note: 1}"), "i.yaml:1:2: unknown key \"note\"");
}

static void test_if_then_else(void **st) {
    (void)st;
    const value *s = schema("{if: {type: integer}, then: {minimum: 1}, else: {type: string}}");
    assert_string_equal(validate(s, "2"), "");
    assert_string_equal(validate(s, "x"), "");
    assert_string_equal(validate(s, "0"), "i.yaml:1:1: expected integer >= 1, got integer 0");
    assert_string_equal(validate(s, "[1]"), "i.yaml:1:1: expected string, got a list of 1 item");
    s = schema("{if: {required: [kind]}, then: {required: [size]}}");
    assert_string_equal(validate(s, "{other: 1}"), "");
    assert_string_equal(validate(s, "{kind: big, size: 3}"), "");
    assert_string_equal(validate(s, "{kind: big}"), "i.yaml:1:1: missing required key \"size\"");
}

static void test_boolean_schemas(void **st) {
    (void)st;
    const value *s = schema("properties: {a: false, b: true}");
    assert_string_equal(validate(s, "{b: [1, {c: 2}]}"), "");
    assert_string_equal(validate(s, "{a: 1}"), "i.yaml:1:5: a: no value is allowed here, got integer 1");
    s = schema("true");
    assert_string_equal(validate(s, "{x: 1}"), "");
    s = schema("false");
    assert_string_equal(validate(s, "3"), "i.yaml:1:1: no value is allowed here, got integer 3");
}

static void test_annotations_accepted(void **st) {
    (void)st;
    const value *s = schema("$schema: https://json-schema.org/draft/2020-12/schema\n"
                            "$id: t.schema.yaml\n"
                            "$comment: for people\n"
                            "title: T\n"
                            "description: a test\n"
                            "default: 3\n"
                            "examples: [1, 2]\n"
                            "x-editor: {fold: true}\n"
                            "type: integer\n");
    assert_string_equal(validate(s, "3"), "");
    assert_string_equal(validate(s, "x"), "i.yaml:1:1: expected integer, got string \"x\"");
}

/* ---------------------------------------------------------------- $ref */

static void test_ref_local(void **st) {
    (void)st;
    const value *s = schema("{$defs: {pos: {type: integer, minimum: 1}},"
                            " type: array, items: {$ref: \"#/$defs/pos\"}}");
    assert_string_equal(validate(s, "[1, 2]"), "");
    assert_string_equal(validate(s, "[1, 0]"), "i.yaml:1:5: [1]: expected integer >= 1, got integer 0");
}

static void test_ref_recursion_that_descends(void **st) {
    (void)st;
    const value *s = schema("$defs:\n"
                            "  node:\n"
                            "    type: object\n"
                            "    additionalProperties: false\n"
                            "    properties:\n"
                            "      name: {type: string}\n"
                            "      children: {type: array, items: {$ref: \"#/$defs/node\"}}\n"
                            "$ref: \"#/$defs/node\"\n");
    assert_string_equal(validate(s, "{name: a, children: [{name: b}]}"), "");
    assert_string_equal(validate(s, "name: a\n"
                                    "children:\n"
                                    "  - name: b\n"
                                    "    children:\n"
                                    "      - name: 3\n"),
                        "i.yaml:5:15: children[0].children[0].name: expected string, got integer 3");
    s = schema("{type: array, items: {$ref: \"#\"}}");
    assert_string_equal(validate(s, "[[], [[]]]"), "");
    assert_string_equal(validate(s, "[[], [[1]]]"),
                        "i.yaml:1:8: [1][0][0]: expected list, got integer 1");
}

/* The example of the brief: a table with a misspelt key, a missing key, a
** wrong type, a wrong enum value, and a supply refs components.schema.yaml. */
static void test_ref_across_files(void **st) {
    (void)st;
    cerr_clear(&errs);
    const value *s = schema_load(set, FIXTURE("schema/carts.schema.yaml"), &errs);
    if (!s) fail_msg("%s", errors());
    cerr_list ie;
    cerr_init(&ie, 0);
    value *v = yload_file(FIXTURE("schema/carts.yaml"), &ie);
    assert_non_null(v);
    cerr_free(&ie);
    cerr_clear(&errs);
    assert_int_equal(schema_validate(set, s, FIXTURE("schema/carts.schema.yaml"), v, "", &errs), 5);
    assert_string_equal(
        errors(),
        "tests/fixtures/schema/carts.yaml:3:5: carts[0]: missing required key \"foods\"\n"
        "tests/fixtures/schema/carts.yaml:6:5: carts[1]: unknown key \"capcity\" (did you mean "
        "\"capacity\"?)\n"
        "tests/fixtures/schema/carts.yaml:9:15: carts[2].capacity: expected integer >= 0, got "
        "string \"four\"\n"
        "tests/fixtures/schema/carts.yaml:11:13: carts[2].colour: expected one of \"red\", "
        "\"blue\", got string \"green\"\n"
        "tests/fixtures/schema/carts.yaml:18:9: supply.salt: matches none of: integer >= 0, "
        "\"unlimited\"; got string \"lots\"");
    value_free(v);
}

/* A schema loaded from a string finds relative $refs next to its name;
** a file in a subfolder refs relative to itself (sub/market.schema.yaml). */
static void test_ref_relative_to_referrer(void **st) {
    (void)st;
    const char *text = "properties:\n"
                       "  dice: {$ref: \"../../../schemas/components.schema.yaml#/$defs/dice\"}\n"
                       "  market: {$ref: \"sub/market.schema.yaml\"}\n";
    cerr_clear(&errs);
    const value *s = schema_load_string(set, "tests/fixtures/schema/inline.yaml", text,
                                        strlen(text), &errs);
    if (!s) fail_msg("%s", errors());
    assert_string_equal(validate(s, "{dice: {count: 2}, market: {stalls: 2, deck: {cards: [a]}}}"), "");
    assert_string_equal(validate(s, "{dice: {sides: 1}, market: {stalls: -2}}"),
                        "i.yaml:1:16: dice.sides: expected integer >= 2, got integer 1\n"
                        "i.yaml:1:37: market.stalls: expected integer >= 0, got integer -2");
}

/* --------------------------------------------- what a schema may not do */

static void test_unknown_keyword_refused(void **st) {
    (void)st;
    assert_string_equal(refused("{type: integer, maximun: 3}"),
                        "s.yaml:1:17: unknown schema keyword \"maximun\" (did you mean \"maximum\"?)");
    assert_string_equal(refused("properties:\n  a: {type: string, colour: red}\n"),
                        "s.yaml:2:21: properties.a: unknown schema keyword \"colour\"");
    cerr_clear(&errs);
    assert_null(schema_load(set, FIXTURE("schema/unknown_keyword.schema.yaml"), &errs));
    assert_string_equal(errors(),
                        "tests/fixtures/schema/unknown_keyword.schema.yaml:8:5: properties.count: "
                        "unknown schema keyword \"minimun\" (did you mean \"minimum\"?)\n"
                        "tests/fixtures/schema/unknown_keyword.schema.yaml:11:5: properties.when: "
                        "schema keyword \"format\" is not supported by cairn (see docs/schemas.md)");
}

static void test_keyword_values_checked(void **st) {
    (void)st;
    assert_string_equal(refused("{minItems: -1, uniqueItems: yes, required: a}"),
                        "s.yaml:1:12: minItems: expected integer >= 0, got integer -1\n"
                        "s.yaml:1:29: uniqueItems: expected boolean, got string \"yes\"\n"
                        "s.yaml:1:44: required: expected list of strings, got string \"a\"");
    assert_string_equal(refused("type: [integer, float, integer]"),
                        "s.yaml:1:17: type[1]: unknown type \"float\" (expected null, boolean, "
                        "integer, number, string, array or object)\n"
                        "s.yaml:1:24: type[2]: type \"integer\" is listed twice");
    assert_string_equal(refused("properties: {a: 3}"),
                        "s.yaml:1:17: properties.a: expected schema (map or boolean), got integer 3");
    assert_string_equal(refused("{enum: [], oneOf: [], multipleOf: 0}"),
                        "s.yaml:1:8: enum: expected non-empty list, got a list of 0 items\n"
                        "s.yaml:1:19: oneOf: expected non-empty list of schemas, got a list of 0 items\n"
                        "s.yaml:1:35: multipleOf: expected integer > 0, got integer 0");
    assert_string_equal(refused("$schema: http://json-schema.org/draft-07/schema#"),
                        "s.yaml:1:10: $schema: expected \"https://json-schema.org/draft/2020-12/schema\" "
                        "(the only draft cairn reads), got string \"http://json-schema.org/draft-07/schema#\"");
    assert_string_equal(refused("3"), "s.yaml:1:1: expected schema (map or boolean), got integer 3");
}

static void test_bad_regex_refused(void **st) {
    (void)st;
    cerr_clear(&errs);
    assert_null(schema_load(set, FIXTURE("schema/bad_regex.schema.yaml"), &errs));
    assert_string_equal(
        errors(),
        "tests/fixtures/schema/bad_regex.schema.yaml:4:31: properties.id.pattern: invalid pattern "
        "\"^[a-z(+$\": [ without its closing ] (at character 2)\n"
        "tests/fixtures/schema/bad_regex.schema.yaml:5:33: properties.code.pattern: invalid "
        "pattern \"^[[:digit:]]+$\": POSIX bracket expression [:name:] is not ECMA-262 (there it "
        "is the characters themselves); write \\s, \\d, \\w or list the characters (at "
        "character 3)\n"
        "tests/fixtures/schema/bad_regex.schema.yaml:7:3: patternProperties[\"(\"]: invalid "
        "pattern \"(\": ( without its closing ) (at character 1)");
}

static void test_ref_targets_must_exist(void **st) {
    (void)st;
    cerr_clear(&errs);
    assert_null(schema_load(set, FIXTURE("schema/missing_ref.schema.yaml"), &errs));
    assert_string_equal(
        errors(),
        "tests/fixtures/schema/missing_ref.schema.yaml:4:13: properties.a.$ref: $ref "
        "\"nowhere.schema.yaml#/$defs/x\": cannot read tests/fixtures/schema/nowhere.schema.yaml: "
        "No such file or directory\n"
        "tests/fixtures/schema/missing_ref.schema.yaml:5:13: properties.b.$ref: $ref "
        "\"#/$defs/bagg\" not found: no key \"bagg\" (did you mean \"bag\"?)\n"
        "tests/fixtures/schema/missing_ref.schema.yaml:6:13: properties.c.$ref: $ref "
        "\"#/properties\" does not point at a schema\n"
        "tests/fixtures/schema/missing_ref.schema.yaml:7:13: properties.d.$ref: $ref "
        "\"https://example.com/s.json\": only local files can be referenced, not URIs\n"
        "tests/fixtures/schema/missing_ref.schema.yaml:8:13: properties.e.$ref: $ref \"#anchor\" "
        "not found: a fragment must be a JSON pointer such as #/$defs/name (anchors are not "
        "supported)");
}

static void test_ref_to_broken_file(void **st) {
    (void)st;
    cerr_clear(&errs);
    assert_null(schema_load(set, FIXTURE("schema/uses_broken.schema.yaml"), &errs));
    assert_int_equal(errs.n, 2);
    char *e1 = cerr_format(&errs.items[1]);
    assert_string_equal(e1, "tests/fixtures/schema/uses_broken.schema.yaml:2:7: $ref: $ref "
                            "\"broken_yaml.schema.yaml\": schema file "
                            "tests/fixtures/schema/broken_yaml.schema.yaml has errors");
    free(e1);
    assert_string_equal(errs.items[0].file, "tests/fixtures/schema/broken_yaml.schema.yaml");
}

static void test_ref_cycles_refused(void **st) {
    (void)st;
    assert_string_equal(refused("$ref: \"#\""),
                        "s.yaml:1:7: $ref: $ref \"#\" makes a cycle that never descends into the instance");
    assert_string_equal(refused("$defs:\n"
                                "  a: {$ref: \"#/$defs/b\"}\n"
                                "  b: {allOf: [{type: object}, {$ref: \"#/$defs/a\"}]}\n"),
                        "s.yaml:2:13: $defs.a.$ref: $ref \"#/$defs/b\" makes a cycle that never "
                        "descends into the instance");
    assert_string_equal(refused("$defs:\n"
                                "  a: {not: {anyOf: [{$ref: \"#/$defs/a\"}]}}\n"),
                        "s.yaml:2:28: $defs.a.not.anyOf[0].$ref: $ref \"#/$defs/a\" makes a cycle "
                        "that never descends into the instance");
}

static void test_ref_cycle_across_files(void **st) {
    (void)st;
    const char *cycle = "tests/fixtures/schema/cycle_b.schema.yaml:4:11: $defs.other.$ref: $ref "
                        "\"cycle_a.schema.yaml#/$defs/thing\" makes a cycle that never descends "
                        "into the instance";
    cerr_clear(&errs);
    assert_null(schema_load(set, FIXTURE("schema/cycle_b.schema.yaml"), &errs));
    assert_string_equal(errors(), cycle);
    /* cycle_a was loaded on the way and is just as bad: asking for it fails too */
    cerr_clear(&errs);
    assert_null(schema_load(set, FIXTURE("schema/cycle_a.schema.yaml"), &errs));
    assert_true(cerr_count(&errs) > 0);
    /* and asking for cycle_b again reports its error again */
    cerr_clear(&errs);
    assert_null(schema_load(set, FIXTURE("schema/cycle_b.schema.yaml"), &errs));
    assert_string_equal(errors(), cycle);
}

/* ------------------------------------------------ where $ref may lead */

static void test_ref_outside_refused_unread(void **st) {
    (void)st;
    /* the file exists and is readable, but is never opened: no "root:" quoted */
    assert_string_equal(refused("$ref: \"/etc/passwd\""),
                        "s.yaml:1:7: $ref: $ref \"/etc/passwd\": /etc/passwd is outside the folders "
                        "a schema may refer to (the ruleset's folders, or the schema's own folder, "
                        "and cairn's schemas folder)");
    /* with no folder given, a schema may reach its own folder and below, and
    ** cairn's schemas (the fallback): sub/ yes, ../ no */
    cerr_clear(&errs);
    assert_non_null(schema_load(set, FIXTURE("schema/carts.schema.yaml"), &errs));
    const char *up = "properties: {x: {$ref: \"../schema/confine/outside.schema.yaml\"}}";
    cerr_clear(&errs);
    assert_null(schema_load_string(set, "tests/fixtures/yaml/up.yaml", up, strlen(up), &errs));
    assert_string_equal(errors(),
                        "tests/fixtures/yaml/up.yaml:1:24: properties.x.$ref: $ref "
                        "\"../schema/confine/outside.schema.yaml\": "
                        "tests/fixtures/schema/confine/outside.schema.yaml is outside the folders a "
                        "schema may refer to (the ruleset's folders, or the schema's own folder, and "
                        "cairn's schemas folder)");
    /* once the folder is allowed, the same $ref loads */
    assert_int_equal(schema_set_allow_dir(set, "tests/fixtures/schema"), 0);
    cerr_clear(&errs);
    const value *s = schema_load_string(set, "tests/fixtures/yaml/up2.yaml", up, strlen(up), &errs);
    if (!s) fail_msg("%s", errors());
    assert_string_equal(validate(s, "{x: 1}"), "");
    assert_string_equal(validate(s, "{x: a}"), "i.yaml:1:5: x: expected integer, got string \"a\"");
}

/* realpath is applied before the check: a symlink inside the allowed folder
** that points out of it is refused as if the $ref named its target. */
static void test_ref_symlink_out_refused(void **st) {
    (void)st;
    char tmpl[] = "/tmp/cairn-schema-XXXXXX";
    char *dir = mkdtemp(tmpl);
    assert_non_null(dir);
    char outside[4096], link[4200], main_schema[4200];
    assert_non_null(realpath(FIXTURE("schema/confine/outside.schema.yaml"), outside));
    snprintf(link, sizeof link, "%s/link.schema.yaml", dir);
    snprintf(main_schema, sizeof main_schema, "%s/main.schema.yaml", dir);
    assert_int_equal(symlink(outside, link), 0);
    FILE *f = fopen(main_schema, "w");
    assert_non_null(f);
    fputs("items: {$ref: \"link.schema.yaml\"}\n", f);
    fclose(f);
    assert_int_equal(schema_set_allow_dir(set, dir), 0);
    cerr_clear(&errs);
    assert_null(schema_load(set, main_schema, &errs));
    assert_int_equal(errs.n, 1);
    assert_non_null(strstr(errs.items[0].message, "link.schema.yaml is outside the folders"));
    unlink(link);
    unlink(main_schema);
    rmdir(dir);
}

static ruleset *load_rs(const char *path) {
    ruleset_request req = {0};
    cerr_clear(&errs);
    return ruleset_load(path, &req, &errs);
}

/* cairn check and play: a data schema may $ref into its ruleset, the
** rulesets it extends and cairn's schemas folder, and nowhere else. */
static void test_ref_confined_to_ruleset_folders(void **st) {
    (void)st;
    ruleset *r = load_rs(FIXTURE("schema/confine/child"));
    if (!r) fail_msg("%s", errors());
    ruleset_free(r);
    assert_null(load_rs(FIXTURE("schema/confine/escape")));
    assert_string_equal(errors(),
                        "tests/fixtures/schema/confine/escape/schemas/things.schema.yaml:3:15: "
                        "items.$ref: $ref \"../../outside.schema.yaml\": "
                        "tests/fixtures/schema/confine/outside.schema.yaml is outside the folders a "
                        "schema may refer to (the ruleset's folders, or the schema's own folder, and "
                        "cairn's schemas folder)");
}

/* ------------------------------------------------------------ NUL bytes */

/* Policy: a map key holding a NUL is refused when the YAML is read (keys are
** C strings everywhere, and Lua refuses them too); string values may hold
** NULs, and every check on them (pattern, length, enum, const) uses their
** whole length. */
static void test_nul_keys_refused_at_load(void **st) {
    (void)st;
    cerr_list e;
    cerr_init(&e, 0);
    const char *text = "{\"a\\0b\": 1, ok: 2}";
    assert_null(yload_string("i.yaml", text, strlen(text), NULL, &e));
    char *msg = cerr_format(&e.items[0]);
    assert_string_equal(msg, "i.yaml:1:2: map key \"a\\x00b\" contains a NUL byte");
    free(msg);
    cerr_free(&e);
}

static void test_nul_in_strings_compared_by_length(void **st) {
    (void)st;
    /* "a\0b" is three characters; as a C string it would be "a" */
    const value *s = schema("pattern: \"^a$\"");
    assert_string_equal(validate(s, "\"a\\0b\""),
                        "i.yaml:1:1: expected string matching \"^a$\", got string \"a\\x00b\"");
    s = schema("pattern: \"^a\\\\x00b$\"");
    assert_string_equal(validate(s, "\"a\\0b\""), "");
    assert_string_equal(validate(s, "\"a\\0c\""),
                        "i.yaml:1:1: expected string matching \"^a\\\\x00b$\", got string \"a\\x00c\"");
    s = schema("pattern: \"^a\\0b$\""); /* a NUL in the pattern's own text is a character too */
    assert_string_equal(validate(s, "\"a\\0b\""), "");
    assert_string_equal(validate(s, "a"), "i.yaml:1:1: expected string matching \"^a\\x00b$\", got string \"a\"");
    s = schema("maxLength: 2");
    assert_string_equal(validate(s, "\"a\\0b\""),
                        "i.yaml:1:1: expected string of at most 2 characters, got string \"a\\x00b\"");
    s = schema("enum: [\"a\\0b\"]");
    assert_string_equal(validate(s, "\"a\\0b\""), "");
    assert_string_equal(validate(s, "\"a\\0c\""),
                        "i.yaml:1:1: expected one of \"a\\x00b\", got string \"a\\x00c\"");
    /* a schema may not name a key with a NUL */
    assert_string_equal(refused("required: [\"a\\0b\"]"),
                        "s.yaml:1:12: required[0]: a key name cannot contain a NUL byte");
}

/* A tree built in code can hold such a key; the validator refuses it
** rather than look it up as the shorter C string. */
static void test_nul_key_built_in_code(void **st) {
    (void)st;
    const value *s = schema("{properties: {a: {type: integer}}, additionalProperties: false}");
    value *m = value_map();
    value *k = value_strn("a\0b", 3), *v = value_str("x");
    assert_non_null(m);
    assert_non_null(k);
    assert_non_null(v);
    assert_int_equal(value_map_append(m, k, v), 0);
    cerr_clear(&errs);
    assert_int_equal(schema_validate(set, s, NULL, m, "", &errs), 1);
    assert_string_equal(errors(), "key \"a\\x00b\" contains a NUL byte");
    value_free(m);
}

/* --------------------------------------------- messages and reporting */

static void test_did_you_mean(void **st) {
    (void)st;
    const value *s = schema("{properties: {capacity: {}, colour: {}, id: {}},"
                            " additionalProperties: false}");
    assert_string_equal(validate(s, "{capcaity: 1}"), /* transposition */
                        "i.yaml:1:2: unknown key \"capcaity\" (did you mean \"capacity\"?)");
    assert_string_equal(validate(s, "{cpcity: 1}"), /* two edits */
                        "i.yaml:1:2: unknown key \"cpcity\" (did you mean \"capacity\"?)");
    assert_string_equal(validate(s, "{Colour: 1}"),
                        "i.yaml:1:2: unknown key \"Colour\" (did you mean \"colour\"?)");
    assert_string_equal(validate(s, "{weight: 1}"), "i.yaml:1:2: unknown key \"weight\"");
    /* too short to guess */
    assert_string_equal(validate(s, "{ix: 1}"), "i.yaml:1:2: unknown key \"ix\"");
}

static void test_every_error_reported(void **st) {
    (void)st;
    const value *s = schema("{properties: {a: {type: integer}, b: {type: string},"
                            " c: {enum: [x, y]}}}");
    assert_string_equal(validate(s, "a: one\nb: 2\nc: z\n"),
                        "i.yaml:1:4: a: expected integer, got string \"one\"\n"
                        "i.yaml:2:4: b: expected string, got integer 2\n"
                        "i.yaml:3:4: c: expected one of \"x\", \"y\", got string \"z\"");
    assert_int_equal(errs.n, 3);
}

static void test_error_cap(void **st) {
    (void)st;
    const value *s = schema("items: {type: integer}");
    value *v = instance("[a, b, c, d, e]");
    cerr_free(&errs);
    cerr_init(&errs, 2);
    assert_int_equal(schema_validate(set, s, NULL, v, "", &errs), 5);
    assert_int_equal(errs.n, 2);
    assert_int_equal(errs.dropped, 3);
    assert_string_equal(errors(), "i.yaml:1:2: [0]: expected integer, got string \"a\"\n"
                                  "i.yaml:1:5: [1]: expected integer, got string \"b\"");
    value_free(v);
}

static void test_root_path_and_odd_keys(void **st) {
    (void)st;
    const value *s = schema("additionalProperties: {type: integer}");
    assert_string_equal(validate_at(s, "{\"a b\": x}", "data"),
                        "i.yaml:1:9: data[\"a b\"]: expected integer, got string \"x\"");
    assert_string_equal(validate_at(s, "{\"a b\": x}", NULL),
                        "i.yaml:1:9: [\"a b\"]: expected integer, got string \"x\"");
}

static void test_instance_built_in_code(void **st) {
    (void)st;
    const value *s = schema("properties: {a: {type: integer}}");
    value *m = value_map();
    assert_non_null(m);
    assert_int_equal(value_map_set(m, "a", value_str("x")), 0);
    cerr_clear(&errs);
    assert_int_equal(schema_validate(set, s, NULL, m, "g.state", &errs), 1);
    assert_string_equal(errors(), "g.state.a: expected integer, got string \"x\"");
    value_free(m);
}

/* Game state built in code has no YAML depth limit; schema recursion stops
** at CAIRN_SCHEMA_MAX_DEPTH with an error instead of exhausting the stack. */
static void test_depth_guard(void **st) {
    (void)st;
    const value *s = schema("{type: array, items: {$ref: \"#\"}}");
    value *root = value_list();
    assert_non_null(root);
    value *cur = root;
    for (int i = 0; i < CAIRN_SCHEMA_MAX_DEPTH + 10; i++) {
        value *next = value_list();
        assert_non_null(next);
        assert_int_equal(value_list_push(cur, next), 0);
        cur = next;
    }
    cerr_clear(&errs);
    assert_int_equal(schema_validate(set, s, NULL, root, "", &errs), 1);
    assert_string_equal(errs.items[0].message, "schema nesting too deep here");
    value_free(root);
}

/* ------------------------------------------------------- the set's API */

static void test_load_cache_and_fragments(void **st) {
    (void)st;
    cerr_clear(&errs);
    const value *c1 = schema_load(set, "schemas/components.schema.yaml", &errs);
    if (!c1) fail_msg("%s", errors());
    assert_ptr_equal(schema_load(set, "schemas/../schemas/components.schema.yaml", &errs), c1);
    const value *bag = schema_load(set, "schemas/components.schema.yaml#/$defs/bag", &errs);
    assert_ptr_equal(bag, value_map_get(value_map_get(c1, "$defs"), "bag"));
    assert_int_equal(cerr_count(&errs), 0);
    assert_null(schema_load(set, "schemas/components.schema.yaml#/$defs/bga", &errs));
    assert_string_equal(errors(), "schemas/components.schema.yaml: \"#/$defs/bga\" not found: "
                                  "no key \"bga\" (did you mean \"bag\"?)");
    cerr_clear(&errs);
    assert_null(schema_load(set, "schemas/nope.schema.yaml", &errs));
    assert_string_equal(errors(), "schemas/nope.schema.yaml: cannot read schema file: No such "
                                  "file or directory");
}

static void test_validate_by_path(void **st) {
    (void)st;
    value *v = instance("{contents: {salt: 3, Tea: 2, jade: -1}}");
    cerr_clear(&errs);
    assert_int_equal(schema_validate(set, NULL, "schemas/components.schema.yaml#/$defs/bag", v,
                                     "bags.village", &errs),
                     2);
    assert_string_equal(errors(),
                        "i.yaml:1:22: bags.village.contents: key \"Tea\": expected string matching "
                        "\"^[a-z][a-z0-9_-]*$\", got string \"Tea\"\n"
                        "i.yaml:1:36: bags.village.contents.jade: expected integer >= 0, got integer -1");
    value_free(v);
}

static void test_foreign_schema_refused(void **st) {
    (void)st;
    value *sch = value_map();
    value *v = value_int(1);
    assert_non_null(sch);
    assert_non_null(v);
    cerr_clear(&errs);
    assert_int_equal(schema_validate(set, sch, NULL, v, "", &errs), 1);
    assert_string_equal(errors(), "schema_validate: the schema was not loaded by this schema set");
    value_free(sch);
    value_free(v);
}

/* Every example in components.schema.yaml is valid against its definition,
** and typical mistakes get the expected messages. */
static void test_components(void **st) {
    (void)st;
    cerr_clear(&errs);
    const value *c = schema_load(set, "schemas/components.schema.yaml", &errs);
    if (!c) fail_msg("%s", errors());
    const value *defs = value_map_get(c, "$defs");
    assert_non_null(defs);
    const char *expect[] = {"id", "count", "bag", "deck", "track", "grid_board", "graph_board",
                            "dice", "supply"};
    for (size_t i = 0; i < sizeof expect / sizeof expect[0]; i++) {
        const value *d = value_map_get(defs, expect[i]);
        if (!d) fail_msg("no $defs.%s", expect[i]);
        assert_non_null(value_get_str(d, "description", NULL));
    }
    size_t examples = 0;
    for (size_t i = 0; i < defs->u.map.n; i++) {
        const value *d = defs->u.map.items[i].val;
        const value *ex = value_map_get(d, "examples");
        for (size_t j = 0; ex && j < ex->u.list.n; j++) {
            cerr_clear(&errs);
            if (schema_validate(set, d, NULL, ex->u.list.items[j], "", &errs))
                fail_msg("example %zu of %s: %s", j, defs->u.map.items[i].key->u.str.s, errors());
            examples++;
        }
    }
    assert_true(examples >= 9);

    const value *deck = value_map_get(defs, "deck");
    assert_string_equal(validate(deck, "{cards: [monsoon, {id: avalanche, count: 0}], face: sideways}"),
                        "i.yaml:1:42: cards[1].count: expected integer >= 1, got integer 0\n"
                        "i.yaml:1:53: face: expected one of \"down\", \"up\", got string \"sideways\"");
    const value *graph = value_map_get(defs, "graph_board");
    assert_string_equal(validate(graph, "{nodes: {a: {}, b: {}}, edges: [[a], [a, b, c], {from: a}]}"),
                        "i.yaml:1:33: edges[0]: expected list of exactly 2 items, got a list of 1 item\n"
                        "i.yaml:1:38: edges[1]: expected list of exactly 2 items, got a list of 3 items\n"
                        "i.yaml:1:49: edges[2]: missing required key \"to\"");
    const value *supply = value_map_get(defs, "supply");
    assert_string_equal(validate(supply, "{yak: 3, coin: unlimited, tea: lots}"),
                        "i.yaml:1:32: tea: matches none of: integer >= 0, \"unlimited\"; got string \"lots\"");
    const value *grid = value_map_get(defs, "grid_board");
    assert_string_equal(validate(grid, "{rows: 1, cols: 2, cells: [[grass, 3]]}"),
                        "i.yaml:1:36: cells[0][1]: matches none of: id (expected string), null; got integer 3");
}

/* The shipped yak schemas use contains (one row per seat count) and
** unevaluatedProperties (special stones extend the piece). */
static void test_yak_stones_schema(void **st) {
    (void)st;
    cerr_clear(&errs);
    const value *s = schema_load(set, "rulesets/yak/schemas/stones.schema.yaml", &errs);
    if (!s) fail_msg("%s", errors());
    const char *good = "colours: [{id: red, letter: r, markup: [red]}]\n"
                       "per_colour: 9\n"
                       "colours_by_seats: [{seats: 2, colours: 6}, {seats: 3, colours: 7}, {seats: 4, colours: 8}]\n"
                       "crystal: {id: crystal, letter: \"*\", markup: [bold], count: 8}\n"
                       "fog: {id: fog, letter: \"~\", markup: [dim], count: 5}\n";
    assert_string_equal(validate(s, good), "");
    const char *bad = "colours: [{id: red, letter: r, markup: [red], count: 2}]\n"
                      "per_colour: 9\n"
                      "colours_by_seats: [{seats: 2, colours: 6}, {seats: 2, colours: 7}, {seats: 4, colours: 8}]\n"
                      "crystal: {id: crystal, lettre: \"*\", markup: [bold], count: 8}\n"
                      "fog: {id: fog, letter: \"~\", markup: [dim]}\n";
    assert_string_equal(validate(s, bad),
                        "i.yaml:1:47: colours[0]: unknown key \"count\"\n"
                        "i.yaml:3:19: colours_by_seats: expected list with exactly 1 item matching "
                        "{seats: 2}, got a list of 3 items (2 match: [0], [1])\n"
                        "i.yaml:3:19: colours_by_seats: expected list with exactly 1 item matching "
                        "{seats: 3}, got a list of 3 items (none matches)\n"
                        "i.yaml:4:24: crystal: unknown key \"lettre\" (did you mean \"letter\"?)\n"
                        "i.yaml:5:6: fog: missing required key \"count\"");
}

int main(void) {
    const struct CMUnitTest tests[] = {
#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)
        T(test_type),
        T(test_number_means_integer),
        T(test_const),
        T(test_enum),
        T(test_minimum_maximum),
        T(test_exclusive_bounds),
        T(test_multiple_of),
        T(test_length_counts_code_points),
        T(test_pattern_is_an_unanchored_search),
        T(test_properties_and_required),
        T(test_additional_properties_false),
        T(test_misspelt_required_key_is_one_error),
        T(test_additional_properties_schema),
        T(test_pattern_properties),
        T(test_property_names),
        T(test_min_max_properties),
        T(test_items),
        T(test_prefix_items),
        T(test_min_max_items),
        T(test_unique_items),
        T(test_all_of),
        T(test_any_of),
        T(test_one_of_scalars),
        T(test_one_of_discriminated_by_const),
        T(test_one_of_fewest_errors),
        T(test_any_of_says_why_each_branch_failed),
        T(test_not),
        T(test_contains),
        T(test_dependent_required),
        T(test_unevaluated_properties_extends),
        T(test_unevaluated_properties_annotations),
        T(test_if_then_else),
        T(test_boolean_schemas),
        T(test_annotations_accepted),
        T(test_ref_local),
        T(test_ref_recursion_that_descends),
        T(test_ref_across_files),
        T(test_ref_relative_to_referrer),
        T(test_unknown_keyword_refused),
        T(test_keyword_values_checked),
        T(test_bad_regex_refused),
        T(test_ref_targets_must_exist),
        T(test_ref_to_broken_file),
        T(test_ref_cycles_refused),
        T(test_ref_cycle_across_files),
        T(test_ref_outside_refused_unread),
        T(test_ref_symlink_out_refused),
        T(test_ref_confined_to_ruleset_folders),
        T(test_nul_keys_refused_at_load),
        T(test_nul_in_strings_compared_by_length),
        T(test_nul_key_built_in_code),
        T(test_did_you_mean),
        T(test_every_error_reported),
        T(test_error_cap),
        T(test_root_path_and_odd_keys),
        T(test_instance_built_in_code),
        T(test_depth_guard),
        T(test_load_cache_and_fragments),
        T(test_validate_by_path),
        T(test_foreign_schema_refused),
        T(test_components),
        T(test_yak_stones_schema),
#undef T
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
