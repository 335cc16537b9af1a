/*
** test_rng.c
** The engine RNG: reference outputs, same seed same stream, unbiased ranges,
** weighted picks, and the textual state round trip used by saves.
*/
#include "testutil.h"
#include "rng.h"

/* splitmix64 from 0 gives e220a8397b1dcdaf 6e789e6aa1b965f4 06c45d188009454f
** f88bb8a8724c81ec (the values in Vigna's splitmix64.c test vectors); the
** first xoshiro256** outputs from that state were computed with an
** independent Python transcription of the reference code:
** rotl(s1 * 5, 7) * 9 = 99ec5f36cb75f2b4, then bf6e1f784956452a, 1a5f849d4933e6e0. */
static void test_reference_values(void **st) {
    (void)st;
    rng r;
    rng_seed(&r, 0);
    assert_true(r.s[0] == 0xe220a8397b1dcdafULL);
    assert_true(r.s[1] == 0x6e789e6aa1b965f4ULL);
    assert_true(r.s[2] == 0x06c45d188009454fULL);
    assert_true(r.s[3] == 0xf88bb8a8724c81ecULL);
    assert_true(rng_next(&r) == 0x99ec5f36cb75f2b4ULL);
    assert_true(rng_next(&r) == 0xbf6e1f784956452aULL);
    assert_true(rng_next(&r) == 0x1a5f849d4933e6e0ULL);
}

static void test_same_seed_same_stream(void **st) {
    (void)st;
    rng a, b, c;
    rng_seed(&a, 42);
    rng_seed(&b, 42);
    rng_seed(&c, 43);
    int differs = 0;
    for (int i = 0; i < 1000; i++) {
        uint64_t x = rng_next(&a);
        assert_true(x == rng_next(&b));
        if (x != rng_next(&c)) differs = 1;
    }
    assert_true(differs);
}

static void test_streams_independent(void **st) {
    (void)st;
    rng g, s0, s1, s0b;
    rng_seed(&g, 7);
    rng_seed_stream(&s0, 7, 0);
    rng_seed_stream(&s1, 7, 1);
    rng_seed_stream(&s0b, 7, 0);
    uint64_t x0 = rng_next(&s0);
    assert_true(x0 == rng_next(&s0b));
    assert_true(x0 != rng_next(&s1));
    assert_true(x0 != rng_next(&g));
}

static void test_range_bounds(void **st) {
    (void)st;
    rng r;
    rng_seed(&r, 1);
    int64_t x;
    int seen[7] = {0};
    for (int i = 0; i < 2000; i++) {
        assert_int_equal(rng_range(&r, -3, 3, &x), 0);
        assert_true(x >= -3 && x <= 3);
        seen[x + 3] = 1;
    }
    for (int i = 0; i < 7; i++) assert_true(seen[i]); /* every value shows up */
    assert_int_equal(rng_range(&r, 5, 5, &x), 0);
    assert_int_equal(x, 5);
    rng before = r;
    assert_int_equal(rng_range(&r, 6, 5, &x), -1);
    assert_memory_equal(&before, &r, sizeof r); /* refused: nothing drawn */
    /* the full int64 range must not overflow the span computation */
    assert_int_equal(rng_range(&r, INT64_MIN, INT64_MAX, &x), 0);
}

/* 60000 draws of rng_below(3): each count is binomial(60000, 1/3), mean
** 20000, sd = sqrt(60000 * 1/3 * 2/3) ~= 115. A tolerance of 800 (~7 sd)
** never fails by chance, yet catches a gross bias. */
static void test_below_uniform(void **st) {
    (void)st;
    rng r;
    rng_seed(&r, 2024);
    int n[3] = {0, 0, 0};
    for (int i = 0; i < 60000; i++) n[rng_below(&r, 3)]++;
    for (int i = 0; i < 3; i++) assert_true(n[i] > 19200 && n[i] < 20800);
}

/* weights {0, 1, 3, 0}: index 0 and 3 never; 2 about three times as often
** as 1 (expected 10000 and 30000 of 40000). */
static void test_weighted(void **st) {
    (void)st;
    rng r;
    rng_seed(&r, 99);
    int64_t w[4] = {0, 1, 3, 0};
    int n[4] = {0};
    for (int i = 0; i < 40000; i++) {
        long k = rng_weighted(&r, w, 4);
        assert_true(k >= 0 && k < 4);
        n[k]++;
    }
    assert_int_equal(n[0], 0);
    assert_int_equal(n[3], 0);
    assert_true(n[1] > 9000 && n[1] < 11000);
    assert_true(n[2] > 29000 && n[2] < 31000);
    int64_t bad[2] = {0, 0};
    assert_int_equal(rng_weighted(&r, bad, 2), -1);
    int64_t neg[2] = {2, -1};
    assert_int_equal(rng_weighted(&r, neg, 2), -1);
    assert_int_equal(rng_weighted(&r, w, 0), -1);
}

static void test_format_parse(void **st) {
    (void)st;
    rng r, q;
    rng_seed(&r, 0);
    char hex[RNG_HEX_LEN + 1];
    rng_format(&r, hex);
    assert_string_equal(hex, "e220a8397b1dcdaf6e789e6aa1b965f406c45d188009454ff88bb8a8724c81ec");
    for (int i = 0; i < 10; i++) rng_next(&r);
    rng_format(&r, hex);
    assert_int_equal(rng_parse(&q, hex), 0);
    assert_memory_equal(&q, &r, sizeof r);
    assert_true(rng_next(&q) == rng_next(&r)); /* the stream continues identically */
    rng keep = q;
    assert_int_equal(rng_parse(&q, "abc"), -1);
    hex[5] = 'g';
    assert_int_equal(rng_parse(&q, hex), -1);
    assert_int_equal(rng_parse(&q, "0000000000000000000000000000000000000000000000000000000000000000"), -1);
    assert_int_equal(rng_parse(&q, NULL), -1);
    assert_memory_equal(&keep, &q, sizeof q);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reference_values), cmocka_unit_test(test_same_seed_same_stream),
        cmocka_unit_test(test_streams_independent), cmocka_unit_test(test_range_bounds),
        cmocka_unit_test(test_below_uniform), cmocka_unit_test(test_weighted),
        cmocka_unit_test(test_format_parse),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
