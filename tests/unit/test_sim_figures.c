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

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_breakdown_intervals),
        cmocka_unit_test(test_penalty_line),
        cmocka_unit_test(test_games_to_detect),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
