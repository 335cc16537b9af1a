/*
** repl.c
** The console session of `cairn play` and `cairn replay`: making games from
** settings, output (markup, wrapping), whose turn it is, the keyboard
** passing between secret seats, bots, and the read-eval-print loop. The
** commands themselves are in repl_cmd.c, reached through repl_cmd.h; what
** the commands and the other repl_*.c modules use of the session is
** repl_session.h.
*/
#include "status_line.h"
#include "termsafe.h"
#include "grow.h"
#include "repl.h"
#include "repl_cmd.h"
#include "console_words.h"
#include "repl_text.h"
#include "repl_session.h"
#include "repl_signal.h"

#include "answer_match.h"
#include "bot.h"
#include "engine.h"
#include "lineedit.h"
#include "limits.h"
#include "markup.h"
#include "ruleset.h"
#include "safe_open.h"
#include "value.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* The seed of a game started in script mode without --seed: fixed, so that
** a transcript gives the same bytes every time. */
#define REPL_SCRIPT_SEED 1

/* A bot that thinks longer than this shows a spinner with its iterations. */
#if !defined(REPL_SPINNER_AFTER)
#define REPL_SPINNER_AFTER 0.3
#endif

enum { EXIT_OK = 0, EXIT_FAIL = 1, EXIT_USAGE = 2 };

/* ------------------------------------------------------------ output */

/* Every line the REPL shows. The text (ruleset output, events, errors,
** names: strings from strangers) is made terminal-safe before the REPL's
** own styling is added, so no escape in it reaches the terminal
** (termsafe.c); stdout itself lets through only that styling. */
static void emit(repl *r, const char *text, int indent, int is_markup, int wrap) {
    char *safe = termsafe_text(text);
    if (!safe) {
        fputs("(out of memory)\n", r->out);
        return;
    }
    char *rendered = is_markup ? markup_render(safe, r->color) : NULL;
    const char *src = rendered ? rendered : safe;
    char *wrapped = wrap ? markup_wrap(src, r->width, indent) : NULL;
    fputs(wrapped ? wrapped : src, r->out);
    fputc('\n', r->out);
    free(wrapped);
    free(rendered);
    free(safe);
}

/* emit() of printf-style text: the one body of repl_say, repl_plain and
** repl_fail. */
static void emitv(repl *r, int indent, int is_markup, const char *fmt, va_list ap) {
    char *s = cairn_vstrfmt(fmt, ap);
    emit(r, s ? s : "(out of memory)", indent, is_markup, 1);
    free(s);
}

void repl_say(repl *r, int indent, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    emitv(r, indent, 1, fmt, ap);
    va_end(ap);
}

void repl_plain(repl *r, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    emitv(r, 2, 0, fmt, ap);
    va_end(ap);
}

void repl_plain_hanging(repl *r, int indent, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    emitv(r, indent, 0, fmt, ap);
    va_end(ap);
}

void repl_fail(repl *r, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    emitv(r, 2, 0, fmt, ap);
    va_end(ap);
    r->failures++;
}

static void block(repl *r, const char *markup, int wrap) {
    size_t n = strlen(markup);
    while (n > 0 && markup[n - 1] == '\n') n--; /* one newline at the end, ours */
    char *t = strndup(markup, n);
    emit(r, t ? t : markup, 2, 1, wrap);
    free(t);
}

void repl_block(repl *r, const char *markup) {
    block(r, markup, 0);
}

void repl_board_block(repl *r, const char *markup) {
    block(r, markup, 1);
}

static void print_errors(const repl *r, FILE *out, const cerr_list *errs) {
    repl_print_errors_in(repl_lang(r), out, errs);
}

/* ------------------------------------------------------------- seats */

const char *repl_seat_name(const repl *r, int seat) {
    if (seat == 0) return repl_tr(r, "seat.spectator");
    const char *n = r->e ? engine_seat_name(r->e, seat) : NULL;
    return n ? n : "?";
}

int repl_parse_seat(repl *r, const char *s, int allow_zero) {
    if (allow_zero && (strcmp(s, "spectator") == 0 || strcmp(s, "0") == 0)) return 0;
    char *end;
    long n = strtol(s, &end, 10);
    if (*s && *end == '\0') {
        if (n >= 1 && n <= r->n_seats) return (int)n;
        repl_fail(r, repl_tr(r, "seat.no_such"), s, r->n_seats, allow_zero ? repl_tr(r, "seat.zero") : "");
        return -1;
    }
    for (int i = 1; i <= r->n_seats; i++)
        if (strcasecmp(s, repl_seat_name(r, i)) == 0) return i;
    repl_fail(r, repl_tr(r, "seat.no_name"), s, r->n_seats);
    return -1;
}

size_t *repl_seen(repl *r, int seat) {
    /* without secrets everyone shares one screen, so one counter */
    return &r->seen[r->secret && seat >= 0 && seat <= r->n_seats ? seat : 0];
}

/* Names a seat with its number unless the name is the default one. */
static void seat_title(const repl *r, int seat, char *buf, size_t n) {
    const char *name = repl_seat_name(r, seat);
    char dflt[32];
    snprintf(dflt, sizeof dflt, "Seat %d", seat);
    char local[64]; /* the default name in the game's language */
    snprintf(local, sizeof local, repl_tr(r, "seat.default"), seat);
    if (seat == 0 || strcmp(name, dflt) == 0 || strcmp(name, local) == 0)
        snprintf(buf, n, "%s", name);
    else
        snprintf(buf, n, repl_tr(r, "seat.title"), name, seat);
}

static int is_bot(const repl *r, int seat) {
    return seat >= 1 && seat <= r->n_seats && r->bot[seat] != NULL;
}

int repl_deciding_seat(const repl *r) {
    engine_decision_list dl = {0};
    if (!r->e || engine_decisions(r->e, &dl) != 0) return 0;
    int seat = 0;
    for (size_t i = 0; i < dl.n; i++) {
        int s = dl.items[i].seat;
        if (is_bot(r, s)) continue;
        if (r->server && s != r->viewer) continue; /* it answers at its page (repl_serve.c) */
        if (s == r->viewer) {
            seat = s;
            break;
        }
        if (!seat) seat = s;
    }
    engine_decision_list_free(&dl);
    return seat;
}

/* ----------------------------------------------------- showing things */

/* A score's number, or "?" for one the viewing seat may not know (repl_score_view.c). */
static const char *points_text(int64_t v, char buf[32]) {
    if (v == REPL_SCORE_HIDDEN) return "?";
    snprintf(buf, 32, "%lld", (long long)v);
    return buf;
}

static int score_order(const engine_score *s, size_t a, size_t b) {
    if (s->seats[a].rank != s->seats[b].rank) return s->seats[a].rank - s->seats[b].rank;
    return (int)a - (int)b;
}

/* One seat's line of the score table (markup, malloc'd): rank, name padded
** to namew, total, then the breakdown on the line or, with columns, one
** item a line with labels padded to lw. */
static char *score_line(const repl *r, const engine_score *sc, int seat, size_t namew, size_t lw,
                        int columns) {
    const engine_seat_score *s = &sc->seats[seat - 1];
    /* a tie-break value means nothing on its own: show it only where it decides */
    int tied = 0;
    for (size_t i = 0; i < sc->n; i++)
        if ((int)i != seat - 1 && sc->seats[i].total == s->total) tied = 1;
    int show_tb = s->has_tiebreak && tied;
    markup_buf b = {0};
    char t[160];
    seat_title(r, seat, t, sizeof t);
    char *et = markup_escape(t);
    char n1[32];
    if (s->rank > 0) markup_buf_printf(&b, "  %d. %s", s->rank, et ? et : t);
    else markup_buf_printf(&b, "  ?. %s", et ? et : t); /* the ranks would tell a hidden total */
    free(et);
    for (size_t w = markup_width(t, strlen(t)); w < namew; w++) markup_buf_puts(&b, " ");
    markup_buf_printf(&b, "  %4s", points_text(s->total, n1));
    if (columns) {
        if (show_tb) {
            markup_buf_puts(&b, "  ");
            markup_buf_printf(&b, repl_tr(r, "scores.tiebreak"), points_text(s->tiebreak, n1));
        }
        for (size_t j = 0; j < s->n_items; j++) {
            markup_buf_printf(&b, "\n      %s", s->items[j].label);
            for (size_t w = markup_width(s->items[j].label, strlen(s->items[j].label)); w < lw; w++)
                markup_buf_puts(&b, " ");
            markup_buf_printf(&b, " %4s", points_text(s->items[j].points, n1));
        }
    } else {
        for (size_t j = 0; j < s->n_items; j++)
            markup_buf_printf(&b, "%s%s %s", j ? ", " : "   = ", s->items[j].label, points_text(s->items[j].points, n1));
        if (show_tb) {
            markup_buf_puts(&b, "  ");
            markup_buf_printf(&b, repl_tr(r, "scores.tiebreak"), points_text(s->tiebreak, n1));
        }
    }
    return markup_buf_take(&b);
}

