/*
** repl_pager.c
** A `--More--` pager for the console's long screens: a turn whose board,
** news and question are taller than the terminal, `help`, `rules`. What is
** printed between repl_page_begin and repl_page_end is kept in memory and
** then shown a screen at a time, on a terminal only: in a pipe or a script
** it is printed whole, so the same input gives the same bytes. At the
** `--More--` line Space shows the next screen, Enter one more line, q the
** rest at once (nothing is ever dropped: the news must reach the player);
** any other key typed there shows the rest too and begins the answer, so a
** person who starts typing `market 6` at a long question loses no letter.
*/
#include "repl_session.h"

#include "markup.h"
#include "termsafe.h"

#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

void repl_page_begin(repl *r) {
    if (r->page_mem) return; /* nested: the outer one pages it all */
    r->page_buf = NULL;
    r->page_len = 0;
    FILE *mem = open_memstream(&r->page_buf, &r->page_len);
    if (!mem) return; /* no memory to keep it in: printed as it comes */
    r->page_saved = r->out;
    r->page_mem = mem;
    r->out = mem;
}

/* One key from the keyboard, unechoed, without waiting for Enter; EOF at
** the end of the input. */
static int read_key(void) {
    struct termios old, raw;
    int have = tcgetattr(STDIN_FILENO, &old) == 0;
    if (have) {
        raw = old;
        raw.c_lflag &= ~(tcflag_t)(ICANON | ECHO);
        raw.c_cc[VMIN] = 1;
        raw.c_cc[VTIME] = 0;
        tcsetattr(STDIN_FILENO, TCSANOW, &raw);
    }
    unsigned char c;
    ssize_t n = read(STDIN_FILENO, &c, 1);
    if (have) tcsetattr(STDIN_FILENO, TCSANOW, &old);
    return n == 1 ? c : EOF;
}

/* Bytes that follow at once (within 30 ms), as an escape sequence's do. */
static int key_follows(void) {
    struct pollfd p = {STDIN_FILENO, POLLIN, 0};
    return poll(&p, 1, 30) == 1;
}

/* A key c read at --More-- that begins an answer (not Space, Enter, q or a
** control key): with the rest of its UTF-8 character, it is typed ahead into
** the next line read. An escape sequence (an arrow key) is read to its end
** and dropped. 1: typed ahead. */
static int typed_ahead(repl *r, int c) {
    if (c == 0x1b) {
        for (int k = 0; k < 8 && key_follows(); k++) read_key();
        return 0;
    }
    if (c == EOF || c <= ' ' || c == 0x7f || c == 'q' || c == 'Q') return 0;
    if ((c >= 0x80 && c < 0xc2) || c > 0xf4) return 0; /* not the first byte of a UTF-8 character */
    char key[5] = {(char)c, 0, 0, 0, 0};
    int more_bytes = c >= 0xf0 ? 3 : c >= 0xe0 ? 2 : c >= 0xc0 ? 1 : 0;
    for (int k = 1; k <= more_bytes; k++) {
        int b = read_key();
        if (b == EOF || (b & 0xc0) != 0x80) return 0; /* not UTF-8: dropped */
        key[k] = (char)b;
    }
    return lineedit_type_ahead(r->le, key) == 0;
}

/* The line that starts at s (its length with the newline). */
static size_t line_len(const char *s, size_t left) {
    const char *nl = memchr(s, '\n', left);
    return nl ? (size_t)(nl - s) + 1 : left;
}

/* Shows --More-- and waits for a key; the key read (EOF at the end of the input). */
static int more(repl *r) {
    /* the pager's own line and its erasing go to the terminal itself,
    ** past the filter that makes control characters visible (termsafe.c):
    ** they are the console's, not a stranger's */
    const char *prompt = repl_tr(r, "pager.more");
    fflush(r->out);
    FILE *tty = termsafe_raw_stdout();
    fprintf(tty, "%s%s%s", r->color ? "\033[7m" : "", prompt, r->color ? "\033[0m" : "");
    fflush(tty);
    int c = read_key();
    fputs("\r\033[K", tty); /* the --More-- line goes; the screen goes on */
    fflush(tty);
    return c;
}

/* Pages text; the rows its last page took (0: nothing paged, all written). */
static int page(repl *r, const char *text, size_t len) {
    int rows = repl_term_height(r);
    if (!r->interactive || rows < 3) {
        fwrite(text, 1, len, r->out);
        return 0;
    }
    /* lines wider than the terminal take more than one row on it */
    int room = rows - 1; /* the last row: --More--, then the prompt */
    size_t at = 0;
    while (at < len) {
        int used = 0;
        while (at < len && used < room) {
            size_t n = line_len(text + at, len - at);
            size_t w = markup_width(text + at, n - (text[at + n - 1] == '\n'));
            int takes = r->width > 0 && w > (size_t)r->width ? (int)((w + (size_t)r->width - 1) / (size_t)r->width) : 1;
            if (used > 0 && used + takes > room) break;
            fwrite(text + at, 1, n, r->out);
            at += n;
            used += takes;
        }
        if (at >= len) return used;
        int c = more(r);
        if (c == EOF || c == 'q' || c == 'Q' || typed_ahead(r, c)) {
            fwrite(text + at, 1, len - at, r->out);
            return 0;
        }
        if (c == '\n' || c == '\r') room = 1;
        else room = rows - 1;
    }
    return 0;
}

void repl_page_text(repl *r, const char *text, size_t len) {
    page(r, text, len);
}

void repl_page_text_then(repl *r, const char *text, size_t len, int following) {
    int used = page(r, text, len), rows = repl_term_height(r);
    if (used > 0 && used + following > rows - 1) typed_ahead(r, more(r));
}

void repl_page_end(repl *r) {
    if (!r->page_mem) return;
    r->out = r->page_saved;
    FILE *mem = r->page_mem;
    r->page_mem = NULL;
    r->page_saved = NULL;
    if (fclose(mem) == 0 && r->page_buf) repl_page_text(r, r->page_buf, r->page_len);
    free(r->page_buf);
    r->page_buf = NULL;
    r->page_len = 0;
}
