/*
** repl_text.h
** The console's own messages in the game's language: a catalogue of keyed
** format strings per language (repl_text_en.c, repl_text_de.c,
** repl_text_el.c), looked up in the game's language with English as the
** fallback, plural forms chosen by base/plural.c. The tables are the only
** door to the catalogue; a test checks that every language has every key
** with the same conversions as English.
*/
#ifndef CAIRN_REPL_TEXT_H
#define CAIRN_REPL_TEXT_H

#include "error.h"

/* One message: `one` is the text (the singular form of a plural message),
** `other` the plural form, or NULL for a message that counts nothing. */
typedef struct repl_text_entry {
    const char *key;
    const char *one;
    const char *other;
} repl_text_entry;

/* One language's table, ended by an entry whose key is NULL. */
typedef struct repl_text_lang {
    const char *lang;
    const repl_text_entry *entries;
} repl_text_lang;

/* Every language the console speaks, English first; ended by {NULL, NULL}. */
extern const repl_text_lang repl_text_langs[];

/* The message `key` in lang (English when lang has none, the key itself
** when no language has it); for a plural message, the form for n. */
const char *repl_text_in(const char *lang, const char *key, long long n);

/* The language of the user's locale (LC_ALL, else LC_MESSAGES, else LANG:
** "de_DE.UTF-8" is "de") when the console speaks it, else "en". */
const char *repl_locale_lang(void);

/* An error of a layer below (base/error.h) in lang (repl_error_text.c):
** its catalogue entry "error.KEY" with its arguments and errno's reason
** ("sys.*") when it has a key and lang is a language the console speaks
** other than English; else its English message. repl_error_text_in: the
** whole line as cerr_format writes it ("file:line: path: message").
** malloc'd; NULL on OOM. */
char *repl_error_message_in(const char *lang, const cairn_error *e);

/* The command line parser's error (cli_next's why, cliflags.h) in lang by
** its key, or NULL (then why stands, English). malloc'd. For the usage
** errors of cairn play, replay and check. */
struct cli_parser;
char *repl_cli_error_in(const char *lang, const struct cli_parser *p, const char *why);
char *repl_error_text_in(const char *lang, const cairn_error *e);
/* Every error of errs to out, one a line, each as repl_error_text_in words
** it, then "(N more errors not shown)" in lang when some were dropped. */
void repl_print_errors_in(const char *lang, FILE *out, const cerr_list *errs);

#endif
