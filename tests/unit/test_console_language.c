/*
** test_console_language.c
** One language at the table (issue 25): the console's own message catalogue
** (repl_text.h) has every key of English in every language with the same
** printf conversions, plural forms chosen by the language's rule; and a
** German Kathmandu game and a Greek Yak game, played to the end by bots in
** script mode, print no line holding an English word of the catalogue. The
** words checked are the English catalogue's (three letters or more, outside
** `command` quotes) less those the other language's catalogue spells too
** ("Enter", "Bot"), and the parts of file names and paths (ruleset.yaml,
** view.players[1]), which are no words of any language; in a printed line,
** "..." quotes a value (typed text, an enum's items), not words. The games with people also go through the console's
** less common commands and questions: help, history, undo, redo, save, load
** with a changed game (save it first? into a file that is no save?),
** export, and quit with a changed game; then `cairn replay` of the game
** they saved; and, on a pseudo-terminal, the ruleset-trust question of
** `load` (script mode never asks it). Runs build/cairn (next to this test
** binary).
*/
#include "testutil.h"

#include "error.h"
#include "markup.h"
#include "repl_text.h"
#include "statepath.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <strings.h>
#include <unistd.h>

/* cairn (the binary under test), tmpdir and the pty helpers */
#include "testchild.h"

static const repl_text_entry *table(const char *lang) {
    for (size_t i = 0; repl_text_langs[i].lang; i++)
        if (strcmp(repl_text_langs[i].lang, lang) == 0) return repl_text_langs[i].entries;
    return NULL;
}

/* The conversions of a format ("%s%d%zu"), into out. */
static void conversions(const char *fmt, char *out, size_t n) {
    size_t k = 0;
    for (const char *p = fmt; *p && k + 4 < n; p++) {
        if (*p != '%') continue;
        p++;
        while (*p && strchr("lzh", *p)) out[k++] = *p++;
        if (*p) out[k++] = *p;
    }
    out[k] = '\0';
}

static void test_every_language_has_every_key(void **state) {
    (void)state;
    const repl_text_entry *en = table("en");
    assert_non_null(en);
    for (size_t l = 1; repl_text_langs[l].lang; l++) {
        const repl_text_entry *t = repl_text_langs[l].entries;
        size_t n_en = 0, n_t = 0;
        for (const repl_text_entry *e = en; e->key; e++, n_en++) {
            const repl_text_entry *f = NULL;
            for (const repl_text_entry *x = t; x->key; x++)
                if (strcmp(x->key, e->key) == 0) f = x;
            if (!f) fail_msg("%s has no %s", repl_text_langs[l].lang, e->key);
            char a[32], b[32];
            conversions(e->one, a, sizeof a);
            conversions(f->one, b, sizeof b);
            assert_string_equal(a, b);
            assert_true((e->other == NULL) == (f->other == NULL));
            if (e->other) {
                conversions(e->other, a, sizeof a);
                conversions(f->other, b, sizeof b);
                assert_string_equal(a, b);
            }
        }
        for (const repl_text_entry *x = t; x->key; x++) n_t++;
        assert_int_equal(n_t, n_en); /* no key English lacks */
    }
}

static void test_plural_forms(void **state) {
    (void)state;
    /* de and el: one for exactly 1, other else (CLDR) */
    assert_string_equal(repl_text_in("de", "news.decided", 1), "%s hat entschieden.");
    assert_string_equal(repl_text_in("de", "news.decided", 3), "%s hat %zu Entscheidungen getroffen.");
    assert_string_equal(repl_text_in("el", "scores.winner", 2), "{bold}Μοιρασμένη νίκη: %s{/}");
    assert_string_equal(repl_text_in("en", "header.game", 1), "{bold}%s{/} %s: %d seat, seed %llu");
    /* a language the console does not speak falls back to English */
    assert_string_equal(repl_text_in("fr", "scores.final", 0), "Final scores");
}

/* errno to the reason's key (base/error.c): each errno of the table, and
** one it does not name */
static void test_errno_keys(void **state) {
    (void)state;
    assert_string_equal(cerr_errno_key(ENOENT), "sys.not_found");
    assert_string_equal(cerr_errno_key(EACCES), "sys.permission_denied");
    assert_string_equal(cerr_errno_key(EPERM), "sys.permission_denied");
    assert_string_equal(cerr_errno_key(EISDIR), "sys.is_folder");
    assert_string_equal(cerr_errno_key(ENOTDIR), "sys.not_folder");
    assert_string_equal(cerr_errno_key(ENOSPC), "sys.disk_full");
    assert_string_equal(cerr_errno_key(EROFS), "sys.read_only");
    assert_string_equal(cerr_errno_key(ELOOP), "sys.too_many_links");
    assert_string_equal(cerr_errno_key(ENAMETOOLONG), "sys.name_too_long");
    assert_string_equal(cerr_errno_key(ENXIO), "sys.not_regular");
    assert_string_equal(cerr_errno_key(ENOMEM), "sys.out_of_memory");
    assert_string_equal(cerr_errno_key(EBUSY), "sys.other");
    /* every reason is in the catalogue (the key itself would come back) */
    const int all[] = {ENOENT, EACCES, EISDIR, ENOTDIR, ENOSPC, EROFS, ELOOP, ENAMETOOLONG, ENXIO,
                       ENOMEM, EFBIG, EBUSY};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        assert_string_not_equal(repl_text_in("de", cerr_errno_key(all[i]), 0), cerr_errno_key(all[i]));
}

