/*
** engine_fork_recount.c
** A fork's decision that ran long under the budget's CPU timer, played
** again counted. A live game takes such a decision back and runs it again
** with the budget counted (engine.c); a fork keeps no checkpoint to take it
** back to, but it knows where it was filled from (the game it copied, or the
** view and stream its state was sampled from) and its decisions since: it
** is filled again from there, its sandbox counted from then on, and its
** decisions are played again, the one that ran long last. A call that ends
** under the timer ends counted too, with the same result (budget.c), so the
** fork comes out as a fork counted from its start would have: a search gives
** the same choice whether or not a call ran long. Rare (a call must run near
** half the instruction budget's time): counting every call of every fork
** instead cost a search a fifth of its speed.
*/
#include "engine_internal.h"

#include <stdlib.h>

engine_status engine_fork_recount(engine *f, int seat, const char *id, cerr_list *errs) {
    if (!f->fork_src || f->fork_recounting) {
        cerr_add(errs, NULL, 0, 0, NULL, "ran long under the budget's CPU timer: a fork is not taken "
                                         "back to run it again counted; this fork is over");
        f->asked.n = 0;
        f->dead = 1;
        return ENGINE_RULES_ERROR;
    }
    /* the decisions made so far, taken from the log before the rewind frees it */
    size_t n = f->pos;
    engine_logged *made = malloc((n ? n : 1) * sizeof *made);
    char *last = cairn_strdup(id);
    if (!made || !last) {
        free(made);
        free(last);
        errs->oom = 1;
        f->asked.n = 0;
        f->dead = 1;
        return ENGINE_NO_MEMORY;
    }
    for (size_t i = 0; i < n; i++) {
        made[i] = f->log[i];
        f->log[i].id = NULL;
    }
    size_t samples = f->samples, checked = f->checked; /* the sample's check is not made twice */
    sandbox_count_always(f->rt.sb, 1); /* until the sandbox goes back to its pool */
    f->fork_recounting = 1;
    engine_fork_rewind(f, f->fork_src);
    engine_status st = engine_fork_fill(f, errs) == 0 ? ENGINE_OK : ENGINE_RULES_ERROR;
    f->samples = samples;
    f->checked = checked;
    for (size_t i = 0; i < n && st == ENGINE_OK; i++) st = engine_apply(f, made[i].seat, made[i].id, 0, 0, errs);
    if (st == ENGINE_OK) st = engine_apply(f, seat, last, 0, 0, errs);
    f->fork_recounting = 0;
    for (size_t i = 0; i < n; i++) free(made[i].id);
    free(made);
    free(last);
    if (st != ENGINE_OK) {
        f->asked.n = 0;
        f->dead = 1;
    }
    return st;
}
