/*
** test_playout.c
** The engine for many games: a ruleset loaded once (engine_rules) and its
** sandboxes reset between games, fast games playing exactly as strict ones,
** checkpoints behind undo and goto, read-only views refusing writes at the
** script's line, forks and playouts that never touch the game they came
** from, a sampled state kept and a fork refilled (and replayed counted)
** from it, and the budget's CPU timer giving the exact count's verdict.
*/
#include "testutil.h"
#include "engine.h"

#include <stdio.h>

static engine_config config(const char *rs, uint64_t seed, int fast) {
    engine_config c;
    memset(&c, 0, sizeof c);
    c.ruleset = rs;
    c.seed = seed;
    c.fast = fast;
    return c;
}

/* A game of rs (players 0: the ruleset's default) with errs ready, which
** must start. */
static engine *start(const char *rs, uint64_t seed, int fast, int players, cerr_list *errs) {
    engine_config c = config(rs, seed, fast);
    c.players = players;
    cerr_init(errs, 0);
    engine *e = engine_new(&c, errs);
    assert_non_null(e);
    return e;
}

static void answer_ok(engine *e, int seat, const char *id) {
    char *why = NULL;
    engine_status st = engine_answer(e, seat, id, &why);
    if (st != ENGINE_OK) fprintf(stderr, "answer %s: %s\n", id, why ? why : "?");
    free(why);
    assert_int_equal(st, ENGINE_OK);
}

/* Plays random bots to the end; returns the decisions made. */
static size_t play_out(engine *e) {
    size_t n = 0;
    while (!engine_is_over(e)) {
        int seat = 0;
        for (int s = 1; s <= engine_seat_count(e) && !seat; s++)
            if (engine_is_asked(e, s)) seat = s;
        char *why = NULL;
        engine_status st = engine_bot_move(e, seat, &why);
        if (st != ENGINE_OK) fprintf(stderr, "bot: %s\n", why ? why : "?");
        free(why);
        assert_int_equal(st, ENGINE_OK);
        n++;
    }
    return n;
}

/* Counts the debug channel's "rules loaded" lines: the fixtures print it
** at their top level, so it counts the loads of the rules. */
static void count_loads(void *ud, const char *line) {
    if (strstr(line, "rules loaded")) ++*(int *)ud;
}

/* Nothing a script keeps in a global, an upvalue, a module table, a table
** nested in one, a metatable, a closure, a module required late or the
** rules table reaches the next game of the same loaded rules: each game's
** setup sees zeros, though the first game counted 4 calls in each place.
** Strict games load the rules again for every game (3 loads in 3 games);
** fast games load them once and put back what a game changed (1 load). */
static void games_share_nothing(int fast) {
    engine_config c = config(FIXTURE("engine/leaky"), 1, fast);
    int loads = 0;
    c.debug = count_loads;
    c.debug_ud = &loads;
    cerr_list errs;
    cerr_init(&errs, 0);
    engine_rules *r = engine_rules_new(&c, &errs);
    assert_non_null(r);
    c.rules = r;
    static const char *const seen[] = {"global_seen", "upvalue_seen", "module_seen", "deep_seen", "made_seen",
                                       "meta_seen",   "bump_seen",    "rules_seen",  "late_seen"};
    for (int game = 0; game < 3; game++) {
        engine *e = engine_new(&c, &errs);
        if (!e) fprintf(stderr, "%s\n", errs.n ? errs.items[0].message : "?");
        assert_non_null(e);
        const value *s = engine_state(e);
        for (size_t i = 0; i < sizeof seen / sizeof seen[0]; i++) {
            if (value_get_int(s, seen[i], -1) != 0) fprintf(stderr, "game %d: %s\n", game + 1, seen[i]);
            assert_int_equal(value_get_int(s, seen[i], -1), 0);
        }
        assert_int_equal(play_out(e), 3); /* setup + 3 steps: 4 calls kept in each place */
        engine_free(e);
    }
    assert_int_equal(loads, fast ? 1 : 3);
    engine_rules_free(r);
    cerr_free(&errs);
}

static void test_games_share_nothing(void **st) {
    (void)st;
    games_share_nothing(0);
    games_share_nothing(1);
}

