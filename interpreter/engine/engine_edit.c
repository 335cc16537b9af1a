/*
** engine_edit.c
** `set PATH VALUE`: an edit of the state for testing a situation, made a
** step of the game's log so that everything that replays the log (undo,
** redo, goto, save and load, reload, replay) reproduces it. An edit is a
** log entry of seat 0 (no seat is numbered 0) whose id is "set PATH VALUE"
** with VALUE in one canonical form (JSON, which reads back as YAML). It is
** applied as a decision is (engine_apply: a transaction, the plain-data
** check, the state schema, the check handler, the next decisions asked)
** but runs no rule: the live state is rebuilt from the edited tree.
*/
#include "engine_internal.h"
#include "json_string.h"
#include "limits.h"
#include "statepath.h"
#include "strbuf.h"
#include "yload.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#define EDIT_PREFIX "set "

/* --------------------------------------------------------- canonical text */

/* v on one line, as JSON. */
static void put_json(strbuf *b, const value *v, int depth) {
    if (depth > 64) return (void)(b->oom = 1);
    switch (v->type) {
    case CV_NULL: strbuf_puts(b, "null"); break;
    case CV_BOOL: strbuf_puts(b, v->u.b ? "true" : "false"); break;
    case CV_INT: strbuf_printf(b, "%lld", (long long)v->u.i); break;
    case CV_STR: json_string_put(b, v->u.str.s, v->u.str.len); break;
    case CV_LIST:
        strbuf_putc(b, '[');
        for (size_t i = 0; i < v->u.list.n; i++) {
            if (i) strbuf_puts(b, ", ");
            put_json(b, v->u.list.items[i], depth + 1);
        }
        strbuf_putc(b, ']');
        break;
    case CV_MAP:
        strbuf_putc(b, '{');
        for (size_t i = 0; i < v->u.map.n; i++) {
            if (i) strbuf_puts(b, ", ");
            json_string_put(b, v->u.map.items[i].key->u.str.s, v->u.map.items[i].key->u.str.len);
            strbuf_puts(b, ": ");
            put_json(b, v->u.map.items[i].val, depth + 1);
        }
        strbuf_putc(b, '}');
        break;
    }
}

/* ------------------------------------------------------------- parsing */

typedef struct edit {
    statepath path;
    char *path_text;
    value *val;
} edit;

static void edit_free(edit *d) {
    statepath_free(&d->path);
    free(d->path_text);
    value_free(d->val);
}

/* Forgets where v was read from: an edit's value has no file a message
** could name ("set:1:1"). */
static void drop_locations(value *v, int depth) {
    if (!v || depth > 64) return;
    value_set_loc(v, NULL, 0, 0);
    if (v->type == CV_LIST)
        for (size_t i = 0; i < v->u.list.n; i++) drop_locations(v->u.list.items[i], depth + 1);
    if (v->type == CV_MAP)
        for (size_t i = 0; i < v->u.map.n; i++) {
            value_set_loc(v->u.map.items[i].key, NULL, 0, 0);
            drop_locations(v->u.map.items[i].val, depth + 1);
        }
}

/* "set PATH VALUE" into d; NULL, or why not (malloc'd). */
static char *parse(const char *id, edit *d) {
    memset(d, 0, sizeof *d);
    if (strncmp(id, EDIT_PREFIX, strlen(EDIT_PREFIX)) != 0)
        return cairn_strfmt("\"%s\" is no edit (set PATH VALUE)", id);
    const char *p = id + strlen(EDIT_PREFIX), *sp = strchr(p, ' ');
    if (!sp) return cairn_strdup("set PATH VALUE: the value is missing");
    d->path_text = strndup(p, (size_t)(sp - p));
    if (!d->path_text) return cairn_strdup("out of memory");
    char *why;
    if (statepath_parse(d->path_text, &d->path, &why) != 0) return why;
    if (d->path.n == 0) return cairn_strdup("set PATH VALUE: which part of the state?");
    cerr_list errs;
    cerr_init(&errs, 1);
    const char *text = sp + 1;
    d->val = yload_string("set", text, strlen(text), NULL, &errs);
    drop_locations(d->val, 0);
    char *msg = d->val ? NULL : errs.n ? cairn_strfmt("the value \"%s\" does not read as YAML: %s", text, errs.items[0].message)
                                   : cairn_strfmt("the value \"%s\" does not read as YAML", text);
    cerr_free(&errs);
    return msg;
}

/* "the state has no MISSING (HAVE exists)": the first reached + 1 steps of p
** are missing, the first reached exist. With errs, added to it keyed
** "state.no_such" (MISSING) or "state.no_such_but" (MISSING, HAVE) and NULL
** returned; else the text (malloc'd). */
static char *no_such(const statepath *p, size_t reached, cerr_list *errs) {
    char *have = statepath_format(p, reached), *miss = statepath_format(p, reached + 1);
    char *m = cairn_strfmt("the state has no %s%s%s%s", miss ? miss : "?", reached ? " (" : "",
                           reached ? have : "", reached ? " exists)" : "");
    if (errs) {
        size_t n = errs->n;
        if (m) cerr_add(errs, NULL, 0, 0, NULL, "%s", m);
        else errs->oom = 1;
        if (m && miss && have)
            cerr_key(errs, n, reached ? "state.no_such_but" : "state.no_such", 0, miss, reached ? have : NULL);
        free(m);
        m = NULL;
    }
    free(have);
    free(miss);
    return m;
}

