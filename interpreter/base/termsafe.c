/*
** termsafe.c
** Text made safe for a terminal. Rulesets, saves and typed input are
** written by strangers, and a raw ESC, an OSC 52 clipboard write, a C1 byte
** or a bidi override in a board, an error message or a seat name would be
** obeyed by the terminal. Two layers, one rule:
**   - termsafe_text: every string the REPL shows goes through it before the
**     REPL adds its own styling (markup.c's colours), so text can never
**     carry an escape of its own;
**   - termsafe_install: stdout and stderr become streams that apply the
**     same rule to everything written, whichever printf wrote it; only
**     when the REPL colours a terminal (termsafe_allow_styling) do the
**     sequences it emits itself pass on stdout (SGR colours and the screen
**     clear between seats: ESC [ digits/; then m, H or J).
** The rule: tab and newline pass; other C0 bytes and DEL become caret
** notation (ESC is ^[); C1 code points, bidi and other invisible format
** controls become <U+XXXX>; bytes that are not UTF-8 become \xHH.
*/
#define _GNU_SOURCE /* fopencookie */
#include "termsafe.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Code points shown as <U+XXXX>: C1 controls, and the format characters a
** terminal or a reader may obey invisibly (bidi embeddings, overrides and
** isolates, marks, line and paragraph separators, BOM inside text). */
static int hidden_cp(unsigned long cp) {
    return (cp >= 0x80 && cp <= 0x9f) || cp == 0x061c || cp == 0x200b || cp == 0x200e ||
           cp == 0x200f || (cp >= 0x2028 && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069) ||
           cp == 0xfeff;
}

/* Length of the valid UTF-8 sequence at s (n bytes available) and its code
** point, 0 if the bytes there are not one, -1 if they may be the start of
** one that n cuts short. */
static int utf8_seq(const unsigned char *s, size_t n, unsigned long *cp) {
    unsigned char c = s[0];
    int len;
    unsigned long min;
    if (c < 0x80) {
        *cp = c;
        return 1;
    }
    if (c >= 0xc2 && c <= 0xdf) len = 2, min = 0x80, *cp = c & 0x1f;
    else if (c >= 0xe0 && c <= 0xef) len = 3, min = 0x800, *cp = c & 0x0f;
    else if (c >= 0xf0 && c <= 0xf4) len = 4, min = 0x10000, *cp = c & 0x07;
    else return 0;
    for (int i = 1; i < len; i++) {
        if ((size_t)i >= n) return -1;
        if ((s[i] & 0xc0) != 0x80) return 0;
        *cp = (*cp << 6) | (s[i] & 0x3f);
    }
    if (*cp < min || *cp > 0x10ffff || (*cp >= 0xd800 && *cp <= 0xdfff)) return 0;
    return len;
}

/* One unit of s: writes its safe form to out (at most 16 bytes) and
** returns how many input bytes it took; 0 when final is 0 and s holds only
** the start of a sequence (wait for more). */
static size_t safe_unit(const unsigned char *s, size_t n, int final, char out[16], size_t *olen) {
    unsigned long cp;
    int k = utf8_seq(s, n, &cp);
    if (k < 0 && !final) return 0;
    if (k <= 0) {
        *olen = (size_t)snprintf(out, 16, "\\x%02X", s[0]);
        return 1;
    }
    if (k == 1 && (cp < 0x20 || cp == 0x7f) && cp != '\n' && cp != '\t') {
        out[0] = '^';
        out[1] = cp == 0x7f ? '?' : (char)(cp + 0x40);
        *olen = 2;
        return 1;
    }
    if (hidden_cp(cp)) {
        *olen = (size_t)snprintf(out, 16, "<U+%04lX>", cp);
        return (size_t)k;
    }
    memcpy(out, s, (size_t)k);
    *olen = (size_t)k;
    return (size_t)k;
}

/* How many bytes at s pass as they are, one by one: printable ASCII, tab and
** newline (what almost every board and message is made of). */
static size_t plain_run(const unsigned char *s, size_t n) {
    size_t i = 0;
    while (i < n && ((s[i] >= 0x20 && s[i] < 0x7f) || s[i] == '\n' || s[i] == '\t')) i++;
    return i;
}

char *termsafe_text(const char *s) {
    if (!s) return NULL;
    size_t n = strlen(s), cap = n + 1, len = 0;
    char *out = malloc(cap);
    if (!out) return NULL;
    const unsigned char *p = (const unsigned char *)s;
    while (n > 0) {
        char u[16];
        size_t ul, took, run = plain_run(p, n);
        const char *from = (const char *)p;
        if (run) {
            took = ul = run;
        } else {
            took = safe_unit(p, n, 1, u, &ul);
            from = u;
        }
        if (len + ul + 1 > cap) {
            size_t ncap = cap * 2 + ul;
            char *t = realloc(out, ncap);
            if (!t) {
                free(out);
                return NULL;
            }
            out = t;
            cap = ncap;
        }
        memcpy(out + len, from, ul);
        len += ul;
        p += took;
        n -= took;
    }
    out[len] = '\0';
    return out;
}

int termsafe_is_safe(const char *s) {
    const unsigned char *p = (const unsigned char *)s;
    size_t n = strlen(s);
    while (n > 0) {
        char u[16];
        size_t ul, took = safe_unit(p, n, 1, u, &ul);
        if (ul != took || memcmp(u, p, took) != 0) return 0;
        p += took;
        n -= took;
    }
    return 1;
}

/* ------------------------------------------------------------ streams */