/* A coroutine made while the rules load cannot be put back as it was: a
** fast game loads such rules again for every game, as a strict one does, and
** each game's count starts at 0 (3 loads in 3 games either way). */
static void test_rules_with_a_coroutine_load_every_game(void **st) {
    (void)st;
    for (int fast = 0; fast <= 1; fast++) {
        engine_config c = config(FIXTURE("engine/leaky_thread"), 1, fast);
        int loads = 0;
        c.debug = count_loads;
        c.debug_ud = &loads;
        cerr_list errs;
        cerr_init(&errs, 0);
        engine_rules *r = engine_rules_new(&c, &errs);
        assert_non_null(r);
        c.rules = r;
        for (int game = 0; game < 3; game++) {
            engine *e = engine_new(&c, &errs);
            assert_non_null(e);
            assert_int_equal(value_get_int(engine_state(e), "counted", -1), 0);
            assert_int_equal(play_out(e), 2);
            engine_free(e);
        }
        assert_int_equal(loads, 3);
        engine_rules_free(r);
        cerr_free(&errs);
    }
}

/* The label the engine shows for each option of the one decision asked. */
static void labels_of(engine *e, char *out0, char *out1, size_t n) {
    engine_decision_list d;
    assert_int_equal(engine_decisions(e, &d), 0);
    assert_int_equal(d.n, 1);
    assert_int_equal(d.items[0].n_options, 2);
    snprintf(out0, n, "%s", d.items[0].options[0].label);
    snprintf(out1, n, "%s", d.items[0].options[1].label);
    engine_decision_list_free(&d);
}

/* The engine's tables of ids and labels go from one game to the next with
** the pooled sandbox: what one game's decisions labelled never shows in the
** next. Ann's games label both options (Alpha, Beta); Bob's only the first,
** so his second option shows its id, b (an unlabelled option shows its id),
** in every game, whoever played before; in strict and in fast games. Ann
** leaves her games with the decision open (the labels still in the tables:
** a game that ends asks once more, and reads an empty list); Bob finishes. */
static void test_games_share_no_labels(void **st) {
    (void)st;
    for (int fast = 0; fast <= 1; fast++) {
        engine_config c = config(FIXTURE("engine/relabel"), 1, fast);
        cerr_list errs;
        cerr_init(&errs, 0);
        engine_rules *r = engine_rules_new(&c, &errs);
        assert_non_null(r);
        c.rules = r;
        const char *order[] = {"Ann", "Bob", "Ann", "Bob", "Bob"};
        for (size_t game = 0; game < sizeof order / sizeof *order; game++) {
            const char *names[] = {order[game]};
            c.names = names;
            engine *e = engine_new(&c, &errs);
            assert_non_null(e);
            char l0[32], l1[32];
            labels_of(e, l0, l1, sizeof l0);
            assert_string_equal(l0, "Alpha");
            assert_string_equal(l1, strcmp(order[game], "Ann") == 0 ? "Beta" : "b");
            if (strcmp(order[game], "Bob") == 0) {
                answer_ok(e, 1, "b");
                assert_true(engine_is_over(e));
            }
            engine_free(e);
        }
        engine_rules_free(r);
        cerr_free(&errs);
    }
}

/* engine_state_int reads what engine_state shows: at a fast game's end off
** the live table (checked plain there), anywhere else from the tree; a field
** that is missing or no integer gives the default. Connect Four seed 1:
** the state after the game has moves = the decisions made, winner 1 or 2
** (or 0, a draw), over = true (a boolean: the default). */
static void test_state_int(void **st) {
    (void)st;
    for (int fast = 0; fast <= 1; fast++) {
        engine_config c = config("connect4", 1, fast);
        cerr_list errs;
        cerr_init(&errs, 0);
        engine *e = engine_new(&c, &errs);
        assert_non_null(e);
        assert_int_equal(engine_state_int(e, "moves", -1), 0);
        size_t n = play_out(e);
        assert_int_equal(engine_state_int(e, "moves", -1), (int64_t)n);
        int64_t w = engine_state_int(e, "winner", -1);
        assert_true(w >= 0 && w <= 2);
        assert_int_equal(engine_state_int(e, "over", -7), -7);
        assert_int_equal(engine_state_int(e, "no such field", -7), -7);
        const value *s = engine_state(e); /* the tree agrees, and is now the cache read */
        assert_int_equal(value_get_int(s, "moves", -1), (int64_t)n);
        assert_int_equal(value_get_int(s, "winner", -1), w);
        assert_int_equal(engine_state_int(e, "moves", -1), (int64_t)n);
        engine_free(e);
        cerr_free(&errs);
    }
}