/* A keyed error worded by the console (repl_error_text.c) */
static void test_error_wording(void **state) {
    (void)state;
    cerr_list errs;
    cerr_init(&errs, 0);
    /* yload's "cannot open" for a missing file, keyed as yload.c keys it */
    size_t n = errs.n;
    cerr_add(&errs, "/x.save", 0, 0, NULL, "cannot open: %s", "No such file or directory");
    cerr_key(&errs, n, "file.open", ENOENT, NULL, NULL);
    char *t = repl_error_text_in("de", &errs.items[0]);
    assert_string_equal(t, "/x.save: lässt sich nicht öffnen: die Datei oder den Ordner gibt es nicht");
    free(t);
    t = repl_error_text_in("el", &errs.items[0]);
    assert_string_equal(t, "/x.save: δεν ανοίγει: δεν υπάρχει τέτοιο αρχείο ή φάκελος");
    free(t);
    /* English, and a language the console does not speak: the message as it was */
    t = repl_error_text_in("en", &errs.items[0]);
    assert_string_equal(t, "/x.save: cannot open: No such file or directory");
    free(t);
    t = repl_error_text_in("fr", &errs.items[0]);
    assert_string_equal(t, "/x.save: cannot open: No such file or directory");
    free(t);
    /* an errno the table does not name: its number (EBUSY is 16 on Linux) */
    n = errs.n;
    cerr_add(&errs, "/y", 0, 0, NULL, "cannot save: write failed: busy");
    cerr_key(&errs, n, "save.failed", EBUSY, NULL, NULL);
    char want[96];
    snprintf(want, sizeof want, "/y: lässt sich nicht speichern: Systemfehler %d", EBUSY);
    t = repl_error_text_in("de", &errs.items[1]);
    assert_string_equal(t, want);
    free(t);
    /* two arguments in order; a % in one is text, not a conversion */
    n = errs.n;
    cerr_add(&errs, NULL, 0, 0, NULL, "the state has no a.b%%s (a exists)");
    cerr_key(&errs, n, "state.no_such_but", 0, "a.b%s", "a");
    t = repl_error_text_in("de", &errs.items[2]);
    assert_string_equal(t, "der Spielstand hat kein a.b%s (a gibt es)");
    free(t);
    /* an entry whose %s the error cannot fill (one argument short): English */
    n = errs.n;
    cerr_add(&errs, NULL, 0, 0, NULL, "the state has no q");
    cerr_key(&errs, n, "state.no_such_but", 0, "q", NULL);
    t = repl_error_text_in("de", &errs.items[3]);
    assert_string_equal(t, "the state has no q");
    free(t);
    /* a key no language has: English */
    n = errs.n;
    cerr_add(&errs, NULL, 0, 0, "p", "plain");
    cerr_key(&errs, n, "no.such.key", 0, NULL, NULL);
    t = repl_error_text_in("el", &errs.items[4]);
    assert_string_equal(t, "p: plain");
    free(t);
    /* the state schema's "expected ..., got ..." (schema.c's key_expected):
    ** its parts worded one by one */
    const char *expected[][5] = {
        /* types, bounds, type got, what, its German words */
        {"integer", "min=1", "string", "\"abc\"", "state.round: erwartet: ganze Zahl >= 1, bekommen: Text \"abc\""},
        {"integer null", "min=1 max=6", "list", "2",
         "state.round: erwartet: ganze Zahl zwischen 1 und 6 oder null, bekommen: eine Liste mit 2 Einträgen"},
        {"integer", "xmin=0 mul=5", "map", "1",
         "state.round: erwartet: ganze Zahl > 0 und Vielfaches von 5, bekommen: eine Tabelle mit 1 Schlüssel"},
        {"null boolean map", "", "integer", "3",
         "state.round: erwartet: null, Wahrheitswert oder Tabelle, bekommen: ganze Zahl 3"},
        {"string", "", "null", "", "state.round: erwartet: Text, bekommen: null"},
    };
    for (size_t i = 0; i < sizeof expected / sizeof expected[0]; i++) {
        cerr_list one;
        cerr_init(&one, 0);
        cerr_add(&one, NULL, 0, 0, "state.round", "expected ..., got ...");
        cerr_key4(&one, 0, "schema.expected", expected[i][0], expected[i][1], expected[i][2], expected[i][3]);
        t = repl_error_text_in("de", &one.items[0]);
        assert_string_equal(t, expected[i][4]);
        free(t);
        cerr_free(&one);
    }
    /* cerr_merge keeps the key; cerr_note_oom's error is keyed "oom" */
    cerr_list copy;
    cerr_init(&copy, 0);
    cerr_merge(&copy, &errs);
    assert_string_equal(copy.items[0].key, "file.open");
    assert_int_equal(copy.items[0].sys_errno, ENOENT);
    assert_string_equal(copy.items[2].args[0], "a.b%s");
    cerr_free(&copy);
    cerr_init(&copy, 0);
    cerr_note_oom(&copy, 0, "loading the ruleset");
    t = repl_error_text_in("de", &copy.items[0]);
    assert_string_equal(t, "nicht genug Arbeitsspeicher");
    free(t);
    cerr_free(&copy);
    /* cerr_addk: the English message and the key's arguments from one call */
    cerr_init(&copy, 0);
    cerr_addk(&copy, "/z", 3, 4, NULL, "state.no_such_but", "the state has no %s (%s exists)", "a.b", "a");
    t = repl_error_text_in("en", &copy.items[0]);
    assert_string_equal(t, "/z:3:4: the state has no a.b (a exists)");
    free(t);
    t = repl_error_text_in("de", &copy.items[0]);
    assert_string_equal(t, "/z:3:4: der Spielstand hat kein a.b (a gibt es)");
    free(t);
    assert_null(copy.items[0].args[2]);
    /* a format with another conversion than %s: English, no key */
    cerr_addk(&copy, NULL, 0, 0, NULL, "state.no_such", "the state has no %s%d", "x", 7);
    assert_null(copy.items[1].key);
    t = repl_error_text_in("de", &copy.items[1]);
    assert_string_equal(t, "the state has no x7");
    free(t);
    /* six arguments are kept, in order */
    cerr_addk(&copy, NULL, 0, 0, NULL, "six", "%s%s%s%s%s%s", "1", "2", "3", "4", "5", "6");
    assert_string_equal(copy.items[2].message, "123456");
    assert_string_equal(copy.items[2].args[5], "6");
    cerr_free(&copy);
    /* an error dropped past the cap gets no key, and the one before keeps its own */
    cerr_init(&copy, 1);
    cerr_add(&copy, NULL, 0, 0, NULL, "first");
    n = copy.n;
    cerr_add(&copy, NULL, 0, 0, NULL, "second");
    cerr_key(&copy, n, "oom", 0, NULL, NULL);
    assert_null(copy.items[0].key);
    cerr_free(&copy);
    cerr_free(&errs);
}

