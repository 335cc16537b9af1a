/*
** engine_decisions.c
** The decisions asked now: decisions(g)'s result read into tables the
** engine owns (fast and table forms), lookups by seat and id, labels,
** prompts and reasons made on demand (the label/prompt/reason handlers, or
** asking again with g.labels on), explanations of refused answers with the
** nearest ids, and the random bot's pick.
*/
#include "engine_internal.h"
#include "grow.h"
#include "guard.h"
#include "limits.h"
#include "luaval.h"
#include "suggest.h"

#include <lauxlib.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int decision_list_copy(engine_decision_list *dst, const engine_decision_list *src) {
    dst->items = NULL;
    dst->n = 0;
    if (src->n == 0) return 0;
    dst->items = calloc(src->n, sizeof *dst->items);
    if (!dst->items) return -1;
    dst->n = src->n;
    for (size_t i = 0; i < src->n; i++) {
        const engine_decision *s = &src->items[i];
        engine_decision *d = &dst->items[i];
        d->seat = s->seat;
        d->hidden = s->hidden;
        d->prompt = cairn_strdup(s->prompt);
        d->options = calloc(s->n_options ? s->n_options : 1, sizeof *d->options);
        if (!d->prompt || !d->options) goto fail;
        d->n_options = s->n_options;
        for (size_t j = 0; j < s->n_options; j++) {
            engine_option *o = &d->options[j];
            o->id = cairn_strdup(s->options[j].id);
            o->label = cairn_strdup(s->options[j].label);
            if (s->options[j].disabled) o->disabled = cairn_strdup(s->options[j].disabled);
            if (!o->id || !o->label || (s->options[j].disabled && !o->disabled)) goto fail;
        }
    }
    return 0;
fail:
    engine_decision_list_free(dst);
    return -1;
}

/* ------------------------------------------------- the decisions asked */

typedef struct ask_ctx {
    engine *e;
    cerr_list *errs; /* where a refusal goes, keyed (ask_bad) */
    int bad;
} ask_ctx;

