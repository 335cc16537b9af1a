/*
** ruleset_flags.c
** The flags that choose a ruleset's variant on the command line, read
** alike by `cairn check`, `play` and `sim`: their rows of the commands'
** flag tables and what each one sets.
*/
#include "ruleset.h"
#include "limits.h"

#include <stdlib.h>
#include <string.h>

/* CAIRN_MAX_SEATS as text, for the table's help line */
#define TEXT_OF(n) #n
#define NUMBER_TEXT(n) TEXT_OF(n)

static const cli_flag variant_rows[] = {
    {"option", 'o', 1, "ID[=VALUE]", CLI_OPTION, NULL,
     "turn an option on; ID=false turns a switch off, ID=ITEM picks a choice (repeatable)"},
    {"preset", 0, 1, "NAME", CLI_PRESET, NULL, "a named bundle of options"},
    {"players", 'p', 1, "N", CLI_TEXT, NULL, "seat count, 1 to " NUMBER_TEXT(CAIRN_MAX_SEATS) " (default: the ruleset's)"},
};
static const cli_flag set_rows[] = {
    {"set", 0, 1, "DATA.PATH=VALUE", CLI_TEXT, NULL, "override one data value (scoring.bonus=4; repeatable)"},
};
const cli_table ruleset_flag_table = CLI_TABLE(variant_rows);
const cli_table ruleset_set_flag_table = CLI_TABLE(set_rows);

int ruleset_flags_init(ruleset_flags *f, int argc) {
    memset(f, 0, sizeof *f);
    f->choices = calloc((size_t)(argc > 0 ? argc : 0) + 1, sizeof *f->choices);
    f->sets = calloc((size_t)(argc > 0 ? argc : 0) + 1, sizeof *f->sets);
    if (f->choices && f->sets) return 0;
    ruleset_flags_free(f);
    return -1;
}

void ruleset_flags_free(ruleset_flags *f) {
    free(f->choices);
    free(f->sets);
    f->choices = NULL;
    f->sets = NULL;
}

static int take_set(ruleset_flags *f, const char *v, char **why) {
    char *name, *path;
    const char *val;
    if (ruleset_set_split(v, &name, &path, &val, why) != 0) return -1;
    free(name);
    free(path);
    f->sets[f->n_sets++] = v;
    return 1;
}

int ruleset_flags_apply(ruleset_flags *f, const cli_item *it, char **why) {
    *why = NULL;
    const char *v = it->values[0];
    if (cli_is(it, "option")) {
        f->choices[f->n_choices++] = v;
    } else if (cli_is(it, "set")) {
        return take_set(f, v, why);
    } else if (cli_is(it, "preset")) {
        if (f->preset) return *why = cairn_strfmt("one --preset at a time; \"%s\" is a second", v), -1;
        f->preset = v;
    } else if (cli_is(it, "players")) {
        if (f->players) return *why = cairn_strfmt("--players is given twice (\"%s\")", v), -1;
        char *end;
        long n = strtol(v, &end, 10);
        if (*end || !v[0] || n < 1 || n > CAIRN_MAX_SEATS)
            return *why = cairn_strfmt("--players takes a number from 1 to %d, got \"%s\"", CAIRN_MAX_SEATS, v), -1;
        f->players = (int)n;
    } else {
        return 0;
    }
    return 1;
}

ruleset_request ruleset_flags_request(const ruleset_flags *f) {
    ruleset_request r = {f->choices, f->n_choices, f->preset, f->players, f->sets, f->n_sets};
    return r;
}
