/*
** cli_complete.c
** The shell completion scripts, written from the commands' flag tables so
** that a flag added to a table is completed without another edit: bash
** (a _cairn function for `complete -F`) and zsh (_arguments specs, with
** each flag's meaning). What depends on the ruleset on the line (its
** option ids and presets) and the rulesets themselves are asked of
** `cairn list` when the user presses Tab.
*/
#include "cli_complete.h"

#include <string.h>

/* The kind's name in the scripts' helper functions. */
static const char *kind_name(cli_kind k) {
    switch (k) {
    case CLI_FILE: return "file";
    case CLI_DIR: return "dir";
    case CLI_RULESET: return "ruleset";
    case CLI_OPTION: return "option";
    case CLI_PRESET: return "preset";
    case CLI_WORDS: return "words";
    case CLI_COMMAND: return "command";
    case CLI_SCHEMA: return "schema";
    case CLI_TEXT: break;
    }
    return "text";
}

/* Every command that runs as `cairn NAME` or `cairn NAME SUB`, in order:
** calls each(out, full name, the command) for the commands and their
** subcommands. */
typedef void (*each_command)(FILE *out, const char *full, const cli_command *c, const cli_command *cmds,
                             size_t n);

static void for_each(FILE *out, const cli_command *cmds, size_t n, each_command each) {
    for (size_t i = 0; i < n; i++) {
        each(out, cmds[i].name, &cmds[i], cmds, n);
        for (size_t s = 0; cmds[i].subcommands && cmds[i].subcommands[s]; s++) {
            char full[128];
            snprintf(full, sizeof full, "%s %s", cmds[i].name, cmds[i].subcommands[s]->name);
            each(out, full, cmds[i].subcommands[s], cmds, n);
        }
    }
}

static void print_names(FILE *out, const cli_command *cmds, size_t n) {
    for (size_t i = 0; i < n; i++) fprintf(out, "%s%s", i ? " " : "", cmds[i].name);
}

/* ------------------------------------------------------------ flags */

static void flags_of(FILE *out, const char *full, const cli_command *c, const cli_command *cmds, size_t n) {
    (void)cmds, (void)n;
    const cli_flag *f;
    for (size_t k = 0; (f = cli_flag_at(c->tables, k)); k++) {
        fprintf(out, "%s --%s ", full, f->name);
        if (f->short_name) fprintf(out, "-%c", f->short_name);
        else fputc('-', out);
        if (f->values) fprintf(out, " %s", f->meta);
        fputc('\n', out);
    }
}

void cli_complete_flags(FILE *out, const cli_command *cmds, size_t n) { for_each(out, cmds, n, flags_of); }

/* ------------------------------------------------------------- bash */

/* The flags of c taking `values` values, as typed ("--games -g ..."). */
static void bash_flags(FILE *out, const cli_command *c, int values) {
    const cli_flag *f;
    int first = 1;
    for (size_t k = 0; (f = cli_flag_at(c->tables, k)); k++) {
        if (values >= 0 && f->values != values) continue;
        fprintf(out, "%s--%s", first ? "" : " ", f->name);
        if (f->short_name) fprintf(out, " -%c", f->short_name);
        first = 0;
    }
}

static void bash_command(FILE *out, const char *full, const cli_command *c, const cli_command *cmds, size_t n) {
    int sub = strchr(full, ' ') != NULL;
    fprintf(out, "    \"%s\")\n        one=\"", full);
    bash_flags(out, c, 1);
    fprintf(out, "\"\n        two=\"");
    bash_flags(out, c, 2);
    fprintf(out, "\"\n        rs=$(_cairn_ruleset_on_line \"$one\" \"$two\" %d)\n", sub ? 3 : 2);
    fprintf(out, "        case $prev in\n");
    const cli_flag *f;
    for (size_t k = 0; (f = cli_flag_at(c->tables, k)); k++) {
        if (!f->values) continue;
        fprintf(out, "        --%s", f->name);
        if (f->short_name) fprintf(out, "|-%c", f->short_name);
        fprintf(out, ") _cairn_value %s \"%s\" \"$rs\"; return ;;\n", kind_name(f->kind), f->words ? f->words : "");
    }
    fprintf(out, "        esac\n");
    for (size_t k = 0; (f = cli_flag_at(c->tables, k)); k++)
        if (f->values == 2) fprintf(out, "        [ \"$prev2\" = --%s ] && return\n", f->name);
    fprintf(out, "        if [[ $cur == -* ]]; then _cairn_words \"");
    bash_flags(out, c, -1);
    fprintf(out, " --help\"; return; fi\n");
    int one_arg = c->args == CLI_RULESET || c->args == CLI_TEXT || c->args == CLI_SCHEMA;
    if (one_arg) fprintf(out, "        [ -n \"$rs\" ] && { _cairn_words \"$(_cairn_flags_of \"%s\")\"; return; }\n", full);
    fprintf(out, "        _cairn_value %s \"%s\" \"\"\n", kind_name(c->args), c->words ? c->words : "");
    if (c->subcommands) {
        fprintf(out, "        [ \"$COMP_CWORD\" -eq 2 ] && COMPREPLY+=($(compgen -W \"");
        for (size_t s = 0; c->subcommands[s]; s++) fprintf(out, "%s%s", s ? " " : "", c->subcommands[s]->name);
        fprintf(out, "\" -- \"$cur\"))\n");
    }
    fprintf(out, "        ;;\n");
    (void)cmds, (void)n;
}

