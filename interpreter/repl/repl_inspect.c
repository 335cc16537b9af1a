/*
** repl_inspect.c
** The REPL's debugging and live-inspection commands: `debug on|off` (the
** rules' g.debug/print lines, dimmed), `trace on|off` (each handler call,
** its time and the state paths it changed), `state PATH` (one part of the
** viewing seat's view), `eval EXPR` (a Lua expression in the game's
** sandbox, read-only), `set PATH VALUE` (an edit of the state, kept in the
** log) and `option ID on|off` / `option ID=VALUE` / `option DATA.PATH=VALUE`
** (the game made again under other options or data, its log replayed).
** repl_cmd.c holds their rows of the command table; the engine does the
** work (engine_debug_channel.c, engine_eval.c, engine_edit.c, engine_history.c).
*/
#include "repl_cmd.h"
#include "repl_session.h"

#include "engine.h"
#include "markup.h"
#include "ruleset.h"
#include "statepath.h"
#include "suggest.h"
#include "yload.h"

#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------- debug and trace */

static void on_debug(void *ud, const char *line) {
    repl *r = ud;
    char *esc = markup_escape(line);
    repl_say(r, 2, "{dim}%s{/}", esc ? esc : "(out of memory)");
    free(esc);
}

/* In script mode the times are shown as "#.##": the output is the same on
** every run (transcripts). */
static void on_trace(void *ud, const char *line) {
    repl *r = ud;
    char *masked = NULL;
    const char *ms = strstr(line, " ms");
    if (r->script && ms) {
        const char *num = ms;
        while (num > line && (num[-1] == '.' || (num[-1] >= '0' && num[-1] <= '9'))) num--;
        masked = cairn_strfmt("%.*s#.##%s", (int)(num - line), line, ms);
    }
    char *esc = markup_escape(masked ? masked : line);
    free(masked);
    repl_say(r, 2, "{dim}%s{/}", esc ? esc : "(out of memory)");
    free(esc);
}

void repl_inspect_attach(repl *r) {
    if (!r->e) return;
    engine_set_debug(r->e, r->debug ? on_debug : NULL, r);
    engine_set_trace(r->e, r->trace ? on_trace : NULL, r);
}

/* "on", "off" or "" (says which it is) for a switch. */
static int switch_arg(repl *r, const char *cmd, const char *args, int *flag, const char *what) {
    if (!args[0]) {
        repl_plain(r, repl_tr(r, *flag ? "switch.is_on" : "switch.is_off"), cmd, repl_tr(r, what));
        return 0;
    }
    if (strcmp(args, "on") && strcmp(args, "off")) {
        repl_fail(r, repl_tr(r, "switch.bad"), cmd, args);
        return -1;
    }
    *flag = strcmp(args, "on") == 0;
    repl_inspect_attach(r);
    repl_plain(r, repl_tr(r, *flag ? "switch.now_on" : "switch.now_off"), cmd);
    return 0;
}

void repl_inspect_config(repl *r, engine_config *cfg) {
    cfg->debug = r->debug ? on_debug : NULL;
    cfg->debug_ud = r;
}

int repl_cmd_debug(repl *r, const char *args) {
    return switch_arg(r, "debug", args, &r->debug, "switch.debug_what");
}

int repl_cmd_trace(repl *r, const char *args) {
    return switch_arg(r, "trace", args, &r->trace, "switch.trace_what");
}

/* ------------------------------------------------------- state PATH */

static void print_tree(repl *r, const value *v) {
    char *y = value_to_yaml(v);
    if (!y) {
        repl_fail(r, "%s", repl_tr(r, "error.oom"));
        return;
    }
    fputs(y, r->out);
    if (y[0] && y[strlen(y) - 1] != '\n') fputc('\n', r->out);
    free(y);
}

/* "players is a list of 2" / "a map with bag, players, round" / "an integer". */
static char *what_is(const repl *r, const value *v) {
    if (v->type == CV_LIST) return cairn_strfmt(repl_tr(r, "state.is_list"), v->u.list.n);
    if (v->type != CV_MAP) return repl_value_words(r, v);
    char *s = cairn_strdup("");
    for (size_t i = 0; s && i < v->u.map.n && i < 12; i++) {
        char *t = cairn_strfmt("%s%s%s", s, i ? ", " : "", v->u.map.items[i].key->u.str.s);
        free(s);
        s = t;
    }
    if (s && v->u.map.n > 12) {
        char *t = cairn_strfmt("%s, ...", s);
        free(s);
        s = t;
    }
    if (s && v->u.map.n == 0) {
        free(s);
        return cairn_strdup(repl_tr(r, "state.is_empty_map"));
    }
    char *m = s ? cairn_strfmt(repl_tr(r, "state.is_map"), s) : NULL;
    free(s);
    return m;
}

