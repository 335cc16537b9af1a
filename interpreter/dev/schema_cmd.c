/*
** schema_cmd.c
** `cairn schema NAME|FILE` (schema_cmd.h): finds the schema in cairn's
** schemas folder (NAME.schema.yaml) or takes FILE as a path, loads it as
** YAML and writes the value tree as JSON.
*/
#include "schema_cmd.h"
#include "error.h"
#include "ruleset.h"
#include "safe_open.h"
#include "value_json.h"
#include "yload.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char SUFFIX[] = ".schema.yaml";

/* prints the NAMEs of cairn's schemas folder, sorted, one a line */
static int list_schemas(FILE *out) {
    const char *dir = ruleset_schemas_dir();
    struct dirent **names = NULL;
    int n = scandir(dir, &names, NULL, alphasort);
    if (n < 0) {
        fprintf(stderr, "cairn schema: cannot read %s\n", dir);
        return 1;
    }
    fprintf(out, "cairn's schemas (%s), for `cairn schema NAME`:\n", dir);
    for (int i = 0; i < n; i++) {
        size_t len = strlen(names[i]->d_name), sl = sizeof SUFFIX - 1;
        if (len > sl && strcmp(names[i]->d_name + len - sl, SUFFIX) == 0)
            fprintf(out, "  %.*s\n", (int)(len - sl), names[i]->d_name);
        free(names[i]);
    }
    free(names);
    return 0;
}

static int is_plain_name(const char *s) {
    if (!*s) return 0;
    for (const char *p = s; *p; p++)
        if (!(( *p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '_' || *p == '-')) return 0;
    return 1;
}

int schema_cmd_main(int argc, char **argv) {
    if (argc == 1) return list_schemas(stdout);
    if (argc != 2 || argv[1][0] == '-') {
        fprintf(stderr, "cairn schema: unexpected \"%s\"\nusage: %s\n", argc > 2 ? argv[2] : argv[1],
                SCHEMA_CMD_USAGE);
        return 2;
    }
    const char *arg = argv[1];
    char path[4096];
    int n = is_plain_name(arg) ? snprintf(path, sizeof path, "%s/%s%s", ruleset_schemas_dir(), arg, SUFFIX)
                               : snprintf(path, sizeof path, "%s", arg);
    if (n < 0 || (size_t)n >= sizeof path) {
        fprintf(stderr, "cairn schema: the name is too long\n");
        return 2;
    }
    char why[128];
    FILE *probe = safe_fopen_read(path, NULL, why, sizeof why); /* never a FIFO */
    if (!probe) {
        if (errno == ENOENT) fprintf(stderr, "cairn schema: no schema \"%s\" (no file %s)\n", arg, path);
        else fprintf(stderr, "cairn schema: no schema \"%s\" (%s: %s)\n", arg, path, why);
        list_schemas(stderr);
        return 1;
    }
    fclose(probe);
    cerr_list errs;
    cerr_init(&errs, 0);
    value *v = yload_file(path, &errs);
    if (!v) {
        cerr_print(stderr, &errs);
        cerr_free(&errs);
        return 1;
    }
    cerr_free(&errs);
    int rc = value_write_json(stdout, v);
    value_free(v);
    if (rc != 0 || fflush(stdout) != 0) {
        fprintf(stderr, "cairn schema: cannot write the output\n");
        return 1;
    }
    return 0;
}
