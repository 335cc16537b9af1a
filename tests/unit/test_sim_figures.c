/*
** test_sim_figures.c
** The figures sim_totals.c counts, from records written by hand: a
** breakdown line with two values gets Wilson's interval on them, a line with
** more gets the t interval kept within its extremes, and a line never seen
** in a seat is a line worth 0 there. It reaches into sim's own header (its
** totals are sim's business), hence CAIRN_FOLDER_sim.
*/
#define CAIRN_FOLDER_sim 1
#include "testutil.h"
#include "sim_internal.h"

#include <math.h>

#define NEAR(a, b) assert_true(fabs((a) - (b)) < 1e-3)

/* A record of two seats: seat 1's items, then seat 2's, as JSON text. */
static void add(sim_totals *t, long index, const char *items1, const char *items2) {
    char line[512];
    snprintf(line, sizeof line,
             "{\"index\": %ld, \"variant\": 0, \"seed\": %ld, \"ok\": true, \"decisions\": 3, \"rounds\": -1, "
             "\"starter\": 0, \"branch\": 6, \"seats\": [{\"total\": 1, \"rank\": 1, \"items\": [%s]}, "
             "{\"total\": 0, \"rank\": 2, \"items\": [%s]}]}",
             index, index + 1, items1, items2);
    sim_rec r;
    assert_int_equal(sim_rec_parse(line, strlen(line), &r), 0);
    assert_int_equal(sim_totals_add(t, &r), 0);
    sim_rec_free(&r);
}

static const sim_label *label(const sim_totals *t, const char *key) {
    for (size_t i = 0; i < t->n_labels; i++)
        if (!strcmp(t->label[i].key, key)) return &t->label[i];
    fail_msg("no line %s", key);
    return NULL;
}

/* Ten games. "crown" is worth 5 to seat 1 in games 1 and 2 and absent
** elsewhere (0): two values, 0 and 5, won 2 of 10 times by seat 1 and never
** by seat 2. Wilson for 2 of 10 is [0.05668, 0.50984] (test_stats.c), on
** [0, 5]: [0.28341, 2.54919]; for 0 of 10 [0, 0.27753], on [0, 5]: [0,
** 1.38766] (the t interval would say [0, 0]). "pips" is 1, 2 or 3 in turn
** for seat 1 (games 0-9: 1 2 3 1 2 3 1 2 3 1, mean 19/10 = 1.9) and 1 in
** every game for seat 2: three values, so seat 2's 1.0 gets 1 -/+ 3.8415 /
** 13.8415 = 0.27753, kept within the line's least value 1: [1, 1.27753].
** Seat 1's: squares 4 * 1 + 3 * 4 + 3 * 9 = 43, sd sqrt((43 - 10 * 1.9^2) /
** 9) = sqrt(6.9 / 9) = 0.87560, t(9) = 2.262, half 2.262 * 0.87560 /
** sqrt(10) = 0.62632: [1.27368, 2.52632].
** "split" comes in two items in one game (2 + 3 = 5, in game 0 for seat 1):
** the game's value is their sum, so it too is two-valued, 0 and 5, 1 of 10:
** Wilson [0.01787, 0.40415] (p 0.1: centre (0.1 + 0.19208) / 1.38415 =
** 0.21102, half 1.41600 * sqrt(0.009 + 0.0096037) = 0.19313), on [0, 5]
** [0.08937, 2.02074]. */
static void test_breakdown_intervals(void **st) {
    (void)st;
    sim_totals t;
    assert_int_equal(sim_totals_init(&t, 2), 0);
    for (long g = 0; g < 10; g++) {
        char one[128];
        snprintf(one, sizeof one, "[\"pips\", %ld]%s%s", g % 3 + 1, g == 1 || g == 2 ? ", [\"crown\", 5]" : "",
                 g == 0 ? ", [\"split\", 2], [\"split\", 3]" : "");
        add(&t, g, one, "[\"pips\", 1]");
    }
    assert_int_equal(t.games, 10);
    int two;
    const sim_label *crown = label(&t, "crown");
    stats_interval i = sim_label_ci(&t, crown, 0, &two);
    assert_int_equal(two, 1);
    NEAR(i.lo, 0.28341);
    NEAR(i.hi, 2.54919);
    i = sim_label_ci(&t, crown, 1, &two);
    assert_int_equal(two, 1);
    NEAR(i.lo, 0.0);
    NEAR(i.hi, 1.38766);
    const sim_label *pips = label(&t, "pips");
    i = sim_label_ci(&t, pips, 0, &two);
    assert_int_equal(two, 0);
    NEAR(pips->sum[0] / 10, 1.9);
    NEAR(i.lo, 1.27368);
    NEAR(i.hi, 2.52632);
    i = sim_label_ci(&t, pips, 1, &two);
    assert_int_equal(two, 0);
    NEAR(i.lo, 1.0);
    NEAR(i.hi, 1.27753);
    const sim_label *split = label(&t, "split");
    NEAR(split->sum[0], 5);
    NEAR(split->sumsq[0], 25); /* one game of 5, not 2^2 + 3^2 */
    i = sim_label_ci(&t, split, 0, &two);
    assert_int_equal(two, 1);
    NEAR(i.lo, 0.08937);
    NEAR(i.hi, 2.02074);
    sim_totals_free(&t);
}

