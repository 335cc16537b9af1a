/*
** engine_history.c
** Where a game has been: the decision log, sparse checkpoints (the whole
** state kept as a tree at position 0 and every CAIRN_CHECKPOINT_EVERY
** decisions of a strict game) and replay. Going to any position is: the
** nearest checkpoint at or before it, then the logged decisions after it,
** applied again (the log replays exactly: chance is the engine's RNG, and
** bots draw from streams of the seed). Undo, redo, goto, taking back a
** failed decision, loading a save and hot reload are all that one move.
*/
#include "engine_internal.h"
#include "grow.h"
#include "limits.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Roughly the bytes a value tree holds (nodes, arrays, strings). */
static size_t value_bytes(const value *v, int depth) {
    if (!v || depth > 2 * CAIRN_YAML_MAX_DEPTH) return 0;
    size_t n = sizeof *v;
    if (v->type == CV_STR) n += v->u.str.len + 1;
    if (v->type == CV_LIST) {
        n += v->u.list.cap * sizeof *v->u.list.items;
        for (size_t i = 0; i < v->u.list.n; i++) n += value_bytes(v->u.list.items[i], depth + 1);
    }
    if (v->type == CV_MAP) {
        n += v->u.map.cap * sizeof *v->u.map.items;
        for (size_t i = 0; i < v->u.map.n; i++)
            n += value_bytes(v->u.map.items[i].key, depth + 1) + value_bytes(v->u.map.items[i].val, depth + 1);
    }
    return n;
}

static void drop_checkpoint(engine *e, checkpoint *c) {
    value_free(c->state);
    c->state = NULL;
    e->kept_bytes -= c->bytes < e->kept_bytes ? c->bytes : e->kept_bytes;
}

void history_free(engine *e) {
    for (size_t i = 0; i < e->n_cps; i++) drop_checkpoint(e, &e->cps[i]);
    free(e->cps);
    e->cps = NULL;
    e->n_cps = e->cap_cps = 0;
}

void history_drop_after(engine *e, size_t pos) {
    while (e->n_cps > 0 && e->cps[e->n_cps - 1].pos > pos) drop_checkpoint(e, &e->cps[--e->n_cps]);
}

int history_checkpoint(engine *e, cerr_list *errs) {
    if (e->n_cps && e->cps[e->n_cps - 1].pos == e->pos) return 0; /* replayed onto one kept */
    const value *st = engine_state(e);
    size_t bytes = st ? value_bytes(st, 0) : 0;
    /* past the game's cap, skip it (position 0 is always kept): undo and
    ** taking a decision back replay further, nothing else changes */
    if (st && e->n_cps > 0 && e->kept_bytes + bytes > (size_t)CAIRN_GAME_MEMORY_CAP) return 0;
    value *v = st ? value_clone(st) : NULL;
    if (!v || grow_array((void **)&e->cps, &e->cap_cps, e->n_cps + 1, sizeof *e->cps) != 0) {
        value_free(v);
        if (!st && cerr_count(errs) == 0) cerr_add(errs, NULL, 0, 0, "state", "not plain data");
        return errs->oom = 1, -1;
    }
    checkpoint *c = &e->cps[e->n_cps++];
    c->pos = e->pos;
    c->bytes = bytes;
    e->kept_bytes += bytes;
    c->state = v;
    c->rng = e->rng;
    c->n_events = e->n_events;
    return 0;
}

