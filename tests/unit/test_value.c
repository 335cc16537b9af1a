/*
** test_value.c
** The value tree: maps keep order and replace in place, clone and equality,
** hashing, the YAML dump (quoting) and the overlay deep merge.
*/
#include "testutil.h"
#include "value.h"
#include "yload.h"

static value *map2(const char *k1, value *v1, const char *k2, value *v2) {
    value *m = value_map();
    assert_non_null(m);
    assert_int_equal(value_map_set(m, k1, v1), 0);
    if (k2) assert_int_equal(value_map_set(m, k2, v2), 0);
    return m;
}

static value *ints(int n, const int64_t *xs) {
    value *l = value_list();
    for (int i = 0; i < n; i++) assert_int_equal(value_list_push(l, value_int(xs[i])), 0);
    return l;
}

static void test_map_order_and_replace(void **st) {
    (void)st;
    value *m = map2("b", value_int(1), "a", value_int(2));
    assert_int_equal(value_map_set(m, "b", value_int(7)), 0);
    /* replacing keeps the key's place: b first, a second */
    assert_string_equal(m->u.map.items[0].key->u.str.s, "b");
    assert_int_equal(value_get_int(m, "b", 0), 7);
    assert_int_equal(value_len(m), 2);
    assert_int_equal(value_map_del(m, "b"), 1);
    assert_int_equal(value_map_del(m, "b"), 0);
    assert_string_equal(m->u.map.items[0].key->u.str.s, "a");
    assert_int_equal(value_get_int(m, "missing", -5), -5);
    value_free(m);
}

static void test_clone_equal_hash(void **st) {
    (void)st;
    const int64_t xs[] = {1, 2, 3};
    value *a = map2("x", ints(3, xs), "y", value_str("hi"));
    value *b = value_clone(a);
    assert_true(value_equal(a, b, 1));
    assert_true(value_hash(a) == value_hash(b));
    value_map_get(b, "x")->u.list.items[2]->u.i = 4;
    assert_false(value_equal(a, b, 1));
    assert_true(value_hash(a) != value_hash(b));
    /* the same keys in another order: equal unordered, not ordered */
    value *c = map2("y", value_str("hi"), "x", ints(3, xs));
    assert_true(value_equal(a, c, 0));
    assert_false(value_equal(a, c, 1));
    /* int 1 and string "1" differ */
    value *i1 = value_int(1), *s1 = value_str("1");
    assert_false(value_equal(i1, s1, 1));
    assert_true(value_hash(i1) != value_hash(s1));
    value_free(i1);
    value_free(s1);
    value_free(a);
    value_free(b);
    value_free(c);
}

static void test_locations_survive_clone(void **st) {
    (void)st;
    cv_file *f = cv_file_new("rulesets/x/a.yaml");
    value *v = value_int(3);
    value_set_loc(v, f, 12, 5);
    cv_file_unref(f); /* the node keeps its own reference */
    value *c = value_clone(v);
    assert_string_equal(c->file->name, "rulesets/x/a.yaml");
    assert_int_equal(c->line, 12);
    assert_int_equal(c->col, 5);
    value_free(v);
    value_free(c);
}

static void test_dump_yaml_quoting(void **st) {
    (void)st;
    value *m = value_map();
    value_map_set(m, "plain", value_str("meat"));
    value_map_set(m, "looks_bool", value_str("true"));
    value_map_set(m, "looks_int", value_str("42"));
    value_map_set(m, "colon", value_str("a: b"));
    value_map_set(m, "empty", value_str(""));
    value_map_set(m, "n", value_int(-3));
    value_map_set(m, "nothing", value_null());
    value_map_set(m, "list", value_list());
    char *s = value_to_yaml(m);
    assert_string_equal(s,
                        "plain: meat\n"
                        "looks_bool: \"true\"\n"
                        "looks_int: \"42\"\n"
                        "colon: \"a: b\"\n"
                        "empty: \"\"\n"
                        "\"n\": -3\n" /* y/n are booleans to YAML 1.1 readers */
                        "nothing: null\n"
                        "list: []\n");
    free(s);
    value_free(m);
}

/* Every word a YAML 1.1 reader (PyYAML) takes for a boolean, a null or a
** value key is quoted; words that are none of these in any YAML stay plain. */
static void test_dump_yaml_1_1_words(void **st) {
    (void)st;
    static const char *const quoted[] = {"YES", "Yes", "yes", "NO", "No", "no", "ON", "On", "on", "OFF", "Off",
                                         "off", "Y", "y", "N", "n", "TRUE", "False", "NULL", "=", "~", NULL};
    static const char *const plain[] = {"yES", "nO", "oN", "Yak", "none", "onion", NULL};
    for (int i = 0; quoted[i]; i++) {
        value *v = value_str(quoted[i]);
        char *s = value_to_yaml(v);
        char want[16];
        snprintf(want, sizeof want, "\"%s\"\n", quoted[i]);
        assert_string_equal(s, want);
        free(s);
        value_free(v);
    }
    for (int i = 0; plain[i]; i++) {
        value *v = value_str(plain[i]);
        char *s = value_to_yaml(v);
        char want[16];
        snprintf(want, sizeof want, "%s\n", plain[i]);
        assert_string_equal(s, want);
        free(s);
        value_free(v);
    }
}