void repl_show_scores(repl *r, int final) {
    engine_score sc = {0};
    cerr_list errs;
    cerr_init(&errs, 0);
    if (engine_score_get(r->e, &sc, &errs) != 0) {
        repl_fail(r, "%s", repl_tr(r, "scores.failed"));
        for (size_t i = 0; i < errs.n; i++) {
            char *s = repl_error_text(r, &errs.items[i]);
            repl_plain(r, "  %s", s ? s : errs.items[i].message);
            free(s);
        }
        cerr_free(&errs);
        return;
    }
    cerr_free(&errs);
    if (!final) repl_score_mask(r, &sc); /* through the viewing seat's eyes */
    size_t *order = malloc((sc.n ? sc.n : 1) * sizeof *order);
    if (!order) {
        engine_score_free(&sc);
        repl_fail(r, "%s", repl_tr(r, "error.oom"));
        return;
    }
    for (size_t i = 0; i < sc.n; i++) order[i] = i;
    for (size_t i = 1; i < sc.n; i++) /* insertion sort: a handful of seats */
        for (size_t j = i; j > 0 && score_order(&sc, order[j - 1], order[j]) > 0; j--) {
            size_t t = order[j];
            order[j] = order[j - 1];
            order[j - 1] = t;
        }
    repl_say(r, 0, "{bold}%s{/}", repl_tr(r, final ? "scores.final" : "scores.now"));
    size_t namew = 0;
    for (size_t i = 0; i < sc.n; i++) {
        char t[160];
        seat_title(r, (int)i + 1, t, sizeof t);
        size_t w = markup_width(t, strlen(t));
        if (w > namew) namew = w;
    }
    size_t lw = 0; /* the widest breakdown label of every seat: one column for all */
    for (size_t q = 0; q < sc.n; q++)
        for (size_t j = 0; j < sc.seats[q].n_items; j++) {
            const char *l = sc.seats[q].items[j].label;
            size_t w = markup_width(l, strlen(l));
            if (w > lw) lw = w;
        }
    if (lw + 12 > (size_t)r->width) lw = (size_t)r->width > 24 ? (size_t)r->width - 12 : 12;
    /* a breakdown of two or more items is a table, one item a line, mid-game
    ** and at the end alike; a one-item breakdown goes on the seat's line if
    ** every seat's fits */
    int columns = 0;
    for (size_t i = 0; i < sc.n && !columns; i++) columns = sc.seats[i].n_items >= 2;
    for (size_t i = 0; i < sc.n && !columns; i++) {
        char *line = score_line(r, &sc, (int)i + 1, namew, 0, 0);
        columns = line && markup_width(line, strlen(line)) > (size_t)r->width;
        free(line);
    }
    for (size_t k = 0; k < sc.n; k++) {
        char *line = score_line(r, &sc, (int)order[k] + 1, namew, lw, columns);
        repl_say(r, 8, "%s", line ? line : "(out of memory)");
        free(line);
    }
    if (final) {
        markup_buf b = {0};
        size_t winners = 0;
        for (size_t i = 0; i < sc.n; i++) {
            if (sc.seats[i].rank != 1) continue;
            markup_buf_printf(&b, "%s%s", winners ? ", " : "", repl_seat_name(r, (int)i + 1));
            winners++;
        }
        char *w = markup_buf_take(&b);
        if (winners == sc.n && sc.n > 1)
            repl_say(r, 2, repl_tr(r, "scores.draw"), w ? w : "?");
        else
            repl_say(r, 2, repl_trn(r, "scores.winner", (long long)winners), w ? w : "?");
        free(w);
    }
    free(order);
    engine_score_free(&sc);
}

/* A decision's options in columns, numbered, each by its label (else its
** id), an unavailable one dimmed and marked × (its reason is told when it
** is chosen): for a short screen. As many columns as the width holds, each
** as wide as its own widest option (a list whose first half is short takes
** less room than one measured by its longest). 0 when they do not go in two
** columns or more (the list is then shown one a line). */
static const char *option_text(const engine_option *op) { return op->label ? op->label : op->id; }

/* The widths of the columns of n options in ncols columns (nrows a column);
** 1 when the line fits the width. */
static int columns_fit(repl *r, const engine_decision *d, int numw, size_t ncols, size_t nrows, size_t *colw) {
    size_t total = 1; /* the line's leading blank */
    for (size_t c = 0; c < ncols; c++) {
        colw[c] = 0;
        for (size_t k = c * nrows; k < (c + 1) * nrows && k < d->n_options; k++) {
            const char *t = option_text(&d->options[k]);
            size_t w = (size_t)numw + 1 + markup_width(t, strlen(t));
            if (w > colw[c]) colw[c] = w;
        }
        total += 1 + colw[c] + (c + 1 < ncols ? 2 : 0);
    }
    return r->width > 0 && total <= (size_t)r->width;
}

static int show_option_columns(repl *r, const engine_decision *d, int numw) {
    size_t colw[CAIRN_REPL_MAX_OPTION_COLUMNS], ncols = 0, nrows = 0;
    for (size_t c = CAIRN_REPL_MAX_OPTION_COLUMNS; c >= 2 && !ncols; c--) {
        size_t rows = (d->n_options + c - 1) / c;
        if (c > d->n_options || (c - 1) * rows >= d->n_options) continue; /* an empty column */
        if (columns_fit(r, d, numw, c, rows, colw)) ncols = c, nrows = rows;
    }
    if (ncols < 2) return 0;
    columns_fit(r, d, numw, ncols, nrows, colw);
    for (size_t row = 0; row < nrows; row++) {
        markup_buf b = {0};
        markup_buf_puts(&b, " ");
        for (size_t c = 0; c < ncols; c++) {
            size_t i = c * nrows + row;
            if (i >= d->n_options) break;
            const engine_option *op = &d->options[i];
            char *t = op->label ? NULL : markup_escape(op->id); /* a label is markup, an id is not */
            const char *shown = op->label ? op->label : t ? t : "?";
            /* an unavailable option: dim, and × for a screen without colour */
            markup_buf_printf(&b, " %s%*zu%s%s%s", op->disabled ? "{dim}" : "", numw, i + 1,
                              op->disabled ? "×" : " ", shown, op->disabled ? "{/}" : "");
            size_t w = (size_t)numw + 1 + markup_width(shown, strlen(shown));
            if (c + 1 < ncols && i + nrows < d->n_options)
                for (; w < colw[c] + 2; w++) markup_buf_puts(&b, " ");
            free(t);
        }
        char *line = markup_buf_take(&b);
        repl_say(r, 2, "%s", line ? line : "(out of memory)");
        free(line);
    }
    return 1;
}

/* 1 when every option's line with its id beside its label (numw digits, ids
** padded to idw) fits the terminal's width. */
static int option_lines_fit(const repl *r, const engine_decision *d, int numw, size_t idw) {
    if (r->width <= 0) return 1;
    for (size_t i = 0; i < d->n_options; i++) {
        const engine_option *op = &d->options[i];
        if (!op->label) continue;
        size_t w = 2 + (size_t)numw + 2 + idw + 2 + markup_width(op->label, strlen(op->label));
        if (w > (size_t)r->width) return 0;
    }
    return 1;
}

/* The digits of d's largest option number: the width its numbers are padded to. */
static int number_width(const engine_decision *d) { return d->n_options >= 100 ? 3 : d->n_options >= 10 ? 2 : 1; }

/* The fewest options that share their id's first word ("market 1" ...
** "market 20") for them to be shown as one line on a turn too tall. */
#define REPL_GROUP_MIN 4

/* How many options from i on share the first word of i's id (with a word
** after it) and are available; 1 when i starts no such run. */
static size_t group_run(const engine_decision *d, size_t i) {
    const char *id = d->options[i].id, *sp = strchr(id, ' ');
    if (!sp || d->options[i].disabled) return 1;
    size_t w = (size_t)(sp - id) + 1, n = 1;
    while (i + n < d->n_options && !d->options[i + n].disabled && strncmp(d->options[i + n].id, id, w) == 0) n++;
    return n;
}

/* The word to type for a run of n options from i: the first word of their
** labels where all the labels start with it (up to a ':' or a space; the
** labels are in the game's language: "Markttag", "Yeti-Spuren"), else the
** first word of their ids ("market"), which answers in every language; so
** also when the label's word is a command's name (the command would run).
** Malloc'd; NULL on OOM. */
static char *group_word(repl *r, const engine_decision *d, size_t i, size_t n, int ids) {
    const char *a = d->options[i].label;
    size_t len = a ? strcspn(a, ": ") : 0;
    for (size_t k = 1; k < n && len > 0 && !ids; k++) {
        const char *l = d->options[i + k].label;
        if (!l || strncmp(l, a, len) != 0 || (l[len] != ':' && l[len] != ' ')) len = 0;
    }
    char *word = ids || len == 0 ? NULL : strndup(a, len);
    if (word && !repl_is_command(r, word)) return word;
    free(word);
    return strndup(d->options[i].id, strcspn(d->options[i].id, " "));
}

/* A run of n options from i as one line: their numbers, the first and the
** last by id in English (short: "market 1 … market 20"), else the first by
** its label (labels are long), and how to see them all. */
static void show_group(repl *r, const engine_decision *d, size_t i, size_t n, int ids) {
    const engine_option *a = &d->options[i], *z = &d->options[i + n - 1];
    char *word = group_word(r, d, i, n, ids);
    char *ea = markup_escape(a->id), *ez = markup_escape(z->id), *ew = word ? markup_escape(word) : NULL;
    const char *first = ids || !a->label ? ea : a->label, *last = ids || !z->label ? ez : z->label;
    markup_buf b = {0};
    if (ids)
        markup_buf_printf(&b, "  %zu-%zu  %s … %s  {dim}", i + 1, i + n, first ? first : "?", last ? last : "?");
    else
        markup_buf_printf(&b, "  %zu-%zu  %s …  {dim}", i + 1, i + n, first ? first : "?");
    markup_buf_printf(&b, repl_tr(r, "turn.group"), n, ew ? ew : "?");
    markup_buf_puts(&b, "{/}");
    char *line = markup_buf_take(&b);
    repl_say(r, 6, "%s", line ? line : "(out of memory)");
    free(line);
    free(word);
    free(ea);
    free(ez);
    free(ew);
}

