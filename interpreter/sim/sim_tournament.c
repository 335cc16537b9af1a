/*
** sim_tournament.c
** `cairn sim --tournament random,greedy,mcts:iterations=100`: the bots
** rotated over the seats and the seat orders, each seed played in every
** seating, and what it shows: each bot's win share, its rating with a 95%
** interval (Plackett-Luce, rating.c: Bradley-Terry when there are two
** seats), the pairwise table, and each bot's CPU per decision.
*/
#include "sim_internal.h"
#include "json_string.h"
#include "bot.h"
#include "error.h"
#include "rating.h"

#include <math.h>

_Static_assert(CAIRN_SIM_MAX_BOTS <= RATING_MAX_PLAYERS, "a tournament rates at most RATING_MAX_PLAYERS bots");
#include <stdlib.h>
#include <string.h>

int sim_split_bot_specs(const char *arg, char **out, int max) {
    int n = 0;
    for (const char *p = arg; *p;) {
        const char *end = p;
        for (;;) {
            const char *comma = strchr(end, ',');
            if (!comma) {
                end += strlen(end);
                break;
            }
            const char *nx = comma + 1, *nc = strchr(nx, ','), *eq = strchr(nx, '=');
            if (!eq || (nc && eq > nc) || memchr(nx, ':', (size_t)(eq - nx))) {
                end = comma;
                break;
            }
            end = nc ? nc : nx + strlen(nx);
            if (!nc) break;
        }
        int bad = n == max ? -2 : !(out[n] = cairn_strfmt("%.*s", (int)(end - p), p)) ? -1 : 0;
        if (bad) { /* nothing kept */
            while (n > 0) free(out[--n]), out[n] = NULL;
            return bad;
        }
        n++;
        p = *end ? end + 1 : end;
    }
    return n;
}

static int split_specs(sim_tour *t, const char *arg, FILE *err) {
    int n = sim_split_bot_specs(arg, t->spec, CAIRN_SIM_MAX_BOTS);
    if (n == -2) return fprintf(err, "cairn sim: --tournament takes at most %d bots\n", CAIRN_SIM_MAX_BOTS), -1;
    if (n < 0) return fprintf(err, "cairn sim: out of memory\n"), -1;
    t->k = n;
    for (int i = 0; i < t->k; i++)
        for (int j = 0; j < i; j++)
            if (!strcmp(t->spec[i], t->spec[j]))
                return fprintf(err, "cairn sim: --tournament names %s twice\n", t->spec[i]), -1;
    if (t->k < 2) return fprintf(err, "cairn sim: --tournament takes two bots or more, got \"%s\"\n", arg), -1;
    return 0;
}

/* How many seatings: the tuples of bots over the seats with min(k, seats)
** different bots. -1 when there would be more than CAIRN_SIM_MAX_SEATINGS. */
static long count_seatings(int k, int seats) {
    double tuples = pow((double)k, (double)seats);
    if (tuples > 1e7) return -1;
    long n = 0;
    int row[CAIRN_MAX_SEATS] = {0};
    for (long c = 0; c < (long)tuples; c++) {
        long x = c;
        int seen = 0, distinct = 0;
        for (int s = seats - 1; s >= 0; s--) row[s] = (int)(x % k), x /= k;
        for (int s = 0; s < seats; s++)
            if (!(seen & (1 << row[s]))) seen |= 1 << row[s], distinct++;
        n += distinct == (k < seats ? k : seats);
    }
    return n > CAIRN_SIM_MAX_SEATINGS ? -1 : n;
}

static int fill_seatings(sim_tour *t) {
    int k = t->k, seats = t->players, row[CAIRN_MAX_SEATS];
    long tuples = (long)pow((double)k, (double)seats), n = 0;
    if (!(t->seating = malloc((size_t)t->m * (size_t)seats * sizeof *t->seating))) return -1;
    for (long c = 0; c < tuples; c++) {
        long x = c;
        int seen = 0, distinct = 0;
        for (int s = seats - 1; s >= 0; s--) row[s] = (int)(x % k), x /= k;
        for (int s = 0; s < seats; s++)
            if (!(seen & (1 << row[s]))) seen |= 1 << row[s], distinct++;
        if (distinct == (k < seats ? k : seats)) memcpy(t->seating + n++ * seats, row, (size_t)seats * sizeof *row);
    }
    return 0;
}

