/*
** engine_rules.c
** Load once, play many: a ruleset resolved, validated and compiled once
** (manifest, data, schemas, visibility rules, text), shared by every game a
** process plays with it, plus a small pool of sandboxes that finished games
** hand back. A new game takes a pooled sandbox and resets it
** (sandbox_reset: a fresh environment, the compiled chunks run again), so
** nothing a script kept in a global or an upvalue reaches the next game. A
** fast game skips the loading when the last fast game in that sandbox kept
** its rules (sandbox_keep): every table and upvalue the loading left is put
** back as it was, which the next game cannot tell from a new load.
*/
#include "engine_internal.h"
#include "limits.h"
#include "luaval.h"

#include <lauxlib.h>
#include <stdlib.h>
#include <string.h>

static void kit_free(sandbox_kit *k);

#define POOL_MAX ((int)(sizeof ((engine_rules *)0)->pool / sizeof ((engine_rules *)0)->pool[0]))

/* The seat count: asked for, else the manifest's default, else its min. */
static ruleset *load_for_players(const engine_config *c, int *players, cerr_list *errs) {
    ruleset_request req = {c->choices, c->n_choices, c->preset, c->players, c->sets, c->n_sets};
    ruleset *rs = ruleset_load(c->ruleset, &req, errs);
    if (!rs || c->players) {
        *players = c->players;
        return rs;
    }
    const value *p = value_map_get(rs->manifest, "players");
    int n = (int)value_get_int(p, "default", rs->min_players);
    ruleset_free(rs);
    req.players = n; /* options forced by the seat count depend on it */
    *players = n;
    return ruleset_load(c->ruleset, &req, errs);
}

/* What engine_rules_new adds to the loaded r->rs: visibility, the state
** schema, the language, the budget. */
static int rules_finish(engine_rules *r, const engine_config *c, cerr_list *errs);

engine_rules *engine_rules_new(const engine_config *c, cerr_list *errs) {
    if (!c || !c->ruleset) {
        cerr_addk(errs, NULL, 0, 0, NULL, "engine.no_ruleset", "no ruleset given");
        return NULL;
    }
    engine_rules *r = calloc(1, sizeof *r);
    if (!r) return errs->oom = 1, NULL;
    if (!(r->rs = load_for_players(c, &r->players, errs)) || rules_finish(r, c, errs) != 0) {
        engine_rules_free(r);
        return NULL;
    }
    return r;
}

engine_rules *engine_rules_borrow(const ruleset *rs, int players, const engine_config *c,
                                  cerr_list *errs) {
    engine_rules *r = calloc(1, sizeof *r);
    if (!r) return errs->oom = 1, NULL;
    r->rs = (ruleset *)rs; /* never changed, never freed (borrowed_rs) */
    r->borrowed_rs = 1;
    r->players = players;
    if (rules_finish(r, c, errs) != 0) {
        engine_rules_free(r);
        return NULL;
    }
    return r;
}

static int rules_finish(engine_rules *r, const engine_config *c, cerr_list *errs) {
    if (r->players < 1 || r->players > CAIRN_MAX_SEATS) {
        char seats[16], most[16];
        snprintf(seats, sizeof seats, "%d", r->players);
        snprintf(most, sizeof most, "%d", CAIRN_MAX_SEATS);
        cerr_addk(errs, NULL, 0, 0, NULL, "engine.seats", "%s seats: cairn plays 1 to %s", seats, most);
        goto fail;
    }
    if (!(r->vis = view_rules_new(r->rs->visibility, errs))) goto fail;
    const value *ss = value_map_get(r->rs->manifest, "state_schema");
    if (ss && ss->type == CV_STR) {
        if (!(r->schemas = schema_set_new()) ||
            ruleset_schema_folders(r->rs, r->schemas) != 0)
            goto oom;
        if (!(r->state_schema = schema_load(r->schemas, ss->u.str.s, errs))) goto fail;
    }
    /* the language asked for (lang, else lang_wanted) when the ruleset ships
    ** it, else its first: a game never mixes the console's words in one
    ** language with the ruleset's in another */
    const char *lang = NULL;
    const value *langs = value_map_get(r->rs->manifest, "languages");
    int listed = langs && langs->type == CV_LIST;
    const char *asked = c->lang && *c->lang ? c->lang : c->lang_wanted;
    for (size_t i = 0; !lang && asked && listed && i < langs->u.list.n; i++) {
        const value *one = langs->u.list.items[i];
        if (one->type == CV_STR && strcmp(one->u.str.s, asked) == 0) lang = one->u.str.s;
    }
    if (!lang && asked && !listed && value_map_get(r->rs->text, asked)) lang = asked; /* no list: its text tables */
    if (!lang)
        lang = listed && langs->u.list.n && langs->u.list.items[0]->type == CV_STR
                   ? langs->u.list.items[0]->u.str.s : "en";
    if (!(r->lang = cairn_strdup(lang))) goto oom;
    r->text_lang = value_map_get(r->rs->text, r->lang);
    r->text_en = value_map_get(r->rs->text, "en");
    r->budget = c->budget ? c->budget : CAIRN_LUA_INSTRUCTION_BUDGET;
    r->mem_cap = c->mem_cap ? c->mem_cap : (size_t)CAIRN_LUA_MEMORY_CAP;
    r->no_budget = c->no_budget;
    /* check mode refuses a length of a table with holes: `#`, rawlen and
    ** the table functions alike (sandbox_len.c); play keeps Lua's border,
    ** whose counting costs connect4's sim 15-25% (docs/sandbox.md) */
    r->strict_len = c->checks;
    r->track_reads = c->track_data_reads;
    return 0;
oom:
    errs->oom = 1;
fail:
    return -1;
}