/* The decision block for seat: its prompt and the numbered options. */
static void show_decision(repl *r, int seat) {
    engine_decision_list dl = {0};
    if (engine_decisions(r->e, &dl) != 0) {
        repl_fail(r, "%s", repl_tr(r, "error.oom"));
        return;
    }
    const engine_decision *d = NULL;
    for (size_t i = 0; i < dl.n; i++)
        if (dl.items[i].seat == seat) d = &dl.items[i];
    if (!d) {
        engine_decision_list_free(&dl);
        return;
    }
    /* whose decision it is, unless the ruleset's prompt says so already */
    const char *name = repl_seat_name(r, seat);
    char *ename = markup_escape(name);
    if (strstr(d->prompt, name))
        repl_say(r, 2, "{bold}%s{/}", d->prompt);
    else
        repl_say(r, 2, "{bold}%s: %s{/}", ename ? ename : name, d->prompt);
    free(ename);
    markup_buf others = {0};
    size_t n_others = 0;
    for (size_t i = 0; i < dl.n; i++) {
        if (dl.items[i].seat == seat || dl.items[i].hidden) continue;
        markup_buf_printf(&others, "%s%s", n_others++ ? ", " : "", repl_seat_name(r, dl.items[i].seat));
    }
    char *o = markup_buf_take(&others);
    if (n_others) {
        markup_buf same = {0};
        markup_buf_puts(&same, "{dim}");
        markup_buf_printf(&same, repl_trn(r, "turn.same_time", (long long)n_others), o ? o : "?");
        markup_buf_puts(&same, "{/}");
        char *line = markup_buf_take(&same);
        repl_say(r, 2, "%s", line ? line : "?");
        free(line);
    }
    free(o);
    int numw = number_width(d);
    size_t idw = 0;
    for (size_t i = 0; i < d->n_options; i++) {
        size_t w = markup_width(d->options[i].id, strlen(d->options[i].id));
        if (w > idw) idw = w;
    }
    /* on a short screen a long list goes in columns, so that the board and
    ** the news keep their room; so does any list on a turn that would not fit
    ** otherwise (repl_layout.c) */
    if (r->rows > 0 && (r->options_in_columns || d->n_options > (size_t)((r->rows - 1) / 2)) &&
        show_option_columns(r, d, numw)) {
        engine_decision_list_free(&dl);
        return;
    }
    /* the ids are the ruleset's, in English: a game in another language
    ** shows the labels alone (a number or a label's start answers), and so
    ** does an English one whose ids beside the labels would make a line wider
    ** than the terminal (it would wrap and the question take more rows);
    ** typing an id answers whatever is shown */
    int ids_fit = strcmp(repl_lang(r), "en") == 0 && option_lines_fit(r, d, numw, idw);
    /* a turn too tall for the screen whose options do not go in columns: two
    ** or more unavailable options are folded into one line of their numbers
    ** (the reason is told when one is chosen) */
    size_t n_disabled = 0;
    for (size_t i = 0; i < d->n_options; i++) n_disabled += d->options[i].disabled != NULL;
    int fold = r->options_in_columns && n_disabled >= 2;
    /* still too tall (more options than half the screen): each run of
    ** REPL_GROUP_MIN or more available options whose ids share their first
    ** word is one line; typing that word lists them (show_candidates) */
    int group = r->options_in_columns && r->rows > 0 && d->n_options - (fold ? n_disabled : 0) > (size_t)((r->rows - 1) / 2);
    markup_buf folded = {0};
    for (size_t i = 0; i < d->n_options; i++) {
        const engine_option *op = &d->options[i];
        if (fold && op->disabled) {
            markup_buf_printf(&folded, "%s%zu", folded.len ? ", " : "", i + 1);
            continue;
        }
        size_t run = group ? group_run(d, i) : 1;
        if (run >= REPL_GROUP_MIN) {
            show_group(r, d, i, run, strcmp(repl_lang(r), "en") == 0);
            i += run - 1;
            continue;
        }
        markup_buf b = {0};
        char *id = markup_escape(op->id);
        if (op->disabled) markup_buf_puts(&b, "{dim}");
        int ids_shown = !op->label || ids_fit;
        /* a turn too tall for the screen: an unavailable option marked ×, its
        ** reason told when it is chosen */
        int marked = op->disabled && r->options_in_columns;
        markup_buf_printf(&b, "  %*zu%s %s", numw, i + 1, marked ? "×" : " ", ids_shown ? id ? id : "?" : op->label);
        free(id);
        int same = op->label && strcmp(op->label, op->id) == 0;
        if (op->label && !same && ids_shown) {
            for (size_t w = markup_width(op->id, strlen(op->id)); w < idw; w++) markup_buf_puts(&b, " ");
            markup_buf_printf(&b, "  %s", op->label);
        }
        if (marked) {
            markup_buf_puts(&b, "{/}");
        } else if (op->disabled) {
            markup_buf_puts(&b, "  ");
            markup_buf_printf(&b, repl_tr(r, "turn.unavailable"), op->disabled);
            markup_buf_puts(&b, "{/}");
        }
        char *line = markup_buf_take(&b);
        repl_say(r, 2 + numw + 2 + (ids_shown ? (int)idw + 2 : 0), "%s", line ? line : "(out of memory)");
        free(line);
    }
    char *numbers = markup_buf_take(&folded);
    if (fold) {
        markup_buf b = {0};
        markup_buf_printf(&b, "{dim}  %*s× ", numw, "");
        markup_buf_printf(&b, repl_trn(r, "turn.folded", (long long)n_disabled), numbers ? numbers : "?");
        markup_buf_puts(&b, "{/}");
        char *line = markup_buf_take(&b);
        repl_say(r, 2 + numw + 2, "%s", line ? line : "(out of memory)");
        free(line);
    }
    free(numbers);
    engine_decision_list_free(&dl);
}

/* Reads a typed answer after `prompt`; libedit shows the prompt on a
** terminal, else it is printed here (script mode echoes instead). */
static char *ask(repl *r, const char *prompt, lineedit_status *st) {
    if (!r->script && !r->interactive) {
        fputs(prompt, r->out);
        fflush(r->out);
    }
    return lineedit_read(r->le, prompt, st);
}

/* Between two seats that must not see each other's screen (repl_hotseat.c). */
static void pass_keyboard(repl *r, int to) {
    char t[160];
    seat_title(r, to, t, sizeof t);
    repl_pass_keyboard(r, t);
}

/* The viewing seat becomes `seat` (a person about to decide). */
static void hand_over(repl *r, int seat) {
    if (seat == r->viewer) return;
    if (r->secret) pass_keyboard(r, seat);
    r->viewer = seat;
}

/* What goes below the board at a turn (repl_show_turn_screen). */
static void below_over(repl *r, int seat) {
    (void)seat;
    repl_show_scores(r, 1);
    repl_say(r, 2, "{dim}%s{/}", repl_tr(r, "turn.over"));
}

static void below_waiting(repl *r, int seat) {
    (void)seat;
    int b = 0; /* the REPL's own seat kinds, not the engine's: `bot`/`human` change them */
    for (int i = 1; i <= r->n_seats && !b; i++)
        if (is_bot(r, i) && engine_is_asked(r->e, i)) b = i;
    if (!b && r->server) { /* people at their pages */
        repl_serve_waiting(r);
        return;
    }
    repl_say(r, 2, repl_tr(r, "turn.waiting"), repl_seat_name(r, b), b ? r->bot[b] : "?");
}

static void below_decision(repl *r, int seat) {
    show_decision(r, seat);
}

static void show_turn(repl *r) {
    if (engine_is_over(r->e)) {
        if (r->over_shown) return;
        r->over_shown = 1;
        for (int i = 1; r->brain && i <= r->n_seats; i++) bot_end_game(r->brain[i], r->e); /* outside agents leave */
        repl_show_turn_screen(r, 0, below_over); /* the board, the news, the scores */
        return;
    }
    int s = repl_deciding_seat(r);
    if (s == 0) {
        repl_show_turn_screen(r, 0, below_waiting);
        return;
    }
    hand_over(r, s);
    /* the board, then what happened since this seat's last decision just
    ** above its options: on a short terminal the news stays on screen
    ** (repl_layout.c); an undo another seat typed is told there, once */
    repl_show_turn_screen(r, s, below_decision);
    if (r->undone.by != r->viewer) r->undone.by = 0; /* told; the typist's own turn keeps it for a next undo */
}

struct bot *repl_brain(repl *r, int seat) {
    if (!r->brain && !(r->brain = calloc((size_t)r->n_seats + 1, sizeof *r->brain))) {
        repl_fail(r, "%s", repl_tr(r, "error.oom"));
        return NULL;
    }
    bot *b = r->brain[seat];
    if (b && strcmp(bot_spec(b), r->bot[seat]) == 0) return b;
    bot_free(b);
    r->brain[seat] = NULL;
    cerr_list errs;
    cerr_init(&errs, 0);
    b = bot_new(r->bot[seat], &errs);
    if (b && bot_check(b, r->e, &errs) != 0) {
        bot_free(b);
        b = NULL;
    }
    if (!b) {
        char *m = errs.n ? repl_error_text(r, &errs.items[0]) : NULL;
        repl_fail(r, "%s", m ? m : repl_tr(r, "error.oom"));
        free(m);
    }
    cerr_free(&errs);
    return r->brain[seat] = b;
}

void repl_free_brains(repl *r) {
    if (r->brain)
        for (int i = 0; i <= r->n_seats; i++) bot_free(r->brain[i]);
    free(r->brain);
    r->brain = NULL;
}

/* The spinner and Ctrl-C while a bot thinks (on a terminal only: script
** output stays the same on every run). */
typedef struct think_ctx {
    repl *r;
    status_line line; /* the spinner, on the terminal only */
    int interrupted;  /* Ctrl-C: the bot answered with its best so far */
} think_ctx;

static void think_tick(void *ud, long iterations, double seconds) {
    think_ctx *t = ud;
    static const char wheel[] = "|/-\\";
    if (!t->r->interactive || seconds < REPL_SPINNER_AFTER) return;
    char text[256]; /* the longest wording (Greek) is about 110 bytes */
    char secs[REPL_DECIMAL_MAX];
    snprintf(text, sizeof text, repl_trn(t->r, "think.spinner", iterations), wheel[(int)(seconds * 10) % 4],
             iterations, repl_decimal(t->r, seconds, 1, secs));
    status_line_show(&t->line, text);
}

static int think_interrupted(void *ud) {
    think_ctx *t = ud;
    if (repl_signal_ending()) return t->interrupted = 1; /* best so far, then the recovery save */
    if (t->r->script || !lineedit_interrupted()) return 0;
    return t->interrupted = 1;
}

/* An outside agent's failure, told in the console (bot_hooks.notice). */
static void think_notice(void *ud, const char *line) {
    think_ctx *t = ud;
    status_line_clear(&t->line);
    repl_plain(t->r, "%s", line);
}

