/*
** test_table_language.c
** The errors people at the table meet in a game, in the game's language
** (issue 25, "One language"): a German Kathmandu game and a Greek Yak game
** load saves crafted to fail (a position past the log's end, a log that does
** not replay, a snapshot the log does not reproduce, a ruleset that changed
** since: its fingerprint), go to a decision that cannot be redone, seat a
** ruleset bot of another game or one the ruleset does not declare, refuse
** edits (a list index out of range, a path through a number, a value the
** state schema refuses: its path said as typed, from 1), and refuse a
** --name or --bot for a seat the game does not have. Every line is the
** real refusal of the real code path (build/cairn, next to this test
** binary, run as a person would in script mode), compared whole with the
** German or Greek text written out here; so are a `reload` that stops (a
** copy whose options were renamed) and a render that returns nil (a copy
** so edited). Wide COLUMNS: no line is wrapped.
*/
#include "testutil.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/* cairn (the binary under test), tmpdir and root */
#include "testchild.h"

/* The whole output (stdout and stderr) of `cairn play ARGS` run from the
** repository root with script on its stdin; malloc'd. */
static char *play(const char *args, const char *script) {
    char *in = cairn_strfmt("%s/in.txt", tmpdir);
    assert_non_null(in);
    FILE *f = fopen(in, "w");
    assert_non_null(f);
    fputs(script, f);
    fclose(f);
    char *cmd = cairn_strfmt("cd %s && COLUMNS=2000 %s play %s < %s 2>&1", root, cairn, args, in);
    assert_non_null(cmd);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    size_t n = 0, cap = 1 << 16;
    char *out = malloc(cap);
    assert_non_null(out);
    for (size_t k; (k = fread(out + n, 1, cap - n - 1, p)) > 0;) {
        n += k;
        if (n + 1 == cap) {
            cap *= 2;
            out = realloc(out, cap);
            assert_non_null(out);
        }
    }
    out[n] = '\0';
    pclose(p);
    free(cmd);
    free(in);
    return out;
}

/* Fails, showing out, unless out has a line that is exactly want. */
static void has_line(const char *out, const char *want) {
    size_t n = strlen(want);
    for (const char *p = out; (p = strstr(p, want)); p++)
        if ((p == out || p[-1] == '\n') && (p[n] == '\n' || p[n] == '\0')) return;
    fprintf(stderr, "no line\n%s\nin:\n%s\n", want, out);
    fail();
}

/* Fails unless out has a line starting with head and ending with tail. */
static void has_line_around(const char *out, const char *head, const char *tail) {
    for (const char *p = out; (p = strstr(p, head)); p++) {
        if (p != out && p[-1] != '\n') continue;
        const char *end = strchr(p, '\n');
        if (!end) end = p + strlen(p);
        size_t t = strlen(tail);
        if ((size_t)(end - p) >= strlen(head) + t && strncmp(end - t, tail, t) == 0) return;
    }
    fprintf(stderr, "no line\n%s...%s\nin:\n%s\n", head, tail, out);
    fail();
}

static char *read_file(const char *path) {
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    static char buf[1 << 20];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    char *s = strdup(buf);
    assert_non_null(s);
    return s;
}

/* text with its first `from` after `after` (or anywhere) replaced by `to`,
** written to tmpdir/name; the file's path (malloc'd). */
static char *craft(const char *text, const char *after, const char *from, const char *to, const char *name) {
    const char *start = after ? strstr(text, after) : text;
    assert_non_null(start);
    const char *at = strstr(start, from);
    if (!at) fprintf(stderr, "no \"%s\" in:\n%s\n", from, text);
    assert_non_null(at);
    char *path = cairn_strfmt("%s/%s", tmpdir, name);
    assert_non_null(path);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fprintf(f, "%.*s%s%s", (int)(at - text), text, to, at + strlen(from));
    fclose(f);
    return path;
}

