/*
** strbuf.c
** Growable strings for the files that build text (YAML output, paths,
** messages), with a sticky out-of-memory flag. markup.h's markup_buf is the
** same shape for the terminal-text functions and their callers.
*/
#include "strbuf.h"
#include "grow.h"
#include "error.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* First allocation; the buffer doubles from there. */
#define STRBUF_MIN 64

/* Makes room for `more` bytes and the NUL. 0, or -1 (and oom) on failure. */
static int reserve(strbuf *b, size_t more) {
    if (b->oom) return -1;
    if (b->s && more < b->cap - b->n) return 0;
    if (more > SIZE_MAX / 2 - b->n - 1) { /* cap below could overflow */
        b->oom = 1;
        return -1;
    }
    int fresh = !b->s;
    if (fresh) b->cap = 0; /* nothing held: grow from nothing */
    if (grow_array((void **)&b->s, &b->cap, b->n + more + 1 < STRBUF_MIN ? STRBUF_MIN : b->n + more + 1, 1) != 0) {
        b->oom = 1;
        return -1;
    }
    if (fresh) b->s[0] = '\0';
    return 0;
}

void strbuf_putn(strbuf *b, const char *s, size_t n) {
    if (reserve(b, n) != 0) return;
    if (n) memcpy(b->s + b->n, s, n);
    b->n += n;
    b->s[b->n] = '\0';
}

void strbuf_puts(strbuf *b, const char *s) { strbuf_putn(b, s, strlen(s)); }

void strbuf_putc(strbuf *b, char c) { strbuf_putn(b, &c, 1); }

void strbuf_repeat(strbuf *b, char c, size_t count) {
    if (reserve(b, count) != 0) return;
    memset(b->s + b->n, c, count);
    b->n += count;
    b->s[b->n] = '\0';
}

/* Formats into the spare room (measures only, when there is no buffer yet);
** when it does not fit, grows once and formats again. */
void strbuf_vprintf(strbuf *b, const char *fmt, va_list ap) {
    if (b->oom) return;
    size_t room = b->s ? b->cap - b->n : 0;
    va_list ap2;
    va_copy(ap2, ap);
    int k = vsnprintf(b->s ? b->s + b->n : NULL, room, fmt, ap2);
    va_end(ap2);
    if (k < 0 || (size_t)k >= room) {
        if (b->s) b->s[b->n] = '\0'; /* drop what a cut-off attempt wrote */
        if (k < 0) {
            b->oom = 1;
            return;
        }
        if (reserve(b, (size_t)k) != 0) return;
        vsnprintf(b->s + b->n, b->cap - b->n, fmt, ap);
    }
    b->n += (size_t)k;
}

void strbuf_printf(strbuf *b, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    strbuf_vprintf(b, fmt, ap);
    va_end(ap);
}

const char *strbuf_str(const strbuf *b) { return b->s ? b->s : ""; }

void strbuf_cut(strbuf *b, size_t n) {
    if (b->s && n <= b->n) {
        b->n = n;
        b->s[n] = '\0';
    }
}

char *strbuf_take(strbuf *b) {
    char *s = b->s;
    int oom = b->oom;
    memset(b, 0, sizeof *b);
    if (oom) {
        free(s);
        return NULL;
    }
    return s ? s : cairn_strdup("");
}

void strbuf_free(strbuf *b) {
    free(b->s);
    memset(b, 0, sizeof *b);
}
