/*
** fuzz_ruleset.c
** libFuzzer harness for whole ruleset folders: the input is a manifest, a
** data file, a Lua file and a text file, separated by lines "%%". They are
** written as ruleset.yaml, data.yaml, rules.lua and text.yaml of a folder,
** which is then loaded, started and played a little (fuzz_game.h).
*/
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_game.h"

#define SEPARATOR "\n%%\n"

static const char *const part_names[] = {"ruleset.yaml", "data.yaml", "rules.lua", "text.yaml"};
#define N_PARTS (sizeof part_names / sizeof part_names[0])

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc;
    (void)argv;
    fuzz_make_dir("ruleset");
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    /* the parts; a missing one is an empty file */
    const uint8_t *p = data, *end = data + size;
    for (size_t k = 0; k < N_PARTS; k++) {
        const uint8_t *cut = NULL;
        size_t sl = strlen(SEPARATOR);
        for (const uint8_t *q = p; q + sl <= end; q++)
            if (memcmp(q, SEPARATOR, sl) == 0) {
                cut = q;
                break;
            }
        if (k == N_PARTS - 1 || !cut) cut = end;
        fuzz_write(part_names[k], p, (size_t)(cut - p));
        p = cut < end ? cut + sl : end;
    }

    cerr_list errs;
    cerr_init(&errs, 0);
    engine_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.ruleset = fuzz_dir;
    cfg.checks = 1;
    cfg.seed = size;
    cfg.budget = 200000;         /* a fuzzed loop should end fast: 1/50 of the default */
    cfg.mem_cap = 16u << 20;
    engine *e = engine_new(&cfg, &errs);
    if (!e && cerr_count(&errs) == 0 && !errs.oom) fuzz_fail("fuzz_ruleset", "a ruleset refused without an error", NULL);
    if (e) fuzz_play("fuzz_ruleset", e, data, size < 64 ? size : 64, 12);
    engine_free(e);
    cerr_free(&errs);
    return 0;
}