/* the saved fingerprint replaced by 64 zeros (quoted: zeros alone read as a number) */
static char *craft_fingerprint(const char *text, const char *name) {
    const char *at = strstr(text, "fingerprint: ");
    assert_non_null(at);
    const char *value = at + strlen("fingerprint: ");
    size_t len = *value == '"' ? 66 : 64;
    char from[80];
    snprintf(from, sizeof from, "%.*s", (int)len, value);
    return craft(text, NULL, from, "\"0000000000000000000000000000000000000000000000000000000000000000\"", name);
}

/* The saves a game's tests load: after the first decision (k1) and before
** any (k0), each crafted to fail one way. */
typedef struct crafted {
    char *past_end, *bad_log, *snapshot, *fingerprint, *redo, *other_seed, *exec_seat;
} crafted;

static void craft_all(const char *game, const char *args, const char *first_id, const char *first_answer,
                      const char *seat2, crafted *c) {
    char *k1 = cairn_strfmt("%s/%s1.yaml", tmpdir, game), *k0 = cairn_strfmt("%s/%s0.yaml", tmpdir, game);
    char *script = cairn_strfmt("save %s\n%s\nsave %s\nquit\nn\n", k0, first_answer, k1);
    assert_non_null(script);
    free(play(args, script));
    char *t1 = read_file(k1), *t0 = read_file(k0);
    char *logged = cairn_strfmt("  id: %s\n", first_id), *wrong = cairn_strfmt("  id: %s9\n", first_id);
    c->past_end = craft(t1, NULL, "\nposition: 1\n", "\nposition: 5\n", "past_end.yaml");
    c->bad_log = craft(t1, "\nlog:\n", logged, wrong, "bad_log.yaml");
    c->snapshot = craft(t1, "\nsnapshot:\n", "\n    round: 1\n", "\n    round: 2\n", "snapshot.yaml");
    char *named = cairn_strfmt("- name: %s\n", seat2), *exec = cairn_strfmt("- name: %s\n  bot: exec:./agent\n", seat2);
    c->exec_seat = craft(t1, "\nseats:\n", named, exec, "exec_seat.yaml"); /* never run from a file */
    free(named);
    free(exec);
    c->other_seed = craft(t1, NULL, "\nseed: 1\n", "\nseed: 2\n", "other_seed.yaml"); /* another start */
    c->fingerprint = craft_fingerprint(t1, "fingerprint.yaml");
    c->redo = craft(t0, NULL, "\nlog: []\n", "\nlog:\n- seat: 1\n  id: nosuch\n", "redo.yaml");
    free(logged);
    free(wrong);
    free(t0);
    free(t1);
    free(script);
    free(k0);
    free(k1);
}

static void crafted_free(crafted *c) {
    free(c->past_end);
    free(c->bad_log);
    free(c->snapshot);
    free(c->fingerprint);
    free(c->redo);
    free(c->other_seed);
    free(c->exec_seat);
}

static char *line(const char *fmt, const char *a) {
    char *s = cairn_strfmt(fmt, a);
    assert_non_null(s);
    return s;
}

