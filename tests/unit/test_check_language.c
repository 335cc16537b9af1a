/*
** test_check_language.c
** One language for a ruleset's designer (issue 25): the errors of a
** ruleset's load and checks (load/ruleset.c, the engine's build, score and
** data checks, the sandbox's frames and plain-data refusals, dev/check.c)
** are worded in the console's language wherever a person meets them: in
** `cairn check` (--lang, else the locale's language, else English), in
** `cairn play` when the ruleset does not load (the same), and in `reload`
** after the ruleset's files were edited into a broken state (the game's
** language). Copies of the shipped Yak and Kathmandu are broken in several
** ways in a scratch folder; the lines expected are written out here.
** So is every other line of `cairn check` (its smoke summary, notes, ok
** line, smoke-game frame and usage errors). English stays as it was; a Lua
** syntax error stays as Lua wrote it. Runs
** build/cairn (next to this test binary).
*/
#include "testutil.h"

#include "error.h"

#include <stdio.h>
#include <stdlib.h>

/* cairn (the binary under test), tmpdir, root and the child helpers */
#include "testchild.h"

/* Runs the shell command fmt with each of its (one or two) %s replaced by
** dir; asserts it succeeded. */
static void shell(const char *fmt, const char *dir) {
    char *cmd = cairn_strfmt(fmt, dir, dir);
    assert_non_null(cmd);
    assert_int_equal(system(cmd), 0);
    free(cmd);
}

/* A copy of rulesets/NAME at tmpdir/COPY (malloc'd path). */
static char *copy_of(const char *name, const char *copy) {
    char *dir = cairn_strfmt("%s/%s", tmpdir, copy);
    char *from = cairn_strfmt("%s/rulesets/%s", root, name);
    assert_non_null(dir);
    assert_non_null(from);
    char *cmd = cairn_strfmt("rm -rf '%s' && cp -r '%s' '%s'", dir, from, dir);
    assert_non_null(cmd);
    assert_int_equal(system(cmd), 0);
    free(cmd);
    free(from);
    return dir;
}

/* All that cmd (run by the shell, stderr with stdout) prints; its exit
** status into *status. malloc'd. */
static char *output_of(const char *cmd, int *status) {
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    size_t cap = 65536, n = 0;
    char *buf = malloc(cap);
    assert_non_null(buf);
    size_t got;
    while ((got = fread(buf + n, 1, cap - n - 1, p)) > 0) {
        n += got;
        if (n + 1 == cap) {
            char *more = realloc(buf, cap *= 2);
            assert_non_null(more);
            buf = more;
        }
    }
    buf[n] = '\0';
    int st = pclose(p);
    *status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    return buf;
}

