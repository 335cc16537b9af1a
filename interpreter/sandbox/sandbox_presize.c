/*
** sandbox_presize.c
** Room in every empty table a script makes. Lua grows a table filled as a
** list (`local options = {}`, then `options[c] = ...`) by rehashing it at
** 1, 2, 4 and 8 entries: each time it counts the keys, sizes the parts and
** moves them. A decision's list of a few options paid that on every
** decision of every playout (connect4: a fifth of a random game's
** instructions went to its three small tables). The engine cannot size a
** table a script makes, but a chunk can: before it is compiled, each empty
** constructor `{}` becomes `{nil, nil, ...}` (CAIRN_LUA_TABLE_ROOM nils), a
** constructor Lua sizes for that many entries at once and leaves empty.
** A list of up to that many entries then grows without a rehash; a table
** used as a map gives the room back at its first rehash.
**
** Nothing a script can see changes: the table is as empty as before, and
** a table's layout never reaches a script (`#`, `pairs` and `next` answer
** from its contents: sandbox_len.c, sandbox_tables.c), nor the engine (the
** state is read with its keys sorted, luaval.c); only check mode's error
** for `#` of a table with holes names keys up to Lua's own border, which
** the room can move (sandbox_len.c, counted_len). Only blanks may stand
** between the braces (a comment there keeps `{}` as written); each line
** keeps its number, since the nils go in front of the blanks.
** sb_chunk_rewrite puts this after the `#` rewrite (sandbox_len.c): the one
** preparation of a chunk's text that `load` and `require` both use.
*/
#include "sandbox_internal.h"
#include "limits.h"
#include "strbuf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* "nil, " CAIRN_LUA_TABLE_ROOM times, without the last ", " */
static void put_room(strbuf *out) {
    for (int i = 0; i < CAIRN_LUA_TABLE_ROOM; i++) strbuf_puts(out, i ? ", nil" : "nil");
}

static int is_blank(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }

char *sb_presize_rewrite(const char *src, size_t len, size_t *out_len) {
    *out_len = 0;
    if (CAIRN_LUA_TABLE_ROOM <= 0) return NULL;
    strbuf out = {0};
    const char *p = src, *e = src + len, *copied = src;
    int changed = 0;
    while (p < e) {
        char c = *p;
        if (c == '"' || c == '\'') {
            p = sb_lua_quoted_end(p, e);
        } else if (c == '-' && p + 1 < e && p[1] == '-') { /* a comment: to its end */
            const char *q = p + 2 < e && p[2] == '[' ? sb_lua_long_end(p + 2, e) : NULL;
            if (q) {
                p = q;
            } else {
                while (p < e && *p != '\n') p++;
            }
        } else if (c == '[') {
            const char *q = sb_lua_long_end(p, e);
            p = q ? q : p + 1;
        } else if (c == '{') {
            const char *q = p + 1;
            while (q < e && is_blank(*q)) q++;
            if (q < e && *q == '}') {
                strbuf_putn(&out, copied, (size_t)(p + 1 - copied));
                put_room(&out);
                copied = p + 1; /* the blanks and the brace follow as written */
                changed = 1;
                p = q + 1;
            } else {
                p++;
            }
        } else {
            p++;
        }
    }
    if (!changed) {
        strbuf_free(&out);
        return NULL;
    }
    strbuf_putn(&out, copied, (size_t)(e - copied));
    if (out.oom) {
        strbuf_free(&out);
        *out_len = (size_t)-1;
        return NULL;
    }
    *out_len = out.n;
    return strbuf_take(&out);
}

char *sb_chunk_rewrite(const char *src, size_t len, size_t *out_len, char *why, size_t whysz) {
    size_t rl;
    char *rewritten = sb_len_rewrite(src, len, &rl, why, whysz);
    if (!rewritten && rl == (size_t)-1) {
        *out_len = (size_t)-1;
        return NULL;
    }
    size_t pl;
    char *presized = sb_presize_rewrite(rewritten ? rewritten : src, rewritten ? rl : len, &pl);
    if (presized) {
        free(rewritten);
        *out_len = pl;
        return presized;
    }
    *out_len = rewritten ? rl : 0;
    return rewritten;
}