static int ask_bad(ask_ctx *c, size_t i, const char *key, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

/* The list decisions(g) returned breaks the contract at item i (0: the
** list): the refusal goes to c->errs with its key (cerr_vaddk: fmt's only
** conversions are %s, whose arguments are key's too). */
static int ask_bad(ask_ctx *c, size_t i, const char *key, const char *fmt, ...) {
    char where[48];
    if (i) snprintf(where, sizeof where, "decisions[%zu]", i);
    else snprintf(where, sizeof where, "decisions");
    va_list ap;
    va_start(ap, fmt);
    cerr_vaddk(c->errs, NULL, 0, 0, where, key, fmt, ap);
    va_end(ap);
    c->bad = 1;
    return 0;
}

/* v as text in buf, for a refusal's argument */
static const char *num(char buf[24], long long v) {
    snprintf(buf, 24, "%lld", v);
    return buf;
}

/* The table at idx, or the live table behind a read-only view of it (a
** handler may return part of g.state): its index, perhaps pushed. */
static int see_through(lua_State *L, int idx) {
    idx = lua_absindex(L, idx);
    if (!lua_getmetatable(L, idx)) return idx; /* the usual case: a plain table */
    lua_pop(L, 1);
    return guard_target(L, idx) ? lua_gettop(L) : idx;
}

/* A fresh engine table in place of the one at *ref. */
static void fresh_table(lua_State *L, int *ref) {
    lua_newtable(L);
    int r = luaL_ref(L, LUA_REGISTRYINDEX);
    luaL_unref(L, LUA_REGISTRYINDEX, *ref);
    *ref = r;
}

/* The reader of decisions(g)'s result is one C closure per Lua state (its
** registry entry by address), made on first use, with the keys it reads
** by as its upvalues: lua_pushliteral looks a string up by its bytes every
** time, which cost more than reading the key. */
static const char ASK_READER = 'r';
static const char *const ask_key_names[] = {"seat", "hidden", "prompt", "options", "disabled", "label", "id", "bot"};
#define N_ASK_KEYS (sizeof ask_key_names / sizeof ask_key_names[0])
#define K_SEAT lua_upvalueindex(1)
#define K_HIDDEN lua_upvalueindex(2)
#define K_PROMPT lua_upvalueindex(3)
#define K_OPTIONS lua_upvalueindex(4)
#define K_DISABLED lua_upvalueindex(5)
#define K_LABEL lua_upvalueindex(6)
#define K_ID lua_upvalueindex(7)
#define K_BOT lua_upvalueindex(8)

/* Protected: reads decisions(g)'s result (arg 2) into e->asked. Shape
** errors are reported in the context, not raised. */
static int p_read_asked(lua_State *L) {
    ask_ctx *c = lua_touserdata(L, 1);
    engine *e = c->e;
    game_rt *rt = &e->rt;
    asked_set *a = &e->asked;
    int strict = !e->cfg.fast;
    /* the prompts, labels and reasons of the table form: a fast game
    ** (g.labels off, its texts unformatted keys: engine_texts.c) reads them
    ** only when it asks again with g.labels on (ask_labelled) */
    int texts = strict || e->labels_on;
    char nb[24], nb2[24], nb3[24]; /* a refusal's numbers as text (num) */
    a->n = 0;
    a->n_opts = 0;
    if (a->extras) {
        fresh_table(L, &rt->ref_labels);
        fresh_table(L, &rt->ref_reasons);
        fresh_table(L, &rt->ref_prompts);
        a->extras = 0;
    }
    lua_settop(L, 2);
    enum { IDS = 3, LABELS, REASONS, PROMPTS };
    luaL_checkstack(L, 8, "decisions");
    lua_rawgeti(L, LUA_REGISTRYINDEX, rt->ref_ids);
    if (texts) {
        lua_rawgeti(L, LUA_REGISTRYINDEX, rt->ref_labels);
        lua_rawgeti(L, LUA_REGISTRYINDEX, rt->ref_reasons);
        lua_rawgeti(L, LUA_REGISTRYINDEX, rt->ref_prompts);
    } else { /* never read below: no texts are kept */
        lua_settop(L, PROMPTS);
    }
    size_t k = 0;
    if (lua_isnil(L, 2)) goto done;
    if (!lua_istable(L, 2)) return ask_bad(c, 0, "decisions.not_list", "decisions(g) must return a list, not %s", luaL_typename(L, 2));
    int res = see_through(L, 2);
    size_t nd = lua_rawlen(L, res);
    if (nd == 0) {
        lua_pushnil(L);
        if (lua_next(L, res)) return ask_bad(c, 0, "decisions.a_map", "decisions(g) must return a list, not a map");
        goto done;
    }
    if (grow_array((void **)&a->items, &a->cap, nd, sizeof *a->items) != 0)
        return luaL_error(L, "out of memory");
    for (size_t i = 1; i <= nd; i++) {
        int base = lua_gettop(L);
        lua_rawgeti(L, res, (lua_Integer)i);
        if (!lua_istable(L, -1)) return ask_bad(c, i, "decisions.seat", "needs seat = 1..%s", num(nb, e->cfg.players));
        int d = see_through(L, -1);
        lua_pushvalue(L, K_SEAT);
        int ok, st = lua_rawget(L, d);
        lua_Integer seat = lua_tointegerx(L, -1, &ok);
        lua_pop(L, 1);
        if (!ok || st != LUA_TNUMBER || seat < 1 || seat > e->cfg.players)
            return ask_bad(c, i, "decisions.seat", "needs seat = 1..%s", num(nb, e->cfg.players));
        for (size_t j = 0; j < a->n; j++)
            if (a->items[j].seat == seat) return ask_bad(c, i, "decisions.twice", "seat %s is asked twice at once", num(nb, (long long)seat));
        asked_item *it = &a->items[a->n];
        it->seat = (int)seat;
        it->first = k + 1;
        it->n = it->n_enabled = it->n_avoided = 0;
        lua_pushvalue(L, K_HIDDEN);
        it->hidden = lua_rawget(L, d) == LUA_TBOOLEAN && lua_toboolean(L, -1);
        lua_pop(L, 1);
        if (texts) {
            lua_pushvalue(L, K_PROMPT);
            if (lua_rawget(L, d) == LUA_TSTRING) {
                lua_rawseti(L, PROMPTS, (lua_Integer)(a->n + 1));
                a->extras = 1;
            } else {
                lua_pop(L, 1);
            }
        }
        lua_pushvalue(L, K_OPTIONS);
        lua_rawget(L, d);
        if (!lua_istable(L, -1)) return ask_bad(c, i, "decisions.no_options", "needs a non-empty list of options");
        int opts = see_through(L, -1);
        size_t no = lua_rawlen(L, opts);
        if (no == 0) return ask_bad(c, i, "decisions.no_options", "needs a non-empty list of options");
        size_t cap = a->cap_opts;
        if (grow_array((void **)&a->id_obj, &cap, k + no + 1, sizeof *a->id_obj) != 0 ||
            grow_array((void **)&a->disabled, &a->cap_opts, k + no + 1, 1) != 0)
            return luaL_error(L, "out of memory");
        int top = lua_gettop(L); /* each option leaves the stack as it found it */
        for (size_t j = 1; j <= no; j++) {
            int t = lua_rawgeti(L, opts, (lua_Integer)j);
            int dis = 0, avoid = 0;
            const void *obj = t == LUA_TSTRING ? lua_topointer(L, -1) : NULL;
            if (obj && !strict && k < a->n_opts_filled && obj == a->id_obj[k + 1]) {
                /* the very string object the engine's table holds at this
                ** place (a playout offers mostly the same ids move after
                ** move; that table keeps it alive, so its address is not
                ** reused): checked when it was stored, and stays there */
                lua_settop(L, top);
                a->disabled[++k] = 0;
                it->n++;
                it->n_enabled++;
                continue;
            }
            if (t == LUA_TTABLE) {
                int o = see_through(L, -1);
                lua_pushvalue(L, K_DISABLED);
                int dt = lua_rawget(L, o);
                if (dt != LUA_TNIL && dt != LUA_TSTRING && dt != LUA_TBOOLEAN)
                    return ask_bad(c, i, "decisions.disabled", "options[%s].disabled must be a string (the reason)", num(nb, (long long)j));
                dis = dt == LUA_TSTRING || (dt == LUA_TBOOLEAN && lua_toboolean(L, -1));
                if (dt == LUA_TSTRING && texts) { /* `disabled = true`: reason(g, seat, id) says why */
                    lua_rawseti(L, REASONS, (lua_Integer)(k + 1));
                    a->extras = 1;
                } else {
                    lua_pop(L, 1);
                }
                lua_pushvalue(L, K_BOT); /* `bot = false`: search bots pass it by */
                int bt = lua_rawget(L, o);
                if (bt != LUA_TNIL && bt != LUA_TBOOLEAN)
                    return ask_bad(c, i, "decisions.bot", "options[%s].bot must be a boolean (false: search bots pass it by)", num(nb, (long long)j));
                avoid = bt == LUA_TBOOLEAN && !lua_toboolean(L, -1);
                lua_pop(L, 1);
                if (texts) {
                    lua_pushvalue(L, K_LABEL);
                    if (lua_rawget(L, o) == LUA_TSTRING) {
                        lua_rawseti(L, LABELS, (lua_Integer)(k + 1));
                        a->extras = 1;
                    } else {
                        lua_pop(L, 1);
                    }
                }
                lua_pushvalue(L, K_ID);
                if (lua_rawget(L, o) != LUA_TSTRING || lua_rawlen(L, -1) == 0)
                    return ask_bad(c, i, "decisions.id_needed", "options[%s] needs a non-empty string id", num(nb, (long long)j));
                obj = lua_topointer(L, -1);
                if (!strict && k < a->n_opts_filled && obj == a->id_obj[k + 1]) {
                    /* the string the engine's table holds here, as above */
                    lua_settop(L, top);
                    a->disabled[++k] = (unsigned char)((dis ? ASK_DISABLED : 0) | (avoid && !dis ? ASK_AVOIDED : 0));
                    it->n++;
                    it->n_enabled += !dis;
                    it->n_avoided += avoid && !dis;
                    continue;
                }
            } else if (t != LUA_TSTRING) {
                return ask_bad(c, i, "decisions.option_form", "options[%s] must be an id (a string) or {id = ..., label = ...}", num(nb, (long long)j));
            }
            /* the id is on top (a string id is checked for emptiness here);
            ** C sees ids up to a NUL, so one inside would make `one\0evil`
            ** answer as `one` */
            {
                size_t idlen;
                const char *ids = lua_tolstring(L, -1, &idlen);
                if (idlen == 0) return ask_bad(c, i, "decisions.empty_id", "options[%s] is an empty id", num(nb, (long long)j));
                if (memchr(ids, '\0', idlen))
                    return ask_bad(c, i, "decisions.nul", "options[%s]: an id may not hold a NUL byte", num(nb, (long long)j));
                /* an answer is saved as its id: no longer than a save's string */
                if (idlen > (size_t)CAIRN_YAML_MAX_STRING)
                    return ask_bad(c, i, "decisions.id_too_long",
                                   "options[%s]: an id of %s bytes is longer than a save can hold "
                                   "(limit CAIRN_YAML_MAX_STRING, %s)", num(nb, (long long)j),
                                   num(nb2, (long long)idlen), num(nb3, (long long)CAIRN_YAML_MAX_STRING));
            }
            if (strict) { /* no id twice in one decision */
                for (size_t q = it->first; q <= k; q++) {
                    lua_rawgeti(L, IDS, (lua_Integer)q);
                    int same = lua_rawequal(L, -1, -2);
                    lua_pop(L, 1);
                    if (same) return ask_bad(c, i, "decisions.id_twice", "option id \"%s\" appears twice", lua_tostring(L, -1));
                }
            }
            a->id_obj[k + 1] = obj;
            lua_rawseti(L, IDS, (lua_Integer)(++k));
            if (k > a->n_opts_filled) a->n_opts_filled = k; /* even if this list fails later */
            if (k > ASK_IDS_ROOM) rt->kit->ids_grown = 1;
            a->disabled[k] = (unsigned char)((dis ? ASK_DISABLED : 0) | (avoid && !dis ? ASK_AVOIDED : 0));
            it->n++;
            it->n_enabled += !dis;
            it->n_avoided += avoid && !dis;
            lua_settop(L, top);
        }
        a->n++;
        lua_settop(L, base);
    }
done:
    /* what the last list left past this one's end (further on, all is nil
    ** already: every list clears what it leaves) */
    for (size_t q = k + 1; q <= a->n_opts_filled; q++) {
        lua_pushnil(L);
        lua_rawseti(L, IDS, (lua_Integer)q);
        a->id_obj[q] = NULL;
    }
    a->n_opts = a->n_opts_filled = k;
    return 0;
}

void ask_keys_push(lua_State *L) {
    static const char *const names[] = {"seat", "hidden", "options", "disabled", "id", "bot"};
    lua_createtable(L, 6, 0);
    for (int q = 0; q < 6; q++) {
        lua_pushstring(L, names[q]);
        lua_rawseti(L, -2, q + 1);
    }
}

/* A fast game's list read without a protected call (a pcall and the
** reader's set-up cost about a fifth of reading a connect4 decision). Only
** what cannot raise or allocate: raw reads of tables that have no
** metatable, ids stored in the ids table's list part (ASK_IDS_ROOM). It
** takes the usual case (decisions of plain tables, ids as strings or
** {id =, disabled =, bot =}, no texts kept) and answers 1; anything else,
** a shape error included, answers 0 and p_read_asked reads the list again
** from the start (what this left in e->asked and the ids table is
** consistent: each id stored with its object, n_opts_filled kept). */
static int read_plain(engine *e, lua_State *L, int res) {
    asked_set *a = &e->asked;
    sandbox_kit *kit = e->rt.kit;
    if (!e->cfg.fast || e->labels_on || a->extras || kit->ids_grown || kit->ref_ask_keys == LUA_NOREF ||
        !lua_checkstack(L, 20))
        return 0;
    int top = lua_gettop(L);
    if (lua_type(L, res) != LUA_TTABLE || lua_getmetatable(L, res)) goto other;
    size_t nd = lua_rawlen(L, res);
    if (nd == 0 || grow_array((void **)&a->items, &a->cap, nd, sizeof *a->items) != 0) goto other;
    lua_rawgeti(L, LUA_REGISTRYINDEX, kit->ref_ask_keys);
    const int keys = lua_gettop(L);
    for (int q = 1; q <= 6; q++) lua_rawgeti(L, keys, q);
    const int KSEAT = keys + 1, KHIDDEN = keys + 2, KOPTIONS = keys + 3, KDISABLED = keys + 4, KID = keys + 5,
              KBOT = keys + 6;
    lua_rawgeti(L, LUA_REGISTRYINDEX, e->rt.ref_ids);
    const int IDS = keys + 7;
    size_t k = 0;
    a->n = 0;
    for (size_t i = 1; i <= nd; i++) {
        if (lua_rawgeti(L, res, (lua_Integer)i) != LUA_TTABLE || lua_getmetatable(L, -1)) goto other;
        int d = lua_gettop(L);
        lua_pushvalue(L, KSEAT);
        int ok, st = lua_rawget(L, d);
        lua_Integer seat = lua_tointegerx(L, -1, &ok);
        if (!ok || st != LUA_TNUMBER || seat < 1 || seat > e->cfg.players) goto other;
        for (size_t j = 0; j < a->n; j++)
            if (a->items[j].seat == seat) goto other;
        asked_item *it = &a->items[a->n];
        it->seat = (int)seat;
        it->first = k + 1;
        it->n = it->n_enabled = it->n_avoided = 0;
        lua_pushvalue(L, KHIDDEN);
        it->hidden = lua_rawget(L, d) == LUA_TBOOLEAN && lua_toboolean(L, -1);
        lua_pushvalue(L, KOPTIONS);
        if (lua_rawget(L, d) != LUA_TTABLE || lua_getmetatable(L, -1)) goto other;
        int opts = lua_gettop(L);
        size_t no = lua_rawlen(L, opts);
        if (no == 0 || k + no > ASK_IDS_ROOM) goto other;
        size_t cap = a->cap_opts;
        if (grow_array((void **)&a->id_obj, &cap, k + no + 1, sizeof *a->id_obj) != 0 ||
            grow_array((void **)&a->disabled, &a->cap_opts, k + no + 1, 1) != 0)
            goto other;
        for (size_t j = 1; j <= no; j++) {
            int t = lua_rawgeti(L, opts, (lua_Integer)j);
            int dis = 0, avoid = 0;
            if (t == LUA_TTABLE) {
                int o = lua_gettop(L);
                if (lua_getmetatable(L, o)) goto other;
                lua_pushvalue(L, KDISABLED);
                int dt = lua_rawget(L, o);
                if (dt != LUA_TNIL && dt != LUA_TSTRING && dt != LUA_TBOOLEAN) goto other;
                /* a reason given is not kept: no texts (asked again with them) */
                dis = dt == LUA_TSTRING || (dt == LUA_TBOOLEAN && lua_toboolean(L, -1));
                lua_pushvalue(L, KBOT);
                int bt = lua_rawget(L, o);
                if (bt != LUA_TNIL && bt != LUA_TBOOLEAN) goto other;
                avoid = bt == LUA_TBOOLEAN && !lua_toboolean(L, -1);
                lua_pushvalue(L, KID);
                if (lua_rawget(L, o) != LUA_TSTRING) goto other;
            } else if (t != LUA_TSTRING) {
                goto other;
            }
            /* the id is on top */
            const void *obj = lua_topointer(L, -1);
            if (!(k < a->n_opts_filled && obj == a->id_obj[k + 1])) { /* not the string held here */
                size_t idlen;
                const char *ids = lua_tolstring(L, -1, &idlen); /* a string: no conversion */
                if (idlen == 0 || idlen > (size_t)CAIRN_YAML_MAX_STRING || memchr(ids, '\0', idlen)) goto other;
                lua_pushvalue(L, -1);
                lua_rawseti(L, IDS, (lua_Integer)(k + 1)); /* inside the list part: no allocation */
                a->id_obj[k + 1] = obj;
                if (k + 1 > a->n_opts_filled) a->n_opts_filled = k + 1;
            }
            a->disabled[++k] = (unsigned char)((dis ? ASK_DISABLED : 0) | (avoid && !dis ? ASK_AVOIDED : 0));
            it->n++;
            it->n_enabled += !dis;
            it->n_avoided += avoid && !dis;
            lua_settop(L, opts);
        }
        a->n++;
        lua_settop(L, IDS);
    }
    for (size_t q = k + 1; q <= a->n_opts_filled; q++) { /* inside the list part, as above */
        lua_pushnil(L);
        lua_rawseti(L, IDS, (lua_Integer)q);
        a->id_obj[q] = NULL;
    }
    a->n_opts = a->n_opts_filled = k;
    lua_settop(L, top);
    return 1;
other:
    a->n = 0;
    lua_settop(L, top);
    return 0;
}

/* Protected: the reader closure, made and kept in the registry. */
static int p_make_reader(lua_State *L) {
    luaL_checkstack(L, (int)N_ASK_KEYS + 2, "decisions");
    for (size_t i = 0; i < N_ASK_KEYS; i++) lua_pushstring(L, ask_key_names[i]);
    lua_pushcclosure(L, p_read_asked, (int)N_ASK_KEYS);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &ASK_READER);
    return 0;
}

