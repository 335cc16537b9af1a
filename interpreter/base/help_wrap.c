/*
** help_wrap.c
** A command's --help text fitted to the terminal. The texts are written by
** hand for a wide terminal, as usage lines, option rows ("  --flag X   what
** it does") and prose; a line that does not fit is broken at its last space
** that fits, and the words left over go on to the line that continues it
** (the next line indented as the broken line's hanging part), or onto lines
** of their own at that indent. Lines that fit are left as written, so the
** hand-made breaks ("Exit status: ...") stay.
*/
#include "help_wrap.h"

#include "markup.h"

#include <stdlib.h>
#include <string.h>

static size_t leading_spaces(const char *s, size_t len) {
    size_t i = 0;
    while (i < len && s[i] == ' ') i++;
    return i;
}

/* A usage line: "usage: cairn play ..." or a further form "   cairn play
** --load ..." (a new form, never the continuation of the one before). */
static int usage_form(const char *s, size_t len) {
    size_t ind = leading_spaces(s, len);
    return (len - ind > 7 && strncmp(s + ind, "usage: ", 7) == 0) ||
           (len - ind > 6 && strncmp(s + ind, "cairn ", 6) == 0);
}

/* Where the continuation of a broken line starts: the next line's indent
** when it is indented deeper (it continues this one); for a usage line the
** column after "usage: cairn COMMAND "; for an option row the column of its
** description (after the first gap of two spaces); else the line's own. */
static size_t hanging_indent(const char *s, size_t len, const char *next, size_t next_len) {
    size_t ind = leading_spaces(s, len);
    size_t next_ind = next ? leading_spaces(next, next_len) : 0;
    if (next && next_ind < next_len && next_ind > ind && !usage_form(next, next_len)) return next_ind;
    if (usage_form(s, len)) {
        /* after "cairn COMMAND " (and "usage: " before it) */
        size_t words = 0, of = strncmp(s + ind, "usage: ", 7) == 0 ? 3 : 2;
        for (size_t i = ind; i < len; i++)
            if (s[i] == ' ' && (i == 0 || s[i - 1] != ' ') && ++words == of) return i + 1;
        return ind;
    }
    if (ind > 0) {
        const char *gap = NULL;
        for (size_t i = ind; i + 1 < len; i++)
            if (s[i] == ' ' && s[i + 1] == ' ') {
                gap = s + i;
                break;
            }
        if (gap) {
            size_t i = (size_t)(gap - s);
            while (i < len && s[i] == ' ') i++;
            if (i < len) return i;
        }
    }
    return ind;
}

/* The bytes of s (len, wider than width) up to its last space that leaves
** it within width, never less than its first word after the indent. */
static size_t fitting_prefix(const char *s, size_t len, int width) {
    size_t i = leading_spaces(s, len), cut = 0, col = i;
    while (i < len) {
        size_t word = i;
        while (i < len && s[i] != ' ') i++;
        col += markup_width(s + word, i - word);
        if (col > (size_t)width && cut > 0) return cut;
        cut = i;
        size_t sp = i;
        while (i < len && s[i] == ' ') i++;
        col += i - sp;
    }
    return len;
}

static void add_spaces(markup_buf *b, size_t n) {
    for (size_t k = 0; k < n; k++) markup_buf_add(b, " ", 1);
}

/* Words left over from a broken line, on lines of their own at hang. */
static void flush(markup_buf *out, const char *carry, size_t hang, int width) {
    markup_buf line = {0};
    add_spaces(&line, hang);
    markup_buf_puts(&line, carry);
    char *s = markup_buf_take(&line);
    char *w = s ? markup_wrap(s, width, (int)hang) : NULL;
    markup_buf_puts(out, w ? w : s ? s : carry);
    markup_buf_add(out, "\n", 1);
    free(w);
    free(s);
}

char *help_wrap(const char *text, int width) {
    if (width <= 0) return strdup(text);
    markup_buf out = {0};
    char *carry = NULL; /* the words a broken line left over */
    size_t carry_hang = 0;
    const char *p = text;
    while (*p) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        const char *next = nl && nl[1] ? nl + 1 : NULL;
        size_t next_len = next ? strcspn(next, "\n") : 0;
        markup_buf cur = {0};
        size_t ind = leading_spaces(p, len);
        if (carry && ind < len && ind == carry_hang && !usage_form(p, len)) {
            /* this line continues the broken one: the left-over words first */
            add_spaces(&cur, ind);
            markup_buf_puts(&cur, carry);
            markup_buf_add(&cur, " ", 1);
            markup_buf_add(&cur, p + ind, len - ind);
        } else {
            if (carry) flush(&out, carry, carry_hang, width);
            markup_buf_add(&cur, p, len);
        }
        free(carry);
        carry = NULL;
        char *line = markup_buf_take(&cur);
        if (!line) break;
        size_t n = strlen(line);
        if (markup_width(line, n) <= (size_t)width) {
            markup_buf_add(&out, line, n);
            markup_buf_add(&out, "\n", 1);
        } else {
            size_t cut = fitting_prefix(line, n, width);
            carry_hang = hanging_indent(line, n, next, next_len);
            if (carry_hang >= (size_t)width) carry_hang = (size_t)width / 2;
            markup_buf_add(&out, line, cut);
            markup_buf_add(&out, "\n", 1);
            size_t rest = cut;
            while (rest < n && line[rest] == ' ') rest++;
            if (rest < n) carry = strdup(line + rest);
        }
        free(line);
        if (!nl) break;
        p = nl + 1;
    }
    if (carry) flush(&out, carry, carry_hang, width);
    free(carry);
    char *s = markup_buf_take(&out);
    /* the text's own last newline, or none, as it was */
    size_t n = s ? strlen(s) : 0, tn = strlen(text);
    if (s && n > 0 && s[n - 1] == '\n' && (tn == 0 || text[tn - 1] != '\n')) s[n - 1] = '\0';
    return s;
}
