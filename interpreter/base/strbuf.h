/*
** strbuf.h
** Growable strings: append bytes, text or printf output to a buffer that
** doubles as it fills, then take the result. Zero-initialise (strbuf b = {0}).
*/
#ifndef CAIRN_STRBUF_H
#define CAIRN_STRBUF_H

#include <stdarg.h>
#include <stddef.h>

/* The text is NUL-terminated once anything was appended (an empty append
** included); s is NULL before. oom is sticky: after the first failed
** allocation every append does nothing, so a caller checks once at the end. */
typedef struct strbuf {
    char *s;  /* owned; free with strbuf_free or hand over with strbuf_take */
    size_t n; /* bytes of text, not counting the NUL */
    size_t cap;
    int oom;
} strbuf;

void strbuf_putn(strbuf *b, const char *s, size_t n); /* s may hold NULs */
void strbuf_puts(strbuf *b, const char *s);
void strbuf_putc(strbuf *b, char c);
void strbuf_repeat(strbuf *b, char c, size_t count); /* indentation */
void strbuf_vprintf(strbuf *b, const char *fmt, va_list ap); /* a printf error sets oom */
void strbuf_printf(strbuf *b, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* The text so far, "" before anything was appended. Borrowed. */
const char *strbuf_str(const strbuf *b);

/* Shortens the text to its first n bytes; a longer n does nothing. */
void strbuf_cut(strbuf *b, size_t n);

/* Hands over the text (the caller frees it): "" when nothing was appended,
** NULL after an allocation failed. b is left empty and usable. */
char *strbuf_take(strbuf *b);

/* Frees the text; b is left empty and usable. */
void strbuf_free(strbuf *b);

#endif
