/*
** test_luaval.c
** Value trees into Lua and back: round trips, list or map, sorted keys, and
** the errors (with their paths) for what is not plain data.
*/
#include "testutil.h"

#include "limits.h"
#include "luaval.h"
#include "sandbox.h"

#include <lauxlib.h>
#include <stdio.h>

typedef struct fx {
    sandbox *sb;
    lua_State *L;
    cerr_list errs;
    char err[512];
} fx;

static int setup(void **state) {
    fx *f = calloc(1, sizeof *f);
    assert_non_null(f);
    cerr_init(&f->errs, 0);
    sandbox_config c;
    sandbox_default_config(&c);
    c.mem_cap = 4u * 1024 * 1024;
    c.instr_budget = 1000000;
    f->sb = sandbox_new(&c, &f->errs);
    assert_non_null(f->sb);
    f->L = sandbox_state(f->sb);
    *state = f;
    return 0;
}

static int teardown(void **state) {
    fx *f = *state;
    sandbox_free(f->sb);
    cerr_free(&f->errs);
    free(f);
    return 0;
}

/* Runs code in the sandbox and converts its one result as "state".
** Returns the tree (or NULL; f->err then holds the formatted error). */
static value *read_lua(fx *f, const char *code) {
    lua_settop(f->L, 0);
    cerr_clear(&f->errs);
    f->err[0] = '\0';
    int st = sandbox_run_string(f->sb, code, strlen(code), "state.lua", 1, &f->errs);
    if (st != SANDBOX_OK) {
        cerr_print(stderr, &f->errs);
        fail_msg("script failed: %s", code);
    }
    value *v = luaval_to_value(f->L, -1, "state", &f->errs);
    if (!v) {
        assert_int_equal(f->errs.n, 1);
        char *s = cerr_format(&f->errs.items[0]);
        snprintf(f->err, sizeof f->err, "%s", s ? s : "?");
        free(s);
    }
    lua_settop(f->L, 0);
    return v;
}

static void expect_refused(fx *f, const char *code, const char *msg) {
    value *v = read_lua(f, code);
    if (v || strcmp(f->err, msg) != 0) {
        value_free(v);
        fail_msg("from: %s\n  expected: %s\n  got: %s", code, msg, v ? "a value" : f->err);
    }
}

/* Dumps v as YAML for comparisons that show the shape. */
static char *yaml(const value *v) {
    char *s = value_to_yaml(v);
    assert_non_null(s);
    return s;
}

static value *sample(void) {
    /* {name: yak, round: 3, over: false, players: [{food: 2}, {food: -1}], empty: [], note: ~} */
    value *m = value_map(), *players = value_list(), *p1 = value_map(), *p2 = value_map();
    assert_non_null(m);
    assert_int_equal(value_map_set(m, "name", value_str("yak")), 0);
    assert_int_equal(value_map_set(m, "round", value_int(3)), 0);
    assert_int_equal(value_map_set(m, "over", value_bool(0)), 0);
    assert_int_equal(value_map_set(p1, "food", value_int(2)), 0);
    assert_int_equal(value_map_set(p2, "food", value_int(-1)), 0);
    assert_int_equal(value_list_push(players, p1), 0);
    assert_int_equal(value_list_push(players, p2), 0);
    assert_int_equal(value_map_set(m, "players", players), 0);
    assert_int_equal(value_map_set(m, "big", value_int(INT64_MIN)), 0);
    assert_int_equal(value_map_set(m, "bytes", value_strn("a\0b", 3)), 0);
    assert_int_equal(value_map_set(m, "note", value_null()), 0);
    return m;
}

static void round_trip(void **state) {
    fx *f = *state;
    value *v = sample();
    assert_int_equal(luaval_push(f->L, v), 0);
    assert_int_equal(lua_gettop(f->L), 1);
    lua_getfield(f->L, 1, "players");
    lua_geti(f->L, -1, 2);
    lua_getfield(f->L, -1, "food");
    assert_int_equal(lua_tointeger(f->L, -1), -1);
    lua_settop(f->L, 1);
    lua_getfield(f->L, 1, "note"); /* a null value is an absent field */
    assert_true(lua_isnil(f->L, -1));
    lua_settop(f->L, 1);

    value *back = luaval_to_value(f->L, 1, "state", &f->errs);
    assert_non_null(back);
    assert_int_equal(f->errs.n, 0);
    value_map_del(v, "note");
    assert_true(value_equal(v, back, 0));
    /* keys come back sorted by bytes */
    char *y = yaml(back);
    const char *order[] = {"big:", "bytes:", "name:", "over:", "players:", "round:"};
    const char *at = y;
    for (size_t i = 0; i < sizeof order / sizeof *order; i++) {
        const char *p = strstr(y, order[i]);
        assert_non_null(p);
        assert_true(p >= at);
        at = p;
    }
    free(y);
    value_free(back);
    value_free(v);
    lua_settop(f->L, 0);
}