void engine_rules_free(engine_rules *r) {
    if (!r) return;
    for (int i = 0; i < r->n_pool; i++) kit_free(r->pool[i]);
    schema_set_free(r->schemas);
    view_rules_free(r->vis);
    if (!r->borrowed_rs) ruleset_free(r->rs);
    free(r->lang);
    free(r);
}

int engine_rules_players(const engine_rules *r) { return r->players; }
const ruleset *engine_rules_ruleset(const engine_rules *r) { return r->rs; }

/* Protected: a read-only copy of a value, referenced in *ref. */
typedef struct frozen_ctx {
    const value *v;
    const char *name;
    int ref;
} frozen_ctx;

static int p_frozen(lua_State *L) {
    frozen_ctx *c = lua_touserdata(L, 1);
    if (luaval_push_readonly(L, c->v, c->name, NULL) != 0) return luaL_error(L, "out of memory");
    c->ref = luaL_ref(L, LUA_REGISTRYINDEX);
    return 0;
}

static int frozen_ref(lua_State *L, const value *v, const char *name, int *ref) {
    frozen_ctx c = {v, name, LUA_NOREF};
    lua_pushcfunction(L, p_frozen);
    lua_pushlightuserdata(L, &c);
    if (lua_pcall(L, 1, 0, 0) != LUA_OK) {
        lua_pop(L, 1);
        return -1;
    }
    *ref = c.ref;
    return 0;
}

static void kit_free(sandbox_kit *k) {
    if (!k) return;
    sandbox_free(k->sb);
    value_free(k->seats);
    free(k->hub);
    free(k);
}

/* A new sandbox with g.data, g.options and the g tables. */
static sandbox_kit *kit_new(engine_rules *r, cerr_list *errs) {
    sandbox_kit *k = calloc(1, sizeof *k);
    if (!k || !(k->hub = calloc(1, sizeof *k->hub))) {
        free(k);
        return errs->oom = 1, NULL;
    }
    k->ref_data = k->ref_options = k->ref_seats = k->ref_data_plain = k->ref_seats_plain = LUA_NOREF;
    k->ref_g = k->ref_gfields = k->ref_gro = k->ref_grofields = k->ref_grender =
        k->ref_grenderfields = LUA_NOREF;
    for (int h = 0; h < H_COUNT; h++) k->slot_h[h] = LUA_NOREF;
    k->ref_hnames = k->ref_ids = k->ref_labels = k->ref_reasons = k->ref_prompts = LUA_NOREF;
    k->ref_rules_kept = k->ref_ask_keys = LUA_NOREF;
    sandbox_config sc;
    memset(&sc, 0, sizeof sc);
    sc.mem_cap = r->mem_cap;
    sc.instr_budget = r->budget;
    sc.no_budget = r->no_budget;
    sc.strict_len = r->strict_len;
    sc.track_reads = r->track_reads;
    sc.module_dirs = (const char *const *)r->rs->module_dirs;
    sc.n_module_dirs = r->rs->n_module_dirs;
    sc.stdlib_dir = ruleset_stdlib_dir();
    if (!(k->sb = sandbox_new(&sc, errs))) {
        kit_free(k);
        return NULL;
    }
    lua_State *L = sandbox_state(k->sb);
    if (frozen_ref(L, r->rs->data, "g.data", &k->ref_data) != 0 ||
        frozen_ref(L, r->rs->options, "g.options", &k->ref_options) != 0 || gapi_build_kit(k, r) != 0) {
        kit_free(k);
        return errs->oom = 1, NULL;
    }
    return k;
}

