/*
** save.c
** Saved games and scenarios: building the save tree, the atomic write,
** loading with validation and replay, scenario export and start.
*/
#include "plural.h"
#include "save.h"
#include "bot.h"
#include "pathcheck.h"
#include "ruleset.h"
#include "schema.h"
#include "strbuf.h"
#include "yload.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#if !defined(CAIRN_VERSION)
#define CAIRN_VERSION "0.0.0"
#endif

/* 1; 2 when the log holds edits (seat 0) or the game has data overrides
** (options.sets): a cairn that reads only 1 refuses those rather than
** playing another game. Both are read. */
#define SAVE_FORMAT 1
#define SAVE_FORMAT_EDITS 2

/* Process-wide: set only by the crash-simulation test (see save.h). */
void (*save_before_rename_hook)(const char *tmp_path) = NULL;
void (*save_after_create_hook)(int fd) = NULL;

/* ------------------------------------------------------------ building */

/* Small checked builders: each returns -1 once anything failed. */
static int put(value *m, const char *k, value *v) { return m && v ? value_map_set(m, k, v) : (value_free(v), -1); }
static int push(value *l, value *v) { return l && v ? value_list_push(l, v) : (value_free(v), -1); }

static value *rng_value(rng r) {
    char hex[RNG_HEX_LEN + 1];
    rng_format(&r, hex);
    return value_str(hex);
}

static value *choices_value(const engine *e) {
    size_t n;
    const char *const *c = engine_choices(e, &n);
    value *l = value_list();
    for (size_t i = 0; l && i < n; i++)
        if (push(l, value_str(c[i])) != 0) {
            value_free(l);
            return NULL;
        }
    return l;
}

value *save_to_value(const engine *e) {
    const ruleset *rs = engine_ruleset(e);
    value *root = value_map(), *r = value_map(), *opts = value_map(), *seats = value_list();
    value *log = value_list(), *snap = value_map();
    int rc = 0;
    size_t n_sets, n_entries;
    const char *const *sets = engine_sets(e, &n_sets);
    const engine_logged *entries = engine_log(e, &n_entries);
    int edits = n_sets > 0;
    for (size_t i = 0; i < n_entries; i++) edits |= engine_log_is_edit(&entries[i]);
    rc |= put(root, "cairn_save", value_int(edits ? SAVE_FORMAT_EDITS : SAVE_FORMAT));
    rc |= put(root, "engine", value_str(CAIRN_VERSION));
    /* a ruleset given as a folder is saved as its full path, so the save
    ** loads from any working folder; a name stays a name (search path) */
    const char *arg = engine_ruleset_arg(e);
    char *real = strchr(arg, '/') || !strcmp(arg, ".") || !strcmp(arg, "..") ? realpath(rs->dir, NULL)
                                                                             : NULL;
    rc |= put(r, "name", value_str(real ? real : arg));
    free(real);
    rc |= put(r, "id", value_str(rs->id));
    rc |= put(r, "version", value_str(rs->version));
    rc |= put(r, "fingerprint", value_str(rs->fingerprint));
    rc |= put(root, "ruleset", r);
    rc |= put(opts, "choices", choices_value(e));
    if (n_sets) {
        value *sl = value_list();
        for (size_t i = 0; sl && i < n_sets; i++) rc |= push(sl, value_str(sets[i]));
        rc |= put(opts, "sets", sl);
    }
    if (engine_preset(e)) rc |= put(opts, "preset", value_str(engine_preset(e)));
    rc |= put(opts, "resolved", rs->options ? value_clone(rs->options) : value_map());
    rc |= put(root, "options", opts);
    rc |= put(root, "lang", value_str(engine_lang(e)));
    for (int s = 1; s <= engine_seat_count(e); s++) {
        value *seat = value_map();
        rc |= put(seat, "name", value_str(engine_seat_name(e, s)));
        if (engine_seat_bot(e, s)) rc |= put(seat, "bot", value_str(engine_seat_bot(e, s)));
        rc |= push(seats, seat);
    }
    rc |= put(root, "seats", seats);
    rc |= put(root, "seed", value_int((int64_t)engine_seed(e)));
    if (engine_scenario(e)) {
        value *start = value_map();
        rc |= put(start, "state", value_clone(engine_scenario(e)));
        if (engine_scenario_rng(e)) rc |= put(start, "rng", value_str(engine_scenario_rng(e)));
        rc |= put(root, "start", start);
    }
    size_t n;
    const engine_logged *l = engine_log(e, &n);
    for (size_t i = 0; i < n; i++) {
        value *d = value_map();
        rc |= put(d, "seat", value_int(l[i].seat));
        rc |= put(d, "id", value_str(l[i].id));
        rc |= push(log, d);
    }
    rc |= put(root, "log", log);
    rc |= put(root, "position", value_int((int64_t)engine_position(e)));
    rc |= put(snap, "state", value_clone(engine_state(e)));
    rc |= put(snap, "rng", rng_value(engine_rng(e)));
    rc |= put(snap, "events", value_int((int64_t)engine_event_count(e)));
    rc |= put(root, "snapshot", snap);
    if (rc) {
        value_free(root);
        return NULL;
    }
    return root;
}

