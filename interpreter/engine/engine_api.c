/*
** engine_api.c
** g, the table every handler gets, and the functions in it: g.rng (the only
** chance a script has), g.log (events with an audience), g.text (the
** ruleset's text tables). g is built once per game and handed to every call:
** three tables, each an empty front with its fields behind __index, so that
** reading g.state costs a table lookup and no script can add to g or take
** anything out of it:
**   g         setup and apply: g.state is the live state (g.state = {...}
**             replaces it, the one assignment g allows);
**   g (ro)    decisions, score, check, heuristic, label, prompt, reason:
**             g.state is a read-only view (guard.c) or, for the engine's
**             own hot calls in fast mode, the live table;
**   g (render) render: no state at all, only what the view shows.
** Every closure reaches the engine through its hub, which engine_reload keeps
** pointing at the engine that owns the sandbox.
*/
#include "engine_internal.h"
#include "grow.h"
#include "guard.h"
#include "limits.h"
#include "luaval.h"
#include "textfmt.h"

#include <lauxlib.h>
#include <stdlib.h>
#include <string.h>

/* The engine a closure of g belongs to. Its hub follows engine_reload and
** is cleared when the game ends (its sandbox goes back to the pool): a
** closure a script kept past that gets an error, never a stale engine. */
static engine *up_engine(lua_State *L) {
    engine *e = ((engine_hub *)lua_touserdata(L, lua_upvalueindex(1)))->e;
    if (!e) luaL_error(L, "g: this function belongs to a game that is over");
    return e;
}

/* ---------------------------------------------------------------- g.rng */

/* Chance is part of the game only where the game moves: a draw from render,
** decisions, score, check or a heuristic would make the game depend on how
** often the board was shown, and saves would no longer replay. */
static engine *rng_engine(lua_State *L, const char *fn) {
    engine *e = up_engine(L);
    if (!e->in_apply) luaL_error(L, "g.rng.%s: only setup and apply may draw random numbers", fn);
    return e;
}

static int l_rng_int(lua_State *L) {
    engine *e = rng_engine(L, "int");
    lua_Integer lo = luaL_checkinteger(L, 1), hi = luaL_checkinteger(L, 2);
    int64_t x;
    if (rng_range(&e->rng, lo, hi, &x) != 0)
        return luaL_error(L, "g.rng.int(%I, %I): empty range", lo, hi);
    lua_pushinteger(L, x);
    return 1;
}

static int l_rng_die(lua_State *L) {
    engine *e = rng_engine(L, "die");
    lua_Integer sides = luaL_checkinteger(L, 1);
    int64_t x;
    if (sides < 1 || rng_range(&e->rng, 1, sides, &x) != 0)
        return luaL_error(L, "g.rng.die(%I): a die needs at least one side", sides);
    lua_pushinteger(L, x);
    return 1;
}

static int l_rng_shuffle(lua_State *L) {
    engine *e = rng_engine(L, "shuffle");
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_Integer n = luaL_len(L, 1); /* not raw: read-only data is a proxy */
    if (n > 1) sandbox_charge(L, n); /* a __len of 10^15 would loop in C unseen */
    /* Fisher-Yates from the top: swap item i with a uniform j in [1, i] */
    for (lua_Integer i = n; i > 1; i--) {
        lua_Integer j = (lua_Integer)rng_below(&e->rng, (uint64_t)i) + 1;
        lua_geti(L, 1, i);
        lua_geti(L, 1, j);
        lua_seti(L, 1, i);
        lua_seti(L, 1, j);
    }
    lua_settop(L, 1);
    return 1;
}

static int l_rng_pick(lua_State *L) {
    engine *e = rng_engine(L, "pick");
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_Integer n = luaL_len(L, 1);
    if (n < 1) return luaL_error(L, "g.rng.pick: the list is empty");
    lua_geti(L, 1, (lua_Integer)rng_below(&e->rng, (uint64_t)n) + 1);
    return 1;
}

