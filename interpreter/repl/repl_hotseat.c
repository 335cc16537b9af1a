/*
** repl_hotseat.c
** People taking turns at one keyboard in a game with secrets: the screen is
** cleared before `-- pass the keyboard to Bob --` (and again once Bob has
** it), so nothing the last seat typed or saw stays on it; in script mode a
** marker line stands for the clear, so transcripts show where it happens.
** Commands that would show another seat's secrets (`show N`, `state
** --peek`, `history --peek`) ask first when two or more people play here.
*/
#include "repl_session.h"

#include "lineedit.h"
#include "termsafe.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* What a transcript shows where a terminal's screen is cleared. */

int repl_people(const repl *r) {
    int n = 0;
    for (int i = 1; i <= r->n_seats; i++)
        if (!r->bot[i]) n++;
    return n;
}

void repl_clear_screen(repl *r) {
    if (r->script) {
        repl_say(r, 0, "{dim}%s{/}", repl_tr(r, "hotseat.cleared"));
    } else if (r->interactive) {
        const char *csi = termsafe_escape_start(); /* marked as cairn's own */
        fprintf(r->out, "%sH%s2J%s3J", csi, csi, csi); /* the scrollback too */
        fflush(r->out);
    }
    /* typed at a terminal, the output elsewhere (`| tee`): nothing to clear there */
}

char *repl_ask(repl *r, const char *prompt, int *eof) {
    fflush(r->out);
    if (!r->script && !r->interactive) {
        fputs(prompt, r->out);
        fflush(r->out);
    }
    lineedit_status st;
    char *line = lineedit_read(r->le, prompt, &st);
    *eof = st == LINEEDIT_EOF || st == LINEEDIT_ERROR;
    if (st != LINEEDIT_LINE) {
        free(line);
        return NULL;
    }
    if (r->script) {
        char *shown = termsafe_text(line);
        fprintf(r->out, "%s%s\n", prompt, shown ? shown : "");
        free(shown);
    }
    return line;
}

void repl_pass_keyboard(repl *r, const char *to) {
    repl_clear_screen(r);
    if (r->script) {
        repl_say(r, 0, repl_tr(r, "hotseat.pass"), to);
        return;
    }
    repl_say(r, 0, repl_tr(r, "hotseat.pass_enter"), to);
    int eof;
    free(repl_ask(r, "", &eof));
    repl_clear_screen(r); /* whatever was typed at the pause goes too */
}

int repl_confirm_secrets(repl *r, const char *what) {
    if (!r->secret || r->replay || repl_people(r) < 2) return 1;
    repl_say(r, 0, repl_tr(r, "confirm.secrets"), what);
    int eof;
    char *line = repl_ask(r, "cairn:confirm> ", &eof);
    const char *a = line ? line + strspn(line, " \t") : "";
    int yes = repl_is_yes(r, a);
    free(line);
    if (!yes) repl_plain(r, "%s", repl_tr(r, "confirm.not_shown"));
    return yes;
}

int repl_confirm(repl *r, const char *question) {
    if (r->script) return 0;
    int eof;
    char *line = repl_ask(r, question, &eof);
    const char *a = line ? line + strspn(line, " \t") : "";
    int yes = repl_is_yes(r, a);
    free(line);
    return yes;
}
