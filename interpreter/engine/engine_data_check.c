/*
** engine_data_check.c
** The ruleset's own checks on its data, the ones a schema cannot state (a
** map's path graph connected, every region a village names listed), run
** once per loaded ruleset before its first game. check_data(g) returns its
** problems; each that says where (`at`, a path into g.data) is reported at
** that value's file:line:column, like a schema error, because the data's
** value tree remembers where every value came from.
*/
#include "engine_internal.h"
#include "limits.h"
#include "luaval.h"
#include "safe_open.h"
#include "strbuf.h"

#include <lauxlib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Follows `at` (a list: a data name, then map keys and 1-based list
** indexes) into the data. *deep is the deepest value found; the path is
** written as schema errors write theirs (after the data name, 0-based). */
static int follow(const value *data, const value *at, const value **deep, strbuf *path, const char **why) {
    const value *v = data;
    *deep = NULL;
    if (at->type == CV_STR) {
        *deep = value_map_get(data, at->u.str.s);
        if (!*deep) return *why = "`at` names no data table", -1;
        return 0;
    }
    if (at->type != CV_LIST || at->u.list.n == 0) return *why = "`at` must be a data name or a list of keys", -1;
    for (size_t i = 0; i < at->u.list.n; i++) {
        const value *k = at->u.list.items[i];
        const value *next = NULL;
        if (k->type == CV_STR) {
            if (i > 0) strbuf_printf(path, path->n ? ".%s" : "%s", k->u.str.s);
            if (v && v->type == CV_MAP) next = value_map_get(v, k->u.str.s);
        } else if (k->type == CV_INT && i > 0) {
            strbuf_printf(path, "[%lld]", (long long)(k->u.i - 1));
            if (v && v->type == CV_LIST && k->u.i >= 1 && (uint64_t)k->u.i <= v->u.list.n)
                next = v->u.list.items[k->u.i - 1];
        } else {
            return *why = "`at` holds a key that is neither a string nor an integer (the first is a data name)", -1;
        }
        if (i == 0 && !next) return *why = "`at` names no data table", -1;
        if (next) *deep = next;
        v = next;
    }
    return 0;
}

/* One problem: a string, or {at = ..., message = "..."}. */
static void report(const value *data, const value *p, size_t i, cerr_list *errs) {
    if (p->type == CV_STR) {
        cerr_add(errs, NULL, 0, 0, NULL, "check_data: %s", p->u.str.s);
        return;
    }
    const value *msg = p->type == CV_MAP ? value_map_get(p, "message") : NULL;
    const value *at = p->type == CV_MAP ? value_map_get(p, "at") : NULL;
    if (!msg || msg->type != CV_STR) {
        char nth[24];
        snprintf(nth, sizeof nth, "%zu", i + 1);
        cerr_addk(errs, NULL, 0, 0, NULL, "engine.check_data_problem",
                  "check_data: problem %s must be a string or {at = ..., message = \"...\"}", nth);
        return;
    }
    if (!at) {
        cerr_add(errs, NULL, 0, 0, NULL, "check_data: %s", msg->u.str.s);
        return;
    }
    strbuf path = {0};
    const value *deep = NULL;
    const char *why = NULL;
    if (follow(data, at, &deep, &path, &why) != 0) {
        char nth[24];
        snprintf(nth, sizeof nth, "%zu", i + 1);
        cerr_addk(errs, NULL, 0, 0, NULL, "engine.check_data_at", "check_data: problem %s: %s (its message: %s)", nth,
                  why, msg->u.str.s);
    } else if (path.oom) {
        errs->oom = 1;
    } else if (deep && deep->file) {
        cerr_add(errs, deep->file->name, deep->line, deep->col, path.n ? strbuf_str(&path) : NULL, "%s",
                 msg->u.str.s);
    } else {
        cerr_add(errs, NULL, 0, 0, path.n ? strbuf_str(&path) : NULL, "%s", msg->u.str.s);
    }
    strbuf_free(&path);
}

