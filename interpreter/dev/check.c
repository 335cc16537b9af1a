/*
** check.c
** What `cairn check` verifies beyond loading the ruleset as asked: every
** option value loaded on its own, every Lua script compiled up front, and
** the note a mod without tests gets. The verdict itself is main.c's.
*/
#include "check.h"
#include "grow.h"
#include "limits.h"
#include "load_cache.h"
#include "safe_open.h"
#include "sandbox.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <lauxlib.h>
#include <lua.h>

/* ------------------------------------------------------------ error sets */

/* Appends every error of src to dst that dst does not hold yet (the same
** broken overlay is met by every combination that turns it on). */
static void merge_new(cerr_list *dst, const cerr_list *src) {
    for (size_t i = 0; i < src->n; i++) {
        char *m = cerr_format(&src->items[i]);
        if (!m) {
            dst->oom = 1;
            continue;
        }
        int seen = 0;
        for (size_t k = 0; k < dst->n && !seen; k++) {
            char *o = cerr_format(&dst->items[k]);
            seen = o && strcmp(o, m) == 0;
            free(o);
        }
        free(m);
        if (!seen) { /* merged as it is, its key and arguments too */
            cerr_list one = {0};
            one.items = (cairn_error *)&src->items[i];
            one.n = 1;
            cerr_merge(dst, &one);
        }
    }
    dst->dropped += src->dropped;
    dst->oom |= src->oom;
}

/* --------------------------------------------------------- option values */

/* Every value of option o as the "id=value" a request takes, or NULL. */
static char **values_of(const ruleset_option *o, size_t *n) {
    const value *items = value_map_get(o->def, "items");
    size_t m = o->type == ROPT_SWITCH ? 2 : value_len(items);
    *n = 0;
    char **v = calloc(m ? m : 1, sizeof *v);
    if (!v) return NULL;
    for (size_t i = 0; i < m; i++) {
        const char *val = o->type == ROPT_SWITCH ? (i ? "true" : "false")
                                                 : value_get_str(items->u.list.items[i], "id", "?");
        if (!(v[i] = cairn_strfmt("%s=%s", o->id, val))) break;
        *n = i + 1;
    }
    return v;
}

/* Loads name with `choice` alone at each seat count until the manifest
** allows it. Returns 0 loaded, 1 forbidden everywhere (*why: the errors of
** the first refusal, malloc'd, or NULL without memory), -1 failed (errors
** appended). */
static int load_value(const char *name, const ruleset *r, load_cache *cache, const char *choice,
                      cerr_list **why, cerr_list *errs) {
    const char *choices[1] = {choice};
    *why = NULL;
    for (int p = r->min_players; p <= r->max_players; p++) {
        ruleset_request req = {choices, 1, NULL, p, NULL, 0};
        cerr_list local;
        cerr_init(&local, 0);
        int refused = 0;
        int rc = ruleset_verdict_cached(name, &req, cache, &refused, &local) == 0 ? 0 : refused ? 1 : -1;
        if (rc == 1 && !*why && local.n && (*why = calloc(1, sizeof **why))) {
            **why = local; /* kept: its errors are the reason */
            cerr_init(&local, 0);
        }
        if (rc == -1) merge_new(errs, &local);
        cerr_free(&local);
        if (rc != 1) {
            if (*why) cerr_free(*why);
            free(*why);
            *why = NULL;
            return rc;
        }
    }
    return 1;
}

/* The note on an option value the manifest forbids at every seat count:
** its reason (why's first error, may be NULL) as a phrase of its own key
** ("error.KEY" with its arguments) when it has one the phrase can carry,
** else its English message. */
static void note_never_alone(cerr_list *notes, const char *choice, const cerr_list *why) {
    const cairn_error *e = why && why->n ? &why->items[0] : NULL;
    const char *english = e ? e->message : "the manifest forbids it";
    char *reason = NULL;
    if (e && e->key && !e->sys_errno && strcmp(e->key, "schema.expected") != 0) {
        char key[96];
        snprintf(key, sizeof key, "error.%s", e->key);
        size_t n = 0;
        while (n < CERR_MAX_ARGS && e->args[n]) n++;
        reason = cerr_phrasev(key, (const char *const *)e->args, n);
    }
    size_t before = notes->n;
    cerr_add(notes, NULL, 0, 0, NULL, "option %s is never allowed on its own (%s); smoke play tries it with the others",
             choice, english);
    cerr_key(notes, before, "check.note.never_alone", 0, choice,
             reason ? reason : english);
    free(reason);
}

