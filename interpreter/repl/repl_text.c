/*
** repl_text.c
** Looking a console message up in the game's language (repl_text.h): the
** language's table, else English's, else the key; a plural message's form
** by the language's CLDR category for the count (plural.c), `one` or
** `other` (the languages the console speaks need no more). Before a game
** (the set-up questions of `cairn play` with no ruleset) the language is
** --lang's, else the user's locale's when the console speaks it.
*/
#include "repl_text.h"
#include "repl_session.h"

#include "engine.h"
#include "plural.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

extern const repl_text_entry repl_text_en[], repl_text_de[], repl_text_el[];

const repl_text_lang repl_text_langs[] = {
    {"en", repl_text_en},
    {"de", repl_text_de},
    {"el", repl_text_el},
    {NULL, NULL},
};

static const repl_text_entry *find(const char *lang, const char *key) {
    for (size_t l = 0; lang && repl_text_langs[l].lang; l++) {
        if (strcmp(repl_text_langs[l].lang, lang) != 0) continue;
        for (const repl_text_entry *e = repl_text_langs[l].entries; e->key; e++)
            if (strcmp(e->key, key) == 0) return e;
    }
    return NULL;
}

const char *repl_text_in(const char *lang, const char *key, long long n) {
    const repl_text_entry *e = find(lang, key);
    const char *rule = lang;
    if (!e) {
        e = find("en", key);
        rule = "en";
    }
    if (!e) return key;
    if (!e->other) return e->one;
    return strcmp(plural_category(rule, n), "one") == 0 ? e->one : e->other;
}

const char *repl_locale_lang(void) {
    /* POSIX: the first of these that is set and not empty names the locale */
    const char *names[] = {"LC_ALL", "LC_MESSAGES", "LANG"};
    const char *loc = NULL;
    for (size_t i = 0; i < 3 && !loc; i++) {
        const char *v = getenv(names[i]);
        if (v && *v) loc = v;
    }
    if (!loc) return "en";
    size_t n = strcspn(loc, "_.@");
    for (size_t l = 0; repl_text_langs[l].lang; l++)
        if (strlen(repl_text_langs[l].lang) == n && strncmp(repl_text_langs[l].lang, loc, n) == 0)
            return repl_text_langs[l].lang;
    return "en";
}

const char *repl_lang(const repl *r) {
    if (r->e) return engine_lang(r->e);
    return r->set.lang ? r->set.lang : repl_locale_lang();
}

const char *repl_tr(const repl *r, const char *key) {
    return repl_text_in(repl_lang(r), key, 0);
}

const char *repl_trn(const repl *r, const char *key, long long n) {
    return repl_text_in(repl_lang(r), key, n);
}

const char *repl_decimal(const repl *r, double v, int places, char out[REPL_DECIMAL_MAX]) {
    snprintf(out, REPL_DECIMAL_MAX, "%.*f", places, v);
    const char *point = repl_tr(r, "number.decimal_point");
    char *dot = strchr(out, '.');
    if (dot && point[0] && !point[1]) *dot = point[0]; /* a one-byte point: "," */
    return out;
}

/* a is one of the words (separated by spaces) of list, any case */
static int one_of(const char *a, const char *list) {
    size_t n = strlen(a);
    for (const char *p = list; *p;) {
        size_t w = strcspn(p, " ");
        if (w == n && n && strncasecmp(p, a, n) == 0) return 1;
        p += w;
        p += strspn(p, " ");
    }
    return 0;
}

int repl_is_yes(const repl *r, const char *a) {
    return one_of(a, repl_text_in("en", "answer.yes_words", 0)) || one_of(a, repl_tr(r, "answer.yes_words"));
}

int repl_is_no(const repl *r, const char *a) {
    return one_of(a, repl_text_in("en", "answer.no_words", 0)) || one_of(a, repl_tr(r, "answer.no_words"));
}
