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
** English message, exactly as cerr_format writes it. One key is worded
** here rather than substituted: the state schema's "expected TYPES, got
** VALUE" ("schema.expected"), whose parts (types, an integer's bounds, the
** value got) come as codes and are put into words one by one. An argument
** may be a phrase (base/error.h): a part of the message worded by an entry
** of its own, its arguments put in the same way.
*/
#include "repl_text.h"
#include "repl_session.h"

#include "cliflags.h"
#include "error.h"
#include "strbuf.h"
#include "value.h"

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

/* The entry key (one %s) with arg put in, appended to b. */
static void put_with(strbuf *b, const char *lang, const char *key, long long n, const char *arg) {
    if (substitute(b, repl_text_in(lang, key, n), &arg, 1) != 0) b->oom = 1;
}

/* The entry key (two %s) with a and b2 put in, appended to b. */
static void put_with2(strbuf *b, const char *lang, const char *key, const char *a, const char *b2) {
    const char *args[2] = {a, b2};
    if (substitute(b, repl_text_in(lang, key, 0), args, 2) != 0) b->oom = 1;
}

/* A type's word ("schema.type.integer"), appended to b. */
static void put_type(strbuf *b, const char *lang, const char *code, size_t len) {
    char key[48];
    snprintf(key, sizeof key, "schema.type.%.*s", (int)len, code);
    strbuf_puts(b, repl_text_in(lang, key, 0));
}

/* The value of bound `name` in bounds ("min=1 max=6"), or NULL (into buf). */
static const char *bound(const char *bounds, const char *name, char *buf, size_t n) {
    size_t k = strlen(name);
    for (const char *p = bounds; *p;) {
        size_t w = strcspn(p, " ");
        if (w > k && strncmp(p, name, k) == 0 && p[k] == '=') {
            snprintf(buf, n, "%.*s", (int)(w - k - 1), p + k + 1);
            return buf;
        }
        p += w;
        p += strspn(p, " ");
    }
    return NULL;
}

/* An integer's bounds in words, as schema.c's int_quals writes them:
** " between 1 and 6", " >= 0", " > 0 and multiple of 5". */
static void put_bounds(strbuf *b, const char *lang, const char *bounds) {
    char mn[32], mx[32], xmn[32], xmx[32], mul[32];
    const char *has_mn = bound(bounds, "min", mn, sizeof mn), *has_mx = bound(bounds, "max", mx, sizeof mx);
    const char *has_xmn = bound(bounds, "xmin", xmn, sizeof xmn), *has_xmx = bound(bounds, "xmax", xmx, sizeof xmx);
    const char *has_mul = bound(bounds, "mul", mul, sizeof mul);
    strbuf parts[5] = {{0}};
    size_t n = 0;
    if (has_mn && has_mx) put_with2(&parts[n++], lang, "schema.between", mn, mx);
    else if (has_mn) strbuf_printf(&parts[n++], ">= %s", mn);
    if (has_xmn) strbuf_printf(&parts[n++], "> %s", xmn);
    if (has_mx && !has_mn) strbuf_printf(&parts[n++], "<= %s", mx);
    if (has_xmx) strbuf_printf(&parts[n++], "< %s", xmx);
    if (has_mul) put_with(&parts[n++], lang, "schema.multiple", 0, mul);
    /* "a and b and c", as the English */
    strbuf all = {0};
    strbuf_puts(&all, "");
    for (size_t i = 0; i < n; i++) {
        if (i == 0) {
            strbuf_puts(&all, strbuf_str(&parts[i]));
        } else {
            strbuf joined = {0};
            put_with2(&joined, lang, "schema.and", strbuf_str(&all), strbuf_str(&parts[i]));
            strbuf_free(&all);
            all = joined;
        }
        if (parts[i].oom) all.oom = 1;
        strbuf_free(&parts[i]);
    }
    if (n) {
        strbuf_putc(b, ' ');
        strbuf_puts(b, strbuf_str(&all));
    }
    if (all.oom) b->oom = 1;
    strbuf_free(&all);
}

