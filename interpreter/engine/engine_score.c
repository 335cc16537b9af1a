/*
** engine_score.c
** score(g): per-seat totals with a breakdown and an optional ranking, read
** straight from the table the script returns (it mixes a list of seats
** with a `ranking` key, which plain-data conversion refuses). Also
** start_seat(g), the other thing the balance lab asks a finished setup:
** which seat starts.
*/
#include "engine_internal.h"
#include "guard.h"
#include "limits.h"

#include <lauxlib.h>
#include <stdlib.h>
#include <string.h>

void engine_score_free(engine_score *s) {
    if (!s || !s->seats) return;
    for (size_t i = 0; i < s->n; i++) {
        for (size_t j = 0; j < s->seats[i].n_items; j++) {
            free(s->seats[i].items[j].label);
            free(s->seats[i].items[j].key);
        }
        free(s->seats[i].items);
    }
    free(s->seats);
    s->seats = NULL;
    s->n = 0;
}

/* Pushes t[k] without metamethods (the table comes from a script). */
static int raw_field(lua_State *L, int idx, const char *k) {
    idx = lua_absindex(L, idx);
    lua_pushstring(L, k);
    return lua_rawget(L, idx);
}

/* Reads an integer field of the table at idx; -1 if present but not an integer. */
static int int_field(lua_State *L, int idx, const char *k, int64_t *out, int *present) {
    int t = raw_field(L, idx, k);
    *present = t != LUA_TNIL;
    int ok = 1;
    if (*present) *out = lua_tointegerx(L, -1, &ok);
    lua_pop(L, 1);
    return ok ? 0 : -1;
}

/* Ranks by total, then tiebreak; equal seats share the better rank. */
static void rank_by_total(engine_score *s) {
    for (size_t i = 0; i < s->n; i++) {
        int better = 0;
        for (size_t j = 0; j < s->n; j++) {
            const engine_seat_score *a = &s->seats[j], *b = &s->seats[i];
            if (a->total > b->total || (a->total == b->total && a->tiebreak > b->tiebreak))
                better++;
        }
        s->seats[i].rank = better + 1;
    }
}

/* Replaces the value on top with the live table a read-only view shows:
** score may return parts of g.state (a ranking kept there), which reach it
** as views, and this file reads tables raw. */
static void unview_top(lua_State *L) {
    if (guard_target(L, -1)) lua_replace(L, -2);
}

