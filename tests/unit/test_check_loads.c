/*
** test_check_loads.c
** What makes `cairn check` fast must not change what it finds: a ruleset
** loaded through a load_cache (the loads of one check sharing parsed files,
** schemas, passes and fingerprints) is the ruleset an uncached load gives,
** with the same errors in the same order at the same places, whatever was
** loaded before it; and check_data on the ruleset already loaded reports
** what a fresh engine reports; and the scripts check compiles for their
** syntax are not compiled again when its data check's sandbox loads them.
*/
#include "testutil.h"
#include "check.h"
#include "chunk_store.h"
#include "engine.h"
#include "error.h"
#include "load_cache.h"
#include "ruleset.h"

#include <stdio.h>
#include <unistd.h>

#define MINI "tests/fixtures/rulesets/mini"
#define DATACHECK "tests/fixtures/engine/datacheck"

/* Every error of errs, formatted, one per line (malloc'd). */
static char *all_errors(const cerr_list *errs) {
    size_t cap = 1, n = 0;
    char *out = calloc(1, 1);
    assert_non_null(out);
    for (size_t i = 0; i < errs->n; i++) {
        char *m = cerr_format(&errs->items[i]);
        assert_non_null(m);
        size_t len = strlen(m);
        cap = n + len + 2;
        out = realloc(out, cap);
        assert_non_null(out);
        memcpy(out + n, m, len);
        n += len;
        out[n++] = '\n';
        out[n] = '\0';
        free(m);
    }
    return out;
}

/* Loads name with choices (n of them) and sets, once through cache and
** once without it, and checks the two agree in every part and error.
** Returns the number of errors, -1 when the manifest refused the request. */
static int same_load(load_cache *cache, const char *name, const char **choices, size_t n,
                      const char **sets, size_t n_sets, int players) {
    ruleset_request req = {choices, n, NULL, players, sets, n_sets};
    cerr_list a, b;
    cerr_init(&a, 0);
    cerr_init(&b, 0);
    int refused_a = -1, refused_b = -1;
    ruleset *plain = ruleset_load_combination(name, &req, &refused_a, &a);
    ruleset *cached = ruleset_load_cached(name, &req, cache, &refused_b, &b);
    char *ea = all_errors(&a), *eb = all_errors(&b);
    assert_string_equal(ea, eb);
    free(ea);
    free(eb);
    assert_int_equal(refused_a, refused_b);
    assert_int_equal(plain != NULL, cached != NULL);
    if (plain) {
        assert_string_equal(plain->fingerprint, cached->fingerprint);
        assert_int_equal(plain->n_files, cached->n_files);
        assert_true(value_equal(plain->manifest, cached->manifest, 1));
        assert_true(value_equal(plain->data, cached->data, 1));
        assert_true(value_equal(plain->options, cached->options, 1));
        assert_true(value_equal(plain->text, cached->text, 1));
        assert_int_equal(plain->n_scripts, cached->n_scripts);
        for (size_t i = 0; i < plain->n_scripts; i++)
            assert_string_equal(plain->scripts[i], cached->scripts[i]);
        /* the cached data remembers where each value came from */
        const value *carts = value_map_get(cached->data, "carts");
        if (carts) {
            const value *pc = value_map_get(plain->data, "carts");
            assert_non_null(carts->file);
            assert_string_equal(carts->file->name, pc->file->name);
            assert_int_equal(carts->line, pc->line);
            assert_int_equal(carts->col, pc->col);
        }
    }
    int got = refused_a ? -1 : (int)a.n;
    ruleset_free(plain);
    ruleset_free(cached);
    cerr_free(&a);
    cerr_free(&b);
    return got;
}