static void lists_and_maps(void **state) {
    fx *f = *state;
    value *v;
    v = read_lua(f, "return {}");
    assert_non_null(v);
    assert_int_equal(v->type, CV_MAP); /* an empty table reads as an empty map */
    assert_int_equal(value_len(v), 0);
    value_free(v);
    v = read_lua(f, "return {10, 20, 30}");
    assert_non_null(v);
    assert_int_equal(v->type, CV_LIST);
    assert_int_equal(value_len(v), 3);
    assert_int_equal(v->u.list.items[2]->u.i, 30);
    value_free(v);
    v = read_lua(f, "local t = {} t[3] = 'c' t[1] = 'a' t[2] = 'b' return t");
    assert_non_null(v);
    assert_int_equal(v->type, CV_LIST);
    assert_string_equal(v->u.list.items[0]->u.str.s, "a");
    assert_string_equal(v->u.list.items[2]->u.str.s, "c");
    value_free(v);
    v = read_lua(f, "return {a = 1, ['1'] = 2}"); /* "1" is a string key */
    assert_non_null(v);
    assert_int_equal(v->type, CV_MAP);
    assert_string_equal(v->u.map.items[0].key->u.str.s, "1");
    value_free(v);
    v = read_lua(f, "return {ok = true, n = nil, s = 'x', deep = {{{}}}}");
    assert_non_null(v);
    assert_int_equal(value_len(v), 3);
    assert_int_equal(value_get_bool(v, "ok", 0), 1);
    value_free(v);
    v = read_lua(f, "return 42");
    assert_non_null(v);
    assert_int_equal(v->type, CV_INT);
    value_free(v);
    v = read_lua(f, "return nil");
    assert_non_null(v);
    assert_int_equal(v->type, CV_NULL);
    value_free(v);
}

static void map_keys_sorted_by_bytes(void **state) {
    fx *f = *state;
    value *a = read_lua(f, "local t = {} for _, k in ipairs({'b', 'a', 'B', 'aa', '_', 'a1', 'é'}) "
                           "do t[k] = #k end return t");
    value *b = read_lua(f, "local t = {} for _, k in ipairs({'é', 'a1', '_', 'aa', 'B', 'a', 'b'}) "
                           "do t[k] = #k end return t");
    assert_non_null(a);
    assert_non_null(b);
    const char *expect[] = {"B", "_", "a", "a1", "aa", "b", "é"};
    assert_int_equal(value_len(a), 7);
    for (size_t i = 0; i < 7; i++) {
        assert_string_equal(a->u.map.items[i].key->u.str.s, expect[i]);
        assert_string_equal(b->u.map.items[i].key->u.str.s, expect[i]);
    }
    assert_true(value_equal(a, b, 1));
    value_free(a);
    value_free(b);
}

static void floats_are_refused_with_their_path(void **state) {
    fx *f = *state;
    expect_refused(f, "return {players = {{food = 1}, {food = 2.5}}}",
                   "state.players[2].food: floats are not allowed (use integers), got 2.5");
    expect_refused(f, "return {round = 6 / 2}",
                   "state.round: floats are not allowed (use integers), got 3.0; use // or math.tointeger");
    expect_refused(f, "return 0.5", "state: floats are not allowed (use integers), got 0.5");
    value *v = read_lua(f, "return {round = 6 // 2, half = math.tointeger(4 / 2)}");
    assert_non_null(v);
    assert_int_equal(value_get_int(v, "round", 0), 3);
    assert_int_equal(value_get_int(v, "half", 0), 2);
    value_free(v);
}