/* "decision N (seat S, "ID"): WHY", keyed: with the engine's own reason
** (w->kind, engine_explain_why) one key for the whole line, so that the
** console words the reason too; else "history.decision", WHY (the rules'
** reason or error) as it came. */
static void decision_refused(cerr_list *errs, size_t n, int seat, const char *id, const char *why,
                             const explain_why *w) {
    char number[24], seat_text[24];
    snprintf(number, sizeof number, "%zu", n);
    snprintf(seat_text, sizeof seat_text, "%d", seat);
    const char *kind = w && w->kind ? w->kind : "";
    if (strcmp(kind, "over") == 0)
        cerr_addk(errs, NULL, 0, 0, NULL, "history.decision_over", "decision %s (seat %s, \"%s\"): the game is over",
                  number, seat_text, id);
    else if (strcmp(kind, "not_asked") == 0)
        cerr_addk(errs, NULL, 0, 0, NULL, "history.decision_not_asked",
                  "decision %s (seat %s, \"%s\"): %s is not asked anything now (waiting for %s)", number, seat_text,
                  id, w->a, w->b);
    else if (strcmp(kind, "waiting") == 0)
        cerr_addk(errs, NULL, 0, 0, NULL, "history.decision_waiting",
                  "decision %s (seat %s, \"%s\"): that seat is not asked anything now (waiting for %s)", number,
                  seat_text, id, w->a);
    else if (strcmp(kind, "nobody") == 0)
        cerr_addk(errs, NULL, 0, 0, NULL, "history.decision_nobody",
                  "decision %s (seat %s, \"%s\"): that seat is not asked anything now", number, seat_text, id);
    else if (strcmp(kind, "no_option") == 0)
        cerr_addk(errs, NULL, 0, 0, NULL, "history.decision_no_option",
                  "decision %s (seat %s, \"%s\"): no option \"%s\"; did you mean: %s", number, seat_text, id, id, w->a);
    else if (strcmp(kind, "choose_one") == 0)
        cerr_addk(errs, NULL, 0, 0, NULL, "history.decision_choose_one",
                  "decision %s (seat %s, \"%s\"): no option \"%s\"; choose one of: %s", number, seat_text, id, id,
                  w->a);
    else
        cerr_addk(errs, NULL, 0, 0, NULL, "history.decision", "decision %s (seat %s, \"%s\"): %s", number,
                  seat_text, id, why);
}

/* Applies log[pos] again, the log entry kept. */
static int redo_one(engine *e, cerr_list *errs) {
    const engine_logged *l = &e->log[e->pos];
    engine_status st;
    size_t k;
    explain_why w;
    char *why = engine_explain_why(e, l->seat, l->id, &st, &k, &w);
    if (st == ENGINE_OK) {
        cerr_list local;
        cerr_init(&local, 0);
        st = engine_apply(e, l->seat, l->id, 0, 1, &local);
        if (st != ENGINE_OK) why = engine_first_error(&local);
        cerr_free(&local);
    }
    if (st == ENGINE_OK) return 0;
    decision_refused(errs, e->pos + 1, l->seat, l->id, why ? why : engine_status_name(st), &w);
    explain_why_free(&w);
    free(why);
    return -1;
}

/* Replays run counted (no CPU timer): a long one is then never taken back
** in the middle of taking something else back. */
static int restore(engine *e, size_t p, cerr_list *errs);

int history_restore(engine *e, size_t p, cerr_list *errs) {
    if (p > e->n_log) return -1;
    sandbox_set_timed(e->rt.sb, 0);
    size_t from = e->pos;
    e->quiet++; /* what replays was said when it happened */
    int rc = restore(e, p, errs);
    if (rc != 0) {
        /* Nothing half-done: a restore that failed (out of memory in
        ** decisions(), a redo refused) may have swapped the live state
        ** already, so the game is put back where it was, the same way. */
        cerr_list again;
        cerr_init(&again, 0);
        if (restore(e, from, &again) != 0) {
            char at[24];
            snprintf(at, sizeof at, "%zu", from);
            cerr_addk(errs, NULL, 0, 0, NULL, "history.not_put_back",
                      "the game could not be put back at decision %s either", at);
        }
        cerr_free(&again);
    }
    e->quiet--;
    sandbox_set_timed(e->rt.sb, 1);
    return rc;
}

/* The kept checkpoint nearest before p, or NULL. */
static const checkpoint *checkpoint_before(const engine *e, size_t p) {
    size_t i = e->n_cps;
    while (i > 0 && e->cps[i - 1].pos > p) i--;
    return i ? &e->cps[i - 1] : NULL;
}