/* Makes each spec's bot, the names, the model. 0, or -1 after printing why. */
static int tour_ready(sim_tour *t, FILE *err) {
    for (int i = 0; i < t->k; i++) {
        if (!strcmp(t->spec[i], "random")) continue;
        cerr_list errs;
        cerr_init(&errs, 0);
        t->bot[i] = bot_new(t->spec[i], &errs);
        if (!t->bot[i]) cerr_print(err, &errs);
        cerr_free(&errs);
        if (!t->bot[i]) return -1;
    }
    size_t len = 1;
    for (int i = 0; i < t->k; i++) len += strlen(t->spec[i]) + 2;
    if (!(t->names = malloc(len)) || !(t->model = rating_new(t->k))) return fprintf(err, "cairn sim: out of memory\n"), -1;
    t->names[0] = '\0';
    for (int i = 0; i < t->k; i++) strcat(strcat(t->names, i ? "," : ""), t->spec[i]);
    return 0;
}

sim_tour *sim_tour_new(const char *specs, int players, FILE *err) {
    sim_tour *t = calloc(1, sizeof *t);
    if (!t) return fprintf(err, "cairn sim: out of memory\n"), NULL;
    t->players = players;
    if (split_specs(t, specs, err) != 0) return sim_tour_free(t), NULL;
    if ((t->m = count_seatings(t->k, players)) < 0) {
        fprintf(err, "cairn sim: %d bots over %d seats make more than %d seatings (CAIRN_SIM_MAX_SEATINGS); name fewer bots\n",
                t->k, players, CAIRN_SIM_MAX_SEATINGS);
        return sim_tour_free(t), NULL;
    }
    if (fill_seatings(t) != 0) return fprintf(err, "cairn sim: out of memory\n"), sim_tour_free(t), NULL;
    if (tour_ready(t, err) != 0) return sim_tour_free(t), NULL;
    return t;
}

sim_tour *sim_tour_new_seated(char **specs, int k, int *seating, long m, int players, FILE *err) {
    sim_tour *t = calloc(1, sizeof *t);
    if (!t) {
        for (int i = 0; i < k; i++) free(specs[i]);
        free(seating);
        return fprintf(err, "cairn sim: out of memory\n"), NULL;
    }
    t->players = players, t->k = k, t->m = m, t->seating = seating;
    for (int i = 0; i < k; i++) t->spec[i] = specs[i];
    if (tour_ready(t, err) != 0) return sim_tour_free(t), NULL;
    return t;
}

void sim_tour_free(sim_tour *t) {
    if (!t) return;
    for (int i = 0; i < t->k; i++) free(t->spec[i]), bot_free(t->bot[i]);
    free(t->names);
    free(t->seating);
    free(t->share);
    rating_free(t->model);
    free(t);
}

long sim_tour_seatings(const sim_tour *t) { return t->m; }
const char *sim_tour_names(const sim_tour *t) { return t->names; }

static int seat_player(const sim_tour *t, long index, int seat) {
    return t->seating[(index % t->m) * t->players + seat - 1];
}

const char *sim_tour_spec(const sim_tour *t, long index, int seat) { return t->spec[seat_player(t, index, seat)]; }
struct bot *sim_tour_bot(const sim_tour *t, long index, int seat) { return t->bot[seat_player(t, index, seat)]; }

