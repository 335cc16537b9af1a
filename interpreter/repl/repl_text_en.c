/*
** repl_text_en.c
** The console's messages in English: the catalogue's reference table
** (repl_text.h); every other language has the same keys with the same
** printf conversions, in the same order.
*/
#include "repl_text.h"

#include <stddef.h>

const repl_text_entry repl_text_en[] = {
    {"seat.default", "Seat %d", NULL},
    {"seat.title", "%s (seat %d)", NULL},
    {"header.game", "{bold}%s{/} %s: %d seat, seed %llu", "{bold}%s{/} %s: %d seats, seed %llu"},
    {"header.seats", "Seats: %s", NULL},
    {"header.seat_no", "seat %d, ", NULL},
    {"header.bot", "%s bot", NULL},
    {"header.person", "person", NULL},
    {"header.hint", "Type the number or id of an option, or a command (`help` lists them).", NULL},
    {"turn.same_time", "(%s decides at the same time)", "(%s decide at the same time)"},
    {"turn.unavailable", "(unavailable: %s)", NULL},
    {"turn.over", "The game is over: `undo`, `new`, `save FILE` or `quit`.", NULL},
    {"turn.waiting", "Waiting for %s (%s bot): `run` lets the bots play.", NULL},
    {"turn.waiting_pages", "Waiting for %s (at their pages); `links` shows the links again.", NULL},
    {"news.bot", "%s (%s bot)", NULL},
    {"news.secret", "a secret decision", "%zu secret decisions"},
    {"news.decided", "%s has decided.", "%s made %zu decisions."},
    {"scores.final", "Final scores", NULL},
    {"scores.now", "Scores", NULL},
    {"scores.tiebreak", "(tie-break %s)", NULL},
    {"scores.draw", "{bold}A draw{/} between %s.", NULL},
    {"scores.winner", "{bold}Winner: %s{/}", "{bold}Winners: %s{/}"},
    {"hotseat.cleared", "[screen cleared]", NULL},
    {"hotseat.pass", "-- pass the keyboard to %s --", NULL},
    {"hotseat.pass_enter", "{bold}-- pass the keyboard to %s, then press Enter --{/}", NULL},
    {"pager.more", "--More-- (Space: the next page, Enter: one more line, q: all the rest)", NULL},
    {"answer.unavailable", "\"%s\" is not available: %s", NULL},
    {"answer.disabled", "disabled", NULL},
    {"answer.or_command", "%s (or a command: `help` lists them)", NULL},
    {"answer.no_option", "no such option", NULL},
    {"answer.game_over", "\"%s\": the game is over, nobody is asked anything (`help` lists the commands)", NULL},
    {"answer.nobody_asked", "no command \"%s\", and no person is asked anything now (`run` lets the bots play)", NULL},
    {"answer.out_of_range", "no option %s: choose 1 to %zu", NULL},
    {"answer.no_match", "no option \"%s\": type a number from 1 to %zu, or the beginning of an option", NULL},
    {"rules.head", "{bold}%s{/} %s (%s): %d seat (%d to %d)", "{bold}%s{/} %s (%s): %d seats (%d to %d)"},
    {"rules.howto", "How to play", NULL},
    {"rules.legend", "The board", NULL},
    {"rules.rulebook", "The full rules: %s%s", NULL},
    {"rules.not_installed", " (not installed here)", NULL},
    {"rules.options", "Options:", NULL},
    {"rules.no_options", "Options: none.", NULL},
    {"rules.preset", "Preset: %s", NULL},
    {"rules.assumptions", "Assumed values (where the rulebook is silent):", NULL},
    {"rules.no_assumptions", "Assumed values: none declared.", NULL},
    {"rules.source", "(source: %s)", NULL},
    {"rules.switch", "a switch", NULL},
    {"rules.choice", "a choice", NULL},
    {NULL, NULL, NULL},
};