/* The score table is read straight from Lua: it mixes a list of seats with
** a `ranking` key, which plain-data conversion refuses. */
static int parse_score(engine *e, int si, engine_score *out, cerr_list *errs) {
    lua_State *L = e->rt.L;
    lua_pushvalue(L, si);
    unview_top(L);
    lua_replace(L, si);
    int n = e->cfg.players;
    size_t kept = 0; /* bytes of breakdown text copied, against CAIRN_GAME_MEMORY_CAP */
    if (!lua_istable(L, si)) {
        cerr_addk(errs, NULL, 0, 0, "score", "engine.score_not_table", "score(g) must return a table, not %s",
                  luaL_typename(L, si));
        return -1;
    }
    out->seats = calloc((size_t)n, sizeof *out->seats);
    if (!out->seats) {
        errs->oom = 1;
        return -1;
    }
    out->n = (size_t)n;
    for (int s = 1; s <= n; s++) {
        engine_seat_score *ss = &out->seats[s - 1];
        char where[32];
        snprintf(where, sizeof where, "score[%d]", s);
        lua_rawgeti(L, si, s);
        unview_top(L);
        int ei = lua_gettop(L), present;
        if (!lua_istable(L, ei)) {
            cerr_addk(errs, NULL, 0, 0, where, "engine.score_seat", "each seat needs {total = <integer>, ...}");
            return -1;
        }
        if (int_field(L, ei, "total", &ss->total, &present) != 0 || !present) {
            cerr_addk(errs, NULL, 0, 0, where, "engine.score_total", "total must be an integer");
            return -1;
        }
        if (int_field(L, ei, "tiebreak", &ss->tiebreak, &ss->has_tiebreak) != 0) {
            cerr_addk(errs, NULL, 0, 0, where, "engine.score_tiebreak", "tiebreak must be an integer");
            return -1;
        }
        if (raw_field(L, ei, "breakdown") == LUA_TTABLE) {
            unview_top(L);
            size_t m = lua_rawlen(L, -1);
            if (m) {
                ss->items = calloc(m, sizeof *ss->items);
                if (!ss->items) {
                    errs->oom = 1;
                    return -1;
                }
            }
            for (size_t j = 1; j <= m; j++) {
                lua_rawgeti(L, -1, (lua_Integer)j);
                unview_top(L);
                int bi = lua_gettop(L);
                const char *label = NULL;
                if (lua_istable(L, bi) && raw_field(L, bi, "label") == LUA_TSTRING)
                    label = lua_tostring(L, -1);
                int64_t pts = 0;
                if (!label || int_field(L, bi, "points", &pts, &present) != 0 || !present) {
                    char nth[24];
                    snprintf(nth, sizeof nth, "%zu", j);
                    cerr_addk(errs, NULL, 0, 0, where, "engine.score_breakdown",
                              "breakdown[%s] needs label (string) and points (integer)", nth);
                    return -1;
                }
                /* the label and the key are copied for every line: a label
                ** of 64 KB shared by a million lines is 64 GB here */
                size_t lb = strlen(label) + 1;
                if (raw_field(L, bi, "key") == LUA_TSTRING) lb += lua_rawlen(L, -1) + 1;
                else lb += lb;
                lua_pop(L, 1);
                kept += lb + sizeof *ss->items;
                if (kept > (size_t)CAIRN_GAME_MEMORY_CAP) {
                    char mib[24];
                    snprintf(mib, sizeof mib, "%d", (int)(CAIRN_GAME_MEMORY_CAP / (1024 * 1024)));
                    cerr_addk(errs, NULL, 0, 0, where, "engine.score_breakdown_big",
                              "the breakdowns hold more than %s MiB of text (limit CAIRN_GAME_MEMORY_CAP)", mib);
                    return -1;
                }
                if (!(ss->items[j - 1].label = cairn_strdup(label))) {
                    errs->oom = 1;
                    return -1;
                }
                /* optional stable name of the line, for statistics over many games */
                int kt = raw_field(L, bi, "key");
                if (kt != LUA_TNIL && kt != LUA_TSTRING) {
                    char nth[24];
                    snprintf(nth, sizeof nth, "%zu", j);
                    cerr_addk(errs, NULL, 0, 0, where, "engine.score_breakdown_key",
                              "breakdown[%s].key must be a string", nth);
                    return -1;
                }
                if (!(ss->items[j - 1].key = cairn_strdup(kt == LUA_TSTRING ? lua_tostring(L, -1) : label))) {
                    errs->oom = 1;
                    return -1;
                }
                ss->items[j - 1].points = pts;
                ss->n_items = j;
                lua_settop(L, bi - 1);
            }
        }
        lua_settop(L, ei - 1);
    }
    if (raw_field(L, si, "ranking") == LUA_TTABLE) {
        unview_top(L);
        int ri = lua_gettop(L), next = 1, seen[CAIRN_MAX_SEATS + 1] = {0};
        size_t tiers = lua_rawlen(L, ri);
        for (size_t t = 1; t <= tiers; t++) {
            lua_rawgeti(L, ri, (lua_Integer)t);
            unview_top(L);
            size_t m = lua_istable(L, -1) ? lua_rawlen(L, -1) : 0;
            for (size_t j = 1; j <= m; j++) {
                lua_rawgeti(L, -1, (lua_Integer)j);
                int ok;
                lua_Integer s = lua_tointegerx(L, -1, &ok);
                lua_pop(L, 1);
                if (!ok || s < 1 || s > n || seen[s]) {
                    char tier[24], most[16];
                    snprintf(tier, sizeof tier, "%zu", t);
                    snprintf(most, sizeof most, "%d", n);
                    cerr_addk(errs, NULL, 0, 0, "score.ranking", "engine.ranking_tier", "tier %s: each seat 1..%s once",
                              tier, most);
                    return -1;
                }
                seen[s] = 1;
                out->seats[s - 1].rank = next;
            }
            next += (int)m;
            lua_pop(L, 1);
        }
        for (int s = 1; s <= n; s++)
            if (!seen[s]) {
                char seat[16];
                snprintf(seat, sizeof seat, "%d", s);
                cerr_addk(errs, NULL, 0, 0, "score.ranking", "engine.ranking_missing",
                          "seat %s is missing from the ranking", seat);
                return -1;
            }
    } else {
        rank_by_total(out);
    }
    return 0;
}

typedef struct score_ctx {
    engine *e;
    engine_score *out;
    cerr_list *errs;
    int rc;
} score_ctx;

