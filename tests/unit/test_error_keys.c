/*
** test_error_keys.c
** Every key an error is given in the interpreter's sources has its wording
** in the console's catalogue (issue 25, "One language"): the test reads
** every .c file below interpreter/ (tests run from the repository root),
** finds each call of cerr_addk, cerr_key and cerr_key4 and of the helpers
** that pass a key on to them (wrappers[] below), reads the key argument (a
** string literal, or a `cond ? "a" : "b"` choice of literals) and asserts
** that the English catalogue has "error.KEY"; test_console_language then
** requires the same key in every other language. A key it cannot read (a
** variable, a macro) fails the test loudly, naming the file and line, so a
** key can never slip past unread. The control: a made-up source with a
** misspelt key and one with a key in a variable are both caught.
*/
#include "testutil.h"

#include "repl_text.h"

#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <sys/stat.h>

/* What a scan found: call sites read, keys missing from the catalogue,
** keys it could not read. */
typedef struct scan_counts {
    size_t calls, missing, unreadable;
} scan_counts;

/* 1 when the English catalogue has key */
static int has_entry(const char *key) {
    const repl_text_entry *en = repl_text_langs[0].entries;
    for (const repl_text_entry *e = en; e->key; e++)
        if (strcmp(e->key, key) == 0) return 1;
    return 0;
}

/* text with its comments blanked (string and character literals kept), in
** place, so that a call written out in a comment is no call */
static void blank_comments(char *t) {
    for (char *p = t; *p; p++) {
        if (*p == '"' || *p == '\'') {
            char q = *p;
            for (p++; *p && *p != q; p++)
                if (*p == '\\' && p[1]) p++;
            if (!*p) return;
        } else if (p[0] == '/' && p[1] == '*') {
            for (; *p && !(p[0] == '*' && p[1] == '/'); p++)
                if (*p != '\n') *p = ' ';
            if (!*p) return;
            p[0] = p[1] = ' ';
            p++;
        } else if (p[0] == '/' && p[1] == '/') {
            for (; *p && *p != '\n'; p++) *p = ' ';
            if (!*p) return;
        }
    }
}

/* The end of the argument starting at p (the ',' or ')' after it, at depth 0). */
static const char *arg_end(const char *p) {
    int depth = 0;
    for (; *p; p++) {
        if (*p == '"' || *p == '\'') {
            char q = *p;
            for (p++; *p && *p != q; p++)
                if (*p == '\\' && p[1]) p++;
            if (!*p) return p;
        } else if (*p == '(' || *p == '[' || *p == '{') {
            depth++;
        } else if (*p == ')' || *p == ']' || *p == '}') {
            if (depth == 0) return p;
            depth--;
        } else if (*p == ',' && depth == 0) {
            return p;
        }
    }
    return p;
}

static const char *skip_space(const char *p, const char *end) {
    while (p < end && isspace((unsigned char)*p)) p++;
    return p;
}

/* The keys of the expression [p, end) into keys (n of them, at most max):
** one string literal, or `cond ? A : B` with A and B such expressions. -1
** when it is anything else. */
static int read_keys(const char *p, const char *end, char keys[][96], size_t *n, size_t max) {
    p = skip_space(p, end);
    while (end > p && isspace((unsigned char)end[-1])) end--;
    if (p < end && *p == '"') {
        const char *q = p + 1;
        while (q < end && *q != '"') q++;
        if (q + 1 != end || *n >= max || (size_t)(q - p - 1) >= sizeof keys[0]) return -1;
        snprintf(keys[*n], sizeof keys[0], "%.*s", (int)(q - p - 1), p + 1);
        (*n)++;
        return 0;
    }
    /* cond ? A : B: the first ? and its : at depth 0, outside literals */
    const char *ask = NULL, *colon = NULL;
    int depth = 0, pending = 0;
    for (const char *q = p; q < end; q++) {
        if (*q == '"') {
            for (q++; q < end && *q != '"'; q++)
                if (*q == '\\') q++;
        } else if (*q == '(') {
            depth++;
        } else if (*q == ')') {
            depth--;
        } else if (depth == 0 && *q == '?') {
            if (!ask) ask = q;
            else pending++;
        } else if (depth == 0 && *q == ':' && ask) {
            if (pending) pending--;
            else if (!colon) colon = q;
        }
    }
    if (!ask || !colon) return -1;
    if (read_keys(ask + 1, colon, keys, n, max) != 0) return -1;
    return read_keys(colon + 1, end, keys, n, max);
}

/* The line of p in text */
static int line_of(const char *text, const char *p) {
    int line = 1;
    for (const char *q = text; q < p; q++) line += *q == '\n';
    return line;
}

