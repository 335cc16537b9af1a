/*
** textfmt.c
** The text of a key in a text table, formatted (textfmt.h): strings, and
** plural entries {one: ..., other: ..., count: N} whose form is chosen by
** the CLDR category (plural.c) of a count argument.
*/
#include "textfmt.h"
#include "plural.h"

#include <lauxlib.h>
#include <stdio.h>
#include <string.h>

/* The entry for key in the table, if it is a text (a string or plural forms). */
static const value *entry(const value *table, const char *key) {
    const value *v = table ? value_map_get(table, key) : NULL;
    return v && (v->type == CV_STR || v->type == CV_MAP) ? v : NULL;
}

/* A plural entry's count is argument `count` (1 = the first after the key)
** if it names one, else the first integer argument. */
const char *textfmt_choose(lua_State *L, const char *key, const value *v, const char *lang, char *why,
                           size_t whysz) {
    if (v->type == CV_STR) return v->u.str.s;
    int top = lua_gettop(L), at = 0;
    const value *c = value_map_get(v, "count");
    if (c && c->type == CV_INT) {
        if (c->u.i < 1 || c->u.i >= top || !lua_isinteger(L, 1 + (int)c->u.i)) {
            snprintf(why, whysz, "g.text(\"%s\"): count: %lld names argument %lld, which is not an integer", key,
                     (long long)c->u.i, (long long)c->u.i);
            return NULL;
        }
        at = 1 + (int)c->u.i;
    } else {
        for (int i = 2; i <= top && !at; i++)
            if (lua_isinteger(L, i)) at = i;
        if (!at) {
            snprintf(why, whysz, "g.text(\"%s\"): the text has plural forms but no integer argument to choose one",
                     key);
            return NULL;
        }
    }
    const char *form = value_get_str(v, plural_category(lang, (long long)lua_tointeger(L, at)), NULL);
    if (!form) form = value_get_str(v, "other", NULL);
    if (!form) snprintf(why, whysz, "g.text(\"%s\"): the plural forms have no `other`", key);
    return form;
}

int textfmt_format(lua_State *L) {
    int fmt = lua_gettop(L);
    /* string.format from the string library, reached through the string
    ** metatable so it works whatever the sandbox's globals are */
    lua_pushliteral(L, "");
    if (!luaL_getmetafield(L, -1, "__index")) return luaL_error(L, "g.text: no string library");
    lua_getfield(L, -1, "format");
    lua_pushvalue(L, fmt);
    for (int i = 2; i < fmt; i++) lua_pushvalue(L, i);
    lua_call(L, fmt - 1, 1);
    lua_replace(L, fmt);
    lua_settop(L, fmt);
    return 1;
}

/* g.text's plain entries as already looked up: a table in the registry
** under the address of cache_slot (never written; only its address is used)
** from key to format string, with the two text tables it was made from at
** [1] and [2] as light userdata. A key's entry is found once per sandbox
** instead of by comparing it with every key of the text table each call. */
static const char cache_slot = 0;

/* Pushes the cache table for these text tables (a new one when there is
** none, or it was made for other tables). */
static void push_cache(lua_State *L, const value *in_lang, const value *en) {
    if (lua_rawgetp(L, LUA_REGISTRYINDEX, &cache_slot) == LUA_TTABLE) {
        lua_rawgeti(L, -1, 1);
        lua_rawgeti(L, -2, 2);
        int same = lua_touserdata(L, -2) == (void *)in_lang && lua_touserdata(L, -1) == (void *)en;
        lua_pop(L, 2);
        if (same) return;
    }
    lua_pop(L, 1);
    lua_createtable(L, 2, 64);
    lua_pushlightuserdata(L, (void *)in_lang);
    lua_rawseti(L, -2, 1);
    lua_pushlightuserdata(L, (void *)en);
    lua_rawseti(L, -2, 2);
    lua_pushvalue(L, -1);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &cache_slot);
}

int textfmt_push(lua_State *L, const value *in_lang, const char *lang, const value *en) {
    const char *key = luaL_checkstring(L, 1);
    int top = lua_gettop(L);
    push_cache(L, in_lang, en); /* top + 1 */
    lua_pushvalue(L, 1);
    if (lua_rawget(L, top + 1) != LUA_TSTRING) {
        lua_pop(L, 1);
        const value *v = entry(in_lang, key);
        if (!v) {
            v = entry(en, key);
            lang = "en"; /* an English text follows the English rule */
        }
        if (!v) {
            lua_settop(L, 1);
            return 1; /* the key itself: a missing translation shows, and is no error */
        }
        char why[200];
        const char *fmt = textfmt_choose(L, key, v, lang, why, sizeof why);
        if (!fmt) return luaL_error(L, "%s", why);
        if (v->type == CV_STR) {
            lua_pushlstring(L, v->u.str.s, v->u.str.len);
            lua_pushvalue(L, 1);
            lua_pushvalue(L, -2);
            lua_rawset(L, top + 1);
        } else {
            lua_pushstring(L, fmt);
        }
    }
    lua_remove(L, top + 1); /* the format string is on top, the arguments at 2..top */
    size_t n;
    const char *fmt = lua_tolstring(L, -1, &n);
    if (!memchr(fmt, '%', n)) return 1; /* string.format would give it back as it is */
    return textfmt_format(L);
}
