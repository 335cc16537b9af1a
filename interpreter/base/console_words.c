/*
** console_words.c
** The console's play-mode command words (console_words.h), kept below the
** console and the developer commands so that both read one list.
*/
#include "console_words.h"

#include <string.h>

/* Names and aliases of every command that works while a game is played
** (repl_cmd.c's table, IN_PLAY or IN_BOTH). */
const char *const console_words[] = {
    "help", "show", "board", "look", "view", "seat", "state", "eval", "set", "log", "score", "rules",
    "options", "history", "undo", "redo", "goto", "save", "load", "export", "option", "debug",
    "trace", "reload", "bot", "why", "human", "run", "auto", "new", "restart", "seed", "shell", "!",
    "links", "quit", "exit", NULL,
};

int console_word_is_command(const char *word) {
    for (size_t i = 0; console_words[i]; i++)
        if (strcmp(console_words[i], word) == 0) return 1;
    return 0;
}

int console_word_starts(const char *text) {
    while (*text == ' ' || *text == '\t') text++;
    char word[64];
    size_t n = strcspn(text, " \t;");
    if (n == 0 || n >= sizeof word) return 0;
    memcpy(word, text, n);
    word[n] = '\0';
    return console_word_is_command(word);
}