/* The types a value may take, "a, b or c" with the integer's bounds: the
** codes of load/schema.c ("integer string", "min=1 max=6"), appended to want. */
static void put_types(strbuf *want, const char *lang, const char *types, const char *bounds) {
    size_t count = 0;
    for (const char *p = types; *p; p += strcspn(p, " "), p += strspn(p, " ")) count++;
    size_t i = 0;
    strbuf all = {0}, last = {0};
    for (const char *p = types; *p; i++) {
        size_t w = strcspn(p, " ");
        strbuf one = {0};
        put_type(&one, lang, p, w);
        if (w == 7 && strncmp(p, "integer", 7) == 0) put_bounds(&one, lang, bounds);
        if (i + 1 < count) {
            if (i) strbuf_puts(&all, ", ");
            strbuf_puts(&all, strbuf_str(&one));
        } else {
            strbuf_puts(&last, strbuf_str(&one));
        }
        if (one.oom) want->oom = 1;
        strbuf_free(&one);
        p += w;
        p += strspn(p, " ");
    }
    if (count > 1) put_with2(want, lang, "schema.or", strbuf_str(&all), strbuf_str(&last));
    else strbuf_puts(want, strbuf_str(&last));
    if (all.oom || last.oom) want->oom = 1;
    strbuf_free(&all);
    strbuf_free(&last);
}

/* What a value was, from its type's code and its text (a scalar as quoted,
** a list's or map's size), appended to got. */
static void put_got(strbuf *got, const char *lang, const char *type, const char *what) {
    if (strcmp(type, "list") == 0 || strcmp(type, "map") == 0) {
        put_with(got, lang, strcmp(type, "list") == 0 ? "schema.got_list" : "schema.got_map",
                 strtoll(what, NULL, 10), what);
    } else {
        put_type(got, lang, type, strlen(type));
        if (*what) {
            strbuf_putc(got, ' ');
            strbuf_puts(got, what);
        }
    }
}

/* "schema.expected" (load/schema.c's key_expected): its four arguments, the
** types, the bounds, the type got and what it was, worded into the two of
** "error.schema.expected". 0, or -1 (then the English message). */
static int word_expected(const char *lang, const cairn_error *e, strbuf *want, strbuf *got) {
    for (int i = 0; i < 4; i++)
        if (!e->args[i]) return -1;
    put_types(want, lang, e->args[0], e->args[1]);
    put_got(got, lang, e->args[2], e->args[3]);
    return want->oom || got->oom ? -1 : 0;
}

#define PHRASE_MAX_ARGS 16

/* The phrase at *at (base/error.h, cerr_phrase) worded into b; *at moves
** past it. Three phrases are worded here rather than by an entry:
** "schema.types" (types and bounds, as put_types), "schema.got" (type
** and text, as put_got) and "list" (its arguments joined by ", "). 0, or
** -1 when it is malformed or an entry's %s do not match. */
static int put_phrase(strbuf *b, const char *lang, const char **at, int depth) {
    const char *p = *at;
    if (*p != CERR_PHRASE_OPEN || depth > 8) return -1;
    p++;
    size_t klen = strcspn(p, "\x1d\x1f");
    char key[96];
    if (klen >= sizeof key) return -1;
    memcpy(key, p, klen);
    key[klen] = '\0';
    p += klen;
    strbuf parts[PHRASE_MAX_ARGS] = {{0}};
    const char *args[PHRASE_MAX_ARGS];
    size_t n = 0;
    int rc = 0;
    while (rc == 0 && *p == CERR_PHRASE_SEP) {
        p++;
        if (n == PHRASE_MAX_ARGS) {
            rc = -1;
            break;
        }
        strbuf_puts(&parts[n], "");
        if (*p == CERR_PHRASE_OPEN) {
            rc = put_phrase(&parts[n], lang, &p, depth + 1);
        } else {
            size_t w = strcspn(p, "\x1d\x1e\x1f");
            strbuf_putn(&parts[n], p, w);
            p += w;
        }
        if (parts[n].oom) rc = -1;
        args[n] = strbuf_str(&parts[n]);
        n++;
    }
    if (rc == 0 && *p != CERR_PHRASE_CLOSE) rc = -1;
    if (rc == 0) {
        *at = p + 1;
        if (strcmp(key, "schema.types") == 0 && n == 2) {
            put_types(b, lang, args[0], args[1]);
        } else if (strcmp(key, "schema.got") == 0 && n == 2) {
            put_got(b, lang, args[0], args[1]);
        } else if (strcmp(key, "list") == 0) {
            for (size_t i = 0; i < n; i++) {
                if (i) strbuf_puts(b, ", ");
                strbuf_puts(b, args[i]);
            }
        } else {
            const char *fmt = repl_text_in(lang, key, n ? strtoll(args[0], NULL, 10) : 0);
            if (fmt == key || substitute(b, fmt, args, n) != 0) rc = -1;
        }
    }
    for (size_t i = 0; i < n; i++) strbuf_free(&parts[i]);
    return rc || b->oom ? -1 : 0;
}

