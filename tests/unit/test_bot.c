/*
** test_bot.c
** Bots: parsing KIND:PARAM=V, refusing search bots on games with secrets and
** no determinize, catching a determinize that changes what the seat sees
** (with the hook's file:line), greedy and mcts finding a win and mcts a
** block in connect4, iteration budgets giving the same choice every run,
** no cheating (two true states with one view give one choice, goofspiel
** Yak, Himalaya, Kathmandu), samples of Himalaya and Kathmandu keeping
** their rules' invariants, options marked `bot = false` passed by,
** `pool=K` calling determinize K times a search (and refused out of range),
** and `cairn sim --bots`.
*/
#include "repl_text.h"
#include "testutil.h"
#include "bot.h"
#include "engine.h"
#include "sim.h"
#include "view.h"
#include "testbot.h"

#include <stdio.h>

static engine *game(const char *rs, uint64_t seed, int players, cerr_list *errs) {
    engine_config c;
    memset(&c, 0, sizeof c);
    c.ruleset = rs;
    c.seed = seed;
    c.players = players;
    engine *e = engine_new(&c, errs);
    if (!e && errs->n) fprintf(stderr, "%s\n", errs->items[0].message);
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

/* The bot's choice, which must succeed. */
static char *choose(const char *spec, engine *e, int seat, char **why) {
    bot *b;
    char *id = test_bot_decide(spec, e, seat, NULL, &b);
    if (why) {
        char *w = bot_why(b);
        /* the first line holds the time taken: only the rest must repeat */
        char *nl = strchr(w, '\n');
        *why = strdup(nl ? nl : "");
        free(w);
    }
    bot_free(b);
    return id;
}

/* The first error of a spec that must not parse. */
static void bad_spec(const char *spec, const char *says) {
    cerr_list errs;
    cerr_init(&errs, 0);
    assert_null(bot_new(spec, &errs));
    assert_true(errs.n > 0);
    if (!strstr(errs.items[0].message, says)) fprintf(stderr, "%s: %s\n", spec, errs.items[0].message);
    assert_non_null(strstr(errs.items[0].message, says));
    cerr_free(&errs);
}

static void test_specs(void **st) {
    (void)st;
    cerr_list errs;
    cerr_init(&errs, 0);
    bot *b = bot_new("mcts:iterations=2000,c=2", &errs);
    assert_non_null(b);
    assert_string_equal(bot_kind(b), "mcts");
    assert_false(bot_is_timed(b));
    bot_free(b);
    b = bot_new("mcts:time=0.5", &errs);
    assert_non_null(b);
    assert_true(bot_is_timed(b));
    bot_free(b);
    b = bot_new("yak:builder", &errs);
    assert_non_null(b);
    assert_string_equal(bot_kind(b), "yak");
    bot_free(b);
    b = bot_new("ismcts:pool=256", &errs); /* CAIRN_BOT_MAX_POOL */
    assert_non_null(b);
    bot_free(b);
    b = bot_new("mcts:pool=0", &errs);
    assert_non_null(b);
    bot_free(b);
    assert_int_equal(errs.n, 0);
    cerr_free(&errs);
    bad_spec("nosuch", "the kinds are: random, greedy, mcts");
    bad_spec("mcts:speed=3", "no parameter \"speed\"; it takes: iterations, time");
    bad_spec("mcts:iterations=many", "iterations takes a number");
    bad_spec("mcts:iterations=2.5", "whole number");
    bad_spec("random:iterations=5", "it takes none");
    bad_spec("mcts:iterations=0", "budget above 0");
    bad_spec("mcts:rollout=clever", "rollout is random or heuristic");
    /* pool=: a whole number from 0 to CAIRN_BOT_MAX_POOL (256), search bots only */
    bad_spec("mcts:pool=-1", "pool takes a number >= 0, got \"-1\"");
    bad_spec("ismcts:pool=some", "pool takes a number >= 0, got \"some\"");
    bad_spec("mcts:pool=2.5", "pool takes a whole number up to 256, got \"2.5\"");
    bad_spec("mcts:pool=257", "pool takes a whole number up to 256, got \"257\"");
    bad_spec("greedy:pool=4", "no parameter \"pool\"");
}

/* A game that keeps secrets and has no determinize: every search bot is
** refused with a message that says why; random plays. */
static void test_refuses_secrets_without_determinize(void **st) {
    (void)st;
    cerr_list errs;
    cerr_init(&errs, 0);
    engine *e = game(FIXTURE("bots/nodet"), 1, 2, &errs);
    const char *search[] = {"mcts", "ismcts", "greedy"};
    for (size_t i = 0; i < 3; i++) {
        bot *b = bot_new(search[i], &errs);
        assert_non_null(b);
        assert_int_equal(bot_check(b, e, &errs), -1);
        assert_null(bot_choose(b, e, 1, NULL, &errs));
        assert_non_null(strstr(errs.items[0].message, "keeps secrets"));
        assert_non_null(strstr(errs.items[0].message, "no determinize hook"));
        cerr_clear(&errs);
        bot_free(b);
    }
    char *id = choose("random", e, 1, NULL);
    assert_true(!strcmp(id, "high") || !strcmp(id, "low"));
    free(id);
    engine_free(e);
    cerr_free(&errs);
}

/* A determinize that changes the seat's own card is caught, with the hook's
** file:line and the path that changed. */
static void test_bad_determinize_is_caught(void **st) {
    (void)st;
    cerr_list errs;
    cerr_init(&errs, 0);
    engine *e = game(FIXTURE("bots/baddet"), 1, 2, &errs);
    bot *b = bot_new("mcts:iterations=10", &errs);
    assert_int_equal(bot_check(b, e, &errs), 0);
    assert_null(bot_choose(b, e, 1, NULL, &errs));
    assert_true(errs.n > 0);
    const char *m = errs.items[0].message;
    if (!strstr(m, "baddet/rules.lua:6")) fprintf(stderr, "%s\n", m);
    assert_non_null(strstr(m, "baddet/rules.lua:6"));
    assert_non_null(strstr(m, "at cards[1]"));
    /* keyed (engine_fork.c, fork.determinize_shows): the console words it */
    char *de = repl_error_message_in("de", &errs.items[0]);
    assert_non_null(de);
    assert_non_null(strstr(de, "baddet/rules.lua:6) gab einen Spielstand zurück, der Platz 1 etwas anderes zeigt als "
                               "seine Sicht, bei cards[1]"));
    free(de);
    bot_free(b);
    engine_free(e);
    cerr_free(&errs);
}

/* Connect Four: seat 1 has three in the bottom row; greedy and mcts take
** the win. One move earlier, mcts as seat 2 blocks it. */
static void test_connect4_win_and_block(void **st) {
    (void)st;
    cerr_list errs;
    cerr_init(&errs, 0);
    engine *e = game("connect4", 1, 2, &errs);
    const char *moves[] = {"drop 1", "drop 7", "drop 2", "drop 7", "drop 3"};
    for (int i = 0; i < 5; i++) answer_ok(e, i % 2 + 1, moves[i]);
    char *id = choose("mcts:iterations=1000", e, 2, NULL);
    assert_string_equal(id, "drop 4");
    free(id);
    answer_ok(e, 2, "drop 6");
    id = choose("greedy", e, 1, NULL);
    assert_string_equal(id, "drop 4");
    free(id);
    id = choose("mcts:iterations=300", e, 1, NULL);
    assert_string_equal(id, "drop 4");
    free(id);
    engine_free(e);
    cerr_free(&errs);
}

/* An iteration budget gives the same choice and the same statistics on every
** run, in a perfect-information game and in one with secrets. */
static void test_iterations_repeat(void **st) {
    (void)st;
    cerr_list errs;
    cerr_init(&errs, 0);
    struct { const char *rs, *spec; int players, seat; } cases[] = {
        {"connect4", "mcts:iterations=200", 2, 1},
        {"goofspiel", "mcts:iterations=150,depth=4", 3, 2},
        {"connect4", "mcts:iterations=60,rollout=heuristic,epsilon=0.2", 2, 1},
        {"goofspiel", "mcts:iterations=150,depth=4,pool=8", 3, 2},  /* samples kept and reused */
        {"kathmandu", "mcts:iterations=60,depth=4,pool=4", 3, 1},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        engine *e = game(cases[i].rs, 5, cases[i].players, &errs);
        char *w1, *w2;
        char *a = choose(cases[i].spec, e, cases[i].seat, &w1);
        char *b = choose(cases[i].spec, e, cases[i].seat, &w2);
        assert_string_equal(a, b);
        assert_string_equal(w1, w2);
        assert_non_null(strstr(w1, "visits"));
        free(a);
        free(b);
        free(w1);
        free(w2);
        engine_free(e);
    }
    cerr_free(&errs);
}

/* A game started from state s (a scenario) with rng state hex. */
static engine *from_state(const char *rs, int players, const value *s, const char *hex, cerr_list *errs) {
    engine_config c;
    memset(&c, 0, sizeof c);
    c.ruleset = rs;
    c.seed = 9;
    c.players = players;
    c.scenario = s;
    c.scenario_rng = hex;
    engine *e = engine_new(&c, errs);
    if (!e && errs->n) fprintf(stderr, "%s\n", errs->items[0].message);
    assert_non_null(e);
    return e;
}

/* No cheating: play to a point where `seat` is asked, then make a second
** true state that differs in everything the seat may not see (other hands,
** bids, the bag, the RNG). The bot's choice and its statistics are the
** same in both. */
static void no_cheating(const char *rs, int players, int seat, size_t moves, const char *spec) {
    cerr_list errs;
    cerr_init(&errs, 0);
    engine *e = game(rs, 3, players, &errs);
    for (size_t k = 0; k < moves || !engine_is_asked(e, seat); k++) {
        int s = 0;
        for (int i = 1; i <= players && !s; i++)
            if (engine_is_asked(e, i) && (i != seat || k < moves)) s = i;
        if (!s) break;
        assert_int_equal(engine_bot_move(e, s, NULL), ENGINE_OK);
    }
    assert_true(engine_is_asked(e, seat));
    value *truth = value_clone(engine_state(e));
    value *other = view_perturb_secrets(engine_visibility(e), truth, seat);
    assert_non_null(other);
    assert_false(value_equal(truth, other, 1));
    char hex[RNG_HEX_LEN + 1], hex2[RNG_HEX_LEN + 1];
    rng r = engine_rng(e);
    rng_format(&r, hex);
    rng_next(&r);
    rng_format(&r, hex2);
    engine *a = from_state(rs, players, truth, hex, &errs);
    engine *b = from_state(rs, players, other, hex2, &errs);
    assert_true(engine_bot_option_count(a, seat) > 1); /* a real choice, not a forced one */
    char *wa, *wb;
    char *ca = choose(spec, a, seat, &wa), *cb = choose(spec, b, seat, &wb);
    assert_string_equal(ca, cb);
    assert_string_equal(wa, wb);
    free(ca);
    free(cb);
    free(wa);
    free(wb);
    engine_free(a);
    engine_free(b);
    value_free(truth);
    value_free(other);
    engine_free(e);
    cerr_free(&errs);
}

static void test_no_cheating_goofspiel(void **st) {
    (void)st;
    no_cheating("goofspiel", 2, 2, 5, "mcts:iterations=120,depth=6"); /* seat 1 has bid, secretly */
    no_cheating("goofspiel", 2, 1, 6, "greedy");
    no_cheating("goofspiel", 2, 2, 5, "mcts:iterations=120,depth=6,pool=5"); /* from kept samples */
}

static void test_no_cheating_yak(void **st) {
    (void)st;
    no_cheating("yak", 2, 2, 21, "mcts:iterations=60,depth=6");
}

/* Himalaya: seat 2 programs while seat 1's program and everyone's cubes,
** rings and the bags are hidden (3 seats: placement, then the programming
** of month 1); later, in month 2, after deliveries may have been made. */
static void test_no_cheating_himalaya(void **st) {
    (void)st;
    no_cheating("himalaya", 3, 2, 5, "mcts:iterations=60,depth=6");
    no_cheating("himalaya", 3, 1, 60, "mcts:iterations=40,depth=4");
    no_cheating("himalaya", 4, 3, 40, "greedy");
}

/* Kathmandu: every yak stack, the weather, the decks and the others' tent
** cards are hidden; at the first turn and well into round 1. */
static void test_no_cheating_kathmandu(void **st) {
    (void)st;
    no_cheating("kathmandu", 2, 1, 2, "mcts:iterations=60,depth=6");
    no_cheating("kathmandu", 3, 2, 30, "mcts:iterations=40,depth=4");
    no_cheating("kathmandu", 4, 4, 20, "greedy");
    no_cheating("kathmandu", 3, 2, 30, "mcts:iterations=40,depth=4,pool=3");
}

/* spec's decision for seat: its choice (malloc'd), the states determinize
** sampled for it (the bot's reasons: the forks' counts summed over the
** searches) and the explanation after its first line into *stats. */
static char *choose_counted(const char *spec, engine *e, int seat, long *samples, char **head, char **stats) {
    bot *b;
    char *id = test_bot_decide(spec, e, seat, NULL, &b);
    bot_reasons r;
    assert_int_equal(bot_reasons_copy(b, &r), 0);
    *samples = r.samples;
    char *w = bot_why(b);
    char *nl = strchr(w, '\n');
    assert_non_null(nl);
    *stats = strdup(nl);
    *nl = '\0';
    *head = w;
    bot_reasons_free(&r);
    bot_free(b);
    return id;
}

/* pool=K: a search calls the ruleset's determinize for its first K
** iterations only and starts every later one from one of those states;
** pool=0 calls it every iteration. Goofspiel, 2 seats, seat 1's first bid
** (the other's hand and the prize deck hidden); the count is the engine's
** (engine_fork_samples), summed over the searches:
**   40 iterations, searches=1, pool=0:  one search of 40, a sample each: 40
**   40 iterations, searches=1, pool=6:  6 sampled, 34 reused: 6
**   40 iterations, 4 searches, pool=6:  4 searches of 10, 6 each: 24
**   the same on 2 cores:               the workers send their counts: 24
**   18 iterations, 4 searches, pool=6:  searches of 5, 5, 4, 4, all below 6,
**                                      so every iteration samples: 18, and
**                                      the choice and statistics of pool=0
**   connect4 (no secrets), pool=6:      nothing sampled: 0, and pool=0's
**                                      choice and statistics */
static void test_pool_samples_once_per_slot(void **st) {
    (void)st;
    cerr_list errs;
    cerr_init(&errs, 0);
    engine *e = game("goofspiel", 5, 2, &errs);
    struct { const char *spec; long samples; const char *says; } cases[] = {
        {"mcts:iterations=40,searches=1,cores=1", 40, "(each on a state sampled from this seat's view)"},
        {"mcts:iterations=40,searches=1,pool=6,cores=1", 6, "(on 6 states sampled from this seat's view, reused in turn)"},
        {"mcts:iterations=40,pool=6,cores=1", 24, "(on 24 states sampled"},
        {"ismcts:iterations=40,pool=6,cores=2", 24, "(on 24 states sampled"},
        {"mcts:iterations=18,pool=6,cores=1", 18, "(on 18 states sampled"},
        {"mcts:iterations=18,cores=1", 18, "(each on a state sampled"},
        {"mcts:iterations=40,searches=1,pool=1,cores=1", 1, "(on 1 state sampled from this seat's view, reused in turn)"},
    };
    char *ids[7], *stats[7];
    for (size_t i = 0; i < 7; i++) {
        long n = -1;
        char *head;
        ids[i] = choose_counted(cases[i].spec, e, 1, &n, &head, &stats[i]);
        if (n != cases[i].samples || !strstr(head, cases[i].says)) fprintf(stderr, "%s: %ld: %s\n", cases[i].spec, n, head);
        assert_int_equal(n, cases[i].samples);
        assert_non_null(strstr(head, cases[i].says));
        free(head);
    }
    /* one choice on 1 and 2 cores; pool 6 above every search's budget plays as pool 0 */
    assert_string_equal(ids[2], ids[3]);
    assert_string_equal(stats[2], stats[3]);
    assert_string_equal(ids[4], ids[5]);
    assert_string_equal(stats[4], stats[5]);
    for (size_t i = 0; i < 7; i++) free(ids[i]), free(stats[i]);
    engine_free(e);

    e = game("connect4", 5, 2, &errs);
    long n0 = -1, n6 = -1;
    char *h0, *h6, *s0, *s6;
    char *a = choose_counted("mcts:iterations=60,cores=1", e, 1, &n0, &h0, &s0);
    char *b = choose_counted("mcts:iterations=60,pool=6,cores=1", e, 1, &n6, &h6, &s6);
    assert_int_equal(n0, 0);
    assert_int_equal(n6, 0);
    assert_null(strstr(h6, "sampled"));
    assert_string_equal(a, b);
    assert_string_equal(s0, s6);
    free(a), free(b), free(h0), free(h6), free(s0), free(s6);
    engine_free(e);
    cerr_free(&errs);
}

/* The view check (CAIRN_BOT_CHECKED_SAMPLES, 32) covers a decision's first
** 32 samples in all: its searches share them as they share the iterations
** (it covered the first 32 of every search: 128 at the default 4). A game
** run with checks on checks every sample. Goofspiel, 2 seats, seat 1's
** first bid, a sample every iteration:
**   200 iterations, 4 searches:           8 a search (32 / 4): 32 of 200
**   200 iterations, 3 searches:           11 + 11 + 10: 32
**   200 iterations, 1 search:             32
**   the same 4 searches on 2 cores:       the workers send their counts: 32
**   20 iterations, 4 searches:            5 each, all below 8: 20
**   200 iterations, 4 searches, checks on: every one: 200 */
static void test_a_decision_checks_its_first_samples(void **st) {
    (void)st;
    cerr_list errs;
    cerr_init(&errs, 0);
    struct { int checks; const char *spec; long samples, checked; } cases[] = {
        {0, "mcts:iterations=200,cores=1", 200, 32},
        {0, "mcts:iterations=200,searches=3,cores=1", 200, 32},
        {0, "mcts:iterations=200,searches=1,cores=1", 200, 32},
        {0, "mcts:iterations=200,cores=2", 200, 32},
        {0, "mcts:iterations=20,cores=1", 20, 20},
        {1, "mcts:iterations=200,cores=1", 200, 200},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        engine_config c;
        memset(&c, 0, sizeof c);
        c.ruleset = "goofspiel";
        c.seed = 5;
        c.players = 2;
        c.checks = cases[i].checks;
        engine *e = engine_new(&c, &errs);
        assert_non_null(e);
        bot *b;
        char *id = test_bot_decide(cases[i].spec, e, 1, NULL, &b);
        bot_reasons r;
        assert_int_equal(bot_reasons_copy(b, &r), 0);
        if (r.samples != cases[i].samples || r.checked != cases[i].checked)
            fprintf(stderr, "%s (checks %d): %ld sampled, %ld checked\n", cases[i].spec, cases[i].checks, r.samples,
                    r.checked);
        assert_int_equal(r.samples, cases[i].samples);
        assert_int_equal(r.checked, cases[i].checked);
        bot_reasons_free(&r);
        bot_free(b);
        free(id);
        engine_free(e);
    }
    cerr_free(&errs);
}

/* Rules-faithful samples: a state drawn by Himalaya's and Kathmandu's
** determinize keeps every invariant of the ruleset's check() (cubes, rings,
** cards, tiles conserved) and the state schema, and play goes on from it:
** every sample is played 30 decisions with the checks on. */
/* The first seat asked now, or 0 when the game is over. */
static int first_asked(const engine *e, int players) {
    for (int s = 1; s <= players; s++)
        if (engine_is_asked(e, s)) return s;
    return 0;
}

static void samples_keep_invariants(const char *rs, int players, const char *option, size_t moves) {
    cerr_list errs;
    cerr_init(&errs, 0);
    engine_config c;
    memset(&c, 0, sizeof c);
    c.ruleset = rs;
    c.seed = 4;
    c.players = players;
    const char *opts[] = {option, NULL};
    if (option) {
        c.choices = opts;
        c.n_choices = 1;
    }
    engine *e = engine_new(&c, &errs);
    if (!e && errs.n) fprintf(stderr, "%s\n", errs.items[0].message);
    assert_non_null(e);
    for (size_t k = 0; k < moves; k++) {
        int s = first_asked(e, players);
        assert_true(s > 0);
        assert_int_equal(engine_bot_move(e, s, NULL), ENGINE_OK);
    }
    for (int seat = 1; seat <= players; seat++) {
        value *view = engine_view(e, seat);
        assert_non_null(view);
        for (uint64_t reseed = 1; reseed <= 3; reseed++) {
            engine *f = engine_fork_sampled(e, view, seat, reseed, &errs);
            if (!f && errs.n) fprintf(stderr, "%s seat %d: %s\n", rs, seat, errs.items[0].message);
            assert_non_null(f);
            engine_set_checks(f, 1);
            for (int k = 0; k < 30; k++) {
                int s = first_asked(f, players);
                if (!s) break;
                char *why = NULL;
                engine_status st = engine_bot_move(f, s, &why);
                if (st != ENGINE_OK) fprintf(stderr, "%s seat %d sample %d move %d: %s\n", rs, seat, (int)reseed, k, why ? why : "?");
                free(why);
                assert_int_equal(st, ENGINE_OK);
            }
            engine_free(f);
        }
        value_free(view);
    }
    engine_free(e);
    cerr_free(&errs);
}

static void test_samples_keep_invariants(void **st) {
    (void)st;
    samples_keep_invariants("himalaya", 3, NULL, 70);
    samples_keep_invariants("himalaya", 6, "allergic-to-chaos", 120);
    samples_keep_invariants("kathmandu", 2, NULL, 40);
    samples_keep_invariants("kathmandu", 4, "tents", 150);
}

/* Every shipped ruleset has a score for every seat at the start (what the
** bots judge by); connect4, Yak and Himalaya add a heuristic to it (the
** middle column, food, the influences), goofspiel and Kathmandu do not
** (their provisional score says it all); every one that keeps secrets has
** a determinize hook (issue 12's list). */
static void test_shipped_rulesets_have_hooks(void **st) {
    (void)st;
    struct { const char *rs; int players, secrets, heuristic; } cases[] = {
        {"connect4", 2, 0, 1}, {"goofspiel", 2, 1, 0}, {"yak", 2, 1, 1}, {"himalaya", 3, 1, 1}, {"kathmandu", 2, 1, 0},
    };
    for (size_t i = 0; i < 5; i++) {
        cerr_list errs;
        cerr_init(&errs, 0);
        engine *e = game(cases[i].rs, 1, cases[i].players, &errs);
        int64_t totals[4];
        assert_int_equal(engine_score_totals(e, totals, &errs), 1);
        for (int seat = 1; seat <= cases[i].players; seat++) {
            int64_t h = 0;
            assert_int_equal(engine_heuristic(e, seat, &h, &errs), cases[i].heuristic);
        }
        assert_int_equal(engine_has_secrets(e), cases[i].secrets);
        if (cases[i].secrets) assert_int_equal(engine_has_determinize(e), 1);
        engine_free(e);
        cerr_free(&errs);
    }
}

/* A ruleset's bot_defaults: Himalaya's rollouts reach 40 decisions unless
** the spec says otherwise, Kathmandu searches 600 iterations, Yak rolls out 60
** decisions; connect4 has none (CAIRN_BOT_DEPTH, 10). */
static void test_ruleset_bot_defaults(void **st) {
    (void)st;
    struct { const char *rs, *spec, *says; int players; } cases[] = {
        {"himalaya", "mcts:iterations=5", "rollouts of 40 decisions", 3},
        {"himalaya", "mcts:iterations=5,depth=3", "rollouts of 3 decisions", 3},
        {"connect4", "mcts:iterations=5", "rollouts of 10 decisions", 2},
        {"kathmandu", "mcts:depth=1", ": 600 iterations,", 2},
        {"yak", "mcts:iterations=5", "rollouts of 60 decisions", 2},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        cerr_list errs;
        cerr_init(&errs, 0);
        engine *e = game(cases[i].rs, 2, cases[i].players, &errs);
        bot *b = bot_new(cases[i].spec, &errs);
        assert_non_null(b);
        char *id = bot_choose(b, e, first_asked(e, cases[i].players), NULL, &errs);
        assert_non_null(id);
        char *w = bot_why(b);
        if (!strstr(w, cases[i].says)) fprintf(stderr, "%s\n", w);
        assert_non_null(strstr(w, cases[i].says));
        free(w);
        free(id);
        bot_free(b);
        engine_free(e);
        cerr_free(&errs);
    }
}

/* A ruleset's own bot: Yak's builder picks Build at the first sunrise (its
** cart has stones, it has food); a bot the ruleset lacks is refused. */
/* Himalaya's `back` (take the last piece off a full program) is marked
** `bot = false`: with a full program a seat may choose `ready` or `back`,
** the search bots see only `ready` (a greedy bot that liked the position
** before the resolution better took the piece off and laid it again
** forever: seed 98, 3 seats, mcts against two greedy bots, hit the sim's
** 10,000-decision cap). */
static void test_bots_pass_by_bot_false(void **st) {
    (void)st;
    cerr_list errs;
    cerr_init(&errs, 0);
    engine *e = game("himalaya", 98, 3, &errs);
    int found = 0;
    for (int d = 0; d < 400 && !found && !engine_is_over(e); d++) {
        if (engine_is_asked(e, 1) && engine_enabled_count(e, 1) == 2) {
            found = 1;
            break;
        }
        int seat = 1;
        while (seat <= 3 && !engine_is_asked(e, seat)) seat++;
        assert_true(seat <= 3);
        /* seat 1 fills its program with rest pieces; the others answer at random */
        char *id = seat == 1 ? strdup("rest") : engine_bot_choice(e, seat);
        if (seat == 1) {
            char *why = NULL;
            if (engine_answer(e, 1, id, &why) != ENGINE_OK) {
                free(why);
                free(id);
                id = engine_bot_choice(e, 1);
                answer_ok(e, 1, id);
            }
        } else {
            answer_ok(e, seat, id);
        }
        free(id);
    }
    assert_true(found); /* ready and back, both enabled */
    assert_int_equal(engine_bot_option_count(e, 1), 1);
    assert_string_equal(engine_bot_option_id(e, 1, 0), "ready");
    assert_null(engine_bot_option_id(e, 1, 1));
    char *id = choose("greedy", e, 1, NULL);
    assert_string_equal(id, "ready");
    free(id);
    id = choose("mcts:iterations=20,depth=4", e, 1, NULL);
    assert_string_equal(id, "ready");
    free(id);
    /* a person may still take the piece back */
    answer_ok(e, 1, "back");
    assert_true(engine_bot_option_count(e, 1) > 1);
    engine_free(e);
    cerr_free(&errs);
}

static void test_ruleset_bot(void **st) {
    (void)st;
    cerr_list errs;
    cerr_init(&errs, 0);
    engine *e = game("yak", 2, 2, &errs);
    char *id = choose("yak:builder", e, 1, NULL);
    assert_string_equal(id, "card build");
    free(id);
    bot *b = bot_new("yak:hoarder", &errs);
    assert_int_equal(bot_check(b, e, &errs), -1);
    assert_non_null(strstr(errs.items[0].message, "yak declares no bot \"hoarder\""));
    bot_free(b);
    cerr_clear(&errs);
    b = bot_new("connect4:builder", &errs);
    assert_int_equal(bot_check(b, e, &errs), -1);
    assert_non_null(strstr(errs.items[0].message, "this game is yak, not connect4"));
    bot_free(b);
    engine_free(e);
    cerr_free(&errs);
}

/* Issue 27, item 4: a ruleset's own bot sees only the view. goofcheat's
** cheater reads the other seat's bid from a variable the rules keep; it
** used to run in the game's sandbox, where that variable held the live
** state: after seat 1 bid 1 it bid 2, after 13 it bid 1 (nothing above).
** Now it runs in a fork holding a state sampled from its view, which is the
** same whatever seat 1 bid (the same seed and position: the same sample),
** so it chooses the same. no_cheating then checks it as it checks the
** search bots (every secret perturbed, the same choice). */
static void test_ruleset_bot_sees_only_the_view(void **st) {
    (void)st;
    const char *cheat = "tests/fixtures/rulesets/goofcheat";
    char *pick[2];
    const char *bids[2] = {"bid 1", "bid 13"};
    for (int i = 0; i < 2; i++) {
        cerr_list errs;
        cerr_init(&errs, 0);
        engine *e = game(cheat, 3, 2, &errs);
        answer_ok(e, 1, bids[i]);
        pick[i] = choose("goofcheat:cheater", e, 2, NULL);
        engine_free(e);
        cerr_free(&errs);
    }
    assert_string_equal(pick[0], pick[1]);
    free(pick[0]);
    free(pick[1]);
    no_cheating(cheat, 2, 2, 5, "goofcheat:cheater");
    /* Yak's builder, on a state sampled by Yak's determinize, still builds */
    cerr_list errs;
    cerr_init(&errs, 0);
    engine *e = game("yak", 2, 2, &errs);
    char *id = choose("yak:builder", e, 1, NULL);
    assert_string_equal(id, "card build");
    free(id);
    engine_free(e);
    cerr_free(&errs);
}

/* Goofspiel keeps the bids revealed as public state (played), so a sample
** gives another seat exactly the cards it has not played: after 6 rounds
** (12 bids) of 13 cards seat 2 holds 7, one of them perhaps bid face down,
** none of them one of its 6 played. */
static void test_goofspiel_samples_respect_played(void **st) {
    (void)st;
    cerr_list errs;
    cerr_init(&errs, 0);
    engine *e = game("goofspiel", 5, 2, &errs);
    for (int k = 0; k < 13; k++) { /* 6 rounds, then seat 1 bids */
        int s = engine_is_asked(e, 1) ? 1 : 2;
        assert_int_equal(engine_bot_move(e, s, NULL), ENGINE_OK);
    }
    assert_true(engine_is_asked(e, 2) && !engine_is_asked(e, 1));
    value *view = engine_view(e, 2);
    const value *played = value_map_get(engine_state(e), "played");
    assert_non_null(played);
    const value *mine = played->u.list.items[0]; /* seat 1's, as seat 2 sees them */
    assert_int_equal(mine->u.list.n, 6);
    for (uint64_t r = 1; r <= 30; r++) {
        engine *f = engine_fork_sampled(e, view, 2, r * 2 + 1, &errs);
        assert_non_null(f);
        const value *s = engine_state(f);
        const value *hand = value_map_get(s, "hands")->u.list.items[0];
        int64_t bid = value_map_get(s, "bids")->u.list.items[0]->u.i;
        assert_int_equal(hand->u.list.n, 6); /* 13 - 6 played - 1 bid face down */
        assert_true(bid >= 1 && bid <= 13);
        for (size_t i = 0; i < mine->u.list.n; i++) {
            int64_t c = mine->u.list.items[i]->u.i;
            assert_true(bid != c);
            for (size_t j = 0; j < hand->u.list.n; j++) assert_true(hand->u.list.items[j]->u.i != c);
        }
        engine_free(f);
    }
    value_free(view);
    engine_free(e);
    cerr_free(&errs);
}

/* cairn sim --bots: one spec per seat (commas inside a spec's parameters
** stay with it), the bots line and the 95% intervals in the report. */
static void test_sim_bots(void **st) {
    (void)st;
    /* one job: no worker processes (test_sim tests --jobs), so that under
    ** valgrind no forked copy of this test ends with its memory unfreed */
    char *argv[] = {"sim", "connect4", "--games", "2", "--jobs", "1", "--bots", "mcts:iterations=40,depth=5,random",
                    NULL};
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    assert_int_equal(sim_run(8, argv, out, stderr), 0);
    fclose(out);
    assert_non_null(strstr(buf, "bots 1=mcts:iterations=40,depth=5 2=random\n"));
    assert_non_null(strstr(buf, "win share "));
    assert_non_null(strstr(buf, "% ["));  /* each share with its 95% interval */
    free(buf);
    char *bad[] = {"sim", "connect4", "--bots", "mcts:speed=1,random", NULL};
    FILE *err = open_memstream(&buf, &len);
    assert_int_equal(sim_run(4, bad, stdout, err), 2);
    fclose(err);
    assert_non_null(strstr(buf, "no parameter \"speed\""));
    free(buf);
}

/* The share of market's enabled offers a sim of bazaar took, with its 95%
** interval, from --coverage's line "  market  offered disabled taken games
** share% [lo, hi]". */
static void market_share(const char *bots, int option, double *share, double *lo, double *hi) {
    char *argv[] = {"sim", "tests/fixtures/rulesets/bazaar", "--games", "20", "--jobs", "1", "--coverage",
                    "--bots", (char *)bots, "--option", "market_pays", NULL};
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    assert_int_equal(sim_run(option ? 11 : 9, argv, out, stderr), 0);
    fclose(out);
    const char *cov = strstr(buf, "rule coverage"); /* not the breakdown's market line */
    assert_non_null(cov);
    const char *line = strstr(cov, "\n  market ");
    assert_non_null(line);
    long offered, disabled, taken, games;
    assert_int_equal(sscanf(line, "\n  market %ld %ld %ld %ld %lf%% [%lf, %lf]", &offered, &disabled, &taken, &games,
                            share, lo, hi), 7);
    free(buf);
}

/* Issue 27, item 1: the bots judge a position by the rules' own score plus
** the ruleset's heuristic, so a rule the heuristic knows nothing of still
** counts. In bazaar (tests/fixtures/rulesets/bazaar) a build turns a food
** into a stone (4 points) and a market visit brings 2 food; the heuristic
** adds the food. greedy then builds whenever it has food: +4 - 1 = 3
** against market's +2, so from 1 food it goes build, market, build, market
** ... and takes the market on 1 turn in 3 it is offered (12 turns, every
** other one a market while the other has food: measured 33.3%). The option
** market_pays adds 5 points a visit, which only the score shows: +5 + 2 = 7
** beats 3, so greedy goes to market whenever it may (100% of its offers;
** it builds only at the food cap). mcts (100 iterations) moves the same
** way. With the heuristic alone (the old evaluation) both runs would play
** the same moves: the intervals would overlap. */
static void test_evaluation_follows_options(void **st) {
    (void)st;
    const char *specs[] = {"greedy,greedy", "mcts:iterations=100,mcts:iterations=100"};
    for (int i = 0; i < 2; i++) {
        double s0, lo0, hi0, s1, lo1, hi1;
        market_share(specs[i], 0, &s0, &lo0, &hi0);
        market_share(specs[i], 1, &s1, &lo1, &hi1);
        fprintf(stderr, "# %s: market taken %.1f%% [%.1f, %.1f] without market_pays, %.1f%% [%.1f, %.1f] with it\n",
                specs[i], s0, lo0, hi0, s1, lo1, hi1);
        assert_true(lo1 > hi0); /* the intervals do not overlap */
        assert_true(s1 - s0 >= 20.0);
    }
    double s, lo, hi; /* greedy, worked out above */
    market_share("greedy,greedy", 0, &s, &lo, &hi);
    assert_true(s > 33.0 && s < 33.5);
    market_share("greedy,greedy", 1, &s, &lo, &hi);
    assert_true(s == 100.0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_specs),
        cmocka_unit_test(test_evaluation_follows_options),
        cmocka_unit_test(test_refuses_secrets_without_determinize),
        cmocka_unit_test(test_bad_determinize_is_caught),
        cmocka_unit_test(test_connect4_win_and_block),
        cmocka_unit_test(test_iterations_repeat),
        cmocka_unit_test(test_pool_samples_once_per_slot),
        cmocka_unit_test(test_no_cheating_goofspiel),
        cmocka_unit_test(test_no_cheating_yak),
        cmocka_unit_test(test_no_cheating_himalaya),
        cmocka_unit_test(test_no_cheating_kathmandu),
        cmocka_unit_test(test_samples_keep_invariants),
        cmocka_unit_test(test_ruleset_bot),
        cmocka_unit_test(test_ruleset_bot_sees_only_the_view),
        cmocka_unit_test(test_goofspiel_samples_respect_played),
        cmocka_unit_test(test_bots_pass_by_bot_false),
        cmocka_unit_test(test_ruleset_bot_defaults),
        cmocka_unit_test(test_a_decision_checks_its_first_samples),
        cmocka_unit_test(test_shipped_rulesets_have_hooks),
        cmocka_unit_test(test_sim_bots),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
