/*
** repl_rules.c
** The REPL's `rules` command: the ruleset's name and description, how to
** play and the board's legend (the text keys `howto` and `legend` in the
** game's language), where the full rules are (the manifest's `rulebook`),
** the options in effect and every assumed value shown as a value, in YAML's
** flow style ([6, 7, 8], {points: 3, ...}), wrapped to the terminal.
*/
#include "repl_session.h"

#include "engine.h"
#include "error.h"
#include "markup.h"
#include "ruleset.h"
#include "value.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* A value's flow text stops growing past this many bytes ("..." then says
** more was left out): the longest assumed value stays a few lines. */
#define FLOW_LIMIT 360

/* The value at a dotted data key ("board.connect", "carts.2.capacity"). */
static const value *data_at(const value *v, const char *key) {
    char buf[256];
    snprintf(buf, sizeof buf, "%s", key);
    char *save = NULL;
    for (char *part = strtok_r(buf, ".", &save); part && v; part = strtok_r(NULL, ".", &save)) {
        if (v->type == CV_MAP) {
            v = value_map_get(v, part);
        } else if (v->type == CV_LIST) {
            char *end;
            long k = strtol(part, &end, 10);
            v = *end == '\0' && k >= 1 && (size_t)k <= v->u.list.n ? v->u.list.items[k - 1] : NULL;
        } else {
            v = NULL;
        }
    }
    return v;
}

/* A string as a flow scalar: bare unless it is empty, has YAML's flow
** punctuation or leading/trailing blanks. */
static void flow_string(markup_buf *b, const char *s) {
    size_t n = strlen(s);
    int quote = n == 0 || s[0] == ' ' || s[n - 1] == ' ' || strpbrk(s, ",:[]{}\"#\n") != NULL;
    if (!quote) {
        markup_buf_puts(b, s);
        return;
    }
    markup_buf_puts(b, "\"");
    for (const char *p = s; *p; p++) {
        if (*p == '"' || *p == '\\') markup_buf_printf(b, "\\%c", *p);
        else if (*p == '\n') markup_buf_puts(b, "\\n");
        else markup_buf_add(b, p, 1);
    }
    markup_buf_puts(b, "\"");
}

/* Appends v in flow style; past FLOW_LIMIT bytes a list or map ends in "...". */
static void flow(markup_buf *b, const value *v) {
    if (!v) {
        markup_buf_puts(b, "(missing)");
        return;
    }
    switch (v->type) {
    case CV_BOOL: markup_buf_puts(b, v->u.b ? "on" : "off"); return;
    case CV_INT: markup_buf_printf(b, "%lld", (long long)v->u.i); return;
    case CV_STR: flow_string(b, v->u.str.s); return;
    case CV_NULL: markup_buf_puts(b, "null"); return;
    default: break;
    }
    int is_map = v->type == CV_MAP;
    if (v->type != CV_MAP && v->type != CV_LIST) {
        char *d = value_describe(v);
        markup_buf_puts(b, d ? d : "?");
        free(d);
        return;
    }
    markup_buf_puts(b, is_map ? "{" : "[");
    for (size_t i = 0; i < value_len(v); i++) {
        if (i) markup_buf_puts(b, ", ");
        if (b->len > FLOW_LIMIT) {
            markup_buf_puts(b, "...");
            break;
        }
        if (is_map) {
            flow_string(b, v->u.map.items[i].key->u.str.s);
            markup_buf_puts(b, ": ");
        }
        flow(b, is_map ? v->u.map.items[i].val : v->u.list.items[i]);
    }
    markup_buf_puts(b, is_map ? "}" : "]");
}

/* A value as flow text (malloc'd, NULL on OOM). */
static char *flow_text(const value *v) {
    markup_buf b = {0};
    flow(&b, v);
    return markup_buf_take(&b);
}

/* Plain text wrapped with its continuation lines indented. */
static void emit_wrapped(repl *r, const char *text, int indent) {
    char *w = markup_wrap(text, r->width, indent);
    fprintf(r->out, "%s\n", w ? w : text);
    free(w);
}

