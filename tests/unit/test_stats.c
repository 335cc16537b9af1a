/*
** test_stats.c
** The interval arithmetic `cairn sim` reports, against values worked out by
** hand (z = 1.96 in the workings; the code's 1.959964 moves the fourth
** decimal at most, hence the 1e-3 tolerance).
*/
#include "testutil.h"
#include "stats.h"

#include <math.h>

#define NEAR(a, b) assert_true(fabs((a) - (b)) < 1e-3)

/* 50 wins in 100 games: p = 0.5, z^2/n = 3.8416/100 = 0.038416.
** centre = (0.5 + 0.019208) / 1.038416 = 0.5 (symmetric);
** half = 1.96 / 1.038416 * sqrt(0.25/100 + 3.8416/40000)
**      = 1.88749 * sqrt(0.00259604) = 1.88749 * 0.050951 = 0.09617,
** so [0.40383, 0.59617]. */
static void test_wilson_half(void **st) {
    (void)st;
    stats_interval i = stats_wilson(50, 100);
    NEAR(i.lo, 0.40383);
    NEAR(i.hi, 0.59617);
}

/* 0 wins in 10: p = 0, denom = 1 + 0.38416 = 1.38416;
** centre = (3.8416/20) / 1.38416 = 0.19208 / 1.38416 = 0.13877;
** half = 1.96 / 1.38416 * sqrt(3.8416/400) = 1.41602 * 0.098 = 0.13877:
** [0, 0.27754]. The normal (Wald) interval would be [0, 0], which is why
** sim uses Wilson's. */
static void test_wilson_zero(void **st) {
    (void)st;
    stats_interval i = stats_wilson(0, 10);
    NEAR(i.lo, 0.0);
    NEAR(i.hi, 0.27754);
    /* all 10: the mirror image */
    i = stats_wilson(10, 10);
    NEAR(i.lo, 1 - 0.27754);
    NEAR(i.hi, 1.0);
}

/* A shared win counts its part: 7.5 of 10. p = 0.75,
** centre = (0.75 + 0.19208) / 1.38416 = 0.68062;
** half = 1.41602 * sqrt(0.1875/10 + 0.009604) = 1.41602 * 0.16844 = 0.23851:
** [0.44211, 0.91913]. */
static void test_wilson_fractional(void **st) {
    (void)st;
    stats_interval i = stats_wilson(7.5, 10);
    NEAR(i.lo, 0.44211);
    NEAR(i.hi, 0.91913);
    i = stats_wilson(3, 0); /* no games: nothing known */
    NEAR(i.lo, 0.0);
    NEAR(i.hi, 1.0);
}

/* 2 4 4 4 5 5 7 9: mean 40/8 = 5; squared deviations 9+1+1+1+0+0+4+16 =
** 32, sample sd sqrt(32/7) = 2.13809; t(0.975, 7) = 2.365;
** half = 2.365 * 2.13809 / sqrt(8) = 2.365 * 0.75593 = 1.78777:
** [3.21223, 6.78777]. */
static void test_mean_interval(void **st) {
    (void)st;
    static const double x[] = {2, 4, 4, 4, 5, 5, 7, 9};
    stats_acc a = {0};
    for (int i = 0; i < 8; i++) stats_add(&a, x[i]);
    assert_int_equal(a.n, 8);
    NEAR(stats_mean(&a), 5.0);
    NEAR(stats_sd(&a), 2.13809);
    NEAR(a.min, 2);
    NEAR(a.max, 9);
    stats_interval i = stats_mean_ci(&a);
    NEAR(i.lo, 3.21223);
    NEAR(i.hi, 6.78777);
    assert_true(stats_excludes_zero(i));
    assert_true(stats_holds(i, 5.0));
    assert_false(stats_holds(i, 7.0));
}

/* Paired differences 1, -1, 1, -1: mean 0, sd sqrt(4/3) = 1.1547,
** t(3) = 3.182, half = 3.182 * 1.1547 / 2 = 1.83713: the interval
** [-1.83713, 1.83713] holds 0, so no flag. A constant difference of 3 has
** no spread: [3, 3], which excludes 0 (a doubled score line in every game
** is a certain difference). */
static void test_paired_difference(void **st) {
    (void)st;
    stats_acc d = {0};
    for (int i = 0; i < 4; i++) stats_add(&d, i % 2 ? -1 : 1);
    stats_interval i = stats_mean_ci(&d);
    NEAR(i.lo, -1.83713);
    NEAR(i.hi, 1.83713);
    assert_false(stats_excludes_zero(i));
    stats_acc c = {0};
    for (int k = 0; k < 5; k++) stats_add(&c, 3);
    i = stats_mean_ci(&c);
    NEAR(i.lo, 3);
    NEAR(i.hi, 3);
    assert_true(stats_excludes_zero(i));
    stats_acc one = {0};
    stats_add(&one, -2);
    assert_true(stats_sd(&one) == 0);
}

/* The t table: df 1 is 12.706, df 30 is 2.042, beyond it the normal 1.96. */
static void test_t_quantiles(void **st) {
    (void)st;
    NEAR(stats_t95(1), 12.706);
    NEAR(stats_t95(0), 12.706);
    NEAR(stats_t95(30), 2.042);
    NEAR(stats_t95(1000), 1.95996);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_wilson_half),       cmocka_unit_test(test_wilson_zero),
        cmocka_unit_test(test_wilson_fractional), cmocka_unit_test(test_mean_interval),
        cmocka_unit_test(test_paired_difference), cmocka_unit_test(test_t_quantiles),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
