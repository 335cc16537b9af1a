/*
** repl_serve.c
** `cairn serve` in the console: the seats' server (interpreter/serve/)
** started for the game the console hosts, its links printed (and drawn as
** QR codes), the pages' requests answered while the console waits for a
** line, the bots and the board after a page's answer, and every page told
** when the game moved (a command, an answer, undo, load, reload).
*/
#include "repl_session.h"
#include "repl_text.h"

#include "engine.h"
#include "error.h"
#include "lineedit.h"
#include "markup.h"
#include "serve.h"

#include <stdlib.h>
#include <string.h>

static int seat_is_bot(const repl *r, int seat) {
    return seat >= 1 && seat <= r->n_seats && r->bot && r->bot[seat] != NULL;
}

int repl_serve_links(repl *r) {
    if (!r->server) {
        repl_fail(r, "%s", repl_tr(r, "serve.no_links"));
        return -1;
    }
    int any = 0;
    for (int s = 1; s <= r->n_seats; s++) {
        if (seat_is_bot(r, s)) continue; /* a bot's link is for nobody */
        char *link = serve_link(r->server, s);
        if (!link) continue;
        any = 1;
        char dflt[64];
        snprintf(dflt, sizeof dflt, repl_tr(r, "seat.default"), s);
        if (strcmp(repl_seat_name(r, s), dflt) == 0) repl_plain(r, "  %s: %s", dflt, link);
        else repl_plain(r, "  %s (%s): %s", repl_seat_name(r, s), dflt, link);
        fflush(r->out);
        if (r->interactive) serve_print_qr(r->out, link, r->width);
        free(link);
    }
    if (!any) repl_plain(r, "  %s", repl_tr(r, "serve.none"));
    return 0;
}

int repl_serve_open(repl *r, const char *bind, int port) {
    int *served = calloc((size_t)r->n_seats + 1, sizeof *served);
    if (!served) {
        fprintf(stderr, "cairn serve: out of memory\n");
        return -1;
    }
    /* every seat gets its link, a bot's too (unprinted, its answers refused):
    ** a seat that a person takes over later (`human SEAT`) has one at once */
    for (int s = 1; s <= r->n_seats; s++) served[s] = 1;
    cerr_list errs;
    cerr_init(&errs, 0);
    r->server = serve_start(bind, port, r->n_seats, served, &errs);
    free(served);
    if (!r->server) {
        char *m = errs.n ? repl_error_text(r, &errs.items[0]) : NULL;
        fprintf(stderr, "cairn serve: %s\n", m ? m : repl_tr(r, "error.oom"));
        free(m);
        cerr_free(&errs);
        return -1;
    }
    cerr_free(&errs);
    r->viewer = 0; /* the console shows the public board; `view SEAT` answers for a seat */
    int local = strncmp(bind, "127.", 4) == 0 || strcmp(bind, "::1") == 0;
    repl_plain(r, repl_tr(r, "serve.banner"), bind, serve_port(r->server),
               repl_tr(r, local ? "serve.local" : "serve.network"));
    repl_serve_links(r);
    return 0;
}

void repl_serve_close(repl *r) {
    serve_stop(r->server);
    r->server = NULL;
}

/* A page's answer was applied (on this thread, inside the wait). */
static void answered(void *ctx, int seat) {
    repl *r = ctx;
    (void)seat;
    r->changed = r->answered = 1;
    r->dirty = 1;
    r->over_shown = 0;
}

/* The wake callback of the console's read: every waiting request answered.
** Nothing is printed here (the line being typed is on screen); 1 when the
** game moved. */
static int on_wake(void *ctx) {
    repl *r = ctx;
    for (int s = 1; s <= r->n_seats; s++) serve_set_bot(r->server, s, seat_is_bot(r, s));
    return serve_pump(r->server, r->e, answered, r) > 0;
}

char *repl_serve_ask(repl *r, const char *prompt, lineedit_status *st) {
    if (!r->script && !r->interactive) {
        fputs(prompt, r->out);
        fflush(r->out);
    }
    return lineedit_read_wake(r->le, prompt, serve_wake_fd(r->server), on_wake, r, st);
}

void repl_serve_moved(repl *r) {
    if (r->auto_bots) repl_run_bots(r, 0);
    repl_present(r);
    repl_recovery_update(r); /* a game played at the pages is never lost either */
}

void repl_serve_publish(repl *r) {
    if (r->server && r->e) serve_publish(r->server, r->e, repl_lang(r));
}

void repl_serve_waiting(repl *r) {
    markup_buf b = {0};
    size_t n = 0;
    for (int s = 1; s <= r->n_seats; s++)
        if (engine_is_asked(r->e, s)) markup_buf_printf(&b, "%s%s", n++ ? ", " : "", repl_seat_name(r, s));
    char *who = markup_buf_take(&b);
    repl_say(r, 2, repl_tr(r, "turn.waiting_pages"), who ? who : "?");
    free(who);
}
