/*
** test_view.c
** Visibility policies: path parsing errors, what each seat and a spectator
** sees, and non-interference (changing what a seat may not see never
** changes that seat's view).
*/
#include "testutil.h"
#include "view.h"

/* --- tiny builders: L(n, items...), M(n, key, val, ...), I(x), S(s) --- */
static value *I(int64_t x) { return value_int(x); }
static value *S(const char *s) { return value_str(s); }
static value *L(int n, ...) {
    va_list ap;
    va_start(ap, n);
    value *l = value_list();
    for (int i = 0; i < n; i++) assert_int_equal(value_list_push(l, va_arg(ap, value *)), 0);
    va_end(ap);
    return l;
}
static value *M(int n, ...) {
    va_list ap;
    va_start(ap, n);
    value *m = value_map();
    for (int i = 0; i < n; i++) {
        const char *k = va_arg(ap, const char *);
        assert_int_equal(value_map_set(m, k, va_arg(ap, value *)), 0);
    }
    va_end(ap);
    return m;
}
static value *R(const char *path, const char *policy) {
    return M(2, "path", S(path), "policy", S(policy));
}

/* hands: seat 1 holds [1, 2], seat 2 holds [3]; deck of 3 cards; bag of
** 2 red + 3 blue; a hidden secret; a face-down pile of 2; bids by seat key. */
static value *sample_state(void) {
    return M(7, "board", L(2, S("x"), S("o")), "hands", L(2, L(2, I(1), I(2)), L(1, I(3))),
             "deck", L(3, I(5), I(6), I(7)), "bag", M(2, "red", I(2), "blue", I(3)), "secret",
             S("treasure"), "pile", L(2, S("a"), S("b")), "bids",
             M(2, "1", I(3), "2", I(5)));
}

static view_rules *sample_rules(void) {
    value *vis = L(6, R("hands[*]", "owner"), R("deck", "count"), R("bag", "count"),
                   R("secret", "hidden"), R("pile", "order"), R("bids.*", "owner"));
    cerr_list errs;
    cerr_init(&errs, 0);
    view_rules *r = view_rules_new(vis, &errs);
    assert_non_null(r);
    assert_int_equal(cerr_count(&errs), 0);
    assert_int_equal(view_rules_count(r), 6);
    cerr_free(&errs);
    value_free(vis);
    return r;
}

static void check_yaml(const value *v, const char *expected) {
    char *y = value_to_yaml(v);
    assert_non_null(y);
    assert_string_equal(y, expected);
    free(y);
}

static void test_seat_views(void **st) {
    (void)st;
    view_rules *r = sample_rules();
    value *s = sample_state();
    value *before = value_clone(s);

    /* seat 1: own hand and bid; deck 3 cards; bag 2 + 3 = 5; pile of 2 */
    value *v1 = view_of(r, s, 1);
    check_yaml(v1, "board:\n- x\n- o\nhands:\n- - 1\n  - 2\n- \"?\"\ndeck: 3\nbag: 5\n"
                   "secret: \"?\"\npile:\n- \"?\"\n- \"?\"\nbids:\n  \"1\": 3\n  \"2\": \"?\"\n");
    /* seat 2: the mirror image */
    value *v2 = view_of(r, s, 2);
    check_yaml(v2, "board:\n- x\n- o\nhands:\n- \"?\"\n- - 3\ndeck: 3\nbag: 5\n"
                   "secret: \"?\"\npile:\n- \"?\"\n- \"?\"\nbids:\n  \"1\": \"?\"\n  \"2\": 5\n");
    /* spectator: no hand, no bid */
    value *v0 = view_of(r, s, 0);
    check_yaml(v0, "board:\n- x\n- o\nhands:\n- \"?\"\n- \"?\"\ndeck: 3\nbag: 5\n"
                   "secret: \"?\"\npile:\n- \"?\"\n- \"?\"\nbids:\n  \"1\": \"?\"\n  \"2\": \"?\"\n");
    /* a seat beyond the hands owns nothing */
    value *v3 = view_of(r, s, 3);
    assert_true(value_equal(v3, v0, 1));
    /* the state itself is untouched */
    assert_true(value_equal(s, before, 1));
    value_free(v0);
    value_free(v1);
    value_free(v2);
    value_free(v3);
    value_free(before);
    value_free(s);
    view_rules_free(r);
}

static void test_no_rules_is_public(void **st) {
    (void)st;
    cerr_list errs;
    cerr_init(&errs, 0);
    view_rules *r = view_rules_new(NULL, &errs);
    assert_non_null(r);
    value *s = sample_state();
    value *v = view_of(r, s, 1);
    assert_true(value_equal(v, s, 1));
    value_free(v);
    value_free(s);
    view_rules_free(r);
    cerr_free(&errs);
}