/* The functions that give an error its key, and the index of the key among
** their arguments: base/error.h's, and the helpers that take a key and
** pass it on (their own call inside passes a variable, the parameter
** `key`; the calls of the helper are read instead). A new helper of that
** kind fails the scan ("cannot read the key") until it is listed here. */
static const struct {
    const char *name;
    int key_arg;
    int passes_key; /* a helper: its body passes its parameter `key` on */
} calls[] = {
    {"cerr_addk", 5, 1},  /* its body passes its key to cerr_vaddk */
    {"cerr_vaddk", 5, 0},
    {"cerr_key", 2, 0},
    {"cerr_key4", 2, 0},
    {"path_error", 1, 1}, /* base/statepath.c */
    {"read_fail", 1, 1},  /* sandbox/luaval.c */
    {"lkey", 2, 1},       /* load/yload.c */
    {"c_errk", 2, 1},     /* load/schema.c, a schema file's refusals */
    {"key_error", 2, 1},  /* load/schema.c, a value's refusals */
    {"ask_bad", 2, 1},    /* engine/engine_decisions.c */
    {"CERR_KEY", 0, 0},   /* base/error.h: a key kept in a table or field first */
};

/* 1 when a key argument is a plain expression (a variable, a field, a call)
** and file's text marks its keys with CERR_KEY("..."), each read above */
static int key_marked_in_file(const char *text, const char *a, const char *e) {
    a = skip_space(a, e);
    return a < e && *a != '"' && strstr(text, "CERR_KEY(") != NULL;
}

/* The name of the function whose body holds p: the last line before p that
** starts a definition at the left margin ("static void name(...) {"). */
static void enclosing_function(const char *text, const char *p, char *name, size_t n) {
    name[0] = '\0';
    for (const char *line = text; line < p;) {
        const char *next = strchr(line, '\n');
        if (!next || next > p) next = p;
        const char *paren = memchr(line, '(', (size_t)(next - line));
        if ((isalpha((unsigned char)*line) || *line == '_') && paren && strncmp(line, "typedef", 7) != 0) {
            const char *end = paren, *start = paren;
            while (start > line && (isalnum((unsigned char)start[-1]) || start[-1] == '_')) start--;
            if (end > start) snprintf(name, n, "%.*s", (int)(end - start), start);
        }
        line = next + (next < p);
        if (next == p) break;
    }
}

/* 1 when the call at p passes the parameter `key` of a helper listed in calls[] */
static int helper_passing_key(const char *text, const char *p, const char *a, const char *e) {
    a = skip_space(a, e);
    while (e > a && isspace((unsigned char)e[-1])) e--;
    if (e - a != 3 || strncmp(a, "key", 3) != 0) return 0;
    char name[64];
    enclosing_function(text, p, name, sizeof name);
    for (size_t k = 0; k < sizeof calls / sizeof calls[0]; k++)
        if (calls[k].passes_key && strcmp(calls[k].name, name) == 0) return 1;
    return 0;
}

/* Scans the source text of file (comments blanked first) and counts into c;
** says on stderr what is missing or unreadable. */
static void scan_text(const char *file, char *text, scan_counts *c) {
    blank_comments(text);
    for (size_t k = 0; k < sizeof calls / sizeof calls[0]; k++) {
        size_t len = strlen(calls[k].name);
        for (const char *p = text; (p = strstr(p, calls[k].name)); p += len) {
            /* the whole name, called: not cerr_keyed, not a part of another name */
            if ((p > text && (isalnum((unsigned char)p[-1]) || p[-1] == '_')) ||
                (isalnum((unsigned char)p[len]) || p[len] == '_'))
                continue;
            const char *open = skip_space(p + len, p + len + 64);
            if (*open != '(') continue;
            /* a definition or declaration ("void cerr_key(cerr_list *l, ..."), no call */
            const char *before = p;
            while (before > text && isspace((unsigned char)before[-1])) before--;
            if (before > text && before[-1] == '*') continue; /* "char *name(" */
            /* after a type's name ("void name(", "static int name("), not
            ** after a keyword that a call follows (`return`, `else`, `do`) */
            const char *word = before;
            while (word > text && (isalnum((unsigned char)word[-1]) || word[-1] == '_')) word--;
            size_t wl = (size_t)(before - word);
            int keyword = (wl == 6 && strncmp(word, "return", 6) == 0) || (wl == 4 && strncmp(word, "else", 4) == 0) ||
                          (wl == 2 && strncmp(word, "do", 2) == 0);
            if (wl && !keyword) continue;
            const char *a = open + 1, *e = arg_end(a);
            for (int i = 0; i < calls[k].key_arg && *e == ','; i++) {
                a = e + 1;
                e = arg_end(a);
            }
            c->calls++;
            char keys[8][96];
            size_t n = 0;
            if (*e == ',' && helper_passing_key(text, p, a, e)) continue;
            if (*e == ',' && strcmp(calls[k].name, "CERR_KEY") != 0 && key_marked_in_file(text, a, e)) continue;
            int last = *e == ')' && calls[k].key_arg == 0; /* CERR_KEY's one argument */
            if ((*e != ',' && !last) || read_keys(a, e, keys, &n, 8) != 0) {
                fprintf(stderr, "%s:%d: %s: cannot read the key \"%.*s\"\n", file, line_of(text, p),
                        calls[k].name, (int)(e - a), a);
                c->unreadable++;
                continue;
            }
            for (size_t i = 0; i < n; i++) {
                char entry[sizeof keys[0] + 8];
                snprintf(entry, sizeof entry, "error.%.95s", keys[i]);
                if (!has_entry(entry)) {
                    fprintf(stderr, "%s:%d: the catalogue has no \"%s\"\n", file, line_of(text, p), entry);
                    c->missing++;
                }
            }
        }
    }
}