/* _cairn_flags_of CMD: the command's flags, for a line that has its ruleset */
static void bash_flags_case(FILE *out, const char *full, const cli_command *c, const cli_command *cmds, size_t n) {
    (void)cmds, (void)n;
    fprintf(out, "    \"%s\") echo \"", full);
    bash_flags(out, c, -1);
    fprintf(out, "\" ;;\n");
}

void cli_complete_bash(FILE *out, const cli_command *cmds, size_t n) {
    fprintf(out,
            "# bash completion for cairn, written by `cairn completion bash` from cairn's\n"
            "# own tables of commands and flags. Rulesets, option ids and presets are\n"
            "# asked of `cairn list` at each Tab. Load it with\n"
            "#   source <(cairn completion bash)\n"
            "# (make install puts it in share/bash-completion/completions/cairn).\n"
            "\n"
            "_cairn_words() { COMPREPLY=($(compgen -W \"$1\" -- \"$cur\")); }\n"
            "\n"
            "# The first argument after the command that is neither a flag nor a\n"
            "# flag's value. $1: the flags taking one value, $2: two, $3: where to start.\n"
            "_cairn_ruleset_on_line() {\n"
            "    local i=$3 w\n"
            "    while [ \"$i\" -lt \"$COMP_CWORD\" ]; do\n"
            "        w=${COMP_WORDS[i]}\n"
            "        if [ \"${COMP_WORDS[i+1]}\" = \"=\" ]; then i=$((i + 3)); continue; fi\n"
            "        case \" $1 \" in *\" $w \"*) i=$((i + 2)); continue ;; esac\n"
            "        case \" $2 \" in *\" $w \"*) i=$((i + 3)); continue ;; esac\n"
            "        case $w in -*) ;; *) printf '%%s\\n' \"$w\"; return ;; esac\n"
            "        i=$((i + 1))\n"
            "    done\n"
            "}\n"
            "\n"
            "# _cairn_value KIND WORDS RULESET: complete a value of that kind\n"
            "_cairn_value() {\n"
            "    local cairn=${COMP_WORDS[0]}\n"
            "    case $1 in\n"
            "    file) COMPREPLY=($(compgen -f -- \"$cur\")) ;;\n"
            "    dir) COMPREPLY=($(compgen -d -- \"$cur\")) ;;\n"
            "    ruleset) COMPREPLY=($(compgen -W \"$(\"$cairn\" list --names 2>/dev/null)\" -- \"$cur\") $(compgen -d -- \"$cur\")) ;;\n"
            "    option) [ -n \"$3\" ] && COMPREPLY=($(compgen -W \"$(\"$cairn\" list --options \"$3\" 2>/dev/null)\" -- \"$cur\")) ;;\n"
            "    preset) [ -n \"$3\" ] && COMPREPLY=($(compgen -W \"$(\"$cairn\" list --presets \"$3\" 2>/dev/null)\" -- \"$cur\")) ;;\n"
            "    words) _cairn_words \"$2\" ;;\n"
            "    command) _cairn_words \"");
    print_names(out, cmds, n);
    fprintf(out,
            "\" ;;\n"
            "    schema) COMPREPLY=($(compgen -W \"$(\"$cairn\" schema 2>/dev/null | awk '{print $1}')\" -- \"$cur\") $(compgen -f -- \"$cur\")) ;;\n"
            "    esac\n"
            "}\n"
            "\n"
            "_cairn_flags_of() {\n"
            "    case $1 in\n");
    for_each(out, cmds, n, bash_flags_case);
    fprintf(out,
            "    esac\n"
            "}\n"
            "\n"
            "_cairn() {\n"
            "    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} prev2=\"\" cmd one two rs\n"
            "    [ \"$COMP_CWORD\" -ge 2 ] && prev2=${COMP_WORDS[COMP_CWORD-2]}\n"
            "    COMPREPLY=()\n"
            "    # bash splits --games=10 at the '=': complete the value after it\n"
            "    if [ \"$cur\" = \"=\" ]; then cur=\"\"; elif [ \"$prev\" = \"=\" ]; then prev=$prev2; prev2=\"\"; fi\n"
            "    if [ \"$COMP_CWORD\" -eq 1 ]; then _cairn_words \"");
    print_names(out, cmds, n);
    fprintf(out,
            " --help --version\"; return; fi\n"
            "    cmd=${COMP_WORDS[1]}\n");
    for (size_t i = 0; i < n; i++)
        for (size_t s = 0; cmds[i].subcommands && cmds[i].subcommands[s]; s++)
            fprintf(out,
                    "    [ \"$cmd\" = %s ] && [ \"$COMP_CWORD\" -gt 2 ] && [ \"${COMP_WORDS[2]}\" = %s ] && cmd=\"%s %s\"\n",
                    cmds[i].name, cmds[i].subcommands[s]->name, cmds[i].name, cmds[i].subcommands[s]->name);
    fprintf(out, "    case $cmd in\n");
    for_each(out, cmds, n, bash_command);
    fprintf(out,
            "    esac\n"
            "}\n"
            "complete -F _cairn cairn\n");
}