int repl_state_path(repl *r, const char *args) {
    int peek = 0;
    if (strncmp(args, "--peek ", 7) == 0) peek = 1, args += 7;
    while (*args == ' ') args++;
    /* a part of the whole state may hold another seat's secrets: asked as
    ** for the whole (`state --peek`) */
    if (peek && !repl_confirm_secrets(r, repl_tr(r, "confirm.whole_state"))) return 0;
    statepath p = {0};
    cerr_list errs;
    cerr_init(&errs, 1);
    if (statepath_parse_errs(args, &p, &errs) != 0) {
        char *why = errs.n ? repl_error_text(r, &errs.items[0]) : NULL;
        repl_fail(r, "state %s", why ? why : repl_tr(r, "error.oom"));
        free(why);
        cerr_free(&errs);
        return -1;
    }
    cerr_free(&errs);
    value *own = peek ? NULL : engine_view(r->e, r->viewer);
    const value *root = peek ? engine_state(r->e) : own;
    if (!root) {
        statepath_free(&p);
        repl_fail(r, "%s", repl_tr(r, "error.oom"));
        return -1;
    }
    size_t reached;
    const value *v = statepath_get(root, &p, &reached);
    int rc = 0;
    if (v) {
        char *name = statepath_format(&p, p.n);
        if (peek) repl_say(r, 0, repl_tr(r, "state.peek"), name ? name : "?");
        else repl_plain(r, repl_tr(r, "state.part_as"), name ? name : "?", repl_seat_name(r, r->viewer));
        free(name);
        print_tree(r, v);
    } else {
        const value *at = reached ? statepath_get(root, &(statepath){p.steps, reached}, NULL) : root;
        char *have = statepath_format(&p, reached), *miss = statepath_format(&p, reached + 1), *is = what_is(r, at);
        if (reached && peek)
            repl_fail(r, repl_tr(r, "state.no_path_has_peek"), miss ? miss : "?", have ? have : "?", is ? is : "?");
        else if (reached)
            repl_fail(r, repl_tr(r, "state.no_path_has"), miss ? miss : "?", repl_seat_name(r, r->viewer),
                      have ? have : "?", is ? is : "?");
        else if (peek)
            repl_fail(r, repl_tr(r, "state.no_path_peek"), miss ? miss : "?", is ? is : "?");
        else
            repl_fail(r, repl_tr(r, "state.no_path"), miss ? miss : "?", repl_seat_name(r, r->viewer), is ? is : "?");
        free(have);
        free(miss);
        free(is);
        rc = -1;
    }
    value_free(own);
    statepath_free(&p);
    return rc;
}

/* ----------------------------------------------------------- eval */

/* The first error of errs after `key`'s text ("eval: %s"). */
static void fail_errors(repl *r, const char *key, cerr_list *errs) {
    if (errs->n == 0) {
        repl_fail(r, repl_tr(r, key), errs->oom ? repl_tr(r, "error.oom") : repl_tr(r, "eval.no_reason"));
        return;
    }
    char *s = repl_error_text(r, &errs->items[0]);
    repl_fail(r, repl_tr(r, key), s ? s : errs->items[0].message);
    free(s);
}

int repl_cmd_eval(repl *r, const char *args) {
    if (!args[0]) {
        repl_fail(r, "%s", repl_tr(r, "eval.usage"));
        return -1;
    }
    cerr_list errs;
    cerr_init(&errs, 0);
    char *text = engine_eval(r->e, r->viewer, args, NULL, &errs);
    if (!text) {
        fail_errors(r, "eval.failed", &errs);
        cerr_free(&errs);
        return -1;
    }
    cerr_free(&errs);
    repl_plain(r, "%s", text);
    free(text);
    return 0;
}

/* ------------------------------------------------------ set PATH VALUE */

