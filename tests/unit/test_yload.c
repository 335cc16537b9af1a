/*
** test_yload.c
** The YAML loader: tree shapes and locations, scalar resolution, keys,
** anchors and merges, every limit, and every way a file can be refused.
** Expected lines and columns are counted by hand from the text shown.
*/
#include "testutil.h"

#include "error.h"
#include "value.h"
#include "yload.h"

#include <inttypes.h>
#include <stdio.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* ------------------------------------------------------------- helpers */

static cerr_list errs;

static int setup(void **state) {
    (void)state;
    cerr_init(&errs, 0);
    return 0;
}

static int teardown(void **state) {
    (void)state;
    cerr_free(&errs);
    return 0;
}

static value *load(const char *text, const yload_limits *lim) {
    return yload_string("t.yaml", text, strlen(text), lim, &errs);
}

/* Loads text that must succeed; prints the errors when it does not. */
static value *load_ok(const char *text, const yload_limits *lim) {
    value *v = load(text, lim);
    if (!v) {
        cerr_print(stderr, &errs);
        fail_msg("expected %s to load", text);
    }
    return v;
}

static int streq(const char *a, const char *b) {
    if (!a || !b) return a == b;
    return strcmp(a, b) == 0;
}

/* Asserts error i is at line:col, has path (NULL: none) and a message
** containing every needle. */
static void check_error(size_t i, const char *file, int line, int col, const char *path,
                        const char *const *needles) {
    if (errs.n <= i) {
        cerr_print(stderr, &errs);
        fail_msg("expected an error #%zu", i);
    }
    const cairn_error *e = &errs.items[i];
    int ok = streq(e->file, file) && e->line == line && e->col == col && streq(e->path, path);
    for (const char *const *n = needles; ok && *n; n++) ok = strstr(e->message, *n) != NULL;
    if (!ok) {
        char *s = cerr_format(e);
        print_error("got: %s\nwanted %s:%d:%d path %s with:", s, file, line, col,
                    path ? path : "(none)");
        for (const char *const *n = needles; *n; n++) print_error(" [%s]", *n);
        print_error("\n");
        free(s);
        fail();
    }
}

#define NEEDLES(...) ((const char *const[]){__VA_ARGS__, NULL})

/* Loads text that must fail with (at least) one error; checks the first. */
static void expect_error(const char *text, const yload_limits *lim, int line, int col,
                         const char *path, const char *const *needles) {
    value *v = load(text, lim);
    if (v) {
        value_free(v);
        fail_msg("expected %s to be refused", text);
    }
    check_error(0, "t.yaml", line, col, path, needles);
}

static void assert_loc(const value *v, int line, int col) {
    assert_non_null(v);
    if (v->line != line || v->col != col)
        fail_msg("node at %d:%d, expected %d:%d", v->line, v->col, line, col);
}

static void assert_str(const value *v, const char *s) {
    assert_non_null(v);
    assert_int_equal(v->type, CV_STR);
    assert_string_equal(v->u.str.s, s);
}

static void assert_int(const value *v, int64_t i) {
    assert_non_null(v);
    assert_int_equal(v->type, CV_INT);
    assert_true(v->u.i == i);
}

static yload_limits small(long file, int depth, long str, long nodes) {
    yload_limits l = {file, depth, str, nodes};
    return l;
}

/* ------------------------------------------------ shapes and locations */

static void test_default_limits(void **state) {
    (void)state;
    yload_limits l;
    yload_default_limits(&l);
    assert_int_equal(l.max_file_bytes, 8L * 1024 * 1024);
    assert_int_equal(l.max_depth, 64);
    assert_int_equal(l.max_string, 64L * 1024);
    assert_int_equal(l.max_nodes, 250000L);
}