/* Pushes the reader; -1 out of memory (nothing pushed). */
static int push_reader(lua_State *L) {
    if (lua_rawgetp(L, LUA_REGISTRYINDEX, &ASK_READER) == LUA_TFUNCTION) return 0;
    lua_pop(L, 1);
    lua_pushcfunction(L, p_make_reader);
    if (lua_pcall(L, 0, 0, 0) != LUA_OK) {
        lua_pop(L, 1);
        return -1;
    }
    lua_rawgetp(L, LUA_REGISTRYINDEX, &ASK_READER);
    return 0;
}

/* Calls decisions(g) on the live state and reads the result into e->asked
** (on failure e->asked is empty). */
int engine_ask(engine *e, cerr_list *errs) {
    lua_State *L = e->rt.L;
    int top = lua_gettop(L);
    e->asked.n = 0;
    call_ctx c = {.h = H_DECISIONS, .kind = ARGS_G};
    int rc = engine_call(e, &c, 1, errs);
    if (rc <= 0) {
        if (rc == 0)
            cerr_addk(errs, NULL, 0, 0, NULL, "handler.no_decisions", "the rules define no decisions(g) handler");
        return -1;
    }
    if (read_plain(e, L, lua_gettop(L))) {
        lua_settop(L, top);
        return 0;
    }
    ask_ctx ac;
    ac.e = e;
    ac.errs = errs;
    ac.bad = 0;
    if (!lua_checkstack(L, 3) || push_reader(L) != 0) {
        lua_settop(L, top);
        e->asked.n = 0;
        return errs->oom = 1, -1;
    }
    lua_pushlightuserdata(L, &ac);
    lua_rotate(L, -3, 2); /* the reader and its context below the result */
    int st = lua_pcall(L, 2, 0, 0);
    if (st != LUA_OK) {
        /* not always memory: reading the options runs the rules' metamethods,
        ** and the budget can stop them (an ASan run at a load of 20 said
        ** "out of memory" for what was not) */
        const char *msg = lua_tostring(L, -1);
        if (st == LUA_ERRMEM || !msg) errs->oom = 1;
        else cerr_addk(errs, NULL, 0, 0, NULL, "handler.decisions_read", "reading what decisions(g) returned: %s", msg);
        lua_settop(L, top);
        e->asked.n = 0;
        return -1;
    }
    lua_settop(L, top);
    if (ac.bad) {
        e->asked.n = 0;
        return -1;
    }
    return 0;
}