static void not_plain_data_is_refused(void **state) {
    fx *f = *state;
    expect_refused(f, "local t = {a = {}} t.a.up = t return t",
                   "state.a.up: a table that contains itself (a cycle) cannot be stored");
    expect_refused(f, "local t = {} t[1] = t return t",
                   "state[1]: a table that contains itself (a cycle) cannot be stored");
    expect_refused(f, "return {board = {1, 2, nil, 4}}",
                   "state.board: not a list: integer keys must be 1..n without holes (found 3 keys from 1 to 4)");
    expect_refused(f, "return {[0] = 'z', 'a'}",
                   "state: not a list: integer keys must be 1..n without holes (found 2 keys from 0 to 1)");
    expect_refused(f, "return {1, 2, x = 3}",
                   "state: a table mixes list items (integer keys) and map fields (string keys)");
    expect_refused(f, "return {[true] = 1}",
                   "state: keys must be strings (a map) or integers 1..n (a list); found a boolean key");
    expect_refused(f, "return {[1.5] = 1}",
                   "state: keys must be strings (a map) or integers 1..n (a list); found a float key");
    expect_refused(f, "return {board = {{}, {}, {rule = print}}}",
                   "state.board[3].rule: a function cannot be stored (state is plain data: maps, lists, "
                   "strings, integers, booleans)");
    expect_refused(f, "return {co = coroutine.create(print)}",
                   "state.co: a thread cannot be stored (state is plain data: maps, lists, strings, "
                   "integers, booleans)");
    expect_refused(f, "return {obj = setmetatable({}, {__index = {}})}",
                   "state.obj: a table with a metatable is not plain data");
    expect_refused(f, "return {['odd key'] = {x = 1.25}}", "state[\"odd key\"].x: floats are not allowed (use integers), got 1.25");
    expect_refused(f, "return {name = 'caf\\xe9'}", "state.name: a string is not valid UTF-8");
    expect_refused(f, "return {['\\xff'] = 1}", "state[\"\xff\"]: a key is not valid UTF-8");
    /* a shared (not cyclic) table is fine: it is copied */
    value *v = read_lua(f, "local s = {1} return {a = s, b = s}");
    assert_non_null(v);
    assert_true(value_equal(value_map_get(v, "a"), value_map_get(v, "b"), 1));
    value_free(v);
}

static void limits_are_enforced(void **state) {
    fx *f = *state;
    char code[256];
    snprintf(code, sizeof code, "local t = {} local c = t for i = 1, %d do c.x = {} c = c.x end return t",
             CAIRN_YAML_MAX_DEPTH + 5);
    value *v = read_lua(f, code);
    assert_null(v);
    assert_non_null(strstr(f->err, "nested deeper than"));
    snprintf(code, sizeof code, "local t = {} local c = t for i = 1, %d do c.x = {} c = c.x end return t",
             CAIRN_YAML_MAX_DEPTH - 2);
    v = read_lua(f, code);
    assert_non_null(v);
    value_free(v);
    /* a DAG doubling at each level would be 2^40 nodes once copied */
    v = read_lua(f, "local t = {1} for i = 1, 40 do t = {t, t} end return t");
    assert_null(v);
    /* read as "state": the state's own bound, CAIRN_STATE_MAX_NODES */
    assert_non_null(strstr(f->err, "values (the limit for a game state, CAIRN_STATE_MAX_NODES"));
    snprintf(code, sizeof code, "return {s = string.rep('x', %ld)}", (long)CAIRN_YAML_MAX_STRING + 1);
    v = read_lua(f, code);
    assert_null(v);
    assert_non_null(strstr(f->err, "state.s: a string of"));
}

static void read_only_data(void **state) {
    fx *f = *state;
    value *v = sample();
    assert_int_equal(luaval_push_readonly(f->L, v, "g.data", &f->errs), 0);
    assert_int_equal(sandbox_set_global(f->sb, "data"), 0);
    const char *code = "data.round = 4";
    cerr_clear(&f->errs);
    assert_int_equal(sandbox_run_string(f->sb, code, strlen(code), "t.lua", 0, &f->errs), SANDBOX_ERR_RUN);
    assert_string_equal(f->errs.items[0].message, "attempt to modify read-only table g.data (field 'round')");
    code = "data.players[2].food = 4";
    cerr_clear(&f->errs);
    assert_int_equal(sandbox_run_string(f->sb, code, strlen(code), "t.lua", 0, &f->errs), SANDBOX_ERR_RUN);
    assert_string_equal(f->errs.items[0].message,
                        "attempt to modify read-only table g.data.players[2] (field 'food')");
    /* reading the frozen table back goes through the proxies */
    value *back = read_lua(f, "return data");
    assert_non_null(back);
    value_map_del(v, "note");
    assert_true(value_equal(v, back, 0));
    value_free(back);
    /* and so does state that copied a piece of it */
    back = read_lua(f, "return {first = data.players[1]}");
    assert_non_null(back);
    assert_int_equal(value_get_int(value_map_get(back, "first"), "food", 0), 2);
    value_free(back);
    value_free(v);
}