static void test_german_kathmandu(void **state) {
    (void)state;
    const char *args = "rulesets/kathmandu --players 2 --lang de";
    crafted c;
    craft_all("kathmandu", args, "start 1", "1", "Platz 2", &c);
    char *script = cairn_strfmt("load %s\nload %s\nload %s\nload %s\nload %s\ngoto 1\nload %s\nload %s\nload --scenario %s\n"
                                "bot 2 yak:nosuch\nbot 2 kathmandu:nosuch\n"
                                "set order[7] 1\nset round.x 1\nset needles[1] x\nquit\nn\n",
                                c.past_end, c.bad_log, c.snapshot, c.fingerprint, c.redo, c.other_seed, c.exec_seat,
                                c.fingerprint);
    char *out = play(args, script);
    char *l;
    has_line(out, l = line("  %s: position: Position 5 liegt hinter dem Ende des Verlaufs (Entscheidungen: 1)", c.past_end));
    free(l);
    /* the id nearest to what was logged (one edit away) */
    has_line(out, "  Entscheidung 1 (Platz 1, \"start 19\"): keine Option \"start 19\"; meintest du: start 1");
    has_line(out, l = line("  %s: log: der gespeicherte Verlauf lässt sich nicht nachspielen (angehalten bei Entscheidung 1)",
                           c.bad_log));
    free(l);
    has_line(out, l = line("  %s: snapshot: das Nachspielen des Verlaufs ergibt nicht den gespeicherten Stand (die Datei "
                           "wurde bearbeitet, oder die Regeln sind nicht deterministisch)", c.snapshot));
    free(l);
    /* the fingerprint now is the ruleset's: it changes with every edit of kathmandu */
    has_line_around(out, l = line("  %s: ruleset.fingerprint: das Regelwerk `kathmandu` hat sich geändert, seit diese "
                                  "Partie gespeichert wurde (Fingerabdruck 000000000000..., jetzt ", c.fingerprint),
                    "...); lade sie als Szenario (in der Konsole: `load --scenario FILE`), um mit den neuen Regeln vom "
                    "gespeicherten Stand aus weiterzuspielen");
    free(l);
    /* nothing near "nosuch": every option the seat has */
    has_line(out, "Entscheidung 1 ließ sich nicht wiederholen: Entscheidung 1 (Platz 1, \"nosuch\"): keine Option "
                  "\"nosuch\"; wähle eine von: start 1, start 2, start 3, start 4; die Partie steht bei Entscheidung 0");
    /* seed 2: seat 2 starts, so the logged decision of seat 1 is not asked */
    has_line(out, "  Entscheidung 1 (Platz 1, \"start 1\"): Platz 1 wird jetzt nichts gefragt (es wird auf Platz 2 "
                  "gewartet)");
    /* the notes of a load: a seat an outside program played, a save loaded as a scenario */
    has_line(out, "(1 Platz, den im Spielstand ein äußeres Programm (`exec:`) spielte, spielt jetzt ein Mensch: `bot SEAT "
                  "exec:COMMAND` setzt wieder ein Programm daran)");
    has_line(out, "(als Szenario geladen: das Regelwerk hat sich seit dem Speichern geändert, der Verlauf wurde also nicht "
                  "nachgespielt)");
    has_line(out, "Bot `yak:nosuch`: diese Partie ist `kathmandu`, nicht `yak`");
    has_line(out, "Bot `kathmandu:nosuch`: `kathmandu` deklariert keinen Bot \"nosuch\" (`bots:` im Manifest)");
    has_line(out, "set order[7]: order ist eine Liste der Länge 2: gib einen Index von 1 bis 3 an (nichts geändert)");
    has_line(out, "set round.x: round ist eine ganze Zahl, keine Tabelle und keine Liste (nichts geändert)");
    /* the state schema's path as typed: needles[1], not needles[0] */
    has_line(out, "set needles[1]: needles[1]: erwartet: eines von false, \"north\", \"east\", \"south\", \"west\", "
                  "bekommen: \"x\" (nichts geändert)");
    free(out);
    free(script);
    /* a seat the game does not have (its seat count the ruleset's default, 4) */
    out = play("rulesets/kathmandu --lang de --name 5=Ann", "");
    has_line(out, "--name 5=Ann: kein Platz 5 (die Partie hat 4 Plätze)");
    free(out);
    crafted_free(&c);
}