/* A state path that does not parse, keyed (base/statepath.c) */
static void test_state_path_wording(void **state) {
    (void)state;
    cerr_list errs;
    cerr_init(&errs, 0);
    statepath p = {0};
    assert_int_equal(statepath_parse_errs("a]b", &p, &errs), -1);
    assert_string_equal(errs.items[0].message, "\"a]b\": expected `.` or `[` before \"]b\"");
    char *t = repl_error_text_in("de", &errs.items[0]);
    assert_string_equal(t, "\"a]b\": vor \"]b\" fehlt `.` oder `[`");
    free(t);
    assert_int_equal(statepath_parse_errs("round[0]", &p, &errs), -1);
    t = repl_error_text_in("el", &errs.items[1]);
    assert_string_equal(t, "\"round[0]\": το [N] παίρνει θέση λίστας από 1");
    free(t);
    cerr_free(&errs);
}

/* The user's locale names the language before a game */
static void test_locale_lang(void **state) {
    (void)state;
    setenv("LC_ALL", "", 1);
    setenv("LC_MESSAGES", "el_GR.UTF-8", 1);
    setenv("LANG", "de_DE.UTF-8", 1);
    assert_string_equal(repl_locale_lang(), "el"); /* LC_MESSAGES before LANG; an empty LC_ALL is none */
    setenv("LC_ALL", "de_AT@euro", 1);
    assert_string_equal(repl_locale_lang(), "de");
    setenv("LC_ALL", "fr_FR.UTF-8", 1); /* a language the console does not speak */
    assert_string_equal(repl_locale_lang(), "en");
    setenv("LC_ALL", "C.UTF-8", 1);
    assert_string_equal(repl_locale_lang(), "en");
    unsetenv("LC_ALL");
    unsetenv("LC_MESSAGES");
    unsetenv("LANG");
    assert_string_equal(repl_locale_lang(), "en");
}

/* words holds the lower-case words to look for, separated and ended by ' '. */
static void add_word(char *words, size_t n, const char *w, size_t len) {
    if (len < 3 || strlen(words) + len + 2 >= n) return;
    char buf[64];
    if (len >= sizeof buf) return;
    for (size_t i = 0; i < len; i++) buf[i] = (char)tolower((unsigned char)w[i]);
    buf[len] = '\0';
    char probe[70];
    snprintf(probe, sizeof probe, " %s ", buf);
    if (strstr(words, probe)) return;
    strcat(words, buf);
    strcat(words, " ");
}

