/*
** main.c
** The cairn command line: parses the command and its flags and hands over
** to the module that does the work. Every command is listed in the table
** below; `cairn help CMD` prints its entry.
*/
#include "termsafe.h"
#include "check.h"
#include "cli_complete.h"
#include "cliflags.h"
#include "engine.h"
#include "error.h"
#include "limits.h"
#include "help_wrap.h"
#include "markup.h"
#include "load_cache.h"
#include "repl.h"
#include "repl_text.h"
#include "ruleset.h"
#include "scaffold.h"
#include "schema_cmd.h"
#include "sim.h"
#include "suggest.h"
#include "testrun.h"
#include "unread.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#if !defined(CAIRN_VERSION)
#define CAIRN_VERSION "0.0.0"
#endif

/* Exit codes, documented in docs/cli.md. */
enum { EXIT_OK = 0, EXIT_RULES = 1, EXIT_USAGE = 2 };

/* A command: what runs it, its help, and its flags and arguments as the
** parser, the completion and the man page's test read them (cliflags.h). */
typedef struct command {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *usage;
    const char *summary;
    const char *help;
    const cli_table *const *flags; /* NULL-terminated; NULL: none */
    cli_kind args;                 /* what its positional arguments are */
    const cli_command *const *subcommands;
    const char *words; /* args CLI_WORDS: the words */
} command;

static int cmd_check(int argc, char **argv);
static int cmd_help(int argc, char **argv);
static int cmd_version(int argc, char **argv);
static int cmd_list(int argc, char **argv);
static int cmd_test(int argc, char **argv) { return testrun_command(argc, argv); }
static int cmd_completion(int argc, char **argv);

/* check's own flags; it reads the ruleset's shared ones too */
static const cli_flag check_rows[] = {
    {"games", 'g', 1, "N", CLI_TEXT, NULL, "smoke games per seat count and combination (default 3; 0 skips)"},
    {"cover", 0, 1, "all|each", CLI_WORDS, "all each", "every combination (all) or every value once (each)"},
    {"debug", 0, 0, "", CLI_TEXT, NULL, "print the rules' g.debug(...) and print(...) lines"},
    {"unread", 0, 0, "", CLI_TEXT, NULL, "list the data values no rule read (file:line:column)"},
    {"lang", 0, 1, "CODE", CLI_TEXT, NULL, "language of all it prints (default: the locale's, else English)"},
};
static const cli_table check_table = CLI_TABLE(check_rows);
static const cli_table *const check_flags[] = {&ruleset_flag_table, &ruleset_set_flag_table, &check_table, NULL};

/* list's flags: the words the shell completion asks for */
static const cli_flag list_rows[] = {
    {"names", 0, 0, "", CLI_TEXT, NULL, "only the rulesets' names, one a line"},
    {"options", 0, 1, "RULESET", CLI_RULESET, NULL, "the ruleset's option ids (ID and ID=ITEM), one a line"},
    {"presets", 0, 1, "RULESET", CLI_RULESET, NULL, "the ruleset's preset names, one a line"},
};
static const cli_table list_table = CLI_TABLE(list_rows);
static const cli_table *const list_flags[] = {&list_table, NULL};

static const cli_command sim_merge_command = {"merge", sim_merge_flag_tables, CLI_FILE, NULL, NULL};
static const cli_command *const sim_subcommands[] = {&sim_merge_command, NULL};