static int l_rng_weighted(lua_State *L) {
    engine *e = rng_engine(L, "weighted");
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_Integer len = luaL_len(L, 1);
    size_t n = len > 0 ? (size_t)len : 0;
    if (n == 0 || n > 100000) return luaL_error(L, "g.rng.weighted: needs 1 to 100000 weights");
    int64_t *w = lua_newuserdatauv(L, n * sizeof *w, 0); /* freed by the GC, even on error */
    for (size_t i = 0; i < n; i++) {
        lua_geti(L, 1, (lua_Integer)i + 1);
        int ok;
        lua_Integer x = lua_tointegerx(L, -1, &ok);
        lua_pop(L, 1);
        if (!ok || x < 0) return luaL_error(L, "g.rng.weighted: weight %d is not an integer >= 0", (int)i + 1);
        w[i] = x;
    }
    long k = rng_weighted(&e->rng, w, n);
    if (k < 0) return luaL_error(L, "g.rng.weighted: the weights add up to 0 (or overflow)");
    lua_pushinteger(L, (lua_Integer)k + 1);
    return 1;
}

/* ---------------------------------------------------------------- g.log */

/* Reads the audience of an event: `to` (a seat or list of seats) and
** `except` (a seat or list). Returns the bit mask. */
static uint32_t seat_mask_of(lua_State *L, int idx, const char *field, int nseats) {
    uint32_t m = 0;
    int t = lua_getfield(L, idx, field);
    if (t == LUA_TNUMBER || t == LUA_TTABLE) {
        lua_Integer len = t == LUA_TTABLE ? luaL_len(L, -1) : 1;
        if (len > 64) luaL_error(L, "g.log: %s lists more seats than there are", field);
        int n = (int)len;
        for (int i = 1; i <= n; i++) {
            if (t == LUA_TTABLE) lua_geti(L, -1, i);
            else lua_pushvalue(L, -1);
            int ok;
            lua_Integer s = lua_tointegerx(L, -1, &ok);
            lua_pop(L, 1);
            if (!ok || s < 1 || s > nseats)
                luaL_error(L, "g.log: %s must name seats 1..%d", field, nseats);
            m |= 1u << (s - 1);
        }
    } else if (t != LUA_TNIL) {
        luaL_error(L, "g.log: %s must be a seat number or a list of them", field);
    }
    lua_pop(L, 1);
    return m;
}

/* Appends an event; fast games keep none (nobody reads them). */
static int push_event_now(engine *e, const char *text, uint32_t to);

/* push_event_now inside the heap brackets: a hard stop waits for it */
static int push_event(engine *e, const char *text, uint32_t to) {
    sandbox_heap_begin();
    int rc = push_event_now(e, text, to);
    sandbox_heap_end();
    return rc;
}

static int push_event_now(engine *e, const char *text, uint32_t to) {
    if (e->cfg.fast) return 0;
    size_t bytes = strlen(text) + 1 + sizeof *e->events;
    if (e->kept_bytes + bytes > (size_t)CAIRN_GAME_MEMORY_CAP) return -2;
    if (grow_array((void **)&e->events, &e->cap_events, e->n_events + 1, sizeof *e->events) != 0)
        return -1;
    char *t = cairn_strdup(text);
    if (!t) return -1;
    e->events[e->n_events].text = t;
    e->events[e->n_events].to = to;
    e->events[e->n_events].decision = e->cur_decision;
    e->n_events++;
    e->kept_bytes += bytes;
    return 0;
}

static uint32_t all_seats(const engine *e) {
    return e->cfg.players >= 32 ? 0xffffffffu : (1u << e->cfg.players) - 1;
}