/* The bot's choice for seat s (malloc'd), or NULL after printing why. */
static char *bot_pick(repl *r, int s, int *interrupted) {
    bot *b = repl_brain(r, s);
    if (!b) return NULL;
    think_ctx t = {.r = r};
    status_line_open(&t.line, r->out);
    bot_hooks h = {think_tick, think_interrupted, &t, think_notice};
    cerr_list errs;
    cerr_init(&errs, 0);
    char *id = bot_choose(b, r->e, s, &h, &errs);
    status_line_clear(&t.line);
    if (!id) {
        char *m = errs.n ? repl_error_text(r, &errs.items[0]) : NULL;
        repl_fail(r, repl_tr(r, "bot.could_not"), r->bot[s], repl_seat_name(r, s),
                  m ? m : repl_tr(r, "error.oom"));
        free(m);
    }
    cerr_free(&errs);
    *interrupted = t.interrupted;
    return id;
}

/* engine_answer's why, worded in the game's language (a keyed error of the
** layers below: an engine's reason, a handler's failure); malloc'd or NULL. */
static engine_status answer_worded(repl *r, int seat, const char *id, char **why) {
    cerr_list errs;
    cerr_init(&errs, 0);
    engine_status st = engine_answer_errs(r->e, seat, id, &errs);
    *why = NULL;
    if (st != ENGINE_OK)
        *why = errs.n ? repl_error_text(r, &errs.items[0]) : errs.oom ? cairn_strdup(repl_tr(r, "error.oom")) : NULL;
    cerr_free(&errs);
    return st;
}

size_t repl_run_bots(repl *r, size_t limit) {
    size_t n = 0;
    int stop = 0;
    if (limit == 0 || limit > CAIRN_REPL_MAX_BOT_RUN) limit = CAIRN_REPL_MAX_BOT_RUN;
    while (n < limit && !engine_is_over(r->e) && !stop) {
        /* the engine's order (the first bot seat the ruleset asks), as in
        ** golden playthroughs and `cairn sim`, so the same seed plays the
        ** same game everywhere */
        int s = engine_next_bot_seat(r->e);
        if (repl_signal_ending()) break;
        if (!s || !is_bot(r, s)) { /* no bot asked: a person's move with one option, if they chose so */
            if (!repl_take_forced(r)) break;
            n++;
            continue;
        }
        if (!r->script && lineedit_interrupted()) {
            repl_say(r, 0, "%s", repl_tr(r, "run.stopped"));
            break;
        }
        size_t options = engine_bot_option_count(r->e, s), at = engine_position(r->e);
        char *id = bot_pick(r, s, &stop);
        if (!id) break;
        char *why = NULL;
        engine_decision_list asked = {0}; /* the options' labels, for `why` */
        if (options >= 2 && r->why && engine_decisions(r->e, &asked) != 0) asked.n = 0;
        engine_status st = answer_worded(r, s, id, &why);
        if (st == ENGINE_OK) repl_why_note(r, s, at, options, &asked); /* repl_why.c */
        engine_decision_list_free(&asked);
        if (st != ENGINE_OK) {
            repl_fail(r, repl_tr(r, "bot.failed"), r->bot[s], repl_seat_name(r, s), id,
                      why ? why : engine_status_name(st));
            free(why);
            free(id);
            break;
        }
        free(why);
        free(id);
        n++;
        r->changed = 1;
        r->dirty = 1;
        r->over_shown = 0;
        if (stop) repl_say(r, 0, "%s", repl_tr(r, "run.stopped_bot"));
    }
    if (n == CAIRN_REPL_MAX_BOT_RUN)
        repl_say(r, 0, repl_trn(r, "run.limit", CAIRN_REPL_MAX_BOT_RUN), CAIRN_REPL_MAX_BOT_RUN);
    return n;
}

void repl_present(repl *r) {
    size_t count = engine_event_count(r->e);
    for (int i = 0; i <= r->n_seats; i++)
        if (r->seen[i] > count) r->seen[i] = count;
    show_turn(r);
}

/* The label of seat's option id as offered now (malloc'd), or NULL. */
static char *option_label(repl *r, int seat, const char *id) {
    engine_decision_list dl = {0};
    if (engine_decisions(r->e, &dl) != 0) return NULL;
    char *label = NULL;
    for (size_t i = 0; i < dl.n && !label; i++)
        for (size_t k = 0; dl.items[i].seat == seat && k < dl.items[i].n_options && !label; k++)
            if (dl.items[i].options[k].label && strcmp(dl.items[i].options[k].id, id) == 0)
                label = cairn_strdup(dl.items[i].options[k].label);
    engine_decision_list_free(&dl);
    return label;
}

int repl_answer(repl *r, int seat, const char *id) {
    char *why = NULL;
    engine_status st = answer_worded(r, seat, id, &why);
    switch (st) {
    case ENGINE_OK:
        break;
    case ENGINE_DISABLED: {
        /* the option by its id in English, where ids are shown with the options;
        ** in another language by its label (the id is the ruleset's, in English) */
        char *label = strcmp(repl_lang(r), "en") != 0 ? option_label(r, seat, id) : NULL;
        repl_fail(r, repl_tr(r, "answer.unavailable"), label ? label : id, why ? why : repl_tr(r, "answer.disabled"));
        free(label);
        break;
    }
    case ENGINE_UNKNOWN:
        repl_fail(r, "%s", why ? why : repl_tr(r, "answer.no_option"));
        break;
    case ENGINE_RULES_ERROR:
        repl_fail(r, repl_tr(r, "answer.rules_failed"), id, why ? why : repl_tr(r, "answer.error"));
        break;
    default:
        repl_fail(r, repl_tr(r, "answer.refused"), id, why ? why : engine_status_name(st));
        break;
    }
    free(why);
    if (st != ENGINE_OK) return -1;
    r->changed = r->answered = 1;
    r->dirty = 1;
    r->over_shown = 0;
    /* what followed is told with the next board (repl_show_events) */
    if (r->auto_bots) repl_run_bots(r, 0);
    return 0;
}

/* ------------------------------------------------------ making games */

uint64_t repl_fresh_seed(const repl *r) {
    if (r->script) return r->set.seed + 1;
    uint64_t s = 0;
    int fd = open("/dev/urandom", O_RDONLY);
    if (fd >= 0) {
        if (read(fd, &s, sizeof s) != (ssize_t)sizeof s) s = 0;
        close(fd);
    }
    if (s == 0) s = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 16);
    return s % 1000000 + 1; /* short enough to type back */
}

static uint64_t fnv_file(const char *path, int *ok) {
    uint64_t h = 1469598103934665603ull;
    *ok = 0;
    char why[128];
    FILE *f = safe_fopen_read(path, NULL, why, sizeof why); /* never a FIFO or a device */
    if (!f) return 0;
    unsigned char buf[4096];
    size_t n, total = 0;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0 && total < (size_t)CAIRN_REPL_MAX_FILE_BYTES) {
        for (size_t i = 0; i < n; i++) h = (h ^ buf[i]) * 1099511628211ull;
        total += n;
    }
    fclose(f);
    *ok = 1;
    return h;
}

typedef struct file_list {
    repl_file *items;
    size_t n, cap;
} file_list;

static void walk(file_list *fl, const char *dir, const char *shown, int depth) {
    if (depth > 8) return;
    DIR *d = opendir(dir);
    if (!d) return;
    struct dirent *de;
    while ((de = readdir(d)) != NULL && fl->n < CAIRN_REPL_MAX_FILES) {
        if (de->d_name[0] == '.') continue;
        char *path = cairn_strfmt("%s/%s", dir, de->d_name);
        char *name = shown[0] ? cairn_strfmt("%s/%s", shown, de->d_name) : cairn_strdup(de->d_name);
        struct stat st;
        if (path && name && stat(path, &st) == 0) {
            if (S_ISDIR(st.st_mode)) {
                walk(fl, path, name, depth + 1);
            } else if (S_ISREG(st.st_mode)) {
                int ok;
                uint64_t h = fnv_file(path, &ok);
                if (ok && GROW(fl->items, fl->cap, fl->n + 1) == 0) {
                    fl->items[fl->n].path = name;
                    fl->items[fl->n].hash = h;
                    fl->n++;
                    name = NULL;
                }
            }
        }
        free(path);
        free(name);
    }
    closedir(d);
}

static int file_cmp(const void *a, const void *b) {
    return strcmp(((const repl_file *)a)->path, ((const repl_file *)b)->path);
}

void repl_snapshot_files(repl *r, repl_file **out, size_t *n) {
    file_list fl = {0};
    const ruleset *rs = engine_ruleset(r->e);
    for (size_t i = 0; rs && i < rs->n_module_dirs; i++) {
        const char *base = strrchr(rs->module_dirs[i], '/');
        base = base ? base + 1 : rs->module_dirs[i];
        walk(&fl, rs->module_dirs[i], i == 0 ? "" : base, 0);
    }
    if (fl.n) qsort(fl.items, fl.n, sizeof *fl.items, file_cmp);
    *out = fl.items;
    *n = fl.n;
}

void repl_free_files(repl_file *f, size_t n) {
    for (size_t i = 0; i < n; i++) free(f[i].path);
    free(f);
}

/* The console tells each seat what the others decided (repl_disclose.c):
** the engine keeps what each decision disclosed from now on, and a game
** loaded with decisions already made goes back and forth once to learn
** theirs (a replay from the checkpoints; the position is the same after). */
static void learn_disclosure(engine *e) {
    engine_set_disclosure(e, 1);
    size_t pos = engine_position(e);
    const engine_disclosure *d;
    if (pos == 0 || engine_disclosure_of(e, pos - 1, &d)) return;
    if (engine_goto(e, 0) != 0 || engine_goto(e, pos) != 0) engine_goto(e, pos); /* stays where it can */
}

/* Frees what belongs to the game being left: its seats' bots and what each
** seat has seen, the engine, the ruleset's file snapshot. The fields are
** left dangling: the caller replaces or drops the session. */
static void drop_game(repl *r) {
    if (r->bot)
        for (int i = 1; i <= r->n_seats; i++) free(r->bot[i]);
    free(r->bot);
    free(r->seen);
    free(r->seen_pos);
    engine_free(r->e);
    repl_free_files(r->files, r->n_files);
}

