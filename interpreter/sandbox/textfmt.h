/*
** textfmt.h
** g.text's lookup and formatting, shared by the engine (g.text, g.log_text)
** and the Lua unit tests' stand-in (test.text): a key looked up in the
** game's language, then English; a plural entry's form chosen by its count;
** string.format with the arguments.
*/
#ifndef CAIRN_TEXTFMT_H
#define CAIRN_TEXTFMT_H

#include "value.h"

#include <lua.h>
#include <stddef.h>

/* Formats the text for the key at stack index 1 with the arguments at 2..top:
** from in_lang (a text table, language lang), else from en; a key found
** nowhere is the key itself. Pushes the string and returns 1; raises a Lua
** error for a plural entry with no count to choose by. Either table may be
** NULL. */
int textfmt_push(lua_State *L, const value *in_lang, const char *lang, const value *en);

/* The format string of one text entry v (a string, or plural forms chosen by
** the count among the arguments at 2..top, in language lang), pointing into
** v; NULL with why filled when no form can be chosen. key is for messages. */
const char *textfmt_choose(lua_State *L, const char *key, const value *v, const char *lang, char *why,
                           size_t whysz);

/* string.format(fmt, arguments at 2..top), where the format string is on
** top of the stack; replaces it with the result and returns 1. */
int textfmt_format(lua_State *L);

#endif
