/*
** sim_merge.c
** `cairn sim merge PARTS... [--json OUT] [--csv OUT]`: the JSON parts of a
** run spread with --shard K/N, combined into the report one run gives. A
** part is read line by line (docs/simulation.md, "The JSON layout"): its
** "run" line and one game record per line. Parts from different rulesets,
** fingerprints or settings are refused, and so is a missing or doubled
** shard.
*/
#include "sim.h"
#include "sim_internal.h"
#include "error.h"
#include "yload.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

typedef struct part {
    const char *path;
    value *run;
    int interrupted;
} part;

typedef struct merged {
    part *parts;
    size_t n_parts;
    sim_rec *recs;
    size_t n, cap;
} merged;

static int push_rec(merged *m, const char *line, size_t len) {
    if (m->n == m->cap) {
        size_t cap = m->cap ? m->cap * 2 : 1024;
        sim_rec *r = realloc(m->recs, cap * sizeof *r);
        if (!r) return -1;
        m->recs = r, m->cap = cap;
    }
    if (sim_rec_parse(line, len, &m->recs[m->n]) != 0) return -1;
    m->n++;
    return 0;
}

/* Reads one part. 0, or 1 after printing what is wrong and where. */
static int read_part(merged *m, part *p, FILE *err) {
    FILE *f = fopen(p->path, "r");
    if (!f) return fprintf(err, "cairn sim merge: cannot read %s\n", p->path), 1;
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    long lineno = 0;
    int rc = 0, ended = 0;
    while (rc == 0 && (len = getline(&line, &cap, f)) > 0) {
        lineno++;
        while (len && (line[len - 1] == '\n' || line[len - 1] == ',')) line[--len] = '\0';
        if (!strncmp(line, " \"run\": ", 8)) {
            cerr_list errs;
            cerr_init(&errs, 0);
            p->run = yload_string(p->path, line + 8, (size_t)len - 8, NULL, &errs);
            cerr_free(&errs);
            if (!p->run || p->run->type != CV_MAP) rc = 1;
        } else if (!strncmp(line, "  {\"index\": ", 12)) {
            if (push_rec(m, line + 2, (size_t)len - 2) != 0) rc = 1;
        } else if (!strncmp(line, " \"interrupted\": ", 16)) {
            p->interrupted = !strcmp(line + 16, "true");
            ended = 1;
        }
        if (rc) fprintf(err, "cairn sim merge: %s:%ld: not a line of a cairn sim part\n", p->path, lineno);
    }
    free(line);
    fclose(f);
    if (rc == 0 && (!p->run || !ended))
        rc = (fprintf(err, "cairn sim merge: %s: not a whole cairn sim part (no \"run\" or no end)\n", p->path), 1);
    if (rc == 0 && p->interrupted)
        rc = (fprintf(err, "cairn sim merge: %s: that part was interrupted; run its shard again\n", p->path), 1);
    return rc;
}

/* The run without what differs between the shards of one run. */
static value *settings(const value *run) {
    value *v = value_clone(run);
    if (v) value_map_del(v, "shard"), value_map_del(v, "first"), value_map_del(v, "last");
    return v;
}

static int shard_of(const value *run, int64_t *k, int64_t *n) {
    const value *s = value_map_get(run, "shard");
    if (!s || s->type != CV_LIST || s->u.list.n != 2) return -1;
    *k = s->u.list.items[0]->u.i, *n = s->u.list.items[1]->u.i;
    return 0;
}