static int restore(engine *e, size_t p, cerr_list *errs) {
    if (p > e->n_log) return -1;
    const checkpoint *c = checkpoint_before(e, p);
    if (!c) { /* a fast game keeps none: from the start */
        if (engine_restart(e, errs) != 0) return -1;
        e->live_stale = 0;
    } else {
        if (engine_set_live(e, c->state) != 0) return errs->oom = 1, -1;
        e->live_stale = 0;
        rng was = e->rng;
        e->rng = c->rng;
        size_t pos_was = e->pos;
        e->pos = c->pos;
        if (engine_ask(e, errs) != 0) {
            /* the events stay until the position is reached: the caller puts the game back */
            e->rng = was;
            e->pos = pos_was;
            return -1;
        }
        engine_drop_events_from(e, c->n_events);
    }
    while (e->pos < p)
        if (redo_one(e, errs) != 0) return -1;
    return 0;
}

int engine_undo(engine *e) {
    if (e->pos == 0) return -1;
    cerr_list errs;
    cerr_init(&errs, 0);
    int rc = history_restore(e, e->pos - 1, &errs);
    cerr_free(&errs);
    return rc;
}

int engine_redo(engine *e) {
    if (e->pos >= e->n_log) return -1;
    cerr_list errs;
    cerr_init(&errs, 0);
    int rc = redo_one(e, &errs);
    cerr_free(&errs);
    return rc;
}

int engine_goto_why(engine *e, size_t n, cerr_list *errs) {
    if (n > e->n_log) return -1;
    if (n >= e->pos) { /* forward from here, or from a kept checkpoint nearer to n */
        const checkpoint *c = checkpoint_before(e, n);
        if (!c || c->pos <= e->pos) {
            while (e->pos < n)
                if (redo_one(e, errs) != 0) return -1;
            return 0;
        }
    }
    return history_restore(e, n, errs);
}

int engine_goto(engine *e, size_t n) {
    cerr_list errs;
    cerr_init(&errs, 0);
    int rc = engine_goto_why(e, n, &errs);
    cerr_free(&errs);
    return rc;
}

/* --------------------------------------------------------- replay, load */

/* Appends entries to the log beyond the applied ones (a redo tail). */
static int append_tail(engine *e, const engine_logged *l, size_t n) {
    if (grow_array((void **)&e->log, &e->cap_log, e->n_log + n, sizeof *e->log) != 0) return -1;
    for (size_t i = 0; i < n; i++) {
        char *id = cairn_strdup(l[i].id);
        if (!id) return -1;
        e->log[e->n_log].seat = l[i].seat;
        e->log[e->n_log].id = id;
        e->n_log++;
    }
    return 0;
}

static engine_logged *log_copy(const engine_logged *l, size_t n) {
    engine_logged *c = calloc(n ? n : 1, sizeof *c);
    if (!c) return NULL;
    for (size_t i = 0; i < n; i++) {
        c[i].seat = l[i].seat;
        if (!(c[i].id = cairn_strdup(l[i].id))) {
            for (size_t j = 0; j < i; j++) free(c[j].id);
            free(c);
            return NULL;
        }
    }
    return c;
}

static void log_free(engine_logged *l, size_t n) {
    for (size_t i = 0; l && i < n; i++) free(l[i].id);
    free(l);
}

/* Drops the log after the position and the checkpoints only it reached. */
static void drop_tail(engine *e) {
    for (size_t i = e->pos; i < e->n_log; i++) free(e->log[i].id);
    if (e->n_log > e->pos) e->n_log = e->pos;
    history_drop_after(e, e->pos);
}