/* The ASCII words of a text (outside `...` and {markup}, no %conversions);
** with values, outside "..." too: a printed line quotes values so (what was
** typed, a state's enum items, a file name), never the console's words. */
static void words_of_text(const char *s, char *words, size_t n, int values) {
    int quoted = 0, tag = 0, flag = 0;
    const char *start = NULL;
    for (const char *p = s;; p++) {
        /* not a %conversion, an --option, nor a placeholder in capitals (FILE, SEAT) */
        int letter = *p && isalpha((unsigned char)*p) && !quoted && !tag;
        if (letter && !start) {
            start = p;
            flag = p > s && (p[-1] == '%' || p[-1] == '-'); /* the whole word of "--peek" */
        }
        if (!letter && start) {
            /* a part of a file name or a path (ruleset.yaml, view.players[1]) */
            int path = (*p && strchr("_/[", *p)) || (*p == '.' && isalnum((unsigned char)p[1])) ||
                       (start > s && strchr("_/", start[-1])) ||
                       (start > s + 1 && start[-1] == '.' && isalnum((unsigned char)start[-2]));
            /* ... anywhere in a token with a slash: a temporary folder's
            ** random name ("/tmp/cairn-lang-TV0oNE") holds any word */
            const char *t0 = start, *t1 = p;
            while (t0 > s && !isspace((unsigned char)t0[-1])) t0--;
            while (*t1 && !isspace((unsigned char)*t1)) t1++;
            if (memchr(t0, '/', (size_t)(t1 - t0))) path = 1;
            if (path) flag = 1;
            int capitals = p - start > 1;
            for (const char *c = start; c < p && capitals; c++) capitals = isupper((unsigned char)*c);
            if (!capitals && !flag) add_word(words, n, start, (size_t)(p - start));
            start = NULL;
        }
        if (!*p) break;
        if (*p == '`' || (values && *p == '"')) quoted = !quoted;
        if (*p == '{') tag = 1;
        if (*p == '}') tag = 0;
        if (*p == '%') while (p[1] && strchr("lzh", p[1])) p++;
    }
}

static void words_of(const char *s, char *words, size_t n) { words_of_text(s, words, n, 0); }

static void catalogue_words(const char *lang, char *words, size_t n) {
    words[0] = ' ';
    words[1] = '\0';
    for (const repl_text_entry *e = table(lang); e && e->key; e++) {
        words_of(e->one, words, n);
        if (e->other) words_of(e->other, words, n);
    }
}

/* 1 when w is a console command's name (the catalogue has its "help.NAME"). */
static int is_command(const char *w) {
    char key[80];
    snprintf(key, sizeof key, "help.%s", w);
    for (const repl_text_entry *e = table("en"); e && e->key; e++)
        if (strcmp(e->key, key) == 0) return 1;
    return 0;
}

/* State of check_line across the lines of one run. */
typedef struct checker {
    char en[8192], other[8192]; /* the words of English's catalogue and lang's */
    size_t lines, bad;
    int cmdline; /* the line before held a command line to type */
    int quoted;  /* the line before ended inside a `...` span, which its wrapped rest goes on */
} checker;

static void checker_init(checker *k, const char *lang) {
    catalogue_words("en", k->en, sizeof k->en);
    catalogue_words(lang, k->other, sizeof k->other);
    k->lines = k->bad = 0;
    k->cmdline = k->quoted = 0;
}

/* Counts line a bad one (and prints it) when it holds an English word of
** the catalogue (less those lang spells too). */
static void check_line(checker *k, char *line) {
    k->lines++;
    char found[8192];
    found[0] = ' ';
    found[1] = '\0';
    /* no exception for a bot's moves: the news never tells one by its id
    ** (the ruleset's, in English), only by its label or as a secret one */
    /* what was typed (echoed after its prompt) is the user's, and the
    ** commands (`help` lists them by name) are typed in one language */
    if (strncmp(line, "cairn", 5) == 0 && strchr(line, '>')) return;
    /* a command line to type (`seed` prints one; wrapped, it goes on
    ** with "  --name ...") is typed too */
    if (k->cmdline && strncmp(line, "  ", 2) == 0) return;
    char *typed = strstr(line, "cairn play ");
    k->cmdline = typed != NULL;
    if (typed) *typed = '\0';
    /* a `...` span wrapped onto this line: its rest is quoted too */
    char text[8192];
    snprintf(text, sizeof text, "%s%s", k->quoted && strncmp(line, "  ", 2) == 0 ? "`" : "", line);
    size_t ticks = 0;
    for (const char *p = text; *p; p++) ticks += *p == '`';
    k->quoted = ticks % 2 == 1;
    words_of_text(text, found, sizeof found, 1);
    for (char *w = strtok(found, " "); w; w = strtok(NULL, " ")) {
        char probe[80];
        snprintf(probe, sizeof probe, " %s ", w);
        if (strstr(k->en, probe) && !strstr(k->other, probe) && !is_command(w)) {
            print_message("English \"%s\" in: %s", w, line);
            k->bad++;
            break;
        }
    }
}

/* Runs `cairn MODE ARGS` (play, replay) on input to the end; fails listing
** each line with an English word of the catalogue (less those lang spells
** too). */
static void run_in(const char *lang, const char *mode, const char *args, const char *input) {
    static checker k;
    checker_init(&k, lang);
    char *cmd = cairn_strfmt("%s | COLUMNS=80 LINES=24 %s %s %s 2>&1", input, cairn, mode, args);
    assert_non_null(cmd);
    FILE *p = popen(cmd, "r");
    free(cmd);
    assert_non_null(p);
    char line[4096];
    while (fgets(line, sizeof line, p)) check_line(&k, line);
    int st = pclose(p);
    assert_int_equal(st, 0);
    assert_true(k.lines > 20); /* a whole game was printed */
    assert_int_equal(k.bad, 0);
}

static void play_in(const char *lang, const char *args, const char *input) {
    run_in(lang, "play", args, input);
}