/* players[*].hand is the owner's, the rest of each player public; a rule
** under an already hidden part matches nothing. */
static void test_nested_and_order_of_rules(void **st) {
    (void)st;
    value *vis = L(3, R("players[*].hand", "owner"), R("vault", "hidden"),
                   R("vault.gold", "count"));
    cerr_list errs;
    cerr_init(&errs, 0);
    view_rules *r = view_rules_new(vis, &errs);
    assert_non_null(r);
    value *s = M(2, "players",
                 L(2, M(2, "name", S("Ann"), "hand", L(1, S("ace"))),
                   M(2, "name", S("Bob"), "hand", L(1, S("king")))),
                 "vault", M(1, "gold", L(2, I(1), I(2))));
    value *v = view_of(r, s, 2);
    check_yaml(v, "players:\n- name: Ann\n  hand: \"?\"\n- name: Bob\n  hand:\n  - king\n"
                  "vault: \"?\"\n");
    value_free(v);
    value_free(s);
    value_free(vis);
    view_rules_free(r);
    cerr_free(&errs);
}

static void test_count_forms(void **st) {
    (void)st;
    value *vis = L(4, R("a", "count"), R("b", "count"), R("c", "count"), R("d", "count"));
    cerr_list errs;
    cerr_init(&errs, 0);
    view_rules *r = view_rules_new(vis, &errs);
    assert_non_null(r);
    /* a: map of non-integers -> 2 items; b: integer stays 7; c: string -> "?";
    ** d: empty list -> 0 */
    value *s = M(4, "a", M(2, "x", S("p"), "y", S("q")), "b", I(7), "c", S("z"), "d", L(0));
    value *v = view_of(r, s, 1);
    check_yaml(v, "a: 2\nb: 7\nc: \"?\"\nd: 0\n");
    value_free(v);
    value_free(s);
    value_free(vis);
    view_rules_free(r);
    cerr_free(&errs);
}

static void test_bad_rules(void **st) {
    (void)st;
    const char *bad_paths[] = {"hands[0]", "a..b", "a[", "a[x]", "", "a.", "a]b", "[2]x"};
    for (size_t i = 0; i < sizeof bad_paths / sizeof *bad_paths; i++) {
        value *vis = L(1, R(bad_paths[i], "owner"));
        cerr_list errs;
        cerr_init(&errs, 0);
        view_rules *r = view_rules_new(vis, &errs);
        assert_null(r);
        assert_int_equal(cerr_count(&errs), 1);
        assert_string_equal(errs.items[0].path, "visibility[1]");
        cerr_free(&errs);
        value_free(vis);
    }
    value *vis = L(2, R("a", "secret"), M(1, "path", S("b")));
    cerr_list errs;
    cerr_init(&errs, 0);
    assert_null(view_rules_new(vis, &errs));
    assert_int_equal(cerr_count(&errs), 2); /* both rules reported, not just the first */
    assert_non_null(strstr(errs.items[0].message, "secret"));
    cerr_free(&errs);
    value_free(vis);
}

/* Non-interference: for each seat, changing everything it may not see
** leaves its view unchanged, while the perturbed state really differs. */
static void test_non_interference(void **st) {
    (void)st;
    view_rules *r = sample_rules();
    value *s = sample_state();
    for (int seat = 0; seat <= 2; seat++) {
        value *p = view_perturb_secrets(r, s, seat);
        assert_false(value_equal(p, s, 1));
        value *a = view_of(r, s, seat), *b = view_of(r, p, seat);
        assert_true(value_equal(a, b, 1));
        value_free(a);
        value_free(b);
        value_free(p);
    }
    value_free(s);
    view_rules_free(r);
}

/* Deltas (engine_disclosure.c's signal): which hidden parts a change touched, by
** policy and owner; public changes count for nothing. */
static void test_deltas(void **st) {
    (void)st;
    view_rules *r = sample_rules();
    value *s = sample_state();
    view_delta d;
    /* nothing changed */
    value *same = value_clone(s);
    assert_int_equal(view_delta_of(r, s, same, &d), 0);
    assert_int_equal(d.owner_changed, 0);
    assert_false(d.unowned_changed);
    assert_false(d.pool_changed);
    /* a public change: the board */
    value *pub = value_clone(s);
    assert_int_equal(value_map_set(pub, "board", L(1, S("x"))), 0);
    view_delta_of(r, s, pub, &d);
    assert_int_equal(d.owner_changed, 0);
    assert_false(d.unowned_changed || d.pool_changed);
    /* seat 2 bids in secret: bids["2"] 5 -> 7, an owner part of seat 2 (bit 1) */
    value *bid = value_clone(s);
    assert_int_equal(value_map_set(value_map_get(bid, "bids"), "2", I(7)), 0);
    view_delta_of(r, s, bid, &d);
    assert_int_equal(d.owner_changed, 2u);
    assert_false(d.pool_changed);
    /* a draw: the deck loses a card (count), seat 1's hand gains it (owner,
    ** bit 0); a hand that appears (seat 3's, absent before) counts too (bit 2) */
    value *draw = value_clone(s);
    assert_int_equal(value_map_set(draw, "deck", L(2, I(6), I(7))), 0);
    value *hands = value_map_get(draw, "hands");
    assert_int_equal(value_list_push(hands->u.list.items[0], I(5)), 0);
    assert_int_equal(value_list_push(hands, L(0)), 0);
    view_delta_of(r, s, draw, &d);
    assert_int_equal(d.owner_changed, 1u | 4u);
    assert_true(d.pool_changed);
    /* the hidden secret */
    value *sec = value_clone(s);
    assert_int_equal(value_map_set(sec, "secret", S("gold")), 0);
    view_delta_of(r, s, sec, &d);
    assert_true(d.unowned_changed);
    /* secret holders: seats 1 and 2 hold a hand and a bid (bits 0 and 1);
    ** with seat 2's hand empty and its bid 0 (empty too), seat 1 alone */
    assert_int_equal(view_secret_holders(r, s), 3u);
    value *empty = value_clone(s);
    value *h = value_map_get(empty, "hands");
    value_free(h->u.list.items[1]);
    h->u.list.items[1] = L(0);
    assert_int_equal(value_map_set(value_map_get(empty, "bids"), "2", I(0)), 0);
    assert_int_equal(view_secret_holders(r, empty), 1u);
    value_free(empty);
    value_free(sec);
    value_free(draw);
    value_free(bid);
    value_free(pub);
    value_free(same);
    value_free(s);
    view_rules_free(r);
}