/* ------------------------------------------------------- atomic writing */

static char *dir_of(const char *path) {
    const char *slash = strrchr(path, '/');
    if (!slash) return cairn_strdup(".");
    if (slash == path) return cairn_strdup("/");
    char *d = malloc((size_t)(slash - path) + 1);
    if (!d) return NULL;
    memcpy(d, path, (size_t)(slash - path));
    d[slash - path] = '\0';
    return d;
}

static int write_all(int fd, const char *s, size_t n) {
    while (n > 0) {
        ssize_t w = write(fd, s, n);
        if (w < 0) {
            if (errno == EINTR) continue;
            return -1;
        }
        s += w;
        n -= (size_t)w;
    }
    return 0;
}

/* The file a save to `given` writes: given itself, or what its symlinks
** lead to, followed even when the last one dangles (the link stays and the
** file appears where it points, as docs/saves.md says). NULL with errno
** ENOENT when given does not exist and is no link (write given itself),
** ENOTDIR when a link leads into a folder that does not exist, ELOOP when the links
** loop (the kernel's 40 followed), or ENOMEM. At most 40 links are followed, as the kernel does. */
static char *resolve_target(const char *given) {
    char *real = realpath(given, NULL);
    if (real || errno == ENOMEM) return real;
    char *cur = cairn_strdup(given);
    for (int hops = 0; cur && hops < 40; hops++) {
        struct stat st;
        if (lstat(cur, &st) != 0 || !S_ISLNK(st.st_mode)) {
            if (hops == 0) break;
            /* the end of the chain, missing: its folder must exist */
            char *dir = dir_of(cur);
            char *rdir = dir ? realpath(dir, NULL) : NULL;
            const char *base = strrchr(cur, '/') ? strrchr(cur, '/') + 1 : cur;
            char *out = rdir ? cairn_strfmt("%s/%s", strcmp(rdir, "/") ? rdir : "", base) : NULL;
            int no_dir = dir && !rdir;
            free(dir);
            free(rdir);
            free(cur);
            errno = out ? 0 : no_dir ? ENOTDIR : ENOMEM;
            return out;
        }
        char target[4096];
        ssize_t n = readlink(cur, target, sizeof target - 1);
        if (n < 0) break;
        target[n] = '\0';
        char *next;
        if (target[0] == '/') {
            next = cairn_strdup(target);
        } else {
            char *dir = dir_of(cur);
            next = dir ? cairn_strfmt("%s/%s", dir, target) : NULL;
            free(dir);
        }
        free(cur);
        cur = next;
        if (hops == 39) { /* still a link after 40: a loop (or too long a chain) */
            free(cur);
            errno = ELOOP;
            return NULL;
        }
    }
    free(cur);
    errno = ENOENT;
    return NULL;
}

/* "cannot save: STEP failed: REASON", keyed for the console's languages
** (the step stays in the English text only). */
static void save_error(cerr_list *errs, const char *path, const char *step, int e) {
    size_t n = errs->n;
    cerr_add(errs, path, 0, 0, NULL, "cannot save: %s failed: %s", step, strerror(e));
    cerr_key(errs, n, "save.failed", e, NULL, NULL);
}

