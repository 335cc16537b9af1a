/*
** test_debug.c
** Debugging and live inspection (tests/fixtures/debug): the debug channel
** (g.debug and print lines, their format, nothing when off, nothing while
** the log replays, never an event), the traceback trimmed to the ruleset's
** files, the trace (paths changed), eval (results; no write, no draw, the
** budget), edits (set as a step of the log: undo, save and load, refusals),
** options and data changed mid-game (engine_reload_with), the one --set
** implementation (ruleset_apply_set) and state paths (statepath.c).
*/
#include "testutil.h"
#include "engine.h"
#include "ruleset.h"
#include "save.h"
#include "statepath.h"
#include "strbuf.h"
#include "yload.h"

#include <stdio.h>
#include <unistd.h>

#define RS FIXTURE("debug")

/* Lines the engine handed to a callback, one a line. */
typedef struct lines {
    char text[8192];
    int n;
} lines;

static void collect(void *ud, const char *line) {
    lines *l = ud;
    size_t k = strlen(l->text);
    snprintf(l->text + k, sizeof l->text - k, "%s\n", line);
    l->n++;
}

static engine *game_with(const char *const *choices, size_t n_choices, lines *debug, long budget) {
    engine_config c;
    memset(&c, 0, sizeof c);
    c.ruleset = RS;
    c.players = 2;
    c.seed = 1;
    c.checks = 1;
    c.choices = choices;
    c.n_choices = n_choices;
    c.budget = budget;
    if (debug) {
        c.debug = collect;
        c.debug_ud = debug;
    }
    cerr_list errs;
    cerr_init(&errs, 0);
    engine *e = engine_new(&c, &errs);
    if (!e) cerr_print(stderr, &errs);
    assert_non_null(e);
    cerr_free(&errs);
    return e;
}

static void take(engine *e) {
    int seat = engine_is_asked(e, 1) ? 1 : 2;
    char *why = NULL;
    engine_status st = engine_answer(e, seat, "take", &why);
    if (st != ENGINE_OK) fprintf(stderr, "take: %s\n", why ? why : "?");
    assert_int_equal(st, ENGINE_OK);
    free(why);
}

static int64_t food(engine *e, int seat) {
    const value *f = value_map_get(engine_state(e), "food");
    assert_non_null(f);
    return f->u.list.items[seat - 1]->u.i;
}

static value *yaml(const char *text) {
    cerr_list errs;
    cerr_init(&errs, 0);
    value *v = yload_string("test", text, strlen(text), NULL, &errs);
    cerr_free(&errs);
    assert_non_null(v);
    return v;
}

/* ------------------------------------------------------ debug channel */

static void debug_lines_go_to_the_channel_only(void **st) {
    (void)st;
    lines d = {{0}, 0};
    engine *e = game_with(NULL, 0, &d, 0);
    /* setup's line (gain 1 from data.yaml), named by the ruleset's own file */
    assert_string_equal(d.text, "debug rules.lua:10: setup done with gain 1\n");
    take(e);
    /* print joins its arguments with single spaces, as tostring makes them */
    assert_non_null(strstr(d.text, "debug rules.lua:30: seat 1 takes take\n"));
    assert_int_equal(d.n, 2);
    /* never an event: the fixture logs none, and print did not add one */
    assert_int_equal(engine_event_count(e), 0);
    /* undo replays apply from position 0: nothing is said again */
    take(e);
    assert_int_equal(d.n, 3);
    assert_int_equal(engine_undo(e), 0);
    assert_int_equal(d.n, 3);
    /* reload: setup's line again (the rules may have changed), not the
    ** decisions replayed after it */
    engine_reload_report rep;
    cerr_list errs;
    cerr_init(&errs, 0);
    assert_int_equal(engine_reload(e, &rep, &errs), 0);
    engine_reload_report_free(&rep);
    cerr_free(&errs);
    assert_int_equal(d.n, 4);
    assert_non_null(strstr(d.text, "take\ndebug rules.lua:10: setup done with gain 1\n"));
    /* on, the arguments are converted (a __tostring runs once); off, print
    ** returns before converting anything (it never runs) */
    const char *count = "local n = 0 "
                        "print(setmetatable({}, {__tostring = function() n = n + 1 return 'obj' end})) "
                        "return n";
    cerr_init(&errs, 0);
    char *t = engine_eval(e, 1, count, NULL, &errs);
    assert_string_equal(t, "1");
    free(t);
    assert_non_null(strstr(d.text, "debug eval:1: obj\n"));
    assert_int_equal(d.n, 5);
    /* off: nothing reaches anyone */
    engine_set_debug(e, NULL, NULL);
    t = engine_eval(e, 1, count, NULL, &errs);
    assert_string_equal(t, "0");
    free(t);
    cerr_free(&errs);
    take(e);
    assert_int_equal(d.n, 5);
    engine_free(e);
}