static int l_log(lua_State *L) {
    engine *e = up_engine(L);
    if (!e->in_apply) return luaL_error(L, "g.log: events can only be logged in setup and apply");
    if (e->cfg.fast) return 0; /* a playout keeps no events: nothing to read (push_event) */
    uint32_t to = all_seats(e);
    const char *text;
    if (lua_type(L, 1) == LUA_TTABLE) {
        if (lua_getfield(L, 1, "text") != LUA_TSTRING)
            return luaL_error(L, "g.log{...}: text must be a string");
        text = lua_tostring(L, -1);
        int has_to = lua_getfield(L, 1, "to") != LUA_TNIL;
        lua_pop(L, 1);
        uint32_t only = seat_mask_of(L, 1, "to", e->cfg.players);
        uint32_t except = seat_mask_of(L, 1, "except", e->cfg.players);
        if (has_to) to = only; /* `to = {}` is nobody: an audience fails closed */
        to &= ~except;
    } else {
        text = luaL_checkstring(L, 1);
    }
    int rc = push_event(e, text, to);
    if (rc == -2)
        return luaL_error(L, "g.log: the game keeps more than %d MiB of event text and "
                             "checkpoints (limit CAIRN_GAME_MEMORY_CAP)",
                          (int)(CAIRN_GAME_MEMORY_CAP / (1024 * 1024)));
    if (rc != 0) return luaL_error(L, "g.log: out of memory");
    return 0;
}

/* g.log_text([audience,] key, ...): g.log(g.text(key, ...)), to the
** audience ({to =, except =}, as g.log's) when one comes first, except that
** a fast game, which keeps no events, formats nothing. */
static int l_text(lua_State *L);

static int l_log_text(lua_State *L) {
    engine *e = up_engine(L);
    if (!e->in_apply) return luaL_error(L, "g.log_text: events can only be logged in setup and apply");
    int audience = lua_type(L, 1) == LUA_TTABLE;
    luaL_checkstring(L, audience ? 2 : 1);
    if (e->cfg.fast) return 0;
    uint32_t to = all_seats(e);
    if (audience) {
        int has_to = lua_getfield(L, 1, "to") != LUA_TNIL;
        lua_pop(L, 1);
        uint32_t only = seat_mask_of(L, 1, "to", e->cfg.players);
        uint32_t except = seat_mask_of(L, 1, "except", e->cfg.players);
        if (has_to) to = only; /* `to = {}` is nobody: an audience fails closed */
        to &= ~except;
        lua_remove(L, 1); /* the key and its arguments from 1, as g.text takes them */
    }
    l_text(L); /* same upvalue (the hub), same arguments: pushes the text */
    const char *text = lua_tostring(L, -1);
    if (!text) return luaL_error(L, "g.log_text: the text is not a string");
    if (push_event(e, text, to) != 0) return luaL_error(L, "g.log_text: out of memory");
    return 0;
}

/* print(...) and g.debug(...) from a script: the debug channel
** (engine_debug_channel.c), never the game's events. */
static int on_print(void *ud, const char *where, const char *text) {
    engine *e = ((engine_hub *)ud)->e;
    if (!e) return 0;
    if (!text) return debug_channel_wanted(e);
    sandbox_heap_begin(); /* the channel's buffers: a hard stop waits */
    debug_channel_print(e, where, text);
    sandbox_heap_end();
    return 1;
}

/* --------------------------------------------------------------- g.text */

static int l_text(lua_State *L) {
    engine *e = up_engine(L);
    if (e->texts_unread && lua_type(L, 1) == LUA_TSTRING) { /* nobody reads it: the key (engine_texts.c) */
        lua_settop(L, 1);
        return 1;
    }
    return textfmt_push(L, e->rt.rules->text_lang, e->rt.rules->lang, e->rt.rules->text_en);
}

/* ------------------------------------------------------------ building g */

typedef struct api_fn {
    const char *name;
    lua_CFunction fn;
} api_fn;

static const api_fn rng_api[] = {
    {"int", l_rng_int},         {"die", l_rng_die},       {"shuffle", l_rng_shuffle},
    {"pick", l_rng_pick},       {"weighted", l_rng_weighted}, {NULL, NULL},
};

