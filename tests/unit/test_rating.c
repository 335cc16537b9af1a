/*
** test_rating.c
** Plackett-Luce ratings (rating.c) against fits worked out by hand.
*/
#include "testutil.h"
#include "rating.h"

#include <math.h>

#define NEAR(a, b) assert_true(fabs((a) - (b)) < 1e-4)

/* Two players, a beats b 3 times of 4: Bradley-Terry's fit has gamma_a /
** gamma_b = 3, so the centred theta is -/+ ln 3 / 2 = 0.549306. The
** information: 4 stages of p = 0.75, each p (1 - p) = 0.1875, so 0.75 on
** the diagonal and -0.75 off it; plus 1/2: [[1.25, -0.25], [-0.25, 1.25]],
** determinant 1.5, inverse [[1.25, 0.25], [0.25, 1.25]] / 1.5; minus 1/2:
** [[1/3, -1/3], [-1/3, 1/3]]. se sqrt(1/3) = 0.57735: on Elo's scale a's
** rating is +95.4 -/+ 1.96 * 100.3 = 196.6. */
static void test_two_players(void **st) {
    (void)st;
    rating_model *m = rating_new(2);
    assert_non_null(m);
    static const int ab[] = {0, 1}, won[] = {1, 2}, lost[] = {2, 1};
    for (int i = 0; i < 3; i++) assert_int_equal(rating_add(m, 2, ab, won), 0);
    assert_int_equal(rating_add(m, 2, ab, lost), 0);
    double th[2], se[2];
    assert_true(rating_fit(m, 0, th, se) > 0);
    NEAR(th[0], 0.549306);
    NEAR(th[1], -0.549306);
    NEAR(se[0], 0.57735);
    NEAR(se[1], 0.57735);
    assert_true(fabs(RATING_ELO * th[0] - 95.424) < 0.01); /* 173.718 * 0.549306 */
    rating_free(m);
}

/* Three players in three-seat games, each order a rotation: a>b>c, b>c>a,
** c>a>b. By symmetry every theta is 0. The information: the first stage of
** each game (all three left, p = 1/3) adds 2/9 on the diagonal and -1/9
** off it, three times: 2/3 and -1/3; the second (two left, p = 1/2) adds
** 1/4 and -1/4 to its pair, each player in two of them: 1/2 and -1/4. So
** 7/6 on the diagonal, -7/12 off it: 0 along (1, 1, 1) and 7/4 across it,
** so the centred covariance is (4/7) C, C_ii = 2/3: 8/21, se 0.617213. */
static void test_three_seats(void **st) {
    (void)st;
    rating_model *m = rating_new(3);
    assert_non_null(m);
    static const int abc[] = {0, 1, 2};
    static const int r1[] = {1, 2, 3}, r2[] = {3, 1, 2}, r3[] = {2, 3, 1};
    assert_int_equal(rating_add(m, 3, abc, r1), 0);
    assert_int_equal(rating_add(m, 3, abc, r2), 0);
    assert_int_equal(rating_add(m, 3, abc, r3), 0);
    double th[3], se[3];
    assert_true(rating_fit(m, 0, th, se) > 0);
    for (int i = 0; i < 3; i++) NEAR(th[i], 0), NEAR(se[i], 0.617213);
    rating_free(m);
}

/* A tie draws both seats at once (Breslow): a beats b once, b beats a once,
** and they tie once. Even, theta 0; the stages are one kind, (1, 1) left,
** drawn 1 + 1 + 2 = 4 times, so the information is 4 * 1/4 = 1 on the
** diagonal, -1 off it: 2 across (1, 1), covariance C / 2, se sqrt(1/4) =
** 0.5 (without the tie, sqrt(1/2) = 0.7071: a tie is information). */
static void test_tie(void **st) {
    (void)st;
    rating_model *m = rating_new(2);
    static const int ab[] = {0, 1}, won[] = {1, 2}, lost[] = {2, 1}, tie[] = {1, 1};
    assert_int_equal(rating_add(m, 2, ab, won), 0);
    assert_int_equal(rating_add(m, 2, ab, lost), 0);
    assert_int_equal(rating_add(m, 2, ab, tie), 0);
    double th[2], se[2];
    assert_true(rating_fit(m, 0, th, se) > 0);
    NEAR(th[0], 0);
    NEAR(se[0], 0.5);
    rating_free(m);
}

/* A player who won every game has no finite fit: without a prior the fit
** says so; with a prior of one win and one loss against a virtual player of
** gamma 1, a (2 wins of 2 against b) and b settle. With the prior the
** fixed point is gamma_a = (2 + 1) / (2 / (ga + gb) + 2 / (ga + 1)) and
** gamma_b = 1 / (2 / (ga + gb) + 2 / (gb + 1)); by the symmetry of the
** prior gb = 1 / ga, so with x = ga: 3 = x (2 / (x + 1/x) + 2 / (x + 1)),
** that is 3 = 2 x^2 / (x^2 + 1) + 2 x / (x + 1), whose root is x = 2.13040
** (2 * 4.53860 / 5.53860 = 1.63890, 2 * 2.13040 / 3.13040 = 1.36110, sum
** 3.00000): theta -/+ ln 2.13040 = 0.75631. */
static void test_prior(void **st) {
    (void)st;
    static const int ab[] = {0, 1}, won[] = {1, 2};
    rating_model *m = rating_new(2);
    assert_int_equal(rating_add(m, 2, ab, won), 0);
    assert_int_equal(rating_add(m, 2, ab, won), 0);
    double th[2], se[2];
    assert_int_equal(rating_fit(m, 0, th, se), -1);
    rating_free(m);
    m = rating_new(2);
    assert_int_equal(rating_add(m, 2, ab, won), 0);
    assert_int_equal(rating_add(m, 2, ab, won), 0);
    assert_true(rating_fit(m, 1, th, se) > 0);
    assert_true(fabs(th[0] - 0.75631) < 1e-3);
    assert_true(fabs(th[1] + 0.75631) < 1e-3);
    assert_true(se[0] > 0.5);
    static const int bad[] = {0, 5};
    assert_int_equal(rating_add(m, 2, bad, won), -1);
    rating_free(m);
    assert_null(rating_new(0));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_two_players),
        cmocka_unit_test(test_three_seats),
        cmocka_unit_test(test_tie),
        cmocka_unit_test(test_prior),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