/* Each of want[] (with every %s replaced by dir) is a whole line of out. */
static void has_lines(const char *out, const char *dir, const char *const *want, size_t n) {
    for (size_t i = 0; i < n; i++) {
        char *line = cairn_strfmt(want[i], dir, dir);
        assert_non_null(line);
        size_t len = strlen(line);
        int found = 0;
        for (const char *p = out; p && *p && !found; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
            found = strncmp(p, line, len) == 0 && (p[len] == '\n' || p[len] == '\0');
        if (!found) fail_msg("no line \"%s\" in:\n%s", line, out);
        free(line);
    }
}

/* `cairn ARGS` with the locale LOCALE (LC_ALL and LC_MESSAGES unset); its
** output is checked for want[]; returns the exit status. */
static int run(const char *locale, const char *args, const char *dir, const char *const *want, size_t n) {
    char *cmd = cairn_strfmt("env -u LC_ALL -u LC_MESSAGES LANG=%s %s %s 2>&1 </dev/null", locale, cairn, args);
    assert_non_null(cmd);
    int st;
    char *out = output_of(cmd, &st);
    has_lines(out, dir, want, n);
    free(out);
    free(cmd);
    return st;
}

/* A Yak whose manifest has min 5 and max 4 seats (so the default, 4, is
** outside them) and whose option requires an option it does not have:
** `cairn check` in English, German, Greek, by --lang or by the locale, and
** --lang over the locale. The English is as it always was. */
static void test_check_manifest(void **state) {
    (void)state;
    char *dir = copy_of("yak", "yak");
    shell("sed -i 's/^players: {min: 2, max: 4, default: 4}/players: {min: 5, max: 4, default: 4}/; "
          "s/^    type: switch$/    type: switch\\n    requires: [turbo]/' '%s/ruleset.yaml'", dir);
    const char *en[] = {
        "%s/ruleset.yaml:11:10: players: min (5) is larger than max (4)",
        "%s/ruleset.yaml:11:36: players.default: default seat count 4 is outside min..max (5 to 4)",
        "%s/ruleset.yaml:35:16: master_builder: requires names unknown option \"turbo\"",
        "%s: 3 errors",
    };
    const char *de[] = {
        "%s/ruleset.yaml:11:10: players: min (5) ist größer als max (4)",
        "%s/ruleset.yaml:11:36: players.default: die voreingestellte Spielerzahl 4 liegt außerhalb von min..max (5 bis 4)",
        "%s/ruleset.yaml:35:16: master_builder: `requires` nennt die unbekannte Option \"turbo\"",
        "%s: 3 Fehler",
    };
    const char *el[] = {
        "%s/ruleset.yaml:11:10: players: το min (5) είναι μεγαλύτερο από το max (4)",
        "%s/ruleset.yaml:11:36: players.default: ο προεπιλεγμένος αριθμός θέσεων 4 είναι έξω από το min..max (5 έως 4)",
        "%s/ruleset.yaml:35:16: master_builder: το `requires` ονομάζει άγνωστη επιλογή \"turbo\"",
        "%s: 3 σφάλματα",
    };
    char *args = cairn_strfmt("check %s", dir);
    assert_int_equal(run("C", args, dir, en, 4), 1);
    assert_int_equal(run("fr_FR.UTF-8", args, dir, en, 4), 1); /* a language cairn does not speak */
    assert_int_equal(run("de_DE.UTF-8", args, dir, de, 4), 1);
    assert_int_equal(run("el_GR.UTF-8", args, dir, el, 4), 1);
    free(args);
    args = cairn_strfmt("check %s --lang el", dir);
    assert_int_equal(run("de_DE.UTF-8", args, dir, el, 4), 1); /* --lang wins over the locale */
    free(args);
    args = cairn_strfmt("check --lang de %s", dir);
    assert_int_equal(run("C", args, dir, de, 4), 1);
    free(args);
    /* what a player asks for: 2 seats, an option it does not have (one error
    ** each, after the manifest's own: 3 + 1 = 4) */
    const char *de_seats[] = {"yak ist für 5 bis 4 Spieler, nicht 2", "%s: 4 Fehler"};
    args = cairn_strfmt("check %s --lang de --players 2", dir);
    assert_int_equal(run("C", args, dir, de_seats, 2), 1);
    free(args);
    const char *el_option[] = {"--option turbo: καμία επιλογή \"turbo\" στο yak (οι επιλογές του: master_builder)", "%s: 4 σφάλματα"};
    args = cairn_strfmt("check %s --lang el --option turbo", dir);
    assert_int_equal(run("C", args, dir, el_option, 2), 1);
    free(args);
    free(dir);
}

/* A Yak with a second switch, turbo (off by default), that master_builder
** requires: asked for master_builder with turbo switched off, the refusal
** says where turbo's value came from (`as chosen`), in each language's
** words. */
static void test_check_option_combination(void **state) {
    (void)state;
    char *dir = copy_of("yak", "yak");
    shell("cd '%s' && printf '  - {id: turbo, name: Turbo, type: switch, default: false}\\n' > opt && "
          "sed -i '/^visibility:/e cat opt' ruleset.yaml", dir);
    shell("sed -i 's/^    type: switch$/    type: switch\\n    requires: [turbo]/' '%s/ruleset.yaml'", dir);
    const char *en[] = {"%s/ruleset.yaml:35:16: master_builder: option \"master_builder\" requires \"turbo\", but "
                        "\"turbo\" is set otherwise as chosen"};
    const char *de[] = {"%s/ruleset.yaml:35:16: master_builder: die Option \"master_builder\" verlangt \"turbo\", aber "
                        "\"turbo\" ist anders gesetzt (so gewählt)"};
    const char *el[] = {"%s/ruleset.yaml:35:16: master_builder: η επιλογή \"master_builder\" απαιτεί το \"turbo\", "
                        "αλλά το \"turbo\" έχει οριστεί αλλιώς (όπως επιλέχθηκε)"};
    char *args = cairn_strfmt("check %s --option master_builder --option turbo=false --games 0", dir);
    assert_int_equal(run("C", args, dir, en, 1), 1);
    assert_int_equal(run("de_DE.UTF-8", args, dir, de, 1), 1);
    assert_int_equal(run("el_GR.UTF-8", args, dir, el, 1), 1);
    free(args);
    free(dir);
    /* two options that exclude each other, both chosen: each origin a phrase
    ** worded in the language (Himalaya's two inventory rules) */
    dir = copy_of("himalaya", "himalaya");
    const char *en2[] = {"%s/ruleset.yaml:64:16: long-range-inventory: options \"long-range-inventory\" (as chosen) "
                         "and \"complete-inventory\" (as chosen) exclude each other"};
    const char *de2[] = {"%s/ruleset.yaml:64:16: long-range-inventory: die Optionen \"long-range-inventory\" (so "
                         "gewählt) und \"complete-inventory\" (so gewählt) schließen einander aus"};
    const char *el2[] = {"%s/ruleset.yaml:64:16: long-range-inventory: οι επιλογές \"long-range-inventory\" (όπως "
                         "επιλέχθηκε) και \"complete-inventory\" (όπως επιλέχθηκε) αποκλείουν η μία την άλλη"};
    args = cairn_strfmt("check %s --option long-range-inventory --option complete-inventory --games 0", dir);
    assert_int_equal(run("C", args, dir, en2, 1), 1);
    assert_int_equal(run("de_DE.UTF-8", args, dir, de2, 1), 1);
    assert_int_equal(run("el_GR.UTF-8", args, dir, el2, 1), 1);
    free(args);
    free(dir);
}

/* A Yak with its option's overlay missing, then with an overlay naming data
** the manifest does not declare, then with a module that does not compile
** (Lua's own message stays as Lua wrote it; the verdict is worded). */
static void test_check_components(void **state) {
    (void)state;
    char *dir = copy_of("yak", "yak");
    shell("sed -i 's#options/master_builder.yaml#options/nothere.yaml#' '%s/ruleset.yaml'", dir);
    const char *de[] = {
        "%s/ruleset.yaml:36:14: overlay: keine Overlay-Datei \"%s/options/nothere.yaml\" (ein Pfad vom Ordner des "
        "Manifests aus)",
        "%s: 1 Fehler",
    };
    const char *el[] = {
        "%s/ruleset.yaml:36:14: overlay: κανένα αρχείο overlay \"%s/options/nothere.yaml\" (διαδρομή από τον φάκελο "
        "του μανιφέστου)",
        "%s: 1 σφάλμα",
    };
    char *de_args = cairn_strfmt("check %s --lang de", dir), *el_args = cairn_strfmt("check %s --lang el", dir);
    assert_int_equal(run("C", de_args, dir, de, 2), 1);
    assert_int_equal(run("C", el_args, dir, el, 2), 1);
    free(dir);
    dir = copy_of("yak", "yak");
    shell("printf 'nosuch: {a: 1}\\n' >> '%s/options/master_builder.yaml'", dir);
    const char *de_data[] = {
        "%s/options/master_builder.yaml:4:1: nosuch: das Manifest deklariert keine Daten namens \"nosuch\"",
    };
    const char *el_data[] = {
        "%s/options/master_builder.yaml:4:1: nosuch: το μανιφέστο δεν δηλώνει δεδομένα με όνομα \"nosuch\"",
    };
    assert_int_equal(run("C", de_args, dir, de_data, 1), 1);
    assert_int_equal(run("C", el_args, dir, el_data, 1), 1);
    free(dir);
    dir = copy_of("yak", "yak");
    shell("printf 'local x = = 1\\n' > '%s/rules/broken.lua'", dir);
    const char *el_lua[] = {"%s/rules/broken.lua:1: unexpected symbol near '='", "%s: 1 σφάλμα"};
    assert_int_equal(run("C", el_args, dir, el_lua, 2), 1);
    free(de_args);
    free(el_args);
    free(dir);
}

/* `cairn play` of a ruleset that does not load, in --lang's language (else
** the locale's): a rules script that returns no table, rules with no setup
** handler, a setup that stores a float or a table with a metatable. */
static void test_play_refuses(void **state) {
    (void)state;
    char *dir = copy_of("yak", "yak");
    shell("printf 'return 42\\n' > '%s/rules.lua'", dir);
    const char *el[] = {"%s/rules.lua: το σενάριο κανόνων πρέπει να επιστρέφει πίνακα χειριστών, όχι number"};
    char *args = cairn_strfmt("play %s --lang el --players 2", dir);
    assert_int_equal(run("C", args, dir, el, 1), 1);
    free(args);
    const char *en[] = {"%s/rules.lua: the rules script must return a table of handlers, not number"};
    args = cairn_strfmt("play %s --players 2", dir);
    assert_int_equal(run("C", args, dir, en, 1), 1);
    free(args);
    free(dir);
    dir = copy_of("kathmandu", "kathmandu");
    shell("printf 'return {}\\n' > '%s/rules.lua'", dir);
    const char *de[] = {"die Regeln definieren keinen Handler setup(g)"};
    args = cairn_strfmt("play %s --players 2", dir);
    assert_int_equal(run("de_DE.UTF-8", args, dir, de, 1), 1);
    shell("printf 'return {setup = function(g) g.state.x = 0.5 end}\\n' > '%s/rules.lua'", dir);
    const char *de_float[] = {"state.x: Gleitkommazahlen sind nicht erlaubt (nimm ganze Zahlen), bekommen: 0.5"};
    assert_int_equal(run("de_DE.UTF-8", args, dir, de_float, 1), 1);
    free(args);
    shell("printf 'return {setup = function(g) g.state.x = setmetatable({}, {}) end}\\n' > '%s/rules.lua'", dir);
    const char *el_meta[] = {"state.x: ένας πίνακας με μεταπίνακα δεν είναι απλά δεδομένα"};
    args = cairn_strfmt("play %s --players 2 --lang el", dir);
    assert_int_equal(run("de_DE.UTF-8", args, dir, el_meta, 1), 1);
    free(args);
    free(dir);
    /* what decisions(g) returns breaks its contract (engine_decisions.c) */
    dir = copy_of("kathmandu", "kathmandu");
    shell("sed -i 's/^return rules$/rules.decisions = function(g) return {x = 1} end\\nreturn rules/' '%s/rules.lua'",
          dir);
    const char *de_map[] = {"decisions: decisions(g) muss eine Liste zurückgeben, keine Tabelle mit Schlüsseln"};
    args = cairn_strfmt("play %s --players 2 --lang de", dir);
    assert_int_equal(run("C", args, dir, de_map, 1), 1);
    free(args);
    shell("sed -i 's/return {x = 1}/return {{seat = 1, options = {\\\"a\\\", \\\"a\\\"}}}/' '%s/rules.lua'", dir);
    const char *de_twice[] = {"decisions[1]: die Kennung \"a\" steht zweimal da"};
    args = cairn_strfmt("play %s --players 2 --lang de", dir);
    assert_int_equal(run("C", args, dir, de_twice, 1), 1);
    free(args);
    free(dir);
}

/* A game of the copy at dir in lang (people in both seats: it waits at the
** first question, whose last line holds `question`); edit (a shell command, %s the folder) breaks the
** ruleset, then `reload` prints head and want[] (with the console's "  "
** before each); the game goes on with the rules it had and quits. */
static void reload_broken(const char *dir, const char *lang, const char *question, const char *edit, const char *head,
                          const char *const *want, size_t n) {
    child c;
    char *argv[] = {"cairn", "play", (char *)dir, "--lang", (char *)lang, "--players", "2", NULL};
    spawn(&c, argv);
    wait_for(&c, question);
    shell(edit, dir);
    say(&c, "reload\n");
    char *last = cairn_strfmt("  %s", want[n - 1]);
    char *shown = cairn_strfmt(last, dir, dir);
    wait_for(&c, shown);
    free(last);
    free(shown);
    say(&c, "quit\n");
    assert_int_equal(wait_end(&c), 0);
    has_lines(c.buf, dir, &head, 1);
    for (size_t i = 0; i < n; i++) {
        char *w = cairn_strfmt("  %s", want[i]);
        has_lines(c.buf, dir, (const char *const *)&w, 1);
        free(w);
    }
}

/* A check that passes, in German and Greek: the smoke line (plural: 6
** games, 2 combinations = the switch master_builder off and on; 3 seat
** counts x 2 combinations x 1 game = 6), the note on a language lacking
** keys of English (2 keys; 10 keys, 8 listed and "2 more") and the ok line
** (33 files, 8 data tables of the shipped Yak); with --cover each the pairs
** left out (4 played: 2, 3, 4 seats off, then 2 seats on; 2 left out). And
** English as it always was. */
static void test_check_passes(void **state) {
    (void)state;
    char *dir = copy_of("yak", "yak");
    char *args = cairn_strfmt("check %s --games 1", dir);
    /* the fingerprint is the ruleset's files' (any change to Yak changes it):
    ** read from the English run, then the same in every language */
    int status;
    char *cmd = cairn_strfmt("env -u LC_ALL -u LC_MESSAGES LANG=C %s %s 2>&1 </dev/null", cairn, args);
    assert_non_null(cmd);
    char *out = output_of(cmd, &status);
    assert_int_equal(status, 0);
    const char *at = strstr(out, "; fingerprint ");
    assert_non_null(at);
    char fp[17];
    assert_int_equal(sscanf(at, "; fingerprint %16[0-9a-f]", fp), 1);
    assert_int_equal(strlen(fp), 16);
    free(out);
    free(cmd);
    char *de_ok = cairn_strfmt("ok yak 1.0: 33 Dateien, 8 Datentabellen, Optionen: keine; Fingerabdruck %s", fp);
    char *el_ok = cairn_strfmt("ok yak 1.0: 33 αρχεία, 8 πίνακες δεδομένων, επιλογές: καμία· αποτύπωμα %s", fp);
    char *en_ok = cairn_strfmt("ok yak 1.0: 33 files, 8 data tables, options: none; fingerprint %s", fp);
    assert_true(de_ok && el_ok && en_ok);
    const char *de[] = {"Probespiele: 6 Partien gespielt (2 Kombinationen von Optionen)", de_ok};
    const char *el[] = {"δοκιμαστικά: 6 παιχνίδια παίχτηκαν (2 συνδυασμοί επιλογών)", el_ok};
    const char *en[] = {"smoke: 6 games played (2 option combinations)", en_ok};
    assert_int_equal(run("de_DE.UTF-8", args, dir, de, 2), 0);
    assert_int_equal(run("el_GR.UTF-8", args, dir, el, 2), 0);
    assert_int_equal(run("C", args, dir, en, 2), 0);
    free(de_ok);
    free(el_ok);
    free(en_ok);
    free(args);
    const char *de_each[] = {
        "Probespiele: 4 Partien gespielt (2 Kombinationen von Optionen; 2 Paare aus Platzzahl und Kombination "
        "von --cover each ausgelassen: jede Platzzahl und jeder Wert einer Option mindestens einmal gespielt)",
    };
    args = cairn_strfmt("check %s --games 1 --cover each --lang de", dir);
    assert_int_equal(run("C", args, dir, de_each, 1), 0);
    free(args);
    /* English gains keys the Greek lacks: 2, then 10 */
    shell("printf 'zz_a: \"a\"\\nzz_b: \"b\"\\n' >> '%s/text/en.yaml'", dir);
    const char *de_two[] = {"Hinweis: %s/text/el.yaml fehlen 2 Schlüssel des Englischen, in einer Partie auf el "
                            "englisch gezeigt: zz_a, zz_b"};
    const char *el_two[] = {"σημείωση: στο %s/text/el.yaml λείπουν 2 κλειδιά των αγγλικών, που φαίνονται στα "
                            "αγγλικά σε παιχνίδι στα el: zz_a, zz_b"};
    args = cairn_strfmt("check %s --games 1", dir);
    assert_int_equal(run("de_DE.UTF-8", args, dir, de_two, 1), 0);
    assert_int_equal(run("el_GR.UTF-8", args, dir, el_two, 1), 0);
    shell("for i in 1 2 3 4 5 6 7 8; do echo \"zz_$i: x\" >> '%s/text/en.yaml'; done", dir);
    const char *de_ten[] = {"Hinweis: %s/text/el.yaml fehlen 10 Schlüssel des Englischen, in einer Partie auf el "
                            "englisch gezeigt: zz_a, zz_b, zz_1, zz_2, zz_3, zz_4, zz_5, zz_6 und 2 weitere"};
    const char *el_ten[] = {"σημείωση: στο %s/text/el.yaml λείπουν 10 κλειδιά των αγγλικών, που φαίνονται στα "
                            "αγγλικά σε παιχνίδι στα el: zz_a, zz_b, zz_1, zz_2, zz_3, zz_4, zz_5, zz_6 και 2 ακόμη"};
    const char *en_ten[] = {"note: %s/text/el.yaml lacks 10 keys of English, shown in English in a game in el: "
                            "zz_a, zz_b, zz_1, zz_2, zz_3, zz_4, zz_5, zz_6 and 2 more"};
    assert_int_equal(run("de_DE.UTF-8", args, dir, de_ten, 1), 0);
    assert_int_equal(run("el_GR.UTF-8", args, dir, el_ten, 1), 0);
    assert_int_equal(run("C", args, dir, en_ten, 1), 0);
    free(args);
    free(dir);
}

/* The combinations the manifest forbids, in the smoke line, say why in the
** language. The fixture `forced` has 12 combinations (`long` x Goofspiel's
** `tricks` x its 3 `cards`) at 2, 3 and 4 seats: at 3 seats `long` is forced
** off, refusing its 6 combinations there; `long` excludes `tricks`, refusing
** their 3 at 2 and at 4 seats (6); 36 - 12 = 24 played. Greek parts the
** reasons with its list separator (" · "), not ";", its question mark.
** English as it was. */
static void test_check_skipped_reasons(void **state) {
    (void)state;
    char *args = cairn_strfmt("check %s/tests/fixtures/rulesets/forced --games 1", root);
    assert_non_null(args);
    const char *de[] = {"Probespiele: 24 Partien gespielt (12 Kombinationen von Optionen; 12 Paare aus Platzzahl "
                        "und Kombination ausgelassen, da das Manifest sie verbietet: die Option \"long\" ist fest "
                        "auf off, bei 3 Spielern (6); die Optionen \"long\" (so gewählt) und \"tricks\" "
                        "(so gewählt) schließen einander aus (6))"};
    const char *el[] = {"δοκιμαστικά: 24 παιχνίδια παίχτηκαν (12 συνδυασμοί επιλογών · 12 ζεύγη αριθμού θέσεων "
                        "και συνδυασμού παραλείφθηκαν, καθώς το μανιφέστο τα απαγορεύει: η επιλογή \"long\" είναι "
                        "υποχρεωτικά off με 3 παίκτες (6) · οι επιλογές \"long\" (όπως επιλέχθηκε) και "
                        "\"tricks\" (όπως επιλέχθηκε) αποκλείουν η μία την άλλη (6))"};
    const char *en[] = {"smoke: 24 games played (12 option combinations; 12 seat count and combination pairs "
                        "skipped as the manifest forbids them: option \"long\" is forced to off with 3 "
                        "players (6); options \"long\" (as chosen) and \"tricks\" (as chosen) exclude each "
                        "other (6))"};
    assert_int_equal(run("de_DE.UTF-8", args, "", de, 1), 0);
    assert_int_equal(run("el_GR.UTF-8", args, "", el, 1), 0);
    assert_int_equal(run("C", args, "", en, 1), 0);
    free(args);
}

/* A smoke game that never ends (the fixture engine/broken's mode=fine
** never says the game is over), at 1 seat (singular: 1 game, 1
** combination, as the other modes are not played after the first failure)
** and, in a copy with 2 seats at least, at 2 seats. */
static void test_check_smoke_frame(void **state) {
    (void)state;
    char *dir = cairn_strfmt("%s/broken", tmpdir);
    assert_non_null(dir);
    char *cmd = cairn_strfmt("rm -rf '%s' && cp -r '%s/tests/fixtures/engine/broken' '%s'", dir, root, dir);
    assert_non_null(cmd);
    assert_int_equal(system(cmd), 0);
    free(cmd);
    const char *de[] = {
        "Probespiele: 1 Partie gespielt (1 Kombination von Optionen)",
        "Probespiel: 1 Spieler, Optionen [mode=fine], Startwert 1: nach 10000 Entscheidungen nicht zu Ende",
        "%s: 1 Fehler",
    };
    const char *el[] = {
        "δοκιμαστικά: 1 παιχνίδι παίχτηκε (1 συνδυασμός επιλογών)",
        "δοκιμαστικό παιχνίδι: 1 παίκτης, επιλογές [mode=fine], σπόρος 1: δεν τελείωσε μετά από 10000 αποφάσεις",
        "%s: 1 σφάλμα",
    };
    const char *en[] = {
        "smoke: 1 game played (1 option combination)",
        "smoke game: 1 players, options [mode=fine], seed 1: not over after 10000 decisions",
        "%s: 1 error",
    };
    char *args = cairn_strfmt("check %s --games 1", dir);
    assert_int_equal(run("de_DE.UTF-8", args, dir, de, 3), 1);
    assert_int_equal(run("el_GR.UTF-8", args, dir, el, 3), 1);
    assert_int_equal(run("C", args, dir, en, 3), 1);
    shell("sed -i 's/^players: {min: 1, max: 2}/players: {min: 2, max: 2}/' '%s/ruleset.yaml'", dir);
    const char *de_two[] = {"Probespiel: 2 Spieler, Optionen [mode=fine], Startwert 1: nach 10000 Entscheidungen "
                            "nicht zu Ende"};
    const char *el_two[] = {"δοκιμαστικό παιχνίδι: 2 παίκτες, επιλογές [mode=fine], σπόρος 1: δεν τελείωσε μετά "
                            "από 10000 αποφάσεις"};
    assert_int_equal(run("de_DE.UTF-8", args, dir, de_two, 1), 1);
    assert_int_equal(run("el_GR.UTF-8", args, dir, el_two, 1), 1);
    free(args);
    free(dir);
}

/* The note on an option value the manifest never allows alone, its reason
** worded by its own key: a Kathmandu whose tents require long-game, which
** excludes tents (and tents exclude characters). --games 0: no smoke. */
static void test_check_note_never_alone(void **state) {
    (void)state;
    char *dir = copy_of("kathmandu", "kathmandu");
    shell("sed -i '/^  - id: long-game$/,/^    default: false$/s/^    default: false$/    excludes: [tents]\\n"
          "    default: false/; /^  - id: tents$/,/^    default: false$/s/^    default: false$/    excludes: "
          "[characters]\\n    requires: [long-game]\\n    default: false/' '%s/ruleset.yaml'",
          dir);
    const char *de[] = {"Hinweis: Option tents=true ist allein nie erlaubt (die Option \"tents\" verlangt "
                        "\"long-game\", aber \"tents\" (so gewählt) schließt sie aus); die Probespiele versuchen "
                        "sie mit den anderen"};
    const char *el[] = {"σημείωση: η επιλογή tents=true δεν επιτρέπεται ποτέ μόνη της (η επιλογή \"tents\" "
                        "απαιτεί το \"long-game\", αλλά το \"tents\" (όπως επιλέχθηκε) την αποκλείει)· τα "
                        "δοκιμαστικά παιχνίδια τη δοκιμάζουν με τις άλλες"};
    const char *en[] = {"note: option tents=true is never allowed on its own (option \"tents\" requires "
                        "\"long-game\", but \"tents\" (as chosen) excludes it); smoke play tries it with the others"};
    char *args = cairn_strfmt("check %s --games 0", dir);
    assert_int_equal(run("de_DE.UTF-8", args, dir, de, 1), 0);
    assert_int_equal(run("el_GR.UTF-8", args, dir, el, 1), 0);
    assert_int_equal(run("C", args, dir, en, 1), 0);
    free(args);
    free(dir);
}

#define CHECK_USAGE_LINE "cairn check RULESET [--option ID[=VALUE]]... [--preset NAME] [--players N] [--games N]"

/* check's usage errors in --lang's language when it came before, else the
** locale's, then the usage line: no ruleset, an unknown flag, a bad
** --games. */
static void test_check_usage(void **state) {
    (void)state;
    const char *de[] = {"cairn check: welches Regelwerk?", "Aufruf: " CHECK_USAGE_LINE};
    assert_int_equal(run("de_DE.UTF-8", "check", "", de, 2), 2);
    assert_int_equal(run("C", "check --lang de", "", de, 2), 2);
    const char *de_flag[] = {"cairn check: unbekannte Option \"--nosuch\"", "Aufruf: " CHECK_USAGE_LINE};
    assert_int_equal(run("C", "check --lang de yak --nosuch", "", de_flag, 2), 2);
    const char *el[] = {"cairn check: το --games παίρνει αριθμό από 0 έως 10000, όχι \"x\"",
                        "χρήση: " CHECK_USAGE_LINE};
    assert_int_equal(run("el_GR.UTF-8", "check yak --games x", "", el, 2), 2);
    const char *en[] = {"cairn check: unknown flag \"--nosuch\"", "usage: " CHECK_USAGE_LINE};
    assert_int_equal(run("C", "check yak --nosuch", "", en, 2), 2);
}

#define EL_HEAD "το `reload` απέτυχε· το παιχνίδι συνεχίζει με τους κανόνες που είχε:"

/* `reload` in a German Kathmandu and a Greek Yak game after the ruleset was
** edited: a rules script that is not there, seat counts that do not fit,
** a rules script that returns no table. */
static void test_reload(void **state) {
    (void)state;
    char *dir = copy_of("kathmandu", "kathmandu");
    const char *de[] = {"%s/ruleset.yaml:15:8: Skript \"%s/nothere.lua\" nicht gefunden"};
    reload_broken(dir, "de", "  4  Startfeld 4", "sed -i 's/^rules: rules.lua/rules: nothere.lua/' '%s/ruleset.yaml'",
                  "`reload` scheiterte; die Partie geht mit ihren bisherigen Regeln weiter:", de, 1);
    free(dir);
    dir = copy_of("yak", "yak");
    const char *el[] = {
        "%s/ruleset.yaml:11:10: players: το min (5) είναι μεγαλύτερο από το max (4)",
        "%s/ruleset.yaml:11:36: players.default: ο προεπιλεγμένος αριθμός θέσεων 4 είναι έξω από το min..max (5 έως 4)",
        "το yak είναι για 5 έως 4 παίκτες, όχι 2",
    };
    reload_broken(dir, "el", "  3  Αγορά",
                  "sed -i 's/^players: {min: 2, max: 4, default: 4}/players: {min: 5, max: 4, default: 4}/' "
                  "'%s/ruleset.yaml'",
                  EL_HEAD, el, 3);
    free(dir);
    dir = copy_of("yak", "yak");
    const char *el_rules[] = {"%s/rules.lua: το σενάριο κανόνων πρέπει να επιστρέφει πίνακα χειριστών, όχι number"};
    reload_broken(dir, "el", "  3  Αγορά", "printf 'return 42\\n' > '%s/rules.lua'", EL_HEAD, el_rules, 1);
    free(dir);
}

int main(int argc, char **argv) {
    (void)argc;
    (void)spawn_on_pty; /* testchild.h's terminal helper: these tests use pipes */
    setenv("COLUMNS", "400", 1); /* the console wraps its lines at the width: one error a line here */
    if (!(cairn = cairn_next_to(argv[0]))) return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_check_manifest),
        cmocka_unit_test(test_check_option_combination),
        cmocka_unit_test(test_check_components),
        cmocka_unit_test(test_check_passes),
        cmocka_unit_test(test_check_smoke_frame),
        cmocka_unit_test(test_check_skipped_reasons),
        cmocka_unit_test(test_check_note_never_alone),
        cmocka_unit_test(test_check_usage),
        cmocka_unit_test(test_play_refuses),
        cmocka_unit_test(test_reload),
    };
    int rc = cmocka_run_group_tests(tests, testchild_setup, testchild_teardown);
    free(cairn);
    return rc;
}
