/*
** luatest.c
** A ruleset's Lua unit tests and generators, run by `cairn test` in the
** sandbox games use, with the global `test` giving them the ruleset as
** cairn loads it (test.ruleset{options = ..., players = N}).
*/
#include "luatest.h"
#include "grow.h"
#include "luaval.h"
#include "sandbox.h"
#include "textfmt.h"

#include <stdlib.h>
#include <string.h>

#include <lauxlib.h>

/* ------------------------------------------------------- the test API */

/* test.ruleset([{options = {ID = true|false|"ITEM"}, players = N}]) ->
** {id, data, text, options}: the ruleset loaded as `cairn play` would load
** it for those choices, as fresh tables (a test may edit its copy). Upvalue
** 1: the ruleset's name as the user gave it. Raises the first load error. */
static void free_choices(char **c, size_t n) {
    for (size_t i = 0; c && i < n; i++) free(c[i]);
    free(c);
}

static int api_ruleset(lua_State *L) {
    const char *name = lua_tostring(L, lua_upvalueindex(1));
    int players = 0;
    char **choices = NULL;
    size_t n = 0, want = 0;
    if (!lua_isnoneornil(L, 1)) {
        luaL_checktype(L, 1, LUA_TTABLE);
        lua_getfield(L, 1, "players");
        if (!lua_isnil(L, -1)) players = (int)luaL_checkinteger(L, -1);
        lua_pop(L, 1);
        lua_getfield(L, 1, "options");
    } else {
        lua_pushnil(L);
    }
    /* first pass: check every entry (raising allocates nothing of ours) */
    if (lua_istable(L, -1)) {
        lua_pushnil(L);
        while (lua_next(L, -2)) {
            if (lua_type(L, -2) != LUA_TSTRING || (!lua_isboolean(L, -1) && lua_type(L, -1) != LUA_TSTRING))
                return luaL_error(L, "test.ruleset: options is {ID = true, false or \"ITEM\"}");
            want++;
            lua_pop(L, 1);
        }
    } else if (!lua_isnil(L, -1)) {
        return luaL_error(L, "test.ruleset: options is {ID = true, false or \"ITEM\"}");
    }
    if (want && !(choices = calloc(want, sizeof *choices))) return luaL_error(L, "test.ruleset: out of memory");
    if (want) {
        lua_pushnil(L);
        while (lua_next(L, -2)) {
            const char *id = lua_tostring(L, -2);
            const char *v = lua_isboolean(L, -1) ? (lua_toboolean(L, -1) ? "true" : "false") : lua_tostring(L, -1);
            lua_pop(L, 1);
            if (n == want || !(choices[n] = cairn_strfmt("%s=%s", id, v))) {
                lua_pop(L, 1);
                break;
            }
            n++;
        }
        if (n != want) {
            free_choices(choices, n);
            return luaL_error(L, "test.ruleset: out of memory");
        }
    }
    lua_pop(L, 1);
    ruleset_request req = {(const char *const *)choices, n, NULL, players, NULL, 0};
    cerr_list errs;
    cerr_init(&errs, 0);
    ruleset *rs = ruleset_load(name, &req, &errs);
    free_choices(choices, n);
    if (!rs) {
        char *m = errs.n ? cerr_format(&errs.items[0]) : NULL;
        lua_pushfstring(L, "test.ruleset: %s", m ? m : "the ruleset does not load");
        free(m);
        cerr_free(&errs);
        return lua_error(L);
    }
    lua_createtable(L, 0, 4);
    lua_pushstring(L, rs->id);
    lua_setfield(L, -2, "id");
    int bad = luaval_push_checked(L, rs->data, "test.ruleset().data", &errs) != 0;
    if (!bad) lua_setfield(L, -2, "data");
    bad = bad || luaval_push_checked(L, rs->text, "test.ruleset().text", &errs) != 0;
    if (!bad) lua_setfield(L, -2, "text");
    bad = bad || luaval_push_checked(L, rs->options, "test.ruleset().options", &errs) != 0;
    if (!bad) lua_setfield(L, -2, "options");
    ruleset_free(rs);
    if (bad) {
        char *m = errs.n ? cerr_format(&errs.items[0]) : NULL;
        lua_pushfstring(L, "test.ruleset: %s", m ? m : "out of memory");
        free(m);
        cerr_free(&errs);
        return lua_error(L);
    }
    cerr_free(&errs);
    return 1;
}

