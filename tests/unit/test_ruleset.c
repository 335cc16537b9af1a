/*
** test_ruleset.c
** Ruleset resolution on the fixtures under tests/fixtures/rulesets: option
** defaults, presets, explicit choices, seat-count forcing, requires and
** excludes, overlays (replace and append), extends chains and cycles,
** schema errors with locations, the search path and the fingerprint.
*/
#include "testutil.h"
#include "error.h"
#include "ruleset.h"

#include <stdio.h>
#include <unistd.h>

#define MINI "tests/fixtures/rulesets/mini"

static ruleset *load(const char *path, const char **choices, size_t n, const char *preset,
                     int players, cerr_list *errs) {
    ruleset_request req = {choices, n, preset, players, NULL, 0};
    cerr_init(errs, 0);
    return ruleset_load(path, &req, errs);
}

static const value *cart(const ruleset *r, size_t i) {
    const value *carts = value_map_get(value_map_get(r->data, "carts"), "carts");
    assert_non_null(carts);
    assert_true(i < value_len(carts));
    return carts->u.list.items[i];
}

static int has_error(const cerr_list *errs, const char *needle) {
    for (size_t i = 0; i < errs->n; i++) {
        char *s = cerr_format(&errs->items[i]);
        int hit = s && strstr(s, needle) != NULL;
        free(s);
        if (hit) return 1;
    }
    return 0;
}

static void dump_errors(const cerr_list *errs) { cerr_print(stderr, errs); }

static void test_defaults(void **st) {
    (void)st;
    cerr_list errs;
    ruleset *r = load(MINI, NULL, 0, NULL, 0, &errs);
    if (!r) dump_errors(&errs);
    assert_non_null(r);
    assert_string_equal(r->id, "mini");
    assert_int_equal(r->min_players, 2);
    assert_int_equal(r->max_players, 5);
    assert_false(value_get_bool(r->options, "big_carts", 1));
    assert_false(value_get_bool(r->options, "extra_cart", 1));
    assert_string_equal(value_get_str(r->options, "length", ""), "normal"); /* default item */
    assert_int_equal(value_get_int(cart(r, 1), "capacity", 0), 4);
    assert_int_equal(value_len(value_map_get(value_map_get(r->data, "carts"), "carts")), 2);
    assert_int_equal(r->n_scripts, 1);
    assert_non_null(strstr(r->scripts[0], "mini/rules.lua"));
    assert_int_equal(strlen(r->fingerprint), 64);
    ruleset_free(r);
    cerr_free(&errs);
}

static void test_switch_overlay_append_and_script(void **st) {
    (void)st;
    cerr_list errs;
    const char *c[] = {"extra_cart"};
    ruleset *r = load(MINI, c, 1, NULL, 0, &errs);
    assert_non_null(r);
    /* overlays/extra.yaml appends one cart to the two of carts.yaml */
    assert_int_equal(value_len(value_map_get(value_map_get(r->data, "carts"), "carts")), 3);
    assert_string_equal(value_get_str(cart(r, 2), "name", ""), "east");
    assert_int_equal(r->n_scripts, 2);
    assert_non_null(strstr(r->scripts[1], "extra.lua"));
    ruleset_free(r);
    cerr_free(&errs);
}

static void test_preset_and_choice_overlay(void **st) {
    (void)st;
    cerr_list errs;
    ruleset *r = load(MINI, NULL, 0, "marathon", 0, &errs);
    assert_non_null(r);
    assert_string_equal(value_get_str(r->options, "length", ""), "long");
    assert_true(value_get_bool(r->options, "big_carts", 0));
    assert_int_equal(value_get_int(cart(r, 0), "capacity", 0), 6); /* overlays/big.yaml */
    ruleset_free(r);
    cerr_free(&errs);
    /* an explicit choice beats the preset */
    const char *c[] = {"length=short"};
    r = load(MINI, c, 1, "marathon", 0, &errs);
    assert_non_null(r);
    assert_string_equal(value_get_str(r->options, "length", ""), "short");
    /* overlays/short.yaml: rounds 8 -> 5; bonus untouched */
    const value *scoring = value_map_get(r->data, "scoring");
    assert_int_equal(value_get_int(scoring, "rounds", 0), 5);
    assert_int_equal(value_len(value_map_get(scoring, "bonus")), 3);
    ruleset_free(r);
    cerr_free(&errs);
}

