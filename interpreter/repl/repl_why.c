/*
** repl_why.c
** `why`: a bot's reasons, kept for its last decision that was a choice (one
** with two options or more: a forced move has no reasons) and told once
** that decision is public to the viewing seat: its choice was never hidden
** from the seat, or a decision revealed that choice (the simultaneous
** reveal of Yak's cards of that day, Goofspiel's bids, Himalaya's programs),
** or the game is over. In a game with secrets `why` is then no longer refused.
*/
#include "repl_session.h"

#include "bot.h"
#include "engine.h"
#include "markup.h"
#include "strbuf.h"

#include <stdlib.h>
#include <string.h>

/* The label seat was offered for option id (asked before the decision), else the id. */
static const char *label_of(const engine_decision_list *asked, int seat, const char *id) {
    for (size_t i = 0; asked && i < asked->n; i++) {
        if (asked->items[i].seat != seat) continue;
        for (size_t k = 0; k < asked->items[i].n_options; k++) {
            const engine_option *o = &asked->items[i].options[k];
            if (strcmp(o->id, id) == 0 && o->label && o->label[0]) return o->label;
        }
    }
    return id;
}

/* The bot's reasons (bot.h: facts) in the game's language: a head line, then
** the options it weighed with their numbers first and their labels last (so
** no column depends on a label's width). */
static char *word_reasons(const repl *r, int seat, const bot_reasons *b, const engine_decision_list *asked) {
    strbuf w = {0};
    const char *spec = r->bot[seat];
    char num[REPL_DECIMAL_MAX]; /* a number in the game's language (repl_decimal) */
    switch (b->kind) {
    case BOT_WHY_NONE: strbuf_printf(&w, "%s", repl_tr(r, "why.no_choice")); break;
    case BOT_WHY_ONLY: strbuf_printf(&w, repl_tr(r, "why.only"), spec); break;
    case BOT_WHY_UNIFORM: strbuf_printf(&w, repl_trn(r, "why.uniform", (long long)b->options), spec, b->options); break;
    case BOT_WHY_RULESET:
        strbuf_printf(&w, repl_tr(r, "why.ruleset"), spec, b->n_rows ? label_of(asked, seat, b->rows[0].id) : "?");
        break;
    case BOT_WHY_GREEDY:
        strbuf_printf(&w, repl_tr(r, b->sampled ? "why.greedy_sampled" : "why.greedy"), spec);
        strbuf_printf(&w, "\n  %10s  %s", repl_tr(r, "why.col_score"), repl_tr(r, "why.col_option"));
        for (size_t i = 0; i < b->n_rows; i++)
            strbuf_printf(&w, "\n  %10s  %s%s", repl_decimal(r, b->rows[i].value, 2, num), label_of(asked, seat, b->rows[i].id),
                          b->rows[i].chosen ? repl_tr(r, "why.chosen") : "");
        break;
    case BOT_WHY_SEARCH:
        strbuf_printf(&w, repl_trn(r, b->depth_is_limit ? "why.search_up_to" : "why.search", (long long)b->depth), spec,
                      b->iterations, b->depth, repl_decimal(r, b->seconds, 2, num));
        if (b->pooled) strbuf_printf(&w, repl_trn(r, "why.pooled", (long long)b->samples), b->samples);
        else if (b->sampled) strbuf_printf(&w, "%s", repl_tr(r, "why.sampled"));
        if (b->stopped) strbuf_printf(&w, "%s", repl_tr(r, "why.stopped"));
        if (b->timed) strbuf_printf(&w, "%s", repl_tr(r, "why.timed"));
        strbuf_printf(&w, "\n  %8s %8s  %s", repl_tr(r, "why.col_visits"), repl_tr(r, "why.col_value"),
                      repl_tr(r, "why.col_option"));
        for (size_t i = 0; i < b->n_rows; i++)
            strbuf_printf(&w, "\n  %8u %7s%%  %s%s", b->rows[i].visits, repl_decimal(r, b->rows[i].value, 1, num),
                          label_of(asked, seat, b->rows[i].id), b->rows[i].chosen ? repl_tr(r, "why.chosen") : "");
        if (b->options) strbuf_printf(&w, "\n  %s", "");
        if (b->options) strbuf_printf(&w, repl_trn(r, "why.more", (long long)b->options), b->options);
        break;
    }
    return strbuf_take(&w);
}

