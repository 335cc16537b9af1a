/*
** console_words.h
** The words the console takes as commands while a game is played: an option
** id that starts with one would run the command instead when typed, so
** `cairn check` refuses such ids (testrun.c) and the console tells commands
** from answers (repl_cmd.c) by the same list. A unit test
** (tests/unit/test_console_words.c) checks that it names exactly the
** console's play-mode commands and their aliases.
*/
#ifndef CAIRN_CONSOLE_WORDS_H
#define CAIRN_CONSOLE_WORDS_H

#include <stddef.h>

/* The words, NULL-terminated, in the order `help` lists them. */
extern const char *const console_words[];

/* 1 when word is one of console_words. */
int console_word_is_command(const char *word);

/* 1 if the first word of text (blanks skipped; a word ends at a blank or
** `;`) is one of console_words. */
int console_word_starts(const char *text);

#endif
