/*
** sim_series.c
** `--sweep players=2..6` and `--sweep bots=random,greedy,mcts:iterations=20`:
** one whole run per value (another seat count, or that bot in every seat),
** which cannot be paired game by game as --sweep's columns are, summed into
** one table: the first-player advantage (the win share of turn position 1,
** or of seat 1 when the games name no starter) with its interval against
** the even share, every position's share, and the game length, per value.
** Sharded (--shard K/N), each part plays its slice of every value's games
** and holds them all (each record's variant is its value's index);
** `cairn sim merge` counts each value's games again and prints the table
** the whole run prints.
*/
#include "sim_internal.h"
#include "json_string.h"
#include "error.h"
#include "safe_open.h"

#include <inttypes.h>
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
    if (s->n_seat_bots) { /* a players sweep with --bots */
        fputs("bots:", out);
        for (int i = 0; i < s->n_seat_bots; i++) fprintf(out, " %d=%s", i + 1, s->seat_bots[i]);
        fputs(" (in each run the seats it has; any further seat random)\n", out);
    }
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
    if (s->n_seat_bots) { /* a players sweep with --bots: seat by seat */
        fputs(", \"seat_bots\": [", f);
        for (int i = 0; i < s->n_seat_bots; i++) {
            if (i) fputs(", ", f);
            json_string_writez(f, s->seat_bots[i]);
        }
        fputc(']', f);
    }
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

/* ------------------------------------------------ a series in shards */

int sim_series_part_note(sim_series_part *p, const ruleset *rs, const char *options, int players) {
    p->players = players;
    p->id = cairn_strdup(rs->id), p->version = cairn_strdup(rs->version);
    p->fingerprint = cairn_strdup(rs->fingerprint), p->options = cairn_strdup(options ? options : "");
    return p->id && p->version && p->fingerprint && p->options ? 0 : -1;
}

void sim_series_part_free(sim_series_part *p) {
    free(p->id), free(p->version), free(p->fingerprint), free(p->options);
    p->id = p->version = p->fingerprint = p->options = NULL;
}

void sim_series_part_write(FILE *f, const sim_series_part *p, const char *games, int interrupted, const sim_series *s) {
    long first = (long)((p->shard_k - 1) * p->games / p->shard_n), last = (long)(p->shard_k * p->games / p->shard_n);
    fprintf(f, "{\"format\": \"cairn-sim\", \"version\": %d,\n \"run\": {\"ruleset\": ", SIM_FORMAT_VERSION);
    json_string_writez(f, p->ruleset);
    const char *strs[][2] = {{"cairn_version", CAIRN_VERSION}, {"id", p->id ? p->id : ""},
                             {"ruleset_version", p->version ? p->version : ""},
                             {"fingerprint", p->fingerprint ? p->fingerprint : ""}, {"options", p->options ? p->options : ""},
                             {"label_a", ""}, {"play_a", ""}, {"starter", ""}, {"bots", p->sweep}, {"series", p->sweep}};
    for (size_t i = 0; i < sizeof strs / sizeof *strs; i++) {
        fprintf(f, ", \"%s\": ", strs[i][0]);
        json_string_writez(f, strs[i][1]);
    }
    fprintf(f, ", \"values\": %d, \"players\": %d, \"checks\": %s, \"compare\": false, \"games\": %ld, \"seed\": %" PRIu64
               ", \"shard\": [%ld, %ld], \"first\": %ld, \"last\": %ld},\n \"games\": [\n",
            p->n, p->players, p->checks ? "true" : "false", p->games, p->seed, p->shard_k, p->shard_n, first, last);
    fputs(games ? games : "", f);
    fprintf(f, "\n ],\n \"interrupted\": %s,\n \"summary\": ", interrupted ? "true" : "false");
    sim_series_json(f, s, p->sweep);
    fputs("}\n", f);
}

int sim_series_merge(sim_rec *recs, size_t n, const value *run, const char *json, const char *report,
                     const char *command, FILE *out, FILE *err) {
    const char *sweep = value_get_str(run, "series", "");
    int players = (int)value_get_int(run, "players", 0);
    sim_series s;
    if (sim_series_parse(sweep, &s, err) != 1) return 1;
    if (s.n != value_get_int(run, "values", 0))
        return sim_series_free(&s), fprintf(err, "cairn sim merge: the parts' \"values\" is not the count of %s\n", sweep), 1;
    sim_totals t[CAIRN_SIM_MAX_VARIANTS];
    memset(t, 0, sizeof t);
    int rc = 0;
    for (int k = 0; k < s.n && !rc; k++)
        if (sim_totals_init(&t[k], s.players ? s.seats[k] : players) != 0) rc = 1;
    for (size_t i = 0; i < n && !rc; i++) { /* game order within each value, as the run counts them */
        int k = recs[i].variant;
        recs[i].variant = 0;
        if (sim_totals_add(&t[k], &recs[i]) != 0) rc = 1;
        recs[i].variant = k;
    }
    if (rc) fprintf(err, "cairn sim merge: out of memory\n");
    long failed = 0;
    for (int k = 0; k < s.n && !rc; k++) sim_series_take(&s, k, &t[k]), failed += t[k].failed;
    char *text = NULL;
    size_t tlen = 0;
    FILE *m = rc ? NULL : open_memstream(&text, &tlen); /* printed, and on the page */
    if (!rc && !m) rc = (fprintf(err, "cairn sim merge: out of memory\n"), 1);
    if (m) sim_series_report(m, &s, sweep);
    if (m && fclose(m) != 0) rc = (fprintf(err, "cairn sim merge: out of memory\n"), 1);
    if (!rc) {
        fputs(text, out);
        char why[128];
        FILE *f = json ? safe_fopen_write(json, why, sizeof why) : NULL; /* the table, as the whole run writes it */
        if (json && !f) rc = (fprintf(err, "cairn sim merge: cannot write %s: %s\n", json, why), 1);
        if (f) {
            sim_series_json(f, &s, sweep);
            if (fclose(f) != 0) rc = (fprintf(err, "cairn sim merge: writing %s failed\n", json), 1);
        }
        sim_series_page pg = {.ruleset = value_get_str(run, "ruleset", ""), .sweep = sweep,
                              .command = command ? command : "cairn sim merge",
                              .text = text, .games = (long)value_get_int(run, "games", 0),
                              .seed = (uint64_t)value_get_int(run, "seed", 0)};
        if (report && sim_series_html(report, &s, &pg, err)) rc = 1;
    }
    free(text);
    for (int k = 0; k < s.n; k++) sim_totals_free(&t[k]);
    sim_series_free(&s);
    return rc ? rc : failed ? 1 : 0;
}
