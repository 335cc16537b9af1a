/*
** status_line.c
** A transient line redrawn in place on a terminal. The streams of
** termsafe.c make every control byte written through stdio visible (a
** ruleset's ESC must never reach the terminal), so the two sequences this
** line needs, a carriage return and "erase to the end of the line", are
** written by this file alone, straight to the terminal's file descriptor,
** after the stream is flushed so that the order of the output holds. The
** text itself goes through termsafe_text.
*/
#include "status_line.h"

#include "markup.h"
#include "termsafe.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void put(int fd, const char *b, size_t n) {
    while (n > 0) {
        ssize_t k = write(fd, b, n);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) return; /* a terminal that went away: the line is only a courtesy */
        b += k;
        n -= (size_t)k;
    }
}

int status_line_open(status_line *s, FILE *f) {
    s->f = f;
    s->shown = 0;
    int fd = termsafe_fd(f);
    s->fd = fd >= 0 && isatty(fd) ? fd : -1;
    return s->fd >= 0;
}

/* Bytes of text that fit in cols columns (one column a code point: the
** line is cairn's own ASCII, and a name in it at worst is cut early). */
static size_t fit(const char *text, int cols) {
    size_t i = 0;
    int c = 0;
    while (text[i] && c < cols) {
        i++;
        while ((text[i] & 0xc0) == 0x80) i++;
        c++;
    }
    return i;
}

void status_line_show(status_line *s, const char *text) {
    if (s->fd < 0) return;
    fflush(s->f);
    char *safe = termsafe_text(text);
    if (!safe) return;
    int cols = markup_term_width(s->fd) - 1;
    size_t n = fit(safe, cols > 10 ? cols : 10);
    put(s->fd, "\r", 1);
    put(s->fd, safe, n);
    put(s->fd, "\033[K", 3);
    free(safe);
    s->shown = 1;
}

void status_line_clear(status_line *s) {
    if (s->fd < 0 || !s->shown) return;
    fflush(s->f);
    put(s->fd, "\r\033[K", 4);
    s->shown = 0;
}

void status_line_keep(status_line *s) {
    if (s->fd < 0 || !s->shown) return;
    fflush(s->f);
    put(s->fd, "\n", 1);
    s->shown = 0;
}
