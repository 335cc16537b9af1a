/*
** replay_main.c
** A main() for a fuzz harness built without libFuzzer (and without clang):
** runs LLVMFuzzerInitialize, then LLVMFuzzerTestOneInput once on each file
** named. make test replays tests/fuzz/crashes/ with it (tools/run-tests);
** a harness that finds the bug again aborts.
*/
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerInitialize(int *argc, char ***argv) __attribute__((weak)); /* optional in a harness */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int main(int argc, char **argv) {
    if (LLVMFuzzerInitialize) LLVMFuzzerInitialize(&argc, &argv);
    for (int i = 1; i < argc; i++) {
        FILE *f = fopen(argv[i], "rb");
        if (!f) {
            perror(argv[i]);
            return 2;
        }
        size_t cap = 1 << 16, n = 0;
        uint8_t *buf = malloc(cap);
        size_t got;
        while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
            n += got;
            if (n == cap) {
                uint8_t *nb = realloc(buf, cap * 2);
                if (!nb) {
                    free(buf);
                    buf = NULL;
                    break;
                }
                buf = nb;
                cap *= 2;
            }
        }
        fclose(f);
        if (!buf) {
            fprintf(stderr, "%s: out of memory\n", argv[i]);
            return 2;
        }
        LLVMFuzzerTestOneInput(buf, n);
        free(buf);
    }
    return 0;
}
