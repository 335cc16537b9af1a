/*
** status_line.h
** A transient line at the bottom of a terminal, redrawn in place (a bot's
** spinner, the sim's progress bar) and never written anywhere else.
*/
#ifndef CAIRN_STATUS_LINE_H
#define CAIRN_STATUS_LINE_H

#include <stdio.h>

typedef struct status_line {
    FILE *f;   /* the stream the line belongs to (flushed before each draw) */
    int fd;    /* its terminal; -1 when it is not one: nothing is drawn */
    int shown; /* a line is on screen */
} status_line;

/* Binds s to f (stdout or stderr, wrapped by termsafe_install or not).
** Returns 1 when f is a terminal, where the line will be drawn; 0 (a pipe,
** a file) and every later call does nothing. */
int status_line_open(status_line *s, FILE *f);

/* Draws text (made safe, cut to the terminal's width less one column so
** that it never wraps) over the previous line: "\r" text "ESC[K", the only
** control sequences written, straight to the terminal. */
void status_line_show(status_line *s, const char *text);

/* Erases the line if one is shown ("\r" "ESC[K"), leaving the cursor at the
** start of the empty line. */
void status_line_clear(status_line *s);

/* Ends the line where it is: a newline after it, so it stays on screen. */
void status_line_keep(status_line *s);

#endif