static void test_greek_yak(void **state) {
    (void)state;
    const char *args = "rulesets/yak --lang el";
    crafted c;
    craft_all("yak", args, "card build", "1", "Θέση 2", &c);
    char *script = cairn_strfmt("load %s\nload %s\nload %s\nload %s\nload %s\ngoto 1\nload %s\nload %s\nload --scenario %s\n"
                                "bot 2 kathmandu:nosuch\nbot 2 yak:nosuch\n"
                                "set carts[9] 1\nset carts[1].stop.x 1\nset carts[2].stop -5\nquit\nn\n",
                                c.past_end, c.bad_log, c.snapshot, c.fingerprint, c.redo, c.other_seed, c.exec_seat,
                                c.fingerprint);
    char *out = play(args, script);
    char *l;
    has_line(out, l = line("  %s: position: η θέση 5 είναι μετά το τέλος του ιστορικού (αποφάσεις: 1)", c.past_end));
    free(l);
    has_line(out, "  απόφαση 1 (θέση 1, \"card build9\"): καμία επιλογή \"card build9\"· μήπως εννοείς: card build");
    has_line(out, l = line("  %s: log: το αποθηκευμένο ιστορικό δεν ξαναπαίζεται (σταμάτησε στην απόφαση 1)", c.bad_log));
    free(l);
    has_line(out, l = line("  %s: snapshot: το ξαναπαίξιμο του ιστορικού δεν δίνει την αποθηκευμένη κατάσταση (το "
                           "αρχείο διορθώθηκε με το χέρι ή οι κανόνες δεν είναι ντετερμινιστικοί)", c.snapshot));
    free(l);
    has_line_around(out, l = line("  %s: ruleset.fingerprint: οι κανόνες `yak` άλλαξαν από τότε που αποθηκεύτηκε αυτό "
                                  "το παιχνίδι (αποτύπωμα 000000000000..., τώρα ", c.fingerprint),
                    "...)· φόρτωσέ το ως σενάριο (στην κονσόλα: `load --scenario FILE`) για να συνεχίσεις από την "
                    "αποθηκευμένη κατάσταση με τους νέους κανόνες");
    free(l);
    has_line(out, "η απόφαση 1 δεν ξαναέγινε: απόφαση 1 (θέση 1, \"nosuch\"): καμία επιλογή \"nosuch\"· διάλεξε μία "
                  "από: card build, card restock, card market· το παιχνίδι είναι στην απόφαση 0");
    has_line(out, "(1 θέση που στην αποθήκευση την έπαιζε εξωτερικό πρόγραμμα (`exec:`) την παίζει τώρα άνθρωπος: το "
                  "`bot SEAT exec:COMMAND` βάζει ξανά πρόγραμμα)");
    has_line(out, "(φορτώθηκε ως σενάριο: οι κανόνες άλλαξαν από την αποθήκευση, οπότε το ιστορικό δεν ξαναπαίχτηκε)");
    has_line(out, "ρομπότ `kathmandu:nosuch`: αυτό το παιχνίδι είναι `yak`, όχι `kathmandu`");
    has_line(out, "ρομπότ `yak:nosuch`: το `yak` δεν δηλώνει ρομπότ \"nosuch\" (`bots:` στο manifest)");
    has_line(out, "set carts[9]: το carts είναι λίστα μήκους 4: δώσε θέση από 1 έως 5 (τίποτα δεν άλλαξε)");
    has_line(out, "set carts[1].stop.x: το carts[1].stop είναι ακέραιος, όχι πίνακας ή λίστα (τίποτα δεν άλλαξε)");
    /* the state schema's path as typed: carts[2], not carts[1] */
    has_line(out, "set carts[2].stop: carts[2].stop: αναμενόταν ακέραιος >= 1, δόθηκε ακέραιος -5 (τίποτα δεν άλλαξε)");
    free(out);
    free(script);
    out = play("rulesets/yak --lang el --bot 7=random", "");
    has_line(out, "--bot 7=random: δεν υπάρχει θέση 7 (το παιχνίδι έχει 4 θέσεις)");
    free(out);
    crafted_free(&c);
}

