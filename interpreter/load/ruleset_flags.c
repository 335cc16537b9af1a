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

/* --set's refusal comes from ruleset_set_split as text: the form's
** (the one refusal it makes, worded as "flags.set_form"), or lack of
** memory. */
static int take_set(ruleset_flags *f, const char *v, cerr_list *errs) {
    char *name, *path, *why = NULL;
    const char *val;
    if (ruleset_set_split(v, &name, &path, &val, &why) != 0) {
        size_t before = errs->n;
        int oom = !why || strcmp(why, "out of memory") == 0;
        cerr_add(errs, NULL, 0, 0, NULL, "%s", why ? why : "out of memory");
        cerr_key(errs, before, oom ? "oom" : "flags.set_form", 0, oom ? NULL : v, NULL);
        free(why);
        return -1;
    }
    free(name);
    free(path);
    f->sets[f->n_sets++] = v;
    return 1;
}

int ruleset_flags_apply(ruleset_flags *f, const cli_item *it, cerr_list *errs) {
    const char *v = it->values[0];
    if (cli_is(it, "option")) {
        f->choices[f->n_choices++] = v;
    } else if (cli_is(it, "set")) {
        return take_set(f, v, errs);
    } else if (cli_is(it, "preset")) {
        if (f->preset)
            return cerr_addk(errs, NULL, 0, 0, NULL, "flags.preset_twice", "one --preset at a time; \"%s\" is a second", v), -1;
        f->preset = v;
    } else if (cli_is(it, "players")) {
        if (f->players)
            return cerr_addk(errs, NULL, 0, 0, NULL, "flags.players_twice", "--players is given twice (\"%s\")", v), -1;
        char *end;
        long n = strtol(v, &end, 10);
        if (*end || !v[0] || n < 1 || n > CAIRN_MAX_SEATS)
            return cerr_addk(errs, NULL, 0, 0, NULL, "flags.players_range", "--players takes a number from 1 to %s, got \"%s\"",
                             NUMBER_TEXT(CAIRN_MAX_SEATS), v), -1;
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