/* __newindex of every g: upvalue 1 the fields, 2 whether g.state may be
** replaced, 3 the hub (told that it was). */
static int g_newindex(lua_State *L) {
    const char *k = lua_type(L, 2) == LUA_TSTRING ? lua_tostring(L, 2) : NULL;
    if (lua_toboolean(L, lua_upvalueindex(2)) && k && strcmp(k, "state") == 0) {
        if (!lua_istable(L, 3)) return luaL_error(L, "g.state must be a table, not %s", luaL_typename(L, 3));
        lua_pushvalue(L, 3);
        lua_setfield(L, lua_upvalueindex(1), "state");
        ((engine_hub *)lua_touserdata(L, lua_upvalueindex(3)))->state_assigned = 1;
        return 0;
    }
    if (k) return luaL_error(L, "g.%s cannot be changed (only setup and apply may assign g.state)", k);
    return luaL_error(L, "g cannot be changed");
}

/* Pushes the front of fields (at fi): an empty table reading fields. */
static void push_front(lua_State *L, int fi, int state_writable, engine_hub *hub) {
    lua_newtable(L);
    lua_createtable(L, 0, 3);
    lua_pushvalue(L, fi);
    lua_setfield(L, -2, "__index");
    lua_pushvalue(L, fi);
    lua_pushboolean(L, state_writable);
    lua_pushlightuserdata(L, hub);
    lua_pushcclosure(L, g_newindex, 3);
    lua_setfield(L, -2, "__newindex");
    lua_pushboolean(L, 0); /* getmetatable sees false; setmetatable refuses */
    lua_setfield(L, -2, "__metatable");
    sandbox_mark_readonly(L, -1, fi, "g"); /* rawset refuses it; pairs reads the fields */
    lua_setmetatable(L, -2);
}

/* A fast game's handlers get the fields table itself as g (gapi_push): no
** front, so reading g.state is one table lookup, not a miss and a
** metamethod (connect4's random games: 3% of their instructions). It
** refuses new keys (g_newindex, which no field reaches: they are all
** there) and rawset, and keeps its metatable; a field assigned over in a
** fast game stays so for that game only (p_start sets every field again),
** and a strict game, whose handlers get the front, refuses it. */
static void seal_fields(lua_State *L, int fi, engine_hub *hub) {
    lua_createtable(L, 0, 2);
    lua_pushvalue(L, fi);
    lua_pushboolean(L, 0);
    lua_pushlightuserdata(L, hub);
    lua_pushcclosure(L, g_newindex, 3);
    lua_setfield(L, -2, "__newindex");
    lua_pushboolean(L, 0); /* getmetatable sees false; setmetatable refuses */
    lua_setfield(L, -2, "__metatable");
    sandbox_mark_readonly(L, -1, fi, "g"); /* rawset refuses it */
    lua_setmetatable(L, fi);
}

/* Pushes a fields table with everything but state and seats. */
static void push_fields(lua_State *L, const sandbox_kit *k, const char *lang, int rng_i, int log_i,
                        int text_i, int log_text_i) {
    lua_createtable(L, 0, 8);
    lua_rawgeti(L, LUA_REGISTRYINDEX, k->ref_data);
    lua_setfield(L, -2, "data");
    lua_rawgeti(L, LUA_REGISTRYINDEX, k->ref_options);
    lua_setfield(L, -2, "options");
    lua_pushvalue(L, rng_i);
    lua_setfield(L, -2, "rng");
    lua_pushvalue(L, log_i);
    lua_setfield(L, -2, "log");
    lua_pushvalue(L, text_i);
    lua_setfield(L, -2, "text");
    lua_pushvalue(L, log_text_i);
    lua_setfield(L, -2, "log_text");
    lua_pushcfunction(L, sandbox_print_function); /* g.debug: print's debug channel */
    lua_setfield(L, -2, "debug");
    lua_pushstring(L, lang);
    lua_setfield(L, -2, "lang");
}

static value *seats_value(const game_cfg *c) {
    value *l = value_list();
    for (int i = 0; l && i < c->players; i++) {
        value *m = value_map();
        if (!m || value_list_push(l, m) != 0 || value_map_set(m, "name", value_str(c->names[i])) != 0 ||
            (c->bots[i] && value_map_set(m, "bot", value_str(c->bots[i])) != 0)) {
            value_free(l);
            return NULL;
        }
    }
    return l;
}

typedef struct build_ctx {
    sandbox_kit *k;
    const engine_rules *r;
} build_ctx;