int repl_adopt_engine(repl *r, engine *e) {
    int n = engine_seat_count(e);
    char **bot = calloc((size_t)n + 1, sizeof *bot);
    size_t *seen = calloc((size_t)n + 1, sizeof *seen);
    size_t *seen_pos = calloc((size_t)n + 1, sizeof *seen_pos);
    if (!bot || !seen || !seen_pos) {
        free(bot);
        free(seen);
        free(seen_pos);
        return -1;
    }
    for (int i = 1; i <= n; i++) {
        const char *k = engine_seat_bot(e, i);
        if (k && !(bot[i] = strdup(k))) {
            for (int j = 1; j < i; j++) free(bot[j]);
            free(bot);
            free(seen);
            free(seen_pos);
            return -1;
        }
    }
    repl_free_brains(r);
    drop_game(r);
    r->e = e;
    repl_why_free(r); /* sized by the old seat count */
    r->n_seats = n;
    repl_why_reset(r); /* out of memory: `why` has nothing to tell, the game goes on */
    r->bot = bot;
    r->seen = seen;
    r->seen_pos = seen_pos;
    r->undone.by = 0; /* an undo in the game before is no news in this one */
    r->viewer = 0;
    for (int i = n; i >= 1; i--)
        if (!bot[i] && !r->server) r->viewer = i; /* serving: the console shows the public board */
    r->secret = ruleset_has_secrets(engine_ruleset(e));
    learn_disclosure(e);
    r->dirty = 0;
    r->over_shown = 0;
    r->changed = 1;
    repl_snapshot_files(r, &r->files, &r->n_files);
    repl_inspect_attach(r);
    return 0;
}

/* Seats without a --name are called by the console's "Seat N" in the
** game's language ("Platz 2"): the engine asks, once the language is known. */
static const char *seat_default_name(const char *lang) {
    return repl_text_in(lang, "seat.default", 0);
}

/* The language the person reads, for a game given no --lang: the locale's
** when the console speaks it and it is not English (the engine takes it when
** the ruleset ships it; else the ruleset's first language), else NULL. */
static const char *wanted_lang(const repl_settings *s) {
    const char *loc = repl_locale_lang();
    return s->lang || strcmp(loc, "en") == 0 ? NULL : loc;
}

/* Builds the engine for r->set with `players` seats (0: the default, and
** then no names or bots can be placed yet). */
static engine *make_engine(repl *r, int players, cerr_list *errs) {
    const repl_settings *s = &r->set;
    const char **names = NULL, **bots = NULL;
    if (players > 0 && (s->n_names || s->n_bots)) {
        names = calloc((size_t)players, sizeof *names);
        bots = calloc((size_t)players, sizeof *bots);
        if (!names || !bots) {
            free(names);
            free(bots);
            cerr_addk(errs, NULL, 0, 0, NULL, "oom", "out of memory");
            return NULL;
        }
        for (size_t i = 0; i < s->n_names; i++)
            if (s->name_seat[i] >= 1 && s->name_seat[i] <= players) names[s->name_seat[i] - 1] = s->name_val[i];
        for (size_t i = 0; i < s->n_bots; i++)
            if (s->bot_seat[i] >= 1 && s->bot_seat[i] <= players) bots[s->bot_seat[i] - 1] = s->bot_val[i];
    }
    engine_config cfg = {0};
    cfg.ruleset = s->ruleset;
    cfg.choices = (const char *const *)s->choices;
    cfg.n_choices = s->n_choices;
    cfg.sets = (const char *const *)s->sets;
    cfg.n_sets = s->n_sets;
    cfg.preset = s->preset;
    cfg.players = players;
    cfg.names = names;
    cfg.bots = bots;
    cfg.seed = s->seed;
    cfg.lang = s->lang;
    cfg.lang_wanted = wanted_lang(s);
    cfg.seat_name_format = seat_default_name;
    repl_inspect_config(r, &cfg); /* setup's g.debug lines, when debug is on */
    engine *e = engine_new(&cfg, errs);
    free(names);
    free(bots);
    return e;
}

/* --lang, or without it the locale, asked for a language the ruleset does
** not ship: the game is in its first language (engine_rules.c), and the
** person is told so in the one asked for (a German locale playing Yak reads
** why the game is English). */
static void note_language(repl *r) {
    const char *asked = r->set.lang ? r->set.lang : wanted_lang(&r->set), *got = engine_lang(r->e);
    if (!asked || !got || strcmp(asked, got) == 0) return;
    const ruleset *rs = engine_ruleset(r->e);
    const value *langs = value_map_get(rs->manifest, "languages");
    char list[128] = "";
    size_t used = 0;
    for (size_t i = 0; langs && langs->type == CV_LIST && i < langs->u.list.n; i++) {
        const value *one = langs->u.list.items[i];
        if (one->type != CV_STR || used >= sizeof list) continue;
        int w = snprintf(list + used, sizeof list - used, "%s%s", used ? ", " : "", one->u.str.s);
        if (w > 0) used += (size_t)w;
    }
    char *text = cairn_strfmt(repl_text_in(asked, "lang.not_shipped", 0), rs->name, asked, got,
                              used ? list : got);
    repl_plain(r, "%s", text ? text : "?");
    free(text);
}

/* Adds an error for each --name and --bot whose seat the game of n seats
** does not have; their number. */
static int seats_beyond(const repl *r, int n, cerr_list *errs) {
    char count[24], at[24];
    int bad = 0;
    snprintf(count, sizeof count, "%d", n);
    for (size_t i = 0; i < r->set.n_names; i++)
        if (r->set.name_seat[i] > n) {
            snprintf(at, sizeof at, "%d", r->set.name_seat[i]);
            cerr_addk(errs, NULL, 0, 0, NULL, "repl.name_no_seat", "--name %s=%s: no seat %s (the game has %s seats)",
                      at, r->set.name_val[i], at, count);
            bad++;
        }
    for (size_t i = 0; i < r->set.n_bots; i++)
        if (r->set.bot_seat[i] > n) {
            snprintf(at, sizeof at, "%d", r->set.bot_seat[i]);
            cerr_addk(errs, NULL, 0, 0, NULL, "repl.bot_no_seat", "--bot %s=%s: no seat %s (the game has %s seats)", at,
                      r->set.bot_val[i], at, count);
            bad++;
        }
    return bad;
}

int repl_new_game(repl *r) {
    cerr_list errs;
    cerr_init(&errs, 0);
    engine *e = NULL;
    /* a seat count given (--players, or the game's own at `new`): a name or
    ** bot for a seat beyond it is refused, never dropped without a word */
    if (r->set.players == 0 || seats_beyond(r, r->set.players, &errs) == 0) e = make_engine(r, r->set.players, &errs);
    if (e && (r->set.n_names || r->set.n_bots) && r->set.players == 0) {
        /* the seat count was the ruleset's default: now known, make it again
        ** with the names and bots in place */
        int n = engine_seat_count(e);
        engine_free(e);
        e = NULL;
        if (seats_beyond(r, n, &errs) == 0) e = make_engine(r, n, &errs);
    }
    if (!e || repl_adopt_engine(r, e) != 0) {
        if (e) cerr_addk(&errs, NULL, 0, 0, NULL, "oom", "out of memory");
        engine_free(e);
        fflush(r->out);
        print_errors(r, r->e ? r->out : stderr, &errs); /* before any game: a startup error */
        cerr_free(&errs);
        r->failures++;
        return -1;
    }
    cerr_free(&errs);
    note_language(r);
    return 0;
}

/* The first lines of a game: what is played, by whom, with which seed. */
static void show_header(repl *r) {
    const ruleset *rs = engine_ruleset(r->e);
    markup_buf h = {0};
    markup_buf_printf(&h, repl_trn(r, "header.game", r->n_seats), rs->name, rs->version, r->n_seats,
                      (unsigned long long)engine_seed(r->e));
    char *head = markup_buf_take(&h);
    repl_say(r, 2, "%s", head ? head : "?");
    free(head);
    markup_buf b = {0};
    for (int i = 1; i <= r->n_seats; i++) {
        char dflt[32], local[64];
        snprintf(dflt, sizeof dflt, "Seat %d", i);
        snprintf(local, sizeof local, repl_tr(r, "seat.default"), i);
        const char *name = repl_seat_name(r, i);
        markup_buf_printf(&b, "%s%s (", i > 1 ? ", " : "", name);
        if (strcmp(name, dflt) != 0 && strcmp(name, local) != 0) markup_buf_printf(&b, repl_tr(r, "header.seat_no"), i);
        if (r->bot[i]) markup_buf_printf(&b, repl_tr(r, "header.bot"), r->bot[i]);
        else markup_buf_puts(&b, repl_tr(r, "header.person"));
        markup_buf_puts(&b, ")");
    }
    char *s = markup_buf_take(&b);
    repl_plain(r, repl_tr(r, "header.seats"), s ? s : "?");
    free(s);
    repl_say(r, 2, "{dim}%s{/}", repl_tr(r, "header.hint"));
}

/* Starts play: header, bots that move first, then the first turn. */
static void start_game(repl *r) {
    show_header(r);
    for (int i = 1; i <= r->n_seats; i++) /* a bot refused for this game says so now */
        if (is_bot(r, i)) repl_brain(r, i);
    if (r->auto_bots) repl_run_bots(r, 0); /* setup's events are told with the first board */
    repl_present(r);
}

/* ------------------------------------------------------- input lines */

static char *trim(char *s) {
    while (isspace((unsigned char)*s)) s++;
    size_t n = strlen(s);
    while (n > 0 && isspace((unsigned char)s[n - 1])) s[--n] = '\0';
    return s;
}

/* The option of seat's decision that `text` names: an exact id, a number
** from the list, or a unique prefix. Returns the option index or -1; *why
** gets a malloc'd reason when text could name an option but does not name
** one (out of range, ambiguous). */
static long find_option(repl *r, int seat, const char *text, int exact_only, char **why) {
    *why = NULL;
    engine_decision_list dl = {0};
    if (engine_decisions(r->e, &dl) != 0) return -1;
    long found = answer_match(answer_decision_of(&dl, seat), text, exact_only, repl_tr(r, "answer.out_of_range"), why);
    engine_decision_list_free(&dl);
    return found;
}

static char *option_id(repl *r, int seat, long k) {
    engine_decision_list dl = {0};
    if (engine_decisions(r->e, &dl) != 0) return NULL;
    char *id = NULL;
    for (size_t i = 0; i < dl.n; i++)
        if (dl.items[i].seat == seat && k >= 0 && (size_t)k < dl.items[i].n_options)
            id = strdup(dl.items[i].options[k].id);
    engine_decision_list_free(&dl);
    return id;
}