static const command commands[] = {
    {"play", repl_play_main, REPL_PLAY_USAGE, REPL_PLAY_SUMMARY, REPL_PLAY_HELP, repl_play_flag_tables, CLI_RULESET, NULL, NULL},
    {"serve", repl_serve_main, REPL_SERVE_USAGE, REPL_SERVE_SUMMARY, REPL_SERVE_HELP, repl_serve_flag_tables, CLI_RULESET, NULL, NULL},
    {"replay", repl_replay_main, REPL_REPLAY_USAGE, REPL_REPLAY_SUMMARY, REPL_REPLAY_HELP, repl_replay_flag_tables, CLI_FILE, NULL, NULL},
    {"check", cmd_check,
     "cairn check RULESET [--option ID[=VALUE]]... [--preset NAME] [--players N] [--games N]\n"
     "                   [--set DATA.PATH=VALUE]... [--cover all|each] [--unread] [--debug]\n"
     "                   [--lang CODE]",
     "load, resolve and validate a ruleset, then smoke-play it",
     "Loads the ruleset (a name found along the search path, or a folder), follows\n"
     "`extends`, applies the chosen options' overlays and validates every data file\n"
     "against its schema. Then, whatever the defaults, it loads every value of\n"
     "every option (its overlay merged and validated, its scripts found) and\n"
     "compiles every Lua script without running it. Then it smoke-plays N seeded\n"
     "random games (--games N, default 3; 0 skips it) for every seat count and\n"
     "every combination of options the manifest allows, checking the state schema\n"
     "and the ruleset's invariants after every decision; the first failure is\n"
     "reported with its seed and decision index. --cover each plays only the\n"
     "pairs of seat count and combination that bring a seat count or an option\n"
     "value no earlier one played (every one at least once: a quick run).\n"
     "--set DATA.PATH=VALUE overrides one data value (scoring.bonus=4) for the\n"
     "whole check, after the overlays and before validation, as `cairn sim --set`.\n"
     "--unread lists, as errors at their file:line:column, the data values no rule\n"
     "read in any smoke game (a read by a stdlib function, or a pairs loop over the\n"
     "table holding it, counts; a value of an option's overlay counts when a game\n"
     "with that option read it): a value a modder can edit that changes nothing.\n"
     "--debug prints the rules' g.debug(...) and print(...) lines on stdout as the\n"
     "games run (`debug rules.lua:12: text`); without it they are dropped.\n"
     "Errors are printed with file:line:column. All check prints (errors, notes,\n"
     "the smoke line, the verdict, usage errors) is worded in --lang's language,\n"
     "else the locale's (LC_ALL, LC_MESSAGES, LANG) when cairn speaks it, else\n"
     "English; the rules' own Lua messages stay as Lua and the ruleset wrote them.\n"
     "The last line is the verdict:\n"
     "`ok` with a one-line summary only when everything passed, else the count\n"
     "of errors.\n"
     "Exit status: 0 ok, 1 ruleset errors (or a failed smoke game), 2 usage error.\n",
     check_flags, CLI_RULESET, NULL, NULL},
    {"test", cmd_test, "cairn test RULESET [--regen] [--verbose] [--debug]",
     "run a ruleset's own tests: generated files, Lua unit tests, scenarios, golden games",
     "Runs the ruleset's generators (`generate:` in the manifest; each file they make\n"
     "must match the one on disk), its Lua unit tests (`unit:`, in the sandbox with\n"
     "the data cairn loads), its scenario tests (`tests:`), and compares each golden\n"
     "playthrough (`golden:`) with a fresh seeded game. --regen rewrites the generated\n"
     "and golden files instead (review the diff); it writes only inside the ruleset's\n"
     "own folder, never a parent's. A mod runs its parent's tests only with\n"
     "`inherit: [tests, golden, unit]`. Formats: docs/testing.md.\n"
     "--debug prints the rules' g.debug(...) and print(...) lines on stdout,\n"
     "interleaved with the report; they are never part of a golden file.\n"
     "Exit status: 0 all passed, 1 a test failed or the ruleset has errors, 2 usage.\n",
     testrun_flag_tables, CLI_RULESET, NULL, NULL},
    {"sim", sim_command, SIM_USAGE, SIM_SUMMARY, SIM_HELP, sim_flag_tables, CLI_RULESET, sim_subcommands, NULL},
    {"new", scaffold_command, SCAFFOLD_USAGE, SCAFFOLD_SUMMARY, SCAFFOLD_HELP, scaffold_flag_tables, CLI_TEXT, NULL, NULL},
    {"schema", schema_cmd_main, SCHEMA_CMD_USAGE, SCHEMA_CMD_SUMMARY, SCHEMA_CMD_HELP, NULL, CLI_SCHEMA, NULL, NULL},
    {"list", cmd_list, "cairn list [--names] [--options RULESET] [--presets RULESET]",
     "list the rulesets found along the search path",
     "Prints every ruleset found in ./rulesets, the installed share folder and\n"
     "the folders of CAIRN_PATH (colon-separated), with its name and seat counts.\n"
     "--names prints only the names, --options RULESET the ruleset's option ids\n"
     "(a switch as ID, a choice as ID=ITEM for each item) and --presets RULESET\n"
     "its preset names, one a line: what the shell completion reads.\n",
     list_flags, CLI_TEXT, NULL, NULL},
    {"completion", cmd_completion, "cairn completion bash|zsh|flags",
     "print the shell completion script for bash or zsh",
     "Prints a completion script made from cairn's own tables of commands and\n"
     "flags; it completes commands, flags, ruleset names, option ids and preset\n"
     "names (asking `cairn list`). `make install` installs both. Load one by hand:\n"
     "  source <(cairn completion bash)\n"
     "`cairn completion flags` prints the tables, one flag a line (COMMAND, the\n"
     "flag, its short form or -, its values), for tests and tools.\n",
     NULL, CLI_WORDS, NULL, "bash zsh flags"},
    {"help", cmd_help, "cairn help [COMMAND]", "show the commands, or one command in detail", "", NULL,
     CLI_COMMAND, NULL, NULL},
    {"version", cmd_version, "cairn --version", "print cairn's version", "", NULL, CLI_TEXT, NULL, NULL},
};