/* The function test.text returns: g.text over the text tables of upvalue 1
** ({lang = {key = text}}, as test.ruleset().text gives them) in the language
** of upvalue 2, then English, with the engine's lookup and plural forms
** (textfmt.c), so a stand-in g formats exactly as a game does. */
static int api_text_call(lua_State *L) {
    const char *key = luaL_checkstring(L, 1);
    const char *lang = lua_tostring(L, lua_upvalueindex(2));
    const char *langs[2] = {lang, "en"};
    for (int k = 0; k < 2; k++) {
        if (lua_getfield(L, lua_upvalueindex(1), langs[k]) == LUA_TTABLE) {
            int t = lua_getfield(L, -1, key);
            if (t == LUA_TSTRING || t == LUA_TTABLE) {
                cerr_list errs;
                cerr_init(&errs, 1);
                value *v = luaval_to_value(L, -1, key, &errs);
                lua_pop(L, 2);
                cerr_free(&errs);
                if (!v) return luaL_error(L, "test.text(\"%s\"): the text is not plain data", key);
                char why[200];
                const char *fmt = textfmt_choose(L, key, v, langs[k], why, sizeof why);
                if (fmt) lua_pushstring(L, fmt);
                value_free(v);
                if (!fmt) return luaL_error(L, "%s", why);
                return textfmt_format(L);
            }
            lua_pop(L, 1);
        }
        lua_pop(L, 1);
    }
    lua_settop(L, 1);
    return 1; /* the key itself, as g.text */
}

/* test.text(texts, lang) -> a g.text function over texts (see above). */
static int api_text(lua_State *L) {
    luaL_checktype(L, 1, LUA_TTABLE);
    luaL_checkstring(L, 2);
    lua_settop(L, 2);
    lua_pushcclosure(L, api_text_call, 2);
    return 1;
}

/* Builds the `test` library inside a protected call (it allocates).
** Argument 1: the ruleset's name as a light userdata (pushing it
** allocates nothing, so the call is set up safely outside protection). */
static int push_api(lua_State *L) {
    const char *name = lua_touserdata(L, 1);
    lua_createtable(L, 0, 2);
    lua_pushstring(L, name);
    lua_pushcclosure(L, api_ruleset, 1);
    lua_setfield(L, -2, "ruleset");
    lua_pushcfunction(L, api_text);
    lua_setfield(L, -2, "text");
    return 1;
}

/* --------------------------------------------------------------- running */

/* The folder of a file path ("." for a bare name), malloc'd. */
static char *dir_of(const char *file) {
    const char *slash = strrchr(file, '/');
    if (!slash) return cairn_strdup(".");
    if (slash == file) return cairn_strdup("/");
    return cairn_strfmt("%.*s", (int)(slash - file), file);
}

static void explain(strbuf *why, const sandbox *sb, const cerr_list *errs) {
    char *m = errs->n ? cerr_format(&errs->items[0]) : NULL;
    strbuf_printf(why, "%s", m ? m : errs->oom ? "out of memory" : "failed");
    free(m);
    const char *tb = sb ? sandbox_traceback(sb) : "";
    if (tb && tb[0]) strbuf_printf(why, "\n%s", tb);
}

/* cairn test --debug: where the unit tests' print lines go. Process-wide:
** set once by testrun_command before any test runs, read by run_file. */
static FILE *debug_out;

void luatest_set_debug(FILE *out) { debug_out = out; }

/* A line as the games' debug channel writes it: the file relative to the
** ruleset's folder. */
typedef struct unit_debug {
    FILE *out;
    const char *dir;
} unit_debug;

static int unit_print(void *ud, const char *where, const char *text) {
    const unit_debug *d = ud;
    if (text) {
        size_t n = strlen(d->dir);
        while (n > 1 && d->dir[n - 1] == '/') n--;
        if (strncmp(where, d->dir, n) == 0 && where[n] == '/') where += n + 1;
        fprintf(d->out, "debug %s: %s\n", where, text);
        fflush(d->out);
    }
    return 1;
}