/* Writes text to path through a temporary file in the same folder, so a
** crash at any point leaves either the old file or the new one. */
static int atomic_write(const char *given, const char *text, cerr_list *errs) {
    /* overwriting a symlink writes the file it points at, not a new file in
    ** the link's place; an existing file keeps its permissions */
    if (!given || !given[0]) {
        cerr_addk(errs, NULL, 0, 0, NULL, "save.no_name", "cannot save: no file name");
        return -1;
    }
    char *real = resolve_target(given);
    if (!real && errno == ENOMEM) {
        size_t n = errs->n;
        cerr_add(errs, given, 0, 0, NULL, "out of memory saving; the file is as it was");
        cerr_key(errs, n, "save.oom", 0, NULL, NULL);
        return -1;
    }
    if (!real && errno == ELOOP) { /* replacing the loop would break a link of the user's */
        size_t n = errs->n;
        cerr_add(errs, given, 0, 0, NULL, "cannot save: %s is a loop of symlinks; the links are "
                 "left as they are: remove them or choose another file name", given);
        cerr_key(errs, n, "save.symlink_loop", 0, given, NULL);
        return -1;
    }
    if (!real && errno == ENOTDIR) { /* replacing the link would break what the docs promise */
        size_t n = errs->n;
        cerr_add(errs, given, 0, 0, NULL, "cannot save: %s is a symlink into a folder that does "
                 "not exist; create the folder or choose another file name", given);
        cerr_key(errs, n, "save.symlink_dangling", 0, given, NULL);
        return -1;
    }
    const char *path = real ? real : given;
    struct stat old;
    int exists = stat(path, &old) == 0;
    if (exists && !S_ISREG(old.st_mode)) {
        /* rename would replace a device, a FIFO or a socket with a file
        ** (as root, /dev/null), and cannot replace a folder */
        size_t n = errs->n;
        cerr_add(errs, path, 0, 0, NULL, "cannot save: %s is not a regular file (%s); choose "
                 "another file name", path, S_ISDIR(old.st_mode) ? "a folder" : S_ISFIFO(old.st_mode)
                 ? "a FIFO" : S_ISCHR(old.st_mode) || S_ISBLK(old.st_mode) ? "a device" : "not a file");
        cerr_key(errs, n, S_ISDIR(old.st_mode) ? "save.over_folder" : "save.over_special", 0, path, NULL);
        free(real);
        return -1;
    }
    int had_old = exists;
    char *tmp = cairn_strfmt("%s.tmp-XXXXXX", path);
    char *dir = dir_of(path);
    if (!tmp || !dir) {
        size_t n = errs->n;
        cerr_add(errs, path, 0, 0, NULL, "out of memory saving; the file is as it was");
        cerr_key(errs, n, "save.oom", 0, NULL, NULL);
        free(tmp);
        free(dir);
        free(real);
        return -1;
    }
    const char *step = "create a temporary file";
    int fd = mkstemp(tmp);
    if (fd < 0) goto fail;
    if (save_after_create_hook) save_after_create_hook(fd);
    /* mkstemp makes the file 0600; a new save is an ordinary document, so
    ** give it the mode a plain fopen would (0666 less the umask; umask can
    ** only be read by setting it: put it straight back); a save written over
    ** keeps the mode its owner gave it */
    step = "set the file's permissions";
    mode_t mask = umask(0);
    umask(mask);
    if (fchmod(fd, had_old ? (old.st_mode & 07777) : (0666 & ~mask)) != 0) goto fail_fd;
    step = "write";
    if (write_all(fd, text, strlen(text)) != 0) goto fail_fd;
    step = "sync";
    if (fsync(fd) != 0) goto fail_fd;
    step = "close";
    if (close(fd) != 0) {
        fd = -1;
        goto fail_tmp;
    }
    fd = -1;
    if (save_before_rename_hook) save_before_rename_hook(tmp);
    step = "rename the temporary file";
    if (rename(tmp, path) != 0) goto fail_tmp;
    /* make the rename itself durable */
    int dfd = open(dir, O_RDONLY);
    if (dfd >= 0) {
        (void)fsync(dfd);
        close(dfd);
    }
    free(tmp);
    free(dir);
    free(real);
    return 0;
fail_fd:
    close(fd);
fail_tmp:
    save_error(errs, path, step, errno);
    unlink(tmp);
    free(tmp);
    free(dir);
    free(real);
    return -1;
fail:
    save_error(errs, path, step, errno);
    free(tmp);
    free(dir);
    free(real);
    return -1;
}

int save_write_text(const char *path, const char *text, cerr_list *errs) {
    return atomic_write(path, text, errs);
}

/* ---------------------------------------------------- the YAML emitter */

