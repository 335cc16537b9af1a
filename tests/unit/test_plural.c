/*
** test_plural.c
** Plural forms: the CLDR categories by language (plural.c), and g.text
** choosing the form of a text table's plural entry by its count in English,
** German and Greek (tests/fixtures/engine/plural).
*/
#include "testutil.h"
#include "engine.h"
#include "error.h"
#include "plural.h"
#include "ruleset.h"
#include "value.h"

#include <limits.h>
#include <stdio.h>

static void test_categories(void **st) {
    (void)st;
    /* en, de, el: one is exactly 1 (CLDR: i = 1 and v = 0); 0, 2, 21 are other */
    const char *langs[] = {"en", "de", "el"};
    for (size_t i = 0; i < 3; i++) {
        assert_string_equal(plural_category(langs[i], 1), "one");
        assert_string_equal(plural_category(langs[i], -1), "one"); /* CLDR's n is |n| */
        assert_string_equal(plural_category(langs[i], 0), "other");
        assert_string_equal(plural_category(langs[i], 2), "other");
        assert_string_equal(plural_category(langs[i], 21), "other");
    }
    /* fr: 0 and 1 are one */
    assert_string_equal(plural_category("fr", 0), "one");
    assert_string_equal(plural_category("fr", 2), "other");
    /* ja has no plural; an unknown language takes the English rule */
    assert_string_equal(plural_category("ja", 1), "other");
    assert_string_equal(plural_category("xx", 1), "one");
    assert_string_equal(plural_category("xx", LLONG_MIN), "other");
    assert_string_equal(plural_en(1, "decision", "decisions"), "decision");
    assert_string_equal(plural_en(0, "decision", "decisions"), "decisions");
}

/* The texts the fixture's setup made in lang. */
static const value *texts_in(engine **e, const char *lang) {
    engine_config c;
    memset(&c, 0, sizeof c);
    c.ruleset = "tests/fixtures/engine/plural";
    c.players = 1;
    c.seed = 1;
    c.lang = lang;
    cerr_list errs;
    cerr_init(&errs, 0);
    *e = engine_new(&c, &errs);
    if (!*e) cerr_print(stderr, &errs);
    assert_non_null(*e);
    cerr_free(&errs);
    const value *t = value_map_get(engine_state(*e), "texts");
    assert_non_null(t);
    assert_int_equal(t->u.list.n, 13); /* 3 texts x 4 counts, then en_only */
    return t;
}

static void expect_texts(const char *lang, const char *const want[13]) {
    engine *e = NULL;
    const value *t = texts_in(&e, lang);
    for (size_t i = 0; i < 13; i++) assert_string_equal(t->u.list.items[i]->u.str.s, want[i]);
    engine_free(e);
}

static void test_g_text_english(void **st) {
    (void)st;
    const char *const want[13] = {
        "0 stones", "Ann takes 0 stones.", "Day 7: 0 stones left",
        "1 stone",  "Ann takes 1 stone.",  "Day 7: 1 stone left", /* count: 2 reads the 1, not the 7 */
        "2 stones", "Ann takes 2 stones.", "Day 7: 2 stones left",
        "21 stones", "Ann takes 21 stones.", "Day 7: 21 stones left",
        "1 thing",
    };
    expect_texts("en", want);
}

static void test_g_text_german(void **st) {
    (void)st;
    const char *const want[13] = {
        "0 Steine", "Ann nimmt 0 Steine.", "Tag 7: noch 0 Steine",
        "1 Stein",  "Ann nimmt 1 Stein.",  "Tag 7: noch 1 Stein",
        "2 Steine", "Ann nimmt 2 Steine.", "Tag 7: noch 2 Steine",
        "21 Steine", "Ann nimmt 21 Steine.", "Tag 7: noch 21 Steine",
        "1 thing", /* no German form: the English entry, with its rule */
    };
    expect_texts("de", want);
}

static void test_g_text_greek(void **st) {
    (void)st;
    const char *const want[13] = {
        "0 πέτρες", "Ann παίρνει 0 πέτρες.", "Μέρα 7: απομένουν 0 πέτρες",
        "1 πέτρα",  "Ann παίρνει 1 πέτρα.",  "Μέρα 7: απομένει 1 πέτρα",
        "2 πέτρες", "Ann παίρνει 2 πέτρες.", "Μέρα 7: απομένουν 2 πέτρες",
        "21 πέτρες", "Ann παίρνει 21 πέτρες.", "Μέρα 7: απομένουν 21 πέτρες",
        "1 thing",
    };
    expect_texts("el", want);
}