static void test_tree_and_locations(void **state) {
    (void)state;
    value *v = yload_file(FIXTURE("yaml/carts.yaml"), &errs);
    if (!v) cerr_print(stderr, &errs);
    assert_non_null(v);
    /* line 1 is a comment; the root map starts at its first key */
    assert_int_equal(v->type, CV_MAP);
    assert_loc(v, 2, 1);
    assert_int_equal(value_len(v), 2);
    assert_string_equal(v->file->name, "tests/fixtures/yaml/carts.yaml");

    /* "name: test carts": key at column 1, value after "name: " */
    cv_entry *name = &v->u.map.items[0];
    assert_str(name->key, "name");
    assert_loc(name->key, 2, 1);
    assert_str(name->val, "test carts");
    assert_loc(name->val, 2, 7);

    cv_entry *carts = &v->u.map.items[1];
    assert_str(carts->key, "carts");
    assert_loc(carts->key, 3, 1);
    value *list = carts->val;
    assert_int_equal(list->type, CV_LIST);
    assert_loc(list, 4, 3); /* a block list starts at its first "-" */
    assert_int_equal(value_len(list), 2);

    /* "  - id: yak": the item map starts at "id", column 5 */
    value *yak = list->u.list.items[0];
    assert_int_equal(yak->type, CV_MAP);
    assert_loc(yak, 4, 5);
    assert_loc(yak->u.map.items[0].key, 4, 5);
    assert_str(value_map_get(yak, "id"), "yak");
    assert_loc(value_map_get(yak, "id"), 4, 9);
    /* "    capacity: 4": key at 5, value at 5 + len("capacity: ") = 15 */
    assert_loc(yak->u.map.items[1].key, 5, 5);
    assert_int(value_map_get(yak, "capacity"), 4);
    assert_loc(value_map_get(yak, "capacity"), 5, 15);

    /* "    tags: [slow, sure]": [ at 11, slow at 12, sure at 18 */
    value *mule = list->u.list.items[1];
    assert_loc(mule, 6, 5);
    value *tags = value_map_get(mule, "tags");
    assert_int_equal(tags->type, CV_LIST);
    assert_loc(tags, 8, 11);
    assert_loc(mule->u.map.items[2].key, 8, 5);
    assert_str(tags->u.list.items[0], "slow");
    assert_loc(tags->u.list.items[0], 8, 12);
    assert_str(tags->u.list.items[1], "sure");
    assert_loc(tags->u.list.items[1], 8, 18);

    /* every node shares the one file record */
    assert_ptr_equal(tags->u.list.items[1]->file, v->file);
    assert_ptr_equal(yak->u.map.items[0].key->file, v->file);
    value_free(v);
}

static void test_flow_and_nested_lists(void **state) {
    (void)state;
    /* columns: "- [a, [b, c]]" -> "[" 3, a 4, "[" 7, b 8, c 11 */
    value *v = load_ok("- [a, [b, c]]\n- {k: v}\n", NULL);
    assert_int_equal(v->type, CV_LIST);
    assert_loc(v, 1, 1);
    value *outer = v->u.list.items[0];
    assert_loc(outer, 1, 3);
    assert_loc(outer->u.list.items[0], 1, 4);
    value *inner = outer->u.list.items[1];
    assert_loc(inner, 1, 7);
    assert_loc(inner->u.list.items[1], 1, 11);
    assert_str(inner->u.list.items[1], "c");
    /* "- {k: v}": map at 3, key k at 4, value v at 7 */
    value *m = v->u.list.items[1];
    assert_loc(m, 2, 3);
    assert_loc(m->u.map.items[0].key, 2, 4);
    assert_loc(m->u.map.items[0].val, 2, 7);
    value_free(v);
}

static void test_map_keeps_order(void **state) {
    (void)state;
    value *v = load_ok("z: 1\na: 2\nm: 3\n", NULL);
    assert_string_equal(v->u.map.items[0].key->u.str.s, "z");
    assert_string_equal(v->u.map.items[1].key->u.str.s, "a");
    assert_string_equal(v->u.map.items[2].key->u.str.s, "m");
    value_free(v);
}

/* -------------------------------------------------------------- scalars */

static void test_nulls(void **state) {
    (void)state;
    value *v = load_ok("a: null\nb: Null\nc: NULL\nd: ~\ne:\nf: \"\"\ng: 'null'\n", NULL);
    const char *nulls[] = {"a", "b", "c", "d", "e"};
    for (size_t i = 0; i < 5; i++) assert_int_equal(value_map_get(v, nulls[i])->type, CV_NULL);
    assert_str(value_map_get(v, "f"), ""); /* quoted: always a string */
    assert_str(value_map_get(v, "g"), "null");
    value_free(v);
}

static void test_booleans(void **state) {
    (void)state;
    value *v = load_ok("[true, True, TRUE, false, False, FALSE, yes, no, tRUE, \"true\"]", NULL);
    for (size_t i = 0; i < 3; i++) {
        assert_int_equal(v->u.list.items[i]->type, CV_BOOL);
        assert_int_equal(v->u.list.items[i]->u.b, 1);
    }
    for (size_t i = 3; i < 6; i++) {
        assert_int_equal(v->u.list.items[i]->type, CV_BOOL);
        assert_int_equal(v->u.list.items[i]->u.b, 0);
    }
    /* YAML 1.1's yes/no are strings under the 1.2 core schema */
    assert_str(v->u.list.items[6], "yes");
    assert_str(v->u.list.items[7], "no");
    assert_str(v->u.list.items[8], "tRUE");
    assert_str(v->u.list.items[9], "true");
    value_free(v);
}