static void test_forced_and_requires(void **st) {
    (void)st;
    cerr_list errs;
    /* 5 players force the expansion, which requires big carts: switched on */
    ruleset *r = load(MINI, NULL, 0, NULL, 5, &errs);
    if (!r) dump_errors(&errs);
    assert_non_null(r);
    assert_true(value_get_bool(r->options, "expansion", 0));
    assert_true(value_get_bool(r->options, "big_carts", 0));
    assert_int_equal(value_get_int(cart(r, 0), "capacity", 0), 6);
    ruleset_free(r);
    cerr_free(&errs);
    /* ...but not when the user turned big carts off: an error naming both */
    const char *c[] = {"big_carts=false"};
    r = load(MINI, c, 1, NULL, 5, &errs);
    assert_null(r);
    assert_true(has_error(&errs, "\"expansion\" requires \"big_carts\""));
    cerr_free(&errs);
    /* forcing contradicts an explicit choice */
    const char *c2[] = {"expansion=false"};
    r = load(MINI, c2, 1, NULL, 5, &errs);
    assert_null(r);
    assert_true(has_error(&errs, "\"expansion\" is forced to on with 5 players"));
    cerr_free(&errs);
}

static void test_excludes(void **st) {
    (void)st;
    cerr_list errs;
    const char *c[] = {"quiet", "extra_cart"};
    ruleset *r = load(MINI, c, 2, NULL, 0, &errs);
    assert_null(r);
    assert_true(has_error(&errs, "options \"quiet\" (as chosen) and \"extra_cart\" (as chosen) exclude each other"));
    cerr_free(&errs);
}

static void test_bad_choices(void **st) {
    (void)st;
    cerr_list errs;
    const char *c[] = {"big_cart", "length=medium", "nosuch"};
    ruleset *r = load(MINI, c, 3, NULL, 0, &errs);
    assert_null(r);
    assert_true(has_error(&errs, "did you mean \"big_carts\"?"));
    assert_true(has_error(&errs, "\"length\" takes one of: short, normal, long"));
    assert_true(has_error(&errs, "no option \"nosuch\" in mini"));
    assert_int_equal(cerr_count(&errs), 3); /* every error, not just the first */
    cerr_free(&errs);
    r = load(MINI, NULL, 0, "nosuch", 0, &errs);
    assert_null(r);
    assert_true(has_error(&errs, "no preset \"nosuch\" in ruleset mini (its presets: marathon)"));
    cerr_free(&errs);
    r = load(MINI, NULL, 0, NULL, 7, &errs);
    assert_null(r);
    assert_true(has_error(&errs, "mini is for 2 to 5 players, not 7"));
    cerr_free(&errs);
}

static void test_extends(void **st) {
    (void)st;
    cerr_list errs;
    ruleset *r = load("tests/fixtures/rulesets/mod", NULL, 0, NULL, 0, &errs);
    if (!r) dump_errors(&errs);
    assert_non_null(r);
    assert_string_equal(r->id, "mod");
    /* the mod's scoring.yaml replaces the parent's; carts come from the parent */
    assert_int_equal(value_get_int(value_map_get(r->data, "scoring"), "rounds", 0), 12);
    assert_int_equal(value_get_int(cart(r, 0), "capacity", 0), 4);
    /* five options from mini plus the appended one */
    assert_int_equal(r->n_opts, 6);
    assert_non_null(ruleset_option_find(r, "golden"));
    assert_non_null(ruleset_option_find(r, "big_carts"));
    /* require() looks in the mod first, then in mini */
    assert_int_equal(r->n_module_dirs, 2);
    assert_non_null(strstr(r->module_dirs[0], "mod"));
    assert_non_null(strstr(r->module_dirs[1], "mini"));
    assert_non_null(strstr(r->scripts[0], "mini/rules.lua"));
    ruleset_free(r);
    cerr_free(&errs);
    /* the appended option's overlay is found beside the mod's manifest */
    const char *c[] = {"golden"};
    r = load("tests/fixtures/rulesets/mod", c, 1, NULL, 0, &errs);
    if (!r) dump_errors(&errs);
    assert_non_null(r);
    assert_int_equal(value_get_int(value_map_get(r->data, "scoring"), "rounds", 0), 20);
    ruleset_free(r);
    cerr_free(&errs);
}