/* Forgets the kit's kept rules: its next game loads them again. */
static void kit_drop_kept(sandbox_kit *k) {
    if (k->ref_rules_kept == LUA_NOREF) return;
    lua_State *L = sandbox_state(k->sb);
    luaL_unref(L, LUA_REGISTRYINDEX, k->ref_rules_kept); /* allocates nothing */
    k->ref_rules_kept = LUA_NOREF;
    if (k->handlers_kept) { /* the slots hold false between games again */
        for (int h = 0; h < H_COUNT; h++) {
            if (!(k->kept_h & (1u << h))) continue;
            lua_pushboolean(L, 0);
            lua_rawseti(L, LUA_REGISTRYINDEX, k->slot_h[h]);
        }
        k->handlers_kept = 0;
        k->kept_h = 0;
    }
    sandbox_drop_kept(k->sb);
}

int rules_take_sandbox(engine_rules *r, game_rt *rt, int fast, cerr_list *errs) {
    sandbox_kit *k;
    rt->ref_rules = LUA_NOREF;
    if (r->n_pool > 0) {
        k = r->pool[--r->n_pool];
        if (fast && k->ref_rules_kept != LUA_NOREF && sandbox_restore_kept(k->sb) == 0) {
            rt->ref_rules = k->ref_rules_kept; /* put back as loaded: nothing to run again */
        } else {
            kit_drop_kept(k); /* a strict game loads its rules afresh */
            if (sandbox_reset(k->sb) != 0) {
                kit_free(k);
                return errs->oom = 1, -1;
            }
        }
    } else if (!(k = kit_new(r, errs))) {
        return -1;
    }
    rt->kit = k;
    rt->sb = k->sb;
    rt->L = sandbox_state(k->sb);
    return 0;
}

void rules_keep(game_rt *rt) {
    sandbox_kit *k = rt->kit;
    lua_State *L = rt->L;
    if (k->ref_rules_kept != LUA_NOREF || rt->ref_rules == LUA_NOREF || !lua_checkstack(L, 1)) return;
    lua_rawgeti(L, LUA_REGISTRYINDEX, rt->ref_rules);
    /* not kept (something the record cannot put back, or no memory): the
    ** next game runs the chunks again, as a strict game does */
    if (sandbox_keep(k->sb, -1) == 0) k->ref_rules_kept = rt->ref_rules;
    lua_pop(L, 1);
}

void rules_give_sandbox(engine_rules *r, game_rt *rt) {
    sandbox_kit *k = rt->kit;
    if (!k) return;
    lua_State *L = rt->L;
    if (rt->ref_rules == k->ref_rules_kept) rt->ref_rules = LUA_NOREF; /* the kit's */
    int *refs[] = {&rt->ref_rules, &rt->ref_state};
    for (size_t i = 0; i < sizeof refs / sizeof refs[0]; i++) {
        luaL_unref(L, LUA_REGISTRYINDEX, *refs[i]); /* allocates nothing */
        *refs[i] = LUA_NOREF;
    }
    /* the handlers' slots stay the kit's, holding false (an existing key:
    ** no allocation) until the next game puts its own functions there; with
    ** kept rules they keep the kept handlers */
    for (int h = 0; h < H_COUNT; h++) {
        if (rt->ref_h[h] == LUA_NOREF) continue;
        if (!k->handlers_kept) {
            lua_pushboolean(L, 0);
            lua_rawseti(L, LUA_REGISTRYINDEX, rt->ref_h[h]);
        }
        rt->ref_h[h] = LUA_NOREF;
    }
    /* the engine's option tables: the engine handed them back (engine_free) */
    lua_settop(L, 0);
    sandbox_set_timed(k->sb, 0);
    sandbox_count_always(k->sb, 0); /* a fork's: the next game may be timed */
    k->hub->e = NULL;
    /* g.state still holds the last game's table until the next game's start:
    ** nothing runs in between, and sandbox_reset leaves no way to reach it */
    if (r && r->n_pool < POOL_MAX) r->pool[r->n_pool++] = k;
    else kit_free(k);
    rt->kit = NULL;
    rt->sb = NULL;
    rt->L = NULL;
}