/* Block style like value_dump_yaml, except that a list of scalars that
** fits on one line is written in flow style (`[X, O, ., .]`), so a board
** reads as a board and a scenario can be edited by hand. */
static int is_scalar(const value *v) {
    return (v->type != CV_LIST && v->type != CV_MAP) || value_len(v) == 0;
}

/* A scalar as value_dump_yaml writes it (quoted when needed); in flow
** context, plain text with , [ ] { } is quoted too. malloc'd. */
static char *scalar_text(const value *v, int flow) {
    char *t = value_to_yaml(v);
    if (!t) return NULL;
    size_t n = strlen(t);
    while (n && t[n - 1] == '\n') t[--n] = '\0';
    /* only a string needs quoting here: an empty list or map is written [] or {} */
    if (flow && v->type == CV_STR && t[0] != '"' && strpbrk(t, ",[]{}")) {
        char *q = malloc(2 * n + 3), *o = q;
        if (!q) {
            free(t);
            return NULL;
        }
        *o++ = '"';
        for (const char *p = t; *p; p++) {
            if (*p == '"' || *p == '\\') *o++ = '\\';
            *o++ = *p;
        }
        *o++ = '"';
        *o = '\0';
        free(t);
        return q;
    }
    return t;
}

/* The flow form of a list of scalars if it fits in `room` columns, else
** NULL (with *oom set when memory ran out: the block form must not then
** be written instead, or the same game would save as two texts). */
static char *flow_list(const value *v, int room, int *oom) {
    strbuf b = {0};
    strbuf_putc(&b, '[');
    for (size_t i = 0; i < v->u.list.n; i++) {
        if (!is_scalar(v->u.list.items[i])) {
            strbuf_free(&b);
            return NULL;
        }
        char *t = scalar_text(v->u.list.items[i], 1);
        if (!t) b.oom = 1;
        else {
            if (i) strbuf_puts(&b, ", ");
            strbuf_puts(&b, t);
        }
        free(t);
        if (b.oom || (int)b.n > room) {
            *oom |= b.oom;
            strbuf_free(&b);
            return NULL;
        }
    }
    strbuf_putc(&b, ']');
    if (b.oom || (int)b.n > room) {
        *oom |= b.oom;
        strbuf_free(&b);
        return NULL;
    }
    char *f = strbuf_take(&b);
    if (!f) *oom = 1;
    return f;
}

#define SAVE_LINE_WIDTH 96

static void y_node(strbuf *b, const value *v, int indent, int inline_first);

/* Writes the value after "key:" or "- " (the caller wrote that), at column `col`. */
static void y_after(strbuf *b, const value *v, int indent, int col, int in_list) {
    if (is_scalar(v)) {
        char *t = scalar_text(v, 0);
        if (!t) b->oom = 1;
        else {
            strbuf_putc(b, ' ');
            strbuf_puts(b, t);
        }
        free(t);
        strbuf_putc(b, '\n');
        return;
    }
    if (v->type == CV_LIST) {
        int oom = 0;
        char *f = flow_list(v, SAVE_LINE_WIDTH - col - 1, &oom);
        if (oom) {
            b->oom = 1;
            return;
        }
        if (f) {
            strbuf_putc(b, ' ');
            strbuf_puts(b, f);
            strbuf_putc(b, '\n');
            free(f);
            return;
        }
    }
    if (in_list) {
        strbuf_putc(b, ' ');
        y_node(b, v, indent, 1);
    } else {
        strbuf_putc(b, '\n');
        y_node(b, v, v->type == CV_LIST ? indent : indent + 2, 0);
    }
}

