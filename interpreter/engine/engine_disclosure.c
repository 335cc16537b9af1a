/*
** engine_disclosure.c
** What each decision let the seats see, worked out from the visibility
** rules alone (so it holds for every ruleset): a choice is hidden from a
** seat when the decision changed a part of the state that seat may not see
** as `owner` (the decider's own) or `hidden`; a decision *revealed*
** something when it changed another seat's `owner` part or a `count`/
** `order` pool (a draw from a bag or a deck, a reveal of simultaneous
** choices); it drew from *chance* when g.rng moved. Its label is shown to
** other seats only when the decider held no secret (labels are made from
** the whole state). The console uses it to
** show bots' public moves with their labels, in `history`, and for
** `--undo=own` (repl_undo_policy.c). Only games with disclosure on pay for it.
*/
#include "engine_internal.h"
#include "grow.h"

#include <stdlib.h>
#include <string.h>

void engine_set_disclosure(engine *e, int on) { e->disclose = on; }

/* The label of seat's option id as offered now (malloc'd), or NULL. */
static char *label_now(const engine *e, int seat, const char *id) {
    engine_decision_list dl = {0};
    if (engine_decisions(e, &dl) != 0) return NULL;
    char *label = NULL;
    for (size_t i = 0; i < dl.n && !label; i++) {
        if (dl.items[i].seat != seat) continue;
        for (size_t k = 0; k < dl.items[i].n_options && !label; k++)
            if (strcmp(dl.items[i].options[k].id, id) == 0)
                label = cairn_strdup(dl.items[i].options[k].label ? dl.items[i].options[k].label : id);
    }
    engine_decision_list_free(&dl);
    return label;
}

void disclosure_begin(engine *e, int seat, const char *id, disclosure_pending *p) {
    memset(p, 0, sizeof *p);
    if (!e->disclose || e->cfg.fast) return;
    /* the state before the decision: a copy of the engine's tree of it,
    ** which stays with the engine: the decision's plain-data check brings
    ** it up to date reading only what changed (luaval_refresh), where a
    ** taken tree would have to be read again whole */
    const value *st = engine_state(e);
    p->before = st ? value_clone(st) : NULL;
    p->label = label_now(e, seat, id);
    p->rng = e->rng;
    p->on = p->before != NULL; /* out of memory: this decision stays unknown */
}

void disclosure_abort(disclosure_pending *p) {
    value_free(p->before);
    free(p->label);
    memset(p, 0, sizeof *p);
}

static void rec_clear(disclosure_rec *r) {
    free(r->id);
    free(r->d.label);
    memset(r, 0, sizeof *r);
}

void disclosure_commit(engine *e, size_t index, int seat, const char *id, disclosure_pending *p) {
    if (!p->on) return;
    const value *after = engine_state(e);
    view_delta d;
    if (!after || grow_array((void **)&e->disc, &e->cap_disc, index + 1, sizeof *e->disc) != 0 ||
        view_delta_of(e->rt.rules->vis, p->before, after, &d) != 0) {
        disclosure_abort(p);
        return;
    }
    for (size_t i = e->n_disc; i <= index; i++) memset(&e->disc[i], 0, sizeof e->disc[i]);
    if (index >= e->n_disc) e->n_disc = index + 1;
    disclosure_rec *r = &e->disc[index];
    rec_clear(r);
    if (!(r->id = cairn_strdup(id))) {
        disclosure_abort(p);
        return;
    }
    r->seat = seat;
    uint32_t own = seat >= 1 && seat <= 32 ? (uint32_t)1 << (seat - 1) : 0;
    int secret = (d.owner_changed & own) || d.unowned_changed;
    for (int v = 0; v <= e->cfg.players && v < 32; v++)
        if (secret && v != seat) r->d.hidden_from |= (uint32_t)1 << v;
    r->d.reveal = (d.owner_changed & ~own) != 0 || d.pool_changed;
    for (int v = 1; v <= e->cfg.players && v < 32; v++)
        if (v != seat && ((d.owner_changed >> (v - 1)) & 1)) r->d.revealed_of |= (uint32_t)1 << v;
    r->d.chance = memcmp(&p->rng, &e->rng, sizeof p->rng) != 0;
    /* a label is made for the decider from the whole state: it may tell the
    ** decider's secrets ("ready: dirt ice deal"), so others see it only when
    ** the decider had none */
    r->d.label_public = !((view_secret_holders(e->rt.rules->vis, p->before) |
                           view_secret_holders(e->rt.rules->vis, after)) & own);
    r->d.label = p->label;
    p->label = NULL;
    disclosure_abort(p);
}

int engine_disclosure_of(const engine *e, size_t index, const engine_disclosure **out) {
    *out = NULL;
    if (index >= e->n_disc || index >= e->n_log || !e->disc[index].id) return 0;
    const disclosure_rec *r = &e->disc[index];
    if (r->seat != e->log[index].seat || strcmp(r->id, e->log[index].id) != 0) return 0;
    *out = &r->d;
    return 1;
}

void disclosure_free(engine *e) {
    for (size_t i = 0; i < e->n_disc; i++) rec_clear(&e->disc[i]);
    free(e->disc);
    e->disc = NULL;
    e->n_disc = e->cap_disc = 0;
}