int engine_is_over(const engine *e) { return e->asked.n == 0; }

static const asked_item *item_for(const engine *e, int seat) {
    for (size_t i = 0; i < e->asked.n; i++)
        if (e->asked.items[i].seat == seat) return &e->asked.items[i];
    return NULL;
}

int engine_is_asked(const engine *e, int seat) { return item_for(e, seat) != NULL; }

int engine_next_bot_seat(const engine *e) {
    for (size_t i = 0; i < e->asked.n; i++)
        if (engine_seat_bot(e, e->asked.items[i].seat)) return e->asked.items[i].seat;
    return 0;
}

/* The id of option k (1-based, of the engine's table), borrowed until the
** next decision; NULL if it is not a string (cannot happen: read so). */
const char *engine_option_id(const engine *e, size_t k, size_t *len) {
    lua_State *L = e->rt.L;
    lua_rawgeti(L, LUA_REGISTRYINDEX, e->rt.ref_ids);
    lua_rawgeti(L, -1, (lua_Integer)k);
    const char *s = lua_type(L, -1) == LUA_TSTRING ? lua_tolstring(L, -1, len) : NULL;
    lua_pop(L, 2); /* the string stays alive in the engine's table */
    return s;
}

/* The option of item whose id is id: its index, or 0. */
static size_t find_option(const engine *e, const asked_item *it, const char *id) {
    size_t n = strlen(id);
    for (size_t k = it->first; k < it->first + it->n; k++) {
        size_t len;
        const char *s = engine_option_id(e, k, &len);
        if (s && len == n && memcmp(s, id, n) == 0) return k;
    }
    return 0;
}