static void y_node(strbuf *b, const value *v, int indent, int inline_first) {
    if (v->type == CV_MAP && v->u.map.n) {
        for (size_t i = 0; i < v->u.map.n; i++) {
            const cv_entry *e = &v->u.map.items[i];
            if (i > 0 || !inline_first) strbuf_repeat(b, ' ', indent);
            char *k = scalar_text(e->key, 0);
            if (!k) {
                b->oom = 1;
                return;
            }
            size_t klen = strlen(k);
            if (klen > 1000) {
                /* past YAML's 1024-character implicit keys: `? key`, then `:` */
                strbuf_puts(b, "? ");
                strbuf_puts(b, k);
                strbuf_putc(b, '\n');
                strbuf_repeat(b, ' ', indent);
                klen = 0;
            } else {
                strbuf_puts(b, k);
            }
            strbuf_putc(b, ':');
            y_after(b, e->val, indent, indent + (int)klen + 1, 0);
            free(k);
        }
    } else if (v->type == CV_LIST && v->u.list.n) {
        for (size_t i = 0; i < v->u.list.n; i++) {
            if (i > 0 || !inline_first) strbuf_repeat(b, ' ', indent);
            strbuf_putc(b, '-');
            y_after(b, v->u.list.items[i], indent + 2, indent + 1, 1);
        }
    } else {
        if (!inline_first) strbuf_repeat(b, ' ', indent);
        char *t = scalar_text(v, 0);
        if (!t) b->oom = 1;
        else strbuf_puts(b, t);
        free(t);
        strbuf_putc(b, '\n');
    }
}

/* The document text for v; NULL on OOM. */
static char *save_yaml(const value *v) {
    strbuf b = {0};
    y_node(&b, v, 0, 0);
    return strbuf_take(&b);
}

static int write_value(const char *path, const char *header, const value *v, cerr_list *errs) {
    char *body = save_yaml(v);
    char *text = body ? cairn_strfmt("%s%s", header, body) : NULL;
    free(body);
    if (!text) {
        cerr_addk(errs, path, 0, 0, NULL, "save.write_oom", "out of memory writing the file; it is as it was");
        return -1;
    }
    /* a file the loader would refuse is never written: it is read back with
    ** the loader's own limits first (a string, depth or node count past them
    ** is refused here, not when someone tries to load it) */
    cerr_list back_errs;
    cerr_init(&back_errs, 0);
    value *back = yload_string(path, text, strlen(text), NULL, &back_errs);
    if (!back) {
        char *m = back_errs.n ? cerr_format(&back_errs.items[0]) : NULL;
        cerr_addk(errs, path, 0, 0, NULL, "save.would_not_load",
                  "cannot save: the file would not load (%s); it is as it was", m ? m : "out of memory");
        free(m);
        cerr_free(&back_errs);
        free(text);
        return -1;
    }
    value_free(back);
    cerr_free(&back_errs);
    int rc = atomic_write(path, text, errs);
    free(text);
    return rc;
}

int save_write(const engine *e, const char *path, cerr_list *errs) {
    value *v = save_to_value(e);
    if (!v) {
        cerr_addk(errs, path, 0, 0, NULL, "save.save_oom", "out of memory writing the save; the file is as it was");
        return -1;
    }
    const ruleset *rs = engine_ruleset(e);
    int seats = engine_seat_count(e);
    size_t made = engine_position(e);
    char *header = cairn_strfmt("# cairn saved game: %s %s, %d %s, %zu %s\n"
                                "# Load it with `load`; see docs/saves.md.\n",
                                rs->name, rs->version, seats, plural_en(seats, "seat", "seats"), made,
                                plural_en((long long)made, "decision", "decisions"));
    int rc = -1;
    if (header) rc = write_value(path, header, v, errs);
    else cerr_addk(errs, path, 0, 0, NULL, "save.save_oom", "out of memory writing the save; the file is as it was");
    free(header);
    value_free(v);
    return rc;
}

int save_export_scenario(const engine *e, const char *path, cerr_list *errs) {
    value *root = value_map();
    int rc = 0;
    rc |= put(root, "cairn_scenario", value_int(1));
    rc |= put(root, "ruleset", value_str(engine_ruleset_arg(e)));
    rc |= put(root, "players", value_int(engine_seat_count(e)));
    rc |= put(root, "options", choices_value(e));
    size_t n_sets;
    const char *const *sets = engine_sets(e, &n_sets);
    if (n_sets) { /* the state was made with this data: a scenario keeps it */
        value *sl = value_list();
        for (size_t i = 0; sl && i < n_sets; i++) rc |= push(sl, value_str(sets[i]));
        rc |= put(root, "sets", sl);
    }
    rc |= put(root, "lang", value_str(engine_lang(e)));
    rc |= put(root, "rng", rng_value(engine_rng(e)));
    rc |= put(root, "state", value_clone(engine_state(e)));
    if (rc) {
        value_free(root);
        errs->oom = 1;
        return -1;
    }
    const ruleset *rs = engine_ruleset(e);
    char *header = cairn_strfmt("# cairn scenario: %s %s, after %zu %s.\n"
                                "# Edit the state, then start a game from it (in the REPL: load --scenario FILE).\n"
                                "# Remove `rng` to draw fresh random numbers from the game's seed.\n",
                                rs->name, rs->version, engine_position(e),
                                plural_en((long long)engine_position(e), "decision", "decisions"));
    rc = header ? write_value(path, header, root, errs) : (errs->oom = 1, -1);
    free(header);
    value_free(root);
    return rc;
}

