/*
** sim_skill.c
** `cairn sim GAME --skill mcts:iterations=10,100,1000 [--field BOT]`: how
** much skill matters. Each level of one bot parameter takes each seat in
** turn against a fixed field (random by default) in the others, every seed
** in every (level, seat); the win share of each level is a curve with
** intervals, each level against the first on paired seeds, and a verdict in
** words: a flat curve says that, against this field, the game plays like
** luck at these levels.
*/
#include "sim_internal.h"
#include "json_string.h"
#include "error.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* "mcts:iterations=10,100,1000,depth=5": the level specs, one per value of
** the parameter that has several. n levels, or -1 after printing why. */
static int level_specs(const char *skill, char **spec, FILE *err) {
    const char *colon = strchr(skill, ':');
    if (!colon || !strchr(colon, '='))
        return fprintf(err, "cairn sim: --skill takes KIND:PARAM=V1,V2,... (mcts:iterations=10,100,1000), got \"%s\"\n",
                       skill), -1;
    char *copy = cairn_strdup(colon + 1);
    if (!copy) return fprintf(err, "cairn sim: out of memory\n"), -1;
    /* the parameters: name=value, and values alone that add to the last one */
    const char *name[32], *vals[32][CAIRN_SIM_MAX_BOTS];
    int nv[32] = {0}, np = 0, varied = -1, n = -1;
    for (char *save = NULL, *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(tok, '=');
        if (eq) {
            if (np == 32) break;
            *eq = '\0', name[np] = tok, vals[np][0] = eq + 1, nv[np++] = 1;
        } else if (np && nv[np - 1] < CAIRN_SIM_MAX_BOTS - 1) {
            vals[np - 1][nv[np - 1]++] = tok;
        } else {
            np = 0;
            break;
        }
    }
    for (int i = 0; i < np; i++)
        if (nv[i] > 1) varied = varied < 0 ? i : -2;
    if (!np || varied < 0) {
        fprintf(err, "cairn sim: --skill takes one parameter with 2 to %d values (mcts:iterations=10,100,1000), got \"%s\"\n",
                CAIRN_SIM_MAX_BOTS - 1, skill);
    } else {
        n = nv[varied];
        for (int l = 0; l < n; l++) {
            char *buf = NULL;
            size_t len = 0;
            FILE *f = open_memstream(&buf, &len);
            if (!f) break;
            fprintf(f, "%.*s", (int)(colon - skill + 1), skill);
            for (int i = 0; i < np; i++) fprintf(f, "%s%s=%s", i ? "," : "", name[i], i == varied ? vals[i][l] : vals[i][0]);
            if (fclose(f) != 0) buf = NULL;
            if (!(spec[l] = buf)) {
                for (int j = 0; j < l; j++) free(spec[j]);
                n = -1;
                fprintf(err, "cairn sim: out of memory\n");
                break;
            }
        }
    }
    free(copy);
    return n;
}

sim_tour *sim_skill_new(const char *skill, const char *field, int players, FILE *err) {
    char *spec[CAIRN_SIM_MAX_BOTS] = {0};
    int n = level_specs(skill, spec, err);
    if (n < 0) return NULL;
    long m = (long)n * players;
    int *seating = malloc((size_t)m * (size_t)players * sizeof *seating);
    if (!seating || !(spec[n] = cairn_strdup(field ? field : "random"))) {
        for (int i = 0; i <= n; i++) free(spec[i]);
        free(seating);
        return fprintf(err, "cairn sim: out of memory\n"), NULL;
    }
    for (int l = 0; l < n; l++) /* row l * players + p: level l in seat p + 1, the field elsewhere */
        for (int p = 0; p < players; p++)
            for (int s = 0; s < players; s++) seating[(l * players + p) * players + s] = s == p ? l : n;
    sim_tour *t = sim_tour_new_seated(spec, n + 1, seating, m, players, err);
    if (t) t->skill = skill;
    return t;
}

/* Each level's paired difference from the first: per seed and seat, the
** level's share minus the first level's in the same seed and seat. */
stats_acc sim_skill_vs_first(const sim_tour *t, int level) {
    stats_acc d = {0};
    int players = t->players;
    for (long base = 0; base + t->m <= t->n_share; base += t->m)
        for (int p = 0; p < players; p++) {
            long a = base + p, b = base + (long)level * players + p;
            double x = t->share[a * players + p], y = t->share[b * players + p];
            if (!isnan(x) && !isnan(y)) stats_add(&d, y - x);
        }
    return d;
}

/* The curve's bars, in characters for 100%. */
#define BAR 30
/* A flat curve is called luck only when the interval of the last level
** against the first is at most this wide either side (5 points of win
** share); a wider one is "play more games". */
#define SKILL_LUCK_WIDTH 0.05

