/*
** repl_text_el.c
** The console's messages in Greek (repl_text.h): the keys and printf
** conversions of repl_text_en.c. Commands (`undo`, `help`) stay as typed.
*/
#include "repl_text.h"

#include <stddef.h>

const repl_text_entry repl_text_el[] = {
    {"seat.default", "Θέση %d", NULL},
    {"seat.title", "%s (θέση %d)", NULL},
    {"header.game", "{bold}%s{/} %s: %d θέση, σπόρος %llu", "{bold}%s{/} %s: %d θέσεις, σπόρος %llu"},
    {"header.seats", "Θέσεις: %s", NULL},
    {"header.seat_no", "θέση %d, ", NULL},
    {"header.bot", "ρομπότ %s", NULL},
    {"header.person", "άνθρωπος", NULL},
    {"header.hint", "Γράψε τον αριθμό ή το αναγνωριστικό μιας επιλογής, ή μια εντολή (η `help` τις δείχνει).", NULL},
    {"turn.same_time", "(%s αποφασίζει ταυτόχρονα)", "(%s αποφασίζουν ταυτόχρονα)"},
    {"turn.unavailable", "(δεν γίνεται: %s)", NULL},
    {"turn.over", "Το παιχνίδι τελείωσε: `undo`, `new`, `save ΑΡΧΕΙΟ` ή `quit`.", NULL},
    {"turn.waiting", "Αναμονή για %s (ρομπότ %s): με `run` παίζουν τα ρομπότ.", NULL},
    {"turn.waiting_pages", "Αναμονή για %s (στις σελίδες τους)· το `links` δείχνει ξανά τους συνδέσμους.", NULL},
    {"news.bot", "%s (ρομπότ %s)", NULL},
    {"news.secret", "μια μυστική απόφαση", "%zu μυστικές αποφάσεις"},
    {"news.decided", "Ο/Η %s αποφάσισε.", "Ο/Η %s πήρε %zu αποφάσεις."},
    {"scores.final", "Τελική βαθμολογία", NULL},
    {"scores.now", "Βαθμολογία", NULL},
    {"scores.tiebreak", "(ισοβαθμία: %s)", NULL},
    {"scores.draw", "{bold}Ισοπαλία{/} μεταξύ: %s.", NULL},
    {"scores.winner", "{bold}Νικητής: %s{/}", "{bold}Νικητές: %s{/}"},
    {"hotseat.cleared", "[η οθόνη καθάρισε]", NULL},
    {"hotseat.pass", "-- δώσε το πληκτρολόγιο στον/στην %s --", NULL},
    {"hotseat.pass_enter", "{bold}-- δώσε το πληκτρολόγιο στον/στην %s, μετά πάτα Enter --{/}", NULL},
    {"pager.more", "--Συνέχεια-- (Κενό: επόμενη σελίδα, Enter: μία γραμμή, q: όλα τα υπόλοιπα)", NULL},
    {"answer.unavailable", "το \"%s\" δεν γίνεται: %s", NULL},
    {"answer.disabled", "κλειστό", NULL},
    {"answer.or_command", "%s (ή μια εντολή: η `help` τις δείχνει)", NULL},
    {"answer.no_option", "δεν υπάρχει τέτοια επιλογή", NULL},
    {"answer.game_over", "\"%s\": το παιχνίδι τελείωσε, κανείς δεν αποφασίζει κάτι (η `help` δείχνει τις εντολές)", NULL},
    {"answer.nobody_asked", "καμία εντολή \"%s\", και κανένας άνθρωπος δεν αποφασίζει τώρα (με `run` παίζουν τα ρομπότ)", NULL},
    {"answer.out_of_range", "καμία επιλογή %s: διάλεξε 1 έως %zu", NULL},
    {"answer.no_match", "καμία επιλογή \"%s\": γράψε έναν αριθμό από 1 έως %zu, ή την αρχή μιας επιλογής", NULL},
    {"rules.head", "{bold}%s{/} %s (%s): %d θέση (%d έως %d)", "{bold}%s{/} %s (%s): %d θέσεις (%d έως %d)"},
    {"rules.howto", "Πώς παίζεται", NULL},
    {"rules.legend", "Το ταμπλό", NULL},
    {"rules.rulebook", "Οι πλήρεις κανόνες: %s%s", NULL},
    {"rules.not_installed", " (δεν είναι εγκατεστημένοι εδώ)", NULL},
    {"rules.options", "Επιλογές:", NULL},
    {"rules.no_options", "Επιλογές: καμία.", NULL},
    {"rules.preset", "Προρύθμιση: %s", NULL},
    {"rules.assumptions", "Υποθέσεις (όπου οι κανόνες σωπαίνουν):", NULL},
    {"rules.no_assumptions", "Υποθέσεις: καμία.", NULL},
    {"rules.source", "(πηγή: %s)", NULL},
    {"rules.switch", "διακόπτης", NULL},
    {"rules.choice", "επιλογή", NULL},
    {NULL, NULL, NULL},
};