static char *read_all(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    char *buf = NULL;
    size_t n = 0, cap = 0;
    for (;;) {
        if (n + 4096 + 1 > cap) {
            cap = (n + 4096 + 1) * 2;
            char *more = realloc(buf, cap);
            if (!more) break;
            buf = more;
        }
        size_t k = fread(buf + n, 1, 4096, f);
        n += k;
        if (k == 0) break;
    }
    fclose(f);
    if (buf) buf[n] = '\0';
    return buf;
}

/* Scans every .c file below dir; the number of files. */
static size_t scan_tree(const char *dir, scan_counts *c) {
    DIR *d = opendir(dir);
    if (!d) {
        fprintf(stderr, "cannot open %s (tests run from the repository root)\n", dir);
        return 0;
    }
    size_t files = 0;
    struct dirent *de;
    while ((de = readdir(d))) {
        if (de->d_name[0] == '.') continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
        struct stat st;
        if (stat(path, &st) != 0) continue;
        size_t len = strlen(de->d_name);
        if (S_ISDIR(st.st_mode)) {
            files += scan_tree(path, c);
        } else if (len > 2 && strcmp(de->d_name + len - 2, ".c") == 0) {
            char *text = read_all(path);
            if (!text) {
                fprintf(stderr, "cannot read %s\n", path);
                c->unreadable++;
                continue;
            }
            scan_text(path, text, c);
            free(text);
            files++;
        }
    }
    closedir(d);
    return files;
}

static void test_every_key_has_its_wording(void **state) {
    (void)state;
    scan_counts c = {0};
    size_t files = scan_tree("interpreter", &c);
    /* the interpreter has well over a hundred .c files and, as this test was
    ** written, 100-odd keyed calls: a scan that found few read nothing */
    assert_true(files > 100);
    assert_true(c.calls > 80);
    assert_int_equal(c.unreadable, 0);
    assert_int_equal(c.missing, 0);
}

/* The control: the scan catches a misspelt key (save.no_name is in the
** catalogue, save.no_nmae is not), a key in a variable (unreadable), a
** misspelt key in one branch of a choice, and passes what is right; a
** call in a comment and a definition are no calls. */
static void test_the_scan_catches_a_wrong_key(void **state) {
    (void)state;
    char good[] = "void cerr_key(cerr_list *l, size_t before, const char *key, int e, const char *a, const char *b) {}\n"
                  "/* cerr_addk(errs, NULL, 0, 0, NULL, \"in.a.comment\", \"x\"); */\n"
                  "static void f(cerr_list *errs) {\n"
                  "    cerr_addk(errs, NULL, 0, 0, NULL, \"save.no_name\", \"cannot save: no file name\");\n"
                  "    cerr_key(errs, n, dir ? \"save.over_folder\" : \"save.over_special\", 0, path, NULL);\n"
                  "}\n";
    scan_counts c = {0};
    scan_text("good.c", good, &c);
    assert_int_equal(c.calls, 2);
    assert_int_equal(c.missing, 0);
    assert_int_equal(c.unreadable, 0);

    char typo[] = "else cerr_addk(errs, NULL, 0, 0, NULL, \"save.no_nmae\", \"cannot save: no file name\");\n";
    memset(&c, 0, sizeof c);
    scan_text("typo.c", typo, &c);
    assert_int_equal(c.calls, 1);
    assert_int_equal(c.missing, 1);

    char branch[] = "cerr_key(errs, n, dir ? \"save.over_folder\" : \"save.over_specail\", 0, path, NULL);\n";
    memset(&c, 0, sizeof c);
    scan_text("branch.c", branch, &c);
    assert_int_equal(c.missing, 1);

    char variable[] = "cerr_key4(errs, n, key, a, b, c, d);\n";
    memset(&c, 0, sizeof c);
    scan_text("variable.c", variable, &c);
    assert_int_equal(c.calls, 1);
    assert_int_equal(c.unreadable, 1);

    /* keys kept in a table first: each CERR_KEY literal is read (one misspelt
    ** here), and the call that passes the table's entry on is then taken */
    char marked[] = "static const char *const keys[2] = {CERR_KEY(\"save.no_name\"), CERR_KEY(\"save.no_nmae\")};\n"
                    "cerr_key(errs, n, keys[i], 0, NULL, NULL);\n";
    memset(&c, 0, sizeof c);
    scan_text("marked.c", marked, &c);
    assert_int_equal(c.calls, 3);
    assert_int_equal(c.missing, 1);
    assert_int_equal(c.unreadable, 0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_the_scan_catches_a_wrong_key),
        cmocka_unit_test(test_every_key_has_its_wording),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
