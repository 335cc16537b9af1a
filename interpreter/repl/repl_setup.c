/*
** repl_setup.c
** `cairn play` with no ruleset: asks which ruleset (from those found), how
** many seats, which seats people play (Enter: you in seat 1, bots in the
** others) and, when bots play, which kind (Enter: mcts, an opponent that
** plays well), then fills the settings as --players and --bot would. Each
** question takes Enter for its default and asks again after a wrong
** answer; the end of the input gives up.
*/
#include "repl_session.h"

#include "ruleset.h"
#include "value.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* The bot kinds the wizard offers where no person plays, the default first:
** mcts decides within a second on every shipped game (docs/bots.md). */
static const char *const SETUP_BOTS[] = {"mcts", "greedy", "random"};
#define SETUP_N_BOTS (sizeof SETUP_BOTS / sizeof SETUP_BOTS[0])

static char *trimmed(char *s) {
    while (*s == ' ' || *s == '\t') s++;
    size_t n = strlen(s);
    while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t')) s[--n] = '\0';
    return s;
}

/* The next line typed at prompt (malloc'd), asked again after Ctrl-C; NULL
** at the end of the input. */
static char *next_answer(repl *r, const char *prompt) {
    for (;;) {
        int eof;
        char *line = repl_ask(r, prompt, &eof);
        if (line || eof) return line;
    }
}

/* The ruleset chosen (malloc'd, *rs_out loaded for its seat counts), or NULL. */
static char *ask_ruleset(repl *r, ruleset **rs_out) {
    size_t n;
    char **names = ruleset_list(&n);
    if (n == 0) {
        fprintf(stderr, "%s\n", repl_tr(r, "setup.none_found"));
        ruleset_list_free(names, n);
        return NULL;
    }
    repl_say(r, 0, "%s", repl_tr(r, "setup.found"));
    for (size_t i = 0; i < n; i++) {
        cerr_list errs;
        cerr_init(&errs, 0);
        ruleset *rs = ruleset_load(names[i], NULL, &errs);
        char players[32];
        if (rs && rs->min_players == rs->max_players)
            snprintf(players, sizeof players, repl_trn(r, "setup.players", rs->min_players), rs->min_players);
        else if (rs)
            snprintf(players, sizeof players, repl_tr(r, "setup.players_range"), rs->min_players, rs->max_players);
        if (rs)
            repl_say(r, 6, repl_tr(r, "setup.listed"), i + 1, names[i], rs->name, players);
        else
            repl_say(r, 6, repl_tr(r, "setup.listed_broken"), i + 1, names[i], names[i]);
        ruleset_free(rs);
        cerr_free(&errs);
    }
    repl_say(r, 2, "%s", repl_tr(r, "setup.which"));
    char *chosen = NULL;
    while (!chosen) {
        char *line = next_answer(r, repl_tr(r, "setup.prompt.ruleset"));
        if (!line) break;
        char *t = trimmed(line);
        char *end;
        long k = strtol(t, &end, 10);
        if (*t && *end == '\0' && k >= 1 && (size_t)k <= n) {
            chosen = strdup(names[k - 1]);
        } else if (*t) {
            for (size_t i = 0; i < n && !chosen; i++)
                if (strcmp(names[i], t) == 0) chosen = strdup(names[i]);
            if (!chosen) repl_fail(r, repl_tr(r, "setup.no_such"), t, n);
        }
        free(line);
        if (chosen) {
            cerr_list errs;
            cerr_init(&errs, 0);
            *rs_out = ruleset_load(chosen, NULL, &errs);
            cerr_free(&errs);
            if (!*rs_out) { /* listed with errors: playing it would only print them */
                repl_fail(r, repl_tr(r, "setup.broken"), chosen, chosen);
                free(chosen);
                chosen = NULL;
            }
        }
    }
    ruleset_list_free(names, n);
    return chosen;
}

