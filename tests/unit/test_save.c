/*
** test_save.c
** Saves: round trip (state, RNG, log, redo tail), atomic writes (a crash
** before the rename leaves the old file), refusal of corrupted, truncated,
** foreign and edited files, a changed ruleset (refused, or loaded as a
** scenario), and scenario export/start, including a hand-written one.
*/
#include "testutil.h"
#include "save.h"

#include <stdio.h>
#include <sys/stat.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *const NAMES[] = {"Ann", "Bob", "Cy"};
static const char *const BOTS[] = {NULL, "random", NULL};
static char tmpdir[] = "/tmp/cairn-save-XXXXXX";

static char *tmp_path(const char *name) { return cairn_strfmt("%s/%s", tmpdir, name); }

static engine *game(const char *rs, int players, uint64_t seed) {
    engine_config c;
    memset(&c, 0, sizeof c);
    c.ruleset = rs;
    c.players = players;
    c.names = NAMES;
    c.bots = BOTS;
    c.seed = seed;
    const char *choices[] = {"cards=8"};
    if (strstr(rs, "goofspiel")) {
        c.choices = choices;
        c.n_choices = 1;
    }
    cerr_list errs;
    cerr_init(&errs, 0);
    engine *e = engine_new(&c, &errs);
    if (!e) cerr_print(stderr, &errs);
    assert_non_null(e);
    cerr_free(&errs);
    return e;
}

static void bots(engine *e, size_t n) {
    for (size_t i = 0; i < n && !engine_is_over(e); i++) {
        engine_decision_list d;
        assert_int_equal(engine_decisions(e, &d), 0);
        int seat = d.items[d.n - 1].seat;
        engine_decision_list_free(&d);
        char *id = engine_bot_choice(e, seat);
        assert_int_equal(engine_answer(e, seat, id, NULL), ENGINE_OK);
        free(id);
    }
}

static engine *load(const char *path, int as_scenario, cerr_list *errs, char **note) {
    save_load_opts o = {.as_scenario = as_scenario, .checks = 1};
    return save_load(path, &o, note, errs);
}

static int setup(void **st) {
    (void)st;
    return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **st) {
    (void)st;
    char *cmd = cairn_strfmt("rm -rf '%s'", tmpdir);
    int rc = system(cmd);
    free(cmd);
    return rc;
}

/* Right after setup states hold empty lists (goofspiel's `won`, yak's
** towers), which the compact emitter once quoted as the string "[]": every
** shipped ruleset's fresh game must load back to the same state. */
static void test_round_trip_at_start(void **st) {
    (void)st;
    static const char *const rulesets[] = {"rulesets/connect4", "rulesets/goofspiel",
                                           "rulesets/yak"};
    for (size_t i = 0; i < sizeof rulesets / sizeof rulesets[0]; i++) {
        engine *e = game(rulesets[i], 2, 3);
        char *path = tmp_path("start.yaml");
        cerr_list errs;
        cerr_init(&errs, 0);
        assert_int_equal(save_write(e, path, &errs), 0);
        /* an ordinary document's mode (0666 less the umask), not mkstemp's 0600 */
        mode_t mask = umask(022);
        struct stat sst;
        assert_int_equal(stat(path, &sst), 0);
        assert_int_equal(sst.st_mode & 0777, 0666 & ~mask);
        umask(mask);
        char *note = NULL;
        engine *back = load(path, 0, &errs, &note);
        if (!back) cerr_print(stderr, &errs);
        assert_non_null(back);
        assert_true(engine_state_hash(back) == engine_state_hash(e));
        free(note);
        engine_free(back);
        engine_free(e);
        cerr_free(&errs);
        free(path);
    }
}

/* Found in review: saving over a symlink replaced the link by a file, and
** saving over an existing save reset the mode its owner gave it. */
static void test_overwrite_keeps_link_and_mode(void **st) {
    (void)st;
    engine *e = game("rulesets/connect4", 2, 5);
    char *target = tmp_path("target.yaml"), *link = tmp_path("link.yaml");
    cerr_list errs;
    cerr_init(&errs, 0);
    assert_int_equal(save_write(e, target, &errs), 0);
    assert_int_equal(chmod(target, 0600), 0);
    assert_int_equal(symlink(target, link), 0);
    bots(e, 3);
    assert_int_equal(save_write(e, link, &errs), 0);
    struct stat lst, tst;
    assert_int_equal(lstat(link, &lst), 0);
    assert_true(S_ISLNK(lst.st_mode));             /* still a link */
    assert_int_equal(stat(target, &tst), 0);
    assert_int_equal(tst.st_mode & 0777, 0600);    /* the owner's mode kept */
    char *note = NULL;
    engine *back = load(target, 0, &errs, &note);  /* the target got the new save */
    assert_non_null(back);
    assert_int_equal(engine_position(back), 3);
    free(note);
    engine_free(back);
    engine_free(e);
    cerr_free(&errs);
    free(target);
    free(link);
}