static void rules_errors_carry_a_trimmed_traceback(void **st) {
    (void)st;
    engine *e = game_with(NULL, 0, NULL, 0);
    char *why = NULL;
    value *v = yaml("8");
    assert_int_equal(engine_edit(e, "food[1]", v, &why), ENGINE_OK);
    value_free(v);
    /* seat 1 takes: 8 + 1 = 9 reaches explode() two calls down */
    assert_int_equal(engine_answer(e, 1, "take", &why), ENGINE_RULES_ERROR);
    assert_non_null(strstr(why, "food overflow at 9"));
    assert_non_null(strstr(why, "\ntraceback (the ruleset's files):\n"));
    assert_non_null(strstr(why, "rules.lua:20: in upvalue 'explode'"));
    assert_non_null(strstr(why, "rules.lua:25: in upvalue 'gain'"));
    assert_null(strstr(why, "[C]"));
    assert_null(strstr(why, "stdlib"));
    free(why);
    assert_int_equal(food(e, 1), 8); /* nothing changed */
    engine_free(e);
}

static void trace_names_the_paths_changed(void **st) {
    (void)st;
    lines t = {{0}, 0};
    engine *e = game_with(NULL, 0, NULL, 0);
    engine_set_trace(e, collect, &t);
    take(e);
    /* apply first, with what it changed (food[1] 0 -> 1, taken, turn 1 -> 2),
    ** then the decisions asked anew */
    assert_true(strncmp(t.text, "trace apply ", 12) == 0);
    assert_non_null(strstr(t.text, " ms: food[1], taken, turn\ntrace decisions "));
    char *why = NULL;
    value *v = yaml("[5, 6]");
    t.text[0] = '\0';
    assert_int_equal(engine_edit(e, "food", v, &why), ENGINE_OK);
    value_free(v);
    assert_non_null(strstr(t.text, "trace edit "));
    assert_non_null(strstr(t.text, " ms: food[1], food[2]\n"));
    /* replays (undo) are not traced */
    t.text[0] = '\0';
    t.n = 0;
    assert_int_equal(engine_undo(e), 0);
    assert_int_equal(t.n, 0); /* not even decisions() asked at the position reached */
    engine_free(e);
}

/* ---------------------------------------------------------------- eval */

static void eval_reads_and_cannot_write(void **st) {
    (void)st;
    engine *e = game_with(NULL, 0, NULL, 2000000);
    take(e);
    uint64_t hash = engine_state_hash(e);
    rng before = engine_rng(e);
    cerr_list errs;
    cerr_init(&errs, 0);
    /* food is {1, 0}; gain 1: 1 + 1 = 2 */
    char *t = engine_eval(e, 1, "view.food[1] + data.scoring.gain", NULL, &errs);
    assert_string_equal(t, "2");
    free(t);
    /* seat 2's hand is hidden from seat 1 */
    value *out = NULL;
    t = engine_eval(e, 1, "view.hands", &out, &errs);
    assert_non_null(out);
    assert_int_equal(out->type, CV_LIST);
    assert_string_equal(out->u.list.items[1]->u.str.s, "?");
    value_free(out);
    free(t);
    t = engine_eval(e, 2, "seat", NULL, &errs);
    assert_string_equal(t, "2");
    free(t);
    t = engine_eval(e, 0, "seat", NULL, &errs); /* a spectator */
    assert_string_equal(t, "nil");
    free(t);
    /* a write to the view, the state reached through the global the rules
    ** keep (not there: the eval's sandbox is its own), a draw and a loop:
    ** all refused, the game as it was */
    const char *bad[] = {"view.food[1] = 5", "KEPT.state.food[1] = 99", "KEPT.rng.int(1, 6)",
                         "while true do end", "return nosuch.field"};
    const char *why[] = {"read-only", "global 'KEPT'", "global 'KEPT'", "instruction budget", "nosuch"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        cerr_clear(&errs);
        assert_null(engine_eval(e, 1, bad[i], NULL, &errs));
        assert_true(errs.n > 0);
        if (!strstr(errs.items[0].message, why[i])) fprintf(stderr, "%s: %s\n", bad[i], errs.items[0].message);
        assert_non_null(strstr(errs.items[0].message, why[i]));
        assert_true(engine_state_hash(e) == hash);
        rng now = engine_rng(e);
        assert_memory_equal(&now, &before, sizeof now);
    }
    assert_int_equal(food(e, 1), 1);
    /* a new global stays in the eval's own environment: the next eval (and
    ** the rules) never see it; the real globals table is out of reach */
    t = engine_eval(e, 1, "_G.LEAK = 1 return LEAK", NULL, &errs);
    assert_string_equal(t, "1");
    free(t);
    t = engine_eval(e, 1, "LEAK", NULL, &errs);
    assert_string_equal(t, "nil");
    free(t);
    /* a module changed in one eval is loaded afresh in the next: no eval
    ** reaches another's modules, nor the game's */
    t = engine_eval(e, 1, "local d = require('cairn.deck') d.MARK = 7 return d.MARK", NULL, &errs);
    assert_string_equal(t, "7");
    free(t);
    t = engine_eval(e, 1, "require('cairn.deck').MARK", NULL, &errs);
    assert_string_equal(t, "nil");
    free(t);
    cerr_free(&errs);
    engine_free(e);
}

