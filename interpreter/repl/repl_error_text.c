/*
** repl_error_text.c
** An error of a layer below the console, worded in the game's language.
** The layers below have no catalogue: an error they make carries its
** English message and, where it is keyed (base/error.h), a stable key,
** string arguments and the system's errno. The console words a keyed
** error by its catalogue entry "error.KEY", whose %s take the arguments in
** order and then the errno's reason ("sys.*", cerr_errno_key); the
** arguments are substituted here, never passed to printf as a format. An
** English game, a language the console does not speak, an error without a
** key, or an entry whose %s do not match what the error carries: the
** English message, exactly as cerr_format writes it.
*/
#include "repl_text.h"
#include "repl_session.h"

#include "error.h"
#include "strbuf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* 1 when the console speaks lang in a table of its own other than English's */
static int spoken_beyond_english(const char *lang) {
    if (!lang || strcmp(lang, "en") == 0) return 0;
    for (size_t l = 0; repl_text_langs[l].lang; l++)
        if (strcmp(repl_text_langs[l].lang, lang) == 0) return 1;
    return 0;
}

/* fmt with each %s replaced by the next of args (n of them) and %% by %;
** appended to b. -1 when fmt's %s are not exactly n or it has any other
** conversion. */
static int substitute(strbuf *b, const char *fmt, const char *const *args, size_t n) {
    size_t used = 0;
    for (const char *p = fmt; *p; p++) {
        if (*p != '%') {
            strbuf_putc(b, *p);
        } else if (p[1] == '%') {
            strbuf_putc(b, '%');
            p++;
        } else if (p[1] == 's' && used < n) {
            strbuf_puts(b, args[used++]);
            p++;
        } else {
            return -1;
        }
    }
    return used == n ? 0 : -1;
}

/* The number of %s in fmt */
static size_t count_s(const char *fmt) {
    size_t n = 0;
    for (const char *p = fmt; (p = strchr(p, '%')); p += 2) {
        if (!p[1]) break;
        if (p[1] == 's') n++;
    }
    return n;
}

char *repl_error_message_in(const char *lang, const cairn_error *e) {
    if (!e->key || !spoken_beyond_english(lang)) return cairn_strdup(e->message);
    char key[96];
    snprintf(key, sizeof key, "error.%s", e->key);
    const char *fmt = repl_text_in(lang, key, 0);
    if (fmt == key) return cairn_strdup(e->message); /* no entry in any language */
    const char *args[CERR_MAX_ARGS + 1];
    size_t n = 0;
    while (n < CERR_MAX_ARGS && e->args[n]) {
        args[n] = e->args[n];
        n++;
    }
    strbuf reason = {0}, out = {0};
    int ok = 1;
    if (e->sys_errno) {
        /* the reason; "sys.other" says the number */
        char number[24];
        snprintf(number, sizeof number, "%d", e->sys_errno);
        const char *num = number;
        const char *why = repl_text_in(lang, cerr_errno_key(e->sys_errno), 0);
        ok = substitute(&reason, why, &num, count_s(why) ? 1 : 0) == 0;
        args[n++] = strbuf_str(&reason);
    }
    ok = ok && !reason.oom && substitute(&out, fmt, args, n) == 0 && !out.oom;
    char *text = ok ? strbuf_take(&out) : cairn_strdup(e->message);
    strbuf_free(&out);
    strbuf_free(&reason);
    return text;
}

char *repl_error_text_in(const char *lang, const cairn_error *e) {
    char *message = repl_error_message_in(lang, e);
    if (!message) return NULL;
    cairn_error worded = *e;
    worded.message = message;
    char *text = cerr_format(&worded);
    free(message);
    return text;
}

char *repl_error_text(const repl *r, const cairn_error *e) {
    return repl_error_text_in(repl_lang(r), e);
}