/* Puts d->val at d->path in st (a tree the caller owns). NULL, or why not:
** the parent must exist (the error names the longest prefix that does); a
** map may get a new key, a list an item at 1..n, or n+1 (appended). */
static char *put(value *st, edit *d) {
    statepath parent = {d->path.steps, d->path.n - 1};
    size_t reached;
    value *at = statepath_get(st, &parent, &reached);
    if (!at) return no_such(&d->path, reached, NULL);
    const statepath_step *last = &d->path.steps[d->path.n - 1];
    value *nv = value_clone(d->val);
    if (!nv) return cairn_strdup("out of memory");
    if (at->type == CV_MAP) {
        char num[32];
        snprintf(num, sizeof num, "%ld", last->index);
        if (value_map_set(at, last->key ? last->key : num, nv) != 0) return cairn_strdup("out of memory");
        return NULL;
    }
    if (at->type == CV_LIST) {
        long i = last->index;
        char *end = NULL;
        if (last->key) i = strtol(last->key, &end, 10);
        if ((last->key && (*end || end == last->key)) || i < 1 || (size_t)i > at->u.list.n + 1) {
            char *where = statepath_format(&parent, parent.n);
            char *m = cairn_strfmt("%s is a list of %zu: give an index from 1 to %zu", where && *where ? where : "the state",
                                   at->u.list.n, at->u.list.n + 1);
            free(where);
            value_free(nv);
            return m;
        }
        if ((size_t)i == at->u.list.n + 1) return value_list_push(at, nv) == 0 ? NULL : cairn_strdup("out of memory");
        value_free(at->u.list.items[i - 1]);
        at->u.list.items[i - 1] = nv;
        return NULL;
    }
    value_free(nv);
    char *where = statepath_format(&parent, parent.n);
    char *m = cairn_strfmt("%s is %s, not a map or a list", where, value_type_name(at->type));
    free(where);
    return m;
}

/* d applied to a copy of the state now, or NULL with *why. */
static value *edited_state(engine *e, edit *d, char **why) {
    const value *st = engine_state(e);
    value *copy = st ? value_clone(st) : NULL;
    if (!copy) return *why = cairn_strdup(st ? "out of memory" : "the state is not plain data"), NULL;
    if ((*why = put(copy, d)) != NULL) {
        value_free(copy);
        return NULL;
    }
    return copy;
}

int engine_edit_check_path(engine *e, const char *path, cerr_list *errs) {
    statepath p = {0};
    if (statepath_parse_errs(path, &p, errs) != 0) return -1;
    int rc = 0;
    const value *st = engine_state(e);
    if (p.n > 0 && st) {
        statepath parent = {p.steps, p.n - 1};
        size_t reached;
        if (!statepath_get(st, &parent, &reached)) {
            no_such(&p, reached, errs);
            rc = -1;
        }
    }
    statepath_free(&p);
    return rc;
}

char *edit_explain(engine *e, const char *id, engine_status *status) {
    edit d;
    char *why = parse(id, &d);
    value *st = why ? NULL : edited_state(e, &d, &why);
    value_free(st);
    edit_free(&d);
    *status = why ? ENGINE_DISABLED : ENGINE_OK;
    return why;
}

int edit_run(engine *e, const char *id, cerr_list *errs) {
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    edit d;
    char *why = parse(id, &d);
    value *st = why ? NULL : edited_state(e, &d, &why);
    int rc = -1;
    const engine_rules *r = e->rt.rules;
    if (why) {
        cerr_add(errs, NULL, 0, 0, NULL, "%s", why);
    } else if (r->state_schema && schema_validate(r->schemas, r->state_schema, NULL, st, "state", errs) != 0) {
        cerr_add(errs, NULL, 0, 0, NULL, "the edit breaks the state schema: nothing changed");
    } else if (engine_set_live(e, st) != 0) {
        errs->oom = 1;
    } else {
        rc = 1;
    }
    free(why);
    value_free(st);
    edit_free(&d);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    trace_mark_edit(e, (uint64_t)((t1.tv_sec - t0.tv_sec) * 1000000000LL + (t1.tv_nsec - t0.tv_nsec)));
    return rc;
}

/* ------------------------------------------------------------ the API */

int engine_log_is_edit(const engine_logged *l) { return l->seat == 0; }

engine_status engine_edit(engine *e, const char *path, const value *v, char **why) {
    *why = NULL;
    cerr_list errs;
    cerr_init(&errs, 0);
    engine_status st = engine_edit_errs(e, path, v, &errs);
    if (st != ENGINE_OK) *why = engine_first_error(&errs);
    cerr_free(&errs);
    return st;
}

engine_status engine_edit_errs(engine *e, const char *path, const value *v, cerr_list *errs) {
    strbuf b = {0};
    strbuf_printf(&b, EDIT_PREFIX "%s ", path);
    put_json(&b, v, 0);
    if (b.oom) {
        strbuf_free(&b);
        errs->oom = 1;
        return ENGINE_NO_MEMORY;
    }
    char *id = strbuf_take(&b);
    if (!id) return errs->oom = 1, ENGINE_NO_MEMORY;
    /* the edit is saved as this text, one string: no longer than a save's */
    if (strlen(id) > (size_t)CAIRN_YAML_MAX_STRING) {
        cerr_add(errs, NULL, 0, 0, NULL, "the edit is %zu bytes as text, longer than a save can hold (limit "
                 "CAIRN_YAML_MAX_STRING, %ld)", strlen(id), (long)CAIRN_YAML_MAX_STRING);
        free(id);
        return ENGINE_RULES_ERROR;
    }
    engine_status st = engine_answer_errs(e, 0, id, errs);
    free(id);
    return st;
}