static void test_integers(void **state) {
    (void)state;
    value *v = load_ok("[0, 42, -7, +5, 007, 0x1F, 0xff, 0o17, -0x10, 0x, 1_000, '12', 12a]", NULL);
    assert_int(v->u.list.items[0], 0);
    assert_int(v->u.list.items[1], 42);
    assert_int(v->u.list.items[2], -7);
    assert_int(v->u.list.items[3], 5);
    assert_int(v->u.list.items[4], 7);   /* leading zeros: still decimal */
    assert_int(v->u.list.items[5], 31);  /* 0x1F = 16 + 15 */
    assert_int(v->u.list.items[6], 255);
    assert_int(v->u.list.items[7], 15);  /* 0o17 = 8 + 7 */
    assert_int(v->u.list.items[8], -16);
    assert_str(v->u.list.items[9], "0x"); /* no digits */
    assert_str(v->u.list.items[10], "1_000");
    assert_str(v->u.list.items[11], "12"); /* quoted */
    assert_str(v->u.list.items[12], "12a");
    value_free(v);
}

static void test_int64_bounds(void **state) {
    (void)state;
    value *v = load_ok("max: 9223372036854775807\nmin: -9223372036854775808\n"
                       "hexmax: 0x7fffffffffffffff\n",
                       NULL);
    assert_int(value_map_get(v, "max"), INT64_MAX);
    assert_int(value_map_get(v, "min"), INT64_MIN);
    assert_int(value_map_get(v, "hexmax"), INT64_MAX);
    value_free(v);

    /* one past each end; "big: " puts the value at column 6 */
    expect_error("big: 9223372036854775808\n", NULL, 1, 6, "big",
                 NEEDLES("\"9223372036854775808\"", "out of range", "-9223372036854775808",
                         "9223372036854775807"));
    cerr_clear(&errs);
    expect_error("small: -9223372036854775809\n", NULL, 1, 8, "small",
                 NEEDLES("\"-9223372036854775809\"", "out of range"));
    cerr_clear(&errs);
    expect_error("- 0x8000000000000000\n", NULL, 1, 3, "[0]",
                 NEEDLES("\"0x8000000000000000\"", "out of range"));
}

static void test_floats_refused(void **state) {
    (void)state;
    const char *floats[] = {"1.5", "-2.0", "1.", ".5", "1e3", "2E-4", ".inf", "-.Inf", ".nan",
                            "+.INF", ".NaN"};
    for (size_t i = 0; i < sizeof floats / sizeof floats[0]; i++) {
        char text[64];
        snprintf(text, sizeof text, "x: %s\n", floats[i]);
        cerr_clear(&errs);
        expect_error(text, NULL, 1, 4, "x",
                     NEEDLES("floats are not allowed (cairn state is integers only); quote it "
                             "if you meant a string"));
    }
    /* not floats: quoted, version-like, a bare dot or a word with an e */
    cerr_clear(&errs);
    value *v = load_ok("[\"1.5\", 1.2.3, ., e5, 1e, .infinity]", NULL);
    assert_str(v->u.list.items[0], "1.5");
    assert_str(v->u.list.items[1], "1.2.3");
    assert_str(v->u.list.items[2], ".");
    assert_str(v->u.list.items[3], "e5");
    assert_str(v->u.list.items[4], "1e");
    assert_str(v->u.list.items[5], ".infinity");
    value_free(v);
}

static void test_quoted_and_block_strings(void **state) {
    (void)state;
    value *v = load_ok("a: \"12\"\nb: 'true'\nc: |\n  line one\n  2\nd: >-\n  folded\n  text\n"
                       "e: \"nul\\0byte\"\n",
                       NULL);
    assert_str(value_map_get(v, "a"), "12");
    assert_str(value_map_get(v, "b"), "true");
    assert_str(value_map_get(v, "c"), "line one\n2\n");
    assert_str(value_map_get(v, "d"), "folded text");
    value *e = value_map_get(v, "e");
    assert_int_equal(e->type, CV_STR);
    assert_int_equal(e->u.str.len, 8); /* "nul" NUL "byte" */
    assert_memory_equal(e->u.str.s, "nul\0byte", 8);
    value_free(v);
}

static void test_tags(void **state) {
    (void)state;
    value *v = load_ok("a: !!str 12\nb: !!int \"12\"\nc: !!bool 'true'\nd: !!null ''\n"
                       "e: ! 12\nf: !!map {k: 1}\ng: !!seq [1]\n",
                       NULL);
    assert_str(value_map_get(v, "a"), "12");
    assert_int(value_map_get(v, "b"), 12);
    assert_int_equal(value_map_get(v, "c")->type, CV_BOOL);
    assert_int_equal(value_map_get(v, "d")->type, CV_NULL);
    assert_str(value_map_get(v, "e"), "12"); /* the non-specific tag: a string */
    assert_int_equal(value_map_get(v, "f")->type, CV_MAP);
    assert_int_equal(value_map_get(v, "g")->type, CV_LIST);
    value_free(v);

    expect_error("a: !!int seven\n", NULL, 1, 4, "a",
                 NEEDLES("\"seven\" is not an integer", "!!int"));
    cerr_clear(&errs);
    expect_error("a: !color red\n", NULL, 1, 4, "a", NEEDLES("tag !color", "a scalar"));
    cerr_clear(&errs);
    expect_error("a: !!float 2\n", NULL, 1, 4, "a", NEEDLES("floats are not allowed"));
    cerr_clear(&errs);
    expect_error("a: !!str [1]\n", NULL, 1, 4, "a", NEEDLES("tag !!str", "a list"));
}

