/*
** repl_signal.c
** SIGTERM and SIGHUP in the REPL: a flag set by the handler, and the
** recovery save made once the REPL reaches a safe point (repl_signal.h).
** The recovery file is the session's own (repl_recovery.c: recovery-<pid>.save
** in the per-user state folder, else in $TMPDIR or /tmp).
*/
#include "repl_signal.h"
#include "repl_session.h"

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

int repl_signal_recover(const engine *e, FILE *err) {
    int sig = (int)ending;
    const char *name = sig == SIGHUP ? "SIGHUP" : sig == SIGTERM ? "SIGTERM" : "signal";
    if (!e) {
        fprintf(err, "cairn: %s: no game in play; nothing to save\n", name);
        return 128 + sig;
    }
    cerr_list errs;
    cerr_init(&errs, 0);
    char *path = NULL;
    if (repl_recovery_write(e, &path, &errs) == 0) { /* repl_recovery.c: the state folder */
        fprintf(err, "cairn: %s: the game (decision %zu) is saved in %s; go on with `cairn play --resume`\n",
                name, engine_position(e), path);
    } else {
        fprintf(err, "cairn: %s: the game could not be saved:\n", name);
        cerr_print(err, &errs);
    }
    fflush(err);
    free(path);
    cerr_free(&errs);
    return 128 + sig;
}
