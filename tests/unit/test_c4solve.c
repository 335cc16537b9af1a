/*
** test_c4solve.c
** The Connect Four solver of the bots' position suite (tools/c4solve.h):
** positions worked out by hand, the moves refused, and the first lines of
** tests/fixtures/connect4-suite.txt solved again to the same values.
*/
#include "testutil.h"

#include "../../tools/c4solve.h"

#include <stdio.h>

static c4_solver solver;

static int setup(void **st) {
    (void)st;
    return c4_solver_new(&solver);
}

static int teardown(void **st) {
    (void)st;
    c4_solver_free(&solver);
    return 0;
}

/* Moves that cannot be made: a column's seventh disc, a game already won. */
static void test_from_moves(void **st) {
    (void)st;
    c4pos p;
    assert_int_equal(c4_from_moves("111111", &p), 0); /* six alternating discs: no line */
    assert_int_equal(p.moves, 6);
    assert_int_equal(c4_from_moves("1111111", &p), -1); /* the column is full */
    assert_int_equal(c4_from_moves("1212121", &p), -1); /* seat 1's fourth in column 1 won */
    assert_int_equal(c4_from_moves("18", &p), -1);      /* no column 8 */
}

/* 121212: seat 1 has three in column 1, seat 2 three in column 2, seat 1 to
** move. Column 1 wins at once; column 3 (or 7) lets seat 2 win in column 2. */
static void test_win_in_one(void **st) {
    (void)st;
    c4pos p;
    assert_int_equal(c4_from_moves("121212", &p), 0);
    assert_true(c4_wins(&p, 0));
    assert_int_equal(c4_value(&solver, &p), 1);
    assert_int_equal(c4_move_value(&solver, &p, 0), 1);
    assert_int_equal(c4_move_value(&solver, &p, 2), -1);
    assert_int_equal(c4_move_value(&solver, &p, 6), -1);
}

/* 4455: seat 1 holds columns 4 and 5 on the bottom row, seat 2 the two
** discs above them, seat 1 to move. Column 3 (or 6) makes three in a row
** with both ends open on the bottom row: seat 2 blocks one end, seat 1
** plays the other. Seat 2 has no threat of its own to answer with (its row
** 2 needs discs below in columns 2, 3 and 6). So each of those moves wins.
** (The position's own value is not asked: from four discs the solver
** would search column 4 first, deep.) */
static void test_open_three(void **st) {
    (void)st;
    c4pos p;
    assert_int_equal(c4_from_moves("4455", &p), 0);
    assert_int_equal(c4_move_value(&solver, &p, 2), 1);
    assert_int_equal(c4_move_value(&solver, &p, 5), 1);
}

/* The suite's first lines, solved again: the same value and column values. */
static void test_suite_values(void **st) {
    (void)st;
    FILE *f = fopen("tests/fixtures/connect4-suite.txt", "r");
    assert_non_null(f);
    char line[256];
    int checked = 0;
    while (checked < 12 && fgets(line, sizeof line, f)) {
        if (line[0] == '#') continue;
        char moves[64], cols[16], value;
        assert_int_equal(sscanf(line, "%63s %c %15s", moves, &value, cols), 3);
        c4pos p;
        assert_int_equal(c4_from_moves(moves, &p), 0);
        int v = c4_value(&solver, &p);
        assert_int_equal(v >= 0, 1); /* won or drawn only */
        assert_int_equal(value, v > 0 ? 'W' : 'D');
        int thrown = 0;
        for (int c = 0; c < C4_W; c++) {
            if (!c4_can_play(&p, c)) {
                assert_int_equal(cols[c], '-');
                continue;
            }
            int m = c4_move_value(&solver, &p, c);
            assert_int_equal(cols[c], m > 0 ? 'W' : m < 0 ? 'L' : 'D');
            assert_true(m <= v); /* no move beats the position's value */
            thrown |= m < v;
        }
        assert_true(thrown);
        checked++;
    }
    fclose(f);
    assert_int_equal(checked, 12);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_from_moves),
        cmocka_unit_test(test_win_in_one),
        cmocka_unit_test(test_open_three),
        cmocka_unit_test(test_suite_values),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
