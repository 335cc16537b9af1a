/*
** test_load_language.c
** One language at the table (issue 25): the refusals of the load layer
** (the save and state schemas, the YAML reader, the visibility rules, the
** ruleset's command-line flags) in the game's language. Real refusals
** through the real code: a German Kathmandu game and a Greek Yak game load
** files that are no good saves (missing and unknown keys, a YAML syntax
** error, a duplicate key, values of the wrong size or pattern) and `set`
** values the state schema refuses; `cairn play` is given bad --set,
** --players and --preset under --lang de and el and under a German locale;
** a ruleset with a bad visibility path, and one whose schema file does
** not compile, are played in German and Greek.
** Every expected line is written out. English stays as it was: the same
** refusals under --lang en. Also the phrases of base/error.h on their own:
** one nested in another, and a malformed one falling back to English.
** Runs build/cairn (next to this test binary).
*/
#include "testutil.h"

#include "error.h"
#include "repl_text.h"
#include "schema.h"
#include "yload.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* cairn (the binary under test), tmpdir and root; this file runs cairn
** through the shell only, so testchild.h's pipe and terminal helpers go
** unused here */
#pragma GCC diagnostic ignored "-Wunused-function"
#include "testchild.h"

/* Writes text into tmpdir/name. */
static void put_file(const char *name, const char *text) {
    char *path = cairn_strfmt("%s/%s", tmpdir, name);
    assert_non_null(path);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    free(path);
}

/* The files that are no good saves, each refused for the reasons its
** comment gives (schemas/save.schema.yaml). */
static void put_bad_saves(void) {
    /* five required keys missing (seed is not: "sedd" is its misspelling,
    ** and the unknown key says so) */
    put_file("a.yaml", "cairn_save: 1\nengine: \"0.1.0\"\nsedd: 3\n");
    /* a flow list left open: libyaml finds `position` where , or ] belongs */
    put_file("b.yaml", "cairn_save: 1\nlog: [1, 2\nposition: 0\n");
    /* a key twice */
    put_file("c.yaml", "cairn_save: 1\ncairn_save: 2\n");
    /* every key there, but: a version that is neither 1 nor 2, a
    ** fingerprint and an rng that are not 64 hex digits, no seats (1 to 16),
    ** events not an integer, a key snapshot does not have */
    put_file("d.yaml", "cairn_save: 3\nengine: \"0.1.0\"\n"
                       "ruleset: {name: k, id: k, version: \"1\", fingerprint: \"xyz\"}\n"
                       "seats: []\nseed: 1\nlog: []\nposition: 0\n"
                       "snapshot: {state: {}, rng: \"x\", events: [], extra: 1}\n");
    /* what the YAML reader refuses but goes on after: a float, a tag it
    ** does not take, an alias of no anchor */
    put_file("e.yaml", "cairn_save: 1\na: 1.5\nb: !!foo x\nc: *nope\n");
    /* a key one column left of its map's: libyaml wants a key where it is */
    put_file("f.yaml", "cairn_save: 1\na:\n  - 1\n b: 2\n");
    /* a control character (0x01) in a string, the 20th byte */
    put_file("g.yaml", "cairn_save: 1\na: \"x\001y\"\n");
}

/* Runs cmd (in tmpdir, stdout and stderr together, 250 columns so that no
** line wraps) and fails unless each of want[] is a whole line of what it
** printed. */
static void expect_lines(const char *cmd, const char *const *want, size_t n_want) {
    char *full = cairn_strfmt("cd %s && export COLUMNS=250 LINES=24 && %s 2>&1", tmpdir, cmd);
    assert_non_null(full);
    FILE *p = popen(full, "r");
    assert_non_null(p);
    char line[4096];
    unsigned char *found = calloc(n_want, 1);
    assert_non_null(found);
    while (fgets(line, sizeof line, p)) {
        line[strcspn(line, "\n")] = '\0';
        for (size_t i = 0; i < n_want; i++)
            if (strcmp(line, want[i]) == 0) found[i] = 1;
    }
    pclose(p);
    for (size_t i = 0; i < n_want; i++)
        if (!found[i]) fail_msg("no line \"%s\" in the output of %s", want[i], full);
    free(found);
    free(full);
}