/* A fast game and a strict one with the same seed make the same decisions
** and end in the same state, on every shipped ruleset. */
static void test_fast_plays_as_strict(void **st) {
    (void)st;
    const char *names[] = {"connect4", "goofspiel", "yak"};
    for (size_t i = 0; i < 3; i++) {
        for (uint64_t seed = 1; seed <= 3; seed++) {
            cerr_list errs;
            cerr_init(&errs, 0);
            engine_config c = config(names[i], seed, 0);
            engine *strict = engine_new(&c, &errs);
            c.fast = 1;
            engine *fast = engine_new(&c, &errs);
            assert_non_null(strict);
            assert_non_null(fast);
            assert_int_equal(play_out(strict), play_out(fast));
            assert_true(engine_state_hash(strict) == engine_state_hash(fast));
            engine_free(strict);
            engine_free(fast);
            cerr_free(&errs);
        }
    }
}

/* Undo and goto across several checkpoints (one every 16 decisions) give
** back exactly the positions passed: state hash and RNG. */
static void test_checkpoints(void **st) {
    (void)st;
    cerr_list errs;
    engine *e = start("yak", 4, 0, 2, &errs);
    enum { N = 60 };
    uint64_t h[N + 1];
    h[0] = engine_state_hash(e);
    for (size_t k = 1; k <= N; k++) {
        int seat = 0;
        for (int s = 1; s <= 2 && !seat; s++)
            if (engine_is_asked(e, s)) seat = s;
        assert_int_equal(engine_bot_move(e, seat, NULL), ENGINE_OK);
        h[k] = engine_state_hash(e);
    }
    const size_t visits[] = {0, 59, 17, 16, 15, 33, 60, 1, 48};
    for (size_t i = 0; i < sizeof visits / sizeof *visits; i++) {
        assert_int_equal(engine_goto(e, visits[i]), 0);
        assert_int_equal(engine_position(e), visits[i]);
        assert_true(engine_state_hash(e) == h[visits[i]]);
    }
    for (size_t k = 48; k > 30; k--) {
        assert_int_equal(engine_undo(e), 0);
        assert_true(engine_state_hash(e) == h[k - 1]);
    }
    assert_int_equal(engine_redo(e), 0);
    assert_true(engine_state_hash(e) == h[31]);
    engine_free(e);
    cerr_free(&errs);
}

/* score, heuristic and label (through pairs) try to write: each is refused
** at the line of the write, and the state is unchanged. */
static void test_read_only_views(void **st) {
    (void)st;
    cerr_list errs;
    engine *e = start(FIXTURE("engine/writer"), 1, 0, 0, &errs);
    uint64_t h = engine_state_hash(e);
    engine_score sc;
    assert_int_equal(engine_score_get(e, &sc, &errs), -1);
    char *msg = cerr_format(&errs.items[0]);
    assert_non_null(strstr(msg, "writer/rules.lua:21:")); /* g.state.n = 100 */
    assert_non_null(strstr(msg, "read-only"));
    free(msg);
    cerr_clear(&errs);
    int64_t v;
    assert_int_equal(engine_heuristic(e, 1, &v, &errs), -1);
    msg = cerr_format(&errs.items[0]);
    assert_non_null(strstr(msg, "writer/rules.lua:27:")); /* deep.list[#deep.list + 1] = 3 */
    free(msg);
    cerr_clear(&errs);
    engine_decision_list l;
    assert_int_equal(engine_decisions(e, &l), 0);
    assert_int_equal(l.n, 1);
    assert_non_null(strstr(l.items[0].options[0].label, "label failed"));
    assert_non_null(strstr(l.items[0].options[0].label, "rules.lua:13:")); /* v.list[1] = 99 */
    engine_decision_list_free(&l);
    assert_true(engine_state_hash(e) == h);
    answer_ok(e, 1, "inc");
    assert_int_equal(value_get_int(engine_state(e), "n", -1), 1);
    engine_free(e);
    cerr_free(&errs);
}

/* A fork plays to the end without moving the game it came from; the same
** reseed plays the same game, and reseed 0 plays as the origin would. */
static void test_forks(void **st) {
    (void)st;
    cerr_list errs;
    engine *e = start("connect4", 7, 0, 0, &errs);
    for (int k = 0; k < 5; k++) assert_int_equal(engine_bot_move(e, k % 2 + 1, NULL), ENGINE_OK);
    uint64_t h = engine_state_hash(e);
    size_t pos = engine_position(e);

    engine *f = engine_fork(e, 0, &errs);
    assert_non_null(f);
    assert_int_equal(engine_fork_origin(f), 5);
    assert_true(engine_state_hash(f) == h);
    long made = engine_playout(f, 1000, NULL, NULL, &errs);
    assert_true(made > 0);
    assert_true(engine_is_over(f));
    assert_true(engine_state_hash(e) == h);
    assert_int_equal(engine_position(e), pos);
    assert_false(engine_is_over(e));
    uint64_t end1 = engine_state_hash(f);
    engine_free(f);

    f = engine_fork(e, 0, &errs); /* the same again */
    assert_int_equal(engine_playout(f, 1000, NULL, NULL, &errs), made);
    assert_true(engine_state_hash(f) == end1);
    engine_free(f);

    /* a fork stopped after 3 decisions stands 3 decisions further on */
    f = engine_fork(e, 99, &errs);
    assert_int_equal(engine_playout(f, 3, NULL, NULL, &errs), 3);
    assert_false(engine_is_over(f));
    engine_free(f);
    engine_free(e);
    cerr_free(&errs);
}