#define N_COMMANDS (sizeof commands / sizeof commands[0])

static const command *find_command(const char *name) {
    for (size_t i = 0; i < N_COMMANDS; i++)
        if (strcmp(commands[i].name, name) == 0) return &commands[i];
    return NULL;
}

/* "did you mean play?" for a mistyped command, else where the commands are */
static const char *nearest_command(const char *name, char *buf, size_t size) {
    suggest_nearest s = suggest_start(name, 2, 1);
    for (size_t i = 0; i < N_COMMANDS; i++) suggest_try(&s, commands[i].name);
    if (!s.best) return "`cairn help` lists them";
    snprintf(buf, size, "did you mean %s?", s.best);
    return buf;
}

static void print_overview(FILE *out) {
    fprintf(out, "cairn %s: a rules-as-data board-game interpreter\n\n", CAIRN_VERSION);
    fprintf(out, "usage: cairn COMMAND [ARGS]\n\ncommands:\n");
    int width = 0; /* the longest name's: every summary starts in one column */
    for (size_t i = 0; i < N_COMMANDS; i++)
        if ((int)strlen(commands[i].name) > width) width = (int)strlen(commands[i].name);
    for (size_t i = 0; i < N_COMMANDS; i++) {
        /* a long summary goes on under itself, within 80 columns */
        char *line = cairn_strfmt("  %-*s  %s", width, commands[i].name, commands[i].summary);
        char *wrapped = line ? markup_wrap(line, 80, width + 4) : NULL;
        fprintf(out, "%s\n", wrapped ? wrapped : line ? line : commands[i].name);
        free(wrapped);
        free(line);
    }
    fprintf(out, "\n`cairn help COMMAND` explains one command. Docs: docs/ (README.md first).\n");
}

static int usage_error(const command *c, const char *fmt, const char *arg) {
    fprintf(stderr, "cairn %s: ", c->name);
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\nusage: %s\n", c->usage);
    return EXIT_USAGE;
}

/* A usage error of `cairn check` in lang (the catalogue's `key`, one %s
** for arg, as cairn play's; "usage.plain" passes a text through), then the
** usage line. The other commands' usage errors are English (usage_error). */
static int usage_error_in(const command *c, const char *lang, const char *key, const char *arg) {
    fprintf(stderr, "cairn %s: ", c->name);
    fprintf(stderr, repl_text_in(lang, key, 0), arg);
    fputc('\n', stderr);
    fprintf(stderr, repl_text_in(lang, "usage.line", 0), c->usage);
    fputc('\n', stderr);
    return EXIT_USAGE;
}

