/*
** fuzz_yload.c
** libFuzzer harness for the YAML loader: arbitrary bytes, small and default limits, and the dump round trip.
*/
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "value.h"
#include "yload.h"

/* Small bounds, so that every limit is hit by inputs libFuzzer can make
** (its inputs stay under a few KB). */
static const yload_limits small = {512, 4, 64, 200};

/* The dump of a loaded value must read back as the same value, and dumping
** that again must give the same text: value_dump_yaml promises strings are
** quoted whenever plain style would not read back. */
static void check_round_trip(const value *v) {
    char *text = value_to_yaml(v);
    if (!text) return; /* OOM */
    yload_limits lim;
    yload_default_limits(&lim);
    lim.max_file_bytes = LONG_MAX; /* quoting may make the dump longer than the input */
    cerr_list errs;
    cerr_init(&errs, 0);
    value *back = yload_string("dump.yaml", text, strlen(text), &lim, &errs);
    if (!back) {
        fprintf(stderr, "fuzz_yload: the dump does not load back:\n---\n%s---\n", text);
        cerr_print(stderr, &errs);
        abort();
    }
    if (!value_equal(v, back, 1)) {
        fprintf(stderr, "fuzz_yload: the dump loads back as a different value:\n---\n%s---\n", text);
        abort();
    }
    char *again = value_to_yaml(back);
    if (again && strcmp(again, text) != 0) {
        fprintf(stderr, "fuzz_yload: dumping twice differs:\n---\n%s---\n%s---\n", text, again);
        abort();
    }
    free(again);
    value_free(back);
    cerr_free(&errs);
    free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    cerr_list errs;
    cerr_init(&errs, 3); /* a small cap: errors past it are counted, not stored */
    value *v = yload_string("fuzz.yaml", (const char *)data, size, &small, &errs);
    if (!v && cerr_count(&errs) == 0) {
        fprintf(stderr, "fuzz_yload: refused without an error (small limits)\n");
        abort();
    }
    value_free(v);
    cerr_free(&errs);

    cerr_init(&errs, 0);
    v = yload_string("fuzz.yaml", (const char *)data, size, NULL, &errs);
    if (!v && cerr_count(&errs) == 0) {
        fprintf(stderr, "fuzz_yload: refused without an error (default limits)\n");
        abort();
    }
    if (v) check_round_trip(v);
    value_free(v);
    cerr_free(&errs);
    return 0;
}