/* One walk (rules whose paths never meet) against the definition, the
** rules applied one after another: the same view for every seat, of the
** state, of its perturbations and of states where a path meets a scalar
** or a list where a map was expected. Rules that meet (vault, vault.gold)
** take the rule-by-rule way. */
static view_rules *rules_of(value *vis) {
    cerr_list errs;
    cerr_init(&errs, 0);
    view_rules *r = view_rules_new(vis, &errs);
    assert_non_null(r);
    cerr_free(&errs);
    value_free(vis);
    return r;
}

static void test_one_walk_is_the_definition(void **st) {
    (void)st;
    view_rules *rs[] = {
        sample_rules(),
        /* Kathmandu's and Himalaya's shapes: several rules below one wildcard */
        rules_of(L(5, R("players[*].stack", "count"), R("players[*].tents", "owner"), R("weather", "order"),
                   R("deck", "count"), R("hands[2]", "hidden"))),
        rules_of(L(4, R("programs[*]", "owner"), R("players[*].cubes", "owner"), R("rings.draw", "count"),
                   R("bids.*", "owner"))),
    };
    assert_true(view_one_pass(rs[0]) && view_one_pass(rs[1]) && view_one_pass(rs[2]));
    value *states[] = {
        sample_state(),
        M(6, "players",
          L(3, M(2, "stack", L(2, S("a"), S("b")), "tents", L(1, I(4))), M(1, "stack", M(2, "x", I(2), "y", I(3))),
            S("not a map")),
          "weather", L(3, S("sun"), S("rain"), S("snow")), "deck", I(4), "hands", L(2, L(1, I(1)), M(1, "k", I(2))),
          "programs", L(2, M(1, "go", S("up")), L(0)), "rings", M(2, "draw", L(2, I(1), I(2)), "shown", L(0))),
        M(3, "players", M(1, "1", I(1)), "weather", S("clear"), "bids", L(2, I(1), I(2))),
    };
    for (size_t i = 0; i < sizeof rs / sizeof *rs; i++) {
        for (size_t k = 0; k < sizeof states / sizeof *states; k++) {
            for (int seat = 0; seat <= 3; seat++) {
                value *p = view_perturb_secrets(rs[i], states[k], seat);
                const value *cases[] = {states[k], p};
                for (int c = 0; c < 2; c++) {
                    value *a = view_of(rs[i], cases[c], seat), *b = view_of_by_rules(rs[i], cases[c], seat);
                    assert_non_null(a);
                    assert_true(value_equal(a, b, 1));
                    value_free(a);
                    value_free(b);
                }
                value_free(p);
            }
        }
    }
    for (size_t k = 0; k < sizeof states / sizeof *states; k++) value_free(states[k]);
    for (size_t i = 0; i < sizeof rs / sizeof *rs; i++) view_rules_free(rs[i]);
    view_rules *meet = rules_of(L(2, R("vault", "hidden"), R("vault.gold", "count")));
    assert_false(view_one_pass(meet));
    view_rules_free(meet);
    meet = rules_of(L(2, R("a.*", "owner"), R("a.b", "hidden")));
    assert_false(view_one_pass(meet));
    view_rules_free(meet);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_seat_views), cmocka_unit_test(test_no_rules_is_public),
        cmocka_unit_test(test_nested_and_order_of_rules), cmocka_unit_test(test_count_forms),
        cmocka_unit_test(test_bad_rules), cmocka_unit_test(test_non_interference),
        cmocka_unit_test(test_deltas), cmocka_unit_test(test_one_walk_is_the_definition),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