/* The parts are one run's shards, each once. 0, or 1 after saying why not. */
static int check_parts(const merged *m, FILE *err) {
    value *first = settings(m->parts[0].run);
    int64_t k = 0, n = 0, n0 = 0;
    int rc = !first || shard_of(m->parts[0].run, &k, &n0) != 0;
    char *seen = rc ? NULL : calloc((size_t)n0 + 1, 1);
    if (!seen) return value_free(first), fprintf(err, "cairn sim merge: out of memory\n"), 1;
    if (!strncmp(value_get_str(first, "bots", ""), "tournament ", 11)) /* its seatings are not in the parts */
        rc = (fprintf(err, "cairn sim merge: %s is a --tournament run, which plays in one piece\n", m->parts[0].path), 1);
    for (size_t i = 0; i < m->n_parts && !rc; i++) {
        value *s = settings(m->parts[i].run);
        if (!s || !value_equal(s, first, 0)) {
            const char *why = "settings";
            const char *keys[] = {"ruleset", "fingerprint", "fingerprint_b", "options", "games", "seed", "bots"};
            for (size_t j = 0; s && j < sizeof keys / sizeof *keys; j++)
                if (!value_equal(value_map_get(s, keys[j]), value_map_get(first, keys[j]), 0)) {
                    why = keys[j];
                    break;
                }
            fprintf(err, "cairn sim merge: %s is from another run than %s (its %s differ%s)\n", m->parts[i].path,
                    m->parts[0].path, why, why[strlen(why) - 1] == 's' ? "" : "s");
            rc = 1;
        } else if (shard_of(m->parts[i].run, &k, &n) != 0 || n != n0 || k < 1 || k > n || seen[k]) {
            fprintf(err, "cairn sim merge: %s: shard %" PRId64 "/%" PRId64 " is given twice or does not fit %" PRId64
                         " shards\n", m->parts[i].path, k, n, n0);
            rc = 1;
        } else {
            seen[k] = 1;
        }
        value_free(s);
    }
    for (int64_t j = 1; j <= n0 && !rc; j++)
        if (!seen[j]) rc = (fprintf(err, "cairn sim merge: shard %" PRId64 " of %" PRId64 " is missing\n", j, n0), 1);
    free(seen);
    value_free(first);
    return rc;
}

static int rec_order(const void *a, const void *b) {
    const sim_rec *x = a, *y = b;
    if (x->index != y->index) return x->index < y->index ? -1 : 1;
    return (x->variant > y->variant) - (x->variant < y->variant);
}

static const char *run_str(const value *run, const char *key) { return value_get_str(run, key, ""); }

