/*
** fuzz_schema.c
** libFuzzer harness for the schema validator: input documents against the ruleset schema, and the input itself as a schema.
*/
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "error.h"
#include "schema.h"
#include "value.h"
#include "yload.h"

/* Relative to the working folder: tools/fuzz runs harnesses from the repo root. */
#define FIXED_SCHEMA "schemas/ruleset.schema.yaml"
/* Relative $refs in an input schema resolve next to the shipped schemas, so
** `$ref: components.schema.yaml#/$defs/...` reaches real files. Inputs of
** odd length are named in a folder that does not exist instead, with the
** shipped schemas as the set's fallback folder (a ruleset copied out of the
** tree). */
#define INPUT_SCHEMA_NAME "schemas/fuzz-input.schema.yaml"
#define INPUT_SCHEMA_ELSEWHERE "fuzz-nowhere/fuzz-input.schema.yaml"
#define FALLBACK_DIR "schemas"

static schema_set *fixed_set;
static const value *fixed;

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc;
    (void)argv;
    cerr_list errs;
    cerr_init(&errs, 0);
    fixed_set = schema_set_new();
    fixed = fixed_set ? schema_load(fixed_set, FIXED_SCHEMA, &errs) : NULL;
    if (!fixed) {
        fprintf(stderr, "fuzz_schema: cannot load %s (run from the repo root):\n", FIXED_SCHEMA);
        cerr_print(stderr, &errs);
        exit(1);
    }
    cerr_free(&errs);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    cerr_list errs;
    cerr_init(&errs, 0);
    value *inst = yload_string("fuzz.yaml", (const char *)data, size, NULL, &errs);
    if (inst) {
        /* the cached fixed schema must not change between runs */
        schema_validate(fixed_set, fixed, NULL, inst, "", &errs);
        cerr_clear(&errs);
        /* a subschema too: the root path prefix and $defs lookups */
        schema_validate(fixed_set, NULL, FIXED_SCHEMA "#/$defs/option", inst, "root", &errs);
        cerr_clear(&errs);
    }

    /* A fresh set per input: schema_load_string never caches, so a shared
    ** set would grow with every run. */
    schema_set *s = schema_set_new();
    int elsewhere = size % 2 == 1;
    if (s && elsewhere && schema_set_fallback_dir(s, FALLBACK_DIR) != 0) {
        schema_set_free(s);
        s = NULL;
    }
    if (s) {
        const value *sch = schema_load_string(s, elsewhere ? INPUT_SCHEMA_ELSEWHERE : INPUT_SCHEMA_NAME,
                                              (const char *)data, size, &errs);
        if (!sch && cerr_count(&errs) == 0) {
            fprintf(stderr, "fuzz_schema: schema refused without an error\n");
            abort();
        }
        cerr_clear(&errs);
        if (sch && inst) {
            /* the input validated against itself, and the ruleset schema's
            ** own text against the input schema */
            schema_validate(s, sch, NULL, inst, "", &errs);
            cerr_clear(&errs);
            schema_validate(s, sch, NULL, fixed, "", &errs);
            cerr_clear(&errs);
        }
        schema_set_free(s);
    }
    value_free(inst);
    cerr_free(&errs);
    return 0;
}