static const char *text_of(const repl *r, const ruleset *rs, const char *key);

/* The manifest's English words in the game's language: the text `prefix`
** + `id` + `suffix` (`option.tents`, `option.tents.description`,
** `assumption.boards.size`, `description`) when the ruleset's text tables
** have it, else `fallback` (the manifest's own). */
static const char *localized(const repl *r, const ruleset *rs, const char *prefix, const char *id,
                             const char *suffix, const char *fallback) {
    char key[256];
    snprintf(key, sizeof key, "%s%s%s", prefix, id, suffix);
    const char *s = text_of(r, rs, key);
    return s ? s : fallback;
}

static int show_option(repl *r, const ruleset *rs, const ruleset_option *o) {
    char *cur = flow_text(value_map_get(rs->options, o->id));
    repl_plain(r, "%s: %s = %s (%s)", o->id, localized(r, rs, "option.", o->id, "", o->name ? o->name : o->id),
               cur ? cur : "?", repl_tr(r, o->type == ROPT_SWITCH ? "rules.switch" : "rules.choice"));
    free(cur);
    const char *desc = localized(r, rs, "option.", o->id, ".description", o->description);
    if (desc) repl_plain(r, "  %s", desc);
    const value *items = value_map_get(o->def, "items");
    for (size_t i = 0; items && items->type == CV_LIST && i < items->u.list.n; i++) {
        const value *it = items->u.list.items[i];
        repl_plain(r, "  %-8s %s", value_get_str(it, "id", "?"), value_get_str(it, "name", ""));
    }
    const char *keys[] = {"requires", "excludes"};
    for (size_t k = 0; k < 2; k++) {
        const value *l = value_map_get(o->def, keys[k]);
        for (size_t i = 0; l && l->type == CV_LIST && i < l->u.list.n; i++)
            if (l->u.list.items[i]->type == CV_STR) repl_plain(r, "  %s %s", keys[k], l->u.list.items[i]->u.str.s);
    }
    return 0;
}

/* The text for key in the game's language, else English, else NULL (the
** text tables as the ruleset loaded them; howto and legend are strings). */
static const char *text_of(const repl *r, const ruleset *rs, const char *key) {
    const char *lang = engine_lang(r->e);
    const char *s = value_get_str(value_map_get(rs->text, lang ? lang : "en"), key, NULL);
    return s ? s : value_get_str(value_map_get(rs->text, "en"), key, NULL);
}

/* A heading, then each line of a ruleset's text indented by 2 (its own
** indentation kept; a wrapped line goes on 2 further in). Markup renders. */
static void show_text(repl *r, const char *heading, const char *text) {
    repl_say(r, 0, "{bold}%s{/}", heading); /* heading: the REPL's own words, no braces */
    char *copy = cairn_strdup(text);
    if (!copy) {
        repl_fail(r, "%s", repl_tr(r, "error.oom"));
        return;
    }
    size_t n = strlen(copy);
    while (n > 0 && (copy[n - 1] == '\n' || copy[n - 1] == ' ')) copy[--n] = '\0';
    char *save = NULL;
    for (char *line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        int lead = (int)strspn(line, " ");
        if (line[lead] == '-' && line[lead + 1] == ' ') lead += 2; /* a bullet's text lines up */
        repl_say(r, 2 + lead + 2, "  %s", line);
    }
    free(copy);
}