/* A Lua table constructor with `=` in it ({food = 3}), which YAML reads
** otherwise; `{a: 1}` and `[1, 2]` are YAML. */
static int looks_lua_table(const char *s) {
    if (*s != '{') return 0;
    char q = 0;
    for (; *s; s++) {
        if (q) {
            if (*s == '\\' && s[1]) s++;
            else if (*s == q) q = 0;
        } else if (*s == '"' || *s == '\'') {
            q = *s;
        } else if (*s == '=') {
            return 1;
        } else if (*s == ':') {
            return 0;
        }
    }
    return 0;
}

/* The value text as a tree: YAML (a scalar, [..], {k: v}) or a Lua table
** constructor ({1, 2}, {food = 3}) evaluated in the sandbox. */
static value *read_value(repl *r, const char *text) {
    cerr_list errs;
    cerr_init(&errs, 0);
    value *v = NULL;
    if (looks_lua_table(text) || (text[0] == '{' && strchr(text, ':') == NULL && strchr(text, '}'))) {
        char *shown = engine_eval(r->e, r->viewer, text, &v, &errs);
        free(shown);
        if (!v && errs.n == 0) cerr_addk(&errs, NULL, 0, 0, NULL, "repl.not_plain", "not plain data");
    } else {
        v = yload_string("set", text, strlen(text), NULL, &errs);
    }
    if (!v) fail_errors(r, "set.bad_value", &errs);
    cerr_free(&errs);
    return v;
}

int repl_cmd_set(repl *r, const char *args) {
    const char *sp = strchr(args, ' ');
    if (!args[0] || !sp) {
        repl_fail(r, "%s", repl_tr(r, "set.usage"));
        return -1;
    }
    char *path = strndup(args, (size_t)(sp - args));
    const char *text = sp + 1;
    while (*text == ' ') text++;
    value *v = path && *text ? read_value(r, text) : NULL;
    if (!path || !v) {
        if (path && !*text) repl_fail(r, repl_tr(r, "set.missing"), path);
        free(path);
        return -1;
    }
    /* the path's errors first, keyed, so that they are told in the game's language */
    cerr_list errs;
    cerr_init(&errs, 1);
    if (engine_edit_check_path(r->e, path, &errs) != 0) {
        char *m = errs.n ? repl_error_text(r, &errs.items[0]) : NULL;
        repl_fail(r, repl_tr(r, "set.refused"), path, m ? m : repl_tr(r, "error.oom"));
        free(m);
        cerr_free(&errs);
        value_free(v);
        free(path);
        return -1;
    }
    engine_status st = engine_edit_errs(r->e, path, v, &errs);
    value_free(v);
    if (st != ENGINE_OK) {
        char *why = errs.n ? repl_error_text(r, &errs.items[0]) : NULL;
        repl_fail(r, repl_tr(r, "set.refused"), path,
                  why ? why : errs.oom ? repl_tr(r, "error.oom") : engine_status_name(st));
        free(why);
        cerr_free(&errs);
        free(path);
        return -1;
    }
    cerr_free(&errs);
    size_t n;
    const engine_logged *log = engine_log(r->e, &n);
    repl_plain(r, repl_tr(r, "set.edited"), engine_position(r->e),
               log[engine_position(r->e) - 1].id);
    free(path);
    r->changed = 1;
    r->dirty = 1;
    r->over_shown = 0;
    return 0;
}

/* --------------------------------------------------- option mid-game */

/* choices without those of id (NULL: all kept), then add (when not NULL).
** NULL on OOM. */
static char **choices_with(const repl_settings *s, const char *id, size_t idlen, const char *add, size_t *n) {
    char **out = calloc(s->n_choices + 1, sizeof *out);
    *n = 0;
    for (size_t i = 0; out && i < s->n_choices; i++) {
        const char *c = s->choices[i];
        if (id && strncmp(c, id, idlen) == 0 && (c[idlen] == '\0' || c[idlen] == '=')) continue;
        if (!(out[(*n)++] = strdup(c))) goto oom;
    }
    if (out && add && !(out[(*n)++] = strdup(add))) goto oom;
    if (out) return out;
oom:
    for (size_t i = 0; out && i < *n; i++) free(out[i]);
    free(out);
    return NULL;
}

static void free_strv(char **v, size_t n) {
    for (size_t i = 0; v && i < n; i++) free(v[i]);
    free(v);
}

