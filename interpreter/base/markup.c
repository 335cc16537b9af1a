/*
** markup.c
** Colour markup to ANSI or plain text, display widths and wrapping. The
** tags are a table below; adding a colour is one line.
*/
#include "markup.h"
#include "grow.h"
#include "termsafe.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

/* The tags a ruleset may write, and their SGR codes. "/" resets. */
#define TAG(name, sgr) {name, sgr, sizeof name - 1}
static const struct {
    const char *name;
    const char *sgr;
    size_t len; /* of name: a board has hundreds of tags to look up */
} tags[] = {
    TAG("red", "31"),  TAG("green", "32"),   TAG("yellow", "33"), TAG("blue", "34"),
    TAG("magenta", "35"), TAG("cyan", "36"), TAG("white", "37"),  TAG("grey", "90"),
    TAG("bold", "1"),  TAG("dim", "2"),      TAG("/", "0"),
};
#undef TAG

#define N_TAGS (sizeof tags / sizeof tags[0])
#define MARKUP_MIN_WIDTH 20

/* ------------------------------------------------------------- buffer */

static void buf_grow(markup_buf *b, size_t more) {
    if (b->oom) return;
    if (more > SIZE_MAX - b->len - 1 || grow_array((void **)&b->s, &b->cap, b->len + more + 1, 1) != 0)
        b->oom = 1;
}

void markup_buf_add(markup_buf *b, const char *s, size_t len) {
    buf_grow(b, len);
    if (b->oom) return;
    memcpy(b->s + b->len, s, len);
    b->len += len;
    b->s[b->len] = '\0';
}

void markup_buf_puts(markup_buf *b, const char *s) {
    markup_buf_add(b, s, strlen(s));
}

void markup_buf_printf(markup_buf *b, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0) {
        b->oom = 1;
        return;
    }
    buf_grow(b, (size_t)n);
    if (b->oom) return;
    va_start(ap, fmt);
    vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}

char *markup_buf_take(markup_buf *b) {
    char *s = b->s;
    if (b->oom) {
        free(s);
        s = NULL;
    } else if (!s) {
        s = calloc(1, 1);
    }
    memset(b, 0, sizeof *b);
    return s;
}

void markup_buf_free(markup_buf *b) {
    free(b->s);
    memset(b, 0, sizeof *b);
}

/* Longer than any name in tags[] ("magenta" is 7 bytes). */
#define MARKUP_TAG_MAX 16

/* ------------------------------------------------------------- markup */

/* The tag starting at s ("{red}..."), or -1; *len gets its length. Looks
** no further than the longest tag name for the `}`: searching the whole
** rest made a board of `{a` repeated quadratic (2 MB: 10 s). */
static int tag_at(const char *s, size_t *len) {
    size_t n = 0;
    while (n <= MARKUP_TAG_MAX && s[n + 1] && s[n + 1] != '}') n++;
    if (n > MARKUP_TAG_MAX || s[n + 1] != '}') return -1;
    for (size_t i = 0; i < N_TAGS; i++) {
        if (tags[i].len == n && memcmp(s + 1, tags[i].name, n) == 0) {
            *len = n + 2;
            return (int)i;
        }
    }
    return -1;
}

/* Appends text with terminal control characters removed (C0 but newline and
** tab, DEL, and C1 as UTF-8): a seat name or a ruleset's text must not be
** able to move the cursor, retitle the window or hide what follows. */
static void add_clean(markup_buf *b, const char *p, size_t n) {
    size_t start = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)p[i];
        size_t skip = 0;
        if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7f) skip = 1;
        else if (c == 0xc2 && i + 1 < n && (unsigned char)p[i + 1] >= 0x80 && (unsigned char)p[i + 1] <= 0x9f)
            skip = 2;
        if (!skip) continue;
        markup_buf_add(b, p + start, i - start);
        i += skip - 1;
        start = i + 1;
    }
    markup_buf_add(b, p + start, n - start);
}

char *markup_render(const char *src, int ansi) {
    markup_buf b = {0};
    int open = 0; /* a style is on: reset at the end */
    for (const char *p = src; *p;) {
        if (p[0] == '{' && p[1] == '{') {
            markup_buf_add(&b, "{", 1);
            p += 2;
            continue;
        }
        size_t len;
        int t = p[0] == '{' ? tag_at(p, &len) : -1;
        if (t < 0) {
            size_t run = strcspn(p + 1, "{") + 1;
            add_clean(&b, p, run);
            p += run;
            continue;
        }
        if (ansi) { /* marked as cairn's own (termsafe.h): only these pass */
            markup_buf_puts(&b, termsafe_escape_start());
            markup_buf_puts(&b, tags[t].sgr);
            markup_buf_add(&b, "m", 1);
            open = strcmp(tags[t].name, "/") != 0;
        }
        p += len;
    }
    if (open) {
        markup_buf_puts(&b, termsafe_escape_start());
        markup_buf_puts(&b, "0m");
    }
    return markup_buf_take(&b);
}

char *markup_escape(const char *s) {
    markup_buf b = {0};
    for (const char *p = s; *p; p++) {
        if (*p == '{') markup_buf_add(&b, "{", 1);
        markup_buf_add(&b, p, 1);
    }
    return markup_buf_take(&b);
}

/* ------------------------------------------------------------- widths */

/* The ranges of code points that take two columns and zero columns, made
** from the Unicode data by tools/gen-width-table (docs/repl.md, "Display
** width"). */
#include "width_table.h"