/* dir/rel with "x/.." and "./" folded away, malloc'd: the rulebook's path
** as a reader would type it ("docs/rules/yak.md", not
** "rulesets/yak/../../docs/rules/yak.md"). */
static char *folded_path(const char *dir, const char *rel) {
    char *joined = rel[0] == '/' ? cairn_strdup(rel) : cairn_strfmt("%s/%s", dir, rel);
    if (!joined) return NULL;
    size_t n = strlen(joined);
    char **parts = malloc((n / 2 + 2) * sizeof *parts);
    if (!parts) {
        free(joined);
        return NULL;
    }
    size_t k = 0;
    int absolute = joined[0] == '/';
    char *save = NULL;
    for (char *p = strtok_r(joined, "/", &save); p; p = strtok_r(NULL, "/", &save)) {
        if (!strcmp(p, ".")) continue;
        if (!strcmp(p, "..") && k > 0 && strcmp(parts[k - 1], "..")) k--;
        else if (strcmp(p, "..") || !absolute) parts[k++] = p;
    }
    markup_buf b = {0};
    if (absolute) markup_buf_puts(&b, "/");
    for (size_t i = 0; i < k; i++) markup_buf_printf(&b, "%s%s", i ? "/" : "", parts[i]);
    if (k == 0 && !absolute) markup_buf_puts(&b, ".");
    free(parts);
    free(joined);
    return markup_buf_take(&b);
}

