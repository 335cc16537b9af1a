/*
** sim_merge.c
** `cairn sim merge PARTS... [--json OUT] [--csv OUT] [--report OUT.html]`: the JSON parts of a
** run spread with --shard K/N, combined into the report one run gives. A
** part is read line by line (docs/simulation.md, "The JSON layout"): its
** "run" line and one game record per line. Parts are matched by the
** ruleset's fingerprint, not by its path (every node of a cluster has its
** own): parts from different rulesets' files, settings or cairn versions
** are refused, and so is a missing or doubled shard.
*/
#include "sim.h"
#include "grow.h"
#include "sim_internal.h"
#include "error.h"
#include "limits.h"
#include "markup.h"
#include "safe_open.h"
#include "yload.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

typedef struct part {
    const char *path;
    value *run;
    int interrupted;
    long first, last; /* its games: indices first .. last - 1 */
    int variants;
    size_t n_recs;
} part;

typedef struct merged {
    part *parts;
    size_t n_parts;
    sim_rec *recs;
    size_t n, cap;
} merged;

static int int_in(const value *run, const char *key, int64_t lo, int64_t hi, int64_t *out) {
    const value *v = value_map_get(run, key);
    if (!v || v->type != CV_INT || v->u.i < lo || v->u.i > hi) return -1;
    *out = v->u.i;
    return 0;
}

/* How many variants each game of the run was played in: a factorial's
** combinations (2 to the factors, each a comma apart), a sweep's values,
** the two of a comparison, or one. */
static int run_variants(const value *run) {
    const char *factorial = value_get_str(run, "factorial", ""), *sweep = value_get_str(run, "sweep", "");
    if (*factorial) {
        int factors = 1;
        for (const char *p = factorial; *p; p++) factors += *p == ',';
        return factors >= 2 && factors <= SIM_FACTORIAL_MAX ? 1 << factors : -1;
    }
    if (value_map_get(run, "series")) { /* a --sweep players/bots series: its values */
        const value *v = value_map_get(run, "values");
        return v && v->type == CV_INT && v->u.i >= 2 && v->u.i <= CAIRN_SIM_MAX_VARIANTS ? (int)v->u.i : -1;
    }
    return *sweep ? sim_sweep_variants(sweep) : value_get_bool(run, "compare", 0) ? 2 : 1;
}

/* The part's "run" is what cairn sim writes: every field it reads of its
** type, the counts in range ("shard": [true, 2] is no shard 1). NULL, or
** which field is wrong. */
static const char *run_fault(part *p) {
    const value *run = p->run;
    static const char *const strs[] = {"ruleset", "id", "ruleset_version", "fingerprint", "fingerprint_b",
                                       "options", "label_a", "label_b", "play_a", "play_b", "starter",
                                       "bots", "find", "sweep", "tournament", "skill", "field", "factorial", "series"};
    for (size_t i = 0; i < sizeof strs / sizeof *strs; i++) {
        const value *v = value_map_get(run, strs[i]);
        if (v && v->type != CV_STR) return strs[i];
    }
    static const char *const bools[] = {"checks", "compare"};
    for (size_t i = 0; i < sizeof bools / sizeof *bools; i++) {
        const value *v = value_map_get(run, bools[i]);
        if (v && v->type != CV_BOOL) return bools[i];
    }
    int64_t games, players, first, last;
    if (int_in(run, "games", 1, CAIRN_SIM_MAX_GAMES, &games)) return "games";
    if (int_in(run, "players", 1, CAIRN_MAX_SEATS, &players)) return "players";
    if (value_map_get(run, "seed") && int_in(run, "seed", INT64_MIN, INT64_MAX, &first)) return "seed";
    if (int_in(run, "first", 0, games, &first)) return "first";
    if (int_in(run, "last", first, games, &last)) return "last";
    const value *sh = value_map_get(run, "shard");
    if (!sh || sh->type != CV_LIST || sh->u.list.n != 2 || sh->u.list.items[0]->type != CV_INT ||
        sh->u.list.items[1]->type != CV_INT || sh->u.list.items[1]->u.i < 1 ||
        sh->u.list.items[1]->u.i > games || sh->u.list.items[0]->u.i < 1 ||
        sh->u.list.items[0]->u.i > sh->u.list.items[1]->u.i)
        return "shard";
    int variants = run_variants(run);
    if (variants < 1 || variants > CAIRN_SIM_MAX_VARIANTS) return value_map_get(run, "factorial") ? "factorial" : "sweep";
    p->first = (long)first, p->last = (long)last, p->variants = variants;
    return NULL;
}

