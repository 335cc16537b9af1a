/*
** markup.h
** The colour markup of ruleset text ({red}, {bold}, {/} ... and {{ for a
** literal brace), turned into ANSI escapes for a terminal or stripped for
** everything else; display widths of UTF-8 text; width-aware wrapping, and
** printing a text fitted to a terminal. Nothing here keeps state.
*/
#ifndef CAIRN_MARKUP_H
#define CAIRN_MARKUP_H

#include <stddef.h>
#include <stdio.h>
#include <stdint.h>

/* Renders src: each known tag becomes its ANSI escape (ansi != 0) or
** vanishes (ansi == 0); "{{" becomes "{"; anything else in braces ({x},
** {1,2}) is left as written, so tables printed by Lua survive. With ansi,
** a reset is appended when a style is still open at the end. Returns a
** malloc'd string, or NULL on OOM. */
char *markup_render(const char *src, int ansi);

/* Text that markup_render gives back unchanged: every "{" doubled.
** Malloc'd, NULL on OOM. Use it for file names, ids typed by users and
** other text that is not markup. */
char *markup_escape(const char *s);

/* Terminal columns taken by s[0..len): UTF-8 decoded, ANSI escape
** sequences skipped, combining marks 0 wide, East Asian wide and emoji 2
** wide (a fixed table, not the locale's, so output never depends on it). */
size_t markup_width(const char *s, size_t len);
/* The columns one code point takes: 2 for East Asian wide and fullwidth
** ones (emoji such as U+26FA, U+2705, U+1F680 among them), 0 for control
** characters, combining marks and format characters, else 1 (the table is
** made from the Unicode data: tools/gen-width-table). */
size_t markup_cp_width(uint32_t c);

/* Wraps every line of s (plain or ANSI text, after markup_render) to at
** most width columns, breaking at spaces; a continuation line starts with
** `indent` spaces. A word longer than the line is put alone on its line,
** never split. width <= 0 means no wrapping. Malloc'd, NULL on OOM. */
char *markup_wrap(const char *s, int width, int indent);

/* A growing string, for building output: zero-initialise, append, take
** or free. Appending after an OOM does nothing; markup_buf_take then
** returns NULL, so one check at the end is enough. */
typedef struct markup_buf {
    char *s;
    size_t len, cap;
    int oom;
} markup_buf;

void markup_buf_add(markup_buf *b, const char *s, size_t len);
void markup_buf_puts(markup_buf *b, const char *s);
void markup_buf_printf(markup_buf *b, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* The text (malloc'd, "" when nothing was added), or NULL after an OOM;
** the buffer is empty again afterwards either way. */
char *markup_buf_take(markup_buf *b);
void markup_buf_free(markup_buf *b);

/* Columns of the terminal on fd (TIOCGWINSZ), else $COLUMNS, else 80;
** never below 20. */
int markup_term_width(int fd);
/* markup_term_width when fd is a terminal, else 0 (no limit): output to a
** file or a pipe, which scripts and the docs read, keeps its lines whole
** (cairn sim's report, cairn check's verdict). */
int markup_tty_width(int fd);
/* text to out, each line wider than width (<= 0: none) wrapped, its
** continuation indented two more than the line; the rest as it is. */
void markup_print_fitted(FILE *out, const char *text, int width);

#endif