/* Runs file in a fresh sandbox with `test` set; on success leaves nresults
** values on the stack of *out (the caller frees the sandbox). */
static int run_file(const ruleset *rs, const char *name, const char *file, int nresults, sandbox **out,
                    strbuf *why) {
    *out = NULL;
    char *own = dir_of(file);
    const char **dirs = calloc(rs->n_module_dirs + 1, sizeof *dirs);
    if (!own || !dirs) {
        free(own);
        free(dirs);
        strbuf_printf(why, "out of memory");
        return -1;
    }
    dirs[0] = own;
    for (size_t i = 0; i < rs->n_module_dirs; i++) dirs[i + 1] = rs->module_dirs[i];
    sandbox_config c;
    sandbox_default_config(&c);
    unit_debug ud = {debug_out, rs->dir};
    c.print = debug_out ? unit_print : NULL;
    c.print_ud = &ud; /* lives until the sandbox is handed over, unhooked below */
    c.module_dirs = dirs;
    c.n_module_dirs = rs->n_module_dirs + 1;
    c.stdlib_dir = ruleset_stdlib_dir();
    cerr_list errs;
    cerr_init(&errs, 0);
    sandbox *sb = sandbox_new(&c, &errs);
    free(own);
    free(dirs);
    int rc = -1;
    if (sb) {
        lua_State *L = sandbox_state(sb);
        lua_pushcfunction(L, push_api);
        lua_pushlightuserdata(L, (void *)name);
        if (lua_pcall(L, 1, 1, 0) != LUA_OK) {
            lua_pop(L, 1);
            cerr_add(&errs, NULL, 0, 0, NULL, "out of memory making the test library");
        } else if (sandbox_set_global(sb, "test") != 0) {
            cerr_add(&errs, NULL, 0, 0, NULL, "out of memory making the test library");
        } else {
            rc = sandbox_run_file(sb, file, file, nresults, &errs) == SANDBOX_OK ? 0 : -1;
        }
    }
    if (rc != 0) {
        explain(why, sb, &errs);
        sandbox_free(sb);
        sb = NULL;
    }
    cerr_free(&errs);
    if (sb) sandbox_set_print(sb, NULL, NULL); /* ud is on this stack */
    *out = sb;
    return rc;
}

int luatest_run_unit(const ruleset *rs, const char *name, const char *file, strbuf *why) {
    sandbox *sb;
    int rc = run_file(rs, name, file, 0, &sb, why);
    sandbox_free(sb);
    return rc;
}

/* A generated file's name must stay inside the ruleset folder. */
static int safe_relative(const char *p) {
    if (!p[0] || p[0] == '/') return 0;
    for (const char *s = p; *s;) {
        size_t len = strcspn(s, "/");
        if (len == 0 || (len == 2 && s[0] == '.' && s[1] == '.')) return 0;
        s += len;
        if (*s == '/') s++;
    }
    return 1;
}

static int cmp_file(const void *a, const void *b) {
    return strcmp(((const luatest_file *)a)->path, ((const luatest_file *)b)->path);
}

void luatest_files_free(luatest_file *files, size_t n) {
    for (size_t i = 0; files && i < n; i++) {
        free(files[i].path);
        free(files[i].text);
    }
    free(files);
}

int luatest_run_generator(const ruleset *rs, const char *name, const char *file, luatest_file **files,
                          size_t *n, strbuf *why) {
    *files = NULL;
    *n = 0;
    sandbox *sb;
    if (run_file(rs, name, file, 1, &sb, why) != 0) return -1;
    lua_State *L = sandbox_state(sb);
    int rc = 0;
    if (!lua_istable(L, -1)) {
        strbuf_printf(why, "%s: a generator must return {[FILE] = TEXT}, not %s", file, luaL_typename(L, -1));
        rc = -1;
    }
    size_t cap = 0;
    /* lua_next and lua_tolstring on strings allocate nothing: safe here,
    ** outside a protected call */
    lua_pushnil(L);
    while (rc == 0 && lua_next(L, -2)) {
        if (lua_type(L, -2) != LUA_TSTRING || lua_type(L, -1) != LUA_TSTRING) {
            strbuf_printf(why, "%s: a generator must return {[FILE] = TEXT}: a %s key holds a %s", file,
                          luaL_typename(L, -2), luaL_typename(L, -1));
            rc = -1;
            lua_pop(L, 2);
            break;
        }
        const char *p = lua_tostring(L, -2), *t = lua_tostring(L, -1);
        if (!safe_relative(p)) {
            strbuf_printf(why, "%s: generated file \"%s\" must be a path inside the ruleset folder", file, p);
            rc = -1;
            lua_pop(L, 2);
            break;
        }
        if (GROW(*files, cap, *n + 1) != 0) {
            rc = -1;
            strbuf_printf(why, "out of memory");
            lua_pop(L, 2);
            break;
        }
        char *path = strcmp(rs->dir, ".") == 0 ? cairn_strdup(p) : cairn_strfmt("%s/%s", rs->dir, p);
        char *text = cairn_strdup(t);
        (*files)[*n].path = path;
        (*files)[*n].text = text;
        (*n)++;
        if (!path || !text) {
            rc = -1;
            strbuf_printf(why, "out of memory");
            lua_pop(L, 2);
            break;
        }
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
    sandbox_free(sb);
    if (rc != 0) {
        luatest_files_free(*files, *n);
        *files = NULL;
        *n = 0;
        return -1;
    }
    if (*n) qsort(*files, *n, sizeof **files, cmp_file);
    return 0;
}