/* ----------------------------------------------------------------- keys */

static void test_keys_are_strings(void **state) {
    (void)state;
    value *v = load_ok("3: three\ntrue: yes\n~: tilde\n0x10: hex\n\"q\": quoted\n", NULL);
    /* keys keep the text as written */
    assert_str(v->u.map.items[0].key, "3");
    assert_str(v->u.map.items[1].key, "true");
    assert_str(v->u.map.items[2].key, "~");
    assert_str(v->u.map.items[3].key, "0x10");
    assert_str(v->u.map.items[4].key, "q");
    assert_loc(v->u.map.items[4].key, 5, 1);
    assert_str(value_map_get(v, "3"), "three");
    value_free(v);
}

static void test_duplicate_keys(void **state) {
    (void)state;
    value *v = yload_file(FIXTURE("yaml/duplicate_key.yaml"), &errs);
    assert_null(v);
    /* capacity first at line 5, again at line 7 column 5, inside carts[0] */
    check_error(0, "tests/fixtures/yaml/duplicate_key.yaml", 7, 5, "carts[0]",
                NEEDLES("duplicate key \"capacity\" (first at line 5)"));
    assert_int_equal(cerr_count(&errs), 1);

    cerr_clear(&errs);
    expect_error("a: 1\nb: 2\na: 3\n", NULL, 3, 1, NULL,
                 NEEDLES("duplicate key \"a\" (first at line 1)"));
    /* `3` and `"3"` are the same key once loaded */
    cerr_clear(&errs);
    expect_error("3: x\n\"3\": y\n", NULL, 2, 1, NULL,
                 NEEDLES("duplicate key \"3\" (first at line 1)"));
}

static void test_duplicate_in_large_map(void **state) {
    (void)state;
    /* 5000 keys grow the key index many times; the repeat of k1234 on the
    ** last line must still be found, with the first occurrence's line:
    ** k0 is on line 1, so k1234 is on line 1235. */
    size_t cap = 5001 * 16;
    char *text = malloc(cap);
    assert_non_null(text);
    size_t n = 0;
    for (int i = 0; i < 5000; i++) n += (size_t)snprintf(text + n, cap - n, "k%d: %d\n", i, i);
    snprintf(text + n, cap - n, "k1234: again\n");
    expect_error(text, NULL, 5001, 1, NULL,
                 NEEDLES("duplicate key \"k1234\" (first at line 1235)"));
    free(text);
}

static void test_non_scalar_keys(void **state) {
    (void)state;
    expect_error("[a, b]: 1\n", NULL, 1, 1, NULL, NEEDLES("map keys must be scalars, got a list"));
    cerr_clear(&errs);
    expect_error("x:\n  ? {a: 1}\n  : 2\n", NULL, 2, 5, "x",
                 NEEDLES("map keys must be scalars, got a map"));
}

/* ------------------------------------------------------ anchors, aliases */

static void test_aliases(void **state) {
    (void)state;
    value *v = load_ok("base: &b\n  speed: 2\n  tags: [x]\ncopy: *b\nn: &n 7\nm: *n\n", NULL);
    value *base = value_map_get(v, "base");
    value *copy = value_map_get(v, "copy");
    assert_true(value_equal(base, copy, 1));
    assert_ptr_not_equal(base, copy); /* a deep copy, not shared */
    assert_ptr_not_equal(value_map_get(base, "tags"), value_map_get(copy, "tags"));
    /* the copy's root sits at the alias ("copy: " -> column 7); the nodes
    ** below keep the anchor's lines, where their text is */
    assert_loc(copy, 4, 7);
    assert_loc(value_map_get(copy, "speed"), 2, 10);
    assert_int(value_map_get(v, "m"), 7);
    assert_loc(value_map_get(v, "m"), 6, 4);
    value_free(v);
}

static void test_alias_as_key(void **state) {
    (void)state;
    /* an alias to the integer 3 used as a key gives the key "3" */
    value *v = load_ok("n: &n 3\nk: &k name\nm:\n  *n : three\n  *k : named\n", NULL);
    value *m = value_map_get(v, "m");
    assert_str(m->u.map.items[0].key, "3");
    assert_str(m->u.map.items[1].key, "name");
    assert_loc(m->u.map.items[1].key, 5, 3);
    value_free(v);
    expect_error("l: &l [1]\nm:\n  *l : x\n", NULL, 3, 3, "m",
                 NEEDLES("map keys must be scalars, got a list"));
}