static void push_refuses_null_in_lists(void **state) {
    fx *f = *state;
    value *m = value_map(), *l = value_list(), *n = value_null();
    cv_file *file = cv_file_new("rulesets/t/data.yaml");
    assert_non_null(file);
    value_set_loc(n, file, 7, 5);
    cv_file_unref(file);
    assert_int_equal(value_list_push(l, value_int(1)), 0);
    assert_int_equal(value_list_push(l, n), 0);
    assert_int_equal(value_map_set(m, "tiles", l), 0);
    cerr_clear(&f->errs);
    assert_int_equal(luaval_push_checked(f->L, m, "g.data", &f->errs), -1);
    assert_int_equal(lua_gettop(f->L), 0);
    assert_int_equal(f->errs.n, 1);
    char *s = cerr_format(&f->errs.items[0]);
    assert_string_equal(s, "rulesets/t/data.yaml:7:5: g.data.tiles[2]: a list cannot hold null "
                           "(Lua would see a hole)");
    free(s);
    assert_int_equal(luaval_push(f->L, m), -1);
    assert_int_equal(lua_gettop(f->L), 0);
    value_free(m);
}

static void push_at_the_memory_cap(void **state) {
    fx *f = *state;
    /* a list far larger than the 4 MiB the state may use */
    value *l = value_list();
    for (int i = 0; i < 400000; i++) assert_int_equal(value_list_push(l, value_str("some text here")), 0);
    cerr_clear(&f->errs);
    assert_int_equal(luaval_push_checked(f->L, l, "g.data", &f->errs), -1);
    assert_int_equal(lua_gettop(f->L), 0);
    assert_int_equal(f->errs.n, 1);
    assert_non_null(strstr(f->errs.items[0].message, "out of memory"));
    value_free(l);
    /* the state still works */
    value *v = read_lua(f, "local t = {} for i = 1, 10 do t[i] = i end return t");
    assert_non_null(v);
    assert_int_equal(value_len(v), 10);
    value_free(v);
}

