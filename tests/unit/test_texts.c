/*
** test_texts.c
** Texts nobody reads (engine_texts.c) and the one g.data of a game: in a
** playout g.text gives its key in decisions and heuristic, while what a person
** reads (the decisions shown, a refused answer's reason, a score's
** breakdown) is formatted; in every handler of a game g.data is the very
** table setup saw (fixture engine/texts); a fast game's g is its fields
** table, which refuses new keys (fixture engine/fast_g).
*/
#include "testutil.h"
#include "engine.h"

#include <stdio.h>

static const char *const NAMES[] = {"Ann"};

static engine *texts_game(int fast) {
    engine_config c;
    memset(&c, 0, sizeof c);
    c.ruleset = FIXTURE("engine/texts");
    c.players = 1;
    c.names = NAMES;
    c.seed = 1;
    c.fast = fast;
    cerr_list errs;
    cerr_init(&errs, 0);
    engine *e = engine_new(&c, &errs);
    if (!e) cerr_print(stderr, &errs);
    assert_non_null(e);
    cerr_free(&errs);
    return e;
}

static void answer_ok(engine *e, const char *id) {
    char *why = NULL;
    engine_status st = engine_answer(e, 1, id, &why);
    if (st != ENGINE_OK) fprintf(stderr, "answer %s: %s\n", id, why ? why : "?");
    free(why);
    assert_int_equal(st, ENGINE_OK);
}

/* What apply stored from g.text at its first pick. */
static const char *first_text(const engine *e) {
    const value *texts = value_map_get(engine_state(e), "texts");
    assert_non_null(texts);
    assert_true(texts->type == CV_LIST && texts->u.list.n >= 1);
    return texts->u.list.items[0]->u.str.s;
}

/* A playout's heuristic gets the key (nobody reads its texts); apply gets the
** text in a playout too, so a state that keeps one is the same in both. */
static void test_playout_heuristic_gets_the_key(void **st) {
    (void)st;
    engine *strict = texts_game(0), *fast = texts_game(1);
    answer_ok(strict, "a");
    answer_ok(fast, "a");
    assert_string_equal(first_text(strict), "Ann picks a"); /* "%s picks %s" of Ann, a */
    assert_string_equal(first_text(fast), "Ann picks a");
    cerr_list errs;
    cerr_init(&errs, 0);
    int64_t h_strict = 0, h_fast = 0;
    assert_int_equal(engine_heuristic(strict, 1, &h_strict, &errs), 1);
    assert_int_equal(engine_heuristic(fast, 1, &h_fast, &errs), 1);
    assert_int_equal(h_strict, 6); /* #"points" */
    assert_int_equal(h_fast, 5);   /* #"score", the key */
    cerr_free(&errs);
    /* g.log_text with an audience first: the strict game's seat 1 sees its own
    ** line and the one to it, not the one to everyone but it; a playout keeps none */
    engine_event_list l;
    assert_int_equal(engine_events(strict, 0, 1, &l), 0);
    assert_int_equal(l.n, 2);
    assert_string_equal(l.items[0].text, "Ann picks a");
    assert_string_equal(l.items[1].text, "only picks you");
    engine_event_list_free(&l);
    assert_int_equal(engine_events(fast, 0, 1, &l), 0);
    assert_int_equal(l.n, 0);
    engine_event_list_free(&l);
    engine_free(strict);
    engine_free(fast);
}