/* `load` of each bad file, then input, in a game of ruleset in lang */
static char *game_cmd(const char *ruleset, const char *lang, const char *input) {
    return cairn_strfmt("printf 'load a.yaml\\nload b.yaml\\nload c.yaml\\nload d.yaml\\nload e.yaml\\nload f.yaml\\n"
                        "load g.yaml\\n%squit\\ny\\n' | "
                        "%s play %s/rulesets/%s --lang %s --players 2 --seed 1",
                        input, cairn, root, ruleset, lang);
}

static void test_german_kathmandu_loads(void **state) {
    (void)state;
    put_bad_saves();
    const char *want[] = {
        "  a.yaml:1:1: der nötige Schlüssel \"ruleset\" fehlt",
        "  a.yaml:1:1: der nötige Schlüssel \"snapshot\" fehlt",
        "  a.yaml:3:1: unbekannter Schlüssel \"sedd\" (meintest du \"seed\"?)",
        "  b.yaml:3:9: hier fehlt das erwartete ',' oder ']' (beim Lesen einer Liste in [ ] in Zeile 2, Spalte 6)",
        "  c.yaml:2:1: doppelter Schlüssel \"cairn_save\" (zuerst in Zeile 1)",
        "  d.yaml:3:54: ruleset.fingerprint: erwartet: Text nach dem Muster \"^[0-9a-f]{64}$\", bekommen: Text \"xyz\"",
        "  d.yaml:4:8: seats: erwartet: Liste mit 1 bis 16 Einträgen, bekommen: eine Liste mit 0 Einträgen",
        "  d.yaml:8:45: snapshot: unbekannter Schlüssel \"extra\"",
        "  e.yaml:2:4: a: Kommazahlen sind nicht erlaubt (cairn kennt nur ganze Zahlen); setz es in Anführungszeichen, "
        "wenn du einen Text meinst",
        "  e.yaml:3:4: b: das Tag !!foo geht nicht bei einem einzelnen Wert (cairn versteht !!str, !!int, !!bool und "
        "!!null bei einzelnen Werten, !!map und !!seq bei Sammlungen)",
        "  e.yaml:4:4: c: unbekannter Anker *nope (ein Alias muss nach dem fertigen Knoten seines Ankers kommen)",
        "  f.yaml:4:2: hier fehlt ein erwarteter Schlüssel (beim Lesen einer Tabelle in Zeile 1, Spalte 1)",
        "  g.yaml:2:6: Steuerzeichen sind nicht erlaubt (0x1 bei Byte 19)",
        /* the state schema of Kathmandu: route has minItems 3; a player has no key x */
        "set route: route: erwartet: Liste mit mindestens 3 Einträgen, bekommen: eine Liste mit 0 Einträgen "
        "(nichts geändert)",
        "set players[1].x: players[1]: unbekannter Schlüssel \"x\" (nichts geändert)",
    };
    char *cmd = game_cmd("kathmandu", "de", "set route []\\nset players[1].x 1\\n");
    expect_lines(cmd, want, sizeof want / sizeof want[0]);
    free(cmd);
}