/* ------------------------------------------------------------- loading */

/* Loads path and validates it against the save schema (or a fragment). */
static value *read_checked(const char *path, const char *fragment, const char *marker, cerr_list *errs) {
    value *v = yload_file(path, errs);
    if (!v) return NULL;
    if (v->type != CV_MAP || !value_map_get(v, marker)) {
        if (strcmp(marker, "cairn_save") == 0)
            cerr_addk(errs, path, 0, 0, NULL, "save.not_save", "not a cairn saved game (no `cairn_save:` key)");
        else
            cerr_addk(errs, path, 0, 0, NULL, "save.not_scenario", "not a cairn scenario (no `cairn_scenario:` key)");
        value_free(v);
        return NULL;
    }
    char *schema = cairn_strfmt("%s/save.schema.yaml%s", ruleset_schemas_dir(), fragment);
    schema_set *set = schema_set_new();
    int bad = !schema || !set ? (errs->oom = 1, 1) : schema_validate(set, NULL, schema, v, NULL, errs) != 0;
    schema_set_free(set);
    free(schema);
    if (bad) {
        value_free(v);
        return NULL;
    }
    return v;
}

static char **str_list(const value *l, size_t *n) {
    *n = l ? value_len(l) : 0; /* `options:` may be left out of a save */
    char **out = calloc(*n ? *n : 1, sizeof *out);
    for (size_t i = 0; out && i < *n; i++)
        if (!(out[i] = cairn_strdup(l->u.list.items[i]->u.str.s))) {
            for (size_t j = 0; j < i; j++) free(out[j]);
            free(out);
            return NULL;
        }
    return out;
}

static void str_list_free(char **v, size_t n) {
    for (size_t i = 0; v && i < n; i++) free(v[i]);
    free(v);
}

int save_ruleset_trusted(const char *path, const char *ruleset, int trust, cerr_list *errs) {
    return save_ruleset_trusted_ask(path, ruleset, trust, NULL, NULL, errs);
}

int save_ruleset_trusted_ask(const char *path, const char *ruleset, int trust,
                             int (*ask)(void *ud, const char *folder), void *ud, cerr_list *errs) {
    if (trust || !ruleset || (!strchr(ruleset, '/') && strcmp(ruleset, ".") && strcmp(ruleset, "..")))
        return 0;
    if (ruleset_on_search_path(ruleset)) return 0;
    char *save_real = realpath(path, NULL);
    char *dir_real = realpath(ruleset, NULL);
    int beside = 0;
    if (save_real && dir_real) {
        char *slash = strrchr(save_real, '/');
        if (slash && slash != save_real) *slash = '\0';
        else if (slash) slash[1] = '\0';
        beside = pathcheck_inside(dir_real, save_real);
    }
    free(save_real);
    free(dir_real);
    if (beside) return 0;
    if (ask && ask(ud, ruleset)) return 0;
    size_t n = errs->n;
    cerr_add(errs, path, 0, 0, "ruleset.name",
             "this file opens the ruleset folder %s, which is not on the search path nor beside "
             "the file, and its Lua would run: move the save next to the ruleset, or run again "
             "with --trust if you trust that folder", ruleset);
    cerr_key(errs, n, "save.untrusted", 0, ruleset, NULL);
    return -1;
}