/* A sample kept (engine_fork_pool.c): the state determinize drew into a fork
** is taken as a value; a fork refilled from it stands on that state again
** (without calling determinize: its count stays 1) at the game's position,
** with its chance from the new stream: the same stream plays the same game
** twice, another one another game. Taking a sample after a decision, or
** from a game that is no fork, is refused. */
static void test_fork_keeps_a_sample(void **st) {
    (void)st;
    cerr_list errs;
    engine *e = start("goofspiel", 3, 0, 2, &errs);
    assert_int_equal(engine_bot_move(e, 1, NULL), ENGINE_OK); /* seat 1 bids, unseen by seat 2 */
    value *view = engine_view(e, 2);
    assert_non_null(view);
    engine *f = engine_fork_sampled(e, view, 2, 7, &errs);
    assert_non_null(f);
    assert_int_equal(engine_fork_samples(f), 1);
    value *kept = engine_fork_take_sample(f, &errs);
    assert_non_null(kept);
    uint64_t sampled = engine_state_hash(f);

    /* played on, then refilled from the kept state: where it stood */
    assert_true(engine_playout(f, 1000, NULL, NULL, &errs) > 0);
    assert_true(engine_is_over(f));
    assert_null(engine_fork_take_sample(f, &errs)); /* no longer at its start */
    assert_non_null(strstr(errs.items[0].message, "not a fork at its start"));
    cerr_clear(&errs);
    assert_int_equal(engine_fork_refill_sample(f, e, kept, 11, &errs), 0);
    assert_true(engine_state_hash(f) == sampled);
    assert_int_equal(engine_fork_origin(f), engine_position(e));
    assert_false(engine_is_over(f));
    assert_int_equal(engine_fork_samples(f), 1); /* determinize did not run */
    assert_true(engine_playout(f, 1000, NULL, NULL, &errs) > 0);
    uint64_t end11 = engine_state_hash(f);
    assert_int_equal(engine_fork_refill_sample(f, e, kept, 11, &errs), 0); /* the same stream: the same game */
    assert_true(engine_playout(f, 1000, NULL, NULL, &errs) > 0);
    assert_true(engine_state_hash(f) == end11);
    assert_int_equal(engine_fork_refill_sample(f, e, kept, 12, &errs), 0); /* another: another game */
    assert_true(engine_playout(f, 1000, NULL, NULL, &errs) > 0);
    assert_true(engine_state_hash(f) != end11);
    /* the sample itself is untouched by the games played from it */
    assert_int_equal(engine_fork_refill_sample(f, e, kept, 13, &errs), 0);
    assert_true(engine_state_hash(f) == sampled);
    assert_int_equal(errs.n, 0);
    engine_free(f);

    assert_null(engine_fork_take_sample(e, &errs)); /* the game itself is no fork */
    assert_int_equal(errs.n, 1);
    value_free(kept);
    value_free(view);
    engine_free(e);
    cerr_free(&errs);
}

/* A failing decision inside a fork ends the fork with an error that says
** where; the game it came from is untouched and plays on. */
static void test_fork_errors(void **st) {
    (void)st;
    cerr_list errs;
    engine *e = start(FIXTURE("engine/txn"), 3, 0, 1, &errs);
    answer_ok(e, 1, "inc");
    uint64_t h = engine_state_hash(e);
    engine *f = engine_fork(e, 0, &errs);
    assert_non_null(f);
    char *why = NULL;
    assert_int_equal(engine_answer(f, 1, "boom", &why), ENGINE_RULES_ERROR);
    assert_non_null(strstr(why, "boom goes the rule"));
    free(why);
    assert_true(engine_is_over(f)); /* a failed fork plays no more */
    engine_free(f);
    assert_true(engine_state_hash(e) == h);
    answer_ok(e, 1, "inc");
    cerr_free(&errs);
    engine_free(e);
}

