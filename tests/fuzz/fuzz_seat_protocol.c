/*
** fuzz_seat_protocol.c
** libFuzzer harness for the seat protocol's reader (seat_protocol.h): the
** input is lines a stranger sends for a seat (the first byte of each picks
** the seat, 0 to 3: 0 and 3 are no seat of the two-seat games), applied to
** a Connect Four and a Goofspiel game in turn. Every line must get a reply
** that is one JSON object with "ok"; a refused one must leave the game as it
** was (position and state hash), an applied one must move it on; and every
** seat's state message must still be made. Nothing a seat sends may crash
** cairn or change the game but through that seat's own decision.
*/
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "error.h"
#include "seat_protocol.h"
#include "strbuf.h"

static engine *games[2];

static engine *start(const char *ruleset) {
    cerr_list errs;
    cerr_init(&errs, 0);
    engine_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.ruleset = ruleset;
    cfg.players = 2;
    cfg.seed = 5;
    cfg.fast = 0;
    engine *e = engine_new(&cfg, &errs);
    if (!e) {
        fprintf(stderr, "fuzz_seat_protocol: cannot start %s:\n", ruleset);
        cerr_print(stderr, &errs);
        abort();
    }
    cerr_free(&errs);
    return e;
}

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc;
    (void)argv;
    games[0] = start("connect4");
    games[1] = start("goofspiel");
    return 0;
}

static void fail(const char *what, const char *line, const char *reply) {
    fprintf(stderr, "fuzz_seat_protocol: %s\n  line: %s\n  reply: %s\n", what, line, reply ? reply : "(none)");
    abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    engine *e = games[size % 2];
    size_t at = engine_position(e);
    const uint8_t *p = data, *end = data + size;
    for (int k = 0; p < end && k < 64; k++) {
        int seat = *p++ % 4;
        const uint8_t *nl = memchr(p, '\n', (size_t)(end - p));
        size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);
        char *line = malloc(len + 1);
        if (!line) abort();
        memcpy(line, p, len);
        line[len] = '\0'; /* a NUL inside ends the line early: as a C caller sends it */
        p += len + (nl != NULL);
        size_t pos = engine_position(e);
        uint64_t hash = engine_state_hash(e);
        strbuf reply = {0};
        cerr_list errs;
        cerr_init(&errs, 0);
        int rc = seat_protocol_answer(e, seat, line, &reply, &errs);
        if (seat < 1 || seat > 2) {
            if (rc != -1 || !errs.n) fail("no seat, no error", line, strbuf_str(&reply));
        } else if (rc == SEAT_PROTOCOL_REFUSED) {
            if (engine_position(e) != pos || engine_state_hash(e) != hash) fail("a refused line changed the game", line, strbuf_str(&reply));
            if (strncmp(strbuf_str(&reply), "{\"type\":\"reply\",\"ok\":false,", 27)) fail("a refusal without its reply", line, strbuf_str(&reply));
        } else if (rc == SEAT_PROTOCOL_APPLIED) {
            if (engine_position(e) <= pos) fail("an applied line did not move the game", line, strbuf_str(&reply));
            if (strncmp(strbuf_str(&reply), "{\"type\":\"reply\",\"ok\":true,", 26)) fail("an answer without its reply", line, strbuf_str(&reply));
        } else if (!errs.oom) {
            fail("an error that is not out of memory", line, strbuf_str(&reply));
        }
        strbuf_free(&reply);
        cerr_free(&errs);
        free(line);
        for (int s = 0; s <= 2; s++) {
            strbuf st = {0};
            cerr_init(&errs, 0);
            if (seat_protocol_state(e, s, 0, 80, 0, &st, &errs) != 0 && !errs.oom) fail("no state message", "", NULL);
            strbuf_free(&st);
            cerr_free(&errs);
        }
    }
    /* the next input starts where this one did */
    if (engine_goto(e, at) != 0) abort();
    return 0;
}