/* ------------------------------------------------------------- commands */

static int cmd_help(int argc, char **argv) {
    if (argc < 2) {
        print_overview(stdout);
        return EXIT_OK;
    }
    const command *c = find_command(argv[1]);
    if (!c) {
        char hint[64];
        fprintf(stderr, "cairn help: no command \"%s\"; %s\n", argv[1],
                nearest_command(argv[1], hint, sizeof hint));
        return EXIT_USAGE;
    }
    /* written for a wide terminal: fitted to this one (help_wrap.c), the
    ** summary a paragraph of its own */
    int width = markup_term_width(STDOUT_FILENO);
    char *usage = cairn_strfmt("usage: %s", c->usage);
    char *fitted_usage = usage ? help_wrap(usage, width) : NULL;
    char *summary = markup_wrap(c->summary, width, 0);
    char *body = help_wrap(c->help, width);
    if (!fitted_usage || !summary || !body) {
        free(usage);
        free(fitted_usage);
        free(summary);
        free(body);
        fprintf(stderr, "cairn help: out of memory\n");
        return EXIT_RULES;
    }
    printf("%s\n\n%s\n%s", fitted_usage, summary, body);
    free(usage);
    free(fitted_usage);
    free(summary);
    free(body);
    return EXIT_OK;
}

static int cmd_version(int argc, char **argv) {
    (void)argc;
    (void)argv;
    printf("cairn %s\n", CAIRN_VERSION);
    return EXIT_OK;
}

/* Reads a command's flags and arguments with the one parser; each item goes
** to take(ctx, item), which returns 0 or prints its error and returns
** EXIT_USAGE. Returns 0 or EXIT_USAGE. lang_at, when not NULL, is where
** the command keeps its --lang so far (NULL there: the locale's): the
** parser's errors are worded in that language (cairn check); else English. */
static int read_flags(const command *c, int argc, char **argv, int (*take)(void *ctx, const cli_item *it),
                      void *ctx, const char *const *lang_at) {
    cli_parser p;
    cli_item it;
    char *why;
    int got;
    cli_start(&p, argc, argv, c->flags);
    while ((got = cli_next(&p, &it, &why)) > 0) {
        int rc = take(ctx, &it);
        if (rc) return rc;
    }
    if (got < 0) {
        if (lang_at) {
            const char *lang = *lang_at ? *lang_at : repl_locale_lang();
            char *worded = repl_cli_error_in(lang, &p, why);
            usage_error_in(c, lang, "usage.plain",
                           worded ? worded : why ? why : repl_text_in(lang, "error.oom", 0));
            free(worded);
        } else {
            usage_error(c, "%s", why ? why : "out of memory");
        }
        free(why);
        return EXIT_USAGE;
    }
    return 0;
}

typedef struct list_args {
    int names;
    const char *options, *presets;
} list_args;

static int take_list(void *ctx, const cli_item *it) {
    list_args *a = ctx;
    if (cli_is(it, "names")) a->names = 1;
    else if (cli_is(it, "options")) a->options = it->values[0];
    else if (cli_is(it, "presets")) a->presets = it->values[0];
    else return usage_error(find_command("list"), "takes no arguments, got \"%s\"", it->values[0]);
    return 0;
}

/* list --options/--presets RULESET: its ids, one a line (errors: exit 1) */
static int list_ids(const char *name, int presets) {
    cerr_list errs;
    cerr_init(&errs, 0);
    ruleset *r = ruleset_load(name, NULL, &errs);
    if (!r) {
        cerr_print(stderr, &errs);
        cerr_free(&errs);
        return EXIT_RULES;
    }
    if (presets) {
        const value *ps = value_map_get(r->manifest, "presets");
        for (size_t i = 0; ps && ps->type == CV_LIST && i < ps->u.list.n; i++)
            printf("%s\n", value_get_str(ps->u.list.items[i], "id", "?"));
    } else {
        for (size_t i = 0; i < r->n_opts; i++) {
            const value *items = value_map_get(r->opts[i].def, "items");
            if (r->opts[i].type == ROPT_SWITCH || !items || items->type != CV_LIST) {
                printf("%s\n", r->opts[i].id);
                continue;
            }
            for (size_t k = 0; k < items->u.list.n; k++)
                printf("%s=%s\n", r->opts[i].id, value_get_str(items->u.list.items[k], "id", "?"));
        }
    }
    ruleset_free(r);
    cerr_free(&errs);
    return EXIT_OK;
}