/* luaval_refresh keeps a tree up to date: after each change below, the
** refreshed tree equals a fresh read, and what luaval_check refuses it
** refuses (the tree is then gone). The steps cover kept, changed, added
** and removed keys (the same count with another key too), lists growing
** and shrinking (their items in the array part, met in order, or in the
** hash part), a node changing kind (a map to a list and back), an empty
** table and a map of more than 64 keys. */
static void refresh_agrees_with_a_fresh_read(void **state) {
    fx *f = *state;
    const char *code =
        "local s = {n = 1, name = 'a', on = true, hand = {1, 2, 3}, deep = {x = {y = {z = 'q'}}},"
        "           big = {}, gone = {k = 1}}\n"
        "for i = 1, 70 do s.big['k' .. i] = i end\n"
        "local steps = {\n"
        "  function() end,\n"
        "  function() s.n = 2 s.name = 'b' s.on = false end,\n"
        "  function() s.hand[4] = 9 end,\n"
        "  function() s.hand[4] = nil s.hand[3] = nil end,\n"
        "  function() s.deep.x.y.z = 'r' end,\n"
        "  function() s.extra = {1} end,\n"
        "  function() s.extra = nil s.other = 'o' end,\n"
        "  function() s.gone = nil s.another = {} end,\n"
        "  function() s.another = {5} s.hand = {a = 1} end,\n"
        "  function() s.hand = 'flat' s.name = {'now', 'a', 'list'} end,\n"
        "  function() s.big.k7 = 'seven' s.big.k70 = nil s.big.k71 = 71 end,\n"
        "  function() s.big.k71 = nil s.big.k70 = 70 end,\n"
        "  function() s.deep = {} end,\n"
        "  function() s.deep = {x = 1} end,\n"
        "  function() s.rev = {} for i = 5, 1, -1 do s.rev[i] = {i} end end,\n" /* items in the hash part */
        "  function() s.rev[2][1] = 'two' s.rev[6] = 6 end,\n"
        "  function() s.gone = {1, 2} s.deep = {'a', 'b'} end,\n" /* a map becomes a list */
        "  function() s.gone = {x = {1}} s.rev = {y = 2} end,\n"
        "}\n"
        "return s, steps\n";
    lua_settop(f->L, 0);
    assert_int_equal(sandbox_run_string(f->sb, code, strlen(code), "state.lua", 2, &f->errs), SANDBOX_OK);
    lua_Integer n = luaL_len(f->L, 2);
    value *tree = NULL;
    for (lua_Integer i = 1; i <= n; i++) {
        lua_geti(f->L, 2, i);
        assert_int_equal(lua_pcall(f->L, 0, 0, 0), LUA_OK);
        assert_int_equal(luaval_refresh(f->L, 1, &tree, 0), 0);
        value *fresh = luaval_to_value(f->L, 1, "state", &f->errs);
        assert_non_null(fresh);
        if (!value_equal(tree, fresh, 1)) {
            char *a = yaml(tree), *b = yaml(fresh);
            fail_msg("step %lld: refreshed\n%s\nfresh\n%s", (long long)i, a, b);
        }
        value_free(fresh);
    }
    /* an empty table is an empty list when asked: the state's rule */
    lua_pushnil(f->L);
    lua_setfield(f->L, 1, "deep");
    lua_newtable(f->L);
    lua_setfield(f->L, 1, "deep");
    assert_int_equal(luaval_refresh(f->L, 1, &tree, 1), 0);
    assert_int_equal(value_map_get(tree, "deep")->type, CV_LIST);
    value_free(tree);
    lua_settop(f->L, 0);

    /* what the check refuses, refreshing a tree of the same place */
    const char *bad[] = {
        "local s = {a = {}} return s, function() s.a.up = s end",
        "local s = {1, 2} return s, function() s[4] = 4 end",
        "local s = {x = 1} return s, function() s[1] = 2 end",
        "local s = {x = 1} return s, function() s.x = 1.5 end",
        "local s = {x = 'a'} return s, function() s.x = 'caf\\xe9' end",
        "local s = {x = 1} return s, function() s['\\xff'] = 1 end",
        "local s = {x = {}} return s, function() s.x = setmetatable({}, {}) end",
        "local s = {x = 1} return s, function() s.x = print end",
        "local s = {a = {1}} return s, function() s.b = s.a end", /* not a tree */
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        assert_int_equal(sandbox_run_string(f->sb, bad[i], strlen(bad[i]), "state.lua", 2, &f->errs), SANDBOX_OK);
        tree = luaval_to_value(f->L, 1, "state", &f->errs);
        assert_non_null(tree);
        assert_int_equal(luaval_refresh(f->L, 1, &tree, 0), 0);
        assert_int_equal(lua_pcall(f->L, 0, 0, 0), LUA_OK);
        assert_int_not_equal(luaval_check(f->L, 1, "state", NULL), 0);
        if (luaval_refresh(f->L, 1, &tree, 0) != -1) fail_msg("refreshed: %s", bad[i]);
        assert_null(tree);
        lua_settop(f->L, 0);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(round_trip, setup, teardown),
        cmocka_unit_test_setup_teardown(lists_and_maps, setup, teardown),
        cmocka_unit_test_setup_teardown(map_keys_sorted_by_bytes, setup, teardown),
        cmocka_unit_test_setup_teardown(floats_are_refused_with_their_path, setup, teardown),
        cmocka_unit_test_setup_teardown(not_plain_data_is_refused, setup, teardown),
        cmocka_unit_test_setup_teardown(limits_are_enforced, setup, teardown),
        cmocka_unit_test_setup_teardown(read_only_data, setup, teardown),
        cmocka_unit_test_setup_teardown(push_refuses_null_in_lists, setup, teardown),
        cmocka_unit_test_setup_teardown(push_at_the_memory_cap, setup, teardown),
        cmocka_unit_test_setup_teardown(refresh_agrees_with_a_fresh_read, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