static void test_anchor_redefined_and_refused_values(void **state) {
    (void)state;
    /* a later anchor of the same name wins from there on */
    value *v = load_ok("a: &x 1\nb: *x\nc: &x 2\nd: *x\n", NULL);
    assert_int(value_map_get(v, "b"), 1);
    assert_int(value_map_get(v, "d"), 2);
    value_free(v);
    /* an anchor inside a refused duplicate's value stays usable, so the
    ** only error is the duplicate itself */
    expect_error("a: 1\na: &x [1]\nb: *x\n", NULL, 2, 1, NULL,
                 NEEDLES("duplicate key \"a\" (first at line 1)"));
    assert_int_equal(cerr_count(&errs), 1);
}

static void test_unknown_alias(void **state) {
    (void)state;
    expect_error("a: *nowhere\n", NULL, 1, 4, "a", NEEDLES("unknown anchor *nowhere"));
    /* an alias inside its own anchor's node is refused the same way */
    cerr_clear(&errs);
    expect_error("a: &r [1, *r]\n", NULL, 1, 11, "a[1]", NEEDLES("unknown anchor *r"));
}

static void test_merge_precedence(void **state) {
    (void)state;
    value *v = yload_file(FIXTURE("yaml/merge.yaml"), &errs);
    if (!v) cerr_print(stderr, &errs);
    assert_non_null(v);
    /* ox: name, then the merged entries where << stood (heavy's first,
    ** then what defaults adds), then its own colour, which wins over
    ** defaults' grey even though it comes after the << */
    value *ox = value_map_get(v, "ox");
    assert_int_equal(value_len(ox), 4);
    assert_str(ox->u.map.items[0].key, "name");
    assert_str(ox->u.map.items[1].key, "capacity");
    assert_str(ox->u.map.items[2].key, "speed");
    assert_str(ox->u.map.items[3].key, "colour");
    assert_int(value_map_get(ox, "capacity"), 6); /* heavy wins over defaults */
    assert_int(value_map_get(ox, "speed"), 0);
    assert_str(value_map_get(ox, "colour"), "brown");
    /* merged entries keep the location of their text: heavy's capacity */
    assert_loc(value_map_get(ox, "capacity"), 6, 13);
    /* mule: speed 3 stays (explicit, before <<); capacity and colour come
    ** from defaults */
    value *mule = value_map_get(v, "mule");
    assert_int_equal(value_len(mule), 3);
    assert_int(value_map_get(mule, "speed"), 3);
    assert_int(value_map_get(mule, "capacity"), 2);
    assert_str(value_map_get(mule, "colour"), "grey");
    assert_null(value_map_get(mule, "<<"));
    /* the anchors themselves are untouched */
    assert_int_equal(value_len(value_map_get(v, "defaults")), 3);
    value_free(v);
}

static void test_merge_inline_and_quoted(void **state) {
    (void)state;
    value *v = load_ok("a:\n  <<: {x: 1, y: 2}\n  y: 3\nb:\n  \"<<\": literal\n", NULL);
    value *a = value_map_get(v, "a");
    assert_int_equal(value_len(a), 2);
    assert_int(value_map_get(a, "x"), 1);
    assert_int(value_map_get(a, "y"), 3);
    /* a quoted "<<" is an ordinary key */
    assert_str(value_map_get(value_map_get(v, "b"), "<<"), "literal");
    value_free(v);
}

static void test_merge_bad_values(void **state) {
    (void)state;
    expect_error("a:\n  <<: 5\n", NULL, 2, 7, "a",
                 NEEDLES("<< merge key takes a map or a list of maps, got an integer"));
    cerr_clear(&errs);
    /* "  <<: [*m, 2]": the 2 is at column 12 */
    expect_error("m: &m {x: 1}\na:\n  <<: [*m, 2]\n", NULL, 3, 12, "a",
                 NEEDLES("<< merge key takes a map or a list of maps",
                         "got a list holding an integer"));
    cerr_clear(&errs);
    expect_error("m: &m {x: 1}\na:\n  <<: *m\n  <<: *m\n", NULL, 4, 3, "a",
                 NEEDLES("duplicate key \"<<\" (first at line 3)"));
}

/* --------------------------------------------------------------- limits */

static void test_billion_laughs(void **state) {
    (void)state;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    value *v = yload_file(FIXTURE("yaml/billion_laughs.yaml"), &errs);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    assert_null(v);
    /* Counting the root map and keys too: a = 1 key + 1 list + 10 strings =
    ** 12 nodes (anchor size 11); b adds 2 + 10*11 = 112 (size 111); c 1112,
    ** d 11112, e 111112: 123461 with the root. f's key and list make
    ** 123463, its first *e 234574, and the second *e (line 9, column 11)
    ** would reach 345685. */
    check_error(0, "tests/fixtures/yaml/billion_laughs.yaml", 9, 11, "f[1]",
                NEEDLES("more than 250000 nodes", "CAIRN_YAML_MAX_NODES"));
    assert_int_equal(cerr_count(&errs), 1);
    /* refused before building anything; generous for sanitizer builds */
    double ms = (double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) / 1e6;
    assert_true(ms < 500.0);
}

