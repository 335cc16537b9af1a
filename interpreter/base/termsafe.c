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
**     sequences it emits itself pass on stdout (SGR colours, the screen
**     clear between seats, a line erased: ESC [ digits/; then m, H, J or K).
**     Those are marked, not recognised: cairn writes each as
**     termsafe_escape_start() (ESC [ < and a secret of 20 digits drawn at
**     install, then ;) before its parameters, and the stream passes a
**     sequence only with that exact mark, which it removes. Text from a
**     ruleset cannot know the secret, so an ESC [ 2 J in a description is
**     shown as ^[[2J even while cairn colours the screen.
** The rule: tab and newline pass; other C0 bytes and DEL become caret
** notation (ESC is ^[); C1 code points, bidi and other invisible format
** controls become <U+XXXX>; bytes that are not UTF-8 become \xHH.
*/
#define _GNU_SOURCE /* fopencookie */
#include "termsafe.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* Code points shown as <U+XXXX>: C1 controls, and the format characters a
** terminal or a reader may obey invisibly (bidi embeddings, overrides and
** isolates, marks, line and paragraph separators, BOM inside text). */
int termsafe_cp_hidden(unsigned long cp) {
    return (cp >= 0x80 && cp <= 0x9f) || cp == 0x061c || cp == 0x200b || cp == 0x200e ||
           cp == 0x200f || (cp >= 0x2028 && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069) ||
           cp == 0xfeff;
}

/* Length of the valid UTF-8 sequence at s (n bytes available) and its code
** point, 0 if the bytes there are not one, -1 if they may be the start of
** one that n cuts short. */
static int utf8_seq(const unsigned char *s, size_t n, unsigned long *cp) {
    if (n == 0) return -1;
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

int termsafe_utf8(const char *s, size_t n, unsigned long *cp) {
    int k = utf8_seq((const unsigned char *)s, n, cp);
    return k < 0 ? 0 : k;
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
    if (termsafe_cp_hidden(cp)) {
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
    unsigned char carry[64];
    size_t ncarry;
} tstream;

/* The longest parameter list of one of cairn's own sequences. */
#define OWN_PARAMS_MAX 24

/* Global mutable state, on purpose: the two streams that replace stdout
** and stderr for the whole process, and the original stdout that the line
** editor needs (a terminal's FILE, with a file descriptor). */
static tstream streams[2];
static FILE *raw_stdout;
static int styling_allowed; /* termsafe_allow_styling: the REPL colours stdout */
/* The mark of cairn's own escape sequences: plain CSI until the streams are
** installed (nothing then filters), CSI < secret ; after. */
static char own_start[32] = "\033[";
static size_t own_start_len = 2;

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

/* One of cairn's own sequences at s: the mark (own_start), then digits and
** ';', then m, H, J or K. Its length, with what the terminal gets (CSI, the
** parameters, the final byte) in out; 0 if it is not one (then ESC is shown
** as ^[), -1 if n cuts it short. */
static int own_escape(const unsigned char *s, size_t n, char *out, size_t *olen) {
    size_t m = own_start_len;
    if (memcmp(s, own_start, n < m ? n : m) != 0) return 0;
    if (n < m) return -1;
    for (size_t i = m; i < m + OWN_PARAMS_MAX; i++) {
        if (i >= n) return -1;
        if ((s[i] >= '0' && s[i] <= '9') || s[i] == ';') continue;
        if (s[i] != 'm' && s[i] != 'H' && s[i] != 'J' && s[i] != 'K') return 0;
        out[0] = '\033';
        out[1] = '[';
        memcpy(out + 2, s + m, i + 1 - m);
        *olen = 2 + (i + 1 - m);
        return (int)(i + 1);
    }
    return 0;
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
        char u[64];
        size_t ul, took;
        int own = s[0] == 0x1b && t->styling && *t->styling ? own_escape(s, n, u, &ul) : 0;
        if (own < 0 && !final) break;
        if (own > 0) {
            took = (size_t)own;
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
    ** is decided (units are at most 48 bytes, carry holds 64) */
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

/* Draws the secret of own_start: 64 bits from /dev/urandom (else the
** clock, the process and an address mixed), written as 20 digits. */
static void draw_own_start(void) {
    unsigned long long x = 0;
    int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
    if (fd >= 0) {
        if (read(fd, &x, sizeof x) != (ssize_t)sizeof x) x = 0;
        close(fd);
    }
    if (x == 0) {
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        x = ((unsigned long long)ts.tv_nsec << 20) ^ (unsigned long long)ts.tv_sec ^
            ((unsigned long long)getpid() << 40) ^ (unsigned long long)(uintptr_t)&x;
    }
    int n = snprintf(own_start, sizeof own_start, "\033[<%020llu;", x);
    own_start_len = n > 0 ? (size_t)n : 0;
}

const char *termsafe_escape_start(void) { return own_start; }

int termsafe_install(void) {
    if (raw_stdout) return 0;
    draw_own_start();
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
