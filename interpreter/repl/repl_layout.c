/*
** repl_layout.c
** The screen at a person's turn: the board first, then what happened since
** that seat's last decision and its options just above the prompt, so that
** on a short terminal the news and the choices stay in sight while the top
** of a tall board scrolls away. News too long to share a screen with them
** comes first, paged, and the board and the question then share one. The render is told the terminal's width and
** how many rows the board may take (g.width, g.height) and may draw a
** compact board; `board`/`show` always draw the full one. A turn still too
** tall has its options in columns (or, when they do not go in columns,
** without their ids, with the unavailable ones folded and each run of
** options sharing their id's first word on one line: repl.c), then each
** run's events in one paragraph, before the news is paged on its own.
*/
#include "repl_session.h"

#include "engine.h"
#include "markup.h"

#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

/* The fewest rows a board is ever offered, however much is below it. */
#define REPL_MIN_BOARD_ROWS 4

int repl_term_height(const repl *r) {
    int h = 0;
    struct winsize ws;
    if (r->interactive && ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_row > 0) h = ws.ws_row;
    if (h == 0) {
        const char *env = getenv("LINES"); /* script mode: a transcript can ask for a height */
        if (env) h = atoi(env);
    }
    return h > 0 ? h : 0;
}

/* The board for seat with `rows` rows to fill (0: not known). */
static void show_board_rows(repl *r, int seat, int rows) {
    cerr_list errs;
    cerr_init(&errs, 0);
    char *text = engine_render_screen(r->e, seat, r->width, rows, &errs);
    if (!text) {
        repl_fail(r, "%s", repl_tr(r, "board.failed"));
        for (size_t i = 0; i < errs.n; i++) {
            char *s = repl_error_text(r, &errs.items[i]);
            repl_plain(r, "  %s", s ? s : errs.items[i].message);
            free(s);
        }
    } else {
        repl_board_block(r, text); /* wider than the terminal: wrapped */
    }
    free(text);
    cerr_free(&errs);
}

void repl_show_board(repl *r, int seat) {
    show_board_rows(r, seat, 0);
}

void repl_capture_begin(repl *r, repl_capture *c) {
    c->buf = NULL;
    c->len = 0;
    c->mem = open_memstream(&c->buf, &c->len);
    if (!c->mem) return;
    c->out = r->out;
    r->out = c->mem;
}

char *repl_capture_end(repl *r, repl_capture *c, size_t *len) {
    *len = 0;
    if (!c->mem) return NULL;
    r->out = c->out;
    int bad = fclose(c->mem) != 0;
    c->mem = NULL;
    if (bad) {
        free(c->buf);
        return NULL;
    }
    *len = c->len;
    return c->buf;
}

/* Runs fn into memory: its text (malloc'd, *len bytes), or NULL. */
static char *capture(repl *r, int seat, void (*fn)(repl *r, int seat), size_t *len) {
    repl_capture c;
    repl_capture_begin(r, &c);
    if (!c.mem) {
        *len = 0;
        return NULL;
    }
    fn(r, seat);
    return repl_capture_end(r, &c, len);
}

static int count_lines(const char *s, size_t len) {
    int n = 0;
    for (size_t i = 0; i < len; i++) n += s[i] == '\n';
    return n;
}

/* The last `undo`, when another seat typed it and the screen was cleared
** since (repl_undo_note): "Ann took back 1 decision: Bob: bid 5." */
static void undo_news(repl *r) {
    const repl_undo_note *u = &r->undone;
    size_t n;
    engine_log(r->e, &n);
    /* without secrets nothing was cleared: the Undone: line is still just above */
    if (!r->secret || !u->by || u->by == r->viewer || engine_position(r->e) != u->at || n != u->len) return;
    char *d = repl_describe_logged(r, u->first, 0);
    repl_say(r, 2, repl_trn(r, "undo.news", (long long)u->taken), repl_seat_name(r, u->by), u->taken, d ? d : "?");
    free(d);
}

static void news(repl *r, int seat) {
    (void)seat;
    if (r->news_head) fwrite(r->news_head, 1, r->news_head_len, r->out);
    undo_news(r);
    repl_show_events(r, r->viewer);
}

static void board(repl *r, int rows) {
    show_board_rows(r, r->viewer, rows);
}