int repl_cmd_option(repl *r, const char *args) {
    const ruleset *rs = engine_ruleset(r->e);
    if (!args[0]) {
        repl_fail(r, "%s", repl_tr(r, "option.usage"));
        return -1;
    }
    const char *eq = strchr(args, '='), *sp = strchr(args, ' '), *dot = strchr(args, '.');
    char *choice = NULL, *set = NULL;
    size_t idlen = eq ? (size_t)(eq - args) : sp ? (size_t)(sp - args) : strlen(args);
    if (eq && dot && dot < eq) { /* a data override, as --set */
        char *name, *path, *why = NULL;
        const char *val;
        if (ruleset_set_split(args, &name, &path, &val, &why) != 0) {
            repl_fail(r, "option %s", why ? why : repl_tr(r, "error.oom"));
            free(why);
            return -1;
        }
        free(name);
        free(path);
        set = strdup(args);
    } else {
        char *id = strndup(args, idlen);
        const ruleset_option *o = id ? ruleset_option_find(rs, id) : NULL;
        if (!o) {
            suggest_nearest sn = suggest_start(id ? id : "", 3, 0);
            for (size_t i = 0; i < rs->n_opts; i++) suggest_try(&sn, rs->opts[i].id);
            repl_fail(r, repl_tr(r, "option.none"), rs->id, id ? id : "?", sn.best ? repl_tr(r, "option.mean") : "",
                      sn.best ? sn.best : "");
            free(id);
            return -1;
        }
        const char *val = eq ? eq + 1 : sp ? sp + 1 : "";
        while (*val == ' ') val++;
        if (o->type == ROPT_SWITCH) {
            int on = !strcmp(val, "on") || !strcmp(val, "true"), off = !strcmp(val, "off") || !strcmp(val, "false");
            if (!on && !off) {
                if (!*val) repl_fail(r, repl_tr(r, "option.switch_which"), id, id, id);
                else repl_fail(r, repl_tr(r, "option.switch_bad"), id, val);
                free(id);
                return -1;
            }
            choice = on ? strdup(id) : cairn_strfmt("%s=false", id);
        } else {
            if (!*val) {
                repl_fail(r, repl_tr(r, "option.choice"), id, id, id);
                free(id);
                return -1;
            }
            choice = cairn_strfmt("%s=%s", id, val);
        }
        free(id);
        if (!choice) {
            repl_fail(r, "%s", repl_tr(r, "error.oom"));
            return -1;
        }
    }
    size_t nc = 0, ns = r->set.n_sets;
    char **choices = choices_with(&r->set, set ? NULL : args, idlen, choice, &nc);
    char **sets = calloc(ns + 2, sizeof *sets);
    for (size_t i = 0; sets && i < r->set.n_sets; i++) sets[i] = r->set.sets[i];
    if (sets && set) sets[ns++] = set;
    if (!choices || !sets) {
        repl_fail(r, "%s", repl_tr(r, "error.oom"));
        free_strv(choices, nc);
        free(sets);
        free(set);
        free(choice);
        return -1;
    }
    engine_reload_report rep = {0};
    cerr_list errs;
    cerr_init(&errs, 0);
    int rc = engine_reload_with(r->e, (const char *const *)choices, nc, (const char *const *)sets, ns, &rep, &errs);
    if (rc != 0) {
        repl_fail(r, repl_tr(r, "option.refused"), args);
        for (size_t i = 0; i < errs.n; i++) {
            char *s = repl_error_text(r, &errs.items[i]);
            repl_plain(r, "  %s", s ? s : errs.items[i].message);
            free(s);
        }
        cerr_free(&errs);
        free_strv(choices, nc);
        free(sets);
        free(set);
        free(choice);
        return -1;
    }
    cerr_free(&errs);
    /* the settings follow, for `new`, `restart` and saves */
    free_strv(r->set.choices, r->set.n_choices);
    r->set.choices = choices;
    r->set.n_choices = nc;
    if (set) {
        char **grown = realloc(r->set.sets, (r->set.n_sets + 1) * sizeof *grown);
        if (grown) {
            r->set.sets = grown;
            r->set.sets[r->set.n_sets++] = set;
            set = NULL;
        }
    }
    free(set);
    free(sets);
    repl_plain(r, repl_tr(r, "option.remade"), choice ? choice : args);
    free(choice);
    r->dirty = 1;
    repl_report_replay(r, &rep);
    engine_reload_report_free(&rep);
    return 0;
}