int sim_merge(int argc, char **argv, FILE *out, FILE *err) {
    merged m;
    memset(&m, 0, sizeof m);
    const char *json = NULL;
    int rc = 0;
    if (!(m.parts = calloc((size_t)argc, sizeof *m.parts))) return fprintf(err, "cairn sim merge: out of memory\n"), 1;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--json") && i + 1 < argc) json = argv[++i];
        else if (argv[i][0] == '-') {
            fprintf(err, "cairn sim merge: unknown flag \"%s\"\nusage: %s\n", argv[i], SIM_MERGE_USAGE);
            free(m.parts);
            return 2;
        } else m.parts[m.n_parts++].path = argv[i];
    }
    if (!m.n_parts) {
        fprintf(err, "cairn sim merge: which parts?\nusage: %s\n", SIM_MERGE_USAGE);
        free(m.parts);
        return 2;
    }
    for (size_t i = 0; i < m.n_parts && !rc; i++) rc = read_part(&m, &m.parts[i], err);
    if (!rc) rc = check_parts(&m, err);
    sim_totals t;
    sim_compare c[CAIRN_SIM_MAX_VARIANTS - 1];
    memset(&t, 0, sizeof t);
    memset(c, 0, sizeof c);
    const value *run = rc ? NULL : m.parts[0].run;
    const char *sweep = run && *run_str(run, "sweep") ? run_str(run, "sweep") : NULL;
    int players = (int)value_get_int(run, "players", 0), compare = value_get_bool(run, "compare", 0);
    int variants = sweep ? sim_sweep_variants(sweep) : compare ? 2 : 1;
    if (!rc && (variants < 1 || variants > CAIRN_SIM_MAX_VARIANTS))
        rc = (fprintf(err, "cairn sim merge: %s: a sweep of %d values\n", m.parts[0].path, variants), 1);
    int bad_init = 0;
    if (!rc && variants == 1) bad_init = sim_totals_init(&t, players) != 0;
    for (int k = 1; !rc && k < variants; k++) bad_init |= sim_compare_init(&c[k - 1], players) != 0;
    if (!rc && bad_init) rc = (fprintf(err, "cairn sim merge: a part names %d players\n", players), 1);
    if (!rc) qsort(m.recs, m.n, sizeof *m.recs, rec_order);
    /* the merged file's game lines, made before adding moves records out */
    char **lines = json && !rc ? calloc(m.n ? m.n : 1, sizeof *lines) : NULL;
    if (json && !rc && !lines) rc = (fprintf(err, "cairn sim merge: out of memory\n"), 1);
    for (size_t i = 0; lines && i < m.n && !rc; i++)
        if (!(lines[i] = sim_rec_json(&m.recs[i]))) rc = (fprintf(err, "cairn sim merge: out of memory\n"), 1);
    for (size_t i = 0; i < m.n && !rc; i++) {
        if (i && !rec_order(&m.recs[i], &m.recs[i - 1]))
            rc = (fprintf(err, "cairn sim merge: game %ld is in two parts\n", m.recs[i].index), 1);
        else if (m.recs[i].variant < 0 || m.recs[i].variant >= variants)
            rc = (fprintf(err, "cairn sim merge: game %ld has variant %d of %d\n", m.recs[i].index,
                          m.recs[i].variant, variants), 1);
        else if (sim_variants_add(&t, c, variants, &m.recs[i]) != 0)
            rc = (fprintf(err, "cairn sim merge: out of memory\n"), 1);
    }
    if (!rc) {
        sim_header h = {
            .ruleset = run_str(run, "ruleset"), .id = run_str(run, "id"), .version = run_str(run, "ruleset_version"),
            .fingerprint = run_str(run, "fingerprint"), .options = run_str(run, "options"),
            .label = {run_str(run, "label_a"), run_str(run, "label_b")},
            .play = {run_str(run, "play_a"), run_str(run, "play_b")}, .starter = run_str(run, "starter"),
            .players = players, .checks = value_get_bool(run, "checks", 0), .compare = compare,
            .games = (long)value_get_int(run, "games", 0), .seed = (uint64_t)value_get_int(run, "seed", 0),
            .bots = run_str(run, "bots"), .find = *run_str(run, "find") ? run_str(run, "find") : NULL,
            .sweep = sweep};
        char key[16];
        for (int i = 2; i < variants; i++) { /* a sweep's further columns */
            snprintf(key, sizeof key, "label_%c", 'a' + i);
            h.label[i] = run_str(run, key);
            snprintf(key, sizeof key, "play_%c", 'a' + i);
            h.play[i] = run_str(run, key);
        }
        if (sweep) sim_report_sweep(out, &h, c, variants, 0);
        else if (compare) sim_report_compare(out, &h, &c[0], 0);
        else sim_report_text(out, &h, &t, 0);
        FILE *f = json ? fopen(json, "w") : NULL;
        if (json && !f) rc = (fprintf(err, "cairn sim merge: cannot write %s\n", json), 1);
        if (f) { /* the layout of one run's file: the run as shard 1/1 */
            value *s = settings(run);
            fprintf(f, "{\"format\": \"cairn-sim\", \"version\": %d,\n \"run\": {\"ruleset\": ", SIM_FORMAT_VERSION);
            sim_json_string(f, h.ruleset);
            for (size_t i = 0; s && i < s->u.map.n; i++) {
                const char *k = s->u.map.items[i].key->u.str.s;
                const value *v = s->u.map.items[i].val;
                if (!strcmp(k, "ruleset")) continue;
                fprintf(f, ", \"%s\": ", k);
                if (v->type == CV_STR) sim_json_string(f, v->u.str.s);
                else if (v->type == CV_BOOL) fputs(v->u.b ? "true" : "false", f);
                else fprintf(f, "%" PRId64, v->u.i);
            }
            value_free(s);
            fprintf(f, ", \"shard\": [1, 1], \"first\": 0, \"last\": %ld},\n \"games\": [\n", h.games);
            for (size_t i = 0; i < m.n; i++) fprintf(f, "%s  %s", i ? ",\n" : "", lines[i]);
            fputs("\n ],\n \"interrupted\": false,\n \"summary\": ", f);
            if (sweep) sim_report_sweep_json(f, sweep, c, variants);
            else if (compare) sim_report_compare_json(f, &c[0]);
            else sim_report_json(f, &t);
            fputs("}\n", f);
            if (fclose(f) != 0) rc = (fprintf(err, "cairn sim merge: writing %s failed\n", json), 1);
        }
        long failed = variants == 1 ? t.failed : c[0].t[0].failed;
        for (int k = 1; k < variants; k++) failed += c[k - 1].t[1].failed;
        if (!rc && failed) rc = 1;
    }
    for (size_t i = 0; lines && i < m.n; i++) free(lines[i]);
    free(lines);
    sim_totals_free(&t);
    for (int k = 0; k < CAIRN_SIM_MAX_VARIANTS - 1; k++) sim_compare_free(&c[k]);
    for (size_t i = 0; i < m.n; i++) sim_rec_free(&m.recs[i]);
    free(m.recs);
    for (size_t i = 0; i < m.n_parts; i++) value_free(m.parts[i].run);
    free(m.parts);
    return rc;
}