static engine *load_save(const char *path, const save_load_opts *opts, char **note, cerr_list *errs) {
    save_load_opts dflt = {0};
    if (!opts) opts = &dflt;
    if (note) *note = NULL;
    if (opts->facts) memset(opts->facts, 0, sizeof *opts->facts);
    value *v = read_checked(path, "", "cairn_save", errs);
    if (!v) return NULL;
    engine *e = NULL;
    const value *rsv = value_map_get(v, "ruleset"), *o = value_map_get(v, "options");
    const value *seats = value_map_get(v, "seats"), *log = value_map_get(v, "log");
    const value *snap = value_map_get(v, "snapshot"), *start = value_map_get(v, "start");
    size_t n_choices = 0, n_seats = value_len(seats);
    char **choices = str_list(value_map_get(o, "choices"), &n_choices);
    size_t n_sets = 0;
    char **sets = str_list(value_map_get(o, "sets"), &n_sets);
    const char **names = calloc(n_seats, sizeof *names), **bots = calloc(n_seats, sizeof *bots);
    size_t n_log = value_len(log);
    engine_logged *l = calloc(n_log ? n_log : 1, sizeof *l);
    if (!choices || !sets || !names || !bots || !l) {
        errs->oom = 1;
        goto done;
    }
    size_t unseated = 0; /* outside programs the file names: never started from a file */
    for (size_t i = 0; i < n_seats; i++) {
        names[i] = value_get_str(seats->u.list.items[i], "name", NULL);
        bots[i] = value_get_str(seats->u.list.items[i], "bot", NULL);
        if (bot_spec_is_exec(bots[i])) bots[i] = NULL, unseated++;
    }
    for (size_t i = 0; i < n_log; i++) {
        l[i].seat = (int)value_get_int(log->u.list.items[i], "seat", 0);
        l[i].id = (char *)value_get_str(log->u.list.items[i], "id", "");
    }
    size_t position = (size_t)value_get_int(v, "position", 0);
    if (position > n_log) {
        char at[24], len[24];
        snprintf(at, sizeof at, "%zu", position);
        snprintf(len, sizeof len, "%zu", n_log);
        cerr_addk(errs, path, 0, 0, "position", "save.past_end",
                  "position %s is past the end of the log (%s decisions)", at, len);
        goto done;
    }
    engine_config c;
    memset(&c, 0, sizeof c);
    c.ruleset = value_get_str(rsv, "name", NULL);
    /* a folder that moved since: the ruleset's id along the search path */
    char *found = c.ruleset ? ruleset_find(c.ruleset) : NULL;
    if (!found && value_get_str(rsv, "id", NULL)) c.ruleset = value_get_str(rsv, "id", NULL);
    free(found);
    if (save_ruleset_trusted_ask(path, c.ruleset, opts->trust, opts->ask_trust, opts->ask_ud, errs) != 0)
        goto done;
    c.choices = (const char *const *)choices;
    c.n_choices = n_choices;
    c.sets = (const char *const *)sets;
    c.n_sets = n_sets;
    c.preset = value_get_str(o, "preset", NULL);
    c.players = (int)n_seats;
    c.names = names;
    c.bots = bots;
    c.seed = (uint64_t)value_get_int(v, "seed", 0);
    c.lang = value_get_str(v, "lang", NULL);
    c.checks = opts->checks;
    c.budget = opts->budget;
    c.mem_cap = opts->mem_cap;
    if (start) {
        c.scenario = value_map_get(start, "state");
        c.scenario_rng = value_get_str(start, "rng", NULL);
    }
    /* the fingerprint decides between replaying and starting from the snapshot */
    ruleset_request req = {c.choices, c.n_choices, c.preset, c.players, c.sets, c.n_sets};
    ruleset *now = ruleset_load(c.ruleset, &req, errs);
    if (!now) goto done;
    const char *saved_fp = value_get_str(rsv, "fingerprint", "");
    int changed = strcmp(now->fingerprint, saved_fp) != 0;
    if (changed && !opts->as_scenario) {
        char was[13], is[13]; /* the fingerprints' first 12 characters */
        snprintf(was, sizeof was, "%.12s", saved_fp);
        snprintf(is, sizeof is, "%.12s", now->fingerprint);
        cerr_addk(errs, path, 0, 0, "ruleset.fingerprint", "save.fingerprint",
                  "the ruleset %s changed since this game was saved (fingerprint %s..., now %s...); "
                  "load it as a scenario (in the REPL: load --scenario FILE) to continue from the "
                  "saved state with the new rules",
                  now->id, was, is);
        ruleset_free(now);
        goto done;
    }
    ruleset_free(now);
    if (changed) {
        c.scenario = value_map_get(snap, "state");
        c.scenario_rng = value_get_str(snap, "rng", NULL);
        if (!(e = engine_new(&c, errs))) goto done;
        if (note) *note = cairn_strdup("loaded as a scenario: the ruleset changed since the save, "
                                       "so the log was not replayed");
        if (opts->facts) opts->facts->as_scenario = 1;
        goto done;
    }
    if (!(e = engine_new(&c, errs))) goto done;
    size_t failed;
    if (engine_replay(e, l, position, &failed, errs) != 0) {
        char at[24];
        snprintf(at, sizeof at, "%zu", failed + 1);
        cerr_addk(errs, path, 0, 0, "log", "save.log_stops", "the saved log does not replay (stopped at decision %s)", at);
        engine_free(e);
        e = NULL;
        goto done;
    }
    rng want, have = engine_rng(e);
    if (!value_equal(engine_state(e), value_map_get(snap, "state"), 0) ||
        rng_parse(&want, value_get_str(snap, "rng", "")) != 0 || memcmp(&want, &have, sizeof want) != 0) {
        cerr_addk(errs, path, 0, 0, "snapshot", "save.snapshot",
                  "replaying the log does not reproduce the saved state (the file was edited, or "
                  "the rules are not deterministic)");
        engine_free(e);
        e = NULL;
        goto done;
    }
    if (engine_set_redo_tail(e, l + position, n_log - position) != 0) {
        errs->oom = 1;
        engine_free(e);
        e = NULL;
    }
done:
    if (e && unseated && opts->facts) opts->facts->unseated = unseated;
    if (e && unseated && note) {
        /* a save is data anyone may send: it never runs a command */
        char *was = *note;
        *note = cairn_strfmt("%s%s%zu seat%s played by an outside program (exec:) in the save %s played by a "
                             "person now: `bot SEAT exec:COMMAND` seats a program again", was ? was : "",
                             was ? "; " : "", unseated, unseated == 1 ? "" : "s", unseated == 1 ? "is" : "are");
        free(was);
    }
    str_list_free(choices, n_choices);
    str_list_free(sets, n_sets);
    free(names);
    free(bots);
    free(l);
    value_free(v);
    return e;
}

