/*
** main.c
** The cairn command line: parses the command and its flags and hands over
** to the module that does the work. Every command is listed in the table
** below; `cairn help CMD` prints its entry.
*/
#include "termsafe.h"
#include "check.h"
#include "engine.h"
#include "error.h"
#include "load_cache.h"
#include "repl.h"
#include "ruleset.h"
#include "scaffold.h"
#include "schema_cmd.h"
#include "sim.h"
#include "testrun.h"
#include "unread.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if !defined(CAIRN_VERSION)
#define CAIRN_VERSION "0.0.0"
#endif

/* Exit codes, documented in docs/cli.md. */
enum { EXIT_OK = 0, EXIT_RULES = 1, EXIT_USAGE = 2 };

typedef struct command {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *usage;
    const char *summary;
    const char *help;
} command;

static int cmd_check(int argc, char **argv);
static int cmd_help(int argc, char **argv);
static int cmd_version(int argc, char **argv);
static int cmd_list(int argc, char **argv);
static int cmd_test(int argc, char **argv) { return testrun_command(argc, argv); }

static const command commands[] = {
    {"play", repl_play_main, REPL_PLAY_USAGE, REPL_PLAY_SUMMARY, REPL_PLAY_HELP},
    {"replay", repl_replay_main, REPL_REPLAY_USAGE, REPL_REPLAY_SUMMARY, REPL_REPLAY_HELP},
    {"check", cmd_check,
     "cairn check RULESET [--option ID[=VALUE]]... [--preset NAME] [--players N] [--games N]\n"
     "                   [--set DATA.PATH=VALUE]... [--cover all|each] [--unread] [--debug]",
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
     "Errors are printed with file:line:column. The last line is the verdict:\n"
     "`ok` with a one-line summary only when everything passed, else the count\n"
     "of errors.\n"
     "Exit status: 0 ok, 1 ruleset errors (or a failed smoke game), 2 usage error.\n"},
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
     "Exit status: 0 all passed, 1 a test failed or the ruleset has errors, 2 usage.\n"},
    {"sim", sim_command, SIM_USAGE, SIM_SUMMARY, SIM_HELP},
    {"new", scaffold_command, SCAFFOLD_USAGE, SCAFFOLD_SUMMARY, SCAFFOLD_HELP},
    {"schema", schema_cmd_main, SCHEMA_CMD_USAGE, SCHEMA_CMD_SUMMARY, SCHEMA_CMD_HELP},
    {"list", cmd_list, "cairn list", "list the rulesets found along the search path",
     "Prints every ruleset found in ./rulesets, the installed share folder and\n"
     "the folders of CAIRN_PATH (colon-separated), with its name and seat counts.\n"},
    {"help", cmd_help, "cairn help [COMMAND]", "show the commands, or one command in detail", ""},
    {"version", cmd_version, "cairn --version", "print cairn's version", ""},
};

#define N_COMMANDS (sizeof commands / sizeof commands[0])

static const command *find_command(const char *name) {
    for (size_t i = 0; i < N_COMMANDS; i++)
        if (strcmp(commands[i].name, name) == 0) return &commands[i];
    return NULL;
}

static void print_overview(FILE *out) {
    fprintf(out, "cairn %s: a rules-as-data board-game interpreter\n\n", CAIRN_VERSION);
    fprintf(out, "usage: cairn COMMAND [ARGS]\n\ncommands:\n");
    for (size_t i = 0; i < N_COMMANDS; i++)
        fprintf(out, "  %-9s %s\n", commands[i].name, commands[i].summary);
    fprintf(out, "\n`cairn help COMMAND` explains one command. Docs: docs/ (README.md first).\n");
}

static int usage_error(const command *c, const char *fmt, const char *arg) {
    fprintf(stderr, "cairn %s: ", c->name);
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\nusage: %s\n", c->usage);
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
        fprintf(stderr, "cairn help: no command \"%s\"; `cairn help` lists them\n", argv[1]);
        return EXIT_USAGE;
    }
    printf("usage: %s\n\n%s\n%s", c->usage, c->summary, c->help);
    return EXIT_OK;
}

static int cmd_version(int argc, char **argv) {
    (void)argc;
    (void)argv;
    printf("cairn %s\n", CAIRN_VERSION);
    return EXIT_OK;
}

