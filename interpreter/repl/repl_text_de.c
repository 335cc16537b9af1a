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
    {"turn.waiting_pages", "Warten auf %s (auf ihren Seiten); `links` zeigt die Links noch einmal.", NULL},
    {"news.bot", "%s (%s-Bot)", NULL},
    {"news.secret", "eine geheime Entscheidung", "%zu geheime Entscheidungen"},
    {"news.decided", "%s hat entschieden.", "%s hat %zu Entscheidungen getroffen."},
    {"scores.final", "Endwertung", NULL},
    {"scores.now", "Punktestand", NULL},
    {"scores.tiebreak", "(Stichwert %s)", NULL},
    {"scores.draw", "{bold}Unentschieden{/} zwischen %s.", NULL},
    {"scores.winner", "{bold}Sieg: %s{/}", "{bold}Sieg geteilt: %s{/}"},
    {"hotseat.cleared", "[Bildschirm gelöscht]", NULL},
    {"hotseat.pass", "-- gib die Tastatur an %s weiter --", NULL},
    {"hotseat.pass_enter", "{bold}-- gib die Tastatur an %s weiter, dann drücke Enter --{/}", NULL},
    {"pager.more", "--Weiter-- (Leertaste: nächste Seite, Enter: eine Zeile, q: der ganze Rest)", NULL},
    {"answer.unavailable", "\"%s\" ist nicht möglich: %s", NULL},
    {"answer.disabled", "gesperrt", NULL},
    {"answer.or_command", "%s (oder ein Befehl: `help` zeigt sie)", NULL},
    {"answer.no_option", "keine solche Option", NULL},
    {"answer.game_over", "\"%s\": das Spiel ist aus, niemand muss etwas entscheiden (`help` zeigt die Befehle)", NULL},
    {"answer.nobody_asked", "kein Befehl \"%s\", und gerade muss kein Mensch entscheiden (mit `run` ziehen die Bots)", NULL},
    {"answer.out_of_range", "keine Option %s: wähle 1 bis %zu", NULL},
    {"answer.no_match", "keine Option \"%s\": gib eine Nummer von 1 bis %zu ein, oder den Anfang einer Option", NULL},
    {"rules.head", "{bold}%s{/} %s (%s): %d Platz (%d bis %d)", "{bold}%s{/} %s (%s): %d Plätze (%d bis %d)"},
    {"rules.howto", "So wird gespielt", NULL},
    {"rules.legend", "Das Spielbrett", NULL},
    {"rules.rulebook", "Die ganzen Regeln: %s%s", NULL},
    {"rules.not_installed", " (hier nicht installiert)", NULL},
    {"rules.options", "Optionen:", NULL},
    {"rules.no_options", "Optionen: keine.", NULL},
    {"rules.preset", "Voreinstellung: %s", NULL},
    {"rules.assumptions", "Angenommene Werte (wo die Regeln schweigen):", NULL},
    {"rules.no_assumptions", "Angenommene Werte: keine.", NULL},
    {"rules.source", "(Quelle: %s)", NULL},
    {"rules.switch", "ein Schalter", NULL},
    {"rules.choice", "eine Auswahl", NULL},
    {NULL, NULL, NULL},
};