static int is_regular(const char *path) {
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* An installed cairn keeps the docs apart from the rulesets (make install:
** <prefix>/share/doc/cairn next to <prefix>/share/cairn): a rulebook under
** docs/ that is not beside the ruleset is looked for there. NULL if not. */
static char *installed_doc(const char *path) {
    const char *docs = strncmp(path, "docs/", 5) == 0 ? path : strstr(path, "/docs/");
    if (!docs) return NULL;
    if (docs[0] == '/') docs++;
    char *share = cairn_strdup(ruleset_share_dir());
    char *slash = share ? strrchr(share, '/') : NULL;
    if (!slash) {
        free(share);
        return NULL;
    }
    *slash = '\0'; /* <prefix>/share */
    char *doc = cairn_strfmt("%s/doc/cairn/%s", share, docs + 5);
    free(share);
    if (doc && !is_regular(doc)) {
        free(doc);
        doc = NULL;
    }
    return doc;
}

static void show_rulebook(repl *r, const ruleset *rs) {
    const char *rel = value_get_str(rs->manifest, "rulebook", NULL);
    if (!rel) return;
    char *path = folded_path(rs->dir, rel);
    if (!path) {
        repl_fail(r, "%s", repl_tr(r, "error.oom"));
        return;
    }
    int here = is_regular(path);
    char *inst = here ? NULL : installed_doc(path);
    if (inst) {
        free(path);
        path = inst;
        here = 1;
    }
    repl_plain(r, repl_tr(r, "rules.rulebook"), path, here ? "" : repl_tr(r, "rules.not_installed"));
    free(path);
}

static void show_options(repl *r, const ruleset *rs) {
    if (rs->n_opts == 0) {
        repl_plain(r, "%s", repl_tr(r, "rules.no_options"));
        return;
    }
    repl_plain(r, "%s", repl_tr(r, "rules.options"));
    size_t w = 0;
    for (size_t i = 0; i < rs->n_opts; i++)
        if (strlen(rs->opts[i].id) > w) w = strlen(rs->opts[i].id);
    for (size_t i = 0; i < rs->n_opts; i++) {
        const ruleset_option *o = &rs->opts[i];
        char *cur = flow_text(value_map_get(rs->options, o->id));
        repl_plain(r, "  %-*s = %-5s  %s", (int)w, o->id, cur ? cur : "?",
                   localized(r, rs, "option.", o->id, "", o->name ? o->name : ""));
        free(cur);
    }
}

/* The manifest's presets: each id, its name in the game's language (text
** key preset.ID, else the manifest's name) and the options it sets (a switch
** on by its id, off as ID=off, a choice as ID=ITEM). Nothing when it has none. */
static void show_presets(repl *r, const ruleset *rs) {
    const value *ps = value_map_get(rs->manifest, "presets");
    if (!ps || ps->type != CV_LIST || !ps->u.list.n) return;
    repl_plain(r, "%s", repl_tr(r, "rules.presets"));
    size_t w = 0;
    for (size_t i = 0; i < ps->u.list.n; i++) {
        size_t n = strlen(value_get_str(ps->u.list.items[i], "id", "?"));
        if (n > w) w = n;
    }
    for (size_t i = 0; i < ps->u.list.n; i++) {
        const value *p = ps->u.list.items[i];
        const char *id = value_get_str(p, "id", "?");
        const value *opts = value_map_get(p, "options");
        markup_buf b = {0};
        for (size_t k = 0; opts && opts->type == CV_MAP && k < opts->u.map.n; k++) {
            const char *key = opts->u.map.items[k].key->u.str.s;
            const value *v = opts->u.map.items[k].val;
            markup_buf_puts(&b, k ? ", " : "");
            if (v->type == CV_BOOL && v->u.b) {
                markup_buf_puts(&b, key);
            } else if (v->type == CV_BOOL) {
                markup_buf_printf(&b, "%s=off", key);
            } else {
                char *t = flow_text(v);
                markup_buf_printf(&b, "%s=%s", key, t ? t : "?");
                free(t);
            }
        }
        char *set = markup_buf_take(&b);
        char *line = cairn_strfmt("  %-*s  %s: %s", (int)w, id,
                                  localized(r, rs, "preset.", id, "", value_get_str(p, "name", id)), set ? set : "?");
        if (line) emit_wrapped(r, line, (int)w + 4);
        free(line);
        free(set);
    }
}

static void show_assumptions(repl *r, const ruleset *rs) {
    const value *as = value_map_get(rs->manifest, "assumptions");
    if (!as || as->type != CV_LIST || !as->u.list.n) {
        repl_plain(r, "%s", repl_tr(r, "rules.no_assumptions"));
        return;
    }
    repl_plain(r, "%s", repl_tr(r, "rules.assumptions"));
    for (size_t i = 0; i < as->u.list.n; i++) {
        const value *a = as->u.list.items[i];
        const char *key = value_get_str(a, "key", "?");
        char *cur = flow_text(data_at(rs->data, key));
        char *esc = cur ? markup_escape(cur) : NULL;
        repl_say(r, 6, "  {bold}%s{/} = %s", key, esc ? esc : "?");
        free(esc);
        free(cur);
        const char *src = value_get_str(a, "source", NULL);
        char *from = src ? cairn_strfmt(repl_tr(r, "rules.source"), src) : NULL;
        char *text = cairn_strfmt("    %s%s%s", localized(r, rs, "assumption.", key, "", value_get_str(a, "text", "")),
                                  from ? " " : "", from ? from : "");
        free(from);
        if (text) emit_wrapped(r, text, 4);
        free(text);
    }
}

int repl_show_rules(repl *r, const char *args) {
    const ruleset *rs = engine_ruleset(r->e);
    if (args[0]) {
        const ruleset_option *o = ruleset_option_find(rs, args);
        if (!o) {
            repl_fail(r, repl_tr(r, "rules.no_option"), args, rs->id);
            return -1;
        }
        return show_option(r, rs, o);
    }
    markup_buf h = {0};
    markup_buf_printf(&h, repl_trn(r, "rules.head", r->n_seats), rs->name, rs->version, rs->id, r->n_seats,
                      rs->min_players, rs->max_players);
    char *head = markup_buf_take(&h);
    repl_say(r, 2, "%s", head ? head : "?");
    free(head);
    const char *desc = localized(r, rs, "description", "", "", value_get_str(rs->manifest, "description", NULL));
    if (desc) {
        char *d = cairn_strdup(desc);
        size_t n = d ? strlen(d) : 0;
        while (n > 0 && (d[n - 1] == '\n' || d[n - 1] == ' ')) d[--n] = '\0';
        if (d) emit_wrapped(r, d, 0);
        free(d);
    }
    const char *howto = text_of(r, rs, "howto"), *legend = text_of(r, rs, "legend");
    if (howto) show_text(r, repl_tr(r, "rules.howto"), howto);
    if (legend) show_text(r, repl_tr(r, "rules.legend"), legend);
    show_rulebook(r, rs);
    show_options(r, rs);
    show_presets(r, rs);
    const char *preset = engine_preset(r->e);
    if (preset) repl_plain(r, repl_tr(r, "rules.preset"), preset);
    show_assumptions(r, rs);
    return 0;
}
