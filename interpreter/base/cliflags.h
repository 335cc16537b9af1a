/*
** cliflags.h
** The command line's flags as people type them: one table of flags per
** command, read by one parser (`--games 10`, `--games=10`, `-g 10`, `-g10`,
** `-qc` for two switches, `--` ends the flags), with "did you mean" for a
** mistyped flag. The same tables drive `cairn help`'s check, the shell
** completion (cli_complete.c) and the man page's test.
*/
#ifndef CAIRN_CLIFLAGS_H
#define CAIRN_CLIFLAGS_H

#include <stddef.h>
#include <stdio.h>

/* What a flag's value (or a positional argument) is, for completion. */
typedef enum {
    CLI_TEXT,    /* anything: no completion */
    CLI_FILE,    /* a file path */
    CLI_DIR,     /* a folder */
    CLI_RULESET, /* a ruleset name (cairn list --names) or folder */
    CLI_OPTION,  /* an option id of the ruleset on the line (cairn list --options R) */
    CLI_PRESET,  /* a preset name of the ruleset on the line (cairn list --presets R) */
    CLI_WORDS,   /* one of the words in cli_flag.words */
    CLI_COMMAND, /* a cairn command name */
    CLI_SCHEMA   /* a schema name (cairn schema) or a file */
} cli_kind;

/* One flag: its long name without "--", a one-letter short name (0: none),
** how many values follow it (0, 1 or 2; only the first may be attached
** with '='), how the values are written in a usage line ("N", "A B"), what
** they are, and its meaning in one line. */
typedef struct cli_flag {
    const char *name;
    char short_name;
    int values;
    const char *meta;
    cli_kind kind;
    const char *words; /* CLI_WORDS: the words, space-separated */
    const char *help;
} cli_flag;

/* A command's flags may come from several tables (the ruleset's shared
** flags and the command's own): a list of them. A table's rows are
** cli_flags, or structs whose first member is one (a command keeps what it
** does with each flag beside it: stride is the row's size). */
typedef struct cli_table {
    const void *rows;
    size_t n, stride;
} cli_table;

#define CLI_TABLE(rows) {(rows), sizeof(rows) / sizeof(rows)[0], sizeof(rows)[0]}

/* One command as the completion and the man page's test see it: its flag
** tables (NULL-terminated), what its positional arguments are (CLI_WORDS:
** one of words), and its subcommands (NULL-terminated, each a command of
** its own). */
typedef struct cli_command {
    const char *name;
    const cli_table *const *tables;
    cli_kind args;
    const struct cli_command *const *subcommands;
    const char *words;
} cli_command;

/* The parser's place in argv. argv[0] is the command's name. */
typedef struct cli_parser {
    int argc;
    char **argv;
    const cli_table *const *tables; /* NULL-terminated */
    int i;            /* the argument being read */
    int in_cluster;   /* inside "-qc": the next short flag is argv[i][in_cluster] */
    int flags_done;   /* "--" seen: every argument after is positional */
    char spelled[80]; /* the flag as typed ("-g", "--games"), for messages */
    /* The last error's key for the console's languages (base/error.h:
    ** "cli.unknown_flag" ("--gmaes"), "cli.unknown_flag_suggest" ("--gmaes",
    ** "--games"), "cli.unknown_in_cluster" ("-x", "-qx"),
    ** "cli.takes_no_value" ("--quiet", "yes"), "cli.needs" ("--games",
    ** "N"), "cli.needs_value" ("--games")) and its arguments; NULL when none. */
    const char *why_key;
    char why_args[2][96];
} cli_parser;

/* What one step read: a flag with its values, or a positional argument
** (flag NULL, values[0] the argument). spelled is the flag as typed
** ("--games", "-g"), for messages; it points into argv or the parser. */
typedef struct cli_item {
    const cli_flag *flag;
    const char *values[2];
    const char *spelled;
} cli_item;

void cli_start(cli_parser *p, int argc, char **argv, const cli_table *const *tables);

/* Reads the next item. 1 with *it filled, 0 at the end, -1 with *why
** (malloc'd; NULL when out of memory) saying what was wrong: an unknown
** flag (with the nearest flag of the tables when one is close), a value
** missing, a value given to a switch. */
int cli_next(cli_parser *p, cli_item *it, char **why);

/* 1 when the item is the flag with this long name. */
int cli_is(const cli_item *it, const char *name);

/* Every flag of the tables, in order; NULL past the last. */
const cli_flag *cli_flag_at(const cli_table *const *tables, size_t k);

/* "--games N" (or "--quiet"), the way a usage line writes the flag. */
void cli_flag_usage(FILE *out, const cli_flag *f);

#endif