static void test_node_limit_with_small_budget(void **state) {
    (void)state;
    yload_limits l;
    yload_default_limits(&l);
    l.max_nodes = 1000;
    value *v = yload_file_opts(FIXTURE("yaml/billion_laughs.yaml"), &l, &errs);
    assert_null(v);
    /* the root, a and b take 125 nodes, c's key and list 127; each *b adds
    ** 111, so the 7th ends at 904 and the 8th would make 1015. "c: &c ["
    ** puts the k-th *b at column 8 + 3(k-1): the 8th at 29, on line 6. */
    check_error(0, "tests/fixtures/yaml/billion_laughs.yaml", 6, 29, "c[7]",
                NEEDLES("more than 1000 nodes", "CAIRN_YAML_MAX_NODES"));

    /* without aliases: a list and 3 items is 4 nodes, a 4th item is 5 */
    yload_limits four = small(1000, 8, 100, 4);
    cerr_clear(&errs);
    v = load_ok("[1, 2, 3]", &four);
    value_free(v);
    expect_error("[1, 2, 3, 4]", &four, 1, 11, "[3]", NEEDLES("more than 4 nodes"));
}

static void test_node_limit_counts_merges(void **state) {
    (void)state;
    /* the root map 1; m's key, map, 2 keys and 2 values 6 more (anchor size
    ** 5): 7; a's key and map 9; the << key 10; merging *m is charged m's
    ** whole size, 5 -> 15 */
    yload_limits l = small(1000, 8, 100, 14);
    expect_error("m: &m {x: 1, y: 2}\na:\n  <<: *m\n", &l, 3, 7, "a.<<",
                 NEEDLES("more than 14 nodes"));
    cerr_clear(&errs);
    l.max_nodes = 15;
    value *v = load_ok("m: &m {x: 1, y: 2}\na:\n  <<: *m\n", &l);
    value_free(v);
}

static void test_depth_limit(void **state) {
    (void)state;
    yload_limits l = small(1000, 3, 100, 1000);
    value *v = load_ok("a: {b: [c]}\n", &l); /* map, map, list: 3 levels */
    value_free(v);
    /* the fourth level opens at the inner "[" (column 9) */
    expect_error("a: {b: [[c]]}\n", &l, 1, 9, "a.b[0]",
                 NEEDLES("nesting deeper than 3 levels (limit CAIRN_YAML_MAX_DEPTH)"));
    /* an alias may not smuggle in depth: x is 2 levels, placed 2 deep */
    cerr_clear(&errs);
    expect_error("x: &x [[1]]\ny:\n  z: *x\n", &l, 3, 6, "y.z",
                 NEEDLES("alias *x would nest deeper than 3 levels", "CAIRN_YAML_MAX_DEPTH"));
    cerr_clear(&errs);
    v = load_ok("x: &x [[1]]\ny: *x\n", &l);
    value_free(v);
}

static void test_deep_nesting_default(void **state) {
    (void)state;
    /* 65 nested flow lists: the 65th "[" (column 65) is one too many */
    char text[200], path[200];
    memset(text, '[', 65);
    memset(text + 65, ']', 65);
    text[130] = '\0';
    /* the path is the first item of each of the 64 open lists */
    for (int i = 0; i < 64; i++) memcpy(path + 3 * i, "[0]", 3);
    path[192] = '\0';
    expect_error(text, NULL, 1, 65, path,
                 NEEDLES("nesting deeper than 64 levels (limit CAIRN_YAML_MAX_DEPTH)"));
}

static void test_string_limit(void **state) {
    (void)state;
    yload_limits l = small(1000, 8, 5, 1000);
    value *v = load_ok("abcde: abcde\n", &l);
    value_free(v);
    expect_error("a: abcdef\n", &l, 1, 4, "a",
                 NEEDLES("string longer than 5 bytes (limit CAIRN_YAML_MAX_STRING)"));
    cerr_clear(&errs);
    expect_error("abcdef: 1\n", &l, 1, 1, NULL, NEEDLES("string longer than 5 bytes"));
}

static void test_file_size_limit(void **state) {
    (void)state;
    /* carts.yaml is 139 bytes */
    yload_limits l;
    yload_default_limits(&l);
    l.max_file_bytes = 139;
    value *v = yload_file_opts(FIXTURE("yaml/carts.yaml"), &l, &errs);
    if (!v) cerr_print(stderr, &errs);
    assert_non_null(v);
    value_free(v);
    l.max_file_bytes = 138;
    v = yload_file_opts(FIXTURE("yaml/carts.yaml"), &l, &errs);
    assert_null(v);
    check_error(0, "tests/fixtures/yaml/carts.yaml", 0, 0, NULL,
                NEEDLES("file larger than 138 bytes (limit CAIRN_YAML_MAX_FILE_BYTES)",
                        "139 bytes"));
    cerr_clear(&errs);
    yload_limits s = small(4, 8, 100, 100);
    assert_null(load("a: 12", &s));
    check_error(0, "t.yaml", 0, 0, NULL, NEEDLES("file larger than 4 bytes"));
}

