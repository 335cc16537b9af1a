/*
** termsafe.h
** Text made safe for a terminal: control bytes, C1 and bidi controls and
** bytes that are not UTF-8 shown as visible text (termsafe.c has the rule).
*/
#ifndef CAIRN_TERMSAFE_H
#define CAIRN_TERMSAFE_H

#include <stdio.h>

/* A copy of s with every unsafe unit made visible (ESC -> "^[", U+202E ->
** "<U+202E>", a stray 0xFF -> "\xFF"); tab and newline are kept. Caller
** frees; NULL when out of memory or s is NULL. */
char *termsafe_text(const char *s);

/* 1 if termsafe_text would return s unchanged. */
int termsafe_is_safe(const char *s);

/* Makes stdout and stderr sanitizing streams over file descriptors 1 and 2
** for the rest of the process (stdout line-buffered on a terminal, else
** fully; stderr unbuffered, as before). Call once, first thing in main. Returns
** 0, or -1 (the streams are then left as they were). */
int termsafe_install(void);

/* Whether stdout lets cairn's own styling through: only sequences that
** start with termsafe_escape_start(), then digits and ';', then m, H, J or
** K (the mark is removed); nothing else ever passes. The REPL turns it on
** when it colours a terminal. Off at the start. */
void termsafe_allow_styling(int on);

/* How cairn starts an escape sequence of its own (where a terminal wants
** ESC [): after termsafe_install, ESC [ < and this process's secret and
** ';', which the stream checks and removes; before it, plain ESC [. */
const char *termsafe_escape_start(void);

/* The UTF-8 sequence at s (n bytes): its length (1 to 4) and code point in
** *cp, or 0 when the bytes there are not valid UTF-8. */
int termsafe_utf8(const char *s, size_t n, unsigned long *cp);

/* 1 for a code point shown as <U+XXXX>: C1 controls and the format
** characters a terminal or reader may obey invisibly (bidi embeddings,
** overrides and isolates, marks, line and paragraph separators, BOM). */
int termsafe_cp_hidden(unsigned long cp);

/* The stdout cairn started with, for the line editor (it needs the
** terminal's own FILE); stdout when termsafe_install was not called. */
FILE *termsafe_raw_stdout(void);

/* The file descriptor f writes to: 1 or 2 for the wrapped stdout and
** stderr (whose fileno is -1), else fileno(f). For isatty, and for the
** status line (status_line.c), which alone writes control sequences of
** its own straight to a terminal. */
int termsafe_fd(FILE *f);

#endif