/* mini's options one after another through one cache, as check loads
** them: every combination agrees with an uncached load, refusals too
** (expansion at 5 seats requires big carts; quiet excludes extra_cart). */
static void test_cached_loads_agree(void **st) {
    (void)st;
    load_cache *cache = load_cache_new();
    assert_non_null(cache);
    const char *none[1] = {NULL};
    assert_int_equal(same_load(cache, MINI, none, 0, NULL, 0, 0), 0);
    const char *big[] = {"big_carts"}, *extra[] = {"extra_cart"}, *shrt[] = {"length=short"};
    const char *clash[] = {"quiet", "extra_cart"}, *no_big[] = {"big_carts=false"};
    assert_int_equal(same_load(cache, MINI, big, 1, NULL, 0, 2), 0);
    assert_int_equal(same_load(cache, MINI, extra, 1, NULL, 0, 2), 0);
    assert_int_equal(same_load(cache, MINI, shrt, 1, NULL, 0, 3), 0);
    assert_int_equal(same_load(cache, MINI, clash, 2, NULL, 0, 2), -1); /* quiet excludes extra_cart */
    /* 5 seats force the expansion, which requires the big carts refused here */
    assert_int_equal(same_load(cache, MINI, no_big, 1, NULL, 0, 5), -1);
    assert_int_equal(same_load(cache, MINI, big, 1, NULL, 0, 2), 0); /* after the refusals */
    const char *set[] = {"scoring.rounds=9"}, *bad_set[] = {"scoring.rounds=[1"};
    assert_int_equal(same_load(cache, MINI, big, 1, set, 1, 2), 0);
    assert_true(same_load(cache, MINI, big, 1, bad_set, 1, 2) > 0);
    assert_int_equal(same_load(cache, MINI, big, 1, NULL, 0, 2), 0);
    assert_int_equal(same_load(cache, "rulesets/goofspiel", none, 0, NULL, 0, 0), 0);
    load_cache_free(cache);
}

/* ruleset_verdict_cached, as check asks for each option value: the
** verdict, refusal and errors of an uncached load, the first time and
** again when the combination is known clean (then nothing is built). */
static int same_verdict(load_cache *cache, const char *name, const char **choices, size_t n,
                        const char **sets, size_t n_sets, int players) {
    ruleset_request req = {choices, n, NULL, players, sets, n_sets};
    cerr_list a, b;
    cerr_init(&a, 0);
    cerr_init(&b, 0);
    int refused_a = -1, refused_b = -1;
    ruleset *plain = ruleset_load_combination(name, &req, &refused_a, &a);
    int rc = ruleset_verdict_cached(name, &req, cache, &refused_b, &b);
    char *ea = all_errors(&a), *eb = all_errors(&b);
    assert_string_equal(ea, eb);
    free(ea);
    free(eb);
    assert_int_equal(refused_a, refused_b);
    assert_int_equal(plain != NULL, rc == 0);
    int got = plain ? 0 : refused_a ? -1 : (int)a.n;
    ruleset_free(plain);
    cerr_free(&a);
    cerr_free(&b);
    return got;
}

static void test_cached_verdicts_agree(void **st) {
    (void)st;
    load_cache *cache = load_cache_new();
    assert_non_null(cache);
    const char *none[1] = {NULL};
    const char *big[] = {"big_carts"}, *no_big[] = {"big_carts=false"}, *clash[] = {"quiet", "extra_cart"};
    const char *set[] = {"scoring.rounds=9"}, *bad_set[] = {"scoring.rounds=[1"};
    /* twice each: the second is answered from the clean combination */
    for (int round = 0; round < 2; round++) {
        assert_int_equal(same_verdict(cache, MINI, none, 0, NULL, 0, 0), 0);
        assert_int_equal(same_verdict(cache, MINI, big, 1, NULL, 0, 2), 0);
        assert_int_equal(same_verdict(cache, MINI, no_big, 1, NULL, 0, 2), 0);
        assert_int_equal(same_verdict(cache, MINI, clash, 2, NULL, 0, 2), -1);
        /* 5 seats force the expansion, which requires the big carts refused here */
        assert_int_equal(same_verdict(cache, MINI, no_big, 1, NULL, 0, 5), -1);
        /* --set is part of the combination: a bad one is never taken as the clean one */
        assert_int_equal(same_verdict(cache, MINI, big, 1, set, 1, 2), 0);
        assert_true(same_verdict(cache, MINI, big, 1, bad_set, 1, 2) > 0);
    }
    /* a mod: its manifest, merged over mini's, remembered with both folders */
    for (int round = 0; round < 2; round++) {
        assert_int_equal(same_verdict(cache, "tests/fixtures/rulesets/mod", none, 0, NULL, 0, 0), 0);
        assert_int_equal(same_verdict(cache, "tests/fixtures/rulesets/mod", big, 1, NULL, 0, 2), 0);
    }
    /* a full load after the verdicts is still the uncached one */
    assert_int_equal(same_load(cache, MINI, big, 1, NULL, 0, 2), 0);
    assert_int_equal(same_load(cache, "tests/fixtures/rulesets/mod", big, 1, NULL, 0, 2), 0);
    load_cache_free(cache);
}