/* `cairn replay` of the save the game with people made (dir/a.save), in
** its language: steps, a jump too far, a seat's eyes, a load of a file that
** is not there, help goto, an unknown command */
static void replay_in(const char *lang, const char *dir) {
    char *args = cairn_strfmt("%s/a.save", dir);
    char *input = cairn_strfmt("printf '\\nnext\\nback\\ngoto 99\\ngoto x\\nshow 1\\nview 0\\n"
                               "load %s/none.save\\nhelp goto\\nfoo\\nquit\\n'", dir);
    assert_non_null(args);
    assert_non_null(input);
    run_in(lang, "replay", args, input);
    free(args);
    free(input);
}

/* The input of a game with people: the commands and questions first (files in
** dir), then n rounds of answers, then quit with the game changed (asked, n).
** The game is played from dir/rs, a copy of the ruleset, which the input
** edits and reloads: a file new and removed, a replay that stops (apply made
** to fail), the rules without secrets and with them again. */
static char *commands_then_answers(const char *dir, const char *rs) {
    char *root = cairn_strfmt("%.*s/..", (int)(strrchr(cairn, '/') - cairn), cairn); /* build/.. */
    if (!root) return NULL;
    /* the errors of the layers below, keyed (repl_error_text.c): a load of
    ** a file that is not there, a save into a folder that is not there and
    ** over a folder, an export into a folder that is not there, state paths
    ** that do not parse, set of a path whose parent is not there and of a
    ** value the state schema refuses (a type, a bound, an enum with and
    ** without the nearest item), bot kinds and parameters that are not
    ** (each refusal the bot spec parser makes); the rarer
    ** paths: state --peek (asked first, with a path too), a path
    ** that is not there, eval and set without what they take and with a Lua
    ** error, the usage errors of history, goto, bot, human, shell and new */
    char *rare = cairn_strfmt("printf 'load %s/none.save\\nsave %s/nodir/a.save\\nsave %s\\nexport %s/nodir/s.yaml\\n"
                              "state a]b\\nstate round[0]\\nstate .x\\nstate round x\\nset nothere.x 3\\nset round.x.y 3\\n"
                              "set round abc\\nset round [1, 2]\\nset phase foo\\nset phase ove\\n"
                              "bot 2 foo\\nbot 2 mcts:iterations=abc\\nbot 2 mcts:x=1\\nbot 2 random:x=1\\n"
                              "bot 2 mcts:depth=1.5\\nbot 2 mcts:cores=0\\nbot 2 mcts:time=9999999\\n"
                              "bot 2 mcts:rollout=x\\nbot 2 mcts:foo\\nbot 2 mcts:,\\n"
                              "state --peek round\\ny\\nstate --peek\\nn\\nstate round.x\\neval\\neval 1 +\\n"
                              "set\\nhistory --bad\\ngoto\\ngoto 99\\nbot\\nhuman\\nshell\\nshell false\\nnew x\\n"
                              "shell touch %s/%s/extra.lua\\nreload\\nshell rm %s/%s/extra.lua\\nreload\\n"
                              "shell sed -i \"s/^return rules$/rules.apply = function() error(\\\\\\\"!\\\\\\\", 0) end; return rules/\" %s/%s/rules.lua\\n"
                              "reload\\nshell cp %s/orig/rules.lua %s/%s/rules.lua\\nreload\\n"
                              "shell sed -i \"s/policy: [a-z]*/policy: public/\" %s/%s/ruleset.yaml\\nreload\\n"
                              "shell cp %s/orig/ruleset.yaml %s/%s/ruleset.yaml\\nreload\\n'; ",
                              dir, dir, dir, dir, dir, rs, dir, rs, dir, rs, dir, dir, rs, dir, rs, dir, dir, rs);
    /* `help CMD` for every command, then the rarer commands themselves */
    char *in = rare ? cairn_strfmt("cp -r %s/rulesets/%s %s/%s && cp -r %s/%s %s/orig && echo hi > %s/b.txt; "
                        "{ for c in help show look view state eval set log score rules history "
                        "undo redo goto save load export option debug trace reload bot why human run auto new restart "
                        "seed shell quit next; do echo \"help $c\"; done; "
                        "printf 'why\\nseed\\ndebug on\\ndebug off\\ntrace on\\ntrace off\\nbot 2 greedy\\n"
                        "human 2\\nauto\\nview 0\\nview\\nshell true\\nreload\\nlog 2\\nscore\\n"
                        "history\\n1\\nwhy\\nundo\\nredo\\nhistory\\nsave %s/a.save\\n2\\n"
                        "load %s/a.save\\n%s/b.txt\\nn\\nexport %s/s.yaml\\n'; %s"
                        "for i in $(seq 40); do echo 1; echo 2; echo 5; echo zz; done; echo why; echo why 3; echo history; "
                        "echo quit; echo n; }",
                        root, rs, dir, rs, dir, rs, dir, dir, dir, dir, dir, dir, rare) : NULL;
    free(rare);
    free(root);
    return in;
}

/* Two people at the keyboard of ruleset (with args after its folder, a copy
** in a temporary folder) in lang: the commands and answers above, then the
** replay of their save. */
static void people_play(const char *lang, const char *ruleset, const char *args) {
    char dir[] = "/tmp/cairn-lang-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char *input = commands_then_answers(dir, ruleset);
    char *all = cairn_strfmt("%s/%s %s", dir, ruleset, args);
    assert_non_null(input);
    assert_non_null(all);
    play_in(lang, all, input);
    replay_in(lang, dir);
    free(all);
    free(input);
    char *rm = cairn_strfmt("rm -rf %s", dir);
    assert_int_equal(rm ? system(rm) : -1, 0);
    free(rm);
}