/* Protected: g.rng, g.log, g.text, then the three g's, for a new kit. */
static int p_build(lua_State *L) {
    build_ctx *c = lua_touserdata(L, 1);
    sandbox_kit *k = c->k;
    lua_settop(L, 0);
    lua_createtable(L, 0, 5); /* 1: g.rng */
    for (const api_fn *f = rng_api; f->name; f++) {
        lua_pushlightuserdata(L, k->hub);
        lua_pushcclosure(L, f->fn, 1);
        lua_setfield(L, -2, f->name);
    }
    if (sandbox_freeze(L, 1, "g.rng") != 0) return luaL_error(L, "out of memory");
    lua_pushlightuserdata(L, k->hub); /* 2: g.log */
    lua_pushcclosure(L, l_log, 1);
    lua_pushlightuserdata(L, k->hub); /* 3: g.text */
    lua_pushcclosure(L, l_text, 1);
    lua_pushlightuserdata(L, k->hub); /* 4: g.log_text */
    lua_pushcclosure(L, l_log_text, 1);
    int *fronts[] = {&k->ref_g, &k->ref_gro, &k->ref_grender};
    int *fields[] = {&k->ref_gfields, &k->ref_grofields, &k->ref_grenderfields};
    for (int i = 0; i < 3; i++) {
        push_fields(L, k, c->r->lang, 1, 2, 3, 4); /* 5 */
        if (i < 2) seal_fields(L, 5, k->hub);
        push_front(L, 5, i == 0, k->hub);
        *fronts[i] = luaL_ref(L, LUA_REGISTRYINDEX);
        *fields[i] = luaL_ref(L, LUA_REGISTRYINDEX);
    }
    return 0;
}

int gapi_build_kit(sandbox_kit *k, const engine_rules *r) {
    lua_State *L = sandbox_state(k->sb);
    build_ctx c = {k, r};
    lua_settop(L, 0);
    lua_pushcfunction(L, p_build);
    lua_pushlightuserdata(L, &c);
    if (lua_pcall(L, 1, 0, 0) != LUA_OK) {
        lua_settop(L, 0);
        return -1;
    }
    sandbox_set_print(k->sb, on_print, k->hub);
    return 0;
}

void gapi_bind_print(sandbox *sb, engine_hub *hub) { sandbox_set_print(sb, on_print, hub); }

typedef struct start_ctx {
    engine *e;
    const value *seats; /* NULL: the kit's g.seats are these seats already */
    const value *now_seats; /* this game's seats, new or the kit's */
} start_ctx;