static void test_greek_yak_loads(void **state) {
    (void)state;
    put_bad_saves();
    const char *want[] = {
        "  a.yaml:1:1: λείπει το απαραίτητο κλειδί \"seats\"",
        "  a.yaml:3:1: άγνωστο κλειδί \"sedd\" (μήπως εννοείς \"seed\";)",
        "  b.yaml:3:9: δεν βρέθηκε το αναμενόμενο ',' ή ']' (κατά την ανάγνωση μιας λίστας σε [ ] στη γραμμή 2, "
        "στήλη 6)",
        "  c.yaml:2:1: διπλό κλειδί \"cairn_save\" (πρώτη φορά στη γραμμή 1)",
        "  d.yaml:1:13: cairn_save: αναμενόταν ένα από 1, 2, δόθηκε 3",
        "  d.yaml:8:28: snapshot.rng: αναμενόταν κείμενο που ταιριάζει με το μοτίβο \"^[0-9a-f]{64}$\", δόθηκε "
        "κείμενο \"x\"",
        "  d.yaml:4:8: seats: αναμενόταν λίστα με 1 έως 16 στοιχεία, δόθηκε μια λίστα με 0 στοιχεία",
        "  e.yaml:3:4: b: η ετικέτα !!foo δεν μπαίνει σε απλή τιμή (το cairn καταλαβαίνει !!str, !!int, !!bool και "
        "!!null σε απλές τιμές, !!map και !!seq σε συλλογές)",
        "  f.yaml:4:2: δεν βρέθηκε το αναμενόμενο κλειδί (κατά την ανάγνωση ενός πίνακα στη γραμμή 1, στήλη 1)",
        "  g.yaml:2:6: οι χαρακτήρες ελέγχου δεν επιτρέπονται (0x1 στο byte 19)",
        /* Yak's state schema: stupa is false or an integer >= 1 (anyOf) */
        "set stupa: stupa: δεν ταιριάζει με κανένα από: false, ακέραιος >= 1· δόθηκε κείμενο \"x\" (τίποτα "
        "δεν άλλαξε)",
        "set nosuch: state: άγνωστο κλειδί \"nosuch\" (τίποτα δεν άλλαξε)",
    };
    char *cmd = game_cmd("yak", "el", "set stupa \"x\"\\nset nosuch 3\\n");
    expect_lines(cmd, want, sizeof want / sizeof want[0]);
    free(cmd);
}

/* The same refusals in an English game: the messages as they always were */
static void test_english_as_before(void **state) {
    (void)state;
    put_bad_saves();
    const char *want[] = {
        "  a.yaml:1:1: missing required key \"ruleset\"",
        "  a.yaml:3:1: unknown key \"sedd\" (did you mean \"seed\"?)",
        "  b.yaml:3:9: did not find expected ',' or ']' (while parsing a flow sequence at line 2, column 6)",
        "  c.yaml:2:1: duplicate key \"cairn_save\" (first at line 1)",
        "  d.yaml:3:54: ruleset.fingerprint: expected string matching \"^[0-9a-f]{64}$\", got string \"xyz\"",
        "  d.yaml:4:8: seats: expected list of 1 to 16 items, got a list of 0 items",
        "  e.yaml:3:4: b: tag !!foo cannot be used on a scalar (cairn understands !!str, !!int, !!bool and !!null on "
        "scalars, !!map and !!seq on collections)",
        "  f.yaml:4:2: did not find expected key (while parsing a block mapping at line 1, column 1)",
        "  g.yaml:2:6: control characters are not allowed (0x1 at byte 19)",
        "set stupa: stupa: matches none of: false, integer >= 1; got string \"x\" (nothing changed)",
    };
    char *cmd = game_cmd("yak", "en", "set stupa \"x\"\\n");
    expect_lines(cmd, want, sizeof want / sizeof want[0]);
    free(cmd);
    const char *flags[] = {"cairn play: --set takes DATA.PATH=VALUE (scoring.bonus=4), got \"foo=1\""};
    cmd = cairn_strfmt("%s play %s/rulesets/kathmandu --lang en --set foo=1", cairn, root);
    expect_lines(cmd, flags, 1);
    free(cmd);
}