/* -------------------------------------------------------------- zsh */

/* text inside an _arguments spec's [...] or a single-quoted word */
static void zsh_text(FILE *out, const char *s) {
    for (; *s; s++) {
        if (*s == '\'') fputs("'\\''", out);
        else if (*s == '[') fputc('(', out);
        else if (*s == ']') fputc(')', out);
        else if (*s == ':') fputs("\\:", out);
        else fputc(*s, out);
    }
}

static void zsh_action(FILE *out, cli_kind k, const char *words) {
    switch (k) {
    case CLI_FILE: fputs("_files", out); break;
    case CLI_DIR: fputs("_files -/", out); break;
    case CLI_RULESET: fputs("_cairn_rulesets", out); break;
    case CLI_OPTION: fputs("_cairn_options", out); break;
    case CLI_PRESET: fputs("_cairn_presets", out); break;
    case CLI_COMMAND: fputs("_cairn_commands", out); break;
    case CLI_SCHEMA: fputs("_cairn_schemas", out); break;
    case CLI_WORDS: fputs("(", out), zsh_text(out, words ? words : ""), fputs(")", out); break;
    case CLI_TEXT: fputs(" ", out); break;
    }
}

/* one spec per spelling: '*--games=[games to play]:N: ' and '*-g+[...]:N: ' */
static void zsh_spec(FILE *out, const cli_flag *f, int is_short) {
    fputs("        '*", out);
    if (is_short) fprintf(out, "-%c%s", f->short_name, f->values ? "+" : "");
    else fprintf(out, "--%s%s", f->name, f->values == 1 ? "=" : "");
    fputc('[', out);
    zsh_text(out, f->help ? f->help : "");
    fputc(']', out);
    char meta[64];
    snprintf(meta, sizeof meta, "%s", f->meta ? f->meta : "");
    char *second = strchr(meta, ' '); /* "A B": two values */
    if (second) *second++ = '\0';
    if (f->values >= 1) {
        fputc(':', out);
        zsh_text(out, meta);
        fputc(':', out);
        zsh_action(out, f->kind, f->words);
    }
    if (f->values == 2) {
        fputc(':', out);
        zsh_text(out, second ? second : meta);
        fputc(':', out);
        zsh_action(out, f->kind, f->words);
    }
    fputs("' \\\n", out);
}

static void zsh_function_name(FILE *out, const char *full) {
    fputs("_cairn_", out);
    for (; *full; full++) fputc(*full == ' ' ? '_' : *full, out);
}

