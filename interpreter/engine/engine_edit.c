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

#include <ctype.h>
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

/* "set PATH VALUE" into d: 0, or -1 after adding why not to errs (keyed). */
static int parse(const char *id, edit *d, cerr_list *errs) {
    memset(d, 0, sizeof *d);
    if (strncmp(id, EDIT_PREFIX, strlen(EDIT_PREFIX)) != 0) {
        cerr_addk(errs, NULL, 0, 0, NULL, "edit.not_edit", "\"%s\" is no edit (set PATH VALUE)", id);
        return -1;
    }
    const char *p = id + strlen(EDIT_PREFIX), *sp = strchr(p, ' ');
    if (!sp) {
        cerr_addk(errs, NULL, 0, 0, NULL, "edit.no_value", "set PATH VALUE: the value is missing");
        return -1;
    }
    d->path_text = strndup(p, (size_t)(sp - p));
    if (!d->path_text) return errs->oom = 1, -1;
    if (statepath_parse_errs(d->path_text, &d->path, errs) != 0) return -1;
    if (d->path.n == 0) {
        cerr_addk(errs, NULL, 0, 0, NULL, "edit.which_part", "set PATH VALUE: which part of the state?");
        return -1;
    }
    cerr_list yerrs;
    cerr_init(&yerrs, 1);
    const char *text = sp + 1;
    d->val = yload_string("set", text, strlen(text), NULL, &yerrs);
    drop_locations(d->val, 0);
    if (!d->val && yerrs.n)
        cerr_addk(errs, NULL, 0, 0, NULL, "edit.not_yaml_why", "the value \"%s\" does not read as YAML: %s", text,
                  yerrs.items[0].message);
    else if (!d->val)
        cerr_addk(errs, NULL, 0, 0, NULL, "edit.not_yaml", "the value \"%s\" does not read as YAML", text);
    cerr_free(&yerrs);
    return d->val ? 0 : -1;
}

/* "the state has no MISSING (HAVE exists)": the first reached + 1 steps of p
** are missing, the first reached exist; added to errs keyed
** "state.no_such" (MISSING) or "state.no_such_but" (MISSING, HAVE). */
static void no_such(const statepath *p, size_t reached, cerr_list *errs) {
    char *have = statepath_format(p, reached), *miss = statepath_format(p, reached + 1);
    if (!have || !miss)
        errs->oom = 1;
    else if (reached)
        cerr_addk(errs, NULL, 0, 0, NULL, "state.no_such_but", "the state has no %s (%s exists)", miss, have);
    else
        cerr_addk(errs, NULL, 0, 0, NULL, "state.no_such", "the state has no %s", miss);
    free(have);
    free(miss);
}

/* "PATH is TYPE, not a map or a list", keyed by the type (a word of the
** console's languages). */
static void not_container(cerr_list *errs, const char *where, cv_type t) {
    switch (t) {
    case CV_NULL:
        cerr_addk(errs, NULL, 0, 0, NULL, "edit.null_not_container", "%s is null, not a map or a list", where);
        break;
    case CV_BOOL:
        cerr_addk(errs, NULL, 0, 0, NULL, "edit.boolean_not_container", "%s is boolean, not a map or a list", where);
        break;
    case CV_INT:
        cerr_addk(errs, NULL, 0, 0, NULL, "edit.integer_not_container", "%s is integer, not a map or a list", where);
        break;
    default:
        cerr_addk(errs, NULL, 0, 0, NULL, "edit.string_not_container", "%s is string, not a map or a list", where);
        break;
    }
}

/* Puts d->val at d->path in st (a tree the caller owns): 0, or -1 after
** adding why not to errs: the parent must exist (the error names the
** longest prefix that does); a map may get a new key, a list an item at
** 1..n, or n+1 (appended). */
static int put(value *st, edit *d, cerr_list *errs) {
    statepath parent = {d->path.steps, d->path.n - 1};
    size_t reached;
    value *at = statepath_get(st, &parent, &reached);
    if (!at) return no_such(&d->path, reached, errs), -1;
    const statepath_step *last = &d->path.steps[d->path.n - 1];
    value *nv = value_clone(d->val);
    if (!nv) return errs->oom = 1, -1;
    if (at->type == CV_MAP) {
        char num[32];
        snprintf(num, sizeof num, "%ld", last->index);
        if (value_map_set(at, last->key ? last->key : num, nv) != 0) return errs->oom = 1, -1;
        return 0;
    }
    if (at->type == CV_LIST) {
        long i = last->index;
        char *end = NULL;
        if (last->key) i = strtol(last->key, &end, 10);
        if ((last->key && (*end || end == last->key)) || i < 1 || (size_t)i > at->u.list.n + 1) {
            char *where = statepath_format(&parent, parent.n);
            char count[24], most[24];
            snprintf(count, sizeof count, "%zu", at->u.list.n);
            snprintf(most, sizeof most, "%zu", at->u.list.n + 1);
            if (!where)
                errs->oom = 1;
            else if (*where)
                cerr_addk(errs, NULL, 0, 0, NULL, "edit.list_index", "%s is a list of %s: give an index from 1 to %s",
                          where, count, most);
            else
                cerr_addk(errs, NULL, 0, 0, NULL, "edit.state_list_index",
                          "the state is a list of %s: give an index from 1 to %s", count, most);
            free(where);
            value_free(nv);
            return -1;
        }
        if ((size_t)i == at->u.list.n + 1) return value_list_push(at, nv) == 0 ? 0 : (errs->oom = 1, -1);
        value_free(at->u.list.items[i - 1]);
        at->u.list.items[i - 1] = nv;
        return 0;
    }
    value_free(nv);
    char *where = statepath_format(&parent, parent.n);
    if (where) not_container(errs, where, at->type);
    else errs->oom = 1;
    free(where);
    return -1;
}