static void test_german_kathmandu(void **state) {
    (void)state;
    play_in("de", "kathmandu --preset full --lang de --bot 1=greedy --bot 2=greedy --bot 3=greedy --bot 4=greedy --seed 5",
            "true");
    /* two people at the keyboard (the keyboard passes), bots in the others: the
    ** options, the news of the bots' turns, refused answers */
    people_play("de", "kathmandu", "--preset full --lang de --bot 3=greedy --bot 4=greedy --seed 5");
}

static void test_greek_yak(void **state) {
    (void)state;
    play_in("el", "yak --lang el --players 3 --bot 1=random --bot 2=random --bot 3=random --seed 2", "true");
    people_play("el", "yak", "--lang el --players 3 --bot 3=random --seed 2");
}

/* Yak in German: four bots to the end with the master builder's bonus cards
** (on the board and in the scores), then two people against two bots with the
** commands and answers above, and the replay of their save. */
static void test_german_yak(void **state) {
    (void)state;
    play_in("de",
            "yak --lang de --players 4 --option master_builder --bot 1=random --bot 2=random --bot 3=random "
            "--bot 4=random --seed 5",
            "true");
    people_play("de", "yak", "--lang de --players 4 --bot 3=greedy --bot 4=greedy --seed 3");
}

/* The n-th occurrence of text in c's output, waited for as wait_for does. */
static void wait_for_nth(child *c, const char *text, int n) {
    for (int tick = 0; tick < WAIT_TICKS; tick++) {
        drain(c);
        int seen = 0;
        for (const char *p = c->buf; (p = strstr(p, text)); p += strlen(text)) seen++;
        if (seen >= n) return;
        pause_ms(10);
    }
    fprintf(stderr, "never saw \"%s\" %d times in:\n%s\n", text, n, c->buf);
    fail();
}

