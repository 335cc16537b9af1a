/*
** repl_files.c
** The console's files: the default name `save` offers when it has none
** (`yak-seed3.save`, never over an existing file), where a save went (the
** folder of a relative name), a folder that does not exist named as such
** before anything is written, and a file that is no save recognised before
** it is parsed ("not a cairn save file" rather than a YAML error).
*/
#include "repl_session.h"

#include "engine.h"
#include "safe_open.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* How far into a file the `cairn_save:` key is looked for. */
#define REPL_SAVE_SNIFF_BYTES 4096

/* The longest current folder shown after a relative save name. */
#define REPL_CWD_MAX 4096

/* Most numbered names tried for a default save name. */
#define REPL_SAVE_NAME_TRIES 1000

char *repl_default_save_name(const repl *r) {
    const char *rs = r->set.ruleset ? r->set.ruleset : "game";
    size_t n = strlen(rs);
    while (n > 1 && rs[n - 1] == '/') n--; /* "rulesets/yak/" */
    const char *base = rs + n;
    while (base > rs && base[-1] != '/') base--;
    char name[64];
    size_t k = 0;
    for (const char *p = base; p < rs + n && k < 40; p++)
        if (isalnum((unsigned char)*p) || *p == '-' || *p == '_') name[k++] = *p;
    name[k] = '\0';
    if (!k) snprintf(name, sizeof name, "game");
    unsigned long long seed = (unsigned long long)engine_seed(r->e);
    for (int i = 1; i <= REPL_SAVE_NAME_TRIES; i++) {
        char *s = i == 1 ? cairn_strfmt("%s-seed%llu.save", name, seed) : cairn_strfmt("%s-seed%llu-%d.save", name, seed, i);
        struct stat st;
        if (!s || stat(s, &st) != 0) return s;
        free(s);
    }
    return NULL;
}

char *repl_save_folder_problem(const repl *r, const char *path) {
    const char *slash = strrchr(path, '/');
    if (!slash) return NULL; /* the current folder */
    char *dir = slash == path ? cairn_strdup("/") : cairn_strfmt("%.*s", (int)(slash - path), path);
    if (!dir) return NULL;
    struct stat st;
    char *why = NULL;
    if (stat(dir, &st) != 0)
        why = cairn_strfmt(repl_tr(r, "files.no_folder"), dir);
    else if (!S_ISDIR(st.st_mode))
        why = cairn_strfmt(repl_tr(r, "files.not_folder"), dir);
    free(dir);
    return why;
}

char *repl_save_where(const char *path) {
    if (path[0] == '/') return cairn_strdup("");
    char cwd[REPL_CWD_MAX];
    if (!getcwd(cwd, sizeof cwd)) return cairn_strdup("");
    return cairn_strfmt(" in %s", cwd);
}

char *repl_not_a_save(const repl *r, const char *path) {
    struct stat st;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) return cairn_strdup(repl_tr(r, "files.is_folder"));
    char why[128];
    FILE *f = safe_fopen_read(path, NULL, why, sizeof why); /* never blocks on a FIFO */
    if (!f && errno != ENOENT && errno != EACCES) return cairn_strfmt("%s", why);
    if (!f) return NULL; /* the loader says why it cannot be read */
    char buf[REPL_SAVE_SNIFF_BYTES + 1];
    size_t n = fread(buf, 1, REPL_SAVE_SNIFF_BYTES, f);
    fclose(f);
    buf[n] = '\0';
    if (memchr(buf, '\0', n)) return cairn_strdup(repl_tr(r, "files.binary"));
    /* a save is YAML whose top-level map has cairn_save: FORMAT (save.c writes it first) */
    for (const char *p = buf; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
        if (strncmp(p, "cairn_save:", 11) == 0) return NULL;
    return cairn_strdup(repl_tr(r, "files.no_marker"));
}