void repl_show_turn_screen(repl *r, int seat, void (*below)(repl *r, int seat)) {
    if (r->interactive) r->width = markup_term_width(STDOUT_FILENO); /* resized since the prompt */
    int rows = repl_term_height(r);
    r->rows = rows;
    size_t nlen = 0, dlen = 0, jlen = 0;
    /* the news twice (each line an event, and joined), from the same place */
    size_t *seen = repl_seen(r, r->viewer), *seen_pos = repl_seen_pos(r, r->viewer);
    size_t seen0 = *seen, seen_pos0 = *seen_pos;
    char *n = capture(r, seat, news, &nlen), *d = n ? capture(r, seat, below, &dlen) : NULL;
    char *joined = NULL;
    if (n && rows) {
        size_t seen1 = *seen, seen_pos1 = *seen_pos;
        *seen = seen0;
        *seen_pos = seen_pos0;
        r->news_joined = 1;
        joined = capture(r, seat, news, &jlen);
        r->news_joined = 0;
        *seen = seen1;
        *seen_pos = seen_pos1;
    }
    if (!n || !d) { /* no memory to measure with: the same screen, unmeasured */
        free(joined);
        show_board_rows(r, r->viewer, 0);
        if (n) fwrite(n, 1, nlen, r->out);
        else repl_show_events(r, r->viewer);
        if (d) fwrite(d, 1, dlen, r->out);
        else below(r, seat);
        free(n);
        free(d);
        return;
    }
    int nl = count_lines(n, nlen), dl = count_lines(d, dlen);
    int board_rows = rows ? rows - nl - dl - 1 : 0; /* 1: the prompt */
    if (rows && board_rows < REPL_MIN_BOARD_ROWS) board_rows = REPL_MIN_BOARD_ROWS;
    size_t blen = 0;
    char *b = rows ? capture(r, board_rows, board, &blen) : NULL;
    if (b && count_lines(b, blen) + nl + dl + 1 > rows) {
        /* too tall: the options in columns, if that is shorter, and the board
        ** asked again for the rows that frees */
        r->options_in_columns = 1;
        size_t clen = 0;
        char *c = capture(r, seat, below, &clen);
        r->options_in_columns = 0;
        if (c && count_lines(c, clen) < dl) {
            free(d);
            d = c;
            dlen = clen;
            dl = count_lines(d, dlen);
            board_rows = rows - nl - dl - 1;
            if (board_rows < REPL_MIN_BOARD_ROWS) board_rows = REPL_MIN_BOARD_ROWS;
            free(b);
            b = capture(r, board_rows, board, &blen);
        } else {
            free(c);
        }
    }
    /* still too tall: each run's events as one paragraph, when the turn then
    ** fits (else the news is paged, each event on its line) */
    int jl = joined ? count_lines(joined, jlen) : 0;
    if (b && joined && count_lines(b, blen) + nl + dl + 1 > rows && jl < nl) {
        int jrows = rows - jl - dl - 1;
        size_t j2len = 0;
        char *b2 = jrows >= REPL_MIN_BOARD_ROWS ? capture(r, jrows, board, &j2len) : NULL;
        if (b2 && count_lines(b2, j2len) + jl + dl + 1 <= rows) {
            free(n);
            n = joined;
            nlen = jlen;
            nl = jl;
            joined = NULL;
            free(b);
            b = b2;
            blen = j2len;
        } else {
            free(b2);
        }
    }
    free(joined);
    /* news too long to share the screen: the news first, paged, then the
    ** board and the question together on a screen of their own (a --More--
    ** between them on a terminal), so that nothing scrolls away unread and
    ** the question is never a page away from its board */
    if (b && count_lines(b, blen) + nl + dl + 1 > rows) {
        size_t alen = 0;
        int alone = rows - dl - 1;
        char *a = alone >= REPL_MIN_BOARD_ROWS ? capture(r, alone, board, &alen) : NULL;
        if (a && count_lines(a, alen) + dl + 1 <= rows) {
            repl_page_text_then(r, n, nlen, count_lines(a, alen) + dl + 1);
            fwrite(a, 1, alen, r->out);
            fwrite(d, 1, dlen, r->out);
            free(a);
            free(b);
            free(n);
            free(d);
            return;
        }
        free(a);
    }
    /* the news is told whole, never cut: a screen taller than the terminal
    ** is paged (repl_pager.c), so nothing scrolls away unread */
    repl_page_begin(r);
    if (b) fwrite(b, 1, blen, r->out);
    else board(r, board_rows);
    fwrite(n, 1, nlen, r->out);
    fwrite(d, 1, dlen, r->out);
    repl_page_end(r);
    free(b);
    free(n);
    free(d);
}

void repl_show_current(repl *r) {
    r->over_shown = 0;
    repl_present(r);
}