static void test_round_trip(void **st) {
    (void)st;
    engine *e = game("rulesets/goofspiel", 3, 77);
    bots(e, 10);
    engine_undo(e); /* leave one decision to redo */
    char *path = tmp_path("g.yaml");
    cerr_list errs;
    cerr_init(&errs, 0);
    assert_int_equal(save_write(e, path, &errs), 0);
    engine *f = load(path, 0, &errs, NULL);
    if (!f) cerr_print(stderr, &errs);
    assert_non_null(f);
    assert_true(engine_state_hash(f) == engine_state_hash(e));
    assert_int_equal(engine_position(f), 9);
    size_t n1, n2;
    const engine_logged *l1 = engine_log(e, &n1), *l2 = engine_log(f, &n2);
    assert_int_equal(n1, 10);
    assert_int_equal(n2, 10);
    for (size_t i = 0; i < n1; i++) {
        assert_int_equal(l1[i].seat, l2[i].seat);
        assert_string_equal(l1[i].id, l2[i].id);
    }
    assert_string_equal(engine_seat_name(f, 3), "Cy");
    assert_string_equal(engine_seat_bot(f, 2), "random");
    assert_null(engine_seat_bot(f, 1));
    assert_int_equal(engine_event_count(f), engine_event_count(e));
    rng a = engine_rng(e), b = engine_rng(f);
    assert_memory_equal(&a, &b, sizeof a);
    /* the RNG and the redo tail came through: both games go on identically */
    assert_int_equal(engine_redo(f), 0);
    assert_int_equal(engine_redo(e), 0);
    bots(e, 100);
    bots(f, 100);
    assert_true(engine_is_over(e));
    assert_true(engine_state_hash(f) == engine_state_hash(e));
    engine_free(f);
    engine_free(e);
    cerr_free(&errs);
    free(path);
}

/* A real crash: killed, nothing runs after it (no exit handlers, no leak
** check under valgrind). */
static void crash_before_rename(const char *tmp) {
    (void)tmp;
    raise(SIGKILL);
}

static char *slurp(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    char *buf = calloc(1, 1 << 20);
    size_t n = fread(buf, 1, (1 << 20) - 1, f);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

static void spit(const char *path, const char *text, size_t n) {
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(text, 1, n, f), n);
    fclose(f);
}

/* A crash between writing the temporary file and the rename leaves the
** previous save whole. */
static void test_atomic_write(void **st) {
    (void)st;
    engine *e = game("rulesets/connect4", 2, 1);
    char *path = tmp_path("c4.yaml");
    cerr_list errs;
    cerr_init(&errs, 0);
    assert_int_equal(save_write(e, path, &errs), 0);
    char *before = slurp(path);
    bots(e, 5);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        save_before_rename_hook = crash_before_rename;
        save_write(e, path, &errs);
        _exit(1); /* not reached */
    }
    int status;
    waitpid(pid, &status, 0);
    assert_true(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
    char *after = slurp(path);
    assert_string_equal(before, after);
    engine *f = load(path, 0, &errs, NULL);
    assert_non_null(f);
    assert_int_equal(engine_position(f), 0);
    engine_free(f);
    /* and without the crash the new save replaces it */
    assert_int_equal(save_write(e, path, &errs), 0);
    f = load(path, 0, &errs, NULL);
    assert_int_equal(engine_position(f), 5);
    engine_free(f);
    /* a folder that does not exist: an error, nothing written */
    char *bad = tmp_path("no/such/dir/x.yaml");
    assert_int_equal(save_write(e, bad, &errs), -1);
    assert_non_null(strstr(errs.items[errs.n - 1].message, "cannot save"));
    free(bad);
    free(before);
    free(after);
    free(path);
    cerr_free(&errs);
    engine_free(e);
}

static void expect_refused(const char *path, const char *needle) {
    cerr_list errs;
    cerr_init(&errs, 0);
    engine *f = load(path, 0, &errs, NULL);
    assert_null(f);
    assert_true(cerr_count(&errs) > 0);
    int found = 0;
    for (size_t i = 0; i < errs.n; i++) {
        char *line = cerr_format(&errs.items[i]);
        if (strstr(line, needle)) found = 1;
        free(line);
    }
    if (!found) cerr_print(stderr, &errs);
    assert_true(found);
    cerr_free(&errs);
}

static char *replace_once(const char *s, const char *from, const char *to) {
    const char *p = strstr(s, from);
    assert_non_null(p);
    return cairn_strfmt("%.*s%s%s", (int)(p - s), s, to, p + strlen(from));
}

