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

int textfmt_push(lua_State *L, const value *in_lang, const char *lang, const value *en) {
    const char *key = luaL_checkstring(L, 1);
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
    lua_pushstring(L, fmt);
    return textfmt_format(L);
}