/* Protected: g.seats (when new), g.data and g.state, in all three g's.
** A fast game's g.data and g.seats are plain copies, no read-only proxies: a
** playout reads the data in every rule, and each read through a proxy is a
** table miss and a metamethod. As with g.state in a fast game's decisions
** (engine.c, guarded), a write there is not refused; strict games (check,
** test, the console) keep the read-only tables, so a ruleset that writes
** to g.data fails there. One table for the whole game all the same. */
static int p_start(lua_State *L) {
    start_ctx *c = lua_touserdata(L, 1);
    game_rt *rt = &c->e->rt;
    sandbox_kit *k = rt->kit;
    int fast = c->e->cfg.fast;
    if (fast && k->ref_data_plain == LUA_NOREF) {
        luaval_push_raw(L, rt->rules->rs->data);
        k->ref_data_plain = luaL_ref(L, LUA_REGISTRYINDEX);
    }
    if (c->seats) {
        if (luaval_push_readonly(L, c->seats, "g.seats", NULL) != 0) return luaL_error(L, "out of memory");
        int ref = luaL_ref(L, LUA_REGISTRYINDEX);
        luaL_unref(L, LUA_REGISTRYINDEX, k->ref_seats);
        k->ref_seats = ref;
        luaL_unref(L, LUA_REGISTRYINDEX, k->ref_seats_plain); /* made again below when fast */
        k->ref_seats_plain = LUA_NOREF;
    }
    if (fast && k->ref_seats_plain == LUA_NOREF) { /* g.seats plain too, like g.data */
        luaval_push_raw(L, c->now_seats);
        k->ref_seats_plain = luaL_ref(L, LUA_REGISTRYINDEX);
    }
    /* raw sets: g's and read-only g's fields refuse new keys (seal_fields) */
    int fields[] = {k->ref_gfields, k->ref_grofields, k->ref_grenderfields};
    for (int i = 0; i < 3; i++) {
        lua_rawgeti(L, LUA_REGISTRYINDEX, fields[i]);
        lua_pushliteral(L, "seats");
        lua_rawgeti(L, LUA_REGISTRYINDEX, fast ? k->ref_seats_plain : k->ref_seats);
        lua_rawset(L, -3);
        lua_pushliteral(L, "labels");
        lua_pushboolean(L, !fast);
        lua_rawset(L, -3);
        lua_pushliteral(L, "data");
        lua_rawgeti(L, LUA_REGISTRYINDEX, fast ? k->ref_data_plain : k->ref_data);
        lua_rawset(L, -3);
        if (i < 2) {
            lua_pushliteral(L, "state");
            lua_rawgeti(L, LUA_REGISTRYINDEX, rt->ref_state);
            lua_rawset(L, -3);
        }
        lua_pop(L, 1);
    }
    /* the rest as built: a fast game's handlers could assign over them
    ** (seal_fields); render's fields never reach a script that can */
    static const char *const kept[] = {"options", "rng", "log", "text", "log_text", "debug", "lang"};
    lua_rawgeti(L, LUA_REGISTRYINDEX, k->ref_grenderfields);
    for (int i = 0; i < 2; i++) {
        lua_rawgeti(L, LUA_REGISTRYINDEX, fields[i]);
        for (size_t j = 0; j < sizeof kept / sizeof kept[0]; j++) {
            lua_pushstring(L, kept[j]);
            lua_pushvalue(L, -1);
            lua_rawget(L, -4);
            lua_rawset(L, -3);
        }
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
    return 0;
}

/* Whether seats (seats_value's shape) holds c's seats: what a new game
** compares first, before it builds anything. */
static int seats_are(const value *seats, const game_cfg *c) {
    if (!seats || seats->type != CV_LIST || seats->u.list.n != (size_t)c->players) return 0;
    for (int i = 0; i < c->players; i++) {
        const value *m = seats->u.list.items[i];
        if (m->type != CV_MAP || m->u.map.n != (c->bots[i] ? 2u : 1u)) return 0;
        const value *name = value_map_get(m, "name"), *bot = value_map_get(m, "bot");
        if (!name || name->type != CV_STR || strcmp(name->u.str.s, c->names[i]) != 0) return 0;
        if (c->bots[i] && (!bot || bot->type != CV_STR || strcmp(bot->u.str.s, c->bots[i]) != 0)) return 0;
    }
    return 1;
}

int gapi_start(engine *e, cerr_list *errs) {
    sandbox_kit *k = e->rt.kit;
    lua_State *L = e->rt.L;
    /* the kit's g.seats are these seats already (the usual case: the same
    ** seats game after game): nothing to build */
    int same = seats_are(k->seats, &e->cfg);
    value *seats = same ? NULL : seats_value(&e->cfg);
    if (!same && !seats) return errs->oom = 1, -1;
    start_ctx c = {e, same ? NULL : seats, same ? k->seats : seats};
    lua_pushcfunction(L, p_start);
    lua_pushlightuserdata(L, &c);
    if (lua_pcall(L, 1, 0, 0) != LUA_OK) {
        lua_pop(L, 1);
        value_free(seats);
        return errs->oom = 1, -1;
    }
    if (!same) {
        value_free(k->seats);
        k->seats = seats;
    }
    return 0;
}

void gapi_push(engine *e, int writable, int render) {
    const sandbox_kit *k = e->rt.kit;
    int ref = render ? k->ref_grender
              : e->cfg.fast ? (writable ? k->ref_gfields : k->ref_grofields) /* seal_fields */
              : writable ? k->ref_g : k->ref_gro;
    lua_rawgeti(e->rt.L, LUA_REGISTRYINDEX, ref);
}

/* Protected: makes the fields' state the live table again (arg 1: 1 for
** g's fields too). */
static int p_refresh(lua_State *L) {
    engine *e = lua_touserdata(L, 1);
    game_rt *rt = &e->rt;
    lua_rawgeti(L, LUA_REGISTRYINDEX, rt->kit->ref_grofields);
    lua_rawgeti(L, LUA_REGISTRYINDEX, rt->ref_state);
    lua_setfield(L, -2, "state");
    lua_rawgeti(L, LUA_REGISTRYINDEX, rt->kit->ref_gfields);
    lua_rawgeti(L, LUA_REGISTRYINDEX, rt->ref_state);
    lua_setfield(L, -2, "state");
    return 0;
}

int gapi_refresh_state(engine *e) {
    lua_State *L = e->rt.L;
    lua_pushcfunction(L, p_refresh);
    lua_pushlightuserdata(L, e);
    if (lua_pcall(L, 1, 0, 0) != LUA_OK) {
        lua_pop(L, 1);
        return -1;
    }
    return 0;
}

/* Protected: if g.state is no longer the live table, it becomes it. */
static int p_adopt(lua_State *L) {
    engine *e = lua_touserdata(L, 1);
    game_rt *rt = &e->rt;
    lua_rawgeti(L, LUA_REGISTRYINDEX, rt->kit->ref_gfields);
    lua_getfield(L, -1, "state");
    lua_rawgeti(L, LUA_REGISTRYINDEX, rt->ref_state);
    if (lua_rawequal(L, -1, -2)) return 0;
    lua_pop(L, 1);
    int ref = luaL_ref(L, LUA_REGISTRYINDEX);
    luaL_unref(L, LUA_REGISTRYINDEX, rt->ref_state);
    rt->ref_state = ref;
    lua_rawgeti(L, LUA_REGISTRYINDEX, rt->kit->ref_grofields);
    lua_rawgeti(L, LUA_REGISTRYINDEX, rt->ref_state);
    lua_setfield(L, -2, "state");
    return 0;
}

/* Protected: g.labels (arg 2) in the read-only g. */
static int p_labels(lua_State *L) {
    engine *e = lua_touserdata(L, 1);
    lua_rawgeti(L, LUA_REGISTRYINDEX, e->rt.kit->ref_grofields);
    lua_pushboolean(L, lua_toboolean(L, 2));
    lua_setfield(L, -2, "labels");
    return 0;
}

int gapi_set_labels(engine *e, int on) {
    lua_State *L = e->rt.L;
    lua_pushcfunction(L, p_labels);
    lua_pushlightuserdata(L, e);
    lua_pushboolean(L, on);
    if (lua_pcall(L, 2, 0, 0) != LUA_OK) {
        lua_pop(L, 1);
        return -1;
    }
    e->labels_on = on;
    return 0;
}

int gapi_adopt_state(engine *e) {
    lua_State *L = e->rt.L;
    /* the common case: nothing assigned g.state (in a strict game
    ** g_newindex is the only way a script can; the engine sets g's fields
    ** and the live ref together); a fast game's g is its fields table
    ** (seal_fields), assigned without a word, so it compares every time */
    if (!e->hub->state_assigned && !e->cfg.fast) return 0;
    e->hub->state_assigned = 0;
    /* assigned, perhaps the same table again: no allocation unless it differs */
    if (!lua_checkstack(L, 4)) return -1;
    lua_rawgeti(L, LUA_REGISTRYINDEX, e->rt.kit->ref_gfields);
    lua_pushliteral(L, "state"); /* an interned key: no allocation */
    lua_rawget(L, -2);
    lua_rawgeti(L, LUA_REGISTRYINDEX, e->rt.ref_state);
    int same = lua_rawequal(L, -1, -2);
    lua_pop(L, 3);
    if (same) return 0;
    lua_pushcfunction(L, p_adopt);
    lua_pushlightuserdata(L, e);
    if (lua_pcall(L, 1, 0, 0) != LUA_OK) {
        lua_pop(L, 1);
        return -1;
    }
    return 0;
}


