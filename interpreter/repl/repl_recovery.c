/*
** repl_recovery.c
** An interrupted game can be resumed. While a person plays (input typed,
** not a script), the game is written after every line that changed it to
** recovery-<pid>.save in the per-user state folder ($XDG_STATE_HOME/cairn,
** else ~/.local/state/cairn; $TMPDIR or /tmp when that cannot be made),
** never the working folder; SIGTERM and SIGHUP write the same file
** (repl_signal.c). The file goes once the game is saved or the session
** ends as asked (`quit`). `cairn play --resume` continues the newest
** recovery file whose cairn is no longer running.
*/
#include "repl_session.h"

#include "engine.h"
#include "error.h"
#include "save.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The longest path of a folder made on the way to the state folder. */
#define REPL_STATE_PATH_MAX 4096

char *repl_state_dir(void) {
    const char *state = getenv("XDG_STATE_HOME");
    if (state && state[0] == '/') return cairn_strfmt("%s/cairn", state);
    const char *home = getenv("HOME");
    if (!home || !home[0]) return NULL;
    return cairn_strfmt("%s/.local/state/cairn", home);
}

/* mkdir -p dir (0700: the games are the user's). 0 or -1. */
static int make_dir(const char *dir) {
    char p[REPL_STATE_PATH_MAX];
    if (snprintf(p, sizeof p, "%s", dir) >= (int)sizeof p) return -1;
    for (char *s = p + 1; *s; s++) {
        if (*s != '/') continue;
        *s = '\0';
        if (mkdir(p, 0700) != 0 && errno != EEXIST) return -1;
        *s = '/';
    }
    return mkdir(p, 0700) != 0 && errno != EEXIST ? -1 : 0;
}

/* The recovery file of this process in dir (malloc'd). */
static char *own_file(const char *dir) { return cairn_strfmt("%s/recovery-%ld.save", dir, (long)getpid()); }

/* This process's recovery file: in the state folder when it exists or can
** be made, else in $TMPDIR (else /tmp). NULL when out of memory. */
static char *recovery_path(void) {
    char *dir = repl_state_dir();
    char *path = dir && make_dir(dir) == 0 ? own_file(dir) : NULL;
    free(dir);
    if (path) return path;
    const char *tmp = getenv("TMPDIR");
    return cairn_strfmt("%s/cairn-recovery-%ld.save", tmp && *tmp ? tmp : "/tmp", (long)getpid());
}

int repl_recovery_write(const engine *e, char **path, cerr_list *errs) {
    *path = recovery_path();
    if (!*path) {
        cerr_addk(errs, NULL, 0, 0, NULL, "repl.recovery_name_oom", "out of memory naming the recovery file");
        return -1;
    }
    if (save_write(e, *path, errs) == 0) return 0;
    free(*path);
    *path = NULL;
    return -1;
}

void repl_recovery_drop(repl *r) {
    if (!r->recovery) return;
    unlink(r->recovery);
    free(r->recovery);
    r->recovery = NULL;
}

void repl_recovery_update(repl *r) {
    size_t n = 0;
    if (r->e) engine_log(r->e, &n);
    if (r->script) return; /* a script keeps no copy (one it resumed stays until the end) */
    if (r->replay || !r->e || !r->dirty || n == 0) { /* nothing that a save does not hold */
        repl_recovery_drop(r);
        return;
    }
    cerr_list errs;
    cerr_init(&errs, 0);
    char *path = NULL;
    if (repl_recovery_write(r->e, &path, &errs) == 0) {
        if (r->recovery && strcmp(r->recovery, path) != 0) unlink(r->recovery);
        free(r->recovery);
        r->recovery = path;
    } else if (!r->recovery_warned) { /* said once: the game goes on */
        char *m = errs.n ? repl_error_text(r, &errs.items[0]) : NULL;
        repl_plain(r, repl_tr(r, "recovery.cannot"), m ? m : repl_tr(r, "error.oom"));
        free(m);
        r->recovery_warned = 1;
    }
    cerr_free(&errs);
}

/* 1 when the cairn of pid runs (its recovery file is in use). */
static int running(long pid) { return pid == (long)getpid() || kill((pid_t)pid, 0) == 0 || errno == EPERM; }

int repl_recovery_newest(char **path, size_t *others, char **dir_out) {
    *path = NULL;
    *others = 0;
    *dir_out = repl_state_dir();
    if (!*dir_out) return 0;
    DIR *d = opendir(*dir_out);
    if (!d) return 0;
    time_t best = 0;
    struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        long pid;
        char tail[16];
        if (sscanf(de->d_name, "recovery-%ld%15s", &pid, tail) != 2 || strcmp(tail, ".save") != 0 || running(pid)) continue;
        char *p = cairn_strfmt("%s/%s", *dir_out, de->d_name);
        struct stat st;
        if (!p || stat(p, &st) != 0) {
            free(p);
            if (!p) return closedir(d), -1;
            continue;
        }
        if (*path) ++*others;
        if (!*path || st.st_mtime > best) {
            free(*path);
            *path = p;
            best = st.st_mtime;
        } else {
            free(p);
        }
    }
    closedir(d);
    return 0;
}

int repl_recovery_adopt(repl *r, const char *path) {
    char *mine = recovery_path();
    if (!mine) return -1;
    if (rename(path, mine) != 0) { /* another folder ($TMPDIR): the copy is written at the next line */
        free(mine);
        return 0;
    }
    free(r->recovery);
    r->recovery = mine;
    return 0;
}