static void test_extends_cycle(void **st) {
    (void)st;
    cerr_list errs;
    ruleset *r = load("tests/fixtures/rulesets/cycle_a", NULL, 0, NULL, 0, &errs);
    assert_null(r);
    assert_true(has_error(&errs, "extends cycle"));
    cerr_free(&errs);
}

static void test_broken_reports_every_error(void **st) {
    (void)st;
    cerr_list errs;
    ruleset *r = load("tests/fixtures/rulesets/broken", NULL, 0, NULL, 0, &errs);
    assert_null(r);
    if (cerr_count(&errs) != 3) dump_errors(&errs);
    /* carts.yaml line 3: `capcity` misspelt (the missing `capacity` it
    ** stands for is not reported twice); line 4: capacity "four" and food
    ** "cheese": three errors, all of them reported */
    assert_true(has_error(&errs, "broken/carts.yaml:3:"));
    assert_true(has_error(&errs, "did you mean \"capacity\"?"));
    assert_true(has_error(&errs, "carts[2].capacity: expected integer"));
    assert_true(has_error(&errs, "carts[2].foods[1]"));
    assert_int_equal(cerr_count(&errs), 3);
    cerr_free(&errs);
}

static void test_search_path_and_fingerprint(void **st) {
    (void)st;
    assert_null(ruleset_find("mini")); /* not in ./rulesets */
    setenv("CAIRN_PATH", "/nonexistent:tests/fixtures/rulesets", 1);
    char *dir = ruleset_find("mini");
    assert_non_null(dir);
    assert_string_equal(dir, "tests/fixtures/rulesets/mini");
    free(dir);
    cerr_list errs;
    ruleset *a = load("mini", NULL, 0, NULL, 0, &errs);
    assert_non_null(a);
    cerr_free(&errs);
    unsetenv("CAIRN_PATH");
    /* a copy elsewhere has the same fingerprint; editing one byte changes it */
    char tmp[] = "/tmp/cairn-rs-XXXXXX";
    assert_non_null(mkdtemp(tmp));
    char cmd[512];
    snprintf(cmd, sizeof cmd, "cp -R " MINI " %s/mini", tmp);
    assert_int_equal(system(cmd), 0);
    snprintf(cmd, sizeof cmd, "%s/mini", tmp);
    ruleset *b = load(cmd, NULL, 0, NULL, 0, &errs);
    assert_non_null(b);
    cerr_free(&errs);
    assert_string_equal(a->fingerprint, b->fingerprint);
    /* ...and so does the same folder named "." (cairn check .) */
    char cwd[1024];
    assert_non_null(getcwd(cwd, sizeof cwd));
    snprintf(cmd, sizeof cmd, "%s/mini", tmp);
    assert_int_equal(chdir(cmd), 0);
    ruleset *dot = load(".", NULL, 0, NULL, 0, &errs);
    assert_int_equal(chdir(cwd), 0);
    if (!dot) dump_errors(&errs);
    assert_non_null(dot);
    cerr_free(&errs);
    assert_string_equal(a->fingerprint, dot->fingerprint);
    ruleset_free(dot);
    snprintf(cmd, sizeof cmd, "sed -i 's/rounds: 8/rounds: 9/' %s/mini/scoring.yaml", tmp);
    assert_int_equal(system(cmd), 0);
    snprintf(cmd, sizeof cmd, "%s/mini", tmp);
    ruleset *c = load(cmd, NULL, 0, NULL, 0, &errs);
    assert_non_null(c);
    cerr_free(&errs);
    assert_string_not_equal(a->fingerprint, c->fingerprint);
    snprintf(cmd, sizeof cmd, "rm -rf %s", tmp);
    assert_int_equal(system(cmd), 0);
    ruleset_free(a);
    ruleset_free(b);
    ruleset_free(c);
}

