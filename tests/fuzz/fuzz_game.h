/*
** fuzz_game.h
** What the whole-game harnesses (fuzz_ruleset, fuzz_lua) share: a private
** temporary folder, writing a file, and playing a game a little with the
** transaction checks (a refused decision leaves the state hash as it was).
** Header-only: each harness is one translation unit linked alone.
*/
#ifndef CAIRN_FUZZ_GAME_H
#define CAIRN_FUZZ_GAME_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine.h"
#include "error.h"
#include "save.h"
#include "value.h"

/* A folder of its own for the process: made once, its files rewritten for each input. */
static char fuzz_dir[96];

static void fuzz_make_dir(const char *what) {
    const char *tmp = getenv("TMPDIR");
    snprintf(fuzz_dir, sizeof fuzz_dir, "%.40s/cairn-fuzz-%s-XXXXXX", tmp && *tmp ? tmp : "/tmp", what);
    if (!mkdtemp(fuzz_dir)) {
        perror("fuzz: mkdtemp");
        abort();
    }
}

/* dir/name := data[0..n). Aborts when the disk refuses: the run would test nothing. */
static void fuzz_write(const char *name, const void *data, size_t n) {
    char path[256];
    snprintf(path, sizeof path, "%s/%s", fuzz_dir, name);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(data, 1, n, f) != n || fclose(f) != 0) {
        perror(path);
        abort();
    }
}

static void fuzz_fail(const char *harness, const char *what, const cerr_list *errs) {
    fprintf(stderr, "%s: %s\n", harness, what);
    if (errs) cerr_print(stderr, errs);
    abort();
}

/* Plays e on for at most max decisions, the option picked by the input's
** bytes, and checks the engine's promises as it goes: a decision that is
** refused leaves the state hash and the position as they were, undo then
** redo comes back to the same hash, and everything a seat may ask for
** (view, render, score, explain) answers or errs without crashing. */
static void fuzz_play(const char *harness, engine *e, const uint8_t *pick, size_t n_pick, size_t max) {
    for (size_t step = 0; step < max && !engine_is_over(e); step++) {
        engine_decision_list dl = {0};
        if (engine_decisions(e, &dl) != 0 || dl.n == 0) {
            engine_decision_list_free(&dl);
            break;
        }
        unsigned b = n_pick ? pick[step % n_pick] : 0;
        const engine_decision *d = &dl.items[b % dl.n];
        if (d->n_options == 0) {
            engine_decision_list_free(&dl);
            break;
        }
        const char *id = d->options[(b >> 3) % d->n_options].id;
        uint64_t before = engine_state_hash(e);
        size_t pos = engine_position(e);
        char *why = NULL;
        engine_status st = engine_answer(e, d->seat, id, &why);
        if (st != ENGINE_OK) {
            if (engine_state_hash(e) != before || engine_position(e) != pos)
                fuzz_fail(harness, "a refused decision changed the game", NULL);
            free(why);
            /* a rules error on the chosen option: let the random bot try another */
            if (engine_bot_move(e, d->seat, NULL) != ENGINE_OK) {
                engine_decision_list_free(&dl);
                break;
            }
        }
        engine_decision_list_free(&dl);
        uint64_t after = engine_state_hash(e);
        if (engine_undo(e) == 0) {
            if (engine_state_hash(e) != before)
                fuzz_fail(harness, "undo did not come back to the hash before the decision", NULL);
            if (engine_redo(e) != 0 || engine_state_hash(e) != after)
                fuzz_fail(harness, "redo did not come back to the hash after the decision", NULL);
        }
    }
    cerr_list errs;
    cerr_init(&errs, 0);
    for (int seat = 0; seat <= engine_seat_count(e); seat++) {
        value *v = engine_view(e, seat);
        value_free(v);
        free(engine_render(e, seat, &errs));
    }
    engine_score s;
    memset(&s, 0, sizeof s);
    if (engine_score_get(e, &s, &errs) == 0) engine_score_free(&s);
    engine_status why_st;
    free(engine_explain(e, 1, "no such option", &why_st));
    value *sv = save_to_value(e);
    char *text = sv ? value_to_yaml(sv) : NULL;
    free(text);
    value_free(sv);
    cerr_free(&errs);
}

#endif