static void test_bad_files_refused(void **st) {
    (void)st;
    engine *e = game("rulesets/connect4", 2, 1);
    bots(e, 6);
    uint64_t h = engine_state_hash(e);
    char *path = tmp_path("ok.yaml"), *bad = tmp_path("bad.yaml");
    cerr_list errs;
    cerr_init(&errs, 0);
    assert_int_equal(save_write(e, path, &errs), 0);
    char *text = slurp(path);
    size_t len = strlen(text);
    /* truncated in the middle */
    spit(bad, text, len / 2);
    expect_refused(bad, "bad.yaml");
    /* not YAML at all */
    spit(bad, "\x01\x02\xff\xfe garbage", 12);
    expect_refused(bad, "bad.yaml");
    /* somebody else's YAML */
    expect_refused("rulesets/connect4/ruleset.yaml", "not a cairn saved game");
    /* a schema violation: seat 99 */
    char *edited = replace_once(text, "- seat: 2", "- seat: 99");
    spit(bad, edited, strlen(edited));
    expect_refused(bad, "seat: expected integer between 0 and 16, got integer 99");
    free(edited);
    /* a hand-edited snapshot no longer matches the replay */
    edited = replace_once(text, "moves: 6", "moves: 5");
    spit(bad, edited, strlen(edited));
    expect_refused(bad, "does not reproduce");
    free(edited);
    /* an illegal decision in the log */
    edited = replace_once(text, "id: drop", "id: fly");
    spit(bad, edited, strlen(edited));
    expect_refused(bad, "does not replay");
    free(edited);
    /* the game in memory never moved */
    assert_true(engine_state_hash(e) == h);
    free(text);
    free(path);
    free(bad);
    cerr_free(&errs);
    engine_free(e);
}

/* A changed ruleset (its data edited) is refused with a reason, or loaded
** from the snapshot as a scenario when asked. */
static void test_changed_ruleset(void **st) {
    (void)st;
    char *rs = tmp_path("connect4");
    char *cmd = cairn_strfmt("cp -R rulesets/connect4 '%s'", rs);
    assert_int_equal(system(cmd), 0);
    free(cmd);
    engine *e = game(rs, 2, 3);
    bots(e, 4);
    char *path = tmp_path("changed.yaml");
    cerr_list errs;
    cerr_init(&errs, 0);
    assert_int_equal(save_write(e, path, &errs), 0);
    char *data = cairn_strfmt("%s/data/board.yaml", rs);
    char *text = slurp(data), *edited = replace_once(text, "connect: 4", "connect: 5");
    spit(data, edited, strlen(edited));
    expect_refused(path, "changed since this game was saved");
    char *note = NULL;
    engine *f = load(path, 1, &errs, &note);
    if (!f) cerr_print(stderr, &errs);
    assert_non_null(f);
    assert_non_null(note);
    assert_non_null(strstr(note, "scenario"));
    assert_int_equal(engine_position(f), 0);
    assert_true(engine_state_hash(f) == engine_state_hash(e));
    rng a = engine_rng(e), b = engine_rng(f);
    assert_memory_equal(&a, &b, sizeof a);
    engine_free(f);
    free(note);
    free(text);
    free(edited);
    free(data);
    free(path);
    free(rs);
    cerr_free(&errs);
    engine_free(e);
}

static void test_scenario_export_and_start(void **st) {
    (void)st;
    engine *e = game("rulesets/goofspiel", 2, 5);
    bots(e, 4);
    char *path = tmp_path("scenario.yaml");
    cerr_list errs;
    cerr_init(&errs, 0);
    assert_int_equal(save_export_scenario(e, path, &errs), 0);
    engine_config c;
    memset(&c, 0, sizeof c);
    c.names = NAMES;
    c.seed = 5;
    engine *f = save_start_scenario(path, &c, &errs);
    if (!f) cerr_print(stderr, &errs);
    assert_non_null(f);
    assert_true(engine_state_hash(f) == engine_state_hash(e));
    assert_int_equal(engine_position(f), 0);
    /* with the RNG carried over, the same decisions give the same game */
    bots(e, 100);
    size_t n;
    const engine_logged *l = engine_log(e, &n);
    for (size_t i = 4; i < n; i++) assert_int_equal(engine_answer(f, l[i].seat, l[i].id, NULL), ENGINE_OK);
    assert_true(engine_is_over(f));
    value *ws = value_clone(value_map_get(engine_state(e), "won"));
    assert_true(value_equal(ws, value_map_get(engine_state(f), "won"), 1));
    value_free(ws);
    engine_free(f);
    engine_free(e);
    free(path);
    cerr_free(&errs);
}