/* A modder copies a ruleset folder out of the tree: its schemas' $refs to
** ../../../schemas/components.schema.yaml then point nowhere, and are found
** by name among cairn's own schemas instead. */
static void test_copied_out_of_tree(void **st) {
    (void)st;
    char tmp[] = "/tmp/cairn-copy-XXXXXX";
    assert_non_null(mkdtemp(tmp));
    char cmd[512];
    snprintf(cmd, sizeof cmd, "cp -R rulesets/yak %s/yak", tmp);
    assert_int_equal(system(cmd), 0);
    snprintf(cmd, sizeof cmd, "%s/yak", tmp);
    cerr_list errs;
    ruleset *copy = load(cmd, NULL, 0, NULL, 0, &errs);
    if (!copy) dump_errors(&errs);
    assert_non_null(copy);
    cerr_free(&errs);
    ruleset *orig = load("rulesets/yak", NULL, 0, NULL, 0, &errs);
    assert_non_null(orig);
    cerr_free(&errs);
    assert_string_equal(copy->fingerprint, orig->fingerprint);
    ruleset_free(copy);
    ruleset_free(orig);
    snprintf(cmd, sizeof cmd, "rm -rf %s", tmp);
    assert_int_equal(system(cmd), 0);
}

/* Found in review: requires/excludes that a fixed number of rounds left
** half-settled, a default-on option blocking a choice, and references
** (options, items, presets, the default seat count) never checked. */
static void test_constraints_settle(void **st) {
    (void)st;
    cerr_list errs;
    const char *osc[] = {"aa", "cc"};
    ruleset *r = load("tests/fixtures/rulesets/constraints", osc, 2, NULL, 0, &errs);
    assert_null(r);
    assert_true(has_error(&errs, "option \"aa\" requires \"bb\", but \"cc\" (as chosen) excludes it"));
    cerr_free(&errs);
    /* o19 needs o18 ... needs o0: twenty links, all switched on */
    const char *chain[] = {"o19"};
    r = load("tests/fixtures/rulesets/constraints", chain, 1, NULL, 0, &errs);
    if (!r) dump_errors(&errs);
    assert_non_null(r);
    for (int i = 0; i <= 19; i++) {
        char id[16];
        snprintf(id, sizeof id, "o%d", i);
        assert_true(value_get_bool(r->options, id, 0));
    }
    /* dd is on only by default and excludes ee: asking for ee switches dd off */
    assert_true(value_get_bool(r->options, "dd", 0));
    ruleset_free(r);
    cerr_free(&errs);
    const char *ee[] = {"ee"};
    r = load("tests/fixtures/rulesets/constraints", ee, 1, NULL, 0, &errs);
    if (!r) dump_errors(&errs);
    assert_non_null(r);
    assert_true(value_get_bool(r->options, "ee", 0));
    assert_false(value_get_bool(r->options, "dd", 1));
    ruleset_free(r);
    cerr_free(&errs);
}

static void test_references_checked(void **st) {
    (void)st;
    cerr_list errs;
    ruleset *r = load("tests/fixtures/rulesets/badref", NULL, 0, NULL, 0, &errs);
    assert_null(r);
    if (cerr_count(&errs) != 6) dump_errors(&errs);
    assert_true(has_error(&errs, "badref/ruleset.yaml:5:36: players.default: default seat count 7 is outside min..max (2 to 4)"));
    assert_true(has_error(&errs, "zz: requires names unknown option \"ghost\""));
    assert_true(has_error(&errs, "\"length\" has no item \"nope\" (its items: short, long)"));
    assert_true(has_error(&errs, "\"quiet=true\": a switch is named without =VALUE"));
    assert_true(has_error(&errs, "length: not a value for this option: expected one of: short, long"));
    assert_true(has_error(&errs, "p: preset names unknown option \"nosuch\""));
    assert_int_equal(cerr_count(&errs), 6);
    cerr_free(&errs);
}