/* How many options seat's decision has (0: not asked). */
static size_t options_of(repl *r, int seat) {
    engine_decision_list dl = {0};
    if (engine_decisions(r->e, &dl) != 0) return 0;
    size_t n = 0;
    for (size_t i = 0; i < dl.n; i++)
        if (dl.items[i].seat == seat) n = dl.items[i].n_options;
    engine_decision_list_free(&dl);
    return n;
}

/* A prefix that several options share ("market", "yeti"): those options
** listed with their numbers and labels, paged, so the person sees what each
** is (the engine's reason names only the ids). 0 when fewer than two. */
static int show_candidates(repl *r, int seat, const char *text) {
    engine_decision_list dl = {0};
    if (engine_decisions(r->e, &dl) != 0) return 0;
    const engine_decision *d = answer_decision_of(&dl, seat);
    size_t *idx = d && d->n_options ? malloc(d->n_options * sizeof *idx) : NULL;
    size_t n = idx ? answer_candidates(d, text, idx, d->n_options) : 0;
    if (n < 2) {
        free(idx);
        engine_decision_list_free(&dl);
        return 0;
    }
    int numw = number_width(d);
    int ids = strcmp(repl_lang(r), "en") == 0; /* the ids are English (show_decision) */
    repl_fail(r, repl_trn(r, "answer.could_be", (long long)n), text, n);
    repl_page_begin(r);
    for (size_t k = 0; k < n; k++) {
        const engine_option *op = &d->options[idx[k]];
        char *id = markup_escape(op->id);
        int both = ids && op->label && strcmp(op->label, op->id) != 0;
        markup_buf b = {0};
        if (op->disabled) markup_buf_puts(&b, "{dim}");
        markup_buf_printf(&b, "  %*zu  %s", numw, idx[k] + 1, !op->label || ids ? id ? id : "?" : op->label);
        if (both) markup_buf_printf(&b, "  %s", op->label);
        if (op->disabled) markup_buf_puts(&b, "{/}");
        free(id);
        char *line = markup_buf_take(&b);
        repl_say(r, 2 + numw + 2, "%s", line ? line : "(out of memory)");
        free(line);
    }
    repl_page_end(r);
    free(idx);
    engine_decision_list_free(&dl);
    return 1;
}

/* The commands word is a likely misspelling of, as the hint names them
** ("`save`", "`log` or `load`"), or NULL (also when out of memory: a hint
** is not worth an error). Freed by the caller. */
static char *near_hint(const repl *r, const char *word) {
    const char *near[2];
    size_t n = repl_near_commands(r, word, near);
    if (n == 0) return NULL;
    if (n == 1) return cairn_strfmt("`%s`", near[0]);
    return cairn_strfmt(repl_tr(r, "answer.near_two"), near[0], near[1]);
}

/* One `;`-separated part of a line. Returns 0 or -1. */
static int run_segment(repl *r, char *seg) {
    char *args = seg + strcspn(seg, " \t");
    char save = *args;
    *args = '\0';
    char word[64];
    snprintf(word, sizeof word, "%s", seg);
    *args = save;
    args = trim(args);
    int seat = r->replay ? 0 : repl_deciding_seat(r);
    char *why = NULL;
    /* a command that exists here wins over an option id spelt like it
    ** (an option `undo` is chosen by its number; cairn check refuses such
    ** ids): what a person types to take a move back must never make one */
    if (word[0] == ':' || repl_is_command(r, word)) {
        int rc = repl_command(r, word[0] == ':' ? word + 1 : word, args);
        if (rc != 1) return rc;
    }
    if (seat) {
        long k = find_option(r, seat, seg, 1, &why);
        if (k >= 0) {
            char *id = option_id(r, seat, k);
            int rc = id ? repl_answer(r, seat, id) : -1;
            free(id);
            return rc;
        }
    }
    if (seat) {
        long k = find_option(r, seat, seg, 0, &why);
        if (k >= 0) {
            char *id = option_id(r, seat, k);
            int rc = id ? repl_answer(r, seat, id) : -1;
            free(id);
            return rc;
        }
        /* the ruleset's own reading of the line (parse), a list of answers */
        char **ids = NULL, *pwhy = NULL;
        size_t n = 0;
        int pr = engine_parse_answer(r->e, seat, seg, &ids, &n, &pwhy);
        if (pr != 0) {
            free(why);
            int rc = pr < 0 ? -1 : 0;
            if (pr < 0) repl_fail(r, "%s", pwhy ? pwhy : "parse failed");
            for (size_t i = 0; pr > 0 && i < n && rc == 0; i++) {
                if (repl_deciding_seat(r) != seat) {
                    repl_plain(r, repl_trn(r, "line.rest_answers", (long long)(n - i)), n - i);
                    break;
                }
                rc = repl_answer(r, seat, ids[i]);
            }
            engine_parse_free(ids, n);
            free(pwhy);
            return rc;
        }
        if (why) {
            if (!show_candidates(r, seat, seg)) repl_fail(r, "%s", why);
            free(why);
            return -1;
        }
        engine_status st;
        char *ex = engine_explain(r->e, seat, seg, &st);
        if (st == ENGINE_UNKNOWN && strcmp(repl_lang(r), "en") != 0) {
            /* the engine names the ids, which are English: in another language
            ** the numbers and the labels are what a player types */
            free(ex);
            ex = cairn_strfmt(repl_tr(r, "answer.no_match"), seg, options_of(r, seat));
        }
        char *near = near_hint(r, word); /* "svae": save */
        if (near)
            repl_fail(r, repl_tr(r, "answer.near_command"), ex ? ex : repl_tr(r, "answer.no_option"), near);
        else if (strchr(seg, ' '))
            repl_fail(r, "%s", ex ? ex : repl_tr(r, "answer.no_option"));
        else
            repl_fail(r, repl_tr(r, "answer.or_command"), ex ? ex : repl_tr(r, "answer.no_option"));
        free(ex);
        free(near);
        return -1;
    }
    char *near = near_hint(r, word);
    if (r->replay && near)
        repl_fail(r, repl_tr(r, "help.no_command_near"), word, near);
    else if (r->replay)
        repl_fail(r, repl_tr(r, "help.no_command"), word);
    else if (near)
        repl_fail(r, repl_tr(r, "answer.nobody_asked_near"), word, near);
    else if (engine_is_over(r->e))
        repl_fail(r, repl_tr(r, "answer.game_over"), seg);
    else
        repl_fail(r, repl_tr(r, "answer.nobody_asked"), word);
    free(near);
    return -1;
}

/* run_segment and repl_present as repl_guarded runs them */
static int guarded_segment(repl *r, void *seg) { return run_segment(r, seg); }
static int guarded_present(repl *r, void *unused) {
    (void)unused;
    repl_present(r);
    return 0;
}

static void run_line(repl *r, char *line) {
    r->changed = r->answered = 0;
    line = trim(line);
    if (line[0] == '\0') {
        if (r->replay) repl_command(r, "next", "");
        return;
    }
    if (line[0] == '!') {
        repl_command(r, "shell", trim(line + 1));
    } else if (strncmp(line, "shell ", 6) == 0) {
        repl_command(r, "shell", trim(line + 6));
    } else {
        int secret_seat = r->secret && !r->replay ? repl_deciding_seat(r) : 0;
        char *p = line;
        while (p && !r->quit) {
            char *semi = strchr(p, ';');
            if (semi) *semi = '\0';
            char *seg = trim(p);
            p = semi ? semi + 1 : NULL;
            if (seg[0] == '\0') continue;
            if (repl_guarded(r, guarded_segment, seg) != 0) {
                if (p && *trim(p)) repl_plain(r, repl_tr(r, "line.rest"), trim(p));
                break;
            }
            /* any change of who decides (an answer, `bot`, `undo`, `goto`...) ends the
            ** line: what follows belongs to another seat */
            if (p && secret_seat && !engine_is_over(r->e) && repl_deciding_seat(r) != secret_seat) {
                /* the next answers belong to another seat, who must not see this screen */
                if (*trim(p)) repl_plain(r, repl_tr(r, "line.rest_turn"), trim(p));
                break;
            }
        }
    }
    if (r->changed && !r->quit && !r->replay) repl_guarded(r, guarded_present, NULL);
}

static char *make_prompt(repl *r) {
    if (r->replay) {
        size_t n;
        engine_log(r->e, &n);
        return cairn_strfmt("cairn:replay %zu/%zu> ", engine_position(r->e), n);
    }
    int s = repl_deciding_seat(r);
    if (!s) return cairn_strdup("cairn> ");
    char *name = termsafe_text(repl_seat_name(r, s)); /* seat names come from saves */
    char *p = name ? cairn_strfmt("cairn:%s> ", name) : NULL;
    free(name);
    return p;
}

/* Asks whether to save a changed game before leaving (repl_keep.c). Returns
** 1 to leave. At the end of a script's input nothing is asked. */
static int confirm_quit(repl *r, int at_eof) {
    if (r->script && at_eof) return 1;
    return repl_keep_game(r, "keep.leaving", 1);
}

/* Does the line start with a command word (rather than an answer)? */
static int line_is_command(const repl *r, const char *line) {
    (void)r;
    return console_word_starts(line);
}