int check_option_values(const char *name, const ruleset *r, load_cache *cache, cerr_list *notes,
                        cerr_list *errs) {
    int failed = 0;
    for (size_t i = 0; i < r->n_opts; i++) {
        size_t n;
        char **vals = values_of(&r->opts[i], &n);
        if (!vals) {
            errs->oom = 1;
            return failed + 1;
        }
        for (size_t k = 0; k < n; k++) {
            cerr_list *why = NULL;
            int rc = load_value(name, r, cache, vals[k], &why, errs);
            if (rc < 0) failed++;
            if (rc == 1 && notes) note_never_alone(notes, vals[k], why);
            if (why) cerr_free(why);
            free(why);
        }
        for (size_t k = 0; k < n; k++) free(vals[k]);
        free(vals);
    }
    return failed;
}

/* --------------------------------------------------------------- scripts */

typedef struct path_set {
    char **p;
    size_t n, cap;
    int oom;
} path_set;

static void set_add(path_set *s, const char *path) {
    if (!path) return;
    for (size_t i = 0; i < s->n; i++)
        if (strcmp(s->p[i], path) == 0) return;
    if (GROW(s->p, s->cap, s->n + 1) != 0) {
        s->oom = 1;
        return;
    }
    if (!(s->p[s->n] = cairn_strdup(path))) s->oom = 1;
    else s->n++;
}

static void set_add_list(path_set *s, const value *list) {
    for (size_t i = 0; list && list->type == CV_LIST && i < list->u.list.n; i++)
        if (list->u.list.items[i]->type == CV_STR) set_add(s, list->u.list.items[i]->u.str.s);
}

/* The text of the script open as f (closed here), at most
** CAIRN_LUA_MAX_SOURCE_BYTES; NULL with an error appended. */
static char *read_script(FILE *f, const char *path, size_t *len, cerr_list *errs) {
    char *buf = malloc((size_t)CAIRN_LUA_MAX_SOURCE_BYTES + 1);
    size_t n = buf ? fread(buf, 1, (size_t)CAIRN_LUA_MAX_SOURCE_BYTES + 1, f) : 0;
    int bad = !buf || ferror(f);
    fclose(f);
    if (bad) {
        if (buf) cerr_addk(errs, path, 0, 0, NULL, "ruleset.read_error", "read error");
        else cerr_addk(errs, path, 0, 0, NULL, "oom", "out of memory reading the script");
        free(buf);
        return NULL;
    }
    if (n > (size_t)CAIRN_LUA_MAX_SOURCE_BYTES) {
        char most[24];
        snprintf(most, sizeof most, "%ld", (long)CAIRN_LUA_MAX_SOURCE_BYTES);
        cerr_addk(errs, path, 0, 0, NULL, "check.script_too_big",
                  "script larger than %s bytes (CAIRN_LUA_MAX_SOURCE_BYTES)", most);
        free(buf);
        return NULL;
    }
    *len = n;
    return buf;
}

/* Compiles the script open as f in L (never runs it). Lua's message starts with
** "<path>:<line>: "; that becomes the error's location. */
static int compile_one(lua_State *L, FILE *f, const char *path, const char *shown, int keep, cerr_list *errs) {
    size_t len;
    char *src = read_script(f, path, &len, errs);
    if (!src) return -1;
    char *chunk = cairn_strfmt("@%s", path), *as_run = cairn_strfmt("@%s", shown);
    if (!chunk || !as_run) {
        free(chunk);
        free(as_run);
        free(src);
        errs->oom = 1;
        return -1;
    }
    /* kept: compiled as the sandbox compiles it, by the name it gives the
    ** file, so that its load is spared the work; a text that fails, or one
    ** not kept, is compiled as it is (Lua's own message) */
    int st = keep ? sandbox_precompile(L, src, len, as_run) : -1;
    if (st != LUA_OK) st = luaL_loadbufferx(L, src, len, chunk, "t");
    free(as_run);
    free(chunk);
    free(src);
    if (st == LUA_OK) {
        lua_pop(L, 1);
        return 0;
    }
    const char *msg = lua_tostring(L, -1);
    if (!msg) msg = "does not compile";
    size_t pl = strlen(path);
    int line = 0;
    if (strncmp(msg, path, pl) == 0 && msg[pl] == ':') {
        char *end;
        long l = strtol(msg + pl + 1, &end, 10);
        if (end != msg + pl + 1 && end[0] == ':' && end[1] == ' ' && l > 0 && l < 100000000L) {
            line = (int)l;
            msg = end + 2;
        }
    }
    cerr_add(errs, path, line, 0, NULL, "%s", msg);
    lua_pop(L, 1);
    return -1;
}