/* A copy of rulesets/RULESET in tmpdir/name with the sed script edit (when
** not NULL) applied to its file FILE; the copy's folder (malloc'd). */
static char *edited_copy(const char *ruleset, const char *name, const char *file, const char *edit) {
    char *dir = cairn_strfmt("%s/%s", tmpdir, name);
    char *cmd = edit ? cairn_strfmt("cp -r %s/rulesets/%s %s && sed -i '%s' %s/%s", root, ruleset, dir, edit, dir, file)
                     : cairn_strfmt("cp -r %s/rulesets/%s %s", root, ruleset, dir);
    assert_non_null(cmd);
    assert_int_equal(system(cmd), 0);
    free(cmd);
    return dir;
}

/* `reload` after a rule change that renames the options of the first
** decision (as tests/transcripts/reload.txt does in English): the replay
** stops, the engine's reason in the game's language. */
static void test_reload_stops(void **state) {
    (void)state;
    char *dir = edited_copy("kathmandu", "kathmandu-start", NULL, NULL); /* edited mid-game */
    char *args = cairn_strfmt("%s --lang de --players 2", dir);
    char *script = cairn_strfmt("1\n!sed -i 's/common.id(\"start\", k)/common.id(\"begin\", k)/' %s/rules/round.lua\n"
                                "reload\nquit\nn\n", dir);
    char *out = play(args, script);
    /* nothing near "start 1" among the begin N: every option */
    has_line(out, "Nachspielen bei Entscheidung 1 von 1 angehalten (Platz 1: (geheim)): keine Option \"start 1\"; wähle "
                  "eine von: begin 1, begin 2, begin 3, begin 4");
    free(out);
    free(script);
    free(args);
    free(dir);
    dir = edited_copy("yak", "yak-cards", NULL, NULL);
    args = cairn_strfmt("%s --lang el", dir);
    script = cairn_strfmt("1\n!sed -i 's/common.option_id(\"card\", c)/common.option_id(\"karte\", c)/' "
                          "%s/rules/round.lua\nreload\nquit\nn\n", dir);
    out = play(args, script);
    /* "karte build" is three edits from "card build": near enough to be meant */
    has_line(out, "Το ξαναπαίξιμο σταμάτησε στην απόφαση 1 από 1 (Θέση 1: (μυστικό)): καμία επιλογή \"card build\"· μήπως "
                  "εννοείς: karte build");
    free(out);
    free(script);
    free(args);
    free(dir);
}

/* A handler that breaks its contract: a copy whose render returns nil; the
** console's words around it (Lua's own messages stay as written). */
static void test_handler_frames(void **state) {
    (void)state;
    char *dir = edited_copy("kathmandu", "kathmandu-render", "rules.lua",
                            "s/^rules.render = .*/rules.render = function() return nil end/");
    char *args = cairn_strfmt("%s --lang de --players 2", dir);
    char *out = play(args, "quit\nn\n");
    has_line(out, "  `render` muss Text zurückgeben, nicht nil");
    free(out);
    free(args);
    free(dir);
    dir = edited_copy("yak", "yak-render", "rules.lua", "s/^rules.render = .*/rules.render = function() return nil end/");
    args = cairn_strfmt("%s --lang el", dir);
    out = play(args, "quit\nn\n");
    has_line(out, "  το `render` πρέπει να επιστρέφει κείμενο, όχι nil");
    free(out);
    free(args);
    free(dir);
}

int main(int argc, char **argv) {
    (void)argc;
    (void)spawn, (void)spawn_on_pty, (void)say, (void)wait_for, (void)wait_end; /* testchild.h's, unused here */
    if (!(cairn = cairn_next_to(argv[0]))) return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_german_kathmandu),
        cmocka_unit_test(test_greek_yak),
        cmocka_unit_test(test_reload_stops),
        cmocka_unit_test(test_handler_frames),
    };
    return cmocka_run_group_tests(tests, testchild_setup, testchild_teardown);
}