/* -------------------------------------------------------- refused files */

static void test_bad_utf8(void **state) {
    (void)state;
    /* line 1 holds a valid "é"; line 2 "bad: ab" then 0xFF at column 8,
    ** byte 12 + 7 = 19 */
    value *v = yload_file(FIXTURE("yaml/bad_utf8.yaml"), &errs);
    assert_null(v);
    check_error(0, "tests/fixtures/yaml/bad_utf8.yaml", 2, 8, NULL,
                NEEDLES("invalid leading UTF-8 octet", "0xFF", "byte 19"));
    /* overlong "/" (C0 AF), a UTF-16 surrogate (ED A0 80), past U+10FFFF */
    cerr_clear(&errs);
    expect_error("a: \xc0\xaf\n", NULL, 1, 4, NULL, NEEDLES("UTF-8"));
    cerr_clear(&errs);
    expect_error("a: x\xed\xa0\x80\n", NULL, 1, 5, NULL, NEEDLES("invalid Unicode character"));
    cerr_clear(&errs);
    expect_error("a: \xf4\x90\x80\x80\n", NULL, 1, 4, NULL, NEEDLES("invalid Unicode character"));
    /* a truncated sequence at the end */
    cerr_clear(&errs);
    expect_error("a: \xc3", NULL, 1, 4, NULL, NEEDLES("UTF-8"));
    /* "é" counts as one column: the NUL after "é" is column 5 */
    cerr_clear(&errs);
    value *nul = yload_string("t.yaml", "a: \xc3\xa9\0", 6, NULL, &errs);
    assert_null(nul);
    check_error(0, "t.yaml", 1, 5, NULL, NEEDLES("control characters are not allowed"));
}

static void test_utf16_and_bom(void **state) {
    (void)state;
    /* UTF-16 is refused, not converted */
    value *v = yload_file(FIXTURE("yaml/utf16le.yaml"), &errs);
    assert_null(v);
    check_error(0, "tests/fixtures/yaml/utf16le.yaml", 1, 1, NULL, NEEDLES("UTF-8"));
    /* a UTF-8 byte-order mark is allowed and skipped */
    v = yload_file(FIXTURE("yaml/utf8_bom.yaml"), &errs);
    assert_non_null(v);
    assert_str(value_map_get(v, "name"), "bom");
    value_free(v);
}

static void test_syntax_error_location(void **state) {
    (void)state;
    /* the flow list opened at 1:4 is still open when "b" comes at 2:2 */
    expect_error("a: [1, 2\nb: 3\n", NULL, 2, 2, NULL,
                 NEEDLES("did not find expected ',' or ']'",
                         "while parsing a flow sequence at line 1, column 4"));
    cerr_clear(&errs);
    /* " c" is indented less than "b" */
    expect_error("a:\n  b: 1\n c: 2\n", NULL, 3, 2, NULL,
                 NEEDLES("did not find expected key", "line 1, column 1"));
    cerr_clear(&errs);
    expect_error("a: \"unterminated\n", NULL, 2, 1, NULL,
                 NEEDLES("found unexpected end of stream", "quoted scalar"));
}

static void test_empty_documents(void **state) {
    (void)state;
    const char *empties[] = {FIXTURE("yaml/empty.yaml"), FIXTURE("yaml/comment_only.yaml")};
    for (size_t i = 0; i < 2; i++) {
        value *v = yload_file(empties[i], &errs);
        assert_non_null(v);
        assert_int_equal(v->type, CV_NULL);
        value_free(v);
    }
    value *v = load_ok("---\n", NULL);
    assert_int_equal(v->type, CV_NULL);
    value_free(v);
    v = load_ok("", NULL);
    assert_int_equal(v->type, CV_NULL);
    value_free(v);
    assert_int_equal(cerr_count(&errs), 0);
}

static void test_one_document_only(void **state) {
    (void)state;
    value *v = yload_file(FIXTURE("yaml/two_documents.yaml"), &errs);
    assert_null(v);
    check_error(0, "tests/fixtures/yaml/two_documents.yaml", 2, 1, NULL,
                NEEDLES("second document", "exactly one document"));
    cerr_clear(&errs);
    expect_error("a: 1\n...\n--- b\n", NULL, 3, 1, NULL, NEEDLES("second document"));
    /* an explicit start and end marker around one document is fine */
    cerr_clear(&errs);
    v = load_ok("---\na: 1\n...\n", NULL);
    value_free(v);
}