void sim_skill_report(FILE *out, const sim_tour *t) {
    int n = t->k - 1;
    double even = 1.0 / t->players;
    fprintf(out, "skill: %d levels of %s, each in every seat in turn against %s in the others; each seed played in "
                 "every (level, seat)\n",
            n, t->skill, t->spec[n]);
    if (!t->games) return;
    fprintf(out, "%-30s%7s%22s%26s\n", "level", "games", "win share [95%]", "vs the first [95%]");
    for (int l = 0; l < n; l++) {
        stats_interval w = stats_wilson(t->wins[l], (double)t->played[l]);
        double share = t->played[l] ? t->wins[l] / (double)t->played[l] : 0;
        char cell[48] = "", diff[64] = "";
        snprintf(cell, sizeof cell, "%.1f%% [%.1f, %.1f]", 100 * share, 100 * w.lo, 100 * w.hi);
        if (l > 0) {
            stats_acc d = sim_skill_vs_first(t, l);
            stats_interval di = stats_mean_ci(&d);
            snprintf(diff, sizeof diff, "%+.1f [%+.1f, %+.1f]", 100 * stats_mean(&d), 100 * di.lo, 100 * di.hi);
            fprintf(out, "  %-28s%7ld%22s%26s%s\n", t->spec[l], t->played[l], cell, diff,
                    stats_excludes_zero(di) ? " *" : "");
        } else {
            fprintf(out, "  %-28s%7ld%22s\n", t->spec[l], t->played[l], cell);
        }
    }
    fprintf(out, "curve (win share, 0 to 100%%; | the even share %.1f%%):\n", 100 * even);
    for (int l = 0; l < n; l++) {
        char bar[BAR + 2];
        double share = t->played[l] ? t->wins[l] / (double)t->played[l] : 0;
        int fill = (int)lround(share * BAR), mark = (int)lround(even * BAR);
        for (int i = 0; i <= BAR; i++) bar[i] = i < fill ? '#' : ' ';
        if (mark <= BAR) bar[mark] = '|';
        bar[BAR + 1] = '\0';
        fprintf(out, "  %-28s %s %.1f%%\n", t->spec[l], bar, 100 * share);
    }
    stats_acc d = sim_skill_vs_first(t, n - 1);
    stats_interval di = stats_mean_ci(&d);
    double m = stats_mean(&d);
    if (stats_excludes_zero(di) && m > 0)
        fprintf(out, "verdict: skill matters: the last level wins %.1f points of win share more than the first "
                     "[%+.1f, %+.1f] against this field\n",
                100 * m, 100 * di.lo, 100 * di.hi);
    else if (stats_excludes_zero(di))
        fprintf(out, "verdict: the curve falls: the last level wins %.1f points less often than the first [%+.1f, "
                     "%+.1f]; are the levels in order of strength?\n",
                -100 * m, 100 * di.lo, 100 * di.hi);
    else if (di.hi - di.lo > 2 * SKILL_LUCK_WIDTH)
        fprintf(out, "verdict: no difference beyond noise between the first level and the last (%+.1f [%+.1f, "
                     "%+.1f]), but the interval is too wide to call the game luck: play more games\n",
                100 * m, 100 * di.lo, 100 * di.hi);
    else
        fprintf(out, "verdict: a flat curve: from the first level to the last the win share moved %+.1f [%+.1f, "
                     "%+.1f], within noise; against this field the game plays like luck at these levels (or the "
                     "levels are too close to tell)\n",
                100 * m, 100 * di.lo, 100 * di.hi);
}

void sim_skill_json(FILE *f, const sim_tour *t) {
    int n = t->k - 1;
    fputs("{\"skill\": ", f);
    json_string_writez(f, t->skill);
    fputs(", \"field\": ", f);
    json_string_writez(f, t->spec[n]);
    fprintf(f, ", \"seats\": %d, \"seatings\": %ld, \"games\": %ld, \"levels\": [", t->players, t->m, t->games);
    stats_acc last = {0};
    for (int l = 0; l < n; l++) {
        stats_interval w = stats_wilson(t->wins[l], (double)t->played[l]);
        fprintf(f, "%s\n  {\"bot\": ", l ? "," : "");
        json_string_writez(f, t->spec[l]);
        fprintf(f, ", \"games\": %ld, \"wins\": %.6f, \"share\": %.6f, \"share_lo\": %.6f, \"share_hi\": %.6f",
                t->played[l], t->wins[l], t->played[l] ? t->wins[l] / (double)t->played[l] : 0, w.lo, w.hi);
        if (l) {
            stats_acc d = sim_skill_vs_first(t, l);
            stats_interval di = stats_mean_ci(&d);
            fprintf(f, ", \"vs_first\": {\"pairs\": %ld, \"diff\": %.6f, \"lo\": %.6f, \"hi\": %.6f, \"significant\": %s}",
                    d.n, stats_mean(&d), di.lo, di.hi, stats_excludes_zero(di) ? "true" : "false");
            last = d;
        } else {
            fputs(", \"vs_first\": null", f);
        }
        fputc('}', f);
    }
    stats_interval di = stats_mean_ci(&last);
    fprintf(f, "], \"verdict\": \"%s\"}",
            stats_excludes_zero(di)                ? (stats_mean(&last) > 0 ? "skill" : "falls")
            : di.hi - di.lo > 2 * SKILL_LUCK_WIDTH ? "unclear"
                                                   : "flat");
}