/* engine_replay, asking stop(ud) before each decision: when it says 1 the
** replay ends there (*stopped set) as if that decision had failed. */
/* Replays log[0..n) from the start; stop(ud), when given, is asked before
** each decision. A refused decision adds its error to errs and, when reason
** is given, the engine's own reason alone (add_reason). */
static int replay_until(engine *e, const engine_logged *log, size_t n, size_t *failed_at,
                        cerr_list *errs, int (*stop)(void *ud), void *ud, int *stopped, cerr_list *reason) {
    engine_logged *copy = log_copy(log, n); /* log may be e's own */
    if (!copy) return errs->oom = 1, -1;
    *failed_at = n;
    e->pos = 0;
    drop_tail(e);
    if (history_restore(e, 0, errs) != 0) {
        log_free(copy, n);
        return -1;
    }
    int rc = 0;
    for (size_t i = 0; i < n; i++) {
        if (stop && stop(ud)) {
            *stopped = 1;
            *failed_at = i;
            if (append_tail(e, copy + i, n - i) != 0) errs->oom = 1;
            rc = -1;
            break;
        }
        engine_status st;
        size_t k;
        explain_why w;
        char *why = engine_explain_why(e, copy[i].seat, copy[i].id, &st, &k, &w);
        if (st == ENGINE_OK) {
            cerr_list local;
            cerr_init(&local, 0);
            st = engine_apply(e, copy[i].seat, copy[i].id, 0, 0, &local);
            if (st != ENGINE_OK) why = engine_first_error(&local);
            cerr_free(&local);
        }
        if (st != ENGINE_OK) {
            decision_refused(errs, i + 1, copy[i].seat, copy[i].id, why ? why : engine_status_name(st), &w);
            if (reason && w.kind) explain_why_add(reason, &w, copy[i].id, why);
            explain_why_free(&w);
            free(why);
            *failed_at = i;
            if (append_tail(e, copy + i, n - i) != 0) errs->oom = 1;
            rc = -1;
            break;
        }
    }
    log_free(copy, n);
    return rc;
}

int engine_replay(engine *e, const engine_logged *log, size_t n, size_t *failed_at,
                  cerr_list *errs) {
    int stopped = 0;
    return replay_until(e, log, n, failed_at, errs, NULL, NULL, &stopped, NULL);
}

int engine_set_redo_tail(engine *e, const engine_logged *log, size_t n) {
    engine_logged *copy = log_copy(log, n); /* log may be e's own */
    if (!copy) return -1;
    drop_tail(e);
    int rc = append_tail(e, copy, n);
    log_free(copy, n);
    return rc;
}

/* ----------------------------------------------------------- hot reload */

void engine_reload_report_free(engine_reload_report *rep) {
    if (!rep) return;
    free(rep->id);
    free(rep->reason);
    rep->id = rep->reason = NULL;
    for (int i = 0; i < 2; i++) {
        free(rep->reason_args[i]);
        rep->reason_args[i] = NULL;
    }
    rep->reason_key = NULL;
}

static double now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int reload_as(engine *e, const engine_config *c, int (*stop)(void *ud), void *ud,
                     engine_reload_report *rep, cerr_list *errs);

int engine_reload(engine *e, engine_reload_report *rep, cerr_list *errs) {
    engine_config c = engine_config_of(&e->cfg);
    return reload_as(e, &c, NULL, NULL, rep, errs);
}

int engine_reload_until(engine *e, int (*stop)(void *ud), void *ud, engine_reload_report *rep,
                        cerr_list *errs) {
    engine_config c = engine_config_of(&e->cfg);
    return reload_as(e, &c, stop, ud, rep, errs);
}

int engine_reload_with(engine *e, const char *const *choices, size_t n_choices, const char *const *sets,
                       size_t n_sets, engine_reload_report *rep, cerr_list *errs) {
    engine_config c = engine_config_of(&e->cfg);
    c.choices = choices;
    c.n_choices = n_choices;
    c.sets = sets;
    c.n_sets = n_sets;
    return reload_as(e, &c, NULL, NULL, rep, errs);
}

/* A new game made from c with e's log replayed up to pos (e's redo tail
** after pos kept), its debug channel, trace and disclosure as e's; NULL
** with errors when it cannot be made, replaying was interrupted or out of
** memory. Reads only e's C side (its log and settings), never its Lua. */
static engine *remade(const engine *e, const engine_config *c, size_t pos, int (*stop)(void *ud),
                      void *ud, engine_reload_report *rep, cerr_list *errs);

static int reload_as(engine *e, const engine_config *c, int (*stop)(void *ud), void *ud,
                     engine_reload_report *rep, cerr_list *errs) {
    double t0 = now_seconds();
    engine *n = remade(e, c, e->pos, stop, ud, rep, errs);
    if (!n) return -1;
    /* swap the insides; the closures and print hook follow through the hubs */
    engine tmp = *e;
    *e = *n;
    *n = tmp;
    e->hub->e = e;
    n->hub->e = n;
    engine_free(n);
    rep->seconds = now_seconds() - t0;
    return 0;
}