/* d applied to a copy of the state now, or NULL after adding why not. */
static value *edited_state(engine *e, edit *d, cerr_list *errs) {
    const value *st = engine_state(e);
    value *copy = st ? value_clone(st) : NULL;
    if (!copy) {
        if (st) errs->oom = 1;
        else cerr_addk(errs, NULL, 0, 0, NULL, "edit.not_plain", "the state is not plain data");
        return NULL;
    }
    if (put(copy, d, errs) != 0) {
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

int edit_explain_errs(engine *e, const char *id, cerr_list *errs) {
    edit d;
    value *st = parse(id, &d, errs) == 0 ? edited_state(e, &d, errs) : NULL;
    int rc = st ? 0 : -1;
    value_free(st);
    edit_free(&d);
    return rc;
}

char *edit_explain(engine *e, const char *id, engine_status *status) {
    cerr_list errs;
    cerr_init(&errs, 1);
    int rc = edit_explain_errs(e, id, &errs);
    char *why = rc == 0 ? NULL : engine_first_error(&errs);
    cerr_free(&errs);
    *status = rc == 0 ? ENGINE_OK : ENGINE_DISABLED;
    return why;
}

/* A path of the state schema's errors ("state.needles[0].height": indices
** from 0) as a person types it for `set` (needles[1].height): indices from
** 1, without the leading "state."; into a fresh string, NULL on OOM. */
static char *path_as_typed(const char *path) {
    if (strncmp(path, "state.", 6) == 0) path += 6;
    strbuf b = {0};
    for (const char *p = path; *p;) {
        if (*p == '[' && isdigit((unsigned char)p[1])) {
            char *end;
            unsigned long long i = strtoull(p + 1, &end, 10);
            if (*end == ']') {
                strbuf_printf(&b, "[%llu]", i + 1);
                p = end + 1;
                continue;
            }
        }
        strbuf_putc(&b, *p++);
    }
    return strbuf_take(&b);
}

/* The state schema on an edited state; its errors name the paths as typed. */
static int schema_validate_edit(const engine_rules *r, const value *st, cerr_list *errs) {
    size_t before = errs->n;
    int rc = schema_validate(r->schemas, r->state_schema, NULL, st, "state", errs);
    for (size_t i = before; i < errs->n; i++) {
        cairn_error *err = &errs->items[i];
        if (!err->path) continue;
        char *typed = path_as_typed(err->path);
        if (!typed) continue; /* out of memory: the path stays as the schema said it */
        free(err->path);
        err->path = typed;
    }
    return rc;
}

int edit_run(engine *e, const char *id, cerr_list *errs) {
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    edit d;
    value *st = parse(id, &d, errs) == 0 ? edited_state(e, &d, errs) : NULL;
    int rc = -1;
    const engine_rules *r = e->rt.rules;
    if (!st) {
        /* why not is in errs */
    } else if (r->state_schema && schema_validate_edit(r, st, errs) != 0) {
        cerr_addk(errs, NULL, 0, 0, NULL, "edit.breaks_schema", "the edit breaks the state schema: nothing changed");
    } else if (engine_set_live(e, st) != 0) {
        errs->oom = 1;
    } else {
        rc = 1;
    }
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
        char size[24], limit[24];
        snprintf(size, sizeof size, "%zu", strlen(id));
        snprintf(limit, sizeof limit, "%ld", (long)CAIRN_YAML_MAX_STRING);
        cerr_addk(errs, NULL, 0, 0, NULL, "edit.too_long",
                  "the edit is %s bytes as text, longer than a save can hold (limit CAIRN_YAML_MAX_STRING, %s)",
                  size, limit);
        free(id);
        return ENGINE_RULES_ERROR;
    }
    engine_status st = engine_answer_errs(e, 0, id, errs);
    free(id);
    return st;
}