int engine_check_data(engine *e, cerr_list *errs) {
    engine_rules *r = e->rt.rules;
    if (r->data_checked || !engine_has_handler(e, H_CHECK_DATA)) return 0;
    lua_State *L = e->rt.L;
    int top = lua_gettop(L);
    call_ctx c = {.h = H_CHECK_DATA, .kind = ARGS_G};
    int rc = engine_call(e, &c, 1, errs);
    if (rc < 0) return -1;
    if (rc == 0) return 0;
    value *got = NULL;
    if (!lua_isnil(L, -1)) got = luaval_to_value(L, -1, "check_data's result", errs);
    lua_settop(L, top);
    if (!got) {
        if (cerr_count(errs) || errs->oom) return -1;
        r->data_checked = 1;
        return 0;
    }
    int bad = 0;
    if (got->type == CV_LIST) {
        for (size_t i = 0; i < got->u.list.n; i++) report(r->rs->data, got->u.list.items[i], i, errs);
        bad = got->u.list.n > 0;
    } else if (got->type == CV_MAP && got->u.map.n == 0) {
        bad = 0; /* {} reads back as an empty map: no problems */
    } else {
        cerr_addk(errs, NULL, 0, 0, NULL, "engine.check_data_return",
                  "check_data must return nil or a list of problems");
        bad = 1;
    }
    value_free(got);
    if (!bad) r->data_checked = 1;
    return bad ? -1 : 0;
}

/* Whether an option of rs is forced at this seat count: the ruleset loaded
** without a seat count is then not the one a game with it plays. */
static int forced_at(const ruleset *rs, int players) {
    char key[16];
    snprintf(key, sizeof key, "%d", players);
    for (size_t i = 0; i < rs->n_opts; i++)
        if (value_map_get(value_map_get(rs->opts[i].def, "forced"), key)) return 1;
    return 0;
}

/* Whether the file at path holds the text word; 1 too when it cannot be
** read (then only running the rules can tell). */
static int file_mentions(const char *path, const char *word) {
    char why[128];
    FILE *f = safe_fopen_read(path, NULL, why, sizeof why); /* no FIFO, no device */
    if (!f) return 1;
    size_t total = 0;
    size_t cap = 1 << 16, n = 0, wl = strlen(word);
    char *buf = malloc(cap + 1);
    int found = !buf;
    while (buf && !found) {
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        total += got;
        if (total > (size_t)CAIRN_LUA_MAX_SOURCE_BYTES) { /* no script is longer */
            found = 1;
            break;
        }
        buf[n] = '\0';
        /* text files: strstr is enough (a NUL byte would hide the rest) */
        found = memchr(buf, '\0', n) != NULL || strstr(buf, word) != NULL;
        if (found || got == 0 || ferror(f)) break;
        if (n == cap) { /* keep the last wl - 1 bytes: the word may straddle */
            memmove(buf, buf + n - (wl - 1), wl - 1);
            n = wl - 1;
        }
    }
    if (buf && ferror(f)) found = 1;
    free(buf);
    fclose(f);
    return found;
}

/* engine.h. The engine finds handlers by name in the rules table, so a
** ruleset none of whose .lua files spells "check_data" has none, and no
** sandbox is built to ask it (docs/lua-api.md, Data checks). The
** interpreter's stdlib defines no handlers. */
int engine_may_check_data(const ruleset *rs) {
    size_t n = 0;
    char **files = ruleset_lua_files(rs, &n);
    if (!files) return 1; /* none listed, or out of memory: ask the rules */
    int found = 0;
    for (size_t i = 0; i < n && !found; i++) found = file_mentions(files[i], "check_data");
    ruleset_list_free(files, n);
    return found;
}

int engine_check_loaded_data(const ruleset *rs, const engine_config *c, cerr_list *errs) {
    if (!engine_may_check_data(rs)) return 0;
    int players = c->players;
    if (!players) {
        players = (int)value_get_int(value_map_get(rs->manifest, "players"), "default", rs->min_players);
        /* a game without a seat count plays the default one; when that
        ** forces an option, its data is loaded as the game would load it */
        if (forced_at(rs, players)) return engine_check_ruleset_data(c, errs);
    }
    engine_rules *rules = engine_rules_borrow(rs, players, c, errs);
    if (!rules) return -1;
    engine_config with = *c;
    with.rules = rules;
    with.players = players;
    engine *e = engine_build(&with, errs);
    /* only a handler runs: the engine's rules table found none, no call */
    int rc = e ? engine_check_data(e, errs) : -1;
    engine_free(e);
    engine_rules_free(rules);
    return rc;
}

int engine_check_ruleset_data(const engine_config *c, cerr_list *errs) {
    engine *e = engine_build(c, errs);
    if (!e) return -1;
    int rc = engine_check_data(e, errs);
    engine_free(e);
    return rc;
}
