/*
** sim_series.c
** `--sweep players=2..6` and `--sweep bots=random,greedy,mcts:iterations=20`:
** one whole run per value (another seat count, or that bot in every seat),
** which cannot be paired game by game as --sweep's columns are, summed into
** one table: the first-player advantage (the win share of turn position 1,
** or of seat 1 when the games name no starter) with its interval against
** the even share, every position's share, and the game length, per value.
*/
#include "sim_internal.h"
#include "json_string.h"
#include "error.h"

#include <stdlib.h>
#include <string.h>

int sim_series_parse(const char *sweep, sim_series *s, FILE *err) {
    memset(s, 0, sizeof *s);
    int players = !strncmp(sweep, "players=", 8), bots = !strncmp(sweep, "bots=", 5);
    if (!players && !bots) return 0;
    s->players = players;
    const char *v = sweep + (players ? 8 : 5);
    if (players) {
        int lo, hi, used = 0;
        if (sscanf(v, "%d..%d%n", &lo, &hi, &used) == 2 && !v[used]) {
            if (lo < 1 || hi < lo || hi > CAIRN_MAX_SEATS || hi - lo + 1 > CAIRN_SIM_MAX_VARIANTS) goto bad;
            for (int p = lo; p <= hi; p++) s->seats[s->n++] = p;
            return 1;
        }
        for (const char *p = v; *p;) {
            char *end;
            long n = strtol(p, &end, 10);
            if (end == p || n < 1 || n > CAIRN_MAX_SEATS || s->n == CAIRN_SIM_MAX_VARIANTS || (*end && *end != ',')) goto bad;
            s->seats[s->n++] = (int)n;
            p = *end ? end + 1 : end;
        }
        if (s->n < 2) goto bad;
        return 1;
    }
    /* bot specs, a spec's own PARAM=VALUE commas kept as --bots keeps them */
    int n = sim_split_bot_specs(v, s->bot, CAIRN_SIM_MAX_VARIANTS);
    if (n == -1) return sim_series_free(s), fprintf(err, "cairn sim: out of memory\n"), -1;
    if (n < 0) goto bad;
    s->n = n;
    if (s->n < 2) goto bad;
    return 1;
bad:
    sim_series_free(s);
    fprintf(err, "cairn sim: --sweep takes players=LO..HI or players=N,N,... (2 to %d seat counts), or bots=BOT,BOT,... "
                 "(2 to %d), got \"%s\"\nusage: %s\n",
            CAIRN_SIM_MAX_VARIANTS, CAIRN_SIM_MAX_VARIANTS, sweep, SIM_USAGE);
    return -1;
}

void sim_series_free(sim_series *s) {
    for (int i = 0; i < s->n; i++) free(s->bot[i]);
    memset(s, 0, sizeof *s);
}

void sim_series_take(sim_series *s, int k, const sim_totals *t) {
    sim_series_point *p = &s->point[k];
    memset(p, 0, sizeof *p);
    p->seats = t->seats, p->games = t->games, p->failed = t->failed, p->decisions = t->decisions;
    p->by_position = t->games && t->with_starter == t->games;
    for (int i = 0; i < t->seats; i++) p->wins[i] = p->by_position ? t->pos_share[i] : t->share[i];
}

void sim_series_report(FILE *out, const sim_series *s, const char *sweep) {
    fprintf(out, "sweep %s: one run per value, each on the same seeds\n", sweep);
    fprintf(out, "%-28s%7s%24s%8s%24s%12s   %s\n", "value", "games", "first player [95%]", "even", "first - even [95%]",
            "decisions", "each position's win share");
    for (int k = 0; k < s->n; k++) {
        const sim_series_point *p = &s->point[k];
        char name[64], first[48] = "-", diff[48] = "-", dec[32] = "-", even_s[16];
        int flag = 0;
        if (s->players) snprintf(name, sizeof name, "players=%d", s->seats[k]);
        else snprintf(name, sizeof name, "bots=%s", s->bot[k]);
        double even = 1.0 / (p->seats ? p->seats : 1);
        if (p->games) {
            stats_interval w = stats_wilson(p->wins[0], (double)p->games);
            double sh = p->wins[0] / (double)p->games;
            snprintf(first, sizeof first, "%.1f%% [%.1f, %.1f]%s", 100 * sh, 100 * w.lo, 100 * w.hi, p->by_position ? "" : "*");
            snprintf(diff, sizeof diff, "%+.1f [%+.1f, %+.1f]", 100 * (sh - even), 100 * (w.lo - even), 100 * (w.hi - even));
            flag = !stats_holds(w, even);
            snprintf(dec, sizeof dec, "%.1f", stats_mean(&p->decisions));
        }
        snprintf(even_s, sizeof even_s, "%.1f%%", 100 * even);
        fprintf(out, "%-28s%7ld%24s%8s%22s%2s%12s  ", name, p->games, first, even_s, diff, flag ? " !" : "", dec);
        for (int i = 0; i < p->seats && p->games; i++) fprintf(out, " %.1f", 100 * p->wins[i] / (double)p->games);
        fputc('\n', out);
    }
    int seat_only = 0;
    for (int k = 0; k < s->n; k++) seat_only |= s->point[k].games && !s->point[k].by_position;
    fputs("first player: the win share of turn position 1 (the seat that started); !: its interval excludes the even "
          "share\n",
          out);
    if (seat_only) fputs("*: these games name no starter: seat 1's win share instead\n", out);
}

void sim_series_json(FILE *f, const sim_series *s, const char *sweep) {
    fputs("{\"sweep\": ", f);
    json_string_writez(f, sweep);
    fputs(", \"values\": [", f);
    for (int k = 0; k < s->n; k++) {
        const sim_series_point *p = &s->point[k];
        fprintf(f, "%s\n  {", k ? "," : "");
        if (s->players) fprintf(f, "\"players\": %d", s->seats[k]);
        else {
            fputs("\"bots\": ", f);
            json_string_writez(f, s->bot[k]);
        }
        fprintf(f, ", \"seats\": %d, \"games\": %ld, \"failed\": %ld, \"by_position\": %s, \"shares\": [", p->seats, p->games,
                p->failed, p->by_position ? "true" : "false");
        for (int i = 0; i < p->seats; i++) {
            stats_interval w = stats_wilson(p->wins[i], (double)p->games);
            fprintf(f, "%s{\"share\": %.6f, \"lo\": %.6f, \"hi\": %.6f}", i ? ", " : "",
                    p->games ? p->wins[i] / (double)p->games : 0, w.lo, w.hi);
        }
        fprintf(f, "], \"decisions\": %.6f}", stats_mean(&p->decisions));
    }
    fputs("]}\n", f);
}