static int push_rec(merged *m, const char *line, size_t len) {
    if (GROW(m->recs, m->cap, m->n + 1) != 0) return -1;
    if (sim_rec_parse(line, len, &m->recs[m->n]) != 0) return -1;
    m->n++;
    return 0;
}

/* Reads one part. 0, or 1 after printing what is wrong and where. */
static int read_part(merged *m, part *p, FILE *err) {
    char why[128];
    FILE *f = safe_fopen_read(p->path, NULL, why, sizeof why); /* a regular file: never a FIFO */
    if (!f) return fprintf(err, "cairn sim merge: cannot read %s: %s\n", p->path, why), 1;
    struct stat st; /* a sparse or growing file: refused before getline grows a line */
    if (fstat(fileno(f), &st) == 0 && st.st_size > CAIRN_TEXT_MAX_FILE_BYTES) {
        fclose(f);
        return fprintf(err, "cairn sim merge: %s: larger than %ld bytes (limit CAIRN_TEXT_MAX_FILE_BYTES)\n",
                       p->path, (long)CAIRN_TEXT_MAX_FILE_BYTES), 1;
    }
    char *line = NULL;
    size_t cap = 0, total = 0;
    ssize_t len;
    long lineno = 0;
    int rc = 0, ended = 0;
    while (rc == 0 && (len = getline(&line, &cap, f)) > 0) {
        lineno++;
        total += (size_t)len;
        if (total > (size_t)CAIRN_TEXT_MAX_FILE_BYTES) {
            fprintf(err, "cairn sim merge: %s: larger than %ld bytes (limit CAIRN_TEXT_MAX_FILE_BYTES)\n",
                    p->path, (long)CAIRN_TEXT_MAX_FILE_BYTES);
            rc = 1;
            break;
        }
        while (len && (line[len - 1] == '\n' || line[len - 1] == ',')) line[--len] = '\0';
        if (!strncmp(line, " \"run\": ", 8)) {
            cerr_list errs;
            cerr_init(&errs, 0);
            value_free(p->run); /* a second "run" line replaces the first */
            p->run = yload_string(p->path, line + 8, (size_t)len - 8, NULL, &errs);
            cerr_free(&errs);
            const char *fault = p->run && p->run->type == CV_MAP ? run_fault(p) : NULL;
            if (fault) {
                fprintf(err, "cairn sim merge: %s:%ld: the run's \"%s\" is not what cairn sim writes\n", p->path,
                        lineno, fault);
                fclose(f);
                free(line);
                return 1;
            }
            if (!p->run || p->run->type != CV_MAP) rc = 1;
        } else if (!strncmp(line, "  {\"index\": ", 12)) {
            /* a record belongs to the games of its part, each game once per
            ** variant: no more records than that (a part claiming 6 games
            ** holds at most 6 per variant) */
            if (p->run && p->n_recs >= (size_t)(p->last - p->first) * (size_t)p->variants) {
                fprintf(err, "cairn sim merge: %s:%ld: more records than the part's %ld game%s (times %d "
                        "variant%s)\n", p->path, lineno, p->last - p->first, p->last - p->first == 1 ? "" : "s",
                        p->variants, p->variants == 1 ? "" : "s");
                fclose(f);
                free(line);
                return 1;
            }
            if (!p->run || push_rec(m, line + 2, (size_t)len - 2) != 0) {
                rc = 1;
            } else if (m->recs[m->n - 1].index < p->first || m->recs[m->n - 1].index >= p->last) {
                fprintf(err, "cairn sim merge: %s:%ld: game %ld is not one of the part's games %ld to %ld\n", p->path,
                        lineno, m->recs[m->n - 1].index, p->first, p->last - 1);
                fclose(f);
                free(line);
                return 1;
            } else {
                p->n_recs++;
            }
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

/* What must be equal for two parts to be shards of one run: the settings
** less the ruleset's path as each node named it (the "ruleset" field and the
** replay commands, which hold it): the fingerprints say the files are the
** same wherever they lie. */
static value *identity(const value *run) {
    value *v = settings(run);
    if (!v) return NULL;
    value_map_del(v, "ruleset");
    for (char c = 'a'; c < 'a' + CAIRN_SIM_MAX_VARIANTS; c++) {
        char key[8] = {'p', 'l', 'a', 'y', '_', c, '\0'};
        value_map_del(v, key);
    }
    return v;
}

static int shard_of(const value *run, int64_t *k, int64_t *n) {
    const value *s = value_map_get(run, "shard");
    if (!s || s->type != CV_LIST || s->u.list.n != 2) return -1;
    *k = s->u.list.items[0]->u.i, *n = s->u.list.items[1]->u.i;
    return 0;
}

static const char *run_str(const value *run, const char *key) { return value_get_str(run, key, ""); }

/* The parts are one run's shards, each once. 0, or 1 after saying why not. */
static int check_parts(const merged *m, FILE *err) {
    value *first = identity(m->parts[0].run);
    int64_t k = 0, n = 0, n0 = 0;
    int rc = !first || shard_of(m->parts[0].run, &k, &n0) != 0;
    char *seen = rc ? NULL : calloc((size_t)n0 + 1, 1);
    if (!seen) return value_free(first), fprintf(err, "cairn sim merge: out of memory\n"), 1;
    const char *bots = value_get_str(first, "bots", "");
    if ((!strncmp(bots, "tournament ", 11) && !value_map_get(first, "tournament")) ||
        (!strncmp(bots, "skill ", 6) && !value_map_get(first, "skill"))) /* its bots are not in the part */
        rc = (fprintf(err, "cairn sim merge: %s is a %s run from an older cairn, whose parts do not name the bots: "
                           "play it again with this cairn\n", m->parts[0].path, bots[0] == 't' ? "--tournament" : "--skill"), 1);
    for (size_t i = 0; i < m->n_parts && !rc; i++) {
        value *s = identity(m->parts[i].run);
        if (!s || !value_equal(s, first, 0)) {
            const char *why = "settings";
            const char *keys[] = {"cairn_version", "fingerprint", "fingerprint_b", "options", "games", "seed", "bots"};
            for (size_t j = 0; s && j < sizeof keys / sizeof *keys; j++)
                if (!value_equal(value_map_get(s, keys[j]), value_map_get(first, keys[j]), 0)) {
                    why = keys[j];
                    break;
                }
            if (!strcmp(why, "cairn_version"))
                fprintf(err, "cairn sim merge: %s was played by cairn %s, %s by cairn %s: play every shard with one cairn\n",
                        m->parts[i].path, run_str(m->parts[i].run, "cairn_version")[0] ? run_str(m->parts[i].run, "cairn_version") : "unknown (no cairn_version)",
                        m->parts[0].path, run_str(m->parts[0].run, "cairn_version")[0] ? run_str(m->parts[0].run, "cairn_version") : "unknown (no cairn_version)");
            else
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


int sim_merge(int argc, char **argv, FILE *out, FILE *err) {
    merged m;
    memset(&m, 0, sizeof m);
    const char *json = NULL, *csv = NULL, *report = NULL;
    int rc = 0;
    if (!(m.parts = calloc((size_t)argc, sizeof *m.parts))) return fprintf(err, "cairn sim merge: out of memory\n"), 1;
    cli_parser p;
    cli_item it;
    char *why;
    int got;
    cli_start(&p, argc, argv, sim_merge_flag_tables);
    while ((got = cli_next(&p, &it, &why)) > 0) {
        if (cli_is(&it, "json")) json = it.values[0];
        else if (cli_is(&it, "csv")) csv = it.values[0];
        else if (cli_is(&it, "report")) report = it.values[0];
        else m.parts[m.n_parts++].path = it.values[0];
    }
    if (got < 0) {
        fprintf(err, "cairn sim merge: %s\nusage: %s\n", why ? why : "out of memory", SIM_MERGE_USAGE);
        free(why);
        free(m.parts);
        return 2;
    }
    if (!m.n_parts) {
        fprintf(err, "cairn sim merge: which parts?\nusage: %s\n", SIM_MERGE_USAGE);
        free(m.parts);
        return 2;
    }
    /* the command that makes the page again: argv is sim_run's after "sim" */
    char *command = report ? sim_lab_command(argc + 1, argv - 1) : NULL;
    for (size_t i = 0; i < m.n_parts && !rc; i++) rc = read_part(&m, &m.parts[i], err);
    if (!rc) rc = check_parts(&m, err);
    sim_totals t;
    sim_compare c[CAIRN_SIM_MAX_VARIANTS - 1];
    memset(&t, 0, sizeof t);
    memset(c, 0, sizeof c);
    const value *run = rc ? NULL : m.parts[0].run;
    const char *sweep = run && *run_str(run, "sweep") ? run_str(run, "sweep") : NULL;
    int players = (int)value_get_int(run, "players", 0), compare = value_get_bool(run, "compare", 0);
    int variants = run ? run_variants(run) : 1;
    if (!rc && (variants < 1 || variants > CAIRN_SIM_MAX_VARIANTS))
        rc = (fprintf(err, "cairn sim merge: %s: a sweep of %d values\n", m.parts[0].path, variants), 1);
    int bad_init = 0;
    if (!rc && variants == 1) bad_init = sim_totals_init(&t, players) != 0;
    for (int k = 1; !rc && k < variants; k++) bad_init |= sim_compare_init(&c[k - 1], players) != 0;
    if (!rc && bad_init) rc = (fprintf(err, "cairn sim merge: a part names %d players\n", players), 1);
    /* a tournament's, a skill curve's and a factorial's own figures, counted
    ** again from the games as the run counts them (sim_merge_lab.c) */
    sim_merge_lab lab;
    memset(&lab, 0, sizeof lab);
    if (!rc && sim_merge_lab_start(&lab, run, players, err) != 0) rc = 1;
    char **lines = NULL;
    if (!rc) qsort(m.recs, m.n, sizeof *m.recs, rec_order);
    if (!rc && value_map_get(run, "series")) { /* a --sweep players/bots series: one table (sim_series.c) */
        for (size_t i = 1; i < m.n && !rc; i++)
            if (!rec_order(&m.recs[i], &m.recs[i - 1]))
                rc = (fprintf(err, "cairn sim merge: game %ld is in two parts\n", m.recs[i].index), 1);
        for (size_t i = 0; i < m.n && !rc; i++)
            if (m.recs[i].variant < 0 || m.recs[i].variant >= variants)
                rc = (fprintf(err, "cairn sim merge: game %ld has value %d of %d\n", m.recs[i].index, m.recs[i].variant,
                              variants), 1);
        if (!rc && csv) rc = (fprintf(err, "cairn sim merge: a --sweep %s series has no CSV\n", run_str(run, "series")), 1);
        if (!rc) rc = sim_series_merge(m.recs, m.n, run, json, report, command, out, err);
        goto done;
    }
    /* the merged file's game lines, made before adding moves records out */
    lines = json && !rc ? calloc(m.n ? m.n : 1, sizeof *lines) : NULL;
    if (json && !rc && !lines) rc = (fprintf(err, "cairn sim merge: out of memory\n"), 1);
    for (size_t i = 0; lines && i < m.n && !rc; i++)
        if (!(lines[i] = sim_rec_json(&m.recs[i]))) rc = (fprintf(err, "cairn sim merge: out of memory\n"), 1);
    for (size_t i = 0; i < m.n && !rc; i++) {
        if (i && !rec_order(&m.recs[i], &m.recs[i - 1]))
            rc = (fprintf(err, "cairn sim merge: game %ld is in two parts\n", m.recs[i].index), 1);
        else if (m.recs[i].variant < 0 || m.recs[i].variant >= variants)
            rc = (fprintf(err, "cairn sim merge: game %ld has variant %d of %d\n", m.recs[i].index,
                          m.recs[i].variant, variants), 1);
        else if (sim_merge_lab_add(&lab, &m.recs[i]) != 0 || sim_variants_add(&t, c, variants, &m.recs[i]) != 0)
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
            .sweep = sweep, .seatings = lab.tour ? sim_tour_seatings(lab.tour) : 0, .width = markup_tty_width(STDOUT_FILENO)};
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
        sim_merge_lab_report(out, &lab);
        if (report) { /* the page, from the figures the merged --json holds */
            sim_html page = {.h = &h, .command = command ? command : "cairn sim merge", .variants = variants,
                             .t = variants == 1 ? &t : NULL, .cmp = c, .tour = lab.tour,
                             .fact = lab.fact};
            if (sim_report_html(report, &page, err)) rc = 1;
        }
        char why[128];
        FILE *f = json ? safe_fopen_write(json, why, sizeof why) : NULL;
        if (json && !f) rc = (fprintf(err, "cairn sim merge: cannot write %s: %s\n", json, why), 1);
        if (f) { /* the layout of one run's file: the run as shard 1/1 */
            value *s = settings(run);
            fprintf(f, "{\"format\": \"cairn-sim\", \"version\": %d,\n \"run\": {\"ruleset\": ", SIM_FORMAT_VERSION);
            json_string_writez(f, h.ruleset);
            for (size_t i = 0; s && i < s->u.map.n; i++) {
                const char *k = s->u.map.items[i].key->u.str.s;
                const value *v = s->u.map.items[i].val;
                if (!strcmp(k, "ruleset")) continue;
                fprintf(f, ", \"%s\": ", k);
                if (v->type == CV_STR) json_string_writez(f, v->u.str.s);
                else if (v->type == CV_BOOL) fputs(v->u.b ? "true" : "false", f);
                else fprintf(f, "%" PRId64, v->u.i);
            }
            value_free(s);
            fprintf(f, ", \"shard\": [1, 1], \"first\": 0, \"last\": %ld},\n \"games\": [\n", h.games);
            for (size_t i = 0; i < m.n; i++) fprintf(f, "%s  %s", i ? ",\n" : "", lines[i]);
            fputs("\n ],\n \"interrupted\": false", f);
            sim_merge_lab_json(f, &lab);
            fputs(",\n \"summary\": ", f);
            if (lab.fact) {
                fputs("{\"factorial\": ", f);
                sim_factorial_json(f, lab.fact);
                fputs(", \"sweep\": ", f);
                sim_report_sweep_json(f, sweep, c, variants);
                fputc('}', f);
            } else if (sweep) sim_report_sweep_json(f, sweep, c, variants);
            else if (compare) sim_report_compare_json(f, &c[0]);
            else sim_report_json(f, &t);
            fputs("}\n", f);
            if (fclose(f) != 0) rc = (fprintf(err, "cairn sim merge: writing %s failed\n", json), 1);
        }
        FILE *cf = csv ? fopen(csv, "w") : NULL;
        if (csv && !cf) rc = (fprintf(err, "cairn sim merge: cannot write %s\n", csv), 1);
        if (cf) { /* one run's CSV: every game of every part, in game order */
            sim_csv_head(cf, players);
            for (size_t i = 0; i < m.n; i++) sim_csv_row(cf, &m.recs[i], players);
            if (fclose(cf) != 0) rc = (fprintf(err, "cairn sim merge: writing %s failed\n", csv), 1);
        }
        long failed = variants == 1 ? t.failed : c[0].t[0].failed;
        for (int k = 1; k < variants; k++) failed += c[k - 1].t[1].failed;
        if (!rc && failed) rc = 1;
    }
done:
    free(command);
    sim_merge_lab_free(&lab);
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
