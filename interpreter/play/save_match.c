/*
** save_match.c
** Does a file hold the game about to be saved over it? The file is read as
** YAML only (its ruleset is never opened, none of its Lua runs) and
** compared with the engine on what makes a game (docs/saves.md): the
** ruleset id, the seed, the options and data overrides, the seat count,
** and the decision log, of which the file's must be the first entries of
** the engine's (the game went on, or was taken back, from the file). Any
** other file is "other": the console asks before replacing it.
*/
#include "save_match.h"

#include "error.h"
#include "plural.h"
#include "ruleset.h"
#include "value.h"
#include "yload.h"

#include <errno.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

/* 1 when the list of strings l (NULL: empty) holds exactly items[0..n), in order. */
static int same_strings(const value *l, const char *const *items, size_t n) {
    size_t k = l && l->type == CV_LIST ? l->u.list.n : 0;
    if (k != n) return 0;
    for (size_t i = 0; i < n; i++) {
        const value *s = l->u.list.items[i];
        if (s->type != CV_STR || strcmp(s->u.str.s, items[i]) != 0) return 0;
    }
    return 1;
}

/* How many of the first entries of the file's log and the engine's agree. */
static size_t common_decisions(const value *log, const engine_logged *l, size_t n) {
    size_t k = log && log->type == CV_LIST ? log->u.list.n : 0, i = 0;
    for (; i < k && i < n; i++) {
        const value *d = log->u.list.items[i];
        if (value_get_int(d, "seat", -1) != l[i].seat || strcmp(value_get_str(d, "id", ""), l[i].id) != 0) break;
    }
    return i;
}

static int set_what(save_match *m, save_match_kind kind, char *what) {
    m->kind = kind;
    m->what = what;
    return what ? 0 : -1;
}

int save_match_file(const char *path, const engine *e, save_match *m) {
    memset(m, 0, sizeof *m);
    m->kind = SAVE_MATCH_NONE;
    m->what = NULL;
    struct stat st;
    if (stat(path, &st) != 0) return 0; /* nothing there (or unreachable: the save says why) */
    if (!S_ISREG(st.st_mode)) return 0; /* a folder, a FIFO, a device: never opened here; the save refuses it */
    cerr_list errs;
    cerr_init(&errs, 0);
    value *v = yload_file(path, &errs);
    int oom = errs.oom;
    cerr_free(&errs);
    if (!v && oom) return -1;
    if (!v || v->type != CV_MAP || !value_map_get(v, "cairn_save")) {
        value_free(v);
        return set_what(m, SAVE_MATCH_NOT_SAVE, cairn_strdup("no cairn save"));
    }
    const value *rs = value_map_get(v, "ruleset"), *o = value_map_get(v, "options");
    const value *seats = value_map_get(v, "seats"), *log = value_map_get(v, "log");
    const char *id = rs ? value_get_str(rs, "id", "?") : "?";
    int64_t seed = value_get_int(v, "seed", -1);
    size_t n_file = log && log->type == CV_LIST ? log->u.list.n : 0;
    size_t nc = 0, ns = 0, n = 0;
    const char *const *choices = engine_choices(e, &nc);
    const char *const *sets = engine_sets(e, &ns);
    const engine_logged *l = engine_log(e, &n);
    int game = strcmp(id, engine_ruleset(e)->id) == 0 && (uint64_t)seed == engine_seed(e) &&
               o && same_strings(value_map_get(o, "choices"), choices, nc) &&
               same_strings(value_map_get(o, "sets"), sets, ns) && seats && seats->type == CV_LIST &&
               (int)seats->u.list.n == engine_seat_count(e) && !value_map_get(v, "start") == !engine_scenario(e);
    size_t common = game ? common_decisions(log, l, n) : 0;
    int rc = 0;
    snprintf(m->ruleset, sizeof m->ruleset, "%s", id);
    m->seed = (long long)seed;
    m->decisions = n_file;
    m->departs = common + 1;
    m->how = !game ? SAVE_MATCH_OTHER_GAME : common == n ? SAVE_MATCH_FURTHER : SAVE_MATCH_OTHER_LINE;
    if (m->how == SAVE_MATCH_FURTHER) m->decisions = n_file - n;
    if (game && common == n_file) {
        m->kind = SAVE_MATCH_SAME;
    } else if (game && common == n) { /* taken back (restart, undo and a new line) past the file's end */
        rc = set_what(m, SAVE_MATCH_OTHER,
                      cairn_strfmt("this game, %zu %s further on", n_file - n,
                                   plural_en((long long)(n_file - n), "decision", "decisions")));
    } else if (game) {
        rc = set_what(m, SAVE_MATCH_OTHER,
                      cairn_strfmt("another line of this game, with %zu %s (this one departs from it at decision %zu)",
                                   n_file, plural_en((long long)n_file, "decision", "decisions"), common + 1));
    } else {
        rc = set_what(m, SAVE_MATCH_OTHER,
                      cairn_strfmt("a game of %s, seed %lld, with %zu %s", id, (long long)seed, n_file,
                                   plural_en((long long)n_file, "decision", "decisions")));
    }
    value_free(v);
    return rc;
}

void save_match_free(save_match *m) {
    free(m->what);
    m->what = NULL;
}