/* A broken overlay loaded after sound loads (and sound loads after it):
** the same errors at the same lines, every time. */
static void test_cached_errors_agree(void **st) {
    (void)st;
    char tmp[] = "/tmp/cairn-loads-XXXXXX";
    assert_non_null(mkdtemp(tmp));
    char cmd[600];
    snprintf(cmd, sizeof cmd, "cp -R " MINI " %s/mini", tmp);
    assert_int_equal(system(cmd), 0);
    char overlay[300], dir[300];
    snprintf(dir, sizeof dir, "%s/mini", tmp);
    snprintf(overlay, sizeof overlay, "%s/mini/overlays/short.yaml", tmp);
    FILE *f = fopen(overlay, "w");
    assert_non_null(f);
    /* carts.schema.yaml wants a list of carts: a string breaks it */
    fputs("carts:\n  carts: many\n", f);
    fclose(f);
    load_cache *cache = load_cache_new();
    assert_non_null(cache);
    const char *none[1] = {NULL};
    const char *shrt[] = {"length=short"}, *big[] = {"big_carts"};
    assert_int_equal(same_load(cache, dir, none, 0, NULL, 0, 0), 0);
    assert_int_equal(same_load(cache, dir, shrt, 1, NULL, 0, 2), 1);
    assert_int_equal(same_load(cache, dir, big, 1, NULL, 0, 2), 0);
    assert_int_equal(same_load(cache, dir, shrt, 1, NULL, 0, 2), 1);
    /* verdicts too, the broken overlay's and the sound ones' around it (the
    ** tables the overlay leaves alone are read from the cache, not copied) */
    assert_int_equal(same_verdict(cache, dir, shrt, 1, NULL, 0, 2), 1);
    assert_int_equal(same_verdict(cache, dir, big, 1, NULL, 0, 2), 0);
    assert_int_equal(same_verdict(cache, dir, shrt, 1, NULL, 0, 2), 1);
    assert_int_equal(same_load(cache, dir, big, 1, NULL, 0, 2), 0);
    /* the broken fixture: its errors, loaded twice through one cache */
    int broken = same_load(cache, "tests/fixtures/rulesets/broken", none, 0, NULL, 0, 0);
    assert_true(broken > 1);
    assert_int_equal(same_load(cache, "tests/fixtures/rulesets/broken", none, 0, NULL, 0, 0), broken);
    load_cache_free(cache);
    snprintf(cmd, sizeof cmd, "rm -rf %s", tmp);
    assert_int_equal(system(cmd), 0);
}

