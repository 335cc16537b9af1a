/*
** lineedit.c
** Line input for the REPL: libedit's native API (<histedit.h>, shipped by
** Debian's libedit-dev) on a terminal, getline in script mode.
*/
#include "termsafe.h"
#include "lineedit.h"
#include "markup.h"
#include "error.h"

#include <errno.h>
#include <histedit.h>
#include <poll.h>
#include <wchar.h>
#include <langinfo.h>
#include <locale.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Lines kept in the history file. */
#if !defined(LINEEDIT_HISTORY_SIZE)
#define LINEEDIT_HISTORY_SIZE 1000
#endif

struct lineedit {
    FILE *in;
    int interactive;
    EditLine *el;
    History *hist;
    char *history_path;
    char *prompt; /* what prompt_fn shows */
    char *last;   /* last line added to the history */
    lineedit_complete_fn complete;
    void *ctx;
    /* lineedit_read_wake: the descriptor watched, its callback, whether it
    ** stopped the read; pending: the text typed before it did, or typed
    ** ahead at the pager (lineedit_type_ahead), typed again by the next read */
    int wake_fd;
    int (*on_wake)(void *ctx);
    void *wake_ctx;
    int woken;
    char *pending;
};

/* Set by the SIGINT handler. A signal handler cannot be given a context
** pointer, so this one flag is global; it is only ever set there and read
** (and cleared) by lineedit_interrupted. */
static volatile sig_atomic_t interrupted;

static void on_sigint(int sig) {
    (void)sig;
    interrupted = 1;
}

void lineedit_catch_interrupt(void) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigint;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = 0; /* no SA_RESTART: a read waiting at the prompt returns EINTR */
    sigaction(SIGINT, &sa, NULL);
}

int lineedit_interrupted(void) {
    int was = interrupted != 0;
    interrupted = 0;
    return was;
}

/* ----------------------------------------------------------- history */

/* mkdir -p for the folder part of path. Returns 0 or -1. */
static int make_parent_dirs(const char *path) {
    char *p = strdup(path);
    if (!p) return -1;
    for (char *s = p + 1; *s; s++) {
        if (*s != '/') continue;
        *s = '\0';
        if (mkdir(p, 0700) != 0 && errno != EEXIST) {
            free(p);
            return -1;
        }
        *s = '/';
    }
    free(p);
    return 0;
}

char *lineedit_history_path(void) {
    const char *state = getenv("XDG_STATE_HOME");
    if (state && state[0] == '/') {
        size_t n = strlen(state) + sizeof "/cairn/history";
        char *p = malloc(n);
        if (p) snprintf(p, n, "%s/cairn/history", state);
        return p;
    }
    const char *home = getenv("HOME");
    if (!home || !home[0]) return NULL;
    size_t n = strlen(home) + sizeof "/.local/state/cairn/history";
    char *p = malloc(n);
    if (p) snprintf(p, n, "%s/.local/state/cairn/history", home);
    return p;
}

void lineedit_history_add(lineedit *le, const char *line) {
    if (!le->interactive || !le->hist) return;
    if (line[strspn(line, " \t")] == '\0') return;
    if (le->last && strcmp(le->last, line) == 0) return;
    HistEvent ev;
    history(le->hist, &ev, H_ENTER, line);
    free(le->last);
    le->last = strdup(line);
    if (le->history_path && make_parent_dirs(le->history_path) == 0)
        history(le->hist, &ev, H_SAVE, le->history_path);
}

/* -------------------------------------------------------- completion */

static void free_list(char **l, size_t n) {
    for (size_t i = 0; i < n; i++) free(l[i]);
    free(l);
}

/* Prints the candidates in columns under the line being edited. */
static void list_candidates(char **c, size_t n) {
    size_t w = 0;
    for (size_t i = 0; i < n; i++) {
        size_t cw = markup_width(c[i], strlen(c[i]));
        if (cw > w) w = cw;
    }
    size_t cols = (size_t)markup_term_width(STDOUT_FILENO) / (w + 2);
    if (cols == 0) cols = 1;
    size_t rows = (n + cols - 1) / cols;
    fputc('\n', stdout);
    for (size_t r = 0; r < rows; r++) {
        for (size_t k = 0; k < cols; k++) {
            size_t i = k * rows + r;
            if (i >= n) break;
            fputs(c[i], stdout);
            if (k + 1 == cols || i + rows >= n) break;
            for (size_t pad = markup_width(c[i], strlen(c[i])); pad < w + 2; pad++) fputc(' ', stdout);
        }
        fputc('\n', stdout);
    }
    fflush(stdout);
}