/* A sanitizing stream over a file descriptor. `carry` holds the start of a
** UTF-8 sequence (or of one of cairn's own escape sequences) that a write
** cut short. */
typedef struct tstream {
    int fd;
    const int *styling; /* when set and true, cairn's own styling passes */
    unsigned char carry[32];
    size_t ncarry;
} tstream;

/* Global mutable state, on purpose: the two streams that replace stdout
** and stderr for the whole process, and the original stdout that the line
** editor needs (a terminal's FILE, with a file descriptor). */
static tstream streams[2];
static FILE *raw_stdout;
static int styling_allowed; /* termsafe_allow_styling: the REPL colours stdout */

static int write_all(int fd, const char *b, size_t n) {
    while (n > 0) {
        ssize_t k = write(fd, b, n);
        if (k < 0) {
            if (errno == EINTR) continue;
            return -1;
        }
        b += k;
        n -= (size_t)k;
    }
    return 0;
}

/* Length of one of cairn's own styling sequences at s: ESC [ then digits
** and ';' then m, H or J. 0 if it is not one, -1 if n cuts it short. */
static int own_escape(const unsigned char *s, size_t n) {
    if (n < 2) return -1;
    if (s[1] != '[') return 0;
    for (size_t i = 2; i < n && i < 24; i++) {
        if ((s[i] >= '0' && s[i] <= '9') || s[i] == ';') continue;
        return s[i] == 'm' || s[i] == 'H' || s[i] == 'J' ? (int)i + 1 : 0;
    }
    return n < 24 ? -1 : 0;
}

/* Sanitizes n bytes at s onto the stream's fd; keeps a cut-short tail in
** carry unless final. */
static int tstream_put(tstream *t, const unsigned char *s, size_t n, int final) {
    char buf[4096];
    size_t bl = 0;
    while (n > 0) {
        if (bl == sizeof buf) { /* full: out with it before looking further */
            if (write_all(t->fd, buf, bl) != 0) return -1;
            bl = 0;
        }
        /* only as far as the buffer has room: scanning the whole rest for
        ** each buffer's worth made a 4 MB board quadratic (10-board-braces.attack) */
        size_t run = plain_run(s, n < sizeof buf - bl ? n : sizeof buf - bl);
        if (run) {
            memcpy(buf + bl, s, run);
            bl += run;
            s += run;
            n -= run;
            continue;
        }
        char u[32];
        size_t ul, took;
        int own = s[0] == 0x1b && t->styling && *t->styling ? own_escape(s, n) : 0;
        if (own < 0 && !final) break;
        if (own > 0) {
            memcpy(u, s, (size_t)own);
            ul = took = (size_t)own;
        } else {
            took = safe_unit(s, n, final, u, &ul);
            if (took == 0) break;
        }
        if (bl + ul > sizeof buf) {
            if (write_all(t->fd, buf, bl) != 0) return -1;
            bl = 0;
        }
        memcpy(buf + bl, u, ul);
        bl += ul;
        s += took;
        n -= took;
    }
    if (bl && write_all(t->fd, buf, bl) != 0) return -1;
    if (n > sizeof t->carry) n = sizeof t->carry; /* cannot happen: units are short */
    memmove(t->carry, s, n);
    t->ncarry = n;
    return 0;
}

static ssize_t tstream_write(void *cookie, const char *b, size_t size) {
    tstream *t = cookie;
    size_t used = 0;
    /* a unit cut short by the last write: feed it a byte at a time until it
    ** is decided (units are at most 24 bytes, carry holds 32) */
    while (t->ncarry && used < size) {
        unsigned char tmp[sizeof t->carry];
        size_t n = t->ncarry;
        memcpy(tmp, t->carry, n);
        tmp[n++] = (unsigned char)b[used++];
        t->ncarry = 0;
        if (tstream_put(t, tmp, n, 0) != 0) return -1;
    }
    if (used < size && tstream_put(t, (const unsigned char *)b + used, size - used, 0) != 0) return -1;
    return (ssize_t)size;
}

static int tstream_close(void *cookie) {
    tstream *t = cookie;
    if (t->ncarry) {
        size_t n = t->ncarry;
        t->ncarry = 0;
        return tstream_put(t, t->carry, n, 1);
    }
    return 0;
}

static FILE *open_stream(tstream *t, int fd, int mode, const int *styling) {
    t->fd = fd;
    t->styling = styling;
    t->ncarry = 0;
    cookie_io_functions_t io = {NULL, tstream_write, NULL, tstream_close};
    FILE *f = fopencookie(t, "w", io);
    if (f && setvbuf(f, NULL, mode, mode == _IONBF ? 0 : BUFSIZ) != 0) {
        fclose(f);
        return NULL;
    }
    return f;
}

int termsafe_install(void) {
    if (raw_stdout) return 0;
    fflush(stdout);
    fflush(stderr);
    FILE *out = open_stream(&streams[0], STDOUT_FILENO, isatty(STDOUT_FILENO) ? _IOLBF : _IOFBF,
                            &styling_allowed);
    FILE *err = out ? open_stream(&streams[1], STDERR_FILENO, _IONBF, NULL) : NULL;
    if (!out || !err) {
        if (out) fclose(out);
        return -1;
    }
    raw_stdout = stdout;
    stdout = out;
    stderr = err;
    return 0;
}

void termsafe_allow_styling(int on) { styling_allowed = on; }

FILE *termsafe_raw_stdout(void) { return raw_stdout ? raw_stdout : stdout; }

int termsafe_fd(FILE *f) {
    if (raw_stdout && f == stdout) return streams[0].fd;
    if (raw_stdout && f == stderr) return streams[1].fd;
    return f ? fileno(f) : -1;
}