/* Text from the engine table at ref, index k; NULL if none. Borrowed. */
static const char *engine_text_at(const engine *e, int ref, size_t k) {
    lua_State *L = e->rt.L;
    lua_rawgeti(L, LUA_REGISTRYINDEX, ref);
    lua_rawgeti(L, -1, (lua_Integer)k);
    const char *s = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : NULL;
    lua_pop(L, 2);
    return s;
}

/* A read-only handler's text result for seat (and id), malloc'd; NULL when
** the handler is missing, fails or returns no string (*failed says which;
** the error goes to why when given). */
static char *handler_text(engine *e, handler_id h, int seat, const char *id, char **why) {
    lua_State *L = e->rt.L;
    int top = lua_gettop(L);
    cerr_list errs;
    cerr_init(&errs, 0);
    call_ctx c = {.h = h, .kind = id ? ARGS_SEAT_ID : ARGS_SEAT, .seat = seat, .id = id};
    int rc = engine_call(e, &c, 1, &errs);
    char *out = NULL;
    if (rc > 0 && lua_type(L, -1) == LUA_TSTRING) out = cairn_strdup(lua_tostring(L, -1));
    else if (rc > 0 && why) *why = cairn_strfmt("%s must return a string, not %s", engine_handler_names[h],
                                                luaL_typename(L, -1));
    else if (rc < 0 && why) *why = engine_first_error(&errs);
    lua_settop(L, top);
    cerr_free(&errs);
    return out;
}

