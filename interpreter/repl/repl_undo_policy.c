/*
** repl_undo_policy.c
** `cairn play --undo=all|own|none`: how far a person may take decisions
** back. `all` (the default, for playtests) allows anything; `none` nothing;
** `own` (Board Game Arena's rule) only the seat's own decisions made since
** the last one that drew from chance or revealed a secret, so undo cannot
** re-roll the dice nor re-choose after seeing something new. What a
** decision disclosed comes from the engine (engine_disclosure.c): g.rng moved, or
** another seat's `owner` part or a `count`/`order` pool changed.
*/
#include "repl_session.h"

#include "engine.h"

#include <stdlib.h>
#include <string.h>

static const char *const policy_names[] = {"all", "own", "none"};

int undo_policy_parse(const char *s, int *out) {
    for (int i = 0; i < 3; i++)
        if (strcmp(s, policy_names[i]) == 0) {
            *out = i;
            return 0;
        }
    return -1;
}

const char *undo_policy_name(int policy) {
    return policy >= 0 && policy < 3 ? policy_names[policy] : "?";
}

/* Why decision index may not be crossed going back under `own`, or NULL. */
static char *barrier(const repl *r, size_t index, int seat) {
    size_t n;
    const engine_logged *log = engine_log(r->e, &n);
    char *what = repl_describe_logged(r, index, 0);
    char *why = NULL;
    const engine_disclosure *d;
    if (log[index].seat != seat)
        why = cairn_strfmt(repl_tr(r, "undo.not_own"), index + 1, what ? what : "?", repl_seat_name(r, seat));
    else if (!engine_disclosure_of(r->e, index, &d))
        why = cairn_strfmt(repl_tr(r, "undo.unknown"), index + 1, what ? what : "?");
    else if (d->chance)
        why = cairn_strfmt(repl_tr(r, "undo.chance"), index + 1, what ? what : "?");
    else if (d->reveal)
        why = cairn_strfmt(repl_tr(r, "undo.reveal"), index + 1, what ? what : "?");
    free(what);
    return why;
}

char *undo_policy_refusal(const repl *r, size_t to) {
    size_t pos = engine_position(r->e);
    if (to >= pos || r->replay || r->undo == UNDO_ALL) return NULL;
    if (r->undo == UNDO_NONE) return cairn_strdup(repl_tr(r, "undo.none_policy"));
    int seat = repl_deciding_seat(r);
    if (!seat) seat = r->viewer;
    for (size_t i = pos; i-- > to;) {
        char *why = barrier(r, i, seat);
        if (why) return why;
    }
    return NULL;
}