/* Before a game: the flags' refusals in --lang's language, else the
** locale's (LANG here; LC_ALL and LC_MESSAGES unset) */
static void test_flags_before_a_game(void **state) {
    (void)state;
    struct {
        const char *env, *args, *line;
    } cases[] = {
        {"", "--lang de --set foo=1", "cairn play: --set nimmt DATEN.PFAD=WERT (scoring.bonus=4), nicht \"foo=1\""},
        {"", "--lang el --set foo=1",
         "cairn play: το --set θέλει ΔΕΔΟΜΕΝΑ.ΔΙΑΔΡΟΜΗ=ΤΙΜΗ (scoring.bonus=4), όχι \"foo=1\""},
        {"", "--lang de --players 0", "cairn play: --players nimmt eine Zahl von 1 bis 16, nicht \"0\""},
        {"", "--lang el --players 17", "cairn play: το --players θέλει αριθμό από 1 έως 16, όχι \"17\""},
        {"", "--lang de --preset a --preset b", "cairn play: nur ein --preset auf einmal; \"b\" ist ein zweites"},
        {"", "--lang el --preset a --preset b", "cairn play: ένα --preset τη φορά· το \"b\" είναι δεύτερο"},
        {"LANG=de_DE.UTF-8", "--players 2 --players 3", "cairn play: --players steht zweimal da (\"3\")"},
        {"LANG=el_GR.UTF-8", "--players 2 --players 3", "cairn play: το --players δόθηκε δύο φορές (\"3\")"},
        /* --set's refusal when the ruleset loads: its reason a phrase */
        {"", "--lang de --set scoring.nosuch=1", "--set scoring.nosuch=1: kein \"nosuch\" an dieser Stelle der Daten"},
        {"", "--lang el --set nosuch.x=1", "--set nosuch.x=1: δεν υπάρχουν δεδομένα \"nosuch\""},
        {"", "--lang de --set scoring.offering_track=[a", "--set scoring.offering_track=[a: der Wert lässt sich nicht als YAML lesen"},
        {"", "--lang en --set scoring.nosuch=1", "--set scoring.nosuch=1: no \"nosuch\" there in the data"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *cmd = cairn_strfmt("env -u LC_ALL -u LC_MESSAGES %s %s play %s/rulesets/kathmandu %s", cases[i].env,
                                 cairn, root, cases[i].args);
        assert_non_null(cmd);
        expect_lines(cmd, &cases[i].line, 1);
        free(cmd);
    }
}

/* A ruleset whose visibility rule has a path with an empty key: refused at
** load, worded in --lang's language */
static void test_visibility_path(void **state) {
    (void)state;
    char *make = cairn_strfmt("rm -rf %s/c4 && cp -r %s/rulesets/connect4 %s/c4 && "
                              "sed -i 's/  - path: grid/  - path: \"grid..x\"/' %s/c4/ruleset.yaml",
                              tmpdir, root, tmpdir, tmpdir);
    assert_non_null(make);
    assert_int_equal(system(make), 0);
    free(make);
    const char *de[] = {"./c4/ruleset.yaml:21:5: visibility[1]: Pfad \"grid..x\": leerer Schlüssel nach '.'"};
    const char *el[] = {"./c4/ruleset.yaml:21:5: visibility[1]: διαδρομή \"grid..x\": κενό κλειδί μετά την '.'"};
    const char *en[] = {"./c4/ruleset.yaml:21:5: visibility[1]: path \"grid..x\": empty key after '.'"};
    char *cmd = cairn_strfmt("%s play ./c4 --lang de", cairn);
    expect_lines(cmd, de, 1);
    free(cmd);
    cmd = cairn_strfmt("%s play ./c4 --lang el", cairn);
    expect_lines(cmd, el, 1);
    free(cmd);
    cmd = cairn_strfmt("%s play ./c4 --lang en", cairn);
    expect_lines(cmd, en, 1);
    free(cmd);
}

/* A ruleset whose schema file does not compile (a misspelt keyword, a
** bound that is text): refused at load, in --lang's language */
static void test_schema_file(void **state) {
    (void)state;
    char *make = cairn_strfmt("rm -rf %s/c4s && cp -r %s/rulesets/connect4 %s/c4s && sed -i "
                              "'s/  rows: {type: integer, minimum: 1, maximum: 20}/  rows: {type: integer, minimun: 1, "
                              "maximum: \"20\"}/' %s/c4s/schemas/board.schema.yaml",
                              tmpdir, root, tmpdir, tmpdir);
    assert_non_null(make);
    assert_int_equal(system(make), 0);
    free(make);
    const char *de[] = {
        "./c4s/schemas/board.schema.yaml:9:25: properties.rows: unbekanntes Schlüsselwort \"minimun\" im Schema "
        "(meintest du \"minimum\"?)",
        "./c4s/schemas/board.schema.yaml:9:46: properties.rows.maximum: erwartet: ganze Zahl, bekommen: Text \"20\"",
    };
    const char *el[] = {
        "./c4s/schemas/board.schema.yaml:9:25: properties.rows: άγνωστη λέξη-κλειδί σχήματος \"minimun\" (μήπως "
        "εννοείς \"minimum\";)",
        "./c4s/schemas/board.schema.yaml:9:46: properties.rows.maximum: αναμενόταν ακέραιος, δόθηκε κείμενο \"20\"",
    };
    const char *en[] = {
        "./c4s/schemas/board.schema.yaml:9:25: properties.rows: unknown schema keyword \"minimun\" (did you mean "
        "\"minimum\"?)",
        "./c4s/schemas/board.schema.yaml:9:46: properties.rows.maximum: expected integer, got string \"20\"",
    };
    char *cmd = cairn_strfmt("%s play ./c4s --lang de", cairn);
    expect_lines(cmd, de, 2);
    free(cmd);
    cmd = cairn_strfmt("%s play ./c4s --lang el", cairn);
    expect_lines(cmd, el, 2);
    free(cmd);
    cmd = cairn_strfmt("%s play ./c4s --lang en", cairn);
    expect_lines(cmd, en, 2);
    free(cmd);
}

/* Phrases (base/error.h): nested ones worded by their entries, the plural
** by the first argument; a malformed one, or an argument holding a mark,
** leaves the English message. */
static void test_phrases(void **state) {
    (void)state;
    /* "expected list of at least 1 item, got a list of 2 items", by hand:
    ** at_least with 1 takes the singular, the got list of 2 the plural */
    char *want = cerr_phrase("schema.list.at_least", "1", NULL);
    char *got = cerr_phrase("schema.got", "list", "2", NULL);
    assert_non_null(want);
    assert_non_null(got);
    assert_string_equal(want, "\x1eschema.list.at_least\x1f" "1\x1d");
    cerr_list l;
    cerr_init(&l, 0);
    cerr_add(&l, NULL, 0, 0, NULL, "expected list of at least 1 item, got a list of 2 items");
    cerr_key(&l, 0, "schema.expected_what", 0, want, got);
    char *de = repl_error_message_in("de", &l.items[0]);
    assert_string_equal(de, "erwartet: Liste mit mindestens 1 Eintrag, bekommen: eine Liste mit 2 Einträgen");
    free(de);
    /* a phrase in a phrase: "anything except list of at most 3 items" */
    char *inner = cerr_phrase("schema.list.at_most", "3", NULL);
    char *outer = cerr_phrase("schema.anything_except", inner, NULL);
    assert_non_null(outer);
    cerr_add(&l, NULL, 0, 0, NULL, "english");
    cerr_key(&l, 1, "schema.expected_what", 0, outer, got);
    char *el = repl_error_message_in("el", &l.items[1]);
    assert_string_equal(el, "αναμενόταν οτιδήποτε εκτός από λίστα με το πολύ 3 στοιχεία, δόθηκε μια λίστα με 2 στοιχεία");
    free(el);
    /* malformed (no end mark) or an entry no language has: English */
    cerr_add(&l, NULL, 0, 0, NULL, "english two");
    cerr_key(&l, 2, "schema.expected_what", 0, "\x1eschema.list.at_most\x1f" "3", got);
    char *bad = repl_error_message_in("de", &l.items[2]);
    assert_string_equal(bad, "english two");
    free(bad);
    cerr_add(&l, NULL, 0, 0, NULL, "english three");
    cerr_key(&l, 3, "schema.expected_what", 0, "\x1eno.such.entry\x1d", got);
    bad = repl_error_message_in("el", &l.items[3]);
    assert_string_equal(bad, "english three");
    free(bad);
    /* an argument with a mark of its own outside a phrase is refused */
    assert_null(cerr_phrase("schema.matching", "a\x1f" "b", NULL));
    assert_null(cerr_phrase("schema.matching", "a\x1d", NULL));
    cerr_free(&l);
    free(want);
    free(got);
    free(inner);
    free(outer);
}

/* The one error of validating YAML text inst against schema text sch,
** worded in lang (the English message for "en"). */
static char *refusal_in(const char *lang, const char *sch, const char *inst) {
    schema_set *set = schema_set_new();
    assert_non_null(set);
    cerr_list errs;
    cerr_init(&errs, 0);
    const value *s = schema_load_string(set, "s.yaml", sch, strlen(sch), &errs);
    assert_non_null(s);
    value *v = yload_string("i.yaml", inst, strlen(inst), NULL, &errs);
    assert_non_null(v);
    assert_int_equal(schema_validate(set, s, NULL, v, NULL, &errs), 1);
    char *text = repl_error_message_in(lang, &errs.items[0]);
    value_free(v);
    cerr_free(&errs);
    schema_set_free(set);
    return text;
}

/* "matches none of" with the reason of a branch that is no restatement of
** its label: at the value itself (the ", got ..." dropped: the pattern),
** or at a key below it (b), or a whole message (a missing key); the other
** branch's reason only restates it ("expected integer >= 1" after
** "integer >= 1") and is not shown */
static void test_none_of_reasons(void **state) {
    (void)state;
    const char *pattern = "anyOf: [{type: string, pattern: \"^[a-z]+$\"}, {type: integer, minimum: 1}]";
    char *en = refusal_in("en", pattern, "ABC");
    assert_string_equal(en, "matches none of: string (expected string matching \"^[a-z]+$\"), integer >= 1; "
                            "got string \"ABC\"");
    char *de = refusal_in("de", pattern, "ABC");
    assert_string_equal(de, "passt zu keinem von: Text (erwartet: Text nach dem Muster \"^[a-z]+$\"), ganze Zahl "
                            ">= 1; bekommen: Text \"ABC\"");
    free(en);
    free(de);
    /* two map branches with one error each: neither is picked */
    const char *maps = "anyOf: [{type: object, required: [a]}, "
                       "{type: object, properties: {b: {type: integer}}, required: [b]}]";
    en = refusal_in("en", maps, "{b: x}");
    assert_string_equal(en, "matches none of: map (missing required key \"a\"), map (b: expected integer, got "
                            "string \"x\"); got a map of 1 key");
    char *el = refusal_in("el", maps, "{b: x}");
    assert_string_equal(el, "δεν ταιριάζει με κανένα από: πίνακας (λείπει το απαραίτητο κλειδί \"a\"), πίνακας (b: "
                            "αναμενόταν ακέραιος, δόθηκε κείμενο \"x\")· δόθηκε ένας πίνακας με 1 κλειδί");
    free(en);
    free(el);
}

/* contains (how many items match) and propertyNames (a key's own
** refusal, its "key ...: " prefix) */
static void test_contains_and_key_names(void **state) {
    (void)state;
    /* one item of [2, 3] is 2, at [0]: two were asked for */
    const char *contains = "{type: array, contains: {const: 2}, minContains: 2}";
    char *en = refusal_in("en", contains, "[2, 3]");
    assert_string_equal(en, "expected list with at least 2 items matching 2, got a list of 2 items (1 matches: [0])");
    char *de = refusal_in("de", contains, "[2, 3]");
    assert_string_equal(de, "erwartet: Liste mit mindestens 2 Einträgen passend zu 2, bekommen: eine Liste mit 2 "
                            "Einträgen (1 passt: [0])");
    char *el = refusal_in("el", contains, "[3]");
    assert_string_equal(el, "αναμενόταν λίστα με τουλάχιστον 2 στοιχεία (ταίριασμα με 2), δόθηκε μια λίστα με 1 "
                            "στοιχείο (κανένα δεν ταιριάζει)");
    free(en);
    free(de);
    free(el);
    const char *names = "{type: object, propertyNames: {pattern: \"^[a-z]+$\"}}";
    en = refusal_in("en", names, "{Ab: 1}");
    assert_string_equal(en, "key \"Ab\": expected string matching \"^[a-z]+$\", got string \"Ab\"");
    de = refusal_in("de", names, "{Ab: 1}");
    assert_string_equal(de, "Schlüssel \"Ab\": erwartet: Text nach dem Muster \"^[a-z]+$\", bekommen: Text \"Ab\"");
    free(en);
    free(de);
}

int main(int argc, char **argv) {
    (void)argc;
    if (!(cairn = cairn_next_to(argv[0]))) return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_german_kathmandu_loads),
        cmocka_unit_test(test_greek_yak_loads),
        cmocka_unit_test(test_english_as_before),
        cmocka_unit_test(test_flags_before_a_game),
        cmocka_unit_test(test_visibility_path),
        cmocka_unit_test(test_schema_file),
        cmocka_unit_test(test_phrases),
        cmocka_unit_test(test_none_of_reasons),
        cmocka_unit_test(test_contains_and_key_names),
    };
    int rc = cmocka_run_group_tests(tests, testchild_setup, testchild_teardown);
    free(cairn);
    return rc;
}