/* A plural text needs its count: an error at the script's line, nothing changed. */
static void test_g_text_needs_a_count(void **st) {
    (void)st;
    engine *e = NULL;
    (void)texts_in(&e, "en");
    const char *ids[] = {"no_count", "count_not_int"};
    const char *needles[] = {"g.text(\"stones\"): the text has plural forms but no integer argument",
                             "g.text(\"day_stones\"): count: 2 names argument 2, which is not an integer"};
    for (size_t i = 0; i < 2; i++) {
        uint64_t h = engine_state_hash(e);
        char *why = NULL;
        assert_int_equal(engine_answer(e, 1, ids[i], &why), ENGINE_RULES_ERROR);
        if (!why || !strstr(why, needles[i])) fprintf(stderr, "%s: %s\n", ids[i], why ? why : "(none)");
        assert_non_null(strstr(why, needles[i]));
        assert_non_null(strstr(why, "rules.lua:"));
        assert_true(engine_state_hash(e) == h);
        free(why);
    }
    engine_free(e);
}

/* Whether any form of a text table's entry says s. */
static int entry_says(const value *v, const char *s) {
    if (v->type == CV_STR) return strstr(v->u.str.s, s) != NULL;
    for (size_t i = 0; v->type == CV_MAP && i < v->u.map.n; i++)
        if (v->u.map.items[i].val->type == CV_STR && strstr(v->u.map.items[i].val->u.str.s, s)) return 1;
    return 0;
}

/* Every shipped ruleset explains itself in every language it has (howto and
** legend, which `rules` shows; a rulebook to point to), and none of its texts
** dodges a plural with "(s)", Greek "(-ες)" or German "(er)"/"(n)". */
static void test_shipped_texts(void **st) {
    (void)st;
    const char *ids[] = {"connect4", "goofspiel", "yak", "himalaya", "kathmandu"};
    const char *dodges[] = {"(s)", "(-", "(er)", "(n)", "(e)"};
    for (size_t k = 0; k < sizeof ids / sizeof ids[0]; k++) {
        char path[64];
        snprintf(path, sizeof path, "rulesets/%s", ids[k]);
        ruleset_request req = {0};
        cerr_list errs;
        cerr_init(&errs, 0);
        ruleset *r = ruleset_load(path, &req, &errs);
        if (!r) cerr_print(stderr, &errs);
        assert_non_null(r);
        cerr_free(&errs);
        assert_non_null(value_get_str(r->manifest, "rulebook", NULL));
        const value *langs = value_map_get(r->manifest, "languages");
        assert_non_null(langs);
        for (size_t i = 0; i < langs->u.list.n; i++) {
            const char *lang = langs->u.list.items[i]->u.str.s;
            const value *t = value_map_get(r->text, lang);
            if (!t) fprintf(stderr, "%s: no text table %s\n", ids[k], lang);
            assert_non_null(t);
            if (!value_get_str(t, "howto", NULL) || !value_get_str(t, "legend", NULL))
                fprintf(stderr, "%s/%s: howto or legend missing\n", ids[k], lang);
            assert_non_null(value_get_str(t, "howto", NULL));
            assert_non_null(value_get_str(t, "legend", NULL));
            for (size_t j = 0; j < t->u.map.n; j++)
                for (size_t d = 0; d < sizeof dodges / sizeof dodges[0]; d++) {
                    int bad = entry_says(t->u.map.items[j].val, dodges[d]);
                    if (bad) fprintf(stderr, "%s/%s: %s says %s\n", ids[k], lang, t->u.map.items[j].key->u.str.s, dodges[d]);
                    assert_false(bad);
                }
        }
        ruleset_free(r);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_categories),
        cmocka_unit_test(test_g_text_english),
        cmocka_unit_test(test_g_text_german),
        cmocka_unit_test(test_g_text_greek),
        cmocka_unit_test(test_g_text_needs_a_count),
        cmocka_unit_test(test_shipped_texts),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