static int cmd_list(int argc, char **argv) {
    list_args a = {0, NULL, NULL};
    if (read_flags(find_command("list"), argc, argv, take_list, &a, NULL)) return EXIT_USAGE;
    if (a.options) return list_ids(a.options, 0);
    if (a.presets) return list_ids(a.presets, 1);
    size_t n;
    char **names = ruleset_list(&n);
    for (size_t i = 0; i < n; i++) {
        if (a.names) {
            printf("%s\n", names[i]);
            continue;
        }
        cerr_list errs;
        cerr_init(&errs, 0);
        ruleset *r = ruleset_load(names[i], NULL, &errs);
        if (r) {
            char players[32];
            ruleset_players_text(r, players, sizeof players);
            printf("%-12s %s (%s)\n", names[i], r->name, players);
        } else
            printf("%-12s (has errors: `cairn check %s`)\n", names[i], names[i]);
        ruleset_free(r);
        cerr_free(&errs);
    }
    ruleset_list_free(names, n);
    return EXIT_OK;
}

/* The commands as cli_complete.c reads them (the table above, less what
** only main needs). */
static int cmd_completion(int argc, char **argv) {
    const command *c = find_command("completion");
    if (argc != 2) return usage_error(c, "which shell: bash or zsh?%s", "");
    cli_command cmds[N_COMMANDS];
    for (size_t i = 0; i < N_COMMANDS; i++) {
        cli_command k = {commands[i].name, commands[i].flags, commands[i].args, commands[i].subcommands,
                         commands[i].words};
        cmds[i] = k;
    }
    if (strcmp(argv[1], "bash") == 0) return cli_complete_bash(stdout, cmds, N_COMMANDS), EXIT_OK;
    if (strcmp(argv[1], "zsh") == 0) return cli_complete_zsh(stdout, cmds, N_COMMANDS), EXIT_OK;
    if (strcmp(argv[1], "flags") == 0) return cli_complete_flags(stdout, cmds, N_COMMANDS), EXIT_OK;
    return usage_error(c, "knows bash, zsh and flags, not \"%s\"", argv[1]);
}

/* Collects --option/--preset/--players for commands that load a ruleset.
** Returns 0, or -1 after a usage error has been printed. */
typedef struct ruleset_args {
    const command *c;
    const char *ruleset;
    ruleset_flags flags;
    int games; /* smoke games for check; -1: not given */
    int cover_each; /* check --cover each: every seat count and option value once, not every pair */
    int debug; /* check --debug: the rules' g.debug lines on stdout */
    int unread; /* check --unread: list the data values no smoke game's rules read */
    const char *lang; /* check --lang: the errors' language; NULL: the locale's */
} ruleset_args;

/* The language of check's usage errors: --lang's when it came before,
** else the locale's (repl_text.h), as cairn play's. */
static const char *check_usage_lang(const ruleset_args *a) {
    return a->lang ? a->lang : repl_locale_lang();
}