engine *engine_rebuild(const engine *e, size_t pos, engine_reload_report *rep, cerr_list *errs) {
    double t0 = now_seconds();
    engine_config c = engine_config_of(&e->cfg);
    if (pos > e->n_log) pos = e->n_log;
    engine *n = remade(e, &c, pos, NULL, NULL, rep, errs);
    if (n) rep->seconds = now_seconds() - t0;
    return n;
}

static engine *remade(const engine *e, const engine_config *c, size_t pos, int (*stop)(void *ud),
                      void *ud, engine_reload_report *rep, cerr_list *errs) {
    memset(rep, 0, sizeof *rep);
    /* setup's g.debug lines are new (the rules changed); the decisions
    ** replayed after it say nothing again */
    engine_config with_debug = *c;
    with_debug.debug = e->debug_fn;
    with_debug.debug_ud = e->debug_ud;
    engine *n = engine_new(&with_debug, errs);
    if (!n) return NULL; /* engine_new says out of memory when it is */
    engine_set_disclosure(n, e->disclose);
    n->debug_fn = NULL;
    rep->total = pos;
    size_t failed;
    cerr_list rerrs, reason;
    cerr_init(&rerrs, 0);
    cerr_init(&reason, 1);
    int stopped = 0;
    if (replay_until(n, e->log, pos, &failed, &rerrs, stop, ud, &stopped, &reason) != 0) {
        if (stopped) { /* interrupted: no verdict either; the game stays */
            char at[24], of[24];
            snprintf(at, sizeof at, "%zu", failed + 1);
            snprintf(of, sizeof of, "%zu", pos);
            cerr_addk(errs, NULL, 0, 0, NULL, "history.interrupted",
                      "interrupted at decision %s of %s; the game is as it was", at, of);
            cerr_free(&rerrs);
            cerr_free(&reason);
            engine_free(n);
            return NULL;
        }
        /* Out of memory is no verdict on the rules: stopping there would
        ** cut the game short. The reload fails and the game stays. */
        size_t before = cerr_count(errs);
        cerr_note_oom(&rerrs, (size_t)-1, ""); /* an error lost for memory: say so */
        for (size_t i = 0; i < rerrs.n; i++)
            if (strstr(rerrs.items[i].message, "out of memory")) {
                char at[24], of[24];
                snprintf(at, sizeof at, "%zu", failed + 1);
                snprintf(of, sizeof of, "%zu", pos);
                cerr_addk(errs, NULL, 0, 0, NULL, "history.replay_oom",
                          "out of memory replaying decision %s of %s; the game is as it was", at, of);
                break;
            }
        if (cerr_count(errs) != before || errs->oom) {
            cerr_free(&rerrs);
            cerr_free(&reason);
            engine_free(n);
            return NULL;
        }
        rep->stopped = 1;
        rep->replayed = failed;
        if (failed < pos) {
            rep->seat = e->log[failed].seat;
            rep->id = cairn_strdup(e->log[failed].id);
        }
        rep->reason = engine_first_error(&rerrs);
        if (reason.n && reason.items[0].key) { /* the reason alone, keyed, for the console */
            cairn_error *r = &reason.items[0];
            rep->reason_key = r->key;
            rep->reason_args[0] = r->args[0], r->args[0] = NULL;
            rep->reason_args[1] = r->args[1], r->args[1] = NULL;
        }
    } else {
        rep->replayed = pos;
    }
    cerr_free(&rerrs);
    cerr_free(&reason);
    /* e->log is NULL before the first decision: no pointer arithmetic on it */
    if (e->n_log > pos && append_tail(n, e->log + pos, e->n_log - pos) != 0) {
        engine_free(n);
        engine_reload_report_free(rep);
        cerr_addk(errs, NULL, 0, 0, NULL, "history.tail_oom",
                  "out of memory keeping the undone decisions; the game is as it was");
        return NULL;
    }
    /* the debug channel and trace stay where the game's embedder put them */
    n->debug_fn = e->debug_fn, n->debug_ud = e->debug_ud;
    n->trace_fn = e->trace_fn, n->trace_ud = e->trace_ud;
    return n;
}
