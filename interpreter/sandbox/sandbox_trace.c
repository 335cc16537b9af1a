/*
** sandbox_trace.c
** Where a script's error happened: the file and line a message names, the
** frame a refused allocation or a trip happened in, and the trimmed
** traceback a failed call reports (the ruleset's own frames, the stdlib's
** marked, the engine's left out); the message handler every protected call
** of the sandbox runs with.
*/
#include "sandbox_internal.h"
#include "guard.h"
#include "limits.h"
#include "markup.h" /* markup_buf: a growing string */

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <lauxlib.h>
#include <lualib.h>

/* Frames kept in a trimmed traceback. */
#define SANDBOX_TRACEBACK_FRAMES 20

/* --------------------------------------------------- where errors happen */

/* The chunk name a person reads: the full path for file chunks (Lua's
** short_src may cut it), short_src for strings. */
void sb_frame_file(const lua_Debug *ar, char *out, size_t size) {
    const char *s = ar->source && (ar->source[0] == '@' || ar->source[0] == '=') ? ar->source + 1
                                                                              : ar->short_src;
    size_t n = strlen(s);
    if (n >= size) n = size - 1;
    memcpy(out, s, n);
    out[n] = '\0';
}

static int is_stdlib(const sandbox *sb, const char *file) {
    if (!sb->n_stdlib) return 0;
    const char *dir = sb->dirs[sb->n_dirs - 1];
    size_t n = strlen(dir);
    return strncmp(file, dir, n) == 0 && file[n] == '/';
}

/* Finds "<file>:<digits>: " at the start of msg (a location Lua or a
** script put there). */
int sb_parse_where(const char *msg, size_t *file_len, int *line, size_t *strip) {
    for (const char *p = msg; *p && *p != '\n'; p++) {
        if (p == msg || *p != ':' || !isdigit((unsigned char)p[1])) continue;
        const char *q = p + 1;
        long n = 0;
        while (isdigit((unsigned char)*q) && n < 100000000L) n = n * 10 + (*q++ - '0');
        if (q[0] == ':' && q[1] == ' ') {
            *file_len = (size_t)(p - msg);
            *line = (int)n;
            *strip = (size_t)(q + 2 - msg);
            return 1;
        }
    }
    return 0;
}

/* Records where an error happened and the trimmed traceback, walking the
** stack of L from level. msg (may be NULL) is the error message: when it
** starts with a frame's "short_src:line: " that frame is the location (the
** prefix is then stripped from the reported message). Assumes no Lua
** allocation: uses only lua_getstack/lua_getinfo and malloc. */
void sb_capture(sandbox *sb, lua_State *L, int level, const char *msg) {
    lua_Debug ar;
    int found = 0;
    sb->err_found = 0;
    sb->err_strip = 0;
    for (int lv = level; lua_getstack(L, lv, &ar); lv++) {
        if (!lua_getinfo(L, "Sl", &ar) || ar.currentline <= 0) continue;
        if (!sb->err_found) {
            sb_frame_file(&ar, sb->err_file, sizeof sb->err_file);
            sb->err_line = ar.currentline;
            sb->err_found = 1;
        }
        if (msg) {
            char pre[LUA_IDSIZE + 32];
            int k = snprintf(pre, sizeof pre, "%s:%d: ", ar.short_src, ar.currentline);
            if (k > 0 && (size_t)k < sizeof pre && strncmp(msg, pre, (size_t)k) == 0) {
                sb_frame_file(&ar, sb->err_file, sizeof sb->err_file);
                sb->err_line = ar.currentline;
                sb->err_strip = (size_t)k;
                found = 1;
                break;
            }
        } else {
            break;
        }
    }
    size_t flen, strip;
    int line;
    if (!found && msg && sb_parse_where(msg, &flen, &line, &strip)) {
        if (flen >= sizeof sb->err_file) flen = sizeof sb->err_file - 1;
        memcpy(sb->err_file, msg, flen);
        sb->err_file[flen] = '\0';
        sb->err_line = line;
        sb->err_strip = strip;
        sb->err_found = 1;
    }

    /* The traceback: Lua frames only, the stdlib only if the error is in it. */
    int keep_std = sb->err_found && is_stdlib(sb, sb->err_file);
    markup_buf b = {0};
    int shown = 0, more = 0;
    markup_buf_printf(&b, "stack traceback:");
    for (int lv = level; lua_getstack(L, lv, &ar); lv++) {
        char file[SANDBOX_WHERE_MAX];
        if (!lua_getinfo(L, "Slnt", &ar) || strcmp(ar.what, "C") == 0) continue;
        sb_frame_file(&ar, file, sizeof file);
        if (!keep_std && is_stdlib(sb, file)) continue;
        if (++shown > SANDBOX_TRACEBACK_FRAMES) {
            more++;
            continue;
        }
        markup_buf_printf(&b, "\n\t%s:%d: in ", file, ar.currentline);
        if (ar.namewhat && *ar.namewhat)
            markup_buf_printf(&b, "%s '%s'", strcmp(ar.namewhat, "global") == 0 ? "function" : ar.namewhat,
                     ar.name ? ar.name : "?");
        else if (*ar.what == 'm')
            markup_buf_printf(&b, "main chunk");
        else
            markup_buf_printf(&b, "function <%s:%d>", file, ar.linedefined);
        if (ar.istailcall) markup_buf_printf(&b, "\n\t(...tail calls...)");
    }
    if (more) markup_buf_printf(&b, "\n\t(...%d more)", more);
    free(sb->traceback);
    sb->traceback = markup_buf_take(&b); /* NULL after running out of memory */

    /* The ruleset's own frames only: what a modder can change. */
    markup_buf o = {0};
    shown = more = 0;
    for (int lv = level; lua_getstack(L, lv, &ar); lv++) {
        char file[SANDBOX_WHERE_MAX];
        if (!lua_getinfo(L, "Slnt", &ar) || strcmp(ar.what, "C") == 0 || ar.currentline <= 0) continue;
        sb_frame_file(&ar, file, sizeof file);
        if (is_stdlib(sb, file)) continue;
        if (++shown > SANDBOX_TRACEBACK_FRAMES) {
            more++;
            continue;
        }
        markup_buf_printf(&o, "\n  %s:%d: in ", file, ar.currentline);
        if (ar.namewhat && *ar.namewhat && ar.name)
            markup_buf_printf(&o, "%s '%s'", strcmp(ar.namewhat, "global") == 0 ? "function" : ar.namewhat, ar.name);
        else if (*ar.what == 'm')
            markup_buf_printf(&o, "main chunk");
        else
            markup_buf_printf(&o, "function <%s:%d>", file, ar.linedefined);
    }
    if (more) markup_buf_printf(&o, "\n  (...%d more)", more);
    free(sb->own_traceback);
    sb->own_traceback = markup_buf_take(&o); /* "" when no frame is the ruleset's */
    sb->own_frames = sb->own_traceback ? shown : 0;
}

/* The message handler of a top-level sandbox_call: records location and
** traceback, returns the message (converted to a string) unchanged. A trip
** already recorded its own. */
int sb_msgh(lua_State *L) {
    sandbox *sb = SB(L);
    const char *msg = lua_tostring(L, 1);
    if (!msg) {
        msg = lua_pushfstring(L, "(error object is a %s value)", luaL_typename(L, 1));
        lua_replace(L, 1);
    }
    if (!sb->tripped) {
        sb_capture(sb, L, 1, msg);
        sb->err_msg = lua_topointer(L, 1);
    }
    lua_settop(L, 1);
    return 1;
}