static engine *start_scenario(const char *path, const engine_config *cfg, cerr_list *errs) {
    value *v = read_checked(path, "#/$defs/scenario", "cairn_scenario", errs);
    if (!v) return NULL;
    engine_config c = *cfg;
    size_t n_choices = 0;
    char **choices = NULL;
    if (!c.ruleset) {
        c.ruleset = value_get_str(v, "ruleset", NULL);
        if (save_ruleset_trusted(path, c.ruleset, cfg->trust, errs) != 0) {
            value_free(v);
            return NULL;
        }
    }
    if (!c.players) c.players = (int)value_get_int(v, "players", 0);
    if (!c.choices && value_map_get(v, "options")) {
        choices = str_list(value_map_get(v, "options"), &n_choices);
        if (!choices) {
            errs->oom = 1;
            value_free(v);
            return NULL;
        }
        c.choices = (const char *const *)choices;
        c.n_choices = n_choices;
    }
    /* the file's language and data overrides unless the caller gives its own */
    size_t n_sets = 0;
    char **sets = NULL;
    if (!c.lang) c.lang = value_get_str(v, "lang", NULL);
    if (!c.n_sets && value_map_get(v, "sets")) {
        sets = str_list(value_map_get(v, "sets"), &n_sets);
        if (!sets) {
            errs->oom = 1;
            str_list_free(choices, n_choices);
            value_free(v);
            return NULL;
        }
        c.sets = (const char *const *)sets;
        c.n_sets = n_sets;
    }
    c.scenario = value_map_get(v, "state");
    c.scenario_rng = value_get_str(v, "rng", NULL);
    engine *e = engine_new(&c, errs);
    str_list_free(choices, n_choices);
    str_list_free(sets, n_sets);
    value_free(v);
    return e;
}

/* A failure that added no error could only be a lack of memory: say so. */
engine *save_load(const char *path, const save_load_opts *opts, char **note, cerr_list *errs) {
    size_t before = cerr_count(errs);
    engine *e = load_save(path, opts, note, errs);
    if (!e) cerr_note_oom(errs, before, "loading the save; the game in memory is as it was");
    return e;
}

engine *save_start_scenario(const char *path, const engine_config *cfg, cerr_list *errs) {
    size_t before = cerr_count(errs);
    engine *e = start_scenario(path, cfg, errs);
    if (!e) cerr_note_oom(errs, before, "starting the scenario");
    return e;
}