/* --------------------------------------------------------------- edits */

static void edits_are_steps_of_the_log(void **st) {
    (void)st;
    char dir[] = "/tmp/cairn-debug-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char *path = cairn_strfmt("%s/g.yaml", dir);
    engine *e = game_with(NULL, 0, NULL, 0);
    take(e);
    char *why = NULL;
    value *v = yaml("7");
    assert_int_equal(engine_edit(e, "food[2]", v, &why), ENGINE_OK);
    value_free(v);
    assert_int_equal(engine_position(e), 2);
    size_t n;
    const engine_logged *log = engine_log(e, &n);
    assert_true(engine_log_is_edit(&log[1]));
    assert_false(engine_log_is_edit(&log[0]));
    assert_string_equal(log[1].id, "set food[2] 7");
    assert_int_equal(food(e, 2), 7);
    take(e); /* seat 2: 7 + 1 = 8 */
    assert_int_equal(food(e, 2), 8);
    /* saved and loaded: the edit is replayed, then the take after it */
    cerr_list errs;
    cerr_init(&errs, 0);
    assert_int_equal(save_write(e, path, &errs), 0);
    save_load_opts o = {.checks = 1, .trust = 1};
    engine *back = save_load(path, &o, NULL, &errs);
    if (!back) cerr_print(stderr, &errs);
    assert_non_null(back);
    assert_true(engine_state_hash(back) == engine_state_hash(e));
    assert_int_equal(food(back, 2), 8);
    /* undo takes back the take, then the edit */
    assert_int_equal(engine_undo(back), 0);
    assert_int_equal(food(back, 2), 7);
    assert_int_equal(engine_undo(back), 0);
    assert_int_equal(food(back, 2), 0);
    engine_free(back);
    /* refused: a path that does not exist names what does; a value the
    ** state schema refuses; the game unchanged */
    uint64_t hash = engine_state_hash(e);
    v = yaml("1");
    assert_int_equal(engine_edit(e, "food[9]", v, &why), ENGINE_DISABLED);
    assert_non_null(strstr(why, "food is a list of 2"));
    free(why);
    assert_int_equal(engine_edit(e, "nope.x", v, &why), ENGINE_DISABLED);
    assert_non_null(strstr(why, "the state has no nope"));
    free(why);
    value_free(v);
    v = yaml("-1");
    assert_int_equal(engine_edit(e, "food[1]", v, &why), ENGINE_RULES_ERROR);
    assert_non_null(strstr(why, "expected integer >= 0"));
    free(why);
    value_free(v);
    assert_true(engine_state_hash(e) == hash);
    assert_int_equal(engine_position(e), 3);
    cerr_free(&errs);
    engine_free(e);
    unlink(path);
    rmdir(dir);
    free(path);
}

static void options_and_data_change_mid_game(void **st) {
    (void)st;
    engine *e = game_with(NULL, 0, NULL, 0);
    take(e);
    take(e); /* food {1, 1} */
    const char *dbl[] = {"double"};
    engine_reload_report rep;
    cerr_list errs;
    cerr_init(&errs, 0);
    assert_int_equal(engine_reload_with(e, dbl, 1, NULL, 0, &rep, &errs), 0);
    assert_int_equal(rep.stopped, 0);
    assert_int_equal(rep.replayed, 2);
    engine_reload_report_free(&rep);
    assert_int_equal(food(e, 1), 2); /* each take gained 2 */
    size_t nc;
    assert_string_equal(engine_choices(e, &nc)[0], "double");
    /* --set over the option's overlay: gain 5; replayed, 5 each */
    const char *sets[] = {"scoring.gain=5"};
    assert_int_equal(engine_reload_with(e, dbl, 1, sets, 1, &rep, &errs), 0);
    engine_reload_report_free(&rep);
    assert_int_equal(food(e, 2), 5);
    /* a gain of 9 makes seat 1's first take explode: replay stops there */
    const char *big[] = {"scoring.gain=9"};
    assert_int_equal(engine_reload_with(e, NULL, 0, big, 1, &rep, &errs), 0);
    assert_int_equal(rep.stopped, 1);
    assert_int_equal(rep.replayed, 0);
    assert_non_null(strstr(rep.reason, "food overflow at 9"));
    engine_reload_report_free(&rep);
    assert_int_equal(engine_position(e), 0);
    /* a data path that does not exist: the game is kept */
    const char *nope[] = {"scoring.nope=1"};
    assert_int_equal(engine_reload_with(e, NULL, 0, nope, 1, &rep, &errs), -1);
    assert_non_null(strstr(errs.items[0].message, "no \"nope\" there in the data"));
    cerr_free(&errs);
    engine_free(e);
}