/* The ruleset-trust question of `load`, which script mode never asks: on a
** pseudo-terminal, a German Kathmandu game loads a save whose ruleset folder
** (a copy) is neither on the search path nor beside the save; the question
** is refused, then asked again and accepted (the game a bot changed is not
** saved first), and the game quits. No line
** holds an English word of the catalogue (the terminal's carriage returns
** and escape sequences taken out first). */
static void test_trust_question_on_a_terminal(void **state) {
    (void)state;
    char *make = cairn_strfmt("mkdir -p %s/rs %s/sub && cp -r %s/rulesets/kathmandu %s/rs/", tmpdir, tmpdir,
                              root, tmpdir);
    char *copy = cairn_strfmt("%s/rs/kathmandu", tmpdir);
    char *saving = cairn_strfmt("save %s/sub/a.save\nquit\n", tmpdir);
    char *rs = cairn_strfmt("%s/rulesets/kathmandu", root);
    char *load = cairn_strfmt("load %s/sub/a.save\r", tmpdir);
    assert_non_null(make);
    assert_non_null(rs);
    assert_non_null(load);
    assert_non_null(copy);
    assert_non_null(saving);
    assert_int_equal(system(make), 0);
    /* the save, made on pipes from the copy */
    char *made[] = {"cairn", "play", copy, "--lang", "de", "--bot", "2=greedy", "--bot", "3=greedy",
                    "--bot", "4=greedy", "--seed", "5", NULL};
    child c;
    spawn(&c, made);
    say(&c, saving);
    assert_int_equal(wait_end(&c), 0);
    char *argv[] = {"cairn", "play", rs, "--lang", "de", "--bot", "2=greedy", "--bot", "3=greedy",
                    "--bot", "4=greedy", "--seed", "5", NULL};
    spawn_on_pty(&c, argv);
    wait_for(&c, "cairn:");
    say(&c, load);
    wait_for(&c, "(j/n)"); /* the trust question */
    say(&c, "n\r");
    wait_for_nth(&c, "cairn:", 2); /* refused: the game in memory stays */
    say(&c, load);
    wait_for_nth(&c, "(j/n)", 2);
    say(&c, "j\r");
    wait_for(&c, "Vorher speichern"); /* a bot moved: the game changed (load.save_first) */
    say(&c, "n\r");
    wait_for_nth(&c, "Startwert", 2); /* the loaded game's header */
    wait_for_nth(&c, "cairn:", 3);
    say(&c, "quit\r");
    assert_int_equal(wait_end(&c), 0);
    /* the question was asked in German (load.trust_ask) */
    assert_non_null(strstr(c.buf, "vertraust"));
    checker k;
    checker_init(&k, "de");
    char *save = NULL;
    for (char *line = strtok_r(c.buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        /* carriage returns and escape sequences (ESC [ ... letter) out */
        char clean[4096];
        size_t n = 0;
        for (const char *q = line; *q && n + 1 < sizeof clean; q++) {
            if (*q == '\r') continue;
            if (*q == 27) {
                if (q[1] == '[') {
                    q += 2;
                    while (*q && !isalpha((unsigned char)*q)) q++;
                    if (!*q) break;
                }
                continue;
            }
            clean[n++] = *q;
        }
        clean[n] = '\0';
        check_line(&k, clean);
    }
    assert_true(k.lines > 20);
    assert_int_equal(k.bad, 0);
    free(make);
    free(copy);
    free(saving);
    free(rs);
    free(load);
}

/* All that cmd prints (stdout and stderr) checked line by line: no English
** word of the catalogue (less lang's); each of want[] is a whole line of it.
** Returns the exit status. */
static int check_run(const char *lang, const char *cmd, const char *const *want, size_t n_want) {
    checker k;
    checker_init(&k, lang);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    char line[4096];
    size_t found = 0;
    while (fgets(line, sizeof line, p)) {
        line[strcspn(line, "\n")] = '\0';
        for (size_t i = 0; i < n_want; i++)
            if (strcmp(line, want[i]) == 0) found |= (size_t)1 << i;
        check_line(&k, line);
    }
    int st = pclose(p);
    for (size_t i = 0; i < n_want; i++)
        if (!(found & ((size_t)1 << i))) fail_msg("no line \"%s\" in the output of %s", want[i], cmd);
    assert_int_equal(k.bad, 0);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* A game given no --lang speaks the locale's language when the ruleset ships
** it (docs/cli.md, "Language"): the header, the seats' default names, every
** line checked for English words. connect4 ships English only: English,
** after one line in German that says so (a German locale reading an
** English game is told why). --lang wins over the locale. */
static void test_game_takes_the_locale(void **state) {
    (void)state;
    static const struct {
        const char *checked, *env, *args, *want[2];
    } cases[] = {
        {"de", "-u LC_MESSAGES LANG=de_DE.UTF-8", "rulesets/kathmandu --players 2",
         {"Kathmandu 1.0: 2 Plätze, Startwert 1", "Plätze: Platz 1 (Mensch), Platz 2 (Mensch)"}},
        {"el", "LC_MESSAGES=el_GR.UTF-8 LANG=de_DE.UTF-8", "rulesets/yak --players 2",
         {"Yak 1.0: 2 θέσεις, σπόρος 1", "Θέσεις: Θέση 1 (άνθρωπος), Θέση 2 (άνθρωπος)"}},
        {"en", "-u LC_MESSAGES LANG=de_DE.UTF-8", "rulesets/connect4",
         {"Connect Four hat keine Texte auf \"de\": gespielt wird auf \"en\" (seine Sprachen:", /* wrapped at 80 */
          "Connect Four 1.0: 2 seats, seed 1"}},
        {"en", "-u LC_MESSAGES LANG=de_DE.UTF-8", "rulesets/kathmandu --players 2 --lang en",
         {"Kathmandu 1.0: 2 seats, seed 1", "Seats: Seat 1 (person), Seat 2 (person)"}},
        /* --lang asks for a language Goofspiel does not ship: told so in
        ** German, then played in English, console and ruleset alike */
        {"en", "-u LC_MESSAGES -u LANG", "rulesets/goofspiel --players 3 --lang de",
         {"Goofspiel hat keine Texte auf \"de\": gespielt wird auf \"en\" (seine Sprachen: en,", /* wrapped at 80 */
          "Goofspiel 1.0: 3 seats, seed 1"}},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *cmd = cairn_strfmt("cd %s && printf 'quit\\n' | env -u LC_ALL %s %s play %s 2>&1", root, cases[i].env,
                                 cairn, cases[i].args);
        assert_non_null(cmd);
        assert_int_equal(check_run(cases[i].checked, cmd, cases[i].want, 2), 0);
        free(cmd);
    }
}

/* Before a game has a language: the set-up questions of `cairn play` with no
** ruleset and the usage errors of play and replay speak the locale's
** language (LANG here; LC_ALL and LC_MESSAGES unset), or --lang's when it
** came before the mistake. Exit status 1 at the end of the input, 2 for a
** usage error. */
static void test_before_a_game(void **state) {
    (void)state;
    const char *setup[] = {
        "kein Regelwerk \"99\": gib seine Nummer (1 bis 5) oder seinen Namen ein",
        "Wie viele Plätze? 2 bis 4; Enter: 4.",
        "\"x\": gib eine Zahl von 2 bis 4 ein",
        "  4  kathmandu    Kathmandu (2-4 Spieler)",
        "  1  connect4     Connect Four (2 Spieler)",
    };
    char *cmd = cairn_strfmt("cd %s && printf '99\\nkathmandu\\nx\\n' | env -u LC_ALL -u LC_MESSAGES LANG=de_DE.UTF-8 "
                             "%s play 2>&1", root, cairn);
    assert_non_null(cmd);
    assert_int_equal(check_run("de", cmd, setup, 5), 1);
    free(cmd);
    /* the usage text's one phrase of words is worded too */
    const char *usage_de[] = {"cairn play: --seed nimmt eine Zahl, nicht \"x\"",
                              "       cairn play            (fragt nach Regelwerk, Platzzahl und wer spielt)"};
    cmd = cairn_strfmt("env -u LC_ALL -u LC_MESSAGES LANG=de_DE.UTF-8 %s play --seed x 2>&1", cairn);
    assert_int_equal(check_run("de", cmd, usage_de, 2), 2);
    free(cmd);
    const char *suggest_de[] = {"cairn play: unbekannte Option \"--sed\"; meintest du --set?"};
    cmd = cairn_strfmt("env -u LC_ALL -u LC_MESSAGES LANG=de_DE.UTF-8 %s play --sed 3 2>&1", cairn);
    assert_int_equal(check_run("de", cmd, suggest_de, 1), 2);
    free(cmd);
    /* --lang before the mistake wins over the locale */
    const char *lang_el[] = {"cairn play: ένα σύνολο κανόνων τη φορά· το \"yak\" περισσεύει"};
    cmd = cairn_strfmt("env -u LC_ALL -u LC_MESSAGES LANG=de_DE.UTF-8 %s play --lang el kathmandu yak 2>&1", cairn);
    assert_int_equal(check_run("el", cmd, lang_el, 1), 2);
    free(cmd);
    const char *replay_el[] = {"cairn replay: ποια αποθήκευση;"};
    cmd = cairn_strfmt("env -u LC_ALL LC_MESSAGES=el_GR.UTF-8 LANG=de_DE.UTF-8 %s replay 2>&1", cairn);
    assert_int_equal(check_run("el", cmd, replay_el, 1), 2);
    free(cmd);
    /* a locale the console does not speak: English, as before */
    const char *usage_en[] = {"cairn play: --seed takes a number, got \"x\""};
    cmd = cairn_strfmt("env -u LC_ALL -u LC_MESSAGES LANG=fr_FR.UTF-8 %s play --seed x 2>&1", cairn);
    checker k;
    checker_init(&k, "en");
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    char line[4096];
    assert_non_null(fgets(line, sizeof line, p));
    line[strcspn(line, "\n")] = '\0';
    assert_string_equal(line, usage_en[0]);
    while (fgets(line, sizeof line, p)) {}
    pclose(p);
    free(cmd);
}

/* The lines `cairn play ARGS` prints for input, at a width of cols (script
** mode reads $COLUMNS), into out (size n); the number of lines. */
static size_t lines_at(const char *lang, int cols, const char *input, char *out, size_t n) {
    char *cmd = cairn_strfmt("printf '%s' | COLUMNS=%d %s play connect4 --lang %s 2>&1", input, cols,
                             cairn, lang);
    assert_non_null(cmd);
    FILE *p = popen(cmd, "r");
    free(cmd);
    assert_non_null(p);
    size_t len = fread(out, 1, n - 1, p);
    out[len] = '\0';
    assert_int_equal(pclose(p), 0);
    assert_true(len < n - 1); /* all of it was read */
    size_t lines = 0;
    for (const char *c = out; *c; c++) lines += *c == '\n';
    return lines;
}

/* `help` and `help CMD` of every command keep within the console's width in
** every language: a German or Greek description wraps under itself, and a
** command's details are wrapped as paragraphs, not at the catalogue's 80
** columns (German `undo`'s line was 85 columns wide, English `help auto` 81). */
static void test_help_fits_the_width(void **state) {
    (void)state;
    static char out[1 << 17];
    for (size_t l = 0; repl_text_langs[l].lang; l++) {
        const char *lang = repl_text_langs[l].lang;
        /* the commands, from `help`'s list at a width no line reaches */
        lines_at(lang, 400, "help\\nquit\\n", out, sizeof out);
        char input[4096] = "help\\n";
        size_t commands = 0;
        for (char *line = strtok(out, "\n"); line; line = strtok(NULL, "\n")) {
            char name[32];
            if (strncmp(line, "  ", 2) != 0 || sscanf(line + 2, "%31[a-z]", name) != 1) continue;
            strncat(input, "help ", sizeof input - strlen(input) - 1);
            strncat(input, name, sizeof input - strlen(input) - 1);
            strncat(input, "\\n", sizeof input - strlen(input) - 1);
            commands++;
        }
        strncat(input, "quit\\n", sizeof input - strlen(input) - 1);
        assert_true(commands >= 25); /* help's list was read */
        for (int cols = 50; cols <= 80; cols += 30) {
            size_t lines = lines_at(lang, cols, input, out, sizeof out);
            assert_true(lines > 2 * commands); /* every command's details were printed */
            for (char *line = strtok(out, "\n"); line; line = strtok(NULL, "\n"))
                if (markup_width(line, strlen(line)) > (size_t)cols)
                    fail_msg("%s at %d columns: %s", lang, cols, line);
        }
    }
}

int main(int argc, char **argv) {
    (void)argc;
    if (!(cairn = cairn_next_to(argv[0]))) return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_language_has_every_key),
        cmocka_unit_test(test_plural_forms),
        cmocka_unit_test(test_errno_keys),
        cmocka_unit_test(test_error_wording),
        cmocka_unit_test(test_state_path_wording),
        cmocka_unit_test(test_locale_lang),
        cmocka_unit_test(test_german_kathmandu),
        cmocka_unit_test(test_greek_yak),
        cmocka_unit_test(test_german_yak),
        cmocka_unit_test(test_trust_question_on_a_terminal),
        cmocka_unit_test(test_before_a_game),
        cmocka_unit_test(test_game_takes_the_locale),
        cmocka_unit_test(test_help_fits_the_width),
    };
    int rc = cmocka_run_group_tests(tests, testchild_setup, testchild_teardown);
    free(cairn);
    return rc;
}
