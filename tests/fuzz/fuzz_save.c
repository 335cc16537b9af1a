/*
** fuzz_save.c
** libFuzzer harness for saves and scenarios: arbitrary bytes as a save file, loaded, re-saved and loaded again.
*/
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine.h"
#include "error.h"
#include "save.h"
#include "value.h"

/* Saves name their ruleset; it is found along ./rulesets, so tools/fuzz
** runs the harness from the repo root. */
static char in_path[64], out_path[64];

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc;
    (void)argv;
    const char *tmp = getenv("TMPDIR");
    snprintf(in_path, sizeof in_path, "%.40s/cairn-fuzz-save-%ld.save", tmp && *tmp ? tmp : "/tmp", (long)getpid());
    snprintf(out_path, sizeof out_path, "%.40s/cairn-fuzz-save-%ld.out", tmp && *tmp ? tmp : "/tmp", (long)getpid());
    return 0;
}

static int write_input(const uint8_t *data, size_t size) {
    FILE *f = fopen(in_path, "wb");
    if (!f) return -1;
    size_t w = fwrite(data, 1, size, f);
    return fclose(f) == 0 && w == size ? 0 : -1;
}

/* A game the engine accepted must save, and that save must load. */
static void check_resave(const engine *e) {
    cerr_list errs;
    cerr_init(&errs, 0);
    value *v = save_to_value(e);
    char *text = v ? value_to_yaml(v) : NULL;
    free(text);
    value_free(v);
    if (save_write(e, out_path, &errs) != 0) {
        fprintf(stderr, "fuzz_save: an accepted game does not save:\n");
        cerr_print(stderr, &errs);
        abort();
    }
    char *note = NULL;
    save_load_opts o = {.checks = 1};
    engine *back = save_load(out_path, &o, &note, &errs);
    if (!back) {
        fprintf(stderr, "fuzz_save: the save of an accepted game does not load:\n");
        cerr_print(stderr, &errs);
        abort();
    }
    free(note);
    engine_free(back);
    cerr_free(&errs);
    unlink(out_path);
}

static void load_as(int as_scenario) {
    cerr_list errs;
    cerr_init(&errs, 0);
    char *note = NULL;
    save_load_opts o = {.as_scenario = as_scenario, .checks = 1};
    engine *e = save_load(in_path, &o, &note, &errs);
    if (!e && cerr_count(&errs) == 0) {
        fprintf(stderr, "fuzz_save: save refused without an error\n");
        abort();
    }
    if (e) check_resave(e);
    free(note);
    engine_free(e);
    cerr_free(&errs);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (write_input(data, size) != 0) return 0;
    load_as(0);
    load_as(1); /* a changed ruleset: the snapshot starts a new game */

    /* the same bytes as a scenario file (`export`, then hand-edited) */
    cerr_list errs;
    cerr_init(&errs, 0);
    engine_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.checks = 1;
    cfg.seed = 1;
    engine *e = save_start_scenario(in_path, &cfg, &errs);
    engine_free(e);
    cerr_free(&errs);
    unlink(in_path);
    return 0;
}