/* What a person reads of a playout is formatted all the same: the decisions
** shown (asked again with g.labels on) and a refused answer's reason. */
static void test_playout_shows_formatted_texts(void **st) {
    (void)st;
    engine *e = texts_game(1);
    answer_ok(e, "a");
    char *why = NULL;
    assert_int_equal(engine_answer(e, 1, "b", &why), ENGINE_DISABLED);
    assert_non_null(why);
    assert_string_equal(why, "Beta is out, Ann"); /* not "why_b" */
    free(why);
    engine_decision_list d;
    assert_int_equal(engine_decisions(e, &d), 0);
    assert_int_equal(d.n, 1);
    assert_string_equal(d.items[0].prompt, "Pick, Ann");
    assert_int_equal(d.items[0].n_options, 2);
    assert_string_equal(d.items[0].options[0].label, "Alpha 2"); /* the second pick: picks + 1 = 2 */
    assert_string_equal(d.items[0].options[1].label, "label b"); /* no label given: label() */
    assert_string_equal(d.items[0].options[1].disabled, "Beta is out, Ann");
    engine_decision_list_free(&d);
    /* a score read whole (cairn sim's report) has its breakdown formatted */
    engine_score sc;
    cerr_list errs;
    cerr_init(&errs, 0);
    assert_int_equal(engine_score_get(e, &sc, &errs), 0);
    assert_string_equal(sc.seats[0].items[0].label, "points");
    engine_score_free(&sc);
    cerr_free(&errs);
    engine_free(e);
}

/* setup, decisions, apply, label, score and render see one g.data. */
static void test_one_data_for_every_handler(void **st) {
    (void)st;
    engine *e = texts_game(0);
    answer_ok(e, "a");
    engine_decision_list d;
    assert_int_equal(engine_decisions(e, &d), 0); /* label("b") */
    engine_decision_list_free(&d);
    engine_score sc;
    cerr_list errs;
    cerr_init(&errs, 0);
    assert_int_equal(engine_score_get(e, &sc, &errs), 0);
    engine_score_free(&sc);
    char *board = engine_render(e, 1, &errs);
    assert_non_null(board);
    /* the heuristic is asked by bots only: "-" */
    assert_string_equal(board, "decisions=same apply=same label=same score=same heuristic=- render=same");
    free(board);
    cerr_free(&errs);
    engine_free(e);
}

/* The string field key of state s. */
static const char *state_str(const value *s, const char *key) {
    const value *v = value_map_get(s, key);
    assert_non_null(v);
    assert_int_equal(v->type, CV_STR);
    return v->u.str.s;
}

/* A fast game's handlers get g's fields table itself (engine_api.c,
** seal_fields; fixture engine/fast_g): in apply a new field and rawset are
** refused, g.lang assigned over is taken for that game ("xx"), and the
** g.state apply assigns is the state the engine reads after it (n = 2 after
** two answers, no other way to reach 2). The next game on the same rules
** gets the same pooled sandbox and sees g.lang as built again ("en", the
** ruleset's only language) in setup. */
static void test_fast_g_is_its_fields(void **st) {
    (void)st;
    engine_config c;
    memset(&c, 0, sizeof c);
    c.ruleset = FIXTURE("engine/fast_g");
    c.players = 1;
    c.names = NAMES;
    c.seed = 1;
    c.fast = 1;
    cerr_list errs;
    cerr_init(&errs, 0);
    engine_rules *r = engine_rules_new(&c, &errs);
    if (!r) cerr_print(stderr, &errs);
    assert_non_null(r);
    c.rules = r;
    for (int game = 1; game <= 2; game++) {
        engine *e = engine_new(&c, &errs);
        if (!e) cerr_print(stderr, &errs);
        assert_non_null(e);
        answer_ok(e, "a");
        answer_ok(e, "a");
        assert_true(engine_is_over(e));
        const value *s = engine_state(e);
        assert_non_null(s);
        const value *n = value_map_get(s, "n");
        assert_non_null(n);
        assert_int_equal(n->u.i, 2);
        assert_string_equal(state_str(s, "lang_at_setup"), "en");
        assert_string_equal(state_str(s, "lang"), "xx");
        const value *added = value_map_get(s, "added"), *raw = value_map_get(s, "rawset");
        assert_true(added && added->type == CV_BOOL && !added->u.b);
        assert_true(raw && raw->type == CV_BOOL && !raw->u.b);
        engine_free(e);
    }
    cerr_free(&errs);
    engine_rules_free(r);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_playout_heuristic_gets_the_key),
        cmocka_unit_test(test_playout_shows_formatted_texts),
        cmocka_unit_test(test_one_data_for_every_handler),
        cmocka_unit_test(test_fast_g_is_its_fields),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
