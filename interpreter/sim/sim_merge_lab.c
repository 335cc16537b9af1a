/*
** sim_merge_lab.c
** The part of `cairn sim merge` that counts a tournament's, a skill
** curve's and a factorial's figures again from the merged games: the parts'
** run line names the bots ("tournament", or "skill" and "field") and the
** factors ("factorial"); each record, taken in game order as the run takes
** it, goes to the same counters, so the merged report is the unsharded
** run's, figure for figure (only the CPU per decision, which the parts do
** not keep, is left out).
*/
#include "sim_internal.h"

#include <string.h>

int sim_merge_lab_start(sim_merge_lab *l, const value *run, int players, FILE *err) {
    memset(l, 0, sizeof *l);
    if (!run) return 0;
    const char *tournament = value_get_str(run, "tournament", ""), *skill = value_get_str(run, "skill", "");
    const char *factorial = value_get_str(run, "factorial", "");
    /* skill keeps its spec borrowed: the run line outlives the merge's counting */
    if (*skill && !(l->tour = sim_skill_new(skill, value_get_str(run, "field", "random"), players, err))) return -1;
    if (*tournament && !(l->tour = sim_tour_new(tournament, players, err))) return -1;
    if (*factorial && !(l->fact = sim_factorial_new(factorial, players)))
        return fprintf(err, "cairn sim merge: out of memory\n"), -1;
    return 0;
}

int sim_merge_lab_add(sim_merge_lab *l, const sim_rec *r) {
    if (l->tour && sim_tour_add(l->tour, r) != 0) return -1;
    if (l->fact) sim_factorial_add(l->fact, r);
    return 0;
}

void sim_merge_lab_report(FILE *out, const sim_merge_lab *l) {
    if (l->fact) sim_factorial_report(out, l->fact);
    if (l->tour) sim_tour_report(out, l->tour);
}

void sim_merge_lab_json(FILE *f, const sim_merge_lab *l) {
    if (!l->tour) return;
    fputs(l->tour->skill ? ",\n \"skill\": " : ",\n \"tournament\": ", f);
    sim_tour_json(f, l->tour);
}

void sim_merge_lab_free(sim_merge_lab *l) {
    sim_tour_free(l->tour);
    sim_factorial_free(l->fact);
    memset(l, 0, sizeof *l);
}
