/*
** repl_signal.c
** SIGTERM and SIGHUP in the REPL: a flag set by the handler, and the
** recovery save made once the REPL reaches a safe point (repl_signal.h).
** The recovery file is the session's own (repl_recovery.c: recovery-<pid>.save
** in the per-user state folder, else in $TMPDIR or /tmp). What it says is
** in the game's language (the catalogue's "signal.*"), written at the safe
** point, never in the handler.
*/
#include "repl_signal.h"
#include "repl_session.h"
#include "repl_text.h"

#include "error.h"
#include "save.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Set by the handler, read by the REPL. A handler gets no context pointer,
** so the flag is global; sig_atomic_t is what a handler may write. */
static volatile sig_atomic_t ending;

static void on_ending(int sig) { ending = sig; }

void repl_signal_catch(void) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_ending;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = 0;
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
}

int repl_signal_ending(void) { return (int)ending; }

int repl_signal_recover(const engine *e, const char *lang, FILE *err) {
    int sig = (int)ending;
    const char *name = sig == SIGHUP ? "SIGHUP" : sig == SIGTERM ? "SIGTERM" : "signal";
    if (!e) {
        fprintf(err, repl_text_in(lang, "signal.nothing", 0), name);
        fputc('\n', err);
        return 128 + sig;
    }
    cerr_list errs;
    cerr_init(&errs, 0);
    char *path = NULL;
    if (repl_recovery_write(e, &path, &errs) == 0) { /* repl_recovery.c: the state folder */
        fprintf(err, repl_text_in(lang, "signal.saved", 0), name, engine_position(e), path);
        fputc('\n', err);
    } else {
        fprintf(err, repl_text_in(lang, "signal.unsaved", 0), name);
        fputc('\n', err);
        for (size_t i = 0; i < errs.n; i++) {
            char *s = repl_error_text_in(lang, &errs.items[i]);
            fprintf(err, "%s\n", s ? s : errs.items[i].message);
            free(s);
        }
        if (errs.dropped) {
            fprintf(err, repl_text_in(lang, "errors.more", (long long)errs.dropped), errs.dropped);
            fputc('\n', err);
        }
        if (errs.oom) fprintf(err, "(some errors were lost: out of memory)\n");
    }
    fflush(err);
    free(path);
    cerr_free(&errs);
    return 128 + sig;
}
