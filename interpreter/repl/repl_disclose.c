/*
** repl_disclose.c
** How the console tells the seats what was decided: a decision is shown
** with its label unless the engine's disclosure (engine_disclosure.c) says its
** choice is hidden from the seat looking; every run of another seat's
** decisions since the viewer last looked is said on one line before the
** events it caused ("Seat 2 (random bot): take one red stone; pay 1 meat;
** level 1, place 3"), hidden choices as "6 secret decisions", a run of
** hidden ones only as "has decided".
*/
#include "repl_session.h"

#include "engine.h"
#include "markup.h"

#include <stdint.h>
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
        char *out = cairn_strfmt(repl_tr(r, "history.edit"), what ? what : "?");
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
    /* a label the viewer may not read (it may tell the decider's secrets) is
    ** a secret decision to them: never the id, which may tell as much */
    if (!peek && (repl_choice_hidden(r, index, r->viewer) || (!label && r->secret)))
        out = cairn_strfmt(repl_tr(r, "history.secret"), name ? name : "?");
    else if (label && (strcmp(label, log[index].id) == 0 || strcmp(repl_lang(r), "en") != 0))
        /* the id is the ruleset's, in English: a game in another language tells the label alone */
        out = cairn_strfmt("%s: %s", name ? name : "?", label);
    else if (label)
        out = cairn_strfmt("%s: %s (%s)", name ? name : "?", label, id ? id : "?");
    else
        out = cairn_strfmt("%s: %s", name ? name : "?", id ? id : "?");
    free(name);
    free(id);
    return out;
}

/* A run of one seat's decisions since the viewer's last look, said on one
** line before the events they caused: every public one by its label, in
** order, hidden ones together as "6 secret decisions", and a run of
** hidden ones only as "has decided" / "made N decisions". */
typedef struct moves {
    int seat;         /* whose run; 0: none yet, or one that is not told (the viewer's, an edit) */
    int told;         /* the run gets a line */
    size_t first;     /* its first decision (0-based) */
    size_t pending;   /* hidden decisions since the last item written */
    size_t items;     /* items written to shown */
    size_t n_hidden, n_shown;
    markup_buf shown;
} moves;

/* Writes the hidden decisions not yet written as one item ("a secret
** decision", "6 secret decisions"). */
static void moves_put_hidden(repl *r, moves *m) {
    if (!m->pending) return;
    if (m->items++) markup_buf_puts(&m->shown, repl_tr(r, "list.sep"));
    markup_buf_printf(&m->shown, repl_trn(r, "news.secret", (long long)m->pending), m->pending);
    m->pending = 0;
}

static void moves_say(repl *r, moves *m) {
    moves_put_hidden(r, m);
    if (!m->told || !m->seat || !(m->n_hidden + m->n_shown)) return;
    char who[200];
    const char *name = m->seat ? repl_seat_name(r, m->seat) : "?";
    char *en = markup_escape(name);
    if (m->seat && r->bot[m->seat])
        snprintf(who, sizeof who, repl_tr(r, "news.bot"), en ? en : "?", r->bot[m->seat]);
    else
        snprintf(who, sizeof who, "%s", en ? en : "?");
    free(en);
    char *shown = markup_buf_take(&m->shown);
    if (m->n_shown) {
        repl_say(r, 4, "%s: %s", who, shown ? shown : "?");
    } else {
        char *said = cairn_strfmt(repl_trn(r, "news.decided", (long long)m->n_hidden), who, m->n_hidden);
        repl_say(r, 2, "{dim}%s{/}", said ? said : "?");
        free(said);
    }
    free(shown);
}

static void moves_add(repl *r, moves *m, int viewer, size_t index) {
    /* a choice hidden from the viewer, or one whose label may tell the
    ** decider's secrets (made from the whole state), is counted as a secret
    ** decision: the news never shows an option's id, which is the
    ** ruleset's, in English, and no sentence (the events tell what it did) */
    const char *label = repl_choice_hidden(r, index, viewer) ? NULL : logged_label(r, index, viewer);
    if (!label) {
        m->n_hidden++;
        m->pending++;
        return;
    }
    moves_put_hidden(r, m);
    markup_buf_printf(&m->shown, "%s%s%s", m->items++ ? repl_tr(r, "list.sep") : "", label,
                      repl_was_forced(r, index) ? repl_tr(r, "news.only_option") : "");
    m->n_shown++;
}

/* On a screen too short for the news line by line (r->news_joined,
** repl_layout.c) a run's events are one paragraph. Its last events, when
** they are another seat's ("Seat 4 reveals Market." at the end of Seat 3's
** turn), open that seat's paragraph instead when its run comes next, so
** that each paragraph tells one seat's turn. A paragraph waits here until
** the next run is known. */
typedef struct news_para {
    markup_buf head; /* the paragraph, up to its tail */
    markup_buf tail; /* its last events, all of another seat than the run's; empty: none */
    int tail_seat;
} news_para;

/* The seat whose name opens an event's text ("Ann takes 3 milk."), 0 when
** none does (a sentence that starts otherwise, as the Greek "Ο/Η Άννα ..."
** does: such text stays with its run). The longest name wins ("Seat 1"
** against "Seat 10"). */
static int event_seat(repl *r, const char *text) {
    int best = 0;
    size_t best_len = 0;
    for (int s = 1; s <= r->n_seats; s++) {
        const char *name = repl_seat_name(r, s);
        size_t n = name ? strlen(name) : 0;
        if (n > best_len && strncmp(text, name, n) == 0 && text[n] == ' ') {
            best = s;
            best_len = n;
        }
    }
    return best;
}