/* engine_check_loaded_data on the ruleset check has loaded: the problems
** test_engine's test_check_data_locates_problems lists, at the same
** places; --set and an overlay that mend the board pass; a ruleset with
** no check_data passes. */
static void test_loaded_data_check(void **st) {
    (void)st;
    engine_config c;
    memset(&c, 0, sizeof c);
    c.ruleset = DATACHECK;
    cerr_list fresh, loaded;
    cerr_init(&fresh, 0);
    cerr_init(&loaded, 0);
    assert_int_equal(engine_check_ruleset_data(&c, &fresh), -1);
    ruleset_request req = {NULL, 0, NULL, 0, NULL, 0};
    ruleset *rs = ruleset_load(DATACHECK, &req, &loaded);
    assert_non_null(rs);
    assert_int_equal(engine_check_loaded_data(rs, &c, &loaded), -1);
    assert_int_equal(loaded.n, 6);
    char *ef = all_errors(&fresh), *el = all_errors(&loaded);
    assert_string_equal(ef, el);
    assert_non_null(strstr(el, DATACHECK "/board.yaml:4:21: cells[1].next: no cell z\n"));
    free(ef);
    free(el);
    ruleset_free(rs);
    cerr_clear(&loaded);
    /* --set mends the one bad value: the loaded ruleset has it */
    const char *mend[] = {"board.cells.2.next=a"};
    ruleset_request with_set = {NULL, 0, NULL, 0, mend, 1};
    rs = ruleset_load(DATACHECK, &with_set, &loaded);
    assert_non_null(rs);
    c.sets = mend;
    c.n_sets = 1;
    assert_int_equal(engine_check_loaded_data(rs, &c, &loaded), 0);
    assert_int_equal(loaded.n, 0);
    ruleset_free(rs);
    c.sets = NULL;
    c.n_sets = 0;
    const char *sound[] = {"sound"};
    ruleset_request with_sound = {sound, 1, NULL, 0, NULL, 0};
    rs = ruleset_load(DATACHECK, &with_sound, &loaded);
    assert_non_null(rs);
    c.choices = sound;
    c.n_choices = 1;
    assert_int_equal(engine_check_loaded_data(rs, &c, &loaded), 0);
    assert_int_equal(loaded.n, 0);
    ruleset_free(rs);
    /* connect4 has no check_data: nothing to say */
    memset(&c, 0, sizeof c);
    c.ruleset = "rulesets/connect4";
    rs = ruleset_load(c.ruleset, &req, &loaded);
    assert_non_null(rs);
    assert_int_equal(engine_check_loaded_data(rs, &c, &loaded), 0);
    assert_int_equal(loaded.n, 0);
    ruleset_free(rs);
    cerr_free(&fresh);
    cerr_free(&loaded);
}

/* `cairn check` compiles every script of the ruleset (check_compile_scripts),
** then its data check builds an engine whose sandbox loads them: that load
** comes from the chunk store. The datacheck fixture has one script,
** rules.lua, requiring nothing: check compiles 1 chunk, the data check 0
** (before the sandbox's `#` rewrite was shared with check: 1, rules.lua
** again, since check had compiled the text as written). */
static void test_check_compile_spares_the_sandbox(void **st) {
    (void)st;
    chunk_store_clear();
    cerr_list errs;
    cerr_init(&errs, 0);
    engine_config c;
    memset(&c, 0, sizeof c);
    c.ruleset = DATACHECK;
    const char *mend[] = {"board.cells.2.next=a"}; /* as test_loaded_data_check */
    c.sets = mend;
    c.n_sets = 1;
    ruleset_request req = {NULL, 0, NULL, 0, mend, 1};
    ruleset *rs = ruleset_load(c.ruleset, &req, &errs);
    assert_non_null(rs);
    size_t h0, m0, h1, m1, h2, m2;
    chunk_store_counts(&h0, &m0);
    assert_int_equal(check_compile_scripts(rs, 1, &errs), 0);
    chunk_store_counts(&h1, &m1);
    assert_int_equal(m1 - m0, 1); /* rules.lua */
    assert_int_equal(engine_check_loaded_data(rs, &c, &errs), 0);
    chunk_store_counts(&h2, &m2);
    assert_int_equal(m2 - m1, 0);
    assert_true(h2 - h1 >= 1); /* rules.lua, from the store */
    assert_int_equal(errs.n, 0);
    ruleset_free(rs);
    cerr_free(&errs);
    chunk_store_clear();
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cached_loads_agree),
        cmocka_unit_test(test_cached_errors_agree),
        cmocka_unit_test(test_cached_verdicts_agree),
        cmocka_unit_test(test_loaded_data_check),
        cmocka_unit_test(test_check_compile_spares_the_sandbox),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