static void zsh_command(FILE *out, const char *full, const cli_command *c, const cli_command *cmds, size_t n) {
    (void)cmds, (void)n;
    if (c->subcommands) { /* the first argument: a subcommand, or what the command takes */
        zsh_function_name(out, full);
        fputs("_first() {\n    _alternative 'subcommands:subcommand:(", out);
        for (size_t s = 0; c->subcommands[s]; s++) fprintf(out, "%s%s", s ? " " : "", c->subcommands[s]->name);
        fprintf(out, ")' 'arguments:%s:", kind_name(c->args));
        zsh_action(out, c->args, c->words);
        fputs("'\n}\n", out);
    }
    zsh_function_name(out, full);
    fprintf(out, "() {\n    _arguments -s -S \\\n");
    const cli_flag *f;
    for (size_t k = 0; (f = cli_flag_at(c->tables, k)); k++) {
        zsh_spec(out, f, 0);
        if (f->short_name) zsh_spec(out, f, 1);
    }
    fputs("        '(- *)--help[show the command in detail]' \\\n", out);
    int many = c->args == CLI_FILE || c->args == CLI_DIR;
    fprintf(out, "        '%s:%s:", many ? "*" : "1", kind_name(c->args));
    if (c->subcommands) zsh_function_name(out, full), fputs("_first", out);
    else zsh_action(out, c->args, c->words);
    fprintf(out, "'\n}\n\n");
}

void cli_complete_zsh(FILE *out, const cli_command *cmds, size_t n) {
    fprintf(out,
            "#compdef cairn\n"
            "# zsh completion for cairn, written by `cairn completion zsh` from cairn's\n"
            "# own tables of commands and flags. Rulesets, option ids and presets are\n"
            "# asked of `cairn list` at each Tab. make install puts it in\n"
            "# share/zsh/site-functions/_cairn; or: source <(cairn completion zsh)\n"
            "\n"
            "_cairn_rulesets() {\n"
            "    local -a names\n"
            "    names=(${(f)\"$(${_cairn_prog:-cairn} list --names 2>/dev/null)\"})\n"
            "    _alternative 'rulesets:ruleset:compadd -a names' 'folders:folder:_files -/'\n"
            "}\n"
            "# the ruleset on the line: _arguments keeps the arguments in $line\n"
            "_cairn_options() {\n"
            "    local -a ids\n"
            "    [[ -n ${line[1]} ]] || return 1\n"
            "    ids=(${(f)\"$(${_cairn_prog:-cairn} list --options ${line[1]} 2>/dev/null)\"})\n"
            "    compadd -a ids\n"
            "}\n"
            "_cairn_presets() {\n"
            "    local -a ids\n"
            "    [[ -n ${line[1]} ]] || return 1\n"
            "    ids=(${(f)\"$(${_cairn_prog:-cairn} list --presets ${line[1]} 2>/dev/null)\"})\n"
            "    compadd -a ids\n"
            "}\n"
            "_cairn_commands() { compadd ");
    print_names(out, cmds, n);
    fprintf(out,
            "; }\n"
            "_cairn_schemas() {\n"
            "    local -a names\n"
            "    names=(${(f)\"$(${_cairn_prog:-cairn} schema 2>/dev/null | awk '{print $1}')\"})\n"
            "    _alternative 'schemas:schema:compadd -a names' 'files:file:_files'\n"
            "}\n"
            "\n");
    for_each(out, cmds, n, zsh_command);
    fprintf(out,
            "_cairn() {\n"
            "    if (( CURRENT == 2 )); then\n"
            "        _alternative 'commands:command:_cairn_commands' 'flags:flag:(--help --version)'\n"
            "        return\n"
            "    fi\n"
            "    local cmd=${words[2]} _cairn_prog=${words[1]}\n"
            "    shift words\n"
            "    (( CURRENT-- ))\n");
    for (size_t i = 0; i < n; i++)
        for (size_t s = 0; cmds[i].subcommands && cmds[i].subcommands[s]; s++)
            fprintf(out,
                    "    if [[ $cmd == %s && ${words[2]} == %s ]] && (( CURRENT > 2 )); then\n"
                    "        shift words; (( CURRENT-- )); cmd=\"%s_%s\"\n"
                    "    fi\n",
                    cmds[i].name, cmds[i].subcommands[s]->name, cmds[i].name, cmds[i].subcommands[s]->name);
    fprintf(out,
            "    (( $+functions[_cairn_$cmd] )) && _cairn_$cmd\n"
            "}\n"
            "\n"
            "_cairn \"$@\"\n");
}