int sim_tour_add(sim_tour *t, const sim_rec *r) {
    for (int s = 1; r->cpu && s <= r->n_cpu && s <= t->players; s++) {
        int b = seat_player(t, r->index, s);
        t->asked[b] += r->cpu[s - 1].asked, t->ns[b] += (double)r->cpu[s - 1].ns;
    }
    if (r->index >= t->n_share) { /* room for this game's seat shares */
        long n = t->n_share ? t->n_share : 64;
        while (n <= r->index) n *= 2;
        double *ns = realloc(t->share, (size_t)n * (size_t)t->players * sizeof *ns);
        if (!ns) return -1;
        for (long i = t->n_share * t->players; i < n * t->players; i++) ns[i] = NAN;
        t->share = ns, t->n_share = n;
    }
    if (!r->ok || r->n != t->players) return t->failed++, 0;
    t->games++;
    double share[CAIRN_MAX_SEATS];
    int player[CAIRN_MAX_SEATS], rank[CAIRN_MAX_SEATS], in[CAIRN_SIM_MAX_BOTS] = {0};
    sim_rec_shares(r, share);
    memcpy(t->share + r->index * t->players, share, (size_t)t->players * sizeof *share);
    for (int s = 0; s < r->n; s++) {
        player[s] = seat_player(t, r->index, s + 1), rank[s] = r->seats[s].rank;
        t->wins[player[s]] += share[s];
        in[player[s]] = 1;
        for (int o = 0; o < r->n; o++) {
            int a = player[s], b = seat_player(t, r->index, o + 1);
            if (a == b) continue;
            t->met[a][b]++;
            t->over[a][b] += r->seats[s].rank < r->seats[o].rank ? 1 : r->seats[s].rank == r->seats[o].rank ? 0.5 : 0;
        }
    }
    for (int i = 0; i < t->k; i++) t->played[i] += in[i];
    return rating_add(t->model, r->n, player, rank);
}

/* The fit, with a prior of one win and one loss against an average player
** when the plain fit has no finite answer (a bot that won or lost every
** game). *prior says whether it was needed. -1 when neither settles. */
int sim_tour_ratings(const sim_tour *t, double *theta, double *se, int *prior) {
    *prior = 0;
    if (rating_fit(t->model, 0, theta, se) > 0) return 0;
    *prior = 1;
    return rating_fit(t->model, 1, theta, se) > 0 ? 0 : -1;
}

#define CELL 24

void sim_tour_report(FILE *out, const sim_tour *t) {
    if (t->skill) return sim_skill_report(out, t);
    fprintf(out, "tournament: %d bots over %d seats, %ld seatings (every bot in every seat, in every order); "
                 "each seed is played once in each\n",
            t->k, t->players, t->m);
    if (!t->games) return;
    double theta[CAIRN_SIM_MAX_BOTS], se[CAIRN_SIM_MAX_BOTS];
    int prior = 0, rated = sim_tour_ratings(t, theta, se, &prior) == 0;
    fprintf(out, "%-28s%8s%24s%22s\n", "bot", "games", "win share [95%]", rated ? "rating [95%]" : "");
    for (int i = 0; i < t->k; i++) {
        stats_interval w = stats_wilson(t->wins[i], (double)t->played[i]);
        char share[48] = "-", rating[48] = "";
        if (t->played[i])
            snprintf(share, sizeof share, "%.1f%% [%.1f, %.1f]", 100 * t->wins[i] / (double)t->played[i], 100 * w.lo,
                     100 * w.hi);
        if (rated)
            snprintf(rating, sizeof rating, "%+.0f [%+.0f, %+.0f]", RATING_ELO * theta[i],
                     RATING_ELO * (theta[i] - STATS_Z95 * se[i]), RATING_ELO * (theta[i] + STATS_Z95 * se[i]));
        fprintf(out, "  %-26s%8ld%24s%22s\n", t->spec[i], t->played[i], share, rating);
    }
    if (rated)
        fprintf(out, "ratings: %s on Elo's scale (+400 is 10 to 1 odds against the other; the bots' mean is 0)%s\n",
                t->players == 2 ? "Bradley-Terry" : "Plackett-Luce over each game's ranking",
                prior ? "; a bot won or lost every game, so each was given one win and one loss against an even "
                        "player to keep the ratings finite"
                      : "");
    else fprintf(out, "ratings: none (the games do not link every bot to the others)\n");
    fprintf(out, "pairwise: the row bot's share of its meetings with the column bot (ahead of it; a tie half) [95%%]\n");
    fprintf(out, "%-24s", "");
    for (int j = 0; j < t->k; j++) fprintf(out, "%*.*s", CELL, CELL - 2, t->spec[j]);
    fputc('\n', out);
    for (int i = 0; i < t->k; i++) {
        fprintf(out, "  %-22.22s", t->spec[i]);
        for (int j = 0; j < t->k; j++) {
            char c[48] = "-";
            if (i != j && t->met[i][j]) {
                stats_interval w = stats_wilson(t->over[i][j], (double)t->met[i][j]);
                snprintf(c, sizeof c, "%.1f%% [%.1f, %.1f]", 100 * t->over[i][j] / (double)t->met[i][j], 100 * w.lo,
                         100 * w.hi);
            }
            fprintf(out, "%*s", CELL, c);
        }
        fputc('\n', out);
    }
    if (t->failed) fprintf(out, "(%ld failed games left out)\n", t->failed);
}