static void session_loop(repl *r) {
    while (!r->quit && !repl_signal_ending()) {
        if (r->server) repl_serve_publish(r); /* every page sees what the game is now */
        if (r->interactive) r->width = markup_term_width(STDOUT_FILENO); /* it may have been resized */
        char *prompt = make_prompt(r);
        fflush(r->out);
        lineedit_status st;
        char *shown = r->color && prompt ? cairn_strfmt("\1\033[1m\1%.*s\1\033[0m\1 ", (int)strlen(prompt) - 1, prompt)
                                         : NULL;
        char *line = r->server ? repl_serve_ask(r, shown ? shown : prompt ? prompt : "cairn> ", &st)
                               : ask(r, shown ? shown : prompt ? prompt : "cairn> ", &st);
        free(shown);
        if (st == LINEEDIT_WAKE) { /* a page answered: the game moved (repl_serve.c) */
            free(prompt);
            repl_serve_moved(r);
            continue;
        }
        if (repl_signal_ending()) { /* the read was cut short: no "quit?" question */
            free(line);
            free(prompt);
            break;
        }
        if (st == LINEEDIT_INTERRUPT) {
            free(prompt);
            continue;
        }
        if (st != LINEEDIT_LINE) {
            free(prompt);
            if (!r->script) fputc('\n', r->out);
            if (confirm_quit(r, 1)) break;
            continue;
        }
        if (r->script) {
            char *shown_line = termsafe_text(line);
            fprintf(r->out, "%s%s\n", prompt ? prompt : "cairn> ", shown_line ? shown_line : "");
            free(shown_line);
        }
        free(prompt);
        /* in a game with secrets, an answer must not come back with the up
        ** arrow for the next seat (nor reach the history file): only
        ** commands are remembered */
        if (!r->secret || line_is_command(r, line)) lineedit_history_add(r->le, line);
        run_line(r, line);
        free(line);
        if (r->quit && !confirm_quit(r, 0)) r->quit = 0;
        if (!r->quit) repl_recovery_update(r); /* a typed game is never lost (repl_recovery.c) */
    }
    fflush(r->out);
}

/* --------------------------------------------------------- arguments */

static void settings_free(repl_settings *s) {
    free(s->ruleset);
    for (size_t i = 0; i < s->n_choices; i++) free(s->choices[i]);
    free(s->choices);
    for (size_t i = 0; i < s->n_sets; i++) free(s->sets[i]);
    free(s->sets);
    free(s->preset);
    for (size_t i = 0; i < s->n_names; i++) free(s->name_val[i]);
    free(s->name_seat);
    free(s->name_val);
    for (size_t i = 0; i < s->n_bots; i++) free(s->bot_val[i]);
    free(s->bot_seat);
    free(s->bot_val);
    free(s->lang);
    memset(s, 0, sizeof *s);
}

typedef struct play_args {
    int undo;
    const char *load;
    int resume;        /* --resume: the newest recovery file (repl_recovery.c) */
    const char *script;
    int strict;
    int trust;
    int seed_given;
    /* cairn serve: its name and usage in messages, --bind, --port */
    const char *cmd, *usage;
    int serving;
    const char *bind;
    int port;
} play_args;

/* A usage error of `cairn play` or `cairn replay` in lang (the catalogue's
** `key`, one %s for arg; "usage.plain" passes a text through), then the
** usage line. */
static int usage(const char *lang, const char *cmd, const char *usage_text, const char *key, const char *arg) {
    fprintf(stderr, "cairn %s: ", cmd);
    fprintf(stderr, repl_text_in(lang, key, 0), arg);
    fputc('\n', stderr);
    /* the usage text is flags, as typed, but for its one phrase */
    const char *asks = strstr(usage_text, REPL_PLAY_ASKS);
    char *worded = asks ? cairn_strfmt("%.*s%s%s", (int)(asks - usage_text), usage_text,
                                       repl_text_in(lang, "usage.asks", 0), asks + strlen(REPL_PLAY_ASKS))
                        : NULL;
    fprintf(stderr, repl_text_in(lang, "usage.line", 0), worded ? worded : usage_text);
    free(worded);
    fputc('\n', stderr);
    return EXIT_USAGE;
}

/* The language of a usage error: --lang's when it came before, else the
** locale's (repl_text.h). */
static const char *usage_lang(const repl_settings *s) {
    return s->lang ? s->lang : repl_locale_lang();
}

int repl_add_seat_pair(const char *arg, int **seats, char ***vals, size_t *n) {
    const char *eq = strchr(arg, '=');
    if (!eq || eq == arg || !eq[1]) return -1;
    char *end;
    long seat = strtol(arg, &end, 10);
    if (end != eq || seat < 1 || seat > 64) return -1;
    int *s2 = realloc(*seats, (*n + 1) * sizeof *s2);
    if (!s2) return -2;
    *seats = s2;
    char **v2 = realloc(*vals, (*n + 1) * sizeof *v2);
    if (!v2) return -2;
    *vals = v2;
    if (!((*vals)[*n] = strdup(eq + 1))) return -2;
    (*seats)[*n] = (int)seat;
    (*n)++;
    return 0;
}

/* Why kind names no bot, in lang (malloc'd), or NULL when it does. */
static char *bad_bot(const char *lang, const char *kind) {
    cerr_list errs;
    cerr_init(&errs, 0);
    char *m = NULL;
    if (bot_spec_valid(kind, &errs) != 0)
        m = errs.n ? repl_error_text_in(lang, &errs.items[0]) : cairn_strdup(repl_text_in(lang, "error.oom", 0));
    cerr_free(&errs);
    return m;
}


/* Why a seat name cannot be used, or NULL. Names are shown in prompts, on
** the board and in saves: no markup braces or control bytes (they would
** colour or rewrite the screen), not blank, at most 40 characters, and not
** a word the commands give a meaning to ("spectator", "Seat N"). */
static const char *bad_seat_name(const char *name) {
    size_t chars = 0;
    int blank = 1;
    for (const unsigned char *p = (const unsigned char *)name; *p; p++) {
        if (*p < 0x20 || *p == 0x7f) return "control characters are not allowed";
        if (*p == '{' || *p == '}') return "{ and } are markup, not allowed in a name";
        if (*p != ' ') blank = 0;
        if ((*p & 0xc0) != 0x80) chars++;
    }
    if (blank) return "a name cannot be blank";
    if (chars > 40) return "a name has at most 40 characters";
    if (strcasecmp(name, "spectator") == 0) return "\"spectator\" means seat 0 in commands";
    int n;
    char rest;
    if (sscanf(name, "Seat %d%c", &n, &rest) == 1 || sscanf(name, "seat %d%c", &n, &rest) == 1)
        return "\"Seat N\" is how seats without a name are called";
    return NULL;
}

static int parse_play_flags(int argc, char **argv, repl_settings *s, play_args *a, ruleset_flags *fl);

/* The choices, preset and seat count read by ruleset_flags_take, copied
** into the settings (which own their strings). 0 or EXIT_FAIL (OOM). */
static int settings_take_flags(repl_settings *s, const ruleset_flags *f) {
    for (size_t i = 0; i < f->n_choices; i++) {
        char **c = realloc(s->choices, (s->n_choices + 1) * sizeof *c);
        if (!c) return EXIT_FAIL;
        s->choices = c;
        if (!(c[s->n_choices] = strdup(f->choices[i]))) return EXIT_FAIL;
        s->n_choices++;
    }
    for (size_t i = 0; i < f->n_sets; i++) {
        char **c = realloc(s->sets, (s->n_sets + 1) * sizeof *c);
        if (!c) return EXIT_FAIL;
        s->sets = c;
        if (!(c[s->n_sets] = strdup(f->sets[i]))) return EXIT_FAIL;
        s->n_sets++;
    }
    if (f->preset) {
        free(s->preset);
        if (!(s->preset = strdup(f->preset))) return EXIT_FAIL;
    }
    if (f->players) s->players = f->players;
    return 0;
}

static int parse_play_args(int argc, char **argv, repl_settings *s, play_args *a) {
    /* --option, --preset and --players are read as check and sim read them,
    ** then copied into the settings `new` and `restart` reuse */
    ruleset_flags flags;
    if (ruleset_flags_init(&flags, argc) != 0) return EXIT_FAIL;
    int rc = parse_play_flags(argc, argv, s, a, &flags);
    if (rc == 0) rc = settings_take_flags(s, &flags);
    ruleset_flags_free(&flags);
    return rc;
}

/* One flag or argument of `cairn play` (cli_next read it). */
static int take_play_flag(const cli_item *it, repl_settings *s, play_args *a, ruleset_flags *fl) {
    const char *cmd = a->cmd, *v = it->values[0];
    cerr_list errs;
    cerr_init(&errs, 0);
    int taken = ruleset_flags_apply(fl, it, &errs);
    if (taken < 0) { /* worded in --lang's language, else the locale's */
        char *why = errs.n ? repl_error_message_in(usage_lang(s), &errs.items[0]) : NULL;
        int rc = usage(usage_lang(s), cmd, a->usage, "usage.plain", why ? why : repl_text_in(usage_lang(s), "error.oom", 0));
        free(why);
        cerr_free(&errs);
        return rc;
    }
    cerr_free(&errs);
    if (taken) return EXIT_OK;
    if (cli_is(it, "strict")) {
        a->strict = 1;
    } else if (cli_is(it, "resume")) {
        a->resume = 1;
    } else if (cli_is(it, "trust")) {
        a->trust = 1;
    } else if (cli_is(it, "undo")) {
        if (undo_policy_parse(v, &a->undo) != 0)
            return usage(usage_lang(s), cmd, a->usage, "usage.undo", v);
    } else if (cli_is(it, "seed")) {
        char *end;
        errno = 0;
        unsigned long long n = strtoull(v, &end, 10);
        if (*end || !v[0] || v[0] == '-' || errno)
            return usage(usage_lang(s), cmd, a->usage, "usage.seed", v);
        s->seed = n;
        a->seed_given = 1;
    } else if (cli_is(it, "bot")) {
        int rc = repl_add_seat_pair(v, &s->bot_seat, &s->bot_val, &s->n_bots);
        if (rc == -2) return EXIT_FAIL;
        if (rc < 0) return usage(usage_lang(s), cmd, a->usage, "usage.bot", v);
        char *bad = bad_bot(usage_lang(s), s->bot_val[s->n_bots - 1]);
        if (bad) {
            int urc = usage(usage_lang(s), cmd, a->usage, "usage.plain", bad);
            free(bad);
            return urc;
        }
    } else if (cli_is(it, "name")) {
        int rc = repl_add_seat_pair(v, &s->name_seat, &s->name_val, &s->n_names);
        if (rc == -2) return EXIT_FAIL;
        if (rc < 0) return usage(usage_lang(s), cmd, a->usage, "usage.name", v);
    } else if (cli_is(it, "lang")) {
        free(s->lang);
        if (!(s->lang = strdup(v))) return EXIT_FAIL;
    } else if (cli_is(it, "port")) {
        char *end;
        long port = strtol(v, &end, 10);
        if (!v[0] || *end || port < 0 || port > 65535)
            return usage(usage_lang(s), cmd, a->usage, "usage.port", v);
        a->port = (int)port;
    } else if (cli_is(it, "bind")) {
        a->bind = v;
    } else if (cli_is(it, "load")) {
        a->load = v;
    } else if (cli_is(it, "script")) {
        a->script = v;
    } else if (!s->ruleset) {
        if (!(s->ruleset = strdup(v))) return EXIT_FAIL;
    } else {
        return usage(usage_lang(s), cmd, a->usage, "usage.one_ruleset", v);
    }
    return EXIT_OK;
}

