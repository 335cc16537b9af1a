/*
** engine_texts.c
** When the texts a handler makes are read by nobody. A playout (a fast
** game: `cairn sim`, the search bots' forks) keeps no events and reads no
** label, prompt or reason of its decisions; there g.text gives its key back
** unformatted, so that rules write their texts where the rulebook says them
** (a label or a reason beside its option) and a playout pays one C call for
** each, not the formatting. Where a person may read them (strict games,
** render, the labels asked again for a person, a score's breakdown) g.text
** formats as always, and in apply and setup too: a rule may keep a text in
** the state (Himalaya's result keeps the ties it broke), which must be the
** same in a playout (cairn check plays each smoke game fast and strict and
** compares the states). A playout's events are not kept: g.log_text formats
** nothing there (engine_api.c).
*/
#include "engine_internal.h"

int engine_texts_unread(const call_ctx *c) {
    const engine *e = c->e;
    if (!e->cfg.fast) return 0;
    switch (c->h) {
    case H_DECISIONS: return !e->labels_on; /* on: asked again for a person (build_shown) */
    case H_HEURISTIC: return 1;             /* an integer */
    case H_SCORE:     return c->totals_only; /* the bots' evaluation; sim's report reads the breakdown */
    default:          return 0;
    }
}
