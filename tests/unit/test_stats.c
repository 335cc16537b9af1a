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
** [-1.83713, 1.83713] holds 0, so no flag. A constant difference of 3 in 5
** games has no spread, but its interval is not zero wide: no game moved it
** by a unit, so at most z^2 / (5 + z^2) = 3.8415 / 8.8415 = 0.43448 of the
** games could: [2.56552, 3.43448], which excludes 0 (a doubled score line
** in every game is a certain difference). */
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
    NEAR(i.lo, 2.56552);
    NEAR(i.hi, 3.43448);
    assert_true(stats_excludes_zero(i));
    stats_acc one = {0};
    stats_add(&one, -2);
    assert_true(stats_sd(&one) == 0);
    /* one value: n 1, 3.8415 / 4.8415 = 0.79345 either side */
    i = stats_mean_ci(&one);
    NEAR(i.lo, -2.79345);
    NEAR(i.hi, -1.20655);
    /* 300 games without spread: 3.8415 / 303.8415 = 0.012643 */
    NEAR(stats_none_seen(300), 0.012643);
    NEAR(stats_none_seen(0), 1.0);
}

/* A line worth 0 or 5 (a bonus won or not), won in 2 of 10 games: Wilson
** for 2 of 10 is p = 0.2, denom 1.38415, centre (0.2 + 0.192075) / 1.38415
** = 0.28326, half 1.41600 * sqrt(0.016 + 0.0096037) = 0.22658, so [0.05668,
** 0.50984]; on [0, 5]: [0.28341, 2.54919]. Never won in 10: [0, 5 * 0.27753]
** = [0, 1.38766], where the t interval would be [0, 0]. Worth 3 or 7: 3 +
** 4 * [0.05668, 0.50984] = [3.22673, 5.03935]. */
static void test_two_valued(void **st) {
    (void)st;
    stats_interval i = stats_two_valued(0, 5, 2, 10);
    NEAR(i.lo, 0.28341);
    NEAR(i.hi, 2.54919);
    i = stats_two_valued(0, 5, 0, 10);
    NEAR(i.lo, 0.0);
    NEAR(i.hi, 1.38766);
    i = stats_two_valued(3, 7, 2, 10);
    NEAR(i.lo, 3.22673);
    NEAR(i.hi, 5.03935);
}

/* The t quantiles: df 1 is 12.706 and df 30 2.042 (the table); past it
** the expansion, against a statistics table's t(0.975): df 31 2.0395, df 60
** 2.0003, df 100 1.9840, df 118 (119 games, the last below 120) 1.9803;
** from 120 games (df 119) the normal 1.96. At df 31 the normal quantile
** would be 1.95996 / 2.0395 = 3.9% too narrow, what the t fixes. */
static void test_t_quantiles(void **st) {
    (void)st;
    NEAR(stats_t95(1), 12.706);
    NEAR(stats_t95(0), 12.706);
    NEAR(stats_t95(30), 2.042);
    NEAR(stats_t95(31), 2.0395);
    NEAR(stats_t95(60), 2.0003);
    NEAR(stats_t95(100), 1.9840);
    NEAR(stats_t95(118), 1.9803);
    NEAR(stats_t95(119), 1.95996);
    NEAR(stats_t95(1000), 1.95996);
    /* 50 values 0 and 1 alternating: mean 0.5, sd sqrt(12.5 / 49) = 0.50508,
    ** t(49) = 2.0096 (table: 2.0096), half 2.0096 * 0.50508 / sqrt(50) =
    ** 0.14355: [0.35645, 0.64355] (with 1.96: 0.14000) */
    stats_acc a = {0};
    for (int k = 0; k < 50; k++) stats_add(&a, k % 2);
    stats_interval i = stats_mean_ci(&a);
    NEAR(i.lo, 0.35645);
    NEAR(i.hi, 0.64355);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_wilson_half),       cmocka_unit_test(test_wilson_zero),
        cmocka_unit_test(test_wilson_fractional), cmocka_unit_test(test_mean_interval),
        cmocka_unit_test(test_paired_difference), cmocka_unit_test(test_t_quantiles),
        cmocka_unit_test(test_two_valued),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