static unsigned char complete_cb(EditLine *el, int ch) {
    (void)ch;
    void *cd = NULL;
    if (el_get(el, EL_CLIENTDATA, &cd) != 0 || !cd) return CC_ERROR;
    lineedit *le = cd;
    if (!le->complete) return CC_ERROR;
    const LineInfo *li = el_line(el);
    size_t cursor = (size_t)(li->cursor - li->buffer);
    char *line = strndup(li->buffer, cursor);
    if (!line) return CC_ERROR;
    char **cands = NULL;
    size_t n = 0;
    size_t start = le->complete(le->ctx, line, cursor, &cands, &n);
    if (start > cursor) start = cursor;
    const char *tok = line + start;
    size_t toklen = cursor - start;
    /* keep the candidates that extend what is typed */
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        if (strncmp(cands[i], tok, toklen) == 0)
            cands[m++] = cands[i];
        else
            free(cands[i]);
    }
    unsigned char ret = CC_REFRESH_BEEP;
    if (m > 0) {
        size_t common = strlen(cands[0]);
        for (size_t i = 1; i < m; i++) {
            size_t k = 0;
            while (k < common && cands[i][k] == cands[0][k]) k++;
            common = k;
        }
        if (common > toklen || m == 1) {
            char *ins = strndup(cands[0] + toklen, common - toklen);
            if (ins) {
                el_insertstr(el, ins);
                if (m == 1 && common > 0 && cands[0][common - 1] != '/') el_insertstr(el, " ");
                free(ins);
            }
            ret = CC_REFRESH;
        } else {
            list_candidates(cands, m);
            ret = CC_REDISPLAY;
        }
    }
    free_list(cands, m);
    free(line);
    return ret;
}

/* ----------------------------------------------------------- editor */

static char *prompt_fn(EditLine *el) {
    void *cd = NULL;
    if (el_get(el, EL_CLIENTDATA, &cd) != 0 || !cd) return (char *)"> ";
    lineedit *le = cd;
    return le->prompt ? le->prompt : (char *)"> ";
}

/* libedit reads the prompt and the typed line as multibyte text in the
** LC_CTYPE locale: in the "C" locale a prompt with a name such as "Zoë" or
** "Θέση 1" crashed it (el_wgets). A terminal session takes the user's
** locale's character type when it is UTF-8, else C.UTF-8; only LC_CTYPE,
** and in a UTF-8 locale bytes past ASCII are no letters, digits or spaces
** to the C library, as in "C", so Lua's patterns and the rules match the
** same (numbers and messages keep the "C" locale). */
static void utf8_ctype(void) {
    if (setlocale(LC_CTYPE, "") && strcmp(nl_langinfo(CODESET), "UTF-8") == 0) return;
    if (!setlocale(LC_CTYPE, "C.UTF-8")) setlocale(LC_CTYPE, "C");
}

lineedit *lineedit_new(const char *prog, FILE *in, int interactive, const char *history_path,
                       lineedit_complete_fn fn, void *ctx) {
    lineedit *le = calloc(1, sizeof *le);
    if (!le) return NULL;
    le->in = in;
    le->interactive = interactive;
    le->complete = fn;
    le->ctx = ctx;
    if (!interactive) return le;
    if (history_path && !(le->history_path = strdup(history_path))) goto fail;
    utf8_ctype();
    le->el = el_init(prog, in, termsafe_raw_stdout(), stderr);
    le->hist = history_init();
    if (!le->el || !le->hist) goto fail;
    HistEvent ev;
    history(le->hist, &ev, H_SETSIZE, LINEEDIT_HISTORY_SIZE);
    if (le->history_path) history(le->hist, &ev, H_LOAD, le->history_path);
    el_set(le->el, EL_CLIENTDATA, le);
    el_set(le->el, EL_EDITOR, "emacs");
    el_set(le->el, EL_SIGNAL, 1); /* libedit restores the terminal on signals */
    el_set(le->el, EL_PROMPT_ESC, prompt_fn, LINEEDIT_PROMPT_IGNORE); /* escapes take no room */
    el_set(le->el, EL_HIST, history, le->hist);
    /* the wide call: narrow EL_ADDFN copies its strings and never frees them */
    el_wset(le->el, EL_ADDFN, L"cairn-complete", L"complete a command, option or file", complete_cb);
    el_set(le->el, EL_BIND, "^I", "cairn-complete", NULL);
    el_source(le->el, NULL); /* the user's ~/.editrc, as every libedit program */
    return le;
fail:
    lineedit_free(le);
    return NULL;
}

void lineedit_free(lineedit *le) {
    if (!le) return;
    if (le->el) el_end(le->el);
    if (le->hist) history_end(le->hist);
    free(le->history_path);
    free(le->prompt);
    free(le->last);
    free(le->pending);
    free(le);
}

static char *read_plain(lineedit *le, lineedit_status *st) {
    char *line = NULL;
    size_t cap = 0;
    errno = 0;
    ssize_t n = getline(&line, &cap, le->in);
    if (n < 0) {
        free(line);
        if (errno == EINTR && interrupted) { /* Ctrl-C at a plain prompt */
            interrupted = 0;
            clearerr(le->in);
            fputc('\n', stdout);
            *st = LINEEDIT_INTERRUPT;
            return NULL;
        }
        *st = errno == ENOMEM ? LINEEDIT_ERROR : LINEEDIT_EOF;
        return NULL;
    }
    while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r')) line[--n] = '\0';
    *st = LINEEDIT_LINE;
    return line;
}