void repl_why_note(repl *r, int seat, size_t index, size_t options, const engine_decision_list *asked) {
    if (seat < 1 || seat > r->n_seats || options < 2 || !r->brain || !r->brain[seat] || !r->why) return;
    bot_reasons b;
    if (bot_reasons_copy(r->brain[seat], &b) != 0) return;
    char *w = word_reasons(r, seat, &b, asked);
    bot_reasons_free(&b);
    if (!w) return;
    repl_why_record *rec = &r->why[seat];
    size_t k = rec->next++ % CAIRN_REPL_WHY_KEPT;
    free(rec->text[k]);
    rec->text[k] = w;
    rec->index[k] = index;
}

void repl_why_free(repl *r) {
    if (r->why)
        for (int i = 0; i <= r->n_seats; i++)
            for (int k = 0; k < CAIRN_REPL_WHY_KEPT; k++) free(r->why[i].text[k]);
    free(r->why);
    r->why = NULL;
}

int repl_why_reset(repl *r) {
    repl_why_free(r);
    r->why = calloc((size_t)r->n_seats + 1, sizeof *r->why);
    return r->why ? 0 : -1;
}

/* 1 when decision index is public to seat now: its choice was never hidden
** from the seat, or it was revealed: by the decision itself (the last of a
** simultaneous choice reveals them all), or by a later decision of another
** seat that changed the decider's hidden part (Yak's cards of that day turned
** up). A reveal of something else (another day's cards, a draw from a bag)
** tells nothing of this choice. */
static int public_now(const repl *r, size_t index, int seat) {
    size_t pos = engine_position(r->e), n;
    const engine_logged *log = engine_log(r->e, &n);
    if (engine_is_over(r->e) || !repl_choice_hidden(r, index, seat)) return 1;
    int decider = index < n ? log[index].seat : 0;
    if (decider < 1 || decider >= 32) return 0;
    const engine_disclosure *d;
    if (engine_disclosure_of(r->e, index, &d) && d->revealed_of) return 1;
    for (size_t j = index + 1; j < pos && j < n; j++)
        if (log[j].seat != decider && engine_disclosure_of(r->e, j, &d) && d->reveal &&
            ((d->revealed_of >> decider) & 1))
            return 1;
    return 0;
}

/* 1 when slot k of rec holds a choice of seat that is still in the game (not undone). */
static int standing(const repl *r, const repl_why_record *rec, size_t k, int seat) {
    size_t n;
    const engine_logged *log = engine_log(r->e, &n);
    size_t i = rec->index[k];
    return rec->text[k] && i < engine_position(r->e) && i < n && log[i].seat == seat;
}

size_t repl_why_latest(const repl *r, int seat, int *found) {
    *found = 0;
    size_t best = 0;
    const repl_why_record *rec = r->why && seat >= 1 && seat <= r->n_seats ? &r->why[seat] : NULL;
    for (size_t k = 0; rec && k < CAIRN_REPL_WHY_KEPT; k++)
        if (standing(r, rec, k, seat) && (!*found || rec->index[k] > best)) best = rec->index[k], *found = 1;
    return best;
}

int repl_why_show(repl *r, int seat) {
    const repl_why_record *rec = r->why && seat >= 1 && seat <= r->n_seats ? &r->why[seat] : NULL;
    int have = 0, secret = 0;
    size_t best = 0, k_best = 0, newest_secret = 0;
    for (size_t k = 0; rec && k < CAIRN_REPL_WHY_KEPT; k++) {
        if (!standing(r, rec, k, seat)) continue;
        if (!public_now(r, rec->index[k], r->viewer)) {
            if (!secret || rec->index[k] > newest_secret) newest_secret = rec->index[k];
            secret = 1;
            continue;
        }
        if (!have || rec->index[k] > best) best = rec->index[k], k_best = k, have = 1;
    }
    if (!have && !secret) {
        repl_plain(r, repl_tr(r, "why.none"), r->bot[seat], repl_seat_name(r, seat));
        return 0;
    }
    if (!have) {
        repl_fail(r, repl_tr(r, "why.secret"), repl_seat_name(r, seat), newest_secret + 1);
        return -1;
    }
    char *d = repl_describe_logged(r, best, 1); /* public now: its label */
    repl_say(r, 0, repl_tr(r, "why.decision"), best + 1, d ? d : "?");
    free(d);
    if (secret && newest_secret > best)
        repl_say(r, 0, repl_tr(r, "why.newer_secret"), newest_secret + 1);
    char *esc = markup_escape(rec->text[k_best]);
    repl_board_block(r, esc ? esc : repl_tr(r, "error.oom")); /* lines wider than the terminal wrapped */
    free(esc);
    return 0;
}