static int cmd_list(int argc, char **argv) {
    (void)argv;
    if (argc > 1) return usage_error(find_command("list"), "takes no arguments, got \"%s\"", argv[1]);
    size_t n;
    char **names = ruleset_list(&n);
    for (size_t i = 0; i < n; i++) {
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

/* Collects --option/--preset/--players for commands that load a ruleset.
** Returns the index of the first unparsed argument or -1 after a usage
** error has been printed. */
typedef struct ruleset_args {
    const char *ruleset;
    ruleset_flags flags;
    int games; /* smoke games for check; -1: not given */
    int cover_each; /* check --cover each: every seat count and option value once, not every pair */
    int debug; /* check --debug: the rules' g.debug lines on stdout */
    int unread; /* check --unread: list the data values no smoke game's rules read */
} ruleset_args;

static int parse_ruleset_args(const command *c, int argc, char **argv, ruleset_args *a) {
    memset(a, 0, sizeof *a);
    a->games = -1;
    if (ruleset_flags_init(&a->flags, argc) != 0) return -1;
    a->flags.with_sets = strcmp(c->name, "check") == 0; /* check --set DATA.PATH=VALUE */
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        char *why;
        int taken = ruleset_flags_take(&a->flags, argc, argv, &i, &why);
        if (taken < 0) {
            usage_error(c, "%s", why ? why : "out of memory");
            free(why);
            return -1;
        }
        if (taken) continue;
        if (strcmp(arg, "--debug") == 0 && strcmp(c->name, "check") == 0) {
            a->debug = 1;
        } else if (strcmp(arg, "--unread") == 0 && strcmp(c->name, "check") == 0) {
            a->unread = 1;
        } else if (strcmp(arg, "--games") == 0 && strcmp(c->name, "check") == 0) {
            if (++i >= argc) return usage_error(c, "%s needs a number", arg), -1;
            char *end;
            long n = strtol(argv[i], &end, 10);
            if (*end || n < 0 || n > 10000)
                return usage_error(c, "--games takes a number from 0 to 10000, got \"%s\"", argv[i]), -1;
            a->games = (int)n;
        } else if (strcmp(arg, "--cover") == 0 && strcmp(c->name, "check") == 0) {
            if (++i >= argc || (strcmp(argv[i], "all") != 0 && strcmp(argv[i], "each") != 0))
                return usage_error(c, "--cover takes all (every seat count and option combination, the "
                                      "default) or each (every seat count and option value at least once)%s", ""), -1;
            a->cover_each = strcmp(argv[i], "each") == 0;
        } else if (arg[0] == '-') {
            return usage_error(c, "unknown flag \"%s\"", arg), -1;
        } else if (!a->ruleset) {
            a->ruleset = arg;
        } else {
            return usage_error(c, "one ruleset at a time; \"%s\" is one too many", arg), -1;
        }
    }
    if (!a->ruleset) return usage_error(c, "which ruleset?%s", ""), -1;
    return 0;
}

/* "expansion, length=long" for the options in effect; "none" if none. */
static char *options_text(const ruleset *r) {
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
        s = cairn_strdup("none");
    }
    return s;
}

/* The closing line of a failed check, always the last line printed. */
static int check_failed(const char *ruleset, cerr_list *errs) {
    fflush(stdout);
    cerr_print(stderr, errs);
    size_t n = cerr_count(errs);
    fprintf(stderr, "%s: %zu error%s\n", ruleset, n ? n : 1, n == 1 || n == 0 ? "" : "s");
    return EXIT_RULES;
}

static int cmd_check(int argc, char **argv) {
    const command *c = find_command("check");
    ruleset_args a;
    if (parse_ruleset_args(c, argc, argv, &a) != 0) {
        ruleset_flags_free(&a.flags);
        return EXIT_USAGE;
    }
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
        rc = check_failed(a.ruleset, &errs);
        load_cache_free(cache);
        cerr_free(&errs);
        ruleset_flags_free(&a.flags);
        return rc;
    }
    /* everything that can be checked without playing, whatever the
    ** defaults: each option value's overlay and scripts, every script's
    ** syntax; a syntax error is a ruleset error, never a smoke game's */
    check_option_values(a.ruleset, r, cache, stdout, &errs);
    load_cache_free(cache);
    check_compile_scripts(r, &errs);
    /* the ruleset's own data checks (check_data), at the data's lines */
    if (cerr_count(&errs) == 0) {
        engine_config ec = {.ruleset = a.ruleset, .choices = req.choices, .n_choices = req.n_choices,
                            .preset = req.preset, .players = req.players, .sets = req.sets,
                            .n_sets = req.n_sets};
        engine_check_loaded_data(r, &ec, &errs); /* on r: not loaded again */
    }
    /* smoke play covers every seat count and option combination, the one
    ** asked about included */
    unread_set *unread = a.unread ? unread_new() : NULL;
    if (a.unread && !unread) errs.oom = 1;
    if (cerr_count(&errs) == 0 && !errs.oom && a.games != 0)
        testrun_smoke_reads(a.ruleset, a.games < 0 ? 0 : a.games, a.cover_each, stdout, unread, &errs);
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
        rc = check_failed(a.ruleset, &errs);
    } else {
        check_note_tests(r, stdout);
        check_note_texts(r, stdout); /* check_text.c */
        char *opts = options_text(r);
        printf("ok %s %s: %zu files, %zu data table%s, options: %s; fingerprint %.16s\n", r->id,
               r->version, r->n_files, value_len(r->data), value_len(r->data) == 1 ? "" : "s",
               opts ? opts : "?", r->fingerprint);
        free(opts);
    }
    ruleset_free(r);
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
        fprintf(stderr, "cairn: no command \"%s\"; `cairn help` lists them\n", argv[1]);
        return EXIT_USAGE;
    }
    if (argc > 2 && (strcmp(argv[2], "--help") == 0 || strcmp(argv[2], "-h") == 0)) {
        char *args[] = {(char *)"help", (char *)c->name, NULL};
        return cmd_help(2, args);
    }
    return c->run(argc - 1, argv + 1);
}