static void test_error_path_and_several_errors(void **state) {
    (void)state;
    value *v = yload_file(FIXTURE("yaml/bad_capacity.yaml"), &errs);
    assert_null(v);
    /* "    capacity: 2.5" in the third cart: value at column 15 */
    check_error(0, "tests/fixtures/yaml/bad_capacity.yaml", 7, 15, "carts[2].capacity",
                NEEDLES("floats are not allowed"));
    /* loading goes on after a problem in the document and reports them all */
    cerr_clear(&errs);
    expect_error("a: 1.5\nb: 1\nb: 2\n\"odd key\": {c: .5}\n", NULL, 1, 4, "a",
                 NEEDLES("floats"));
    assert_int_equal(cerr_count(&errs), 3);
    check_error(1, "t.yaml", 3, 1, NULL, NEEDLES("duplicate key \"b\" (first at line 2)"));
    check_error(2, "t.yaml", 4, 16, "[\"odd key\"].c", NEEDLES("floats"));
}

static void test_missing_file(void **state) {
    (void)state;
    value *v = yload_file(FIXTURE("yaml/no_such_file.yaml"), &errs);
    assert_null(v);
    check_error(0, "tests/fixtures/yaml/no_such_file.yaml", 0, 0, NULL, NEEDLES("cannot open"));
    cerr_clear(&errs);
    v = yload_file(FIXTURE("yaml"), &errs);
    assert_null(v);
    check_error(0, "tests/fixtures/yaml", 0, 0, NULL, NEEDLES("it is a folder, not a regular file"));
    /* a FIFO with no writer: refused at once, never waited on (safe_open.h) */
    cerr_clear(&errs);
    char fifo[] = "/tmp/cairn-yload-fifo-XXXXXX";
    int fd = mkstemp(fifo);
    assert_true(fd >= 0);
    close(fd);
    unlink(fifo);
    assert_int_equal(mkfifo(fifo, 0600), 0);
    v = yload_file(fifo, &errs);
    unlink(fifo);
    assert_null(v);
    check_error(0, fifo, 0, 0, NULL, NEEDLES("it is a FIFO, not a regular file"));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_default_limits, setup, teardown),
        cmocka_unit_test_setup_teardown(test_tree_and_locations, setup, teardown),
        cmocka_unit_test_setup_teardown(test_flow_and_nested_lists, setup, teardown),
        cmocka_unit_test_setup_teardown(test_map_keeps_order, setup, teardown),
        cmocka_unit_test_setup_teardown(test_nulls, setup, teardown),
        cmocka_unit_test_setup_teardown(test_booleans, setup, teardown),
        cmocka_unit_test_setup_teardown(test_integers, setup, teardown),
        cmocka_unit_test_setup_teardown(test_int64_bounds, setup, teardown),
        cmocka_unit_test_setup_teardown(test_floats_refused, setup, teardown),
        cmocka_unit_test_setup_teardown(test_quoted_and_block_strings, setup, teardown),
        cmocka_unit_test_setup_teardown(test_tags, setup, teardown),
        cmocka_unit_test_setup_teardown(test_keys_are_strings, setup, teardown),
        cmocka_unit_test_setup_teardown(test_duplicate_keys, setup, teardown),
        cmocka_unit_test_setup_teardown(test_duplicate_in_large_map, setup, teardown),
        cmocka_unit_test_setup_teardown(test_non_scalar_keys, setup, teardown),
        cmocka_unit_test_setup_teardown(test_aliases, setup, teardown),
        cmocka_unit_test_setup_teardown(test_alias_as_key, setup, teardown),
        cmocka_unit_test_setup_teardown(test_anchor_redefined_and_refused_values, setup, teardown),
        cmocka_unit_test_setup_teardown(test_unknown_alias, setup, teardown),
        cmocka_unit_test_setup_teardown(test_merge_precedence, setup, teardown),
        cmocka_unit_test_setup_teardown(test_merge_inline_and_quoted, setup, teardown),
        cmocka_unit_test_setup_teardown(test_merge_bad_values, setup, teardown),
        cmocka_unit_test_setup_teardown(test_billion_laughs, setup, teardown),
        cmocka_unit_test_setup_teardown(test_node_limit_with_small_budget, setup, teardown),
        cmocka_unit_test_setup_teardown(test_node_limit_counts_merges, setup, teardown),
        cmocka_unit_test_setup_teardown(test_depth_limit, setup, teardown),
        cmocka_unit_test_setup_teardown(test_deep_nesting_default, setup, teardown),
        cmocka_unit_test_setup_teardown(test_string_limit, setup, teardown),
        cmocka_unit_test_setup_teardown(test_file_size_limit, setup, teardown),
        cmocka_unit_test_setup_teardown(test_bad_utf8, setup, teardown),
        cmocka_unit_test_setup_teardown(test_utf16_and_bom, setup, teardown),
        cmocka_unit_test_setup_teardown(test_syntax_error_location, setup, teardown),
        cmocka_unit_test_setup_teardown(test_empty_documents, setup, teardown),
        cmocka_unit_test_setup_teardown(test_one_document_only, setup, teardown),
        cmocka_unit_test_setup_teardown(test_error_path_and_several_errors, setup, teardown),
        cmocka_unit_test_setup_teardown(test_missing_file, setup, teardown),
    };
    return cmocka_run_group_tests_name("yload", tests, NULL, NULL);
}