/* A fork's decision that runs long under the budget's CPU timer (about 80
** million instructions: at least 20 ms of CPU, past the timer's 4 ticks of
** 5 ms, under the budget of 200 million) is played again counted, with the
** fork's decision before it: the fork plays on, and (keeping the game's RNG:
** reseed 0) its state is the game's after the same decisions, draws
** included. */
static void test_fork_recounts_a_long_decision(void **st) {
    (void)st;
    cerr_list errs;
    engine *e = start(FIXTURE("engine/long_fork"), 5, 0, 0, &errs);
    answer_ok(e, 1, "roll");
    engine *f = engine_fork(e, 0, &errs);
    assert_non_null(f);
    answer_ok(f, 1, "roll");
    answer_ok(f, 1, "long");
    engine_stats s;
    engine_get_stats(f, &s);
    assert_true(s.recounted >= 1); /* it did run under the timer first */
    answer_ok(e, 1, "roll");
    answer_ok(e, 1, "long");
    assert_true(engine_state_hash(f) == engine_state_hash(e));
    answer_ok(f, 1, "roll"); /* it plays on, counted */
    answer_ok(e, 1, "roll");
    assert_true(engine_state_hash(f) == engine_state_hash(e));
    engine_free(f);
    cerr_free(&errs);
    engine_free(e);
}

/* The same from a kept sample: the fork is played again from the kept state
** (two rolls), not from the game's (three by then): 2 + roll + long = 4
** rolls; and a second fork from the same sample and stream ends the same. */
static void test_fork_recounts_from_a_kept_sample(void **st) {
    (void)st;
    cerr_list errs;
    engine *e = start(FIXTURE("engine/long_fork"), 5, 0, 0, &errs);
    answer_ok(e, 1, "roll");
    answer_ok(e, 1, "roll");
    engine *f = engine_fork(e, 0, &errs);
    assert_non_null(f);
    value *kept = engine_fork_take_sample(f, &errs); /* rolls: 2 */
    assert_non_null(kept);
    answer_ok(e, 1, "roll"); /* the game's rolls: 3 */
    uint64_t ends[2];
    for (int i = 0; i < 2; i++) {
        assert_int_equal(engine_fork_refill_sample(f, e, kept, 7, &errs), 0);
        answer_ok(f, 1, "roll");
        answer_ok(f, 1, "long");
        engine_stats s;
        engine_get_stats(f, &s);
        assert_true(s.recounted >= 1); /* it ran under the timer first (then the sandbox counts always) */
        const value *rolls = value_map_get(engine_state(f), "rolls");
        assert_non_null(rolls);
        assert_int_equal(rolls->u.list.n, 4);
        ends[i] = engine_state_hash(f);
    }
    assert_true(ends[0] == ends[1]);
    assert_int_equal(errs.n, 0);
    engine_free(f);
    value_free(kept);
    cerr_free(&errs);
    engine_free(e);
}

/* A handler that never ends, under the default budget: the CPU timer stops
** it, it runs again counted, and the error is the count's, at its line. */
static void test_budget_timer_is_exact(void **st) {
    (void)st;
    cerr_list errs;
    engine *e = start(FIXTURE("engine/txn"), 3, 0, 1, &errs);
    uint64_t h = engine_state_hash(e);
    char *why = NULL;
    assert_int_equal(engine_answer(e, 1, "loop", &why), ENGINE_RULES_ERROR);
    assert_non_null(strstr(why, "txn/rules.lua:28: instruction budget of 200000000 exceeded"));
    free(why);
    engine_stats s;
    engine_get_stats(e, &s);
    assert_true(s.recounted >= 1); /* it did run under the timer first */
    assert_true(engine_state_hash(e) == h);
    answer_ok(e, 1, "inc");
    engine_free(e);
    cerr_free(&errs);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_games_share_nothing),
        cmocka_unit_test(test_rules_with_a_coroutine_load_every_game),
        cmocka_unit_test(test_games_share_no_labels),
        cmocka_unit_test(test_state_int),
        cmocka_unit_test(test_fast_plays_as_strict),
        cmocka_unit_test(test_checkpoints),
        cmocka_unit_test(test_read_only_views),
        cmocka_unit_test(test_forks),
        cmocka_unit_test(test_fork_keeps_a_sample),
        cmocka_unit_test(test_fork_errors),
        cmocka_unit_test(test_budget_timer_is_exact),
        cmocka_unit_test(test_fork_recounts_a_long_decision),
        cmocka_unit_test(test_fork_recounts_from_a_kept_sample),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