static void test_dump_nested(void **st) {
    (void)st;
    const int64_t xs[] = {1, 2};
    value *inner = map2("a", value_int(1), "b", ints(2, xs));
    value *l = value_list();
    value_list_push(l, inner);
    value_list_push(l, value_str("x"));
    value *m = map2("items", l, NULL, NULL);
    char *s = value_to_yaml(m);
    assert_string_equal(s,
                        "items:\n"
                        "- a: 1\n"
                        "  b:\n"
                        "  - 1\n"
                        "  - 2\n"
                        "- x\n");
    free(s);
    value_free(m);
}

static void test_merge(void **st) {
    (void)st;
    /* base: {carts: {north: 4, south: 4}, list: [1, 2], keep: 1} */
    const int64_t xs[] = {1, 2}, ys[] = {9}, zs[] = {3};
    value *base = map2("carts", map2("north", value_int(4), "south", value_int(4)), "list",
                       ints(2, xs));
    value_map_set(base, "keep", value_int(1));
    value_map_set(base, "more", ints(2, xs));
    /* overlay: {carts: {north: 6}, list: [9], more: {append: [3]}, new: "n"} */
    value *ov = map2("carts", map2("north", value_int(6), NULL, NULL), "list", ints(1, ys));
    value_map_set(ov, "more", map2("append", ints(1, zs), NULL, NULL));
    value_map_set(ov, "new", value_str("n"));
    assert_int_equal(value_merge(base, ov), 0);
    value *carts = value_map_get(base, "carts");
    assert_int_equal(value_get_int(carts, "north", 0), 6); /* merged */
    assert_int_equal(value_get_int(carts, "south", 0), 4); /* kept */
    value *list = value_map_get(base, "list");
    assert_int_equal(value_len(list), 1);                  /* replaced */
    assert_int_equal(list->u.list.items[0]->u.i, 9);
    value *more = value_map_get(base, "more");
    assert_int_equal(value_len(more), 3);                  /* 1, 2 + 3 appended */
    assert_int_equal(more->u.list.items[2]->u.i, 3);
    assert_int_equal(value_get_int(base, "keep", 0), 1);
    assert_string_equal(value_get_str(base, "new", ""), "n");
    value_free(base);
    value_free(ov);
}

static void test_describe(void **st) {
    (void)st;
    value *v = value_str("four");
    char *d = value_describe(v);
    assert_string_equal(d, "string \"four\"");
    free(d);
    value_free(v);
    v = value_int(-2);
    d = value_describe(v);
    assert_string_equal(d, "integer -2");
    free(d);
    value_free(v);
}

/* What the fuzzer found: strings YAML would fold, drop or misread unless the
** dump quotes and escapes them, and keys too long for YAML's implicit form.
** Each must read back as the same value. */
static void test_dump_round_trips_awkward_strings(void **st) {
    (void)st;
    static const char *const strs[] = {
        "a\xc2\x85" "b",       /* NEL: YAML folds it into a line break */
        "\xe2\x80\xa8",       /* LINE SEPARATOR */
        "x\xe2\x80\xa9y",     /* PARAGRAPH SEPARATOR */
        "\xef\xbb\xbfstart",  /* a leading byte-order mark is dropped by readers */
        "<<",                 /* plain, it is a merge key */
    };
    value *m = value_map();
    value *l = value_list();
    for (size_t i = 0; i < sizeof strs / sizeof strs[0]; i++) {
        assert_int_equal(value_list_push(l, value_str(strs[i])), 0);
        char key[8];
        snprintf(key, sizeof key, "k%zu", i);
        assert_int_equal(value_map_set(m, key, value_str(strs[i])), 0);
    }
    assert_int_equal(value_map_set(m, "<<", value_int(1)), 0);
    assert_int_equal(value_map_set(m, "list", l), 0);
    char longkey[1501];
    memset(longkey, 'k', 1500);
    longkey[1500] = '\0';
    assert_int_equal(value_map_set(m, longkey, value_int(7)), 0);
    longkey[0] = 'n';
    value *nested = value_map();
    assert_int_equal(value_map_set(nested, "a", value_int(1)), 0);
    assert_int_equal(value_map_set(m, longkey, nested), 0);
    char *text = value_to_yaml(m);
    assert_non_null(text);
    cerr_list errs;
    cerr_init(&errs, 0);
    value *back = yload_string("dump", text, strlen(text), NULL, &errs);
    if (!back) cerr_print(stderr, &errs);
    assert_non_null(back);
    assert_true(value_equal(m, back, 1));
    cerr_free(&errs);
    value_free(back);
    free(text);
    value_free(m);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_map_order_and_replace),
        cmocka_unit_test(test_clone_equal_hash),
        cmocka_unit_test(test_locations_survive_clone),
        cmocka_unit_test(test_dump_yaml_quoting),
        cmocka_unit_test(test_dump_yaml_1_1_words),
        cmocka_unit_test(test_dump_nested),
        cmocka_unit_test(test_merge),
        cmocka_unit_test(test_describe),
        cmocka_unit_test(test_dump_round_trips_awkward_strings),
    };
    return cmocka_run_group_tests_name("value", tests, NULL, NULL);
}
