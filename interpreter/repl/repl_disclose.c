/*
** repl_disclose.c
** How the console tells the seats what was decided: a decision is shown
** with its label unless the engine's disclosure (engine_disclosure.c) says its
** choice is hidden from the seat looking; a bot's run of moves the viewer
** saw no event of is said on one line ("Seat 2 (random bot): take one red
** stone; level 1, place 3"), or, for hidden ones, "has decided".
*/
#include "repl_session.h"

#include "engine.h"
#include "markup.h"

#include <stdlib.h>
#include <string.h>

int repl_choice_hidden(const repl *r, size_t index, int seat) {
    size_t n;
    const engine_logged *log = engine_log(r->e, &n);
    if (index >= n || log[index].seat == seat) return 0;
    const engine_disclosure *d;
    if (engine_disclosure_of(r->e, index, &d)) return seat >= 0 && seat < 32 && (d->hidden_from >> seat) & 1;
    return r->secret; /* not known (loaded past the last reload): keep it secret */
}

/* The label of a logged decision as seat may read it, or NULL when not
** known or when it may tell the decider's secrets. Borrowed. */
static const char *logged_label(const repl *r, size_t index, int seat) {
    size_t n;
    const engine_logged *log = engine_log(r->e, &n);
    const engine_disclosure *d;
    if (!engine_disclosure_of(r->e, index, &d)) return NULL;
    return d->label_public || (index < n && log[index].seat == seat) ? d->label : NULL;
}

char *repl_describe_logged(const repl *r, size_t index, int peek) {
    size_t n;
    const engine_logged *log = engine_log(r->e, &n);
    if (index >= n) return cairn_strdup("?");
    if (engine_log_is_edit(&log[index])) { /* repl_inspect.c's set */
        char *what = markup_escape(log[index].id);
        char *out = cairn_strfmt("edit: %s", what ? what : "?");
        free(what);
        return out;
    }
    char *name = markup_escape(repl_seat_name(r, log[index].seat)); /* names and ids are no markup */
    char *id = markup_escape(log[index].id);
    const char *label = NULL;
    const engine_disclosure *d;
    if (peek && engine_disclosure_of(r->e, index, &d)) label = d->label;
    else if (!peek) label = logged_label(r, index, r->viewer);
    char *out;
    if (!peek && repl_choice_hidden(r, index, r->viewer))
        out = cairn_strfmt("%s: (secret)", name ? name : "?");
    else if (label && strcmp(label, log[index].id) != 0)
        out = cairn_strfmt("%s: %s (%s)", name ? name : "?", label, id ? id : "?");
    else
        out = cairn_strfmt("%s: %s", name ? name : "?", id ? id : "?");
    free(name);
    free(id);
    return out;
}

/* A run of one seat's moves the viewer saw no event of, said on one line. */
typedef struct moves {
    int seat;
    size_t n_hidden, n_shown;
    markup_buf shown;
} moves;

static void moves_flush(repl *r, moves *m) {
    char who[200];
    const char *name = m->seat ? repl_seat_name(r, m->seat) : "?";
    char *en = markup_escape(name);
    if (m->seat && r->bot[m->seat])
        snprintf(who, sizeof who, repl_tr(r, "news.bot"), en ? en : "?", r->bot[m->seat]);
    else
        snprintf(who, sizeof who, "%s", en ? en : "?");
    free(en);
    if (m->seat && m->n_hidden) {
        char *said = cairn_strfmt(repl_trn(r, "news.decided", (long long)m->n_hidden), who, m->n_hidden);
        repl_say(r, 2, "{dim}%s{/}", said ? said : "?");
        free(said);
    }
    char *shown = markup_buf_take(&m->shown);
    if (m->seat && m->n_shown) repl_say(r, 4, "%s: %s", who, shown ? shown : "?");
    free(shown);
    memset(m, 0, sizeof *m);
}

static void moves_add(repl *r, moves *m, int viewer, size_t index) {
    size_t n;
    const engine_logged *log = engine_log(r->e, &n);
    int seat = log[index].seat;
    int hidden = repl_choice_hidden(r, index, viewer);
    if (m->seat != seat || (hidden ? m->n_shown : m->n_hidden)) moves_flush(r, m);
    m->seat = seat;
    if (hidden) {
        m->n_hidden++;
        return;
    }
    const char *label = logged_label(r, index, viewer);
    char *eid = label ? NULL : markup_escape(log[index].id); /* a label is markup, an id is not */
    markup_buf_printf(&m->shown, "%s%s", m->n_shown++ ? "; " : "", label ? label : eid ? eid : "?");
    free(eid);
}

size_t *repl_seen_pos(repl *r, int seat) {
    return &r->seen_pos[r->secret && seat >= 0 && seat <= r->n_seats ? seat : 0];
}

void repl_mark_all_seen(repl *r) {
    size_t count = engine_event_count(r->e), pos = engine_position(r->e);
    for (int i = 0; i <= r->n_seats; i++) {
        r->seen[i] = count;
        r->seen_pos[i] = pos;
    }
}

void repl_show_events(repl *r, int seat) {
    size_t *seen = repl_seen(r, seat), *seen_pos = repl_seen_pos(r, seat);
    size_t count = engine_event_count(r->e), pos = engine_position(r->e), n;
    const engine_logged *log = engine_log(r->e, &n);
    if (*seen > count) *seen = count;
    if (*seen_pos > pos) *seen_pos = pos;
    engine_event_list ev = {0};
    if (engine_events(r->e, *seen, seat, &ev) != 0) {
        repl_fail(r, "out of memory");
        return;
    }
    moves m = {0};
    size_t j = 0;
    for (size_t i = *seen_pos; i < pos; i++) {
        if (j < ev.n && ev.items[j].decision <= i + 1) moves_flush(r, &m);
        int told = 0;
        for (; j < ev.n && ev.items[j].decision <= i + 1; j++) {
            told |= ev.items[j].decision == i + 1;
            repl_say(r, 2, "%s", ev.items[j].text);
        }
        /* a decision the viewer heard nothing of: who made it, and what unless
        ** it is hidden; the viewer's own need no telling, nor a replay's (it
        ** says each decision itself) */
        if (!told && !r->replay && log[i].seat != seat) moves_add(r, &m, seat, i);
    }
    moves_flush(r, &m);
    for (; j < ev.n; j++) repl_say(r, 2, "%s", ev.items[j].text);
    engine_event_list_free(&ev);
    *seen = count;
    *seen_pos = pos;
}