/* Adds text to a paragraph, a space before it unless it is the first. */
static void para_add(markup_buf *b, const char *text) {
    markup_buf_printf(b, "%s%s", b->len ? " " : "", text);
}

/* The tail back into the paragraph's head: it was not the paragraph's end. */
static void para_untail(news_para *p) {
    char *t = markup_buf_take(&p->tail);
    if (t && *t) para_add(&p->head, t);
    free(t);
    p->tail_seat = 0;
}

static void para_say(repl *r, markup_buf *b) {
    char *t = markup_buf_take(b);
    if (t && *t) repl_say(r, 2, "%s", t);
    free(t);
}

/* Says the waiting paragraph; its tail goes with it, unless the next run
** is the tail's seat's (next_seat): then the tail starts that run's
** paragraph. */
static void para_resolve(repl *r, news_para *p, int next_seat) {
    if (p->tail.len && p->tail_seat == next_seat) {
        para_say(r, &p->head);
        p->head = p->tail;
        p->tail = (markup_buf){0};
        p->tail_seat = 0;
    } else {
        para_untail(p);
        para_say(r, &p->head);
    }
}

/* Says the events ev[*j..] of the decisions up to `upto` (1-based), each on
** its own line; on a screen too short for them so (r->news_joined), those
** of one run (seat's) as one paragraph, left waiting in p. */
static void say_events(repl *r, news_para *p, int seat, const engine_event_list *ev, size_t *j, size_t upto) {
    if (!r->news_joined) {
        for (; *j < ev->n && ev->items[*j].decision <= upto; ++*j) repl_say(r, 2, "%s", ev->items[*j].text);
        return;
    }
    for (; *j < ev->n && ev->items[*j].decision <= upto; ++*j) {
        const char *t = ev->items[*j].text;
        int s = seat ? event_seat(r, t) : 0; /* setup's events (no run) stay together */
        if (s && s != seat && s != p->tail_seat) {
            /* another seat's from here on, so far: the paragraph's tail */
            para_untail(p);
            p->tail_seat = s;
        } else if (s && s == seat && p->tail_seat) {
            para_untail(p); /* the run's seat again: the tail was not the end */
        }
        para_add(p->tail_seat ? &p->tail : &p->head, t);
    }
}

/* Says the run's line, then the events of the decisions up to `upto`
** (1-based: the run's last), from ev[*j] on. */
static void moves_flush(repl *r, moves *m, news_para *p, const engine_event_list *ev, size_t *j, size_t upto) {
    /* a run whose every decision the rules told with an event of its own
    ** ("Ann drops a disc in column 4", "Bob has bid") is not said twice;
    ** any other run is listed whole, the told decisions too */
    size_t narrated = 0, last = 0;
    for (size_t k = *j; k < ev->n && ev->items[k].decision <= upto; k++) {
        size_t d = ev->items[k].decision;
        if (d > m->first && d != last) narrated++, last = d;
    }
    para_resolve(r, p, m->seat);
    if (narrated < m->n_hidden + m->n_shown) moves_say(r, m);
    say_events(r, p, m->seat, ev, j, upto);
    free(markup_buf_take(&m->shown));
    memset(m, 0, sizeof *m);
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
    r->undone.by = 0; /* nor an undo before a load or a jump */
}

void repl_show_events(repl *r, int seat) {
    size_t *seen = repl_seen(r, seat), *seen_pos = repl_seen_pos(r, seat);
    size_t count = engine_event_count(r->e), pos = engine_position(r->e), n;
    const engine_logged *log = engine_log(r->e, &n);
    if (*seen > count) *seen = count;
    if (*seen_pos > pos) *seen_pos = pos;
    engine_event_list ev = {0};
    if (engine_events(r->e, *seen, seat, &ev) != 0) {
        repl_fail(r, "%s", repl_tr(r, "error.oom"));
        return;
    }
    moves m = {0};
    news_para para = {0};
    size_t j = 0;
    moves_flush(r, &m, &para, &ev, &j, *seen_pos); /* events of decisions told before (setup's) */
    for (size_t i = *seen_pos; i < pos; i++) {
        int seat_i = engine_log_is_edit(&log[i]) ? 0 : log[i].seat;
        if (i > *seen_pos && seat_i != m.seat) moves_flush(r, &m, &para, &ev, &j, i);
        if (i == *seen_pos || seat_i != m.seat) m.first = i;
        m.seat = seat_i;
        /* the viewer's own need no telling, nor a replay's (it says each
        ** decision itself), nor an edit (history shows it) */
        m.told = seat_i && seat_i != seat && !r->replay;
        if (m.told) moves_add(r, &m, seat, i);
        else if (seat_i && seat_i == seat && !r->replay && repl_was_forced(r, i)) { /* repl_forced.c */
            moves_flush(r, &m, &para, &ev, &j, i);
            para_resolve(r, &para, 0);
            const char *label = logged_label(r, i, seat);
            char *eid = label ? NULL : markup_escape(log[i].id);
            repl_say(r, 2, repl_tr(r, "news.taken"), label ? label : eid ? eid : "?");
            free(eid);
            m.seat = seat_i;
            m.first = i;
        }
    }
    moves_flush(r, &m, &para, &ev, &j, pos);
    say_events(r, &para, 0, &ev, &j, SIZE_MAX);
    para_resolve(r, &para, 0);
    engine_event_list_free(&ev);
    *seen = count;
    *seen_pos = pos;
}