static int parse_play_flags(int argc, char **argv, repl_settings *s, play_args *a, ruleset_flags *fl) {
    const char *cmd = a->cmd;
    cli_parser p;
    cli_item it;
    char *why;
    int got;
    cli_start(&p, argc, argv, a->serving ? repl_serve_flag_tables : repl_play_flag_tables);
    while ((got = cli_next(&p, &it, &why)) > 0) {
        int rc = take_play_flag(&it, s, a, fl);
        if (rc != EXIT_OK) return rc;
    }
    if (got < 0) {
        char *worded = repl_cli_error_in(usage_lang(s), &p, why);
        int rc = usage(usage_lang(s), cmd, a->usage, "usage.plain",
                       worded ? worded : why ? why : "out of memory");
        free(worded);
        free(why);
        return rc;
    }
    for (size_t i = 0; i < s->n_names; i++) {
        const char *bad = bad_seat_name(s->name_val[i]);
        for (size_t k = 0; !bad && k < i; k++)
            if (strcasecmp(s->name_val[k], s->name_val[i]) == 0 && s->name_seat[k] != s->name_seat[i])
                bad = "another seat already has this name";
        if (bad) {
            char *msg = cairn_strfmt("--name %d=%s: %s", s->name_seat[i], s->name_val[i], bad);
            int rc = usage(usage_lang(s), cmd, a->usage, "usage.plain", msg ? msg : bad);
            free(msg);
            return rc;
        }
    }
    if (a->load && s->ruleset)
        return usage(usage_lang(s), cmd, a->usage, "usage.load_ruleset", s->ruleset);
    if (a->resume && (s->ruleset || a->load))
        return usage(usage_lang(s), cmd, a->usage, "usage.resume_ruleset",
                     a->load ? "--load" : s->ruleset);
    return EXIT_OK;
}

/* ------------------------------------------------------------ sessions */

/* Sets up output and input for a session. Returns 0 or -1. */
static int open_session(repl *r, const char *script, int strict) {
    r->out = stdout;
    r->strict = strict;
    r->auto_bots = 1;
    if (script) {
        r->in = fopen(script, "r");
        if (!r->in) {
            fprintf(stderr, "cairn: cannot read the script %s: %s\n", script, strerror(errno));
            return -1;
        }
    } else {
        r->in = stdin;
    }
    /* three cases: script mode (input not typed); a terminal on both sides
    ** (libedit, colour); typed input with the output going elsewhere (`| tee`:
    ** plain prompts, no echo) */
    r->script = script || !isatty(STDIN_FILENO);
    r->interactive = !r->script && isatty(STDOUT_FILENO);
    const char *nc = getenv("NO_COLOR");
    r->color = r->interactive && isatty(STDOUT_FILENO) && !(nc && nc[0]);
    /* the REPL's own colours and screen clears are the only escapes that
    ** may reach the terminal, and only a terminal it talks to */
    termsafe_allow_styling(r->interactive);
    r->width = markup_term_width(STDOUT_FILENO);
    char *hist = r->interactive ? lineedit_history_path() : NULL;
    r->le = lineedit_new("cairn", r->in, r->interactive, hist, repl_complete, r);
    free(hist);
    if (!r->le) {
        fprintf(stderr, "cairn: cannot start the line editor\n");
        return -1;
    }
    if (!r->script) lineedit_catch_interrupt();
    repl_signal_catch(); /* SIGTERM, SIGHUP: a recovery save, never a question */
    return 0;
}

static void close_session(repl *r) {
    repl_serve_close(r); /* its threads end before the game they wait for */
    repl_free_brains(r);
    lineedit_free(r->le);
    if (r->in && r->in != stdin) fclose(r->in);
    drop_game(r);
    free(r->save_path);
    free(r->recovery);
    repl_forced_free(r);
    repl_why_free(r);
    settings_free(&r->set);
}

static int session_status(const repl *r) {
    return r->strict && r->failures ? EXIT_FAIL : EXIT_OK;
}

/* `cairn play --resume`: the newest recovery file (repl_recovery.c) is
** loaded, becomes this session's recovery copy, and counts as not saved
** (quit asks, and `save` offers a name of its own, not the recovery file). */
static int resume(repl *r) {
    char *path = NULL, *dir = NULL;
    size_t others = 0;
    if (repl_recovery_newest(&path, &others, &dir) != 0) {
        fprintf(stderr, "cairn play: out of memory\n");
        free(dir);
        return -1;
    }
    if (!path) {
        fprintf(stderr, "cairn play --resume: no interrupted game to resume in %s\n", dir ? dir : "(no state folder: set HOME)");
        free(dir);
        return -1;
    }
    int rc = repl_command(r, "load", path);
    if (rc == 0) {
        if (others)
            repl_plain(r, repl_trn(r, "resume.others", (long long)others), others, dir);
        free(r->save_path);
        r->save_path = NULL;
        r->dirty = 1;
        if (repl_recovery_adopt(r, path) != 0) rc = -1;
    }
    free(path);
    free(dir);
    return rc;
}

/* `cairn play` and `cairn serve` (serving: the seats' pages too). */
static int play_main(int argc, char **argv, int serving) {
    repl r;
    memset(&r, 0, sizeof r);
    play_args a = {0};
    a.serving = serving;
    a.cmd = serving ? "serve" : "play";
    a.usage = serving ? REPL_SERVE_USAGE : REPL_PLAY_USAGE;
    a.bind = "127.0.0.1";
    int rc = parse_play_args(argc, argv, &r.set, &a);
    if (rc != EXIT_OK) {
        if (rc == EXIT_FAIL) fprintf(stderr, "cairn %s: out of memory\n", a.cmd);
        settings_free(&r.set);
        return rc;
    }
    if (open_session(&r, a.script, a.strict) != 0) {
        close_session(&r);
        return EXIT_FAIL;
    }
    /* serving, the console's wait watches the pages' requests too: typed
    ** input read a byte at a time, so that no line waits in a buffer the
    ** wait cannot see (lineedit_read_wake) */
    if (serving && !r.interactive) setvbuf(r.in, NULL, _IONBF, 0);
    r.trust = a.trust;
    r.undo = a.undo;
    if (!a.seed_given) r.set.seed = r.script ? REPL_SCRIPT_SEED : repl_fresh_seed(&r);
    if (a.resume) {
        if (resume(&r) != 0) {
            close_session(&r);
            return EXIT_FAIL;
        }
    } else if (a.load) {
        if (repl_command(&r, "load", a.load) != 0) {
            close_session(&r);
            return EXIT_FAIL;
        }
    } else {
        if (!r.set.ruleset && repl_setup_ask(&r) != 0) { /* repl_setup.c */
            close_session(&r);
            return EXIT_FAIL;
        }
        if (repl_new_game(&r) != 0) {
            close_session(&r);
            return EXIT_FAIL;
        }
        if (serving && repl_serve_open(&r, a.bind, a.port) != 0) {
            close_session(&r);
            return EXIT_FAIL;
        }
        start_game(&r);
    }
    if (serving && !r.server && repl_serve_open(&r, a.bind, a.port) != 0) { /* a loaded game */
        close_session(&r);
        return EXIT_FAIL;
    }
    session_loop(&r);
    /* ended as asked: the recovery copy goes once nothing is unsaved or the
    ** person let the game go; else (the input ended at the question) it stays */
    if (!repl_signal_ending() && (!r.dirty || r.let_go)) repl_recovery_drop(&r);
    rc = repl_signal_ending() ? repl_signal_recover(r.e, repl_lang(&r), stderr) : session_status(&r);
    close_session(&r);
    repl_hard_stop_end(rc);
    return rc;
}

int repl_play_main(int argc, char **argv) {
    return play_main(argc, argv, 0);
}

int repl_serve_main(int argc, char **argv) {
    return play_main(argc, argv, 1);
}

/* ---------------------------------------------- shared with repl_cmd.c */

void repl_start(repl *r) {
    start_game(r);
}

int repl_replay_main(int argc, char **argv) {
    const char *save = NULL, *script = NULL;
    int strict = 0, trust = 0;
    cli_parser p;
    cli_item it;
    char *why;
    int got;
    cli_start(&p, argc, argv, repl_replay_flag_tables);
    while ((got = cli_next(&p, &it, &why)) > 0) {
        if (cli_is(&it, "strict")) strict = 1;
        else if (cli_is(&it, "trust")) trust = 1;
        else if (cli_is(&it, "script")) script = it.values[0];
        else if (!save) save = it.values[0];
        else return usage(repl_locale_lang(), "replay", REPL_REPLAY_USAGE, "usage.one_save", it.values[0]);
    }
    if (got < 0) {
        char *worded = repl_cli_error_in(repl_locale_lang(), &p, why);
        int rc = usage(repl_locale_lang(), "replay", REPL_REPLAY_USAGE, "usage.plain",
                       worded ? worded : why ? why : "out of memory");
        free(worded);
        free(why);
        return rc;
    }
    if (!save) return usage(repl_locale_lang(), "replay", REPL_REPLAY_USAGE, "usage.which_save", "");
    repl r;
    memset(&r, 0, sizeof r);
    if (open_session(&r, script, strict) != 0) {
        close_session(&r);
        return EXIT_FAIL;
    }
    r.replay = 1;
    r.trust = trust;
    r.auto_bots = 0;
    if (repl_command(&r, "load", save) != 0) {
        close_session(&r);
        return EXIT_FAIL;
    }
    session_loop(&r);
    int rc = repl_signal_ending() ? repl_signal_recover(r.e, repl_lang(&r), stderr) : session_status(&r);
    close_session(&r);
    repl_hard_stop_end(rc);
    return rc;
}