static int p_parse_score(lua_State *L) {
    score_ctx *c = lua_touserdata(L, 1);
    c->rc = parse_score(c->e, 2, c->out, c->errs);
    return 0;
}

int engine_score_get(engine *e, engine_score *out, cerr_list *errs) {
    lua_State *L = e->rt.L;
    int top = lua_gettop(L);
    out->seats = NULL;
    out->n = 0;
    call_ctx c = {.h = H_SCORE, .kind = ARGS_G};
    int rc = engine_call(e, &c, 1, errs);
    if (rc == 0) cerr_addk(errs, NULL, 0, 0, NULL, "engine.no_score", "the rules define no score(g) handler");
    if (rc > 0) {
        /* parsing pushes key strings: protected, like every allocation */
        score_ctx sc = {e, out, errs, -1};
        lua_pushcfunction(L, p_parse_score);
        lua_insert(L, -2);
        lua_pushlightuserdata(L, &sc);
        lua_insert(L, -2);
        if (lua_pcall(L, 2, 0, 0) != LUA_OK) errs->oom = 1;
        rc = sc.rc;
    } else {
        rc = -1;
    }
    if (rc != 0) engine_score_free(out);
    lua_settop(L, top);
    return rc;
}

/* ------------------------------------------------- totals for the bots */

typedef struct totals_ctx {
    int n;
    int64_t *totals;
    const char *bad; /* what was wrong, or NULL */
    const char *bad_key; /* its key (base/error.h) */
    int seat;
} totals_ctx;

/* Protected: reads score[s].total for every seat from the table at 2. */
static int p_totals(lua_State *L) {
    totals_ctx *c = lua_touserdata(L, 1);
    unview_top(L); /* the score table itself may be a view of the state */
    if (!lua_istable(L, 2)) return c->bad_key = CERR_KEY("engine.score_no_table"), c->bad = "score(g) must return a table", 0;
    for (int s = 1; s <= c->n; s++) {
        lua_rawgeti(L, 2, s);
        unview_top(L);
        int present;
        c->seat = s;
        if (!lua_istable(L, -1))
            return c->bad_key = CERR_KEY("engine.score_seat"), c->bad = "each seat needs {total = <integer>, ...}", 0;
        if (int_field(L, -1, "total", &c->totals[s - 1], &present) != 0 || !present)
            return c->bad_key = CERR_KEY("engine.score_total"), c->bad = "total must be an integer", 0;
        lua_pop(L, 1);
    }
    return 0;
}

int engine_score_totals(engine *e, int64_t *totals, cerr_list *errs) {
    lua_State *L = e->rt.L;
    int top = lua_gettop(L);
    call_ctx c = {.h = H_SCORE, .kind = ARGS_G, .totals_only = 1};
    int rc = engine_call(e, &c, 1, errs);
    if (rc > 0) {
        totals_ctx tc = {e->cfg.players, totals, NULL, NULL, 0};
        lua_pushcfunction(L, p_totals);
        lua_insert(L, -2);
        lua_pushlightuserdata(L, &tc);
        lua_insert(L, -2);
        if (lua_pcall(L, 2, 0, 0) != LUA_OK) {
            errs->oom = 1;
            rc = -1;
        } else if (tc.bad) {
            char where[32];
            snprintf(where, sizeof where, "score[%d]", tc.seat);
            size_t before = errs->n;
            cerr_add(errs, NULL, 0, 0, tc.seat ? where : "score", "%s", tc.bad);
            cerr_key(errs, before, tc.bad_key, 0, NULL, NULL);
            rc = -1;
        }
    } else if (rc < 0) {
        rc = -1;
    }
    lua_settop(L, top);
    return rc;
}

int engine_start_seat(engine *e, int *out, cerr_list *errs) {
    lua_State *L = e->rt.L;
    int top = lua_gettop(L);
    call_ctx c = {.h = H_START_SEAT, .kind = ARGS_G};
    int rc = engine_call(e, &c, 1, errs);
    if (rc > 0) {
        int ok;
        lua_Integer s = lua_tointegerx(L, -1, &ok);
        if (!ok || s < 1 || s > e->cfg.players) {
            char most[16];
            snprintf(most, sizeof most, "%d", e->cfg.players);
            cerr_addk(errs, NULL, 0, 0, NULL, "engine.start_seat", "start_seat must return a seat from 1 to %s, not %s",
                      most, ok ? lua_tostring(L, -1) : luaL_typename(L, -1));
            rc = -1;
        } else {
            *out = (int)s;
        }
    }
    lua_settop(L, top);
    return rc;
}
