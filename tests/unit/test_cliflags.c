/*
** test_cliflags.c
** The one flag parser (cliflags.c): every way a flag is typed gives the
** same items, and each mistake its message.
*/
#include "testutil.h"
#include "cliflags.h"

static const cli_flag rows[] = {
    {"games", 'g', 1, "N", CLI_TEXT, NULL, "games"},
    {"quiet", 'q', 0, "", CLI_TEXT, NULL, "quiet"},
    {"checks", 'c', 0, "", CLI_TEXT, NULL, "checks"},
    {"compare", 0, 2, "A B", CLI_TEXT, NULL, "compare"},
    {"json", 0, 1, "FILE", CLI_FILE, NULL, "json"},
};
static const cli_table table = CLI_TABLE(rows);
static const cli_flag more_rows[] = {
    {"option", 'o', 1, "ID[=VALUE]", CLI_OPTION, NULL, "option"},
};
static const cli_table more = CLI_TABLE(more_rows);
static const cli_table *const tables[] = {&table, &more, NULL};

/* Reads argv into "name=v0,v1|..." (positional: "=arg"); an error ends it
** with "!message". */
static char *items(int argc, const char *const *argv) {
    static char out[512];
    cli_parser p;
    cli_item it;
    char *why;
    int got;
    out[0] = '\0';
    cli_start(&p, argc, (char **)argv, tables);
    while ((got = cli_next(&p, &it, &why)) > 0) {
        size_t n = strlen(out);
        snprintf(out + n, sizeof out - n, "%s%s=%s%s%s", n ? "|" : "", it.flag ? it.flag->name : "",
                 it.values[0] ? it.values[0] : "", it.values[1] ? "," : "", it.values[1] ? it.values[1] : "");
    }
    if (got < 0) {
        size_t n = strlen(out);
        snprintf(out + n, sizeof out - n, "!%s", why ? why : "oom");
        free(why);
    }
    return out;
}

#define ITEMS(...) items(sizeof((const char *[]){__VA_ARGS__}) / sizeof(const char *), (const char *[]){__VA_ARGS__})

static void test_spellings_agree(void **st) {
    (void)st;
    /* --games 10, --games=10, -g 10, -g10 and -g=10: the same item */
    assert_string_equal(ITEMS("sim", "--games", "10"), "games=10");
    assert_string_equal(ITEMS("sim", "--games=10"), "games=10");
    assert_string_equal(ITEMS("sim", "-g", "10"), "games=10");
    assert_string_equal(ITEMS("sim", "-g10"), "games=10");
    assert_string_equal(ITEMS("sim", "-g=10"), "games=10");
    /* an empty value is a value: --json= gives "" */
    assert_string_equal(ITEMS("sim", "--json="), "json=");
    /* a flag of the second table, with the '=' of its own value kept */
    assert_string_equal(ITEMS("sim", "-o", "cards=5", "--option=tricks=false"), "option=cards=5|option=tricks=false");
}

static void test_clusters_and_positionals(void **st) {
    (void)st;
    /* -qc is -q then -c; -qg5 ends with a flag taking the rest as its value */
    assert_string_equal(ITEMS("sim", "yak", "-qc"), "=yak|quiet=|checks=");
    assert_string_equal(ITEMS("sim", "-qg5", "yak"), "quiet=|games=5|=yak");
    /* two values, the first attached; "" stays an argument */
    assert_string_equal(ITEMS("sim", "--compare", "", "x"), "compare=,x");
    assert_string_equal(ITEMS("sim", "--compare=a", "b"), "compare=a,b");
    /* "-" alone is an argument, and after "--" everything is */
    assert_string_equal(ITEMS("sim", "-", "--", "--games", "-q"), "=-|=--games|=-q");
    /* a value that looks like a flag is still the value */
    assert_string_equal(ITEMS("sim", "--json", "-q"), "json=-q");
}

static void test_mistakes(void **st) {
    (void)st;
    /* one swap from games: suggested */
    assert_string_equal(ITEMS("sim", "--gmaes", "3"), "!unknown flag \"--gmaes\"; did you mean --games?");
    /* one letter missing from compare, its value attached: the name alone is compared */
    assert_string_equal(ITEMS("sim", "--compre=a"), "!unknown flag \"--compre\"; did you mean --compare?");
    /* "--x" is near nothing: length 1 allows one edit, and no flag is one letter */
    assert_string_equal(ITEMS("sim", "--x"), "!unknown flag \"--x\"");
    assert_string_equal(ITEMS("sim", "--games"), "!--games needs N");
    assert_string_equal(ITEMS("sim", "-g"), "!-g needs N");
    assert_string_equal(ITEMS("sim", "--compare", "a"), "!--compare needs A B");
    assert_string_equal(ITEMS("sim", "--quiet=yes"), "!--quiet takes no value, got \"yes\"");
    assert_string_equal(ITEMS("sim", "-x"), "!unknown flag \"-x\"");
    /* in a cluster the unknown letter is named, after the items before it */
    assert_string_equal(ITEMS("sim", "-qx"), "quiet=!unknown flag \"-x\" in \"-qx\"");
}

static void test_table_walk(void **st) {
    (void)st;
    /* five rows, then the second table's one, then the end */
    assert_string_equal(cli_flag_at(tables, 0)->name, "games");
    assert_string_equal(cli_flag_at(tables, 4)->name, "json");
    assert_string_equal(cli_flag_at(tables, 5)->name, "option");
    assert_null(cli_flag_at(tables, 6));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_spellings_agree),
        cmocka_unit_test(test_clusters_and_positionals),
        cmocka_unit_test(test_mistakes),
        cmocka_unit_test(test_table_walk),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