static int take_check(void *ctx, const cli_item *it) {
    ruleset_args *a = ctx;
    cerr_list errs;
    cerr_init(&errs, 0);
    int taken = ruleset_flags_apply(&a->flags, it, &errs);
    if (taken < 0) {
        const char *lang = check_usage_lang(a);
        char *why = errs.n ? repl_error_message_in(lang, &errs.items[0]) : NULL;
        usage_error_in(a->c, lang, "usage.plain", why ? why : repl_text_in(lang, "error.oom", 0));
        free(why);
        cerr_free(&errs);
        return EXIT_USAGE;
    }
    cerr_free(&errs);
    if (taken) return 0;
    const char *v = it->values[0];
    if (cli_is(it, "debug")) {
        a->debug = 1;
    } else if (cli_is(it, "unread")) {
        a->unread = 1;
    } else if (cli_is(it, "lang")) {
        a->lang = v;
    } else if (cli_is(it, "games")) {
        char *end;
        long n = strtol(v, &end, 10);
        if (!v[0] || *end || n < 0 || n > 10000) return usage_error_in(a->c, check_usage_lang(a), "usage.games", v);
        a->games = (int)n;
    } else if (cli_is(it, "cover")) {
        if (strcmp(v, "all") != 0 && strcmp(v, "each") != 0)
            return usage_error_in(a->c, check_usage_lang(a), "usage.cover", "");
        a->cover_each = strcmp(v, "each") == 0;
    } else if (!a->ruleset) {
        a->ruleset = v;
    } else {
        return usage_error_in(a->c, check_usage_lang(a), "usage.one_ruleset", v);
    }
    return 0;
}

static int parse_ruleset_args(const command *c, int argc, char **argv, ruleset_args *a) {
    memset(a, 0, sizeof *a);
    a->c = c;
    a->games = -1;
    if (ruleset_flags_init(&a->flags, argc) != 0) return -1;
    if (read_flags(c, argc, argv, take_check, a, &a->lang)) return -1;
    if (!a->ruleset) return usage_error_in(c, check_usage_lang(a), "usage.which_ruleset", ""), -1;
    return 0;
}

/* "expansion, length=long" for the options in effect; "none" in lang if
** none. */
static char *options_text(const ruleset *r, const char *lang) {
    char *s = cairn_strdup("");
    for (size_t i = 0; s && i < r->options->u.map.n; i++) {
        const cv_entry *e = &r->options->u.map.items[i];
        char *t = NULL;
        if (e->val->type == CV_BOOL && e->val->u.b)
            t = cairn_strfmt("%s%s%s", s, s[0] ? ", " : "", e->key->u.str.s);
        else if (e->val->type == CV_STR)
            t = cairn_strfmt("%s%s%s=%s", s, s[0] ? ", " : "", e->key->u.str.s, e->val->u.str.s);
        else
            continue;
        free(s);
        s = t;
    }
    if (s && !s[0]) {
        free(s);
        s = cairn_strdup(repl_text_in(lang, "check.options_none", 0));
    }
    return s;
}

/* The errors, each in lang (the console's catalogue, repl_text.h: a keyed
** error in its words, any other in English), then the closing line of a
** failed check, always the last line printed. */
static int check_failed(const char *ruleset, const char *lang, cerr_list *errs) {
    fflush(stdout);
    repl_print_errors_in(lang, stderr, errs);
    if (errs->oom) {
        fputs(repl_text_in(lang, "check.errors_lost", 0), stderr);
        fputc('\n', stderr);
    }
    size_t n = cerr_count(errs);
    if (!n) n = 1; /* failed for lack of memory with none recorded */
    fprintf(stderr, repl_text_in(lang, "check.errors", (long long)n), ruleset, n);
    fputc('\n', stderr);
    return EXIT_RULES;
}

/* A line of check's verdict: as it is to a file or a pipe, wrapped at the
** terminal's width on a terminal, its continuation indented by 2 (the smoke
** line lists every reason a combination was skipped: Himalaya's was 360
** columns). */
static void print_line_fitted(const char *line) {
    markup_print_fitted(stdout, line, markup_tty_width(STDOUT_FILENO));
    fputc('\n', stdout);
}

/* check's notes (check.h) on stdout in lang, each "note: " and its words
** (a keyed note in the catalogue's, else its English message); then the
** list is emptied. */
static void print_notes(cerr_list *notes, const char *lang) {
    for (size_t i = 0; i < notes->n; i++) {
        char *m = repl_error_message_in(lang, &notes->items[i]);
        char *line = cairn_strfmt(repl_text_in(lang, "check.note", 0), m ? m : notes->items[i].message);
        print_line_fitted(line ? line : repl_text_in(lang, "error.oom", 0));
        free(line);
        free(m);
    }
    cerr_clear(notes);
}

