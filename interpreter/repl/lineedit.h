/*
** lineedit.h
** Reading command lines: libedit (history kept across sessions, tab
** completion through a callback, Ctrl-C cancels the line) when the input
** is a terminal, plain getline otherwise (script mode).
*/
#ifndef CAIRN_LINEEDIT_H
#define CAIRN_LINEEDIT_H

#include <stddef.h>
#include <stdio.h>

typedef struct lineedit lineedit;

/* Completion: given the line up to the cursor (line[0..cursor)), returns
** the offset where the token being completed starts and sets *out to a
** malloc'd array of *n malloc'd candidates for the whole token (the editor
** keeps those starting with what is typed, inserts their common prefix or
** lists them). A candidate ending in '/' (a folder) gets no space after it. */
typedef size_t (*lineedit_complete_fn)(void *ctx, const char *line, size_t cursor, char ***out,
                                       size_t *n);

typedef enum {
    LINEEDIT_LINE,      /* a line was read */
    LINEEDIT_EOF,       /* Ctrl-D on an empty line, or the end of the input */
    LINEEDIT_INTERRUPT, /* Ctrl-C: the line was dropped */
    LINEEDIT_ERROR,     /* out of memory or a read error */
    LINEEDIT_WAKE       /* lineedit_read_wake: the wake callback asked to stop */
} lineedit_status;

/* Opens an editor reading `in`. With `interactive` (in and stdout are
** terminals), libedit is used, history is loaded from history_path (may be
** NULL: no history file; its folder is created) and fn completes (may be
** NULL). Otherwise lines are read with getline. Returns NULL on OOM or when
** libedit cannot start. `in` stays the caller's. */
lineedit *lineedit_new(const char *prog, FILE *in, int interactive, const char *history_path,
                       lineedit_complete_fn fn, void *ctx);
void lineedit_free(lineedit *le); /* NULL-safe */

/* In a prompt, text between two of these (colour escapes) takes no room. */
#define LINEEDIT_PROMPT_IGNORE '\1'

/* Reads one line after showing prompt (shown only when interactive).
** Returns it malloc'd without its newline when *st is LINEEDIT_LINE, NULL
** otherwise. */
char *lineedit_read(lineedit *le, const char *prompt, lineedit_status *st);

/* lineedit_read that also watches wake_fd while it waits for the person
** (`cairn serve`: requests of the seats' pages). When wake_fd is readable,
** on_wake(ctx) runs on this thread; when it returns nonzero (the game
** moved: the console must show it) the read stops with LINEEDIT_WAKE and
** what was typed so far is typed again at the next read. In script mode
** the input must be unbuffered (setvbuf _IONBF) for the wait to see it. */
char *lineedit_read_wake(lineedit *le, const char *prompt, int wake_fd, int (*on_wake)(void *ctx), void *ctx,
                         lineedit_status *st);

/* Text typed ahead (a key pressed at the pager's `--More--` line): the
** next lineedit_read starts its line with it, as if typed there. Appends to
** what is pending already. Interactive only; 0, or -1 on OOM (dropped). */
int lineedit_type_ahead(lineedit *le, const char *text);

/* Adds a line to the history and saves the history file (interactive
** only; blank lines and repeats of the last line are skipped). */
void lineedit_history_add(lineedit *le, const char *line);

/* The default history file: $XDG_STATE_HOME/cairn/history, else
** $HOME/.local/state/cairn/history; NULL if neither is set. Malloc'd. */
char *lineedit_history_path(void);

/* Installs a SIGINT handler that only raises a flag (so Ctrl-C never kills
** a game in progress) and returns whether Ctrl-C was pressed since the
** last call, clearing it. Long loops (bots playing) poll it. */
void lineedit_catch_interrupt(void);
int lineedit_interrupted(void);

#endif