/* The seat count, or 0 at the end of the input. */
static int ask_seats(repl *r, const ruleset *rs) {
    int lo = rs->min_players, hi = rs->max_players;
    int dflt = (int)value_get_int(value_map_get(rs->manifest, "players"), "default", lo);
    if (lo == hi) return lo;
    repl_say(r, 2, repl_tr(r, "setup.seats"), lo, hi, dflt);
    for (;;) {
        char *line = next_answer(r, repl_tr(r, "setup.prompt.seats"));
        if (!line) return 0;
        char *t = trimmed(line), *end;
        long k = *t ? strtol(t, &end, 10) : dflt;
        int ok = (!*t || *end == '\0') && k >= lo && k <= hi;
        if (!ok) repl_fail(r, repl_tr(r, "setup.bad_seats"), t, lo, hi);
        free(line);
        if (ok) return (int)k;
    }
}

/* Marks people[s] for each seat typed ("1 3", "1,3"); 0, or -1 after
** saying what is wrong. */
static int parse_people(repl *r, char *t, int seats, unsigned char *people) {
    memset(people, 0, (size_t)seats + 1);
    int any = 0;
    for (char *w = strtok(t, " ,"); w; w = strtok(NULL, " ,")) {
        if (!strcasecmp(w, "all") || !strcasecmp(w, repl_tr(r, "setup.all"))) {
            memset(people + 1, 1, (size_t)seats);
            any = 1;
            continue;
        }
        if (!strcasecmp(w, "none") || !strcasecmp(w, repl_tr(r, "setup.none"))) {
            any = 1;
            continue;
        }
        char *end;
        long s = strtol(w, &end, 10);
        if (*end || s < 1 || s > seats) {
            repl_fail(r, repl_tr(r, "setup.bad_people"), w, seats);
            return -1;
        }
        people[s] = any = 1;
    }
    if (!any) people[1] = 1;
    return 0;
}

/* The bot kind for the seats no person plays (one of SETUP_BOTS), or NULL
** at the end of the input. */
static const char *ask_bot(repl *r) {
    repl_say(r, 2, "%s", repl_tr(r, "setup.bots"));
    for (;;) {
        char *line = next_answer(r, repl_tr(r, "setup.prompt.bots"));
        if (!line) return NULL;
        char *t = trimmed(line);
        const char *kind = *t ? NULL : SETUP_BOTS[0];
        for (size_t i = 0; !kind && i < SETUP_N_BOTS; i++)
            if (!strcasecmp(t, SETUP_BOTS[i])) kind = SETUP_BOTS[i];
        if (!kind) repl_fail(r, repl_tr(r, "setup.bad_bot"), t);
        free(line);
        if (kind) return kind;
    }
}

/* Seats people play, and the bot kind for the others, into r->set as
** --bot pairs; 0, or -1 at the end of the input. */
static int ask_people(repl *r, int seats) {
    unsigned char *people = calloc((size_t)seats + 1, 1);
    if (!people) return -1;
    repl_say(r, 2, "%s", repl_tr(r, "setup.people"));
    int rc = -1;
    for (;;) {
        char *line = next_answer(r, repl_tr(r, "setup.prompt.people"));
        if (!line) break;
        int ok = parse_people(r, trimmed(line), seats, people) == 0;
        free(line);
        if (ok) {
            rc = 0;
            break;
        }
    }
    int bots = 0;
    for (int s = 1; s <= seats; s++) bots += !people[s];
    const char *bot = rc == 0 && bots > 0 ? ask_bot(r) : NULL;
    if (bots > 0 && !bot) rc = -1;
    for (int s = 1; rc == 0 && s <= seats; s++) {
        if (people[s]) continue;
        char pair[32]; /* as `--bot 2=mcts` gives it */
        snprintf(pair, sizeof pair, "%d=%s", s, bot);
        if (repl_add_seat_pair(pair, &r->set.bot_seat, &r->set.bot_val, &r->set.n_bots) != 0) rc = -1;
    }
    free(people);
    return rc;
}

int repl_setup_ask(repl *r) {
    ruleset *rs = NULL;
    char *name = ask_ruleset(r, &rs);
    if (!name) return -1;
    int seats = ask_seats(r, rs);
    ruleset_free(rs);
    if (seats == 0 || (r->set.players = seats, ask_people(r, seats)) != 0) {
        free(name);
        return -1;
    }
    free(r->set.ruleset);
    r->set.ruleset = name;
    return 0;
}
