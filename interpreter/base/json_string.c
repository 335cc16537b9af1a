/*
** json_string.c
** The JSON string writer (json_string.h): escapes, and the UTF-8 check
** that keeps a label's stray bytes out of the output.
*/
#include "json_string.h"
#include "termsafe.h"

#include <string.h>

/* Where the text goes: a strbuf or a stream. */
typedef struct sink {
    strbuf *b;
    FILE *f;
} sink;

static void emit(sink *k, const char *s, size_t n) {
    if (k->b) strbuf_putn(k->b, s, n);
    else fwrite(s, 1, n, k->f);
}

size_t json_utf8_len(const unsigned char *s, size_t n) {
    if (n == 0) return 0;
    unsigned char c = s[0];
    if (c < 0x80) return 1;
    size_t len;
    unsigned char lo = 0x80, hi = 0xbf; /* the second byte's range (Unicode 15, table 3-7) */
    if (c >= 0xc2 && c <= 0xdf) len = 2;
    else if (c == 0xe0) len = 3, lo = 0xa0;          /* no overlong 3-byte forms */
    else if (c == 0xed) len = 3, hi = 0x9f;          /* no surrogates D800-DFFF */
    else if (c >= 0xe1 && c <= 0xef) len = 3;
    else if (c == 0xf0) len = 4, lo = 0x90;          /* no overlong 4-byte forms */
    else if (c == 0xf4) len = 4, hi = 0x8f;          /* nothing past U+10FFFF */
    else if (c >= 0xf1 && c <= 0xf3) len = 4;
    else return 0;                                   /* 80-C1, F5-FF */
    if (n < len || s[1] < lo || s[1] > hi) return 0;
    for (size_t i = 2; i < len; i++)
        if (s[i] < 0x80 || s[i] > 0xbf) return 0;
    return len;
}

/* cp as a JSON \u escape; past U+FFFF as a surrogate pair, as JSON asks. */
static void emit_escaped(sink *k, unsigned long cp) {
    char esc[32];
    if (cp > 0xffff) {
        cp -= 0x10000;
        snprintf(esc, sizeof esc, "\\u%04lx\\u%04lx", (0xd800 + (cp >> 10)) & 0xffff, (0xdc00 + (cp & 0x3ff)) & 0xffff);
        emit(k, esc, 12);
    } else {
        snprintf(esc, sizeof esc, "\\u%04lx", cp);
        emit(k, esc, 6);
    }
}

static void put(sink *k, const char *s, size_t n) {
    const unsigned char *p = (const unsigned char *)s;
    emit(k, "\"", 1);
    size_t i = 0;
    while (i < n) {
        unsigned char c = p[i];
        char esc[8];
        if (c == '"') emit(k, "\\\"", 2);
        else if (c == '\\') emit(k, "\\\\", 2);
        else if (c == '\n') emit(k, "\\n", 2);
        else if (c == '\r') emit(k, "\\r", 2);
        else if (c == '\t') emit(k, "\\t", 2);
        else if (c < 0x20 || c == 0x7f) snprintf(esc, sizeof esc, "\\u%04x", c), emit(k, esc, 6);
        else if (c < 0x80) emit(k, (const char *)&p[i], 1);
        else {
            size_t len = json_utf8_len(p + i, n - i);
            unsigned long cp;
            if (len && termsafe_utf8((const char *)p + i, n - i, &cp) == (int)len &&
                ((cp >= 0x80 && cp < 0xa0) || termsafe_cp_hidden(cp))) {
                /* C1 controls and hidden format characters (bidi overrides,
                ** ...: termsafe.h) escaped: the file carries no raw U+202E */
                emit_escaped(k, cp);
                i += len;
                continue;
            }
            if (len) {
                emit(k, (const char *)&p[i], len);
                i += len;
                continue;
            }
            emit(k, "\\ufffd", 6); /* one replacement per stray byte */
        }
        i++;
    }
    emit(k, "\"", 1);
}

void json_string_put(strbuf *b, const char *s, size_t n) {
    sink k = {b, NULL};
    put(&k, s ? s : "", s ? n : 0);
}

void json_string_write(FILE *f, const char *s, size_t n) {
    sink k = {NULL, f};
    put(&k, s ? s : "", s ? n : 0);
}

void json_string_writez(FILE *f, const char *s) { json_string_write(f, s, s ? strlen(s) : 0); }
