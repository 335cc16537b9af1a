/*
** sim_set.c
** `cairn sim --set KEY=VALUE`: a data override without writing a mod. The
** engine takes option choices but no data overrides, so sim writes the mod
** a designer would have written: a temporary folder whose manifest extends
** the ruleset and replaces the data files touched with copies holding the
** new values. It is removed when the run ends.
*/
#include "sim_internal.h"
#include "error.h"
#include "ruleset.h"
#include "yload.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* One data file being changed: its name in g.data, and its new contents. */
typedef struct set_file {
    const char *name;
    value *data;
    int is_map; /* the manifest's entry is {file, schema}, not a file name */
} set_file;

/* Applies "name.path=VALUE" to the file of `name` (loaded on first use). */
static int apply_set(const ruleset *rs, set_file *files, size_t *n, const char *set, FILE *err) {
    char *path = NULL, *name = NULL, *why = NULL;
    const char *val;
    int rc = -1;
    if (ruleset_set_split(set, &name, &path, &val, &why) != 0) {
        fprintf(err, "cairn sim: %s\n", why ? why : "out of memory");
        free(why);
        return -1;
    }
    const value *entry = value_map_get(value_map_get(rs->manifest, "data"), name);
    if (!entry) {
        fprintf(err, "cairn sim: --set %s: %s declares no data \"%s\"\n", set, rs->id, name);
        goto done;
    }
    set_file *f = NULL;
    for (size_t i = 0; i < *n; i++)
        if (!strcmp(files[i].name, name)) f = &files[i];
    if (!f) {
        const char *file = entry->type == CV_STR ? entry->u.str.s : value_get_str(entry, "file", NULL);
        cerr_list errs;
        cerr_init(&errs, 0);
        value *data = file ? yload_file(file, &errs) : NULL;
        if (!data) cerr_print(err, &errs);
        cerr_free(&errs);
        if (!data) goto done;
        f = &files[(*n)++];
        f->name = value_map_entry(value_map_get(rs->manifest, "data"), name)->key->u.str.s; /* lives in rs */
        f->data = data;
        f->is_map = entry->type == CV_MAP;
    }
    /* the one implementation of --set (ruleset.c), on the file as written */
    rc = ruleset_data_set(f->data, path, val, &why, NULL);
    if (rc) fprintf(err, "cairn sim: --set %s: %s\n", set, why ? why : "out of memory");
    free(why);
done:
    free(path);
    free(name);
    return rc;
}

static int write_yaml(const char *dir, const char *name, const value *v) {
    char *p = cairn_strfmt("%s/%s.yaml", dir, name);
    FILE *f = p ? fopen(p, "w") : NULL;
    free(p);
    if (!f) return -1;
    int rc = value_dump_yaml(f, v);
    return fclose(f) != 0 || rc != 0 ? -1 : 0;
}

void sim_set_remove(char *dir) {
    if (!dir) return;
    DIR *d = opendir(dir); /* holds only the files sim_set_mod wrote */
    for (struct dirent *e; d && (e = readdir(d));) {
        if (e->d_name[0] == '.') continue;
        char *p = cairn_strfmt("%s/%s", dir, e->d_name);
        if (p) unlink(p);
        free(p);
    }
    if (d) closedir(d);
    rmdir(dir); /* a folder left in $TMPDIR is no failure of the run */
    free(dir);
}

char *sim_set_mod(const char *base, const char *const *sets, size_t n_sets, FILE *err) {
    char *found = ruleset_find(base), *abs = found ? realpath(found, NULL) : NULL, *dir = NULL;
    free(found);
    if (!abs) {
        fprintf(err, "cairn sim: no ruleset \"%s\" for --set\n", base);
        return NULL;
    }
    cerr_list errs;
    cerr_init(&errs, 0);
    ruleset_request req = {0};
    ruleset *rs = ruleset_load(abs, &req, &errs);
    if (!rs) cerr_print(err, &errs);
    cerr_free(&errs);
    set_file *files = calloc(n_sets ? n_sets : 1, sizeof *files);
    size_t n = 0;
    int rc = rs && files ? 0 : -1;
    for (size_t i = 0; i < n_sets && rc == 0; i++) rc = apply_set(rs, files, &n, sets[i], err);
    const char *tmp = getenv("TMPDIR");
    char *tmpl = rc == 0 ? cairn_strfmt("%s/cairn-set-XXXXXX", tmp && *tmp ? tmp : "/tmp") : NULL;
    if (rc == 0 && (!tmpl || !mkdtemp(tmpl))) {
        fprintf(err, "cairn sim: cannot make a folder for --set\n");
        rc = -1;
    }
    if (rc == 0) {
        dir = tmpl, tmpl = NULL;
        char *m = cairn_strfmt("%s/ruleset.yaml", dir);
        FILE *f = m ? fopen(m, "w") : NULL;
        free(m);
        if (!f) rc = -1;
        else {
            fprintf(f, "# made by cairn sim --set\nid: %s\nname: \"%s, changed\"\nextends: \"%s\"\ndata:\n", rs->id,
                    rs->id, abs);
            for (size_t i = 0; i < n; i++)
                fprintf(f, files[i].is_map ? "  %s: {file: %s.yaml}\n" : "  %s: %s.yaml\n", files[i].name, files[i].name);
            if (fclose(f) != 0) rc = -1;
        }
        for (size_t i = 0; i < n && rc == 0; i++) rc = write_yaml(dir, files[i].name, files[i].data);
        if (rc) fprintf(err, "cairn sim: cannot write the --set mod in %s\n", dir);
    }
    for (size_t i = 0; i < n; i++) value_free(files[i].data);
    free(files);
    free(tmpl);
    ruleset_free(rs);
    free(abs);
    if (rc) sim_set_remove(dir), dir = NULL;
    return dir;
}