/* Found in review: `append` over a value that is not a list replaced it
** silently. */
static void test_append_needs_a_list(void **st) {
    (void)st;
    char tmp[] = "/tmp/cairn-append-XXXXXX";
    assert_non_null(mkdtemp(tmp));
    char cmd[512];
    snprintf(cmd, sizeof cmd,
             "cp -R " MINI " %s/mini && printf 'scoring:\\n  rounds:\\n    append: [7]\\n' > %s/mini/overlays/short.yaml",
             tmp, tmp);
    assert_int_equal(system(cmd), 0);
    snprintf(cmd, sizeof cmd, "%s/mini", tmp);
    cerr_list errs;
    const char *c[] = {"length=short"};
    ruleset *r = load(cmd, c, 1, NULL, 0, &errs);
    assert_null(r);
    /* short.yaml line 3, column 5: the {append: ...} over `rounds: 8` */
    assert_true(has_error(&errs, "overlays/short.yaml:3:5: scoring.rounds: append needs a list to add to, but the data has integer 8 here"));
    cerr_free(&errs);
    snprintf(cmd, sizeof cmd, "rm -rf %s", tmp);
    assert_int_equal(system(cmd), 0);
}

/* A combination the manifest forbids is "refused"; any other error is not,
** so `cairn check` skips only the first kind. */
static void test_refused_combinations(void **st) {
    (void)st;
    cerr_list errs;
    int refused = -1;
    const char *forced[] = {"expansion=false"}; /* forced on with 5 seats */
    ruleset_request req = {forced, 1, NULL, 5, NULL, 0};
    cerr_init(&errs, 0);
    assert_null(ruleset_load_combination(MINI, &req, &refused, &errs));
    assert_int_equal(refused, 1);
    assert_true(has_error(&errs, "forced to on with 5 players"));
    cerr_free(&errs);

    const char *both[] = {"quiet", "extra_cart"}; /* quiet excludes extra_cart */
    ruleset_request req2 = {both, 2, NULL, 2, NULL, 0};
    cerr_init(&errs, 0);
    refused = -1;
    assert_null(ruleset_load_combination(MINI, &req2, &refused, &errs));
    assert_int_equal(refused, 1);
    assert_true(has_error(&errs, "exclude each other"));
    cerr_free(&errs);

    /* a real error: an option that does not exist */
    const char *typo[] = {"big_crts"};
    ruleset_request req3 = {typo, 1, NULL, 2, NULL, 0};
    cerr_init(&errs, 0);
    refused = -1;
    assert_null(ruleset_load_combination(MINI, &req3, &refused, &errs));
    assert_int_equal(refused, 0);
    cerr_free(&errs);

    /* an allowed one loads, and says so */
    const char *fine[] = {"big_carts"};
    ruleset_request req4 = {fine, 1, NULL, 3, NULL, 0};
    cerr_init(&errs, 0);
    refused = -1;
    ruleset *r = ruleset_load_combination(MINI, &req4, &refused, &errs);
    if (!r) dump_errors(&errs);
    assert_non_null(r);
    assert_int_equal(refused, 0);
    ruleset_free(r);
    cerr_free(&errs);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_defaults),
        cmocka_unit_test(test_switch_overlay_append_and_script),
        cmocka_unit_test(test_preset_and_choice_overlay),
        cmocka_unit_test(test_forced_and_requires),
        cmocka_unit_test(test_excludes),
        cmocka_unit_test(test_bad_choices),
        cmocka_unit_test(test_extends),
        cmocka_unit_test(test_extends_cycle),
        cmocka_unit_test(test_broken_reports_every_error),
        cmocka_unit_test(test_search_path_and_fingerprint),
        cmocka_unit_test(test_copied_out_of_tree),
        cmocka_unit_test(test_constraints_settle),
        cmocka_unit_test(test_references_checked),
        cmocka_unit_test(test_append_needs_a_list),
        cmocka_unit_test(test_refused_combinations),
    };
    return cmocka_run_group_tests_name("ruleset", tests, NULL, NULL);
}