/* Why option k (offered disabled) may not be chosen: the table form's
** reason, else reason(g, seat, id), else "not available". Malloc'd. */
static int ask_labelled(engine *e);

static char *reason_of(engine *e, int seat, size_t k, const char *id) {
    (void)ask_labelled(e); /* failing, the reason comes from reason() or is "not available" */
    const char *r = e->asked.extras ? engine_text_at(e, e->rt.ref_reasons, k) : NULL;
    if (r) return cairn_strdup(r);
    char *why = NULL, *t = engine_has_handler(e, H_REASON) ? handler_text(e, H_REASON, seat, id, &why) : NULL;
    if (!t) t = why ? cairn_strfmt("not available (reason failed: %s)", why) : cairn_strdup("not available");
    free(why);
    return t;
}

/* A playout asked for ids only (g.labels false, its texts unformatted):
** asks again with g.labels on for the labels, prompts and reasons a person
** reads; the same options. 0 when done (or nothing to do). */
static int ask_labelled(engine *e) {
    if (e->cfg.fast && !e->asked_labelled) {
        cerr_list errs;
        cerr_init(&errs, 0);
        size_t n = e->asked.n, opts = e->asked.n_opts;
        int bad = gapi_set_labels(e, 1) != 0 || engine_ask(e, &errs) != 0;
        bad |= gapi_set_labels(e, 0) != 0;
        cerr_free(&errs);
        if (bad || e->asked.n != n || e->asked.n_opts != opts) return -1;
        e->asked_labelled = 1;
    }
    return 0;
}

/* The decisions asked now with their prompts and labels, made on demand:
** from the table form where the rules gave them, else from the prompt and
** label handlers, else the id; disabled(g, seat) adds what is offered
** disabled. Cached for the position. */
static int build_shown(engine *e) {
    if (e->shown_valid) return 0;
    if (ask_labelled(e) != 0) return -1;
    engine_decision_list *l = &e->shown;
    engine_guard_batch_begin(e); /* the labels, prompts and reasons: g.state read-only throughout */
    l->n = 0;
    l->items = e->asked.n ? calloc(e->asked.n, sizeof *l->items) : NULL;
    if (e->asked.n && !l->items) goto fail;
    for (size_t i = 0; i < e->asked.n; i++) {
        const asked_item *it = &e->asked.items[i];
        engine_decision *d = &l->items[i];
        l->n++;
        d->seat = it->seat;
        d->hidden = it->hidden;
        const char *p = e->asked.extras ? engine_text_at(e, e->rt.ref_prompts, i + 1) : NULL;
        char *why = NULL;
        d->prompt = p ? cairn_strdup(p)
                      : engine_has_handler(e, H_PROMPT) ? handler_text(e, H_PROMPT, it->seat, NULL, &why)
                                                        : cairn_strdup("");
        if (!d->prompt) d->prompt = why ? cairn_strfmt("(prompt failed: %s)", why) : NULL;
        free(why);
        d->options = calloc(it->n, sizeof *d->options);
        if (!d->prompt || !d->options) goto fail;
        for (size_t k = it->first; k < it->first + it->n; k++) {
            engine_option *o = &d->options[d->n_options];
            size_t len;
            const char *id = engine_option_id(e, k, &len);
            const char *label = e->asked.extras ? engine_text_at(e, e->rt.ref_labels, k) : NULL;
            if (!(o->id = cairn_strdup(id ? id : "?"))) goto fail;
            d->n_options++;
            why = NULL;
            o->label = label ? cairn_strdup(label)
                       : engine_has_handler(e, H_LABEL) ? handler_text(e, H_LABEL, it->seat, o->id, &why)
                                                        : NULL;
            if (!o->label) o->label = why ? cairn_strfmt("%s (label failed: %s)", o->id, why) : cairn_strdup(o->id);
            free(why);
            if (!o->label) goto fail;
            if ((e->asked.disabled[k] & ASK_DISABLED) && !(o->disabled = reason_of(e, it->seat, k, o->id))) goto fail;
        }
    }
    engine_guard_batch_end(e);
    e->shown_valid = 1;
    return 0;
fail:
    engine_guard_batch_end(e);
    engine_decision_list_free(l);
    return -1;
}