/* `unit:` and `generate:` name files only `cairn test` opens: each must be
** there, or check says so at the line that names it. Returns the number
** missing. */
static int check_test_scripts(const value *m, path_set *s, cerr_list *errs) {
    static const char *const keys[] = {"unit", "generate"};
    int missing = 0;
    for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) {
        const value *list = value_map_get(m, keys[k]);
        for (size_t i = 0; list && list->type == CV_LIST && i < list->u.list.n; i++) {
            const value *f = list->u.list.items[i];
            if (f->type != CV_STR) continue;
            char why[128];
            FILE *probe = safe_fopen_read(f->u.str.s, NULL, why, sizeof why); /* never a FIFO */
            if (probe) {
                fclose(probe);
                set_add(s, f->u.str.s);
                continue;
            }
            int e = errno;
            size_t before = errs->n;
            cerr_add(errs, f->file ? f->file->name : NULL, f->line, f->col, keys[k], "no script \"%s\": %s",
                     f->u.str.s, why);
            cerr_key(errs, before, "check.no_script", e, f->u.str.s, NULL);
            missing++;
        }
    }
    return missing;
}

int check_compile_scripts(const ruleset *r, int sandboxes_follow, cerr_list *errs) {
    path_set s = {0};
    const value *m = r->manifest;
    int failed = check_test_scripts(m, &s, errs);
    size_t scripts_from = s.n; /* the scripts the engine runs, named as it names them */
    set_add(&s, value_get_str(m, "rules", NULL));
    const value *opts = value_map_get(m, "options");
    for (size_t i = 0; opts && opts->type == CV_LIST && i < opts->u.list.n; i++) {
        const value *o = opts->u.list.items[i];
        set_add_list(&s, value_map_get(o, "scripts"));
        const value *items = value_map_get(o, "items");
        for (size_t k = 0; items && items->type == CV_LIST && k < items->u.list.n; k++)
            set_add_list(&s, value_map_get(items->u.list.items[k], "scripts"));
    }
    size_t scripts_to = s.n;
    size_t nl;
    char **lua = ruleset_lua_files(r, &nl);
    for (size_t i = 0; i < nl; i++) set_add(&s, lua[i]);
    ruleset_list_free(lua, nl);
    lua_State *L = luaL_newstate();
    if (!L || s.oom) {
        cerr_addk(errs, NULL, 0, 0, NULL, "oom", "out of memory compiling the scripts");
        failed++;
    }
    for (size_t i = 0; L && !s.oom && i < s.n; i++) {
        char why[128];
        FILE *f = safe_fopen_read(s.p[i], NULL, why, sizeof why);
        if (!f) { /* a missing script was reported where it is named */
            if (errno != ENOENT) {
                int e = errno;
                size_t before = errs->n;
                cerr_add(errs, s.p[i], 0, 0, NULL, "cannot read script: %s", why);
                cerr_key(errs, before, "sandbox.cannot_read_script", e, NULL, NULL);
                failed++;
            }
            continue;
        }
        int script = i >= scripts_from && i < scripts_to;
        const char *shown = script ? ruleset_script_shown(r, s.p[i]) : s.p[i];
        if (compile_one(L, f, s.p[i], shown, sandboxes_follow, errs) != 0) failed++;
    }
    if (L) lua_close(L);
    for (size_t i = 0; i < s.n; i++) free(s.p[i]);
    free(s.p);
    return failed;
}

/* ------------------------------------------------------------------ notes */

void check_note_tests(const ruleset *r, cerr_list *notes) {
    if (r->n_module_dirs < 2) return;
    static const char *const keys[] = {"tests", "golden", "unit", "generate"};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        const value *v = value_map_get(r->manifest, keys[i]);
        if (v && value_len(v)) return;
    }
    cerr_addk(notes, NULL, 0, 0, NULL, "check.note.no_tests",
              "%s has no tests of its own; a mod runs its parent's only with "
              "`inherit: [tests, golden, unit]` in its manifest (docs/testing.md)",
              r->id);
}