/* The smoke games' summary line in lang: games played, option
** combinations, and every reason a combination was not played. */
static void smoke_line(const testrun_tally *t, const char *lang) {
    markup_buf b = {0};
    markup_buf_printf(&b, repl_text_in(lang, "check.smoke.games", t->played), t->played);
    markup_buf_printf(&b, repl_text_in(lang, "check.smoke.combos", t->combos), t->combos);
    if (t->skipped) {
        markup_buf_printf(&b, repl_text_in(lang, "check.smoke.skipped", t->skipped), t->skipped);
        /* each reason is the manifest's error, in lang where the catalogue
        ** words it, and its count */
        for (int i = 0; i < TESTRUN_MAX_REASONS && t->reason[i]; i++) {
            char *said = (size_t)i < t->why.n ? repl_error_message_in(lang, &t->why.items[i]) : NULL;
            markup_buf_printf(&b, "%s%s (%ld)", i ? repl_text_in(lang, "list.sep", 0) : " ",
                              said ? said : t->reason[i], t->reason_count[i]);
            free(said);
        }
        if (t->other_reasons)
            markup_buf_printf(&b, repl_text_in(lang, "check.smoke.other", t->other_reasons), t->other_reasons);
    }
    if (t->capped)
        markup_buf_printf(&b, repl_text_in(lang, "check.smoke.capped", t->capped), t->capped,
                          CAIRN_SMOKE_MAX_COMBINATIONS);
    if (t->thinned) markup_buf_printf(&b, repl_text_in(lang, "check.smoke.thinned", t->thinned), t->thinned);
    markup_buf_puts(&b, ")");
    char *line = markup_buf_take(&b);
    print_line_fitted(line ? line : repl_text_in(lang, "error.oom", 0));
    free(line);
}

/* The verdict of a check that passed, in lang: the ruleset, its files and
** data tables, the options in effect and the fingerprint. */
static void check_ok_line(const ruleset *r, const char *lang) {
    char *opts = options_text(r, lang);
    char *files = cairn_strfmt(repl_text_in(lang, "check.ok.files", (long long)r->n_files), r->n_files);
    size_t n_tables = value_len(r->data);
    char *tables = cairn_strfmt(repl_text_in(lang, "check.ok.tables", (long long)n_tables), n_tables);
    char *line = cairn_strfmt(repl_text_in(lang, "check.ok", 0), r->id, r->version, files ? files : "?",
                              tables ? tables : "?", opts ? opts : "?", r->fingerprint);
    print_line_fitted(line ? line : repl_text_in(lang, "error.oom", 0));
    free(line);
    free(files);
    free(tables);
    free(opts);
}