int engine_decisions(const engine *ce, engine_decision_list *out) {
    engine *e = (engine *)ce; /* labels are made on demand and cached: logically const */
    out->items = NULL;
    out->n = 0;
    if (build_shown(e) != 0) return -1;
    return decision_list_copy(out, &e->shown);
}

/* ------------------------------------------------- legality, explanation */

/* "did you mean" for an id matching no option: the enabled ids it is a
** prefix of, else the enabled ids within a small edit distance, else all
** enabled ids (up to 8). */
static char *unknown_option(const engine *e, const asked_item *it, const char *id, explain_why *w) {
    enum { MAXN = 8 };
    const char *pick[MAXN];
    size_t n = 0;
    size_t len = strlen(id), l;
    for (size_t k = it->first; k < it->first + it->n && n < MAXN; k++) {
        const char *s = engine_option_id(e, k, &l);
        if (s && !(e->asked.disabled[k] & ASK_DISABLED) && len && strncmp(s, id, len) == 0) pick[n++] = s;
    }
    if (n == 0) {
        suggest_nearest near = suggest_start(id, len / 3 > 2 ? len / 3 : 2, 0);
        for (size_t k = it->first; k < it->first + it->n; k++) {
            const char *s = engine_option_id(e, k, &l);
            if (s && !(e->asked.disabled[k] & ASK_DISABLED)) suggest_try(&near, s);
        }
        for (size_t k = it->first; k < it->first + it->n && n < MAXN && near.best; k++) {
            const char *s = engine_option_id(e, k, &l);
            if (s && !(e->asked.disabled[k] & ASK_DISABLED) && suggest_distance(id, s) == near.dist) pick[n++] = s;
        }
    }
    const char *lead = "did you mean";
    if (n == 0) {
        lead = "choose one of";
        for (size_t k = it->first; k < it->first + it->n && n < MAXN; k++) {
            const char *s = engine_option_id(e, k, &l);
            if (s && !(e->asked.disabled[k] & ASK_DISABLED)) pick[n++] = s;
        }
    }
    /* "a, b, c" */
    char *list = cairn_strdup("");
    for (size_t i = 0; list && i < n; i++) {
        char *next = cairn_strfmt("%s%s%s", list, i ? ", " : "", pick[i]);
        free(list);
        list = next;
    }
    if (!list) return NULL;
    char *out = n ? cairn_strfmt("no option \"%s\"; %s: %s", id, lead, list) : cairn_strfmt("no option \"%s\"; %s:", id, lead);
    if (w && out && n) { /* the options listed, for the console's words around them */
        w->kind = strcmp(lead, "did you mean") == 0 ? "no_option" : "choose_one";
        w->a = list;
        list = NULL;
    }
    free(list);
    return out;
}

void explain_why_free(explain_why *w) {
    free(w->a);
    free(w->b);
    memset(w, 0, sizeof *w);
}

char *engine_explain_at(engine *e, int seat, const char *id, engine_status *status, size_t *index) {
    return engine_explain_why(e, seat, id, status, index, NULL);
}

void explain_why_add(cerr_list *errs, const explain_why *w, const char *id, const char *msg) {
    const char *kind = w->kind ? w->kind : "";
    if (strcmp(kind, "over") == 0)
        cerr_addk(errs, NULL, 0, 0, NULL, "explain.over", "the game is over");
    else if (strcmp(kind, "not_asked") == 0)
        cerr_addk(errs, NULL, 0, 0, NULL, "explain.not_asked", "%s is not asked anything now (waiting for %s)", w->a,
                  w->b);
    else if (strcmp(kind, "waiting") == 0)
        cerr_addk(errs, NULL, 0, 0, NULL, "explain.waiting", "that seat is not asked anything now (waiting for %s)",
                  w->a);
    else if (strcmp(kind, "nobody") == 0)
        cerr_addk(errs, NULL, 0, 0, NULL, "explain.nobody", "that seat is not asked anything now");
    else if (strcmp(kind, "no_option") == 0)
        cerr_addk(errs, NULL, 0, 0, NULL, "explain.no_option", "no option \"%s\"; did you mean: %s", id, w->a);
    else if (strcmp(kind, "choose_one") == 0)
        cerr_addk(errs, NULL, 0, 0, NULL, "explain.choose_one", "no option \"%s\"; choose one of: %s", id, w->a);
    else if (msg)
        cerr_add(errs, NULL, 0, 0, NULL, "%s", msg);
    else
        errs->oom = 1;
}