/* ------------------------------------------------------ --set and paths */

static void one_set_implementation(void **st) {
    (void)st;
    value *data = yaml("scoring: {gain: 1, tiers: [1, 2, 3]}\nboard: {rows: 6}\n");
    char *why = NULL, *phrase = NULL;
    assert_int_equal(ruleset_apply_set(data, "scoring.gain=4", &why, NULL), 0);
    assert_int_equal(ruleset_apply_set(data, "scoring.tiers.2=[7, 8]", &why, NULL), 0);
    const value *sc = value_map_get(data, "scoring");
    assert_int_equal(value_get_int(sc, "gain", 0), 4);
    assert_int_equal(value_map_get(sc, "tiers")->u.list.items[1]->u.list.n, 2);
    /* each refusal in English, and as a phrase for the console (its key, then
    ** its argument: base/error.h's marks) */
    assert_int_equal(ruleset_apply_set(data, "scoring.tiers.4=1", &why, &phrase), -1);
    assert_string_equal(why, "no \"4\" there in the data");
    assert_string_equal(phrase, "\x1eruleset.set.no_such\x1f" "4\x1d");
    free(why);
    free(phrase);
    assert_int_equal(ruleset_apply_set(data, "nodata.x=1", &why, &phrase), -1);
    assert_string_equal(why, "no data \"nodata\"");
    assert_string_equal(phrase, "\x1eruleset.set.no_data\x1fnodata\x1d");
    free(why);
    free(phrase);
    assert_int_equal(ruleset_apply_set(data, "gain=4", &why, NULL), -1);
    assert_non_null(strstr(why, "--set takes DATA.PATH=VALUE"));
    free(why);
    value_free(data);
}

static void state_paths(void **st) {
    (void)st;
    statepath p = {0};
    char *why = NULL;
    assert_int_equal(statepath_parse("players[2].food", &p, &why), 0);
    assert_int_equal(p.n, 3);
    assert_int_equal(p.steps[1].index, 2);
    char *s = statepath_format(&p, p.n);
    assert_string_equal(s, "players[2].food");
    free(s);
    value *v = yaml("players: [{food: 1}, {food: 4}]\nmarket: [3]\n");
    const value *got = statepath_get(v, &p, NULL);
    assert_non_null(got);
    assert_int_equal(got->u.i, 4);
    statepath_free(&p);
    /* players.2.food is the same path; players[3] stops after players */
    assert_int_equal(statepath_parse("players.2.food", &p, &why), 0);
    assert_int_equal(statepath_get(v, &p, NULL)->u.i, 4);
    statepath_free(&p);
    size_t reached;
    assert_int_equal(statepath_parse("players[3].food", &p, &why), 0);
    assert_null(statepath_get(v, &p, &reached));
    assert_int_equal(reached, 1);
    statepath_free(&p);
    const char *bad[] = {"players[0]", "players[x]", ".players", "a b", "players.[1]"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        assert_int_equal(statepath_parse(bad[i], &p, &why), -1);
        assert_non_null(why);
        free(why);
    }
    /* the diff names the shallowest paths that changed */
    value *w = yaml("players: [{food: 1}, {food: 5}]\nmarket: [3, 1]\nround: 2\n");
    strbuf b = {0};
    assert_int_equal(statepath_diff(v, w, 8, &b), 3);
    assert_string_equal(strbuf_str(&b), "players[2].food, market, round");
    strbuf_free(&b);
    assert_int_equal(statepath_diff(v, v, 8, &b), 0);
    strbuf_free(&b);
    assert_int_equal(statepath_diff(v, w, 1, &b), 3);
    assert_string_equal(strbuf_str(&b), "players[2].food and 2 more");
    strbuf_free(&b);
    value_free(v);
    value_free(w);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(debug_lines_go_to_the_channel_only),
        cmocka_unit_test(rules_errors_carry_a_trimmed_traceback),
        cmocka_unit_test(trace_names_the_paths_changed),
        cmocka_unit_test(eval_reads_and_cannot_write),
        cmocka_unit_test(edits_are_steps_of_the_log),
        cmocka_unit_test(options_and_data_change_mid_game),
        cmocka_unit_test(one_set_implementation),
        cmocka_unit_test(state_paths),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
