/*
** repl_text_de.c
** The console's messages in German (repl_text.h): the keys and printf
** conversions of repl_text_en.c. Commands (`undo`, `help`) stay as typed.
*/
#include "repl_text.h"

#include <stddef.h>

const repl_text_entry repl_text_de[] = {
    {"seat.default", "Platz %d", NULL},
    {"seat.title", "%s (Platz %d)", NULL},
    {"header.game", "{bold}%s{/} %s: %d Platz, Startwert %llu", "{bold}%s{/} %s: %d Plätze, Startwert %llu"},
    {"header.seats", "Plätze: %s", NULL},
    {"header.seat_no", "Platz %d, ", NULL},
    {"header.bot", "%s-Bot", NULL},
    {"header.person", "Mensch", NULL},
    {"header.hint", "Gib die Nummer oder Kennung einer Option ein, oder einen Befehl (`help` zeigt sie).", NULL},
    {"turn.same_time", "(%s entscheidet zugleich)", "(%s entscheiden zugleich)"},
    {"turn.unavailable", "(nicht möglich: %s)", NULL},
    {"turn.over", "Das Spiel ist aus: `undo`, `new`, `save DATEI` oder `quit`.", NULL},
    {"turn.waiting", "Warten auf %s (%s-Bot): mit `run` ziehen die Bots.", NULL},
    {"news.bot", "%s (%s-Bot)", NULL},
    {"news.decided", "%s hat entschieden.", "%s hat %zu Entscheidungen getroffen."},
    {"scores.final", "Endwertung", NULL},
    {"scores.now", "Punktestand", NULL},
    {"scores.tiebreak", "(Stichwert %lld)", NULL},
    {"scores.draw", "{bold}Unentschieden{/} zwischen %s.", NULL},
    {"scores.winner", "{bold}Sieg: %s{/}", "{bold}Sieg geteilt: %s{/}"},
    {"hotseat.cleared", "[Bildschirm gelöscht]", NULL},
    {"hotseat.pass", "-- gib die Tastatur an %s weiter --", NULL},
    {"hotseat.pass_enter", "{bold}-- gib die Tastatur an %s weiter, dann drücke Enter --{/}", NULL},
    {"pager.more", "--Weiter-- (Leertaste: nächste Seite, Enter: eine Zeile, q: der ganze Rest)", NULL},
    {NULL, NULL, NULL},
};