/* A line worth -1 or 0 (a penalty): -1 in 3 of 10 games for seat 1 and
** present (at 0) in the rest. The higher value is 0, had in 7 of 10: Wilson
** for 7 of 10 is [0.39677, 0.89221] (the mirror of 3 of 10: p 0.3, centre
** (0.3 + 0.19208) / 1.38415 = 0.35551, half 1.41600 * sqrt(0.021 +
** 0.0096037) = 0.24773: [0.10779, 0.60323]), on [-1, 0]: -1 + [0.39677,
** 0.89221] = [-0.60323, -0.10779]. */
static void test_penalty_line(void **st) {
    (void)st;
    sim_totals t;
    assert_int_equal(sim_totals_init(&t, 2), 0);
    for (long g = 0; g < 10; g++) add(&t, g, g < 3 ? "[\"late\", -1]" : "[\"late\", 0]", "[\"late\", 0]");
    int two;
    stats_interval i = sim_label_ci(&t, label(&t, "late"), 0, &two);
    assert_int_equal(two, 1);
    NEAR(i.lo, -0.60323);
    NEAR(i.hi, -0.10779);
    sim_totals_free(&t);
}

/* Paired games to detect a shift: differences 1, 1, 1, 1, 0, 0, 0, 0, 0, 0
** have mean 0.4 and sd sqrt((4 - 10 * 0.16) / 9) = sqrt(2.4 / 9) = 0.51640;
** ((1.95996 + 0.84162) * 0.51640 / 0.4)^2 = (3.61681)^2 = 13.08, so 14.
** No shift: -1. */
static void test_games_to_detect(void **st) {
    (void)st;
    stats_acc d = {0};
    for (int i = 0; i < 10; i++) stats_add(&d, i < 4 ? 1 : 0);
    assert_int_equal(sim_games_to_detect(&d), 14);
    stats_acc none = {0};
    for (int i = 0; i < 10; i++) stats_add(&none, 0);
    assert_int_equal(sim_games_to_detect(&none), -1);
}

/* Two win shares compared: 6 of 10 against 2 of 10, difference 0.4. Wilson's
** centres are (0.6 + 0.19208) / 1.38415 = 0.57226 and (0.2 + 0.19208) /
** 1.38415 = 0.28326; se sqrt(0.57226 * 0.42774 / 10 + 0.28326 * 0.71674 / 10)
** = sqrt(0.024478 + 0.020303) = 0.21162, half 1.95996 * 0.21162 = 0.41476:
** [-0.01476, 0.81476], which holds 0. */
static void test_share_difference(void **st) {
    (void)st;
    double d;
    stats_interval i = sim_share_difference(6, 10, 2, 10, &d);
    NEAR(d, 0.4);
    NEAR(i.lo, -0.01476);
    NEAR(i.hi, 0.81476);
}

/* --coverage's "took" masks: option "x" is taken by seat 1 in 3 games of 4
** (masks 1, 1, 3, 2: seat 2 in the last two). Seat 1 wins games 0 and 2,
** seat 2 games 1 and 3. The seats that took it: game 0 seat 1 (won), game 1
** seat 1 (lost), game 2 seats 1 (won) and 2 (lost), game 3 seat 2 (won): 3
** wins in 5. Those that did not: seat 2 in games 0 and 1 (lost, won) and
** seat 1 in game 3 (lost): 1 win in 3. */
static void test_option_took(void **st) {
    (void)st;
    sim_totals t;
    assert_int_equal(sim_totals_init(&t, 2), 0);
    static const unsigned masks[] = {1, 1, 3, 2};
    for (long g = 0; g < 4; g++) {
        char line[512];
        int one = g % 2 == 0; /* seat 1 wins the even games */
        snprintf(line, sizeof line,
                 "{\"index\": %ld, \"variant\": 0, \"seed\": %ld, \"ok\": true, \"decisions\": 3, \"rounds\": -1, "
                 "\"starter\": 0, \"branch\": 6, \"seats\": [{\"total\": %d, \"rank\": %d, \"items\": []}, "
                 "{\"total\": %d, \"rank\": %d, \"items\": []}], \"cov\": [[\"x\", 2, 0, 2, %u]]}",
                 g, g + 1, one, one ? 1 : 2, !one, one ? 2 : 1, masks[g]);
        sim_rec r;
        assert_int_equal(sim_rec_parse(line, strlen(line), &r), 0);
        assert_int_equal(sim_totals_add(&t, &r), 0);
        sim_rec_free(&r);
    }
    assert_int_equal(t.n_cov, 1);
    assert_int_equal(t.cov[0].with_n, 5);
    NEAR(t.cov[0].with_wins, 3);
    assert_int_equal(t.cov[0].without_n, 3);
    NEAR(t.cov[0].without_wins, 1);
    sim_totals_free(&t);
}

/* Holm: p 0.01, 0.04, 0.03, 0.005 (m = 4). Ascending: 0.005 * 4 = 0.02, 0.01
** * 3 = 0.03, 0.03 * 2 = 0.06, 0.04 * 1 = 0.04, raised to the running
** maximum 0.06. So 0.03, 0.06, 0.06, 0.02. The p-value of a mean: 0.4 with
** sd 0.51640 over 10: z = 0.4 / (0.51640 / sqrt(10)) = 2.44949, two-sided
** 2 (1 - Phi(2.44949)) = 0.014306. */
static void test_holm(void **st) {
    (void)st;
    static const double p[] = {0.01, 0.04, 0.03, 0.005};
    double adj[4];
    sim_holm(p, adj, 4);
    NEAR(adj[0], 0.03);
    NEAR(adj[1], 0.06);
    NEAR(adj[2], 0.06);
    NEAR(adj[3], 0.02);
    stats_acc d = {0};
    for (int i = 0; i < 10; i++) stats_add(&d, i < 4 ? 1 : 0);
    NEAR(sim_two_sided_p(&d), 0.014306);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_breakdown_intervals),
        cmocka_unit_test(test_penalty_line),
        cmocka_unit_test(test_games_to_detect),
        cmocka_unit_test(test_share_difference),
        cmocka_unit_test(test_option_took),
        cmocka_unit_test(test_holm),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
