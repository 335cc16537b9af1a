/*
** test_answer_match.c
** Which options a typed answer names (play/answer_match.c): the one option
** answer_match picks, and the options a shared prefix could mean
** (answer_candidates), which the console lists with their labels. A number
** is an option's number, never a prefix of an id word.
*/
#include "testutil.h"
#include "answer_match.h"

/* Three options as a market might offer them: two ids whose second word is
** a number (40, 45) and a third. */
static engine_option opts[] = {
    {"buy 40", "buy the yak for 40", NULL},
    {"buy 45", "buy the cart for 45", NULL},
    {"pass", "pass", NULL},
};
static const engine_decision d = {1, "choose", 0, opts, 3};

static void test_match(void **st) {
    (void)st;
    char *why = NULL;
    assert_int_equal(answer_match(&d, "pass", 0, "no option %s: choose 1 to %zu", &why), 2); /* exact id */
    assert_int_equal(answer_match(&d, "2", 0, "no option %s: choose 1 to %zu", &why), 1);    /* number 2 */
    assert_int_equal(answer_match(&d, "buy 4", 0, "no option %s: choose 1 to %zu", &why), -1); /* both */
    assert_non_null(why);
    free(why);
    /* "4" is a number out of range (3 options), not a prefix of "40" and "45" */
    assert_int_equal(answer_match(&d, "4", 0, "no option %s: choose 1 to %zu", &why), -1);
    assert_string_equal(why, "no option 4: choose 1 to 3");
    free(why);
}

static void test_candidates(void **st) {
    (void)st;
    size_t idx[3] = {9, 9, 9};
    /* "bu": the ids "buy 40" and "buy 45" (pass 0: ids) */
    assert_int_equal(answer_candidates(&d, "bu", idx, 3), 2);
    assert_int_equal(idx[0], 0);
    assert_int_equal(idx[1], 1);
    /* "the": no id starts so; the labels of both buys do (pass 1) */
    assert_int_equal(answer_candidates(&d, "the", idx, 3), 0);
    assert_int_equal(answer_candidates(&d, "BUY THE", idx, 3), 2); /* labels, any case */
    /* too short an idx: the count still says how many there are */
    assert_int_equal(answer_candidates(&d, "buy", idx, 1), 2);
    /* a number names no candidates: answer_match reads "4" as option 4 */
    assert_int_equal(answer_candidates(&d, "4", idx, 3), 0);
    assert_int_equal(answer_candidates(&d, "45", idx, 3), 0);
    assert_int_equal(answer_candidates(&d, "", idx, 3), 0);
    assert_int_equal(answer_candidates(NULL, "bu", idx, 3), 0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_match),
        cmocka_unit_test(test_candidates),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