static int cmd_check(int argc, char **argv) {
    const command *c = find_command("check");
    ruleset_args a;
    if (parse_ruleset_args(c, argc, argv, &a) != 0) {
        ruleset_flags_free(&a.flags);
        return EXIT_USAGE;
    }
    /* the errors' language: --lang's, else the locale's (as cairn play's
    ** set-up), else English */
    const char *lang = a.lang ? a.lang : repl_locale_lang();
    ruleset_request req = ruleset_flags_request(&a.flags);
    cerr_list errs;
    cerr_init(&errs, 0);
    /* check loads the ruleset once as asked, then once per option value:
    ** the loads share their parsed files and schemas (NULL: not shared) */
    load_cache *cache = load_cache_new();
    int refused;
    ruleset *r = ruleset_load_cached(a.ruleset, &req, cache, &refused, &errs);
    testrun_opts topts = {req.sets, req.n_sets, a.debug ? stdout : NULL, NULL};
    testrun_configure(&topts); /* the smoke games get --set and --debug too */
    int rc = EXIT_OK;
    if (!r) {
        rc = check_failed(a.ruleset, lang, &errs);
        load_cache_free(cache);
        cerr_free(&errs);
        ruleset_flags_free(&a.flags);
        return rc;
    }
    /* everything that can be checked without playing, whatever the
    ** defaults: each option value's overlay and scripts, every script's
    ** syntax; a syntax error is a ruleset error, never a smoke game's */
    cerr_list notes; /* check's notes (check.h), each printed in lang */
    cerr_init(&notes, 0);
    check_option_values(a.ruleset, r, cache, &notes, &errs);
    print_notes(&notes, lang);
    load_cache_free(cache);
    /* sandboxes load the scripts after it when smoke play or the data check follow */
    int data_check = engine_may_check_data(r);
    check_compile_scripts(r, a.games != 0 || data_check, &errs);
    /* the ruleset's own data checks (check_data), at the data's lines */
    if (cerr_count(&errs) == 0 && data_check) {
        engine_config ec = {.ruleset = a.ruleset, .choices = req.choices, .n_choices = req.n_choices,
                            .preset = req.preset, .players = req.players, .sets = req.sets,
                            .n_sets = req.n_sets};
        engine_check_loaded_data(r, &ec, &errs); /* on r: not loaded again */
    }
    /* smoke play covers every seat count and option combination, the one
    ** asked about included */
    unread_set *unread = a.unread ? unread_new() : NULL;
    if (a.unread && !unread) errs.oom = 1;
    if (cerr_count(&errs) == 0 && !errs.oom && a.games != 0) {
        testrun_tally tally;
        memset(&tally, 0, sizeof tally);
        testrun_smoke_reads(a.ruleset, a.games < 0 ? 0 : a.games, a.cover_each, &tally, unread, &errs);
        if (tally.combos) smoke_line(&tally, lang); /* 0: it stopped before playing (its errors say why) */
        testrun_tally_free(&tally);
    }
    if (unread && cerr_count(&errs) == 0 && a.games != 0) {
        /* the ruleset's own scenario tests and golden games reach what random
        ** play rarely does (the last space of a track, an empty deck): their
        ** reads count too; their verdicts are cairn test's, not check's */
        topts.unread = unread;
        testrun_configure(&topts);
        FILE *quiet = fopen("/dev/null", "w");
        cerr_list test_errs;
        cerr_init(&test_errs, 0);
        if (quiet) testrun_ruleset(a.ruleset, 0, 0, quiet, &test_errs);
        cerr_free(&test_errs);
        if (quiet) fclose(quiet);
        topts.unread = NULL;
        testrun_configure(&topts);
        unread_add_errors(unread, &errs);
    }
    unread_free(unread);
    if (cerr_count(&errs) || errs.oom) {
        rc = check_failed(a.ruleset, lang, &errs);
    } else {
        check_note_tests(r, &notes);
        check_note_texts(r, &notes); /* check_text.c */
        print_notes(&notes, lang);
        check_ok_line(r, lang);
    }
    ruleset_free(r);
    cerr_free(&notes);
    cerr_free(&errs);
    ruleset_flags_free(&a.flags); /* after the games: req and they borrowed its strings */
    return rc;
}

/* ----------------------------------------------------------------- main */

int main(int argc, char **argv) {
    /* every byte cairn writes to the terminal is made safe (termsafe.c) */
    if (termsafe_install() != 0) {
        fprintf(stderr, "cairn: cannot set up the output streams\n");
        return EXIT_FAILURE;
    }
    if (argc < 2) {
        print_overview(stderr);
        return EXIT_USAGE;
    }
    const char *name = argv[1];
    if (strcmp(name, "--help") == 0 || strcmp(name, "-h") == 0) name = "help";
    if (strcmp(name, "--version") == 0 || strcmp(name, "-v") == 0) name = "version";
    const command *c = find_command(name);
    if (!c) {
        char hint[64];
        fprintf(stderr, "cairn: no command \"%s\"; %s\n", argv[1],
                nearest_command(argv[1], hint, sizeof hint));
        return EXIT_USAGE;
    }
    if (argc > 2 && (strcmp(argv[2], "--help") == 0 || strcmp(argv[2], "-h") == 0)) {
        char *args[] = {(char *)"help", (char *)c->name, NULL};
        return cmd_help(2, args);
    }
    return c->run(argc - 1, argv + 1);
}
