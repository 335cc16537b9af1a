/*
** cliflags.c
** The one parser of every command's flags: long flags with their value
** after a space or '=', short flags alone, with their value attached or
** after a space, or several switches in one cluster; "--" ends the flags;
** an unknown flag gets the nearest one of the command's tables.
*/
#include "cliflags.h"
#include "error.h"
#include "suggest.h"

#include <string.h>

/* How far a mistyped long flag may be from the one suggested: two edits
** (a swap counts one), and never more than a third of the word, so that
** "--x" does not become "--jobs". */
#define CLI_SUGGEST_LIMIT 2

void cli_start(cli_parser *p, int argc, char **argv, const cli_table *const *tables) {
    memset(p, 0, sizeof *p);
    p->argc = argc;
    p->argv = argv;
    p->tables = tables;
    p->i = 1;
}

const cli_flag *cli_flag_at(const cli_table *const *tables, size_t k) {
    for (size_t t = 0; tables && tables[t]; t++) {
        if (k < tables[t]->n) return (const cli_flag *)((const char *)tables[t]->rows + k * tables[t]->stride);
        k -= tables[t]->n;
    }
    return NULL;
}

static const cli_flag *find_long(const cli_table *const *tables, const char *name, size_t len) {
    const cli_flag *f;
    for (size_t k = 0; (f = cli_flag_at(tables, k)); k++)
        if (strlen(f->name) == len && strncmp(f->name, name, len) == 0) return f;
    return NULL;
}

static const cli_flag *find_short(const cli_table *const *tables, char c) {
    const cli_flag *f;
    for (size_t k = 0; (f = cli_flag_at(tables, k)); k++)
        if (f->short_name && f->short_name == c) return f;
    return NULL;
}

/* "unknown flag "--gmaes"; did you mean --games?" (malloc'd) */
/* Notes the key and arguments of the error about to be said (cliflags.h). */
static void why_key(cli_parser *p, const char *key, const char *a, const char *b) {
    p->why_key = key;
    snprintf(p->why_args[0], sizeof p->why_args[0], "%s", a ? a : "");
    snprintf(p->why_args[1], sizeof p->why_args[1], "%s", b ? b : "");
}

static char *unknown_long(cli_parser *p, const cli_table *const *tables, const char *arg, size_t len) {
    char word[SUGGEST_MAX_LEN + 1];
    if (len > SUGGEST_MAX_LEN) len = SUGGEST_MAX_LEN;
    memcpy(word, arg, len);
    word[len] = '\0';
    size_t limit = len / 3 < CLI_SUGGEST_LIMIT ? len / 3 : CLI_SUGGEST_LIMIT;
    suggest_nearest s = suggest_start(word, limit ? limit : 1, 1);
    const cli_flag *f;
    for (size_t k = 0; (f = cli_flag_at(tables, k)); k++) suggest_try(&s, f->name);
    char dashed[SUGGEST_MAX_LEN + 3], best[SUGGEST_MAX_LEN + 3];
    snprintf(dashed, sizeof dashed, "--%s", word);
    if (s.best) {
        snprintf(best, sizeof best, "--%s", s.best);
        why_key(p, "cli.unknown_flag_suggest", dashed, best);
        return cairn_strfmt("unknown flag \"--%s\"; did you mean --%s?", word, s.best);
    }
    why_key(p, "cli.unknown_flag", dashed, NULL);
    return cairn_strfmt("unknown flag \"--%s\"", word);
}

/* The values after a flag: the attached one (NULL: none), then from argv. */
static int take_values(cli_parser *p, const cli_flag *f, const char *attached, cli_item *it, char **why) {
    int k = 0;
    if (attached) {
        if (f->values == 0) {
            why_key(p, "cli.takes_no_value", it->spelled, attached);
            *why = cairn_strfmt("%s takes no value, got \"%s\"", it->spelled, attached);
            return -1;
        }
        it->values[k++] = attached;
    }
    for (; k < f->values; k++) {
        if (p->i >= p->argc) {
            if (f->meta && f->meta[0]) why_key(p, "cli.needs", it->spelled, f->meta);
            else why_key(p, "cli.needs_value", it->spelled, NULL);
            *why = cairn_strfmt("%s needs %s", it->spelled, f->meta && f->meta[0] ? f->meta : "a value");
            return -1;
        }
        it->values[k] = p->argv[p->i++];
    }
    return 1;
}

/* The next short flag of the cluster argv[p->i] at p->in_cluster. */
static int next_short(cli_parser *p, cli_item *it, char **why) {
    const char *arg = p->argv[p->i];
    char c = arg[p->in_cluster];
    snprintf(p->spelled, sizeof p->spelled, "-%c", c);
    it->spelled = p->spelled;
    const cli_flag *f = find_short(p->tables, c);
    if (!f) {
        char one[3] = {'-', c, '\0'};
        if (p->in_cluster > 1) {
            why_key(p, "cli.unknown_in_cluster", one, arg);
            *why = cairn_strfmt("unknown flag \"-%c\" in \"%s\"", c, arg);
        } else {
            why_key(p, "cli.unknown_flag", arg, NULL);
            *why = cairn_strfmt("unknown flag \"%s\"", arg);
        }
        return -1;
    }
    it->flag = f;
    const char *rest = arg + p->in_cluster + 1;
    if (f->values > 0) { /* -g10 or -g 10: the rest of the cluster is the value */
        p->in_cluster = 0;
        p->i++;
        return take_values(p, f, *rest ? (*rest == '=' ? rest + 1 : rest) : NULL, it, why);
    }
    if (*rest) {
        p->in_cluster++;
    } else {
        p->in_cluster = 0;
        p->i++;
    }
    return 1;
}

int cli_next(cli_parser *p, cli_item *it, char **why) {
    memset(it, 0, sizeof *it);
    *why = NULL;
    if (p->in_cluster) return next_short(p, it, why);
    if (p->i >= p->argc) return 0;
    const char *arg = p->argv[p->i];
    if (!p->flags_done && strcmp(arg, "--") == 0) {
        p->flags_done = 1;
        p->i++;
        if (p->i >= p->argc) return 0;
        arg = p->argv[p->i];
    }
    if (p->flags_done || arg[0] != '-' || arg[1] == '\0') { /* "-" alone is an argument (stdin) */
        it->values[0] = arg;
        p->i++;
        return 1;
    }
    if (arg[1] != '-') {
        p->in_cluster = 1;
        return next_short(p, it, why);
    }
    const char *name = arg + 2, *eq = strchr(name, '=');
    size_t len = eq ? (size_t)(eq - name) : strlen(name);
    const cli_flag *f = find_long(p->tables, name, len);
    p->i++;
    if (!f) {
        *why = unknown_long(p, p->tables, name, len);
        return -1;
    }
    it->flag = f;
    snprintf(p->spelled, sizeof p->spelled, "--%s", f->name); /* without an attached value */
    it->spelled = p->spelled;
    return take_values(p, f, eq ? eq + 1 : NULL, it, why);
}

int cli_is(const cli_item *it, const char *name) { return it->flag && strcmp(it->flag->name, name) == 0; }

void cli_flag_usage(FILE *out, const cli_flag *f) {
    fprintf(out, "--%s", f->name);
    if (f->values && f->meta && f->meta[0]) fprintf(out, " %s", f->meta);
}