/* Why seat may not answer id now (status set), or NULL with ENGINE_OK and
** *index set to the option's index; w (when not NULL) says which reason. */
char *engine_explain_why(engine *e, int seat, const char *id, engine_status *status, size_t *index, explain_why *w) {
    *status = ENGINE_OK;
    *index = 0;
    if (w) memset(w, 0, sizeof *w);
    if (seat == 0 && strncmp(id, "set ", 4) == 0) return edit_explain(e, id, status); /* an edit: engine_edit.c */
    if (engine_is_over(e)) {
        *status = ENGINE_GAME_OVER;
        if (w) w->kind = "over";
        return cairn_strdup("the game is over");
    }
    const asked_item *it = item_for(e, seat);
    if (!it) {
        *status = ENGINE_NOT_ASKED;
        char *who = cairn_strdup("");
        for (size_t i = 0; who && i < e->asked.n; i++) {
            if (e->asked.items[i].hidden) continue;
            char *next = cairn_strfmt("%s%s%s", who, *who ? ", " : "",
                                      engine_seat_name(e, e->asked.items[i].seat));
            free(who);
            who = next;
        }
        int named = seat >= 1 && seat <= e->cfg.players;
        char *msg = who && *who ? cairn_strfmt("%s is not asked anything now (waiting for %s)",
                                               named ? engine_seat_name(e, seat) : "that seat", who)
                                : cairn_strdup("that seat is not asked anything now");
        if (w && msg) { /* the names, for the console's words around them */
            w->kind = !who || !*who ? "nobody" : named ? "not_asked" : "waiting";
            if (who && *who && named) {
                w->a = cairn_strdup(engine_seat_name(e, seat));
                w->b = cairn_strdup(who);
                if (!w->a || !w->b) explain_why_free(w);
            } else if (who && *who) {
                w->a = cairn_strdup(who);
                if (!w->a) explain_why_free(w);
            }
        }
        free(who);
        return msg;
    }
    size_t k = find_option(e, it, id);
    if (k && !(e->asked.disabled[k] & ASK_DISABLED)) {
        *index = k;
        return NULL;
    }
    if (k) {
        *status = ENGINE_DISABLED;
        return reason_of(e, seat, k, id);
    }
    *status = ENGINE_UNKNOWN;
    return unknown_option(e, it, id, w);
}

char *engine_explain(const engine *e, int seat, const char *id, engine_status *status) {
    size_t k;
    return engine_explain_at((engine *)e, seat, id, status, &k); /* disabled() is cached: logically const */
}

/* The random bot's pick for seat: an option index, 0 if none. Uniform over
** the enabled options, drawn from a stream of the game seed, the decision
** index and the seat (never the game RNG), so a game with bots replays. */
size_t engine_bot_pick(const engine *e, int seat) {
    const asked_item *it = item_for(e, seat);
    if (!it || !it->n_enabled) return 0;
    rng r;
    rng_seed_stream(&r, e->cfg.seed, (uint64_t)e->pos * (CAIRN_MAX_SEATS + 1) + (uint64_t)seat);
    uint64_t k = rng_below(&r, it->n_enabled);
    for (size_t q = it->first; q < it->first + it->n; q++)
        if (!(e->asked.disabled[q] & ASK_DISABLED) && k-- == 0) return q;
    return 0;
}

char *engine_bot_choice(const engine *e, int seat) {
    size_t k = engine_bot_pick(e, seat), len;
    const char *s = k ? engine_option_id(e, k, &len) : NULL;
    return s ? cairn_strdup(s) : NULL;
}

int engine_parse_answer(engine *e, int seat, const char *text, char ***ids, size_t *n, char **why) {
    *ids = NULL;
    *n = 0;
    *why = NULL;
    if (!engine_has_handler(e, H_PARSE)) return 0;
    lua_State *L = e->rt.L;
    int top = lua_gettop(L);
    cerr_list errs;
    cerr_init(&errs, 0);
    call_ctx c = {.h = H_PARSE, .kind = ARGS_SEAT_ID, .seat = seat, .id = text};
    int rc = engine_call(e, &c, 1, &errs);
    value *got = NULL;
    if (rc > 0 && !lua_isnil(L, -1)) {
        got = luaval_to_value(L, -1, "parse's result", &errs);
        if (!got) rc = -1;
    }
    lua_settop(L, top);
    if (rc > 0 && got && got->type == CV_STR) { /* the rules' reason the line cannot be read */
        *why = cairn_strdup(got->u.str.s);
        rc = -1;
    } else if (rc > 0 && got) {
        int ok = got->type == CV_LIST && got->u.list.n > 0;
        for (size_t i = 0; ok && i < got->u.list.n; i++) ok = got->u.list.items[i]->type == CV_STR;
        if (!ok) {
            *why = cairn_strdup("parse must return nil, a reason, or a non-empty list of option ids");
            rc = -1;
        } else if (!(*ids = calloc(got->u.list.n, sizeof **ids))) {
            rc = -1;
        } else {
            for (size_t i = 0; i < got->u.list.n; i++) {
                if (!((*ids)[i] = cairn_strdup(got->u.list.items[i]->u.str.s))) {
                    engine_parse_free(*ids, i);
                    *ids = NULL;
                    rc = -1;
                    break;
                }
                *n = i + 1;
            }
        }
    } else if (rc > 0) {
        rc = 0; /* nil: the rules do not read this text either */
    }
    if (rc < 0 && !*why) *why = errs.n || errs.oom ? engine_first_error(&errs) : cairn_strdup("out of memory");
    value_free(got);
    cerr_free(&errs);
    return rc < 0 ? -1 : *n > 0;
}

void engine_parse_free(char **ids, size_t n) {
    for (size_t i = 0; ids && i < n; i++) free(ids[i]);
    free(ids);
}
