/*
** repl_forced.c
** A move with one option may be taken for you. `auto forced on` makes the
** console answer, for the viewing person's seat (or SEAT, or `all`), every
** decision that offers exactly one option that may be chosen, and say so in
** the news ("Taken for you: pay 1 meat (the only option)."; other seats
** read "Ann: pay 1 meat (the only option)"). Bots take such moves anyway
** (their seats count as on); people are off unless they choose it.
*/
#include "repl_session.h"

#include "engine.h"
#include "markup.h"

#include <stdlib.h>
#include <string.h>

int repl_forced_on(const repl *r, int seat) {
    return seat >= 1 && seat <= r->n_seats && seat < 32 && ((r->forced >> seat) & 1u);
}

int repl_was_forced(const repl *r, size_t index) {
    size_t n;
    const engine_logged *log = engine_log(r->e, &n);
    for (size_t i = 0; i < r->n_forced_at; i++)
        if (r->forced_at[i].index == index && index < n && log[index].seat == r->forced_at[i].seat &&
            strcmp(log[index].id, r->forced_at[i].id) == 0)
            return 1;
    return 0;
}

/* Remembers that decision `index` was taken for seat (its id copied). */
static void remember(repl *r, size_t index, int seat, const char *id) {
    for (size_t i = 0; i < r->n_forced_at; i++)
        if (r->forced_at[i].index == index) { /* taken again after an undo */
            char *c = strdup(id);
            if (!c) return;
            free(r->forced_at[i].id);
            r->forced_at[i].id = c;
            r->forced_at[i].seat = seat;
            return;
        }
    repl_forced_move *t = realloc(r->forced_at, (r->n_forced_at + 1) * sizeof *t);
    if (!t) return;
    r->forced_at = t;
    char *c = strdup(id);
    if (!c) return;
    t[r->n_forced_at++] = (repl_forced_move){index, seat, c};
}

int repl_take_forced(repl *r) {
    if (!r->forced || engine_is_over(r->e)) return 0;
    engine_decision_list dl = {0};
    if (engine_decisions(r->e, &dl) != 0) return 0;
    int taken = 0;
    for (size_t i = 0; i < dl.n && !taken; i++) {
        const engine_decision *d = &dl.items[i];
        if (r->bot[d->seat] || !repl_forced_on(r, d->seat)) continue;
        const char *only = NULL;
        size_t enabled = 0;
        for (size_t k = 0; k < d->n_options; k++)
            if (!d->options[k].disabled) enabled++, only = d->options[k].id;
        if (enabled != 1) continue;
        size_t at = engine_position(r->e);
        char *why = NULL;
        if (engine_answer(r->e, d->seat, only, &why) == ENGINE_OK) {
            remember(r, at, d->seat, only);
            r->changed = 1;
            r->dirty = 1;
            r->over_shown = 0;
            taken = 1;
        }
        free(why);
    }
    engine_decision_list_free(&dl);
    return taken;
}

void repl_forced_free(repl *r) {
    for (size_t i = 0; i < r->n_forced_at; i++) free(r->forced_at[i].id);
    free(r->forced_at);
    r->forced_at = NULL;
    r->n_forced_at = 0;
}

int repl_cmd_auto_forced(repl *r, const char *args) {
    while (*args == ' ') args++;
    int on = -1;
    if (strncmp(args, "on", 2) == 0 && (args[2] == ' ' || !args[2])) on = 1, args += 2;
    else if (strncmp(args, "off", 3) == 0 && (args[3] == ' ' || !args[3])) on = 0, args += 3;
    while (*args == ' ') args++;
    uint32_t seats = 0;
    if (!*args) {
        if (r->viewer >= 1 && !r->bot[r->viewer]) seats = 1u << r->viewer;
        else
            for (int s = 1; s <= r->n_seats && s < 32; s++)
                if (!r->bot[s]) seats |= 1u << s;
    } else if (strcmp(args, "all") == 0) {
        for (int s = 1; s <= r->n_seats && s < 32; s++) seats |= 1u << s;
    } else {
        int s = repl_parse_seat(r, args, 0);
        if (s < 0) return -1;
        seats = 1u << s;
    }
    if (on == 1) r->forced |= seats;
    else if (on == 0) r->forced &= ~seats;
    markup_buf b = {0};
    for (int s = 1; s <= r->n_seats && s < 32; s++)
        if ((seats >> s) & 1u)
            markup_buf_printf(&b, "%s%s %s", b.len ? repl_tr(r, "list.sep") : "", repl_seat_name(r, s),
                              repl_tr(r, r->bot[s] || repl_forced_on(r, s) ? "forced.on" : "forced.off"));
    char *list = markup_buf_take(&b);
    repl_plain(r, repl_tr(r, "forced.list"), list ? list : "?");
    free(list);
    if (on == 1 && r->auto_bots) {
        size_t before = engine_position(r->e);
        repl_run_bots(r, 0);
        if (engine_position(r->e) != before) repl_present(r);
    }
    return 0;
}