/* 1 when c lies in one of the n sorted, disjoint ranges r: a binary search. */
static int in_ranges(uint32_t c, const uint32_t (*r)[2], size_t n) {
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (c < r[mid][0]) hi = mid;
        else if (c > r[mid][1]) lo = mid + 1;
        else return 1;
    }
    return 0;
}

size_t markup_cp_width(uint32_t c) {
    if (c < 0x20 || (c >= 0x7F && c < 0xA0)) return 0;
    if (in_ranges(c, width_zero, sizeof width_zero / sizeof width_zero[0])) return 0;
    if (in_ranges(c, width_wide, sizeof width_wide / sizeof width_wide[0])) return 2;
    return 1;
}

/* Decodes one UTF-8 sequence at s (at most n bytes); a bad byte counts as
** one code point of its own so that broken text still has a width. */
static size_t utf8_next(const unsigned char *s, size_t n, uint32_t *cp) {
    unsigned char c = s[0];
    size_t len = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
    if (len == 0 || len > n) {
        *cp = 0xFFFD;
        return 1;
    }
    uint32_t v = len == 1 ? c : len == 2 ? (c & 0x1Fu) : len == 3 ? (c & 0x0Fu) : (c & 0x07u);
    for (size_t i = 1; i < len; i++) {
        if ((s[i] & 0xC0) != 0x80) {
            *cp = 0xFFFD;
            return 1;
        }
        v = (v << 6) | (s[i] & 0x3Fu);
    }
    *cp = v;
    return len;
}

/* Length of the ANSI escape sequence at s, or 0 (cairn's own carry a
** private `<` parameter: termsafe.h). */
static size_t ansi_len(const char *s, size_t n) {
    if (n < 2 || s[0] != '\033' || s[1] != '[') return 0;
    size_t i = 2;
    while (i < n && ((s[i] >= '0' && s[i] <= '9') || s[i] == ';' || s[i] == '<')) i++;
    return i < n ? i + 1 : 0;
}

size_t markup_width(const char *s, size_t len) {
    size_t w = 0;
    for (size_t i = 0; i < len;) {
        size_t esc = ansi_len(s + i, len - i);
        if (esc) {
            i += esc;
            continue;
        }
        uint32_t cp;
        i += utf8_next((const unsigned char *)s + i, len - i, &cp);
        w += markup_cp_width(cp);
    }
    return w;
}

/* ----------------------------------------------------------- wrapping */

static void add_spaces(markup_buf *b, int n) {
    for (int i = 0; i < n; i++) markup_buf_add(b, " ", 1);
}

/* Wraps one line (no newline in it) into b. */
static void wrap_line(markup_buf *b, const char *line, size_t len, int width, int indent) {
    if (markup_width(line, len) <= (size_t)width) {
        markup_buf_add(b, line, len);
        return;
    }
    size_t i = 0, col = 0;
    while (i < len && line[i] == ' ') i++;
    markup_buf_add(b, line, i); /* the line's own indentation stays */
    col = i;
    size_t start_col = col;
    while (i < len) {
        size_t sp = i;
        while (i < len && line[i] == ' ') i++;
        size_t word = i;
        while (i < len && line[i] != ' ') i++;
        if (word == i) break; /* trailing spaces are dropped */
        size_t ww = markup_width(line + word, i - word);
        size_t spaces = word - sp;
        if (col > start_col && col + spaces + ww > (size_t)width) {
            markup_buf_add(b, "\n", 1);
            add_spaces(b, indent);
            col = start_col = (size_t)indent;
            spaces = 0;
        }
        markup_buf_add(b, line + word - spaces, spaces + (i - word));
        col += spaces + ww;
    }
}

char *markup_wrap(const char *s, int width, int indent) {
    if (indent < 0) indent = 0;
    if (width > 0 && indent >= width) indent = width / 2;
    markup_buf b = {0};
    for (const char *p = s;;) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        if (width > 0)
            wrap_line(&b, p, len, width, indent);
        else
            markup_buf_add(&b, p, len);
        if (!nl) break;
        markup_buf_add(&b, "\n", 1);
        p = nl + 1;
    }
    return markup_buf_take(&b);
}

int markup_term_width(int fd) {
    int w = 0;
    struct winsize ws;
    if (isatty(fd) && ioctl(fd, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0) w = ws.ws_col;
    if (w == 0) {
        const char *env = getenv("COLUMNS");
        if (env) w = atoi(env);
    }
    if (w <= 0) w = 80;
    return w < MARKUP_MIN_WIDTH ? MARKUP_MIN_WIDTH : w;
}

int markup_tty_width(int fd) { return isatty(fd) ? markup_term_width(fd) : 0; }

void markup_print_fitted(FILE *out, const char *text, int width) {
    for (const char *p = text; *p;) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        char *line = strndup(p, len);
        size_t lead = 0;
        while (line && line[lead] == ' ') lead++;
        char *w = line && width > 0 && markup_width(line, len) > (size_t)width
                      ? markup_wrap(line, width, (int)lead + 2)
                      : NULL;
        if (w) fputs(w, out);
        else if (line) fputs(line, out);
        else fwrite(p, 1, len, out); /* out of memory: as it was */
        if (nl) fputc('\n', out);
        free(w);
        free(line);
        if (!nl) break;
        p = nl + 1;
    }
}
