/*
** repl_score_view.c
** Mid-game scores as the viewing seat may know them. score(g) reads the
** whole state, secrets included (Himalaya's kept rings and tokens), so its
** numbers are checked against states the seat cannot tell from the real
** one: CAIRN_REPL_SCORE_SAMPLES states sampled from the seat's view
** through the ruleset's determinize (what the search bots use). A total,
** a tie-break or a line's points that is not the same in every sample as
** in the game depends on something hidden from the seat and is shown as
** "?"; a label that differs is replaced by the line's key; and with a
** total hidden, the ranks are too. Without determinize every number of
** another seat is hidden. Once the game is over nothing is masked.
*/
#include "repl_session.h"

#include "engine.h"
#include "limits.h"
#include "value.h"

#include <stdlib.h>
#include <string.h>

/* Compares sample t with the real scores s, marking what differs in s. */
static void mark_differences(engine_score *s, const engine_score *t, unsigned char *hide_total,
                             unsigned char *hide_tb, unsigned char **hide_item, unsigned char **hide_label) {
    for (size_t i = 0; i < s->n && i < t->n; i++) {
        engine_seat_score *a = &s->seats[i];
        const engine_seat_score *b = &t->seats[i];
        if (a->total != b->total) hide_total[i] = 1;
        if (a->has_tiebreak && a->tiebreak != b->tiebreak) hide_tb[i] = 1;
        for (size_t j = 0; j < a->n_items; j++) {
            if (j >= b->n_items) {
                hide_item[i][j] = hide_label[i][j] = 1;
                continue;
            }
            if (a->items[j].points != b->items[j].points) hide_item[i][j] = 1;
            if (strcmp(a->items[j].label, b->items[j].label) != 0) hide_label[i][j] = 1;
        }
    }
}

void repl_score_mask(repl *r, engine_score *sc) {
    if (!r->secret || engine_is_over(r->e) || !sc->n) return;
    int seat = r->viewer;
    size_t n = sc->n;
    unsigned char *hide_total = calloc(n, 1), *hide_tb = calloc(n, 1);
    unsigned char **hide_item = calloc(n, sizeof *hide_item), **hide_label = calloc(n, sizeof *hide_label);
    int oom = !hide_total || !hide_tb || !hide_item || !hide_label;
    for (size_t i = 0; !oom && i < n; i++) {
        size_t m = sc->seats[i].n_items ? sc->seats[i].n_items : 1;
        oom = !(hide_item[i] = calloc(m, 1)) || !(hide_label[i] = calloc(m, 1));
    }
    int sampled = 0;
    if (!oom && engine_has_determinize(r->e)) {
        value *view = engine_view(r->e, seat);
        for (int k = 1; view && k <= CAIRN_REPL_SCORE_SAMPLES; k++) {
            cerr_list errs;
            cerr_init(&errs, 0);
            engine *f = engine_fork_sampled(r->e, view, seat, (uint64_t)k, &errs);
            engine_score t = {0};
            if (f && engine_score_get(f, &t, &errs) == 0) {
                mark_differences(sc, &t, hide_total, hide_tb, hide_item, hide_label);
                sampled++;
            }
            engine_score_free(&t);
            engine_free(f);
            cerr_free(&errs);
        }
        value_free(view);
    }
    for (size_t i = 0; i < n; i++) {
        engine_seat_score *s = &sc->seats[i];
        int blind = !sampled && (int)i + 1 != seat; /* nothing to compare with: another seat's numbers go */
        if (oom || blind || hide_total[i]) s->total = REPL_SCORE_HIDDEN;
        if (oom || blind || hide_tb[i]) s->tiebreak = REPL_SCORE_HIDDEN;
        for (size_t j = 0; j < s->n_items; j++) {
            if (oom || blind || hide_item[i][j]) s->items[j].points = REPL_SCORE_HIDDEN;
            if (!oom && !blind && !hide_label[i][j]) continue;
            char *key = strdup(s->items[j].key ? s->items[j].key : "?");
            if (key) {
                free(s->items[j].label);
                s->items[j].label = key;
            }
        }
    }
    int any = 0;
    for (size_t i = 0; i < n; i++) any |= sc->seats[i].total == REPL_SCORE_HIDDEN;
    if (any)
        for (size_t i = 0; i < n; i++) sc->seats[i].rank = 0; /* the order would tell */
    for (size_t i = 0; hide_item && hide_label && i < n; i++) {
        free(hide_item[i]);
        free(hide_label[i]);
    }
    free(hide_item);
    free(hide_label);
    free(hide_total);
    free(hide_tb);
}
