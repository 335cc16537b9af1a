/*
** ruleset.c
** Ruleset resolution: search path, manifest loading and `extends` chains,
** option values (defaults, presets, explicit choices, seat-count forcing,
** requires/excludes), data overlays, schema validation of every data file,
** the list of scripts to run, and the fingerprint saves are checked against.
*/
/* readdir's d_type names, DT_DIR and DT_REG (glibc: _DEFAULT_SOURCE) */
#define _DEFAULT_SOURCE
#include "ruleset.h"
#include "grow.h"
#include "limits.h"
#include "load_cache.h"
#include "pathcheck.h"
#include "safe_open.h"
#include "schema.h"
#include "sha256.h"
#include "strbuf.h"
#include "suggest.h"
#include "yload.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Room for the share folder's path (PATH_MAX is not visible here: our
** limits.h shadows the system's for the quote-include path). */
#define SHARE_PATH_MAX 4096

#if !defined(CAIRN_SHARE_DIR)
#define CAIRN_SHARE_DIR "/usr/local/share/cairn"
#endif

/* ------------------------------------------------------------ small helpers */

static int is_dir(const char *p) {
    struct stat st;
    return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

static int is_file(const char *p) {
    struct stat st;
    return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

/* "a/b" + "c" -> "a/b/c"; an absolute rel is kept as it is. */
static char *path_join(const char *dir, const char *rel) {
    if (rel[0] == '/' || !dir || !dir[0] || strcmp(dir, ".") == 0) return cairn_strdup(rel);
    size_t n = strlen(dir), sep = dir[n - 1] != '/', m = strlen(rel);
    char *p = malloc(n + sep + m + 1); /* not cairn_strfmt: a load joins hundreds */
    if (!p) return NULL;
    memcpy(p, dir, n);
    p[n] = '/';
    memcpy(p + n + sep, rel, m + 1);
    return p;
}

static const char *file_of(const value *v) { return v && v->file ? v->file->name : NULL; }

/* ------------------------------------------------------------- search path */

static const char *checkout_root(void);

/* The folders a ruleset name is looked up in, in order. Caller frees. */
static char **search_dirs(size_t *n) {
    const char *env = getenv("CAIRN_PATH");
    size_t cap = 5, count = 0;
    if (env)
        for (const char *p = env; *p; p++) cap += (*p == ':');
    char **dirs = calloc(cap, sizeof *dirs);
    if (!dirs) return NULL;
    dirs[count++] = cairn_strdup("rulesets");
    if (checkout_root()) dirs[count++] = path_join(checkout_root(), "rulesets");
    dirs[count++] = path_join(ruleset_share_dir(), "rulesets");
    if (env) {
        const char *p = env;
        while (*p) {
            const char *end = strchr(p, ':');
            size_t len = end ? (size_t)(end - p) : strlen(p);
            if (len) {
                char *d = malloc(len + 1);
                if (d) {
                    memcpy(d, p, len);
                    d[len] = '\0';
                    dirs[count++] = d;
                }
            }
            p += len + (end ? 1 : 0);
        }
    }
    *n = count;
    return dirs;
}

static void free_strings(char **s, size_t n) {
    if (!s) return;
    for (size_t i = 0; i < n; i++) free(s[i]);
    free(s);
}

static char *find_on_path(const char *name, int *oom);

char *ruleset_find(const char *name) {
    int oom = 0;
    return ruleset_find_oom(name, &oom);
}

char *ruleset_find_oom(const char *name, int *oom) {
    *oom = 0;
    if (strchr(name, '/') || is_dir(name)) {
        char *m = path_join(name, "ruleset.yaml");
        int ok = m && is_file(m);
        free(m);
        if (!m) *oom = 1;
        if (!ok) return NULL;
        char *d = cairn_strdup(name);
        if (!d) *oom = 1;
        size_t n = d ? strlen(d) : 0;
        while (d && n > 1 && d[n - 1] == '/') d[--n] = '\0';
        return d;
    }
    return find_on_path(name, oom);
}

/* A ruleset name looked up along the search path only (never the working
** folder), as `extends: base` means wherever cairn runs. Sets *oom when a
** folder could not be tried for lack of memory (not found is then not sure). */
static char *find_on_path(const char *name, int *oom) {
    size_t n = 0;
    char **dirs = search_dirs(&n);
    char *found = NULL;
    if (!dirs) *oom = 1;
    for (size_t i = 0; dirs && i < n && !found; i++) {
        if (!dirs[i]) {
            *oom = 1;
            continue;
        }
        char *d = path_join(dirs[i], name);
        char *m = d ? path_join(d, "ruleset.yaml") : NULL;
        if (!m) *oom = 1;
        if (m && is_file(m)) found = d;
        else free(d);
        free(m);
    }
    free_strings(dirs, n);
    if (found) *oom = 0;
    return found;
}

int ruleset_on_search_path(const char *dir) {
    char *real = realpath(dir, NULL);
    if (!real) return 0;
    size_t n;
    char **dirs = search_dirs(&n);
    int inside = 0;
    for (size_t i = 0; dirs && i < n && !inside; i++) {
        char *canon = dirs[i] ? realpath(dirs[i], NULL) : NULL;
        inside = pathcheck_inside(real, canon);
        free(canon);
    }
    free_strings(dirs, n);
    free(real);
    return inside;
}

static int cmp_str(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

char **ruleset_list(size_t *nout) {
    size_t n, count = 0, cap = 16;
    char **names = malloc(cap * sizeof *names);
    char **dirs = search_dirs(&n);
    *nout = 0;
    if (!names || !dirs) {
        free(names);
        free_strings(dirs, n);
        return NULL;
    }
    for (size_t i = 0; i < n; i++) {
        DIR *d = dirs[i] ? opendir(dirs[i]) : NULL;
        struct dirent *de;
        while (d && (de = readdir(d))) {
            if (de->d_name[0] == '.') continue;
            char *sub = path_join(dirs[i], de->d_name);
            char *m = sub ? path_join(sub, "ruleset.yaml") : NULL;
            int ok = m && is_file(m);
            free(sub);
            free(m);
            if (!ok) continue;
            int dup = 0;
            for (size_t k = 0; k < count; k++) dup |= strcmp(names[k], de->d_name) == 0;
            if (dup) continue;
            if (GROW(names, cap, count + 1) != 0) break;
            char *copy = cairn_strdup(de->d_name);
            if (copy) names[count++] = copy;
        }
        if (d) closedir(d);
    }
    free_strings(dirs, n);
    qsort(names, count, sizeof *names, cmp_str);
    *nout = count;
    return names;
}

void ruleset_list_free(char **names, size_t n) { free_strings(names, n); }

/* The folder holding the running program, once (static: it cannot change
** while the program runs). "" when unknown. */
static const char *exe_dir(void) {
    static char dir[SHARE_PATH_MAX];
    static int done;
    if (done) return dir;
    done = 1;
    ssize_t n = readlink("/proc/self/exe", dir, sizeof dir - 1);
    if (n <= 0) return dir[0] = '\0', dir;
    dir[n] = '\0';
    char *slash = strrchr(dir, '/');
    if (slash) *slash = '\0';
    else dir[0] = '\0';
    return dir;
}

/* The checkout a program built in it runs from (<repo>/build/cairn), so that
** build/cairn works from any folder; NULL for an installed program. */
static const char *checkout_root(void) {
    static char root[SHARE_PATH_MAX];
    static int done;
    if (done) return root[0] ? root : NULL;
    done = 1;
    char probe[SHARE_PATH_MAX + 64];
    /* the parent folder by name, not "<bin>/..": paths in messages read
    ** /home/me/cairn/rulesets/yak, never build/../rulesets/yak */
    int len = snprintf(root, sizeof root, "%s", exe_dir());
    char *slash = strrchr(root, '/');
    if (len <= 0 || (size_t)len >= sizeof root || !exe_dir()[0] || !slash) return root[0] = '\0', NULL;
    if (slash == root) slash[1] = '\0';
    else *slash = '\0';
    snprintf(probe, sizeof probe, "%s/stdlib/cairn", root);
    int ok = is_dir(probe);
    snprintf(probe, sizeof probe, "%s/schemas/ruleset.schema.yaml", root);
    if (!ok || !is_file(probe)) root[0] = '\0';
    return root[0] ? root : NULL;
}

/* The installed share folder: next to the program (<bin>/../share/cairn)
** when it is there, so an installed tree can be moved; else the folder
** compiled in. Computed once (static, for the same reason as exe_dir). */
const char *ruleset_share_dir(void) {
    static char dir[SHARE_PATH_MAX + 32];
    if (dir[0]) return dir;
    /* <bin>/../share/cairn, spelt without the "..": paths in messages read
    ** /usr/local/share/cairn/rulesets/yak */
    const char *bin = exe_dir(), *slash = strrchr(bin, '/');
    int len = slash ? snprintf(dir, sizeof dir, "%.*s/share/cairn", (int)(slash - bin), bin) : -1;
    if (len > 0 && (size_t)len < sizeof dir && is_dir(dir)) return dir;
    snprintf(dir, sizeof dir, "%s", CAIRN_SHARE_DIR);
    return dir;
}

/* The stdlib and schemas: the working folder's when it is a checkout, else
** the checkout the program was built in, else the installed share. */
const char *ruleset_stdlib_dir(void) {
    static char dir[SHARE_PATH_MAX + 160];
    if (is_dir("stdlib/cairn")) return "stdlib";
    if (checkout_root()) snprintf(dir, sizeof dir, "%s/stdlib", checkout_root());
    else snprintf(dir, sizeof dir, "%s/stdlib", ruleset_share_dir());
    return dir;
}

const char *ruleset_schemas_dir(void) {
    static char dir[SHARE_PATH_MAX + 160];
    if (is_file("schemas/ruleset.schema.yaml")) return "schemas";
    if (checkout_root()) snprintf(dir, sizeof dir, "%s/schemas", checkout_root());
    else snprintf(dir, sizeof dir, "%s/schemas", ruleset_share_dir());
    return dir;
}

/* --------------------------------------------------- files that took part */

typedef struct {
    char **paths; /* as opened */
    char **names; /* as hashed: "<ruleset id>/<path inside the ruleset folder>" */
    size_t n, cap;
    int oom; /* a file could not be added: the fingerprint would be another ruleset's */
} file_set;

static void files_add(file_set *fs, const char *path, const char *name) {
    for (size_t i = 0; i < fs->n; i++)
        if (strcmp(fs->paths[i], path) == 0) return;
    size_t cap_paths = fs->cap, cap_names = fs->cap; /* the two grow alike */
    if (GROW(fs->paths, cap_paths, fs->n + 1) != 0 || GROW(fs->names, cap_names, fs->n + 1) != 0) {
        fs->oom = 1;
        return;
    }
    fs->cap = cap_paths < cap_names ? cap_paths : cap_names;
    char *pc = cairn_strdup(path), *nc = cairn_strdup(name);
    if (!pc || !nc) {
        fs->oom = 1;
        free(pc);
        free(nc);
        return;
    }
    fs->paths[fs->n] = pc;
    fs->names[fs->n] = nc;
    fs->n++;
}

static void files_free(file_set *fs) {
    free_strings(fs->paths, fs->n);
    free_strings(fs->names, fs->n);
}

/* Calls fn(path, name, ud) for every .lua file below dir, named
** "<prefix>/<path inside dir>", down to 8 levels; tests/ folders only when
** with_tests. -1 when some could not be looked at for lack of memory. */
static int walk_lua(const char *dir, const char *prefix, int depth, int with_tests,
                    void (*fn)(const char *path, const char *name, void *ud), void *ud) {
    if (depth > 8) return 0;
    DIR *d = opendir(dir);
    if (!d) return errno == ENOMEM ? -1 : 0;
    int rc = 0;
    struct dirent *de;
    while ((de = readdir(d))) {
        if (de->d_name[0] == '.' || (!with_tests && strcmp(de->d_name, "tests") == 0)) continue;
        char *p = path_join(dir, de->d_name);
        char *name = cairn_strfmt("%s/%s", prefix, de->d_name);
        if (p && name) {
            size_t len = strlen(de->d_name);
            /* the entry's type as the folder tells it spares a stat per file;
            ** a link, or a file system that does not tell, is stat'ed (followed) */
            int dir = de->d_type == DT_DIR ? 1 : de->d_type == DT_REG ? 0 : is_dir(p);
            if (dir) {
                if (walk_lua(p, name, depth + 1, with_tests, fn, ud) != 0) rc = -1;
            } else if (len > 4 && strcmp(de->d_name + len - 4, ".lua") == 0)
                fn(p, name, ud);
        } else {
            rc = -1;
        }
        free(p);
        free(name);
    }
    closedir(d);
    return rc;
}

static void add_lua_file(const char *path, const char *name, void *ud) { files_add(ud, path, name); }

/* Every .lua file below dir (scripts may require any of them), skipping
** tests/: a changed test must not invalidate saved games. */
static void files_add_lua(file_set *fs, const char *dir, const char *prefix, int depth) {
    if (walk_lua(dir, prefix, depth, 0, add_lua_file, fs) != 0) fs->oom = 1;
}

const char *ruleset_script_shown(const ruleset *r, const char *path) {
    const char *d = r->dir;
    size_t n = strlen(d);
    while (n > 0 && d[n - 1] == '/') n--;
    size_t p = n;
    while (p > 0 && d[p - 1] != '/') p--;
    if (strncmp(path, d, n) == 0 && path[n] == '/') return path + p;
    return path;
}

char **ruleset_lua_files(const ruleset *r, size_t *n) {
    file_set fs = {0};
    for (size_t i = 0; i < r->n_module_dirs; i++) walk_lua(r->module_dirs[i], "", 0, 1, add_lua_file, &fs);
    free_strings(fs.names, fs.n);
    *n = fs.n;
    return fs.paths;
}

/* Hash of (name, size, bytes) of every file, sorted by name, so the same
** ruleset gives the same fingerprint wherever its folder is. */
static int fingerprint_files(file_set *fs, char out[65], cerr_list *errs);

/* The fingerprint, remembered in cache (may be NULL) by the list of files:
** the same list of the same files hashes the same. */
static int fingerprint(file_set *fs, load_cache *cache, char out[65], cerr_list *errs) {
    if (!cache || fs->oom) return fingerprint_files(fs, out, errs);
    strbuf key = {0}; /* "fingerprint\0", then "path\0name\0" per file */
    strbuf_putn(&key, "fingerprint", 12);
    for (size_t i = 0; i < fs->n; i++) {
        strbuf_putn(&key, fs->paths[i], strlen(fs->paths[i]) + 1);
        strbuf_putn(&key, fs->names[i], strlen(fs->names[i]) + 1);
    }
    size_t len = 0;
    const char *known = key.oom ? NULL : load_cache_recall(cache, key.s, key.n, &len);
    int rc = 0;
    if (known && len == 65) memcpy(out, known, 65);
    else if ((rc = fingerprint_files(fs, out, errs)) == 0 && !key.oom)
        load_cache_remember(cache, key.s, key.n, out, 65);
    strbuf_free(&key);
    return rc;
}

static int fingerprint_files(file_set *fs, char out[65], cerr_list *errs) {
    size_t *order = fs->oom ? NULL : malloc((fs->n ? fs->n : 1) * sizeof *order);
    if (!order) {
        cerr_addk(errs, NULL, 0, 0, NULL, "oom", "out of memory listing the ruleset's files");
        return -1;
    }
    for (size_t i = 0; i < fs->n; i++) order[i] = i;
    /* insertion sort: a ruleset has tens of files */
    for (size_t i = 1; i < fs->n; i++) {
        size_t k = order[i], j = i;
        while (j > 0 && strcmp(fs->names[order[j - 1]], fs->names[k]) > 0) {
            order[j] = order[j - 1];
            j--;
        }
        order[j] = k;
    }
    sha256_ctx c;
    sha256_init(&c);
    int rc = 0;
    for (size_t i = 0; i < fs->n && rc == 0; i++) {
        const char *path = fs->paths[order[i]], *name = fs->names[order[i]];
        char why[128];
        FILE *f = safe_fopen_read(path, NULL, why, sizeof why); /* no FIFO, no device */
        if (!f) {
            int e = errno;
            size_t before = errs->n;
            cerr_add(errs, path, 0, 0, NULL, "cannot read: %s", why);
            cerr_key(errs, before, "file.read", e, NULL, NULL);
            rc = -1;
            break;
        }
        sha256_update(&c, name, strlen(name) + 1);
        unsigned char buf[8192];
        size_t got, total = 0;
        while ((got = fread(buf, 1, sizeof buf, f)) > 0 && total <= (size_t)CAIRN_YAML_MAX_FILE_BYTES) {
            sha256_update(&c, buf, got);
            total += got;
        }
        if (ferror(f)) {
            cerr_addk(errs, path, 0, 0, NULL, "ruleset.read_error", "read error");
            rc = -1;
        } else if (total > (size_t)CAIRN_YAML_MAX_FILE_BYTES) {
            /* no file of a ruleset may be larger than the largest cairn reads */
            char most[24];
            snprintf(most, sizeof most, "%ld", (long)CAIRN_YAML_MAX_FILE_BYTES);
            cerr_addk(errs, path, 0, 0, NULL, "ruleset.file_too_big", "file larger than %s bytes (limit "
                      "CAIRN_YAML_MAX_FILE_BYTES)", most);
            rc = -1;
        }
        fclose(f);
        unsigned char sep = 0;
        sha256_update(&c, &sep, 1);
    }
    unsigned char digest[32];
    sha256_final(&c, digest);
    sha256_hex(digest, out);
    free(order);
    return rc;
}

/* --------------------------------------------------------------- manifests */

typedef struct loader {
    schema_set *schemas;
    const value *manifest_schema;
    char *manifest_schema_path;
    file_set files;
    cerr_list *errs;
    char **dirs; /* module dirs, child first */
    size_t ndirs;
    const ruleset_request *req; /* --set overrides (may be NULL) */
    load_cache *cache;          /* what earlier loads parsed and passed (may be NULL) */
    /* a verdict-only load (ruleset_verdict_cached): the data tables no
    ** overlay or --set changes are the cache's parses, borrowed, and taken
    ** out of r->data before the ruleset is freed (detach_borrowed) */
    int borrow;
    const value **borrowed;
    size_t n_borrowed;
    int manifest_borrowed; /* r->manifest is the cache's (recall_manifest) */
} loader;

/* files_add_lua(&ld->files, dir, id, 0), the folder's listing remembered
** in the cache when there is one (pairs "path\0name\0"). */
static void loader_add_lua(loader *ld, const char *dir, const char *id) {
    if (!ld->cache) {
        files_add_lua(&ld->files, dir, id, 0);
        return;
    }
    strbuf key = {0};
    strbuf_putn(&key, "lua", 4);
    strbuf_putn(&key, dir, strlen(dir) + 1);
    strbuf_putn(&key, id, strlen(id) + 1);
    size_t len = 0;
    const char *known = key.oom ? NULL : load_cache_recall(ld->cache, key.s, key.n, &len);
    if (known) {
        for (const char *p = known; p < known + len;) {
            const char *name = p + strlen(p) + 1;
            files_add(&ld->files, p, name);
            p = name + strlen(name) + 1;
        }
        strbuf_free(&key);
        return;
    }
    file_set found = {0};
    files_add_lua(&found, dir, id, 0);
    strbuf list = {0};
    for (size_t i = 0; i < found.n; i++) {
        files_add(&ld->files, found.paths[i], found.names[i]);
        strbuf_putn(&list, found.paths[i], strlen(found.paths[i]) + 1);
        strbuf_putn(&list, found.names[i], strlen(found.names[i]) + 1);
    }
    if (found.oom) ld->files.oom = 1;
    else if (!key.oom && !list.oom) load_cache_remember(ld->cache, key.s, key.n, list.s ? list.s : "", list.n);
    files_free(&found);
    strbuf_free(&list);
    strbuf_free(&key);
}

/* A YAML file, from the cache when there is one. */
static value *loader_yaml(loader *ld, const char *path) {
    return ld->cache ? load_cache_yaml(ld->cache, path, ld->errs) : yload_file(path, ld->errs);
}

/* schema_validate with the cache's memory of passes when there is one. */
static void loader_validate(loader *ld, const value *sch, const char *sp, const value *inst) {
    if (ld->cache) load_cache_validate(ld->cache, ld->schemas, sch, sp, inst, ld->errs);
    else schema_validate(ld->schemas, sch, sp, inst, "", ld->errs);
}

/* Whether dir/rel, symlinks resolved, stays inside dir (the same realpath
** test require and the schemas' $ref use). A file that does not exist yet
** (a golden file --regen will write) is judged by the nearest folder above
** it that does. An absolute rel never stays inside. -1: out of memory. */
static int path_confined_in(const char *dir, const char *dir_canon, const char *rel);

static int path_confined(const char *dir, const char *rel) { return path_confined_in(dir, NULL, rel); }

/* path_confined with dir's realpath already known (dir_canon; NULL: find it). */
static int path_confined_in(const char *dir, const char *dir_canon, const char *rel) {
    if (rel[0] == '/') return 0;
    char *canon = dir_canon ? cairn_strdup(dir_canon) : realpath(dir && dir[0] ? dir : ".", NULL);
    int canon_errno = dir_canon ? ENOMEM : errno;
    char *p = path_join(dir, rel);
    int inside = 0;
    if (!p || (!canon && canon_errno == ENOMEM)) inside = -1;
    while (canon && p) {
        char *real = realpath(p, NULL);
        if (real) {
            inside = pathcheck_inside(real, canon);
            free(real);
            break;
        }
        if (errno == ENOMEM) inside = -1;
        if (errno != ENOENT && errno != ENOTDIR) break;
        char *slash = strrchr(p, '/');
        if (!slash || slash == p) break;
        *slash = '\0'; /* try the folder above */
    }
    free(p);
    free(canon);
    return inside;
}

typedef struct pathctx {
    const char *dir, *mpath;
    cerr_list *errs;
    int bad; /* paths refused */
    load_cache *cache; /* may be NULL */
    char *dir_canon;   /* dir's realpath once asked for (NULL: not yet, or none) */
    int canon_asked;
} pathctx;

/* path_confined, remembered in the cache when there is one: the same
** manifest names the same paths in every load. */
static int path_confined_cached(pathctx *pc, const char *rel) {
    if (!pc->cache) return path_confined(pc->dir, rel);
    strbuf key = {0};
    strbuf_putn(&key, "confined", 9);
    strbuf_putn(&key, pc->dir, strlen(pc->dir) + 1);
    strbuf_putn(&key, rel, strlen(rel) + 1);
    size_t len = 0;
    const char *known = key.oom ? NULL : load_cache_recall(pc->cache, key.s, key.n, &len);
    int inside;
    if (known && len == 1) {
        inside = known[0];
    } else {
        if (!pc->canon_asked) { /* dir's realpath, found once per manifest */
            pc->canon_asked = 1;
            pc->dir_canon = realpath(pc->dir && pc->dir[0] ? pc->dir : ".", NULL);
        }
        inside = pc->dir_canon ? path_confined_in(pc->dir, pc->dir_canon, rel) : path_confined(pc->dir, rel);
        char b = (char)inside;
        if (inside >= 0 && !key.oom) load_cache_remember(pc->cache, key.s, key.n, &b, 1);
    }
    strbuf_free(&key);
    return inside;
}

/* Rewrites a string node holding a path relative to dir into dir/path.
** A path that leads outside dir (absolute, `../`, a symlink) is refused
** with its line and column: a manifest names only its own files. */
static int make_path(value *v, pathctx *pc) {
    if (!v || v->type != CV_STR) return 0;
    int confined = path_confined_cached(pc, v->u.str.s);
    if (confined < 0) return -1;
    if (!confined) {
        cerr_addk(pc->errs, pc->mpath, v->line, v->col, NULL, "ruleset.outside_folder",
                  "\"%s\" is outside the ruleset folder %s: a manifest names only files inside its own folder",
                  v->u.str.s, pc->dir);
        pc->bad++;
        return 0;
    }
    char *p = path_join(pc->dir, v->u.str.s);
    if (!p) return -1;
    free(v->u.str.s);
    v->u.str.s = p;
    v->u.str.len = strlen(p);
    return 0;
}

static int make_paths_in_list(value *list, pathctx *dir) {
    if (!list || list->type != CV_LIST) return 0;
    for (size_t i = 0; i < list->u.list.n; i++)
        if (make_path(list->u.list.items[i], dir)) return -1;
    return 0;
}

/* Every file reference in a manifest becomes a path from the working
** folder, so that after an `extends` merge each still names its own file.
** Returns -1 when out of memory, 1 when a path was refused (reported). */
static int absolutize(value *m, pathctx *dir) {
    int rc = 0;
    rc |= make_path(value_map_get(m, "rules"), dir);
    rc |= make_path(value_map_get(m, "state_schema"), dir);
    rc |= make_paths_in_list(value_map_get(m, "tests"), dir);
    rc |= make_paths_in_list(value_map_get(m, "unit"), dir);
    rc |= make_paths_in_list(value_map_get(m, "generate"), dir);
    value *data = value_map_get(m, "data");
    for (size_t i = 0; data && data->type == CV_MAP && i < data->u.map.n; i++) {
        value *d = data->u.map.items[i].val;
        if (d->type == CV_STR) rc |= make_path(d, dir);
        else {
            rc |= make_path(value_map_get(d, "file"), dir);
            rc |= make_path(value_map_get(d, "schema"), dir);
        }
    }
    value *text = value_map_get(m, "text");
    for (size_t i = 0; text && text->type == CV_MAP && i < text->u.map.n; i++)
        rc |= make_path(text->u.map.items[i].val, dir);
    value *opts = value_map_get(m, "options");
    if (opts && opts->type == CV_MAP) opts = value_map_get(opts, "append"); /* a mod's additions */
    for (size_t i = 0; opts && opts->type == CV_LIST && i < opts->u.list.n; i++) {
        value *o = opts->u.list.items[i];
        rc |= make_path(value_map_get(o, "overlay"), dir);
        rc |= make_paths_in_list(value_map_get(o, "scripts"), dir);
        value *items = value_map_get(o, "items");
        for (size_t j = 0; items && items->type == CV_LIST && j < items->u.list.n; j++) {
            rc |= make_path(value_map_get(items->u.list.items[j], "overlay"), dir);
            rc |= make_paths_in_list(value_map_get(items->u.list.items[j], "scripts"), dir);
        }
    }
    value *golden = value_map_get(m, "golden");
    for (size_t i = 0; golden && golden->type == CV_LIST && i < golden->u.list.n; i++)
        rc |= make_path(value_map_get(golden->u.list.items[i], "file"), dir);
    if (rc) return -1;
    return dir->bad ? 1 : 0;
}

/* In a ruleset that extends nothing, `options: {append: [...]}` has
** nothing to append to: it is the list itself. */
static void unwrap_appends(value *m) {
    static const char *const keys[] = {"options", "presets", "visibility"};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        cv_entry *e = value_map_entry(m, keys[i]);
        if (!e || e->val->type != CV_MAP) continue;
        cv_entry *a = value_map_entry(e->val, "append");
        if (!a) continue;
        value *list = a->val;
        a->val = value_null();
        if (!a->val) { a->val = list; continue; }
        value_free(e->val);
        e->val = list;
    }
}

/* A mod runs its parent's `tests:`, `golden:` and `unit:` only when its
** manifest says so (`inherit: [tests, golden, unit]`; then its own come
** after the parent's); otherwise the parent's lists are dropped before the
** merge, so that a mod's `cairn test --regen` never rewrites its parent's
** golden files. A parent's `generate:` is never inherited: what it makes
** belongs in the parent's folder. */
static int inherit_lists(value *parent, value *child) {
    static const char *const keys[] = {"tests", "golden", "unit"};
    const value *inherit = value_map_get(child, "inherit");
    for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) {
        int wanted = 0;
        for (size_t i = 0; inherit && inherit->type == CV_LIST && i < inherit->u.list.n; i++) {
            const value *it = inherit->u.list.items[i];
            wanted |= it->type == CV_STR && strcmp(it->u.str.s, keys[k]) == 0;
        }
        value *mine = value_map_get(child, keys[k]);
        value *theirs = value_map_get(parent, keys[k]);
        if (!wanted) {
            value_map_del(parent, keys[k]);
        } else if (mine && theirs && mine->type == CV_LIST && theirs->type == CV_LIST) {
            /* the parent's, then the mod's own: the merge puts the list in place */
            value *both = value_clone(theirs);
            for (size_t i = 0; both && i < mine->u.list.n; i++) {
                value *c = value_clone(mine->u.list.items[i]);
                if (!c || value_list_push(both, c) != 0) { /* a failed push freed c */
                    value_free(both);
                    both = NULL;
                }
            }
            if (!both || value_map_set(child, keys[k], both) != 0) return -1;
        }
    }
    return 0;
}

static int push_dir(loader *ld, const char *dir) {
    char **d = realloc(ld->dirs, (ld->ndirs + 1) * sizeof *d);
    if (!d) return -1;
    ld->dirs = d;
    ld->dirs[ld->ndirs] = cairn_strdup(dir);
    if (!ld->dirs[ld->ndirs]) return -1;
    ld->ndirs++;
    return 0;
}

/* Refuses a NUL byte in any string of a manifest: ids, names and paths are
** C strings in cairn, so "fast\0evil" would be cut to "fast". Returns the
** number refused (each reported at its line and column). */
static int refuse_nul(const value *v, const char *path, cerr_list *errs, int depth) {
    if (!v || depth > CAIRN_YAML_MAX_DEPTH) return 0;
    int bad = 0;
    if (v->type == CV_STR && memchr(v->u.str.s, '\0', v->u.str.len)) {
        cerr_addk(errs, path, v->line, v->col, NULL, "ruleset.nul_byte",
                  "a NUL byte in a manifest string (ids, names and paths are cut short at it)");
        return 1;
    }
    if (v->type == CV_LIST)
        for (size_t i = 0; i < v->u.list.n; i++) bad += refuse_nul(v->u.list.items[i], path, errs, depth + 1);
    if (v->type == CV_MAP)
        for (size_t i = 0; i < v->u.map.n; i++) bad += refuse_nul(v->u.map.items[i].val, path, errs, depth + 1);
    return bad;
}

/* Loads dir/ruleset.yaml, validates it, follows `extends` (parents first)
** and returns the merged manifest. chain holds the folders already on the
** way down, to refuse cycles. */
static value *load_manifest(loader *ld, const char *dir, const char **chain, int depth) {
    char *path = path_join(dir, "ruleset.yaml");
    if (!path) return NULL;
    value *m = loader_yaml(ld, path);
    if (!m) {
        free(path);
        return NULL;
    }
    size_t before = cerr_count(ld->errs);
    loader_validate(ld, ld->manifest_schema, ld->manifest_schema_path, m);
    refuse_nul(m, path, ld->errs, 0);
    if (cerr_count(ld->errs) != before || m->type != CV_MAP) {
        if (m->type != CV_MAP && cerr_count(ld->errs) == before)
            cerr_addk(ld->errs, path, m->line, m->col, NULL, "ruleset.manifest_not_map", "a manifest must be a map");
        value_free(m);
        free(path);
        return NULL;
    }
    const char *id = value_get_str(m, "id", "ruleset");
    char *hashed = cairn_strfmt("%s/ruleset.yaml", id);
    if (hashed) files_add(&ld->files, path, hashed);
    else ld->files.oom = 1;
    free(hashed);
    pathctx pc = {.dir = dir, .mpath = path, .errs = ld->errs, .cache = ld->cache};
    int abs_rc = push_dir(ld, dir) != 0 ? -1 : absolutize(m, &pc);
    free(pc.dir_canon);
    if (abs_rc != 0) {
        if (abs_rc < 0) cerr_addk(ld->errs, path, 0, 0, NULL, "oom", "out of memory");
        value_free(m);
        free(path);
        return NULL;
    }
    loader_add_lua(ld, dir, id);

    value *ext = value_map_get(m, "extends");
    const value *inh = value_map_get(m, "inherit");
    if (!ext && inh) {
        cerr_addk(ld->errs, path, inh->line, inh->col, "inherit", "ruleset.inherit_without_extends",
                  "only a ruleset that extends another inherits its tests: add `extends:` or remove this");
        value_free(m);
        free(path);
        return NULL;
    }
    if (!ext) {
        unwrap_appends(m);
        free(path);
        return m;
    }
    if (depth >= CAIRN_MAX_EXTENDS) {
        char most[16];
        snprintf(most, sizeof most, "%d", CAIRN_MAX_EXTENDS);
        cerr_addk(ld->errs, path, ext->line, ext->col, "extends", "ruleset.extends_too_long",
                  "extends chain longer than %s rulesets (limit CAIRN_MAX_EXTENDS)", most);
        value_free(m);
        free(path);
        return NULL;
    }
    /* a relative path is relative to this ruleset; otherwise a name */
    char *rel = path_join(dir, ext->u.str.s);
    char *pdir = NULL;
    int find_oom = 0;
    if (rel && strchr(ext->u.str.s, '/')) pdir = ruleset_find_oom(rel, &find_oom);
    if (!rel) find_oom = 1;
    if (!pdir && !strchr(ext->u.str.s, '/')) pdir = find_on_path(ext->u.str.s, &find_oom);
    free(rel);
    if (!pdir && find_oom) {
        size_t before = ld->errs->n;
        cerr_add(ld->errs, path, ext->line, ext->col, "extends", "out of memory looking for the ruleset \"%s\"",
                 ext->u.str.s);
        cerr_key(ld->errs, before, "oom", 0, NULL, NULL);
        value_free(m);
        free(path);
        return NULL;
    }
    if (!pdir) {
        cerr_addk(ld->errs, path, ext->line, ext->col, "extends", "ruleset.extends_not_found",
                  "no ruleset \"%s\" found (looked in ./rulesets, %s/rulesets and CAIRN_PATH)", ext->u.str.s,
                  ruleset_share_dir());
        value_free(m);
        free(path);
        return NULL;
    }
    char *real = realpath(pdir, NULL);
    for (int i = 0; i < depth + 1 && real; i++) {
        if (chain[i] && strcmp(chain[i], real) == 0) {
            cerr_addk(ld->errs, path, ext->line, ext->col, "extends", "ruleset.extends_cycle",
                      "extends cycle: \"%s\" is already being extended", ext->u.str.s);
            free(real);
            free(pdir);
            value_free(m);
            free(path);
            return NULL;
        }
    }
    chain[depth + 1] = real;
    value *parent = load_manifest(ld, pdir, chain, depth + 1);
    chain[depth + 1] = NULL;
    free(real);
    free(pdir);
    if (!parent) {
        cerr_addk(ld->errs, path, ext->line, ext->col, "extends", "ruleset.parent_errors",
                  "the ruleset it extends has errors (above)");
        value_free(m);
        free(path);
        return NULL;
    }
    value_map_del(m, "extends");
    value_map_del(parent, "generate");
    if (inherit_lists(parent, m) != 0 || value_merge(parent, m) != 0) {
        cerr_addk(ld->errs, path, 0, 0, NULL, "oom", "out of memory merging over the parent ruleset");
        value_free(parent);
        value_free(m);
        free(path);
        return NULL;
    }
    value_free(m);
    free(path);
    return parent;
}

/* ------------------------------------------------------------------ options */

typedef enum { ORIGIN_DEFAULT, ORIGIN_AUTO, ORIGIN_PRESET, ORIGIN_CHOSEN, ORIGIN_FORCED } origin;

typedef struct opt_state {
    const value *def;
    const char *id;
    ropt_type type;
    value *val; /* owned: bool or string */
    origin from;
    const char *why; /* for ORIGIN_AUTO: the option that required it */
    const struct opt_state *excluded_by; /* switched off because this option excludes it */
} opt_state;

static const char *origin_text(origin o) {
    switch (o) {
    case ORIGIN_DEFAULT: return "by default";
    case ORIGIN_AUTO: return "because another option requires it";
    case ORIGIN_PRESET: return "by the preset";
    case ORIGIN_CHOSEN: return "as chosen";
    case ORIGIN_FORCED: return "by the seat count";
    }
    return "";
}

/* The key of a refusal that names where an option's value came from: one
** key for each origin (in the order of the enum), since the origin's words
** are part of the sentence in every language. */
static const char *origin_key(const char *const keys[5], origin o) {
    return o >= ORIGIN_DEFAULT && o <= ORIGIN_FORCED ? keys[o] : NULL;
}

/* The phrase keys of the origins (in the order of the enum), for a refusal
** that names two of them (base/error.h, cerr_phrase) */
static const char *const origin_phrase[5] = {"ruleset.origin.default", "ruleset.origin.auto",
                                             "ruleset.origin.preset", "ruleset.origin.chosen",
                                             "ruleset.origin.forced"};
static const char *const requires_excluded_keys[5] = {
    CERR_KEY("ruleset.requires_excluded.default"), CERR_KEY("ruleset.requires_excluded.auto"),
    CERR_KEY("ruleset.requires_excluded.preset"), CERR_KEY("ruleset.requires_excluded.chosen"),
    CERR_KEY("ruleset.requires_excluded.forced")};
static const char *const requires_set_keys[5] = {
    CERR_KEY("ruleset.requires_set.default"), CERR_KEY("ruleset.requires_set.auto"),
    CERR_KEY("ruleset.requires_set.preset"), CERR_KEY("ruleset.requires_set.chosen"),
    CERR_KEY("ruleset.requires_set.forced")};

static opt_state *find_opt(opt_state *os, size_t n, const char *id) {
    for (size_t i = 0; i < n; i++)
        if (strcmp(os[i].id, id) == 0) return &os[i];
    return NULL;
}

/* The option id nearest to a misspelt one (at most 2 edits), or NULL. */
static const char *closest_opt(opt_state *os, size_t n, const char *id) {
    suggest_nearest near = suggest_start(id, 2, 0);
    for (size_t i = 0; i < n; i++) suggest_try(&near, os[i].id);
    return near.best;
}

static int item_exists(const value *def, const char *item) {
    const value *items = value_map_get(def, "items");
    for (size_t i = 0; items && i < items->u.list.n; i++)
        if (strcmp(value_get_str(items->u.list.items[i], "id", ""), item) == 0) return 1;
    return 0;
}

/* The ids of a list of maps ("a, b, c"); malloc'd, NULL on OOM. */
static char *ids_text(const value *items) {
    char *s = cairn_strdup("");
    for (size_t i = 0; s && items && i < items->u.list.n; i++) {
        char *t = cairn_strfmt("%s%s%s", s, i ? ", " : "",
                               value_get_str(items->u.list.items[i], "id", "?"));
        free(s);
        s = t;
    }
    return s;
}

static char *items_text(const value *def) { return ids_text(value_map_get(def, "items")); }

/* Parses a value given as text for opt: switch takes true/false/on/off/
** yes/no/1/0, a choice takes one of its item ids. NULL if invalid. */
static value *parse_opt_value(const opt_state *o, const char *text) {
    if (o->type == ROPT_SWITCH) {
        if (!text || !strcmp(text, "true") || !strcmp(text, "on") || !strcmp(text, "yes") ||
            !strcmp(text, "1"))
            return value_bool(1);
        if (!strcmp(text, "false") || !strcmp(text, "off") || !strcmp(text, "no") ||
            !strcmp(text, "0"))
            return value_bool(0);
        return NULL;
    }
    if (!text || !item_exists(o->def, text)) return NULL;
    return value_str(text);
}

/* The option's value for v, or NULL: not a value it takes, or (*oom set)
** out of memory. */
static value *value_from_yaml_opt(const opt_state *o, const value *v, int *oom) {
    value *r = NULL;
    *oom = 0;
    if (o->type == ROPT_SWITCH) {
        if (v->type != CV_BOOL) return NULL;
        r = value_bool(v->u.b);
    } else if (v->type == CV_STR && item_exists(o->def, v->u.str.s)) {
        r = value_str(v->u.str.s);
    } else {
        return NULL;
    }
    if (!r) *oom = 1;
    return r;
}

static void set_opt(opt_state *o, value *v, origin from) {
    value_free(o->val);
    o->val = v;
    o->from = from;
}

static int opt_active(const opt_state *o) {
    return o->type == ROPT_CHOICE || (o->val && o->val->type == CV_BOOL && o->val->u.b);
}

static opt_state *find_opt_n(opt_state *os, size_t n, const char *id, size_t len) {
    for (size_t i = 0; i < n; i++)
        if (strncmp(os[i].id, id, len) == 0 && os[i].id[len] == '\0') return &os[i];
    return NULL;
}

/* Does a requires/excludes entry ("id" or "id=item") hold? *target gets the
** option it names; NULL if it names none (check_references reports those). */
static int ref_holds(opt_state *os, size_t n, const char *ref, opt_state **target,
                     const char **want) {
    const char *eq = strchr(ref, '=');
    size_t len = eq ? (size_t)(eq - ref) : strlen(ref);
    *want = eq ? eq + 1 : NULL;
    *target = find_opt_n(os, n, ref, len);
    if (!*target) return 0;
    if ((*target)->type == ROPT_SWITCH) return opt_active(*target);
    return *want ? strcmp((*target)->val->u.str.s, *want) == 0 : 1;
}

/* Every requires/excludes entry and every preset must name a real option
** and a real value, whether or not it is in play this time: `cairn check`
** reports a typo before a player meets it. */
static void check_references(opt_state *os, size_t n, const value *presets, cerr_list *errs,
                             const char *mpath) {
    static const char *const lists[] = {"requires", "excludes"};
    for (size_t i = 0; i < n; i++) {
        for (size_t l = 0; l < 2; l++) {
            const value *refs = value_map_get(os[i].def, lists[l]);
            for (size_t k = 0; refs && k < refs->u.list.n; k++) {
                const value *r = refs->u.list.items[k];
                const char *eq = strchr(r->u.str.s, '=');
                size_t len = eq ? (size_t)(eq - r->u.str.s) : strlen(r->u.str.s);
                opt_state *t = find_opt_n(os, n, r->u.str.s, len);
                if (!t) {
                    char *id = strndup(r->u.str.s, len);
                    if (!id) errs->oom = 1;
                    else if (l == 0)
                        cerr_addk(errs, mpath, r->line, r->col, os[i].id, "ruleset.requires_unknown",
                                  "requires names unknown option \"%s\"", id);
                    else
                        cerr_addk(errs, mpath, r->line, r->col, os[i].id, "ruleset.excludes_unknown",
                                  "excludes names unknown option \"%s\"", id);
                    free(id);
                } else if (t == &os[i] && l == 0)
                    cerr_addk(errs, mpath, r->line, r->col, os[i].id, "ruleset.requires_itself",
                              "an option cannot require itself");
                else if (t == &os[i])
                    cerr_addk(errs, mpath, r->line, r->col, os[i].id, "ruleset.excludes_itself",
                              "an option cannot exclude itself");
                else if (eq && t->type == ROPT_SWITCH)
                    cerr_addk(errs, mpath, r->line, r->col, os[i].id, "ruleset.switch_with_value",
                              "\"%s\": a switch is named without =VALUE (it means: switched on)", r->u.str.s);
                else if (eq && !item_exists(t->def, eq + 1)) {
                    char *items = items_text(t->def);
                    cerr_addk(errs, mpath, r->line, r->col, os[i].id, "ruleset.no_item",
                              "\"%s\": \"%s\" has no item \"%s\" (its items: %s)", r->u.str.s, t->id, eq + 1,
                              items ? items : "?");
                    free(items);
                }
            }
        }
    }
    for (size_t p = 0; presets && presets->type == CV_LIST && p < presets->u.list.n; p++) {
        const value *pr = presets->u.list.items[p];
        const value *po = value_map_get(pr, "options");
        for (size_t i = 0; po && i < po->u.map.n; i++) {
            const cv_entry *e = &po->u.map.items[i];
            opt_state *o = find_opt(os, n, e->key->u.str.s);
            int oom = 0;
            value *v = o ? value_from_yaml_opt(o, e->val, &oom) : NULL;
            if (oom) {
                cerr_addk(errs, NULL, 0, 0, NULL, "oom", "out of memory reading the presets");
            } else if (!o) {
                cerr_addk(errs, file_of(e->key), e->key->line, e->key->col, value_get_str(pr, "id", "preset"),
                          "ruleset.preset_unknown_option", "preset names unknown option \"%s\"", e->key->u.str.s);
            } else if (!v) {
                char *items = o->type == ROPT_CHOICE ? items_text(o->def) : NULL;
                if (items)
                    cerr_addk(errs, file_of(e->val), e->val->line, e->val->col, e->key->u.str.s,
                              "ruleset.preset_value_one_of", "not a value for this option: expected one of: %s", items);
                else
                    cerr_addk(errs, file_of(e->val), e->val->line, e->val->col, e->key->u.str.s,
                              "ruleset.preset_value_bool", "not a value for this option: expected true or false");
                free(items);
            }
            value_free(v);
        }
    }
}

static int explicit_origin(origin o) {
    return o == ORIGIN_CHOSEN || o == ORIGIN_PRESET || o == ORIGIN_FORCED;
}

/* Applies requires and excludes until nothing changes. A requirement not
** met is switched on when nobody chose otherwise; an option that excludes
** another is switched off instead when it was only on by default and the
** other was asked for; a conflict between values someone asked for is an
** error naming both. Every change switches an option on or off for a
** reason that only grows stronger, so 2n + 2 rounds settle any manifest;
** one that still moves then is reported. Each conflict it reports counts in
** *refused: the manifest forbids the combination asked for. */
static void settle_constraints(opt_state *os, size_t n, cerr_list *errs, const char *mpath,
                               size_t *refused) {
    for (size_t round = 0; round < 2 * n + 2; round++) {
        int changed = 0;
        for (size_t i = 0; i < n; i++) {
            if (!opt_active(&os[i])) continue;
            const value *req = value_map_get(os[i].def, "requires");
            for (size_t k = 0; req && k < req->u.list.n; k++) {
                const value *r = req->u.list.items[k];
                opt_state *t;
                const char *want;
                if (ref_holds(os, n, r->u.str.s, &t, &want) || !t) continue;
                if (t->excluded_by) {
                    size_t before = errs->n;
                    cerr_add(errs, mpath, r->line, r->col, os[i].id,
                             "option \"%s\" requires \"%s\", but \"%s\" (%s) excludes it", os[i].id,
                             r->u.str.s, t->excluded_by->id, origin_text(t->excluded_by->from));
                    const char *key = origin_key(requires_excluded_keys, t->excluded_by->from);
                    if (key) cerr_key4(errs, before, key, os[i].id, r->u.str.s, t->excluded_by->id, NULL);
                    (*refused)++;
                    return;
                }
                if (!explicit_origin(t->from)) {
                    value *v = t->type == ROPT_SWITCH ? value_bool(1) : value_str(want ? want : "");
                    set_opt(t, v, ORIGIN_AUTO);
                    t->why = os[i].id;
                    changed = 1;
                } else {
                    size_t before = errs->n;
                    cerr_add(errs, mpath, r->line, r->col, os[i].id,
                             "option \"%s\" requires \"%s\", but \"%s\" is set otherwise %s",
                             os[i].id, r->u.str.s, t->id, origin_text(t->from));
                    const char *key = origin_key(requires_set_keys, t->from);
                    if (key) cerr_key4(errs, before, key, os[i].id, r->u.str.s, t->id, NULL);
                    (*refused)++;
                    return;
                }
            }
            const value *exc = value_map_get(os[i].def, "excludes");
            for (size_t k = 0; exc && k < exc->u.list.n && opt_active(&os[i]); k++) {
                const value *r = exc->u.list.items[k];
                opt_state *t;
                const char *want;
                if (!ref_holds(os, n, r->u.str.s, &t, &want)) continue;
                if (t->type == ROPT_SWITCH && !explicit_origin(t->from) && os[i].from != ORIGIN_DEFAULT) {
                    set_opt(t, value_bool(0), ORIGIN_AUTO);
                    t->excluded_by = &os[i];
                    changed = 1;
                } else if (os[i].type == ROPT_SWITCH && !explicit_origin(os[i].from) &&
                           explicit_origin(t->from)) {
                    /* on only by default, and what it excludes was asked for */
                    set_opt(&os[i], value_bool(0), ORIGIN_AUTO);
                    os[i].excluded_by = t;
                    changed = 1;
                } else {
                    size_t before = errs->n;
                    cerr_add(errs, mpath, r->line, r->col, os[i].id,
                             "options \"%s\" (%s) and \"%s\" (%s) exclude each other", os[i].id,
                             origin_text(os[i].from), t->id, origin_text(t->from));
                    /* each origin a phrase of its own, worded by the console */
                    char *mine = cerr_phrase(origin_phrase[os[i].from], NULL);
                    char *theirs = cerr_phrase(origin_phrase[t->from], NULL);
                    if (mine && theirs)
                        cerr_key4(errs, before, "ruleset.exclude_each_other", os[i].id, mine, t->id, theirs);
                    free(mine);
                    free(theirs);
                    (*refused)++;
                    return;
                }
            }
        }
        if (!changed) return;
    }
    char *moving = cairn_strdup("");
    for (size_t i = 0; moving && i < n; i++)
        if (os[i].from == ORIGIN_AUTO) {
            char *t = cairn_strfmt("%s%s\"%s\"", moving, moving[0] ? ", " : "", os[i].id);
            free(moving);
            moving = t;
        }
    if (moving)
        cerr_addk(errs, mpath, 0, 0, "options", "ruleset.options_never_settle",
                  "requires and excludes never settle: %s keep switching each other on and off", moving);
    else
        cerr_addk(errs, mpath, 0, 0, "options", "ruleset.options_never_settle_some",
                  "requires and excludes never settle: some options keep switching each other on and off");
    free(moving);
    (*refused)++;
}

/* Decides every option's value for req. Errors that only say the manifest
** forbids this combination (requires/excludes, seat-count forcing) also
** count in *refused. */
static int resolve_options(ruleset *r, const ruleset_request *req, cerr_list *errs,
                           const char *mpath, size_t *refused) {
    value *opts = value_map_get(r->manifest, "options");
    size_t n = opts ? opts->u.list.n : 0;
    size_t before = cerr_count(errs);
    opt_state *os = calloc(n ? n : 1, sizeof *os);
    r->opts = calloc(n ? n : 1, sizeof *r->opts);
    r->options = value_map();
    if (!os || !r->opts || !r->options) {
        free(os);
        cerr_addk(errs, NULL, 0, 0, NULL, "oom", "out of memory");
        return -1;
    }
    r->n_opts = n;
    /* declarations and defaults */
    for (size_t i = 0; i < n; i++) {
        const value *def = opts->u.list.items[i];
        os[i].def = def;
        os[i].id = value_get_str(def, "id", "?");
        os[i].type = strcmp(value_get_str(def, "type", "switch"), "choice") == 0 ? ROPT_CHOICE
                                                                                 : ROPT_SWITCH;
        r->opts[i].def = def;
        r->opts[i].id = os[i].id;
        r->opts[i].name = value_get_str(def, "name", os[i].id);
        r->opts[i].description = value_get_str(def, "description", "");
        r->opts[i].type = os[i].type;
        for (size_t k = 0; k < i; k++)
            if (strcmp(os[k].id, os[i].id) == 0)
                cerr_addk(errs, mpath, def->line, def->col, "options", "ruleset.option_twice",
                          "option \"%s\" is declared twice", os[i].id);
        const value *d = value_map_get(def, "default");
        if (os[i].type == ROPT_CHOICE && !value_map_get(def, "items")) {
            cerr_addk(errs, mpath, def->line, def->col, os[i].id, "ruleset.choice_needs_items",
                      "a choice option needs `items`");
            continue;
        }
        value *v;
        if (d) {
            int oom = 0;
            v = value_from_yaml_opt(&os[i], d, &oom);
            if (oom) {
                cerr_addk(errs, NULL, 0, 0, NULL, "oom", "out of memory reading the options");
                continue;
            }
            if (!v) {
                char *items = os[i].type == ROPT_CHOICE ? items_text(def) : NULL;
                if (items)
                    cerr_addk(errs, mpath, d->line, d->col, os[i].id, "ruleset.default_one_of",
                              "default must be one of: %s", items);
                else
                    cerr_addk(errs, mpath, d->line, d->col, os[i].id, "ruleset.default_bool",
                              "default must be true or false");
                free(items);
                v = os[i].type == ROPT_SWITCH ? value_bool(0) : NULL;
            }
        } else if (os[i].type == ROPT_SWITCH) {
            v = value_bool(0);
        } else {
            const value *items = value_map_get(def, "items");
            v = value_str(value_get_str(items->u.list.items[0], "id", ""));
        }
        if (!v) v = value_str("");
        set_opt(&os[i], v, ORIGIN_DEFAULT);
    }
    check_references(os, n, value_map_get(r->manifest, "presets"), errs, mpath);
    /* preset */
    if (req && req->preset) {
        value *presets = value_map_get(r->manifest, "presets");
        const value *p = NULL;
        for (size_t i = 0; presets && i < presets->u.list.n; i++)
            if (strcmp(value_get_str(presets->u.list.items[i], "id", ""), req->preset) == 0)
                p = presets->u.list.items[i];
        if (!p) {
            /* say which presets there are, as a wrong --option does */
            char *ids = presets && presets->u.list.n ? ids_text(presets) : NULL;
            if (ids)
                cerr_addk(errs, NULL, 0, 0, NULL, "ruleset.no_preset_list",
                          "no preset \"%s\" in ruleset %s (its presets: %s)", req->preset, r->id, ids);
            else if (presets && presets->u.list.n) /* no memory for the list */
                cerr_addk(errs, NULL, 0, 0, NULL, "ruleset.no_preset", "no preset \"%s\" in ruleset %s", req->preset,
                          r->id);
            else
                cerr_addk(errs, NULL, 0, 0, NULL, "ruleset.no_preset_none",
                          "no preset \"%s\" in ruleset %s (it has none)", req->preset, r->id);
            free(ids);
        } else {
            const value *po = value_map_get(p, "options");
            for (size_t i = 0; po && i < po->u.map.n; i++) {
                const cv_entry *e = &po->u.map.items[i];
                opt_state *o = find_opt(os, n, e->key->u.str.s);
                int oom = 0;
                value *v = o ? value_from_yaml_opt(o, e->val, &oom) : NULL;
                if (oom) cerr_addk(errs, NULL, 0, 0, NULL, "oom", "out of memory applying the preset");
                if (o && v) set_opt(o, v, ORIGIN_PRESET); /* check_references reported the rest */
                else value_free(v);
            }
        }
    }
    /* explicit choices */
    for (size_t i = 0; req && i < req->n_choices; i++) {
        const char *c = req->choices[i];
        const char *eq = strchr(c, '=');
        size_t len = eq ? (size_t)(eq - c) : strlen(c);
        char *id = malloc(len + 1);
        if (!id) {
            cerr_addk(errs, NULL, 0, 0, NULL, "oom", "out of memory");
            break;
        }
        memcpy(id, c, len);
        id[len] = '\0';
        opt_state *o = find_opt(os, n, id);
        if (!o) {
            const char *near = closest_opt(os, n, id);
            if (near)
                cerr_addk(errs, NULL, 0, 0, NULL, "ruleset.cli_no_option_suggest",
                          "--option %s: no option \"%s\" in %s (did you mean \"%s\"?)", c, id, r->id, near);
            else {
                /* say which options there are, as a wrong --preset does */
                const value *opts = value_map_get(r->manifest, "options");
                char *ids = opts && opts->type == CV_LIST && opts->u.list.n ? ids_text(opts) : NULL;
                if (ids)
                    cerr_addk(errs, NULL, 0, 0, NULL, "ruleset.cli_no_option_list",
                              "--option %s: no option \"%s\" in %s (its options: %s)", c, id, r->id, ids);
                else if (n == 0)
                    cerr_addk(errs, NULL, 0, 0, NULL, "ruleset.cli_no_option_none",
                              "--option %s: no option \"%s\" in %s (it has none)", c, id, r->id);
                else /* no memory for the list */
                    cerr_addk(errs, NULL, 0, 0, NULL, "ruleset.cli_no_option", "--option %s: no option \"%s\" in %s", c,
                              id, r->id);
                free(ids);
            }
            free(id);
            continue;
        }
        for (size_t k = 0; k < i; k++)
            if (strncmp(req->choices[k], id, len) == 0 &&
                (req->choices[k][len] == '\0' || req->choices[k][len] == '='))
                cerr_addk(errs, NULL, 0, 0, NULL, "ruleset.cli_option_twice",
                          "--option %s: option \"%s\" is given twice", c, id);
        value *v = parse_opt_value(o, eq ? eq + 1 : NULL);
        if (!v) {
            char *items = o->type == ROPT_CHOICE ? items_text(o->def) : NULL;
            if (items)
                cerr_addk(errs, NULL, 0, 0, NULL, "ruleset.cli_takes_one_of", "--option %s: \"%s\" takes one of: %s", c,
                          id, items);
            else
                cerr_addk(errs, NULL, 0, 0, NULL, "ruleset.cli_takes_bool", "--option %s: \"%s\" takes true or false",
                          c, id);
            free(items);
            free(id);
            continue;
        }
        free(id);
        set_opt(o, v, ORIGIN_CHOSEN);
    }
    /* forced by the seat count */
    if (req && req->players > 0) {
        char key[16];
        snprintf(key, sizeof key, "%d", req->players);
        for (size_t i = 0; i < n; i++) {
            const value *f = value_map_get(value_map_get(os[i].def, "forced"), key);
            if (!f) continue;
            int oom = 0;
            value *v = value_from_yaml_opt(&os[i], f, &oom);
            if (oom) {
                cerr_addk(errs, NULL, 0, 0, NULL, "oom", "out of memory reading the options");
                continue;
            }
            if (!v) {
                char *items = os[i].type == ROPT_CHOICE ? items_text(os[i].def) : NULL;
                if (items)
                    cerr_addk(errs, file_of(f), f->line, f->col, os[i].id, "ruleset.forced_one_of",
                              "forced to a value it cannot take: expected one of: %s", items);
                else
                    cerr_addk(errs, file_of(f), f->line, f->col, os[i].id, "ruleset.forced_bool",
                              "forced to a value it cannot take: expected true or false");
                free(items);
                continue;
            }
            if (os[i].from == ORIGIN_CHOSEN && !value_equal(os[i].val, v, 0)) {
                /* as `rules` shows an option's value: a switch on or off, a
                ** choice by its item ("boolean true" read as a type) */
                char *want = v->type == CV_BOOL ? cairn_strdup(v->u.b ? "on" : "off")
                             : v->type == CV_STR ? cairn_strdup(v->u.str.s)
                                                 : value_describe(v);
                char seats[16];
                snprintf(seats, sizeof seats, "%d", req->players);
                cerr_addk(errs, NULL, 0, 0, NULL, "ruleset.forced_with_players",
                          "option \"%s\" is forced to %s with %s players", os[i].id, want ? want : "?", seats);
                free(want);
                (*refused)++;
            }
            set_opt(&os[i], v, ORIGIN_FORCED);
        }
    }
    if (cerr_count(errs) == before) settle_constraints(os, n, errs, mpath, refused);
    for (size_t i = 0; i < n; i++) {
        if (os[i].val) {
            if (value_map_set(r->options, os[i].id, os[i].val) != 0)
                cerr_addk(errs, NULL, 0, 0, NULL, "oom", "out of memory");
        }
        os[i].val = NULL;
    }
    free(os);
    return cerr_count(errs) == before ? 0 : -1;
}

int ruleset_has_secrets(const ruleset *r) {
    const value *vis = r->visibility;
    if (!vis || vis->type != CV_LIST) return 0;
    for (size_t i = 0; i < vis->u.list.n; i++) {
        const char *p = value_get_str(vis->u.list.items[i], "policy", "public");
        if (strcmp(p, "public") != 0) return 1;
    }
    return 0;
}

void ruleset_players_text(const ruleset *r, char *buf, size_t n) {
    if (r->min_players == r->max_players)
        snprintf(buf, n, "%d player%s", r->min_players, r->min_players == 1 ? "" : "s");
    else
        snprintf(buf, n, "%d-%d players", r->min_players, r->max_players);
}

const ruleset_option *ruleset_option_find(const ruleset *r, const char *id) {
    for (size_t i = 0; i < r->n_opts; i++)
        if (strcmp(r->opts[i].id, id) == 0) return &r->opts[i];
    return NULL;
}

/* ------------------------------------------------------------------- data */

static const char *data_file(const value *d) {
    return d->type == CV_STR ? d->u.str.s : value_get_str(d, "file", NULL);
}

static const char *data_schema(const value *d) {
    return d->type == CV_MAP ? value_get_str(d, "schema", NULL) : NULL;
}

/* The name under which a file is hashed: its path inside its ruleset. */
static char *hashed_name(const ruleset *r, loader *ld, const char *path) {
    for (size_t i = 0; i < ld->ndirs; i++) {
        size_t n = strlen(ld->dirs[i]);
        if (strncmp(path, ld->dirs[i], n) == 0 && path[n] == '/')
            return cairn_strfmt("%zu/%s", i, path + n + 1);
        /* `cairn check .`: path_join left the paths inside "." bare */
        if (strcmp(ld->dirs[i], ".") == 0 && path[0] != '/' && strncmp(path, "../", 3) != 0)
            return cairn_strfmt("%zu/%s", i, path);
    }
    (void)r;
    return cairn_strdup(path);
}

static value *load_tracked(ruleset *r, loader *ld, const char *path) {
    value *v = loader_yaml(ld, path);
    if (v) {
        char *name = hashed_name(r, ld, path);
        if (name) files_add(&ld->files, path, name);
        else ld->files.oom = 1; /* the fingerprint would miss it */
        free(name);
    }
    return v;
}

/* An overlay's `{append: [...]}` only makes sense over a list: over
** anything else value_merge would quietly replace the value. Reports each
** such place at the overlay's line; path is the data path so far. */
static void check_appends(const value *base, const value *ov, const char *path, const char *file,
                          cerr_list *errs) {
    if (!base || ov->type != CV_MAP || base->type != CV_MAP) return;
    for (size_t i = 0; i < ov->u.map.n; i++) {
        const cv_entry *e = &ov->u.map.items[i];
        const value *cur = value_map_get(base, e->key->u.str.s);
        char *sub = cairn_strfmt("%s%s%s", path, path[0] ? "." : "", e->key->u.str.s);
        if (!sub) return;
        const value *app = e->val->type == CV_MAP && e->val->u.map.n == 1 ? value_map_get(e->val, "append") : NULL;
        if (app && cur && cur->type != CV_LIST) {
            char *got = value_describe(cur);
            if (got)
                cerr_addk(errs, file, e->val->line, e->val->col, sub, "ruleset.append_not_list",
                          "append needs a list to add to, but the data has %s here", got);
            else
                cerr_addk(errs, file, e->val->line, e->val->col, sub, "ruleset.append_no_list",
                          "append needs a list to add to, but the data has no list here");
            free(got);
        } else if (!app) {
            check_appends(cur, e->val, sub, file, errs);
        }
        free(sub);
    }
}

/* Merges one overlay file (a map keyed by data name) over r->data. at is
** the manifest's `overlay:` node: a file that is not there is reported at
** the line that names it. */
static void apply_overlay(ruleset *r, loader *ld, const value *at) {
    const char *path = at->type == CV_STR ? at->u.str.s : "";
    if (!is_file(path)) {
        cerr_addk(ld->errs, file_of(at), at->line, at->col, "overlay", "ruleset.no_overlay",
                  "no overlay file \"%s\" (a path from the manifest's folder)", path);
        return;
    }
    value *ov = load_tracked(r, ld, path);
    if (!ov) return;
    if (ov->type != CV_MAP) {
        cerr_addk(ld->errs, path, ov->line, ov->col, NULL, "ruleset.overlay_not_map",
                  "an overlay must be a map keyed by data name (as in the manifest's `data`)");
    } else {
        for (size_t i = 0; i < ov->u.map.n; i++) {
            const value *k = ov->u.map.items[i].key;
            if (!value_map_get(r->data, k->u.str.s))
                cerr_addk(ld->errs, path, k->line, k->col, k->u.str.s, "ruleset.no_data_named",
                          "the manifest declares no data named \"%s\"", k->u.str.s);
        }
        check_appends(r->data, ov, "", path, ld->errs);
        if (value_merge(r->data, ov) != 0) cerr_addk(ld->errs, path, 0, 0, NULL, "oom", "out of memory");
    }
    value_free(ov);
}

/* Calls each(r, ld, at) for the `overlay:` node of every option value
** chosen, in the manifest's order; returns the number of calls. */
static size_t each_overlay(ruleset *r, loader *ld, void (*each)(ruleset *, loader *, const value *)) {
    size_t n = 0;
    for (size_t i = 0; i < r->n_opts; i++) {
        const value *def = r->opts[i].def;
        const value *chosen = value_map_get(r->options, r->opts[i].id);
        if (!chosen) continue;
        if (r->opts[i].type == ROPT_SWITCH) {
            if (chosen->type == CV_BOOL && chosen->u.b && value_map_get(def, "overlay")) {
                each(r, ld, value_map_get(def, "overlay"));
                n++;
            }
        } else {
            const value *items = value_map_get(def, "items");
            for (size_t k = 0; items && k < items->u.list.n; k++) {
                const value *it = items->u.list.items[k];
                if (strcmp(value_get_str(it, "id", ""), chosen->u.str.s) == 0 &&
                    value_map_get(it, "overlay")) {
                    each(r, ld, value_map_get(it, "overlay"));
                    n++;
                }
            }
        }
    }
    return n;
}

static void run_overlays(ruleset *r, loader *ld) { each_overlay(r, ld, apply_overlay); }

/* Borrowing (loader.borrow): the data names an overlay changes, gathered
** into r->data as keys with null values before any table is loaded (a
** scratch map, freed by touched_names). An overlay that cannot be read
** as a map turns borrowing off: the copying load reports it. */
static void note_touched(ruleset *r, loader *ld, const value *at) {
    const value *ov = at->type == CV_STR && is_file(at->u.str.s) ? load_cache_shared(ld->cache, at->u.str.s) : NULL;
    if (!ov || ov->type != CV_MAP) {
        ld->borrow = 0;
        return;
    }
    for (size_t i = 0; i < ov->u.map.n && ld->borrow; i++) {
        value *nothing = value_null();
        if (!nothing || value_map_set(r->data, ov->u.map.items[i].key->u.str.s, nothing) != 0) ld->borrow = 0;
    }
}

/* The names no overlay changes may be borrowed; returns the map of those
** that may not (NULL: borrow nothing). */
static value *touched_names(ruleset *r, loader *ld) {
    if (!ld->borrow || !ld->cache || (ld->req && ld->req->n_sets)) return NULL;
    value *keep = r->data;
    r->data = value_map();
    if (!r->data) {
        r->data = keep;
        return NULL;
    }
    each_overlay(r, ld, note_touched);
    value *touched = r->data;
    r->data = keep;
    if (!ld->borrow) {
        value_free(touched);
        return NULL;
    }
    return touched;
}

/* Takes every borrowed table out of r->data (they are the cache's). */
static void detach_borrowed(ruleset *r, loader *ld) {
    for (size_t i = 0; ld->n_borrowed && r && r->data && i < r->data->u.map.n; i++)
        for (size_t k = 0; k < ld->n_borrowed; k++)
            if (r->data->u.map.items[i].val == ld->borrowed[k]) r->data->u.map.items[i].val = NULL;
    free(ld->borrowed);
    ld->borrowed = NULL;
    ld->n_borrowed = 0;
    if (ld->manifest_borrowed && r) r->manifest = NULL;
    ld->manifest_borrowed = 0;
}

/* Puts data file `file` into r->data as name: the cache's parse, borrowed,
** when it may be (not in touched), else a copy of its own. */
static void add_table(ruleset *r, loader *ld, const char *name, const char *file, const value *touched) {
    const value *shared = touched && !value_map_get(touched, name) ? load_cache_shared(ld->cache, file) : NULL;
    const value **more = shared ? realloc(ld->borrowed, (ld->n_borrowed + 1) * sizeof *more) : NULL;
    if (!more) {
        value *v = load_tracked(r, ld, file);
        if (v && value_map_set(r->data, name, v) != 0) cerr_addk(ld->errs, file, 0, 0, NULL, "oom", "out of memory");
        return;
    }
    ld->borrowed = more;
    /* a null placeholder first: a failing map_set frees what it was given */
    value *slot = value_null();
    cv_entry *e = slot && value_map_set(r->data, name, slot) == 0 ? value_map_entry(r->data, name) : NULL;
    if (!e) {
        cerr_addk(ld->errs, file, 0, 0, NULL, "oom", "out of memory");
        return;
    }
    value_free(e->val);
    e->val = (value *)shared; /* never changed: no overlay or --set names it */
    ld->borrowed[ld->n_borrowed++] = shared;
    char *hashed = hashed_name(r, ld, file); /* as load_tracked: the fingerprint counts it */
    if (hashed) files_add(&ld->files, file, hashed);
    else ld->files.oom = 1;
    free(hashed);
}

static void load_data(ruleset *r, loader *ld) {
    r->data = value_map();
    if (!r->data) {
        cerr_addk(ld->errs, NULL, 0, 0, NULL, "oom", "out of memory loading the data");
        return;
    }
    const value *data = value_map_get(r->manifest, "data");
    value *touched = touched_names(r, ld);
    for (size_t i = 0; data && i < data->u.map.n; i++) {
        const char *name = data->u.map.items[i].key->u.str.s;
        const char *file = data_file(data->u.map.items[i].val);
        if (file) add_table(r, ld, name, file, touched);
    }
    value_free(touched);
    run_overlays(r, ld);
    for (size_t i = 0; ld->req && i < ld->req->n_sets; i++) {
        char *why = NULL, *phrase = NULL;
        if (ruleset_apply_set(r->data, ld->req->sets[i], &why, &phrase) != 0) {
            size_t before = ld->errs->n;
            cerr_add(ld->errs, NULL, 0, 0, NULL, "--set %s: %s", ld->req->sets[i], why ? why : "out of memory");
            if (why && phrase) cerr_key(ld->errs, before, "ruleset.set_refused", 0, ld->req->sets[i], phrase);
        }
        free(why);
        free(phrase);
    }
    /* validate after overlays and --set, so neither can break a table unseen */
    for (size_t i = 0; data && i < data->u.map.n; i++) {
        const value *d = data->u.map.items[i].val;
        const char *sp = data_schema(d);
        const value *inst = value_map_get(r->data, data->u.map.items[i].key->u.str.s);
        if (!sp || !inst) continue;
        const value *sch = schema_load(ld->schemas, sp, ld->errs);
        if (!sch) continue;
        char *name = hashed_name(r, ld, sp);
        if (name) files_add(&ld->files, sp, name);
        else ld->files.oom = 1;
        free(name);
        loader_validate(ld, sch, sp, inst);
    }
}

/* Every text table, checked against schemas/text.schema.yaml (strings, or
** plural forms; howto and legend). */
static void load_text(ruleset *r, loader *ld) {
    r->text = value_map();
    if (!r->text) cerr_addk(ld->errs, NULL, 0, 0, NULL, "oom", "out of memory loading the text");
    const value *text = value_map_get(r->manifest, "text");
    char *sp = text && text->type == CV_MAP && text->u.map.n ? path_join(ruleset_schemas_dir(), "text.schema.yaml")
                                                             : NULL;
    const value *sch = sp ? schema_load(ld->schemas, sp, ld->errs) : NULL;
    for (size_t i = 0; r->text && text && i < text->u.map.n; i++) {
        const cv_entry *e = &text->u.map.items[i];
        value *t = load_tracked(r, ld, e->val->u.str.s);
        if (!t) continue;
        if (t->type != CV_MAP) {
            cerr_addk(ld->errs, e->val->u.str.s, t->line, t->col, NULL, "ruleset.text_not_map",
                      "a text table must be a map of key: text");
            value_free(t);
            continue;
        }
        if (sch) loader_validate(ld, sch, sp, t);
        if (value_map_set(r->text, e->key->u.str.s, t) != 0) /* t freed */
            cerr_addk(ld->errs, e->val->u.str.s, 0, 0, NULL, "oom", "out of memory");
    }
    free(sp);
}

static int add_script(ruleset *r, const char *path, const value *at, cerr_list *errs) {
    if (!is_file(path)) {
        cerr_addk(errs, file_of(at), at ? at->line : 0, at ? at->col : 0, NULL, "ruleset.script_not_found",
                  "script \"%s\" not found", path);
        return -1;
    }
    char **s = realloc(r->scripts, (r->n_scripts + 1) * sizeof *s);
    if (s) r->scripts = s;
    if (!s || !(r->scripts[r->n_scripts] = cairn_strdup(path))) {
        size_t before = errs->n;
        cerr_add(errs, file_of(at), at ? at->line : 0, at ? at->col : 0, NULL,
                 "out of memory adding the script \"%s\"", path);
        cerr_key(errs, before, "oom", 0, NULL, NULL);
        return -1;
    }
    r->n_scripts++;
    return 0;
}

static void add_script_list(ruleset *r, const value *list, cerr_list *errs) {
    for (size_t i = 0; list && i < list->u.list.n; i++)
        add_script(r, list->u.list.items[i]->u.str.s, list->u.list.items[i], errs);
}

static void collect_scripts(ruleset *r, cerr_list *errs) {
    const value *main = value_map_get(r->manifest, "rules");
    if (!main) {
        cerr_addk(errs, file_of(r->manifest), 1, 1, NULL, "ruleset.no_rules",
                  "missing required key \"rules\" (the main Lua script)");
        return;
    }
    add_script(r, main->u.str.s, main, errs);
    for (size_t i = 0; i < r->n_opts; i++) {
        const value *def = r->opts[i].def;
        const value *chosen = value_map_get(r->options, r->opts[i].id);
        if (!chosen) continue;
        if (r->opts[i].type == ROPT_SWITCH) {
            if (chosen->type == CV_BOOL && chosen->u.b)
                add_script_list(r, value_map_get(def, "scripts"), errs);
            continue;
        }
        const value *items = value_map_get(def, "items");
        for (size_t k = 0; items && k < items->u.list.n; k++)
            if (strcmp(value_get_str(items->u.list.items[k], "id", ""), chosen->u.str.s) == 0)
                add_script_list(r, value_map_get(items->u.list.items[k], "scripts"), errs);
    }
}

/* ------------------------------------------------------------------- load */

void ruleset_free(ruleset *r) {
    if (!r) return;
    free(r->id);
    free(r->name);
    free(r->version);
    free(r->dir);
    free_strings(r->module_dirs, r->n_module_dirs);
    value_free(r->manifest);
    value_free(r->data);
    value_free(r->options);
    value_free(r->text);
    free(r->opts);
    free_strings(r->scripts, r->n_scripts);
    free(r);
}

static void check_players(ruleset *r, const ruleset_request *req, cerr_list *errs, size_t *refused) {
    const value *p = value_map_get(r->manifest, "players");
    r->min_players = (int)value_get_int(p, "min", 1);
    r->max_players = (int)value_get_int(p, "max", r->min_players);
    char mn[16], mx[16];
    snprintf(mn, sizeof mn, "%d", r->min_players);
    snprintf(mx, sizeof mx, "%d", r->max_players);
    if (r->min_players > r->max_players)
        cerr_addk(errs, file_of(p), p ? p->line : 0, p ? p->col : 0, "players", "ruleset.players_min_max",
                  "min (%s) is larger than max (%s)", mn, mx);
    const value *d = value_map_get(p, "default");
    if (d && d->type == CV_INT && (d->u.i < r->min_players || d->u.i > r->max_players)) {
        char dn[24];
        snprintf(dn, sizeof dn, "%lld", (long long)d->u.i);
        cerr_addk(errs, file_of(d), d->line, d->col, "players.default", "ruleset.players_default",
                  "default seat count %s is outside min..max (%s to %s)", dn, mn, mx);
    }
    if (req && req->players &&
        (req->players < r->min_players || req->players > r->max_players))
    {
        char asked[16];
        snprintf(asked, sizeof asked, "%d", req->players);
        cerr_addk(errs, NULL, 0, 0, NULL, "ruleset.players_not_for", "%s is for %s to %s players, not %s", r->id, mn,
                  mx, asked);
        (*refused)++;
    }
}

int ruleset_schema_folders(const ruleset *r, schema_set *s) {
    for (size_t i = 0; i < r->n_module_dirs; i++)
        if (schema_set_allow_dir(s, r->module_dirs[i]) != 0) return -1;
    return schema_set_fallback_dir(s, ruleset_schemas_dir());
}

ruleset *ruleset_load(const char *name_or_path, const ruleset_request *req, cerr_list *errs) {
    int refused;
    return ruleset_load_combination(name_or_path, req, &refused, errs);
}

/* The manifest of dir as a load that found no error in it left it (extends
** merged, paths made absolute), kept in the cache under "manifest\n<dir>",
** with what loading it added to the loader under the same key as a fact:
** the module folders ("dir\0" each), then "\n", then the files ("path\0
** name\0" each). Nothing a load does changes its manifest afterwards, so a
** verdict-only load borrows it instead of parsing, merging and copying it. */
static void remember_manifest(loader *ld, const char *dir, const value *m, size_t files_before) {
    strbuf key = {0}, fact = {0};
    strbuf_puts(&key, "manifest\n");
    strbuf_puts(&key, dir);
    for (size_t i = 0; i < ld->ndirs; i++) strbuf_putn(&fact, ld->dirs[i], strlen(ld->dirs[i]) + 1);
    strbuf_putc(&fact, '\n');
    for (size_t i = files_before; i < ld->files.n; i++) {
        strbuf_putn(&fact, ld->files.paths[i], strlen(ld->files.paths[i]) + 1);
        strbuf_putn(&fact, ld->files.names[i], strlen(ld->files.names[i]) + 1);
    }
    value *copy = key.oom || fact.oom || ld->files.oom || load_cache_tree(ld->cache, key.s) ? NULL : value_clone(m);
    if (copy) {
        load_cache_remember(ld->cache, key.s, key.n, fact.s, fact.n);
        load_cache_keep_tree(ld->cache, key.s, copy);
    }
    strbuf_free(&key);
    strbuf_free(&fact);
}

/* The remembered manifest of dir with its folders and files added to ld,
** or NULL (then ld is as it was). */
static const value *recall_manifest(loader *ld, const char *dir) {
    strbuf key = {0};
    strbuf_puts(&key, "manifest\n");
    strbuf_puts(&key, dir);
    size_t len = 0;
    const value *m = key.oom ? NULL : load_cache_tree(ld->cache, key.s);
    const char *fact = m ? load_cache_recall(ld->cache, key.s, key.n, &len) : NULL;
    strbuf_free(&key);
    if (!fact) return NULL;
    const char *p = fact, *end = fact + len;
    for (; p < end && *p != '\n'; p += strlen(p) + 1)
        if (push_dir(ld, p) != 0) return NULL; /* the caller frees ld's folders */
    for (p++; p < end;) {
        const char *name = p + strlen(p) + 1;
        files_add(&ld->files, p, name);
        p = name + strlen(name) + 1;
    }
    return m;
}

/* verdict_only: a combination known clean comes back unbuilt (no data,
** text, scripts or fingerprint), for ruleset_verdict_cached to free. */
static ruleset *load_combination(const char *name_or_path, const ruleset_request *req,
                                 load_cache *cache, int verdict_only, int *refused, cerr_list *errs);

ruleset *ruleset_load_combination(const char *name_or_path, const ruleset_request *req, int *refused,
                                  cerr_list *errs) {
    return load_combination(name_or_path, req, NULL, 0, refused, errs);
}

ruleset *ruleset_load_cached(const char *name_or_path, const ruleset_request *req, load_cache *cache,
                             int *refused, cerr_list *errs) {
    return load_combination(name_or_path, req, cache, 0, refused, errs);
}

int ruleset_verdict_cached(const char *name_or_path, const ruleset_request *req, load_cache *cache,
                           int *refused, cerr_list *errs) {
    ruleset *r = load_combination(name_or_path, req, cache, 1, refused, errs);
    int rc = r ? 0 : -1;
    ruleset_free(r);
    return rc;
}

/* What a combination's data, text and scripts depend on once the manifest
** is loaded: the folder, each option's resolved value, and --set. The key
** under which load_cache remembers that it loaded cleanly. */
static int combination_key(const ruleset *r, const ruleset_request *req, strbuf *key) {
    strbuf_putn(key, "combination", 12);
    strbuf_putn(key, r->dir, strlen(r->dir) + 1);
    for (size_t i = 0; i < r->n_opts; i++) {
        const value *v = value_map_get(r->options, r->opts[i].id);
        const char *text = !v ? "" : v->type == CV_BOOL ? (v->u.b ? "true" : "false")
                                 : v->type == CV_STR ? v->u.str.s : NULL;
        if (!text) return -1; /* not a value an option resolves to: not remembered */
        strbuf_putn(key, r->opts[i].id, strlen(r->opts[i].id) + 1);
        strbuf_putc(key, v ? (char)('0' + v->type) : '-');
        strbuf_putn(key, text, strlen(text) + 1);
    }
    for (size_t i = 0; req && i < req->n_sets; i++) strbuf_putn(key, req->sets[i], strlen(req->sets[i]) + 1);
    return key->oom ? -1 : 0;
}

static ruleset *load_combination(const char *name_or_path, const ruleset_request *req,
                                 load_cache *cache, int verdict_only, int *refused, cerr_list *errs) {
    size_t before = cerr_count(errs), refusals = 0;
    int oom_before = errs->oom;
    *refused = 0;
    int find_oom = 0;
    char *dir = ruleset_find_oom(name_or_path, &find_oom);
    if (!dir && find_oom) {
        size_t before = errs->n;
        cerr_add(errs, NULL, 0, 0, NULL, "out of memory looking for the ruleset \"%s\"", name_or_path);
        cerr_key(errs, before, "oom", 0, NULL, NULL);
        return NULL;
    }
    if (!dir) {
        size_t len = strlen(name_or_path);
        if (is_file(name_or_path) && len >= 12 && strcmp(name_or_path + len - 12, "ruleset.yaml") == 0)
            cerr_addk(errs, NULL, 0, 0, NULL, "ruleset.give_folder", "%s: give the ruleset's folder, not its manifest",
                      name_or_path);
        else if (strchr(name_or_path, '/') || is_dir(name_or_path))
            cerr_addk(errs, NULL, 0, 0, NULL, "ruleset.no_manifest", "%s: no ruleset.yaml in this folder",
                      name_or_path);
        else
            cerr_addk(errs, NULL, 0, 0, NULL, "ruleset.not_found",
                      "no ruleset \"%s\" (looked in ./rulesets, %s/rulesets and CAIRN_PATH; "
                      "`cairn play` lists those found)", name_or_path, ruleset_share_dir());
        return NULL;
    }
    loader ld = {0};
    ld.errs = errs;
    ld.req = req;
    ld.cache = cache;
    ld.borrow = verdict_only && cache; /* the ruleset is freed unseen */
    /* an earlier load's schema set has its folders already */
    schema_set *kept = cache ? load_cache_take_schemas(cache) : NULL;
    ld.schemas = kept ? kept : schema_set_new();
    ld.manifest_schema_path = path_join(ruleset_schemas_dir(), "ruleset.schema.yaml");
    ruleset *r = calloc(1, sizeof *r);
    if (!ld.schemas || !ld.manifest_schema_path || !r ||
        (!kept && schema_set_fallback_dir(ld.schemas, ruleset_schemas_dir()) != 0)) {
        cerr_addk(errs, NULL, 0, 0, NULL, "oom", "out of memory");
        goto fail;
    }
    ld.manifest_schema = schema_load(ld.schemas, ld.manifest_schema_path, errs);
    if (!ld.manifest_schema) goto fail;
    r->dir = dir;
    dir = NULL;
    const char *chain[CAIRN_MAX_EXTENDS + 2] = {0};
    char *real = realpath(r->dir, NULL);
    chain[0] = real;
    const value *known = verdict_only && cache ? recall_manifest(&ld, r->dir) : NULL;
    size_t manifest_files = ld.files.n, manifest_errs = cerr_count(errs);
    if (known) {
        r->manifest = (value *)known; /* read only; detached before r is freed */
        ld.manifest_borrowed = 1;
    } else {
        r->manifest = load_manifest(&ld, r->dir, chain, 0);
    }
    free(real);
    if (!r->manifest) goto fail;
    r->module_dirs = ld.dirs;
    r->n_module_dirs = ld.ndirs;
    ld.dirs = NULL;
    ld.ndirs = 0;
    if (!kept && ruleset_schema_folders(r, ld.schemas) != 0) {
        cerr_addk(errs, NULL, 0, 0, NULL, "oom", "out of memory");
        goto fail;
    }
    /* hashed names use the module dir index */
    ld.dirs = r->module_dirs;
    ld.ndirs = r->n_module_dirs;
    r->id = cairn_strdup(value_get_str(r->manifest, "id", "?"));
    r->name = cairn_strdup(value_get_str(r->manifest, "name", r->id));
    r->version = cairn_strdup(value_get_str(r->manifest, "version", "0"));
    r->visibility = value_map_get(r->manifest, "visibility");
    r->players = req ? req->players : 0;
    char *mpath = path_join(r->dir, "ruleset.yaml");
    check_players(r, req, errs, &refusals);
    resolve_options(r, req, errs, mpath, &refusals);
    free(mpath);
    /* only the option values' verdicts ask for it again */
    if (cache && !known && r->n_opts && cerr_count(errs) == manifest_errs && errs->oom == oom_before)
        remember_manifest(&ld, r->dir, r->manifest, manifest_files);
    if (refusals) {
        /* the combination cannot be played: its data would say nothing */
        *refused = cerr_count(errs) - before == refusals;
        ld.dirs = NULL; /* borrowed from r->module_dirs, which ruleset_free frees */
        ld.ndirs = 0;
        goto fail;
    }
    strbuf combo = {0};
    int have_combo = cache && r->options && combination_key(r, req, &combo) == 0;
    size_t combo_len = 0;
    if (verdict_only && have_combo && cerr_count(errs) == before && errs->oom == oom_before &&
        load_cache_recall(cache, combo.s, combo.n, &combo_len)) {
        /* loaded cleanly before: the same data, text and scripts again */
        strbuf_free(&combo);
        detach_borrowed(r, &ld);
        ld.dirs = NULL;
        ld.ndirs = 0;
        files_free(&ld.files);
        load_cache_keep_schemas(cache, ld.schemas);
        free(ld.manifest_schema_path);
        return r;
    }
    if (r->options) {
        load_data(r, &ld);
        load_text(r, &ld);
        collect_scripts(r, errs);
    }
    ld.dirs = NULL;
    ld.ndirs = 0;
    const value *ss = value_map_get(r->manifest, "state_schema");
    if (ss && ss->type == CV_STR) {
        if (schema_load(ld.schemas, ss->u.str.s, errs)) {
            char *name = cairn_strfmt("state/%s", strrchr(ss->u.str.s, '/') ? strrchr(ss->u.str.s, '/') + 1 : ss->u.str.s);
            if (name) files_add(&ld.files, ss->u.str.s, name);
            else ld.files.oom = 1;
            free(name);
        }
    }
    if (cerr_count(errs) != before || errs->oom != oom_before ||
        fingerprint(&ld.files, cache, r->fingerprint, errs) != 0) {
        strbuf_free(&combo);
        goto fail;
    }
    if (have_combo) load_cache_remember(cache, combo.s, combo.n, "", 0);
    strbuf_free(&combo);
    r->n_files = ld.files.n;
    files_free(&ld.files);
    if (cache) load_cache_keep_schemas(cache, ld.schemas);
    else schema_set_free(ld.schemas);
    free(ld.manifest_schema_path);
    detach_borrowed(r, &ld); /* a verdict's ruleset is only freed */
    return r;
fail:
    detach_borrowed(r, &ld);
    free(dir);
    free_strings(ld.dirs, ld.ndirs);
    files_free(&ld.files);
    /* a combination the manifest forbids leaves the schemas as they were;
    ** after any other error the next load starts afresh */
    if (cache && ld.schemas && *refused && errs->oom == oom_before) {
        load_cache_keep_schemas(cache, ld.schemas);
    } else {
        if (ld.schemas) schema_set_free(ld.schemas);
        if (cache) load_cache_keep_schemas(cache, NULL);
    }
    free(ld.manifest_schema_path);
    ruleset_free(r);
    return NULL;
}

/* ------------------------------------------------------ --set overrides */

int ruleset_set_split(const char *set, char **name, char **path, const char **val, char **why) {
    *name = *path = NULL;
    const char *eq = strchr(set, '='), *dot = strchr(set, '.');
    if (!eq || !dot || dot > eq || dot == set || dot + 1 == eq) {
        *why = cairn_strfmt("--set takes DATA.PATH=VALUE (scoring.bonus=4), got \"%s\"", set);
        return -1;
    }
    *name = strndup(set, (size_t)(dot - set));
    *path = strndup(dot + 1, (size_t)(eq - dot - 1));
    *val = eq + 1;
    if (*name && *path) return 0;
    free(*name);
    free(*path);
    *name = *path = NULL;
    *why = cairn_strdup("out of memory");
    return -1;
}

/* *why (English) and, when phrase is not NULL, *phrase: the phrase key with
** its one argument (NULL: none). -1. */
static int set_refused(char **why, char **phrase, const char *key, const char *english, const char *arg) {
    *why = arg ? cairn_strfmt(english, arg) : cairn_strdup(english);
    if (phrase) *phrase = cerr_phrase(key, arg, NULL);
    return -1;
}

int ruleset_data_set(value *root, const char *path, const char *yaml, char **why, char **phrase) {
    *why = NULL;
    if (phrase) *phrase = NULL;
    char *p = cairn_strdup(path);
    if (!p) return set_refused(why, phrase, "ruleset.set.oom", "out of memory", NULL);
    value *v = root, *parent = NULL;
    const char *key = NULL;
    for (char *save = NULL, *k = strtok_r(p, ".", &save); k; k = strtok_r(NULL, ".", &save)) {
        parent = v, key = k;
        if (v->type == CV_MAP) {
            v = value_map_get(v, k);
        } else if (v->type == CV_LIST) {
            char *end;
            long i = strtol(k, &end, 10);
            v = *end || i < 1 || (size_t)i > v->u.list.n ? NULL : v->u.list.items[i - 1];
        } else {
            v = NULL;
        }
        if (!v) {
            set_refused(why, phrase, "ruleset.set.no_such", "no \"%s\" there in the data", k);
            free(p);
            return -1;
        }
    }
    if (!parent) {
        free(p);
        return set_refused(why, phrase, "ruleset.set.which_part", "which part of the data?", NULL);
    }
    cerr_list errs;
    cerr_init(&errs, 0);
    value *nv = yload_string("--set", yaml, strlen(yaml), NULL, &errs);
    cerr_free(&errs);
    int rc = -1;
    if (!nv) {
        set_refused(why, phrase, "ruleset.set.not_yaml", "the value does not read as YAML", NULL);
    } else if (parent->type == CV_MAP) {
        rc = value_map_set(parent, key, nv) == 0 ? 0 : -1;
        if (rc) set_refused(why, phrase, "ruleset.set.oom", "out of memory", NULL);
    } else { /* a list item, by index from 1 (walked above) */
        size_t i = (size_t)strtol(key, NULL, 10) - 1;
        value_free(parent->u.list.items[i]);
        parent->u.list.items[i] = nv;
        rc = 0;
    }
    free(p);
    return rc;
}

int ruleset_apply_set(value *data, const char *set, char **why, char **phrase) {
    char *name, *path;
    const char *val;
    if (phrase) *phrase = NULL;
    if (ruleset_set_split(set, &name, &path, &val, why) != 0) {
        if (phrase) *phrase = cerr_phrase("ruleset.set.form", set, NULL);
        return -1;
    }
    value *d = value_map_get(data, name);
    int rc = -1;
    if (!d) set_refused(why, phrase, "ruleset.set.no_data", "no data \"%s\"", name);
    else rc = ruleset_data_set(d, path, val, why, phrase);
    free(name);
    free(path);
    return rc;
}