char *repl_error_message_in(const char *lang, const cairn_error *e) {
    if (!e->key || !spoken_beyond_english(lang)) return cairn_strdup(e->message);
    char key[96];
    snprintf(key, sizeof key, "error.%s", e->key);
    const char *fmt = repl_text_in(lang, key, 0);
    if (fmt == key) return cairn_strdup(e->message); /* no entry in any language */
    const char *args[CERR_MAX_ARGS + 1];
    size_t n = 0;
    strbuf reason = {0}, out = {0}, want = {0}, got = {0}, phrases[CERR_MAX_ARGS] = {{0}};
    int ok = 1;
    if (strcmp(e->key, "schema.expected") == 0) {
        ok = word_expected(lang, e, &want, &got) == 0;
        args[n++] = strbuf_str(&want);
        args[n++] = strbuf_str(&got);
    } else {
        while (n < CERR_MAX_ARGS && e->args[n]) {
            args[n] = e->args[n];
            if (args[n][0] == CERR_PHRASE_OPEN) { /* a part worded by an entry of its own */
                const char *at = args[n];
                strbuf_puts(&phrases[n], "");
                if (put_phrase(&phrases[n], lang, &at, 0) != 0 || *at) ok = 0;
                args[n] = strbuf_str(&phrases[n]);
            }
            n++;
        }
    }
    if (e->sys_errno) {
        /* the reason; "sys.other" says the number */
        char number[24];
        snprintf(number, sizeof number, "%d", e->sys_errno);
        const char *num = number;
        const char *why = repl_text_in(lang, cerr_errno_key(e->sys_errno), 0);
        ok = substitute(&reason, why, &num, count_s(why) ? 1 : 0) == 0 && ok;
        args[n++] = strbuf_str(&reason);
    }
    ok = ok && !reason.oom && substitute(&out, fmt, args, n) == 0 && !out.oom;
    char *text = ok ? strbuf_take(&out) : cairn_strdup(e->message);
    strbuf_free(&out);
    strbuf_free(&reason);
    strbuf_free(&want);
    strbuf_free(&got);
    for (size_t i = 0; i < CERR_MAX_ARGS; i++) strbuf_free(&phrases[i]);
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

char *repl_value_words(const repl *r, const value *v) {
    char *d = value_describe(v); /* "integer 1", "string \"a\"", "null", "a list of 2 items" */
    const char *lang = repl_lang(r);
    if (!d || !spoken_beyond_english(lang) || v->type == CV_LIST || v->type == CV_MAP) return d;
    size_t w = strcspn(d, " ");
    strbuf b = {0};
    put_type(&b, lang, d, w);
    strbuf_puts(&b, d + w);
    free(d);
    return strbuf_take(&b);
}

void repl_print_errors_in(const char *lang, FILE *out, const cerr_list *errs) {
    for (size_t i = 0; i < errs->n; i++) {
        char *s = repl_error_text_in(lang, &errs->items[i]);
        fprintf(out, "%s\n", s ? s : errs->items[i].message);
        free(s);
    }
    if (errs->dropped) {
        fprintf(out, repl_text_in(lang, "errors.more", (long long)errs->dropped), errs->dropped);
        fputc('\n', out);
    }
}

char *repl_error_text(const repl *r, const cairn_error *e) {
    return repl_error_text_in(repl_lang(r), e);
}

char *repl_cli_error_in(const char *lang, const cli_parser *p, const char *why) {
    if (!why || !p->why_key) return NULL;
    cairn_error e;
    memset(&e, 0, sizeof e);
    e.message = (char *)why;
    e.key = p->why_key;
    e.args[0] = (char *)p->why_args[0];
    e.args[1] = p->why_args[1][0] ? (char *)p->why_args[1] : NULL;
    return repl_error_message_in(lang, &e);
}