void sim_tour_cpu_line(FILE *out, const sim_tour *t) {
    fputs("cpu per decision:", out);
    for (int i = 0; i < t->k; i++)
        fprintf(out, "%s %s %.3f ms", i ? "," : "", t->spec[i], t->asked[i] ? t->ns[i] / 1e6 / (double)t->asked[i] : 0.0);
    fputc('\n', out);
}

void sim_tour_json(FILE *f, const sim_tour *t) {
    if (t->skill) return sim_skill_json(f, t);
    double theta[CAIRN_SIM_MAX_BOTS], se[CAIRN_SIM_MAX_BOTS];
    int prior = 0, rated = t->games && sim_tour_ratings(t, theta, se, &prior) == 0;
    fprintf(f, "{\"seats\": %d, \"seatings\": %ld, \"games\": %ld, \"model\": \"%s\", \"prior\": %s, \"bots\": [",
            t->players, t->m, t->games, t->players == 2 ? "bradley-terry" : "plackett-luce", prior ? "true" : "false");
    for (int i = 0; i < t->k; i++) {
        stats_interval w = stats_wilson(t->wins[i], (double)t->played[i]);
        fprintf(f, "%s\n  {\"bot\": ", i ? "," : "");
        json_string_writez(f, t->spec[i]);
        fprintf(f, ", \"games\": %ld, \"wins\": %.6f, \"share\": %.6f, \"share_lo\": %.6f, \"share_hi\": %.6f", t->played[i],
                t->wins[i], t->played[i] ? t->wins[i] / (double)t->played[i] : 0, w.lo, w.hi);
        if (rated)
            fprintf(f, ", \"rating\": %.6f, \"rating_lo\": %.6f, \"rating_hi\": %.6f, \"theta\": %.6f, \"se\": %.6f",
                    RATING_ELO * theta[i], RATING_ELO * (theta[i] - STATS_Z95 * se[i]),
                    RATING_ELO * (theta[i] + STATS_Z95 * se[i]), theta[i], se[i]);
        else fputs(", \"rating\": null", f);
        fputs(", \"against\": [", f);
        int first = 1;
        for (int j = 0; j < t->k; j++) {
            if (j == i || !t->met[i][j]) continue;
            stats_interval p = stats_wilson(t->over[i][j], (double)t->met[i][j]);
            fprintf(f, "%s{\"bot\": ", first ? "" : ", ");
            json_string_writez(f, t->spec[j]);
            fprintf(f, ", \"met\": %ld, \"ahead\": %.6f, \"share\": %.6f, \"share_lo\": %.6f, \"share_hi\": %.6f}",
                    t->met[i][j], t->over[i][j], t->over[i][j] / (double)t->met[i][j], p.lo, p.hi);
            first = 0;
        }
        fputs("]}", f);
    }
    fputs("]}", f);
}