/* A hand-written scenario: Ann has three discs in column 1 and it is her
** turn; dropping a fourth there wins. */
static void test_hand_written_scenario(void **st) {
    (void)st;
    const char *text =
        "cairn_scenario: 1\n"
        "ruleset: rulesets/connect4\n"
        "players: 2\n"
        "state:\n"
        "  grid:\n"
        "    - [X, O, ., ., ., ., .]\n"
        "    - [X, O, ., ., ., ., .]\n"
        "    - [X, O, ., ., ., ., .]\n"
        "    - [., ., ., ., ., ., .]\n"
        "    - [., ., ., ., ., ., .]\n"
        "    - [., ., ., ., ., ., .]\n"
        "  turn: 1\n"
        "  moves: 6\n"
        "  winner: 0\n"
        "  over: false\n";
    char *path = tmp_path("hand.yaml");
    spit(path, text, strlen(text));
    engine_config c;
    memset(&c, 0, sizeof c);
    c.names = NAMES;
    c.checks = 1;
    cerr_list errs;
    cerr_init(&errs, 0);
    engine *e = save_start_scenario(path, &c, &errs);
    if (!e) cerr_print(stderr, &errs);
    assert_non_null(e);
    assert_true(engine_is_asked(e, 1));
    assert_int_equal(engine_answer(e, 1, "drop 1", NULL), ENGINE_OK);
    assert_true(engine_is_over(e));
    assert_int_equal(value_get_int(engine_state(e), "winner", 0), 1);
    /* a save of a scenario game keeps the scenario and reloads */
    char *spath = tmp_path("hand-save.yaml");
    assert_int_equal(save_write(e, spath, &errs), 0);
    engine *f = load(spath, 0, &errs, NULL);
    if (!f) cerr_print(stderr, &errs);
    assert_non_null(f);
    assert_true(engine_state_hash(f) == engine_state_hash(e));
    engine_free(f);
    engine_free(e);
    /* a scenario that breaks the state schema is refused when checks are on */
    char *broken = replace_once(text, "turn: 1", "turn: 3");
    spit(path, broken, strlen(broken));
    assert_null(save_start_scenario(path, &c, &errs));
    free(broken);
    free(spath);
    free(path);
    cerr_free(&errs);
}

/* Awkward strings survive export and start: the emitter quotes what flow
** style would misread. (The txn test ruleset takes any state.) */
static void test_awkward_strings_round_trip(void **st) {
    (void)st;
    const char *text =
        "cairn_scenario: 1\n"
        "ruleset: tests/fixtures/engine/txn\n"
        "players: 1\n"
        "state:\n"
        "  n: 0\n"
        "  items: [a]\n"
        "  notes: [\"a, b\", \"[x]\", \"#c\", \"\", \"true\", \"- d\", \"é\", \"x: y\", \"{z}\", \"q\\\"uote\", \"7\"]\n"
        "  nested: [[1, [2, 3]], {k: [\"v, w\"]}]\n";
    char *path = tmp_path("awkward.yaml"), *out = tmp_path("awkward-out.yaml");
    spit(path, text, strlen(text));
    engine_config c;
    memset(&c, 0, sizeof c);
    cerr_list errs;
    cerr_init(&errs, 0);
    /* the file is in a scratch folder, its ruleset in the checkout: a
    ** folder neither beside it nor on the search path needs trust */
    assert_null(save_start_scenario(path, &c, &errs));
    assert_true(errs.n > 0 && strstr(errs.items[0].message, "--trust") != NULL);
    cerr_clear(&errs);
    c.trust = 1;
    engine *e = save_start_scenario(path, &c, &errs);
    if (!e) cerr_print(stderr, &errs);
    assert_non_null(e);
    assert_int_equal(save_export_scenario(e, out, &errs), 0);
    engine *f = save_start_scenario(out, &c, &errs);
    if (!f) cerr_print(stderr, &errs);
    assert_non_null(f);
    assert_true(value_equal(engine_state(e), engine_state(f), 1));
    const value *notes = value_map_get(engine_state(f), "notes");
    assert_string_equal(notes->u.list.items[0]->u.str.s, "a, b");
    assert_string_equal(notes->u.list.items[9]->u.str.s, "q\"uote");
    engine_free(e);
    engine_free(f);
    free(path);
    free(out);
    cerr_free(&errs);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_overwrite_keeps_link_and_mode),
        cmocka_unit_test(test_round_trip_at_start),
        cmocka_unit_test(test_atomic_write),
        cmocka_unit_test(test_bad_files_refused),
        cmocka_unit_test(test_changed_ruleset),
        cmocka_unit_test(test_scenario_export_and_start),
        cmocka_unit_test(test_hand_written_scenario),
        cmocka_unit_test(test_awkward_strings_round_trip),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