char *lineedit_read(lineedit *le, const char *prompt, lineedit_status *st) {
    if (!le->interactive) return read_plain(le, st);
    char *p = strdup(prompt);
    if (!p) {
        *st = LINEEDIT_ERROR;
        return NULL;
    }
    free(le->prompt);
    le->prompt = p;
    interrupted = 0;
    if (le->pending) { /* typed before a wake, or ahead at the pager: typed again */
        el_push(le->el, le->pending);
        free(le->pending);
        le->pending = NULL;
    }
    int count = 0;
    const char *s = el_gets(le->el, &count);
    if (!s) {
        if (count < 0 && (errno == EINTR || interrupted)) {
            interrupted = 0;
            if (le->woken) { /* lineedit_read_wake: what was typed comes back after the wake */
                const LineInfo *li = el_line(le->el);
                free(le->pending);
                le->pending = li && li->lastchar > li->buffer
                                  ? strndup(li->buffer, (size_t)(li->lastchar - li->buffer))
                                  : NULL;
            }
            el_reset(le->el);
            fputc('\n', stdout);
            *st = LINEEDIT_INTERRUPT;
        } else {
            *st = count < 0 ? LINEEDIT_ERROR : LINEEDIT_EOF;
        }
        return NULL;
    }
    size_t n = (size_t)count;
    while (n > 0 && (s[n - 1] == '\n' || s[n - 1] == '\r')) n--;
    char *line = strndup(s, n);
    *st = line ? LINEEDIT_LINE : LINEEDIT_ERROR;
    return line;
}

/* ------------------------------------------------- reading with a wake */

/* Waits until fd or the wake descriptor is readable; runs the wake
** callback. 0: fd is readable; 1: the callback asked to stop; -1: Ctrl-C
** or an error (errno set). */
static int wait_input(lineedit *le, int fd) {
    for (;;) {
        struct pollfd p[2] = {{fd, POLLIN, 0}, {le->wake_fd, POLLIN, 0}};
        if (poll(p, 2, -1) < 0) {
            if (errno == EINTR && !interrupted) continue; /* a resize, not Ctrl-C */
            return -1;
        }
        if (p[1].revents & POLLIN) {
            if (le->on_wake(le->wake_ctx)) {
                le->woken = 1;
                return 1;
            }
            continue;
        }
        if (p[0].revents) return 0; /* readable, or its end: the read says which */
    }
}

/* libedit's character reader while a wake descriptor is watched: one
** character of the terminal's UTF-8 (or other multibyte) input. */
static int wake_getc(EditLine *el, wchar_t *wc) {
    void *cd = NULL;
    if (el_get(el, EL_CLIENTDATA, &cd) != 0 || !cd) return -1;
    lineedit *le = cd;
    int fd = fileno(le->in);
    mbstate_t mb;
    memset(&mb, 0, sizeof mb);
    for (;;) {
        int w = wait_input(le, fd);
        if (w != 0) {
            if (w > 0) errno = EINTR;
            return -1;
        }
        unsigned char c;
        ssize_t n = read(fd, &c, 1);
        if (n == 0) return 0;
        if (n < 0) {
            if (errno == EINTR && !interrupted) continue;
            return -1;
        }
        wchar_t ch;
        size_t k = mbrtowc(&ch, (const char *)&c, 1, &mb);
        if (k == (size_t)-2) continue; /* more bytes of this character */
        if (k == (size_t)-1) {
            memset(&mb, 0, sizeof mb);
            ch = (wchar_t)c;
        }
        *wc = ch;
        return 1;
    }
}

int lineedit_type_ahead(lineedit *le, const char *text) {
    if (!le || !le->interactive || !text || !*text) return 0;
    char *t = cairn_strfmt("%s%s", le->pending ? le->pending : "", text);
    if (!t) return -1;
    free(le->pending);
    le->pending = t;
    return 0;
}

char *lineedit_read_wake(lineedit *le, const char *prompt, int wake_fd, int (*on_wake)(void *ctx), void *ctx,
                         lineedit_status *st) {
    le->wake_fd = wake_fd;
    le->on_wake = on_wake;
    le->wake_ctx = ctx;
    le->woken = 0;
    if (!le->interactive) {
        int w = wait_input(le, fileno(le->in));
        if (w > 0) {
            *st = LINEEDIT_WAKE;
            return NULL;
        }
        if (w < 0 && errno == EINTR && interrupted) { /* Ctrl-C while waiting */
            interrupted = 0;
            fputc('\n', stdout);
            *st = LINEEDIT_INTERRUPT;
            return NULL;
        }
        return read_plain(le, st);
    }
    el_set(le->el, EL_GETCFN, wake_getc); /* lineedit_read types le->pending again */
    char *line = lineedit_read(le, prompt, st);
    el_set(le->el, EL_GETCFN, EL_BUILTIN_GETCFN);
    if (le->woken) { /* the text typed so far is in le->pending (lineedit_read) */
        free(line);
        *st = LINEEDIT_WAKE;
        return NULL;
    }
    return line;
}
